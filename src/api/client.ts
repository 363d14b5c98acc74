/**
 * HTTP client of the Legal Research API (spec: Endpoints, Authentication, Errors) over undici.
 *
 * - Every path is the spec's, under `/v1`, appended to the profile's base URL.
 * - The key goes in exactly one header: `X-API-Key` by default, `Authorization: Bearer` when the profile asks for it;
 *   never both, never in the URL.
 * - One total timeout per request (default 60 s for search), driven by an injectable clock so tests need no sleeping.
 * - No automatic retry of `POST /v1/search`: after a dropped connection or timeout the server may already have run
 *   and counted the request, and the error says so.
 * - The client never prints.
 */
import type { Dispatcher } from 'undici';
import { request, Agent } from 'undici';
import {
  PATHS,
  LIMITS,
  type SearchRequest,
  type SearchResponse,
  type SourceTypesResponse,
} from './types.js';
import {
  PravoError,
  CancelledError,
  ConnectionError,
  NetworkError,
  TimeoutError,
  UnexpectedResponseError,
  errorFromResponse,
} from './errors.js';
import { normalizeBaseUrl } from './base-url.js';
import { systemClock, type Clock } from './clock.js';

/** Which header carries the API key (spec: Authentication, API key). */
export type AuthHeader = 'x-api-key' | 'bearer';

/** Options of {@link ApiClient}. */
export interface ClientOptions {
  /** Base URL of the service, checked by `normalizeBaseUrl` (no credentials, no query string). */
  baseUrl: string;
  /** The API key. Kept in memory only; never logged, never put in a URL. */
  apiKey: string;
  /** Header that carries the key; default `x-api-key`. */
  authHeader?: AuthHeader;
  /** Total time allowed for a search, in milliseconds; default 60 000 (spec: POST /v1/search, rule 4). */
  searchTimeoutMs?: number;
  /** Total time allowed for other requests, in milliseconds; default 30 000. */
  timeoutMs?: number;
  /** undici dispatcher to use; default a private Agent, closed by {@link ApiClient.close}. */
  dispatcher?: Dispatcher;
  /** Clock for timeouts; default {@link systemClock}. */
  clock?: Clock;
  /** Value of the User-Agent header. */
  userAgent?: string;
}

/** A successful response: the parsed body, the body exactly as received, and the HTTP status. */
export interface ApiResponse<T> {
  data: T;
  /** The response body as the server sent it (`--json` prints this unchanged). */
  raw: string;
  status: number;
}

/** Per-call options. */
export interface CallOptions {
  /** Aborts the request (Ctrl-C); the promise then rejects with `CancelledError`. */
  signal?: AbortSignal;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const CONNECT_FAILURE_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** Client of the API-key endpoints. Create one per command; call {@link close} when done. */
export class ApiClient {
  readonly baseUrl: string;
  readonly #apiKey: string;
  readonly #authHeader: AuthHeader;
  readonly #searchTimeoutMs: number;
  readonly #timeoutMs: number;
  readonly #dispatcher: Dispatcher;
  readonly #ownsDispatcher: boolean;
  readonly #clock: Clock;
  readonly #userAgent: string;

  /** @throws ConfigError when the base URL is unacceptable (see `normalizeBaseUrl`). */
  constructor(options: ClientOptions) {
    this.baseUrl = normalizeBaseUrl(options.baseUrl);
    this.#apiKey = options.apiKey;
    this.#authHeader = options.authHeader ?? 'x-api-key';
    this.#searchTimeoutMs = options.searchTimeoutMs ?? LIMITS.searchTimeoutMs;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#ownsDispatcher = options.dispatcher === undefined;
    this.#dispatcher = options.dispatcher ?? new Agent({ connect: { timeout: 10_000 } });
    this.#clock = options.clock ?? systemClock;
    this.#userAgent = options.userAgent ?? 'pravo';
  }

  /**
   * `POST /v1/search` (spec: POST /v1/search). The body is sent as given (validate it first with
   * `searchRequestProblems`); `include_content` must not be in it. Never retried.
   * @throws AuthenticationError, InvalidRequestError, QuotaExceededError, ApiError (other statuses),
   *   ConnectionError (nothing sent), NetworkError or TimeoutError (may have been counted), CancelledError,
   *   UnexpectedResponseError (2xx that is not a search response).
   */
  async search(body: SearchRequest, options: CallOptions = {}): Promise<ApiResponse<SearchResponse>> {
    const response = await this.#call<SearchResponse>('POST', PATHS.search, body, this.#searchTimeoutMs, options);
    const d = response.data as unknown as Record<string, unknown>;
    if (typeof d !== 'object' || d === null || !Array.isArray(d.results)) {
      throw new UnexpectedResponseError(response.status, 'The search response has no "results" array.');
    }
    return response;
  }

  /** `GET /v1/catalog/source-types` (spec: GET /v1/catalog/source-types). Errors as for {@link search}. */
  async sourceTypes(options: CallOptions = {}): Promise<ApiResponse<SourceTypesResponse>> {
    return this.#call<SourceTypesResponse>('GET', PATHS.sourceTypes, undefined, this.#timeoutMs, options);
  }

  /** Closes the connections of the client's own dispatcher. */
  async close(): Promise<void> {
    if (this.#ownsDispatcher) await this.#dispatcher.close();
  }

  async #call<T>(
    method: 'GET' | 'POST',
    path: string,
    body: unknown,
    timeoutMs: number,
    options: CallOptions,
  ): Promise<ApiResponse<T>> {
    const url = `${this.baseUrl}${path}`;
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': this.#userAgent,
    };
    if (this.#authHeader === 'bearer') headers.authorization = `Bearer ${this.#apiKey}`;
    else headers['x-api-key'] = this.#apiKey;
    if (body !== undefined) headers['content-type'] = 'application/json';

    const controller = new AbortController();
    let timedOut = false;
    const timer = this.#clock.setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onCancel = (): void => controller.abort();
    if (options.signal?.aborted) {
      this.#clock.clearTimeout(timer);
      throw new CancelledError(false);
    }
    options.signal?.addEventListener('abort', onCancel, { once: true });

    try {
      const response = await request(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        dispatcher: this.#dispatcher,
        signal: controller.signal,
        // Our own total timeout governs; undici's per-phase timers are off so that a long --timeout is honoured.
        headersTimeout: 0,
        bodyTimeout: 0,
        // A search is not idempotent for quota purposes: never let the dispatcher replay it.
        idempotent: method === 'GET',
      });
      const raw = await response.body.text();
      const requestId = headerValue(response.headers['x-request-id']);
      if (response.statusCode < 200 || response.statusCode >= 300) {
        throw errorFromResponse(response.statusCode, raw, requestId);
      }
      let data: T;
      try {
        data = JSON.parse(raw) as T;
      } catch {
        throw new UnexpectedResponseError(
          response.statusCode,
          `The server answered HTTP ${response.statusCode} with a body that is not JSON.`,
        );
      }
      return { data, raw, status: response.statusCode };
    } catch (error) {
      if (timedOut) throw new TimeoutError(timeoutMs);
      if (options.signal?.aborted) throw new CancelledError(true);
      if (error instanceof Error && !(error instanceof PravoError)) {
        if (isConnectFailure(error)) throw new ConnectionError(this.baseUrl, error);
        throw new NetworkError(error);
      }
      throw error;
    } finally {
      this.#clock.clearTimeout(timer);
      options.signal?.removeEventListener('abort', onCancel);
    }
  }
}

function isConnectFailure(error: Error): boolean {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && CONNECT_FAILURE_CODES.has(code)) return true;
    if (e instanceof AggregateError && e.errors.some((inner) => inner instanceof Error && isConnectFailure(inner))) {
      return true;
    }
  }
  return false;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
