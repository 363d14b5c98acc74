/**
 * API-key authentication (spec: Authentication, API key) and keeping keys out of URLs and logs.
 */
import type http from 'node:http';
import { ERROR_CODES } from '../../api/types.js';
import type { SandboxState } from '../state/index.js';
import { HttpError } from './errors.js';

/**
 * Authenticates by API key: exactly one of `X-API-Key: <key>` and `Authorization: Bearer <key>` (rule 1), checked by
 * `state.authenticate` (rule 3). Messages never repeat the key.
 * @returns the key's `key_id`.
 * @throws HttpError 401 `missing_api_key` (no header, or an empty one), 401 `invalid_api_key`, 401 `revoked_api_key`;
 *   400 `invalid_request` when both headers are sent; the state's SQLite error when the lookup fails.
 */
export function authenticateApiKey(request: http.IncomingMessage, state: SandboxState): string {
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

/**
 * Rejects a key placed in the URL (rule 2): a query parameter named `api_key`, `key`, `token` or `access_token` (any
 * case), or anything shaped like a live key in the query string.
 * @throws HttpError 400 `invalid_request`.
 */
export function rejectKeyInUrl(url: URL): void {
  if (/(^|[?&])(api_key|key|token|access_token)=/i.test(url.search) || redactKeys(url.search) !== url.search) {
    throw new HttpError(400, ERROR_CODES.invalidRequest, 'A key must never be placed in a URL; send it in the X-API-Key header.');
  }
}

/** A counter of the characters the key scanner visits (to show in tests that its work is linear). */
export interface ScanWork {
  steps: number;
}

/**
 * `text` with every run shaped like a live key (`<prefix>_live_<secret>`: prefix `[A-Za-z0-9]+`, secret
 * `[A-Za-z0-9_-]+`) replaced by `[redacted]`; for logs and messages. Runs in time linear in `text.length` (a scan
 * around each `_live_`, never a backtracking regular expression).
 * @param work when given, `work.steps` is increased by the number of characters visited.
 */
export function redactKeys(text: string, work?: ScanWork): string {
  const spans = scanKeys(text, work);
  if (spans.length === 0) return text;
  let out = '';
  let from = 0;
  for (const [start, end] of spans) {
    out += `${text.slice(from, start)}[redacted]`;
    from = end;
  }
  return out + text.slice(from);
}

const isPrefixChar = (c: number): boolean =>
  (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
const isSecretChar = (c: number): boolean => isPrefixChar(c) || c === 0x5f /* _ */ || c === 0x2d; /* - */
const SEPARATOR = '_live_';

/**
 * Finds the key-shaped runs of `text`: for each `_live_`, the alphanumeric run just before it and
 * the secret characters after it; the same runs, left to right and without overlaps, as the regular expression
 * `/[A-Za-z0-9]+_live_[A-Za-z0-9_-]+/g`. Every character is visited a bounded number of times: the run before an
 * `_live_` ends at the previous non-alphanumeric character (at the latest, the `_` that closes the previous `_live_`),
 * and the run after it is scanned only once a prefix was found, and then becomes part of the match.
 * @returns the runs as [start, end) offsets in `text`.
 */
function scanKeys(text: string, work?: ScanWork): [number, number][] {
  if (work) work.steps += text.length;
  const decoded = text;
  const spans: [number, number][] = [];
  let lastEnd = 0;
  let from = 0;
  for (;;) {
    const at = decoded.indexOf(SEPARATOR, from);
    if (at === -1) break;
    let start = at;
    while (start > lastEnd && isPrefixChar(decoded.charCodeAt(start - 1))) start--;
    if (work) work.steps += at - start + 1;
    let end = at + SEPARATOR.length;
    if (start === at || !isSecretChar(decoded.charCodeAt(end))) {
      from = at + 1;
      continue;
    }
    while (end < decoded.length && isSecretChar(decoded.charCodeAt(end))) end++;
    if (work) work.steps += end - at;
    spans.push([start, end]);
    lastEnd = end;
    from = end;
  }
  return spans;
}
