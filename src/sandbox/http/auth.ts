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

/** `text` with every run shaped like a live key (`<prefix>_live_<secret>`) replaced by `[redacted]`; for logs. */
export function redactKeys(text: string): string {
  return text.replace(/[A-Za-z0-9]+_live_[A-Za-z0-9_-]+/g, '[redacted]');
}
