/**
 * The local records of answer jobs (`src/state/answer-jobs.ts`): one private file per job in the state directory,
 * listed newest first, updated with the last status, pruned without losing unfinished jobs.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  answerJobFile,
  answerJobsDir,
  listAnswerJobs,
  loadAnswerJob,
  pruneAnswerJobs,
  saveAnswerJob,
  updateAnswerJobStatus,
  type AnswerJobRecord,
} from '../../src/state/answer-jobs.js';

let root: string;
let env: NodeJS.ProcessEnv;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'pravo-answer-jobs-test-'));
  env = { PRAVO_STATE_DIR: path.join(root, 'state') };
});

afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

function record(jobId: string, createdAt: string, status: AnswerJobRecord['last_status'] = 'queued'): AnswerJobRecord {
  return {
    job_id: jobId,
    query: 'тестов въпрос за неустойка',
    request: { query: 'тестов въпрос за неустойка' },
    profile: 'default',
    sandbox: false,
    base_url: 'https://api.example.invalid',
    created_at: createdAt,
    last_status: status,
    checked_at: createdAt,
  };
}

describe('answer job records', () => {
  it('are one 0600 file per job in a 0700 directory, whatever characters the id has', async () => {
    const awkward = '../../etc/passwd ж?#';
    await saveAnswerJob(env, record(awkward, '2025-01-01T10:00:00.000Z'));
    const file = answerJobFile(env, awkward);
    expect(path.dirname(file)).toBe(answerJobsDir(env));
    expect(path.basename(file)).toMatch(/^[0-9a-f]{40}\.json$/);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(answerJobsDir(env)).mode & 0o777).toBe(0o700);
    expect((await loadAnswerJob(env, awkward))?.job_id).toBe(awkward);
    expect(await loadAnswerJob(env, 'never-created')).toBeUndefined();
  });

  it('list newest first and skip damaged files', async () => {
    await saveAnswerJob(env, record('ans_old', '2025-01-01T10:00:00.000Z'));
    await saveAnswerJob(env, record('ans_new', '2025-01-03T10:00:00.000Z'));
    await saveAnswerJob(env, record('ans_mid', '2025-01-02T10:00:00.000Z'));
    fs.writeFileSync(path.join(answerJobsDir(env), `${'a'.repeat(40)}.json`), '{"job_id": 12');
    expect((await listAnswerJobs(env)).map((r) => r.job_id)).toEqual(['ans_new', 'ans_mid', 'ans_old']);
  });

  it('an empty list when nothing was ever recorded (no directory is created by reading)', async () => {
    expect(await listAnswerJobs(env)).toEqual([]);
    expect(fs.existsSync(answerJobsDir(env))).toBe(false);
  });

  it('updating the status keeps the rest of the record; a job without a record stays without one', async () => {
    await saveAnswerJob(env, record('ans_1', '2025-01-01T10:00:00.000Z'));
    await updateAnswerJobStatus(env, 'ans_1', 'failed', '2025-01-01T10:16:00.000Z', 'timed_out');
    expect(await loadAnswerJob(env, 'ans_1')).toMatchObject({
      query: 'тестов въпрос за неустойка',
      last_status: 'failed',
      checked_at: '2025-01-01T10:16:00.000Z',
      error_code: 'timed_out',
    });
    expect(await updateAnswerJobStatus(env, 'ans_unknown', 'running', '2025-01-01T10:00:00.000Z')).toBeUndefined();
    expect(await loadAnswerJob(env, 'ans_unknown')).toBeUndefined();
  });

  it('pruning removes the oldest finished records beyond the limit, never an unfinished one', async () => {
    await saveAnswerJob(env, record('ans_a', '2025-01-01T00:00:00.000Z', 'running'));
    await saveAnswerJob(env, record('ans_b', '2025-01-02T00:00:00.000Z', 'succeeded'));
    await saveAnswerJob(env, record('ans_c', '2025-01-03T00:00:00.000Z', 'failed'));
    await saveAnswerJob(env, record('ans_d', '2025-01-04T00:00:00.000Z', 'succeeded'));
    expect(await pruneAnswerJobs(env, 1)).toBe(2);
    expect((await listAnswerJobs(env)).map((r) => r.job_id)).toEqual(['ans_d', 'ans_a']);
  });
});
