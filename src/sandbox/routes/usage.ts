/** `GET /v1/usage` (spec: GET /v1/usage; Quota rules; docs/sandbox.md, "Sandbox: usage"). */
import { PATHS } from '../../contract/paths.js';
import type { UsageResponse } from '../../contract/types.js';
import type { Route, RouteContext } from '../http/router.js';

/**
 * `GET /v1/usage` (no parameters; API key; consumes nothing): HTTP 200 with the `UsageResponse` of the key's account
 * (see `SandboxStore.usage`): `{period: {start, end, month}, plan, quotas: {search, retrieval, answers: {used, limit,
 * remaining, overage_used}}, overage: {allowed, limit, used}}`, the current calendar month (UTC) of the state's clock,
 * counts in units, `limit` and `remaining` null when unlimited. Other accounts' usage is never shown.
 * @throws the state store's error (busy/full → 503, see `http/errors.ts`).
 */
function handleUsage({ deps, accountId }: RouteContext): UsageResponse {
  return deps.state.usage(accountId);
}

/** The usage route. */
export const USAGE_ROUTES: readonly Route[] = [
  { method: 'GET', pattern: PATHS.usage, auth: 'api-key', status: 200, handler: handleUsage },
];
