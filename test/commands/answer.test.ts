/**
 * `pravo answer` run in this process (`main()` on test streams, an injected clock) against a loopback server that
 * plays the contract's answer jobs over synthetic documents (titles say they are test data): the polling schedule,
 * final statuses and their exit codes, the local job records (`--no-wait`, `wait`, `list`, Ctrl-C), and `--verify`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AnswerJob } from '../../src/contract/types.js';
import { main } from '../../src/cli.js';
import { listAnswerJobs, saveAnswerJob } from '../../src/state/answer-jobs.js';
import { testDecision, testStatute } from '../helpers/documents.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { testHost, type TestHostOptions } from '../helpers/host.js';
import { recordingServer, type Recorded } from '../helpers/recording-server.js';

/** A made-up key of the live form; not a real credential. */
const KEY = 'sbx_live_TESTKEYabcdefghijklmnopqrstuvwx';
const QUESTION = 'Какъв е срокът за тестовото уведомление?';

let root: string;
let env: NodeJS.ProcessEnv;
const servers: { close: () => Promise<void> }[] = [];

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'pravo-cmd-answer-'));
  env = { PRAVO_CONFIG_DIR: path.join(root, 'config'), PRAVO_STATE_DIR: path.join(root, 'state'), PRAVO_CACHE_DIR: path.join(root, 'cache') };
});

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  fs.rmSync(root, { recursive: true, force: true });
});

const statute = testStatute();
const decision = testDecision();

/** A succeeded job over the synthetic statute and decision: two excerpt markers, one document marker, one unknown. */
function succeededJob(jobId: string, options: { misquote?: boolean; unknownMarker?: boolean } = {}): AnswerJob {
  const fourth = options.misquote ? 'Срокът за уведомяване е осем дни' : 'Срокът за уведомяване е седем дни';
  return {
    job_id: jobId,
    status: 'succeeded',
    query: QUESTION,
    answer:
      `Относими са Закон за примерните уведомления (ТЕСТОВИ ДАННИ) [test-act-1] и тестово решение [test-case-1]. ` +
      `${fourth}. [test-act-1:4] Уведомлението съдържа име и адрес. [test-act-1:3]` +
      (options.unknownMarker ? ' Още нещо. [act-999:1]' : ''),
    sources: [
      {
        document_id: statute.document_id,
        collection: statute.collection,
        type: statute.type,
        title: statute.title,
        date: statute.date,
        url: statute.url,
        excerpts: [
          { excerpt_id: 'test-act-1:4', label: 'Чл. 4.', text: `…${fourth} (тестов текст).` },
          { excerpt_id: 'test-act-1:3', label: 'Чл. 3.', text: 'Чл. 3. Уведомлението съдържа име и адрес (тестов текст).' },
        ],
      },
      {
        document_id: decision.document_id,
        collection: decision.collection,
        type: decision.type,
        title: decision.title,
        date: decision.date,
        url: decision.url,
        court: decision.court,
        court_id: decision.court_id,
        case_number: decision.case_number ?? undefined,
        decision_number: decision.decision_number ?? undefined,
        excerpts: [{ excerpt_id: 'test-case-1:2', label: '¶ 2', text: 'Жалбата е допустима.' }],
      },
    ],
  };
}

/** What the server does with each job: the statuses its status checks return, in order (the last repeats). */
interface Script {
  statuses: AnswerJob[];
}

/**
 * A server with POST /v1/answers (202, job ids `ans_1`, `ans_2` …), GET /v1/answers/{id} following each job's script,
 * and GET /v1/documents over the synthetic statute and decision. Each request is stamped with the clock's time.
 */
async function serve(clock: FakeClock, scripts: Script[]) {
  const times: number[] = [];
  const checks = new Map<string, number>();
  let created = 0;
  const server = await recordingServer((request: Recorded) => {
    times.push(clock.now());
    const url = new URL(request.url, 'http://localhost');
    if (request.method === 'POST' && url.pathname === '/v1/answers') {
      created++;
      const job_id = `ans_${created}`;
      return { status: 202, body: JSON.stringify({ job_id, status: 'queued', poll_url: `/v1/answers/${job_id}` }) };
    }
    const match = /^\/v1\/answers\/(.+)$/.exec(url.pathname);
    if (request.method === 'GET' && match) {
      const id = decodeURIComponent(match[1]!);
      const script = scripts[Number(id.replace('ans_', '')) - 1];
      if (!script) return { status: 404, body: JSON.stringify({ error: { code: 'not_found', message: 'No such job.' } }) };
      const n = checks.get(id) ?? 0;
      checks.set(id, n + 1);
      const job = script.statuses[Math.min(n, script.statuses.length - 1)]!;
      return { status: 200, body: JSON.stringify({ ...job, job_id: id }) };
    }
    if (request.method === 'GET' && url.pathname === '/v1/documents') {
      const doc = [statute, decision].find((d) => d.document_id === url.searchParams.get('document_id') && d.collection === url.searchParams.get('collection'));
      if (doc) return { status: 200, body: JSON.stringify(doc) };
      return { status: 404, body: JSON.stringify({ error: { code: 'not_found', message: 'No such document.' } }) };
    }
    return { status: 404, body: JSON.stringify({ error: { code: 'not_found', message: 'no route' } }) };
  });
  servers.push(server);
  env = { ...env, PRAVO_BASE_URL: server.url, PRAVO_API_KEY: KEY };
  return { ...server, times };
}

const queued = (): AnswerJob => ({ job_id: '', status: 'queued' });
const running = (): AnswerJob => ({ job_id: '', status: 'running' });

/**
 * Runs `pravo ...args` with the fake clock, advancing it through each wait as soon as pravo has started it (so no test
 * waits in real time); `onSleep(n)` may act before wait n is advanced, and returns true when it has ended the run (Ctrl-C).
 */
async function drive(clock: FakeClock, args: string[], options: TestHostOptions & { onSleep?: (n: number, t: ReturnType<typeof testHost>) => boolean } = {}) {
  const t = testHost({ env, clock, ...options });
  let finished = false;
  const run = main(args, t.host).finally(() => (finished = true));
  for (let n = clock.sleeps.length + 1; !finished; n++) {
    await vi.waitFor(() => expect(finished || clock.sleeps.length >= n).toBe(true), { timeout: 5_000, interval: 2 });
    if (finished) break;
    // A Ctrl-C ends the wait by itself; advancing the clock further would run out the runner's grace period too.
    if (options.onSleep?.(n, t) === true) break;
    await clock.advance(clock.sleeps[n - 1]!);
  }
  return { exitCode: await run, stdout: t.stdout(), stderr: t.stderr() };
}

describe('pravo answer: polling', () => {
  it('checks 2 s after creation, then 4, 8, 10, 10 s later, never after a final status; prints the answer with numbered citations', async () => {
    const clock = new FakeClock();
    const server = await serve(clock, [{ statuses: [queued(), running(), running(), running(), succeededJob('ans_1')] }]);
    const result = await drive(clock, ['answer', QUESTION]);
    expect(result.exitCode, result.stderr).toBe(0);
    const [post, ...checks] = server.requests;
    expect(post!.method).toBe('POST');
    expect(JSON.parse(post!.body)).toEqual({ query: QUESTION });
    expect(checks.map((r) => r.url)).toEqual(Array(5).fill('/v1/answers/ans_1'));
    const created = server.times[0]!;
    expect(server.times.slice(1).map((t) => t - created)).toEqual([2000, 6000, 14000, 24000, 34000]);
    expect(clock.pendingTimers()).toBe(0);
    expect(result.stdout).toContain('[1]');
    expect(result.stdout).toContain('[4]');
    expect(result.stdout).not.toContain('[test-act-1:4]');
    expect(result.stdout).toContain('Закон за примерните уведомления (ТЕСТОВИ ДАННИ)');
  });

  it('says above the answer when its first source amends an act the service does not hold', async () => {
    const clock = new FakeClock();
    const job = succeededJob('ans_1');
    job.sources![0] = { ...job.sources![0]!, absent_act: 'Закон за примерните облаци (ТЕСТОВИ ДАННИ)' };
    await serve(clock, [{ statuses: [job] }]);
    const result = await drive(clock, ['answer', QUESTION]);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain('The service holds only amendments of „Закон за примерните облаци (ТЕСТОВИ ДАННИ)“');
    const plain = new FakeClock();
    await serve(plain, [{ statuses: [succeededJob('ans_2')] }]);
    expect((await drive(plain, ['answer', QUESTION])).stderr).not.toContain('only amendments');
  });

  it('--json prints the final job exactly as the server sent it', async () => {
    const clock = new FakeClock();
    await serve(clock, [{ statuses: [succeededJob('ans_1')] }]);
    const result = await drive(clock, ['answer', '--json', QUESTION]);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ ...succeededJob('ans_1') });
  });

  it('a failed job exits 7 with its error_code and message; timed_out says the unit was restored', async () => {
    const clock = new FakeClock();
    await serve(clock, [
      { statuses: [running(), { job_id: '', status: 'failed', error_code: 'timed_out', error_message: 'The job stayed unfinished for 15 minutes.' }] },
      { statuses: [{ job_id: '', status: 'failed', error_code: 'answer_failed', error_message: 'Synthetic execution error.' }] },
    ]);
    const timedOut = await drive(clock, ['answer', QUESTION]);
    expect(timedOut.exitCode).toBe(7);
    expect(timedOut.stdout).toBe('');
    expect(timedOut.stderr).toContain('Answer job ans_1 failed: timed_out: The job stayed unfinished for 15 minutes.');
    expect(timedOut.stderr).toContain('unit was restored, so a new job may safely be created');
    const failed = await drive(clock, ['answer', '--json', QUESTION]);
    expect(failed.exitCode).toBe(7);
    expect(JSON.parse(failed.stdout)).toMatchObject({ status: 'failed', error_code: 'answer_failed' });
    expect(failed.stderr).toContain('consumes no answers-quota unit');
    expect((await listAnswerJobs(env)).map((r) => [r.job_id, r.last_status, r.error_code])).toEqual([
      ['ans_2', 'failed', 'answer_failed'],
      ['ans_1', 'failed', 'timed_out'],
    ]);
  });

  it('bad input is refused before anything is sent (exit 2)', async () => {
    const clock = new FakeClock();
    const server = await serve(clock, []);
    for (const args of [['answer', 'ab'], ['answer', 'wiat'], ['answer', '-n', '0', QUESTION], ['answer', '--verify', QUESTION], ['answer', '--no-wait', '--verify', QUESTION]]) {
      const result = await drive(clock, args);
      expect(result.exitCode, args.join(' ')).toBe(2);
    }
    const typo = await drive(clock, ['answer', 'lsit']);
    expect(typo.exitCode).toBe(2);
    expect(typo.stderr).toContain('looks like a mistyped `pravo answer list`');
    const verify = await drive(clock, ['answer', '--verify', QUESTION]);
    expect(verify.stderr).toContain('add --yes');
    expect(server.requests).toEqual([]);
  });
});

describe('pravo answer: no job is forgotten', () => {
  it('--no-wait prints the job id and how to resume; `answer wait` picks up the latest unfinished job', async () => {
    const clock = new FakeClock();
    const server = await serve(clock, [{ statuses: [running(), succeededJob('ans_1')] }]);
    const created = await drive(clock, ['answer', '--no-wait', QUESTION]);
    expect(created.exitCode).toBe(0);
    expect(created.stdout).toBe('ans_1\n');
    expect(created.stderr).toContain('`pravo answer wait ans_1`');
    expect(server.requests).toHaveLength(1);
    expect((await listAnswerJobs(env))[0]).toMatchObject({ job_id: 'ans_1', query: QUESTION, last_status: 'queued', profile: 'default', sandbox: false });

    clock.sleeps.length = 0;
    const waited = await drive(clock, ['answer', 'wait']);
    expect(waited.exitCode, waited.stderr).toBe(0);
    expect(waited.stdout).toContain('Закон за примерните уведомления');
    expect((await listAnswerJobs(env))[0]).toMatchObject({ job_id: 'ans_1', last_status: 'succeeded' });

    const none = await drive(clock, ['answer', 'wait']);
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain('No unfinished answer job is recorded');
  });

  it('Ctrl-C while waiting says the job goes on and how to resume (exit 130); `answer wait` then finishes it', async () => {
    const clock = new FakeClock();
    const server = await serve(clock, [{ statuses: [running(), running(), succeededJob('ans_1')] }]);
    const stopped = await drive(clock, ['answer', QUESTION], { onSleep: (n, t) => n === 2 && (t.signal('SIGINT'), true) });
    expect(stopped.exitCode).toBe(130);
    expect(stopped.stderr).toContain('Stopped waiting for answer job ans_1 (last seen running); the job was not cancelled');
    expect(stopped.stderr).toContain('`pravo answer wait ans_1`');
    expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
    expect((await listAnswerJobs(env))[0]).toMatchObject({ job_id: 'ans_1', last_status: 'running' });

    const resumed = await drive(clock, ['answer', 'wait', 'ans_1']);
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  it('a job recorded with another profile is refused with the command that reaches it; list shows the records', async () => {
    const clock = new FakeClock();
    const server = await serve(clock, []);
    await saveAnswerJob(env, {
      job_id: 'ans_9',
      query: 'тестов въпрос',
      request: { query: 'тестов въпрос' },
      profile: 'work',
      sandbox: false,
      base_url: 'https://api.example.invalid',
      created_at: '2025-01-01T00:00:00.000Z',
      last_status: 'running',
      checked_at: '2025-01-01T00:00:00.000Z',
    });
    const refused = await drive(clock, ['answer', 'wait', 'ans_9']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('run `pravo answer wait ans_9 --profile work`');
    const latest = await drive(clock, ['answer', 'wait']);
    expect(latest.stderr).toContain('the latest unfinished one, ans_9, was created with profile "work"');
    expect(server.requests).toEqual([]);

    const list = await drive(clock, ['answer', 'list']);
    expect(list.stdout).toBe('ans_9\trunning\t2025-01-01T00:00:00.000Z\t2025-01-01T00:00:00.000Z\twork\tfalse\t\tтестов въпрос\n');
    const limited = await drive(clock, ['answer', 'list', '-n', '1']);
    expect(limited.stdout.split('\n')).toHaveLength(2);
    const json = await drive(clock, ['answer', 'list', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject([{ job_id: 'ans_9', last_status: 'running' }]);
    // An answer's options are refused on the list, not silently ignored.
    for (const stray of [['--format', 'md'], ['--out', 'list.md'], ['--verify']]) {
      const refusedOption = await drive(clock, ['answer', 'list', ...stray]);
      expect(refusedOption.exitCode).toBe(2);
      expect(refusedOption.stdout).toBe('');
      expect(refusedOption.stderr).toContain(`${stray[0]} is for an answer: \`pravo answer show JOB_ID ${stray[0]}`);
    }
    expect(server.requests).toEqual([]);
  });

  it('--no-wait on the in-process sandbox is refused: its job could never finish', async () => {
    const clock = new FakeClock();
    const result = await drive(clock, ['answer', '--sandbox', '--no-wait', QUESTION]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('pravo sandbox serve --save-to-profile sandbox');
  });

  it('an exhausted answers quota is exit 5, and no job is recorded', async () => {
    const clock = new FakeClock();
    const server = await recordingServer(() => ({ status: 429, body: JSON.stringify({ error: { code: 'monthly_quota_exceeded', message: 'The monthly answers quota is used up.' } }) }));
    servers.push(server);
    env = { ...env, PRAVO_BASE_URL: server.url, PRAVO_API_KEY: KEY };
    const result = await drive(clock, ['answer', QUESTION]);
    expect(result.exitCode).toBe(5);
    expect(result.stderr).toContain('monthly');
    expect(server.requests).toHaveLength(1);
    expect(await listAnswerJobs(env)).toEqual([]);
  });
});

describe('pravo answer --verify', () => {
  it('every citation verified: says beforehand what it may spend, exit 0, documents then cached', async () => {
    const clock = new FakeClock();
    const server = await serve(clock, [{ statuses: [succeededJob('ans_1')] }, { statuses: [succeededJob('ans_2')] }]);
    const result = await drive(clock, ['answer', '--verify', '--yes', QUESTION]);
    expect(result.exitCode, result.stdout + result.stderr).toBe(0);
    expect(result.stderr).toContain('needs 2 documents: 0 cached, 2 to retrieve (up to 2 retrieval units)');
    expect(result.stdout).toMatch(/^Every cited passage found in its document \(\d of \d\)/mu);
    expect(result.stdout).not.toMatch(/\bverified\b/u);
    expect(server.requests.filter((r) => r.url.startsWith('/v1/documents'))).toHaveLength(2);

    const again = await drive(clock, ['answer', '--verify', '--yes', '--json', QUESTION]);
    expect(again.exitCode).toBe(0);
    expect(again.stderr).toContain('2 cached, 0 to retrieve');
    expect(server.requests.filter((r) => r.url.startsWith('/v1/documents'))).toHaveLength(2);
    const body = JSON.parse(again.stdout) as { job: AnswerJob; verification: { verified: boolean; checks: { verdict: string }[]; retrieval_units_spent: number; documents_from_cache: number } };
    expect(body.job.job_id).toBe('ans_2');
    expect(body.verification).toMatchObject({ verified: true, retrieval_units_spent: 0, documents_from_cache: 2 });
    expect(body.verification.checks.map((c) => c.verdict)).toEqual(['verified', 'verified', 'verified', 'verified']);
  });

  it('flags exactly the misquoted citation (not the document marker of its source) and the unresolved marker, and exits 8', async () => {
    const clock = new FakeClock();
    await serve(clock, [{ statuses: [succeededJob('ans_1', { misquote: true, unknownMarker: true })] }]);
    const result = await drive(clock, ['answer', '--verify', '--yes', '--json', QUESTION]);
    expect(result.exitCode).toBe(8);
    const body = JSON.parse(result.stdout) as { verification: { verified: boolean; checks: { number: number; marker: string; verdict: string }[] } };
    expect(body.verification.verified).toBe(false);
    expect(body.verification.checks.map((c) => [c.number, c.marker, c.verdict])).toEqual([
      [1, 'test-act-1', 'verified'],
      [2, 'test-case-1', 'verified'],
      [3, 'test-act-1:4', 'text_not_found'],
      [4, 'test-act-1:3', 'verified'],
      [5, 'act-999:1', 'unresolved_marker'],
    ]);
  });

  it('a document that cannot be retrieved is a verdict, not a crash', async () => {
    const clock = new FakeClock();
    const job = succeededJob('ans_1');
    (job.sources![1] as Record<string, unknown>).collection = 'c_gone';
    await serve(clock, [{ statuses: [job] }]);
    const result = await drive(clock, ['answer', '--verify', '--yes', QUESTION]);
    expect(result.exitCode).toBe(8);
    expect(result.stdout).toMatch(/not retrievable/);
  });
});
