/**
 * Opening `<data dir>/state.sqlite` (node:sqlite): private file modes, WAL, a short busy timeout, and the schema's
 * migration chain.
 *
 * Migrations are an ordered list keyed by `PRAGMA user_version`: migration N brings a database at version N-1 to N.
 * Each runs in its own `BEGIN IMMEDIATE` transaction together with the new `user_version`, so a failed migration leaves
 * the database at the previous version. Migration 1 is the schema of the first sandbox release, unchanged, so data
 * directories created by it open as they are.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { ensurePrivateDir, makePrivate, PRIVATE_FILE_MODE } from '../files.js';

/** File name of the state database inside the data directory. */
export const STATE_FILE = 'state.sqlite';

/**
 * How long a statement waits for a lock held by another connection before failing with SQLITE_BUSY, in milliseconds.
 * node:sqlite is synchronous on the event loop, so this is kept short: a busy database makes the request fail (the
 * server answers 503 `service_unavailable`) instead of stalling every request for seconds.
 */
export const BUSY_TIMEOUT_MS = 250;

/** One step of the schema: `sql` brings the database from `version - 1` to `version`. */
export interface Migration {
  /** The `user_version` after this migration (1, 2, … without gaps). */
  version: number;
  /** What it changes, for humans. */
  description: string;
  /** SQL statements, run with `exec` inside the migration's transaction. Must not change `user_version` itself. */
  sql: string;
}

/** The schema's migrations, in order. */
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
    db.exec('BEGIN IMMEDIATE');
    try {
      if (schemaVersion(db) < migration.version) {
        db.exec(migration.sql);
        db.exec(`PRAGMA user_version = ${Math.trunc(migration.version)}`);
      }
      db.exec('COMMIT');
    } catch (error) {
      if (db.isTransaction) db.exec('ROLLBACK');
      throw error;
    }
  }
  return schemaVersion(db);
}

/**
 * Opens (creating when needed) `<dataDir>/state.sqlite`: the directory is created 0700, the database file is created
 * 0600 before SQLite opens it (SQLite gives its `-wal` and `-shm` files the database file's mode) and the three files
 * are chmod-ed 0600 after opening; `busy_timeout` {@link BUSY_TIMEOUT_MS}, WAL journal, then {@link migrate}.
 * @param migrations the chain to apply (tests); default {@link MIGRATIONS}.
 * @throws the file-system error when the directory or file cannot be created; the errors of {@link migrate}.
 */
export function openStateDatabase(dataDir: string, migrations: readonly Migration[] = MIGRATIONS): DatabaseSync {
  ensurePrivateDir(dataDir);
  const file = path.join(dataDir, STATE_FILE);
  fs.closeSync(fs.openSync(file, 'a', PRIVATE_FILE_MODE));
  makePrivate(file);
  const db = new DatabaseSync(file);
  try {
    db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.exec('PRAGMA journal_mode = WAL');
    migrate(db, migrations);
    makePrivate(file, `${file}-wal`, `${file}-shm`);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

/** SQLite primary result codes the server turns into 503 (see {@link sqliteTrouble}). */
const SQLITE_BUSY = 5;
const SQLITE_LOCKED = 6;
const SQLITE_FULL = 13;

/**
 * Classifies an error thrown by node:sqlite: `busy` for SQLITE_BUSY (5) / SQLITE_LOCKED (6) (another connection holds
 * a lock past the busy timeout; messages "database is locked", "database is busy", "database table is locked"),
 * `full` for SQLITE_FULL (13) ("database or disk is full"); undefined for anything else. Extended result codes are
 * reduced to their primary code (low 8 bits).
 */
export function sqliteTrouble(error: unknown): 'busy' | 'full' | undefined {
  if (!(error instanceof Error)) return undefined;
  const errcode = (error as { errcode?: unknown }).errcode;
  if (typeof errcode === 'number') {
    const primary = errcode & 0xff;
    if (primary === SQLITE_BUSY || primary === SQLITE_LOCKED) return 'busy';
    if (primary === SQLITE_FULL) return 'full';
  }
  if ((error as { code?: unknown }).code !== 'ERR_SQLITE_ERROR') return undefined;
  if (/database (table )?is (locked|busy)/i.test(error.message)) return 'busy';
  if (/database or disk is full/i.test(error.message)) return 'full';
  return undefined;
}
