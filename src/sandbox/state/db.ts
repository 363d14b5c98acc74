/**
 * Opening `<data dir>/state.sqlite` (node:sqlite): private file modes, WAL, two busy timeouts, and the schema's
 * migration chain.
 *
 * Several processes may use one data directory at once (a `sandbox serve` and any number of `search --sandbox` runs).
 * Their writes queue on SQLite's single write lock, so a statement may have to wait for the others. How long it waits
 * depends on what it is:
 * - a request's writes (usage, `last_used_at`, a key created or revoked, the overage setting) wait at most
 *   {@link BUSY_TIMEOUT_MS} (250 ms), because node:sqlite blocks the event loop while it waits; past that the server
 *   answers 503 with Retry-After;
 * - start-up and shutdown writes (opening and migrating the database, issuing a run's key and session, deleting
 *   them, removing stale ephemeral keys and long-expired sessions, the session of `pravo sandbox token`) run through
 *   {@link patiently}: they wait up to {@link STARTUP_BUSY_TIMEOUT_MS} and are retried when SQLite reports busy
 *   without waiting, because a failure there fails the whole command (a `search --sandbox`, whose POST is never
 *   retried) while no request is waiting on the event loop.
 *
 * Migrations are an ordered list keyed by `PRAGMA user_version`: migration N brings a database at version N-1 to N.
 * Each runs in its own `BEGIN IMMEDIATE` transaction together with the new `user_version`, so a failed migration leaves
 * the database at the previous version. Migration 1 is the schema of the first sandbox release, unchanged, so data
 * directories created by it open as they are.
 *
 * Schema (version 5): `api_keys` (SHA-256 of each key, its account, status, times, owner of ephemeral keys),
 * `accounts` (plan, overage setting), `account_usage` (units per account, UTC month `YYYY-MM` and quota kind
 * `search` | `retrieval` | `answers`), `answer_jobs`, `sessions` (user-session tokens of the key and account
 * endpoints: SHA-256 of each token, its account, creation and expiry, whether it belongs to a one-command run).
 */
import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { ensurePrivateDir, makePrivate, PRIVATE_FILE_MODE } from '../files.js';
import { sqliteTrouble } from './db-errors.js';

/** File name of the state database inside the data directory. */
export const STATE_FILE = 'state.sqlite';

/**
 * How long a statement waits for a lock held by another connection before failing with SQLITE_BUSY, in milliseconds.
 * node:sqlite is synchronous on the event loop, so this is kept short: a busy database makes the request fail (the
 * server answers 503 `service_unavailable`) instead of stalling every request for seconds.
 */
export const BUSY_TIMEOUT_MS = 250;

/**
 * How long start-up and shutdown writes may wait for the write lock in total, in milliseconds (see
 * {@link patiently}). Twenty `pravo search --sandbox` runs started at once on one data directory each open, migrate,
 * issue and delete within it; on a slow disk the queue for the lock can exceed {@link BUSY_TIMEOUT_MS} many times over.
 */
export const STARTUP_BUSY_TIMEOUT_MS = 10_000;

/** One step of the schema: `sql` brings the database from `version - 1` to `version`. */
export interface Migration {
  /** The `user_version` after this migration (1, 2, … without gaps). */
  version: number;
  /** What it changes, for humans. */
  description: string;
  /** SQL statements, run with `exec` inside the migration's transaction. Must not change `user_version` itself. */
  sql: string;
}

/** The schema's migrations, in order. Migration 1 is the first release's schema; never edit a released migration. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'api_keys (SHA-256 of each key, status, times) and monthly usage per kind',
    sql: `
      CREATE TABLE IF NOT EXISTS api_keys (
        key_id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        prefix TEXT NOT NULL,
        key_sha256 TEXT NOT NULL UNIQUE,
        plan TEXT NOT NULL DEFAULT 'sandbox',
        status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'revoked')),
        ephemeral INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        last_used_at TEXT,
        revoked_at TEXT
      );
      CREATE TABLE IF NOT EXISTS usage (
        month TEXT NOT NULL,
        kind TEXT NOT NULL,
        used INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (month, kind)
      );
    `,
  },
  {
    version: 2,
    description: 'api_keys.owner_pid and owner_host: the process that issued an ephemeral key, to remove it once dead',
    sql: `
      ALTER TABLE api_keys ADD COLUMN owner_pid INTEGER;
      ALTER TABLE api_keys ADD COLUMN owner_host TEXT;
    `,
  },
  {
    version: 3,
    description:
      'api_keys.account_id (the account a key belongs to; existing keys: acct_sandbox) and answer_jobs (one row per answer job)',
    sql: `
      ALTER TABLE api_keys ADD COLUMN account_id TEXT NOT NULL DEFAULT 'acct_sandbox';
      CREATE TABLE IF NOT EXISTS answer_jobs (
        job_id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL,
        key_id TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed')),
        query TEXT NOT NULL,
        request_json TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        finished_at TEXT,
        answer TEXT,
        sources_json TEXT,
        error_code TEXT,
        error_message TEXT,
        usage_month TEXT NOT NULL,
        unit_released INTEGER NOT NULL DEFAULT 0 CHECK (unit_released IN (0, 1))
      );
    `,
  },
  {
    version: 4,
    description:
      'accounts (plan and overage setting; acct_sandbox and every account of a key or job) and account_usage (usage per account, month and kind, the kinds of the contract: documents becomes retrieval), replacing usage',
    sql: `
      CREATE TABLE accounts (
        account_id TEXT PRIMARY KEY,
        plan TEXT NOT NULL DEFAULT 'sandbox',
        overage_allowed INTEGER NOT NULL DEFAULT 0 CHECK (overage_allowed IN (0, 1)),
        overage_limit INTEGER NOT NULL DEFAULT 0 CHECK (overage_limit >= 0),
        created_at TEXT NOT NULL
      );
      INSERT INTO accounts (account_id, created_at) VALUES ('acct_sandbox', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
      INSERT INTO accounts (account_id, created_at)
        SELECT DISTINCT account_id, strftime('%Y-%m-%dT%H:%M:%fZ', 'now') FROM api_keys WHERE true
        ON CONFLICT (account_id) DO NOTHING;
      INSERT INTO accounts (account_id, created_at)
        SELECT DISTINCT account_id, strftime('%Y-%m-%dT%H:%M:%fZ', 'now') FROM answer_jobs WHERE true
        ON CONFLICT (account_id) DO NOTHING;
      CREATE TABLE account_usage (
        account_id TEXT NOT NULL,
        month TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('search', 'retrieval', 'answers')),
        used INTEGER NOT NULL DEFAULT 0 CHECK (used >= 0),
        PRIMARY KEY (account_id, month, kind)
      );
      INSERT INTO account_usage (account_id, month, kind, used)
        SELECT 'acct_sandbox', month, CASE kind WHEN 'documents' THEN 'retrieval' ELSE kind END, used FROM usage
        WHERE kind IN ('search', 'documents', 'answers') AND used > 0;
      DROP TABLE usage;
    `,
  },
  {
    version: 5,
    description:
      'sessions (user-session tokens of the key and account endpoints: SHA-256 of each token, its account, created_at, expires_at, ephemeral for a one-command run)',
    sql: `
      CREATE TABLE sessions (
        session_id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL,
        token_sha256 TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        ephemeral INTEGER NOT NULL DEFAULT 0 CHECK (ephemeral IN (0, 1))
      );
      CREATE INDEX sessions_expires_at ON sessions (expires_at);
    `,
  },
];

/** The `user_version` of a database with every migration of {@link MIGRATIONS} applied. */
export const LATEST_STATE_VERSION = MIGRATIONS.at(-1)?.version ?? 0;

/** The database's `PRAGMA user_version`. */
export function schemaVersion(db: DatabaseSync): number {
  return (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
}

/**
 * Applies, in order, each migration whose `version` is above the database's `user_version`, one transaction each.
 * The version is read again inside each transaction, so two processes opening a fresh directory at once apply each
 * migration once.
 * @param migrations the chain (default {@link MIGRATIONS}); versions must be 1, 2, … in order.
 * @returns the `user_version` reached.
 * @throws Error when the database is newer than the chain (written by a newer pravo); the SQLite error of a failed
 *   migration (its transaction is rolled back, earlier migrations stay applied).
 */
export function migrate(db: DatabaseSync, migrations: readonly Migration[] = MIGRATIONS): number {
  const latest = migrations.at(-1)?.version ?? 0;
  const found = schemaVersion(db);
  if (found > latest) {
    throw new Error(
      `state.sqlite has schema version ${found}, newer than this pravo knows (${latest}); use a newer pravo or another data directory`,
    );
  }
  for (const migration of migrations) {
    if (migration.version <= found) continue;
    immediateTransaction(db, () => {
      if (schemaVersion(db) < migration.version) {
        db.exec(migration.sql);
        db.exec(`PRAGMA user_version = ${Math.trunc(migration.version)}`);
      }
    });
  }
  return schemaVersion(db);
}

/**
 * Runs `work` in a `BEGIN IMMEDIATE` transaction (the write lock taken at once, waiting up to the connection's busy
 * timeout): committed when `work` returns, rolled back when it throws.
 * @throws what `work` throws; the SQLite error of `BEGIN` (busy) or `COMMIT` (full). Nothing is written then.
 */
export function immediateTransaction<T>(db: DatabaseSync, work: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = work();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw error;
  }
}

/**
 * Runs `work` in a deferred (read) transaction, so that its reads see one snapshot of the database; directly when a
 * transaction is already open. In WAL mode a reader does not wait for writers. The transaction is ended (`COMMIT`,
 * nothing being written) whether `work` returns or throws.
 * @throws what `work` throws; the SQLite error of `BEGIN`.
 */
export function readTransaction<T>(db: DatabaseSync, work: () => T): T {
  if (db.isTransaction) return work();
  db.exec('BEGIN DEFERRED');
  try {
    return work();
  } finally {
    if (db.isTransaction) db.exec('COMMIT');
  }
}

/**
 * Opens (creating when needed) `<dataDir>/state.sqlite`: the directory is created 0700, the database file is created
 * 0600 before SQLite opens it (SQLite gives its `-wal` and `-shm` files the database file's mode) and the three files
 * are chmod-ed 0600 after opening; WAL journal, then {@link migrate}, both {@link patiently}; then `busy_timeout`
 * {@link BUSY_TIMEOUT_MS} for what follows, and `synchronous = NORMAL`.
 *
 * `synchronous = NORMAL` (SQLite's recommended setting with WAL): a commit appends to the WAL without waiting for
 * fsync, which is done at checkpoints. The write lock is then held for microseconds rather than for a disk flush, so
 * concurrent requests on one data directory rarely wait (20 processes x 20 usage updates started at once: 11 of 120
 * hit the 250 ms timeout with FULL, none with NORMAL). The database cannot be corrupted by a crash either way; a power
 * loss may undo the last commits (a usage unit, a key whose server has died with the machine anyway).
 * @param migrations the chain to apply (tests); default {@link MIGRATIONS}.
 * @throws the file-system error when the directory or file cannot be created; the errors of {@link migrate}; the
 *   SQLite busy error when other processes keep the database locked for {@link STARTUP_BUSY_TIMEOUT_MS}.
 */
export function openStateDatabase(dataDir: string, migrations: readonly Migration[] = MIGRATIONS): DatabaseSync {
  ensurePrivateDir(dataDir);
  const file = path.join(dataDir, STATE_FILE);
  fs.closeSync(fs.openSync(file, 'a', PRIVATE_FILE_MODE));
  makePrivate(file);
  const db = new DatabaseSync(file, { timeout: BUSY_TIMEOUT_MS });
  try {
    patiently(db, () => {
      // Switching a new database to WAL can fail busy at once, without waiting, while another process does the same.
      if ((db.prepare('PRAGMA journal_mode').get() as { journal_mode: string }).journal_mode !== 'wal') {
        db.exec('PRAGMA journal_mode = WAL');
      }
      migrate(db, migrations);
    });
    db.exec('PRAGMA synchronous = NORMAL');
    makePrivate(file, `${file}-wal`, `${file}-shm`);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

/** Sets the connection's `busy_timeout`, in milliseconds (whole, at least 0). */
function setBusyTimeout(db: DatabaseSync, ms: number): void {
  db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.trunc(ms))}`);
}

/** Blocks the thread for `ms` milliseconds (the connection is synchronous anyway; used only between busy retries). */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Math.max(0, ms));
}

/**
 * Runs `work` (a start-up or shutdown step) so that contention for the database does not make it fail: with
 * `busy_timeout` raised to the time left of `timeoutMs`, and run again, after a short pause (5 ms doubling to 100 ms),
 * when it fails with SQLITE_BUSY/SQLITE_LOCKED before that time is spent: SQLite skips its busy handler in a few
 * cases, such as two connections switching a new database to WAL at once. An open transaction is rolled back before
 * a retry. `busy_timeout` is {@link BUSY_TIMEOUT_MS} again afterwards, whatever happens.
 *
 * `work` must be safe to run again after a busy failure: one statement, or its own transaction.
 * Blocks the event loop for up to `timeoutMs`: only for when no request is being served.
 * @param timeoutMs the total time to wait, in milliseconds; default {@link STARTUP_BUSY_TIMEOUT_MS}.
 * @throws the error of `work`: at once when it is not busy, else once `timeoutMs` is spent.
 */
export function patiently<T>(db: DatabaseSync, work: () => T, timeoutMs: number = STARTUP_BUSY_TIMEOUT_MS): T {
  const deadline = Date.now() + timeoutMs;
  let wait = 5;
  try {
    for (;;) {
      setBusyTimeout(db, deadline - Date.now());
      try {
        return work();
      } catch (error) {
        if (db.isTransaction) db.exec('ROLLBACK');
        const left = deadline - Date.now();
        if (sqliteTrouble(error) !== 'busy' || left <= 0) throw error;
        pause(Math.min(wait, left));
        wait = Math.min(wait * 2, 100);
      }
    }
  } finally {
    setBusyTimeout(db, BUSY_TIMEOUT_MS);
  }
}
