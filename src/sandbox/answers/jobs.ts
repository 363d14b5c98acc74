/**
 * Answer jobs of the sandbox (spec: Answer job; States and transitions, Answer job; POST /v1/answers;
 * GET /v1/answers/{job_id}; Quota rules 2; Limits, "Answer job timeout"): creation, execution on a clock in the
 * process that accepted the job, the 15-minute rule, and the job body.
 *
 * Lifecycle of a job accepted by this process (delay `delayMs`, default {@link DEFAULT_ANSWER_DELAY_MS}):
 * - created `queued`, its `answers` unit consumed in the same transaction (`SandboxState.createAnswerJob`);
 * - `running` after a quarter of the delay;
 * - after the whole delay: the search runs (through the server's `Searcher`, on a worker thread or on the event loop)
 *   and the answer is composed (`composeAnswer`, quoting whole provisions from the documents of the index) → `succeeded`; or, with probability `failureRate`, or when the search
 *   or the composition fails, → `failed` with `error_code` {@link ANSWER_FAILED}, its unit given back (spec: "a failed
 *   job consumes no unit"). A job whose search is still running when the runner closes stays unfinished.
 * Every change is conditional on the stored status: a job another process (or the 15-minute rule) made final stays as
 * it is.
 *
 * The 15-minute rule (spec): when a status check (`GET /v1/answers/{job_id}`, by any process on the data directory)
 * finds a job `queued` or `running` `LIMITS.answerJobTimeoutMs` (15 minutes) or more after its `created_at` by this runner's
 * clock, the job becomes `failed` with `error_code` `timed_out` and its unit is given back to the month it was
 * consumed in, at that check, once. A job whose process stopped before finishing it (a restart, a crash, `close`)
 * stays unfinished until then: there is no queue, as in the spec's beta.
 */
import crypto from 'node:crypto';
import { systemClock, type Clock } from '../../shared/clock.js';
import { ERROR_CODES } from '../../contract/errors.js';
import { LIMITS } from '../../contract/limits.js';
import { buildPath, PATHS } from '../../contract/paths.js';
import type { AnswerJob, AnswerJobCreated, SearchRequest } from '../../contract/types.js';
import type { Searcher } from '../search/searcher.js';
import { UNFINISHED_STATUSES, type AnswerJobRecord, type Consumption, type SandboxState } from '../state/store.js';
import { composeAnswer, type AnswerDocuments, type ComposedAnswer } from './compose.js';

/** Default time from a job's creation to its final status, in ms (`running` after a quarter of it). */
export const DEFAULT_ANSWER_DELAY_MS = 3000;

/**
 * `error_code` of a job whose execution failed (the sandbox's code; spec: "job execution fails → failed, `error_code`
 * and `error_message` set; no answer-quota unit is consumed"): the answer could not be composed, or the failure was
 * simulated (`failureRate`). A new job may be created.
 */
export const ANSWER_FAILED = 'answer_failed';

/** `error_message` of a job failed {@link ANSWER_FAILED}, in Bulgarian and English. */
export const ANSWER_FAILED_MESSAGE =
  'Отговорът не можа да бъде съставен; единица от квотата за отговори не е изразходвана. Може да създадете нова задача. / ' +
  'The answer could not be composed; no answers quota unit was consumed. You may create a new job.';

/** `error_message` of a job failed `timed_out`, in Bulgarian and English. */
export const TIMED_OUT_MESSAGE =
  'Задачата не завърши в рамките на 15 минути; единицата от квотата за отговори е възстановена. Може да създадете нова задача. / ' +
  'The job did not finish within 15 minutes; its answers quota unit was restored. You may create a new job.';

/** Options of {@link AnswerRunner}. */
export interface AnswerRunnerOptions {
  /** Time from creation to the final status, in ms: a finite number ≥ 0; default {@link DEFAULT_ANSWER_DELAY_MS}. */
  delayMs?: number;
  /** Probability (0 to 1) that a job fails {@link ANSWER_FAILED} instead of succeeding; default 0. */
  failureRate?: number;
  /** Timers of the execution, `created_at`/`updated_at`, and the 15-minute rule; default `systemClock`. */
  clock?: Clock;
  /** Uniform random numbers in [0, 1) drawn against `failureRate` (once per job, only when it is above 0); default `Math.random`. */
  random?: () => number;
  /** One line per job that fails or cannot be recorded, and per job that succeeds; default: discarded. Never a key or a query. */
  log?: (line: string) => void;
}

/** Who creates a job: the authenticated key and its account. */
export interface JobOwner {
  keyId: string;
  accountId: string;
}

/** What {@link AnswerRunner.create} did. */
export type AnswerJobCreateResult =
  | { created: true; job: AnswerJobCreated }
  | { created: false; reason: 'monthly_quota_exceeded'; consumption: Consumption };

/**
 * The answer jobs of one sandbox process: creates them, runs them on its clock, and answers status checks.
 * Methods may throw the state's SQLite errors (busy/full → the server's 503).
 */
export class AnswerRunner {
  readonly #searcher: Searcher;
  readonly #documents: AnswerDocuments;
  readonly #state: SandboxState;
  readonly #delayMs: number;
  readonly #failureRate: number;
  readonly #clock: Clock;
  readonly #random: () => number;
  readonly #log: (line: string) => void;
  /** Pending timers per job accepted by this runner and not finished by it. */
  readonly #timers = new Map<string, unknown[]>();
  /** Jobs whose search runs now (their timers have fired). */
  readonly #searching = new Set<string>();
  #closed = false;

  /**
   * @param searcher runs each job's search (the server's; its owner closes it after this runner).
   * @param documents the index the search runs on: the answer quotes whole provisions from its documents' elements.
   * @throws RangeError when `delayMs` is not a finite number ≥ 0 or `failureRate` is not from 0 to 1.
   */
  constructor(searcher: Searcher, documents: AnswerDocuments, state: SandboxState, options: AnswerRunnerOptions = {}) {
    checkAnswerRunnerOptions(options);
    this.#searcher = searcher;
    this.#documents = documents;
    this.#state = state;
    this.#delayMs = options.delayMs ?? DEFAULT_ANSWER_DELAY_MS;
    this.#failureRate = options.failureRate ?? 0;
    this.#clock = options.clock ?? systemClock;
    this.#random = options.random ?? Math.random;
    this.#log = options.log ?? (() => {});
  }

  /**
   * Creates a job for a valid request (spec: POST /v1/answers): consumes one `answers` unit of `owner.accountId`
   * (within its quota or as overage) and stores the job `queued` (one transaction), then schedules its execution in
   * this process.
   * @param request a request `searchRequestProblems` and `checkSearchRequest` found nothing wrong with; only the
   *   contract's fields are kept (`include_content` and unknown fields are dropped).
   * @returns the 202 body `{job_id, status: "queued", poll_url: "/v1/answers/<job_id>"}`, or `created: false` with the
   *   refused consumption when the month's `answers` quota is used up and no overage can be counted (nothing consumed
   *   or stored).
   * @throws Error once {@link close}d; the state's SQLite error (nothing consumed or stored then).
   */
  create(request: SearchRequest, owner: JobOwner): AnswerJobCreateResult {
    if (this.#closed) throw new Error('the answer runner is closed');
    const jobId = newJobId();
    const creation = this.#state.createAnswerJob({
      job_id: jobId,
      account_id: owner.accountId,
      key_id: owner.keyId,
      request: contractFields(request),
      created_at: new Date(this.#clock.now()).toISOString(),
    });
    if (!creation.created) {
      return { created: false, reason: 'monthly_quota_exceeded', consumption: creation.consumption };
    }
    this.#schedule(creation.job);
    return { created: true, job: { job_id: jobId, status: 'queued', poll_url: pollUrlOf(jobId) } };
  }

  /**
   * A status check (spec: GET /v1/answers/{job_id}): the job body, after applying the 15-minute rule to it (see the
   * module's doc). Undefined when no job has this id or it belongs to another account (the server answers 404 for
   * both, so ids of other accounts are not revealed).
   * @throws the state's SQLite error.
   */
  check(jobId: string, accountId: string): AnswerJob | undefined {
    let job = this.#state.answerJob(jobId);
    if (!job || job.account_id !== accountId) return undefined;
    if (UNFINISHED_STATUSES.includes(job.status)) {
      const now = this.#clock.now();
      if (now - Date.parse(job.created_at) >= LIMITS.answerJobTimeoutMs) {
        const failed = this.#state.failAnswerJob(
          jobId,
          { code: ERROR_CODES.timedOut, message: TIMED_OUT_MESSAGE },
          new Date(now),
          new Date(now - LIMITS.answerJobTimeoutMs),
        );
        if (failed) {
          this.#cancel(jobId);
          this.#log(`answer job ${jobId} failed: timed_out (${job.status} for 15 minutes); answers unit restored to ${job.usage_month}`);
        }
        // Read again either way: when not failed here, another process finished it meanwhile.
        job = this.#state.answerJob(jobId)!;
      }
    }
    return jobBody(job);
  }

  /** Jobs accepted by this runner whose execution is still pending (timers set, or the search running). */
  pendingJobs(): number {
    return this.#timers.size + this.#searching.size;
  }

  /**
   * Stops: clears every pending timer, and drops the outcome of searches still running, so no job of this process
   * changes any more (they stay `queued` or `running` in the database until the 15-minute rule fails them, as after a
   * restart). {@link create} then throws. Safe to call twice.
   */
  close(): void {
    this.#closed = true;
    for (const jobId of [...this.#timers.keys()]) this.#cancel(jobId);
  }

  /** Sets the job's two timers: `running` at a quarter of the delay, the final status at the whole delay. */
  #schedule(job: AnswerJobRecord): void {
    const { job_id: jobId, request } = job;
    const running = this.#clock.setTimeout(() => {
      this.#guard(jobId, () => this.#state.markAnswerJobRunning(jobId, new Date(this.#clock.now())));
    }, Math.floor(this.#delayMs / 4));
    const finish = this.#clock.setTimeout(() => {
      this.#timers.delete(jobId);
      this.#searching.add(jobId);
      void this.#finish(jobId, request).finally(() => this.#searching.delete(jobId));
    }, this.#delayMs);
    this.#timers.set(jobId, [running, finish]);
  }

  /** Clears the job's pending timers, if any. */
  #cancel(jobId: string): void {
    for (const handle of this.#timers.get(jobId) ?? []) this.#clock.clearTimeout(handle);
    this.#timers.delete(jobId);
  }

  /** Runs a timer's work; an error (a busy or full database) is logged: the job then stays unfinished. */
  #guard(jobId: string, work: () => unknown): void {
    try {
      work();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.#log(`answer job ${jobId}: could not record its progress (${message}); it stays unfinished until a check 15 minutes after its creation fails it`);
    }
  }

  /**
   * The final step: succeeded with the composed answer, or failed {@link ANSWER_FAILED}; both conditional, and
   * recorded only while the runner is open. Never rejects (a failure to record is logged, see {@link #guard}).
   */
  async #finish(jobId: string, request: SearchRequest): Promise<void> {
    const at = new Date(this.#clock.now());
    let outcome: ComposedAnswer | undefined;
    let why: string;
    if (this.#failureRate > 0 && this.#random() < this.#failureRate) {
      why = 'simulated failure (answer failure rate)';
    } else {
      try {
        outcome = composeAnswer(request, await this.#searcher.search(request), this.#documents);
        why = '';
      } catch (error) {
        why = `composing failed: ${error instanceof Error ? error.message : String(error)}`;
      }
    }
    // Closed during the search: the state may be closed too; the job stays unfinished, as when its timer is cleared.
    if (this.#closed) return;
    this.#guard(jobId, () => this.#record(jobId, outcome, why, at));
  }

  /** Records a job's outcome (see {@link #finish}). */
  #record(jobId: string, outcome: ComposedAnswer | undefined, why: string, at: Date): void {
    if (outcome) {
      if (this.#state.succeedAnswerJob(jobId, outcome, at)) {
        this.#log(`answer job ${jobId} succeeded: ${outcome.sources.length} source(s)`);
      } else {
        this.#log(`answer job ${jobId}: already final (timed out meanwhile); its answer is dropped`);
      }
      return;
    }
    if (this.#state.failAnswerJob(jobId, { code: ANSWER_FAILED, message: ANSWER_FAILED_MESSAGE }, at)) {
      this.#log(`answer job ${jobId} failed: ${ANSWER_FAILED} (${why}); answers unit given back`);
    } else {
      this.#log(`answer job ${jobId}: already final (timed out meanwhile); ${why}`);
    }
  }
}

/**
 * Checks the numbers of {@link AnswerRunnerOptions} (absent ones are fine: they take their defaults).
 * @throws RangeError when `delayMs` is not a finite number ≥ 0 or `failureRate` is not a number from 0 to 1.
 */
export function checkAnswerRunnerOptions({ delayMs, failureRate }: Pick<AnswerRunnerOptions, 'delayMs' | 'failureRate'>): void {
  if (delayMs !== undefined && !(Number.isFinite(delayMs) && delayMs >= 0)) {
    throw new RangeError(`the answer delay must be a number of ms ≥ 0, not ${delayMs}`);
  }
  if (failureRate !== undefined && !(failureRate >= 0 && failureRate <= 1)) {
    throw new RangeError(`the answer failure rate must be a number from 0 to 1, not ${failureRate}`);
  }
}

/** A new job id: `ans_` + 24 hex digits (96 random bits). Opaque to clients. */
export function newJobId(): string {
  return `ans_${crypto.randomBytes(12).toString('hex')}`;
}

/** `/v1/answers/<job_id>`, the id URL-encoded (spec: POST /v1/answers, `poll_url`). */
export function pollUrlOf(jobId: string): string {
  return buildPath(PATHS.answer, { job_id: jobId });
}

/** The request with only the contract's fields that are present (spec: POST /v1/search, request body). */
function contractFields(request: SearchRequest): SearchRequest {
  const kept: SearchRequest = { query: request.query };
  if (request.source_types !== undefined) kept.source_types = request.source_types;
  if (request.court_ids !== undefined) kept.court_ids = request.court_ids;
  if (request.judge_name !== undefined) kept.judge_name = request.judge_name;
  if (request.date_from !== undefined) kept.date_from = request.date_from;
  if (request.date_to !== undefined) kept.date_to = request.date_to;
  if (request.max_results !== undefined) kept.max_results = request.max_results;
  return kept;
}

/**
 * The job body of `GET /v1/answers/{job_id}` (spec: Answer job): `job_id` and `status` always; `query`, `answer`,
 * `sources` when `succeeded`; `error_code`, `error_message` when `failed`; and the sandbox's additions `created_at`
 * and `updated_at` (ISO 8601 UTC, the last change of status). No `poll_url` (only on creation).
 */
export function jobBody(job: AnswerJobRecord): AnswerJob {
  const body: AnswerJob = { job_id: job.job_id, status: job.status };
  if (job.status === 'succeeded') {
    body.query = job.query;
    body.answer = job.answer ?? '';
    body.sources = job.sources ?? [];
  }
  if (job.status === 'failed') {
    body.error_code = job.error_code ?? ANSWER_FAILED;
    body.error_message = job.error_message ?? ANSWER_FAILED_MESSAGE;
  }
  body.created_at = job.created_at;
  body.updated_at = job.updated_at;
  return body;
}
