/**
 * Where a command's requests go: the live service of the active profile, or a sandbox started in this process
 * (`--sandbox`). Both are real HTTP: an in-process sandbox listens on a loopback port, so the command runs the same
 * path either way. Also the sandbox start with its index-build progress, shared by `--sandbox` and
 * `pravo sandbox serve`.
 */
import type { Credentials } from './api/credentials.js';
import type { CredentialSource } from './errors/advice.js';
import { ConfigError, EnvironmentError, UsageError, UserCancelledError } from './errors/cli.js';
import type { ResolvedProfile } from './config/profile.js';
import type { Indicator, IOStreams } from './io/iostreams.js';
import type { Clock } from './shared/clock.js';
import { describeFileSystemProblem } from './errors/file-system.js';
import type { CorpusInputs, RunningSandbox, StartSandboxOptions } from './sandbox/index.js';

/** A resolved target. */
export interface Target {
  kind: 'service' | 'sandbox';
  /** Base URL without `/v1`. */
  baseUrl: string;
  /** The credentials the target accepts (an API key; a session token when configured). */
  credentials: Credentials;
  /** Profile name, or `sandbox` for an in-process sandbox. */
  profile: string;
  /** Where the API key came from, for advice on a rejected key. */
  apiKeySource: CredentialSource;
  /** Stops an in-process sandbox; nothing for the service. Safe to call twice. */
  close(): Promise<void>;
}

/**
 * The live service of a profile.
 * @throws ConfigError when the profile has no base URL (saying how to set one, or to use --sandbox). A missing key is
 *   not an error here: the request that needs it fails with `MissingCredentialError` before anything is sent.
 */
export function serviceTarget(profile: ResolvedProfile): Target {
  if (!profile.base_url) {
    throw new ConfigError(
      `No base URL is configured for profile "${profile.name}". Set it with \`pravo config set base-url URL\` (or PRAVO_BASE_URL), or work offline with --sandbox.`,
    );
  }
  const credentials: Credentials = {};
  if (profile.api_key) credentials.api_key = { kind: 'api_key', apiKey: profile.api_key, header: profile.auth_header };
  if (profile.session_token) credentials.session = { kind: 'session', token: profile.session_token };
  return {
    kind: 'service',
    baseUrl: profile.base_url,
    credentials,
    profile: profile.name,
    apiKeySource: profile.sources.api_key,
    close: async () => {},
  };
}

/**
 * A sandbox started in this process for one command, with a key and a user session (so that the key and account
 * commands work with `--sandbox` too). With `key`, the key is the data directory's own, kept between runs (issued at
 * the first run, taken up by the next: see {@link SandboxKeyKeeper}); without it, a key deleted when the sandbox
 * stops. The session is deleted when the sandbox stops. `signal` (the run's cancellation) stops an index
 * build: see {@link startSandboxWithProgress}. `answerDelayMs`: its answer jobs' time from creation to the final
 * status (`PRAVO_SANDBOX_ANSWER_DELAY`; default the sandbox's, 3 s).
 */
export async function sandboxTarget(
  io: IOStreams,
  clock: Clock,
  options: { inputs: CorpusInputs; dataDir: string; signal?: AbortSignal; answerDelayMs?: number; key?: SandboxKeyKeeper },
): Promise<Target> {
  const stored = options.key?.stored();
  const sandbox = await startSandboxWithProgress(io, clock, {
    inputs: options.inputs,
    dataDir: options.dataDir,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.answerDelayMs !== undefined ? { answers: { delayMs: options.answerDelayMs } } : {}),
    ephemeralKey: true,
    ...(options.key ? { persistentKey: stored ? { reuse: stored.api_key } : {} } : {}),
    keyName: 'pravo --sandbox',
  });
  if (options.key && sandbox.keyIssued) {
    try {
      options.key.save({ api_key: sandbox.apiKey, key_id: sandbox.keyId });
    } catch (error) {
      // The command can still run with the key; the next run issues another.
      io.message(`Warning: the sandbox's key could not be kept for the next run: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return {
    kind: 'sandbox',
    baseUrl: sandbox.baseUrl,
    credentials: {
      api_key: { kind: 'api_key', apiKey: sandbox.apiKey, header: 'x-api-key' },
      session: { kind: 'session', token: sandbox.sessionToken },
    },
    profile: 'sandbox',
    apiKeySource: 'sandbox',
    close: () => sandbox.close(),
  };
}

/**
 * Where `--sandbox` keeps the key its data directory issued (the config file: `ConfigStore.sandboxKey`), so that the
 * next run takes it up instead of issuing one: `stored` reads it, `save` keeps a newly issued one.
 */
export interface SandboxKeyKeeper {
  stored(): { api_key: string; key_id: string } | undefined;
  save(key: { api_key: string; key_id: string }): void;
}

/** How {@link startSandboxWithProgress} reports an index build when there is no progress bar. */
export type SayLine = (line: string) => void;

/**
 * Starts a sandbox, showing the index build's progress: a progress bar on stderr when it is a terminal (and `bar` is
 * not false), else two lines (start, end) through `say`. Nothing is shown when an existing index is reused, except a
 * warning through `say` when the index has no documents (an empty corpus file, or one of blank lines): every search
 * would find nothing.
 * @throws EnvironmentError for a malformed corpus (naming its line) or a port that cannot be taken;
 *   UserCancelledError when `options.signal` aborts during the build (the build's temporary file is removed).
 */
export async function startSandboxWithProgress(
  io: IOStreams,
  clock: Clock,
  options: Omit<StartSandboxOptions, 'onProgress'>,
  display: { bar?: boolean; say?: SayLine } = {},
): Promise<RunningSandbox> {
  const [{ startSandbox, describeInputs }, { indexProgressText, indexReadyText }] = await Promise.all([import('./sandbox/index.js'), import('./render/progress.js')]);
  const inputs: CorpusInputs = options.inputs ?? { corpusFiles: options.corpusPath === undefined ? [] : [options.corpusPath] };
  const say = display.say ?? ((line: string) => io.message(line));
  const useBar = display.bar !== false && io.showsProgress;
  const started = clock.now();
  let announced = false;
  let records = 0;
  let bar: Indicator | undefined;
  let pending: Promise<unknown> | undefined;
  let sandbox: RunningSandbox;
  try {
    sandbox = await startSandbox({
      ...options,
      onProgress: (progress) => {
        if (progress.phase !== 'indexing') return;
        records = progress.total;
        const text = indexProgressText(progress.done, progress.total);
        if (!announced) {
          announced = true;
          if (useBar) pending = io.startSpinner(text).then((indicator) => (bar = indicator));
          else say(`Building the search index of ${describeInputs(inputs)} (once per set of inputs)…`);
        }
        bar?.update(text);
      },
    });
  } catch (error) {
    await pending;
    bar?.stop();
    if (error instanceof Error && error.name === 'AbortError') throw new UserCancelledError();
    throw explainStartFailure(error, options);
  }
  await pending;
  bar?.stop();
  if (announced) {
    say(indexReadyText({ documents: sandbox.documentCount, elements: sandbox.articleCount, records, skipped: sandbox.skippedInputCount }, clock.now() - started));
  }
  if (sandbox.documentCount === 0) {
    say(
      `Warning: the sandbox corpus ${inputs.corpusFiles.join(', ')} has no documents, so every search will find nothing. ` +
        'Point --corpus at a corpus file or a directory of them: JSON Lines, one document per line, gzipped or not (docs/sandbox.md, "Sandbox corpus format").',
    );
  }
  return sandbox;
}

/**
 * A start failure as an error that says what to do: a malformed corpus names its line; a taken port suggests another;
 * a listen address that is not this machine's names `--host`; a data directory that cannot be written (full disk,
 * read-only, permission denied, a damaged or locked state database) names the directory. Anything else is returned
 * unchanged.
 */
export function explainStartFailure(error: unknown, options: { dataDir: string; port?: number; host?: string }): unknown {
  if (error instanceof Error && error.name === 'CorpusError') {
    return new EnvironmentError(`${error.message}\nFix that file, or point --corpus at other files (format: docs/sandbox.md, "Sandbox corpus format").`, { cause: error });
  }
  const { code, syscall } = (error ?? {}) as { code?: unknown; syscall?: unknown };
  if (syscall === 'listen' && (code === 'EADDRINUSE' || code === 'EACCES')) {
    return new EnvironmentError(
      `Cannot listen on port ${options.port ?? 0}: ${code === 'EADDRINUSE' ? 'it is in use' : 'permission denied'}. Choose another --port, or 0 for a free one.`,
      { cause: error },
    );
  }
  if (code === 'EADDRNOTAVAIL' || (syscall === 'getaddrinfo' && (code === 'ENOTFOUND' || code === 'EAI_AGAIN'))) {
    return new UsageError(`--host ${options.host ?? ''} is not an address of this machine (${String(code)}). Give one of its addresses, e.g. 127.0.0.1 (the default) or 0.0.0.0 for every interface.`);
  }
  const problem = dataDirProblem(error);
  if (problem !== undefined) {
    return new EnvironmentError(`The sandbox data directory ${options.dataDir} cannot be used: ${problem}`, { cause: error });
  }
  return error;
}

/** SQLite primary result codes (https://sqlite.org/rescode.html) that say the data directory is unusable. */
const SQLITE_PROBLEMS: Record<number, string> = {
  3: 'permission denied. Make it writable by you, or choose another --data-dir.',
  5: 'another pravo process holds its state database locked. Try again in a moment.',
  8: 'its state database is read-only. Make it writable by you, or choose another --data-dir.',
  10: 'a disk I/O error occurred. Check the disk, or choose another --data-dir.',
  11: 'its state database (state.sqlite) is damaged. Move that file away to start with new keys and usage, or choose another --data-dir.',
  13: 'the disk is full. Free some space, or choose another --data-dir.',
  14: 'a database file cannot be opened there (is it read-only?). Make it writable by you, or choose another --data-dir.',
  26: 'its state database (state.sqlite) is not a database. Move that file away, or choose another --data-dir.',
};

/** File-system error codes that say the same (in the words of `describeFileSystemProblem`), and what to do. */
const ERRNO_FIXES: Record<string, string> = {
  ENOSPC: 'Free some space, or choose another --data-dir.',
  EDQUOT: 'Free some space, or choose another --data-dir.',
  EROFS: 'Choose another --data-dir.',
  EACCES: 'Choose another --data-dir.',
  EPERM: 'Choose another --data-dir.',
};

/** What is wrong with the data directory, by the error of node:sqlite or the file system; `undefined` otherwise. */
function dataDirProblem(error: unknown): string | undefined {
  const { errcode, code } = (error ?? {}) as { errcode?: unknown; code?: unknown };
  if (typeof errcode === 'number') return SQLITE_PROBLEMS[errcode & 0xff];
  if (typeof code === 'string' && code in ERRNO_FIXES) return `${describeFileSystemProblem(code)}. ${ERRNO_FIXES[code]}`;
  return undefined;
}
