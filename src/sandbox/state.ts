/**
 * The sandbox's account state in node:sqlite (`<data dir>/state.sqlite`): API keys and monthly usage.
 *
 * Keys follow the spec's API key facts: only live keys are issued (prefix `sbx_live_`, which ends in `_live_`); the
 * full value is returned once, at issue; only its SHA-256 hash is stored; a revoked key is rejected with
 * `revoked_api_key`. Usage is counted per calendar month (UTC) against the account's monthly quota.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { LIVE_KEY_PATTERN } from '../api/types.js';

/** Prefix of every sandbox key; ends in `_live_` as the spec requires of live keys. */
export const SANDBOX_KEY_PREFIX = 'sbx_live_';

/** Characters of a key shown in listings (the prefix and the first four random characters). */
const DISPLAY_PREFIX_LENGTH = SANDBOX_KEY_PREFIX.length + 4;

/** Quota-consuming operations (spec: Quota rules). */
export type UsageKind = 'search' | 'documents' | 'answers';

/** Monthly quotas in units; `undefined` means unlimited. */
export type Quotas = Partial<Record<UsageKind, number>>;

/** A newly issued key: the only time its full value exists outside the caller's hands. */
export interface IssuedKey {
  key_id: string;
  /** The full key. Shown once; never stored. */
  api_key: string;
  /** Non-secret prefix for display, e.g. `sbx_live_Ab3d`. */
  prefix: string;
}

/** Result of checking a presented key. */
export type KeyCheck =
  | { ok: true; key_id: string }
  | { ok: false; code: 'invalid_api_key' | 'revoked_api_key' };

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

const SCHEMA_VERSION = 1;

/** The sandbox's keys and usage. Single-process writer; safe to open from several processes (WAL, busy timeout). */
export class SandboxState {
  readonly #db: DatabaseSync;
  readonly #now: () => Date;
  readonly #quotas: Quotas;

  private constructor(db: DatabaseSync, now: () => Date, quotas: Quotas) {
    this.#db = db;
    this.#now = now;
    this.#quotas = quotas;
  }

  /**
   * Opens (creating when needed) `<dataDir>/state.sqlite`.
   * @param now clock, injectable for tests (month boundaries).
   * @param quotas monthly quotas in units per kind.
   */
  static open(dataDir: string, options: { now?: () => Date; quotas?: Quotas } = {}): SandboxState {
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const db = new DatabaseSync(path.join(dataDir, 'state.sqlite'));
    db.exec('PRAGMA busy_timeout = 5000');
    db.exec('PRAGMA journal_mode = WAL');
    const version = (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
    if (version < SCHEMA_VERSION) {
      db.exec(`
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
        PRAGMA user_version = ${SCHEMA_VERSION};
      `);
    }
    return new SandboxState(db, options.now ?? (() => new Date()), options.quotas ?? {});
  }

  /**
   * Issues a new active key and stores its SHA-256 hash. `ephemeral` keys are deleted by {@link deleteEphemeralKeys}
   * (used by `pravo search --sandbox`, whose sandbox lives for one command).
   */
  issueKey(name: string, options: { ephemeral?: boolean } = {}): IssuedKey {
    const apiKey = SANDBOX_KEY_PREFIX + randomBase62(32);
    const keyId = `key_${crypto.randomBytes(6).toString('hex')}`;
    const prefix = apiKey.slice(0, DISPLAY_PREFIX_LENGTH);
    this.#db
      .prepare(
        'INSERT INTO api_keys (key_id, name, prefix, key_sha256, ephemeral, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(keyId, name, prefix, sha256(apiKey), options.ephemeral ? 1 : 0, this.#now().toISOString());
    return { key_id: keyId, api_key: apiKey, prefix };
  }

  /**
   * Checks a presented key (spec: Authentication, rule 3): `invalid_api_key` when malformed or unknown,
   * `revoked_api_key` when revoked. Records the time of last use of an accepted key.
   */
  authenticate(apiKey: string): KeyCheck {
    if (!LIVE_KEY_PATTERN.test(apiKey)) return { ok: false, code: 'invalid_api_key' };
    const row = this.#db.prepare('SELECT key_id, status FROM api_keys WHERE key_sha256 = ?').get(sha256(apiKey)) as
      | { key_id: string; status: string }
      | undefined;
    if (!row) return { ok: false, code: 'invalid_api_key' };
    if (row.status !== 'active') return { ok: false, code: 'revoked_api_key' };
    this.#db.prepare('UPDATE api_keys SET last_used_at = ? WHERE key_id = ?').run(this.#now().toISOString(), row.key_id);
    return { ok: true, key_id: row.key_id };
  }

  /** Revokes a key (spec: API key states); takes effect at once. Returns false when no such key exists. */
  revokeKey(keyId: string): boolean {
    const result = this.#db
      .prepare("UPDATE api_keys SET status = 'revoked', revoked_at = ? WHERE key_id = ? AND status = 'active'")
      .run(this.#now().toISOString(), keyId);
    return Number(result.changes) > 0;
  }

  /** Deletes the keys issued as ephemeral. */
  deleteEphemeralKeys(): void {
    this.#db.exec('DELETE FROM api_keys WHERE ephemeral = 1');
  }

  /**
   * Consumes one unit of the month's quota for `kind` when the quota allows it (spec: Quota rules); when the quota is
   * reached, consumes nothing and returns `allowed: false` (the server then answers `monthly_quota_exceeded`).
   */
  consume(kind: UsageKind): Consumption {
    const month = this.#now().toISOString().slice(0, 7);
    const quota = this.#quotas[kind];
    this.#db.exec('BEGIN IMMEDIATE');
    try {
      const row = this.#db.prepare('SELECT used FROM usage WHERE month = ? AND kind = ?').get(month, kind) as
        | { used: number }
        | undefined;
      const used = row?.used ?? 0;
      if (quota !== undefined && used >= quota) {
        this.#db.exec('COMMIT');
        return { allowed: false, used, quota, month };
      }
      this.#db
        .prepare(
          'INSERT INTO usage (month, kind, used) VALUES (?, ?, 1) ON CONFLICT (month, kind) DO UPDATE SET used = used + 1',
        )
        .run(month, kind);
      this.#db.exec('COMMIT');
      return { allowed: true, used: used + 1, quota, month };
    } catch (error) {
      this.#db.exec('ROLLBACK');
      throw error;
    }
  }

  /**
   * Gives back one unit consumed this month (never below zero): for a request rejected after its unit was consumed,
   * and for the spec's restored units (a timed-out answer job has its unit restored).
   */
  release(kind: UsageKind): void {
    const month = this.#now().toISOString().slice(0, 7);
    this.#db.prepare('UPDATE usage SET used = used - 1 WHERE month = ? AND kind = ? AND used > 0').run(month, kind);
  }

  /** Units of `kind` used in the current month. */
  used(kind: UsageKind): number {
    const month = this.#now().toISOString().slice(0, 7);
    const row = this.#db.prepare('SELECT used FROM usage WHERE month = ? AND kind = ?').get(month, kind) as
      | { used: number }
      | undefined;
    return row?.used ?? 0;
  }

  close(): void {
    this.#db.close();
  }
}

/** SHA-256 of a key, lowercase hex: the only form in which keys are stored. */
export function sha256(value: string): string {
  return crypto.createHash('sha256').update(value, 'utf8').digest('hex');
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `length` random characters of [0-9A-Za-z], uniformly distributed (rejection sampling). */
function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of crypto.randomBytes(length)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}
