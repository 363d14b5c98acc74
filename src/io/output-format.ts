/**
 * `--format` and `--out` of the commands that can print Markdown (`pravo search`, `pravo doc`, `pravo answer` and its
 * `wait` and `show`): read before anything is sent, into the {@link PrinterOptions} the run prints with. Markdown is
 * one more output form beside the terminal's tables, the pipe's TSV and `--json`; it goes to stdout, or with
 * `--out FILE` to FILE, atomically.
 */
import { UsageError } from '../errors/cli.js';
import { sanitizeLine } from '../shared/sanitize.js';
import type { PrinterOptions } from './printer.js';

/** The values `--format` accepts (case-insensitive); both mean Markdown. */
export const FORMAT_VALUES = ['md', 'markdown'] as const;

/** The options this module reads, as commander parses them. */
export interface FormatOptions {
  /** `--format <format>`. */
  format?: string;
  /** `--json`. */
  json?: boolean;
  /** `--out <file>`. */
  out?: string;
}

/**
 * Reads `--format` and `--out`.
 *
 * - `--format md` (or `markdown`, any case): `{ markdown: true, out }`, `out` being `--out` when given.
 * - No `--format`: `{}`; `--out` then is refused, unless `outWritesJson` (`pravo doc`, whose `--out` without
 *   `--format` writes the server's JSON: the command handles it).
 *
 * @param command the command as the user typed it (`pravo search`), for messages.
 * @throws UsageError (nothing sent) for any other `--format` value (naming the accepted ones), `--format md` with
 *   `--json`, an empty `--out`, and `--out` without `--format md` when `outWritesJson` is false.
 */
export function readOutputFormat(options: FormatOptions, command: string, outWritesJson = false): PrinterOptions {
  if (options.out !== undefined && options.out.trim() === '') throw new UsageError('--out takes a file name, e.g. --out answer.md.');
  if (options.format === undefined) {
    if (options.out !== undefined && !outWritesJson) {
      throw new UsageError(
        `--out writes Markdown for \`${command}\`: give it with --format md (\`${command} --format md --out ${sanitizeLine(options.out)} …\`), or redirect the output (\`> file\`).`,
      );
    }
    return {};
  }
  const format = options.format.trim().toLowerCase();
  if (!(FORMAT_VALUES as readonly string[]).includes(format)) {
    throw new UsageError(
      `--format takes md (Markdown; also written markdown), not "${sanitizeLine(options.format)}". The other forms need no --format: a table on a terminal, tab-separated lines when piped, --json for JSON.`,
    );
  }
  if (options.json === true) throw new UsageError('--format md and --json are two output forms: give one of them.');
  return options.out === undefined ? { markdown: true } : { markdown: true, out: options.out };
}
