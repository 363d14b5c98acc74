/**
 * The run of `pravo batch` (spec: POST /v1/search, GET /v1/documents, POST /v1/answers, GET /v1/usage, Quota rules):
 * many questions, safe to kill and rerun. Every line is checked before anything is sent; the journal is read and each
 * item classified by where it stands; the usage is read and the units the batch needs counted against it
 * (pre-flight); then, once allowed, the items run in a bounded pool, each request journaled before it is sent and each
 * results line made durable before the item is marked done. A rerun of the same command skips what is done, collects
 * answer jobs already created, and lists what was in flight at the interruption instead of sending it again
 * (`--retry-interrupted` does).
 *
 * The command (`src/commands/batch/`) checks the options, prints through its printer what this module reports
 * (the {@link BatchHooks} and the {@link BatchOutcome}) and asks for confirmation; this module never prompts.
 */
import type { QuotaKind } from '../contract/types.js';
import type { UsageFacts } from '../api/usage.js';
import type { BatchItem } from './input.js';
import { itemStatus, markUncertain, type BatchMode, type ItemProgress, type JournalContent, type JournalHeader } from './journal.js';
import type { BatchCounts, BatchPlan } from './plan.js';
import { emptySummary, type BatchPreflight, type BatchProgress, type BatchSummary, type ItemOutcome, type StopReason } from './summary.js';
import type { BatchSink, BatchStore, RecoveredLine } from './store.js';
import type { ItemContext } from './items.js';
import { UsageError } from '../errors/cli.js';
import type { Factory } from '../factory.js';
import { inputName, readInputBytes } from '../io/input-source.js';
import type { Indicator } from '../io/iostreams.js';
import { sanitizeLine } from '../shared/sanitize.js';
import { newAnswerJobRecord, pruneAnswerJobRecords, recordAnswerJob, updateAnswerJobRecord } from '../services/answer-jobs.js';
import { currentRunTarget } from '../services/targets.js';

/** The checked options of a batch (see `pravo batch --help`). */
export interface BatchSettings {
  /** The input file, or `-` for standard input. */
  source: string;
  /** `--out FILE`: the results, with the journal and lock beside it; undefined: results on standard output, no journal. */
  out: string | undefined;
  /** `--answers`: an answer job per line; else a search per line. */
  mode: BatchMode;
  /** `--fetch-docs K`; 0 without. */
  fetchDocs: number;
  /** Items (requests or answer jobs) in flight at once. */
  concurrency: number;
  /** Timeout of each search, job creation and retrieval, in ms. */
  timeoutMs: number;
  /** `--allow-overage`: send although the plan needs more than the period has left. */
  allowOverage: boolean;
  /** `--yes`: spend without asking. */
  yes: boolean;
  /** `--dry-run`: the plan only; nothing is sent, nothing written, no lock taken. */
  dryRun: boolean;
  /** `--retry-interrupted`: send again the items in flight when an earlier run stopped. */
  retryInterrupted: boolean;
  /** `--restart`: begin anew over the journal of another batch (its files kept aside). */
  restart: boolean;
}

/** What the run tells the command on the way, and what it asks of it. */
export interface BatchHooks {
  /**
   * A message for people (stderr), ending with a newline: the files `--restart` kept aside, lines marked done that
   * the results file lacks, "Stopping…" after Ctrl-C.
   */
  note(text: string): void;
  /** The pre-flight, once known and before anything is sent (not with `--dry-run`: the plan is then the outcome). */
  preflight(report: BatchPreflight): void;
  /**
   * Asks whether to spend the plan's units (without `--yes`); undefined when there is no terminal to ask on, and a
   * batch that spends units then needs `--yes`.
   * @throws to refuse (UserCancelledError: nothing is sent).
   */
  confirm: ((plan: BatchPlan) => Promise<void>) | undefined;
}

/** How a batch ended. */
export type BatchOutcome =
  /** `--dry-run`: the plan; nothing was sent. */
  | ({ kind: 'plan' } & BatchPreflight)
  /** Refused before sending: the plan needs more than the period has left, without `--allow-overage`. */
  | ({ kind: 'refused' } & BatchPreflight)
  /** It ran (possibly with nothing left to send): what became of it. */
  | { kind: 'ran'; summary: BatchSummary };

/**
 * Runs the batch: reads and checks the input, opens the store (`--out`), classifies the items, makes the pre-flight,
 * and, unless `--dry-run` or refused, asks `hooks.confirm` (when it spends units without `--yes`) and runs the items.
 * @returns how it ended (see {@link BatchOutcome}).
 * @throws UsageError before anything is sent (bad lines, an empty input, `-` on a terminal, a journal of another
 *   input, mode or target, a batch that spends units without `--yes` and without a terminal to ask on);
 *   EnvironmentError when the input cannot be read or the results cannot be written; what `hooks.confirm` throws;
 *   the client's errors of the usage request (a rejected key, no connection, Ctrl-C).
 */
export async function runBatch(factory: Factory, settings: BatchSettings, hooks: BatchHooks): Promise<BatchOutcome> {
  const { parseBatchInput, batchDigest } = await import('./input.js');
  const text = await readInput(factory, settings.source);
  const input = parseBatchInput(text);
  if (input.problems.length > 0) {
    const { lineProblemsText } = await import('../render/batch.js');
    throw new UsageError(lineProblemsText(input.problems, inputName(settings.source)));
  }
  if (input.items.length === 0) throw new UsageError(`${inputName(settings.source)} holds no query: only blank lines and # comments. Nothing was sent.`);

  const target = await journalTarget(factory);
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

  const { openBatchStore, reconcileWithResults } = await import('./store.js');
  const store =
    settings.out === undefined ? undefined : await openBatchStore(factory, settings.out, header, { restart: settings.restart, dryRun: settings.dryRun, note: hooks.note });
  try {
    const content: JournalContent = store?.content ?? { header: undefined, progress: new Map<number, ItemProgress>(), unreadable: [] };
    const recovered = store ? await reconcileWithResults(factory, store, hooks.note) : [];
    const { counts, work, interrupted, missing, documentsToRetrieve } = await classify(factory, input.items, content, settings);
    const { unitsNeeded, planBatch, plannedUnits } = await import('./plan.js');
    const needs = unitsNeeded(settings.mode, settings.fetchDocs, counts, documentsToRetrieve);
    const needsUnits = needs.some((n) => n.units > 0);
    // Known before any request: spending needs consent, given at a prompt or by --yes.
    if (needsUnits && !settings.dryRun && !settings.yes && !hooks.confirm) throw new UsageError(NEEDS_YES);
    const usage = needsUnits || settings.dryRun ? await readUsageFacts(factory) : undefined;
    const plan = planBatch(settings.mode, settings.fetchDocs, counts, needs, usage?.facts);
    const preflight: BatchPreflight = { plan, interrupted, missing, usageProblem: usage?.problem };

    if (settings.dryRun) return { kind: 'plan', ...preflight };
    hooks.preflight(preflight);
    if (plan.exceeds && !settings.allowOverage) return { kind: 'refused', ...preflight };
    if (work.length === 0) return { kind: 'ran', summary: emptySummary(counts, { interrupted, missing }, settings.mode, plan.period) };
    if (plannedUnits(plan) > 0 && !settings.yes) {
      if (!hooks.confirm) throw new UsageError(NEEDS_YES);
      await hooks.confirm(plan);
    }
    if (store) await store.openForWriting(header);
    const summary = await runItems({ factory, settings, work, store, counts, interruptedBefore: interrupted, missing, recovered, period: plan.period, note: hooks.note });
    return { kind: 'ran', summary };
  } finally {
    await store?.close();
  }
}

/** Why a batch that spends units is refused without `--yes` and without a terminal. */
const NEEDS_YES = 'The batch spends quota units and there is no terminal to ask on: add --yes to go ahead (or --dry-run to see the plan only).';

/**
 * The input's text: the file, or standard input for `-` (UTF-8; see `io/input-source.ts`).
 * @throws UsageError for `-` on a terminal; EnvironmentError when the file cannot be read.
 */
async function readInput(factory: Factory, source: string): Promise<string> {
  const bytes = await readInputBytes(factory.io, source, {
    onTerminal: '`pravo batch -` reads the queries from standard input: pipe or redirect them in (`pravo batch - < questions.txt`).',
  });
  return bytes.toString('utf8');
}

/** This run's target as the journal records it: the run target, and the service's base URL (none for `--sandbox`). */
async function journalTarget(factory: Factory): Promise<JournalHeader['target']> {
  const target = await currentRunTarget(factory);
  if (target.sandbox) return { ...target, base_url: '' };
  const { serviceTarget } = await import('../target.js');
  return { ...target, base_url: serviceTarget(await factory.profile()).baseUrl };
}

/** An item this run works on, with what the journal says of it. */
interface WorkItem {
  item: BatchItem;
  progress: ItemProgress;
}

/** What {@link classify} finds. */
interface Classified {
  counts: BatchCounts;
  /** The items this run works on, in input order, with their progress. */
  work: WorkItem[];
  /** Line numbers of the interrupted items this run does not send. */
  interrupted: number[];
  /** Line numbers of the items marked done whose results are missing, which this run does not send. */
  missing: number[];
  /** Documents of items already searched that are neither cached nor retrieved (exact retrieval units). */
  documentsToRetrieve: number;
}

/**
 * Sorts the items by where the journal says they stand. An unreadable record that names no line makes every line not
 * done uncertain first (`markUncertain`): such lines are interrupted, not pending.
 */
async function classify(factory: Factory, items: readonly BatchItem[], content: JournalContent, settings: BatchSettings): Promise<Classified> {
  const counts: BatchCounts = { total: items.length, done: 0, failed: 0, interrupted: 0, missing: 0, toSend: 0, jobsToCollect: 0, searchedToFinish: 0 };
  const work: WorkItem[] = [];
  const interrupted: number[] = [];
  const missing: number[] = [];
  let documentsToRetrieve = 0;
  markUncertain(content, items.map((item) => item.line));
  for (const item of items) {
    const progress = content.progress.get(item.line) ?? { line: item.line, retrieved: new Set<string>() };
    const status = itemStatus(progress);
    if (status === 'done') {
      counts.done++;
      if (!progress.done!.ok) counts.failed++;
      continue;
    }
    if (status === 'interrupted' && !settings.retryInterrupted) {
      if (progress.resultMissing) {
        counts.missing++;
        missing.push(item.line);
      } else {
        counts.interrupted++;
        interrupted.push(item.line);
      }
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
  return { counts, work, interrupted, missing, documentsToRetrieve };
}

/**
 * Of a journaled search response's top `k` documents, how many a rerun retrieves: those neither in the document cache
 * nor retrieved before (`retrieved`: one retrieved and gone from the cache is not retrieved again).
 */
async function uncachedDocuments(factory: Factory, raw: string, k: number, retrieved: ReadonlySet<string>): Promise<number> {
  const [{ parseSearchResponse }, { isDocumentCached }, { documentKey, topDocuments }] = await Promise.all([
    import('../api/shapes.js'),
    import('../services/documents.js'),
    import('./journal.js'),
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
async function readUsageFacts(factory: Factory): Promise<{ facts?: UsageFacts; problem?: string }> {
  const [{ readUsage }, errors, { waitWithSpinner }] = await Promise.all([
    import('../api/usage.js'),
    import('../api/errors.js'),
    import('../services/waiting.js'),
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

/** How often the progress line is drawn again while nothing finishes, in ms. */
const PROGRESS_TICK_MS = 1000;

/** What {@link runItems} works with: everything the pre-flight settled. */
interface RunContext {
  factory: Factory;
  settings: BatchSettings;
  /** The items to run, in input order, with their progress. */
  work: readonly WorkItem[];
  /** The results file and journal (`--out`, open for writing); undefined: results on standard output, no journal. */
  store: BatchStore | undefined;
  /** Where the items stood before this run (the summary's total and skipped lines). */
  counts: BatchCounts;
  /** Interrupted lines an earlier run left, which this run does not send (ascending). */
  interruptedBefore: readonly number[];
  /** Lines marked done whose results are missing, which this run does not send (ascending). */
  missing: number[];
  /** Lines found in the results but not marked done in the journal: marked done first. */
  recovered: readonly RecoveredLine[];
  /** The usage period, for the summary. */
  period: UsageFacts['period'] | undefined;
  /** Messages for people (see {@link BatchHooks.note}). */
  note(text: string): void;
}

/**
 * Runs the work items in the pool and tallies what became of them, with a progress line on a terminal. Ctrl-C (the
 * factory's signal) stops the pool cleanly: nothing new starts, what is in flight finishes. A failure inside the pool
 * (the results or the journal cannot be written) stops it too, as the summary's `local` stop.
 * @throws EnvironmentError when the journal cannot be written before the pool starts (the recovered lines).
 */
async function runItems(ctx: RunContext): Promise<BatchSummary> {
  const { factory, settings, work } = ctx;
  const [{ runItem }, { runPool }, render, { streamSink }] = await Promise.all([
    import('./items.js'),
    import('../shared/pool.js'),
    import('../render/batch.js'),
    import('./store.js'),
  ]);
  const client = await factory.client();
  const runTarget = await factory.target();
  // Without --out the events only update the items' progress in memory: there is no journal to resume from.
  const sink: BatchSink =
    ctx.store ?? streamSink(new Map(work.map(({ item, progress }) => [item.line, progress])), (text) => factory.io.stdout.write(text));
  for (const mark of ctx.recovered) await sink.record({ type: 'done', line: mark.line, ok: mark.ok });

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
  const progress = (): BatchProgress => ({ finished, total, tally: tally(), inFlight, elapsedMs: factory.clock.now() - started, mode: settings.mode, stopping: stop?.reason });
  // The spinner's frame and a space take two columns, and a line reaching the last column may wrap.
  const progressLine = (): string => render.progressText(progress(), (factory.io.stderr.columns ?? 80) - 3);
  const show = (): void => bar?.update(progressLine());
  // On a terminal only (stderr), and drawn again every second on the run's clock, so that the rate and the time left
  // move while long requests (answer jobs) are in flight; stopped (cleared) when the pool ends or Ctrl-C stops it.
  let ticker: unknown;
  const stopBar = (): void => {
    factory.clock.clearTimeout(ticker);
    bar?.stop();
    bar = undefined;
  };
  if (factory.io.showsProgress) {
    bar = await factory.io.startSpinner(progressLine());
    const tick = (): void => {
      show();
      ticker = factory.clock.setTimeout(tick, PROGRESS_TICK_MS);
    };
    ticker = factory.clock.setTimeout(tick, PROGRESS_TICK_MS);
  }

  const onAbort = (): void => {
    stop ??= { reason: 'cancelled', error: undefined };
    stopBar();
    ctx.note(
      `Stopping: no new requests; ${inFlight} in flight ${inFlight === 1 ? 'finishes' : 'finish'} first${settings.mode === 'answers' ? ' (answer jobs go on, and a rerun collects them)' : ''}. Press Ctrl-C again to quit at once: what is in flight is then reported interrupted.\n`,
    );
  };
  factory.signal.addEventListener('abort', onAbort, { once: true });
  if (factory.signal.aborted) onAbort();

  // Closed once the pool is over: nothing is written after the summary.
  let writing = true;
  let jobsRecorded = false;
  const itemContext: ItemContext = {
    factory,
    client,
    mode: settings.mode,
    fetchDocs: settings.fetchDocs,
    timeoutMs: settings.timeoutMs,
    documentsInFlight: new Map<string, Promise<void>>(),
    record: (event) => sink.record(event),
    writeResult: async (line) => {
      if (writing) await sink.writeResult(line);
    },
    spent: (kind, delta = 1) => {
      units[kind] += delta;
    },
    stop: (reason, error) => {
      stop ??= { reason, error };
    },
    stopping: () => stop !== undefined,
    cancelled: () => factory.signal.aborted,
    jobCreated: async (item, jobId) => {
      // Best effort, as each item's own journal entry is the batch's way back to the job.
      jobsRecorded = true;
      await recordAnswerJob(factory, newAnswerJobRecord(jobId, item.request, runTarget, factory.clock.now())).catch(() => {});
    },
    jobUpdated: (job) => {
      void updateAnswerJobRecord(factory, job);
      show();
    },
  };

  try {
    await runPool(
      work,
      settings.concurrency,
      async ({ item, progress: itemProgress }) => {
        inFlight++;
        show();
        try {
          outcomes.set(item.line, await runItem(itemContext, item, itemProgress));
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
    stopBar();
    writing = false;
  }
  if (jobsRecorded) await pruneAnswerJobRecords(factory);

  const t = tally();
  const lineOf = (wanted: ItemOutcome): number[] => [...outcomes].filter(([, o]) => o === wanted).map(([line]) => line);
  const notStarted = work.filter(({ item }) => !outcomes.has(item.line)).map(({ item }) => item.line);
  return {
    ...emptySummary(ctx.counts, { interrupted: [...ctx.interruptedBefore, ...lineOf('interrupted')].sort((a, b) => a - b), missing: ctx.missing }, settings.mode, ctx.period),
    succeeded: t.succeeded,
    failed: t.failed,
    unfinished: lineOf('unfinished'),
    notSent: [...lineOf('unsent'), ...notStarted].sort((a, b) => a - b),
    units,
    stop: stop?.reason,
    stopMessage: stop?.error instanceof Error ? stop.error.message : undefined,
  };
}
