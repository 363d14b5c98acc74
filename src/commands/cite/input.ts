/**
 * The memo `pravo cite` reads: a file or standard input (`-`), UTF-8 text (`.txt`, `.md`). Read and checked whole
 * before anything is sent: a word-processor file or another binary is refused with how to convert it, never read as
 * garbage.
 */
import fs from 'node:fs/promises';
import { EnvironmentError, UsageError } from '../../errors/cli.js';
import type { Factory } from '../../factory.js';
import { sanitizeLine } from '../../shared/sanitize.js';

/** Largest memo read, in bytes (a memo of a few hundred pages; more is not a memo). */
export const MAX_MEMO_BYTES = 8 * 1024 * 1024;

/** Extensions of formats that are not plain text, with how to make text of them. */
const NOT_TEXT = /\.(?:docx?|odt|rtf|pdf|pages)$/iu;

/** How the memo is named in messages: `standard input` for `-`, else the file name (sanitized). */
export function memoName(source: string): string {
  return source === '-' ? 'standard input' : sanitizeLine(source);
}

/**
 * The memo's text: UTF-8 decoded strictly (a byte-order mark dropped; CRLF kept, columns count characters).
 * @throws UsageError for `-` on a terminal, a `.docx`/`.pdf`/… file, bytes that are not UTF-8 text (or hold NUL), a
 *   memo over {@link MAX_MEMO_BYTES}; EnvironmentError when the file cannot be read. Nothing is sent in any case.
 */
export async function readMemo(factory: Factory, source: string): Promise<string> {
  const convert = 'Convert it to plain text first, e.g. `pandoc memo.docx -t plain -o memo.txt`, then run `pravo cite memo.txt`.';
  let bytes: Buffer;
  if (source === '-') {
    if (factory.io.stdinIsTTY) throw new UsageError('`pravo cite -` reads the memo from standard input: pipe or redirect it in (`pravo cite - < memo.txt`).');
    const { readAllBytes } = await import('../../io/iostreams.js');
    bytes = await readAllBytes(factory.io.stdin);
  } else {
    if (NOT_TEXT.test(source)) throw new UsageError(`${sanitizeLine(source)} is not a text file. ${convert}`);
    try {
      const stat = await fs.stat(source);
      if (stat.isDirectory()) throw new UsageError(`${sanitizeLine(source)} is a directory: give the memo's file (UTF-8 text, .txt or .md).`);
      if (stat.size > MAX_MEMO_BYTES) throw new UsageError(`${sanitizeLine(source)} is ${Math.round(stat.size / 1024 / 1024)} MB; pravo cite reads memos of up to ${MAX_MEMO_BYTES / 1024 / 1024} MB.`);
      bytes = await fs.readFile(source);
    } catch (error) {
      if (error instanceof UsageError) throw error;
      const code = (error as NodeJS.ErrnoException).code ?? 'EIO';
      const { describeFileSystemProblem } = await import('../../errors/file-system.js');
      const why = code === 'ENOENT' ? 'there is no such file' : describeFileSystemProblem(code);
      throw new EnvironmentError(`Cannot read ${sanitizeLine(source)}: ${why}. Nothing was sent.`);
    }
  }
  const name = memoName(source);
  if (bytes.length > MAX_MEMO_BYTES) throw new UsageError(`${name} is over ${MAX_MEMO_BYTES / 1024 / 1024} MB; pravo cite reads memos of up to that size.`);
  if (bytes.includes(0)) throw new UsageError(`${name} is not text (it holds NUL bytes). ${convert}`);
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new UsageError(
      `${name} is not UTF-8 text. If it is in Windows-1251, convert it: \`iconv -f cp1251 -t utf-8 ${source === '-' ? 'memo.txt' : name} > memo-utf8.txt\`. ${convert}`,
    );
  }
}
