/**
 * Small text helpers for renderers: trimming and wrapping to a display width. Pure functions. Foreign text is made
 * safe by `src/shared/sanitize.ts` (`sanitizeLine` for one-line cells, `sanitizeTsvField` for TSV); `wrapText` applies
 * `sanitizeLine` itself.
 */
import { stripVTControlCharacters } from 'node:util';
import { sanitizeLine, sanitizeTsvField } from '../shared/sanitize.js';

/**
 * Trims `text` to at most `width` characters (code points), ending with `…` when cut; cuts at a word boundary when
 * one lies in the last third. Width below 1 gives an empty string.
 */
export function trimToWidth(text: string, width: number): string {
  if (width < 1) return '';
  const chars = [...text];
  if (chars.length <= width) return text;
  let cut = chars.slice(0, width - 1).join('');
  const space = cut.lastIndexOf(' ');
  if (space > (width * 2) / 3) cut = cut.slice(0, space);
  return `${cut.trimEnd()}…`;
}

/**
 * Greedy word wrap of text into lines of at most `width` characters (code points); a word longer than the width is
 * cut, or with `cut: false` stands alone on its line (a path or a link a user copies). The text is sanitized and its
 * white space collapsed first (`sanitizeLine`). Width below 1 is treated as 1.
 */
export function wrapText(text: string, width: number, options: { cut?: boolean } = {}): string[] {
  const max = Math.max(1, width);
  const lines: string[] = [];
  let line = '';
  for (let word of sanitizeLine(text).split(' ')) {
    if (word === '') continue;
    while (options.cut !== false && [...word].length > max) {
      if (line) lines.push(line);
      line = '';
      lines.push([...word].slice(0, max).join(''));
      word = [...word].slice(max).join('');
    }
    if (!line) line = word;
    else if ([...line].length + 1 + [...word].length <= max) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * Lines with a hanging indent: the first behind `first` (already painted; `indent` columns wide), the others behind
 * `indent` spaces. `lines` are already wrapped to the room beside the indent. No lines: none.
 */
export function hang(first: string, indent: number, lines: readonly string[]): string[] {
  return lines.map((line, i) => `${i === 0 ? first : ' '.repeat(indent)}${line}`);
}

/**
 * Rows of a label and its value, for people: each label (painted by `paint`) padded to a column as wide as the longest
 * label and two spaces, its value (painted by the row's painter, if any) wrapped beside it to `width` with a hanging
 * indent, a word wider than the room (a path, a link) whole on its line. Values are sanitized (`wrapText`).
 */
export function labelledLines(
  rows: ReadonlyArray<readonly [label: string, value: string, paint?: (text: string) => string]>,
  width: number,
  paint: (label: string) => string = (label) => label,
): string[] {
  const column = Math.max(0, ...rows.map(([label]) => [...label].length)) + 2;
  return rows.flatMap(([label, value, painter = (text: string) => text]) => {
    const lines = wrapText(value, width - column, { cut: false });
    return hang(paint(label.padEnd(column)), column, (lines.length === 0 ? [''] : lines).map(painter)).map((line) => line.trimEnd());
  });
}

/** Width of `text` on a terminal, in code points, colour and other escape sequences counting for nothing. */
export function displayWidth(text: string): number {
  return [...stripVTControlCharacters(text)].length;
}

/**
 * Lines of text for people (messages, summaries) fitted to `width` columns: a line that fits is kept as it is; a longer
 * one is broken at spaces, never inside a word (a word wider than the room stands alone), its continuation lines
 * indented to where its text starts after the first run of two or more spaces (`  done        7 this run …`), else to
 * its own indent. Colour codes count for nothing and stay with their words. `Infinity` keeps every line.
 */
export function wrapLines(text: string, width: number): string {
  return text
    .split('\n')
    .flatMap((line) => {
      if (displayWidth(line) <= width) return [line];
      const plain = stripVTControlCharacters(line);
      const gap = /^ *\S+(?: \S+)*? {2,}(?=\S)/.exec(plain)?.[0];
      const hangAt = gap !== undefined && width - [...gap].length >= MIN_HANGING_ROOM ? [...gap].length : /^ */.exec(plain)![0].length;
      const start = textStart(line);
      const lines: string[] = [];
      let current = line.slice(0, start);
      line
        .slice(start)
        .split(' ')
        .forEach((word, i) => {
          if (i > 0 && word !== '' && displayWidth(`${current} ${word}`) > width) {
            lines.push(current.trimEnd());
            current = `${' '.repeat(hangAt)}${word}`;
          } else current = i === 0 ? `${current}${word}` : `${current} ${word}`;
        });
      return [...lines, current];
    })
    .join('\n');
}

/** Below this many columns beside a hanging indent, continuation lines go back to the line's own indent. */
const MIN_HANGING_ROOM = 20;

/** Where the text of `line` starts: after its leading spaces and any escape sequences among them. */
function textStart(line: string): number {
  let at = 0;
  for (;;) {
    const escape = /^\u001b\[[0-9;]*[A-Za-z]/.exec(line.slice(at));
    if (escape) at += escape[0].length;
    else if (line[at] === ' ') at++;
    else return at;
  }
}

/**
 * Tab-separated records, one line per row, each ending in a newline: every field through `sanitizeTsvField` (no
 * TAB, CR or LF inside a field; `undefined` and `null` empty). No rows: an empty string. The piped form of every view.
 */
export function tsvLines(rows: ReadonlyArray<ReadonlyArray<string | number | boolean | null | undefined>>): string {
  return rows.map((fields) => `${fields.map(sanitizeTsvField).join('\t')}\n`).join('');
}

/**
 * `1 paragraph`, `3 paragraphs`: a count and its English noun, with `s` unless the count is 1; `pluralNoun` for nouns
 * that do not take an `s` (`query`, `queries`).
 */
export function plural(count: number, noun: string, pluralNoun = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : pluralNoun}`;
}

/** How long ago something happened, `ms` milliseconds before now: `just now`, `5 minutes ago`, `3 hours ago`, `2 days ago`. */
export function timeAgo(ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${plural(minutes, 'minute')} ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${plural(hours, 'hour')} ago`;
  return `${plural(Math.floor(hours / 24), 'day')} ago`;
}

/** A span of time, `ms` milliseconds, rounded to the second: `45s`, `3m05s`, `1h02m`. */
export function duration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}
