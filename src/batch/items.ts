/**
 * One item of `pravo batch`: its requests, each recorded in the journal before it is sent and after its outcome, its
 * results line, and what its errors mean for the quota and for the rest of the batch (spec: Quota rules; "do not
 * auto-retry search after an interruption"; Answer job, States and transitions; Errors).
 */
import {
  ApiError,
  AuthenticationError,
  CancelledError,
  ConnectionError,
  MissingCredentialError,
  NetworkError,
  QuotaExceededError,
  RateLimitError,
  TimeoutError,
  UnexpectedResponseError,
} from '../api/errors.js';
import type { LegalResearchClient } from '../api/client.js';
import { isFinalAnswerJobStatus, type AnswerJob, type QuotaKind, type SearchResponse } from '../contract/types.js';
import { documentKey, topDocuments, type BatchMode, type ItemProgress, type NewJournalEvent, type SentWhat } from './journal.js';
import type { BatchItem } from './input.js';
import type { ItemOutcome, StopReason } from './summary.js';
import type { Factory } from '../factory.js';

/**
 * A JSON value kept as the text the server sent (already parsed once by the client's shape check), to be written into
 * a results line as it is (see `resultJson` in `store.ts`), without parsing and serializing it again.
 */
export class RawJson {
  constructor(readonly text: string) {}
  /** The value, parsed (for a text that cannot be spliced into one line). */
  value(): unknown {
    return JSON.parse(this.text) as unknown;
  }
}

/** One line of the results (`--out`), in input order of fields; see docs/commands/batch.md for the shape. */
export interface ResultLine {
  /** The input line number. */
  line: number;
  /** The request as sent. */
  request: BatchItem['request'];
  /** `--answers`: the job's id. */
  job_id?: string;
  /** The search response, or the final answer job, as the server sent it. */
  response?: unknown;
  /** `--fetch-docs`: the top documents, each the server's document or an error. */
  documents?: Array<{ document_id: string; collection: string; from_cache?: boolean; response?: unknown; error?: ResultError }>;
  /** Why the item failed: the server's error, or the failed answer job's `error_code` and `error_message`. */
  error?: ResultError;
}

/** An error in a results line. */
export interface ResultError {
  /** The contract's error code (`invalid_request`, `answer_failed`, `timed_out`…), or pravo's (`unexpected_response`). */
  code: string | undefined;
  /** HTTP status, when the server answered with an error status. */
  status?: number;
  message: string;
  request_id?: string;
}

/** What an item's work needs from the run. */
export interface ItemContext {
  factory: Factory;
  client: LegalResearchClient;
  mode: BatchMode;
  /** `--fetch-docs K`; 0 without. */
  fetchDocs: number;
  /** Timeout of each search, job creation and retrieval, in ms. */
  timeoutMs: number;
  /** Records a journal event: durably in the journal with `--out`; without, in memory only (see `BatchSink`). */
  record(event: NewJournalEvent): Promise<void>;
  /** Documents a line is retrieving now, by `documentKey`: another line wanting one waits its turn (see `retrieveTopDocuments`). */
  documentsInFlight: Map<string, Promise<void>>;
  /** Appends the item's results line: durably to `--out`, else whole to standard output. */
  writeResult(line: ResultLine): Promise<void>;
  /** Counts `delta` units (default 1; -1 for a unit given back) of `kind` spent in this run. */
  spent(kind: QuotaKind, delta?: number): void;
  /** Stops the batch: no new item starts. The first reason, with its error, is kept. */
  stop(reason: StopReason, error: unknown): void;
  /** Whether the batch is stopping. */
  stopping(): boolean;
  /** Whether the user pressed Ctrl-C (answer jobs are then left to a rerun rather than waited for). */
  cancelled(): boolean;
  /** Called once an answer job exists, with its id (to record it for `pravo answer wait`). */
  jobCreated(item: BatchItem, jobId: string): Promise<void>;
  /** Called with an answer job's status after each check. */
  jobUpdated(job: AnswerJob): void;
}

/**
 * What a failed request means, by the error (spec: Errors, Quota rules 3):
 * - `unsent`: refused without being counted, or never sent: `monthly_quota_exceeded` (stop), a rejected or missing
 *   key (stop), a 429 rate limit (stop), no connection (stop), Ctrl-C before sending.
 * - `interrupted`: it may have been run and counted (a timeout or a dropped connection after sending, a 5xx to a
 *   request that spends a unit, Ctrl-C after sending): never sent again silently.
 * - `failed`: the server answered it with an error it will give again (400 `invalid_request`, 404, 403, a 5xx to a
 *   status check) or a success response that breaks the contract: the results line holds the error.
 * @returns undefined for an error that is not the request's (a local failure: a full disk): the caller rethrows it.
 */
export function classifyFailure(error: unknown): { outcome: 'unsent' | 'interrupted' | 'failed'; stop?: StopReason } | undefined {
  if (error instanceof QuotaExceededError) return { outcome: 'unsent', stop: 'quota' };
  if (error instanceof AuthenticationError || error instanceof MissingCredentialError) return { outcome: 'unsent', stop: 'auth' };
  if (error instanceof RateLimitError) return { outcome: 'unsent', stop: 'rate_limited' };
  if (error instanceof ConnectionError) return { outcome: 'unsent', stop: 'connection' };
  if (error instanceof CancelledError) return { outcome: error.mayHaveBeenCounted ? 'interrupted' : 'unsent', stop: 'cancelled' };
  if (error instanceof NetworkError || error instanceof TimeoutError) return { outcome: error.mayHaveBeenCounted ? 'interrupted' : 'unsent' };
  if (error instanceof ApiError) return { outcome: error.mayHaveBeenCounted ? 'interrupted' : 'failed' };
  if (error instanceof UnexpectedResponseError) return { outcome: 'failed' };
  return undefined;
}

/** The results-line form of a request's error. */
export function resultError(error: unknown): ResultError {
  if (error instanceof ApiError) {
    return {
      code: error.code,
      status: error.status,
      message: error.serverMessage ?? error.message,
      ...(error.requestId !== undefined ? { request_id: error.requestId } : {}),
    };
  }
  if (error instanceof UnexpectedResponseError) return { code: 'unexpected_response', message: error.message };
  return { code: undefined, message: error instanceof Error ? error.message : String(error) };
}

/**
 * Handles a failed request of `what`: records `unsent` when it was not counted, stops the batch when the error says
 * so, writes the item's results line with the error when it failed for good.
 * @returns the item's outcome.
 * @throws the error when it is not the request's (see {@link classifyFailure}).
 */
async function settleFailure(
  ctx: ItemContext,
  item: BatchItem,
  what: SentWhat,
  error: unknown,
  partial: Omit<ResultLine, 'line' | 'request' | 'error'> = {},
): Promise<ItemOutcome> {
  const verdict = classifyFailure(error);
  if (!verdict) throw error;
  if (verdict.stop) ctx.stop(verdict.stop, error);
  if (verdict.outcome === 'unsent') {
    await ctx.record({ type: 'unsent', line: item.line, what, reason: resultError(error).code ?? (error as Error).name });
    return 'unsent';
  }
  if (verdict.outcome === 'interrupted') return 'interrupted';
  await ctx.writeResult({ line: item.line, request: item.request, ...partial, error: resultError(error) });
  await ctx.record({ type: 'done', line: item.line, ok: false });
  return 'failed';
}

/**
 * Runs one item to its end, or as far as the batch lets it: search mode (with `--fetch-docs`, then its top documents,
 * through the document cache) or answers mode (creates the job, or collects the one a previous run created).
 * @param progress what the journal says of it (a `pending` or resumable item; `interrupted` ones only with
 *   `--retry-interrupted`).
 * @throws only errors that are not the requests' (a results file that cannot be written).
 */
export function runItem(ctx: ItemContext, item: BatchItem, progress: ItemProgress): Promise<ItemOutcome> {
  return ctx.mode === 'answers' ? runAnswerItem(ctx, item, progress) : runSearchItem(ctx, item, progress);
}

async function runSearchItem(ctx: ItemContext, item: BatchItem, progress: ItemProgress): Promise<ItemOutcome> {
  let raw: string;
  let data: SearchResponse;
  // A search made by an earlier run (its response journaled) is not made again; an interrupted one is, when retried.
  if (progress.searched !== undefined && progress.inFlight?.what !== 'search') {
    raw = progress.searched;
    const { parseSearchResponse } = await import('../api/shapes.js');
    data = parseSearchResponse(JSON.parse(raw));
  } else {
    await ctx.record({ type: 'sent', line: item.line, what: 'search' });
    try {
      const response = await ctx.client.search.create(item.request, { timeoutMs: ctx.timeoutMs });
      raw = response.raw;
      data = response.data;
    } catch (error) {
      return settleFailure(ctx, item, 'search', error);
    }
    ctx.spent('search');
    if (ctx.fetchDocs > 0) await ctx.record({ type: 'searched', line: item.line, response: raw });
  }
  const result: ResultLine = { line: item.line, request: item.request, response: new RawJson(raw) };
  let ok = true;
  if (ctx.fetchDocs > 0) {
    const documents = await retrieveTopDocuments(ctx, item, data, progress.retrieved);
    if (typeof documents === 'string') return documents;
    result.documents = documents;
    ok = documents.every((d) => d.error === undefined);
  }
  await ctx.writeResult(result);
  await ctx.record({ type: 'done', line: item.line, ok });
  return ok ? 'succeeded' : 'failed';
}

/**
 * The item's top `fetchDocs` documents (distinct `document_id` + `collection`, in rank order), each through the
 * document cache (a cached one spends nothing), each retrieval journaled. A document an earlier run retrieved
 * (`retrievedBefore`) that is no longer cached is not retrieved again: its entry says so (`not_in_cache`).
 * @returns the documents for the results line (a document the server refused for good carries its error), or the
 *   item's outcome when the batch must stop first (the item stays `searched` for a rerun).
 */
async function retrieveTopDocuments(
  ctx: ItemContext,
  item: BatchItem,
  data: SearchResponse,
  retrievedBefore: ReadonlySet<string>,
): Promise<NonNullable<ResultLine['documents']> | ItemOutcome> {
  const wanted = topDocuments(data.results, ctx.fetchDocs);
  const documents: NonNullable<ResultLine['documents']> = [];
  for (const { document_id, collection } of wanted) {
    if (ctx.stopping()) return 'unfinished';
    const key = documentKey(document_id, collection);
    // One line at a time per document: another line retrieving it now is waited for, and this one then takes it from
    // the cache instead of spending a second unit.
    for (let other = ctx.documentsInFlight.get(key); other; other = ctx.documentsInFlight.get(key)) await other;
    const turn = Promise.withResolvers<void>();
    ctx.documentsInFlight.set(key, turn.promise);
    let entry: NonNullable<ResultLine['documents']>[number] | ItemOutcome;
    try {
      entry = await retrieveOne(ctx, item, { document_id, collection }, retrievedBefore.has(key));
    } finally {
      ctx.documentsInFlight.delete(key);
      turn.resolve();
    }
    if (typeof entry === 'string') return entry;
    documents.push(entry);
  }
  return documents;
}

/**
 * One document of a line through the document cache, journaled: its entry for the results line, or the line's outcome
 * when the batch must stop first. `retrievedBefore`: an earlier run retrieved it (see {@link retrieveTopDocuments}).
 */
async function retrieveOne(
  ctx: ItemContext,
  item: BatchItem,
  query: { document_id: string; collection: string },
  retrievedBefore: boolean,
): Promise<NonNullable<ResultLine['documents']>[number] | ItemOutcome> {
  const { retrieveDocument } = await import('../services/documents.js');
  const { document_id, collection } = query;
  // Journaled only when it is really sent: a document in the cache is answered from it, and spends nothing.
  let sent = false;
  try {
    const got = await retrieveDocument(ctx.factory, query, {
      timeoutMs: ctx.timeoutMs,
      signal: null,
      beforeSend: async () => {
        // Retrieved by an earlier run (its unit spent, or refused for good), gone from the cache since: not spent twice.
        if (retrievedBefore) throw new RetrievedBefore();
        await ctx.record({ type: 'sent', line: item.line, what: 'document', document_id, collection });
        sent = true;
      },
    });
    if (!got.fromCache) ctx.spent('retrieval');
    await ctx.record({ type: 'retrieved', line: item.line, document_id, collection });
    return { document_id, collection, from_cache: got.fromCache, response: new RawJson(got.response.raw) };
  } catch (error) {
    if (error instanceof RetrievedBefore) return { document_id, collection, error: { code: 'not_in_cache', message: NOT_IN_CACHE } };
    const verdict = classifyFailure(error);
    if (!verdict) throw error;
    if (verdict.stop) ctx.stop(verdict.stop, error);
    if (verdict.outcome === 'unsent') {
      if (sent) await ctx.record({ type: 'unsent', line: item.line, what: 'document', reason: resultError(error).code ?? (error as Error).name });
      return 'unfinished';
    }
    if (verdict.outcome === 'interrupted') return 'interrupted';
    if (sent) await ctx.record({ type: 'retrieved', line: item.line, document_id, collection });
    return { document_id, collection, error: resultError(error) };
  }
}

/** Thrown before sending a retrieval that an earlier run of the batch already made (see {@link retrieveOne}). */
class RetrievedBefore extends Error {}

/** The error of a document retrieved by an earlier run and no longer in the document cache. */
const NOT_IN_CACHE =
  'retrieved by an earlier run of this batch, which spent its unit, but no longer in the document cache, so not retrieved again; `pravo doc DOCUMENT_ID --collection COLLECTION` retrieves it';

async function runAnswerItem(ctx: ItemContext, item: BatchItem, progress: ItemProgress): Promise<ItemOutcome> {
  let jobId = progress.inFlight?.what === 'answer' ? undefined : progress.jobId;
  let createdNow = false;
  if (jobId === undefined) {
    await ctx.record({ type: 'sent', line: item.line, what: 'answer' });
    try {
      const created = await ctx.client.answers.create(item.request, { timeoutMs: ctx.timeoutMs });
      jobId = created.data.job_id;
    } catch (error) {
      return settleFailure(ctx, item, 'answer', error);
    }
    createdNow = true;
    ctx.spent('answers');
    await ctx.record({ type: 'job', line: item.line, job_id: jobId });
    await ctx.jobCreated(item, jobId);
  }
  if (ctx.cancelled()) return 'unfinished';
  const id = jobId;
  let job: AnswerJob;
  try {
    const { answerPollDelayMs } = await import('../api/polling.js');
    const response = await ctx.client.answers.poll(id, {
      signal: ctx.factory.signal,
      // A job created by an earlier run is checked at once; a new one on the contract's schedule.
      schedule: (attempt) => (createdNow || attempt > 1 ? answerPollDelayMs(attempt) : 0),
      onUpdate: (current) => ctx.jobUpdated(current),
    });
    job = response.data;
  } catch (error) {
    // Ctrl-C, or the server out of reach for a minute: the job goes on and stays recorded; a rerun collects it.
    if (error instanceof CancelledError || ctx.cancelled()) return 'unfinished';
    const verdict = classifyFailure(error);
    if (!verdict) throw error;
    if (verdict.stop) ctx.stop(verdict.stop, error);
    if (verdict.outcome !== 'failed') return 'unfinished';
    await ctx.writeResult({ line: item.line, request: item.request, job_id: id, error: resultError(error) });
    await ctx.record({ type: 'done', line: item.line, ok: false });
    return 'failed';
  }
  if (!isFinalAnswerJobStatus(job.status)) return 'unfinished';
  const failed = job.status === 'failed';
  // A failed job consumed no unit, a timed-out one had its unit restored (spec: States and transitions).
  if (failed && createdNow) ctx.spent('answers', -1);
  await ctx.writeResult({
    line: item.line,
    request: item.request,
    job_id: id,
    response: job,
    ...(failed ? { error: { code: job.error_code, message: job.error_message ?? '' } } : {}),
  });
  await ctx.record({ type: 'done', line: item.line, ok: !failed });
  return failed ? 'failed' : 'succeeded';
}
