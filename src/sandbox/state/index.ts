/**
 * The sandbox's account state in `<data dir>/state.sqlite`: API keys (`keys.ts`), accounts with their plan and overage
 * setting (`accounts.ts`, `plans.ts`), monthly usage per account (`usage.ts`) and answer jobs (`answer-jobs.ts`), over
 * the database opened and migrated by `db.ts`.
 *
 * Single writer per process; several processes may open the same directory (WAL). During a request, a lock held by
 * another process makes a write fail after {@link BUSY_TIMEOUT_MS} with SQLITE_BUSY, which the HTTP server answers
 * with 503 `service_unavailable` (see `http/errors.ts`). Opening, issuing a key and deleting keys are start-up and
 * shutdown steps: they wait up to {@link STARTUP_BUSY_TIMEOUT_MS} instead (see `patiently` in `db.ts`).
 */
import os from 'node:os';
import type { DatabaseSync } from 'node:sqlite';
import type { QuotaKind, UsageResponse } from '../../api/types.js';
import { AccountStore, type Account, type OverageSetting } from './accounts.js';
import { AnswerJobStore, type AnswerJobRecord, type NewAnswerJob } from './answer-jobs.js';
import { BUSY_TIMEOUT_MS, immediateTransaction, openStateDatabase, patiently, STARTUP_BUSY_TIMEOUT_MS } from './db.js';
import { DEFAULT_ACCOUNT_ID, KeyStore, type IssuedKey, type IssueKeyOptions, type KeyCheck, type KeyOwner } from './keys.js';
import type { PlanQuotas, Quotas } from './plans.js';
import { UsageStore, type Consumption } from './usage.js';

export {
  DEFAULT_ACCOUNT_ID,
  EPHEMERAL_KEY_MAX_AGE_MS,
  SANDBOX_KEY_PREFIX,
  sha256,
  type IssuedKey,
  type IssueKeyOptions,
  type KeyCheck,
  type KeyOwner,
} from './keys.js';
export { usagePeriod, type Consumption, type UsagePeriod } from './usage.js';
export { DEFAULT_PLAN, PLANS, effectiveQuotas, type PlanQuotas, type Quota, type Quotas } from './plans.js';
export { normalizeOverage, type Account, type OverageSetting } from './accounts.js';
export { UNFINISHED_STATUSES, type AnswerJobRecord, type NewAnswerJob } from './answer-jobs.js';
export { BUSY_TIMEOUT_MS, STARTUP_BUSY_TIMEOUT_MS };

/** Options of {@link SandboxState.open}. */
export interface OpenStateOptions {
  /** Clock of key and account times and of the usage month; default the system clock. */
  now?: () => Date;
  /**
   * This handle's quotas per kind, in units per month (`null`: unlimited), replacing the plan's for every account;
   * kinds left out keep the plan's (see `plans.ts`). Default `{}`: the plan's.
   */
  quotas?: Quotas;
  /** The process recorded as owner of the ephemeral keys this handle issues; default this process and host. */
  owner?: KeyOwner;
  /** Whether a process of this host runs (for removing stale ephemeral keys); default a signal-0 check. */
  isRunning?: (pid: number) => boolean;
}

/** What {@link SandboxState.createAnswerJob} did. */
export type AnswerJobCreation =
  | { created: true; job: AnswerJobRecord; consumption: Consumption }
  | { created: false; consumption: Consumption };

/** The sandbox's keys, accounts, usage and answer jobs. */
export class SandboxState {
  readonly #db: DatabaseSync;
  readonly #now: () => Date;
  readonly #keys: KeyStore;
  readonly #accounts: AccountStore;
  readonly #usage: UsageStore;
  readonly #jobs: AnswerJobStore;

  private constructor(db: DatabaseSync, options: OpenStateOptions) {
    const now = options.now ?? (() => new Date());
    this.#db = db;
    this.#now = now;
    this.#keys = new KeyStore(db, now, options.owner ?? { pid: process.pid, host: os.hostname() }, options.isRunning);
    this.#accounts = new AccountStore(db);
    this.#usage = new UsageStore(db, now, options.quotas ?? {}, this.#accounts);
    this.#jobs = new AnswerJobStore(db);
  }

  /**
   * Opens (creating when needed, 0700 directory, 0600 files) and migrates `<dataDir>/state.sqlite`, waiting up to
   * {@link STARTUP_BUSY_TIMEOUT_MS} for other processes' locks.
   * @throws the file-system or SQLite error when it cannot be created, opened or migrated.
   */
  static open(dataDir: string, options: OpenStateOptions = {}): SandboxState {
    return new SandboxState(openStateDatabase(dataDir), options);
  }

  /**
   * Issues a new active key (see `KeyStore.issue`), waiting up to {@link STARTUP_BUSY_TIMEOUT_MS} for the write lock.
   * The key belongs to `options.account` (default `acct_sandbox`, see `DEFAULT_ACCOUNT_ID`), whose row in `accounts`
   * is created in the same transaction when it has none (plan `sandbox`, overage off). An `ephemeral` key
   * records this process as its owner and is removed by {@link deleteEphemeralKey}, or, if this process dies first, by
   * {@link deleteStaleEphemeralKeys} in a later start.
   * @throws the SQLite error of the insert.
   */
  issueKey(name: string, options: IssueKeyOptions = {}): IssuedKey {
    return patiently(this.#db, () =>
      immediateTransaction(this.#db, () => {
        this.#accounts.ensure(options.account ?? DEFAULT_ACCOUNT_ID, this.#now().toISOString());
        return this.#keys.issue(name, options);
      }),
    );
  }

  /**
   * Checks a presented key (spec: Authentication, rule 3; see `KeyStore.authenticate`): an accepted key comes with its
   * `key_id` and the `account_id` it belongs to.
   */
  authenticate(apiKey: string): KeyCheck {
    return this.#keys.authenticate(apiKey);
  }

  /** Revokes a key at once; false when no active key has this `key_id`. */
  revokeKey(keyId: string): boolean {
    return this.#keys.revoke(keyId);
  }

  /**
   * Deletes one ephemeral key by `key_id`: a one-command sandbox (`pravo search --sandbox`) deletes its own key when it
   * stops, and only that one, since other runs may be using the same data directory. Waits up to
   * {@link STARTUP_BUSY_TIMEOUT_MS} for the write lock. Returns false when there was no such ephemeral key.
   * @throws the SQLite error of the delete.
   */
  deleteEphemeralKey(keyId: string): boolean {
    return patiently(this.#db, () => this.#keys.deleteEphemeral(keyId));
  }

  /**
   * Deletes the ephemeral keys of runs that ended without deleting their own (see `KeyStore.deleteStale`: the owner is
   * a dead process of this host, or the key is older than 24 hours). Waits up to {@link STARTUP_BUSY_TIMEOUT_MS}.
   * Returns the number deleted.
   * @throws the SQLite error of the read or delete.
   */
  deleteStaleEphemeralKeys(): number {
    return patiently(this.#db, () => this.#keys.deleteStale());
  }

  /**
   * The account (spec: "the account holds whether extra consumption (overage) is allowed and a monthly limit for
   * it"): `{account_id, plan, overage: {allowed, limit}, created_at}`; undefined when it has no row.
   * @throws the SQLite error of the read.
   */
  account(accountId: string): Account | undefined {
    return this.#accounts.get(accountId);
  }

  /**
   * Stores the account's overage setting (spec: Quota rules 4; `PATCH /v1/account/overages` builds on it): allowed or
   * not, and its monthly limit in units, every kind together (see `UsageStore` for how overage is counted). Not
   * allowed stores limit 0. A request-time write (waits {@link BUSY_TIMEOUT_MS}); with `startUp`, a start-up step that
   * waits up to {@link STARTUP_BUSY_TIMEOUT_MS} (`pravo sandbox serve --overage`).
   * @returns the account as stored now; undefined when it has no row (nothing is stored).
   * @throws RangeError when `limit` is not a whole number from 0 to `Number.MAX_SAFE_INTEGER`; the SQLite error.
   */
  setOverage(accountId: string, setting: OverageSetting, options: { startUp?: boolean } = {}): Account | undefined {
    const write = (): Account | undefined =>
      immediateTransaction(this.#db, () => (this.#accounts.setOverage(accountId, setting) ? this.#accounts.get(accountId) : undefined));
    return options.startUp ? patiently(this.#db, write) : write();
  }

  /**
   * The monthly quotas `accountId` counts against in this process, every kind, in units (`null`: unlimited): its
   * plan's, with this handle's `quotas` overrides (see `plans.ts`).
   * @throws the SQLite error of the read.
   */
  quotas(accountId: string): PlanQuotas {
    return this.#usage.quotas(accountId);
  }

  /**
   * Consumes one unit of `kind` for `accountId` in the current month, in one transaction: within the quota, or beyond
   * it as overage when the account allows it and its overage limit is not spent, else refused with nothing counted
   * (spec: Quota rules; see `UsageStore.consume`).
   * @throws the SQLite error (busy after {@link BUSY_TIMEOUT_MS}, full); nothing is consumed then.
   */
  consume(accountId: string, kind: QuotaKind): Consumption {
    return this.#usage.consume(accountId, kind);
  }

  /**
   * What {@link consume} would do now, consuming nothing (see `UsageStore.preview`): the consumption it would be,
   * with the counts as they are.
   * @throws the SQLite error of the read.
   */
  preview(accountId: string, kind: QuotaKind): Consumption {
    return this.#usage.preview(accountId, kind);
  }

  /**
   * Whether one more unit of `kind` could be consumed now by `accountId` (within quota, or as overage), consuming
   * nothing: for a request that previews a consuming one (`HEAD` on `GET /v1/documents`).
   * @throws the SQLite error of the read.
   */
  allows(accountId: string, kind: QuotaKind): boolean {
    return this.#usage.preview(accountId, kind).allowed;
  }

  /**
   * Gives back one unit of `kind` to `accountId`'s `month` (`YYYY-MM`, UTC; default the current month), never below
   * zero; true when a unit was given back (see `UsageStore.release`).
   * @throws the SQLite error of the update.
   */
  release(accountId: string, kind: QuotaKind, month?: string): boolean {
    return this.#usage.release(accountId, kind, month);
  }

  /**
   * Units of `kind` used by `accountId` in `month` (`YYYY-MM`, UTC; default the current month), overage included.
   * @throws the SQLite error of the read.
   */
  used(accountId: string, kind: QuotaKind, month?: string): number {
    return this.#usage.used(accountId, kind, month);
  }

  /**
   * The body of `GET /v1/usage` for `accountId` (spec: GET /v1/usage; `UsageResponse`, README "Sandbox: usage"): the
   * current calendar month (UTC) of the state's clock, the plan, each kind's `used`/`limit`/`remaining`/
   * `overage_used` and the overage setting with its use (see `UsageStore.report`).
   * @throws the SQLite error of the reads.
   */
  usage(accountId: string): UsageResponse {
    return this.#usage.report(accountId);
  }

  /**
   * Creates an answer job (spec: POST /v1/answers; Quota rules 2): in one transaction, consumes one `answers` unit of
   * the current month for the job's `account_id` (see {@link consume}) and inserts the job `queued` with that month;
   * when refused, nothing is consumed or inserted (`created: false`, the server answers `monthly_quota_exceeded`).
   * @param job the new job without its usage month (that of the consumption).
   * @throws the SQLite error (busy after {@link BUSY_TIMEOUT_MS}, full, a duplicate `job_id`); nothing is consumed or
   *   inserted then.
   */
  createAnswerJob(job: Omit<NewAnswerJob, 'usage_month'>): AnswerJobCreation {
    let inserted: NewAnswerJob | undefined;
    const consumption = this.#usage.consume(job.account_id, 'answers', ({ month }) => {
      inserted = { ...job, usage_month: month };
      this.#jobs.insert(inserted);
    });
    if (!consumption.allowed || !inserted) return { created: false, consumption };
    return { created: true, job: this.#jobs.get(job.job_id)!, consumption };
  }

  /** The answer job with this id, of any account; undefined when there is none. @throws the SQLite error of the read. */
  answerJob(jobId: string): AnswerJobRecord | undefined {
    return this.#jobs.get(jobId);
  }

  /**
   * `queued` → `running` at `at`; false when the job is no longer `queued` (see `AnswerJobStore.markRunning`).
   * @throws the SQLite error of the update.
   */
  markAnswerJobRunning(jobId: string, at: Date): boolean {
    return this.#jobs.markRunning(jobId, at.toISOString());
  }

  /**
   * `queued` or `running` → `succeeded` with the answer and its sources at `at`; false when the job is already final
   * (it then stays as it is; its unit, if given back, stays given back). See `AnswerJobStore.succeed`.
   * @throws the SQLite error of the update.
   */
  succeedAnswerJob(jobId: string, outcome: Parameters<AnswerJobStore['succeed']>[1], at: Date): boolean {
    return this.#jobs.succeed(jobId, outcome, at.toISOString());
  }

  /**
   * `queued` or `running` → `failed` with `failure.code` and `failure.message` at `at`, and, in the same transaction,
   * its `answers` unit given back to its account's month it was consumed in (spec: States and transitions: a failed job consumes
   * no unit, a timed-out job has its unit restored). With `createdAtOrBefore`, only a job created then or earlier (the
   * 15-minute rule). Conditional on the stored status and the unit's flag, so among any number of processes and calls
   * a job is failed, and its unit given back, at most once.
   * @returns true when the job was failed now; false when it is unknown, already final, or younger than the bound.
   * @throws the SQLite error (busy after {@link BUSY_TIMEOUT_MS}, full); nothing changes then.
   */
  failAnswerJob(jobId: string, failure: { code: string; message: string }, at: Date, createdAtOrBefore?: Date): boolean {
    return immediateTransaction(this.#db, () => {
      const failed = this.#jobs.fail(jobId, failure, at.toISOString(), createdAtOrBefore?.toISOString());
      if (failed === undefined) return false;
      this.#usage.release(failed.account_id, 'answers', failed.usage_month);
      return true;
    });
  }

  /** Closes the database. Safe to call twice. */
  close(): void {
    if (this.#db.isOpen) this.#db.close();
  }
}
