/**
 * The one transport under every endpoint (`src/api/transport.ts`, through `LegalResearchClient`), against a real
 * `node:http` server on 127.0.0.1 and a fake clock: URL encoding, the auth header of every endpoint, what is retried
 * and how long it waits (asserted on the fake clock, never in wall time), the size cap, shape checks, TLS failures and
 * cancellation.
 */
import http from 'node:http';
import { describe, expect, it, vi } from 'vitest';
import type { LegalResearchClient, RetryNotice } from '../../src/api/client.js';
import {
  ApiError,
  CancelledError,
  ConnectionError,
  InvalidRequestError,
  MissingCredentialError,
  NetworkError,
  QuotaExceededError,
  RateLimitError,
  ResponseTooLargeError,
  ServerError,
  SessionError,
  TimeoutError,
  TlsError,
  UnexpectedResponseError,
} from '../../src/api/errors.js';
import { parseObject } from '../../src/api/shapes.js';
import { tlsProblem } from '../../src/api/transport.js';
import { PATHS } from '../../src/contract/paths.js';
import type { SearchRequest } from '../../src/contract/types.js';
import { FakeClock } from '../helpers/fake-clock.js';
import {
  KEY,
  SESSION,
  answer,
  client,
  closedPort,
  rejection,
  silence,
  startServer,
  transport,
  type Reply,
} from './test-server.js';

const QUERY: SearchRequest = { query: 'неустойка', max_results: 5 };
const EMPTY_RESULTS = '{"query":"неустойка","result_count":0,"results":[]}';
const SOURCE_TYPES = '{"source_types":[{"id":"bulgarian_laws_regulations"}]}';
const BOTH = {
  api_key: { kind: 'api_key', apiKey: KEY, header: 'x-api-key' },
  session: { kind: 'session', token: SESSION },
} as const;

/** Waits (on real I/O, not on time) until the fake clock has seen `n` sleeps. */
async function sleepsStarted(clock: FakeClock, n: number): Promise<void> {
  await vi.waitFor(() => expect(clock.sleeps.length).toBe(n), { timeout: 5_000, interval: 2 });
}

/** A reply per path that satisfies each endpoint's shape check. */
const contractReply: Reply = (r, _req, res) => {
  const path = r.url.split('?')[0] ?? '';
  const json = (status: number, body: unknown): void => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  if (path === PATHS.search) return json(200, JSON.parse(EMPTY_RESULTS));
  if (path === PATHS.sourceTypes) return json(200, JSON.parse(SOURCE_TYPES));
  if (path === PATHS.courts) return json(200, { courts: [{ court_id: 1, name: 'Върховен касационен съд' }] });
  if (path === PATHS.judges) return json(200, { court: null, judges: [] });
  if (path === PATHS.answers) return json(202, { job_id: 'job_1', status: 'queued', poll_url: '/v1/answers/job_1' });
  if (path.startsWith(`${PATHS.answers}/`)) return json(200, { job_id: 'job_1', status: 'running' });
  if (path === PATHS.keys && r.method === 'POST') return json(201, { key_id: 'k1', key: 'sbx_live_TESTnotreal000000000' });
  return json(200, { ok: true });
};

describe('URL: paths and query strings are encoded', () => {
  it('encodes document_id and collection with /, ?, #, &, +, spaces and Cyrillic, so the server reads them back exactly', async () => {
    const server = await startServer(answer(200, '{"elements":[]}'));
    const document_id = 'ЗЗД/чл. 92?ал=1#2 & 3+4';
    const collection = 'laws/v1 #x?y=z';
    await client({ baseUrl: server.baseUrl }).documents.retrieve({ document_id, collection });
    const url = server.seen[0]!.url;
    expect(url.startsWith('/v1/documents?')).toBe(true);
    expect(url).not.toMatch(/[ #]/);
    expect(url).not.toMatch(/[^\x21-\x7e]/);
    const query = new URL(url, 'http://x').searchParams;
    expect(query.get('document_id')).toBe(document_id);
    expect(query.get('collection')).toBe(collection);
    expect([...query.keys()]).toEqual(['document_id', 'collection']);
  });

  it('encodes a job id and a key id as one path segment', async () => {
    const server = await startServer(contractReply);
    const c = client({ baseUrl: server.baseUrl, credentials: BOTH });
    await c.answers.retrieve('job/1?x#y Ж');
    await c.keys.revoke('key/../admin');
    expect(server.seen[0]!.url).toBe(`/v1/answers/${encodeURIComponent('job/1?x#y Ж')}`);
    expect(server.seen[1]!.url).toBe(`/v1/keys/${encodeURIComponent('key/../admin')}/revoke`);
  });

  it('drops undefined query values and sends numbers as text', async () => {
    const server = await startServer(contractReply);
    await client({ baseUrl: server.baseUrl }).catalog.judges({ court: 'ВКС', limit: 5 });
    expect(server.seen[0]!.url).toBe(`/v1/catalog/judges?court=${encodeURIComponent('ВКС')}&limit=5`);
  });

  it.each([
    ['missing', {}],
    ['empty', { job_id: '' }],
    ['..', { job_id: '..' }],
  ])('a %s path parameter is a programmer error (TypeError), and nothing is sent', async (_name, params) => {
    const server = await startServer(contractReply);
    const t = transport({ baseUrl: server.baseUrl });
    const error = await rejection(t.request({ method: 'GET', path: PATHS.answer, params, auth: 'api_key', parse: parseObject }));
    expect(error).toBeInstanceOf(TypeError);
    expect(server.seen).toHaveLength(0);
  });
});

describe('Authentication: one header per request, the right credential per endpoint', () => {
  type Call = (c: LegalResearchClient) => Promise<unknown>;
  const endpoints: Array<[string, string, string, 'api_key' | 'session', Call]> = [
    ['search.create', 'POST', '/v1/search', 'api_key', (c) => c.search.create(QUERY)],
    ['catalog.sourceTypes', 'GET', '/v1/catalog/source-types', 'api_key', (c) => c.catalog.sourceTypes()],
    ['catalog.courts', 'GET', '/v1/catalog/courts', 'api_key', (c) => c.catalog.courts()],
    ['catalog.judges', 'GET', '/v1/catalog/judges?court=X', 'api_key', (c) => c.catalog.judges({ court: 'X' })],
    ['documents.retrieve', 'GET', '/v1/documents?document_id=d&collection=c', 'api_key', (c) =>
      c.documents.retrieve({ document_id: 'd', collection: 'c' })],
    ['usage.retrieve', 'GET', '/v1/usage', 'api_key', (c) => c.usage.retrieve()],
    ['answers.create', 'POST', '/v1/answers', 'api_key', (c) => c.answers.create(QUERY)],
    ['answers.retrieve', 'GET', '/v1/answers/job_1', 'api_key', (c) => c.answers.retrieve('job_1')],
    ['keys.create', 'POST', '/v1/keys', 'session', (c) => c.keys.create({ name: 'ci' })],
    ['keys.list', 'GET', '/v1/keys', 'session', (c) => c.keys.list()],
    ['keys.revoke', 'POST', '/v1/keys/k1/revoke', 'session', (c) => c.keys.revoke('k1')],
    ['account.retrieve', 'GET', '/v1/account', 'session', (c) => c.account.retrieve()],
    ['account.updateOverages', 'PATCH', '/v1/account/overages', 'session', (c) =>
      c.account.updateOverages({ allowed: true, monthly_limit: 100 })],
  ];

  it.each(endpoints)('%s: %s %s with the %s credential only', async (_name, method, url, auth, call) => {
    const server = await startServer(contractReply);
    await call(client({ baseUrl: server.baseUrl, credentials: BOTH }));
    const [request] = server.seen;
    expect(request?.method).toBe(method);
    expect(request?.url).toBe(url);
    if (auth === 'api_key') {
      expect(request?.headers['x-api-key']).toBe(KEY);
      expect(request?.headers.authorization).toBeUndefined();
    } else {
      expect(request?.headers.authorization).toBe(`Bearer ${SESSION}`);
      expect(request?.headers['x-api-key']).toBeUndefined();
    }
    expect(request?.url).not.toContain('TEST');
  });

  it.each(endpoints.filter((e) => e[3] === 'api_key'))(
    '%s with the key as Bearer: Authorization only, no X-API-Key',
    async (_name, _method, _url, _auth, call) => {
      const server = await startServer(contractReply);
      await call(client({ baseUrl: server.baseUrl, credentials: { api_key: { ...BOTH.api_key, header: 'bearer' } } }));
      expect(server.seen[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(server.seen[0]?.headers['x-api-key']).toBeUndefined();
    },
  );

  it('a session endpoint without a session token → MissingCredentialError, nothing sent (the API key is not used)', async () => {
    const server = await startServer(contractReply);
    const c = client({ baseUrl: server.baseUrl }); // API key only
    for (const call of [() => c.keys.list(), () => c.keys.create({ name: 'x' }), () => c.account.updateOverages({ allowed: false })]) {
      const error = await rejection(call());
      expect(error).toBeInstanceOf(MissingCredentialError);
      expect((error as MissingCredentialError).credential).toBe('session');
    }
    expect(server.seen).toHaveLength(0);
  });

  it('an API-key endpoint without an API key → MissingCredentialError, nothing sent (the session token is not used)', async () => {
    const server = await startServer(contractReply);
    const error = await rejection(
      client({ baseUrl: server.baseUrl, credentials: { session: BOTH.session } }).search.create(QUERY),
    );
    expect(error).toBeInstanceOf(MissingCredentialError);
    expect((error as MissingCredentialError).credential).toBe('api_key');
    expect(server.seen).toHaveLength(0);
  });

  it('a 401 on a session endpoint → SessionError', async () => {
    const server = await startServer(answer(401, '{"error":{"code":"session_expired","message":"Sign in again."}}'));
    const error = await rejection(client({ baseUrl: server.baseUrl, credentials: BOTH }).account.retrieve());
    expect(error).toBeInstanceOf(SessionError);
    expect((error as SessionError).serverMessage).toBe('Sign in again.');
  });
});

describe('Retries: a GET, on connection failures and 429/502/503/504, on the injected clock', () => {
  it('GET retried on 503 with Retry-After: 3 → waits exactly 3 s, then succeeds', async () => {
    const server = await startServer([answer(503, 'busy', { 'retry-after': '3' }), answer(200, SOURCE_TYPES)]);
    const clock = new FakeClock();
    const pending = client({ baseUrl: server.baseUrl, clock }).catalog.sourceTypes();
    await sleepsStarted(clock, 1);
    expect(clock.sleeps).toEqual([3_000]);
    expect(server.seen).toHaveLength(1);
    await clock.advance(2_999);
    expect(server.seen).toHaveLength(1);
    await clock.advance(1);
    const response = await pending;
    expect(response.data.source_types[0]?.id).toBe('bulgarian_laws_regulations');
    expect(server.seen).toHaveLength(2);
    expect(server.seen[1]?.headers['x-api-key']).toBe(KEY);
  });

  it('honours Retry-After as an HTTP date, relative to the clock', async () => {
    const clock = new FakeClock(Date.UTC(2025, 0, 1, 0, 0, 0));
    const server = await startServer([
      answer(503, '', { 'retry-after': 'Wed, 01 Jan 2025 00:00:05 GMT' }),
      answer(200, SOURCE_TYPES),
    ]);
    const pending = client({ baseUrl: server.baseUrl, clock }).catalog.sourceTypes();
    await sleepsStarted(clock, 1);
    expect(clock.sleeps).toEqual([5_000]);
    await clock.advance(5_000);
    await pending;
  });

  it.each([
    [429, '{"error":{"code":"rate_limited","message":"slow down"}}'],
    [502, '<html>Bad Gateway</html>'],
    [503, ''],
    [504, '<html>Gateway Timeout</html>'],
  ])('GET retried after HTTP %i with jittered exponential backoff', async (status, body) => {
    const server = await startServer([answer(status, body), answer(200, '{"used":1}')]);
    const clock = new FakeClock();
    const pending = client({ baseUrl: server.baseUrl, clock, random: () => 0.5 }).usage.retrieve();
    await sleepsStarted(clock, 1);
    expect(clock.sleeps).toEqual([375]); // ceiling 500 ms, equal jitter: 250 + 0.5 × 250
    await clock.advance(375);
    expect((await pending).data).toEqual({ used: 1 });
    expect(server.seen).toHaveLength(2);
  });

  it('gives up after 3 tries with the last error; the waits grow (random 0 → half, random → 1 the full ceiling)', async () => {
    const server = await startServer(answer(502, 'Bad Gateway', { 'x-request-id': 'req_502' }));
    const clock = new FakeClock();
    const draws = [0, 0.999];
    const pending = rejection(client({ baseUrl: server.baseUrl, clock, random: () => draws.shift() ?? 0 }).usage.retrieve());
    await sleepsStarted(clock, 1);
    await clock.advance(clock.sleeps[0]!);
    await sleepsStarted(clock, 2);
    await clock.advance(clock.sleeps[1]!);
    const error = await pending;
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).requestId).toBe('req_502');
    expect((error as ServerError).mayHaveBeenCounted).toBe(false);
    expect(clock.sleeps).toEqual([250, 1_000]);
    expect(server.seen).toHaveLength(3);
  });

  it('maxTries: 1 turns retries off', async () => {
    const server = await startServer(answer(503, ''));
    const clock = new FakeClock();
    const error = await rejection(client({ baseUrl: server.baseUrl, clock, maxTries: 1 }).usage.retrieve());
    expect(error).toBeInstanceOf(ServerError);
    expect(clock.sleeps).toEqual([]);
    expect(server.seen).toHaveLength(1);
  });

  it('a Retry-After beyond 60 s is not waited for: the error comes at once, with retryAfterMs', async () => {
    const server = await startServer(answer(429, '', { 'retry-after': '120' }));
    const clock = new FakeClock();
    const error = await rejection(client({ baseUrl: server.baseUrl, clock }).usage.retrieve());
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(120_000);
    expect(clock.sleeps).toEqual([]);
    expect(server.seen).toHaveLength(1);
  });

  it('tells onRetry of each wait before it starts: why, how long, and which try follows', async () => {
    const server = await startServer([answer(503, 'busy', { 'retry-after': '59' }), answer(200, '{"used":1}')]);
    const clock = new FakeClock();
    const notices: RetryNotice[] = [];
    const pending = client({ baseUrl: server.baseUrl, clock, onRetry: (n) => notices.push(n) }).usage.retrieve();
    await sleepsStarted(clock, 1);
    expect(notices).toEqual([{ method: 'GET', path: '/v1/usage', status: 503, delayMs: 59_000, retryAfter: true, nextTry: 2, maxTries: 3 }]);
    await clock.advance(59_000);
    await pending;
    expect(notices).toHaveLength(1);
  });

  it('bounds the waits of one request in all: a Retry-After that would pass 90 s of waiting ends with the error', async () => {
    const server = await startServer(answer(503, 'busy', { 'retry-after': '59' }));
    const clock = new FakeClock();
    const notices: RetryNotice[] = [];
    const pending = rejection(client({ baseUrl: server.baseUrl, clock, onRetry: (n) => notices.push(n) }).usage.retrieve());
    await sleepsStarted(clock, 1);
    await clock.advance(59_000);
    const error = await pending;
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).retryAfterMs).toBe(59_000);
    // One wait of 59 s; a second would make 118 s, past the cap: two requests, not three.
    expect(clock.sleeps).toEqual([59_000]);
    expect(notices.map((n) => n.delayMs)).toEqual([59_000]);
    expect(server.seen).toHaveLength(2);
  });

  it('waits within the cap in all as often as the tries allow', async () => {
    const server = await startServer([answer(503, '', { 'retry-after': '30' }), answer(503, '', { 'retry-after': '30' }), answer(200, '{"used":1}')]);
    const clock = new FakeClock();
    const notices: RetryNotice[] = [];
    const pending = client({ baseUrl: server.baseUrl, clock, onRetry: (n) => notices.push(n) }).usage.retrieve();
    await sleepsStarted(clock, 1);
    await clock.advance(30_000);
    await sleepsStarted(clock, 2);
    await clock.advance(30_000);
    expect((await pending).data).toEqual({ used: 1 });
    expect(notices.map((n) => `${n.nextTry}/${n.maxTries} ${n.delayMs}`)).toEqual(['2/3 30000', '3/3 30000']);
  });

  it('tells onRetry nothing for a request it does not retry', async () => {
    const server = await startServer(answer(429, '', { 'retry-after': '120' }));
    const notices: RetryNotice[] = [];
    await rejection(client({ baseUrl: server.baseUrl, clock: new FakeClock(), onRetry: (n) => notices.push(n) }).usage.retrieve());
    await rejection(client({ baseUrl: server.baseUrl, clock: new FakeClock(), onRetry: (n) => notices.push(n) }).search.create(QUERY));
    expect(notices).toEqual([]);
  });

  it.each([502, 504])('a document retrieval (it spends quota) is not retried after HTTP %i: the service may have handled it', async (status) => {
    const server = await startServer([answer(status, 'gateway'), answer(200, '{"elements":[]}')]);
    const clock = new FakeClock();
    const error = await rejection(
      client({ baseUrl: server.baseUrl, clock }).documents.retrieve({ document_id: 'd', collection: 'c' }),
    );
    expect(error).toBeInstanceOf(ServerError);
    expect(clock.sleeps).toEqual([]);
    expect(server.seen).toHaveLength(1);
  });

  it('a document retrieval turned away with 503 is retried (nothing was spent)', async () => {
    const server = await startServer([answer(503, '', { 'retry-after': '1' }), answer(200, '{"elements":[]}')]);
    const clock = new FakeClock();
    const pending = client({ baseUrl: server.baseUrl, clock }).documents.retrieve({ document_id: 'd', collection: 'c' });
    await sleepsStarted(clock, 1);
    await clock.advance(1_000);
    expect((await pending).data).toEqual({ elements: [] });
    expect(server.seen).toHaveLength(2);
  });

  it('monthly_quota_exceeded on 429 is not retried', async () => {
    const server = await startServer(answer(429, '{"error":{"code":"monthly_quota_exceeded","message":"m"}}'));
    const clock = new FakeClock();
    const error = await rejection(
      client({ baseUrl: server.baseUrl, clock }).documents.retrieve({ document_id: 'd', collection: 'c' }),
    );
    expect(error).toBeInstanceOf(QuotaExceededError);
    expect(clock.sleeps).toEqual([]);
    expect(server.seen).toHaveLength(1);
  });

  it.each([
    [400, '{"error":{"code":"invalid_request","message":"m"}}'],
    [401, '{"error":{"code":"invalid_api_key","message":"m"}}'],
    [404, ''],
    [500, ''],
  ])('HTTP %i on a GET is not retried', async (status, body) => {
    const server = await startServer(answer(status, body));
    const clock = new FakeClock();
    await expect(client({ baseUrl: server.baseUrl, clock }).usage.retrieve()).rejects.toBeInstanceOf(ApiError);
    expect(clock.sleeps).toEqual([]);
    expect(server.seen).toHaveLength(1);
  });

  it('GET retried on connection refused: succeeds once the server is up', async () => {
    const port = await closedPort();
    const clock = new FakeClock();
    const pending = client({ baseUrl: `http://127.0.0.1:${port}`, clock, random: () => 0 }).catalog.sourceTypes();
    await sleepsStarted(clock, 1);
    expect(clock.sleeps).toEqual([250]);
    const seen: string[] = [];
    const late = http.createServer((req, res) => {
      seen.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(SOURCE_TYPES);
    });
    await new Promise<void>((resolve) => late.listen(port, '127.0.0.1', () => resolve()));
    try {
      await clock.advance(250);
      expect((await pending).status).toBe(200);
      expect(seen).toEqual(['/v1/catalog/source-types']);
    } finally {
      late.closeAllConnections();
      await new Promise<void>((resolve) => late.close(() => resolve()));
    }
  });

  it('GET on connection refused gives up after 3 tries → ConnectionError, nothing counted', async () => {
    const port = await closedPort();
    const clock = new FakeClock();
    const pending = rejection(client({ baseUrl: `http://127.0.0.1:${port}`, clock, random: () => 0 }).usage.retrieve());
    await sleepsStarted(clock, 1);
    await clock.advance(250);
    await sleepsStarted(clock, 2);
    await clock.advance(500);
    const error = await pending;
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).mayHaveBeenCounted).toBe(false);
    expect(clock.sleeps).toEqual([250, 500]);
  });

  it('a GET that times out is not retried; a plain GET was not counted, a document retrieval may have been', async () => {
    const server = await startServer(silence);
    const clock = new FakeClock();
    const c = client({ baseUrl: server.baseUrl, clock, timeoutMs: 10_000 });
    const usage = rejection(c.usage.retrieve());
    await server.request(1);
    await clock.advance(10_000);
    const documents = rejection(c.documents.retrieve({ document_id: 'd', collection: 'c' }));
    await server.request(2);
    await clock.advance(10_000);
    expect(await usage).toMatchObject({ name: 'TimeoutError', mayHaveBeenCounted: false, timeoutMs: 10_000 });
    expect(await documents).toMatchObject({ name: 'TimeoutError', mayHaveBeenCounted: true });
    expect(clock.sleeps).toEqual([]);
    expect(server.seen).toHaveLength(2);
  });

  it('Ctrl-C during a retry wait → CancelledError at once, nothing more sent, no timer left', async () => {
    const server = await startServer(answer(503, '', { 'retry-after': '30' }));
    const clock = new FakeClock();
    const controller = new AbortController();
    const pending = rejection(client({ baseUrl: server.baseUrl, clock }).usage.retrieve({ signal: controller.signal }));
    await sleepsStarted(clock, 1);
    controller.abort();
    const error = await pending;
    expect(error).toBeInstanceOf(CancelledError);
    expect((error as CancelledError).mayHaveBeenCounted).toBe(false);
    expect(clock.pendingTimers()).toBe(0);
    expect(server.seen).toHaveLength(1);
  });
});

describe('No retries: POST and PATCH are never replayed', () => {
  it.each([
    ['search.create', (c: LegalResearchClient) => c.search.create(QUERY)],
    ['answers.create', (c: LegalResearchClient) => c.answers.create(QUERY)],
    ['keys.create', (c: LegalResearchClient) => c.keys.create({ name: 'ci' })],
    ['keys.revoke', (c: LegalResearchClient) => c.keys.revoke('k1')],
    ['account.updateOverages', (c: LegalResearchClient) => c.account.updateOverages({ allowed: false })],
  ])('%s on 503 with Retry-After: 1 → ServerError that may have been counted, one request', async (_name, call) => {
    const server = await startServer(answer(503, '', { 'retry-after': '1' }));
    const clock = new FakeClock();
    const error = await rejection(call(client({ baseUrl: server.baseUrl, clock, credentials: BOTH })));
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).mayHaveBeenCounted).toBe(true);
    expect(clock.sleeps).toEqual([]);
    expect(server.seen).toHaveLength(1);
  });

  it.each([
    ['search.create', (c: LegalResearchClient) => c.search.create(QUERY)],
    ['answers.create', (c: LegalResearchClient) => c.answers.create(QUERY)],
    ['account.updateOverages', (c: LegalResearchClient) => c.account.updateOverages({ allowed: false })],
  ])('%s on a connection reset after sending → NetworkError that may have been counted, one request', async (_name, call) => {
    const server = await startServer((_r, req) => req.socket.destroy());
    const clock = new FakeClock();
    const error = await rejection(call(client({ baseUrl: server.baseUrl, clock, credentials: BOTH })));
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).mayHaveBeenCounted).toBe(true);
    expect(clock.sleeps).toEqual([]);
    expect(server.seen).toHaveLength(1);
  });

  it('a search whose kept-alive connection drops is not replayed by the dispatcher: one request per call', async () => {
    // The first search succeeds; the server then answers the second, on the same connection, by dropping its socket.
    const server = await startServer([answer(200, EMPTY_RESULTS), (_r, req) => req.socket.destroy()]);
    const c = client({ baseUrl: server.baseUrl });
    await c.search.create(QUERY);
    await expect(c.search.create(QUERY)).rejects.toBeInstanceOf(NetworkError);
    expect(server.seen).toHaveLength(2);
  });
});

describe('Response size cap', () => {
  it('a success body beyond maxResponseBytes → ResponseTooLargeError naming the limit and the request id', async () => {
    const server = await startServer((_r, _req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'req_big' });
      res.write(`{"results":[],"pad":"${'x'.repeat(3000)}`);
      res.end('"}');
    });
    const error = await rejection(client({ baseUrl: server.baseUrl, maxResponseBytes: 1024 }).search.create(QUERY));
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect((error as ResponseTooLargeError).limitBytes).toBe(1024);
    expect((error as ResponseTooLargeError).requestId).toBe('req_big');
    expect((error as ResponseTooLargeError).message).toContain('exceeded 1 KiB');
  });

  it('a Content-Length beyond the cap fails before the body is read', async () => {
    const server = await startServer((_r, _req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(5_000) });
      res.write('{"results":[');
    });
    const error = await rejection(client({ baseUrl: server.baseUrl, maxResponseBytes: 4_096 }).catalog.courts());
    expect(error).toBeInstanceOf(ResponseTooLargeError);
  });

  it('an endless body stops the read at the cap (memory stays bounded) and closes the connection', async () => {
    let closed!: () => void;
    const serverSawClose = new Promise<void>((resolve) => (closed = resolve));
    const server = await startServer((_r, req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = (): void => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      req.socket.once('close', () => closed());
      pump();
    });
    const error = await rejection(client({ baseUrl: server.baseUrl, maxResponseBytes: 256 * 1024 }).usage.retrieve());
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    await serverSawClose;
  });

  it('the default cap is 32 MiB, and says so', () => {
    expect(new ResponseTooLargeError(200, 32 * 1024 * 1024, undefined).message).toContain('the response exceeded 32 MiB');
  });

  it('an endless error body is read only up to 64 KiB and still gives the typed error', async () => {
    const server = await startServer((_r, _req, res) => {
      res.writeHead(500, { 'content-type': 'text/html', 'x-request-id': 'req_500' });
      const chunk = Buffer.from('<p>Internal error</p>'.repeat(1000));
      const pump = (): void => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    });
    const error = await rejection(client({ baseUrl: server.baseUrl, maxTries: 1 }).usage.retrieve());
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).requestId).toBe('req_500');
    expect((error as ServerError).message).toContain('Internal error');
    expect((error as ServerError).message.length).toBeLessThan(300);
  });
});

describe('Shape checks of success responses', () => {
  const valid = { document_id: 'd1', collection: 'c', title: 'Закон', excerpts: [] };
  it.each([
    ['a null result', { results: [valid, null] }, 'results[1] is null, not an object'],
    ['a numeric title', { results: [valid, valid, { ...valid, title: 42 }] }, 'results[2].title is a number, not a string'],
    ['excerpts not an array', { results: [{ ...valid, excerpts: {} }] }, 'results[0].excerpts is an object, not an array'],
    ['no results', { query: 'q', result_count: 0 }, 'results is missing'],
  ])('%s → UnexpectedResponseError naming the path, with status and request id', async (_name, body, problem) => {
    const server = await startServer(answer(200, JSON.stringify(body), { 'x-request-id': 'req_shape' }));
    const error = await rejection(client({ baseUrl: server.baseUrl }).search.create(QUERY));
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    const e = error as UnexpectedResponseError;
    expect(e.problem).toBe(problem);
    expect(e.message).toContain(problem);
    expect(e.status).toBe(200);
    expect(e.requestId).toBe('req_shape');
  });

  it('answers.create expects HTTP 202: the job is returned', async () => {
    const server = await startServer(contractReply);
    const response = await client({ baseUrl: server.baseUrl }).answers.create(QUERY);
    expect(response.status).toBe(202);
    expect(response.data).toEqual({ job_id: 'job_1', status: 'queued', poll_url: '/v1/answers/job_1' });
  });

  it('answers.create answered 200 instead of 202 → UnexpectedResponseError', async () => {
    const server = await startServer(answer(200, '{"job_id":"j","status":"queued","poll_url":"/v1/answers/j"}'));
    const error = await rejection(client({ baseUrl: server.baseUrl }).answers.create(QUERY));
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect((error as UnexpectedResponseError).problem).toBe('expected HTTP 202');
  });

  it('a redirect is not followed → UnexpectedResponseError naming the target', async () => {
    const server = await startServer(answer(301, '', { location: 'https://api.example.bg/v1/usage' }));
    const error = await rejection(client({ baseUrl: server.baseUrl }).usage.retrieve());
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect((error as UnexpectedResponseError).message).toContain('https://api.example.bg/v1/usage');
    expect(server.seen).toHaveLength(1);
  });

  it('an invalid_request on POST /v1/answers → InvalidRequestError', async () => {
    const server = await startServer(answer(400, '{"error":{"code":"invalid_request","message":"court_ids"}}'));
    await expect(client({ baseUrl: server.baseUrl }).answers.create(QUERY)).rejects.toBeInstanceOf(InvalidRequestError);
  });
});

describe('TLS and cancellation', () => {
  it('https:// to a plain-HTTP server → TlsError with a one-line message, nothing counted, not retried', async () => {
    const server = await startServer(contractReply);
    const clock = new FakeClock();
    const baseUrl = `https://127.0.0.1:${server.port}`;
    const error = await rejection(client({ baseUrl, clock }).catalog.sourceTypes());
    expect(error).toBeInstanceOf(TlsError);
    expect(error).toBeInstanceOf(ConnectionError);
    const e = error as TlsError;
    expect(e.message).toBe(
      `TLS handshake with ${baseUrl} failed (the server does not speak TLS on this port; wrong version number).`,
    );
    expect(e.message).not.toMatch(/[\r\n]/);
    expect(e.message).not.toMatch(/SSL routines|openssl|:error:/i);
    expect(e.mayHaveBeenCounted).toBe(false);
    expect(clock.sleeps).toEqual([]);
    expect(server.seen).toHaveLength(0);
  });

  it('Ctrl-C while a plain GET is under way → CancelledError, not counted; a document retrieval may have been', async () => {
    const server = await startServer(silence);
    const c = client({ baseUrl: server.baseUrl });
    const first = new AbortController();
    const usage = rejection(c.usage.retrieve({ signal: first.signal }));
    await server.request(1);
    first.abort();
    expect(await usage).toMatchObject({ name: 'CancelledError', mayHaveBeenCounted: false });
    const second = new AbortController();
    const documents = rejection(c.documents.retrieve({ document_id: 'd', collection: 'c' }, { signal: second.signal }));
    await server.request(2);
    second.abort();
    expect(await documents).toMatchObject({ name: 'CancelledError', mayHaveBeenCounted: true });
  });

  it('cancelling leaves no timer running', async () => {
    const server = await startServer(silence);
    const clock = new FakeClock();
    const controller = new AbortController();
    const pending = rejection(client({ baseUrl: server.baseUrl, clock }).search.create(QUERY, { signal: controller.signal }));
    await server.firstRequest;
    expect(clock.pendingTimers()).toBe(1);
    controller.abort();
    expect(await pending).toBeInstanceOf(CancelledError);
    expect(clock.pendingTimers()).toBe(0);
  });

  it('a TimeoutError is not a CancelledError and names the timeout', async () => {
    const server = await startServer(silence);
    const clock = new FakeClock();
    const pending = rejection(client({ baseUrl: server.baseUrl, clock }).usage.retrieve({ timeoutMs: 1_500 }));
    await server.firstRequest;
    await clock.advance(1_500);
    const error = await pending;
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).message).toBe('No response within 1.5 s.');
  });
});

/** Whether `promise` settles within `ms` of real time (a hang guard). */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const guard = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([promise.then(() => true), guard]);
  } finally {
    clearTimeout(timer);
  }
}

describe('Before anything is sent: a connection that never completes (TLS handshake unanswered)', () => {
  /** A TCP server that accepts connections and never says a word. */
  async function mute(): Promise<{ baseUrl: string; accepted: Promise<void>; closed: Promise<void>; stop(): Promise<void> }> {
    const sockets = new Set<import('node:net').Socket>();
    let sawClose!: () => void;
    const closed = new Promise<void>((resolve) => (sawClose = resolve));
    let sawAccept!: () => void;
    const accepted = new Promise<void>((resolve) => (sawAccept = resolve));
    const { createServer } = await import('node:net');
    const server = createServer((socket) => {
      sockets.add(socket);
      sawAccept();
      socket.on('error', () => {});
      socket.on('close', () => sawClose());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const { port } = server.address() as import('node:net').AddressInfo;
    return {
      baseUrl: `https://127.0.0.1:${port}`,
      accepted,
      closed,
      stop: async () => {
        for (const s of sockets) s.destroy();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      },
    };
  }

  it('Ctrl-C during the handshake of a search → CancelledError, not counted; close() gives the connection up at once', async () => {
    const server = await mute();
    try {
      const c = client({ baseUrl: server.baseUrl });
      const controller = new AbortController();
      const pending = rejection(c.search.create(QUERY, { signal: controller.signal }));
      await server.accepted;
      controller.abort();
      expect(await pending).toMatchObject({ name: 'CancelledError', mayHaveBeenCounted: false });
      // Guards against a hang (a failure), not timing measurements: both must happen promptly, long before undici's own
      // connect timeout would end the handshake.
      expect(await settlesWithin(c.close(), 3_000)).toBe(true);
      expect(await settlesWithin(server.closed, 3_000)).toBe(true);
    } finally {
      await server.stop();
    }
  });

  it('a timeout during the handshake of a search → TimeoutError, not counted', async () => {
    const server = await mute();
    try {
      const clock = new FakeClock();
      const pending = rejection(client({ baseUrl: server.baseUrl, clock }).search.create(QUERY));
      await server.accepted;
      await clock.advance(60_000);
      expect(await pending).toMatchObject({ name: 'TimeoutError', mayHaveBeenCounted: false });
    } finally {
      await server.stop();
    }
  });
});

describe('tlsProblem: one line for each kind of TLS failure', () => {
  const error = (code: string, message: string, extra: Record<string, unknown> = {}): Error =>
    Object.assign(new Error(message), { code, ...extra });

  it.each([
    [error('DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate'), 'the server certificate is self-signed (DEPTH_ZERO_SELF_SIGNED_CERT)'],
    [error('CERT_HAS_EXPIRED', 'certificate has expired'), 'the server certificate has expired (CERT_HAS_EXPIRED)'],
    [
      error('ERR_TLS_CERT_ALTNAME_INVALID', "Hostname/IP does not match certificate's altnames: Host: x. is not in the cert's altnames"),
      'the server certificate is not valid for this host name (ERR_TLS_CERT_ALTNAME_INVALID)',
    ],
    [
      error('EPROTO', 'C0B7:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:../ssl/record.c:354:\n'),
      'the server does not speak TLS on this port; wrong version number',
    ],
    [
      error('ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION', 'x:error:0A00042E:SSL routines:ssl3_read_bytes:tlsv1 alert protocol version:f.c:1:\n', {
        library: 'SSL routines',
        reason: 'tlsv1 alert protocol version',
      }),
      'tlsv1 alert protocol version',
    ],
  ])('%s → %s', (e, reason) => {
    expect(tlsProblem(e)).toBe(reason);
    expect(tlsProblem(new TypeError('fetch failed', { cause: e }))).toBe(reason);
  });

  it('is undefined for other failures', () => {
    expect(tlsProblem(error('ECONNREFUSED', 'connect ECONNREFUSED'))).toBeUndefined();
    expect(tlsProblem(new Error('other side closed'))).toBeUndefined();
  });
});
