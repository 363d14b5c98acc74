/**
 * A real `node:http` server on an ephemeral loopback port for the API-client tests: records every request (after
 * reading its body whole) and answers with a reply function, which may differ per request.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';
import { LegalResearchClient } from '../../src/api/client.js';
import type { TransportOptions } from '../../src/api/transport.js';
import { Transport } from '../../src/api/transport.js';

/** A made-up key of the live form; not a real credential. */
export const KEY = 'sbx_live_TESTKEYabcdefghijklmnopqrstuvwx';
/** A made-up session token; not a real credential. */
export const SESSION = 'TEST-session-token-not-real-0123456789';

export interface SeenRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface TestServer {
  baseUrl: string;
  port: number;
  seen: SeenRequest[];
  /** Resolves with the request number `n` (1-based) once the server has read it whole. */
  request(n: number): Promise<SeenRequest>;
  /** Resolves with the first request once the server has read it whole. */
  firstRequest: Promise<SeenRequest>;
}

export type Reply = (request: SeenRequest, req: http.IncomingMessage, res: http.ServerResponse, n: number) => void;

const servers: http.Server[] = [];
const closables: Array<{ close(): Promise<void> }> = [];

afterEach(async () => {
  await Promise.all(closables.splice(0).map((c) => c.close()));
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

/** Starts a server that records every request and answers with `reply` (or `replies[n-1]`, the last one repeating). */
export async function startServer(reply: Reply | Reply[]): Promise<TestServer> {
  const seen: SeenRequest[] = [];
  const waiting = new Map<number, (r: SeenRequest) => void>();
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
      const n = seen.length;
      waiting.get(n)?.(record);
      const replyN = Array.isArray(reply) ? (reply[n - 1] ?? reply[reply.length - 1]!) : reply;
      replyN(record, req, res, n);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  const request = (n: number): Promise<SeenRequest> =>
    seen[n - 1] !== undefined ? Promise.resolve(seen[n - 1]!) : new Promise((resolve) => waiting.set(n, resolve));
  return { baseUrl: `http://127.0.0.1:${port}`, port, seen, request, firstRequest: request(1) };
}

/** Answers with the given status, body and headers. */
export function answer(status: number, body: string, headers: Record<string, string> = {}): Reply {
  return (_r, _req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(body);
  };
}

/** Never answers. */
export const silence: Reply = () => {};

/** A port on 127.0.0.1 that was just free (connecting to it is refused). */
export async function closedPort(): Promise<number> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** A client with the test API key (in X-API-Key unless `credentials` says otherwise), closed after the test. */
export function client(options: Partial<TransportOptions> & { baseUrl: string }): LegalResearchClient {
  const c = new LegalResearchClient({
    credentials: { api_key: { kind: 'api_key', apiKey: KEY, header: 'x-api-key' } },
    ...options,
  });
  closables.push(c);
  return c;
}

/** A transport with both test credentials, closed after the test. */
export function transport(options: Partial<TransportOptions> & { baseUrl: string }): Transport {
  const t = new Transport({
    credentials: {
      api_key: { kind: 'api_key', apiKey: KEY, header: 'x-api-key' },
      session: { kind: 'session', token: SESSION },
    },
    ...options,
  });
  closables.push(t);
  return t;
}

/** The error a promise rejects with (fails the test when it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject, but it resolved');
}
