/**
 * Where an in-process or served sandbox takes its corpus and keeps its data (README: "The sandbox"), resolved from
 * the options every API command accepts (`--sandbox`, `--corpus`, `--data-dir`), the environment and the settings.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, UsageError } from '../errors/cli.js';
import { pravoPaths } from '../state/paths.js';

/** The target options every API command accepts, as commander parses them. */
export interface TargetOptions {
  /** `--sandbox`: run against an in-process sandbox instead of the service. */
  sandbox?: boolean;
  /** `--corpus FILE`. */
  corpus?: string;
  /** `--data-dir DIR`. */
  dataDir?: string;
}

/**
 * Checks the target options together: `--corpus` and `--data-dir` apply only with `--sandbox`.
 * @throws UsageError otherwise.
 */
export function checkTargetOptions(options: TargetOptions): void {
  if (!options.sandbox && (options.corpus !== undefined || options.dataDir !== undefined)) {
    throw new UsageError('--corpus and --data-dir apply only with --sandbox');
  }
}

/**
 * The corpus file: `--corpus`, else `PRAVO_SANDBOX_CORPUS`, else the `sandbox-corpus` setting. Returns an absolute
 * path.
 * @throws ConfigError when none is given (saying how to give one) or the file does not exist.
 */
export function resolveCorpus(flag: string | undefined, env: NodeJS.ProcessEnv, setting: string | undefined): string {
  const given = flag ?? (env.PRAVO_SANDBOX_CORPUS || undefined) ?? setting;
  if (!given) {
    throw new ConfigError(
      'No sandbox corpus given. Pass --corpus FILE, set PRAVO_SANDBOX_CORPUS=FILE, or store one with `pravo config set sandbox-corpus FILE`. ' +
        'The corpus is JSON Lines (gzipped or not), one act per line; beside a pravo checkout it is ../shared/corpus/bg-statutes.jsonl.gz.',
    );
  }
  const file = path.resolve(given);
  if (!fs.existsSync(file) || !fs.statSync(file).isFile()) {
    const source = flag ? '--corpus' : env.PRAVO_SANDBOX_CORPUS ? 'PRAVO_SANDBOX_CORPUS' : 'the sandbox-corpus setting';
    throw new ConfigError(`The sandbox corpus ${file} (from ${source}) does not exist or is not a file.`);
  }
  return file;
}

/**
 * The sandbox data directory: `--data-dir`, else `PRAVO_SANDBOX_DATA_DIR`, else `<user data dir>/sandbox`
 * (`pravoPaths(env).data`). Returns an absolute path; does not create it.
 */
export function resolveDataDir(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  const given = flag ?? (env.PRAVO_SANDBOX_DATA_DIR || undefined);
  if (given) return path.resolve(given);
  return path.join(pravoPaths(env).data, 'sandbox');
}
