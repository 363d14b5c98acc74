/**
 * The memo `pravo cite` reads: a file or standard input (`-`), UTF-8 text (`.txt`, `.md`). Read (`io/input-source.ts`)
 * and checked whole before anything is sent: a word-processor file or another binary is refused with how to convert
 * it, never read as garbage.
 */
import { UsageError } from '../../errors/cli.js';
import type { Factory } from '../../factory.js';
import { inputName, readInputBytes } from '../../io/input-source.js';
import { sanitizeLine } from '../../shared/sanitize.js';

/** Largest memo read, in bytes (a memo of a few hundred pages; more is not a memo). */
export const MAX_MEMO_BYTES = 8 * 1024 * 1024;

/** Extensions of formats that are not plain text, with how to make text of them. */
const NOT_TEXT = /\.(?:docx?|odt|rtf|pdf|pages)$/iu;

/**
 * The memo's text: UTF-8 decoded strictly (a byte-order mark dropped; CRLF kept, columns count characters).
 * @throws UsageError for `-` on a terminal, a `.docx`/`.pdf`/… file, bytes that are not UTF-8 text (or hold NUL), a
 *   memo over {@link MAX_MEMO_BYTES}; EnvironmentError when the file cannot be read. Nothing is sent in any case.
 */
export async function readMemo(factory: Factory, source: string): Promise<string> {
  const convert = 'Convert it to plain text first, e.g. `pandoc memo.docx -t plain -o memo.txt`, then run `pravo cite memo.txt`.';
  if (source !== '-' && NOT_TEXT.test(source)) throw new UsageError(`${sanitizeLine(source)} is not a text file. ${convert}`);
  const bytes = await readInputBytes(factory.io, source, {
    onTerminal: '`pravo cite -` reads the memo from standard input: pipe or redirect it in (`pravo cite - < memo.txt`).',
    check: (stat) => {
      if (stat.isDirectory()) throw new UsageError(`${sanitizeLine(source)} is a directory: give the memo's file (UTF-8 text, .txt or .md).`);
      if (stat.size > MAX_MEMO_BYTES) {
        throw new UsageError(`${sanitizeLine(source)} is ${Math.round(stat.size / 1024 / 1024)} MB; pravo cite reads memos of up to ${MAX_MEMO_BYTES / 1024 / 1024} MB.`);
      }
    },
  });
  const name = inputName(source);
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
