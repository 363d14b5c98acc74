/**
 * The sandbox's HTTP server (node:http): the Legal Research API contract over the local corpus, routed by the table of
 * `routes/table.ts`.
 *
 * Per request, in order: `x-request-id` assigned (`req_` + 16 hex digits; on every response); a request target whose
 * path or query is over 8192 bytes → 414 `invalid_request`, before any other work; a key anywhere in the URL (path or
 * query, also percent-encoded, or a query parameter named like a key) → 400 `invalid_request`; routing
 * (`router.ts`): unknown path → 404 `not_found`, known path with another method → 405 `method_not_allowed` with
 * `Allow`, an endpoint not built yet → 501 `not_implemented`; authentication (`auth.ts`): by API key, or, on the key and
 * account endpoints, by user-session token; the handler; the JSON response with the route's status (200, 201 for
 * `POST /v1/keys`, 202 for `POST /v1/answers`). `HEAD` is answered for every `GET` route, with the same status and
 * headers and no body.
 *
 * Error body (the sandbox's choice; the spec does not show one):
 * `{"error":{"code":"…","message":"…","request_id":"req_…"}}`, `request_id` equal to the `x-request-id` header.
 * Statuses: 401 for the three key codes, and for the four session codes of the key and account endpoints
 * (`missing_session_token`, `invalid_session_token`, `expired_session_token`, `api_key_not_accepted`); 400
 * `invalid_request`; 413 `invalid_request` for a body over 1 MiB;
 * 414 `invalid_request` for a path or query over 8192 bytes; 429 `monthly_quota_exceeded`; 404, 405, 501 as above;
 * 503 `service_unavailable` with `Retry-After: 1` when the state store is locked by another process past its busy
 * timeout (250 ms) or full (`deps.state.unavailable`); 500 `internal_error` for anything else a handler or
 * authentication throws (logged with its stack, keys redacted).
 *
 * Requests node:http itself refuses (see {@link createSandboxServer}) get the same body and an `x-request-id`: 400
 * `invalid_request` for a request that is not valid HTTP/1.1, 431 `invalid_request` for headers over 16 KiB, 408
 * `request_timeout` when the headers (default 10 s) or the whole request (default 60 s) do not arrive in time; the
 * connection is then closed.
 *
 * Whatever a request does, the process does not die of it: every error becomes a response, and a failure after the
 * response was sent, or a client that went away, is only logged (one line, no stack).
 *
 * Logs go to `deps.log`, one line per request (`METHOD /path STATUS Nms key=<key_id> req_…`, or
 * `session=<session_id>` on the key and account endpoints), naming the key or session by its id, never by its value
 * (`key=-` before authentication, or when it failed); a client that leaves mid-request is logged as
 * `METHOD /path req_… client closed the connection before the body was complete`.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { Duplex } from 'node:stream';
import { ERROR_CODES } from '../../contract/errors.js';
import { authenticateApiKey, authenticateSession, redactKeys, rejectKeyInUrl } from './auth.js';
import { readJsonBody } from './body.js';
import {
  ClientAbortError,
  HttpError,
  internalError,
  knownHttpError,
  REQUEST_TIMEOUT,
  type SandboxErrorBody,
} from './errors.js';
import { matchRoute, RawJson, type Route, type RouteContext, type ServerDeps } from './router.js';

export type { ServerDeps } from './router.js';

/** Longest path of a request target accepted, in bytes (the part before `?`); longer → 414. */
export const MAX_PATH_BYTES = 8192;
/** Longest query of a request target accepted, in bytes (the part after the first `?`); longer → 414. */
export const MAX_QUERY_BYTES = 8192;

/** Time limits of the server's connections, in milliseconds (node:http's options of the same names). */
export interface SandboxServerOptions {
  /** Time to receive a request's headers, from its first byte; default 10 000. Over it: 408, connection closed. */
  headersTimeout?: number;
  /** Time to receive a whole request (headers and body); default 60 000; not less than `headersTimeout`. */
  requestTimeout?: number;
  /** Idle time before a kept-alive connection is closed; default 5 000. */
  keepAliveTimeout?: number;
  /** How often connections are checked against the two timeouts above; default 1 000. */
  connectionsCheckingInterval?: number;
}

/** The defaults of {@link SandboxServerOptions}. */
export const DEFAULT_SERVER_OPTIONS: Readonly<Required<SandboxServerOptions>> = {
  headersTimeout: 10_000,
  requestTimeout: 60_000,
  keepAliveTimeout: 5_000,
  connectionsCheckingInterval: 1_000,
};

/**
 * One request on a connection and the state of its answer, shared by the request listener and the listener of the
 * errors node:http reports on the connection ('clientError').
 */
interface Exchange {
  readonly request: http.IncomingMessage;
  readonly response: http.ServerResponse;
  readonly requestId: string;
  readonly method: string;
  /** When the request arrived, on the `deps.now` clock. */
  readonly started: number;
  /** The path as the log shows it (keys redacted); `?` until parsed. */
  shownPath: string;
  keyId: string;
  /** The authenticated session's id, on the key and account endpoints; `-` otherwise. */
  sessionId: string;
  /** A response was sent or begun, or the exchange was logged as closed by the client: nothing more is written. */
  settled: boolean;
}

/**
 * Creates the sandbox's server over `routes` (not listening yet): the request listener, the time limits of `options`,
 * and JSON answers for the requests node:http refuses before the listener sees them. Listen with `server.listen`.
 */
export function createSandboxServer(deps: ServerDeps, routes: readonly Route[], options: SandboxServerOptions = {}): http.Server {
  const settings = { ...DEFAULT_SERVER_OPTIONS, ...options };
  const exchanges = new WeakMap<Duplex, Exchange>();
  const server = http.createServer(
    {
      headersTimeout: settings.headersTimeout,
      requestTimeout: settings.requestTimeout,
      keepAliveTimeout: settings.keepAliveTimeout,
      connectionsCheckingInterval: settings.connectionsCheckingInterval,
    },
    createRequestListener(deps, routes, exchanges),
  );
  server.on('clientError', createClientErrorListener(deps, settings, exchanges));
  return server;
}

/** How the log names the request's credential: `session=<session_id>` once a session is accepted, else `key=<key_id>` (`key=-`). */
function credentialOf(exchange: Exchange): string {
  return exchange.sessionId !== '-' ? `session=${exchange.sessionId}` : `key=${exchange.keyId}`;
}

/** A new request id: `req_` + 16 hex digits. */
function newRequestId(): string {
  return `req_${crypto.randomBytes(8).toString('hex')}`;
}

/**
 * The request listener over `routes`; records each request's {@link Exchange} under its socket in `exchanges`.
 * Never throws and never rejects.
 */
function createRequestListener(
  deps: ServerDeps,
  routes: readonly Route[],
  exchanges: WeakMap<Duplex, Exchange>,
): http.RequestListener {
  const now = deps.now ?? (() => performance.now());
  return (request, response) => {
    const exchange: Exchange = {
      request,
      response,
      requestId: newRequestId(),
      method: request.method ?? 'GET',
      started: now(),
      shownPath: '?',
      keyId: '-',
      sessionId: '-',
      settled: false,
    };
    exchanges.set(request.socket, exchange);
    const { requestId, method } = exchange;
    // Stream errors (a client resetting the connection) surface through the body reader; never as uncaught events.
    request.on('error', () => {});
    response.on('error', () => {});

    const clientGone = (): boolean => response.destroyed || !response.socket || response.socket.destroyed;

    const respond = (status: number, text: string | Uint8Array, headers: Readonly<Record<string, string>> = {}): void => {
      if (exchange.settled) {
        deps.log(`${method} ${exchange.shownPath} ${requestId}: a second response (${status}) was dropped`);
        return;
      }
      exchange.settled = true;
      let note = '';
      if (clientGone() || response.headersSent) {
        note = ' (not sent: client gone)';
      } else {
        try {
          // For HEAD, node:http sends these headers and drops the body.
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
      deps.log(
        `${method} ${exchange.shownPath} ${status} ${Math.round(now() - exchange.started)}ms ${credentialOf(exchange)} ${requestId}${note}`,
      );
    };

    const respondError = (error: HttpError): void => {
      const body: SandboxErrorBody = { error: { code: error.code, message: error.message, request_id: requestId } };
      respond(error.status, JSON.stringify(body), error.headers);
      // Drain an unread body, so the connection can serve the next request.
      if (!request.readableEnded) request.resume();
    };

    /** The client went away: nothing can be answered; one log line, unless the exchange was already settled. */
    const closedByClient = (midBody: boolean): void => {
      if (exchange.settled) return;
      exchange.settled = true;
      const what = midBody ? 'client closed the connection before the body was complete' : 'client closed the connection';
      deps.log(`${method} ${exchange.shownPath} ${requestId} ${what}`);
    };

    const handle = async (): Promise<void> => {
      const target = request.url ?? '/';
      const tooLong = targetTooLong(target);
      if (tooLong) {
        exchange.shownPath = tooLong.shownPath;
        throw new HttpError(414, ERROR_CODES.invalidRequest, tooLong.message);
      }
      const url = parseUrl(target);
      exchange.shownPath = redactKeys(url.pathname);
      rejectKeyInUrl(target);
      const shownPath = exchange.shownPath;
      const match = matchRoute(routes, method, url.pathname);
      if (match.kind === 'not_found') throw new HttpError(404, 'not_found', `No endpoint at ${shownPath}.`);
      if (match.kind === 'method_not_allowed') {
        const allow = match.allow.join(', ');
        throw new HttpError(405, 'method_not_allowed', `${shownPath} accepts ${allow}.`, { allow });
      }
      const { route, params } = match;
      if (route.notImplemented) {
        throw new HttpError(501, 'not_implemented', `The sandbox does not serve ${method} ${route.pattern} yet.`);
      }
      let accountId = '-';
      if (route.auth === 'api-key') ({ keyId: exchange.keyId, accountId } = authenticateApiKey(request, deps.state));
      if (route.auth === 'session') ({ sessionId: exchange.sessionId, accountId } = authenticateSession(request, deps.state));
      let body: Promise<unknown> | undefined;
      const context: RouteContext = {
        request,
        url,
        params,
        query: url.searchParams,
        body: () => (body ??= readJsonBody(request)),
        keyId: exchange.keyId,
        sessionId: exchange.sessionId,
        accountId,
        requestId,
        deps,
      };
      const value = await route.handler(context);
      const text = value instanceof RawJson ? value.body : (JSON.stringify(value) as string | undefined);
      if (text === undefined) throw new Error(`the handler of ${method} ${route.pattern} returned no JSON value`);
      respond(route.status, text);
    };

    handle()
      .catch((error: unknown) => {
        const known = knownHttpError(error, (thrown) => deps.state.unavailable(thrown));
        if (known) return respondError(known);
        if (error instanceof ClientAbortError) return closedByClient(true);
        if (clientGone()) return closedByClient(false);
        const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
        deps.log(`${method} ${exchange.shownPath} ${requestId} failed: ${redactKeys(detail)}`);
        respondError(internalError());
      })
      .catch((error: unknown) => {
        deps.log(`${method} ${exchange.shownPath} ${requestId}: error while answering: ${redactKeys(String(error))}`);
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
function parseUrl(target: string): URL {
  try {
    return new URL(target, 'http://sandbox');
  } catch {
    throw new HttpError(400, ERROR_CODES.invalidRequest, 'The request target is not a valid URL path.');
  }
}

/** How a connection error node:http reports is answered. */
interface ClientErrorAnswer {
  status: number;
  code: string;
  message: string;
  /** The client closed its side of the connection before the request was complete. */
  clientClosed: boolean;
}

/**
 * The answer to a 'clientError' of node:http: 431 for headers over the limit, 413 for oversized chunk extensions,
 * 408 for a request timeout, 400 for any other parse error (including a connection closed mid-request); undefined for
 * errors of the socket itself (a reset, a broken pipe), which are not answered.
 */
function clientErrorAnswer(
  error: NodeJS.ErrnoException & { reason?: unknown },
  settings: Required<SandboxServerOptions>,
): ClientErrorAnswer | undefined {
  const answer = (status: number, message: string, code: string = ERROR_CODES.invalidRequest): ClientErrorAnswer => ({
    status,
    code,
    message,
    clientClosed: false,
  });
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return answer(431, `The request's headers are larger than ${http.maxHeaderSize} bytes.`);
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return answer(413, 'The chunk extensions of the request body are too large.');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return answer(
        408,
        `The request did not arrive in time: its headers are due within ${settings.headersTimeout / 1000} s, ` +
          `the whole request within ${settings.requestTimeout / 1000} s.`,
        REQUEST_TIMEOUT,
      );
    case 'HPE_INVALID_EOF_STATE':
      return { ...answer(400, 'The connection was closed before the request was complete.'), clientClosed: true };
    default: {
      if (!error.code?.startsWith('HPE_')) return undefined;
      const reason = typeof error.reason === 'string' ? ` (${error.reason})` : '';
      return answer(400, `The request is not valid HTTP/1.1${reason}.`);
    }
  }
}

/**
 * The listener of node:http's 'clientError' (a request it cannot parse, or that timed out): writes a complete
 * HTTP/1.1 error response with the JSON error body and an `x-request-id` when the socket is writable and no response
 * was begun on it, then closes the connection; logs one line. The request id is that of the request in progress on the
 * connection, if any (a timeout or a close mid-body), else a new one.
 */
function createClientErrorListener(
  deps: ServerDeps,
  settings: Required<SandboxServerOptions>,
  exchanges: WeakMap<Duplex, Exchange>,
): (error: Error, socket: Duplex) => void {
  const now = deps.now ?? (() => performance.now());
  return (error, socket) => {
    const answer = clientErrorAnswer(error as NodeJS.ErrnoException, settings);
    let exchange = exchanges.get(socket);
    // An exchange that is over (request read, response sent) is not the one the error concerns.
    if (exchange && exchange.request.complete && exchange.response.writableFinished) exchange = undefined;
    if (!answer) {
      // A reset or broken connection: the request in progress, if any, logs it (its body reader fails).
      socket.destroy();
      return;
    }
    const code = (error as NodeJS.ErrnoException).code;
    if (exchange?.settled) {
      deps.log(`${exchange.method} ${exchange.shownPath} ${exchange.requestId} connection closed: ${code}`);
      socket.destroy();
      return;
    }
    const requestId = exchange?.requestId ?? newRequestId();
    if (exchange) exchange.settled = true;
    let note = '';
    if (socket.writable) {
      socket.end(rawErrorResponse(answer, requestId), () => socket.destroy());
    } else {
      note = ' (not sent: client gone)';
      socket.destroy();
    }
    if (exchange && answer.clientClosed) {
      deps.log(`${exchange.method} ${exchange.shownPath} ${requestId} client closed the connection before the body was complete`);
    } else if (exchange) {
      const ms = Math.round(now() - exchange.started);
      deps.log(`${exchange.method} ${exchange.shownPath} ${answer.status} ${ms}ms ${credentialOf(exchange)} ${requestId} (${code})${note}`);
    } else {
      deps.log(`- - ${answer.status} 0ms key=- ${requestId} (${code})${note}`);
    }
  };
}

/** A complete HTTP/1.1 response with the sandbox's error body, closing the connection. */
function rawErrorResponse(answer: ClientErrorAnswer, requestId: string): string {
  const body: SandboxErrorBody = { error: { code: answer.code, message: answer.message, request_id: requestId } };
  const text = JSON.stringify(body);
  return [
    `HTTP/1.1 ${answer.status} ${http.STATUS_CODES[answer.status] ?? 'Error'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(text)}`,
    `X-Request-Id: ${requestId}`,
    'Connection: close',
    '',
    text,
  ].join('\r\n');
}
