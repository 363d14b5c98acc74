/**
 * `startSandbox` (`src/sandbox/start.ts`), the entry the CLI uses: index, state, key, session, listener; closing twice;
 * the ephemeral key and session removed at close; sessions expired over a day ago removed at start; the
 * authentication cache's TTL; a corpus problem reported as `CorpusError`; a cancelled start as `AbortError`; answer
 * jobs on the given clock and quota, left unfinished by a close; options out of range.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { CorpusError } from '../../src/sandbox/corpus/reader.js';
import { reportSkippedInputs, startSandbox, type RunningSandbox } from '../../src/sandbox/start.js';
import { DEFAULT_ACCOUNT_ID, SandboxState } from '../../src/sandbox/state/store.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { generatedLaws, writeCorpusFile, writeSyntheticCorpus } from '../helpers/synthetic-corpus.js';
import { tempDirsPerTest } from './fixtures.js';

/** A temporary directory, removed after the test. */
const dir = tempDirsPerTest();

describe('startSandbox', () => {
  it('listening on every interface (0.0.0.0), gives clients a base URL they can connect to: loopback', async () => {
    const d = dir();
    const sandbox = await startSandbox({ corpusPath: writeSyntheticCorpus(path.join(d, 'corpus')), dataDir: path.join(d, 'data'), host: '0.0.0.0', ephemeralKey: true });
    try {
      expect(sandbox.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const response = await fetch(`${sandbox.baseUrl}/v1/catalog/source-types`, { headers: { 'x-api-key': sandbox.apiKey } });
      expect(response.status).toBe(200);
    } finally {
      await sandbox.close();
    }
  });

  it('serves search with its issued key, closes idempotently and removes an ephemeral key', async () => {
    const d = dir();
    const dataDir = path.join(d, 'data');
    const lines: string[] = [];
    const sandbox = await startSandbox({
      corpusPath: writeSyntheticCorpus(path.join(d, 'corpus')),
      dataDir,
      ephemeralKey: true,
      log: (line) => lines.push(line),
    });
    expect(sandbox.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sandbox.documentCount).toBe(4);
    const response = await fetch(`${sandbox.baseUrl}/v1/search`, {
      method: 'POST',
      headers: { 'x-api-key': sandbox.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'неустойка по договор' }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
    await Promise.all([sandbox.close(), sandbox.close()]);
    expect(lines.some((line) => line.startsWith('POST /v1/search 200') && line.includes(sandbox.keyId))).toBe(true);
    expect(lines.join('\n')).not.toContain(sandbox.apiKey);
    expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
    const db = new DatabaseSync(path.join(dataDir, 'state.sqlite'), { readOnly: true });
    expect(db.prepare('SELECT COUNT(*) AS n FROM api_keys').get()).toEqual({ n: 0 });
    db.close();
  });

  it('with searchWorkers, searches on a worker thread (answering as in-process), and closes idempotently', async () => {
    const d = dir();
    const corpusPath = writeSyntheticCorpus(path.join(d, 'corpus'));
    const lines: string[] = [];
    const body = JSON.stringify({ query: 'неустойка по договор' });
    const searchOn = async (sandbox: RunningSandbox): Promise<unknown> => {
      const response = await fetch(`${sandbox.baseUrl}/v1/search`, {
        method: 'POST',
        headers: { 'x-api-key': sandbox.apiKey, 'content-type': 'application/json' },
        body,
      });
      expect(response.status).toBe(200);
      return response.json();
    };
    const pooled = await startSandbox({ corpusPath, dataDir: path.join(d, 'data'), searchWorkers: 1, log: (line) => lines.push(line) });
    const inProcess = await startSandbox({ corpusPath, dataDir: path.join(d, 'data') });
    try {
      expect(await searchOn(pooled)).toEqual(await searchOn(inProcess));
      // The worker said it was ready before it answered.
      expect(lines).toContainEqual(expect.stringMatching(/^1 search worker\(s\) ready in \d+ ms$/));
    } finally {
      await Promise.all([pooled.close(), pooled.close(), inProcess.close()]);
    }
  });

  it('reports a missing corpus as a CorpusError (by class and by name)', async () => {
    const d = dir();
    const error = await startSandbox({ corpusPath: path.join(d, 'missing.jsonl'), dataDir: path.join(d, 'data') }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CorpusError);
    expect((error as Error).name).toBe('CorpusError');
  });

  it('stops the index build when its signal aborts: AbortError, nothing opened or left in the data directory', async () => {
    const d = dir();
    const dataDir = path.join(d, 'data');
    const controller = new AbortController();
    const error = await startSandbox({
      corpusPath: writeCorpusFile(path.join(d, 'corpus.jsonl'), generatedLaws(200)),
      dataDir,
      signal: controller.signal,
      onProgress: (progress) => {
        if (progress.phase === 'indexing' && progress.done >= 50) controller.abort('SIGTERM');
      },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DOMException);
    expect((error as DOMException).name).toBe('AbortError');
    // No index, no temporary file, and no state database: the start stopped at the build.
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });

  it('runs answer jobs on the given clock and answers quota; a close clears their timers and leaves them queued', async () => {
    const d = dir();
    const dataDir = path.join(d, 'data');
    const clock = new FakeClock(Date.parse('2025-03-15T12:00:00Z'));
    const sandbox = await startSandbox({
      corpusPath: writeSyntheticCorpus(path.join(d, 'corpus')),
      dataDir,
      quotas: { answers: 2 },
      answers: { clock, delayMs: 1000 },
    });
    const post = () =>
      fetch(`${sandbox.baseUrl}/v1/answers`, {
        method: 'POST',
        headers: { 'x-api-key': sandbox.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'неустойка по договор' }),
      });
    const first = (await (await post()).json()) as { poll_url: string };
    await clock.advance(1000);
    const done = (await (await fetch(`${sandbox.baseUrl}${first.poll_url}`, { headers: { 'x-api-key': sandbox.apiKey } })).json()) as Record<string, unknown>;
    expect(done).toMatchObject({ status: 'succeeded', created_at: '2025-03-15T12:00:00.000Z', updated_at: '2025-03-15T12:00:01.000Z' });
    const second = (await (await post()).json()) as { job_id: string };
    expect((await post()).status).toBe(429);
    await sandbox.close();
    expect(clock.pendingTimers()).toBe(0);

    const db = new DatabaseSync(path.join(dataDir, 'state.sqlite'), { readOnly: true });
    try {
      expect(db.prepare('SELECT status FROM answer_jobs WHERE job_id = ?').get(second.job_id)).toEqual({ status: 'queued' });
      // The state's clock is the answers clock: the units count in March 2025.
      expect(db.prepare("SELECT account_id, month, used FROM account_usage WHERE kind = 'answers'").all()).toEqual([
        { account_id: 'acct_sandbox', month: '2025-03', used: 2 },
      ]);
    } finally {
      db.close();
    }
  });

  it.each([
    [{ delayMs: -1 }, /answer delay/],
    [{ delayMs: Number.NaN }, /answer delay/],
    [{ failureRate: 1.5 }, /failure rate/],
  ])('refuses answer options %o with a RangeError before opening anything', async (answers, message) => {
    const d = dir();
    const dataDir = path.join(d, 'data');
    const error = await startSandbox({ corpusPath: writeSyntheticCorpus(path.join(d, 'corpus')), dataDir, answers }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RangeError);
    expect((error as Error).message).toMatch(message);
    expect(fs.existsSync(dataDir)).toBe(false);
  });

  it.each([
    [{ sessionTtlMs: 0 }, /session lifetime/],
    [{ sessionTtlMs: 31 * 24 * 60 * 60 * 1000 }, /session lifetime/],
    [{ authCacheTtlMs: -1 }, /authentication cache TTL/],
    [{ searchWorkers: -1 }, /search workers must be a whole number from 0 to 64, not -1/],
    [{ searchWorkers: 65 }, /search workers must be a whole number from 0 to 64, not 65/],
  ])('refuses %o with a RangeError before opening anything', async (options, message) => {
    const d = dir();
    const dataDir = path.join(d, 'data');
    const error = await startSandbox({ corpusPath: writeSyntheticCorpus(path.join(d, 'corpus')), dataDir, ...options }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RangeError);
    expect((error as Error).message).toMatch(message);
    expect(fs.existsSync(dataDir)).toBe(false);
  });
});

describe("startSandbox: the run's session", () => {
  /** The rows of `sessions` of a data directory, read through a separate connection. */
  function sessions(dataDir: string): { session_id: string; expires_at: string; ephemeral: number }[] {
    const db = new DatabaseSync(path.join(dataDir, 'state.sqlite'), { readOnly: true });
    try {
      return db.prepare('SELECT session_id, expires_at, ephemeral FROM sessions ORDER BY created_at').all() as never;
    } finally {
      db.close();
    }
  }

  it('creates a 24-hour session of acct_sandbox whose token serves GET /v1/account, and keeps it after close', async () => {
    const d = dir();
    const dataDir = path.join(d, 'data');
    const now = () => new Date('2025-03-15T12:00:00.000Z');
    const sandbox = await startSandbox({ corpusPath: writeSyntheticCorpus(path.join(d, 'corpus')), dataDir, now });
    try {
      expect(sandbox.sessionToken).toMatch(/^sbx_sess_[0-9A-Za-z]{32}$/);
      expect(sandbox.sessionExpiresAt).toBe('2025-03-16T12:00:00.000Z');
      const reply = await fetch(`${sandbox.baseUrl}/v1/account`, { headers: { authorization: `Bearer ${sandbox.sessionToken}` } });
      expect(reply.status).toBe(200);
      expect(((await reply.json()) as { account_id: string }).account_id).toBe('acct_sandbox');
    } finally {
      await sandbox.close();
    }
    expect(sessions(dataDir)).toEqual([{ session_id: sandbox.sessionId, expires_at: '2025-03-16T12:00:00.000Z', ephemeral: 0 }]);
  });

  it('says the inputs an index skipped in one line, by reason, with the file that lists them', async () => {
    const d = dir();
    const skipped = [1, 2, 3].map((n) => ({ path: `/c/akn/${n}.xml`, message: `Akoma Ntoso file /c/akn/${n}.xml: not well-formed XML: ${n}:1: disallowed character.` }));
    skipped.push({ path: '/c/p/7.json', message: 'act payload /c/p/7.json: a second payload of 7; the first is used' });
    const line = await reportSkippedInputs(d, '0123456789abcdef', skipped);
    const file = path.join(d, 'index-0123456789abcdef.skipped.txt');
    expect(line).toBe(`the corpus index skipped 4 input files it could not read (3 not well-formed XML, 1 a second payload of 7); the list: ${file}`);
    expect(line).not.toContain('\n');
    expect(fs.readFileSync(file, 'utf8').split('\n')).toEqual([...skipped.map((s) => s.message), '']);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(await reportSkippedInputs(path.join(d, 'missing', 'dir'), 'k', skipped)).toMatch(/; the first: Akoma Ntoso file \/c\/akn\/1\.xml: not well-formed/);
  });

  it('with persistentKey, issues a key that outlives the run and takes it up at the next start; a revoked one is replaced', async () => {
    const d = dir();
    const dataDir = path.join(d, 'data');
    const corpusPath = writeSyntheticCorpus(path.join(d, 'corpus'));
    const first = await startSandbox({ corpusPath, dataDir, ephemeralKey: true, persistentKey: {} });
    await first.close();
    expect(first.keyIssued).toBe(true);
    const second = await startSandbox({ corpusPath, dataDir, ephemeralKey: true, persistentKey: { reuse: first.apiKey } });
    await second.close();
    expect([second.keyIssued, second.keyId, second.apiKey]).toEqual([false, first.keyId, first.apiKey]);
    expect(second.sessionToken).not.toBe(first.sessionToken);

    const state = SandboxState.open(dataDir);
    state.revokeKey(DEFAULT_ACCOUNT_ID, first.keyId);
    state.close();
    const third = await startSandbox({ corpusPath, dataDir, ephemeralKey: true, persistentKey: { reuse: first.apiKey } });
    await third.close();
    expect(third.keyIssued).toBe(true);
    expect(third.keyId).not.toBe(first.keyId);
    const db = new DatabaseSync(path.join(dataDir, 'state.sqlite'), { readOnly: true });
    expect(db.prepare('SELECT status, ephemeral FROM api_keys ORDER BY created_at').all()).toEqual([
      { status: 'revoked', ephemeral: 0 },
      { status: 'active', ephemeral: 0 },
    ]);
    db.close();
  });

  it('with ephemeralKey, the session is ephemeral: one hour by default, deleted at close with the key', async () => {
    const d = dir();
    const dataDir = path.join(d, 'data');
    const now = () => new Date('2025-03-15T12:00:00.000Z');
    const sandbox = await startSandbox({ corpusPath: writeSyntheticCorpus(path.join(d, 'corpus')), dataDir, now, ephemeralKey: true });
    expect(sandbox.sessionExpiresAt).toBe('2025-03-15T13:00:00.000Z');
    expect(sessions(dataDir)).toEqual([{ session_id: sandbox.sessionId, expires_at: '2025-03-15T13:00:00.000Z', ephemeral: 1 }]);
    await sandbox.close();
    expect(sessions(dataDir)).toEqual([]);
  });

  it('takes sessionTtlMs, and removes at start the sessions expired over a day ago, saying how many', async () => {
    const d = dir();
    const dataDir = path.join(d, 'data');
    const corpusPath = writeSyntheticCorpus(path.join(d, 'corpus'));
    let now = new Date('2025-03-15T12:00:00.000Z');
    const first = await startSandbox({ corpusPath, dataDir, now: () => now, sessionTtlMs: 60_000 });
    await first.close();
    expect(first.sessionExpiresAt).toBe('2025-03-15T12:01:00.000Z');
    now = new Date('2025-03-16T12:00:59.000Z');
    const lines: string[] = [];
    const second = await startSandbox({ corpusPath, dataDir, now: () => now, log: (line) => lines.push(line) });
    await second.close();
    expect(sessions(dataDir).map((s) => s.session_id)).toEqual([first.sessionId, second.sessionId]);
    now = new Date('2025-03-16T12:01:00.001Z');
    const third = await startSandbox({ corpusPath, dataDir, now: () => now, log: (line) => lines.push(line) });
    await third.close();
    expect(sessions(dataDir).map((s) => s.session_id)).toEqual([second.sessionId, third.sessionId]);
    expect(lines.filter((line) => line.includes('expired'))).toEqual(['removed 1 session(s) expired over a day ago']);
  });

  it('authCacheTtlMs 0: a key revoked by another process is refused at once', async () => {
    const d = dir();
    const dataDir = path.join(d, 'data');
    const sandbox = await startSandbox({ corpusPath: writeSyntheticCorpus(path.join(d, 'corpus')), dataDir, authCacheTtlMs: 0 });
    try {
      const get = () => fetch(`${sandbox.baseUrl}/v1/usage`, { headers: { 'x-api-key': sandbox.apiKey } });
      expect((await get()).status).toBe(200);
      const other = SandboxState.open(dataDir);
      other.revokeKey(DEFAULT_ACCOUNT_ID, sandbox.keyId);
      other.close();
      expect((await get()).status).toBe(401);
    } finally {
      await sandbox.close();
    }
  });
});
