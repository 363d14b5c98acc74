/**
 * The usage period for people, one convention for every command that prints it (`pravo usage`, `pravo batch`): a
 * period is shown by its dates in UTC, its end as the LAST DAY of the period, inclusive (`ends 2026-11-30 (UTC)`),
 * never as the exclusive end the server sends (`2026-12-01T00:00:00Z`, spec: GET /v1/usage; `src/api/usage.ts`). The
 * day after it is named only as the day the next period begins. Pure functions of the period and of `now` (ms since the
 * epoch, passed in); a date that cannot be read is left out, so nothing the server sent reaches a terminal unchecked.
 */
import type { UsageFacts } from '../api/usage.js';
import { plural } from './text.js';

/** The period as `readUsage` reads it: `start` inclusive, `end` exclusive, `month` (`YYYY-MM`), each as sent. */
export type UsagePeriod = UsageFacts['period'];

const DAY_MS = 86_400_000;

/**
 * An instant the server sent, as ms since the epoch: ISO 8601 with `T` or a space, with `Z` or an offset, or without a
 * zone (read as UTC, as the contract's periods are), or a date alone (its midnight UTC); undefined otherwise.
 */
export function parseInstant(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const s = text.trim();
  const at = /^\d{4}-\d{2}-\d{2}$/.test(s)
    ? `${s}T00:00:00Z`
    : /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/i.test(s)
      ? `${s.replace(' ', 'T')}${/(Z|[+-]\d{2}:?\d{2})$/i.test(s) ? '' : 'Z'}`
      : undefined;
  if (at === undefined) return undefined;
  const ms = Date.parse(at);
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * The period as instants (ms since the epoch; `end` exclusive): `start` and `end` as sent, else the calendar month
 * (UTC) of `month` (`YYYY-MM`) for what is missing; each undefined when it cannot be read.
 */
export function periodBounds(period: UsagePeriod): { start: number | undefined; end: number | undefined } {
  const month = /^(\d{4})-(\d{2})$/.exec(period.month?.trim() ?? '');
  const monthOk = month !== null && Number(month[2]) >= 1 && Number(month[2]) <= 12;
  const fromMonth = (offset: number): number | undefined => (monthOk ? Date.UTC(Number(month![1]), Number(month![2]) - 1 + offset, 1) : undefined);
  return { start: parseInstant(period.start) ?? fromMonth(0), end: parseInstant(period.end) ?? fromMonth(1) };
}

/**
 * Whole days from `now` to the period's end (exclusive), rounded up: 30 at the first instant of November, 1 in its
 * last day, 0 once it has ended; undefined when the end is not known.
 */
export function daysLeft(period: UsagePeriod, now: number): number | undefined {
  const { end } = periodBounds(period);
  return end === undefined ? undefined : Math.max(0, Math.ceil((end - now) / DAY_MS));
}

/** `2026-11-30`: the UTC day of an instant (ms since the epoch). */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * The period's dates: `2026-11-01 – 2026-11-30 (UTC)` (the last day is the one before the exclusive end), `until
 * 2026-11-30 (UTC)` or `from 2026-11-01 (UTC)` when one end is unknown; undefined when no date can be read.
 */
export function periodDates(period: UsagePeriod): string | undefined {
  const { start, end } = periodBounds(period);
  if (start !== undefined && end !== undefined) return `${utcDay(start)} – ${utcDay(end - 1)} (UTC)`;
  if (end !== undefined) return `until ${utcDay(end - 1)} (UTC)`;
  if (start !== undefined) return `from ${utcDay(start)} (UTC)`;
  return undefined;
}

/** `ends 2026-11-30 (UTC)`: the period's last day, inclusive; undefined when its end is not known. */
export function periodEnds(period: UsagePeriod | undefined): string | undefined {
  const end = period && periodBounds(period).end;
  return end === undefined ? undefined : `ends ${utcDay(end - 1)} (UTC)`;
}

/** `2026-12-01 (UTC)`: the first day of the next period (the current one's exclusive end); undefined when not known. */
export function nextPeriodBegins(period: UsagePeriod | undefined): string | undefined {
  const end = period && periodBounds(period).end;
  return end === undefined ? undefined : `${utcDay(end)} (UTC)`;
}

/**
 * The period with the days left, for `pravo usage`: `2026-11-01 – 2026-11-30 (UTC), 12 days left`, `…, ended` once
 * over; {@link periodDates} alone when the end is unknown; undefined when no date can be read.
 */
export function periodWithDaysLeft(period: UsagePeriod, now: number): string | undefined {
  const dates = periodDates(period);
  if (dates === undefined) return undefined;
  const left = daysLeft(period, now);
  return left === undefined ? dates : `${dates}, ${left === 0 ? 'ended' : `${plural(left, 'day')} left`}`;
}
