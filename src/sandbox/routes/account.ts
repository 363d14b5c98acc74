/**
 * `GET /v1/account` and `PATCH /v1/account/overages` (spec: Key and account endpoints; Quota rules 4; docs/sandbox.md,
 * "Sandbox: keys and account"): user-session token, the session's account only. The bodies are the sandbox's (the spec
 * does not show them): `AccountResponse` and `OverageUpdateRequest` in `src/contract/types.ts`.
 */
import { ERROR_CODES } from '../../contract/errors.js';
import { OVERAGE_LIMIT_MAX } from '../../contract/limits.js';
import { PATHS } from '../../contract/paths.js';
import type { AccountResponse } from '../../contract/types.js';
import { HttpError } from '../http/errors.js';
import type { Route, RouteContext, ServerDeps } from '../http/router.js';
import type { OverageSetting } from '../state/store.js';
import { quoteField } from './keys.js';

/** The message for an attempt to set prices (spec: "Unit prices are set by the server and cannot be changed"). */
export const PRICES_READ_ONLY = 'unit prices are set by the server and cannot be changed';

/** Whether a body field names prices: `unit_prices`, or any name containing `price` (any case). */
function namesPrices(field: string): boolean {
  return /price/i.test(field);
}

/**
 * Checks a `PATCH /v1/account/overages` body (`OverageUpdateRequest`): a JSON object, either `{"allowed": true,
 * "monthly_limit": N}` with N a whole number from 1 to {@link OVERAGE_LIMIT_MAX}, or `{"allowed": false}` with
 * `monthly_limit` absent or 0. A field naming prices is refused with {@link PRICES_READ_ONLY}; any other field is
 * unknown.
 * @returns `{setting}` (the overage setting to store: limit 0 when not allowed) when valid, else `{problems}`: every
 *   problem found, as messages.
 */
export function checkOverageUpdate(body: unknown): { setting: OverageSetting; problems?: undefined } | { problems: string[] } {
  const form = `{"allowed": true, "monthly_limit": N} (N a whole number of units a month from 1 to ${OVERAGE_LIMIT_MAX}) or {"allowed": false}`;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { problems: [`the request body must be a JSON object: ${form}`] };
  }
  const fields = body as Record<string, unknown>;
  const problems: string[] = [];
  const priceFields = Object.keys(fields).filter(namesPrices);
  if (priceFields.length > 0) problems.push(`${PRICES_READ_ONLY} (${priceFields.map(quoteField).join(', ')})`);
  for (const field of Object.keys(fields)) {
    if (field === 'allowed' || field === 'monthly_limit' || namesPrices(field)) continue;
    problems.push(`unknown field ${quoteField(field)}: the body takes only "allowed" and "monthly_limit"`);
  }
  const { allowed, monthly_limit: limit } = fields;
  const wholeIn = (min: number): boolean => typeof limit === 'number' && Number.isSafeInteger(limit) && limit >= min && limit <= OVERAGE_LIMIT_MAX;
  if (allowed === undefined) {
    problems.push(`allowed is required: ${form}`);
  } else if (typeof allowed !== 'boolean') {
    problems.push('allowed must be true or false (a JSON boolean)');
  }
  if (allowed === true && limit === undefined) {
    problems.push(`monthly_limit is required when allowed is true: a whole number of units a month from 1 to ${OVERAGE_LIMIT_MAX}, all kinds together`);
  } else if (allowed === true && !wholeIn(1)) {
    problems.push(
      `monthly_limit must be a whole number from 1 to ${OVERAGE_LIMIT_MAX} when allowed is true (units a month, all kinds together); to turn overage off send {"allowed": false}`,
    );
  } else if (allowed === false && limit !== undefined && limit !== 0) {
    problems.push('monthly_limit must be absent or 0 when allowed is false');
  } else if (typeof allowed !== 'boolean' && limit !== undefined && !wholeIn(0)) {
    problems.push(`monthly_limit must be a whole number from 0 to ${OVERAGE_LIMIT_MAX}`);
  }
  if (problems.length > 0) return { problems };
  return { setting: allowed === true ? { allowed: true, limit: limit as number } : { allowed: false, limit: 0 } };
}

/** The 404 of a session whose account has no row (cannot happen: creating a session creates its account's row). */
function noAccount(): HttpError {
  return new HttpError(404, 'not_found', "The session's account does not exist in this sandbox's data directory.");
}

/** The account's `AccountResponse`. @throws HttpError 404 when it has no row; the state store's error. */
function accountOf(deps: ServerDeps, accountId: string): AccountResponse {
  const account = deps.state.accountResponse(accountId);
  if (!account) throw noAccount();
  return account;
}

/**
 * `GET /v1/account` (session): HTTP 200 `AccountResponse` of the session's account: `{account_id, plan, overage:
 * {allowed, monthly_limit}, unit_prices: {currency, search, retrieval, answers}, created_at}` (see
 * `SandboxStore.accountResponse`).
 * @throws HttpError 404 when the account has no row; the state store's error (busy/full → 503).
 */
function handleAccount({ deps, accountId }: RouteContext): AccountResponse {
  return accountOf(deps, accountId);
}

/**
 * `PATCH /v1/account/overages` (session): stores the session's account's overage setting (see
 * {@link checkOverageUpdate} and `SandboxStore.setOverage`), which then decides whether a unit past a quota is counted
 * as overage or refused with 429 `monthly_quota_exceeded`.
 * @returns HTTP 200 the `AccountResponse` after the change.
 * @throws HttpError 400 `invalid_request` listing every problem of the body (prices among them: read-only), 413 for a
 *   body over 1 MiB, 404 when the account has no row; the state store's error (busy/full → 503).
 */
async function handleOverages({ body, deps, accountId }: RouteContext): Promise<AccountResponse> {
  const checked = checkOverageUpdate(await body());
  if (checked.problems) throw new HttpError(400, ERROR_CODES.invalidRequest, `${checked.problems.join('; ')}.`);
  if (!deps.state.setOverage(accountId, checked.setting)) throw noAccount();
  return accountOf(deps, accountId);
}

/** The account routes. */
export const ACCOUNT_ROUTES: readonly Route[] = [
  { method: 'GET', pattern: PATHS.account, auth: 'session', status: 200, handler: handleAccount },
  { method: 'PATCH', pattern: PATHS.accountOverages, auth: 'session', status: 200, handler: handleOverages },
];
