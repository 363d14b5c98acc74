/**
 * The sandbox's HTTP server (node:http): the Legal Research API contract over the local corpus.
 *
 * Served here: `POST /v1/search` and `GET /v1/catalog/source-types`, authenticated by API key (spec: Authentication).
 * The other endpoints of the spec answer `501 not_implemented` until their issues add them; unknown paths `404
 * not_found`; a known path with another method `405 method_not_allowed`.
 *
 * Error body (the sandbox's choice; the spec does not show one): `{"error":{"code":"...","message":"..."}}` with
 * HTTP 401 for the three key codes, 400 `invalid_request`, 429 `monthly_quota_exceeded`, 413 `invalid_request` for an
 * oversized body, 500 `internal_error`. Every response carries an `x-request-id` header.
 *
 * Logs go to the given logger, one line per request, naming the key by its `key_id`, never by its value.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import { PATHS, ERROR_CODES, searchRequestProblems, type ErrorBody, type SearchRequest } from '../api/types.js';
import type { SandboxState } from './state.js';
import type { SearchIndex } from './index-db.js';
import { search, SearchRequestError } from './search.js';

/** Largest request body accepted, in bytes. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** What the server needs: the corpus index, the account state, a clock and a log. */
export interface ServerDeps {
  index: SearchIndex;
  state: SandboxState;
  /** Receives one line per request and per notable event. */
  log: (line: string) => void;
  /** Milliseconds clock for request durations in the log; default `performance.now`. */
  now?: () => number;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

type Handler = (request: http.IncomingMessage, keyId: string) => Promise<unknown>;

/** Endpoints of the spec that this sandbox does not serve yet (answered with 501). */
const NOT_YET: Record<string, string[]> = {
  [PATHS.courts]: ['GET'],
  [PATHS.judges]: ['GET'],
  [PATHS.documents]: ['GET'],
  [PATHS.usage]: ['GET'],
  [PATHS.answers]: ['POST'],
  [PATHS.keys]: ['GET', 'POST'],
  [PATHS.account]: ['GET'],
  [PATHS.accountOverages]: ['PATCH'],
};

/** Creates the request listener. Attach it with `http.createServer(createRequestListener(deps))`. */
export function createRequestListener(deps: ServerDeps): http.RequestListener {
  const now = deps.now ?? (() => performance.now());
  const routes: Record<string, Record<string, Handler>> = {
    [PATHS.search]: {
      POST: async (request) => {
        const body = await readJsonBody(request);
        const problems = searchRequestProblems(body);
        if (problems.length > 0) {
          throw new HttpError(400, ERROR_CODES.invalidRequest, problems.map((p) => p.message).join('; '));
        }
        const searchRequest = body as SearchRequest;
        const consumption = deps.state.consume('search');
        if (!consumption.allowed) {
          throw new HttpError(
            429,
            ERROR_CODES.monthlyQuotaExceeded,
            `The monthly search quota of ${consumption.quota} is used up for ${consumption.month}.`,
          );
        }
        try {
          return search(deps.index, searchRequest);
        } catch (error) {
          // A request rejected as invalid costs nothing, like every other invalid_request.
          deps.state.release('search');
          if (error instanceof SearchRequestError) throw new HttpError(400, error.code, error.message);
          throw error;
        }
      },
    },
    [PATHS.sourceTypes]: {
      GET: async () => ({ source_types: deps.index.sourceTypes() }),
    },
  };

  return (request, response) => {
    const started = now();
    const requestId = `req_${crypto.randomBytes(8).toString('hex')}`;
    const url = new URL(request.url ?? '/', 'http://sandbox');
    const method = request.method ?? 'GET';
    // The path as logged and echoed, with anything shaped like a key removed (a key wrongly put in a path).
    const shownPath = redactKeys(url.pathname);
    let keyId = '-';

    const send = (status: number, payload: unknown, headers: Record<string, string> = {}): void => {
      const text = JSON.stringify(payload);
      response.writeHead(status, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(text),
        'x-request-id': requestId,
        ...headers,
      });
      response.end(text);
      deps.log(`${method} ${shownPath} ${status} ${Math.round(now() - started)}ms key=${keyId} ${requestId}`);
    };
    const sendError = (error: HttpError, headers: Record<string, string> = {}): void => {
      const body: ErrorBody = { error: { code: error.code, message: error.message } };
      send(error.status, body, headers);
    };

    const keyInQuery = /(^|[?&])(api_key|key|token|access_token)=/i.test(url.search) || redactKeys(url.search) !== url.search;
    if (keyInQuery) {
      sendError(
        new HttpError(400, ERROR_CODES.invalidRequest, 'A key must never be placed in a URL; send it in the X-API-Key header.'),
      );
      request.resume();
      return;
    }

    const route = routes[url.pathname];
    const handler = route?.[method];
    if (!handler) {
      const allowed = route ? Object.keys(route) : NOT_YET[url.pathname];
      if (!allowed) {
        sendError(new HttpError(404, 'not_found', `No endpoint at ${shownPath}.`));
      } else if (!allowed.includes(method)) {
        sendError(new HttpError(405, 'method_not_allowed', `${shownPath} accepts ${allowed.join(', ')}.`), {
          allow: allowed.join(', '),
        });
      } else {
        sendError(new HttpError(501, 'not_implemented', `The sandbox does not serve ${method} ${shownPath} yet.`));
      }
      request.resume();
      return;
    }

    try {
      keyId = authenticate(request, deps.state);
    } catch (error) {
      sendError(error as HttpError);
      request.resume();
      return;
    }

    handler(request, keyId).then(
      (payload) => send(200, payload),
      (error: unknown) => {
        if (error instanceof HttpError) {
          sendError(error);
        } else {
          deps.log(`${method} ${shownPath} failed: ${(error as Error)?.stack ?? String(error)}`);
          sendError(new HttpError(500, 'internal_error', 'The sandbox failed to handle the request; see its log.'));
        }
        request.resume();
      },
    );
  };
}

/**
 * Authenticates by API key (spec: Authentication, API key): exactly one of `X-API-Key: <key>` and
 * `Authorization: Bearer <key>`. Returns the key's `key_id`.
 * @throws HttpError 401 `missing_api_key` / `invalid_api_key` / `revoked_api_key`; 400 `invalid_request` when both
 *   headers are sent.
 */
function authenticate(request: http.IncomingMessage, state: SandboxState): string {
  const header = request.headers['x-api-key'];
  const xApiKey = Array.isArray(header) ? header[0] : header;
  const authorization = request.headers.authorization;
  const bearer = authorization && /^Bearer\s+/i.test(authorization) ? authorization.replace(/^Bearer\s+/i, '') : undefined;
  if (xApiKey !== undefined && bearer !== undefined) {
    throw new HttpError(
      400,
      ERROR_CODES.invalidRequest,
      'Send the key in only one header: X-API-Key or Authorization: Bearer, not both.',
    );
  }
  const key = (xApiKey ?? bearer)?.trim();
  if (!key) {
    throw new HttpError(401, ERROR_CODES.missingApiKey, 'No API key: send it in the X-API-Key header.');
  }
  const check = state.authenticate(key);
  if (!check.ok) {
    throw new HttpError(
      401,
      check.code,
      check.code === 'revoked_api_key' ? 'This API key has been revoked.' : 'The API key is malformed or unknown.',
    );
  }
  return check.key_id;
}

/** `text` with every run shaped like a live key (`<prefix>_live_<secret>`) replaced by `[redacted]`. */
function redactKeys(text: string): string {
  return text.replace(/[A-Za-z0-9]+_live_[A-Za-z0-9_-]+/g, '[redacted]');
}

/** Reads a JSON request body of at most {@link MAX_BODY_BYTES}. @throws HttpError 400 or 413. */
async function readJsonBody(request: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) {
      throw new HttpError(413, ERROR_CODES.invalidRequest, `The request body exceeds ${MAX_BODY_BYTES} bytes.`);
    }
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, ERROR_CODES.invalidRequest, 'The request body is not valid JSON.');
  }
}
