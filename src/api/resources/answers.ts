/** Answers (spec: POST /v1/answers, GET /v1/answers/{job_id}, Answer job). API key. */
import { pollUntil } from '../polling.js';
import { parseAnswerJob, parseAnswerJobCreated } from '../shapes.js';
import type { ApiResponse } from '../transport.js';
import {
  LIMITS,
  PATHS,
  isFinalAnswerJobStatus,
  type AnswerJob,
  type AnswerJobCreated,
  type SearchRequest,
} from '../types.js';
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
   * `timed_out`, is in the data). The server fails a job stuck for 15 minutes, so polling ends.
   * @throws CancelledError when the signal aborts; the errors of {@link Answers.retrieve}.
   */
  poll(job_id: string, options: AnswerPollOptions = {}): Promise<ApiResponse<AnswerJob>> {
    const { signal, onUpdate, schedule, timeoutMs } = options;
    return pollUntil(
      () => this.retrieve(job_id, { signal, timeoutMs }),
      (response) => isFinalAnswerJobStatus(response.data.status),
      {
        clock: this.transport.clock,
        signal,
        delayMs: schedule,
        onUpdate: onUpdate && ((response) => onUpdate(response.data)),
      },
    );
  }
}
