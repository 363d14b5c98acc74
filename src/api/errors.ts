/**
 * Typed errors of the API client, one class per failure kind (in the manner of openai-node). They say what happened
 * (HTTP status, contract error code, the server's message, request id, whether the request may have been counted)
 * and nothing about exit codes or what the CLI prints: the mapping to exit codes and advice lives in the CLI
 * (`src/errors/`). The client never prints.
 *
 *     ApiClientError
 *     ├── InvalidBaseUrlError            bad base URL; nothing sent
 *     ├── MissingCredentialError         no API key / session token; nothing sent
 *     ├── ApiError                       the server answered an error status (spec: Errors)
 *     │   ├── AuthenticationError        missing_api_key, invalid_api_key, revoked_api_key, or 401 without a code
 *     │   ├── SessionError               401 on a session endpoint (spec: User-session token)
 *     │   ├── PermissionError            403
 *     │   ├── InvalidRequestError        invalid_request, or 400/422 without a code
 *     │   ├── NotFoundError              404
 *     │   ├── QuotaExceededError         monthly_quota_exceeded
 *     │   ├── RateLimitError             429 without the quota code
 *     │   └── ServerError                5xx
 *     ├── ConnectionError                could not connect; nothing sent
 *     │   └── TlsError                   TLS handshake failed; nothing reached the server
 *     ├── NetworkError                   the connection failed after sending
 *     ├── TimeoutError                   no complete response in time
 *     ├── CancelledError                 the caller's signal aborted
 *     └── UnexpectedResponseError        a success response that does not match the contract
 *         └── ResponseTooLargeError      the response exceeded the size cap
 */
import { ERROR_CODES } from '../contract/errors.js';
import { formatBytes } from '../shared/bytes.js';

/** HTTP methods the client sends. */
export type HttpMethod = 'GET' | 'POST' | 'PATCH';

/** Response headers as undici gives them (lower-case names). */
export type ResponseHeaders = Record<string, string | string[] | undefined>;

/** Base class of every error the API client throws; `name` is the class name. */
export class ApiClientError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/**
 * The base URL is unacceptable (see `normalizeBaseUrl` in `base-url.ts`); thrown by the client's constructor. The
 * message says what is wrong and never repeats credentials or query values.
 */
export class InvalidBaseUrlError extends ApiClientError {}

/** The endpoint needs a credential the client was not given: nothing was sent. */
export class MissingCredentialError extends ApiClientError {
  /** Which credential is missing: the API key or the user-session token. */
  readonly credential: 'api_key' | 'session';
  constructor(credential: 'api_key' | 'session') {
    super(
      credential === 'api_key'
        ? 'No API key was given for this request; nothing was sent.'
        : 'No user-session token was given for this request; nothing was sent.',
    );
    this.credential = credential;
  }
}

/** What the server said in an error response. */
export interface ApiErrorDetails {
  /** HTTP status code. */
  status: number;
  /** Contract error code such as `invalid_api_key`; undefined when the body had none. */
  code: string | undefined;
  /** The server's message, or a short single-line excerpt of a non-JSON body. */
  serverMessage: string | undefined;
  /** Value of the `x-request-id` response header, when present. */
  requestId: string | undefined;
  /** Whether the server may have run and counted the request (see {@link ApiError.mayHaveBeenCounted}); default false. */
  mayHaveBeenCounted?: boolean;
  /** The `Retry-After` header in milliseconds, when present and readable. */
  retryAfterMs?: number | undefined;
}

/** The server answered with an error status (spec: Errors). Subclasses name the kinds the contract defines. */
export class ApiError extends ApiClientError {
  readonly status: number;
  readonly code: string | undefined;
  readonly serverMessage: string | undefined;
  readonly requestId: string | undefined;
  /**
   * Whether the server may have run the request and counted its consumption: true only for a 5xx answer to a request
   * that consumes quota or changes state (POST, PATCH, `GET /v1/documents`; see `RequestSpec.counted`), since a 5xx
   * can come after the work was done. A 4xx means the request was refused; a 5xx on a plain GET counts nothing.
   */
  readonly mayHaveBeenCounted: boolean;
  /** The `Retry-After` header in milliseconds (seconds or an HTTP date), when the server sent one. */
  readonly retryAfterMs: number | undefined;
  constructor(details: ApiErrorDetails) {
    const what = details.code ?? `HTTP ${details.status}`;
    super(details.serverMessage ? `${what}: ${details.serverMessage}` : what);
    this.status = details.status;
    this.code = details.code;
    this.serverMessage = details.serverMessage;
    this.requestId = details.requestId;
    this.mayHaveBeenCounted = details.mayHaveBeenCounted ?? false;
    this.retryAfterMs = details.retryAfterMs;
  }
}

/** `missing_api_key`, `invalid_api_key` or `revoked_api_key`, or a 401 without a code (spec: Authentication, API key). */
export class AuthenticationError extends ApiError {}

/**
 * The user-session token was refused: a 401 on a session endpoint (keys, account) whose code is not an API-key code
 * (spec: User-session token: "error codes … are not part of the API-key codes").
 */
export class SessionError extends ApiError {}

/** HTTP 403: authenticated, but not allowed. */
export class PermissionError extends ApiError {}

/** `invalid_request`, or 400/422 without a code: the server rejected the request as invalid (spec: Errors). */
export class InvalidRequestError extends ApiError {}

/** HTTP 404: e.g. an unknown document or answer job. */
export class NotFoundError extends ApiError {}

/** `monthly_quota_exceeded`, whatever the status (spec: Errors, Quota rules). */
export class QuotaExceededError extends ApiError {}

/** HTTP 429 without the quota code: too many requests for now (rate limits: not shown in the spec). */
export class RateLimitError extends ApiError {}

/** HTTP 5xx: the server or a proxy in front of it failed. */
export class ServerError extends ApiError {}

/** The server could not be reached (connection refused, unknown host, connect timeout): nothing was sent. */
export class ConnectionError extends ApiClientError {
  /** The base URL the client tried. */
  readonly url: string;
  readonly mayHaveBeenCounted = false;
  constructor(url: string, cause: unknown, message = `Could not connect to ${url}: ${describeCause(cause)}.`) {
    super(message, { cause });
    this.url = url;
  }
}

/**
 * The TLS handshake failed (e.g. `https://` to a server that speaks plain HTTP, or an untrusted certificate): nothing
 * reached the server. The message is one line, without OpenSSL's raw text.
 */
export class TlsError extends ConnectionError {
  /** Why, in a few words, e.g. `the server does not speak TLS on this port; wrong version number`. */
  readonly reason: string;
  constructor(url: string, reason: string, cause: unknown) {
    super(url, cause, `TLS handshake with ${originOf(url)} failed (${reason}).`);
    this.reason = reason;
  }
}

/**
 * The connection failed after the request was handed to it (reset, closed by the other side). When
 * `mayHaveBeenCounted` is true the server may already have run and counted the request (spec: POST /v1/search,
 * rule 4), which is why such requests are never retried.
 */
export class NetworkError extends ApiClientError {
  readonly mayHaveBeenCounted: boolean;
  constructor(cause: unknown, mayHaveBeenCounted: boolean) {
    super(`The connection failed before the response arrived: ${describeCause(cause)}.`, { cause });
    this.mayHaveBeenCounted = mayHaveBeenCounted;
  }
}

/** No complete response (headers and body) within the timeout. */
export class TimeoutError extends ApiClientError {
  /** The timeout that elapsed, in milliseconds. */
  readonly timeoutMs: number;
  /** Whether the request had been sent on a counted request (see `RequestSpec.counted`). */
  readonly mayHaveBeenCounted: boolean;
  constructor(timeoutMs: number, mayHaveBeenCounted: boolean) {
    super(`No response within ${formatSeconds(timeoutMs)}.`);
    this.timeoutMs = timeoutMs;
    this.mayHaveBeenCounted = mayHaveBeenCounted;
  }
}

/** The caller's signal aborted (Ctrl-C). `mayHaveBeenCounted` is false when it aborted before the request was sent. */
export class CancelledError extends ApiClientError {
  readonly mayHaveBeenCounted: boolean;
  constructor(mayHaveBeenCounted: boolean) {
    super('Cancelled.');
    this.mayHaveBeenCounted = mayHaveBeenCounted;
  }
}

/**
 * A response the contract does not allow where a success was expected: a 2xx that is not JSON or not of the
 * endpoint's shape, a 2xx other than the expected one, a 1xx/3xx (redirects are not followed).
 */
export class UnexpectedResponseError extends ApiClientError {
  readonly status: number;
  readonly requestId: string | undefined;
  /** What is wrong, e.g. `results[2].title is a number, not a string`. */
  readonly problem: string;
  constructor(status: number, problem: string, requestId: string | undefined) {
    super(`Unexpected HTTP ${status} response: ${problem}.`);
    this.status = status;
    this.problem = problem;
    this.requestId = requestId;
  }
}

/** The response body grew beyond the client's cap (`maxResponseBytes`); reading stopped there. */
export class ResponseTooLargeError extends UnexpectedResponseError {
  /** The cap, in bytes. */
  readonly limitBytes: number;
  constructor(status: number, limitBytes: number, requestId: string | undefined) {
    super(
      status,
      `the response exceeded ${formatBytes(limitBytes)}; reading stopped at the limit and nothing of it was used`,
      requestId,
    );
    this.limitBytes = limitBytes;
  }
}

/** The parts of an error body: code and message, each undefined when the body does not carry it. */
export interface ParsedErrorBody {
  code: string | undefined;
  message: string | undefined;
}

const MAX_TEXT_EXCERPT = 200;

/**
 * Reads an error body in any of the shapes the contract allows for ("Standard error body format: not shown"):
 * `{"error":{"code","message"}}`, `{"code","message"}`, `{"error":"<code>"}` (with an optional top-level `message`),
 * and non-JSON text, of which a short single-line excerpt (at most 200 characters and `…`) becomes the message.
 * Never throws.
 */
export function parseErrorBody(text: string): ParsedErrorBody {
  const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    const flat = text.replace(/\s+/g, ' ').trim();
    const message = flat.length > MAX_TEXT_EXCERPT ? `${flat.slice(0, MAX_TEXT_EXCERPT)}…` : flat;
    return { code: undefined, message: message || undefined };
  }
  if (typeof body !== 'object' || body === null) return { code: undefined, message: str(body) };
  const b = body as Record<string, unknown>;
  if (typeof b.error === 'object' && b.error !== null) {
    const e = b.error as Record<string, unknown>;
    return { code: str(e.code), message: str(e.message) ?? str(b.message) };
  }
  if (typeof b.error === 'string') return { code: str(b.error), message: str(b.message) ?? str(b.error_description) };
  return { code: str(b.code) ?? str(b.error_code), message: str(b.message) ?? str(b.detail) };
}

/** Longest `Retry-After` {@link parseRetryAfterMs} reports as is; longer values are reported as this plus one. */
const RETRY_AFTER_READ_LIMIT_MS = 24 * 60 * 60 * 1000;

/**
 * The `Retry-After` header in milliseconds: delay-seconds (`120`) or an HTTP date, relative to `nowMs`. A date in the
 * past gives 0. Undefined when absent or unreadable.
 */
export function parseRetryAfterMs(value: string | string[] | undefined, nowMs: number): number | undefined {
  const v = (Array.isArray(value) ? value[0] : value)?.trim();
  if (v === undefined || v === '') return undefined;
  if (/^\d+$/.test(v)) return Math.min(Number(v) * 1000, RETRY_AFTER_READ_LIMIT_MS + 1);
  const date = Date.parse(v);
  if (Number.isNaN(date) || !/[a-z]/i.test(v)) return undefined;
  return Math.min(Math.max(0, date - nowMs), RETRY_AFTER_READ_LIMIT_MS + 1);
}

/** What {@link errorFromResponse} needs to know about the request beyond its method. */
export interface ErrorContext {
  /** Which credential the request carried; a 401 on a session request is a {@link SessionError}. */
  auth?: 'api_key' | 'session' | 'none';
  /** Whether the request consumes quota or changes state; default: any method but GET. */
  counted?: boolean;
  /** Current time in ms since the epoch, for an HTTP-date `Retry-After`; default `Date.now()`. */
  nowMs?: number;
}

const API_KEY_CODES: ReadonlySet<string> = new Set([
  ERROR_CODES.missingApiKey,
  ERROR_CODES.invalidApiKey,
  ERROR_CODES.revokedApiKey,
]);

/**
 * The typed error for an HTTP error response (spec: Errors). By the contract's error code first: an API-key code →
 * {@link AuthenticationError}, `invalid_request` → {@link InvalidRequestError}, `monthly_quota_exceeded` →
 * {@link QuotaExceededError}, whatever the status. Then by status: 401 → {@link SessionError} on a session request,
 * else {@link AuthenticationError} when there is no code; 400/422 without a code → {@link InvalidRequestError};
 * 403 → {@link PermissionError}; 404 → {@link NotFoundError}; 429 → {@link RateLimitError}; 5xx → {@link ServerError};
 * anything else (e.g. an unknown code on 401) → plain {@link ApiError}.
 * @param headers response headers, for `Retry-After`.
 * @param method the request's method, for `mayHaveBeenCounted` (true only for a 5xx on a counted request).
 */
export function errorFromResponse(
  status: number,
  bodyText: string,
  requestId: string | undefined,
  headers: ResponseHeaders = {},
  method: HttpMethod = 'GET',
  context: ErrorContext = {},
): ApiError {
  const { code, message } = parseErrorBody(bodyText);
  const counted = context.counted ?? method !== 'GET';
  const details: ApiErrorDetails = {
    status,
    code,
    serverMessage: message,
    requestId,
    mayHaveBeenCounted: status >= 500 && counted,
    retryAfterMs: parseRetryAfterMs(headers['retry-after'], context.nowMs ?? Date.now()),
  };
  if (code !== undefined && API_KEY_CODES.has(code)) return new AuthenticationError(details);
  if (code === ERROR_CODES.invalidRequest) return new InvalidRequestError(details);
  if (code === ERROR_CODES.monthlyQuotaExceeded) return new QuotaExceededError(details);
  if (status === 401) {
    if (context.auth === 'session') return new SessionError(details);
    return code === undefined ? new AuthenticationError(details) : new ApiError(details);
  }
  if ((status === 400 || status === 422) && code === undefined) return new InvalidRequestError(details);
  if (status === 403) return new PermissionError(details);
  if (status === 404) return new NotFoundError(details);
  if (status === 429) return new RateLimitError(details);
  if (status >= 500 && status <= 599) return new ServerError(details);
  return new ApiError(details);
}

/** A one-line description of an error's cause: its message (first line, whitespace collapsed) and code. */
export function describeCause(cause: unknown): string {
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    const message = oneLine(cause.message) || cause.name;
    return typeof code === 'string' && !message.includes(code) ? `${message} (${code})` : message;
  }
  return oneLine(String(cause));
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

function formatSeconds(ms: number): string {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}
