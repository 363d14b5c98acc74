/**
 * Small text helpers for renderers: one-line collapsing and trimming to a display width. Pure functions.
 */

/** Collapses all runs of white space (newlines and tabs included) into single spaces and trims the ends. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

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

/** Replaces tabs, carriage returns and newlines so that a value fits one field of a tab-separated line. */
export function tsvField(value: string | number | undefined | null): string {
  return value === undefined || value === null ? '' : String(value).replace(/[\t\r\n]+/g, ' ');
}

/**
 * Greedy word wrap of plain text (no ANSI codes) into lines of at most `width` characters (code points); a word longer
 * than the width is cut. White space is collapsed. Width below 1 is treated as 1.
 */
export function wrapText(text: string, width: number): string[] {
  const max = Math.max(1, width);
  const lines: string[] = [];
  let line = '';
  for (let word of oneLine(text).split(' ')) {
    if (word === '') continue;
    while ([...word].length > max) {
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
