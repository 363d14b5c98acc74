/**
 * `pravo batch <file | ->` (spec: POST /v1/search, GET /v1/documents, POST /v1/answers, GET /v1/usage, Quota rules):
 * many questions, safe to kill and rerun. Every line is checked before anything is sent; the usage is read and the
 * units the batch needs counted against it (pre-flight); then the items run in a bounded pool, each request journaled
 * before it is sent and each results line made durable before the item is marked done. A rerun of the same command
 * skips what is done, collects answer jobs already created, and lists what was in flight at the interruption instead
 * of sending it again (`--retry-interrupted` does).
 */
import fs from 'node:fs/promises';
import type { AnswerJob, QuotaKind } from '../../contract/types.js';
import type { BatchItem } from '../../batch/input.js';
import { itemStatus, type BatchMode, type ItemProgress, type JournalContent, type JournalHeader, type NewJournalEvent } from '../../batch/journal.js';
import type { BatchCounts } from '../../batch/plan.js';
import { EnvironmentError, UsageError } from '../../errors/cli.js';
import { EXIT } from '../../errors/exit-codes.js';
import type { Factory } from '../../factory.js';
import { sanitizeLine } from '../../shared/sanitize.js';
import type { Indicator } from '../../io/iostreams.js';
import { newAnswerJobRecord, pruneAnswerJobRecords, recordAnswerJob, updateAnswerJobRecord } from '../../services/answer-jobs.js';
import { shellQuote, targetFlagWords } from '../../services/targets.js';
import { parseTimeout } from '../../services/search/request.js';
import type { ItemOutcome, ResultLine, StopReason } from './items.js';
import type { BatchFiles } from './files.js';
import type { BatchSummary } from '../../render/batch.js';

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

/** The checked options. */
interface Settings {
  mode: BatchMode;
  fetchDocs: number;
  concurrency: number;
  timeoutMs: number;
  out: string | undefined;
}

/**
 * Runs the batch; returns the exit code: 0 when every line of the input has succeeded (in this run or before), 5 when
 * the quota stopped it or the pre-flight refused it, 4 / 6 when a rejected key / no connection stopped it, 130 after
 * Ctrl-C, {@link EXIT.batchIncomplete} when it ran to its end but some lines failed, were interrupted or are
 * unfinished.
 * @throws UsageError before anything is sent (bad options, bad lines, a journal of another input, no `--yes` without a
 *   terminal); EnvironmentError when the input cannot be read or the results cannot be written; the client's errors of
 *   the usage request.
 */
export async function runBatch(factory: Factory, source: string, options: BatchOptions): Promise<number> {
  const settings = checkOptions(factory, options);
  const [{ parseBatchInput, batchDigest }, render] = await Promise.all([import('../../batch/input.js'), import('../../render/batch.js')]);
  const text = await readInput(factory, source);
  const input = parseBatchInput(text);
  if (input.problems.length > 0) throw new UsageError(render.lineProblemsText(input.problems, sourceName(source)));
  if (input.items.length === 0) throw new UsageError(`${sourceName(source)} holds no query: only blank lines and # comments. Nothing was sent.`);

  const target = await currentRunTarget(factory);
  const header: JournalHeader = {
    type: 'batch',
    version: 1,
    digest: batchDigest(input.items),
    mode: settings.mode,
    fetch_docs: settings.fetchDocs,
    items: input.items.length,
    target,
    created_at: new Date(factory.clock.now()).toISOString(),
  };

  const { openBatchFiles, reconcileWithResults } = await import('./files.js');
  const files = settings.out === undefined ? undefined : await openBatchFiles(factory, settings.out, header, options);
  try {
    const content = files?.content ?? { header: undefined, progress: new Map<number, ItemProgress>() };
    const recovered = files ? await reconcileWithResults(factory, files, content) : [];
    const { counts, work, interrupted, documentsToRetrieve } = await classify(factory, input.items, content, settings, options);
    const { unitsNeeded, planBatch, plannedUnits } = await import('../../batch/plan.js');
    const needs = unitsNeeded(settings.mode, settings.fetchDocs, counts, documentsToRetrieve);
    const needsUnits = needs.some((n) => n.units > 0);
    // Known before any request: spending needs consent, given at a prompt or by --yes.
    if (needsUnits && !options.dryRun && !options.yes && !factory.io.canPrompt) {
      throw new UsageError('The batch spends quota units and there is no terminal to ask on: add --yes to go ahead (or --dry-run to see the plan only).');
    }
    const usage = needsUnits || options.dryRun ? await readUsageFacts(factory) : undefined;
    const plan = planBatch(settings.mode, settings.fetchDocs, counts, needs, usage?.facts);
    const names = { input: sourceName(source), out: settings.out };

    if (options.dryRun) {
      if (options.json) factory.io.stdout.write(`${JSON.stringify(render.planJson(plan, interrupted))}\n`);
      else factory.io.stdout.write(render.planText(plan, names, { color: factory.io.colorStdout, interrupted, usageProblem: usage?.problem }));
      return EXIT.ok;
    }
    factory.io.stderr.write(render.planText(plan, names, { color: factory.io.colorStderr, interrupted, usageProblem: usage?.problem }));
    if (plan.exceeds && !options.allowOverage) {
      factory.io.stderr.write(render.refusalText(plan));
      if (options.json) factory.io.stdout.write(`${JSON.stringify({ ...render.planJson(plan, interrupted), refused: true })}\n`);
      return EXIT.quota;
    }
    if (work.length === 0) {
      const summary = emptySummary(counts, interrupted, settings.mode, plan.periodEnd);
      return finish(factory, options, summary, names);
    }
    if (plannedUnits(plan) > 0 && !options.yes) await confirmPlan(factory, render.confirmQuestion(plan));
    if (files) await files.openForWriting(header);
    const summary = await runItems(factory, settings, work, files, counts, interrupted, target, recovered, plan.periodEnd);
    return finish(factory, options, summary, names);
  } finally {
    await files?.close();
  }
}

/** @throws UsageError for bad or conflicting options. */
function checkOptions(factory: Factory, options: BatchOptions): Settings {
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
  return { mode: options.answers ? 'answers' : 'search', fetchDocs, concurrency, timeoutMs, out: options.out };
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

/** How the input is named in messages. */
function sourceName(source: string): string {
  return source === '-' ? 'standard input' : sanitizeLine(source);
}

/**
 * The input's text: the file, or standard input for `-`.
 * @throws UsageError for `-` on a terminal; EnvironmentError when the file cannot be read.
 */
async function readInput(factory: Factory, source: string): Promise<string> {
  if (source === '-') {
    if (factory.io.stdinIsTTY) throw new UsageError('`pravo batch -` reads the queries from standard input: pipe or redirect them in (`pravo batch - < questions.txt`).');
    const { readAllText } = await import('../../io/iostreams.js');
    return readAllText(factory.io.stdin);
  }
  try {
    return await fs.readFile(source, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'EIO';
    const { describeFileSystemProblem } = await import('../../errors/file-system.js');
    const why = code === 'ENOENT' ? 'there is no such file' : describeFileSystemProblem(code);
    throw new EnvironmentError(`Cannot read ${sanitizeLine(source)}: ${why}. Nothing was sent.`);
  }
}

/** This run's target as the journal records it. */
async function currentRunTarget(factory: Factory): Promise<JournalHeader['target']> {
  const profile = (await factory.profile()).name;
  if (factory.globals.sandbox) return { sandbox: true, profile, base_url: '' };
  const { serviceTarget } = await import('../../target.js');
  return { sandbox: false, profile, base_url: serviceTarget(await factory.profile()).baseUrl };
}

/** What {@link classify} finds. */
interface Classified {
  counts: BatchCounts;
  /** The items this run works on, in input order, with their progress. */
  work: Array<{ item: BatchItem; progress: ItemProgress }>;
  /** Line numbers of the interrupted items this run does not send. */
  interrupted: number[];
  /** Documents of items already searched that are neither cached nor retrieved (exact retrieval units). */
  documentsToRetrieve: number;
}

/** Sorts the items by where the journal says they stand. */
async function classify(
  factory: Factory,
  items: readonly BatchItem[],
  content: JournalContent,
  settings: Settings,
  options: BatchOptions,
): Promise<Classified> {
  const counts: BatchCounts = { total: items.length, done: 0, failed: 0, interrupted: 0, toSend: 0, jobsToCollect: 0, searchedToFinish: 0 };
  const work: Classified['work'] = [];
  const interrupted: number[] = [];
  let documentsToRetrieve = 0;
  for (const item of items) {
    const progress = content.progress.get(item.line) ?? { line: item.line, retrieved: new Set<string>() };
    const status = itemStatus(progress);
    if (status === 'done') {
      counts.done++;
      if (!progress.done!.ok) counts.failed++;
      continue;
    }
    if (status === 'interrupted' && !options.retryInterrupted) {
      counts.interrupted++;
      interrupted.push(item.line);
      continue;
    }
    work.push({ item, progress });
    const inFlight = progress.inFlight?.what;
    if (settings.mode === 'answers') {
      if (progress.jobId !== undefined && inFlight !== 'answer') counts.jobsToCollect++;
      else counts.toSend++;
    } else if (progress.searched !== undefined && inFlight !== 'search') {
      counts.searchedToFinish++;
      documentsToRetrieve += await uncachedDocuments(factory, progress.searched, settings.fetchDocs, progress.retrieved);
    } else counts.toSend++;
  }
  return { counts, work, interrupted, documentsToRetrieve };
}

/**
 * Of a journaled search response's top `k` documents, how many a rerun retrieves: those neither in the document cache
 * nor retrieved before (`retrieved`: one retrieved and gone from the cache is not retrieved again).
 */
async function uncachedDocuments(factory: Factory, raw: string, k: number, retrieved: ReadonlySet<string>): Promise<number> {
  const [{ parseSearchResponse }, { isDocumentCached }, { documentKey, topDocuments }] = await Promise.all([
    import('../../api/shapes.js'),
    import('../../services/documents.js'),
    import('../../batch/journal.js'),
  ]);
  let results;
  try {
    results = parseSearchResponse(JSON.parse(raw)).results;
  } catch {
    return 0;
  }
  let count = 0;
  for (const { document_id, collection } of topDocuments(results, k)) {
    if (retrieved.has(documentKey(document_id, collection))) continue;
    if (!(await isDocumentCached(factory, { document_id, collection }))) count++;
  }
  return count;
}

/**
 * `GET /v1/usage` read tolerantly; a server that does not serve it (404, 501) or answers something unreadable leaves
 * the plan unchecked (`problem` says why) rather than stopping the batch.
 * @throws the errors that would stop every request anyway: a rejected or missing key, no connection, Ctrl-C.
 */
async function readUsageFacts(factory: Factory): Promise<{ facts?: import('../../api/usage.js').UsageFacts; problem?: string }> {
  const [{ readUsage }, errors, { waitWithSpinner }] = await Promise.all([
    import('../../api/usage.js'),
    import('../../api/errors.js'),
    import('../../services/waiting.js'),
  ]);
  const client = await factory.client();
  try {
    const response = await waitWithSpinner(factory, 'Reading usage', () => client.usage.retrieve({ signal: factory.signal }));
    return { facts: readUsage(response.data) };
  } catch (error) {
    if (error instanceof errors.ApiError && !(error instanceof errors.AuthenticationError) && !(error instanceof errors.QuotaExceededError)) {
      return { problem: `the usage could not be read (${sanitizeLine(error.message)})` };
    }
    if (error instanceof errors.UnexpectedResponseError) return { problem: `the usage could not be read (${sanitizeLine(error.message)})` };
    throw error;
  }
}

/**
 * Asks on a terminal whether to go on (the caller has made sure there is one).
 * @throws UserCancelledError when the user says no; the prompt's cancellation on Ctrl-C.
 */
async function confirmPlan(factory: Factory, question: string): Promise<void> {
  const { UserCancelledError } = await import('../../errors/cli.js');
  const { confirm } = await import('@inquirer/prompts');
  const go = await confirm({ message: question, default: true }, { input: factory.io.stdin, output: factory.io.promptOutput, signal: factory.signal });
  if (!go) throw new UserCancelledError('Nothing was sent.');
}

/** Runs the work items in the pool and tallies what became of them. */
async function runItems(
  factory: Factory,
  settings: Settings,
  work: Classified['work'],
  files: BatchFiles | undefined,
  counts: BatchCounts,
  interruptedBefore: number[],
  target: JournalHeader['target'],
  recovered: ReadonlyArray<{ line: number; ok: boolean }>,
  periodEnd: string | undefined,
): Promise<BatchSummary> {
  const [{ runItem }, { runPool }, { applyEvent }, render, { resultJson }] = await Promise.all([
    import('./items.js'),
    import('../../shared/pool.js'),
    import('../../batch/journal.js'),
    import('../../render/batch.js'),
    import('./files.js'),
  ]);
  const client = await factory.client();
  const runTarget = await factory.target();
  const memory = new Map<number, ItemProgress>(work.map(({ item, progress }) => [item.line, progress]));
  const record = files ? (event: NewJournalEvent) => files.record(event) : async (event: NewJournalEvent) => applyEvent(memory, { ...event, at: '' } as never);
  for (const mark of recovered) await record({ type: 'done', line: mark.line, ok: mark.ok });

  const units: Record<QuotaKind, number> = { search: 0, retrieval: 0, answers: 0 };
  const outcomes = new Map<number, ItemOutcome>();
  let stop: { reason: StopReason; error: unknown } | undefined;
  let inFlight = 0;
  const started = factory.clock.now();
  const total = work.length;
  let finished = 0;
  let bar: Indicator | undefined;
  const tally = (): Record<ItemOutcome, number> => {
    const t: Record<ItemOutcome, number> = { succeeded: 0, failed: 0, interrupted: 0, unsent: 0, unfinished: 0 };
    for (const o of outcomes.values()) t[o]++;
    return t;
  };
  const show = (): void => bar?.update(render.progressText({ finished, total, tally: tally(), inFlight, elapsedMs: factory.clock.now() - started, mode: settings.mode, stopping: stop?.reason }));
  if (factory.io.showsProgress) bar = await factory.io.startSpinner(render.progressText({ finished: 0, total, tally: tally(), inFlight: 0, elapsedMs: 0, mode: settings.mode }));

  const onAbort = (): void => {
    stop ??= { reason: 'cancelled', error: undefined };
    bar?.stop();
    bar = undefined;
    factory.io.stderr.write(
      `Stopping: no new requests; ${inFlight} in flight ${inFlight === 1 ? 'finishes' : 'finish'} first${settings.mode === 'answers' ? ' (answer jobs go on, and a rerun collects them)' : ''}. Press Ctrl-C again to quit at once: what is in flight is then reported interrupted.\n`,
    );
  };
  factory.signal.addEventListener('abort', onAbort, { once: true });
  if (factory.signal.aborted) onAbort();

  let results = files ? (line: ResultLine) => files.writeResult(line) : async (line: ResultLine) => void factory.io.stdout.write(`${resultJson(line)}\n`);
  let jobsRecorded = false;
  const ctx = {
    factory,
    client,
    mode: settings.mode,
    fetchDocs: settings.fetchDocs,
    timeoutMs: settings.timeoutMs,
    documentsInFlight: new Map<string, Promise<void>>(),
    record,
    writeResult: (line: ResultLine) => results(line),
    spent: (kind: QuotaKind, delta = 1) => {
      units[kind] += delta;
    },
    stop: (reason: StopReason, error: unknown) => {
      stop ??= { reason, error };
    },
    stopping: () => stop !== undefined,
    cancelled: () => factory.signal.aborted,
    jobCreated: async (item: BatchItem, jobId: string) => {
      // Best effort, as each item's own journal entry is the batch's way back to the job.
      jobsRecorded = true;
      await recordAnswerJob(factory, newAnswerJobRecord(jobId, item.request, runTarget, factory.clock.now())).catch(() => {});
    },
    jobUpdated: (job: AnswerJob) => {
      void updateAnswerJobRecord(factory, job);
      show();
    },
  };

  try {
    await runPool(
      work,
      settings.concurrency,
      async ({ item, progress }) => {
        inFlight++;
        show();
        try {
          outcomes.set(item.line, await runItem(ctx, item, progress));
        } catch (error) {
          // A local failure (the results file cannot be written) after the request was sent: it may have been counted.
          outcomes.set(item.line, 'interrupted');
          throw error;
        } finally {
          inFlight--;
          finished++;
          show();
        }
      },
      () => stop !== undefined,
    );
  } catch (error) {
    stop = { reason: 'local', error };
  } finally {
    factory.signal.removeEventListener('abort', onAbort);
    bar?.stop();
    results = async () => {};
  }
  if (jobsRecorded) await pruneAnswerJobRecords(factory);

  const t = tally();
  const lineOf = (wanted: ItemOutcome): number[] => [...outcomes].filter(([, o]) => o === wanted).map(([line]) => line);
  const notStarted = work.filter(({ item }) => !outcomes.has(item.line)).map(({ item }) => item.line);
  return {
    ...emptySummary(counts, [...interruptedBefore, ...lineOf('interrupted')].sort((a, b) => a - b), settings.mode, periodEnd),
    succeeded: t.succeeded,
    failed: t.failed,
    unfinished: lineOf('unfinished'),
    notSent: [...lineOf('unsent'), ...notStarted].sort((a, b) => a - b),
    units,
    stop: stop?.reason,
    stopMessage: stop?.error instanceof Error ? stop.error.message : undefined,
  };
}

/**
 * The summary of a run that sent nothing (everything done, or only interrupted lines left): what earlier runs did, and
 * `interrupted`; the base of every run's summary.
 */
function emptySummary(counts: BatchCounts, interrupted: number[], mode: BatchMode, periodEnd: string | undefined): BatchSummary {
  return {
    total: counts.total,
    succeeded: 0,
    failed: 0,
    skipped: counts.done,
    skippedFailed: counts.failed,
    interrupted,
    unfinished: [],
    notSent: [],
    units: { search: 0, retrieval: 0, answers: 0 },
    stop: undefined,
    stopMessage: undefined,
    mode,
    periodEnd,
  };
}

/** Prints the closing summary (stderr; with `--json` also as one JSON object on stdout) and returns the exit code. */
async function finish(factory: Factory, options: BatchOptions, summary: BatchSummary, names: { input: string; out: string | undefined }): Promise<number> {
  const render = await import('../../render/batch.js');
  const exitCode = batchExitCode(summary);
  const rerun = rerunCommand(factory, options, names);
  factory.io.stderr.write(render.summaryText(summary, { ...names, rerun, color: factory.io.colorStderr }));
  if (options.json) factory.io.stdout.write(`${JSON.stringify(render.summaryJson(summary, names, exitCode))}\n`);
  return exitCode;
}

/**
 * The exit code of a finished run (README: "Exit codes"): 130 after Ctrl-C; 5, 4 or 6 when the quota, a rejected key
 * or the lack of a connection stopped it; 1 when the server asked to slow down; else 0 when every line of the input has
 * succeeded and {@link EXIT.batchIncomplete} when some failed, were interrupted, are unfinished or were not sent.
 */
export function batchExitCode(summary: BatchSummary): number {
  if (summary.stop === 'cancelled') return EXIT.cancelled;
  if (summary.stop === 'quota') return EXIT.quota;
  if (summary.stop === 'auth') return EXIT.auth;
  if (summary.stop === 'connection') return EXIT.network;
  if (summary.stop === 'rate_limited' || summary.stop === 'local') return EXIT.error;
  const succeededAll = summary.succeeded + summary.skipped - summary.skippedFailed === summary.total;
  return succeededAll ? EXIT.ok : EXIT.batchIncomplete;
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

