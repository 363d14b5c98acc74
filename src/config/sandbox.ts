/**
 * Where an in-process or served sandbox takes its corpus and keeps its data (docs/sandbox.md), resolved from
 * the options every API command accepts (`--sandbox`, `--corpus`, `--data-dir`), the environment and the settings.
 */
import dns from 'node:dns/promises';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, EnvironmentError, UsageError } from '../errors/cli.js';
import { makePrivateDir } from '../shared/private-files.js';
import { sanitizeLine } from '../shared/sanitize.js';
import { resolveCorpusInputs, type CorpusInputs } from '../sandbox/index.js';
import { describeFileSystemProblem } from '../errors/file-system.js';
import { pravoPaths } from '../state/paths.js';

export { checkTargetOptions, type TargetOptions } from './target-options.js';
import type { TargetOptions } from './target-options.js';

/** Where the sandbox corpus was given, for messages. */
type CorpusSource = '--corpus' | 'PRAVO_SANDBOX_CORPUS' | 'the sandbox-corpus setting';

/**
 * The paths of `PRAVO_SANDBOX_CORPUS`: a list separated by the platform's path delimiter (`:` on Linux and macOS, `;`
 * on Windows), like PATH; empty entries are ignored.
 */
export function corpusPathsFromEnv(value: string | undefined): string[] {
  return (value ?? '').split(path.delimiter).filter((entry) => entry.trim() !== '');
}

/**
 * The sandbox's inputs (corpus files and courts file; naming rule in `src/sandbox/corpus/inputs.ts`, docs/sandbox.md,
 * "Sandbox inputs"), from the first source that gives any: `--corpus` (repeatable; each a file or a directory), else
 * `PRAVO_SANDBOX_CORPUS` (a list, see {@link corpusPathsFromEnv}), else the `sandbox-corpus` setting (a file or a
 * directory). Returns absolute paths; reads directories, not file contents.
 * @throws UsageError when `--corpus` is given an empty value; ConfigError when no source gives a path (saying how to
 *   give one), or when a path does not exist, a directory holds no corpus file, two courts files are given, or only a
 *   courts file is given: naming the path and its source.
 */
export function resolveCorpus(flag: readonly string[] | undefined, env: NodeJS.ProcessEnv, setting: string | undefined): CorpusInputs {
  let source: CorpusSource;
  let given: string[];
  if (flag !== undefined && flag.length > 0) {
    if (flag.some((p) => p.trim() === '')) throw new UsageError('--corpus needs a file or directory; it was given an empty value.');
    source = '--corpus';
    given = [...flag];
  } else if (corpusPathsFromEnv(env.PRAVO_SANDBOX_CORPUS).length > 0) {
    source = 'PRAVO_SANDBOX_CORPUS';
    given = corpusPathsFromEnv(env.PRAVO_SANDBOX_CORPUS);
  } else if (setting) {
    source = 'the sandbox-corpus setting';
    given = [setting];
  } else {
    throw new ConfigError(
      `No sandbox corpus given. Pass --corpus PATH (a corpus file or a directory of them; repeatable), set PRAVO_SANDBOX_CORPUS=PATH${path.delimiter}PATH..., ` +
        'or store one with `pravo config set sandbox-corpus PATH`. ' +
        'A corpus file is JSON Lines (gzipped or not), one document per line; beside a pravo checkout, ../shared/corpus holds the statutes, the court decisions and the courts.',
    );
  }
  try {
    return resolveCorpusInputs(given);
  } catch (error) {
    if (error instanceof Error && error.name === 'CorpusError') {
      throw new ConfigError(`Cannot use the sandbox corpus from ${source}: ${error.message}.`, { cause: error });
    }
    throw error;
  }
}

/**
 * The sandbox data directory and what chose it (for messages): `--data-dir`, else `PRAVO_SANDBOX_DATA_DIR`, else
 * `<user data dir>/sandbox` (`pravoPaths(env).data`). An absolute path; creates nothing.
 */
function dataDirChoice(flag: string | undefined, env: NodeJS.ProcessEnv): { dir: string; origin: '--data-dir' | 'PRAVO_SANDBOX_DATA_DIR' | undefined } {
  if (flag !== undefined) return { dir: path.resolve(flag), origin: '--data-dir' };
  if (env.PRAVO_SANDBOX_DATA_DIR) return { dir: path.resolve(env.PRAVO_SANDBOX_DATA_DIR), origin: 'PRAVO_SANDBOX_DATA_DIR' };
  return { dir: path.join(pravoPaths(env).data, 'sandbox'), origin: undefined };
}

/**
 * Resolves the sandbox data directory (see {@link dataDirChoice}), creates it (0700, bounded: see `makePrivateDir`)
 * and checks that it can be written, before any index is built or request served, so that a wrong path is reported
 * at once and by name. An empty `--data-dir` is refused.
 * @returns the absolute path.
 * @throws UsageError (exit 2) when `--data-dir` is empty, or names a file or a path under a file; ConfigError
 *   (exit 2) for the same in `PRAVO_SANDBOX_DATA_DIR`; EnvironmentError (exit 1) when the directory cannot be created
 *   or written (permission denied, read-only file system, full disk), naming it and the option that moves it.
 */
export function prepareDataDir(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  if (flag !== undefined && flag.trim() === '') throw new UsageError('--data-dir needs a directory; it was given an empty value.');
  const { dir, origin } = dataDirChoice(flag, env);
  const elsewhere = origin === undefined ? 'Choose another with --data-dir DIR or PRAVO_SANDBOX_DATA_DIR.' : `Choose another ${origin}.`;
  const fail = (reason: string, cause?: unknown): never => {
    const message = `Cannot use ${dir} as the sandbox data directory${origin ? ` (from ${origin})` : ''}: ${describeFileSystemProblem(reason)}. ${elsewhere}`;
    if (reason === 'ENOTDIR' && origin === '--data-dir') throw new UsageError(message);
    if (reason === 'ENOTDIR' && origin !== undefined) throw new ConfigError(message, { cause });
    throw new EnvironmentError(message, { cause });
  };
  try {
    makePrivateDir(dir);
    fs.accessSync(dir, fs.constants.R_OK | fs.constants.W_OK | fs.constants.X_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'EIO';
    fail(code === 'EEXIST' ? 'ENOTDIR' : code, error);
  }
  return dir;
}

/**
 * Checks `sandbox serve --host` before anything is built: an IP address must be one of this machine's (its network
 * interfaces', or the wildcard `0.0.0.0` / `::`); a name must resolve (`dns.lookup`, the resolver `listen` uses).
 * @throws UsageError (exit 2) for an empty value, an address of another machine or a name that does not resolve,
 *   saying what to give instead.
 */
export async function checkListenHost(host: string): Promise<void> {
  if (host.trim() === '') throw new UsageError('--host needs an address or host name; it was given an empty value.');
  if (net.isIP(host) !== 0) {
    const own = new Set(['0.0.0.0', '::', ...Object.values(os.networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address))]);
    if (!own.has(host) && !own.has(host.toLowerCase()) && !/^127\./.test(host)) {
      throw new UsageError(`--host ${host} is not an address of this machine. Give one of its addresses, e.g. 127.0.0.1 (the default) or 0.0.0.0 for every interface.`);
    }
    return;
  }
  try {
    await dns.lookup(host);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'an error';
    throw new UsageError(
      `--host ${host} is neither an IP address nor a host name that resolves (${code}). Give an address of this machine, e.g. 127.0.0.1 (the default) or 0.0.0.0 for every interface.`,
    );
  }
}

/** Longest answer delay of a sandbox, in seconds (an hour: far past the 15 minutes after which a job times out). */
export const ANSWER_DELAY_MAX_SECONDS = 3600;

/**
 * `PRAVO_SANDBOX_ANSWER_DELAY`: seconds from an answer job's creation to its final status on a sandbox (the in-process
 * sandbox of `--sandbox`, and `pravo sandbox serve` without `--answer-delay`): a decimal from 0 to
 * {@link ANSWER_DELAY_MAX_SECONDS}. `undefined` when unset or empty (the sandbox's default, 3 s, applies).
 * @throws UsageError naming the variable for any other value.
 */
export function answerDelayFromEnv(env: NodeJS.ProcessEnv): number | undefined {
  const value = env.PRAVO_SANDBOX_ANSWER_DELAY?.trim();
  if (value === undefined || value === '') return undefined;
  return decimalSetting('PRAVO_SANDBOX_ANSWER_DELAY', value, ANSWER_DELAY_MAX_SECONDS, 'a number of seconds');
}

/**
 * A decimal setting's value (an option's, or a variable's) from 0 to `max` (digits with an optional fraction: `3`,
 * `0.5`, `.25`; surrounding white space ignored), or undefined when not given.
 * @throws UsageError naming the option or variable, the range and the value (sanitized).
 */
export function decimalSetting(name: string, value: string | undefined, max: number, what: string): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value.trim());
  if (!/^(\d+(\.\d*)?|\.\d+)$/.test(value.trim()) || !(number <= max)) {
    throw new UsageError(`${name} takes ${what} from 0 to ${max}, not "${sanitizeLine(value)}"`);
  }
  return number;
}
