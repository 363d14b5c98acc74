/**
 * Texts of progress indicators: the waiting spinner's label, the index build's progress bar, and the notice of a wait
 * before a request is tried again. Pure functions; the spinner itself (ora) is driven by the command.
 */
import type { RetryNotice } from '../api/client.js';
import { duration } from './text.js';

/** Spinner label while a request runs: `Searching… 12s` (whole seconds elapsed, from `elapsedMs` milliseconds). */
export function waitingText(label: string, elapsedMs: number): string {
  return `${label}… ${Math.floor(Math.max(0, elapsedMs) / 1000)}s`;
}

/**
 * A progress bar line: `Building search index [██████░░░░░░░░░░░░░░]  30% 600/1997 documents`.
 * `done` and `total` are counts; a `total` of 0 or less shows an empty bar.
 */
export function progressBar(label: string, done: number, total: number, unit: string, barWidth = 20): string {
  return `${label} ${barAndPercent(done, total, barWidth)} ${done}/${total} ${unit}`;
}

/** `[██████░░░░░░░░░░░░░░]  30%`: `done` of `total` as a bar of `barWidth` cells and a whole percentage, clamped. */
function barAndPercent(done: number, total: number, barWidth: number): string {
  const ratio = total > 0 ? Math.min(1, Math.max(0, done / total)) : 0;
  const filled = Math.round(ratio * barWidth);
  return `[${'█'.repeat(filled)}${'░'.repeat(barWidth - filled)}] ${`${Math.floor(ratio * 100)}%`.padStart(4)}`;
}

/**
 * The index build's progress line: `Building search index [██████░░░░░░░░░░░░░░]  30% of 3,093 input records`. The
 * build reports `done` of `total` in units of its own (records read count for 80 %, documents stored for the rest), so
 * only the share is shown, with what the total counts: the input records (a line of a JSON Lines file, an Akoma Ntoso
 * file, an act payload), which are more than the documents served (see {@link indexReadyText}).
 */
export function indexProgressText(done: number, total: number, barWidth = 20): string {
  return `Building search index ${barAndPercent(done, total, barWidth)} of ${total.toLocaleString('en-US')} input records`;
}

/**
 * The line that ends an index build, saying what each figure counts: `Search index ready: 2,896 documents from 3,093
 * input records (9 skipped as unreadable, 188 merged into another text of the same act), 82,096 elements (articles,
 * §§, paragraphs of decisions), in 31.6 s.` `records` is the build's total (0 when unknown: the records part is left
 * out); `elapsedMs` in milliseconds.
 */
export function indexReadyText(counts: { documents: number; elements: number; records: number; skipped: number }, elapsedMs: number): string {
  const n = (value: number) => value.toLocaleString('en-US');
  const merged = counts.records - counts.skipped - counts.documents;
  const from =
    counts.records > 0
      ? ` from ${n(counts.records)} input records (${n(counts.skipped)} skipped as unreadable${merged > 0 ? `, ${n(merged)} merged into another text of the same act` : ''})`
      : '';
  return `Search index ready: ${n(counts.documents)} documents${from}, ${n(counts.elements)} elements (articles, §§, paragraphs of decisions), in ${(elapsedMs / 1000).toFixed(1)} s.`;
}

/**
 * The notice of a wait before a request is tried again (`RetryNotice` of the API client): `Server busy (HTTP 503);
 * retrying in 59s (try 2 of 3)…`, `Could not connect; retrying in 1s (try 2 of 3)…` (the wait rounded up to the
 * second). One line, no newline.
 */
export function retryNoticeText(notice: RetryNotice): string {
  // Rounded up to the second: a wait of 375 ms is `1s`, not `0s`.
  const wait = duration(Math.ceil(notice.delayMs / 1000) * 1000);
  return `${retryReason(notice.status)}; retrying in ${wait} (try ${notice.nextTry} of ${notice.maxTries})…`;
}

/** Why a request is tried again, by the status that turned it away (undefined: the connection failed). */
function retryReason(status: number | undefined): string {
  if (status === undefined) return 'Could not connect';
  if (status === 429) return 'Too many requests (HTTP 429)';
  if (status === 503) return 'Server busy (HTTP 503)';
  return `Gateway error (HTTP ${status})`;
}
