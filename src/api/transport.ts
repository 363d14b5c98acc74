/**
 * The one request function of the Legal Research API client (spec: Endpoints, Authentication, Errors), over undici's
 * low-level `dispatch`, used by every resource for GET, POST and PATCH alike.
 *
 * - URL: the spec's path (with `:name` parameters URL-encoded) appended to the base URL, query parameters URL-encoded.
 * - Authentication: the credential the endpoint needs, in exactly one header (spec: Authentication); never in the URL;
 *   a missing credential fails before anything is sent.
 * - Timeout: one total timeout per try on the injected clock, covering connect, headers and body.
 * - Size: the body is read as a stream and counted; past `maxResponseBytes` (error bodies: 64 KiB) reading stops.
 * - Success: the status must be one the caller expects; the body must be JSON and pass the caller's shape check.
 * - Errors: typed (`errors.ts`), with whether the request may have been counted; never exit codes, never printing.
 *
 * Retries: only a GET is retried, and only when nothing can have been counted or changed: on connection failures
 * (nothing sent) and on HTTP 429 (not `monthly_quota_exceeded`), 502, 503 and 504 (not 502 and 504 for a GET that
 * consumes quota, such as `GET /v1/documents`: the service may have handled it behind the gateway); at most `maxTries` tries, with
 * exponential backoff and equal jitter, honouring `Retry-After` up to {@link RETRY_AFTER_MAX_MS} a wait and
 * {@link RETRY_WAIT_MAX_MS} for all the waits of one request (longer: no retry, the error is given, with its
 * `retryAfterMs`). Each wait is announced before it starts through `onRetry` (a {@link RetryNotice}), which the command
 * layer shows on stderr: the client itself never prints.
 * POST and PATCH are never retried (spec: POST /v1/search, rule 4: the server may already have run and counted the
 * request), and never replayed by undici either (`idempotent: false`, no retry interceptor). We write our own retry
 * loop rather than use undici's RetryAgent because the waits must run on the injected clock (so Ctrl-C interrupts them
 * and tests advance a fake clock instead of sleeping) and the rules are the contract's, not HTTP's generic ones.
 */
import type { Socket } from 'node:net';
import { createRequire } from 'node:module';
import type { Agent as UndiciAgent, buildConnector as undiciBuildConnector, Dispatcher } from 'undici';
import { normalizeBaseUrl } from './base-url.js';
import { systemClock, type Clock } from '../shared/clock.js';
import { authHeaders, type Credentials } from './credentials.js';
import {
  ApiClientError,
  ApiError,
  CancelledError,
  ConnectionError,
  MissingCredentialError,
  NetworkError,
  RateLimitError,
  ResponseTooLargeError,
  ServerError,
  TimeoutError,
  TlsError,
  UnexpectedResponseError,
  errorFromResponse,
  type HttpMethod,
  type ResponseHeaders,
} from './errors.js';
import { ShapeError } from './shapes.js';
import { buildPath } from '../contract/paths.js';

/*
 * undici's Agent and connector, each from its own module: the package's index also loads every other API (fetch,
 * WebSocket, the cache, mocks…), 50 ms at start-up against 22 ms for these two. undici declares no `exports`, so these
 * paths are public; their types are the index's.
 */
const requireUndici = createRequire(import.meta.url);
const Agent = requireUndici('undici/lib/dispatcher/agent.js') as typeof UndiciAgent;
const buildConnector = requireUndici('undici/lib/core/connect.js') as typeof undiciBuildConnector;
type Agent = UndiciAgent;

/** Options of a {@link Transport} (and of `LegalResearchClient`). */
export interface TransportOptions {
  /** Base URL of the service, checked with `normalizeBaseUrl` (`InvalidBaseUrlError` when unacceptable). */
  baseUrl: string;
  /** The credentials endpoints may need; kept in memory only, sent in one header, never in a URL. */
  credentials?: Credentials;
  /** undici dispatcher; default a private `Agent` (connect timeout 10 s), closed by {@link Transport.close}. */
  dispatcher?: Dispatcher;
  /** Clock for timeouts and retry waits; default `systemClock`. */
  clock?: Clock;
  /** Value of the `User-Agent` header; default `pravo`. */
  userAgent?: string;
  /** Default total timeout per try, in milliseconds (connect + headers + body); default 30 000. */
  timeoutMs?: number;
  /** Largest success body read, in bytes; default 32 MiB. */
  maxResponseBytes?: number;
  /** Most tries of a retryable request (GET), first included; default 3. */
  maxTries?: number;
  /** Jitter source in [0, 1); default `Math.random`. */
  random?: () => number;
  /** Called before each wait for a retry, with what the wait is (to tell the user; the client never prints). */
  onRetry?: (notice: RetryNotice) => void;
}

/** A wait before a GET is tried again, as {@link TransportOptions.onRetry} hears of it. */
export interface RetryNotice {
  method: HttpMethod;
  /** The endpoint's path as the resource names it, e.g. `/v1/usage` or `/v1/answers/:job_id` (no ids, no query). */
  path: string;
  /** The HTTP status that turned the request away (429, 502, 503, 504); undefined for a failed connection. */
  status: number | undefined;
  /** The wait, in milliseconds. */
  delayMs: number;
  /** Whether the wait is the server's `Retry-After` (else pravo's own backoff). */
  retryAfter: boolean;
  /** The try that follows the wait (2 for the first retry), and the most tries of the request. */
  nextTry: number;
  maxTries: number;
}

/** One request, as a resource describes it. */
export interface RequestSpec<T> {
  method: HttpMethod;
  /** Path relative to the base URL, e.g. `/v1/answers/:job_id`; each `:name` is replaced by `encodeURIComponent(params[name])`. */
  path: string;
  /** Values of the path's `:name` parameters; a missing, empty, `.` or `..` value is a programmer error (`TypeError`). */
  params?: Record<string, string>;
  /** Query parameters, each name and value encoded with `encodeURIComponent` (space → `%20`); `undefined` dropped. */
  query?: Record<string, string | number | boolean | undefined>;
  /** JSON request body; sent with `content-type: application/json`. */
  body?: unknown;
  /** Which credential the endpoint takes (spec: Endpoints, Auth column); missing → `MissingCredentialError`, nothing sent. */
  auth: 'api_key' | 'session' | 'none';
  /** Total timeout per try, in milliseconds; default the transport's. */
  timeoutMs?: number;
  /** Success statuses; default `[200]`. Another 2xx, a 1xx or a 3xx → `UnexpectedResponseError`. */
  expect?: readonly number[];
  /** Aborts the request or a retry wait → `CancelledError`. */
  signal?: AbortSignal;
  /**
   * Whether the request consumes quota or changes state on the server once it has reached it, for
   * `mayHaveBeenCounted`; default true for POST and PATCH, false for GET. `GET /v1/documents` sets it (each retrieval
   * consumes a unit of the retrieval quota, spec: Quota rules 1).
   */
  counted?: boolean;
  /** Checks and types the parsed JSON body (a 204 hands `undefined`); a `ShapeError` becomes `UnexpectedResponseError`. */
  parse: (data: unknown) => T;
}

/** A successful response. */
export interface ApiResponse<T> {
  /** The body, parsed and checked by the request's `parse`. */
  data: T;
  /** The response body exactly as the server sent it, decoded as UTF-8 (`--json` prints this unchanged). */
  raw: string;
  /** HTTP status. */
  status: number;
  /** Value of the `x-request-id` response header, when present. */
  requestId: string | undefined;
}

/** Default total timeout per try, in milliseconds. */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** Default cap of a success body, in bytes (32 MiB). */
export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;
/** Cap of an error body, in bytes (64 KiB): only its code and a short message are used. */
export const MAX_ERROR_BODY_BYTES = 64 * 1024;
/** Default number of tries of a retryable request. */
export const DEFAULT_MAX_TRIES = 3;
/** Backoff before retry n (1-based) is up to `RETRY_BASE_MS × 2^(n-1)`, capped at {@link RETRY_MAX_DELAY_MS}. */
export const RETRY_BASE_MS = 500;
export const RETRY_MAX_DELAY_MS = 8_000;
/** Longest `Retry-After` honoured, in milliseconds; a longer one ends the retries with the error. */
export const RETRY_AFTER_MAX_MS = 60_000;
/** Longest time one request spends in retry waits, all of them together, in ms; a wait past it ends with the error. */
export const RETRY_WAIT_MAX_MS = 90_000;

const RETRY_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

const CONNECT_FAILURE_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

const CERTIFICATE_PROBLEMS: Readonly<Record<string, string>> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'the server certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'the certificate chain contains a self-signed certificate',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'the server certificate could not be verified',
  UNABLE_TO_GET_ISSUER_CERT: 'the issuer of the server certificate is unknown',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'the issuer of the server certificate is unknown',
  CERT_HAS_EXPIRED: 'the server certificate has expired',
  CERT_NOT_YET_VALID: 'the server certificate is not yet valid',
  CERT_UNTRUSTED: 'the server certificate is not trusted',
  CERT_REVOKED: 'the server certificate has been revoked',
  ERR_TLS_CERT_ALTNAME_INVALID: 'the server certificate is not valid for this host name',
  HOSTNAME_MISMATCH: 'the server certificate is not valid for this host name',
};

/**
 * Sends requests to one service with one set of credentials. Create one per command; call {@link Transport.close}
 * when done.
 */
export class Transport {
  /** The normalized base URL, without a trailing slash. */
  readonly baseUrl: string;
  /** The clock timeouts and waits run on (resources use it for polling). */
  readonly clock: Clock;
  /** Default total timeout per try, in milliseconds. */
  readonly timeoutMs: number;
  readonly #origin: string;
  readonly #pathPrefix: string;
  readonly #credentials: Credentials;
  readonly #dispatcher: Dispatcher;
  readonly #ownsDispatcher: boolean;
  readonly #userAgent: string;
  readonly #maxResponseBytes: number;
  readonly #maxTries: number;
  readonly #random: () => number;
  readonly #onRetry: ((notice: RetryNotice) => void) | undefined;
  /** Requests given up (timeout, Ctrl-C) before undici started them, e.g. while it is still connecting. */
  #abandoned = 0;
  /** Sockets of the own dispatcher still connecting (TCP or TLS handshake). */
  readonly #connecting = new Set<Socket>();
  #closed = false;

  /** @throws InvalidBaseUrlError when the base URL is unacceptable (see `normalizeBaseUrl`). */
  constructor(options: TransportOptions) {
    this.baseUrl = normalizeBaseUrl(options.baseUrl);
    const url = new URL(this.baseUrl);
    this.#origin = url.origin;
    this.#pathPrefix = url.pathname.replace(/\/+$/, '');
    this.#credentials = { ...options.credentials };
    this.#ownsDispatcher = options.dispatcher === undefined;
    this.#dispatcher = options.dispatcher ?? this.#ownAgent();
    this.clock = options.clock ?? systemClock;
    this.#userAgent = options.userAgent ?? 'pravo';
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    this.#maxTries = Math.max(1, options.maxTries ?? DEFAULT_MAX_TRIES);
    this.#random = options.random ?? Math.random;
    this.#onRetry = options.onRetry;
  }

  /**
   * Sends one request (retrying a GET as described in the module comment) and returns the checked response.
   * @throws TypeError for a missing path parameter (programmer error).
   * @throws MissingCredentialError when the endpoint's credential was not given: nothing sent.
   * @throws ApiError (a subclass by code and status) when the server answered an error status.
   * @throws UnexpectedResponseError (or ResponseTooLargeError) for a success response the contract does not allow.
   * @throws ConnectionError or TlsError (nothing sent), NetworkError, TimeoutError, CancelledError.
   */
  async request<T>(spec: RequestSpec<T>): Promise<ApiResponse<T>> {
    const path = this.#pathPrefix + buildPath(spec.path, spec.params) + buildQuery(spec.query);
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': this.#userAgent };
    if (spec.auth !== 'none') {
      const credential = this.#credentials[spec.auth];
      if (credential === undefined) throw new MissingCredentialError(spec.auth);
      Object.assign(headers, authHeaders(credential));
    }
    let body: Buffer | undefined;
    if (spec.body !== undefined) {
      body = Buffer.from(JSON.stringify(spec.body), 'utf8');
      headers['content-type'] = 'application/json';
    }
    const counted = spec.counted ?? spec.method !== 'GET';
    const maxTries = spec.method === 'GET' ? this.#maxTries : 1;
    let countedSoFar = false;
    let waitedMs = 0;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#send(spec, path, headers, body, counted);
      } catch (error) {
        if (hasMayHaveBeenCounted(error) && error.mayHaveBeenCounted) countedSoFar = true;
        const delayMs = attempt < maxTries ? this.#retryDelayMs(error, attempt, counted) : undefined;
        if (delayMs === undefined || waitedMs + delayMs > RETRY_WAIT_MAX_MS) throw error;
        waitedMs += delayMs;
        this.#onRetry?.({
          method: spec.method,
          path: spec.path,
          status: error instanceof ApiError ? error.status : undefined,
          delayMs,
          retryAfter: error instanceof ApiError && error.retryAfterMs !== undefined,
          nextTry: attempt + 1,
          maxTries,
        });
        try {
          await this.clock.sleep(delayMs, spec.signal);
        } catch {
          throw new CancelledError(countedSoFar);
        }
      }
    }
  }

  /**
   * Closes the connections of the transport's own dispatcher (a dispatcher passed in is left open). When a request was
   * given up while undici was still connecting, the dispatcher is destroyed rather than closed gracefully, so that
   * closing does not wait for that connection attempt (up to the 10 s connect timeout).
   */
  async close(): Promise<void> {
    if (!this.#ownsDispatcher || this.#closed) return;
    this.#closed = true;
    if (this.#abandoned > 0) {
      for (const socket of this.#connecting) socket.destroy();
      await this.#dispatcher.destroy();
    } else {
      await this.#dispatcher.close();
    }
  }

  /** An undici Agent (connect timeout 10 s, no interceptors) whose connecting sockets {@link close} can end. */
  #ownAgent(): Agent {
    const connector = buildConnector({ timeout: 10_000 }) as unknown as (
      options: undiciBuildConnector.Options,
      callback: undiciBuildConnector.Callback,
    ) => Socket | undefined;
    const connect = (options: undiciBuildConnector.Options, callback: undiciBuildConnector.Callback): void => {
      let socket: Socket | undefined;
      socket = connector(options, (...args) => {
        if (socket !== undefined) this.#connecting.delete(socket);
        socket = undefined;
        callback(...args);
      });
      if (socket !== undefined) this.#connecting.add(socket);
    };
    return new Agent({ connect });
  }

  /**
   * Milliseconds to wait before retrying after `error` on try `attempt`, or undefined when it is not retried. A GET that
   * consumes quota (`counted`, e.g. `GET /v1/documents`) is not retried after 502 or 504: a gateway answers those when
   * the service may already have handled the request, and a retry could spend a second unit. 429 and 503 say the
   * service turned the request away, so they are retried like any GET.
   */
  #retryDelayMs(error: unknown, attempt: number, counted: boolean): number | undefined {
    const retryable =
      (error instanceof ConnectionError && !(error instanceof TlsError)) ||
      ((error instanceof RateLimitError || error instanceof ServerError) &&
        RETRY_STATUSES.has(error.status) &&
        !(counted && (error.status === 502 || error.status === 504)));
    if (!retryable) return undefined;
    if (error instanceof ApiError && error.retryAfterMs !== undefined) {
      return error.retryAfterMs > RETRY_AFTER_MAX_MS ? undefined : error.retryAfterMs;
    }
    const ceiling = Math.min(RETRY_MAX_DELAY_MS, RETRY_BASE_MS * 2 ** (attempt - 1));
    return Math.round(ceiling / 2 + (this.#random() * ceiling) / 2); // equal jitter: [ceiling/2, ceiling)
  }

  /** One try: dispatch, read the capped body, classify the outcome. */
  #send<T>(
    spec: RequestSpec<T>,
    path: string,
    headers: Record<string, string>,
    body: Buffer | undefined,
    counted: boolean,
  ): Promise<ApiResponse<T>> {
    const timeoutMs = spec.timeoutMs ?? this.timeoutMs;
    const signal = spec.signal;
    if (signal?.aborted) return Promise.reject(new CancelledError(false));

    return new Promise<ApiResponse<T>>((resolve, reject) => {
      let settled = false;
      let sent = false;
      let controller: Dispatcher.DispatchController | undefined;
      let pendingAbort: Error | undefined;
      let undiciDone = false;
      let status = 0;
      let responseHeaders: ResponseHeaders = {};
      let requestId: string | undefined;
      let limit = 0;
      let received = 0;
      const chunks: Buffer[] = [];

      const cleanup = (): void => {
        this.clock.clearTimeout(timer);
        signal?.removeEventListener('abort', onCancel);
      };
      const fail = (error: Error): void => {
        if (settled) return;
        settled = true;
        cleanup();
        reject(error);
      };
      /** Stops the exchange: at once when it has started, else as soon as undici starts it. */
      const abortExchange = (reason: Error): void => {
        if (controller !== undefined) {
          if (!controller.aborted) controller.abort(reason);
        } else if (pendingAbort === undefined && !undiciDone) {
          pendingAbort = reason;
          this.#abandoned++;
        }
      };
      /** undici is done with the exchange (started, ended or failed): it no longer holds up a graceful close. */
      const release = (): void => {
        if (pendingAbort !== undefined && !undiciDone) this.#abandoned--;
        undiciDone = true;
      };
      const onCancel = (): void => {
        const error = new CancelledError(counted && sent);
        fail(error);
        abortExchange(error);
      };
      const timer = this.clock.setTimeout(() => {
        const error = new TimeoutError(timeoutMs, counted && sent);
        fail(error);
        abortExchange(error);
      }, timeoutMs);
      signal?.addEventListener('abort', onCancel, { once: true });

      const complete = (): void => {
        if (settled) return;
        const raw = new TextDecoder('utf-8').decode(Buffer.concat(chunks));
        try {
          const response = this.#evaluate(spec, status, responseHeaders, requestId, raw, counted);
          settled = true;
          cleanup();
          resolve(response);
        } catch (error) {
          fail(error as Error);
        }
      };

      const handler: Dispatcher.DispatchHandler = {
        onRequestStart: (c) => {
          controller = c;
          if (settled || pendingAbort !== undefined) {
            release();
            c.abort(pendingAbort ?? new CancelledError(false));
            return;
          }
          sent = true;
        },
        onResponseStart: (c, statusCode, h) => {
          if (settled) return;
          status = statusCode;
          responseHeaders = h;
          requestId = firstHeader(h['x-request-id']) ?? firstHeader(h['request-id']);
          const success = statusCode >= 200 && statusCode <= 299;
          limit = success ? this.#maxResponseBytes : MAX_ERROR_BODY_BYTES;
          const declared = Number(firstHeader(h['content-length']));
          if (success && Number.isFinite(declared) && declared > limit) {
            const error = new ResponseTooLargeError(status, limit, requestId);
            fail(error);
            c.abort(error);
          }
        },
        onResponseData: (c, chunk) => {
          if (settled) return;
          if (received + chunk.length <= limit) {
            received += chunk.length;
            chunks.push(chunk);
            return;
          }
          if (status >= 200 && status <= 299) {
            const error = new ResponseTooLargeError(status, limit, requestId);
            fail(error);
            c.abort(error);
            return;
          }
          // An error body: keep its first MAX_ERROR_BODY_BYTES, enough for a code and message, and stop reading.
          chunks.push(chunk.subarray(0, limit - received));
          received = limit;
          complete();
          c.abort(new Error('error body cut at the cap'));
        },
        onResponseEnd: () => {
          release();
          complete();
        },
        onResponseError: (_c, error) => {
          release();
          if (settled) return;
          fail(this.#transportError(error, sent, counted));
        },
      };

      try {
        this.#dispatcher.dispatch(
          {
            origin: this.#origin,
            path,
            method: spec.method,
            headers,
            body: body ?? null,
            // POST and PATCH must never be replayed by the dispatcher (spec: POST /v1/search, rule 4).
            idempotent: spec.method === 'GET',
            // Our own total timeout governs; undici's per-phase timers are off so that a long timeout is honoured.
            headersTimeout: 0,
            bodyTimeout: 0,
          },
          handler,
        );
      } catch (error) {
        fail(this.#transportError(error, false, counted));
      }
    });
  }

  /** Turns a complete response into the result or the error it stands for. */
  #evaluate<T>(
    spec: RequestSpec<T>,
    status: number,
    headers: ResponseHeaders,
    requestId: string | undefined,
    raw: string,
    counted: boolean,
  ): ApiResponse<T> {
    if (status >= 400) {
      throw errorFromResponse(status, raw, requestId, headers, spec.method, {
        auth: spec.auth,
        counted,
        nowMs: this.clock.now(),
      });
    }
    const expected = spec.expect ?? [200];
    if (status < 200 || status > 299) {
      const location = firstHeader(headers.location);
      const problem =
        status >= 300 && status <= 399
          ? `a redirect${location ? ` to ${location}` : ''}, which is not followed; check the base URL`
          : `not a final response`;
      throw new UnexpectedResponseError(status, problem, requestId);
    }
    if (!expected.includes(status)) {
      throw new UnexpectedResponseError(status, `expected HTTP ${expected.join(' or ')}`, requestId);
    }
    let data: unknown;
    if (status === 204 && raw.trim() === '') {
      data = undefined;
    } else {
      try {
        data = JSON.parse(raw);
      } catch {
        throw new UnexpectedResponseError(
          status,
          raw.trim() === '' ? 'the body is empty, not JSON' : 'the body is not JSON',
          requestId,
        );
      }
    }
    try {
      return { data: spec.parse(data), raw, status, requestId };
    } catch (error) {
      if (error instanceof ShapeError) throw new UnexpectedResponseError(status, error.message, requestId);
      throw error;
    }
  }

  /** The typed error for a failure below HTTP (connect, TLS, socket). */
  #transportError(error: unknown, sent: boolean, counted: boolean): ApiClientError {
    if (error instanceof ApiClientError) return error;
    if (!sent) {
      const tls = tlsProblem(error);
      if (tls !== undefined) return new TlsError(this.baseUrl, tls, error);
      if (hasCode(error, (code) => CONNECT_FAILURE_CODES.has(code))) return new ConnectionError(this.baseUrl, error);
    }
    return new NetworkError(error, counted && sent);
  }
}

/** `?a=1&b=x%20y` from the defined entries (each name and value `encodeURIComponent`-encoded), or `''`. */
export function buildQuery(query: Record<string, string | number | boolean | undefined> = {}): string {
  const parts = Object.entries(query)
    .filter((entry): entry is [string, string | number | boolean] => entry[1] !== undefined)
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`);
  return parts.length === 0 ? '' : `?${parts.join('&')}`;
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function hasMayHaveBeenCounted(error: unknown): error is { mayHaveBeenCounted: boolean } {
  return typeof error === 'object' && error !== null && typeof (error as { mayHaveBeenCounted?: unknown }).mayHaveBeenCounted === 'boolean';
}

/** The errors of a cause chain (`cause`, `AggregateError.errors`), the error itself first. */
function causeChain(error: unknown): Error[] {
  const out: Error[] = [];
  const visit = (e: unknown, depth: number): void => {
    if (!(e instanceof Error) || depth > 8 || out.includes(e)) return;
    out.push(e);
    if (e instanceof AggregateError) for (const inner of e.errors) visit(inner, depth + 1);
    visit(e.cause, depth + 1);
  };
  visit(error, 0);
  return out;
}

function hasCode(error: unknown, test: (code: string) => boolean): boolean {
  return causeChain(error).some((e) => {
    const code = (e as { code?: unknown }).code;
    return typeof code === 'string' && test(code);
  });
}

/**
 * When `error` is a TLS handshake failure, a one-line reason without OpenSSL's raw text, e.g. `the server does not
 * speak TLS on this port; wrong version number`; otherwise undefined.
 */
export function tlsProblem(error: unknown): string | undefined {
  for (const e of causeChain(error)) {
    const code = (e as { code?: unknown }).code;
    const opensslReason = (e as { reason?: unknown }).reason;
    const library = (e as { library?: unknown }).library;
    const isTls =
      typeof code === 'string' &&
      (code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_') || code === 'EPROTO' || code in CERTIFICATE_PROBLEMS);
    if (!isTls && !(typeof library === 'string' && /ssl|tls/i.test(library))) continue;
    const reason = typeof opensslReason === 'string' && opensslReason !== '' ? opensslReason : opensslText(e.message);
    if (typeof code === 'string' && code in CERTIFICATE_PROBLEMS) return `${CERTIFICATE_PROBLEMS[code]} (${code})`;
    if (/wrong version number|packet length too long|http request|record layer failure/i.test(`${code} ${reason}`)) {
      return `the server does not speak TLS on this port; ${reason.toLowerCase()}`;
    }
    return reason !== '' ? reason : typeof code === 'string' ? code : 'TLS error';
  }
  return undefined;
}

/** The reason part of an OpenSSL message (`…:error:0A00010B:SSL routines:func:wrong version number:file:line:`), one line. */
function opensslText(message: string): string {
  const firstLine = message.split(/\r?\n/).find((line) => line.trim() !== '')?.trim() ?? '';
  const m = /:error:[0-9A-Fa-f]+:[^:]*:[^:]*:([^:]+):/.exec(firstLine);
  return (m?.[1] ?? firstLine).replace(/\s+/g, ' ').trim();
}
