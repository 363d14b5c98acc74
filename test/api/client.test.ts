/**
 * `LegalResearchClient` (`src/api/client.ts`) against a real `node:http` server on an ephemeral loopback port: what
 * goes over the wire (headers, URL, body), what comes back (raw body, typed errors), and timeouts fired by a fake
 * clock. Ported from the former `ApiClient` tests: exit-code assertions became class assertions (exit codes are the
 * CLI's business now).
 */
import { describe, expect, it } from 'vitest';
import { LegalResearchClient } from '../../src/api/client.js';
import {
  ApiClientError,
  ApiError,
  AuthenticationError,
  CancelledError,
  ConnectionError,
  InvalidBaseUrlError,
  InvalidRequestError,
  NetworkError,
  QuotaExceededError,
  ServerError,
  TimeoutError,
  UnexpectedResponseError,
} from '../../src/api/errors.js';
import type { SearchRequest } from '../../src/contract/types.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { KEY, answer, client, closedPort, rejection, silence, startServer } from './test-server.js';

const EMPTY_RESULTS = '{"query":"неустойка","result_count":0,"results":[]}';
const QUERY: SearchRequest = { query: 'неустойка', source_types: ['bulgarian_laws_regulations'], max_results: 5 };

describe('LegalResearchClient: the request on the wire', () => {
  it('sends the key in X-API-Key only, by default', async () => {
    const server = await startServer(answer(200, EMPTY_RESULTS));
    await client({ baseUrl: server.baseUrl }).search.create(QUERY);
    const [request] = server.seen;
    expect(request?.headers['x-api-key']).toBe(KEY);
    expect(request?.headers.authorization).toBeUndefined();
  });

  it("sends the key in Authorization: Bearer only, with header 'bearer'", async () => {
    const server = await startServer(answer(200, EMPTY_RESULTS));
    await client({
      baseUrl: server.baseUrl,
      credentials: { api_key: { kind: 'api_key', apiKey: KEY, header: 'bearer' } },
    }).search.create(QUERY);
    const [request] = server.seen;
    expect(request?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request?.headers['x-api-key']).toBeUndefined();
  });

  it('never puts the key in the URL, and posts to <base>/v1/search', async () => {
    const server = await startServer(answer(200, EMPTY_RESULTS));
    await client({ baseUrl: `${server.baseUrl}/legal/` }).search.create(QUERY);
    const [request] = server.seen;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/legal/v1/search');
    expect(request?.url).not.toContain(KEY);
    expect(decodeURIComponent(request?.url ?? '')).not.toContain('TESTKEY');
  });

  it('posts exactly the given JSON, without include_content', async () => {
    const server = await startServer(answer(200, EMPTY_RESULTS));
    const body: SearchRequest = {
      query: 'ТЕСТОВИ ДАННИ: неустойка „кавички“',
      court_ids: [3],
      date_from: '2024-02-29',
      max_results: 50,
    };
    await client({ baseUrl: server.baseUrl }).search.create(body);
    const [request] = server.seen;
    expect(request?.headers['content-type']).toMatch(/^application\/json/);
    expect(request?.body).toBe(JSON.stringify(body));
    expect(JSON.parse(request?.body ?? '')).toEqual(body);
    expect(request?.body).not.toContain('include_content');
  });

  it('sends GET /v1/catalog/source-types without a body', async () => {
    const server = await startServer(answer(200, '{"source_types":[]}'));
    const response = await client({ baseUrl: server.baseUrl }).catalog.sourceTypes();
    expect(response.data).toEqual({ source_types: [] });
    expect(server.seen[0]?.method).toBe('GET');
    expect(server.seen[0]?.url).toBe('/v1/catalog/source-types');
    expect(server.seen[0]?.body).toBe('');
  });
});

describe('LegalResearchClient: successful responses', () => {
  it('returns the raw body byte for byte (for --json) besides the parsed data', async () => {
    const raw = '{ "query" : "неустойка",\n  "result_count": 0, "results": [ ], "extra": "ё\\u00e9" }\n';
    const server = await startServer(answer(200, raw, { 'x-request-id': 'req_ok_1' }));
    const response = await client({ baseUrl: server.baseUrl }).search.create(QUERY);
    expect(response.raw).toBe(raw);
    expect(response.status).toBe(200);
    expect(response.requestId).toBe('req_ok_1');
    expect(response.data.results).toEqual([]);
    expect((response.data as unknown as Record<string, unknown>).extra).toBe('ёé');
  });

  it('a 200 whose body is not JSON → UnexpectedResponseError', async () => {
    const server = await startServer(answer(200, '<html>login page</html>', { 'content-type': 'text/html' }));
    const error = await rejection(client({ baseUrl: server.baseUrl }).search.create(QUERY));
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect((error as UnexpectedResponseError).problem).toContain('not JSON');
  });

  it('a 200 JSON body without "results" → UnexpectedResponseError', async () => {
    const server = await startServer(answer(200, '{"query":"неустойка","result_count":0}'));
    const error = await rejection(client({ baseUrl: server.baseUrl }).search.create(QUERY));
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect((error as UnexpectedResponseError).message).toContain('results');
  });

  it.each(['null', '[]', '"text"'])('a 200 JSON body %s → UnexpectedResponseError', async (body) => {
    const server = await startServer(answer(200, body));
    await expect(client({ baseUrl: server.baseUrl }).search.create(QUERY)).rejects.toBeInstanceOf(
      UnexpectedResponseError,
    );
  });

  it('clears its timeout once the response has arrived', async () => {
    const server = await startServer(answer(200, EMPTY_RESULTS));
    const clock = new FakeClock();
    await client({ baseUrl: server.baseUrl, clock }).search.create(QUERY);
    expect(clock.pendingTimers()).toBe(0);
  });
});

describe('LegalResearchClient: error responses', () => {
  const errorBody = (code: string, message: string): string => JSON.stringify({ error: { code, message } });

  it.each([
    [401, 'invalid_api_key', AuthenticationError],
    [401, 'revoked_api_key', AuthenticationError],
    [400, 'invalid_request', InvalidRequestError],
    [429, 'monthly_quota_exceeded', QuotaExceededError],
  ] as const)('HTTP %i %s → %o', async (status, code, type) => {
    const server = await startServer(
      answer(status, errorBody(code, 'said the test server'), { 'x-request-id': 'req_test_1' }),
    );
    const error = await rejection(client({ baseUrl: server.baseUrl }).search.create(QUERY));
    expect(error).toBeInstanceOf(type);
    const apiError = error as ApiError;
    expect(apiError).not.toHaveProperty('exitCode');
    expect(apiError.status).toBe(status);
    expect(apiError.code).toBe(code);
    expect(apiError.serverMessage).toBe('said the test server');
    expect(apiError.requestId).toBe('req_test_1');
    expect(apiError.mayHaveBeenCounted).toBe(false);
    expect(apiError.message).not.toContain(KEY);
    expect(server.seen).toHaveLength(1);
  });

  it('HTTP 502 with an HTML body → ServerError whose message carries a short excerpt; a POST may have been counted', async () => {
    const html = `<html><head><title>502 Bad Gateway</title></head><body>${'<p>nginx</p>'.repeat(500)}</body></html>`;
    const server = await startServer(answer(502, html, { 'content-type': 'text/html' }));
    const error = await rejection(client({ baseUrl: server.baseUrl }).search.create(QUERY));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).constructor).toBe(ServerError);
    expect((error as ApiError).status).toBe(502);
    expect((error as ApiError).mayHaveBeenCounted).toBe(true);
    expect((error as ApiError).message).toContain('502 Bad Gateway');
    expect((error as ApiError).message.length).toBeLessThan(300);
    expect(server.seen).toHaveLength(1);
  });
});

describe('LegalResearchClient: failures in transit, never retried for a search', () => {
  it('timeout (fired by the clock once the server has the request) → TimeoutError, one request seen', async () => {
    const server = await startServer(silence);
    const clock = new FakeClock();
    const settled = rejection(client({ baseUrl: server.baseUrl, clock }).search.create(QUERY, { timeoutMs: 45_000 }));
    await server.firstRequest;
    expect(clock.pendingDelays()).toEqual([45_000]);
    await clock.advance(45_000);
    const error = await settled;
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).mayHaveBeenCounted).toBe(true);
    expect((error as TimeoutError).timeoutMs).toBe(45_000);
    expect((error as TimeoutError).message).toContain('45 s');
    expect(server.seen).toHaveLength(1);
  });

  it('uses 60 s as the default search timeout, whatever the client default', async () => {
    const server = await startServer(silence);
    const clock = new FakeClock();
    const settled = rejection(client({ baseUrl: server.baseUrl, clock, timeoutMs: 5_000 }).search.create(QUERY));
    await server.firstRequest;
    expect(clock.pendingDelays()).toEqual([60_000]);
    await clock.advance(59_999);
    expect(clock.pendingTimers()).toBe(1);
    await clock.advance(1);
    expect(await settled).toBeInstanceOf(TimeoutError);
  });

  it('the server drops the connection after reading the request → NetworkError, one request seen', async () => {
    const server = await startServer((_r, req) => req.socket.destroy());
    const error = await rejection(client({ baseUrl: server.baseUrl }).search.create(QUERY));
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).mayHaveBeenCounted).toBe(true);
    expect((error as NetworkError).message).not.toMatch(/\n/);
    expect(server.seen).toHaveLength(1);
  });

  it('connection refused (a port just closed) → ConnectionError naming the address, nothing counted', async () => {
    const port = await closedPort();
    const error = await rejection(client({ baseUrl: `http://127.0.0.1:${port}` }).search.create(QUERY));
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).message).toContain(`127.0.0.1:${port}`);
    expect((error as ConnectionError).url).toBe(`http://127.0.0.1:${port}`);
    expect((error as ConnectionError).mayHaveBeenCounted).toBe(false);
  });

  it('abort via signal while the request is under way → CancelledError, may have been counted', async () => {
    const server = await startServer(silence);
    const controller = new AbortController();
    const settled = rejection(client({ baseUrl: server.baseUrl }).search.create(QUERY, { signal: controller.signal }));
    await server.firstRequest;
    controller.abort();
    const error = await settled;
    expect(error).toBeInstanceOf(CancelledError);
    expect((error as CancelledError).mayHaveBeenCounted).toBe(true);
    expect(server.seen).toHaveLength(1);
  });

  it('a signal already aborted → CancelledError, nothing sent', async () => {
    const server = await startServer(answer(200, EMPTY_RESULTS));
    const error = await rejection(
      client({ baseUrl: server.baseUrl }).search.create(QUERY, { signal: AbortSignal.abort() }),
    );
    expect(error).toBeInstanceOf(CancelledError);
    expect((error as CancelledError).mayHaveBeenCounted).toBe(false);
    expect(server.seen).toHaveLength(0);
  });
});

describe('LegalResearchClient: base URL checks in the constructor', () => {
  it.each([
    ['credentials', 'https://pravo-user:Pa55w0rdSECRET@api.example.bg', ['Pa55w0rdSECRET', 'pravo-user']],
    ['a query string with a key', `https://api.example.bg/?key=${KEY}`, [KEY, 'TESTKEY']],
    ['a query string with an api_key', `https://api.example.bg/legal?api_key=SECRETVALUE123`, ['SECRETVALUE123']],
    ['a trailing /v1', 'https://api.example.bg/v1', []],
    ['a trailing /v1/', 'https://api.example.bg/legal/v1/', []],
    ['an ftp:// scheme', 'ftp://api.example.bg', []],
    ['not a URL at all', 'api.example.bg', []],
  ])('%s → InvalidBaseUrlError that does not repeat the secret part', (_name, baseUrl, secrets) => {
    let thrown: unknown;
    try {
      new LegalResearchClient({ baseUrl });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InvalidBaseUrlError);
    expect(thrown).toBeInstanceOf(ApiClientError);
    const message = (thrown as InvalidBaseUrlError).message;
    for (const secret of secrets) expect(message).not.toContain(secret);
    expect(message).not.toContain(KEY);
  });

  it('suggests the base URL without /v1', () => {
    expect(() => new LegalResearchClient({ baseUrl: 'https://api.example.bg/legal/v1' })).toThrow(
      'https://api.example.bg/legal',
    );
  });

  it('accepts a base URL with a path prefix and strips the trailing slash', () => {
    expect(client({ baseUrl: 'https://api.example.bg/legal/' }).baseUrl).toBe('https://api.example.bg/legal');
  });
});
