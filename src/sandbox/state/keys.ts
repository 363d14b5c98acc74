/**
 * API keys in `state.sqlite` (spec: API key facts; Authentication, API key): only live keys are issued (prefix
 * `sbx_live_`, which ends in `_live_`); the full value is returned once, at issue; only its SHA-256 hash is stored; a
 * revoked key is rejected with `revoked_api_key` at once by the process that revoked it.
 *
 * Authentication cache (spec: Authentication rule 4; Limits, "Key revocation propagation": "immediate in the handling
 * process, up to 60 seconds elsewhere"): each handle remembers the keys it accepted, per SHA-256, with the time (its
 * clock) it looked them up, and accepts a remembered key without reading the database for `authCacheTtlMs` (default
 * {@link DEFAULT_AUTH_CACHE_TTL_MS}) after that lookup. A revocation or deletion through the handle forgets the key at
 * once; another process sharing the data directory keeps accepting a key it remembers until its entry is that old,
 * then reads the database again and refuses it. Unknown and revoked keys are never remembered.
 *
 * Ephemeral keys (one per `pravo search --sandbox` run, which lives for one command) record the process that issued
 * them (`owner_pid`, `owner_host`). The run deletes its own key, by `key_id`, when it stops; a run killed before that
 * (kill -9, a crash, a power loss) leaves its key behind, and the next sandbox start on the data directory removes it
 * (see {@link KeyStore.deleteStale}). Several runs may share a data directory, so no run ever deletes another live
 * run's key.
 */
import crypto from 'node:crypto';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { LIVE_KEY_PATTERN, type ApiKeyRecord, type ApiKeyStatus } from '../../contract/types.js';
import { processIsRunning } from '../../shared/processes.js';
import { sqliteTrouble } from './db-errors.js';

/** Prefix of every sandbox key; ends in `_live_` as the spec requires of live keys. */
export const SANDBOX_KEY_PREFIX = 'sbx_live_';

/** Characters of a key shown in listings (the prefix and the first four random characters). */
const DISPLAY_PREFIX_LENGTH = SANDBOX_KEY_PREFIX.length + 4;

/**
 * The account of keys issued without one, and of every key issued before accounts were recorded (schema version 3's
 * default of `api_keys.account_id`).
 */
export const DEFAULT_ACCOUNT_ID = 'acct_sandbox';

/**
 * How long a handle accepts a key it looked up without reading the database again, in milliseconds (the spec's "up to
 * 60 seconds elsewhere"; `pravo sandbox serve --auth-cache-ttl`). See the module's doc.
 */
export const DEFAULT_AUTH_CACHE_TTL_MS = 60_000;

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
  /** The plan recorded with the key (the account's, see `SandboxState.issueKey`); default the column's, `sandbox`. */
  plan?: string;
}

/** Result of checking a presented key: for an accepted key, its `key_id` and the `account_id` it belongs to. */
export type KeyCheck =
  | { ok: true; key_id: string; account_id: string }
  | { ok: false; code: 'invalid_api_key' | 'revoked_api_key' };

/** A key this handle accepted: who it is, and when (ms since epoch, state clock) the database said so. */
interface CachedKey {
  key_id: string;
  account_id: string;
  lookedUpAt: number;
}

/** The columns of an {@link ApiKeyRecord}, in its order. */
const RECORD_COLUMNS = 'key_id, name, prefix, plan, status, created_at, last_used_at, revoked_at';

/** The `api_keys` table, and this handle's authentication cache (see the module's doc). */
export class KeyStore {
  readonly #db: DatabaseSync;
  readonly #now: () => Date;
  readonly #findByHash: StatementSync;
  readonly #touch: StatementSync;
  readonly #list: StatementSync;
  readonly #record: StatementSync;
  readonly #revoke: StatementSync;
  /** Per `key_id`, the time (ms since epoch) this process last wrote its `last_used_at`. */
  readonly #lastWritten = new Map<string, number>();
  /** Accepted keys per SHA-256 (see the module's doc). */
  readonly #cache = new Map<string, CachedKey>();
  readonly #authCacheTtlMs: number;

  readonly #owner: KeyOwner;
  readonly #isRunning: (pid: number) => boolean;

  /**
   * @param now clock of `created_at`, `last_used_at`, `revoked_at`, and of the age of ephemeral keys.
   * @param owner this process, recorded with the ephemeral keys it issues.
   * @param isRunning whether a process of this host with that id is running (default {@link processIsRunning}).
   * @param authCacheTtlMs how long an accepted key is accepted again without a lookup, in ms (0: never); default
   *   {@link DEFAULT_AUTH_CACHE_TTL_MS}.
   */
  constructor(
    db: DatabaseSync,
    now: () => Date,
    owner: KeyOwner,
    isRunning: (pid: number) => boolean = processIsRunning,
    authCacheTtlMs: number = DEFAULT_AUTH_CACHE_TTL_MS,
  ) {
    this.#db = db;
    this.#now = now;
    this.#owner = owner;
    this.#isRunning = isRunning;
    this.#authCacheTtlMs = authCacheTtlMs;
    this.#findByHash = db.prepare('SELECT key_id, status, account_id FROM api_keys WHERE key_sha256 = ?');
    this.#touch = db.prepare(
      'UPDATE api_keys SET last_used_at = ? WHERE key_id = ? AND (last_used_at IS NULL OR last_used_at <= ?)',
    );
    this.#list = db.prepare(`SELECT ${RECORD_COLUMNS} FROM api_keys WHERE account_id = ? ORDER BY created_at, key_id`);
    this.#record = db.prepare(`SELECT ${RECORD_COLUMNS} FROM api_keys WHERE account_id = ? AND key_id = ?`);
    this.#revoke = db.prepare(
      "UPDATE api_keys SET status = 'revoked', revoked_at = ? WHERE account_id = ? AND key_id = ? AND status = 'active'",
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
        "INSERT INTO api_keys (key_id, name, prefix, key_sha256, ephemeral, created_at, owner_pid, owner_host, account_id, plan) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, COALESCE(?, 'sandbox'))",
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
        options.plan ?? null,
      );
    return { key_id: keyId, api_key: apiKey, prefix };
  }

  /**
   * Checks a presented key (spec: Authentication, rule 3): `invalid_api_key` when malformed or unknown,
   * `revoked_api_key` when revoked; an accepted key with its `key_id` and `account_id`. For an accepted key, records `last_used_at` at most once per
   * {@link LAST_USED_RESOLUTION_MS} (remembered per key in this process, and checked against the stored value, so other
   * processes' writes count too). That write is best effort: when the database is busy or full it is skipped (and
   * tried again at the next authentication), so a read-only request still succeeds.
   *
   * An accepted key is remembered with the time of its lookup and accepted without a lookup while less than
   * `authCacheTtlMs` has passed since (see the module's doc); a key revoked meanwhile by another process is thus
   * accepted until then. A clock that went back counts as an entry too old.
   * @throws the SQLite error of the lookup (e.g. a corrupt database); never for the `last_used_at` write when busy/full.
   */
  authenticate(apiKey: string): KeyCheck {
    if (!LIVE_KEY_PATTERN.test(apiKey)) return { ok: false, code: 'invalid_api_key' };
    const hash = sha256(apiKey);
    const now = this.#now().getTime();
    const cached = this.#cache.get(hash);
    if (cached && now >= cached.lookedUpAt && now - cached.lookedUpAt < this.#authCacheTtlMs) {
      this.#recordUse(cached.key_id);
      return { ok: true, key_id: cached.key_id, account_id: cached.account_id };
    }
    this.#cache.delete(hash);
    const row = this.#findByHash.get(hash) as { key_id: string; status: string; account_id: string } | undefined;
    if (!row) return { ok: false, code: 'invalid_api_key' };
    if (row.status !== 'active') return { ok: false, code: 'revoked_api_key' };
    if (this.#authCacheTtlMs > 0) this.#cache.set(hash, { key_id: row.key_id, account_id: row.account_id, lookedUpAt: now });
    this.#recordUse(row.key_id);
    return { ok: true, key_id: row.key_id, account_id: row.account_id };
  }

  /**
   * `apiKey` as an issued key (`key_id`, prefix) when it is an active key that was not issued as ephemeral (a key an
   * earlier run stored for reuse), without recording a use; `undefined` when it is malformed, unknown, revoked or
   * ephemeral. Lets a one-command sandbox (`--sandbox`) take up the key an earlier run on the data directory issued.
   * @throws the SQLite error of the lookup.
   */
  activeKey(apiKey: string): IssuedKey | undefined {
    if (!LIVE_KEY_PATTERN.test(apiKey)) return undefined;
    const row = this.#db.prepare("SELECT key_id, prefix FROM api_keys WHERE key_sha256 = ? AND status = 'active' AND ephemeral = 0").get(sha256(apiKey)) as
      | { key_id: string; prefix: string }
      | undefined;
    return row === undefined ? undefined : { key_id: row.key_id, api_key: apiKey, prefix: row.prefix };
  }

  /** Forgets the cached acceptance of `keyId`, if any (a revocation or deletion through this handle). */
  #forget(keyId: string): void {
    for (const [hash, entry] of this.#cache) if (entry.key_id === keyId) this.#cache.delete(hash);
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
   * The keys of `accountId` (ephemeral ones too), oldest first (`created_at`, then `key_id`), as records: never their
   * secrets nor hashes.
   * @throws the SQLite error of the read.
   */
  list(accountId: string): ApiKeyRecord[] {
    return (this.#list.all(accountId) as unknown as KeyRow[]).map(toRecord);
  }

  /** The key `keyId` of `accountId` as a record; undefined when that account has no such key. @throws the SQLite error. */
  record(accountId: string, keyId: string): ApiKeyRecord | undefined {
    const row = this.#record.get(accountId, keyId) as KeyRow | undefined;
    return row && toRecord(row);
  }

  /**
   * Revokes the key `keyId` of `accountId` (spec: States and transitions, API key) and forgets it in this handle's
   * authentication cache, so this process refuses it at once (others within their cache's TTL). A key already revoked
   * keeps its `revoked_at`. Returns false when no active key of that account has this `key_id`.
   * @throws the SQLite error of the update.
   */
  revoke(accountId: string, keyId: string): boolean {
    const result = this.#revoke.run(this.#now().toISOString(), accountId, keyId);
    this.#forget(keyId);
    this.#lastWritten.delete(keyId);
    return Number(result.changes) > 0;
  }

  /**
   * Deletes one ephemeral key, by `key_id` (a run's own key, when the run stops). Keys not issued as ephemeral are
   * left alone. Returns false when there was no such ephemeral key.
   * @throws the SQLite error of the delete.
   */
  deleteEphemeral(keyId: string): boolean {
    this.#forget(keyId);
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
      if (ownerDead || row.created_at < cutoff) {
        deleted += Number(remove.run(row.key_id).changes);
        this.#forget(row.key_id);
      }
    }
    return deleted;
  }
}

/** SHA-256 of a key, lowercase hex (64 characters): the only form in which keys are stored. */
export function sha256(value: string): string {
  return crypto.createHash('sha256').update(value, 'utf8').digest('hex');
}

/** A row of {@link RECORD_COLUMNS}. */
interface KeyRow {
  key_id: string;
  name: string;
  prefix: string;
  plan: string;
  status: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

function toRecord(row: KeyRow): ApiKeyRecord {
  return {
    key_id: row.key_id,
    name: row.name,
    prefix: row.prefix,
    plan: row.plan,
    status: row.status as ApiKeyStatus,
    created_at: row.created_at,
    last_used_at: row.last_used_at,
    revoked_at: row.revoked_at,
  };
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * `length` random characters of [0-9A-Za-z], uniformly distributed (rejection sampling over `crypto.randomBytes`): the
 * secret part of keys and session tokens (32 characters: about 190 bits).
 */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of crypto.randomBytes(length)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}
