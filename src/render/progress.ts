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
