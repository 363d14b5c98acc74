/**
 * Monthly usage per account in `state.sqlite` (spec: Quota rules; GET /v1/usage): units consumed per account, calendar
 * month (UTC) and quota kind (`account_usage`), against the account's monthly quotas (its plan's, or the process's
 * overrides: see `plans.ts`) and, beyond them, its overage setting (`accounts.ts`).
 *
 * Overage: once a kind's quota is used up, a unit is still counted when the account allows overage and its overage
 * used this month, `sum over kinds of max(0, used_k - quota_k)` (unlimited kinds add 0), is below its overage limit.
 * It is derived from the counts, not stored, so a released unit gives back overage too.
 *
 * Every decision to count is taken and written in one `BEGIN IMMEDIATE` transaction (see `immediateTransaction`), so
 * counts are exact across any number of processes sharing the data directory: a unit is never counted past a quota or
 * the overage limit because two processes read the same count.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { QUOTA_KINDS, type QuotaKind, type QuotaUsage, type UsageResponse } from '../../contract/types.js';
import { OVERAGE_OFF, type Account, type AccountStore, type OverageSetting } from './accounts.js';
import { immediateTransaction, readTransaction } from './db.js';
import { DEFAULT_PLAN, effectiveQuotas, type PlanQuotas, type Quota, type Quotas } from './plans.js';

/** The billing period of `GET /v1/usage`: a calendar month in UTC. */
export interface UsagePeriod {
  /** First instant of the month, ISO 8601 UTC with milliseconds (`2026-11-01T00:00:00.000Z`); inclusive. */
  start: string;
  /** First instant of the next month, same form; exclusive. December's end is the next year's January 1st. */
  end: string;
  /** `YYYY-MM`. */
  month: string;
}

/** The calendar month (UTC) that contains `at`, as {@link UsagePeriod}. */
export function usagePeriod(at: Date): UsagePeriod {
  const year = at.getUTCFullYear();
  const month = at.getUTCMonth();
  const start = new Date(Date.UTC(year, month, 1));
  const end = new Date(Date.UTC(year, month + 1, 1));
  return { start: start.toISOString(), end: end.toISOString(), month: start.toISOString().slice(0, 7) };
}

/** The month `YYYY-MM` (UTC) of `at`. */
export function usageMonth(at: Date): string {
  return at.toISOString().slice(0, 7);
}

/**
 * Result of consuming (or previewing) one unit of a kind for an account in a month.
 * Refused (`allowed: false`): the kind's quota is used up and overage is off, or its limit is spent; nothing counted.
 */
export interface Consumption {
  /** Whether the unit is counted (false: refused, nothing counted; the server answers `monthly_quota_exceeded`). */
  allowed: boolean;
  kind: QuotaKind;
  /** Units of `kind` used in `month`, overage included, after this call. */
  used: number;
  /** The month's quota of `kind` in units; `null` when unlimited. */
  quota: Quota;
  /** The month counted, `YYYY-MM` (UTC). */
  month: string;
  /** Whether this unit is counted beyond the quota, against the overage limit (false when refused or within quota). */
  beyondQuota: boolean;
  /** The account's overage setting, and its overage units used in `month` (every kind together) after this call. */
  overage: OverageSetting & { used: number };
}

/** The `account_usage` table and the quota decisions on it. Transactions: see each method. */
export class UsageStore {
  readonly #db: DatabaseSync;
  readonly #now: () => Date;
  readonly #overrides: Quotas;
  readonly #accounts: AccountStore;
  readonly #rows: StatementSync;
  readonly #count: StatementSync;
  readonly #release: StatementSync;

  /**
   * @param now clock deciding the month.
   * @param overrides this process's quotas per kind, replacing the plan's (see `plans.ts`); `{}`: the plan's.
   * @param accounts the accounts' plans and overage settings.
   */
  constructor(db: DatabaseSync, now: () => Date, overrides: Quotas, accounts: AccountStore) {
    this.#db = db;
    this.#now = now;
    this.#overrides = { ...overrides };
    this.#accounts = accounts;
    this.#rows = db.prepare('SELECT kind, used FROM account_usage WHERE account_id = ? AND month = ?');
    this.#count = db.prepare(
      `INSERT INTO account_usage (account_id, month, kind, used) VALUES (?, ?, ?, 1)
       ON CONFLICT (account_id, month, kind) DO UPDATE SET used = used + 1`,
    );
    this.#release = db.prepare('UPDATE account_usage SET used = used - 1 WHERE account_id = ? AND month = ? AND kind = ? AND used > 0');
  }

  /** The current month `YYYY-MM` (UTC) of the clock. */
  month(): string {
    return usageMonth(this.#now());
  }

  /**
   * The account as consumption sees it: its row, or, for an account without one (none: every key's account has a
   * row), plan {@link DEFAULT_PLAN} with overage off.
   */
  #account(accountId: string): Pick<Account, 'plan' | 'overage'> {
    return this.#accounts.get(accountId) ?? { plan: DEFAULT_PLAN, overage: { ...OVERAGE_OFF } };
  }

  /** The quotas `accountId` counts against in this process (its plan's, with this process's overrides). */
  quotas(accountId: string): PlanQuotas {
    return effectiveQuotas(this.#account(accountId).plan, this.#overrides);
  }

  /** Units used per kind by `accountId` in `month` (0 for kinds without a row). */
  #usedByKind(accountId: string, month: string): Record<QuotaKind, number> {
    const used = Object.fromEntries(QUOTA_KINDS.map((kind) => [kind, 0])) as Record<QuotaKind, number>;
    for (const row of this.#rows.all(accountId, month) as { kind: string; used: number }[]) {
      if ((QUOTA_KINDS as readonly string[]).includes(row.kind)) used[row.kind as QuotaKind] = row.used;
    }
    return used;
  }

  /** What consuming one unit of `kind` would do now, read without a transaction of its own (the caller's). */
  #decide(accountId: string, kind: QuotaKind, month: string): Consumption {
    const account = this.#account(accountId);
    const quotas = effectiveQuotas(account.plan, this.#overrides);
    const used = this.#usedByKind(accountId, month);
    const overageUsed = overageOf(used, quotas);
    const quota = quotas[kind];
    const base = { kind, used: used[kind], quota, month, overage: { ...account.overage, used: overageUsed } };
    if (quota === null || used[kind] < quota) return { ...base, allowed: true, beyondQuota: false };
    if (account.overage.allowed && overageUsed < account.overage.limit) return { ...base, allowed: true, beyondQuota: true };
    return { ...base, allowed: false, beyondQuota: false };
  }

  /**
   * Consumes one unit of `kind` for `accountId` in the current month, in one `BEGIN IMMEDIATE` transaction: counted
   * when within the quota (or unlimited); else counted as overage when the account allows overage and its overage used
   * this month is below its limit; else refused, nothing counted (`allowed: false`; the server answers 429
   * `monthly_quota_exceeded`).
   * @param andThen run inside the same transaction once the unit is counted (not when refused), with the
   *   consumption: what is recorded with the unit (an answer job) is then committed together with it, or not at all.
   * @returns the consumption, its counts after this call.
   * @throws the SQLite error, e.g. SQLITE_BUSY after the busy timeout when another process holds the write lock, or
   *   SQLITE_FULL; whatever `andThen` throws. Nothing is consumed then.
   */
  consume(accountId: string, kind: QuotaKind, andThen?: (consumption: Consumption) => void): Consumption {
    const month = this.month();
    return immediateTransaction(this.#db, () => {
      const decision = this.#decide(accountId, kind, month);
      if (!decision.allowed) return decision;
      this.#count.run(accountId, month, kind);
      const consumption: Consumption = {
        ...decision,
        used: decision.used + 1,
        overage: { ...decision.overage, used: decision.overage.used + (decision.beyondQuota ? 1 : 0) },
      };
      andThen?.(consumption);
      return consumption;
    });
  }

  /**
   * What {@link consume} would do now, consuming nothing (counts as they are): for a request that previews a
   * consuming one (`HEAD` on `GET /v1/documents`). Read in one read transaction (a consistent snapshot).
   * @throws the SQLite error of the read.
   */
  preview(accountId: string, kind: QuotaKind): Consumption {
    const month = this.month();
    return readTransaction(this.#db, () => this.#decide(accountId, kind, month));
  }

  /**
   * Gives back one unit of `kind` (never below zero) to `accountId`'s `month` (`YYYY-MM`, UTC; default the current
   * month): for a request rejected after its unit was consumed, and for the spec's restored units (a timed-out or
   * failed answer job gives its unit back to the month it was consumed in, even when that month is over). A unit
   * counted as overage gives its overage back the same way (overage is derived from the counts).
   * @returns whether a unit was given back (false when that count was already 0).
   * @throws the SQLite error of the update.
   */
  release(accountId: string, kind: QuotaKind, month: string = this.month()): boolean {
    return Number(this.#release.run(accountId, month, kind).changes) > 0;
  }

  /** Units of `kind` used by `accountId` in `month` (`YYYY-MM`, UTC; default the current month), overage included. */
  used(accountId: string, kind: QuotaKind, month: string = this.month()): number {
    return this.#usedByKind(accountId, month)[kind];
  }

  /**
   * The body of `GET /v1/usage` for `accountId` (see `UsageResponse` in `src/contract/types.ts`, docs/sandbox.md,
   * "Sandbox: usage"): the current month of the clock as `period`, the account's plan, per kind `used`, `limit` (null =
   * unlimited), `remaining` (`max(0, limit - used)`, null = unlimited) and `overage_used` (`max(0, used - limit)`, 0
   * when unlimited), and the overage setting with its units used this month. Quotas are this process's. Read in one
   * read transaction (a consistent snapshot).
   * @throws the SQLite error of the reads.
   */
  report(accountId: string): UsageResponse {
    const period = usagePeriod(this.#now());
    return readTransaction(this.#db, () => {
      const account = this.#account(accountId);
      const quotas = effectiveQuotas(account.plan, this.#overrides);
      const used = this.#usedByKind(accountId, period.month);
      const perKind = {} as Record<QuotaKind, QuotaUsage>;
      for (const kind of QUOTA_KINDS) {
        const limit = quotas[kind];
        perKind[kind] = {
          used: used[kind],
          limit,
          remaining: limit === null ? null : Math.max(0, limit - used[kind]),
          overage_used: limit === null ? 0 : Math.max(0, used[kind] - limit),
        };
      }
      return {
        period,
        plan: account.plan,
        quotas: perKind,
        overage: { allowed: account.overage.allowed, limit: account.overage.limit, used: overageOf(used, quotas) },
      };
    });
  }
}

/** Overage units of a month: the sum over kinds of `max(0, used - quota)`, unlimited kinds adding 0. */
function overageOf(used: Readonly<Record<QuotaKind, number>>, quotas: PlanQuotas): number {
  let total = 0;
  for (const kind of QUOTA_KINDS) {
    const quota = quotas[kind];
    if (quota !== null) total += Math.max(0, used[kind] - quota);
  }
  return total;
}
