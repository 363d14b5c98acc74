/**
 * The sandbox's account state in `<data dir>/state.sqlite`: API keys (`keys.ts`) and monthly usage (`usage.ts`), over
 * the database opened and migrated by `db.ts`.
 *
 * Single writer per process; several processes may open the same directory (WAL). During a request, a lock held by
 * another process makes a write fail after {@link BUSY_TIMEOUT_MS} with SQLITE_BUSY, which the HTTP server answers
 * with 503 `service_unavailable` (see `http/errors.ts`). Opening, issuing a key and deleting keys are start-up and
 * shutdown steps: they wait up to {@link STARTUP_BUSY_TIMEOUT_MS} instead (see `patiently` in `db.ts`).
 */
import os from 'node:os';
import type { DatabaseSync } from 'node:sqlite';
import { BUSY_TIMEOUT_MS, openStateDatabase, patiently, STARTUP_BUSY_TIMEOUT_MS } from './db.js';
import { KeyStore, type IssuedKey, type KeyCheck, type KeyOwner } from './keys.js';
import { UsageStore, type Consumption, type Quotas, type UsageKind } from './usage.js';

export { EPHEMERAL_KEY_MAX_AGE_MS, SANDBOX_KEY_PREFIX, sha256, type IssuedKey, type KeyCheck, type KeyOwner } from './keys.js';
export type { Consumption, Quotas, UsageKind } from './usage.js';
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

/** The sandbox's keys and usage. */
export class SandboxState {
  readonly #db: DatabaseSync;
  readonly #keys: KeyStore;
  readonly #usage: UsageStore;

  private constructor(db: DatabaseSync, options: OpenStateOptions) {
    const now = options.now ?? (() => new Date());
    this.#db = db;
    this.#keys = new KeyStore(db, now, options.owner ?? { pid: process.pid, host: os.hostname() }, options.isRunning);
    this.#usage = new UsageStore(db, now, options.quotas ?? {});
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
   * An `ephemeral` key records this process as its owner and is removed by {@link deleteEphemeralKey}, or, if this
   * process dies first, by {@link deleteStaleEphemeralKeys} in a later start.
   * @throws the SQLite error of the insert.
   */
  issueKey(name: string, options: { ephemeral?: boolean } = {}): IssuedKey {
    return patiently(this.#db, () => this.#keys.issue(name, options));
  }

  /** Checks a presented key (spec: Authentication, rule 3; see `KeyStore.authenticate`). */
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

  /** Gives back one unit of `kind` consumed this month (never below zero). */
  release(kind: UsageKind): void {
    this.#usage.release(kind);
  }

  /** Whether one more unit of `kind` could be consumed now, consuming nothing (see `UsageStore.allows`). */
  allows(kind: UsageKind): boolean {
    return this.#usage.allows(kind);
  }

  /** The monthly quota of `kind` in units, `undefined` when unlimited. */
  quota(kind: UsageKind): number | undefined {
    return this.#usage.quota(kind);
  }

  /** Units of `kind` used in the current month. */
  used(kind: UsageKind): number {
    return this.#usage.used(kind);
  }

  /** Closes the database. Safe to call twice. */
  close(): void {
    if (this.#db.isOpen) this.#db.close();
  }
}
