/**
 * Starting and stopping a sandbox: open (or build) the corpus index, open the account state, issue a key and create a
 * user session, listen. Used by `pravo sandbox serve` (long-lived) and `pravo search --sandbox` (one request, in the
 * same process).
 */
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { AnswerRunner, checkAnswerRunnerOptions, type AnswerRunnerOptions } from './answers/jobs.js';
import type { SkippedInput } from './corpus/collect.js';
import type { IndexProgress } from './corpus/index-build.js';
import { openIndex } from './corpus/index-db.js';
import type { CorpusInputs } from './corpus/inputs.js';
import { createSandboxServer } from './http/server.js';
import { ROUTES } from './routes/table.js';
import { prepareSearch } from './search/pipeline.js';
import { createSearchPool, MAX_SEARCH_WORKERS } from './search/pool.js';
import { inProcessSearcher, type Searcher } from './search/searcher.js';
import { QUOTA_KINDS } from '../contract/types.js';
import { writeUserFile } from '../shared/user-files.js';
import {
  checkAuthCacheTtl,
  checkSessionTtl,
  DEFAULT_ACCOUNT_ID,
  DEFAULT_SESSION_TTL_MS,
  EPHEMERAL_SESSION_TTL_MS,
  normalizeOverage,
  SandboxState,
  type CreatedSession,
  type IssuedKey,
  type OverageSetting,
  type Quotas,
} from './state/store.js';

/** Options of {@link startSandbox}. */
export interface StartSandboxOptions {
  /**
   * The corpus files (JSON Lines, gzipped or not; docs/sandbox.md, "Sandbox corpus format") and the courts file,
   * resolved (see `resolveCorpusInputs`). Give this or `corpusPath`.
   */
  inputs?: CorpusInputs;
  /** Shorthand for `inputs: {corpusFiles: [corpusPath]}`: one corpus file, no courts file. */
  corpusPath?: string;
  /** Directory of the state database and the corpus indexes; created (0700) when missing. */
  dataDir: string;
  /** Interface to listen on; default `127.0.0.1` (loopback only). */
  host?: string;
  /** TCP port; `0` (default) picks a free one. */
  port?: number;
  /**
   * This process's monthly quotas in units per kind (`search`, `retrieval`, `answers`; `null`: unlimited), replacing
   * the plan's for every account (`pravo sandbox serve --quota`); kinds left out keep the plan's (`sandbox`: 10 000
   * searches, 10 000 retrievals, 1 000 answer jobs; see `plans.ts`). Default: the plan's.
   */
  quotas?: Quotas;
  /**
   * The overage setting written for `acct_sandbox` at start (`pravo sandbox serve --overage`), a start-up write
   * (waits up to 10 s for the lock); stored, so it stands for later starts. Default: the stored setting is kept.
   */
  overage?: OverageSetting;
  /**
   * Answer jobs (see `AnswerRunner`): `delayMs` from creation to the final status (default 3000; `running` after a
   * quarter of it), `failureRate` 0 to 1 (default 0), `clock` of the jobs' timers, times and 15-minute rule (default
   * the system clock; also the state's clock when `now` is not given), `random` drawn against `failureRate` (default
   * `Math.random`). Jobs still pending when the sandbox closes stay unfinished in `state.sqlite`.
   */
  answers?: Omit<AnswerRunnerOptions, 'log'>;
  /**
   * Issue a key that is deleted when the sandbox stops (for one-command sandboxes). Only this sandbox's key is deleted;
   * one whose process was killed first is removed by a later start on the same data directory (see
   * `SandboxState.deleteStaleEphemeralKeys`). The run's session is then ephemeral too: deleted when the sandbox stops,
   * and valid for one hour by default (one whose process was killed first just expires).
   */
  ephemeralKey?: boolean;
  /**
   * Lifetime of the user session created at start for `acct_sandbox` (see {@link RunningSandbox.sessionToken}), in
   * milliseconds: more than 0, at most 30 days. Default 24 hours (`DEFAULT_SESSION_TTL_MS`), one hour with
   * `ephemeralKey`.
   */
  sessionTtlMs?: number;
  /**
   * How long this process accepts an API key it looked up without reading `state.sqlite` again, in milliseconds, 0 to
   * disable (`pravo sandbox serve --auth-cache-ttl`; see `OpenStateOptions.authCacheTtlMs`): a key revoked by another
   * process on the data directory is refused here at most this long after this process last looked it up; one
   * revoked through this server, at once. Default 60 000 (the spec's "up to 60 seconds").
   */
  authCacheTtlMs?: number;
  /** Name recorded with the issued key. */
  keyName?: string;
  /**
   * A key kept between runs (for `--sandbox`, which keeps it in the config file), instead of one per start: `reuse`, the
   * key an earlier start on this data directory issued, is taken up when it is still an active, non-ephemeral key here,
   * so that `pravo keys list` shows one key whose last use moves rather than a new key per command; otherwise (none
   * given, revoked, unknown, another data directory's) a key is issued, not ephemeral, and
   * {@link RunningSandbox.keyIssued} says so, for the caller to keep. `ephemeralKey` then applies to the session only.
   */
  persistentKey?: { reuse?: string };
  /**
   * Worker threads that run the searches (`POST /v1/search` and answer jobs; see `search/pool.ts`), 0 to
   * `MAX_SEARCH_WORKERS`: each opens the index read-only with its own connection once the index is open, in parallel,
   * without delaying the start (a search that arrives first waits for one). `0` (default) searches on the event loop,
   * which holds up every other request while a search runs: right for one request (`--sandbox`), not for a server
   * under load (`pravo sandbox serve` takes `defaultSearchWorkers()`).
   */
  searchWorkers?: number;
  /** Index build progress. */
  onProgress?: (progress: IndexProgress) => void;
  /**
   * Cancels the start (Ctrl-C) while the corpus is hashed or its index built: the build stops, its temporary file is
   * removed, and the start rejects with an `AbortError` (`DOMException`). Not consulted once the index is open.
   */
  signal?: AbortSignal;
  /** Log lines (requests, events); default: discarded. */
  log?: (line: string) => void;
  /** Clock of the account state (month of usage, key times); default `answers.clock`, else the system clock. */
  now?: () => Date;
}

/** A running sandbox. */
export interface RunningSandbox {
  /** `http://HOST:PORT`, the base URL to give clients (without `/v1`). */
  baseUrl: string;
  /** A key issued for this run, active until revoked (or, if ephemeral, until {@link close} or this process ends). */
  apiKey: string;
  keyId: string;
  /** Whether this start issued {@link apiKey} (false when it took up `persistentKey.reuse`). */
  keyIssued: boolean;
  /**
   * A user-session token of `acct_sandbox` created for this run (`sbx_sess_…`), for the key and account endpoints
   * (`Authorization: Bearer`); valid until {@link sessionExpiresAt} (or, if ephemeral, until {@link close}).
   */
  sessionToken: string;
  /** The session's id, `sess_…` (the log names it so). */
  sessionId: string;
  /** When the session expires, ISO 8601 UTC. */
  sessionExpiresAt: string;
  /** The key of the inputs (see `inputsKeyOf`), 16 hex digits. */
  inputsKey: string;
  /** Documents and articles in the index. */
  documentCount: number;
  articleCount: number;
  /** Input files the index build skipped as unreadable (see `reportSkippedInputs`). */
  skippedInputCount: number;
  /** Stops listening, ends open connections, stops the search workers, closes the databases. Safe to call twice. */
  close(): Promise<void>;
}

/**
 * One log line on `acct_sandbox`'s plan, quotas in this process and overage, e.g. `account acct_sandbox: plan
 * sandbox; monthly quotas search 10000, retrieval 20, answers unlimited; overage off`.
 */
function describeAccount(state: SandboxState): string {
  const account = state.account(DEFAULT_ACCOUNT_ID);
  const quotas = state.quotas(DEFAULT_ACCOUNT_ID);
  const listed = QUOTA_KINDS.map((kind) => `${kind} ${quotas[kind] ?? 'unlimited'}`).join(', ');
  const overage = account?.overage.allowed ? `overage allowed up to ${account.overage.limit} units a month` : 'overage off';
  return `account ${DEFAULT_ACCOUNT_ID}: plan ${account?.plan ?? 'sandbox'}; monthly quotas ${listed}; ${overage}`;
}

/**
 * The one log line about the inputs an index build skipped, e.g. `the corpus index skipped 9 input files it could not
 * read (9 not well-formed XML); the list: /data/index-0123456789abcdef.skipped.txt`, after writing that list (one
 * `message` a line; `writeUserFile`: atomically, 0600) beside the index, unless it already holds the same. When the
 * list cannot be written, the line says so and gives the first message instead. Never rejects.
 */
export async function reportSkippedInputs(dataDir: string, inputsKey: string, skipped: readonly SkippedInput[]): Promise<string> {
  const reasons = new Map<string, number>();
  for (const input of skipped) {
    const after = input.message.includes(input.path) ? input.message.slice(input.message.indexOf(input.path) + input.path.length) : input.message;
    const reason = after.replace(/^[:\s]+/, '').split(/[:;]/)[0]!.trim() || 'unreadable';
    reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
  }
  const counts = [...reasons].map(([reason, n]) => `${n} ${reason}`).join(', ');
  const head = `the corpus index skipped ${skipped.length} input file${skipped.length === 1 ? '' : 's'} it could not read (${counts})`;
  const file = path.join(dataDir, `index-${inputsKey}.skipped.txt`);
  const text = skipped.map((input) => `${input.message}\n`).join('');
  try {
    if ((await readFile(file, 'utf8').catch(() => undefined)) !== text) await writeUserFile(file, text);
    return `${head}; the list: ${file}`;
  } catch {
    return `${head}; the first: ${skipped[0]!.message}`;
  }
}

/**
 * Starts a sandbox. Builds the corpus index on first use of a corpus (reporting progress), then reuses it. Removes
 * the ephemeral keys of ended runs and the sessions expired over a day ago before issuing this run's key and creating
 * its session.
 * @throws RangeError when `answers.delayMs` or `answers.failureRate` is out of range, `overage.limit` is not a whole
 *   number from 0 to `Number.MAX_SAFE_INTEGER`, `sessionTtlMs` is not more than 0 and at most 30 days,
 *   `authCacheTtlMs` is negative or not finite, or `searchWorkers` is not a whole number from 0 to
 *   `MAX_SEARCH_WORKERS` (before anything is opened); Error when the search worker module is missing (not built);
 *   CorpusError when an input file is missing or malformed, or a `document_id` is in two corpus files; AbortError (a `DOMException`) when `signal` aborts
 *   during the index build (nothing is left behind in `dataDir`); Error with `code` `EADDRINUSE` / `EACCES` when the
 *   port cannot be taken; the file-system or SQLite error when `state.sqlite` cannot be opened or migrated, the key
 *   cannot be issued or the overage setting written (e.g. it was written by a newer pravo, or other processes keep it
 *   locked for 10 s). Nothing stays open after a failure.
 */
export async function startSandbox(options: StartSandboxOptions): Promise<RunningSandbox> {
  const log = options.log ?? (() => {});
  checkAnswerRunnerOptions(options.answers ?? {});
  if (options.overage) normalizeOverage(options.overage);
  const ephemeral = options.ephemeralKey ?? false;
  const sessionTtlMs = checkSessionTtl(options.sessionTtlMs ?? (ephemeral ? EPHEMERAL_SESSION_TTL_MS : DEFAULT_SESSION_TTL_MS));
  if (options.authCacheTtlMs !== undefined) checkAuthCacheTtl(options.authCacheTtlMs);
  const searchWorkers = options.searchWorkers ?? 0;
  if (!Number.isInteger(searchWorkers) || searchWorkers < 0 || searchWorkers > MAX_SEARCH_WORKERS) {
    throw new RangeError(`the number of search workers must be a whole number from 0 to ${MAX_SEARCH_WORKERS}, not ${searchWorkers}`);
  }
  const clock = options.answers?.clock;
  const now = options.now ?? (clock ? () => new Date(clock.now()) : undefined);
  const index = await openIndex({
    ...(options.inputs ? { inputs: options.inputs } : {}),
    ...(options.corpusPath !== undefined ? { corpusPath: options.corpusPath } : {}),
    dataDir: options.dataDir,
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  // Inputs the build skipped are said at every start of this index, in one line with where the list is, so that a user
  // learns of them without a screenful of the same known-bad files at each start.
  if (index.skippedInputs.length > 0) log(await reportSkippedInputs(options.dataDir, index.inputsKey, index.skippedInputs));
  let state: SandboxState;
  let issued: IssuedKey | undefined;
  // The key an earlier run kept, taken up again (see `persistentKey`); this start issued `issued` when there is none.
  let reused: IssuedKey | undefined;
  let session: CreatedSession | undefined;
  let searcher: Searcher | undefined;
  try {
    if (searchWorkers === 0) {
      searcher = inProcessSearcher(index);
    } else {
      // The workers start now, in parallel with the rest of the start; none is awaited.
      const pool = createSearchPool(index, { size: searchWorkers, log });
      const started = performance.now();
      // A worker that cannot start is logged by the pool.
      pool.ready().then(() => log(`${pool.size} search worker(s) ready in ${Math.round(performance.now() - started)} ms`), () => {});
      searcher = pool;
    }
    // Load the search's in-memory metadata now (about 0.1 s on the full corpus) rather than on the first request (the
    // checks of POST /v1/answers use it even when the searches run on workers).
    prepareSearch(index);
    state = SandboxState.open(options.dataDir, {
      quotas: options.quotas ?? {},
      ...(now ? { now } : {}),
      ...(options.authCacheTtlMs !== undefined ? { authCacheTtlMs: options.authCacheTtlMs } : {}),
    });
  } catch (error) {
    await searcher?.close();
    index.close();
    throw error;
  }
  const runSearcher = searcher;
  /**
   * Stops the searcher (its workers end; searches not answered yet reject), deletes what this run owns when
   * ephemeral, its key and its session (only those: other runs on the same data directory are still using theirs),
   * then closes the databases, whatever fails.
   */
  const release = async (): Promise<void> => {
    try {
      await runSearcher.close();
    } finally {
      try {
        if (ephemeral && issued) state.deleteEphemeralKey(issued.key_id);
      } finally {
        try {
          if (ephemeral && session) state.deleteSession(session.session_id);
        } finally {
          state.close();
          index.close();
        }
      }
    }
  };
  try {
    // Keys left by runs killed before they could delete their own (kill -9, a crash); never those of running processes.
    const stale = state.deleteStaleEphemeralKeys();
    if (stale > 0) log(`removed ${stale} ephemeral key(s) left by ended runs`);
    const expired = state.deleteExpiredSessions();
    if (expired > 0) log(`removed ${expired} session(s) expired over a day ago`);
    reused = options.persistentKey?.reuse === undefined ? undefined : state.activeKey(options.persistentKey.reuse);
    // Only a key of this run is ephemeral; a persistent one (issued or taken up) is left alone by the release.
    issued = reused ?? state.issueKey(options.keyName ?? 'sandbox', { ephemeral: ephemeral && options.persistentKey === undefined });
    session = state.createSession(DEFAULT_ACCOUNT_ID, { ttlMs: sessionTtlMs, ephemeral });
    if (options.overage) state.setOverage(DEFAULT_ACCOUNT_ID, options.overage, { startUp: true });
    log(describeAccount(state));
  } catch (error) {
    await release();
    throw error;
  }
  const key = issued;
  const runSession = session;

  const answers = new AnswerRunner(runSearcher, index, state, { ...options.answers, log });
  const server = createSandboxServer({ index, searcher: runSearcher, state, answers, log }, ROUTES);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    answers.close();
    await release();
    throw error;
  }
  const address = server.address() as AddressInfo;
  // A wildcard address listens everywhere but is no address to connect to (Windows refuses it): clients get loopback.
  const reachable = address.address === '0.0.0.0' ? '127.0.0.1' : address.address === '::' ? '::1' : address.address;
  const host = address.family === 'IPv6' ? `[${reachable}]` : reachable;

  let closed: Promise<void> | undefined;
  return {
    baseUrl: `http://${host}:${address.port}`,
    apiKey: key.api_key,
    keyId: key.key_id,
    keyIssued: reused === undefined,
    sessionToken: runSession.session_token,
    sessionId: runSession.session_id,
    sessionExpiresAt: runSession.expires_at,
    inputsKey: index.inputsKey,
    documentCount: index.documentCount,
    articleCount: index.articleCount,
    skippedInputCount: index.skippedInputs.length,
    close() {
      // Jobs still pending stay queued or running in state.sqlite; the 15-minute rule fails them later.
      answers.close();
      closed ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }).finally(release);
      return closed;
    },
  };
}
