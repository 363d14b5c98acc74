/**
 * Answer jobs in `state.sqlite` (`src/sandbox/state/answer-jobs.ts` through `SandboxState`): a job is stored with the
 * `answers` unit it consumes, or neither is; every change of status is conditional, so a final status is never
 * overwritten, also by another handle on the same data directory; a failed job gives its unit back once, to the month
 * it was consumed in.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_ACCOUNT_ID, SandboxState, type OpenStateOptions } from '../../../src/sandbox/state/store.js';

let dataDir: string;
const opened: SandboxState[] = [];

beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pravo-answer-jobs-test-'));
});

afterEach(() => {
  for (const state of opened.splice(0)) state.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function open(options: OpenStateOptions = {}): SandboxState {
  const state = SandboxState.open(dataDir, { now: () => new Date('2025-03-15T12:00:00Z'), ...options });
  opened.push(state);
  return state;
}

/** The account of the test jobs (not `acct_sandbox`: units count to the job's own account). */
const ACCOUNT = 'acct_test';
const TIMED_OUT = { code: 'timed_out', message: 'test: timed out' };
const ANSWER = { answer: 'Отговор (ТЕСТОВИ ДАННИ).', sources: [] };

/** Creates job `id` created at `createdAt` (ISO) by key_test of acct_test. */
function create(state: SandboxState, id: string, createdAt = '2025-03-15T12:00:00.000Z') {
  return state.createAnswerJob({
    job_id: id,
    account_id: ACCOUNT,
    key_id: 'key_test',
    request: { query: 'пазител на фар', max_results: 5 },
    created_at: createdAt,
  });
}

describe('answer jobs in state.sqlite', () => {
  it('stores a queued job together with the answers unit it consumes, in the month of the state clock', () => {
    const state = open();
    const created = create(state, 'ans_1');
    expect(created).toMatchObject({ created: true, consumption: { allowed: true, used: 1, month: '2025-03' } });
    expect(state.answerJob('ans_1')).toEqual({
      job_id: 'ans_1',
      account_id: 'acct_test',
      key_id: 'key_test',
      status: 'queued',
      query: 'пазител на фар',
      request: { query: 'пазител на фар', max_results: 5 },
      created_at: '2025-03-15T12:00:00.000Z',
      updated_at: '2025-03-15T12:00:00.000Z',
      finished_at: null,
      answer: null,
      sources: null,
      error_code: null,
      error_message: null,
      usage_month: '2025-03',
      unit_released: false,
    });
    expect(state.used(ACCOUNT, 'answers')).toBe(1);
    expect(state.used(DEFAULT_ACCOUNT_ID, 'answers')).toBe(0);
  });

  it('stores nothing and consumes nothing when the answers quota is used up, or when the insert fails', () => {
    const state = open({ quotas: { answers: 2 } });
    expect(create(state, 'ans_1').created).toBe(true);
    // A duplicate job_id fails the insert: the unit counted in the same transaction is rolled back.
    expect(() => create(state, 'ans_1')).toThrow(/UNIQUE/);
    expect(state.used(ACCOUNT, 'answers')).toBe(1);
    expect(create(state, 'ans_2').created).toBe(true);
    expect(create(state, 'ans_3')).toEqual({
      created: false,
      consumption: {
        allowed: false,
        kind: 'answers',
        used: 2,
        quota: 2,
        month: '2025-03',
        beyondQuota: false,
        overage: { allowed: false, limit: 0, used: 0 },
      },
    });
    expect(state.answerJob('ans_3')).toBeUndefined();
    expect(state.used(ACCOUNT, 'answers')).toBe(2);
  });

  it('moves queued → running → succeeded, each only from the statuses before it', () => {
    const state = open();
    create(state, 'ans_1');
    const at = new Date('2025-03-15T12:00:03Z');
    expect(state.markAnswerJobRunning('ans_1', new Date('2025-03-15T12:00:01Z'))).toBe(true);
    expect(state.markAnswerJobRunning('ans_1', at)).toBe(false);
    expect(state.succeedAnswerJob('ans_1', ANSWER, at)).toBe(true);
    expect(state.succeedAnswerJob('ans_1', { answer: 'друго', sources: [] }, at)).toBe(false);
    expect(state.failAnswerJob('ans_1', TIMED_OUT, at)).toBe(false);
    expect(state.answerJob('ans_1')).toMatchObject({
      status: 'succeeded',
      answer: ANSWER.answer,
      sources: [],
      finished_at: '2025-03-15T12:00:03.000Z',
      updated_at: '2025-03-15T12:00:03.000Z',
      unit_released: false,
    });
    expect(state.used(ACCOUNT, 'answers')).toBe(1);
    expect(state.markAnswerJobRunning('ans_unknown', at)).toBe(false);
  });

  it('fails a job once, giving its unit back once; a failed job never succeeds afterwards', () => {
    const state = open();
    create(state, 'ans_1');
    create(state, 'ans_2');
    const at = new Date('2025-03-15T12:15:00Z');
    expect(state.failAnswerJob('ans_1', TIMED_OUT, at)).toBe(true);
    expect(state.failAnswerJob('ans_1', TIMED_OUT, at)).toBe(false);
    expect(state.failAnswerJob('ans_1', { code: 'answer_failed', message: 'test' }, at)).toBe(false);
    expect(state.succeedAnswerJob('ans_1', ANSWER, at)).toBe(false);
    expect(state.answerJob('ans_1')).toMatchObject({
      status: 'failed',
      error_code: 'timed_out',
      error_message: 'test: timed out',
      answer: null,
      finished_at: '2025-03-15T12:15:00.000Z',
      unit_released: true,
    });
    expect(state.used(ACCOUNT, 'answers')).toBe(1);
  });

  it('fails only a job created at or before the given bound (the 15-minute rule, checked in the same statement)', () => {
    const state = open();
    create(state, 'ans_1', '2025-03-15T12:00:00.000Z');
    const at = new Date('2025-03-15T12:14:59.999Z');
    expect(state.failAnswerJob('ans_1', TIMED_OUT, at, new Date('2025-03-15T11:59:59.999Z'))).toBe(false);
    expect(state.answerJob('ans_1')?.status).toBe('queued');
    expect(state.failAnswerJob('ans_1', TIMED_OUT, at, new Date('2025-03-15T12:00:00.000Z'))).toBe(true);
  });

  it('two handles on one data directory: the first final status wins, the unit is given back at most once', () => {
    const first = open();
    const second = open();
    create(first, 'ans_1');
    create(first, 'ans_2');
    const at = new Date('2025-03-15T12:20:00Z');
    expect(second.failAnswerJob('ans_1', TIMED_OUT, at)).toBe(true);
    expect(first.succeedAnswerJob('ans_1', ANSWER, at)).toBe(false);
    expect(first.failAnswerJob('ans_1', TIMED_OUT, at)).toBe(false);
    expect(first.answerJob('ans_1')).toMatchObject({ status: 'failed', error_code: 'timed_out' });
    expect(first.succeedAnswerJob('ans_2', ANSWER, at)).toBe(true);
    expect(second.failAnswerJob('ans_2', TIMED_OUT, at)).toBe(false);
    expect(second.answerJob('ans_2')?.status).toBe('succeeded');
    expect(first.used(ACCOUNT, 'answers')).toBe(1);
  });

  it('a failed job gives its unit back to its own account, not to another one with usage that month', () => {
    const state = open();
    create(state, 'ans_1');
    state.createAnswerJob({ job_id: 'ans_other', account_id: 'acct_other', key_id: 'key_other', request: { query: 'друг въпрос' }, created_at: '2025-03-15T12:00:00.000Z' });
    expect(state.failAnswerJob('ans_other', TIMED_OUT, new Date('2025-03-15T12:20:00Z'))).toBe(true);
    expect(state.used('acct_other', 'answers')).toBe(0);
    expect(state.used(ACCOUNT, 'answers')).toBe(1);
  });

  it('gives a unit back to the month it was consumed in: a job of 31 March failed on 1 April', () => {
    let now = new Date('2025-03-31T23:55:00Z');
    const state = open({ now: () => now });
    create(state, 'ans_march', now.toISOString());
    now = new Date('2025-04-01T00:11:00Z');
    create(state, 'ans_april', now.toISOString());
    expect(state.used(ACCOUNT, 'answers', '2025-03')).toBe(1);
    expect(state.used(ACCOUNT, 'answers')).toBe(1);
    expect(state.failAnswerJob('ans_march', TIMED_OUT, now)).toBe(true);
    expect(state.used(ACCOUNT, 'answers', '2025-03')).toBe(0);
    expect(state.used(ACCOUNT, 'answers', '2025-04')).toBe(1);
    // release itself: to a given month, never below zero.
    expect(state.release(ACCOUNT, 'answers', '2025-03')).toBe(false);
    expect(state.release(ACCOUNT, 'answers')).toBe(true);
    expect(state.used(ACCOUNT, 'answers')).toBe(0);
  });
});
