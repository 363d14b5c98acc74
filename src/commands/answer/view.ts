/**
 * The views of `pravo answer`: a final job with its verification (the answer's own rendering is
 * `render/answer.ts`), and the list of recorded jobs.
 */
import Table from 'cli-table3';
import { Chalk } from 'chalk';
import type { AnswerJob } from '../../api/types.js';
import type { View } from '../../io/printer.js';
import { sanitizeLine } from '../../io/sanitize.js';
import { answerView, renderVerification } from '../../render/answer.js';
import { timeAgo, trimToWidth, tsvLines } from '../../render/text.js';
import type { AnswerJobRecord } from '../../state/answer-jobs.js';
import type { Verification } from './verify.js';

/** A final job and, after `--verify`, its verification. */
export interface AnswerOutput {
  job: AnswerJob;
  verification?: Verification;
}

/**
 * The answer (markers resolved, sources listed) followed, after `--verify`, by one line per citation and a summary,
 * in one piece so that the pager shows both. Piped: the same without colour or wrapping.
 */
export const answerOutputView: View<AnswerOutput> = {
  page: true,
  table: ({ job, verification }, options) => {
    const answer = answerView.table(job, options);
    if (!verification) return answer;
    return `${answer}\n${renderVerification(verification.report, verification.resolved, job.sources ?? [], options)}`;
  },
  tsv: ({ job, verification }) => {
    const answer = answerView.tsv(job);
    if (!verification) return answer;
    return `${answer}\n${renderVerification(verification.report, verification.resolved, job.sources ?? [])}`;
  },
};

/**
 * The recorded jobs: on a terminal a table (`Job`, `Status`, `Created`, `Target`, `Query`) under a one-line summary;
 * piped, one job per line, tab-separated: `job_id`, `last_status`, `created_at`, `checked_at`, `profile`, `sandbox`
 * (`true`/`false`), `error_code`, `query`. `now` (ms since the epoch) dates the `Created` column; `total` is how many
 * are recorded in all.
 */
export function answerListView(now: number, total: number): View<AnswerJobRecord[]> {
  return {
    page: true,
    table: (records, { width, color }) => {
      const c = new Chalk({ level: color ? 1 : 0 });
      if (records.length === 0) return 'No answer jobs are recorded. Ask with `pravo answer "…"`.\n';
      const summary = records.length < total ? `${records.length} of ${total} recorded answer jobs, newest first (-n 0 lists all).` : `${total} recorded answer job${total === 1 ? '' : 's'}, newest first.`;
      const w = Math.max(60, width);
      const idWidth = Math.min(34, Math.max(8, ...records.map((r) => [...sanitizeLine(r.job_id)].length)) + 2);
      const fixed = { status: 19, created: 17, target: 12 };
      const queryWidth = Math.max(12, w - 6 - idWidth - fixed.status - fixed.created - fixed.target);
      const table = new Table({
        head: ['Job', 'Status', 'Created', 'Target', 'Query'].map((h) => c.bold(h)),
        colWidths: [idWidth, fixed.status, fixed.created, fixed.target, queryWidth],
        wordWrap: false,
      });
      for (const r of records) {
        const word = r.last_status === 'failed' && r.error_code ? `failed: ${sanitizeLine(r.error_code)}` : sanitizeLine(r.last_status);
        const paint = r.last_status === 'failed' ? c.red : r.last_status === 'succeeded' ? c.green : c.yellow;
        const status = paint(trimToWidth(word, fixed.status - 2));
        table.push([
          trimToWidth(sanitizeLine(r.job_id), idWidth - 2),
          status,
          timeAgo(now - Date.parse(r.created_at)),
          trimToWidth(r.sandbox ? '--sandbox' : sanitizeLine(r.profile), fixed.target - 2),
          trimToWidth(sanitizeLine(r.query), queryWidth - 2),
        ]);
      }
      return `${summary}\n${table.toString()}\n`;
    },
    tsv: (records) =>
      tsvLines(records.map((r) => [r.job_id, r.last_status, r.created_at, r.checked_at, r.profile, r.sandbox, r.error_code ?? '', r.query])),
  };
}
