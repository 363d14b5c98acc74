/**
 * The sandbox HTTP server (`src/sandbox/http/server.ts` with the routes of `src/sandbox/routes/`) mounted on
 * `node:http` at 127.0.0.1:0, with a real index built from a small synthetic corpus and a `SandboxState` with a search
 * quota: authentication, error bodies, validation, quota, routing, and that keys never reach the log.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SearchIndex } from '../../../src/sandbox/storage.js';
import { DEFAULT_ACCOUNT_ID } from '../../../src/sandbox/state/store.js';
import { LONG_ARTICLE_TEXT } from '../../helpers/synthetic-corpus.js';
import { expectError, openSyntheticIndex, request, startTestServer, type Reply, type TestServer } from './harness.js';

const SEARCH_QUOTA = 3;

let root: string;
let index: SearchIndex;
let closeIndex: () => void;

beforeAll(async () => {
  ({ root, index, close: closeIndex } = await openSyntheticIndex('pravo-server-test-'));
});

afterAll(() => closeIndex?.());

let sandbox: TestServer;

beforeEach(async () => {
  sandbox = await startTestServer(root, index, { quotas: { search: SEARCH_QUOTA } });
});

afterEach(async () => {
  await sandbox.close();
});

const call = (method: string, pathAndQuery: string, options: { headers?: Record<string, string>; body?: string } = {}): Promise<Reply> =>
  request(sandbox.baseUrl, method, pathAndQuery, options);

const withKey = (extra: Record<string, string> = {}): Record<string, string> => ({
  'x-api-key': sandbox.key,
  'content-type': 'application/json',
  ...extra,
});

const search = (body: unknown, headers: Record<string, string> = withKey()): Promise<Reply> =>
  call('POST', '/v1/search', { headers, body: typeof body === 'string' ? body : JSON.stringify(body) });

const VALID_QUERY = { query: 'неустойка по договор', source_types: ['bulgarian_laws_regulations'] };

describe('authentication', () => {
  it('no key → 401 missing_api_key', async () => {
    expectError(await search(VALID_QUERY, { 'content-type': 'application/json' }), 401, 'missing_api_key');
  });

  it('an empty X-API-Key → 401 missing_api_key', async () => {
    expectError(await search(VALID_QUERY, { 'x-api-key': '' }), 401, 'missing_api_key');
  });

  it('an unknown key → 401 invalid_api_key', async () => {
    const reply = await search(VALID_QUERY, withKey({ 'x-api-key': `sbx_live_${'Z'.repeat(32)}` }));
    expectError(reply, 401, 'invalid_api_key');
  });

  it('a malformed key → 401 invalid_api_key', async () => {
    expectError(await search(VALID_QUERY, withKey({ 'x-api-key': 'hello' })), 401, 'invalid_api_key');
  });

  it('a revoked key → 401 revoked_api_key, at once', async () => {
    expect((await search(VALID_QUERY)).status).toBe(200);
    sandbox.state.revokeKey(DEFAULT_ACCOUNT_ID, sandbox.keyId);
    expectError(await search(VALID_QUERY), 401, 'revoked_api_key');
  });

  it('both X-API-Key and Authorization: Bearer → 400 invalid_request, nothing consumed', async () => {
    const reply = await search(VALID_QUERY, withKey({ authorization: `Bearer ${sandbox.key}` }));
    expectError(reply, 400, 'invalid_request');
    expect(sandbox.state.used(DEFAULT_ACCOUNT_ID, 'search')).toBe(0);
  });

  it('Authorization: Bearer alone works', async () => {
    const reply = await search(VALID_QUERY, { authorization: `Bearer ${sandbox.key}`, 'content-type': 'application/json' });
    expect(reply.status).toBe(200);
    const catalog = await call('GET', '/v1/catalog/source-types', { headers: { authorization: `Bearer ${sandbox.key}` } });
    expect(catalog.status).toBe(200);
  });

  it('an error message never repeats the key it rejects', async () => {
    const badKey = `sbx_live_${'Q'.repeat(32)}`;
    const reply = await search(VALID_QUERY, withKey({ 'x-api-key': badKey }));
    expect(reply.text).not.toContain(badKey);
    const both = await search(VALID_QUERY, withKey({ authorization: `Bearer ${sandbox.key}` }));
    expect(both.text).not.toContain(sandbox.key);
  });
});

describe('every response', () => {
  it('carries an x-request-id, a different one per request', async () => {
    const replies = [
      await search(VALID_QUERY),
      await search(VALID_QUERY, {}),
      await call('GET', '/v1/catalog/source-types', { headers: withKey() }),
      await call('GET', '/v1/search'),
      await call('GET', '/v1/usage'),
      await call('GET', '/nowhere'),
      await search('{not json'),
    ];
    const ids = replies.map((r) => r.headers.get('x-request-id'));
    for (const id of ids) expect(id).toMatch(/^req_[0-9a-f]+$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('POST /v1/search: validation before quota', () => {
  it.each([
    ['invalid JSON', '{"query": "неустойка"'],
    ['a query of 2 characters', { query: 'жк' }],
    ['max_results 51', { query: 'неустойка', max_results: 51 }],
    ['max_results 0', { query: 'неустойка', max_results: 0 }],
    ['an impossible date', { query: 'неустойка', date_from: '2025-02-29' }],
    ['court_ids with only laws (rule 1)', { query: 'неустойка', court_ids: [7], source_types: ['bulgarian_laws_regulations'] }],
    ['a body that is not an object', '["неустойка"]'],
  ])('%s → 400 invalid_request, no quota consumed', async (_name, body) => {
    expectError(await search(body), 400, 'invalid_request');
    expect(sandbox.state.used(DEFAULT_ACCOUNT_ID, 'search')).toBe(0);
  });

  it('says what is wrong with the query', async () => {
    const message = expectError(await search({ query: 'жк' }), 400, 'invalid_request');
    expect(message).toContain('3');
    expect(message).toContain('2000');
  });

  // BUG: src/sandbox/server.ts:70-83 consumes a unit of quota before `search()` runs, and `search()` can still reject
  // the request with invalid_request (SearchRequestError: an unknown source type, or court_ids when the automatic
  // selection finds no case law). The user gets a 400 and loses a unit; other invalid_request cases cost nothing.
  it('an unknown source type → 400 invalid_request, no quota consumed', async () => {
    const reply = await search({ query: 'неустойка', source_types: ['no_such_source_type'] });
    expectError(reply, 400, 'invalid_request');
    expect(sandbox.state.used(DEFAULT_ACCOUNT_ID, 'search')).toBe(0);
  });

  it('an unknown source type → 400 invalid_request naming it', async () => {
    const message = expectError(await search({ query: 'неустойка', source_types: ['no_such_source_type'] }), 400, 'invalid_request');
    expect(message).toContain('no_such_source_type');
  });
});

describe('POST /v1/search: results', () => {
  it('a valid search → 200 with the query echoed and result_count equal to results.length', async () => {
    const reply = await search(VALID_QUERY);
    expect(reply.status).toBe(200);
    expect(reply.json.query).toBe(VALID_QUERY.query);
    const results = reply.json.results as Record<string, unknown>[];
    expect(Array.isArray(results)).toBe(true);
    expect(results.length).toBeGreaterThan(0);
    expect(reply.json.result_count).toBe(results.length);
    expect(sandbox.state.used(DEFAULT_ACCOUNT_ID, 'search')).toBe(1);
  });

  it('results carry the contract fields, excerpts with excerpt_id, and no elements', async () => {
    const reply = await search(VALID_QUERY);
    const results = reply.json.results as Record<string, unknown>[];
    for (const result of results) {
      for (const field of ['document_id', 'collection', 'type', 'title', 'date', 'author', 'url']) {
        expect(typeof result[field], field).toBe('string');
      }
      expect(result.title).toMatch(/^ТЕСТОВИ ДАННИ: /);
      expect(result).not.toHaveProperty('elements');
      const excerpts = result.excerpts as Record<string, unknown>[];
      expect(Array.isArray(excerpts)).toBe(true);
      for (const excerpt of excerpts) expect(typeof excerpt.excerpt_id).toBe('string');
    }
    expect(results.map((r) => r.document_id)).toContain('test-law-1');
  });

  it('never sends the full text of a long article', async () => {
    const reply = await search({ query: 'неустойка забава договор', source_types: ['bulgarian_laws_regulations'] });
    expect(reply.status).toBe(200);
    expect(reply.text).not.toContain(LONG_ARTICLE_TEXT);
    expect(reply.text).not.toContain('финалмаркер');
  });

  it('a valid query without matches → 200, result_count 0, results []', async () => {
    const reply = await search({ query: 'квантовахромодинамика', source_types: ['bulgarian_laws_regulations'] });
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ result_count: 0, results: [] });
  });

  it('a court decision carries decision_number, case_number and reporting_judge', async () => {
    const reply = await search({ query: 'неустойка договор', source_types: ['high_courts_cases'] });
    const results = reply.json.results as Record<string, unknown>[];
    const decision = results.find((r) => r.document_id === 'test-case-1');
    expect(decision).toMatchObject({ decision_number: '101', case_number: '2002/2022', reporting_judge: 'Тестов Съдия Примеров' });
  });

  it('quota reached → 429 monthly_quota_exceeded, and the count stays at the quota', async () => {
    for (let i = 0; i < SEARCH_QUOTA; i++) expect((await search(VALID_QUERY)).status).toBe(200);
    expectError(await search(VALID_QUERY), 429, 'monthly_quota_exceeded');
    expectError(await search(VALID_QUERY), 429, 'monthly_quota_exceeded');
    expect(sandbox.state.used(DEFAULT_ACCOUNT_ID, 'search')).toBe(SEARCH_QUOTA);
  });
});

describe('routing', () => {
  it('GET /v1/catalog/source-types → 200 with source_types', async () => {
    const reply = await call('GET', '/v1/catalog/source-types', { headers: withKey() });
    expect(reply.status).toBe(200);
    const types = reply.json.source_types as Record<string, unknown>[];
    expect(types.map((t) => t.id)).toEqual(['bulgarian_laws_regulations', 'high_courts_cases']);
    expect(types.find((t) => t.id === 'high_courts_cases')).toMatchObject({ case_law: true, document_count: 2 });
    expect(types.find((t) => t.id === 'bulgarian_laws_regulations')).toMatchObject({ case_law: false, document_count: 2 });
  });

  it('GET /v1/catalog/source-types needs a key too', async () => {
    expectError(await call('GET', '/v1/catalog/source-types'), 401, 'missing_api_key');
  });

  it('GET /v1/search → 405 with an allow header naming POST', async () => {
    const reply = await call('GET', '/v1/search', { headers: withKey() });
    expectError(reply, 405, 'method_not_allowed');
    expect(reply.headers.get('allow')).toBe('POST');
  });

  it('GET /v1/account (a user-session endpoint) with an API key → 401 api_key_not_accepted', async () => {
    expectError(await call('GET', '/v1/account', { headers: withKey() }), 401, 'api_key_not_accepted');
  });

  it('an unknown path → 404', async () => {
    expectError(await call('GET', '/v2/search', { headers: withKey() }), 404, 'not_found');
  });

  it.each(['api_key', 'key', 'token', 'access_token', 'API_KEY'])(
    'a key in the query string (?%s=…) → 400 invalid_request, nothing consumed',
    async (name) => {
      const reply = await call('POST', `/v1/search?${name}=${sandbox.key}`, { headers: withKey(), body: JSON.stringify(VALID_QUERY) });
      expectError(reply, 400, 'invalid_request');
      expect(reply.text).not.toContain(sandbox.key);
      expect(sandbox.state.used(DEFAULT_ACCOUNT_ID, 'search')).toBe(0);
    },
  );
});

describe('the log', () => {
  it('has one line per request and never contains a key value', async () => {
    const badKey = `sbx_live_${'W'.repeat(32)}`;
    await search(VALID_QUERY);
    await search(VALID_QUERY, { authorization: `Bearer ${sandbox.key}`, 'content-type': 'application/json' });
    await search(VALID_QUERY, withKey({ 'x-api-key': badKey }));
    await search(VALID_QUERY, withKey({ authorization: `Bearer ${sandbox.key}` }));
    await call('GET', `/v1/catalog/source-types?api_key=${sandbox.key}`, { headers: withKey() });
    await call('GET', `/v1/nowhere?key=${sandbox.key}`, { headers: withKey() });
    sandbox.state.revokeKey(DEFAULT_ACCOUNT_ID, sandbox.keyId);
    await search(VALID_QUERY);

    expect(sandbox.logs).toHaveLength(7);
    for (const line of sandbox.logs) {
      expect(line).not.toContain(sandbox.key);
      expect(line).not.toContain(sandbox.key.slice(9));
      expect(line).not.toContain(badKey);
      expect(line).not.toContain('W'.repeat(16));
    }
    expect(sandbox.logs[0]).toContain(sandbox.keyId);
    expect(sandbox.logs[0]).toContain('POST /v1/search 200');
  });
});
