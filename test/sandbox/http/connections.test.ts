/**
 * What node:http refuses before a route sees the request (`createSandboxServer`): a request that is not HTTP/1.1,
 * headers over 16 KiB, and requests that do not arrive in time are answered with the sandbox's JSON error body and
 * an `x-request-id`, then the connection is closed; a client that leaves mid-body is logged in one line. Timeouts are
 * set small here (200 ms for headers); the tests wait for the server to close the connection, never for a fixed time.
 */
import http from 'node:http';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SearchIndex } from '../../../src/sandbox/storage.js';
import { createSandboxServer, DEFAULT_SERVER_OPTIONS } from '../../../src/sandbox/http/server.js';
import { ROUTES } from '../../../src/sandbox/routes/table.js';
import { inProcessSearcher } from '../../../src/sandbox/search/searcher.js';
import { DEFAULT_ACCOUNT_ID } from '../../../src/sandbox/state/store.js';
import { connectRaw, expectError, openSyntheticIndex, parseRawReply, startTestServer, type TestServer } from './harness.js';

let root: string;
let index: SearchIndex;
let closeIndex: () => void;
let sandbox: TestServer;

beforeAll(async () => {
  ({ root, index, close: closeIndex } = await openSyntheticIndex('pravo-connections-test-'));
});
afterAll(() => closeIndex?.());
beforeEach(async () => {
  sandbox = await startTestServer(root, index, {
    server: { headersTimeout: 200, requestTimeout: 400, connectionsCheckingInterval: 20 },
  });
});
afterEach(async () => {
  await sandbox.close();
});

/** Sends `data` on a new connection, half-closes it, and returns the server's answer. */
async function sendRaw(data: string): Promise<string> {
  const connection = await connectRaw(sandbox.baseUrl);
  connection.socket.end(data);
  return connection.received;
}

describe('requests node:http refuses', () => {
  it('a request line that is not HTTP → 400 invalid_request with the JSON body and x-request-id', async () => {
    const reply = parseRawReply(await sendRaw('GARBAGE\r\n\r\n'));
    const message = expectError(reply, 400, 'invalid_request');
    expect(message).toMatch(/not valid HTTP/);
    expect(reply.headers.get('connection')).toBe('close');
    expect(Number(reply.headers.get('content-length'))).toBe(Buffer.byteLength(reply.text));
    const id = (reply.json.error as { request_id: string }).request_id;
    expect(sandbox.logs).toEqual([`- - 400 0ms key=- ${id} (HPE_INVALID_METHOD)`]);
  });

  it('headers over 16 KiB → 431 invalid_request with the JSON body and x-request-id', async () => {
    const raw = await sendRaw(`GET /v1/catalog/source-types HTTP/1.1\r\nHost: x\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`);
    const reply = parseRawReply(raw);
    expect(expectError(reply, 431, 'invalid_request')).toContain(String(http.maxHeaderSize));
  });

  it('headers drip-fed past the headers timeout → 408 request_timeout with the JSON body, connection closed', async () => {
    const connection = await connectRaw(sandbox.baseUrl);
    connection.socket.write('GET /v1/catalog/source-types HTTP/1.1\r\nHost: x\r\n');
    // One header line every 20 ms: the connection is never idle, yet its headers never end.
    const drip = setInterval(() => {
      if (connection.socket.writable) connection.socket.write('X-Drip: a\r\n');
    }, 20);
    try {
      const reply = parseRawReply(await connection.received);
      expect(expectError(reply, 408, 'request_timeout')).toMatch(/0\.2 s/);
      expect(sandbox.logs).toEqual([expect.stringMatching(/^- - 408 0ms key=- req_[0-9a-f]{16} \(ERR_HTTP_REQUEST_TIMEOUT\)$/)]);
    } finally {
      clearInterval(drip);
    }
  });

  it('a body that stops arriving → 408 with the request id of the request, logged once as a 408', async () => {
    const connection = await connectRaw(sandbox.baseUrl);
    connection.socket.write(
      `POST /v1/search HTTP/1.1\r\nHost: x\r\nX-API-Key: ${sandbox.key}\r\nContent-Type: application/json\r\n` +
        'Content-Length: 100\r\n\r\n{"query":',
    );
    const reply = parseRawReply(await connection.received);
    expectError(reply, 408, 'request_timeout');
    const id = (reply.json.error as { request_id: string }).request_id;
    await sandbox.waitForLog(new RegExp(id));
    expect(sandbox.logs).toEqual([`POST /v1/search 408 0ms key=${sandbox.keyId} ${id} (ERR_HTTP_REQUEST_TIMEOUT)`]);
  });

  it('has the documented time limits by default', () => {
    const server = createSandboxServer({ index, searcher: inProcessSearcher(index), state: sandbox.state, log: () => {} }, ROUTES);
    expect(DEFAULT_SERVER_OPTIONS).toMatchObject({ headersTimeout: 10_000, requestTimeout: 60_000 });
    expect(server.headersTimeout).toBe(10_000);
    expect(server.requestTimeout).toBe(60_000);
    expect(server.keepAliveTimeout).toBe(5_000);
  });
});

describe('a client that leaves mid-body', () => {
  const partialSearch = (): string =>
    `POST /v1/search HTTP/1.1\r\nHost: x\r\nX-API-Key: ${sandbox.key}\r\nContent-Type: application/json\r\n` +
    'Content-Length: 1000\r\n\r\n{"query":"';

  it('closing the connection → one log line saying so, no 500, no stack, and the server serves on', async () => {
    const connection = await connectRaw(sandbox.baseUrl);
    connection.socket.write(partialSearch());
    connection.socket.destroy();
    const line = await sandbox.waitForLog(/^POST \/v1\/search /);
    expect(line).toMatch(/^POST \/v1\/search req_[0-9a-f]{16} client closed the connection before the body was complete$/);
    const again = await connectRaw(sandbox.baseUrl);
    again.socket.end('GET /v1/catalog/source-types HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(parseRawReply(await again.received).status).toBe(401);
    expect(sandbox.logs).toHaveLength(2);
    expect(sandbox.logs.join('\n')).not.toMatch(/failed:|internal_error|\b500\b| at /);
    expect(sandbox.state.used(DEFAULT_ACCOUNT_ID, 'search')).toBe(0);
  });

  it('half-closing it → the client may still read a 400; one log line, as a client abort', async () => {
    const reply = parseRawReply(await sendRaw(partialSearch()));
    expectError(reply, 400, 'invalid_request');
    const id = (reply.json.error as { request_id: string }).request_id;
    await sandbox.waitForLog(new RegExp(id));
    expect(sandbox.logs).toEqual([`POST /v1/search ${id} client closed the connection before the body was complete`]);
  });
});
