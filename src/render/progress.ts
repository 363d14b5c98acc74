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
  const ratio = total > 0 ? Math.min(1, Math.max(0, done / total)) : 0;
  const filled = Math.round(ratio * barWidth);
  const percent = `${Math.floor(ratio * 100)}%`.padStart(4);
  return `${label} [${'█'.repeat(filled)}${'░'.repeat(barWidth - filled)}] ${percent} ${done}/${total} ${unit}`;
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
