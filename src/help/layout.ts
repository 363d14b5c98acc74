/**
 * Help laid out at display time, to the width of the terminal that shows it. Help is written (commands' descriptions,
 * `addHelpText` sections, the pre-rendered pages of `./prerendered.ts`) as unwrapped text, and {@link layoutHelp} wraps
 * it when it is printed, whichever path printed it, so that `pravo PATH --help` and commander print the same bytes at
 * any width. Commander renders at width `Infinity` (`configureOutput` in `src/cli.ts`): its own wrapping breaks only
 * at white space and knows nothing of examples. The rules, on that text:
 *
 * - Lines that start at column 0 and follow one another form one paragraph (Markdown's rule): they are joined with a
 *   space and wrapped to the width. A blank line ends a paragraph.
 * - An indented line stands alone. A command line (`$ …`, or `pravo …` after the indent) is never split inside a
 *   word, a quoted string or a `$(…)`: when longer than the width it is broken at a space outside them, every line but
 *   the last ending in ` \` and the next indented two columns deeper than the command, so that what is copied still
 *   runs as one command; a `# comment` moves whole to a line of its own. Any other indented line is an item
 *   (`  --flag  what it does`, or a list line): wrapped with the text after its first run of two or more spaces as the
 *   hanging indent.
 * - Text breaks only at spaces, never inside a word, a `code span`, a "quoted" or „quoted“ phrase; such a phrase wider
 *   than the room left is broken at its own spaces, and a word wider than the room stands alone on its line.
 * - A line that fits is printed exactly as written.
 *
 * Pure: no terminal is read here ({@link helpWidth} takes the stream's facts).
 */

/** The width help is laid out at when the output is not a terminal and `COLUMNS` does not say: 80 columns. */
export const DEFAULT_HELP_WIDTH = 80;
/** Below this width help is laid out as at this width (lines then run past the edge rather than into one word each). */
const MIN_HELP_WIDTH = 40;
/** An item whose description would get fewer columns than this beside its term has the description below the term. */
const MIN_DESCRIPTION_WIDTH = 30;
/** How much deeper than its term a description below the term is indented. */
const DESCRIPTION_INDENT = 4;
/** How much deeper than the command (after `$ `) its continuation lines are indented. */
const CONTINUATION_INDENT = 2;

/**
 * The width help is laid out at, in columns: the terminal's (`columns` of a TTY stream), else `COLUMNS` (a positive
 * whole number), else {@link DEFAULT_HELP_WIDTH} (piped to a file or a pager of unknown width).
 */
export function helpWidth(stream: { isTTY?: boolean; columns?: number }, env: NodeJS.ProcessEnv): number {
  if (stream.isTTY === true && Number.isInteger(stream.columns) && stream.columns! > 0) return stream.columns!;
  const columns = Number(env.COLUMNS);
  return Number.isInteger(columns) && columns > 0 ? columns : DEFAULT_HELP_WIDTH;
}

/** Width of `text` in terminal columns, counted in code points (help is Latin and Cyrillic text). */
export function columnsOf(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/**
 * `text` laid out at `width` columns by the rules of the module's doc; `Infinity` only joins paragraphs (what the
 * pre-rendered pages hold). Trailing newlines are kept.
 */
export function layoutHelp(text: string, width: number): string {
  const room = Math.max(MIN_HELP_WIDTH, width);
  const lines = text.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trimEnd();
    if (line === '' || /^\s/.test(line)) {
      out.push(...(line === '' ? [''] : layoutIndented(line, room)));
      continue;
    }
    let paragraph = line;
    while (i + 1 < lines.length && /^\S/.test(lines[i + 1]!)) paragraph += ` ${lines[++i]!.trimEnd()}`;
    out.push(...(columnsOf(paragraph) <= room ? [paragraph] : fill(units(paragraph), room, '', '')));
  }
  return out.join('\n');
}

/** An indented line: a command line, or an item with its hanging indent. */
function layoutIndented(line: string, width: number): string[] {
  if (columnsOf(line) <= width) return [line];
  const indent = /^\s*/.exec(line)![0];
  const body = line.slice(indent.length);
  const command = /^\$ |^pravo /.exec(body);
  if (command) {
    const prompt = body.startsWith('$ ') ? '$ ' : '';
    return breakCommand(body.slice(prompt.length), `${indent}${prompt}`, `${indent}${' '.repeat(prompt.length + CONTINUATION_INDENT)}`, width);
  }
  const item = /^(\S(?:.*?\S)?)(\s{2,})(\S.*)$/.exec(body);
  if (!item) return fill(units(body), width, indent, indent);
  const hangAt = indent.length + columnsOf(item[1]!) + item[2]!.length;
  if (width - hangAt >= MIN_DESCRIPTION_WIDTH) return fill(units(item[3]!), width, line.slice(0, line.length - item[3]!.length), ' '.repeat(hangAt));
  const under = `${indent}${' '.repeat(DESCRIPTION_INDENT)}`;
  return [`${indent}${item[1]!}`, ...fill(units(item[3]!), width, under, under)];
}

/**
 * The units prose breaks between: its words, except that a `code span`, a "quoted" or a „quoted“ phrase is one unit
 * (with the punctuation attached to it). An unclosed span is not a unit: its words are.
 */
export function units(text: string): string[] {
  const words = text.split(/ +/).filter((word) => word !== '');
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const close = closerOf(words[i]!);
    let j = i;
    if (close !== undefined) {
      while (j < words.length && !closes(words[j]!, close, j === i)) j++;
      if (j === words.length) j = i;
    }
    out.push(words.slice(i, j + 1).join(' '));
    i = j;
  }
  return out;
}

const PAIRS: ReadonlyArray<[string, string]> = [
  ['`', '`'],
  ['"', '"'],
  ['„', '“'],
];

/** The closing mark of a span that `word` opens and does not close, if any. */
function closerOf(word: string): string | undefined {
  const bare = word.replace(/^[([{]+/, '');
  for (const [open, close] of PAIRS) {
    if (!bare.startsWith(open)) continue;
    return closes(bare, close, true) ? undefined : close;
  }
  return undefined;
}

/** Whether `word` closes a span ended by `close` (the opening word: past its opening mark). */
function closes(word: string, close: string, opening: boolean): boolean {
  const from = opening ? word.replace(/^[([{]+/, '').slice(1) : word;
  const count = from.split(close).length - 1;
  return close === '"' || close === '`' ? count % 2 === 1 : count >= 1;
}

/**
 * Greedy fill of `parts` into lines of at most `width` columns, the first behind `first`, the others behind `rest`
 * (both counted in the width). A part wider than the room is broken at its own spaces; a word wider than the room
 * stands alone.
 */
function fill(parts: readonly string[], width: number, first: string, rest: string): string[] {
  const room = width - Math.max(columnsOf(first), columnsOf(rest));
  const pieces = parts.flatMap((part) => (columnsOf(part) <= room ? [part] : part.split(' ')));
  const lines: string[] = [];
  let line = '';
  for (const piece of pieces) {
    const candidate = line === '' ? piece : `${line} ${piece}`;
    if (line === '' || columnsOf(lines.length === 0 ? first : rest) + columnsOf(candidate) <= width) {
      line = candidate;
      continue;
    }
    lines.push(`${lines.length === 0 ? first : rest}${line}`);
    line = piece;
  }
  lines.push(`${lines.length === 0 ? first : rest}${line}`);
  return lines;
}

/**
 * The shell words of a command line and, last, its comment: split at spaces outside quotes (`'…'`, `"…"`) and `$(…)`,
 * a word starting with `#` there beginning the comment, which runs to the end.
 */
export function shellUnits(command: string): string[] {
  const out: string[] = [];
  const stack: string[] = [];
  let word = '';
  const chars = [...command];
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    const top = stack.at(-1);
    if (top === "'") {
      if (ch === "'") stack.pop();
      word += ch;
      continue;
    }
    if (ch === '\\') {
      word += ch + (chars[++i] ?? '');
      continue;
    }
    if (stack.length === 0 && ch === ' ') {
      if (word !== '') out.push(word);
      word = '';
      continue;
    }
    if (stack.length === 0 && ch === '#' && word === '') {
      out.push(chars.slice(i).join('').trimEnd());
      return out;
    }
    if (ch === "'" && top !== '"') stack.push("'");
    else if (ch === '"') {
      if (top === '"') stack.pop();
      else stack.push('"');
    } else if (ch === '$' && chars[i + 1] === '(') {
      stack.push('(');
      word += ch + chars[++i]!;
      continue;
    } else if (ch === ')' && top === '(') stack.pop();
    word += ch;
  }
  if (word !== '') out.push(word);
  return out;
}

/**
 * A command line too wide for `width`, broken between its shell words ({@link shellUnits}): each line but the last ends
 * in ` \`; the first starts with `first`, the others with `rest`. A word wider than the room stands alone.
 */
function breakCommand(command: string, first: string, rest: string, width: number): string[] {
  const words = shellUnits(command);
  const lines: string[] = [];
  let line = '';
  words.forEach((word, i) => {
    const prefix = lines.length === 0 ? first : rest;
    const candidate = line === '' ? word : `${line} ${word}`;
    // A line that goes on needs room for ` \`; the last word (a comment is always last) ends the command.
    const limit = i === words.length - 1 ? width : width - 2;
    if (line === '' || columnsOf(prefix) + columnsOf(candidate) <= limit) {
      line = candidate;
      return;
    }
    lines.push(`${prefix}${line} \\`);
    line = word;
  });
  lines.push(`${lines.length === 0 ? first : rest}${line}`);
  return lines;
}
