/**
 * The answer jobs pravo has created, kept so that none is ever forgotten (spec: States and transitions, Answer job: "No
 * reliable job queue exists"; a job's id is the only way back to its answer). Each job is one file,
 * `<state dir>/answer-jobs/<sha256 of job_id>.json` (mode 0600, written atomically), so that several pravo processes
 * recording jobs at once never overwrite one another's records, and a job id from the server never becomes a path.
 *
 * A record is written when the server has accepted the job (HTTP 202), before polling starts, and updated with the
 * last status pravo saw.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { AnswerJobStatus, SearchRequest } from '../contract/types.js';
import { readJsonFile, writeFileAtomic } from './atomic.js';
import { pravoPaths } from './paths.js';

/** Records kept at most; the oldest beyond this are removed when a new job is recorded. */
export const MAX_ANSWER_JOB_RECORDS = 500;

/** What pravo knows locally of one answer job. */
export interface AnswerJobRecord extends Record<string, unknown> {
  /** The server's job id, exactly as received. */
  job_id: string;
  /** The question asked (`query` of the request). */
  query: string;
  /** The request body sent to `POST /v1/answers`. */
  request: SearchRequest;
  /** The profile the job was created with, or `sandbox` for an in-process sandbox (`--sandbox`). */
  profile: string;
  /** Whether the job was created on an in-process sandbox, which stops when its command ends. */
  sandbox: boolean;
  /** The base URL it was sent to (never a credential; an in-process sandbox's loopback address changes every run). */
  base_url: string;
  /** When the server accepted the job (pravo's clock at the 202 response), ISO 8601 UTC. */
  created_at: string;
  /** The last status pravo saw: `queued` on creation, then what the status checks said. */
  last_status: AnswerJobStatus;
  /** When pravo last saw the status, ISO 8601 UTC. */
  checked_at: string;
  /** `error_code` of a `failed` job, e.g. `timed_out`. */
  error_code?: string;
}

/** The directory of the records: `<state dir>/answer-jobs`. */
export function answerJobsDir(env: NodeJS.ProcessEnv): string {
  return path.join(pravoPaths(env).state, 'answer-jobs');
}

/** The file of one job's record: its name is the SHA-256 of the job id (any id is a safe file name then). */
export function answerJobFile(env: NodeJS.ProcessEnv, jobId: string): string {
  return path.join(answerJobsDir(env), `${createHash('sha256').update(jobId).digest('hex').slice(0, 40)}.json`);
}

/**
 * Writes (creates or replaces) a job's record, atomically and 0600; the directory is created 0700 when missing.
 * @throws StateDirectoryError / StateWriteError (see `atomic.ts`) when it cannot be written; the previous record is
 *   then unchanged.
 */
export async function saveAnswerJob(env: NodeJS.ProcessEnv, record: AnswerJobRecord): Promise<void> {
  await writeFileAtomic(answerJobFile(env, record.job_id), `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
}

/**
 * Updates the status of a recorded job (`last_status`, `checked_at`, and `error_code` when failed). Nothing happens
 * when the job has no record (one created elsewhere, waited for by id). Best effort: a record that cannot be written
 * keeps its previous status, which is only a hint for `pravo answer list` and `pravo answer wait`.
 */
export async function updateAnswerJobStatus(
  env: NodeJS.ProcessEnv,
  jobId: string,
  status: AnswerJobStatus,
  checkedAt: string,
  errorCode?: string,
): Promise<AnswerJobRecord | undefined> {
  const record = await loadAnswerJob(env, jobId).catch(() => undefined);
  if (!record) return undefined;
  const updated: AnswerJobRecord = { ...record, last_status: status, checked_at: checkedAt };
  if (errorCode !== undefined) updated.error_code = errorCode;
  else delete updated.error_code;
  await saveAnswerJob(env, updated).catch(() => {});
  return updated;
}

/** Whether a value read from disk has the fields of a record (a damaged or foreign file is skipped). */
function isRecord(value: unknown): value is AnswerJobRecord {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Record<string, unknown>;
  return (
    typeof r.job_id === 'string' &&
    typeof r.query === 'string' &&
    typeof r.profile === 'string' &&
    typeof r.sandbox === 'boolean' &&
    typeof r.created_at === 'string' &&
    typeof r.last_status === 'string'
  );
}

/**
 * One job's record, or `undefined` when pravo has none for this id (or its file is damaged).
 * @throws the fs error when the file exists but cannot be read.
 */
export async function loadAnswerJob(env: NodeJS.ProcessEnv, jobId: string): Promise<AnswerJobRecord | undefined> {
  const value = await readJsonFile<unknown>(answerJobFile(env, jobId));
  return isRecord(value) && value.job_id === jobId ? value : undefined;
}

/**
 * Every record, newest first (by `created_at`); damaged files are skipped. An absent directory is an empty list.
 * @throws the fs error when the directory exists but cannot be read.
 */
export async function listAnswerJobs(env: NodeJS.ProcessEnv): Promise<AnswerJobRecord[]> {
  const dir = answerJobsDir(env);
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const records: AnswerJobRecord[] = [];
  for (const name of names) {
    if (!/^[0-9a-f]{40}\.json$/.test(name)) continue;
    const value = await readJsonFile<unknown>(path.join(dir, name)).catch(() => undefined);
    if (isRecord(value)) records.push(value);
  }
  return records.sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));
}

/**
 * Removes the oldest finished records beyond {@link MAX_ANSWER_JOB_RECORDS} (an unfinished job is never removed: it
 * may still be waited for). Reads the records only when the directory holds more files than that. Best effort: a file
 * that cannot be removed stays. Returns the number removed.
 */
export async function pruneAnswerJobs(env: NodeJS.ProcessEnv, keep = MAX_ANSWER_JOB_RECORDS): Promise<number> {
  // Counting the files is enough to know there is nothing to do: the records are read only past the limit.
  const files = await fs.readdir(answerJobsDir(env)).catch(() => [] as string[]);
  if (files.length <= keep) return 0;
  const records = await listAnswerJobs(env).catch(() => []);
  let removed = 0;
  for (const record of records.slice(keep)) {
    if (record.last_status !== 'succeeded' && record.last_status !== 'failed') continue;
    await fs
      .rm(answerJobFile(env, record.job_id), { force: true })
      .then(() => removed++)
      .catch(() => {});
  }
  return removed;
}
