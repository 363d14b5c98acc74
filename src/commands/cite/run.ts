/**
 * `pravo cite FILE|-`: checks every citation of a memo (spec: POST /v1/search finds the act, GET /v1/documents holds
 * the provision; `services/cite.ts`) and prints the verdicts in the run's output form: on a terminal the memo's lines
 * with each citation marked and a table of verdicts; piped TSV; `--json` pravo's report. Exit 0 when every citation is
 * `found`, 8 otherwise (as a failed verification).
 */
import { EXIT } from '../../errors/exit-codes.js';
import type { Factory } from '../../factory.js';
import { Printer } from '../../io/printer.js';
import { parseTimeout } from '../../services/timeout.js';
import { inputName } from '../../io/input-source.js';
import { readMemo } from './input.js';

/** Options of `pravo cite` as commander parses them. */
export interface CiteOptions {
  json?: boolean;
  yes?: boolean;
  refresh?: boolean;
  timeout?: string;
}

/**
 * Runs `pravo cite`; returns the exit code: 0 when every citation is found (or there are none), 8 otherwise; 0 when
 * the user declined at the prompt (nothing was checked, nothing sent).
 * @throws UsageError before sending (the memo cannot be read as text, a bad `--timeout`, nothing to ask on and no
 *   `--yes`); EnvironmentError when the file cannot be read; API errors of the searches and retrievals.
 */
export async function runCite(factory: Factory, source: string, options: CiteOptions): Promise<number> {
  // Each request's timeout: a search's by default (spec: POST /v1/search, rule 4).
  const timeoutMs = parseTimeout(options.timeout);
  const text = await readMemo(factory, source);
  const printer = new Printer(factory.io, options.json === true);
  const [{ checkMemo }, { allFound }] = await Promise.all([import('../../services/cite.js'), import('../../legal/cite.js')]);
  const report = await checkMemo(factory, printer, text, { yes: options.yes === true, refresh: options.refresh === true, timeoutMs, name: inputName(source) });
  if (report === undefined) return 0;
  await printer.local(report, async () => (await import('../../render/cite.js')).citeView(text), report);
  return allFound(report) ? 0 : EXIT.verificationFailed;
}
