/**
 * Typed errors of pravo, one class per failure kind (in the manner of openai-node and stripe-node). Every error a
 * user can meet is a `PravoError` carrying the exit code it maps to (`src/exit-codes.ts`); the renderer
 * (`src/render/errors.ts`) adds what to do next. The client never prints.
 */
import { ERROR_CODES } from './types.js';
import { EXIT, type ExitCode } from '../exit-codes.js';

/** Base class: a failure the user can meet, with the exit code it maps to. */
export class PravoError extends Error {
  readonly exitCode: ExitCode;
  constructor(message: string, exitCode: ExitCode, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
    this.exitCode = exitCode;
  }
}

/** Bad arguments or options, found before any request was sent. Exit 2. */
export class UsageError extends PravoError {
  constructor(message: string) {
    super(message, EXIT.usage);
  }
}

/** Missing or invalid configuration (profile, base URL, corpus), found before any request was sent. Exit 2. */
export class ConfigError extends PravoError {
  constructor(message: string) {
    super(message, EXIT.usage);
  }
}

/** No API key is configured for the profile: nothing was sent. Exit 4. */
export class MissingKeyError extends PravoError {
  readonly profile: string;
  constructor(profile: string) {
    super(`No API key is configured for profile "${profile}".`, EXIT.auth);
    this.profile = profile;
  }
}

/** What the server said in an error response: its HTTP status, error code and message, and request id if any. */
export interface ApiErrorDetails {
  /** HTTP status code. */
  status: number;
  /** Contract error code such as `invalid_api_key`; undefined when the body had none. */
  code: string | undefined;
  /** The server's message, or a short excerpt of a non-JSON body. */
  serverMessage: string | undefined;
  /** Value of the `x-request-id` response header, when present. */
  requestId: string | undefined;
}

/** The server answered with an error status (spec: Errors). Subclasses name the kinds the contract defines. */
export class ApiError extends PravoError {
  readonly status: number;
  readonly code: string | undefined;
  readonly serverMessage: string | undefined;
  readonly requestId: string | undefined;
  constructor(details: ApiErrorDetails, exitCode: ExitCode = EXIT.error) {
    const what = details.code ?? `HTTP ${details.status}`;
    super(details.serverMessage ? `${what}: ${details.serverMessage}` : what, exitCode);
    this.status = details.status;
    this.code = details.code;
    this.serverMessage = details.serverMessage;
    this.requestId = details.requestId;
  }
}

/** `missing_api_key`, `invalid_api_key` or `revoked_api_key` (HTTP 401; spec: Authentication). Exit 4. */
export class AuthenticationError extends ApiError {
  constructor(details: ApiErrorDetails) {
    super(details, EXIT.auth);
  }
}

/** `invalid_request`: the server rejected the request as invalid (spec: Errors). Exit 1. */
export class InvalidRequestError extends ApiError {}

/** `monthly_quota_exceeded` (spec: Errors, Quota rules). Exit 5. */
export class QuotaExceededError extends ApiError {
  constructor(details: ApiErrorDetails) {
    super(details, EXIT.quota);
  }
}

/** The server answered 2xx with a body that is not what the contract describes. Exit 1. */
export class UnexpectedResponseError extends PravoError {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message, EXIT.error);
    this.status = status;
  }
}

/**
 * The server could not be reached at all (connection refused, unknown host, connect timeout): nothing was sent, so
 * nothing was counted. Exit 6.
 */
export class ConnectionError extends PravoError {
  readonly url: string;
  constructor(url: string, cause: unknown) {
    super(`Could not connect to ${url}: ${describeCause(cause)}.`, EXIT.network, { cause });
    this.url = url;
  }
}

/**
 * The connection failed after the request was sent (reset, closed by the other side). The server may already have run
 * and counted the request (spec: POST /v1/search, rule 4), so pravo does not retry. Exit 6.
 */
export class NetworkError extends PravoError {
  readonly mayHaveBeenCounted = true;
  constructor(cause: unknown) {
    super(`The connection failed before the response arrived: ${describeCause(cause)}.`, EXIT.network, { cause });
  }
}

/** No complete response within the timeout. The server may already have run and counted the request. Exit 6. */
export class TimeoutError extends PravoError {
  readonly mayHaveBeenCounted = true;
  /** The timeout that elapsed, in milliseconds. */
  readonly timeoutMs: number;
  constructor(timeoutMs: number) {
    super(`No response within ${formatSeconds(timeoutMs)}.`, EXIT.network);
    this.timeoutMs = timeoutMs;
  }
}

/** The user cancelled (Ctrl-C) while a request was under way; it may have reached the server. Exit 130. */
export class CancelledError extends PravoError {
  readonly mayHaveBeenCounted: boolean;
  constructor(mayHaveBeenCounted: boolean) {
    super('Cancelled.', EXIT.cancelled);
    this.mayHaveBeenCounted = mayHaveBeenCounted;
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
 * and non-JSON text, of which a short single-line excerpt becomes the message. Never throws.
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

/**
 * The typed error for an HTTP error response: by the contract's error code first, then by status (401 without a
 * code is still an authentication failure; 400 and 422 without a code are invalid requests).
 */
export function errorFromResponse(status: number, bodyText: string, requestId: string | undefined): ApiError {
  const { code, message } = parseErrorBody(bodyText);
  const details: ApiErrorDetails = { status, code, serverMessage: message, requestId };
  switch (code) {
    case ERROR_CODES.missingApiKey:
    case ERROR_CODES.invalidApiKey:
    case ERROR_CODES.revokedApiKey:
      return new AuthenticationError(details);
    case ERROR_CODES.invalidRequest:
      return new InvalidRequestError(details);
    case ERROR_CODES.monthlyQuotaExceeded:
      return new QuotaExceededError(details);
  }
  if (code === undefined) {
    if (status === 401) return new AuthenticationError(details);
    if (status === 400 || status === 422) return new InvalidRequestError(details);
  }
  return new ApiError(details);
}

function describeCause(cause: unknown): string {
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    return typeof code === 'string' && !cause.message.includes(code) ? `${cause.message} (${code})` : cause.message;
  }
  return String(cause);
}

function formatSeconds(ms: number): string {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}
