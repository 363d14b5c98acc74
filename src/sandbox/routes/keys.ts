/**
 * `POST /v1/keys`, `GET /v1/keys`, `POST /v1/keys/{key_id}/revoke` (spec: Key and account endpoints; API key facts;
 * States and transitions, API key; docs/sandbox.md, "Sandbox: keys and account"): user-session token, the session's
 * account's keys only. The bodies are the sandbox's (the spec does not show them): see `ApiKeyRecord`, `CreatedApiKey`,
 * `KeyCreateRequest` and `ApiKeyList` in `src/contract/types.ts`.
 */
import { ERROR_CODES } from '../../contract/errors.js';
import { KEY_NAME_MAX_LENGTH } from '../../contract/limits.js';
import { PATHS } from '../../contract/paths.js';
import { characterLength } from '../../contract/requests.js';
import type { ApiKeyList, ApiKeyRecord, CreatedApiKey, KeyCreateRequest } from '../../contract/types.js';
import { HttpError } from '../http/errors.js';
import type { Route, RouteContext } from '../http/router.js';

/** A C0 or C1 control character, or DEL (Unicode general category Cc): line breaks, tabs, terminal escapes. */
const CONTROL_CHARACTER = /\p{Cc}/u;

/** Why a field other than `name` is refused, for the fields a client might expect to set. */
const FIELD_REFUSALS: Readonly<Record<string, string>> = {
  plan: "plan cannot be chosen: a key has its account's plan (GET /v1/account shows it)",
  status: 'status cannot be set: a new key is active; revoke it with POST /v1/keys/{key_id}/revoke',
};

/**
 * A field name as a message shows it: JSON-quoted (control characters escaped), at most 40 characters of it. Field
 * names come from the client and are never secrets of the server, but are kept short.
 */
export function quoteField(name: string): string {
  const chars = [...name];
  return JSON.stringify(chars.length > 40 ? `${chars.slice(0, 40).join('')}…` : name);
}

/**
 * Checks a `POST /v1/keys` body: a JSON object with exactly the field `name`, a string that is, once trimmed, 1 to
 * {@link KEY_NAME_MAX_LENGTH} characters (code points) long and holds no control character. Any other field is a
 * problem (`plan`, `status` with their own reasons: a key has its account's plan, and is created active).
 * @returns `{request}` (the name trimmed) when valid, else `{problems}`: every problem found, as messages.
 */
export function checkKeyCreateRequest(body: unknown): { request: KeyCreateRequest; problems?: undefined } | { problems: string[] } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { problems: ['the request body must be a JSON object: {"name": "…"}'] };
  }
  const fields = body as Record<string, unknown>;
  const problems: string[] = [];
  for (const field of Object.keys(fields)) {
    if (field === 'name') continue;
    problems.push(FIELD_REFUSALS[field] ?? `unknown field ${quoteField(field)}: the body of POST /v1/keys takes only "name"`);
  }
  const name = fields.name;
  const rule = `a string of 1 to ${KEY_NAME_MAX_LENGTH} characters`;
  let trimmed: string | undefined;
  if (name === undefined) {
    problems.push(`name is required: ${rule}`);
  } else if (typeof name !== 'string') {
    problems.push(`name must be ${rule}`);
  } else {
    trimmed = name.trim();
    const length = characterLength(trimmed);
    if (length === 0) problems.push(`name must not be empty or only white space: ${rule}`);
    if (length > KEY_NAME_MAX_LENGTH) problems.push(`name must be at most ${KEY_NAME_MAX_LENGTH} characters long (got ${length})`);
    if (CONTROL_CHARACTER.test(trimmed)) problems.push('name must not contain control characters (line breaks, tabs, escapes)');
  }
  if (problems.length > 0 || trimmed === undefined) return { problems };
  return { request: { name: trimmed } };
}

/**
 * `POST /v1/keys` (session): creates an active key of the session's account with the account's plan (see
 * `SandboxStore.createKey`).
 * @returns HTTP 201 `CreatedApiKey`: `{key_id, name, prefix, plan, status: "active", created_at, last_used_at: null,
 *   revoked_at: null, api_key}`, the full key in `api_key`, shown this once (only its SHA-256 is stored).
 * @throws HttpError 400 `invalid_request` listing every problem of the body (see {@link checkKeyCreateRequest}), 413
 *   for a body over 1 MiB; the state store's error (busy/full → 503).
 */
async function handleCreate({ body, deps, accountId }: RouteContext): Promise<CreatedApiKey> {
  const checked = checkKeyCreateRequest(await body());
  if (checked.problems) throw new HttpError(400, ERROR_CODES.invalidRequest, `${checked.problems.join('; ')}.`);
  return deps.state.createKey(accountId, checked.request.name);
}

/**
 * `GET /v1/keys` (session): HTTP 200 `{keys: ApiKeyRecord[]}`, every key of the session's account (revoked ones and
 * the temporary keys of `--sandbox` runs too), oldest first; never a secret.
 * @throws the state store's error (busy/full → 503).
 */
function handleList({ deps, accountId }: RouteContext): ApiKeyList {
  return { keys: deps.state.listKeys(accountId) };
}

/**
 * `POST /v1/keys/{key_id}/revoke` (session; no body): revokes the key (see `SandboxStore.revokeKey`): from now on it
 * is refused with 401 `revoked_api_key` by this server at once, and by other processes on the same data directory
 * within their authentication cache's TTL. Idempotent: revoking a revoked key answers the same record.
 * @returns HTTP 200 the key's `ApiKeyRecord` (status `revoked`, `revoked_at` the first revocation's time).
 * @throws HttpError 404 `not_found` when the session's account has no key with this id (another account's key
 *   included), saying to take the id from `GET /v1/keys`; the state store's error (busy/full → 503).
 */
function handleRevoke({ params, deps, accountId }: RouteContext): ApiKeyRecord {
  const record = deps.state.revokeKey(accountId, params.key_id ?? '');
  if (!record) {
    throw new HttpError(
      404,
      'not_found',
      "No key of this session's account has this key_id. Take the key_id from GET /v1/keys (e.g. key_3f9a0c1b2d4e), not the key itself.",
    );
  }
  return record;
}

/** The key routes. */
export const KEY_ROUTES: readonly Route[] = [
  { method: 'GET', pattern: PATHS.keys, auth: 'session', status: 200, handler: handleList },
  { method: 'POST', pattern: PATHS.keys, auth: 'session', status: 201, handler: handleCreate },
  { method: 'POST', pattern: PATHS.keyRevoke, auth: 'session', status: 200, handler: handleRevoke },
];
