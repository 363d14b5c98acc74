/**
 * The sandbox's HTTP server (node:http): the Legal Research API contract over the local corpus, routed by the table of
 * `routes/index.ts`.
 *
 * Per request, in order: `x-request-id` assigned (`req_` + 16 hex digits; on every response); a request target whose
 * path or query is over 8192 bytes → 414 `invalid_request`, before any other work; a key anywhere in the URL (path or
 * query, also percent-encoded, or a query parameter named like a key) → 400 `invalid_request`; routing
 * (`router.ts`): unknown path → 404 `not_found`, known path with another method → 405 `method_not_allowed` with
 * `Allow`, an endpoint not built yet (and every user-session endpoint) → 501 `not_implemented`; API-key
 * authentication (`auth.ts`); the handler; the JSON response with the route's status.
 *
 * Error body (the sandbox's choice; the spec does not show one):
 * `{"error":{"code":"…","message":"…","request_id":"req_…"}}`, `request_id` equal to the `x-request-id` header.
 * Statuses: 401 for the three key codes; 400 `invalid_request`; 413 `invalid_request` for a body over 1 MiB;
 * 414 `invalid_request` for a path or query over 8192 bytes; 429 `monthly_quota_exceeded`; 404, 405, 501 as above;
 * 503 `service_unavailable` with `Retry-After: 1` when `state.sqlite` is locked by another process past the busy
 * timeout (250 ms) or full; 500 `internal_error` for anything else a handler or authentication throws (logged with its
 * stack, keys redacted).
 *
 * Whatever a request does, the process does not die of it: every error becomes a response, and a failure after the
 * response was sent, or a client that went away, is only logged.
 *
 * Logs go to `deps.log`, one line per request (`METHOD /path STATUS Nms key=<key_id> req_…`), naming the key by its
 * `key_id`, never by its value.
 */
import crypto from 'node:crypto';
import type http from 'node:http';
import { ERROR_CODES } from '../../api/types.js';
import { authenticateApiKey, redactKeys, rejectKeyInUrl } from './auth.js';
import { readJsonBody } from './body.js';
import { HttpError, internalError, knownHttpError, type SandboxErrorBody } from './errors.js';
import { matchRoute, type Route, type RouteContext, type ServerDeps } from './router.js';

export type { ServerDeps } from './router.js';

/** Longest path of a request target accepted, in bytes (the part before `?`); longer → 414. */
export const MAX_PATH_BYTES = 8192;
/** Longest query of a request target accepted, in bytes (the part after the first `?`); longer → 414. */
export const MAX_QUERY_BYTES = 8192;

/**
 * Creates the request listener over `routes`. Attach it with `http.createServer(createRequestListener(deps, ROUTES))`.
 * The listener never throws and never rejects.
 */
export function createRequestListener(deps: ServerDeps, routes: readonly Route[]): http.RequestListener {
  const now = deps.now ?? (() => performance.now());
  return (request, response) => {
    const started = now();
    const requestId = `req_${crypto.randomBytes(8).toString('hex')}`;
    const method = request.method ?? 'GET';
    let shownPath = '?';
    let keyId = '-';
    let answered = false;
    // Stream errors (a client resetting the connection) surface through the body reader; never as uncaught events.
    request.on('error', () => {});
    response.on('error', () => {});

    const clientGone = (): boolean => response.destroyed || !response.socket || response.socket.destroyed;

    const respond = (status: number, text: string, headers: Readonly<Record<string, string>> = {}): void => {
      if (answered) {
        deps.log(`${method} ${shownPath} ${requestId}: a second response (${status}) was dropped`);
        return;
      }
      answered = true;
      let note = '';
      if (clientGone() || response.headersSent) {
        note = ' (not sent: client gone)';
      } else {
        try {
          response.writeHead(status, {
            'content-type': 'application/json; charset=utf-8',
            'content-length': Buffer.byteLength(text),
            'x-request-id': requestId,
            ...headers,
          });
          response.end(text);
        } catch (error) {
          note = ` (not sent: ${redactKeys((error as Error)?.message ?? String(error))})`;
          response.destroy();
        }
      }
      deps.log(`${method} ${shownPath} ${status} ${Math.round(now() - started)}ms key=${keyId} ${requestId}${note}`);
    };

    const respondError = (error: HttpError): void => {
      const body: SandboxErrorBody = { error: { code: error.code, message: error.message, request_id: requestId } };
      respond(error.status, JSON.stringify(body), error.headers);
      // Drain an unread body, so the connection can serve the next request.
      if (!request.readableEnded) request.resume();
    };

    const handle = async (): Promise<void> => {
      const tooLong = targetTooLong(request.url ?? '/');
      if (tooLong) {
        shownPath = tooLong.shownPath;
        throw new HttpError(414, ERROR_CODES.invalidRequest, tooLong.message);
      }
      const url = parseUrl(request.url);
      shownPath = redactKeys(url.pathname);
      rejectKeyInUrl(request.url ?? '/');
      const match = matchRoute(routes, method, url.pathname);
      if (match.kind === 'not_found') throw new HttpError(404, 'not_found', `No endpoint at ${shownPath}.`);
      if (match.kind === 'method_not_allowed') {
        const allow = match.allow.join(', ');
        throw new HttpError(405, 'method_not_allowed', `${shownPath} accepts ${allow}.`, { allow });
      }
      const { route, params } = match;
      if (route.notImplemented || route.auth === 'session') {
        throw new HttpError(501, 'not_implemented', `The sandbox does not serve ${method} ${route.pattern} yet.`);
      }
      if (route.auth === 'api-key') keyId = authenticateApiKey(request, deps.state);
      let body: Promise<unknown> | undefined;
      const context: RouteContext = {
        request,
        url,
        params,
        query: url.searchParams,
        body: () => (body ??= readJsonBody(request)),
        keyId,
        requestId,
        deps,
      };
      const text = JSON.stringify(await route.handler(context)) as string | undefined;
      if (text === undefined) throw new Error(`the handler of ${method} ${route.pattern} returned no JSON value`);
      respond(route.status, text);
    };

    handle()
      .catch((error: unknown) => {
        const known = knownHttpError(error);
        if (known) return respondError(known);
        if (clientGone()) {
          deps.log(`${method} ${shownPath} - client closed the connection ${requestId}`);
          answered = true;
          return;
        }
        const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
        deps.log(`${method} ${shownPath} ${requestId} failed: ${redactKeys(detail)}`);
        respondError(internalError());
      })
      .catch((error: unknown) => {
        deps.log(`${method} ${shownPath} ${requestId}: error while answering: ${redactKeys(String(error))}`);
        if (!response.writableEnded) response.destroy();
      });
  };
}

/**
 * When the path (before the first `?`) of `target` is over {@link MAX_PATH_BYTES} or its query over
 * {@link MAX_QUERY_BYTES} bytes (node:http gives the target one character per byte): the 414 message and the path as
 * the log shows it (at most its first 64 characters, printable ASCII, keys redacted, and the size of the long part);
 * otherwise undefined.
 */
function targetTooLong(target: string): { message: string; shownPath: string } | undefined {
  const question = target.indexOf('?');
  const pathBytes = question === -1 ? target.length : question;
  const queryBytes = question === -1 ? 0 : target.length - question - 1;
  if (pathBytes <= MAX_PATH_BYTES && queryBytes <= MAX_QUERY_BYTES) return undefined;
  const start = redactKeys(target.slice(0, Math.min(pathBytes, 64)).replace(/[^\x21-\x7e]/g, '?'));
  const shown = pathBytes > 64 ? `${start}…` : start;
  return pathBytes > MAX_PATH_BYTES
    ? {
        message: `The request path is ${pathBytes} bytes long; at most ${MAX_PATH_BYTES} are accepted.`,
        shownPath: `${shown} (path of ${pathBytes} bytes)`,
      }
    : {
        message: `The query string is ${queryBytes} bytes long; at most ${MAX_QUERY_BYTES} are accepted.`,
        shownPath: `${shown}?… (query of ${queryBytes} bytes)`,
      };
}

/** The request target as a URL (against `http://sandbox`). @throws HttpError 400 `invalid_request` when unparsable. */
function parseUrl(target: string | undefined): URL {
  try {
    return new URL(target ?? '/', 'http://sandbox');
  } catch {
    throw new HttpError(400, 'invalid_request', 'The request target is not a valid URL path.');
  }
}
