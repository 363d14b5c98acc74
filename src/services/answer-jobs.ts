/**
 * The bookkeeping of answer jobs that `pravo answer` and `pravo batch --answers` share (spec: States and transitions,
 * Answer job: "No reliable job queue exists", so a job's id is the only way back to its answer): the record of a job
 * the server has just accepted, its status kept up to date, and coming back to a recorded job from the right target.
 * The records themselves are files (`src/state/answer-jobs.ts`), loaded lazily: a command that creates no job never
 * reads them.
 */
import { isFinalAnswerJobStatus, type AnswerJob, type SearchRequest } from '../contract/types.js';
import { UsageError } from '../errors/cli.js';
import type { Factory } from '../factory.js';
import { sanitizeLine } from '../shared/sanitize.js';
import type { AnswerJobRecord } from '../state/answer-jobs.js';
import type { Target } from '../target.js';
import { currentRunTarget, flagsToReach, shellQuote, targetFlagWords } from './targets.js';

/**
 * The record of a job the server has just accepted (HTTP 202): `queued`, created and checked at `now` (ms since the
 * epoch, the factory's clock), with the target it was sent to (`profile`, whether an in-process sandbox, base URL;
 * never a credential).
 */
export function newAnswerJobRecord(
  jobId: string,
  request: SearchRequest,
  target: Pick<Target, 'kind' | 'profile' | 'baseUrl'>,
  now: number,
): AnswerJobRecord {
  const at = new Date(now).toISOString();
  return {
    job_id: jobId,
    query: request.query,
    request,
    profile: target.profile,
    sandbox: target.kind === 'sandbox',
    base_url: target.baseUrl,
    created_at: at,
    last_status: 'queued',
    checked_at: at,
  };
}

/**
 * Writes a new job's record (atomically, 0600).
 * @throws StateDirectoryError / StateWriteError when the record cannot be written: the caller decides whether to warn
 *   ({@link answerWaitCommand} gives the way back) or go on.
 */
export async function recordAnswerJob(factory: Factory, record: AnswerJobRecord): Promise<void> {
  const { saveAnswerJob } = await import('../state/answer-jobs.js');
  await saveAnswerJob(factory.env, record);
}

/** Removes the oldest records beyond the kept number (best effort: a failure is no error). */
export async function pruneAnswerJobRecords(factory: Factory): Promise<void> {
  const { pruneAnswerJobs } = await import('../state/answer-jobs.js');
  await pruneAnswerJobs(factory.env).catch(() => 0);
}

/** Brings a job's record up to date with what the server said (best effort: no record, or a failed write, is no error). */
export async function updateAnswerJobRecord(factory: Factory, job: AnswerJob): Promise<void> {
  const { updateAnswerJobStatus } = await import('../state/answer-jobs.js');
  await updateAnswerJobStatus(factory.env, job.job_id, job.status, new Date(factory.clock.now()).toISOString(), job.error_code).catch(() => undefined);
}

/** The record of `jobId`, if pravo has one (a damaged or unreadable one counts as none). */
export async function loadAnswerJobRecord(factory: Factory, jobId: string): Promise<AnswerJobRecord | undefined> {
  const { loadAnswerJob } = await import('../state/answer-jobs.js');
  return loadAnswerJob(factory.env, jobId).catch(() => undefined);
}

/** The command that waits for `jobId` again with this run's target flags: `pravo answer wait ID [--profile P] …`. */
export function answerWaitCommand(factory: Factory, jobId: string): string {
  return ['pravo', 'answer', 'wait', shellQuote(jobId), ...targetFlagWords(factory.globals)].join(' ');
}

/**
 * @throws UsageError when the recorded job was created against another target than this run's (another profile, or
 *   the in-process sandbox vs the service), with the command that reaches it (`pravo answer <verb> ID --profile P`).
 */
export async function checkRecordTarget(factory: Factory, record: AnswerJobRecord, verb: 'wait' | 'show'): Promise<void> {
  const flags = flagsToReach(record, await currentRunTarget(factory));
  if (flags === undefined) return;
  const where = record.sandbox ? 'the in-process sandbox (--sandbox)' : `profile "${sanitizeLine(record.profile)}"`;
  throw new UsageError(
    `Answer job ${sanitizeLine(record.job_id)} was created with ${where}, so it is asked for there: run \`pravo answer ${verb} ${shellQuote(record.job_id)}${flags}\`.`,
  );
}

/**
 * The latest recorded job not known to be finished, of this run's target.
 * @throws UsageError when there is none (naming the latest of another target, if any, and its command).
 */
export async function latestUnfinishedJob(factory: Factory): Promise<AnswerJobRecord> {
  const { listAnswerJobs } = await import('../state/answer-jobs.js');
  const unfinished = (await listAnswerJobs(factory.env)).filter((r) => !isFinalAnswerJobStatus(r.last_status));
  const current = await currentRunTarget(factory);
  const mine = unfinished.find((record) => flagsToReach(record, current) === undefined);
  if (mine) return mine;
  const other = unfinished[0];
  if (other) {
    throw new UsageError(
      `No unfinished answer job is recorded for this target; the latest unfinished one, ${sanitizeLine(other.job_id)}, was created with ${other.sandbox ? '--sandbox' : `profile "${sanitizeLine(other.profile)}"`}: run \`pravo answer wait ${shellQuote(other.job_id)}${flagsToReach(other, current)}\`.`,
    );
  }
  throw new UsageError('No unfinished answer job is recorded. `pravo answer list` shows the recorded jobs; `pravo answer wait JOB_ID` waits for any job by its id.');
}
