/**
 * The sandbox's account state in `<data dir>/state.sqlite`: API keys (`keys.ts`), monthly usage (`usage.ts`) and answer
 * jobs (`answer-jobs.ts`), over the database opened and migrated by `db.ts`.
 *
 * Single writer per process; several processes may open the same directory (WAL). During a request, a lock held by
 * another process makes a write fail after {@link BUSY_TIMEOUT_MS} with SQLITE_BUSY, which the HTTP server answers
 * with 503 `service_unavailable` (see `http/errors.ts`). Opening, issuing a key and deleting keys are start-up and
 * shutdown steps: they wait up to {@link STARTUP_BUSY_TIMEOUT_MS} instead (see `patiently` in `db.ts`).
 */
import os from 'node:os';
import type { DatabaseSync } from 'node:sqlite';
import { BUSY_TIMEOUT_MS, immediateTransaction, openStateDatabase, patiently, STARTUP_BUSY_TIMEOUT_MS } from './db.js';
import { AnswerJobStore, type AnswerJobRecord, type NewAnswerJob } from './answer-jobs.js';
import { KeyStore, type IssuedKey, type IssueKeyOptions, type KeyCheck, type KeyOwner } from './keys.js';
import { UsageStore, type Consumption, type Quotas, type UsageKind } from './usage.js';

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
export type { Consumption, Quotas, UsageKind } from './usage.js';
export { UNFINISHED_STATUSES, type AnswerJobRecord, type NewAnswerJob } from './answer-jobs.js';
export { BUSY_TIMEOUT_MS, STARTUP_BUSY_TIMEOUT_MS };

/** Options of {@link SandboxState.open}. */
export interface OpenStateOptions {
  /** Clock of key times and of the usage month; default the system clock. */
  now?: () => Date;
  /** Monthly quotas in units per kind; default unlimited. */
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

/** The sandbox's keys, usage and answer jobs. */
export class SandboxState {
  readonly #db: DatabaseSync;
  readonly #keys: KeyStore;
  readonly #usage: UsageStore;
  readonly #jobs: AnswerJobStore;

  private constructor(db: DatabaseSync, options: OpenStateOptions) {
    const now = options.now ?? (() => new Date());
    this.#db = db;
    this.#keys = new KeyStore(db, now, options.owner ?? { pid: process.pid, host: os.hostname() }, options.isRunning);
    this.#usage = new UsageStore(db, now, options.quotas ?? {});
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
   * The key belongs to `options.account` (default `acct_sandbox`, see `DEFAULT_ACCOUNT_ID`). An `ephemeral` key
   * records this process as its owner and is removed by {@link deleteEphemeralKey}, or, if this process dies first, by
   * {@link deleteStaleEphemeralKeys} in a later start.
   * @throws the SQLite error of the insert.
   */
  issueKey(name: string, options: IssueKeyOptions = {}): IssuedKey {
    return patiently(this.#db, () => this.#keys.issue(name, options));
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

  /** Consumes one unit of `kind` when the month's quota allows it (spec: Quota rules; see `UsageStore.consume`). */
  consume(kind: UsageKind): Consumption {
    return this.#usage.consume(kind);
  }

  /**
   * Gives back one unit of `kind` to `month` (`YYYY-MM`, UTC; default the current month), never below zero; true when
   * a unit was given back (see `UsageStore.release`).
   */
  release(kind: UsageKind, month?: string): boolean {
    return this.#usage.release(kind, month);
  }

  /** Whether one more unit of `kind` could be consumed now, consuming nothing (see `UsageStore.allows`). */
  allows(kind: UsageKind): boolean {
    return this.#usage.allows(kind);
  }

  /** The monthly quota of `kind` in units, `undefined` when unlimited. */
  quota(kind: UsageKind): number | undefined {
    return this.#usage.quota(kind);
  }

  /** Units of `kind` used in `month` (`YYYY-MM`, UTC; default the current month). */
  used(kind: UsageKind, month?: string): number {
    return this.#usage.used(kind, month);
  }

  /**
   * Creates an answer job (spec: POST /v1/answers; Quota rules 2): in one transaction, consumes one `answers` unit of
   * the current month and inserts the job `queued` with that month; when the quota is used up, nothing is consumed or
   * inserted (`created: false`, the server answers `monthly_quota_exceeded`).
   * @param job the new job without its usage month (that of the consumption).
   * @throws the SQLite error (busy after {@link BUSY_TIMEOUT_MS}, full, a duplicate `job_id`); nothing is consumed or
   *   inserted then.
   */
  createAnswerJob(job: Omit<NewAnswerJob, 'usage_month'>): AnswerJobCreation {
    let inserted: NewAnswerJob | undefined;
    const consumption = this.#usage.consume('answers', ({ month }) => {
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
   * its `answers` unit given back to the month it was consumed in (spec: States and transitions: a failed job consumes
   * no unit, a timed-out job has its unit restored). With `createdAtOrBefore`, only a job created then or earlier (the
   * 15-minute rule). Conditional on the stored status and the unit's flag, so among any number of processes and calls
   * a job is failed, and its unit given back, at most once.
   * @returns true when the job was failed now; false when it is unknown, already final, or younger than the bound.
   * @throws the SQLite error (busy after {@link BUSY_TIMEOUT_MS}, full); nothing changes then.
   */
  failAnswerJob(jobId: string, failure: { code: string; message: string }, at: Date, createdAtOrBefore?: Date): boolean {
    return immediateTransaction(this.#db, () => {
      const month = this.#jobs.fail(jobId, failure, at.toISOString(), createdAtOrBefore?.toISOString());
      if (month === undefined) return false;
      this.#usage.release('answers', month);
      return true;
    });
  }

  /** Closes the database. Safe to call twice. */
  close(): void {
    if (this.#db.isOpen) this.#db.close();
  }
}
