/**
 * Texts of `pravo batch`: the problems of an input, the plan (pre-flight against the usage), the refusal, the
 * confirmation question, the progress line and the closing summary, the JSON forms of the plan and the summary, and
 * the `--dry-run` plan's view for the printer. Pure functions of data (the batch's own types are in
 * `src/batch/summary.ts` and `src/batch/plan.ts`); names from the input or the command line pass through `sanitizeLine`.
 */
import { Chalk } from 'chalk';
import { BATCH_FIELDS, type LineProblem } from '../batch/input.js';
import type { BatchMode, UnreadableRecord } from '../batch/journal.js';
import type { BatchPlan } from '../batch/plan.js';
import { everyLineSucceeded, type BatchPreflight, type BatchProgress, type BatchSummary } from '../batch/summary.js';
import type { View } from '../io/printer.js';
import { sanitizeLine } from '../shared/sanitize.js';
import { nextPeriodBegins, periodEnds } from './period.js';
import { progressBar } from './progress.js';
import { duration, plural, trimToWidth, wrapLines } from './text.js';

/** At most this many bad lines are listed; the rest are counted. */
const MAX_PROBLEMS_SHOWN = 20;

/** At most this many line numbers are listed in a sentence; the rest are counted. */
const MAX_LINES_SHOWN = 12;

/**
 * Line numbers (ascending) as a short list, runs of consecutive numbers as ranges: `3, 17–20, 45`; after
 * {@link MAX_LINES_SHOWN} items, `… and 9 more` (lines).
 */
export function lineList(lines: readonly number[]): string {
  const runs: Array<[number, number]> = [];
  for (const line of lines) {
    const last = runs.at(-1);
    if (last && line === last[1] + 1) last[1] = line;
    else runs.push([line, line]);
  }
  const shown = runs.slice(0, MAX_LINES_SHOWN);
  const text = shown.map(([from, to]) => (from === to ? String(from) : `${from}–${to}`)).join(', ');
  const rest = runs.slice(MAX_LINES_SHOWN).reduce((sum, [from, to]) => sum + to - from + 1, 0);
  return rest > 0 ? `${text} … and ${rest} more` : text;
}

/** The bad lines of an input, one per line, and that nothing was sent. */
export function lineProblemsText(problems: readonly LineProblem[], inputName: string): string {
  const head = `${sanitizeLine(inputName)} has ${plural(problems.length, 'line')} that cannot be sent:`;
  const shown = problems.slice(0, MAX_PROBLEMS_SHOWN).map((p) => `  line ${p.line}: ${sanitizeLine(p.message)}`);
  if (problems.length > MAX_PROBLEMS_SHOWN) shown.push(`  … and ${problems.length - MAX_PROBLEMS_SHOWN} more`);
  return [head, ...shown, `Fix ${problems.length === 1 ? 'it' : 'them'} and run the command again (a JSON line takes the search fields ${BATCH_FIELDS.join(', ')}).`].join('\n');
}

/** What the batch does with each line, in words. */
function modeText(mode: BatchMode, fetchDocs: number): string {
  if (mode === 'answers') return 'an answer job per line';
  return fetchDocs > 0 ? `a search per line and its top ${plural(fetchDocs, 'document')}` : 'a search per line';
}

/** A count for the plan's table: `78`, `≤ 234`, `unlimited`, `unknown`. */
function units(value: number | null | undefined, upTo = false): string {
  if (value === null) return 'unlimited';
  if (value === undefined) return 'unknown';
  return `${upTo ? '≤ ' : ''}${value}`;
}

/**
 * The plan: what the input holds, what earlier runs did, what this run sends, and per quota kind the units it needs
 * against those remaining in the period; then the overage. Ends with a newline.
 */
export function planText(
  plan: BatchPlan,
  names: { input: string; out: string | undefined },
  options: { color: boolean; interrupted: readonly number[]; missing?: readonly number[]; usageProblem?: string | undefined; width?: number },
): string {
  const c = new Chalk({ level: options.color ? 1 : 0 });
  const { counts } = plan;
  const to = names.out === undefined ? 'standard output' : sanitizeLine(names.out);
  const lines = [`Batch: ${plural(counts.total, 'query', 'queries')} from ${sanitizeLine(names.input)} → ${to} (${modeText(plan.mode, plan.fetchDocs)})`];
  const state: string[] = [];
  if (counts.done > 0) state.push(`${counts.done} done before${counts.failed > 0 ? ` (${counts.failed} with an error)` : ''}`);
  if (counts.interrupted > 0) {
    state.push(`${counts.interrupted} interrupted (lines ${lineList(options.interrupted)}: they may have been counted, so they are not sent again without --retry-interrupted)`);
  }
  if (counts.missing > 0) {
    state.push(`${counts.missing} done before without their results (lines ${lineList(options.missing ?? [])}: not sent again without --retry-interrupted)`);
  }
  if (counts.jobsToCollect > 0) state.push(`${plural(counts.jobsToCollect, 'answer job')} to collect (created before: nothing spent)`);
  if (counts.searchedToFinish > 0) state.push(`${counts.searchedToFinish} searched before, documents to retrieve`);
  state.push(`${counts.toSend} to send`);
  lines.push(`  ${state.join(' · ')}`);
  if (plan.needs.some((n) => n.units > 0)) {
    const rows = [['quota', 'needs', 'remaining', 'after']];
    for (const need of plan.needs) {
      const after = typeof need.remaining === 'number' ? need.remaining - need.units : need.remaining;
      rows.push([need.kind, units(need.units, need.upTo), units(need.remaining), after === undefined || after === null ? units(after) : after < 0 ? `${-after} over` : String(after)]);
    }
    const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => [...r[i]!].length)));
    rows.forEach((row, r) => {
      const text = row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('   ');
      const over = r > 0 && plan.needs[r - 1]!.beyondQuota > 0;
      lines.push(`  ${r === 0 ? c.bold(text) : over ? c.yellow(text) : text}`);
    });
  }
  if (!plan.needs.some((n) => n.units > 0)) return `${wrapLines(lines.join('\n'), options.width ?? Infinity)}\n`;
  const ends = periodEnds(plan.period);
  lines.push(`  ${overageText(plan)}${ends ? ` · the period ${ends}` : ''}`);
  if (options.usageProblem) lines.push(`  ${c.yellow(`Not checked against the quota: ${options.usageProblem}.`)}`);
  else if (plan.unknown.length > 0) lines.push(`  ${c.yellow(`The server did not report what remains of ${plan.unknown.join(', ')}: not checked.`)}`);
  return `${wrapLines(lines.join('\n'), options.width ?? Infinity)}\n`;
}

/**
 * The `--dry-run` plan as the printer's view (stdout): {@link planText}, the same text on a terminal and piped.
 * `color`: stdout's colour setting, which the piped form keeps too (`FORCE_COLOR`), as the view's `tsv` is given none.
 */
export function planView(names: { input: string; out: string | undefined }, color: boolean): View<BatchPreflight> {
  const text = (p: BatchPreflight, withColor: boolean, width?: number): string =>
    planText(p.plan, names, { color: withColor, interrupted: p.interrupted, missing: p.missing, usageProblem: p.usageProblem, ...(width !== undefined ? { width } : {}) });
  return { table: (p, options) => text(p, options.color, options.width), tsv: (p) => text(p, color) };
}

/** The overage line of the plan. */
function overageText(plan: BatchPlan): string {
  const { allowed, available } = plan.overage;
  if (allowed === false) return 'overage: not allowed';
  if (allowed === undefined) return 'overage: not reported';
  const left = available === undefined ? 'its limit not reported' : `${plural(available, 'unit')} left this period`;
  const use = plan.beyondQuota > 0 ? `; this batch would use ${plan.beyondQuota}` : '';
  return `overage: allowed, ${left}${use}`;
}

/** Why the batch is refused, and what to do. Ends with a newline. */
export function refusalText(plan: BatchPlan): string {
  const over = plan.needs
    .filter((n) => n.beyondQuota > 0)
    .map((n) => `${n.kind} ${n.upTo ? 'up to ' : ''}${plural(n.units, 'unit')} against ${units(n.remaining)} remaining`);
  const overage = plan.overage.allowed ? ` plus ${plural(plan.overage.available ?? 0, 'overage unit')}` : '';
  const ends = periodEnds(plan.period);
  const next = ends ? ` The period ${ends}; the next begins ${nextPeriodBegins(plan.period)}.` : '';
  return (
    `Refused: the batch needs more than the period has left (${over.join('; ')}${overage}). Nothing was sent.${next}\n` +
    `Send fewer lines, raise the quota or ${plan.overage.allowed ? "the account's overage limit" : 'allow overage for the account'}, or add --allow-overage to send anyway: the batch then stops cleanly when the server refuses with monthly_quota_exceeded, keeping what is done, and a rerun continues.\n`
  );
}

/** The question asked on a terminal before spending units. */
export function confirmQuestion(plan: BatchPlan): string {
  const parts = plan.needs
    .filter((n) => n.units > 0)
    .map((n) => `${n.upTo ? 'up to ' : ''}${plural(n.units, `${n.kind} unit`)}${n.beyondQuota > 0 ? ` (${n.beyondQuota} in overage)` : ''}`);
  return `Send ${plural(plan.counts.toSend + plan.counts.searchedToFinish, 'line')}, spending ${parts.join(', ')}?`;
}

/**
 * `Batch [██████░░░░░░░░░░░░░░]  30% 60/200 lines · 2 failed · 2.4/s · ETA 58s`: counts, the rate since the start (per
 * second, or per minute below one a second: `4.0/min`) and the time left at that rate (once one item has finished).
 * Within `width` columns (default: no limit): a narrower bar first, then without the jobs running, then without the
 * rate, then cut; a line that wraps would leave copies of itself on the terminal as it is redrawn.
 */
export function progressText(p: BatchProgress, width = Number.POSITIVE_INFINITY): string {
  const counts: string[] = [];
  if (p.tally.failed > 0) counts.push(`${p.tally.failed} failed`);
  if (p.tally.interrupted > 0) counts.push(`${p.tally.interrupted} interrupted`);
  const running = p.mode === 'answers' && p.inFlight > 0 ? `${plural(p.inFlight, 'job')} running` : undefined;
  let rate: string | undefined;
  let eta: string | undefined;
  if (p.finished > 0 && p.elapsedMs > 0) {
    const perSecond = (p.finished * 1000) / p.elapsedMs;
    const [value, per] = perSecond >= 1 ? [perSecond, 's'] : [perSecond * 60, 'min'];
    rate = `${value >= 10 ? Math.round(value) : value.toFixed(1)}/${per}`;
    if (p.finished < p.total && !p.stopping) eta = `ETA ${duration(((p.total - p.finished) * p.elapsedMs) / p.finished)}`;
  }
  const stopping = p.stopping ? `stopping (${p.stopping})` : undefined;
  const line = (barWidth: number, withRunning: boolean, withRate: boolean): string =>
    [progressBar('Batch', p.finished, p.total, 'lines', barWidth), ...counts, withRunning ? running : undefined, withRate ? rate : undefined, eta, stopping]
      .filter((part) => part !== undefined)
      .join(' · ');
  for (const [barWidth, withRunning, withRate] of [[20, true, true], [10, true, true], [10, false, true], [10, false, false]] as const) {
    const text = line(barWidth, withRunning, withRate);
    if ([...text].length <= width) return text;
  }
  return trimToWidth(line(10, false, false), width);
}

/**
 * The warning about records of the journal that cannot be read, and what follows for the lines they may concern. Ends
 * with a newline.
 */
export function unreadableRecordsText(journalPath: string, unreadable: readonly UnreadableRecord[]): string {
  const records = unreadable.map((r) => r.record);
  const named = [...new Set(unreadable.flatMap((r) => (r.line === undefined ? [] : [r.line])))].sort((a, b) => a - b);
  const concern = unreadable.some((r) => r.line === undefined)
    ? 'every line not done (a record that names no line may concern any of them)'
    : `${named.length === 1 ? 'line' : 'lines'} ${lineList(named)} (unless done)`;
  return (
    `Warning: ${plural(unreadable.length, 'record')} of ${sanitizeLine(journalPath)} cannot be read (${records.length === 1 ? 'line' : 'lines'} ${lineList(records)} of the file; was it edited or damaged?). ` +
    `What ${unreadable.length === 1 ? 'it' : 'they'} recorded is unknown, so ${concern} may have been sent and counted: reported interrupted, and sent again only with --retry-interrupted.\n`
  );
}

/** A label of the summary's rows, padded so that their counts line up (`interrupted`, the longest, then two spaces). */
function label(name: string): string {
  return name.padEnd(13);
}

/** The warning about lines marked done whose results are missing from the results file. Ends with a newline. */
export function missingResultsText(journalPath: string, out: string, lines: readonly number[]): string {
  return (
    `Warning: ${plural(lines.length, 'line')} marked done in ${sanitizeLine(journalPath)} ${lines.length === 1 ? 'is' : 'are'} missing from ${sanitizeLine(out)} (was it edited?): ` +
    `${lines.length === 1 ? 'line' : 'lines'} ${lineList(lines)}. They do not count as succeeded; --retry-interrupted sends them again, --restart begins anew.\n`
  );
}

/** Why a batch stopped, in words, with what to do. */
function stopText(summary: BatchSummary, rerun: string): string | undefined {
  const next = nextPeriodBegins(summary.period);
  const period = next ? `, which begins ${next},` : '';
  switch (summary.stop) {
    case 'quota':
      return `Stopped: the monthly quota is used up (${sanitizeLine(summary.stopMessage ?? 'monthly_quota_exceeded')}). What is done is kept. Continue in the next period${period} or once the quota is raised, with \`${rerun}\`.`;
    case 'auth':
      return `Stopped: the key was refused (${sanitizeLine(summary.stopMessage ?? '')}). Fix the key (\`pravo config set-key\`) and continue with \`${rerun}\`.`;
    case 'connection':
      return `Stopped: the server could not be reached (${sanitizeLine(summary.stopMessage ?? '')}). Continue with \`${rerun}\` once it can.`;
    case 'rate_limited':
      return `Stopped: the server asked to slow down (HTTP 429). Continue later with \`${rerun}\`, perhaps with --concurrency 1.`;
    case 'cancelled':
      return `Stopped by Ctrl-C. What is done is kept; continue with \`${rerun}\`.`;
    case 'local':
      return `Stopped: ${sanitizeLine(summary.stopMessage ?? 'a local failure')} What is done is kept; continue with \`${rerun}\` once that is fixed.`;
    default:
      return undefined;
  }
}

/** The closing summary for people (stderr), fitted to `width` columns (default: not wrapped). Ends with a newline. */
export function summaryText(
  summary: BatchSummary,
  options: { input: string; out: string | undefined; rerun: string; color: boolean; width?: number },
): string {
  const c = new Chalk({ level: options.color ? 1 : 0 });
  const to = options.out === undefined ? 'standard output' : sanitizeLine(options.out);
  const lines = [c.bold(`Batch of ${plural(summary.total, 'query', 'queries')} from ${sanitizeLine(options.input)} → ${to}:`)];
  lines.push(`  ${label('done')}${summary.succeeded + summary.failed} this run${summary.failed > 0 ? c.red(` (${summary.failed} failed: their lines hold the error)`) : ''}`);
  if (summary.skipped > 0) lines.push(`  ${label('skipped')}${summary.skipped} done before${summary.skippedFailed > 0 ? ` (${summary.skippedFailed} with an error)` : ''}`);
  if (summary.interrupted.length > 0) {
    lines.push(
      c.yellow(
        `  ${label('interrupted')}${summary.interrupted.length} (lines ${lineList(summary.interrupted)}): in flight at an interruption, they may have been counted; a rerun with --retry-interrupted sends them again`,
      ),
    );
  }
  if (summary.missing.length > 0) {
    lines.push(
      c.yellow(
        `  ${label('missing')}${summary.missing.length} (lines ${lineList(summary.missing)}): marked done, but their results are not in the file; a rerun with --retry-interrupted sends them again`,
      ),
    );
  }
  if (summary.unfinished.length > 0) {
    const what = summary.mode === 'answers' ? 'answer jobs created and recorded, not yet collected' : 'searched, documents still to retrieve';
    lines.push(`  ${label('unfinished')}${summary.unfinished.length} (lines ${lineList(summary.unfinished)}): ${what}; a rerun finishes them without spending again`);
  }
  if (summary.notSent.length > 0) lines.push(`  ${label('not sent')}${summary.notSent.length} (lines ${lineList(summary.notSent)}): a rerun sends them`);
  lines.push(`  ${label('units spent')}search ${summary.units.search}, retrieval ${summary.units.retrieval}, answers ${summary.units.answers}`);
  const stop = stopText(summary, options.rerun);
  if (stop) lines.push(c.yellow(stop));
  else if (everyLineSucceeded(summary)) lines.push(c.green('Every line succeeded.'));
  return `${wrapLines(lines.join('\n'), options.width ?? Infinity)}\n`;
}

/** pravo's JSON object of the summary (`--json`, on stdout). */
export function summaryJson(summary: BatchSummary, names: { input: string; out: string | undefined }, exitCode: number): Record<string, unknown> {
  return {
    input: names.input,
    out: names.out ?? null,
    total: summary.total,
    succeeded: summary.succeeded,
    failed: summary.failed,
    skipped: summary.skipped,
    skipped_failed: summary.skippedFailed,
    interrupted: summary.interrupted,
    missing: summary.missing,
    unfinished: summary.unfinished,
    not_sent: summary.notSent,
    units_spent: summary.units,
    stopped: summary.stop ?? null,
    exit_code: exitCode,
  };
}

/** pravo's JSON object of the plan (`--dry-run --json`), with the interrupted lines and those missing their results. */
export function planJson(plan: BatchPlan, lines: { interrupted: readonly number[]; missing: readonly number[] }): Record<string, unknown> {
  return {
    mode: plan.mode,
    fetch_docs: plan.fetchDocs,
    total: plan.counts.total,
    done: plan.counts.done,
    interrupted: lines.interrupted,
    missing: lines.missing,
    to_send: plan.counts.toSend,
    jobs_to_collect: plan.counts.jobsToCollect,
    searched_to_finish: plan.counts.searchedToFinish,
    needs: Object.fromEntries(plan.needs.map((n) => [n.kind, { units: n.units, up_to: n.upTo, remaining: n.remaining ?? null, beyond_quota: n.beyondQuota }])),
    overage: { allowed: plan.overage.allowed ?? null, available: plan.overage.available ?? null, needed: plan.beyondQuota },
    exceeds: plan.exceeds,
    // remaining is null both for an unlimited quota and for one the server did not report: this tells them apart.
    unknown: plan.unknown,
    period_end: plan.period?.end ?? null,
  };
}
