/**
 * The sandbox's account state in `<data dir>/state.sqlite`: API keys (`keys.ts`) and user sessions (`sessions.ts`),
 * accounts with their plan, overage setting and unit prices (`accounts.ts`, `plans.ts`, `prices.ts`), monthly usage per
 * account (`usage.ts`) and answer jobs (`answer-jobs.ts`), over the database opened and migrated by `db.ts`.
 *
 * Single writer per process; several processes may open the same directory (WAL). During a request, a lock held by
 * another process makes a write fail after {@link BUSY_TIMEOUT_MS} with SQLITE_BUSY, which
 * {@link SandboxState.unavailable} classifies and the HTTP server answers with 503 `service_unavailable` (see
 * `http/errors.ts`). Opening, issuing a key or a session and deleting them are start-up and shutdown steps: they wait
 * up to {@link STARTUP_BUSY_TIMEOUT_MS} instead (see `patiently` in `db.ts`).
 *
 * {@link SandboxState} implements the storage-neutral {@link SandboxStore} of `../storage.ts`, which is all the HTTP
 * layer knows of it.
 */
import os from 'node:os';
import type { DatabaseSync } from 'node:sqlite';
import type { AccountResponse, ApiKeyRecord, CreatedApiKey, QuotaKind, UsageResponse } from '../../contract/types.js';
import type { SandboxStore, StorageUnavailable } from '../storage.js';
import { AccountStore, type Account, type OverageSetting } from './accounts.js';
import { AnswerJobStore, type AnswerJobRecord, type NewAnswerJob } from './answer-jobs.js';
import { BUSY_TIMEOUT_MS, immediateTransaction, openStateDatabase, patiently, STARTUP_BUSY_TIMEOUT_MS } from './db.js';
import { stateUnavailable } from './db-errors.js';
import {
  DEFAULT_ACCOUNT_ID,
  DEFAULT_AUTH_CACHE_TTL_MS,
  KeyStore,
  type IssuedKey,
  type IssueKeyOptions,
  type KeyCheck,
  type KeyOwner,
} from './keys.js';
import { DEFAULT_PLAN, type PlanQuotas, type Quotas } from './plans.js';
import { unitPrices } from './prices.js';
import { SessionStore, type CreatedSession, type CreateSessionOptions, type SessionCheck } from './sessions.js';
import { UsageStore, type Consumption } from './usage.js';

export {
  DEFAULT_ACCOUNT_ID,
  DEFAULT_AUTH_CACHE_TTL_MS,
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
export {
  DEFAULT_SESSION_TTL_MS,
  EPHEMERAL_SESSION_TTL_MS,
  EXPIRED_SESSION_RETENTION_MS,
  SESSION_TTL_MAX_MS,
  checkSessionTtl,
  type CreatedSession,
  type CreateSessionOptions,
  type SessionCheck,
} from './sessions.js';
export { SESSION_TOKEN_PATTERN, SESSION_TOKEN_PREFIX } from '../session-tokens.js';
export { UNIT_PRICES } from './prices.js';
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
  /**
   * How long this handle accepts an API key it looked up without reading the database again, in milliseconds, 0 to
   * disable (spec: Authentication rule 4, "within up to 60 seconds in other service instances"; see `keys.ts`): a key
   * revoked by another process on the same data directory is still accepted here for up to this long; revoked through
   * this handle, it is refused at once. Default {@link DEFAULT_AUTH_CACHE_TTL_MS} (60 000).
   */
  authCacheTtlMs?: number;
}

/** What {@link SandboxState.createAnswerJob} did. */
export type AnswerJobCreation =
  | { created: true; job: AnswerJobRecord; consumption: Consumption }
  | { created: false; consumption: Consumption };

/**
 * Checks an authentication cache TTL: a number of milliseconds, at least 0 and finite.
 * @throws RangeError otherwise.
 */
export function checkAuthCacheTtl(ms: number): number {
  if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`the authentication cache TTL must be a number of milliseconds from 0, not ${ms}`);
  return ms;
}

/**
 * The sandbox's keys, sessions, accounts, usage and answer jobs: the {@link SandboxStore} of `../storage.ts` (what the
 * HTTP layer uses) over `state.sqlite`, plus what the start-up, the answer jobs and the CLI use.
 */
export class SandboxState implements SandboxStore {
  readonly #db: DatabaseSync;
  readonly #now: () => Date;
  readonly #keys: KeyStore;
  readonly #sessions: SessionStore;
  readonly #accounts: AccountStore;
  readonly #usage: UsageStore;
  readonly #jobs: AnswerJobStore;

  private constructor(db: DatabaseSync, options: OpenStateOptions) {
    const now = options.now ?? (() => new Date());
    this.#db = db;
    this.#now = now;
    this.#keys = new KeyStore(
      db,
      now,
      options.owner ?? { pid: process.pid, host: os.hostname() },
      options.isRunning,
      options.authCacheTtlMs ?? DEFAULT_AUTH_CACHE_TTL_MS,
    );
    this.#sessions = new SessionStore(db, now);
    this.#accounts = new AccountStore(db);
    this.#usage = new UsageStore(db, now, options.quotas ?? {}, this.#accounts);
    this.#jobs = new AnswerJobStore(db);
  }

  /**
   * Opens (creating when needed, 0700 directory, 0600 files) and migrates `<dataDir>/state.sqlite`, waiting up to
   * {@link STARTUP_BUSY_TIMEOUT_MS} for other processes' locks.
   * @throws RangeError when `options.authCacheTtlMs` is negative or not finite (nothing is opened); the file-system or
   *   SQLite error when it cannot be created, opened or migrated.
   */
  static open(dataDir: string, options: OpenStateOptions = {}): SandboxState {
    if (options.authCacheTtlMs !== undefined) checkAuthCacheTtl(options.authCacheTtlMs);
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
    return patiently(this.#db, () => immediateTransaction(this.#db, () => this.#issue(name, options)));
  }

  /** Issues a key inside the caller's transaction, creating its account's row when missing; the key takes its plan. */
  #issue(name: string, options: IssueKeyOptions): IssuedKey {
    const accountId = options.account ?? DEFAULT_ACCOUNT_ID;
    this.#accounts.ensure(accountId, this.#now().toISOString());
    const plan = this.#accounts.get(accountId)?.plan ?? DEFAULT_PLAN;
    return this.#keys.issue(name, { ...options, account: accountId, plan });
  }

  /**
   * Checks a presented key (spec: Authentication, rule 3; see `KeyStore.authenticate`): an accepted key comes with its
   * `key_id` and the `account_id` it belongs to. A key accepted within the last `authCacheTtlMs` (see
   * {@link OpenStateOptions}) is accepted again without reading the database.
   */
  authenticate(apiKey: string): KeyCheck {
    return this.#keys.authenticate(apiKey);
  }

  /** See `KeyStore.activeKey`: a stored, active, non-ephemeral key as issued, without recording a use. */
  activeKey(apiKey: string): IssuedKey | undefined {
    return this.#keys.activeKey(apiKey);
  }

  /**
   * The keys of `accountId` for `GET /v1/keys` (`ApiKeyRecord`: `key_id`, `name`, `prefix`, `plan`, `status`,
   * `created_at`, `last_used_at`, `revoked_at`; times ISO 8601 UTC), oldest first (ties by `key_id`), every key of the
   * account, the ephemeral keys of `--sandbox` runs among them; never a secret.
   * @throws the SQLite error of the read.
   */
  listKeys(accountId: string): ApiKeyRecord[] {
    return this.#keys.list(accountId);
  }

  /**
   * Creates an active key of `accountId` named `name` for `POST /v1/keys` (spec: API key facts: the full value is
   * returned this once; only its SHA-256 is stored), with the account's plan, in one transaction (the account's row
   * created when missing). A request-time write: waits at most {@link BUSY_TIMEOUT_MS} for the lock. The name is
   * stored as given (the route checks it).
   * @returns the key's record and, in `api_key`, the full key.
   * @throws the SQLite error (busy after {@link BUSY_TIMEOUT_MS}, full); nothing is stored then.
   */
  createKey(accountId: string, name: string): CreatedApiKey {
    return immediateTransaction(this.#db, () => {
      const issued = this.#issue(name, { account: accountId });
      return { ...this.#keys.record(accountId, issued.key_id)!, api_key: issued.api_key };
    });
  }

  /**
   * Revokes the key `keyId` of `accountId` (spec: States and transitions, API key; `POST /v1/keys/{key_id}/revoke`):
   * refused with `revoked_api_key` at once by this handle (its authentication cache forgets the key), and by other
   * processes on the data directory once their cache entry is older than their TTL. Idempotent: a revoked key stays
   * revoked with its first `revoked_at`. A request-time write (waits at most {@link BUSY_TIMEOUT_MS}).
   * @returns the key's record after the revocation (status `revoked`); undefined when `accountId` has no key with this
   *   id (another account's key included: nothing is changed).
   * @throws the SQLite error of the update.
   */
  revokeKey(accountId: string, keyId: string): ApiKeyRecord | undefined {
    return immediateTransaction(this.#db, () => {
      this.#keys.revoke(accountId, keyId);
      return this.#keys.record(accountId, keyId);
    });
  }

  /**
   * Creates a user session of `accountId` (spec: Authentication, User-session token; see `sessions.ts`) that expires
   * `options.ttlMs` after now (state clock), creating the account's row when missing; waits up to
   * {@link STARTUP_BUSY_TIMEOUT_MS} for the write lock (a start-up step of `sandbox serve`, or `pravo sandbox token`).
   * @returns `{session_id, session_token, expires_at}`; the token is shown this once, only its SHA-256 is stored.
   * @throws RangeError for a lifetime that is not more than 0 and at most 30 days (nothing is written); the SQLite
   *   error of the insert.
   */
  createSession(accountId: string, options: CreateSessionOptions): CreatedSession {
    return patiently(this.#db, () =>
      immediateTransaction(this.#db, () => {
        this.#accounts.ensure(accountId, this.#now().toISOString());
        return this.#sessions.create(accountId, options);
      }),
    );
  }

  /**
   * Checks a presented session token (see `SessionStore.authenticate`): `invalid_session_token` (malformed or
   * unknown), `expired_session_token` (`expires_at <= now`), or the session's id and account. Reads the database each
   * time, so sessions created by other processes work at once.
   * @throws the SQLite error of the lookup.
   */
  authenticateSession(token: string): SessionCheck {
    return this.#sessions.authenticate(token);
  }

  /**
   * Deletes one session by `session_id` (a one-command sandbox's own, when it stops); waits up to
   * {@link STARTUP_BUSY_TIMEOUT_MS}. Returns false when there was none.
   * @throws the SQLite error of the delete.
   */
  deleteSession(sessionId: string): boolean {
    return patiently(this.#db, () => this.#sessions.delete(sessionId));
  }

  /**
   * Deletes the sessions that expired more than a day ago (see `SessionStore.deleteExpired`); a start-up step, waits
   * up to {@link STARTUP_BUSY_TIMEOUT_MS}. Returns the number deleted.
   * @throws the SQLite error of the delete.
   */
  deleteExpiredSessions(): number {
    return patiently(this.#db, () => this.#sessions.deleteExpired());
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
   * The body of `GET /v1/account` (and of `PATCH /v1/account/overages`) for `accountId` (`AccountResponse`,
   * docs/sandbox.md, "Sandbox: keys and account"): `{account_id, plan, overage: {allowed, monthly_limit}, unit_prices:
   * {currency, search, retrieval, answers}, created_at}`; `monthly_limit` the stored overage limit in units a month (0
   * when not allowed); `unit_prices` the sandbox's constant prices of one overage unit per kind (`prices.ts`).
   * Undefined when the account has no row.
   * @throws the SQLite error of the read.
   */
  accountResponse(accountId: string): AccountResponse | undefined {
    const account = this.#accounts.get(accountId);
    if (!account) return undefined;
    return {
      account_id: account.account_id,
      plan: account.plan,
      overage: { allowed: account.overage.allowed, monthly_limit: account.overage.limit },
      unit_prices: unitPrices(),
      created_at: account.created_at,
    };
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
   * The body of `GET /v1/usage` for `accountId` (spec: GET /v1/usage; `UsageResponse`, docs/sandbox.md, "Sandbox:
   * usage"): the current calendar month (UTC) of the state's clock, the plan, each kind's `used`/`limit`/`remaining`/
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

  /**
   * Whether `error`, thrown during a request by a method of this state (or by anything else using `state.sqlite`),
   * means that the database is unavailable for a moment (see `SandboxStore.unavailable`): SQLITE_BUSY/SQLITE_LOCKED
   * (another process holds a lock past {@link BUSY_TIMEOUT_MS}) → `busy`, SQLITE_FULL → `full`, each with the message
   * of the server's 503 (see `stateUnavailable` in `db-errors.ts`); undefined for any other error. Never throws.
   */
  unavailable(error: unknown): StorageUnavailable | undefined {
    return stateUnavailable(error);
  }

  /** Closes the database. Safe to call twice. */
  close(): void {
    if (this.#db.isOpen) this.#db.close();
  }
}
