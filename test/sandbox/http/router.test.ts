/**
 * The route table (`src/sandbox/routes/table.ts`) and its matching (`src/sandbox/http/router.ts`): every endpoint of the
 * spec is a route and is served; a wrong method is 405 with `Allow`, an endpoint not built yet (a `notImplemented`
 * route) is 501 (also with path parameters), an unknown path is 404, and every error body carries the request id of
 * its `x-request-id` header.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SearchIndex } from '../../../src/sandbox/storage.js';
import { matchRoute } from '../../../src/sandbox/http/router.js';
import { ROUTES } from '../../../src/sandbox/routes/table.js';
import { notImplemented } from '../../../src/sandbox/routes/not-implemented.js';
import { expectError, openSyntheticIndex, request, startTestServer, type TestServer } from './harness.js';

describe('ROUTES', () => {
  it('has the 13 endpoints of the spec, each once', () => {
    const endpoints = ROUTES.map((r) => `${r.method} ${r.pattern}`);
    expect(endpoints.sort()).toEqual(
      [
        'POST /v1/search',
        'GET /v1/catalog/source-types',
        'GET /v1/catalog/courts',
        'GET /v1/catalog/judges',
        'GET /v1/documents',
        'GET /v1/usage',
        'POST /v1/answers',
        'GET /v1/answers/:job_id',
        'POST /v1/keys',
        'GET /v1/keys',
        'POST /v1/keys/:key_id/revoke',
        'GET /v1/account',
        'PATCH /v1/account/overages',
      ].sort(),
    );
  });

  it('uses session auth exactly for the key and account endpoints, and declares the quota kinds', () => {
    const session = ROUTES.filter((r) => r.auth === 'session').map((r) => r.pattern);
    expect(session.every((p) => p.startsWith('/v1/keys') || p.startsWith('/v1/account'))).toBe(true);
    expect(session).toHaveLength(5);
    expect(ROUTES.filter((r) => r.auth !== 'session').every((r) => r.auth === 'api-key')).toBe(true);
    const quota = Object.fromEntries(ROUTES.filter((r) => r.quota).map((r) => [`${r.method} ${r.pattern}`, r.quota]));
    expect(quota).toEqual({ 'POST /v1/search': 'search', 'GET /v1/documents': 'retrieval', 'POST /v1/answers': 'answers' });
    expect(ROUTES.find((r) => r.method === 'POST' && r.pattern === '/v1/answers')?.status).toBe(202);
    expect(ROUTES.find((r) => r.method === 'POST' && r.pattern === '/v1/keys')?.status).toBe(201);
  });

  it('every endpoint is built: none answers 501', () => {
    expect(ROUTES.filter((r) => r.notImplemented)).toEqual([]);
  });
});

describe('matchRoute', () => {
  it('decodes path parameters', () => {
    const match = matchRoute(ROUTES, 'GET', '/v1/answers/job%2F1%20x');
    expect(match).toMatchObject({ kind: 'found', params: { job_id: 'job/1 x' } });
  });

  it('lists every method of a path in Allow, and tells unknown paths apart', () => {
    expect(matchRoute(ROUTES, 'DELETE', '/v1/keys')).toEqual({ kind: 'method_not_allowed', allow: ['GET', 'HEAD', 'POST'] });
    expect(matchRoute(ROUTES, 'GET', '/v1/answers/')).toEqual({ kind: 'not_found' });
    expect(matchRoute(ROUTES, 'GET', '/v1/answers/a/b')).toEqual({ kind: 'not_found' });
    expect(matchRoute(ROUTES, 'POST', '/v1/search/')).toEqual({ kind: 'not_found' });
  });

  it('finds the GET route for HEAD, and only a GET route', () => {
    expect(matchRoute(ROUTES, 'HEAD', '/v1/answers/j1')).toMatchObject({
      kind: 'found',
      route: { method: 'GET', pattern: '/v1/answers/:job_id' },
      params: { job_id: 'j1' },
    });
    expect(matchRoute(ROUTES, 'HEAD', '/v1/search')).toEqual({ kind: 'method_not_allowed', allow: ['POST'] });
  });
});

describe('routing over HTTP', () => {
  let root: string;
  let index: SearchIndex;
  let closeIndex: () => void;
  let sandbox: TestServer;

  beforeAll(async () => {
    ({ root, index, close: closeIndex } = await openSyntheticIndex('pravo-router-test-'));
  });
  afterAll(() => closeIndex?.());
  beforeEach(async () => {
    sandbox = await startTestServer(root, index);
  });
  afterEach(async () => {
    await sandbox.close();
  });

  const withKey = (): Record<string, string> => ({ 'x-api-key': sandbox.key });

  it.each([
    ['DELETE', '/v1/search', 'POST'],
    ['POST', '/v1/catalog/source-types', 'GET, HEAD'],
    ['DELETE', '/v1/answers/abc', 'GET, HEAD'],
    ['GET', '/v1/keys/k1/revoke', 'POST'],
    ['PUT', '/v1/keys', 'GET, HEAD, POST'],
    ['GET', '/v1/account/overages', 'PATCH'],
  ])('%s %s → 405 method_not_allowed, Allow: %s', async (method, path, allow) => {
    const reply = await request(sandbox.baseUrl, method, path, { headers: withKey() });
    expectError(reply, 405, 'method_not_allowed');
    expect(reply.headers.get('allow')).toBe(allow);
  });

  it.each([
    ['POST', '/v1/keys/k1/revoke'],
    ['GET', '/v1/account'],
    ['PATCH', '/v1/account/overages'],
    ['GET', '/v1/keys'],
    ['POST', '/v1/keys'],
  ])('%s %s (a session endpoint) → 401 missing_session_token without a token, api_key_not_accepted with an API key', async (method, path) => {
    expectError(await request(sandbox.baseUrl, method, path), 401, 'missing_session_token');
    expectError(await request(sandbox.baseUrl, method, path, { headers: withKey() }), 401, 'api_key_not_accepted');
  });

  it('a route not built yet → 501 not_implemented before authentication, also with path parameters', async () => {
    const routes = [
      notImplemented({ method: 'POST', pattern: '/v1/things/:id/archive', auth: 'session' }),
      notImplemented({ method: 'GET', pattern: '/v1/things', auth: 'api-key' }),
    ];
    const partial = await startTestServer(root, index, { routes });
    try {
      expectError(await request(partial.baseUrl, 'POST', '/v1/things/t1/archive'), 501, 'not_implemented');
      expectError(await request(partial.baseUrl, 'GET', '/v1/things', { headers: { 'x-api-key': partial.key } }), 501, 'not_implemented');
      expectError(await request(partial.baseUrl, 'GET', '/v1/things'), 501, 'not_implemented');
      expect(partial.logs[0]).toMatch(/^POST \/v1\/things\/t1\/archive 501 \d+ms key=- req_[0-9a-f]{16}$/);
    } finally {
      await partial.close();
    }
  });

  it.each(['/v1/nope', '/v1/answers/a/b', '/v1', '/'])('GET %s → 404 not_found', async (path) => {
    expectError(await request(sandbox.baseUrl, 'GET', path, { headers: withKey() }), 404, 'not_found');
  });

  it('gives every error body the request id of its x-request-id header, different per request', async () => {
    const replies = await Promise.all([
      request(sandbox.baseUrl, 'GET', '/v1/nope'),
      request(sandbox.baseUrl, 'GET', '/v1/nope'),
      request(sandbox.baseUrl, 'GET', '/v1/catalog/source-types'),
    ]);
    const ids = replies.map((reply) => (reply.json.error as { request_id: string }).request_id);
    replies.forEach((reply, i) => expect(ids[i]).toBe(reply.headers.get('x-request-id')));
    expect(new Set(ids).size).toBe(3);
  });

  it('HEAD on a GET endpoint → the status and headers of the GET, without a body', async () => {
    const get = await request(sandbox.baseUrl, 'GET', '/v1/catalog/source-types', { headers: withKey() });
    const head = await request(sandbox.baseUrl, 'HEAD', '/v1/catalog/source-types', { headers: withKey() });
    expect(get.status).toBe(200);
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    for (const name of ['content-type', 'content-length']) expect(head.headers.get(name), name).toBe(get.headers.get(name));
    expect(head.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{16}$/);
    expect(sandbox.logs[1]).toMatch(/^HEAD \/v1\/catalog\/source-types 200 \d+ms key=key_/);
  });

  it.each([
    ['/v1/catalog/source-types', 401, {}],
    ['/v1/account', 401, { 'x-api-key': 'k' }],
    ['/v1/usage', 401, {}],
    ['/v1/answers/abc', 401, {}],
    ['/v1/nowhere', 404, {}],
  ])('HEAD %s → %i as for GET, without a body', async (path, status, headers) => {
    const head = await request(sandbox.baseUrl, 'HEAD', path, { headers });
    expect(head.status).toBe(status);
    expect(head.text).toBe('');
    expect(head.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{16}$/);
    expect((await request(sandbox.baseUrl, 'GET', path, { headers })).status).toBe(status);
  });

  it('logs a refused session and a 405 like any other request', async () => {
    await request(sandbox.baseUrl, 'GET', '/v1/account');
    await request(sandbox.baseUrl, 'GET', '/v1/search');
    expect(sandbox.logs).toHaveLength(2);
    expect(sandbox.logs[0]).toMatch(/^GET \/v1\/account 401 \d+ms key=- req_[0-9a-f]{16}$/);
    expect(sandbox.logs[1]).toMatch(/^GET \/v1\/search 405 /);
  });
});
