/**
 * What is stored of a run's target (the last search's results, a recorded answer job) belongs to that target: ids of
 * the in-process sandbox mean nothing to the service, nor those of one profile to another. This module says what the
 * current run's target is, which flags reach a stored target from it, and quotes values for the commands pravo
 * suggests; all but {@link currentRunTarget} are pure.
 */
import type { TargetOptions } from '../config/target-options.js';
import type { Factory } from '../factory.js';
import { sanitizeLine } from '../shared/sanitize.js';

/** Where a run sends its requests, as pravo stores it beside results and jobs. */
export interface RunTarget {
  /** `--sandbox`: the in-process sandbox. */
  sandbox: boolean;
  /** The profile the run resolves to (with `--sandbox` too: the one it would use without it). */
  profile: string;
}

/**
 * This run's target, to compare with a stored one's: `--sandbox`, and the profile the run resolves to.
 * @throws as `factory.profile()` (a config file that cannot be read).
 */
export async function currentRunTarget(factory: Factory): Promise<RunTarget> {
  return { sandbox: factory.globals.sandbox === true, profile: (await factory.profile()).name };
}

/**
 * The target flags that reach `stored` from a run against `current`, or `undefined` when both are the same target:
 * - stored on the in-process sandbox, this run not: ` --sandbox`;
 * - stored on the service, this run on the sandbox: `` (drop `--sandbox`), or ` --profile P` when the profile differs;
 * - both on the service with different profiles: ` --profile P` (also for `default`: the run's profile may come from
 *   PRAVO_PROFILE).
 */
export function flagsToReach(stored: RunTarget, current: RunTarget): string | undefined {
  const profileFlag = ` --profile ${shellQuote(stored.profile)}`;
  if (stored.sandbox) return current.sandbox ? undefined : ' --sandbox';
  if (current.sandbox) return stored.profile === current.profile ? '' : profileFlag;
  return stored.profile === current.profile ? undefined : profileFlag;
}

/**
 * A value as one shell word for a command pravo suggests: as is when it holds only safe characters (letters, digits,
 * `_ - . / : @ % + = ,` and Cyrillic), else in single quotes (a `'` inside written `'\''`). Control characters are
 * removed first (`sanitizeLine`).
 */
export function shellQuote(value: string): string {
  const clean = sanitizeLine(value);
  if (clean !== '' && /^[\p{L}\p{N}_\-./:@%+=,]+$/u.test(clean)) return clean;
  return `'${clean.replace(/'/g, `'\\''`)}'`;
}

/**
 * The target flags of this run, as shell words for a command pravo suggests (`pravo answer wait ID …`, `pravo batch …
 * --yes`, `pravo doc 1 … --article`): `--profile P`, `--sandbox`, each `--corpus PATH`, `--data-dir DIR`, in that
 * order, each value shell-quoted ({@link shellQuote}); none when the run used none. The one declaration of which
 * flags carry a run's target.
 */
export function targetFlagWords(globals: TargetOptions & { profile?: string }): string[] {
  const words: string[] = [];
  if (globals.profile !== undefined) words.push('--profile', shellQuote(globals.profile));
  if (globals.sandbox) words.push('--sandbox');
  for (const corpus of globals.corpus ?? []) words.push('--corpus', shellQuote(corpus));
  if (globals.dataDir !== undefined) words.push('--data-dir', shellQuote(globals.dataDir));
  return words;
}
