/**
 * The input of a command that reads a file or standard input (`-`): `pravo batch` (queries) and `pravo cite` (a memo).
 * Read whole before anything is sent, so that a problem with it costs nothing.
 */
import fs from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { EnvironmentError, UsageError } from '../errors/cli.js';
import { sanitizeLine } from '../shared/sanitize.js';
import type { IOStreams } from './iostreams.js';

/** How an input is named in messages: `standard input` for `-`, else the file name (sanitized). */
export function inputName(source: string): string {
  return source === '-' ? 'standard input' : sanitizeLine(source);
}

/**
 * The bytes of `source`: standard input for `-`, else the file.
 * @param options.onTerminal the message when `-` is given and standard input is a terminal (say how to pipe it in);
 *   `check` looks at the file's `stat` before it is read and throws to refuse it (a directory, a file too large).
 * @throws UsageError for `-` on a terminal, or what `check` throws; EnvironmentError when the file cannot be read
 *   (`Cannot read F: there is no such file. Nothing was sent.`).
 */
export async function readInputBytes(io: IOStreams, source: string, options: { onTerminal: string; check?: (stat: Stats) => void }): Promise<Buffer> {
  if (source === '-') {
    if (io.stdinIsTTY) throw new UsageError(options.onTerminal);
    const { readAllBytes } = await import('./iostreams.js');
    return readAllBytes(io.stdin);
  }
  try {
    if (options.check) options.check(await fs.stat(source));
    return await fs.readFile(source);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? 'EIO';
    const { describeFileSystemProblem } = await import('../errors/file-system.js');
    const why = code === 'ENOENT' ? 'there is no such file' : describeFileSystemProblem(code);
    throw new EnvironmentError(`Cannot read ${sanitizeLine(source)}: ${why}. Nothing was sent.`);
  }
}
