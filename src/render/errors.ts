/**
 * Renders an error summary (`src/errors/advice.ts`) for people (stderr text ending with what to do next) and for
 * scripts (one JSON line with `--json`). Pure functions; the summary's server text is already sanitized.
 */
import { Chalk } from 'chalk';
import type { ErrorSummary } from '../errors/advice.js';

/** The error for a person: `Error: message`, then the advice, then the request id when there is one. */
export function renderErrorText(summary: ErrorSummary, color: boolean): string {
  const c = new Chalk({ level: color ? 1 : 0 });
  const lines = [`${c.red.bold('Error:')} ${summary.message}`];
  if (summary.hint) lines.push(summary.hint);
  if (summary.requestId) lines.push(c.dim(`Request id: ${summary.requestId}`));
  return `${lines.join('\n')}\n`;
}

/**
 * The error for a script: one line of JSON,
 * `{"error":{"kind","code","message","hint","exit_code","may_have_been_counted","request_id"}}`.
 */
export function renderErrorJson(summary: ErrorSummary): string {
  return `${JSON.stringify({
    error: {
      kind: summary.kind,
      code: summary.code ?? null,
      message: summary.message,
      hint: summary.hint ?? null,
      exit_code: summary.exitCode,
      may_have_been_counted: summary.mayHaveBeenCounted,
      request_id: summary.requestId ?? null,
    },
  })}\n`;
}
