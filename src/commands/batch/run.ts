/**
 * `pravo batch <file | ->` (spec: POST /v1/search, GET /v1/documents, POST /v1/answers, GET /v1/usage, Quota rules):
 * checks the options, runs the batch (`src/batch/runner.ts`), asks on a terminal before spending units, and prints
 * through the printer: the pre-flight and the closing summary on stderr; with `--json` the summary (or the `--dry-run`
 * plan, or the refused plan) as one JSON object on stdout; the `--dry-run` plan on stdout without `--json`. Results
 * lines are the run's own output (`--out`, else stdout).
 */
import { UsageError, UserCancelledError } from '../../errors/cli.js';
import { EXIT } from '../../errors/exit-codes.js';
import type { Factory } from '../../factory.js';
import { inputName } from '../../io/input-source.js';
import { Printer } from '../../io/printer.js';
import { sanitizeLine } from '../../shared/sanitize.js';
import { shellQuote, targetFlagWords } from '../../services/targets.js';
import { parseTimeout } from '../../services/timeout.js';
import type { BatchSettings } from '../../batch/runner.js';
import { everyLineSucceeded, type BatchSummary } from '../../batch/summary.js';

/** Options of `pravo batch` as commander parses them. */
export interface BatchOptions {
  out?: string;
  /** `--fetch-docs K`. */
  fetchDocs?: string;
  answers?: boolean;
  concurrency?: string;
  allowOverage?: boolean;
  yes?: boolean;
  dryRun?: boolean;
  retryInterrupted?: boolean;
  restart?: boolean;
  timeout?: string;
  json?: boolean;
}

/** Default and bounds of `--concurrency`. */
export const CONCURRENCY = { default: 2, min: 1, max: 16 } as const;

/** Bounds of `--fetch-docs K` (a search returns at most 50 results). */
export const FETCH_DOCS = { min: 1, max: 50 } as const;

/**
 * Runs the batch; returns the exit code: 0 when every line of the input has succeeded (in this run or before), or
 * after `--dry-run`; 5 when the quota stopped it or the pre-flight refused it; 4 / 6 when a rejected key / no
 * connection stopped it; 130 after Ctrl-C; {@link EXIT.batchIncomplete} when it ran to its end but some lines failed,
 * were interrupted or are unfinished (see {@link batchExitCode}).
 * @throws UsageError before anything is sent (bad options, bad lines, a journal of another input, no `--yes` without a
 *   terminal); UserCancelledError when the user declines at the prompt; EnvironmentError when the input cannot be read
 *   or the results cannot be written; the client's errors of the usage request.
 */
export async function runBatch(factory: Factory, source: string, options: BatchOptions): Promise<number> {
  const settings = checkOptions(factory, source, options);
  const printer = new Printer(factory.io, options.json === true);
  const [batch, render] = await Promise.all([import('../../batch/runner.js'), import('../../render/batch.js')]);
  const names = { input: inputName(source), out: settings.out };
  // The plan and the summary go to stderr: fitted to its width on a terminal, whole lines otherwise.
  const width = factory.io.stderrIsTTY && factory.io.stderr.columns ? factory.io.stderr.columns : Infinity;
  const outcome = await batch.runBatch(factory, settings, {
    note: (text) => printer.note(text),
    preflight: ({ plan, interrupted, missing, usageProblem }) =>
      printer.note(render.planText(plan, names, { color: factory.io.colorStderr, interrupted, missing, usageProblem, width })),
    confirm: factory.io.canPrompt ? (plan) => confirmPlan(factory, render.confirmQuestion(plan)) : undefined,
  });
  switch (outcome.kind) {
    case 'plan':
      await printer.local(render.planJson(outcome.plan, outcome), render.planView(names, factory.io.colorStdout), outcome);
      return EXIT.ok;
    case 'refused':
      printer.note(render.refusalText(outcome.plan));
      printer.localIfJson({ ...render.planJson(outcome.plan, outcome), refused: true });
      return EXIT.quota;
    case 'ran': {
      const { summary } = outcome;
      const exitCode = batchExitCode(summary);
      printer.note(render.summaryText(summary, { ...names, rerun: rerunCommand(factory, options, names), color: factory.io.colorStderr, width }));
      printer.localIfJson(render.summaryJson(summary, names, exitCode));
      return exitCode;
    }
  }
}

/** @throws UsageError for bad or conflicting options. */
function checkOptions(factory: Factory, source: string, options: BatchOptions): BatchSettings {
  const concurrency = wholeNumber('--concurrency', options.concurrency, CONCURRENCY.min, CONCURRENCY.max) ?? CONCURRENCY.default;
  const fetchDocs = wholeNumber('--fetch-docs', options.fetchDocs, FETCH_DOCS.min, FETCH_DOCS.max) ?? 0;
  if (options.answers && fetchDocs > 0) {
    throw new UsageError('--answers and --fetch-docs are two different batches: an answer job cites its own sources. Give one of them.');
  }
  const timeoutMs = parseTimeout(options.timeout);
  if (options.out === undefined && !options.dryRun) {
    if (factory.io.stdoutIsTTY) {
      throw new UsageError('Give --out FILE for the results: they are JSON Lines, one per query, too many for a terminal, and the file lets an interrupted batch resume.');
    }
    if (options.json) throw new UsageError('--json prints the summary on stdout, which holds the results without --out: give --out FILE.');
    for (const [flag, given] of [['--restart', options.restart], ['--retry-interrupted', options.retryInterrupted]] as const) {
      if (given) throw new UsageError(`${flag} works on the journal kept beside --out FILE; without --out there is none.`);
    }
  }
  if (options.out !== undefined && options.out.trim() === '') throw new UsageError('--out needs a file name.');
  return {
    source,
    out: options.out,
    mode: options.answers ? 'answers' : 'search',
    fetchDocs,
    concurrency,
    timeoutMs,
    allowOverage: options.allowOverage === true,
    yes: options.yes === true,
    dryRun: options.dryRun === true,
    retryInterrupted: options.retryInterrupted === true,
    restart: options.restart === true,
  };
}

/** A whole-number option within bounds, or undefined when not given. @throws UsageError */
function wholeNumber(flag: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value.trim());
  if (!/^\d+$/.test(value.trim()) || n < min || n > max) {
    throw new UsageError(`${flag} takes a whole number from ${min} to ${max}, not "${sanitizeLine(value)}".`);
  }
  return n;
}

/**
 * Asks on a terminal whether to go on (given to the run only when there is one).
 * @throws UserCancelledError when the user says no; the prompt's cancellation on Ctrl-C.
 */
async function confirmPlan(factory: Factory, question: string): Promise<void> {
  const { confirm } = await import('@inquirer/prompts');
  const go = await confirm({ message: question, default: true }, { input: factory.io.stdin, output: factory.io.promptOutput, signal: factory.signal });
  if (!go) throw new UserCancelledError('Nothing was sent.');
}

/**
 * The exit code of a finished run (README: "Exit codes"): 130 after Ctrl-C; 5, 4 or 6 when the quota, a rejected key
 * or the lack of a connection stopped it; 1 when the server asked to slow down or a local failure stopped it; else 0
 * when every line of the input has succeeded ({@link everyLineSucceeded}) and {@link EXIT.batchIncomplete} when some
 * failed, were interrupted, are unfinished, were not sent, or were marked done without their result.
 */
export function batchExitCode(summary: BatchSummary): number {
  if (summary.stop === 'cancelled') return EXIT.cancelled;
  if (summary.stop === 'quota') return EXIT.quota;
  if (summary.stop === 'auth') return EXIT.auth;
  if (summary.stop === 'connection') return EXIT.network;
  if (summary.stop === 'rate_limited' || summary.stop === 'local') return EXIT.error;
  return everyLineSucceeded(summary) ? EXIT.ok : EXIT.batchIncomplete;
}

/** The command that continues this batch: the same input, `--out` and mode, with this run's target flags. */
function rerunCommand(factory: Factory, options: BatchOptions, names: { input: string; out: string | undefined }): string {
  const words = ['pravo', 'batch', names.input === 'standard input' ? '-' : shellQuote(names.input)];
  if (names.out !== undefined) words.push('--out', shellQuote(names.out));
  if (options.answers) words.push('--answers');
  if (options.fetchDocs !== undefined) words.push('--fetch-docs', shellQuote(options.fetchDocs));
  words.push(...targetFlagWords(factory.globals), '--yes');
  return words.join(' ');
}
