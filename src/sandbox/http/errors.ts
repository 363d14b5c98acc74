/**
 * HTTP errors of the sandbox and the mapping of any thrown value to one.
 *
 * Error body (the sandbox's choice; spec: Errors, "Standard error body format: not shown"):
 * `{"error":{"code":"…","message":"…","request_id":"req_…"}}`, `request_id` equal to the response's `x-request-id`.
 */
import type { ErrorBody } from '../../contract/errors.js';
import type { StorageUnavailable } from '../storage.js';

/** The sandbox's error body: the contract's `{error: {code, message}}` plus the request's id. */
export interface SandboxErrorBody extends ErrorBody {
  error: ErrorBody['error'] & { request_id: string };
}

/** An error answered as an HTTP status with an error body; `headers` are added to the response (e.g. `allow`). */
export class HttpError extends Error {
  override readonly name = 'HttpError';

  /**
   * @param status HTTP status (4xx/5xx).
   * @param code the body's `error.code` (a contract code such as `invalid_request`, or a sandbox code such as
   *   `not_found`).
   * @param message the body's `error.message`; must never contain a key.
   */
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}

/** Code of a 503 answered while the state store is busy (locked by another process) or full: {@link knownHttpError}. */
export const SERVICE_UNAVAILABLE = 'service_unavailable';
/** Code of a 500 for an unexpected failure. */
export const INTERNAL_ERROR = 'internal_error';
/** Code of a 408: the request's headers (or the whole request) did not arrive within the server's time limit. */
export const REQUEST_TIMEOUT = 'request_timeout';

/**
 * The client closed the connection before the request body was complete (the body reader's error; not an HTTP
 * error: nobody is left to answer, so the server only logs it).
 */
export class ClientAbortError extends Error {
  override readonly name = 'ClientAbortError';

  constructor() {
    super('the client closed the connection before the body was complete');
  }
}

/**
 * The HTTP error for anything a handler or authentication threw:
 * - an {@link HttpError}: itself;
 * - an error `unavailable` says makes the state store unavailable for a moment (busy: locked by another process; full:
 *   the store or its disk is full; see `SandboxStore.unavailable` in `../storage.ts`): 503 `service_unavailable`,
 *   `Retry-After: 1`, with the store's message;
 * - anything else: undefined (the caller answers 500 `internal_error` and logs the error).
 * @param unavailable the state store's classifier (`deps.state.unavailable`); must not throw.
 */
export function knownHttpError(
  error: unknown,
  unavailable: (error: unknown) => StorageUnavailable | undefined,
): HttpError | undefined {
  if (error instanceof HttpError) return error;
  const trouble = unavailable(error);
  if (trouble === undefined) return undefined;
  return new HttpError(503, SERVICE_UNAVAILABLE, trouble.message, { 'retry-after': '1' });
}

/** The 500 answered for an unexpected error (details go to the log only). */
export function internalError(): HttpError {
  return new HttpError(500, INTERNAL_ERROR, 'The sandbox failed to handle the request; see its log.');
}
