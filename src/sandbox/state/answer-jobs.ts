/**
 * Answer jobs in `state.sqlite` (spec: Answer job; States and transitions, Answer job): one row of `answer_jobs` per
 * job, with the account and key that created it, its request, its status and outcome, and the usage month whose
 * `answers` unit it consumed.
 *
 * Several processes may share one data directory, and a job may be finished by its runner (in the process that
 * accepted it) while another process applies the 15-minute rule to it. So every change of status is one conditional
 * UPDATE (`WHERE status IN (…)`) whose `changes` say whether it happened: a final status is never overwritten, and
 * of two processes finishing one job, exactly one succeeds. A failed job's unit is marked released in the same UPDATE
 * that fails it, so it is given back at most once (see `SandboxState.failAnswerJob`).
 *
 * Times are ISO 8601 UTC strings with milliseconds (`Date.toISOString`), which compare in time order as text.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { AnswerJobStatus, SearchRequest } from '../../contract/types.js';
import type { AnswerSource } from '../answers/compose.js';

/** The statuses of a job that is not finished: the ones the 15-minute rule and the runner may move on from. */
export const UNFINISHED_STATUSES: readonly AnswerJobStatus[] = ['queued', 'running'];

/** A job as stored. */
export interface AnswerJobRecord {
  /** `ans_` + 24 hex digits (see `newJobId` in `answers/jobs.ts`). */
  job_id: string;
  /** The account of the key that created it; only that account's keys see it. */
  account_id: string;
  /** The key that created it (it may since have been revoked or deleted). */
  key_id: string;
  status: AnswerJobStatus;
  /** The request's `query`. */
  query: string;
  /** The request as accepted (the contract's fields only; `include_content` and unknown fields dropped). */
  request: SearchRequest;
  /** ISO 8601 UTC. */
  created_at: string;
  /** ISO 8601 UTC, the last change of status. */
  updated_at: string;
  /** ISO 8601 UTC, when it became `succeeded` or `failed`; null before. */
  finished_at: string | null;
  /** When `succeeded`: the answer text. */
  answer: string | null;
  /** When `succeeded`: the cited sources. */
  sources: AnswerSource[] | null;
  /** When `failed`: `timed_out` or `answer_failed`. */
  error_code: string | null;
  error_message: string | null;
  /** `YYYY-MM` (UTC): the month whose `answers` unit the job consumed, and to which a released unit goes back. */
  usage_month: string;
  /** Whether the unit was given back (the job failed). */
  unit_released: boolean;
}

/** What a new job is inserted with (status `queued`, `updated_at` = `created_at`). */
export interface NewAnswerJob {
  job_id: string;
  account_id: string;
  key_id: string;
  request: SearchRequest;
  created_at: string;
  usage_month: string;
}

/** The row as SQLite returns it. */
interface AnswerJobRow {
  job_id: string;
  account_id: string;
  key_id: string;
  status: AnswerJobStatus;
  query: string;
  request_json: string;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
  answer: string | null;
  sources_json: string | null;
  error_code: string | null;
  error_message: string | null;
  usage_month: string;
  unit_released: number;
}

/** The `answer_jobs` table (schema version 3). Statements only; transactions are the caller's (`SandboxState`). */
export class AnswerJobStore {
  readonly #insert: StatementSync;
  readonly #get: StatementSync;
  readonly #markRunning: StatementSync;
  readonly #succeed: StatementSync;
  readonly #readOwner: StatementSync;
  readonly #fail: StatementSync;

  constructor(db: DatabaseSync) {
    this.#insert = db.prepare(
      `INSERT INTO answer_jobs (job_id, account_id, key_id, status, query, request_json, created_at, updated_at, usage_month)
       VALUES (?, ?, ?, 'queued', ?, ?, ?, ?, ?)`,
    );
    this.#get = db.prepare('SELECT * FROM answer_jobs WHERE job_id = ?');
    this.#markRunning = db.prepare(
      "UPDATE answer_jobs SET status = 'running', updated_at = ? WHERE job_id = ? AND status = 'queued'",
    );
    this.#succeed = db.prepare(
      `UPDATE answer_jobs SET status = 'succeeded', answer = ?, sources_json = ?, finished_at = ?, updated_at = ?
       WHERE job_id = ? AND status IN ('queued', 'running')`,
    );
    this.#readOwner = db.prepare('SELECT account_id, usage_month FROM answer_jobs WHERE job_id = ?');
    this.#fail = db.prepare(
      `UPDATE answer_jobs SET status = 'failed', error_code = ?, error_message = ?, finished_at = ?, updated_at = ?,
         unit_released = 1
       WHERE job_id = ? AND status IN ('queued', 'running') AND unit_released = 0 AND (? IS NULL OR created_at <= ?)`,
    );
  }

  /** Inserts a `queued` job. @throws the SQLite error of the insert (e.g. a duplicate `job_id`). */
  insert(job: NewAnswerJob): void {
    this.#insert.run(
      job.job_id,
      job.account_id,
      job.key_id,
      job.request.query,
      JSON.stringify(job.request),
      job.created_at,
      job.created_at,
      job.usage_month,
    );
  }

  /** The job, or undefined when no job has this id. @throws the SQLite error of the read. */
  get(jobId: string): AnswerJobRecord | undefined {
    const row = this.#get.get(jobId) as AnswerJobRow | undefined;
    return row && toRecord(row);
  }

  /** `queued` → `running` at `at` (ISO); false when the job is not `queued` (any more). @throws the SQLite error. */
  markRunning(jobId: string, at: string): boolean {
    return Number(this.#markRunning.run(at, jobId).changes) > 0;
  }

  /**
   * `queued` or `running` → `succeeded` with the answer and its sources, at `at` (ISO); false when the job is already
   * final (e.g. failed by the 15-minute rule meanwhile), which then stays as it is.
   * @throws the SQLite error of the update.
   */
  succeed(jobId: string, outcome: { answer: string; sources: readonly AnswerSource[] }, at: string): boolean {
    return Number(this.#succeed.run(outcome.answer, JSON.stringify(outcome.sources), at, at, jobId).changes) > 0;
  }

  /**
   * `queued` or `running` → `failed` with `code` and `message` at `at` (ISO), marking its unit released; only when its
   * unit was not released before and, when `createdAtOrBefore` (ISO) is given, it was created then or earlier (the
   * 15-minute rule's condition, checked in the same statement).
   * @returns the job's account and usage month when it was failed now (the caller gives that account's unit of that
   *   month back in the same transaction); undefined when nothing changed (unknown, already final, or too young).
   * @throws the SQLite error of the update.
   */
  fail(
    jobId: string,
    failure: { code: string; message: string },
    at: string,
    createdAtOrBefore?: string,
  ): { account_id: string; usage_month: string } | undefined {
    const bound = createdAtOrBefore ?? null;
    const changed = Number(this.#fail.run(failure.code, failure.message, at, at, jobId, bound, bound).changes) > 0;
    if (!changed) return undefined;
    const { account_id, usage_month } = this.#readOwner.get(jobId) as { account_id: string; usage_month: string };
    return { account_id, usage_month };
  }
}

function toRecord(row: AnswerJobRow): AnswerJobRecord {
  return {
    job_id: row.job_id,
    account_id: row.account_id,
    key_id: row.key_id,
    status: row.status,
    query: row.query,
    request: JSON.parse(row.request_json) as SearchRequest,
    created_at: row.created_at,
    updated_at: row.updated_at,
    finished_at: row.finished_at,
    answer: row.answer,
    sources: row.sources_json === null ? null : (JSON.parse(row.sources_json) as AnswerSource[]),
    error_code: row.error_code,
    error_message: row.error_message,
    usage_month: row.usage_month,
    unit_released: row.unit_released === 1,
  };
}
