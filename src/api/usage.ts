/**
 * Tolerant reading of `GET /v1/usage` (spec: GET /v1/usage; Quota rules). The spec leaves the usage record's fields
 * "not shown"; the sandbox's names are those of {@link UsageResponse} in `types.ts`. This module reads those first and
 * accepts what a live service might send instead, so that `pravo usage` and `pravo batch`'s pre-flight work against
 * either. Pure functions; never throws for an object. Strings come back raw (unsanitized): whoever prints them
 * sanitizes them (`src/shared/sanitize.ts`).
 *
 * What is read, in order of preference (all counts in quota units):
 *
 * | fact | read from |
 * |---|---|
 * | kinds | `quotas` (an object keyed by kind, or an array of records with `kind` or `name`); when `quotas` is neither, every top-level object holding a count field (`used`, `limit`, `quota`, `remaining`, `overage_used`) other than `period` and `overage` |
 * | kind names | the {@link QUOTA_KINDS} as given; `searches` → `search`; `documents`, `retrievals` → `retrieval`; `answer` → `answers`. When a name and its alias both appear, the first in that order wins. Other names are kept as sent |
 * | `used` | `used`, else `consumed` |
 * | `limit` | `limit`, else `quota`: a number, or null for unlimited |
 * | `remaining` | `remaining` (a number, or null for unlimited); when absent, `max(0, limit − used)`, or null when `limit` is null |
 * | `overageUsed` | `overage_used` |
 * | period | `period.start`, `period.end` (exclusive), `period.month`; `period` may also be a `YYYY-MM` string (the month) |
 * | plan | `plan` (a string, or an object with `name` or `id`) |
 * | overage | `overage` (else `overages`): `allowed` (else `enabled`), `limit` (else `monthly_limit`), `used` |
 *
 * A count that is not a finite number ≥ 0 (a string, a negative number, NaN) is treated as not reported.
 */
import { QUOTA_KINDS, type QuotaKind, type UsageResponse } from '../contract/types.js';

/**
 * One quota kind's consumption in the period, in quota units of that kind.
 * `limit` and `remaining`: a number; null when unlimited; undefined when the server did not report it.
 */
export interface KindUsage {
  /** A {@link QuotaKind} (`search`, `retrieval`, `answers`) for the contract's kinds; otherwise the name as sent. */
  kind: string;
  /** Units consumed in the period, overage included; undefined when not reported. */
  used: number | undefined;
  /** The monthly quota; null = unlimited, undefined = not reported. */
  limit: number | null | undefined;
  /** Units left within the quota (overage not included); null = unlimited, undefined = not reported nor computable. */
  remaining: number | null | undefined;
  /** Units of this kind consumed beyond its quota; undefined when not reported. */
  overageUsed: number | undefined;
}

/**
 * What `GET /v1/usage` says, read tolerantly ({@link readUsage}). Every field may be missing.
 * - `period`: the counted period as the server sent it: `start` inclusive and `end` exclusive (ISO 8601, UTC), `month`
 *   `YYYY-MM`; raw strings.
 * - `plan`: the account's plan, raw.
 * - `kinds`: the contract's kinds in {@link QUOTA_KINDS} order (only those reported), then any other kinds in the order
 *   the server sent them.
 * - `overage`: whether consumption beyond a quota is allowed, its monthly limit and the units used, every kind
 *   together, in quota units.
 */
export interface UsageFacts {
  period: { start?: string; end?: string; month?: string };
  plan?: string;
  kinds: KindUsage[];
  overage: { allowed?: boolean; limit?: number; used?: number };
}

/** Other names a service may give a kind, each mapped to the contract's (the contract's own name is looked up first). */
const KIND_ALIASES: Readonly<Record<QuotaKind, readonly string[]>> = {
  search: ['searches'],
  retrieval: ['documents', 'retrievals'],
  answers: ['answer'],
};

/** The fields whose presence marks a top-level object as a kind's record (when there is no `quotas`). */
const COUNT_FIELDS = ['used', 'consumed', 'limit', 'quota', 'remaining', 'overage_used'] as const;

/** Top-level members that are never kinds. */
const NOT_KINDS = new Set(['period', 'overage', 'overages', 'plan', 'quotas']);

type Fields = Record<string, unknown>;

const isObject = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A count: a finite number ≥ 0; anything else is not reported. */
const count = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined);

/** The first of `keys` holding a count. */
function countOf(record: Fields, keys: readonly string[]): number | undefined {
  for (const key of keys) {
    const value = count(record[key]);
    if (value !== undefined) return value;
  }
  return undefined;
}

/** The first of `keys` holding a count or null (unlimited); undefined when none does. */
function countOrUnlimited(record: Fields, keys: readonly string[]): number | null | undefined {
  for (const key of keys) {
    if (record[key] === null) return null;
    const value = count(record[key]);
    if (value !== undefined) return value;
  }
  return undefined;
}

/** The first of `keys` holding a non-empty string. */
function stringOf(record: Fields, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const value = record[key];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return undefined;
}

/** One kind's record read into a {@link KindUsage}. */
function kindOf(kind: string, record: Fields): KindUsage {
  const used = countOf(record, ['used', 'consumed']);
  const limit = countOrUnlimited(record, ['limit', 'quota']);
  let remaining = countOrUnlimited(record, ['remaining']);
  if (remaining === undefined) {
    if (limit === null) remaining = null;
    else if (limit !== undefined && used !== undefined) remaining = Math.max(0, limit - used);
  }
  return { kind, used, limit, remaining, overageUsed: countOf(record, ['overage_used']) };
}

/** The kinds' records as sent, by name in the order sent: from `quotas` (object or array), else from the top level. */
function kindRecords(body: Fields): Array<[string, Fields]> {
  const quotas = body.quotas;
  if (Array.isArray(quotas)) {
    return quotas.flatMap((entry): Array<[string, Fields]> => {
      if (!isObject(entry)) return [];
      const name = stringOf(entry, ['kind', 'name']);
      return name === undefined ? [] : [[name, entry]];
    });
  }
  if (isObject(quotas)) return Object.entries(quotas).filter((e): e is [string, Fields] => isObject(e[1]));
  return Object.entries(body).filter(
    (e): e is [string, Fields] => !NOT_KINDS.has(e[0]) && isObject(e[1]) && COUNT_FIELDS.some((field) => field in (e[1] as Fields)),
  );
}

/** Every kind: the contract's in {@link QUOTA_KINDS} order (own name, then aliases), then the others as sent. */
function readKinds(body: Fields): KindUsage[] {
  const records = kindRecords(body);
  const byName = new Map<string, Fields>();
  for (const [name, record] of records) if (!byName.has(name)) byName.set(name, record);
  const claimed = new Set<string>();
  const kinds: KindUsage[] = [];
  for (const kind of QUOTA_KINDS) {
    const names = [kind, ...KIND_ALIASES[kind]];
    const found = names.find((name) => byName.has(name));
    if (found === undefined) continue;
    for (const name of names) claimed.add(name);
    kinds.push(kindOf(kind, byName.get(found)!));
  }
  for (const [name, record] of byName) if (!claimed.has(name)) kinds.push(kindOf(name, record));
  return kinds;
}

/** The period: `period.start`, `.end`, `.month`; a `YYYY-MM` string in `period` is the month. */
function readPeriod(body: Fields): UsageFacts['period'] {
  const period = body.period;
  if (typeof period === 'string') return /^\d{4}-\d{2}$/.test(period.trim()) ? { month: period.trim() } : {};
  if (!isObject(period)) return {};
  const read: UsageFacts['period'] = {};
  const start = stringOf(period, ['start']);
  const end = stringOf(period, ['end']);
  const month = stringOf(period, ['month']);
  if (start !== undefined) read.start = start;
  if (end !== undefined) read.end = end;
  if (month !== undefined) read.month = month;
  return read;
}

/** The overage: `overage` (else `overages`) with `allowed` (else `enabled`), `limit` (else `monthly_limit`), `used`. */
function readOverage(body: Fields): UsageFacts['overage'] {
  const overage = isObject(body.overage) ? body.overage : isObject(body.overages) ? body.overages : undefined;
  if (overage === undefined) return {};
  const read: UsageFacts['overage'] = {};
  const allowed = typeof overage.allowed === 'boolean' ? overage.allowed : typeof overage.enabled === 'boolean' ? overage.enabled : undefined;
  const limit = countOf(overage, ['limit', 'monthly_limit']);
  const used = countOf(overage, ['used']);
  if (allowed !== undefined) read.allowed = allowed;
  if (limit !== undefined) read.limit = limit;
  if (used !== undefined) read.used = used;
  return read;
}

/**
 * Reads a `GET /v1/usage` body (spec: GET /v1/usage; the sandbox's shape is {@link UsageResponse}) tolerantly: see
 * the table at the top of this module. Kinds come in {@link QUOTA_KINDS} order (only those reported), then any other
 * kinds in the order sent. Counts are quota units. Never throws for an object; unreadable parts are left out.
 */
export function readUsage(body: Record<string, unknown>): UsageFacts {
  const plan = isObject(body.plan) ? stringOf(body.plan, ['name', 'id']) : stringOf(body, ['plan']);
  return {
    period: readPeriod(body),
    ...(plan !== undefined ? { plan } : {}),
    kinds: readKinds(body),
    overage: readOverage(body),
  };
}

/** The consumption of one of the contract's kinds (spec: Quota rules), or undefined when the server did not report it. */
export function kindUsage(facts: UsageFacts, kind: QuotaKind): KindUsage | undefined {
  return facts.kinds.find((k) => k.kind === kind);
}
