/**
 * The account (`pravo account`; spec: GET /v1/account): its plan, its overage setting and the unit prices the server
 * sets, from the facts `readAccount` (`src/api/account.ts`) reads. Pure; every string from the server is sanitized.
 *
 * TSV (no header; an unknown value is an empty field):
 *
 *     account     account_id
 *     plan        name
 *     overage     allowed (true/false)  monthly_limit
 *     unit_price  kind  price  currency          (one line per kind the server prices)
 *     created     created_at
 */
import type { AccountFacts } from '../api/account.js';
import type { View } from '../io/printer.js';
import { sanitizeLine } from '../shared/sanitize.js';
import { labelledLines, tsvLines } from './text.js';

/** `€0.02`, or `0.02 XYZ` when the currency is not one Intl knows; up to 4 decimals, at least 2. */
export function formatPrice(amount: number, currency: string | undefined): string {
  if (currency !== undefined && /^[A-Z]{3}$/.test(currency)) {
    try {
      return new Intl.NumberFormat('en', { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: 4 }).format(amount);
    } catch {
      // An unknown code: written out below.
    }
  }
  const number = amount.toLocaleString('en', { minimumFractionDigits: 2, maximumFractionDigits: 4, useGrouping: false });
  return currency === undefined ? number : `${number} ${sanitizeLine(currency)}`;
}

/** The overage setting in words: `allowed, up to 500 units a month (all kinds together)`, `not allowed`, `–`. */
export function describeOverage(overage: AccountFacts['overage']): string {
  if (overage.allowed === undefined) return '–';
  if (!overage.allowed) return 'not allowed: past a quota, requests fail with monthly_quota_exceeded';
  const limit = overage.monthlyLimit === undefined ? '' : `, up to ${overage.monthlyLimit} units a month beyond the quotas (all kinds together)`;
  return `allowed${limit}`;
}

/** The account as aligned lines of label and value, the values wrapped to `width` columns (default: not wrapped). */
export function renderAccountText(facts: AccountFacts, width = Infinity): string {
  const prices = Object.entries(facts.prices.perUnit);
  const priceText =
    prices.length === 0
      ? '–'
      : `${prices.map(([kind, price]) => `${sanitizeLine(kind)} ${formatPrice(price, facts.prices.currency)}`).join(', ')} per unit beyond the quota (set by the server)`;
  const rows: [string, string][] = [
    ['Account', sanitizeLine(facts.accountId ?? '–')],
    ['Plan', sanitizeLine(facts.plan ?? '–')],
    ['Overage', describeOverage(facts.overage)],
    ['Unit prices', priceText],
    ['Created', sanitizeLine(facts.createdAt ?? '–')],
  ];
  return `${labelledLines(rows, width).join('\n')}\n`;
}

/** The account piped: the TSV of the module's doc. */
export function renderAccountTsv(facts: AccountFacts): string {
  return tsvLines([
    ['account', facts.accountId],
    ['plan', facts.plan],
    ['overage', facts.overage.allowed, facts.overage.monthlyLimit],
    ...Object.entries(facts.prices.perUnit).map(([kind, price]) => ['unit_price', kind, price, facts.prices.currency]),
    ['created', facts.createdAt],
  ]);
}

/** The view of `pravo account` and of `pravo account overages`' result. */
export const accountView: View<AccountFacts> = {
  table: (facts, { width }) => renderAccountText(facts, width),
  tsv: renderAccountTsv,
};
