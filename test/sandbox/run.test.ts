/**
 * `startSandbox` (`src/sandbox/run.ts`), the entry the CLI uses: index, state, key, listener; closing twice; the
 * ephemeral key removed at close; a corpus problem reported as `CorpusError`; a cancelled start as `AbortError`;
 * answer jobs on the given clock and quota, left unfinished by a close; answer options out of range.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { CorpusError } from '../../src/sandbox/corpus/reader.js';
import { startSandbox } from '../../src/sandbox/run.js';
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
});
