/**
 * `state.sqlite` on disk (`src/sandbox/state/db.ts`): the migration chain keyed by `PRAGMA user_version`, data
 * directories of the first release opening unchanged, start-up and shutdown steps that wait out other processes'
 * locks while requests do not, and private file modes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Worker } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  BUSY_TIMEOUT_MS,
  LATEST_STATE_VERSION,
  MIGRATIONS,
  openStateDatabase,
  patiently,
  schemaVersion,
  STARTUP_BUSY_TIMEOUT_MS,
  type Migration,
} from '../../../src/sandbox/state/db.js';
import { DEFAULT_ACCOUNT_ID, SandboxState, sha256 } from '../../../src/sandbox/state/store.js';

let root: string;
let dataDir: string;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'pravo-state-db-test-'));
  dataDir = path.join(root, 'data');
});

afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

/** The schema exactly as the first sandbox release created it (before the migration chain existed). */
const FIRST_RELEASE_SCHEMA = `
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
  PRAGMA user_version = 1;
`;

/** A made-up key of the live form (test data, never issued by a real service). */
const OLD_KEY = `sbx_live_${'T'.repeat(32)}`;

/** Writes a data directory as the first release did: its schema, one active key, some usage. */
function writeFirstReleaseDirectory(): void {
  fs.mkdirSync(dataDir, { recursive: true });
  const db = new DatabaseSync(path.join(dataDir, 'state.sqlite'));
  db.exec('PRAGMA journal_mode = WAL');
  db.exec(FIRST_RELEASE_SCHEMA);
  db.prepare('INSERT INTO api_keys (key_id, name, prefix, key_sha256, created_at) VALUES (?, ?, ?, ?, ?)').run(
    'key_000000000001',
    'old',
    OLD_KEY.slice(0, 13),
    sha256(OLD_KEY),
    '2025-01-01T00:00:00.000Z',
  );
  db.prepare('INSERT INTO usage (month, kind, used) VALUES (?, ?, ?)').run('2025-03', 'search', 7);
  db.close();
}

/** `sqlite_master` entries (type, name, sql) of a database file. */
function schemaOf(file: string): unknown[] {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const rows = db.prepare("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name").all();
    // The stored CREATE statements differ only in indentation.
    return rows.map((row) => ({ ...row, sql: String(row.sql).replace(/\s+/g, ' ') }));
  } finally {
    db.close();
  }
}

describe('migrations', () => {
  it('brings a fresh directory to the latest user_version', () => {
    const db = openStateDatabase(dataDir);
    try {
      expect(schemaVersion(db)).toBe(LATEST_STATE_VERSION);
      expect(LATEST_STATE_VERSION).toBe(MIGRATIONS.length);
      MIGRATIONS.forEach((m, i) => expect(m.version).toBe(i + 1));
    } finally {
      db.close();
    }
  });

  it('has migration 1 = the first release schema, so both create the same tables', () => {
    openStateDatabase(dataDir, MIGRATIONS.slice(0, 1)).close();
    const fresh = schemaOf(path.join(dataDir, 'state.sqlite'));
    const old = path.join(root, 'old.sqlite');
    const db = new DatabaseSync(old);
    db.exec(FIRST_RELEASE_SCHEMA);
    db.close();
    expect(fresh).toEqual(schemaOf(old));
  });

  it('opens a directory of the first release unchanged, keeping its keys and usage', () => {
    writeFirstReleaseDirectory();
    const state = SandboxState.open(dataDir, { now: () => new Date('2025-03-20T10:00:00Z'), quotas: { search: 8 } });
    try {
      expect(state.authenticate(OLD_KEY)).toEqual({ ok: true, key_id: 'key_000000000001', account_id: DEFAULT_ACCOUNT_ID });
      expect(state.used(DEFAULT_ACCOUNT_ID, 'search')).toBe(7);
      expect(state.consume(DEFAULT_ACCOUNT_ID, 'search')).toMatchObject({ allowed: true, used: 8 });
      expect(state.consume(DEFAULT_ACCOUNT_ID, 'search').allowed).toBe(false);
    } finally {
      state.close();
    }
    const db = new DatabaseSync(path.join(dataDir, 'state.sqlite'), { readOnly: true });
    expect(schemaVersion(db)).toBe(LATEST_STATE_VERSION);
    db.close();
  });

  it('migration 2 records the owner of ephemeral keys; keys of the first release get none', () => {
    writeFirstReleaseDirectory();
    const state = SandboxState.open(dataDir, { owner: { pid: 4242, host: 'test-host' } });
    const ephemeral = state.issueKey('one command', { ephemeral: true });
    const lasting = state.issueKey('serve');
    state.close();
    const db = new DatabaseSync(path.join(dataDir, 'state.sqlite'), { readOnly: true });
    try {
      expect(schemaVersion(db)).toBe(LATEST_STATE_VERSION);
      const owners = db.prepare('SELECT key_id, owner_pid, owner_host FROM api_keys ORDER BY created_at, key_id').all();
      expect(owners).toEqual(
        expect.arrayContaining([
          { key_id: 'key_000000000001', owner_pid: null, owner_host: null },
          { key_id: ephemeral.key_id, owner_pid: 4242, owner_host: 'test-host' },
          { key_id: lasting.key_id, owner_pid: null, owner_host: null },
        ]),
      );
    } finally {
      db.close();
    }
  });

  it('migration 3 gives every existing key the account acct_sandbox and adds answer_jobs; new keys take their account', () => {
    writeFirstReleaseDirectory();
    openStateDatabase(dataDir, MIGRATIONS.slice(0, 2)).close();
    const state = SandboxState.open(dataDir);
    try {
      expect(state.authenticate(OLD_KEY)).toEqual({ ok: true, key_id: 'key_000000000001', account_id: 'acct_sandbox' });
      const other = state.issueKey('another account', { account: 'acct_other' });
      expect(state.authenticate(other.api_key)).toEqual({ ok: true, key_id: other.key_id, account_id: 'acct_other' });
      expect(state.answerJob('ans_000000000000000000000000')).toBeUndefined();
    } finally {
      state.close();
    }
    const db = new DatabaseSync(path.join(dataDir, 'state.sqlite'), { readOnly: true });
    try {
      expect(schemaVersion(db)).toBe(LATEST_STATE_VERSION);
      const columns = (db.prepare('PRAGMA table_info(answer_jobs)').all() as { name: string }[]).map((c) => c.name);
      expect(columns).toEqual([
        'job_id', 'account_id', 'key_id', 'status', 'query', 'request_json', 'created_at', 'updated_at', 'finished_at',
        'answer', 'sources_json', 'error_code', 'error_message', 'usage_month', 'unit_released',
      ]);
    } finally {
      db.close();
    }
  });

  it('migration 4 moves usage to acct_sandbox with the contract kinds (documents → retrieval) and adds accounts', () => {
    writeFirstReleaseDirectory();
    openStateDatabase(dataDir, MIGRATIONS.slice(0, 3)).close();
    const v3 = new DatabaseSync(path.join(dataDir, 'state.sqlite'));
    const usage = v3.prepare('INSERT INTO usage (month, kind, used) VALUES (?, ?, ?)');
    usage.run('2025-03', 'documents', 4);
    usage.run('2025-03', 'answers', 2);
    usage.run('2025-02', 'documents', 9);
    usage.run('2025-02', 'search', 0);
    v3.prepare('INSERT INTO api_keys (key_id, name, prefix, key_sha256, created_at, account_id) VALUES (?, ?, ?, ?, ?, ?)').run(
      'key_000000000002', 'other account', 'sbx_live_OOOO', sha256(`sbx_live_${'O'.repeat(32)}`), '2025-01-02T00:00:00.000Z', 'acct_other',
    );
    v3.close();

    const state = SandboxState.open(dataDir, { now: () => new Date('2025-03-20T10:00:00Z'), quotas: { retrieval: 5 } });
    try {
      expect(state.used(DEFAULT_ACCOUNT_ID, 'search', '2025-03')).toBe(7);
      expect(state.used(DEFAULT_ACCOUNT_ID, 'retrieval', '2025-03')).toBe(4);
      expect(state.used(DEFAULT_ACCOUNT_ID, 'answers', '2025-03')).toBe(2);
      expect(state.used(DEFAULT_ACCOUNT_ID, 'retrieval', '2025-02')).toBe(9);
      expect(state.used('acct_other', 'retrieval', '2025-03')).toBe(0);
      // The kept count is counted against: one more retrieval fits the quota of 5.
      expect(state.consume(DEFAULT_ACCOUNT_ID, 'retrieval')).toMatchObject({ allowed: true, used: 5 });
      expect(state.consume(DEFAULT_ACCOUNT_ID, 'retrieval').allowed).toBe(false);
      for (const account of [DEFAULT_ACCOUNT_ID, 'acct_other']) {
        expect(state.account(account)).toMatchObject({ account_id: account, plan: 'sandbox', overage: { allowed: false, limit: 0 } });
      }
    } finally {
      state.close();
    }
    const db = new DatabaseSync(path.join(dataDir, 'state.sqlite'), { readOnly: true });
    try {
      expect(schemaVersion(db)).toBe(LATEST_STATE_VERSION);
      expect(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'usage'").all()).toEqual([]);
      expect(db.prepare('SELECT account_id, month, kind, used FROM account_usage ORDER BY month, kind').all()).toEqual([
        { account_id: 'acct_sandbox', month: '2025-02', kind: 'retrieval', used: 9 },
        { account_id: 'acct_sandbox', month: '2025-03', kind: 'answers', used: 2 },
        { account_id: 'acct_sandbox', month: '2025-03', kind: 'retrieval', used: 5 },
        { account_id: 'acct_sandbox', month: '2025-03', kind: 'search', used: 7 },
      ]);
      const accounts = db.prepare('SELECT account_id, plan, overage_allowed, overage_limit, created_at FROM accounts ORDER BY account_id').all() as Record<string, unknown>[];
      expect(accounts.map(({ created_at, ...rest }) => rest)).toEqual([
        { account_id: 'acct_other', plan: 'sandbox', overage_allowed: 0, overage_limit: 0 },
        { account_id: 'acct_sandbox', plan: 'sandbox', overage_allowed: 0, overage_limit: 0 },
      ]);
      for (const { created_at } of accounts) expect(created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    } finally {
      db.close();
    }
  });

  it('migration 5 adds sessions to a version 4 directory, keeping its keys, accounts and usage', () => {
    const clock = { now: () => new Date('2025-03-20T10:00:00Z') };
    writeFirstReleaseDirectory();
    openStateDatabase(dataDir, MIGRATIONS.slice(0, 4)).close();
    const v4 = new DatabaseSync(path.join(dataDir, 'state.sqlite'));
    v4.prepare("UPDATE accounts SET overage_allowed = 1, overage_limit = 9 WHERE account_id = 'acct_sandbox'").run();
    const keysBefore = v4.prepare('SELECT key_id, status FROM api_keys ORDER BY key_id').all();
    v4.close();

    const state = SandboxState.open(dataDir, clock);
    try {
      expect(state.used(DEFAULT_ACCOUNT_ID, 'search', '2025-03')).toBe(7);
      expect(state.account(DEFAULT_ACCOUNT_ID)?.overage).toEqual({ allowed: true, limit: 9 });
      expect(state.listKeys(DEFAULT_ACCOUNT_ID).map(({ key_id, status }) => ({ key_id, status }))).toEqual(keysBefore);
      const session = state.createSession(DEFAULT_ACCOUNT_ID, { ttlMs: 60_000 });
      expect(state.authenticateSession(session.session_token)).toEqual({ ok: true, session_id: session.session_id, account_id: DEFAULT_ACCOUNT_ID });
    } finally {
      state.close();
    }
    const db = new DatabaseSync(path.join(dataDir, 'state.sqlite'), { readOnly: true });
    try {
      expect(schemaVersion(db)).toBe(5);
      const columns = db.prepare("SELECT name FROM pragma_table_info('sessions') ORDER BY cid").all().map((row) => (row as { name: string }).name);
      expect(columns).toEqual(['session_id', 'account_id', 'token_sha256', 'created_at', 'expires_at', 'ephemeral']);
    } finally {
      db.close();
    }
  });

  it('applies only the migrations above the stored version, each in its own transaction', () => {
    writeFirstReleaseDirectory();
    const second: Migration = { version: 2, description: 'test: a notes table', sql: 'CREATE TABLE notes (text TEXT);' };
    const broken: Migration = {
      version: 3,
      description: 'test: fails halfway',
      sql: "CREATE TABLE half (x); INSERT INTO notes VALUES ('partial'); SELECT * FROM no_such_table;",
    };
    const db = openStateDatabase(dataDir, [...MIGRATIONS.slice(0, 1), second]);
    expect(schemaVersion(db)).toBe(2);
    db.close();
    expect(() => openStateDatabase(dataDir, [...MIGRATIONS.slice(0, 1), second, broken])).toThrow(/no_such_table/);
    const after = new DatabaseSync(path.join(dataDir, 'state.sqlite'), { readOnly: true });
    try {
      expect(schemaVersion(after)).toBe(2);
      expect(after.prepare("SELECT name FROM sqlite_master WHERE name = 'half'").all()).toEqual([]);
      expect(after.prepare('SELECT COUNT(*) AS n FROM notes').get()).toEqual({ n: 0 });
      expect(after.prepare('SELECT key_id FROM api_keys').all()).toEqual([{ key_id: 'key_000000000001' }]);
    } finally {
      after.close();
    }
  });

  it('refuses a database newer than this pravo', () => {
    const db = openStateDatabase(dataDir, [...MIGRATIONS, { version: LATEST_STATE_VERSION + 1, description: 'test', sql: '' }]);
    db.close();
    expect(() => SandboxState.open(dataDir)).toThrow(/newer than this pravo/);
  });

  it('waits at most BUSY_TIMEOUT_MS (250 ms) for a lock', () => {
    expect(BUSY_TIMEOUT_MS).toBe(250);
    const db = openStateDatabase(dataDir);
    try {
      expect(db.prepare('PRAGMA busy_timeout').get()).toEqual({ timeout: 250 });
    } finally {
      db.close();
    }
  });

  it('commits in WAL mode without an fsync per commit (synchronous NORMAL), so the write lock is held briefly', () => {
    const db = openStateDatabase(dataDir);
    try {
      expect(db.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
      expect(db.prepare('PRAGMA synchronous').get()).toEqual({ synchronous: 1 });
    } finally {
      db.close();
    }
  });
});

/**
 * Holds the write lock of `<dataDir>/state.sqlite` from a worker thread (its own connection) for `holdMs`, as another
 * process would; resolves once the lock is taken, and `released` once it is given back.
 */
function holdWriteLock(holdMs: number): { released: Promise<void> } {
  const signal = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(
    `
      const { workerData } = require('node:worker_threads');
      const { DatabaseSync } = require('node:sqlite');
      const db = new DatabaseSync(workerData.file);
      db.exec('BEGIN IMMEDIATE');
      Atomics.store(workerData.signal, 0, 1);
      Atomics.notify(workerData.signal, 0);
      Atomics.wait(workerData.signal, 0, 1, workerData.holdMs);
      db.exec('COMMIT');
      db.close();
    `,
    { eval: true, workerData: { file: path.join(dataDir, 'state.sqlite'), signal, holdMs } },
  );
  const released = new Promise<void>((resolve, reject) => {
    worker.once('exit', () => resolve());
    worker.once('error', reject);
  });
  // Blocks until the worker holds the lock (or has failed and exited, leaving 0: then `released` rejects).
  Atomics.wait(signal, 0, 0, 10_000);
  expect(Atomics.load(signal, 0)).toBe(1);
  return { released };
}

describe('contention with other processes', () => {
  /** Four times the request timeout: a lock held this long makes a request's write fail, but not a start-up step. */
  const HOLD_MS = 4 * BUSY_TIMEOUT_MS;

  it('opening and migrating wait for a write lock held longer than the request timeout', async () => {
    writeFirstReleaseDirectory();
    const { released } = holdWriteLock(HOLD_MS);
    const state = SandboxState.open(dataDir);
    try {
      expect(state.authenticate(OLD_KEY).ok).toBe(true);
    } finally {
      state.close();
      await released;
    }
    const db = new DatabaseSync(path.join(dataDir, 'state.sqlite'), { readOnly: true });
    expect(schemaVersion(db)).toBe(LATEST_STATE_VERSION);
    db.close();
  });

  it('issuing and deleting keys wait for it too; a request-time write still gives up after BUSY_TIMEOUT_MS', async () => {
    const state = SandboxState.open(dataDir);
    try {
      const lock = holdWriteLock(HOLD_MS);
      const issued = state.issueKey('one command', { ephemeral: true });
      await lock.released;

      const again = holdWriteLock(HOLD_MS);
      expect(() => state.consume(DEFAULT_ACCOUNT_ID, 'search')).toThrow(/locked|busy/i);
      expect(state.deleteEphemeralKey(issued.key_id)).toBe(true);
      expect(state.deleteStaleEphemeralKeys()).toBe(0);
      await again.released;

      expect(state.authenticate(issued.api_key)).toEqual({ ok: false, code: 'invalid_api_key' });
      expect(state.consume(DEFAULT_ACCOUNT_ID, 'search').allowed).toBe(true);
    } finally {
      state.close();
    }
  });
});

describe('patiently', () => {
  const busy = () => Object.assign(new Error('database is locked'), { code: 'ERR_SQLITE_ERROR', errcode: 5 });

  it('runs the work again after a busy failure, with the long busy timeout, then restores the request timeout', () => {
    const db = openStateDatabase(dataDir);
    try {
      const timeouts: unknown[] = [];
      let attempts = 0;
      const result = patiently(db, () => {
        timeouts.push((db.prepare('PRAGMA busy_timeout').get() as { timeout: number }).timeout);
        if (++attempts < 3) throw busy();
        return 'done';
      });
      expect(result).toBe('done');
      expect(attempts).toBe(3);
      for (const timeout of timeouts) {
        expect(timeout).toBeGreaterThan(BUSY_TIMEOUT_MS);
        expect(timeout).toBeLessThanOrEqual(STARTUP_BUSY_TIMEOUT_MS);
      }
      expect(db.prepare('PRAGMA busy_timeout').get()).toEqual({ timeout: BUSY_TIMEOUT_MS });
    } finally {
      db.close();
    }
  });

  it('does not retry other errors, rolls back an open transaction, and gives up once its time is spent', () => {
    const db = openStateDatabase(dataDir);
    try {
      let attempts = 0;
      expect(() =>
        patiently(db, () => {
          attempts++;
          db.exec('BEGIN IMMEDIATE');
          db.exec('SELECT * FROM no_such_table');
        }),
      ).toThrow(/no_such_table/);
      expect(attempts).toBe(1);
      expect(db.isTransaction).toBe(false);

      attempts = 0;
      expect(() =>
        patiently(
          db,
          () => {
            attempts++;
            throw busy();
          },
          0,
        ),
      ).toThrow(/locked/);
      expect(attempts).toBe(1);
      expect(db.prepare('PRAGMA busy_timeout').get()).toEqual({ timeout: BUSY_TIMEOUT_MS });
    } finally {
      db.close();
    }
  });
});

describe('file modes', () => {
  const mode = (file: string): number => fs.statSync(file).mode & 0o777;

  it('creates the data directory 0700 and state.sqlite, -wal and -shm 0600', () => {
    const state = SandboxState.open(path.join(dataDir, 'nested'));
    try {
      state.issueKey('modes');
      expect(mode(path.join(dataDir, 'nested'))).toBe(0o700);
      const files = fs.readdirSync(path.join(dataDir, 'nested'));
      expect(files).toEqual(expect.arrayContaining(['state.sqlite', 'state.sqlite-wal', 'state.sqlite-shm']));
      for (const name of files) expect(mode(path.join(dataDir, 'nested', name)), name).toBe(0o600);
    } finally {
      state.close();
    }
  });

  it('makes an existing state.sqlite 0600', () => {
    writeFirstReleaseDirectory();
    fs.chmodSync(path.join(dataDir, 'state.sqlite'), 0o644);
    SandboxState.open(dataDir).close();
    expect(mode(path.join(dataDir, 'state.sqlite'))).toBe(0o600);
  });
});
