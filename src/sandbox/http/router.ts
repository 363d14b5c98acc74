/**
 * Route records and their matching: the one table of the spec's endpoints (spec: Endpoints) lives in
 * `routes/table.ts` as {@link Route}s; this module matches a request's method and path against it.
 *
 * Matching: the path is compared segment by segment with each route's `pattern`, where `:name` matches one non-empty
 * segment (percent-decoded into `params.name`). A path some route matches with the request's method → that route (a
 * `HEAD` request matches the `GET` routes: the server answers it like the `GET`, without the body); a path routes match
 * only with other methods → 405 `method_not_allowed` with `Allow` (which names `HEAD` after `GET`); otherwise 404
 * `not_found`.
 * Endpoints of the spec not built yet are routes too (`notImplemented: true`), answered 501 `not_implemented`.
 */
import type http from 'node:http';
import { ERROR_CODES } from '../../contract/errors.js';
import type { QuotaKind } from '../../contract/types.js';
import type { AnswerRunner } from '../answers/jobs.js';
import type { Searcher } from '../search/searcher.js';
import type { SandboxStore, SearchIndex } from '../storage.js';
import { HttpError } from './errors.js';

/** What handlers need: the corpus index, its searcher, the account state, the answer jobs' runner, a clock and a log. */
export interface ServerDeps {
  /** The corpus index (documents, catalogs, the checks of `POST /v1/answers`). */
  index: SearchIndex;
  /**
   * Runs the searches of `POST /v1/search` over `index`: on worker threads (`createSearchPool`) or on the event loop
   * (`inProcessSearcher`). Its owner closes it when the server stops.
   */
  searcher: Searcher;
  /** The account state (keys, sessions, accounts, usage; see `SandboxStore`), shared by every request. */
  state: SandboxStore;
  /**
   * Creates and runs answer jobs (`POST /v1/answers`, `GET /v1/answers/{job_id}`); its owner closes it (clearing its
   * timers) when the server stops. Without one, both answer endpoints answer 501 `not_implemented`.
   */
  answers?: AnswerRunner;
  /** Receives one line per request and per notable event; never a key. */
  log: (line: string) => void;
  /** Milliseconds clock for request durations in the log; default `performance.now`. */
  now?: () => number;
}

/** HTTP methods the spec's endpoints use. */
export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * How a route authenticates (spec: Authentication; see `auth.ts`): `api-key` (X-API-Key or Authorization: Bearer),
 * `session` (a user-session token as Authorization: Bearer: the key and account endpoints), `none`.
 */
export type RouteAuth = 'api-key' | 'session' | 'none';

/** The quota a route consumes (spec: Quota rules). Declared per route; consumption is done by the handlers. */
export type { QuotaKind };

/** What a handler receives. */
export interface RouteContext {
  request: http.IncomingMessage;
  /** The request URL, parsed against `http://sandbox`. */
  url: URL;
  /** The route pattern's `:params`, percent-decoded. */
  params: Readonly<Record<string, string>>;
  /** The query string's parameters. */
  query: URLSearchParams;
  /**
   * The JSON body, read on first call and cached.
   * @throws HttpError 413 `invalid_request` over 1 MiB, 400 `invalid_request` when not JSON (see `body.ts`).
   */
  body(): Promise<unknown>;
  /** The authenticated key's `key_id` (`-` for routes without API-key auth). */
  keyId: string;
  /** The authenticated session's `session_id` (`-` for routes without session auth). */
  sessionId: string;
  /** The account the authenticated key or session belongs to (`-` for routes without auth). */
  accountId: string;
  /** `req_` + 16 hex digits; also the response's `x-request-id`. */
  requestId: string;
  deps: ServerDeps;
}

/** One endpoint. */
export interface Route {
  /** A `GET` route answers `HEAD` too: the handler runs, and the response goes without its body. */
  method: Method;
  /** Path relative to the base URL, `:name` for a parameter segment, e.g. `/v1/answers/:job_id`. */
  pattern: string;
  auth: RouteAuth;
  /** The quota the endpoint consumes, if any. */
  quota?: QuotaKind;
  /** Status of a successful response: 200, 201 for `POST /v1/keys`, or 202 for `POST /v1/answers`. */
  status: 200 | 201 | 202;
  /** An endpoint of the spec the sandbox does not serve yet: answered 501 before authentication. */
  notImplemented?: boolean;
  /**
   * Produces the response body (serialized as JSON with `status`).
   * @throws HttpError for an error response; any other error becomes 503 (the state store busy or full, see
   *   `SandboxStore.unavailable`) or 500 (see `errors.ts`).
   */
  /** The response body: a JSON value to serialize, or a {@link RawJson} sent as it is. */
  handler(context: RouteContext): unknown;
}

/** Result of {@link matchRoute}. */
export type RouteMatch =
  | { kind: 'found'; route: Route; params: Record<string, string> }
  | { kind: 'method_not_allowed'; allow: (Method | 'HEAD')[] }
  | { kind: 'not_found' };

/** Splits a path into its segments (`/v1/a/b` → `v1`, `a`, `b`). */
function segments(path: string): string[] {
  return path.split('/').slice(1);
}

/** The params of `path` under `pattern`, or undefined when it does not match. @throws HttpError 400 `invalid_request` for invalid percent-encoding. */
function matchPattern(pattern: string, path: string): Record<string, string> | undefined {
  const want = segments(pattern);
  const got = segments(path);
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    const g = got[i]!;
    if (w.startsWith(':')) {
      if (g === '') return undefined;
      try {
        params[w.slice(1)] = decodeURIComponent(g);
      } catch {
        throw new HttpError(400, ERROR_CODES.invalidRequest, `The path parameter "${w.slice(1)}" is not valid URL encoding.`);
      }
    } else if (w !== g) {
      return undefined;
    }
  }
  return params;
}

/**
 * Finds the route of `method` and `path` (the URL's pathname, still percent-encoded) in `routes`; the first match in
 * table order wins; `HEAD` finds the `GET` route. `allow` lists the methods of the routes matching the path, in table
 * order, without repeats, with `HEAD` after `GET`.
 * @throws HttpError 400 `invalid_request` when a parameter segment of a matching pattern is not valid percent-encoding.
 */
export function matchRoute(routes: readonly Route[], method: string, path: string): RouteMatch {
  const wanted = method === 'HEAD' ? 'GET' : method;
  const allow: (Method | 'HEAD')[] = [];
  for (const route of routes) {
    const params = matchPattern(route.pattern, path);
    if (!params) continue;
    if (route.method === wanted) return { kind: 'found', route, params };
    if (!allow.includes(route.method)) allow.push(route.method);
    if (route.method === 'GET' && !allow.includes('HEAD')) allow.push('HEAD');
  }
  return allow.length > 0 ? { kind: 'method_not_allowed', allow } : { kind: 'not_found' };
}

/**
 * A response body that is already JSON text (`GET /v1/documents` splices a stored document's elements in unparsed):
 * the server sends `body` as it is instead of serializing the handler's value.
 */
export class RawJson {
  /** @param body one JSON value, as text or as its UTF-8 bytes. */
  constructor(readonly body: string | Uint8Array) {}
}
