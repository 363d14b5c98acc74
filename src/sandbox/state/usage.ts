/**
 * Monthly usage in `state.sqlite` (spec: Quota rules): units consumed per calendar month (UTC) and kind, against the
 * account's monthly quota per kind.
 */
import type { DatabaseSync } from 'node:sqlite';
import { immediateTransaction } from './db.js';

/**
 * Quota-consuming operations (spec: Quota rules): `search`, `documents` (document retrieval, the spec's "retrieval
 * quota"), `answers`. The names are stored in the `usage` table.
 */
export type UsageKind = 'search' | 'documents' | 'answers';

/** Monthly quotas in units; `undefined` means unlimited. */
export type Quotas = Partial<Record<UsageKind, number>>;

/** Result of consuming one unit of quota. */
export interface Consumption {
  /** Whether the unit was consumed (false: quota reached, nothing consumed). */
  allowed: boolean;
  /** Units used this month, after this call. */
  used: number;
  /** The month's quota, `undefined` when unlimited. */
  quota: number | undefined;
  /** The month counted, `YYYY-MM` (UTC). */
  month: string;
}

/** The `usage` table. */
export class UsageStore {
  readonly #db: DatabaseSync;
  readonly #now: () => Date;
  readonly #quotas: Quotas;

  /** @param now clock deciding the month; @param quotas monthly quotas per kind. */
  constructor(db: DatabaseSync, now: () => Date, quotas: Quotas) {
    this.#db = db;
    this.#now = now;
    this.#quotas = quotas;
  }

  #month(): string {
    return this.#now().toISOString().slice(0, 7);
  }

  /**
   * Consumes one unit of the month's quota for `kind` when the quota allows it; when the quota is reached, consumes
   * nothing and returns `allowed: false` (the server then answers `monthly_quota_exceeded`).
   * @param andThen run inside the same transaction once the unit is counted (not when the quota is reached), with the
   *   consumption: what is recorded with the unit (an answer job) is then committed together with it, or not at all.
   * @throws the SQLite error, e.g. SQLITE_BUSY after the busy timeout when another process holds the write lock, or
   *   SQLITE_FULL; whatever `andThen` throws. Nothing is consumed then.
   */
  consume(kind: UsageKind, andThen?: (consumption: Consumption) => void): Consumption {
    const month = this.#month();
    const quota = this.#quotas[kind];
    return immediateTransaction(this.#db, () => {
      const row = this.#db.prepare('SELECT used FROM usage WHERE month = ? AND kind = ?').get(month, kind) as
        | { used: number }
        | undefined;
      const used = row?.used ?? 0;
      if (quota !== undefined && used >= quota) return { allowed: false, used, quota, month };
      this.#db
        .prepare(
          'INSERT INTO usage (month, kind, used) VALUES (?, ?, 1) ON CONFLICT (month, kind) DO UPDATE SET used = used + 1',
        )
        .run(month, kind);
      const consumption: Consumption = { allowed: true, used: used + 1, quota, month };
      andThen?.(consumption);
      return consumption;
    });
  }

  /**
   * Gives back one unit of `kind` (never below zero) to `month` (`YYYY-MM`, UTC; default the current month): for a
   * request rejected after its unit was consumed, and for the spec's restored units (a timed-out or failed answer job
   * gives its unit back to the month it was consumed in, even when that month is over).
   * @returns whether a unit was given back (false when that month's count was already 0).
   * @throws the SQLite error of the update.
   */
  release(kind: UsageKind, month: string = this.#month()): boolean {
    const result = this.#db.prepare('UPDATE usage SET used = used - 1 WHERE month = ? AND kind = ? AND used > 0').run(month, kind);
    return Number(result.changes) > 0;
  }

  /**
   * Whether one more unit of `kind` could be consumed now (the quota is unlimited or not yet reached), consuming
   * nothing: for a request that previews a consuming one (`HEAD` on `GET /v1/documents`).
   * @throws the SQLite error of the read.
   */
  allows(kind: UsageKind): boolean {
    const quota = this.#quotas[kind];
    return quota === undefined || this.used(kind) < quota;
  }

  /** The monthly quota of `kind` in units, `undefined` when unlimited. */
  quota(kind: UsageKind): number | undefined {
    return this.#quotas[kind];
  }

  /** Units of `kind` used in `month` (`YYYY-MM`, UTC; default the current month). @throws the SQLite error of the read. */
  used(kind: UsageKind, month: string = this.#month()): number {
    const row = this.#db.prepare('SELECT used FROM usage WHERE month = ? AND kind = ?').get(month, kind) as
      | { used: number }
      | undefined;
    return row?.used ?? 0;
  }
}
