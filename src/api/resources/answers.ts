/** Answers (spec: POST /v1/answers, GET /v1/answers/{job_id}, Answer job). API key. */
import { ConnectionError, NetworkError, RateLimitError, ServerError, TimeoutError } from '../errors.js';
import { pollUntil } from '../polling.js';
import { parseAnswerJob, parseAnswerJobCreated } from '../shapes.js';
import type { ApiResponse } from '../transport.js';
import { LIMITS } from '../../contract/limits.js';
import { PATHS } from '../../contract/paths.js';
import { isFinalAnswerJobStatus, type AnswerJob, type AnswerJobCreated, type SearchRequest } from '../../contract/types.js';
import { Resource, type CallOptions } from './resource.js';

/** Options of {@link Answers.poll}. */
export interface AnswerPollOptions {
  /** Aborts a wait or a check → `CancelledError`. */
  signal?: AbortSignal;
  /** Called with the job after every check, final or not. */
  onUpdate?: (job: AnswerJob) => void;
  /** Milliseconds before check number `attempt` (1-based); default `answerPollDelayMs` (2, 4, 8, 10, 10… s). */
  schedule?: (attempt: number) => number;
  /** Timeout of each check, in milliseconds; default the client's. */
  timeoutMs?: number;
  /**
   * Consecutive status checks that may fail transiently (see {@link isTransientCheckError}) before polling gives up
   * with the last error; default {@link ANSWER_POLL_MAX_TRANSIENT_FAILURES}. Each check is itself a GET the transport
   * retries up to 3 times.
   */
  maxTransientFailures?: number;
  /** Called when a check failed transiently and polling goes on (progress display). */
  onTransientError?: (error: unknown, consecutiveFailures: number) => void;
}

/** Default number of consecutive transiently failed status checks tolerated while polling: about a minute at 10 s. */
export const ANSWER_POLL_MAX_TRANSIENT_FAILURES = 6;

/**
 * Whether a failed status check is worth repeating later: no connection, a network failure, a timeout, HTTP 429, 502,
 * 503 or 504. A status check is a GET and spends nothing (spec: quota rules), so repeating it is safe; any other error
 * (401, 404, a body of the wrong shape) would fail again.
 */
export function isTransientCheckError(error: unknown): boolean {
  if (error instanceof ConnectionError || error instanceof NetworkError || error instanceof TimeoutError) return true;
  if (error instanceof RateLimitError) return true;
  return error instanceof ServerError && [502, 503, 504].includes(error.status);
}

export class Answers extends Resource {
  /**
   * `POST /v1/answers`: starts an answer job; HTTP 202 with `job_id`, `status`, `poll_url` (any other success status →
   * `UnexpectedResponseError`). Same body rules as search; default timeout 60 s; never retried (the job may exist and
   * its unit be counted). Errors as for `search.create`.
   */
  create(body: SearchRequest, options: CallOptions = {}): Promise<ApiResponse<AnswerJobCreated>> {
    return this.transport.request({
      method: 'POST',
      path: PATHS.answers,
      body,
      auth: 'api_key',
      expect: [202],
      timeoutMs: options.timeoutMs ?? LIMITS.searchTimeoutMs,
      signal: options.signal,
      parse: parseAnswerJobCreated,
    });
  }

  /** `GET /v1/answers/{job_id}`: the job in any status, HTTP 200 even when `failed` (see `parseAnswerJob`). */
  retrieve(job_id: string, options: CallOptions = {}): Promise<ApiResponse<AnswerJob>> {
    return this.transport.request({
      method: 'GET',
      path: PATHS.answer,
      params: { job_id },
      auth: 'api_key',
      signal: options.signal,
      timeoutMs: options.timeoutMs,
      parse: parseAnswerJob,
    });
  }

  /**
   * Checks the job on the spec's schedule (first after 2 s, doubling to at most 10 s) until it is `succeeded` or
   * `failed`, and returns that last response. A `failed` job is returned, not thrown (its `error_code`, e.g.
   * `timed_out`, is in the data). The server fails a job stuck for 15 minutes, so polling ends. A check that fails
   * transiently (connection, timeout, 429, 502, 503, 504, after the transport's own retries) is tried again at the next
   * scheduled check, up to `maxTransientFailures` times in a row.
   * @throws CancelledError when the signal aborts; the errors of {@link Answers.retrieve} that are not transient, and
   *   the last transient one once `maxTransientFailures` checks in a row have failed.
   */
  poll(job_id: string, options: AnswerPollOptions = {}): Promise<ApiResponse<AnswerJob>> {
    const { signal, onUpdate, schedule, timeoutMs } = options;
    const maxFailures = options.maxTransientFailures ?? ANSWER_POLL_MAX_TRANSIENT_FAILURES;
    return pollUntil(
      () => this.retrieve(job_id, { signal, timeoutMs }),
      (response) => isFinalAnswerJobStatus(response.data.status),
      {
        clock: this.transport.clock,
        signal,
        delayMs: schedule,
        onUpdate: onUpdate && ((response) => onUpdate(response.data)),
        retryCheck: (error, failures) => {
          const retry = failures <= maxFailures && isTransientCheckError(error);
          if (retry) options.onTransientError?.(error, failures);
          return retry;
        },
      },
    );
  }
}
