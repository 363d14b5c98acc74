/**
 * Answer jobs over HTTP (`src/sandbox/routes/answers.ts`, `src/sandbox/answers/jobs.ts`; spec: POST /v1/answers,
 * GET /v1/answers/{job_id}, Answer job, States and transitions, Quota rules 2) on the synthetic corpus, time driven by
 * a fake clock: creation and its one `answers` unit, invalid requests that cost nothing, the quota, queued → running →
 * succeeded, failures that give the unit back, the 15-minute rule (once, to the right month, also for jobs left by a
 * stopped sandbox or finished late by another process), and accounts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseAnswerJob, parseAnswerJobCreated } from '../../../src/api/shapes.js';
import { LIMITS } from '../../../src/contract/limits.js';
import type { AnswerJob } from '../../../src/contract/types.js';
import type { AnswerSource } from '../../../src/sandbox/answers/compose.js';
import { ANSWER_FAILED } from '../../../src/sandbox/answers/jobs.js';
import type { SearchIndex } from '../../../src/sandbox/storage.js';
import { DEFAULT_ACCOUNT_ID } from '../../../src/sandbox/state/store.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { expectWellCited } from '../answers/answer-text.js';
import { expectError, openSyntheticIndex, request, startTestServer, type Reply, type TestServer, type TestServerOptions } from './harness.js';

let root: string;
let index: SearchIndex;
let closeIndex: () => void;
const servers: TestServer[] = [];

beforeAll(async () => {
  ({ root, index, close: closeIndex } = await openSyntheticIndex('pravo-answers-http-'));
});
afterAll(() => closeIndex?.());
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

const START = '2025-03-15T12:00:00.000Z';
const QUERY = { query: 'неустойка при неизпълнение на договор' };

/** A server whose answer runner (and state) run on `clock` (default a fake clock at {@link START}). */
async function serve(options: TestServerOptions = {}, clock = new FakeClock(Date.parse(START))): Promise<{ server: TestServer; clock: FakeClock }> {
  const server = await startTestServer(root, index, { ...options, answers: { clock, ...options.answers } });
  servers.push(server);
  return { server, clock };
}

function post(server: TestServer, body: unknown, key = server.key): Promise<Reply> {
  return request(server.baseUrl, 'POST', '/v1/answers', {
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

function check(server: TestServer, pollUrl: string, key = server.key, method = 'GET'): Promise<Reply> {
  return request(server.baseUrl, method, pollUrl, { headers: { 'x-api-key': key } });
}

/** Creates a job and returns its `poll_url`. */
async function create(server: TestServer, body: unknown = QUERY): Promise<string> {
  const reply = await post(server, body);
  expect(reply.status).toBe(202);
  return reply.json.poll_url as string;
}

/** The job at `pollUrl`, asserted to be HTTP 200 and the shape the CLI accepts (`parseAnswerJob`). */
async function job(server: TestServer, pollUrl: string, key = server.key): Promise<AnswerJob> {
  const reply = await check(server, pollUrl, key);
  expect(reply.status).toBe(200);
  return parseAnswerJob(reply.json);
}

describe('POST /v1/answers', () => {
  it('answers 202 with job_id, status queued and a relative poll_url, and consumes one answers unit', async () => {
    const { server } = await serve();
    const reply = await post(server, { ...QUERY, include_content: true, unknown_field: 1 });
    expect(reply.status).toBe(202);
    expect(reply.headers.get('location')).toBeNull();
    expect(Object.keys(reply.json)).toEqual(['job_id', 'status', 'poll_url']);
    const created = parseAnswerJobCreated(reply.json);
    expect(created.job_id).toMatch(/^ans_[0-9a-f]{24}$/);
    expect(created.status).toBe('queued');
    expect(created.poll_url).toBe(`/v1/answers/${created.job_id}`);
    expect(server.state.used(DEFAULT_ACCOUNT_ID, 'answers')).toBe(1);
    expect(server.state.used(DEFAULT_ACCOUNT_ID, 'search')).toBe(0);
    // Only the contract's fields are kept with the job.
    expect(server.state.answerJob(created.job_id)?.request).toEqual(QUERY);
    expect(server.logs[0]).toMatch(/^POST \/v1\/answers 202 \d+ms key=key_/);
  });

  it.each<[string, unknown, RegExp]>([
    ['a missing query', { max_results: 5 }, /query is required/],
    ['a query too short', { query: 'ab' }, /query must be 3 to 2000 characters/],
    ['max_results 0', { ...QUERY, max_results: 0 }, /max_results must be an integer from 1 to 50/],
    ['max_results 51', { ...QUERY, max_results: 51 }, /max_results/],
    ['court_ids with only laws', { ...QUERY, source_types: ['bulgarian_laws_regulations'], court_ids: [7] }, /court_ids applies only to case-law sources/],
    ['an unknown source type', { ...QUERY, source_types: ['no_such_type'] }, /unknown source type "no_such_type"/],
    ['a body that is not an object', [QUERY], /must be a JSON object/],
    ['a body that is not JSON', '{"query": ', /JSON/],
  ])('%s → 400 invalid_request, nothing consumed, no job', async (_name, body, message) => {
    const { server, clock } = await serve();
    expect(expectError(await post(server, body), 400, 'invalid_request')).toMatch(message);
    expect(server.state.used(DEFAULT_ACCOUNT_ID, 'answers')).toBe(0);
    expect(server.answers.pendingJobs()).toBe(0);
    expect(clock.pendingTimers()).toBe(0);
  });

  it('answers 429 monthly_quota_exceeded once the answers quota is used up, consuming and storing nothing', async () => {
    const { server, clock } = await serve({ quotas: { answers: 1 } });
    await create(server);
    const message = expectError(await post(server, QUERY), 429, 'monthly_quota_exceeded');
    expect(message).toBe(
      "The monthly answers quota of 1 unit is used up for 2025-03, and overage is off for this account. GET /v1/usage shows this month's consumption.",
    );
    expect(server.state.used(DEFAULT_ACCOUNT_ID, 'answers')).toBe(1);
    expect(server.answers.pendingJobs()).toBe(1);
    expect(clock.pendingTimers()).toBe(2);
  });

  it('needs an API key', async () => {
    const { server } = await serve();
    expectError(await request(server.baseUrl, 'POST', '/v1/answers', { body: JSON.stringify(QUERY) }), 401, 'missing_api_key');
    expect(server.state.used(DEFAULT_ACCOUNT_ID, 'answers')).toBe(0);
  });
});

describe('GET /v1/answers/{job_id}', () => {
  it('moves queued → running (a quarter of the delay) → succeeded (the whole delay), with an answer citing its sources', async () => {
    const { server, clock } = await serve();
    const pollUrl = await create(server);
    const queued = await job(server, pollUrl);
    expect(queued).toEqual({ job_id: pollUrl.split('/').at(-1), status: 'queued', created_at: START, updated_at: START });

    await clock.advance(749);
    expect((await job(server, pollUrl)).status).toBe('queued');
    await clock.advance(1);
    expect(await job(server, pollUrl)).toMatchObject({ status: 'running', created_at: START, updated_at: '2025-03-15T12:00:00.750Z' });

    await clock.advance(2249);
    expect((await job(server, pollUrl)).status).toBe('running');
    await clock.advance(1);
    const done = await job(server, pollUrl);
    expect(Object.keys(done)).toEqual(['job_id', 'status', 'query', 'answer', 'sources', 'created_at', 'updated_at']);
    expect(done).toMatchObject({ status: 'succeeded', query: QUERY.query, updated_at: '2025-03-15T12:00:03.000Z' });
    const sources = done.sources as AnswerSource[];
    expect(sources.length).toBeGreaterThan(0);
    expectWellCited(done.answer!, sources);
    expect(done.answer).toMatch(/^Най-относим/);
    expect(sources.every((s) => s.title.includes('ТЕСТОВИ ДАННИ'))).toBe(true);
    // The unit stays consumed; a search was not counted as a search.
    expect(server.state.used(DEFAULT_ACCOUNT_ID, 'answers')).toBe(1);
    expect(server.state.used(DEFAULT_ACCOUNT_ID, 'search')).toBe(0);
    expect(clock.pendingTimers()).toBe(0);
    expect(server.logs).toContainEqual(expect.stringMatching(/^answer job ans_[0-9a-f]{24} succeeded: \d source\(s\)$/));
  });

  it('HEAD is a status check too: the headers of the GET, no body', async () => {
    const { server } = await serve();
    const pollUrl = await create(server);
    const head = await check(server, pollUrl, server.key, 'HEAD');
    const get = await check(server, pollUrl);
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers.get('content-length')).toBe(get.headers.get('content-length'));
  });

  it('a query the corpus has nothing for still succeeds, saying so, with no sources', async () => {
    const { server, clock } = await serve();
    const pollUrl = await create(server, { query: 'ксилофонни пингвини блорпират' });
    await clock.advance(3000);
    const done = await job(server, pollUrl);
    expect(done).toMatchObject({ status: 'succeeded', sources: [] });
    expect(done.answer).toMatch(/^В наличните източници не е намерено нищо относимо/);
    expect(done.answer).not.toMatch(/\[/);
  });

  it('with failure rate 1, the job fails answer_failed and consumes no unit', async () => {
    const { server, clock } = await serve({ answers: { failureRate: 1 } });
    const pollUrl = await create(server);
    expect(server.state.used(DEFAULT_ACCOUNT_ID, 'answers')).toBe(1);
    await clock.advance(3000);
    const failed = await job(server, pollUrl);
    expect(Object.keys(failed)).toEqual(['job_id', 'status', 'error_code', 'error_message', 'created_at', 'updated_at']);
    expect(failed).toMatchObject({ status: 'failed', error_code: ANSWER_FAILED });
    expect(failed.error_message).toMatch(/не е изразходвана/);
    expect(failed.error_message).toMatch(/no answers quota unit was consumed/);
    expect(server.state.used(DEFAULT_ACCOUNT_ID, 'answers')).toBe(0);
    expect(server.logs).toContainEqual(expect.stringMatching(/failed: answer_failed \(simulated failure/));
  });

  it('draws the injected random number against the failure rate, once per job', async () => {
    const draws = [0.7, 0.2];
    const { server, clock } = await serve({ answers: { failureRate: 0.5, random: () => draws.shift()! } });
    const first = await create(server);
    const second = await create(server);
    await clock.advance(3000);
    expect((await job(server, first)).status).toBe('succeeded');
    expect((await job(server, second)).error_code).toBe(ANSWER_FAILED);
    expect(draws).toEqual([]);
    expect(server.state.used(DEFAULT_ACCOUNT_ID, 'answers')).toBe(1);
  });

  it('15 minutes after creation, a check fails a queued or running job timed_out and restores its unit, once', async () => {
    const { server, clock } = await serve({ answers: { delayMs: 20 * 60 * 1000 } });
    const pollUrl = await create(server);
    await create(server);
    expect(server.state.used(DEFAULT_ACCOUNT_ID, 'answers')).toBe(2);
    await clock.advance(LIMITS.answerJobTimeoutMs - 1);
    expect((await job(server, pollUrl)).status).toBe('running');
    await clock.advance(1);
    const failed = await job(server, pollUrl);
    expect(failed).toMatchObject({ status: 'failed', error_code: 'timed_out', updated_at: '2025-03-15T12:15:00.000Z' });
    expect(failed.error_message).toMatch(/възстановена/);
    expect(failed.error_message).toMatch(/restored/);
    expect(server.state.used(DEFAULT_ACCOUNT_ID, 'answers')).toBe(1);
    // A second check restores nothing more and shows the same job.
    expect(await job(server, pollUrl)).toEqual(failed);
    expect(server.state.used(DEFAULT_ACCOUNT_ID, 'answers')).toBe(1);
    // Its timers are gone: only the other job's remain.
    expect(server.answers.pendingJobs()).toBe(1);
    expect(server.logs.filter((line) => /timed_out/.test(line))).toHaveLength(1);
  });

  it('a job finished before its 15 minutes stays as it is at later checks', async () => {
    const { server, clock } = await serve();
    const pollUrl = await create(server);
    await clock.advance(3000);
    const done = await job(server, pollUrl);
    await clock.advance(LIMITS.answerJobTimeoutMs);
    expect(await job(server, pollUrl)).toEqual(done);
    expect(server.state.used(DEFAULT_ACCOUNT_ID, 'answers')).toBe(1);
  });

  it('a job another process timed out stays timed_out when the accepting process finishes it later', async () => {
    const clock = new FakeClock(Date.parse(START));
    const { server: accepting } = await serve({ answers: { delayMs: 20 * 60 * 1000 } }, clock);
    const pollUrl = await create(accepting);
    const { server: other } = await serve({ stateDir: accepting.stateDir }, clock);
    await clock.advance(LIMITS.answerJobTimeoutMs);
    expect(await job(other, pollUrl)).toMatchObject({ status: 'failed', error_code: 'timed_out' });
    expect(accepting.state.used(DEFAULT_ACCOUNT_ID, 'answers')).toBe(0);
    // The accepting process's timer fires at 20 minutes: its result is dropped.
    await clock.advance(5 * 60 * 1000);
    expect(await job(accepting, pollUrl)).toMatchObject({ status: 'failed', error_code: 'timed_out' });
    expect(accepting.state.used(DEFAULT_ACCOUNT_ID, 'answers')).toBe(0);
    expect(accepting.logs).toContainEqual(expect.stringMatching(/already final \(timed out meanwhile\); its answer is dropped/));
  });

  it('a job left by a closed sandbox stays unfinished until a check 15 minutes after its creation fails it timed_out', async () => {
    const clock = new FakeClock(Date.parse(START));
    const stateDir = fs.mkdtempSync(path.join(root, 'kept-state-'));
    const { server: first } = await serve({ stateDir }, clock);
    const pollUrl = await create(first);
    servers.splice(servers.indexOf(first), 1);
    await first.close();
    expect(clock.pendingTimers()).toBe(0);

    const { server: second } = await serve({ stateDir }, clock);
    await clock.advance(60 * 1000);
    expect((await job(second, pollUrl)).status).toBe('queued');
    expect(second.state.used(DEFAULT_ACCOUNT_ID, 'answers')).toBe(1);
    await clock.advance(LIMITS.answerJobTimeoutMs - 60 * 1000);
    expect(await job(second, pollUrl)).toMatchObject({ status: 'failed', error_code: 'timed_out' });
    expect(second.state.used(DEFAULT_ACCOUNT_ID, 'answers')).toBe(0);
  });

  it('restores the unit of a job created on the last day of a month to that month', async () => {
    const clock = new FakeClock(Date.parse('2025-03-31T23:55:00Z'));
    const { server } = await serve({ answers: { delayMs: 60 * 60 * 1000 } }, clock);
    const march = await create(server);
    await clock.advance(16 * 60 * 1000);
    await create(server);
    expect(server.state.used(DEFAULT_ACCOUNT_ID, 'answers', '2025-03')).toBe(1);
    expect(server.state.used(DEFAULT_ACCOUNT_ID, 'answers', '2025-04')).toBe(1);
    expect(await job(server, march)).toMatchObject({ status: 'failed', error_code: 'timed_out' });
    expect(server.state.used(DEFAULT_ACCOUNT_ID, 'answers', '2025-03')).toBe(0);
    expect(server.state.used(DEFAULT_ACCOUNT_ID, 'answers', '2025-04')).toBe(1);
  });

  it('a job of another account, an unknown id or a malformed one is 404 not_found; another key of the account sees it', async () => {
    const { server } = await serve();
    const pollUrl = await create(server);
    const other = server.state.issueKey('other account', { account: 'acct_other' });
    const colleague = server.state.issueKey('same account');
    expectError(await check(server, pollUrl, other.api_key), 404, 'not_found');
    expectError(await check(server, '/v1/answers/ans_000000000000000000000000'), 404, 'not_found');
    expectError(await check(server, '/v1/answers/not%20a%20job'), 404, 'not_found');
    expect((await job(server, pollUrl, colleague.api_key)).status).toBe('queued');
  });

  it('closing the runner clears its timers; the job stays queued in the database', async () => {
    const { server, clock } = await serve();
    const pollUrl = await create(server);
    server.answers.close();
    expect(clock.pendingTimers()).toBe(0);
    await clock.advance(3000);
    expect((await job(server, pollUrl)).status).toBe('queued');
  });
});
