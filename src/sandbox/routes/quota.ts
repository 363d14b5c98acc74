/** The answer to a refused unit of quota (spec: Errors, `monthly_quota_exceeded`; Quota rules), shared by the routes. */
import { ERROR_CODES } from '../../contract/errors.js';
import { HttpError } from '../http/errors.js';
import type { Consumption } from '../state/store.js';

/**
 * 429 `monthly_quota_exceeded` for a refused consumption (`allowed: false`), its message naming the kind, its monthly
 * quota in units and the month, and why no overage was counted: overage is off for the account, or its overage limit
 * for the month is spent. E.g. `The monthly search quota of 2 units is used up for 2025-03, and overage is off for
 * this account. GET /v1/usage shows this month's consumption.`
 */
export function quotaExceeded(consumption: Consumption): HttpError {
  const { kind, quota, month, overage } = consumption;
  const why = overage.allowed
    ? `the account's overage limit of ${units(overage.limit)} for ${month} is spent (${overage.used} used)`
    : 'overage is off for this account';
  return new HttpError(
    429,
    ERROR_CODES.monthlyQuotaExceeded,
    `The monthly ${kind} quota of ${units(quota ?? 0)} is used up for ${month}, and ${why}. GET /v1/usage shows this month's consumption.`,
  );
}

/** `1 unit`, `2 units`. */
function units(n: number): string {
  return `${n} ${n === 1 ? 'unit' : 'units'}`;
}
