/**
 * Tolerant reading of `GET /v1/account` (spec: Key and account endpoints; "the account holds whether extra consumption
 * (overage) is allowed and a monthly limit for it"; "Unit prices are set by the server"). The sandbox's names are those
 * of {@link AccountResponse} in `types.ts`; what a live service might send instead is accepted too. Pure; never throws
 * for an object; strings come back raw (whoever prints them sanitizes them).
 *
 * | fact | read from |
 * |---|---|
 * | `accountId` | `account_id`, else `id` |
 * | `plan` | `plan` (a string, or an object with `name` or `id`) |
 * | overage | `overage` (else `overages`): `allowed` (else `enabled`), `monthly_limit` (else `limit`) |
 * | prices | `unit_prices` (else `prices`): `currency`, and each numeric member as a price per unit |
 * | `createdAt` | `created_at`, else `created` |
 */
import type { AccountResponse } from '../contract/types.js';

/** The account as read; every field may be missing. */
export interface AccountFacts {
  accountId?: string;
  plan?: string;
  overage: { allowed?: boolean; monthlyLimit?: number };
  /** Price of one unit beyond the quota, per kind as named by the server, in `currency`. */
  prices: { currency?: string; perUnit: Record<string, number> };
  createdAt?: string;
}

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const amount = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined);

/** The account read from `body` (see the module's table). */
export function readAccount(body: unknown): AccountFacts {
  const fields = isObject(body) ? body : {};
  const facts: AccountFacts = { overage: {}, prices: { perUnit: {} } };
  const accountId = text(fields.account_id) ?? text(fields.id);
  if (accountId !== undefined) facts.accountId = accountId;
  const plan = isObject(fields.plan) ? (text(fields.plan.name) ?? text(fields.plan.id)) : text(fields.plan);
  if (plan !== undefined) facts.plan = plan;
  const overage = isObject(fields.overage) ? fields.overage : isObject(fields.overages) ? fields.overages : {};
  const allowed = typeof overage.allowed === 'boolean' ? overage.allowed : typeof overage.enabled === 'boolean' ? overage.enabled : undefined;
  if (allowed !== undefined) facts.overage.allowed = allowed;
  const monthlyLimit = amount(overage.monthly_limit) ?? amount(overage.limit);
  if (monthlyLimit !== undefined) facts.overage.monthlyLimit = monthlyLimit;
  const prices = isObject(fields.unit_prices) ? fields.unit_prices : isObject(fields.prices) ? fields.prices : {};
  const currency = text(prices.currency);
  if (currency !== undefined) facts.prices.currency = currency;
  for (const [kind, value] of Object.entries(prices)) {
    const price = amount(value);
    if (price !== undefined) facts.prices.perUnit[kind] = price;
  }
  const createdAt = text(fields.created_at) ?? text(fields.created);
  if (createdAt !== undefined) facts.createdAt = createdAt;
  return facts;
}

/** The highest price per unit among the kinds, for "at most N units × price" in a confirmation; undefined when none. */
export function highestUnitPrice(facts: AccountFacts): number | undefined {
  const prices = Object.values(facts.prices.perUnit);
  return prices.length === 0 ? undefined : Math.max(...prices);
}

export type { AccountResponse };
