/**
 * Test harness of the sandbox HTTP server: an index of the synthetic corpus (`test/helpers/synthetic-corpus.ts`, every
 * title marked as test data), a `SandboxState` in its own directory, and the request listener on 127.0.0.1:0.
 */
import fs from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { AnswerRunner, type AnswerRunnerOptions } from '../../../src/sandbox/answers/jobs.js';
import { openIndex } from '../../../src/sandbox/corpus/index-db.js';
import type { SearchIndex } from '../../../src/sandbox/storage.js';
import type { Route } from '../../../src/sandbox/http/router.js';
import { createSandboxServer, type SandboxServerOptions } from '../../../src/sandbox/http/server.js';
import { ROUTES } from '../../../src/sandbox/routes/table.js';
import { inProcessSearcher, type Searcher } from '../../../src/sandbox/search/searcher.js';
import { DEFAULT_ACCOUNT_ID, SandboxState, type Quotas } from '../../../src/sandbox/state/store.js';
import { writeSyntheticCorpus } from '../../helpers/synthetic-corpus.js';

/** A temporary root with the synthetic corpus's index; `close()` removes both. */
export async function openSyntheticIndex(prefix: string): Promise<{ root: string; index: SearchIndex; close: () => void }> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const corpusPath = writeSyntheticCorpus(path.join(root, 'corpus'));
  const index = await openIndex({ corpusPath, dataDir: path.join(root, 'index') });
  return {
    root,
    index,
    close: () => {
      index.close();
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

/**
 * The usual set-up of a test file: the synthetic index opened once for the file (temporary root named after
 * `prefix`), and `serve(options)`, a {@link startTestServer} closed after each test. Registers the vitest hooks.
 */
export function useTestServers(prefix: string): { serve: (options?: TestServerOptions) => Promise<TestServer> } {
  let opened: Awaited<ReturnType<typeof openSyntheticIndex>> | undefined;
  const servers: TestServer[] = [];
  beforeAll(async () => {
    opened = await openSyntheticIndex(prefix);
  });
  afterAll(() => opened?.close());
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
  });
  return {
    serve: async (options = {}) => {
      const server = await startTestServer(opened!.root, opened!.index, options);
      servers.push(server);
      return server;
    },
  };
}

/** A listening server over a fresh state directory, with one issued key and one session of `acct_sandbox`. */
export interface TestServer {
  baseUrl: string;
  state: SandboxState;
  /** The server's answer runner (closed by {@link TestServer.close}). */
  answers: AnswerRunner;
  /** The directory of `state.sqlite`. */
  stateDir: string;
  key: string;
  keyId: string;
  /** A user-session token of `acct_sandbox` (the key's account), valid 24 hours from the state clock's start. */
  session: string;
  sessionId: string;
  /** Every line the server logged. */
  logs: string[];
  /** Resolves with the first line logged (before or after the call) that matches `pattern`. */
  waitForLog(pattern: RegExp): Promise<string>;
  /** Stops the server, closes the runner (clearing its timers) and the state, and removes its directory unless given. */
  close(): Promise<void>;
}

/** Options of {@link startTestServer}. */
export interface TestServerOptions {
  routes?: readonly Route[];
  /** The state's quotas per kind replacing the plan's (`null`: unlimited); default the plan's. */
  quotas?: Quotas;
  /** Clock of the state; default `answers.clock` when given, else fixed at 2025-03-15T12:00:00Z. */
  now?: () => Date;
  server?: SandboxServerOptions;
  /** The answer runner's options (give a `FakeClock` as `clock`; its log is the server's). */
  answers?: Omit<AnswerRunnerOptions, 'log'>;
  /** An existing state directory to open (kept by `close`), e.g. one a closed server left; default a new one. */
  stateDir?: string;
  /** The state's authentication cache TTL in ms; default the state's (60 000). */
  authCacheTtlMs?: number;
  /**
   * The searcher of the server and its answer runner, e.g. a pool of workers (see `test/helpers/search-pool.ts`);
   * closed with the server. Default: searches in the test's process (`inProcessSearcher`).
   */
  searcher?: (index: SearchIndex) => Searcher;
}

/**
 * Starts a server on 127.0.0.1:0 (state in a new directory under `root`, or `options.stateDir`; request durations
 * logged as 0 ms) with an answer runner and a searcher (`options.searcher`, default in-process); `server` sets its
 * time limits (default: those of `pravo sandbox`).
 */
export async function startTestServer(root: string, index: SearchIndex, options: TestServerOptions = {}): Promise<TestServer> {
  const stateDir = options.stateDir ?? fs.mkdtempSync(path.join(root, 'state-'));
  const clock = options.answers?.clock;
  const state = SandboxState.open(stateDir, {
    quotas: options.quotas ?? {},
    now: options.now ?? (clock ? () => new Date(clock.now()) : () => new Date('2025-03-15T12:00:00Z')),
    ...(options.authCacheTtlMs !== undefined ? { authCacheTtlMs: options.authCacheTtlMs } : {}),
  });
  const issued = state.issueKey('server-test');
  const session = state.createSession(DEFAULT_ACCOUNT_ID, { ttlMs: 24 * 60 * 60 * 1000 });
  const logs: string[] = [];
  const waiters: { pattern: RegExp; resolve: (line: string) => void }[] = [];
  const log = (line: string): void => {
    logs.push(line);
    for (const waiter of waiters.filter((w) => w.pattern.test(line))) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(line);
    }
  };
  const searcher = options.searcher?.(index) ?? inProcessSearcher(index);
  const answers = new AnswerRunner(searcher, index, state, { ...options.answers, log });
  const server = createSandboxServer({ index, searcher, state, answers, log, now: () => 0 }, options.routes ?? ROUTES, options.server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    state,
    answers,
    stateDir,
    key: issued.api_key,
    keyId: issued.key_id,
    session: session.session_token,
    sessionId: session.session_id,
    logs,
    waitForLog(pattern) {
      const seen = logs.find((line) => pattern.test(line));
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve) => waiters.push({ pattern, resolve }));
    },
    async close() {
      answers.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await searcher.close();
      state.close();
      if (options.stateDir === undefined) fs.rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

/** A response, its body as text and as JSON (`{}` when not JSON). */
export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  json: Record<string, unknown>;
}

/** Sends one request with fetch. */
export async function request(
  baseUrl: string,
  method: string,
  pathAndQuery: string,
  options: { headers?: Record<string, string>; body?: string } = {},
): Promise<Reply> {
  const response = await fetch(`${baseUrl}${pathAndQuery}`, {
    method,
    headers: options.headers ?? {},
    ...(options.body !== undefined ? { body: options.body } : {}),
  });
  const text = await response.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // left empty; the test asserts on it
  }
  return { status: response.status, headers: response.headers, text, json };
}

/**
 * Asserts the sandbox's error body, `{"error":{"code","message","request_id"}}` with `request_id` equal to the
 * `x-request-id` header, and returns the message.
 */
export function expectError(reply: Reply, status: number, code: string): string {
  expect(reply.status).toBe(status);
  expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
  expect(Object.keys(reply.json)).toEqual(['error']);
  const error = reply.json.error as Record<string, unknown>;
  expect(Object.keys(error).sort()).toEqual(['code', 'message', 'request_id']);
  expect(error.code).toBe(code);
  expect(typeof error.message).toBe('string');
  expect((error.message as string).length).toBeGreaterThan(0);
  expect(error.request_id).toMatch(/^req_[0-9a-f]{16}$/);
  expect(error.request_id).toBe(reply.headers.get('x-request-id'));
  return error.message as string;
}

/** A raw TCP connection to a test server: what the test writes, and all the server sent until it closed. */
export interface RawConnection {
  socket: net.Socket;
  /** Everything received, resolved when the connection closes (by either side). */
  received: Promise<string>;
}

/** Opens a TCP connection to `baseUrl`, for requests node:http's client would not send (malformed, partial, slow). */
export async function connectRaw(baseUrl: string): Promise<RawConnection> {
  const { port } = new URL(baseUrl);
  const socket = net.connect(Number(port), '127.0.0.1');
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (text += chunk));
  socket.on('error', () => {});
  const received = new Promise<string>((resolve) => socket.once('close', () => resolve(text)));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('error', reject);
  });
  return { socket, received };
}

/** Parses one HTTP/1.1 response received on a raw connection (body as sent, not de-chunked) into a {@link Reply}. */
export function parseRawReply(raw: string): Reply {
  const split = raw.indexOf('\r\n\r\n');
  expect(split, `not an HTTP response: ${JSON.stringify(raw.slice(0, 200))}`).toBeGreaterThan(0);
  const [statusLine, ...lines] = raw.slice(0, split).split('\r\n');
  const status = /^HTTP\/1\.1 (\d{3}) /.exec(statusLine ?? '');
  expect(status, `status line ${JSON.stringify(statusLine)}`).not.toBeNull();
  const headers = new Headers();
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  const text = raw.slice(split + 4);
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // left empty; the test asserts on it
  }
  return { status: Number(status![1]), headers, text, json };
}
