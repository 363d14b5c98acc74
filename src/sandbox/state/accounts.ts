/**
 * Accounts in `state.sqlite` (schema version 4): one row of `accounts` per account, with its plan and its overage
 * setting (spec: "the account holds whether extra consumption (overage) is allowed and a monthly limit for it"; Quota
 * rules 4). Every key belongs to an account (`api_keys.account_id`); issuing a key for an account creates its row
 * (see `SandboxState.issueKey`), and migration 4 created the rows of every account known before, `acct_sandbox`
 * among them.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { DEFAULT_PLAN } from './plans.js';

/**
 * An account's overage setting (spec: Quota rules 4): whether consumption beyond a quota is allowed, and how many
 * units beyond the quotas it may consume per calendar month (UTC), every kind together. Not allowed ⇒ `limit` 0.
 */
export interface OverageSetting {
  allowed: boolean;
  /** Units per month, a whole number ≥ 0; 0 when not allowed. */
  limit: number;
}

/** An account as stored. */
export interface Account {
  account_id: string;
  /** The plan whose quotas apply (see `plans.ts`), e.g. `sandbox`. */
  plan: string;
  overage: OverageSetting;
  /** ISO 8601 UTC. */
  created_at: string;
}

/** The overage setting of an account that has none stored: not allowed. */
export const OVERAGE_OFF: Readonly<OverageSetting> = Object.freeze({ allowed: false, limit: 0 });

/** The row as SQLite returns it. */
interface AccountRow {
  account_id: string;
  plan: string;
  overage_allowed: number;
  overage_limit: number;
  created_at: string;
}

/**
 * Checks an overage setting: `limit` a whole number from 0 to `Number.MAX_SAFE_INTEGER`.
 * @returns the setting to store: `{allowed: false, limit: 0}` when not allowed, whatever limit was given.
 * @throws RangeError when `limit` is not such a number.
 */
export function normalizeOverage(setting: OverageSetting): OverageSetting {
  if (!Number.isSafeInteger(setting.limit) || setting.limit < 0) {
    throw new RangeError(`the overage limit must be a whole number of units from 0 to ${Number.MAX_SAFE_INTEGER}, not ${setting.limit}`);
  }
  return setting.allowed ? { allowed: true, limit: setting.limit } : { ...OVERAGE_OFF };
}

/** The `accounts` table. Statements only; transactions are the caller's (`SandboxState`). */
export class AccountStore {
  readonly #get: StatementSync;
  readonly #ensure: StatementSync;
  readonly #setOverage: StatementSync;

  constructor(db: DatabaseSync) {
    this.#get = db.prepare('SELECT account_id, plan, overage_allowed, overage_limit, created_at FROM accounts WHERE account_id = ?');
    this.#ensure = db.prepare('INSERT INTO accounts (account_id, plan, created_at) VALUES (?, ?, ?) ON CONFLICT (account_id) DO NOTHING');
    this.#setOverage = db.prepare('UPDATE accounts SET overage_allowed = ?, overage_limit = ? WHERE account_id = ?');
  }

  /** The account, or undefined when it has no row. @throws the SQLite error of the read. */
  get(accountId: string): Account | undefined {
    const row = this.#get.get(accountId) as AccountRow | undefined;
    return row && toAccount(row);
  }

  /**
   * Creates the account's row when it has none: plan {@link DEFAULT_PLAN}, overage off, `created_at` `at` (ISO).
   * An existing row is left as it is.
   * @throws the SQLite error of the insert.
   */
  ensure(accountId: string, at: string): void {
    this.#ensure.run(accountId, DEFAULT_PLAN, at);
  }

  /**
   * Stores the account's overage setting (see {@link normalizeOverage}).
   * @returns false when the account has no row (nothing is stored).
   * @throws RangeError for a bad limit; the SQLite error of the update.
   */
  setOverage(accountId: string, setting: OverageSetting): boolean {
    const { allowed, limit } = normalizeOverage(setting);
    return Number(this.#setOverage.run(allowed ? 1 : 0, limit, accountId).changes) > 0;
  }
}

function toAccount(row: AccountRow): Account {
  return {
    account_id: row.account_id,
    plan: row.plan,
    overage: { allowed: row.overage_allowed === 1, limit: row.overage_limit },
    created_at: row.created_at,
  };
}
