/**
 * `--timeout SECONDS` of the commands that send requests (search, doc, answer, batch): the one parser of the option.
 */
import { LIMITS } from '../contract/limits.js';
import { UsageError } from '../errors/cli.js';
import { sanitizeLine } from '../shared/sanitize.js';

/**
 * Parses `--timeout` seconds into milliseconds; `defaultMs` when not given (60 s, the spec's reference timeout for
 * search). Shared by every command with `--timeout`.
 * @throws UsageError unless it is a number of seconds from 1 to 3600 (the bad value repeated, sanitized).
 */
export function parseTimeout(value: string | undefined, defaultMs: number = LIMITS.searchTimeoutMs): number {
  if (value === undefined) return defaultMs;
  const seconds = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value.trim()) || seconds < 1 || seconds > 3600) {
    throw new UsageError(`--timeout takes a number of seconds from 1 to 3600, not "${sanitizeLine(value)}"`);
  }
  return Math.round(seconds * 1000);
}
