/**
 * The API keys pravo last saw listed (`pravo keys list`), kept so that shell completion can offer key ids for
 * `pravo keys revoke` without asking the server. Only ids, names and statuses are kept: never a key's secret, nor its
 * prefix. One file per target, `<state dir>/keys/<profile>.json` (`@sandbox.json` for `--sandbox`; `@` is not allowed
 * in profile names), mode 0600, written atomically.
 */
import path from 'node:path';
import { pravoPaths } from './paths.js';

/** One key as kept: spec `GET /v1/keys` record fields `key_id`, `name`, `status`. */
export interface KnownKey {
  key_id: string;
  name: string;
  /** `active` or `revoked`. */
  status: string;
}

/** What is kept of the last listing of one target. */
export interface KnownKeys {
  /** When the listing was received, ISO 8601. */
  saved_at: string;
  keys: KnownKey[];
}

/** The target a listing belongs to: the run's profile name, or `@sandbox` for an in-process sandbox. */
export function knownKeysScope(profile: string, sandbox: boolean): string {
  return sandbox ? '@sandbox' : profile;
}

/** The file of a target's listing: `<state dir>/keys/<scope>.json`. */
export function knownKeysFile(env: NodeJS.ProcessEnv, scope: string): string {
  return path.join(pravoPaths(env).state, 'keys', `${scope}.json`);
}

/**
 * Replaces the kept listing of a target (atomically, 0600; directories created 0700).
 * @throws StateDirectoryError / StateWriteError (see `atomic.ts`) when it cannot be written.
 */
export async function saveKnownKeys(env: NodeJS.ProcessEnv, scope: string, known: KnownKeys): Promise<void> {
  const { writeFileAtomic } = await import('./atomic.js');
  await writeFileAtomic(knownKeysFile(env, scope), `${JSON.stringify(known, null, 2)}\n`, { mode: 0o600 });
}
