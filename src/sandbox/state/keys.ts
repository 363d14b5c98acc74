/**
 * API keys in `state.sqlite` (spec: API key facts; Authentication, API key): only live keys are issued (prefix
 * `sbx_live_`, which ends in `_live_`); the full value is returned once, at issue; only its SHA-256 hash is stored; a
 * revoked key is rejected with `revoked_api_key` at once.
 *
 * Ephemeral keys (one per `pravo search --sandbox` run, which lives for one command) record the process that issued
 * them (`owner_pid`, `owner_host`). The run deletes its own key, by `key_id`, when it stops; a run killed before that
 * (kill -9, a crash, a power loss) leaves its key behind, and the next sandbox start on the data directory removes it
 * (see {@link KeyStore.deleteStale}). Several runs may share a data directory, so no run ever deletes another live
 * run's key.
 */
import crypto from 'node:crypto';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { LIVE_KEY_PATTERN } from '../../api/types.js';
import { processIsRunning } from '../processes.js';
import { sqliteTrouble } from './db.js';

/** Prefix of every sandbox key; ends in `_live_` as the spec requires of live keys. */
export const SANDBOX_KEY_PREFIX = 'sbx_live_';

/** Characters of a key shown in listings (the prefix and the first four random characters). */
const DISPLAY_PREFIX_LENGTH = SANDBOX_KEY_PREFIX.length + 4;

/**
 * The account of keys issued without one, and of every key issued before accounts were recorded (schema version 3's
 * default of `api_keys.account_id`).
 */
export const DEFAULT_ACCOUNT_ID = 'acct_sandbox';

/** `last_used_at` of a key is written at most once per this many milliseconds. */
export const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Age after which an ephemeral key is removed even when its owner cannot be shown dead, in milliseconds (24 hours):
 * for keys issued on another host sharing the directory, keys issued before owners were recorded (schema version 1),
 * and keys whose owner's process id has been reused. No run of one command lives that long.
 */
export const EPHEMERAL_KEY_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/** The process that issues ephemeral keys: its id and host name. */
export interface KeyOwner {
  pid: number;
  host: string;
}

/** A newly issued key: the only time its full value exists outside the caller's hands. */
export interface IssuedKey {
  key_id: string;
  /** The full key. Shown once; never stored. */
  api_key: string;
  /** Non-secret prefix for display, e.g. `sbx_live_Ab3d`. */
  prefix: string;
}

/** Options of {@link KeyStore.issue}. */
export interface IssueKeyOptions {
  /** Deleted when its run stops (see the module's doc); default false. */
  ephemeral?: boolean;
  /** The account the key belongs to; default {@link DEFAULT_ACCOUNT_ID}. Answer jobs are visible to its keys only. */
  account?: string;
}

/** Result of checking a presented key: for an accepted key, its `key_id` and the `account_id` it belongs to. */
export type KeyCheck =
  | { ok: true; key_id: string; account_id: string }
  | { ok: false; code: 'invalid_api_key' | 'revoked_api_key' };

/** The `api_keys` table. */
export class KeyStore {
  readonly #db: DatabaseSync;
  readonly #now: () => Date;
  readonly #findByHash: StatementSync;
  readonly #touch: StatementSync;
  /** Per `key_id`, the time (ms since epoch) this process last wrote its `last_used_at`. */
  readonly #lastWritten = new Map<string, number>();

  readonly #owner: KeyOwner;
  readonly #isRunning: (pid: number) => boolean;

  /**
   * @param now clock of `created_at`, `last_used_at`, `revoked_at`, and of the age of ephemeral keys.
   * @param owner this process, recorded with the ephemeral keys it issues.
   * @param isRunning whether a process of this host with that id is running (default {@link processIsRunning}).
   */
  constructor(db: DatabaseSync, now: () => Date, owner: KeyOwner, isRunning: (pid: number) => boolean = processIsRunning) {
    this.#db = db;
    this.#now = now;
    this.#owner = owner;
    this.#isRunning = isRunning;
    this.#findByHash = db.prepare('SELECT key_id, status, account_id FROM api_keys WHERE key_sha256 = ?');
    this.#touch = db.prepare(
      'UPDATE api_keys SET last_used_at = ? WHERE key_id = ? AND (last_used_at IS NULL OR last_used_at <= ?)',
    );
  }

  /**
   * Issues a new active key of `options.account` (default {@link DEFAULT_ACCOUNT_ID}) and stores its SHA-256 hash. An
   * `ephemeral` key records this process as its owner; the owner deletes it with {@link deleteEphemeral}, or, once the
   * owner is dead, any process with {@link deleteStale}.
   * @throws the SQLite error of the insert (e.g. SQLITE_BUSY when another process holds the write lock).
   */
  issue(name: string, options: IssueKeyOptions = {}): IssuedKey {
    const apiKey = SANDBOX_KEY_PREFIX + randomBase62(32);
    const keyId = `key_${crypto.randomBytes(6).toString('hex')}`;
    const prefix = apiKey.slice(0, DISPLAY_PREFIX_LENGTH);
    const owner = options.ephemeral ? this.#owner : { pid: null, host: null };
    this.#db
      .prepare(
        'INSERT INTO api_keys (key_id, name, prefix, key_sha256, ephemeral, created_at, owner_pid, owner_host, account_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(
        keyId,
        name,
        prefix,
        sha256(apiKey),
        options.ephemeral ? 1 : 0,
        this.#now().toISOString(),
        owner.pid,
        owner.host,
        options.account ?? DEFAULT_ACCOUNT_ID,
      );
    return { key_id: keyId, api_key: apiKey, prefix };
  }

  /**
   * Checks a presented key (spec: Authentication, rule 3): `invalid_api_key` when malformed or unknown,
   * `revoked_api_key` when revoked; an accepted key with its `key_id` and `account_id`. For an accepted key, records `last_used_at` at most once per
   * {@link LAST_USED_RESOLUTION_MS} (remembered per key in this process, and checked against the stored value, so other
   * processes' writes count too). That write is best effort: when the database is busy or full it is skipped (and
   * tried again at the next authentication), so a read-only request still succeeds.
   * @throws the SQLite error of the lookup (e.g. a corrupt database); never for the `last_used_at` write when busy/full.
   */
  authenticate(apiKey: string): KeyCheck {
    if (!LIVE_KEY_PATTERN.test(apiKey)) return { ok: false, code: 'invalid_api_key' };
    const row = this.#findByHash.get(sha256(apiKey)) as { key_id: string; status: string; account_id: string } | undefined;
    if (!row) return { ok: false, code: 'invalid_api_key' };
    if (row.status !== 'active') return { ok: false, code: 'revoked_api_key' };
    this.#recordUse(row.key_id);
    return { ok: true, key_id: row.key_id, account_id: row.account_id };
  }

  #recordUse(keyId: string): void {
    const now = this.#now().getTime();
    const last = this.#lastWritten.get(keyId);
    if (last !== undefined && now - last < LAST_USED_RESOLUTION_MS && now >= last) return;
    try {
      const result = this.#touch.run(new Date(now).toISOString(), keyId, new Date(now - LAST_USED_RESOLUTION_MS).toISOString());
      // Not written: another handle wrote it less than a minute ago; remember when, to write again a minute after that.
      const stored = Number(result.changes) > 0 ? now : Date.parse(this.#readLastUsed(keyId) ?? '');
      this.#lastWritten.set(keyId, Number.isNaN(stored) ? now : stored);
    } catch (error) {
      if (sqliteTrouble(error) === undefined) throw error;
    }
  }

  #readLastUsed(keyId: string): string | null | undefined {
    return (this.#db.prepare('SELECT last_used_at FROM api_keys WHERE key_id = ?').get(keyId) as
      | { last_used_at: string | null }
      | undefined)?.last_used_at;
  }

  /**
   * Revokes a key (spec: API key states); takes effect at once. Returns false when no active key has this `key_id`.
   * @throws the SQLite error of the update.
   */
  revoke(keyId: string): boolean {
    const result = this.#db
      .prepare("UPDATE api_keys SET status = 'revoked', revoked_at = ? WHERE key_id = ? AND status = 'active'")
      .run(this.#now().toISOString(), keyId);
    this.#lastWritten.delete(keyId);
    return Number(result.changes) > 0;
  }

  /**
   * Deletes one ephemeral key, by `key_id` (a run's own key, when the run stops). Keys not issued as ephemeral are
   * left alone. Returns false when there was no such ephemeral key.
   * @throws the SQLite error of the delete.
   */
  deleteEphemeral(keyId: string): boolean {
    this.#lastWritten.delete(keyId);
    return Number(this.#db.prepare('DELETE FROM api_keys WHERE key_id = ? AND ephemeral = 1').run(keyId).changes) > 0;
  }

  /**
   * Deletes the ephemeral keys left by runs that ended without deleting their own (killed, crashed): those whose owner
   * is a process of this host that is no longer running, and those older than {@link EPHEMERAL_KEY_MAX_AGE_MS}
   * whoever their owner (another host, unknown, or a process id reused since). Keys of running processes are kept.
   * Returns the number deleted.
   * @throws the SQLite error of the read or the delete.
   */
  deleteStale(): number {
    const cutoff = new Date(this.#now().getTime() - EPHEMERAL_KEY_MAX_AGE_MS).toISOString();
    const rows = this.#db
      .prepare('SELECT key_id, owner_pid, owner_host, created_at FROM api_keys WHERE ephemeral = 1')
      .all() as { key_id: string; owner_pid: number | null; owner_host: string | null; created_at: string }[];
    const remove = this.#db.prepare('DELETE FROM api_keys WHERE key_id = ? AND ephemeral = 1');
    let deleted = 0;
    for (const row of rows) {
      const ownerDead =
        row.owner_host === this.#owner.host && row.owner_pid !== null && row.owner_pid !== this.#owner.pid && !this.#isRunning(row.owner_pid);
      if (ownerDead || row.created_at < cutoff) deleted += Number(remove.run(row.key_id).changes);
    }
    return deleted;
  }
}

/** SHA-256 of a key, lowercase hex (64 characters): the only form in which keys are stored. */
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
