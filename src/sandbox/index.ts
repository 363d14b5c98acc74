/**
 * The sandbox's one front door for the CLI side: everything `pravo` (its commands, the factory, the target, the config
 * layer) uses of the sandbox comes from here, never from a module inside `src/sandbox/`. What it offers:
 *
 * - the corpus inputs: resolving `--corpus` paths to input files, their description and the index key;
 * - starting a sandbox over them (`startSandbox`: the index opened or built, the state opened, the HTTP server
 *   listening), for `pravo sandbox serve` and the in-process sandbox of `--sandbox`;
 * - minting a user-session token in a data directory's state (`pravo sandbox token`);
 * - the importer of official act payloads (`pravo sandbox import`);
 * - the defaults and limits the commands check their options against.
 *
 * Start-up: the CLI loads this module only for sandbox work. What it imports at load time is light (the corpus
 * inputs, constants); the server, the index (node:sqlite), the state and the importer load on first use.
 */
import type { Clock } from '../shared/clock.js';
import type { RunningSandbox, StartSandboxOptions } from './start.js';
import { DEFAULT_ACCOUNT_ID } from './state/keys.js';

export { corpusInputsKey, describeInputs, resolveCorpusInputs, type CorpusInputs } from './corpus/inputs.js';
export type { ImportPlan, ImportResult, SkippedAct } from './import.js';
export { defaultSearchWorkers, MAX_SEARCH_WORKERS } from './search/pool.js';
export { DEFAULT_AUTH_CACHE_TTL_MS } from './state/keys.js';
export { DEFAULT_ACCOUNT_ID };
export type { OverageSetting, Quota, Quotas } from './state/store.js';
export type { RunningSandbox, StartSandboxOptions };

/**
 * Starts a sandbox: opens (or builds, reporting progress) the search index of `options.inputs`, opens the state of
 * `options.dataDir`, and listens on `options.host`:`options.port` (see `StartSandboxOptions`; spec: the whole
 * contract, served over the corpus).
 * @throws as `start.ts` `startSandbox`: CorpusError / the file-system error when the inputs or the data directory
 *   cannot be used, the listen error (EADDRINUSE …), the abort reason when `options.signal` aborts during the build.
 */
export async function startSandbox(options: StartSandboxOptions): Promise<RunningSandbox> {
  const { startSandbox: start } = await import('./start.js');
  return start(options);
}

/** A user-session token minted in a sandbox's state: the token, its expiry (ISO 8601 UTC) and its account. */
export interface MintedSession {
  session_token: string;
  expires_at: string;
  account_id: string;
}

/**
 * Mints a user-session token of the sandbox's account (`DEFAULT_ACCOUNT_ID`) in the state of `dataDir`
 * (`state.sqlite`, created when missing), valid for `ttlMs` milliseconds from `clock.now()` (spec: Key and account
 * endpoints authenticate with a user-session token; `pravo sandbox token`). The state is closed again before this
 * returns.
 * @throws the state's error when `dataDir`'s state cannot be opened or written (busy, full, not writable).
 */
export async function mintSession(dataDir: string, options: { ttlMs: number; clock: Pick<Clock, 'now'> }): Promise<MintedSession> {
  const { SandboxState } = await import('./state/store.js');
  const accountId = DEFAULT_ACCOUNT_ID;
  const state = SandboxState.open(dataDir, { now: () => new Date(options.clock.now()) });
  try {
    const session = state.createSession(accountId, { ttlMs: options.ttlMs });
    return { session_token: session.session_token, expires_at: session.expires_at, account_id: accountId };
  } finally {
    state.close();
  }
}

/**
 * The importer of official act payloads (`pravo sandbox import`): `planImport`, `importActs` and their errors
 * (`ImportUsageError`, `ImportWriteError`), loaded on first use (it brings the payload reader and gzip).
 */
export async function loadImporter(): Promise<typeof import('./import.js')> {
  return import('./import.js');
}
