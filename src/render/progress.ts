/**
 * Texts of progress indicators: the waiting spinner's label and the index build's progress bar. Pure functions; the
 * spinner itself (ora) is driven by the command.
 */

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
 * The index build's progress line: `Building search index [██████░░░░░░░░░░░░░░]  30% of 3,093 input records`. The
 * build reports `done` of `total` in units of its own (records read count for 80 %, documents stored for the rest), so
 * only the share is shown, with what the total counts: the input records (a line of a JSON Lines file, an Akoma Ntoso
 * file, an act payload), which are more than the documents served (see {@link indexReadyText}).
 */
export function indexProgressText(done: number, total: number, barWidth = 20): string {
  const ratio = total > 0 ? Math.min(1, Math.max(0, done / total)) : 0;
  const filled = Math.round(ratio * barWidth);
  return `Building search index [${'█'.repeat(filled)}${'░'.repeat(barWidth - filled)}] ${`${Math.floor(ratio * 100)}%`.padStart(4)} of ${total.toLocaleString('en-US')} input records`;
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
