/**
 * The request target over HTTP: a path or query over 8192 bytes is answered 414 before any other work, and a key
 * anywhere in the URL (path or query, percent-encoded or not) is refused with 400 `invalid_request`, costs nothing,
 * and is never logged or echoed.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SearchIndex } from '../../../src/sandbox/storage.js';
import { MAX_PATH_BYTES, MAX_QUERY_BYTES } from '../../../src/sandbox/http/server.js';
import { DEFAULT_ACCOUNT_ID } from '../../../src/sandbox/state/store.js';
import { expectError, openSyntheticIndex, request, startTestServer, type TestServer } from './harness.js';

let root: string;
let index: SearchIndex;
let closeIndex: () => void;
let sandbox: TestServer;

beforeAll(async () => {
  ({ root, index, close: closeIndex } = await openSyntheticIndex('pravo-url-test-'));
});
afterAll(() => closeIndex?.());
beforeEach(async () => {
  sandbox = await startTestServer(root, index, { quotas: { search: 5 } });
});
afterEach(async () => {
  await sandbox.close();
});

const withKey = (): Record<string, string> => ({ 'x-api-key': sandbox.key, 'content-type': 'application/json' });
const SEARCH_BODY = JSON.stringify({ query: 'неустойка по договор', source_types: ['bulgarian_laws_regulations'] });

describe('long request targets', () => {
  it('a path over 8192 bytes → 414 invalid_request, before authentication, and the log holds only its start', async () => {
    const path = `/v1/search/${'a'.repeat(MAX_PATH_BYTES - 11 + 1)}`;
    expect(path.length).toBe(MAX_PATH_BYTES + 1);
    const reply = await request(sandbox.baseUrl, 'POST', path, { body: SEARCH_BODY });
    expect(expectError(reply, 414, 'invalid_request')).toContain(String(MAX_PATH_BYTES));
    expect(sandbox.logs).toHaveLength(1);
    expect(sandbox.logs[0]).toMatch(new RegExp(`^POST /v1/search/a{53}… \\(path of ${MAX_PATH_BYTES + 1} bytes\\) 414 0ms key=- req_`));
  });

  it('a path of exactly 8192 bytes is routed as usual (404)', async () => {
    const path = `/v1/nowhere/${'a'.repeat(MAX_PATH_BYTES - 12)}`;
    expect(path.length).toBe(MAX_PATH_BYTES);
    expectError(await request(sandbox.baseUrl, 'GET', path, { headers: withKey() }), 404, 'not_found');
  });

  it('a query over 8192 bytes → 414 invalid_request, nothing consumed', async () => {
    const query = `q=${'a'.repeat(MAX_QUERY_BYTES - 1)}`;
    const reply = await request(sandbox.baseUrl, 'POST', `/v1/search?${query}`, { headers: withKey(), body: SEARCH_BODY });
    expectError(reply, 414, 'invalid_request');
    expect(sandbox.logs[0]).toMatch(new RegExp(`^POST /v1/search\\?… \\(query of ${MAX_QUERY_BYTES + 1} bytes\\) 414 `));
    expect(sandbox.state.used(DEFAULT_ACCOUNT_ID, 'search')).toBe(0);
    // The connection still serves.
    expect((await request(sandbox.baseUrl, 'GET', '/v1/catalog/source-types', { headers: withKey() })).status).toBe(200);
  });

  it('a query of exactly 8192 bytes is served', async () => {
    const query = `q=${'a'.repeat(MAX_QUERY_BYTES - 2)}`;
    const reply = await request(sandbox.baseUrl, 'GET', `/v1/catalog/source-types?${query}`, { headers: withKey() });
    expect(reply.status).toBe(200);
  });

  it('a key inside a long path is not logged', async () => {
    const path = `/v1/x/${sandbox.key}/${'a'.repeat(MAX_PATH_BYTES)}`;
    expectError(await request(sandbox.baseUrl, 'GET', path), 414, 'invalid_request');
    expect(sandbox.logs.join('\n')).not.toContain(sandbox.key.slice(9, 20));
  });
});

describe('a key in the URL', () => {
  const encoded = (): string => sandbox.key.replaceAll('_', '%5F');
  const secret = (): string => sandbox.key.slice('sbx_live_'.length);

  it.each([
    ['in the query, percent-encoded', () => `/v1/search?x=${encoded()}`],
    ['in the query, encoded twice', () => `/v1/search?x=${sandbox.key.replaceAll('_', '%255F')}`],
    ['as a parameter named api_key, its name percent-encoded', () => `/v1/search?api%5Fkey=${encoded()}`],
    ['in the path, percent-encoded', () => `/v1/search/${encoded()}`],
    ['in the path', () => `/v1/search/${sandbox.key}`],
  ])('%s → 400 invalid_request, nothing consumed, neither echoed nor logged', async (_name, target) => {
    const reply = await request(sandbox.baseUrl, 'POST', target(), { headers: withKey(), body: SEARCH_BODY });
    expect(expectError(reply, 400, 'invalid_request')).toMatch(/never be placed in a URL/);
    expect(reply.text).not.toContain(secret().slice(0, 12));
    expect(sandbox.state.used(DEFAULT_ACCOUNT_ID, 'search')).toBe(0);
    expect(sandbox.logs).toHaveLength(1);
    expect(sandbox.logs[0]).toMatch(/^POST \/v1\/search.* 400 /);
    expect(sandbox.logs[0]).not.toContain(secret().slice(0, 12));
  });

  it('a path parameter holding a key is refused before the route sees it', async () => {
    const reply = await request(sandbox.baseUrl, 'GET', `/v1/answers/${encoded()}`, { headers: withKey() });
    expectError(reply, 400, 'invalid_request');
    expect(sandbox.logs[0]).toMatch(/^GET \/v1\/answers\/\[redacted\] 400 /);
  });

  it('malformed percent-encoding in the query or an unknown path is no 500', async () => {
    const headers = withKey();
    expect((await request(sandbox.baseUrl, 'GET', '/v1/catalog/source-types?x=%E0%A4%A&y=%ZZ&%', { headers })).status).toBe(200);
    expectError(await request(sandbox.baseUrl, 'GET', '/v1/nowhere/%E0%A4%A%ZZ', { headers }), 404, 'not_found');
  });
});
