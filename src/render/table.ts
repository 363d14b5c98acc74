/** The compact table style shared by the renderers of lists (catalogs, recorded answer jobs). */
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
