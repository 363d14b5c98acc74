/**
 * The recorded answer jobs (`pravo answer list`; records of `state/answer-jobs.ts`): a compact table for terminals and
 * tab-separated lines for pipes. Pure functions of the data; every recorded string (ids and error codes came from a
 * server, questions from a user) passes through the sanitizer.
 */
import { Chalk } from 'chalk';
import type { View } from '../io/printer.js';
import { sanitizeLine } from '../shared/sanitize.js';
import type { AnswerJobRecord } from '../state/answer-jobs.js';
import { compactTable, fitColumns } from './table.js';
import { tsvLines, wrapText } from './text.js';

/** `45s`, `13m`, `5h`, `2d`: how long ago, `ms` milliseconds before now, in a column's few characters. */
export function shortAge(ms: number): string {
  const seconds = Math.floor(Math.max(0, ms) / 1000);
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m`;
  if (seconds < 48 * 3600) return `${Math.floor(seconds / 3600)}h`;
  return `${Math.floor(seconds / 86_400)}d`;
}

/** The target a job was created on, as the flags that reach it: `--sandbox`, or the profile's name. */
function targetOf(record: AnswerJobRecord): string {
  return record.sandbox ? '--sandbox' : sanitizeLine(record.profile);
}

/** The status shown: the `error_code` of a failed job (`timed_out`), else the status. */
function statusOf(record: AnswerJobRecord): string {
  return sanitizeLine(record.last_status === 'failed' && record.error_code ? record.error_code : record.last_status);
}

/**
 * The recorded jobs at `width` columns (at least 60): a summary (`3 of 12 recorded answer jobs, newest first`,
 * wrapped), then columns `Job` (whole: `pravo answer show` takes it), `Status` (a failed job's `error_code`, red; `succeeded` green; unfinished yellow), `Age`
 * (since creation, `13m`), `Target` (only when the jobs were created on more than one: the profile or `--sandbox`;
 * otherwise named in the summary) and `Question`, which wraps. `now` is in ms since the epoch; `total` counts every
 * recorded job.
 */
export function renderAnswerJobsTable(records: readonly AnswerJobRecord[], options: { width: number; color: boolean; now: number; total: number }): string {
  const c = new Chalk({ level: options.color ? 1 : 0 });
  if (records.length === 0) return 'No answer jobs are recorded. Ask with `pravo answer "…"`.\n';
  const width = Math.max(60, options.width);
  const targets = [...new Set(records.map(targetOf))];
  const showTarget = targets.length > 1;
  const shown = records.length < options.total ? `${records.length} of ${options.total}` : String(options.total);
  const where = showTarget ? '' : ` (${targets[0] === '--sandbox' ? 'on the in-process sandbox' : `profile ${targets[0]}`})`;
  const summary = `${shown} recorded answer job${options.total === 1 ? '' : 's'}${where}, newest first${records.length < options.total ? '; -n 0 lists all' : ''}.`;

  const rows = records.map((r) => ({
    record: r,
    id: sanitizeLine(r.job_id),
    status: statusOf(r),
    age: shortAge(options.now - Date.parse(r.created_at)),
    target: targetOf(r),
    query: sanitizeLine(r.query),
  }));
  // The job id is what `pravo answer show` takes: whole. The question wraps in the room left.
  const head = ['Job', 'Status', 'Age', ...(showTarget ? ['Target'] : []), 'Question'];
  const cells = rows.map((r) => [r.id, r.status, r.age, ...(showTarget ? [r.target] : []), r.query]);
  const widths = fitColumns(
    head.map((header, i) => ({ header, cells: cells.map((row) => row[i]!), ...(i === 0 ? { min: Math.max(...rows.map((r) => [...r.id].length)) } : {}) })),
    width,
  );
  const table = compactTable(c, head, widths, ['left', 'left', 'right', ...(showTarget ? ['left' as const] : []), 'left'], options.color);
  rows.forEach((r, i) => {
    const paint = r.record.last_status === 'failed' ? c.red : r.record.last_status === 'succeeded' ? c.green : c.yellow;
    table.push(cells[i]!.map((cell, column) => (column === 1 ? paint(cell) : cell)));
  });
  return `${wrapText(summary, width).join('\n')}\n${table.toString()}\n`;
}

/**
 * The recorded jobs piped: one per line, tab-separated: `job_id`, `last_status`, `created_at`, `checked_at`,
 * `profile`, `sandbox` (`true`/`false`), `error_code` (empty unless failed), `query`.
 */
export function renderAnswerJobsTsv(records: readonly AnswerJobRecord[]): string {
  return tsvLines(records.map((r) => [r.job_id, r.last_status, r.created_at, r.checked_at, r.profile, r.sandbox, r.error_code ?? '', r.query]));
}

/** The view of `pravo answer list`: `now` (ms since the epoch) dates the ages; `total` counts every recorded job. */
export function answerJobsView(now: number, total: number): View<AnswerJobRecord[]> {
  return {
    page: true,
    table: (records, { width, color }) => renderAnswerJobsTable(records, { width, color, now, total }),
    tsv: renderAnswerJobsTsv,
  };
}

