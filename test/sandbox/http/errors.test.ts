/**
 * Failures inside the server: whatever a handler throws becomes a JSON error response with the request id, and the
 * server keeps serving; SQLite busy/full errors become 503 `service_unavailable`; oversized bodies 413; a client that
 * goes away mid-request is only logged.
 */
import http from 'node:http';
import net from 'node:net';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SearchIndex } from '../../../src/sandbox/storage.js';
import { MAX_BODY_BYTES, readJsonBody } from '../../../src/sandbox/http/body.js';
import { ClientAbortError, HttpError, knownHttpError } from '../../../src/sandbox/http/errors.js';
import type { Route } from '../../../src/sandbox/http/router.js';
import { ROUTES } from '../../../src/sandbox/routes/table.js';
import { stateUnavailable } from '../../../src/sandbox/state/db-errors.js';
import { DEFAULT_ACCOUNT_ID } from '../../../src/sandbox/state/store.js';
import { expectError, openSyntheticIndex, request, startTestServer, type TestServer } from './harness.js';

/** A real SQLITE_FULL from node:sqlite: an in-memory database capped at 2 pages, filled. */
function diskFullError(): Error {
  const db = new DatabaseSync(':memory:');
  try {
    db.exec('PRAGMA max_page_count = 2; CREATE TABLE t (x TEXT)');
    for (;;) db.prepare('INSERT INTO t VALUES (?)').run('x'.repeat(1000));
  } catch (error) {
    return error as Error;
  } finally {
    db.close();
  }
}

/** Resolved by the `/v1/test/read-body` handler once it starts reading the body. */
let readingBody: () => void = () => {};

/** Test-only routes under /v1/test/… in front of the real table. */
const TEST_ROUTES: Route[] = [
  {
    method: 'POST',
    pattern: '/v1/test/read-body',
    auth: 'api-key',
    status: 200,
    handler: async ({ body }) => {
      const reading = body();
      readingBody();
      return { body: await reading };
    },
  },
  {
    method: 'GET',
    pattern: '/v1/test/plain-error',
    auth: 'none',
    status: 200,
    handler: () => {
      throw new Error('boom: a test failure mentioning sbx_live_AAAAAAAAAAAAAAAAAAAAAAAA');
    },
  },
  { method: 'GET', pattern: '/v1/test/disk-full', auth: 'none', status: 200, handler: () => { throw diskFullError(); } },
  { method: 'GET', pattern: '/v1/test/no-body', auth: 'none', status: 200, handler: () => undefined },
  { method: 'GET', pattern: '/v1/test/teapot', auth: 'api-key', status: 200, handler: () => { throw new HttpError(418, 'teapot', 'Short and stout.', { 'x-extra': 'yes' }); } },
  { method: 'POST', pattern: '/v1/test/echo/:name', auth: 'api-key', status: 202, handler: async ({ params, body, keyId }) => ({ params, body: await body(), keyId }) },
];

let root: string;
let index: SearchIndex;
let closeIndex: () => void;
let sandbox: TestServer;

beforeAll(async () => {
  ({ root, index, close: closeIndex } = await openSyntheticIndex('pravo-errors-test-'));
});
afterAll(() => closeIndex?.());
beforeEach(async () => {
  sandbox = await startTestServer(root, index, { routes: [...TEST_ROUTES, ...ROUTES] });
});
afterEach(async () => {
  await sandbox.close();
});

const sourceTypes = () => request(sandbox.baseUrl, 'GET', '/v1/catalog/source-types', { headers: { 'x-api-key': sandbox.key } });

describe('errors thrown by handlers', () => {
  it('a plain Error → 500 internal_error JSON, logged with its stack but without keys; the server still serves', async () => {
    const reply = await request(sandbox.baseUrl, 'GET', '/v1/test/plain-error');
    const message = expectError(reply, 500, 'internal_error');
    expect(reply.text).not.toContain('boom');
    expect(message).toMatch(/log/);
    const failure = sandbox.logs.find((line) => line.includes('failed:'))!;
    expect(failure).toContain('boom: a test failure');
    expect(failure).toContain('errors.test.ts');
    expect(failure).not.toContain('sbx_live_AAAA');
    expect((await sourceTypes()).status).toBe(200);
    expect((await request(sandbox.baseUrl, 'GET', '/v1/test/plain-error')).status).toBe(500);
    expect((await sourceTypes()).status).toBe(200);
  });

  it('a handler without a JSON value → 500', async () => {
    expectError(await request(sandbox.baseUrl, 'GET', '/v1/test/no-body'), 500, 'internal_error');
  });

  it('SQLITE_FULL → 503 service_unavailable with Retry-After, saying the state database is full', async () => {
    const reply = await request(sandbox.baseUrl, 'GET', '/v1/test/disk-full');
    const message = expectError(reply, 503, 'service_unavailable');
    expect(reply.headers.get('retry-after')).toBe('1');
    expect(message).toMatch(/state database.*full/i);
    expect((await sourceTypes()).status).toBe(200);
  });

  it('an HttpError keeps its status, code and headers', async () => {
    const reply = await request(sandbox.baseUrl, 'GET', '/v1/test/teapot', { headers: { 'x-api-key': sandbox.key } });
    expect(expectError(reply, 418, 'teapot')).toBe('Short and stout.');
    expect(reply.headers.get('x-extra')).toBe('yes');
  });

  it('handlers get decoded params, the JSON body and the key id, and answer with the route status', async () => {
    const reply = await request(sandbox.baseUrl, 'POST', '/v1/test/echo/%D0%B0%20b', {
      headers: { 'x-api-key': sandbox.key, 'content-type': 'application/json' },
      body: '{"x":1}',
    });
    expect(reply.status).toBe(202);
    expect(reply.json).toEqual({ params: { name: 'а b' }, body: { x: 1 }, keyId: sandbox.keyId });
    expect(reply.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{16}$/);
  });

  it('a path parameter that is not valid percent-encoding → 400 invalid_request', async () => {
    const reply = await request(sandbox.baseUrl, 'GET', '/v1/answers/%E0%A4%A', { headers: { 'x-api-key': sandbox.key } });
    expectError(reply, 400, 'invalid_request');
  });
});

describe('knownHttpError', () => {
  const sqliteError = (errcode: number, message: string): Error =>
    Object.assign(new Error(message), { code: 'ERR_SQLITE_ERROR', errcode, errstr: message });

  it.each([
    [5, 'database is locked', 'busy'],
    [6, 'database table is locked', 'busy'],
    [517, 'database is locked', 'busy'],
    [13, 'database or disk is full', 'full'],
  ])('SQLite errcode %i (%s) → 503 service_unavailable, Retry-After: 1', (errcode, message, kind) => {
    const error = knownHttpError(sqliteError(errcode, message), stateUnavailable)!;
    expect(error).toMatchObject({ status: 503, code: 'service_unavailable', headers: { 'retry-after': '1' } });
    expect(error.message).toContain(kind === 'busy' ? 'busy' : 'full');
    expect(error.message).toMatch(/retry/i);
  });

  it('leaves other errors to the caller (500)', () => {
    expect(knownHttpError(sqliteError(1, 'no such table: x'), stateUnavailable)).toBeUndefined();
    expect(knownHttpError(new Error('database is locked'), stateUnavailable)).toBeUndefined();
    expect(knownHttpError('a string', stateUnavailable)).toBeUndefined();
  });
});

describe('request bodies and connections', () => {
  it('a body over 1 MiB → 413 invalid_request, and the connection serves on', async () => {
    const body = JSON.stringify({ query: 'неустойка', padding: 'x'.repeat(MAX_BODY_BYTES) });
    const reply = await request(sandbox.baseUrl, 'POST', '/v1/search', {
      headers: { 'x-api-key': sandbox.key, 'content-type': 'application/json' },
      body,
    });
    expectError(reply, 413, 'invalid_request');
    expect(sandbox.state.used(DEFAULT_ACCOUNT_ID, 'search')).toBe(0);
    expect((await sourceTypes()).status).toBe(200);
  });

  it('a chunked body (no content-length) over 1 MiB → 413 too', async () => {
    const { port } = new URL(sandbox.baseUrl);
    const reply = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = http.request(
        { host: '127.0.0.1', port: Number(port), method: 'POST', path: '/v1/search', headers: { 'x-api-key': sandbox.key } },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on('error', reject);
      const chunk = 'x'.repeat(600 * 1024);
      req.write(`{"query": "неустойка", "padding": "${chunk}`);
      req.write(chunk);
      req.end('"}');
    });
    expect(reply.status).toBe(413);
    expect((JSON.parse(reply.text) as { error: { code: string } }).error.code).toBe('invalid_request');
    expect(sandbox.state.used(DEFAULT_ACCOUNT_ID, 'search')).toBe(0);
  });

  it('a client that disconnects mid-body is logged, and the server still serves', async () => {
    const started = new Promise<void>((resolve) => (readingBody = resolve));
    const { port } = new URL(sandbox.baseUrl);
    const socket = net.connect(Number(port), '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(
      `POST /v1/test/read-body HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: ${sandbox.key}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"query": "неус',
    );
    await started;
    socket.destroy();
    const line = await sandbox.waitForLog(/^POST \/v1\/test\/read-body /);
    expect(line).toMatch(/client closed the connection/);
    expect(sandbox.logs.join('\n')).not.toContain(sandbox.key);
    expect(sandbox.logs.some((l) => l.includes('failed:'))).toBe(false);
    expect((await sourceTypes()).status).toBe(200);
  });

  it('reading the body of a request whose client already left fails at once (ClientAbortError), not never', async () => {
    const gone = new http.IncomingMessage(new net.Socket());
    gone.destroy();
    await expect(readJsonBody(gone)).rejects.toBeInstanceOf(ClientAbortError);
  }, 2_000);
});
