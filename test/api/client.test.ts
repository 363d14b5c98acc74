/**
 * `ApiClient` (`src/api/client.ts`) against a real `node:http` server on an ephemeral loopback port: what goes over
 * the wire (headers, URL, body), what comes back (raw body, typed errors), and timeouts fired by a manual clock.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient, type ClientOptions } from '../../src/api/client.js';
import type { Clock } from '../../src/api/clock.js';
import {
  ApiError,
  AuthenticationError,
  CancelledError,
  ConfigError,
  ConnectionError,
  InvalidRequestError,
  NetworkError,
  QuotaExceededError,
  TimeoutError,
  UnexpectedResponseError,
} from '../../src/api/errors.js';
import type { SearchRequest } from '../../src/api/types.js';

/** A made-up key of the live form; not a real credential. */
const KEY = 'sbx_live_TESTKEYabcdefghijklmnopqrstuvwx';

interface SeenRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

interface TestServer {
  baseUrl: string;
  seen: SeenRequest[];
  /** Resolves with the first request once the server has read it whole. */
  firstRequest: Promise<SeenRequest>;
}

type Reply = (request: SeenRequest, req: http.IncomingMessage, res: http.ServerResponse) => void;

const servers: http.Server[] = [];
const clients: ApiClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(
    servers.splice(0).map(
      (s) =>
        new Promise<void>((resolve) => {
          s.close(() => resolve());
          s.closeAllConnections();
        }),
    ),
  );
});

/** Starts a server that records every request (after reading its body) and answers with `reply`. */
async function startServer(reply: Reply): Promise<TestServer> {
  const seen: SeenRequest[] = [];
  let resolveFirst!: (r: SeenRequest) => void;
  const firstRequest = new Promise<SeenRequest>((resolve) => (resolveFirst = resolve));
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const record: SeenRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      seen.push(record);
      resolveFirst(record);
      reply(record, req, res);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}`, seen, firstRequest };
}

/** Answers with the given status, body and headers. */
function answer(status: number, body: string, headers: Record<string, string> = {}): Reply {
  return (_r, _req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(body);
  };
}

function client(options: Partial<ClientOptions> & { baseUrl: string }): ApiClient {
  const c = new ApiClient({ apiKey: KEY, ...options });
  clients.push(c);
  return c;
}

/** A clock whose timers fire only when the test says so. */
class ManualClock implements Clock {
  readonly pending = new Map<number, { callback: () => void; ms: number }>();
  #next = 1;
  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.#next++;
    this.pending.set(id, { callback, ms });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }
  fireAll(): void {
    for (const [id, timer] of [...this.pending]) {
      this.pending.delete(id);
      timer.callback();
    }
  }
}

const EMPTY_RESULTS = '{"query":"неустойка","result_count":0,"results":[]}';
const QUERY: SearchRequest = { query: 'неустойка', source_types: ['bulgarian_laws_regulations'], max_results: 5 };

describe('ApiClient: the request on the wire', () => {
  it('sends the key in X-API-Key only, by default', async () => {
    const server = await startServer(answer(200, EMPTY_RESULTS));
    await client({ baseUrl: server.baseUrl }).search(QUERY);
    const [request] = server.seen;
    expect(request?.headers['x-api-key']).toBe(KEY);
    expect(request?.headers.authorization).toBeUndefined();
  });

  it("sends the key in Authorization: Bearer only, with authHeader 'bearer'", async () => {
    const server = await startServer(answer(200, EMPTY_RESULTS));
    await client({ baseUrl: server.baseUrl, authHeader: 'bearer' }).search(QUERY);
    const [request] = server.seen;
    expect(request?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request?.headers['x-api-key']).toBeUndefined();
  });

  it('never puts the key in the URL, and posts to <base>/v1/search', async () => {
    const server = await startServer(answer(200, EMPTY_RESULTS));
    await client({ baseUrl: `${server.baseUrl}/legal/` }).search(QUERY);
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
    await client({ baseUrl: server.baseUrl }).search(body);
    const [request] = server.seen;
    expect(request?.headers['content-type']).toMatch(/^application\/json/);
    expect(request?.body).toBe(JSON.stringify(body));
    expect(JSON.parse(request?.body ?? '')).toEqual(body);
    expect(request?.body).not.toContain('include_content');
  });

  it('sends GET /v1/catalog/source-types without a body', async () => {
    const server = await startServer(answer(200, '{"source_types":[]}'));
    const response = await client({ baseUrl: server.baseUrl }).sourceTypes();
    expect(response.data).toEqual({ source_types: [] });
    expect(server.seen[0]?.method).toBe('GET');
    expect(server.seen[0]?.url).toBe('/v1/catalog/source-types');
    expect(server.seen[0]?.body).toBe('');
  });
});

describe('ApiClient: successful responses', () => {
  it('returns the raw body byte for byte (for --json) besides the parsed data', async () => {
    const raw = '{ "query" : "неустойка",\n  "result_count": 0, "results": [ ], "extra": "ё\\u00e9" }\n';
    const server = await startServer(answer(200, raw));
    const response = await client({ baseUrl: server.baseUrl }).search(QUERY);
    expect(response.raw).toBe(raw);
    expect(response.status).toBe(200);
    expect(response.data.results).toEqual([]);
    expect((response.data as unknown as Record<string, unknown>).extra).toBe('ёé');
  });

  it('a 200 whose body is not JSON → UnexpectedResponseError', async () => {
    const server = await startServer(answer(200, '<html>login page</html>', { 'content-type': 'text/html' }));
    await expect(client({ baseUrl: server.baseUrl }).search(QUERY)).rejects.toBeInstanceOf(UnexpectedResponseError);
  });

  it('a 200 JSON body without "results" → UnexpectedResponseError', async () => {
    const server = await startServer(answer(200, '{"query":"неустойка","result_count":0}'));
    const error = await client({ baseUrl: server.baseUrl }).search(QUERY).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect((error as UnexpectedResponseError).message).toContain('results');
  });

  it.each(['null', '[]', '"text"'])('a 200 JSON body %s → UnexpectedResponseError', async (body) => {
    const server = await startServer(answer(200, body));
    await expect(client({ baseUrl: server.baseUrl }).search(QUERY)).rejects.toBeInstanceOf(UnexpectedResponseError);
  });

  it('clears its timeout once the response has arrived', async () => {
    const server = await startServer(answer(200, EMPTY_RESULTS));
    const clock = new ManualClock();
    await client({ baseUrl: server.baseUrl, clock }).search(QUERY);
    expect(clock.pending.size).toBe(0);
  });
});

describe('ApiClient: error responses', () => {
  const errorBody = (code: string, message: string): string => JSON.stringify({ error: { code, message } });

  it.each([
    [401, 'invalid_api_key', 'AuthenticationError', 4, AuthenticationError],
    [401, 'revoked_api_key', 'AuthenticationError', 4, AuthenticationError],
    [400, 'invalid_request', 'InvalidRequestError', 1, InvalidRequestError],
    [429, 'monthly_quota_exceeded', 'QuotaExceededError', 5, QuotaExceededError],
  ] as const)('HTTP %i %s → %s, exit %i', async (status, code, _name, exit, type) => {
    const server = await startServer(answer(status, errorBody(code, 'said the test server'), { 'x-request-id': 'req_test_1' }));
    const error = await client({ baseUrl: server.baseUrl }).search(QUERY).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(type);
    const apiError = error as ApiError;
    expect(apiError.exitCode).toBe(exit);
    expect(apiError.status).toBe(status);
    expect(apiError.code).toBe(code);
    expect(apiError.serverMessage).toBe('said the test server');
    expect(apiError.requestId).toBe('req_test_1');
    expect(apiError.message).not.toContain(KEY);
    expect(server.seen).toHaveLength(1);
  });

  it('HTTP 502 with an HTML body → ApiError whose message carries a short excerpt', async () => {
    const html = `<html><head><title>502 Bad Gateway</title></head><body>${'<p>nginx</p>'.repeat(500)}</body></html>`;
    const server = await startServer(answer(502, html, { 'content-type': 'text/html' }));
    const error = await client({ baseUrl: server.baseUrl }).search(QUERY).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).constructor).toBe(ApiError);
    expect((error as ApiError).status).toBe(502);
    expect((error as ApiError).exitCode).toBe(1);
    expect((error as ApiError).message).toContain('502 Bad Gateway');
    expect((error as ApiError).message.length).toBeLessThan(300);
    expect(server.seen).toHaveLength(1);
  });
});

describe('ApiClient: failures in transit, never retried', () => {
  it('timeout (fired by the clock once the server has the request) → TimeoutError, exit 6, one request seen', async () => {
    const server = await startServer(() => {
      /* never answers */
    });
    const clock = new ManualClock();
    const pending = client({ baseUrl: server.baseUrl, clock, searchTimeoutMs: 45_000 }).search(QUERY);
    const settled = pending.catch((e: unknown) => e);
    await server.firstRequest;
    expect([...clock.pending.values()].map((t) => t.ms)).toEqual([45_000]);
    clock.fireAll();
    const error = await settled;
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).exitCode).toBe(6);
    expect((error as TimeoutError).mayHaveBeenCounted).toBe(true);
    expect((error as TimeoutError).timeoutMs).toBe(45_000);
    expect((error as TimeoutError).message).toContain('45 s');
    expect(server.seen).toHaveLength(1);
  });

  it('uses 60 s as the default search timeout', async () => {
    const server = await startServer(() => {});
    const clock = new ManualClock();
    const settled = client({ baseUrl: server.baseUrl, clock }).search(QUERY).catch((e: unknown) => e);
    await server.firstRequest;
    expect([...clock.pending.values()].map((t) => t.ms)).toEqual([60_000]);
    clock.fireAll();
    expect(await settled).toBeInstanceOf(TimeoutError);
  });

  it('the server drops the connection after reading the request → NetworkError, one request seen', async () => {
    const server = await startServer((_r, req) => req.socket.destroy());
    const error = await client({ baseUrl: server.baseUrl }).search(QUERY).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).exitCode).toBe(6);
    expect((error as NetworkError).mayHaveBeenCounted).toBe(true);
    expect(server.seen).toHaveLength(1);
  });

  it('connection refused (a port just closed) → ConnectionError, exit 6', async () => {
    const probe = http.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const error = await client({ baseUrl: `http://127.0.0.1:${port}` }).search(QUERY).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).exitCode).toBe(6);
    expect((error as ConnectionError).message).toContain(`127.0.0.1:${port}`);
  });

  it('abort via signal while the request is under way → CancelledError, exit 130, may have been counted', async () => {
    const server = await startServer(() => {});
    const controller = new AbortController();
    const settled = client({ baseUrl: server.baseUrl }).search(QUERY, { signal: controller.signal }).catch((e: unknown) => e);
    await server.firstRequest;
    controller.abort();
    const error = await settled;
    expect(error).toBeInstanceOf(CancelledError);
    expect((error as CancelledError).exitCode).toBe(130);
    expect((error as CancelledError).mayHaveBeenCounted).toBe(true);
    expect(server.seen).toHaveLength(1);
  });

  it('a signal already aborted → CancelledError, nothing sent', async () => {
    const server = await startServer(answer(200, EMPTY_RESULTS));
    const error = await client({ baseUrl: server.baseUrl })
      .search(QUERY, { signal: AbortSignal.abort() })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CancelledError);
    expect((error as CancelledError).mayHaveBeenCounted).toBe(false);
    expect(server.seen).toHaveLength(0);
  });
});

describe('ApiClient: base URL checks in the constructor', () => {
  it.each([
    ['credentials', 'https://pravo-user:Pa55w0rdSECRET@api.example.bg', ['Pa55w0rdSECRET', 'pravo-user']],
    ['a query string with a key', `https://api.example.bg/?key=${KEY}`, [KEY, 'TESTKEY']],
    ['a query string with an api_key', `https://api.example.bg/legal?api_key=SECRETVALUE123`, ['SECRETVALUE123']],
    ['a trailing /v1', 'https://api.example.bg/v1', []],
    ['a trailing /v1/', 'https://api.example.bg/legal/v1/', []],
    ['an ftp:// scheme', 'ftp://api.example.bg', []],
    ['not a URL at all', 'api.example.bg', []],
  ])('%s → ConfigError that does not repeat the secret part', (_name, baseUrl, secrets) => {
    let thrown: unknown;
    try {
      new ApiClient({ baseUrl, apiKey: KEY });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    const message = (thrown as ConfigError).message;
    expect((thrown as ConfigError).exitCode).toBe(2);
    for (const secret of secrets) expect(message).not.toContain(secret);
    expect(message).not.toContain(KEY);
  });

  it('suggests the base URL without /v1', () => {
    expect(() => new ApiClient({ baseUrl: 'https://api.example.bg/legal/v1', apiKey: KEY })).toThrow(
      'https://api.example.bg/legal',
    );
  });

  it('accepts a base URL with a path prefix and strips the trailing slash', () => {
    expect(client({ baseUrl: 'https://api.example.bg/legal/' }).baseUrl).toBe('https://api.example.bg/legal');
  });
});
