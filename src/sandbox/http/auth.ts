/**
 * API-key authentication (spec: Authentication, API key), user-session authentication of the key and account
 * endpoints (spec: Authentication, User-session token), and keeping keys out of URLs and logs.
 *
 * The two credentials are never accepted for each other: a session token on an API-key endpoint is `invalid_api_key`,
 * an API key on a session endpoint `api_key_not_accepted`, each with a message that says which credential the
 * endpoint takes.
 */
import type http from 'node:http';
import { ERROR_CODES, SESSION_ERROR_CODES } from '../../contract/errors.js';
import { LIVE_KEY_PATTERN } from '../../contract/types.js';
import { SESSION_TOKEN_PREFIX } from '../session-tokens.js';
import type { SandboxStore } from '../storage.js';
import { HttpError } from './errors.js';

/** Who an accepted API key is: its `key_id` and the account it belongs to. */
export interface ApiKeyIdentity {
  keyId: string;
  accountId: string;
}

/**
 * Authenticates by API key: exactly one of `X-API-Key: <key>` and `Authorization: Bearer <key>` (rule 1), checked by
 * `state.authenticate` (rule 3). Messages never repeat the key.
 * @returns the key's `key_id` and account.
 * @throws HttpError 401 `missing_api_key` (no header, or an empty one), 401 `invalid_api_key` (also for a user-session
 *   token, `sbx_sess_…`, saying that this endpoint takes an API key), 401 `revoked_api_key`; 400 `invalid_request`
 *   when both headers are sent; the state store's error when the lookup fails.
 */
export function authenticateApiKey(request: http.IncomingMessage, state: SandboxStore): ApiKeyIdentity {
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
  if (key.startsWith(SESSION_TOKEN_PREFIX)) {
    throw new HttpError(
      401,
      ERROR_CODES.invalidApiKey,
      'This is a user-session token, not an API key: this endpoint takes an API key (X-API-Key header). Session tokens are for /v1/keys and /v1/account.',
    );
  }
  const check = state.authenticate(key);
  if (!check.ok) {
    throw new HttpError(
      401,
      check.code,
      check.code === 'revoked_api_key' ? 'This API key has been revoked.' : 'The API key is malformed or unknown.',
    );
  }
  return { keyId: check.key_id, accountId: check.account_id };
}

/** Who an accepted session token is: its session's id (for the log) and the account it belongs to. */
export interface SessionIdentity {
  sessionId: string;
  accountId: string;
}

/** What to do to get a session token, for the messages of {@link authenticateSession}. */
const GET_A_SESSION_TOKEN =
  'Use the session_token of the `pravo sandbox serve` ready line, or mint one with `pravo sandbox token`, and send it as Authorization: Bearer <token>.';

/**
 * Authenticates the key and account endpoints by user-session token (spec: Authentication, User-session token):
 * `Authorization: Bearer <token>` only, checked by `state.authenticateSession` (read from the database each time).
 * Messages never repeat the token.
 * @returns the session's id and account.
 * @throws HttpError 401 with a code of `SESSION_ERROR_CODES`: `api_key_not_accepted` when an `X-API-Key` header is
 *   sent, or the bearer value has the form of a live key (these endpoints take a session token, not an API key);
 *   `missing_session_token` when neither `Authorization` nor `X-API-Key` is sent, or the bearer value is empty;
 *   `invalid_session_token` for another scheme than Bearer, or a token malformed or unknown; `expired_session_token`
 *   for a token past its `expires_at`. The state store's error when the lookup fails.
 */
export function authenticateSession(request: http.IncomingMessage, state: SandboxStore): SessionIdentity {
  const notAccepted = (): HttpError =>
    new HttpError(
      401,
      SESSION_ERROR_CODES.apiKeyNotAccepted,
      `This endpoint takes a user-session token, not an API key. ${GET_A_SESSION_TOKEN}`,
    );
  if (request.headers['x-api-key'] !== undefined) throw notAccepted();
  const authorization = request.headers.authorization;
  if (authorization === undefined || authorization.trim() === '') {
    throw new HttpError(401, SESSION_ERROR_CODES.missingSessionToken, `No user-session token. ${GET_A_SESSION_TOKEN}`);
  }
  const bearer = /^Bearer(\s+|$)/i.test(authorization) ? authorization.replace(/^Bearer\s*/i, '').trim() : undefined;
  if (bearer === undefined) {
    throw new HttpError(
      401,
      SESSION_ERROR_CODES.invalidSessionToken,
      `The Authorization header is not "Bearer <token>". ${GET_A_SESSION_TOKEN}`,
    );
  }
  if (bearer === '') {
    throw new HttpError(401, SESSION_ERROR_CODES.missingSessionToken, `The bearer token is empty. ${GET_A_SESSION_TOKEN}`);
  }
  if (LIVE_KEY_PATTERN.test(bearer)) throw notAccepted();
  const check = state.authenticateSession(bearer);
  if (!check.ok) {
    throw new HttpError(
      401,
      check.code,
      check.code === 'expired_session_token'
        ? `The user-session token has expired. Mint a new one with \`pravo sandbox token\` (or restart \`pravo sandbox serve\`), and send it as Authorization: Bearer <token>.`
        : `The user-session token is malformed or unknown. ${GET_A_SESSION_TOKEN}`,
    );
  }
  return { sessionId: check.session_id, accountId: check.account_id };
}

/** Query parameter names that carry a key or token in other APIs; refused whatever their value (any case). */
const KEY_PARAMETER_NAMES = new Set(['api_key', 'key', 'token', 'access_token']);

/**
 * Rejects a key placed in the URL (rule 2): anywhere in `target` (the raw request target, path and query), something
 * shaped like a live key, also percent-encoded (see {@link redactKeys}); or a query parameter named `api_key`, `key`,
 * `token` or `access_token` (any case, also percent-encoded). Linear in the length of `target`; never throws on
 * malformed percent-encoding.
 * @throws HttpError 400 `invalid_request` (the spec names no code for this; its message does not repeat the key).
 */
export function rejectKeyInUrl(target: string): void {
  const question = target.indexOf('?');
  const query = question === -1 ? '' : target.slice(question + 1);
  const keyParameter = query
    .split('&')
    .some((pair) => KEY_PARAMETER_NAMES.has(percentDecodeAscii(pair.split('=', 1)[0]!).decoded.toLowerCase()));
  if (keyParameter || scanKeys(target).spans.length > 0) {
    throw new HttpError(400, ERROR_CODES.invalidRequest, 'A key must never be placed in a URL; send it in the X-API-Key header.');
  }
}

/** A counter of the characters the key scanner visits (to show in tests that its work is linear). */
export interface ScanWork {
  steps: number;
}

/**
 * `text` with every run shaped like a live key (`<prefix>_live_<secret>`: prefix `[A-Za-z0-9]+`, secret
 * `[A-Za-z0-9_-]+`) replaced by `[redacted]`; for logs and messages. Percent-encoded characters count as what they
 * encode (`sbx%5Flive%5F…` is a key too), also when encoded more than once (`%255F`); malformed escapes are plain text.
 * Runs in time linear in `text.length` (a scan around each `_live_`, never a backtracking regular expression).
 * @param work when given, `work.steps` is increased by the number of characters visited.
 */
export function redactKeys(text: string, work?: ScanWork): string {
  const { spans, offsets } = scanKeys(text, work);
  if (spans.length === 0) return text;
  let out = '';
  let from = 0;
  for (const [start, end] of spans) {
    out += `${text.slice(from, offsets(start))}[redacted]`;
    from = offsets(end);
  }
  return out + text.slice(from);
}

const isPrefixChar = (c: number): boolean =>
  (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
const isSecretChar = (c: number): boolean => isPrefixChar(c) || c === 0x5f /* _ */ || c === 0x2d; /* - */
const SEPARATOR = '_live_';

/**
 * Finds the key-shaped runs of `text` (percent-decoded): for each `_live_`, the alphanumeric run just before it and
 * the secret characters after it; the same runs, left to right and without overlaps, as the regular expression
 * `/[A-Za-z0-9]+_live_[A-Za-z0-9_-]+/g`. Every character is visited a bounded number of times: the run before an
 * `_live_` ends at the previous non-alphanumeric character (at the latest, the `_` that closes the previous `_live_`),
 * and the run after it is scanned only once a prefix was found, and then becomes part of the match.
 * @returns `spans` as [start, end) in decoded units, and `offsets`, mapping a unit index to its offset in `text`.
 */
function scanKeys(text: string, work?: ScanWork): { spans: [number, number][]; offsets: (unit: number) => number } {
  const { decoded, offsets } = percentDecodeAscii(text, work);
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
  return { spans, offsets: offsets ?? ((unit) => unit) };
}

const isHexDigit = (c: number): boolean => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
const isHexPair = (text: string, at: number): boolean =>
  at + 1 < text.length && isHexDigit(text.charCodeAt(at)) && isHexDigit(text.charCodeAt(at + 1));

/**
 * `text` with each percent-escape decoded into one character: `%XX`, and `%25…25XX` (an escape encoded again, as
 * double encoding makes) as the byte `XX`; a byte over 0x7F becomes U+0000 (no key character is one). A `%` not
 * followed by two hex digits stays as it is: this never throws. One pass, linear.
 * @returns `decoded`, and `offsets` mapping a decoded index (up to `decoded.length`) to the offset in `text` where
 *   its unit starts (undefined when `text` has no `%`, so indexes are offsets).
 */
function percentDecodeAscii(text: string, work?: ScanWork): { decoded: string; offsets?: (unit: number) => number } {
  if (work) work.steps += text.length;
  if (!text.includes('%')) return { decoded: text };
  const parts: string[] = [];
  const starts: number[] = [];
  let i = 0;
  while (i < text.length) {
    starts.push(i);
    if (text.charCodeAt(i) === 0x25) {
      let j = i + 1;
      while (text.startsWith('25', j) && isHexPair(text, j + 2)) j += 2;
      if (isHexPair(text, j)) {
        const byte = Number.parseInt(text.slice(j, j + 2), 16);
        parts.push(byte < 0x80 ? String.fromCharCode(byte) : '\u0000');
        i = j + 2;
        continue;
      }
    }
    parts.push(text[i]!);
    i++;
  }
  starts.push(text.length);
  return { decoded: parts.join(''), offsets: (unit) => starts[unit]! };
}
