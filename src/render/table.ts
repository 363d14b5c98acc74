/**
 * The compact table style shared by the renderers of lists (catalogs, keys, recorded answer jobs, cite's verdicts,
 * usage), and the widths of its columns, given by their content ({@link fitColumns}).
 */
import Table from 'cli-table3';
import type { Chalk } from 'chalk';

/** A compact cli-table3 table (no rules between rows), bold headers, grey borders when coloured; long cells wrap. */
export function compactTable(
  c: InstanceType<typeof Chalk>,
  head: string[],
  colWidths: number[],
  colAligns: Array<'left' | 'right'>,
  color: boolean,
): Table.Table {
  return new Table({
    head: head.map((h) => c.bold(h)),
    colWidths,
    colAligns,
    wordWrap: true,
    style: { head: [], border: color ? ['grey'] : [], compact: true },
  });
}

/** What a column holds, for {@link fitColumns}. */
export interface ColumnText {
  /** The header. */
  header: string;
  /** Each cell's text as shown, without colour; a cell's lines separated by `\n`. */
  cells: readonly string[];
  /** Never narrower than this many characters of content (say, an id a user copies), nor than its longest word. */
  min?: number;
  /** Never wider than this many characters of content. */
  max?: number;
  /** How fast the column grows beside the others when the room is shared (default 1; 2 grows twice as fast). */
  weight?: number;
}

/** The padding cli-table3 puts around a cell's content: one column each side. */
const PADDING = 2;

const columnsOf = (text: string): number => [...text].length;

/**
 * Widths (with cli-table3's padding of 2) for `columns` side by side in a table of at most `width` columns, borders
 * included (one more than there are columns), sized by their content as a browser sizes an automatic table:
 *
 * - every column as wide as its longest line, when all fit;
 * - else every column at least as wide as its longest word (or `min`), so that no word is broken, and the room left
 *   filled evenly (by `weight`): the narrowest columns grow first, each up to its longest line, so that a short column
 *   (a verdict, a status) is whole and the long ones (a title, a detail) share the rest;
 * - else (the words alone do not fit) the widest columns cut down to one common width, which breaks their longest
 *   words; never below 1 character of content.
 */
export function fitColumns(columns: readonly ColumnText[], width: number): number[] {
  const room = width - (columns.length + 1);
  const natural = columns.map((column) => {
    const lines = [column.header, ...column.cells.flatMap((cell) => cell.split('\n'))];
    const longest = Math.max(0, ...lines.map(columnsOf));
    return Math.max(Math.min(longest, column.max ?? Infinity), column.min ?? 0) + PADDING;
  });
  const sum = (widths: readonly number[]): number => widths.reduce((total, w) => total + w, 0);
  if (sum(natural) <= room) return natural;
  const lower = columns.map((column, i) => {
    const words = [column.header, ...column.cells].flatMap((cell) => cell.split(/\s+/));
    const longestWord = Math.max(0, ...words.map(columnsOf));
    return Math.min(natural[i]!, Math.max(column.min ?? longestWord, Math.min(longestWord, column.max ?? Infinity)) + PADDING);
  });
  if (sum(lower) > room) {
    // Even the words do not fit: a common cap on the widest.
    let cap = Math.max(...lower);
    while (cap > 1 + PADDING && sum(lower.map((w) => Math.min(w, cap))) > room) cap--;
    return lower.map((w) => Math.min(w, cap));
  }
  // The water level: each column min(max(level × its weight, its lower), its natural); the highest level that fits.
  const at = (level: number): number[] => natural.map((n, i) => Math.min(n, Math.max(Math.floor(level * (columns[i]!.weight ?? 1)), lower[i]!)));
  let level = 0;
  while (level < Math.max(...natural) && sum(at(level + 1)) <= room) level++;
  const widths = at(level);
  // What rounding left over goes to the columns still short of their longest line, left to right.
  let left = room - sum(widths);
  for (let i = 0; i < widths.length && left > 0; i++) {
    if (widths[i]! < natural[i]!) {
      widths[i]!++;
      left--;
    }
  }
  return widths;
}
