/**
 * The target options of API commands (`--sandbox`, `--corpus`, `--data-dir`) and their one check, in a module of their
 * own: every API command checks them, and only a `--sandbox` run needs the rest of `./sandbox.ts` (corpus inputs, data
 * directory), which loads the corpus reader. `./sandbox.ts` re-exports both.
 */
import { UsageError } from '../errors/cli.js';

/** The target options every API command accepts, as commander parses them. */
export interface TargetOptions {
  /** `--sandbox`: run against an in-process sandbox instead of the service. */
  sandbox?: boolean;
  /** `--corpus PATH`, repeatable: corpus files, a courts file, directories of them. */
  corpus?: string[];
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
