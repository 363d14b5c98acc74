/**
 * A memo's wrapped lines joined back into the sentences they hold, for `pravo cite` (`legal/cite.ts`): a memo wrapped
 * at 80 columns breaks a title over lines („чл. 999 от Закона за обществените⏎поръчки“) or hyphenates a word of it
 * („обществе-⏎ните“), and the citation parser reads a title only up to the end of its line. Pure.
 *
 * Rules (see {@link unwrapMemo}):
 * - A line break between two lines of one paragraph becomes one space (the indentation around it goes with it). It is
 *   kept where a block begins or ends: a blank line on either side, a next line that opens a block of its own
 *   (a Markdown heading `#`, a list item `-`, `*`, `+`, `•` or `1.` / `1)`, a quotation `>`, a table row `|`, a code
 *   fence, an act's own provision `Чл. 5.`, `§ 3.`, `(2)`), or a line that is itself a heading, quotation or table row.
 * - A hyphen at the end of a line, right after a letter, with a lower-case letter opening the next line, is either a
 *   word broken over the lines („обществе-⏎ните“ → „обществените“) or a compound's own hyphen
 *   („социално-⏎икономически“ → „социално-икономически“). The word is joined when its joined form is a known word
 *   (a word of the titles of the customary abbreviations, `shared/act-abbreviations.ts`, or a word the memo writes
 *   elsewhere on one line); the hyphen is kept when the hyphenated form is one the memo or those titles write
 *   („Наказателно-процесуален“); a form of a title's word (`sameTitleWord`: „Административнопроцесуалния“) counts
 *   as that word. Otherwise the hyphen is kept when the part before it is at least four letters long and ends in „о“
 *   after a consonant (the adjective stem of a compound: „социално-“, „наказателно-“), and the word is joined in any
 *   other case („обществе-⏎ната“). A dash with a space before it („ – “, „ - “) is no hyphen: the break is a space.
 * - Every character of the joined text maps back to its offset in the memo ({@link UnwrappedMemo.originOf}), so a
 *   citation's line and column are those of its start in the memo as written.
 */
import { CUSTOMARY_ABBREVIATIONS } from '../shared/act-abbreviations.js';
import { sameTitleWord } from '../shared/act-titles.js';

/** The memo with its wrapped lines joined, and the way back to the memo's offsets. */
export interface UnwrappedMemo {
  /** The joined text. */
  text: string;
  /**
   * The memo's offset (UTF-16 code units) of the joined text's offset `offset` (`0` … `text.length`; the end maps to
   * the memo's end). A space that stands for a line break maps to the line break.
   */
  originOf(offset: number): number;
}

/** A line that opens a block of its own (see the module comment): never joined to the line before it. */
const BLOCK_START = /^[ \t]*(?:#|>|\||```|~~~|[-*+•][ \t]|\d{1,3}[.)][ \t]|„?Чл\.[ \t]*\d|„?Член[ \t]|„?§|\(\d{1,3}[а-я]?\)[ \t])/u;
/** A line that is a block of its own: a heading, a quotation, a table row. */
const BLOCK_LINE = /^[ \t]*(?:#|>|\|)/u;

/** Words of the customary titles, lower case, and their hyphenated compounds (`наказателно-процесуален`). */
const TITLE_WORDS: ReadonlySet<string> = new Set(
  Object.values(CUSTOMARY_ABBREVIATIONS).flatMap((title) => title.toLowerCase().match(/[\p{L}]+(?:-[\p{L}]+)*/gu) ?? []),
);

/** The words of a text, lower case, hyphenated compounds whole (`социално-икономически`). */
function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}]+(?:-[\p{L}]+)*/gu) ?? [];
}

/**
 * Whether a word broken at a line-end hyphen is joined (`true`: `left + right`) or keeps its hyphen (`false`), by the
 * rule of the module comment. `known` holds the words the memo writes on one line and the titles' words.
 */
export function joinsBrokenWord(left: string, right: string, known: ReadonlySet<string>): boolean {
  const joined = `${left}${right}`.toLowerCase();
  const compound = `${left}-${right}`.toLowerCase();
  if (known.has(compound) || TITLE_WORDS.has(compound)) return false;
  if (known.has(joined) || TITLE_WORDS.has(joined)) return true;
  // A title's word in another form („Административнопроцесуалния“ for „Административнопроцесуален“).
  for (const word of TITLE_WORDS) {
    if (sameTitleWord(word, word.includes('-') ? compound : joined)) return !word.includes('-');
  }
  return !(left.length >= 4 && /[^аеиоуъюяaeiou]о$/iu.test(left));
}

/**
 * The memo with the line breaks inside its paragraphs joined (see the module comment). `\r\n` line ends are read as
 * `\n`. A memo without such breaks comes back as it is.
 */
export function unwrapMemo(memo: string): UnwrappedMemo {
  const lines = memo.split('\n');
  // Where each line starts in the memo.
  const starts: number[] = [];
  let at = 0;
  for (const line of lines) {
    starts.push(at);
    at += line.length + 1;
  }
  // Words the memo writes whole (not broken at a line end), for the hyphen rule.
  const known = new Set(lines.flatMap((line) => wordsOf(line.replace(/[\p{L}]+-[ \t\r]*$/u, ''))));
  let text = '';
  const origin: number[] = [];
  const push = (piece: string, from: number): void => {
    for (let i = 0; i < piece.length; i++) origin.push(from + i);
    text += piece;
  };
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i]!.replace(/\r$/u, '');
    let from = starts[i]!;
    const previous = i > 0 ? lines[i - 1]!.replace(/\r$/u, '') : undefined;
    const next = i + 1 < lines.length ? lines[i + 1]!.replace(/\r$/u, '') : undefined;
    const joinedToPrevious = previous !== undefined && joins(previous, line);
    if (joinedToPrevious) {
      // The indentation of a continuation line goes with the break.
      const indent = /^[ \t]*/u.exec(line)![0].length;
      line = line.slice(indent);
      from += indent;
    }
    if (next === undefined || !joins(line, next)) {
      push(line, from);
      if (next !== undefined) push('\n', starts[i]! + lines[i]!.length);
      continue;
    }
    // Joined to the next line: a hyphenated word, or a space for the break.
    const body = line.replace(/[ \t]+$/u, '');
    const broken = /(\p{L}+)-$/u.exec(body);
    const nextWord = /^[ \t]*(\p{Ll}+)/u.exec(next);
    if (broken !== null && nextWord !== null && !/\s-$/u.test(body)) {
      if (joinsBrokenWord(broken[1]!, nextWord[1]!, known)) push(body.slice(0, -1), from);
      else push(body, from);
    } else {
      push(body, from);
      push(' ', starts[i]! + lines[i]!.length);
    }
  }
  origin.push(memo.length);
  return { text, originOf: (offset) => origin[Math.max(0, Math.min(offset, origin.length - 1))]! };
}

/** Whether the break between two lines is inside a paragraph (see the module comment). */
function joins(line: string, next: string): boolean {
  if (line.trim() === '' || next.trim() === '') return false;
  if (BLOCK_LINE.test(line) || BLOCK_START.test(next)) return false;
  return true;
}
