/**
 * What the errors of `state.sqlite` mean: {@link sqliteTrouble} tells a busy or full database from other errors (for
 * the start-up retries of `db.ts` and the key lookups of `keys.ts`), and {@link stateUnavailable} turns those two into
 * the reason and message of the server's 503 (`SandboxStore.unavailable`, `../storage.ts`).
 *
 * It reads the error objects node:sqlite throws (`errcode`, `code`, `message`) and does not load node:sqlite, so that
 * the modules that only need these (`keys.ts`, and through it the sandbox's front door) stay light to load.
 */
import type { StorageUnavailable } from '../storage.js';

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

/**
 * What the server answers for an error of the state database during a request (see `SandboxStore.unavailable` in
 * `../storage.ts`): for {@link sqliteTrouble} `busy` (another process holds a lock past `BUSY_TIMEOUT_MS`, `db.ts`) and
 * `full` (the database or disk is full), the reason and the message of the 503 `service_unavailable` (with
 * `Retry-After: 1`); undefined for any other error (the server answers 500). Never throws.
 */
export function stateUnavailable(error: unknown): StorageUnavailable | undefined {
  switch (sqliteTrouble(error)) {
    case 'busy':
      return {
        reason: 'busy',
        message: "The sandbox's state database (state.sqlite) is busy: another process holds a lock on it. Retry in a moment.",
      };
    case 'full':
      return {
        reason: 'full',
        message: "The sandbox's state database (state.sqlite) cannot be written: the database or disk is full. Free some space and retry.",
      };
    default:
      return undefined;
  }
}
