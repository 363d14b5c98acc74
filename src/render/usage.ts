/**
 * The usage report of `pravo usage` (spec: GET /v1/usage; Quota rules), from the facts `readUsage` (`src/api/usage.ts`)
 * reads: a table for terminals and tab-separated lines for pipes. Pure functions of the facts and of `now`, the time
 * the caller passes in (ms since the epoch; never read from the system here). Every string from the server (kind
 * names, period, plan) passes through the sanitizer.
 *
 * Counts are quota units. The share used of a kind is `used / limit`; it is shown as a whole percent rounded down,
 * so that a shown `80%` is always at least 80 %, and painted yellow from {@link WARN_PERCENT} (80 %) and red from
 * {@link FULL_PERCENT} (100 %) when colour is on. A quota of 0 counts as used up (100 %).
 *
 * TSV (no header; an unknown value is an empty field): one line per kind, then one line each for the period, the
 * overage and the plan:
 *
 *     <kind>   used  limit  remaining  percent  overage_used     (limit, remaining: `unlimited` when unlimited;
 *                                                                 percent: empty when unlimited or unknown)
 *     period   start  end  month  days_left                       (start, end: as the server sent them, end exclusive)
 *     overage  allowed  limit  used                               (allowed: `true` / `false`)
 *     plan     name
 */
import { Chalk } from 'chalk';
import type { KindUsage, UsageFacts } from '../api/usage.js';
import type { View } from '../io/printer.js';
import { sanitizeLine } from '../shared/sanitize.js';
import { daysLeft, periodWithDaysLeft } from './period.js';
import { compactTable } from './table.js';
import { labelledLines, plural, trimToWidth, tsvLines } from './text.js';

/** From this percent of a quota used, a kind is painted yellow. */
export const WARN_PERCENT = 80;
/** From this percent of a quota used, a kind is painted red: nothing is left within the quota. */
export const FULL_PERCENT = 100;

/** How full a quota is: below 80 %, from 80 %, from 100 %; `unknown` when unlimited or not reported. */
export type UsageLevel = 'ok' | 'warn' | 'full' | 'unknown';

/** Options of {@link renderUsageTable}. */
export interface UsageTableOptions {
  /** Terminal width in columns; the output never exceeds it (minimum 60). */
  width: number;
  /** Whether to use ANSI colours. */
  color: boolean;
  /** The current time, ms since the epoch: the days left of the period count from it. */
  now: number;
}

const MIN_WIDTH = 60;
/** The widest the bar gets, in characters, however wide the terminal. */
const MAX_BAR = 40;
/** Below this many characters there is no room for a bar (nor for the word `unlimited`): the column is left out. */
const MIN_BAR = 9;
/** Longest kind name shown whole; a longer name from the server is trimmed. */
const MAX_KIND = 20;
const UNKNOWN = '–';

/**
 * The whole percent of the quota used, rounded down (`used / limit`; 100 for a quota of 0); undefined when the quota is
 * unlimited or either count is not reported. May exceed 100 when overage was used.
 */
export function usagePercent(kind: KindUsage): number | undefined {
  if (kind.used === undefined || kind.limit === undefined || kind.limit === null) return undefined;
  if (kind.limit === 0) return 100;
  return Math.floor((kind.used * 100) / kind.limit);
}

/** Whether `used` of `limit` is below 80 %, from 80 %, or from 100 % of it (a limit of 0: `full`). */
export function shareLevel(used: number | undefined, limit: number | null | undefined): UsageLevel {
  if (used === undefined || limit === undefined || limit === null) return 'unknown';
  // Compared as integers where the counts are: `used * 100 >= 80 * limit` has no rounding at the thresholds.
  if (used * 100 >= FULL_PERCENT * limit) return 'full';
  if (used * 100 >= WARN_PERCENT * limit) return 'warn';
  return 'ok';
}

/** {@link shareLevel} of a kind. */
export function usageLevel(kind: KindUsage): UsageLevel {
  return shareLevel(kind.used, kind.limit);
}

/**
 * The period for people: `2026-11-01 – 2026-11-30 (UTC), 12 days left` (the last day is the one before the exclusive
 * end, as everywhere: `period.ts`), `, ended` once over; what is known of a partial period; the month as sent, or `–`,
 * when no date can be read.
 */
export function periodText(period: UsageFacts['period'], now: number): string {
  return periodWithDaysLeft(period, now) ?? (period.month !== undefined ? sanitizeLine(period.month) || UNKNOWN : UNKNOWN);
}

/**
 * The overage for people: `not allowed`, `allowed up to 500 units a month, 20 used`, `allowed, 20 used` (no limit
 * reported); `–` when nothing is reported.
 */
export function overageText(overage: UsageFacts['overage']): string {
  const used = overage.used === undefined ? UNKNOWN : String(overage.used);
  if (overage.allowed === false) return overage.used !== undefined && overage.used > 0 ? `not allowed, ${used} used` : 'not allowed';
  if (overage.allowed === true) {
    return overage.limit === undefined ? `allowed, ${used} used` : `allowed up to ${plural(overage.limit, 'unit')} a month, ${used} used`;
  }
  if (overage.limit === undefined && overage.used === undefined) return UNKNOWN;
  return `${UNKNOWN} (limit ${overage.limit ?? UNKNOWN} units a month, ${used} used)`;
}

/** `█████░░░░░`: `share` (0 to 1 and beyond) of `width` characters filled, rounded down; full only from 100 %. */
function bar(share: number, width: number): { filled: string; empty: string } {
  const filled = share >= 1 ? width : Math.floor(share * width);
  return { filled: '█'.repeat(filled), empty: '░'.repeat(width - filled) };
}

const chars = (text: string): number => [...text].length;
const countText = (n: number | null | undefined): string => (n === null ? 'unlimited' : n === undefined ? UNKNOWN : String(n));

/**
 * The report at `width` columns (at least 60): a table with one row per kind — `Kind`, a bar of the share used (from
 * 80 columns or so; `unlimited` instead for an unlimited quota, `–` when unknown), `Used / limit`, `%`, `Remaining` —
 * then the lines `Period` (dates in UTC and the days left, counted from `now`), `Overage` and `Plan` (when reported).
 * Bar, percent and remaining are yellow from 80 % and red from 100 % when coloured; the overage line likewise against
 * its monthly limit. Unknown values show as `–`. No kinds reported: one line saying so instead of the table.
 */
export function renderUsageTable(facts: UsageFacts, options: UsageTableOptions): string {
  const c = new Chalk({ level: options.color ? 1 : 0 });
  const width = Math.max(MIN_WIDTH, options.width);
  const paint = (level: UsageLevel): ((text: string) => string) => (level === 'full' ? c.red : level === 'warn' ? c.yellow : (text: string) => text);
  const out: string[] = [];

  if (facts.kinds.length === 0) {
    out.push('The server reported no quotas.');
  } else {
    const kinds = facts.kinds.map((k) => trimToWidth(sanitizeLine(k.kind) || UNKNOWN, MAX_KIND));
    const usedWidth = Math.max(...facts.kinds.map((k) => chars(countText(k.used))));
    const limitWidth = Math.max(...facts.kinds.map((k) => (k.limit === null ? 0 : chars(countText(k.limit)))));
    // `812 / 1000`, the slashes aligned; an unlimited kind shows its count alone.
    const usedCells = facts.kinds.map((k) =>
      k.limit === null ? countText(k.used).padStart(usedWidth) : `${countText(k.used).padStart(usedWidth)} / ${countText(k.limit).padEnd(limitWidth)}`,
    );
    const percents = facts.kinds.map((k) => {
      const p = usagePercent(k);
      return p !== undefined ? `${p}%` : k.limit === null ? '' : UNKNOWN;
    });
    const remaining = facts.kinds.map((k) => countText(k.remaining));

    const kindCol = Math.max(chars('Kind'), ...kinds.map(chars)) + 2;
    const usedCol = Math.max(chars('Used / limit'), ...usedCells.map(chars)) + 2;
    const percentCol = Math.max(4, ...percents.map(chars)) + 2;
    const remainingCol = Math.max(chars('Remaining'), ...remaining.map(chars)) + 2;
    const barChars = Math.min(MAX_BAR, width - 6 - kindCol - usedCol - percentCol - remainingCol - 2);
    const withBar = barChars >= MIN_BAR;

    const head = ['Kind', ...(withBar ? [''] : []), 'Used / limit', '%', 'Remaining'];
    const widths = [kindCol, ...(withBar ? [barChars + 2] : []), usedCol, percentCol, remainingCol];
    const table = compactTable(c, head, widths, ['left', ...(withBar ? ['left' as const] : []), 'left', 'right', 'right'], options.color);
    facts.kinds.forEach((k, i) => {
      const level = usageLevel(k);
      const p = paint(level);
      let barCell = c.dim(UNKNOWN);
      if (k.limit === null) barCell = c.dim('unlimited');
      else if (level !== 'unknown') {
        const b = bar(k.limit === 0 ? 1 : k.used! / k.limit!, barChars);
        barCell = `${p(b.filled)}${c.dim(b.empty)}`;
      }
      table.push([kinds[i]!, ...(withBar ? [barCell] : []), usedCells[i]!, p(percents[i]!), level === 'ok' || level === 'unknown' ? remaining[i]! : p(remaining[i]!)]);
    });
    out.push(table.toString());
  }

  const overageLevel = facts.overage.allowed === true && facts.overage.limit !== undefined ? shareLevel(facts.overage.used, facts.overage.limit) : 'unknown';
  out.push(
    ...labelledLines(
      [
        ['Period', periodText(facts.period, options.now)],
        ['Overage', overageText(facts.overage), paint(overageLevel)],
        ...(facts.plan !== undefined ? [['Plan', sanitizeLine(facts.plan) || UNKNOWN] as const] : []),
      ],
      width,
      c.bold,
    ),
  );
  return `${out.join('\n')}\n`;
}

/** A count for TSV: the number, `unlimited` for null, empty when not reported. */
const tsvCount = (n: number | null | undefined): string | number | undefined => (n === null ? 'unlimited' : n);

/**
 * The report piped (see the module comment): one line per kind — `kind`, `used`, `limit`, `remaining`, `percent`,
 * `overage_used` — then `period` (start, end, month as sent; days left counted from `now`), `overage` (allowed, limit,
 * used) and `plan` lines. Unknown values are empty fields; `unlimited` stands for an unlimited limit or remainder.
 */
export function renderUsageTsv(facts: UsageFacts, now: number): string {
  return tsvLines([
    ...facts.kinds.map((k) => [k.kind, k.used, tsvCount(k.limit), tsvCount(k.remaining), usagePercent(k), k.overageUsed]),
    ['period', facts.period.start, facts.period.end, facts.period.month, daysLeft(facts.period, now)],
    ['overage', facts.overage.allowed, facts.overage.limit, facts.overage.used],
    ['plan', facts.plan],
  ]);
}

/** The view of `pravo usage`: `now` (ms since the epoch) is when the days left of the period count from. Not paged. */
export function usageView(now: number): View<UsageFacts> {
  return {
    table: (facts, { width, color }) => renderUsageTable(facts, { width, color, now }),
    tsv: (facts) => renderUsageTsv(facts, now),
  };
}
