/**
 * The sandbox's account state in `<data dir>/state.sqlite`: API keys (`keys.ts`) and monthly usage (`usage.ts`), over
 * the database opened and migrated by `db.ts`.
 *
 * Single writer per process; several processes may open the same directory (WAL). A lock held by another process
 * makes a write fail after {@link BUSY_TIMEOUT_MS} with SQLITE_BUSY, which the HTTP server answers with 503
 * `service_unavailable` (see `http/errors.ts`).
 */
import type { DatabaseSync } from 'node:sqlite';
import { BUSY_TIMEOUT_MS, openStateDatabase } from './db.js';
import { KeyStore, type IssuedKey, type KeyCheck } from './keys.js';
import { UsageStore, type Consumption, type Quotas, type UsageKind } from './usage.js';

export { SANDBOX_KEY_PREFIX, sha256, type IssuedKey, type KeyCheck } from './keys.js';
export type { Consumption, Quotas, UsageKind } from './usage.js';
export { BUSY_TIMEOUT_MS };

/** Options of {@link SandboxState.open}. */
export interface OpenStateOptions {
  /** Clock of key times and of the usage month; default the system clock. */
  now?: () => Date;
  /** Monthly quotas in units per kind; default unlimited. */
  quotas?: Quotas;
}

/** The sandbox's keys and usage. */
export class SandboxState {
  readonly #db: DatabaseSync;
  readonly #keys: KeyStore;
  readonly #usage: UsageStore;

  private constructor(db: DatabaseSync, now: () => Date, quotas: Quotas) {
    this.#db = db;
    this.#keys = new KeyStore(db, now);
    this.#usage = new UsageStore(db, now, quotas);
  }

  /**
   * Opens (creating when needed, 0700 directory, 0600 files) and migrates `<dataDir>/state.sqlite`.
   * @throws the file-system or SQLite error when it cannot be created, opened or migrated.
   */
  static open(dataDir: string, options: OpenStateOptions = {}): SandboxState {
    return new SandboxState(openStateDatabase(dataDir), options.now ?? (() => new Date()), options.quotas ?? {});
  }

  /** Issues a new active key (see `KeyStore.issue`); `ephemeral` keys are removed by {@link deleteEphemeralKeys}. */
  issueKey(name: string, options: { ephemeral?: boolean } = {}): IssuedKey {
    return this.#keys.issue(name, options);
  }

  /** Checks a presented key (spec: Authentication, rule 3; see `KeyStore.authenticate`). */
  authenticate(apiKey: string): KeyCheck {
    return this.#keys.authenticate(apiKey);
  }

  /** Revokes a key at once; false when no active key has this `key_id`. */
  revokeKey(keyId: string): boolean {
    return this.#keys.revoke(keyId);
  }

  /** Deletes the keys issued as ephemeral (used by `pravo search --sandbox`, whose sandbox lives for one command). */
  deleteEphemeralKeys(): void {
    this.#keys.deleteEphemeral();
  }

  /** Consumes one unit of `kind` when the month's quota allows it (spec: Quota rules; see `UsageStore.consume`). */
  consume(kind: UsageKind): Consumption {
    return this.#usage.consume(kind);
  }

  /** Gives back one unit of `kind` consumed this month (never below zero). */
  release(kind: UsageKind): void {
    this.#usage.release(kind);
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
