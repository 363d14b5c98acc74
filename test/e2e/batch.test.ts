/**
 * `pravo batch` end to end: the built CLI against `pravo sandbox serve` over `../shared/corpus`, each test on a data
 * directory of its own, so the sandbox's usage (read with `GET /v1/usage`) counts exactly the requests that reached it.
 * What issue 9 promises: a batch that would pass the quota is refused before any request; a batch killed with SIGKILL
 * halfway and rerun sends every query once in total except those it reports interrupted, and its results hold each
 * completed line once; with `--answers`, a batch killed while its jobs run and rerun creates no second job for any
 * line; the quota running out mid-batch stops it cleanly with what is done kept.
 */
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { linkedDataDir, pravo, serveSandbox, tempDir, type Served } from './helpers.js';
import { CLI } from './paths.js';

const shared = inject('sandbox');
const home = tempDir('batch');
afterAll(() => home.cleanup());

/** The CLI's environment: its own config (and state and cache beside it) under `home`. */
function env(name: string): Record<string, string> {
  return { PRAVO_CONFIG_DIR: path.join(home.dir, name) };
}

/** Units the sandbox counted this period, per kind, as `GET /v1/usage` reports them (with the profile's key). */
async function usedUnits(served: Served, config: Record<string, string>): Promise<{ search: number; retrieval: number; answers: number }> {
  const stored = JSON.parse(fs.readFileSync(path.join(config.PRAVO_CONFIG_DIR!, 'config.json'), 'utf8')) as {
    profiles: Record<string, { api_key: string }>;
  };
  const response = await fetch(`${served.baseUrl}/v1/usage`, { headers: { 'x-api-key': stored.profiles.sandbox!.api_key } });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { quotas: Record<'search' | 'retrieval' | 'answers', { used: number }> };
  return { search: body.quotas.search.used, retrieval: body.quotas.retrieval.used, answers: body.quotas.answers.used };
}

/** A batch input of `n` distinct searches (words a user types, numbered: no legal content). */
function queries(n: number, stem = 'трудов договор прекратяване'): string {
  return Array.from({ length: n }, (_, i) => `${stem} ${i + 1}`).join('\n') + '\n';
}

/** The results file's lines, parsed. */
function results(file: string): Array<{ line: number; job_id?: string; error?: { code?: string } }> {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as { line: number });
}

/** The journal's records of a type. */
function journal(file: string, type: string): Array<{ line: number; job_id?: string }> {
  return fs
    .readFileSync(`${file}.journal`, 'utf8')
    .split('\n')
    .filter((l) => l.endsWith('}'))
    .map((l) => JSON.parse(l) as { type: string; line: number })
    .filter((r) => r.type === type);
}

/** Starts `pravo batch` in the background; kills it with SIGKILL once `ready()` holds (checked every 10 ms). */
async function killWhen(args: string[], config: Record<string, string>, ready: () => boolean): Promise<void> {
  const child = execa('node', [CLI, ...args], {
    env: { ...config, PRAVO_STATE_DIR: path.join(config.PRAVO_CONFIG_DIR!, 'state'), PRAVO_CACHE_DIR: path.join(config.PRAVO_CONFIG_DIR!, 'cache') },
    reject: false,
    stdin: 'ignore',
  });
  let ended = false;
  void child.then(() => (ended = true));
  const deadline = Date.now() + 60_000;
  while (!ready()) {
    if (ended || Date.now() > deadline) throw new Error(`the batch ended before it could be killed: ${(await child).stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  child.kill('SIGKILL');
  const result = await child;
  expect(result.signal).toBe('SIGKILL');
}

/** Lines of the journal marked done so far (0 while the file does not exist). */
function doneSoFar(out: string): number {
  try {
    return journal(out, 'done').length;
  } catch {
    return 0;
  }
}

describe('pravo batch against the sandbox', () => {
  it('refuses a batch that would pass the quota before sending anything, and stops cleanly when the quota runs out mid-batch', async () => {
    const data = linkedDataDir(home.dir, shared.dataDir);
    const config = env('quota');
    const input = path.join(home.dir, 'quota.txt');
    const out = path.join(home.dir, 'quota.jsonl');
    fs.writeFileSync(input, queries(8));
    let sandbox = await serveSandbox(data, config, ['--quota', 'search=5']);
    try {
      const refused = await pravo(['--profile', 'sandbox', 'batch', input, '--out', out, '--yes'], { env: config });
      expect(refused.exitCode, refused.stderr).toBe(5);
      expect(refused.stderr).toMatch(/Refused: the batch needs more than the period has left/);
      expect(refused.stderr).toMatch(/search\s+8\s+5\s+3 over/);
      expect((await usedUnits(sandbox, config)).search).toBe(0);
      expect(results(out)).toEqual([]);

      // Sent anyway: five pass, the sixth is refused, nothing more is sent, and what is done is kept.
      const stopped = await pravo(['--profile', 'sandbox', 'batch', input, '--out', out, '--yes', '--allow-overage', '--concurrency', '1'], { env: config });
      expect(stopped.exitCode, stopped.stderr).toBe(5);
      expect(stopped.stderr).toMatch(/Stopped: the monthly quota is used up/);
      expect(stopped.stderr).toMatch(/not sent\s+3 \(lines 6–8\)/);
      expect((await usedUnits(sandbox, config)).search).toBe(5);
      expect(results(out).map((r) => r.line)).toEqual([1, 2, 3, 4, 5]);
    } finally {
      await sandbox.stop();
    }
    // A larger quota: the rerun sends only the three lines left.
    sandbox = await serveSandbox(data, config, ['--quota', 'search=100']);
    try {
      const rerun = await pravo(['--profile', 'sandbox', 'batch', input, '--out', out, '--yes'], { env: config });
      expect(rerun.exitCode, rerun.stderr).toBe(0);
      expect(rerun.stderr).toMatch(/skipped\s+5 done before/);
      expect((await usedUnits(sandbox, config)).search).toBe(8);
      expect(results(out).map((r) => r.line).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    } finally {
      await sandbox.stop();
    }
  }, 120_000);

  it('killed with SIGKILL halfway and rerun, a batch of 200 sends each query once except those it reports interrupted', async () => {
    const data = linkedDataDir(home.dir, shared.dataDir);
    const config = env('kill');
    const input = path.join(home.dir, 'kill.txt');
    const out = path.join(home.dir, 'kill.jsonl');
    fs.writeFileSync(input, queries(200, 'застраховка обезщетение'));
    const sandbox = await serveSandbox(data, config);
    try {
      const args = ['--profile', 'sandbox', 'batch', input, '--out', out, '--yes'];
      await killWhen(args, config, () => doneSoFar(out) >= 100);
      const sentBeforeKill = (await usedUnits(sandbox, config)).search;
      expect(sentBeforeKill).toBeGreaterThanOrEqual(100);
      expect(sentBeforeKill).toBeLessThan(200);

      const rerun = await pravo(args, { env: config, timeout: 120_000 });
      expect([0, 9], rerun.stderr).toContain(rerun.exitCode);
      const interrupted = Number(/interrupted +(\d+)/.exec(rerun.stderr)?.[1] ?? 0);
      const lines = results(out).map((r) => r.line);
      // Each completed line once; every line either completed or reported interrupted.
      expect(new Set(lines).size).toBe(lines.length);
      expect(lines.length).toBe(200 - interrupted);
      // The server counted each completed query once, plus at most the interrupted ones (if they reached it).
      const used = (await usedUnits(sandbox, config)).search;
      expect(used).toBeGreaterThanOrEqual(200 - interrupted);
      expect(used).toBeLessThanOrEqual(200);

      // --retry-interrupted sends those (and only those) again; then every line is there once.
      const retried = await pravo([...args, '--retry-interrupted'], { env: config, timeout: 120_000 });
      expect(retried.exitCode, retried.stderr).toBe(0);
      const all = results(out).map((r) => r.line);
      expect(all.length).toBe(200);
      expect(new Set(all).size).toBe(200);
      expect((await usedUnits(sandbox, config)).search).toBeLessThanOrEqual(200 + interrupted);
    } finally {
      await sandbox.stop();
    }
  }, 180_000);

  it('with --answers, killed while its jobs run and rerun, creates no second job for any line', async () => {
    const data = linkedDataDir(home.dir, shared.dataDir);
    const config = env('answers');
    const input = path.join(home.dir, 'answers.txt');
    const out = path.join(home.dir, 'answers.jsonl');
    fs.writeFileSync(
      input,
      [
        'Кога работодателят може да прекрати трудовия договор без предизвестие?',
        'Какъв е срокът за обжалване на решение по обществена поръчка?',
        'Какви са правата на потребителя при несъответствие на стоката?',
        'Кога застрахователят може да откаже плащане на обезщетение?',
      ].join('\n'),
    );
    const sandbox = await serveSandbox(data, config, ['--answer-delay', '4']);
    try {
      const args = ['--profile', 'sandbox', 'batch', input, '--out', out, '--answers', '--concurrency', '2', '--yes'];
      // Killed once two jobs exist: they go on in the sandbox; the other two are not created yet.
      await killWhen(args, config, () => {
        try {
          return journal(out, 'job').length >= 2;
        } catch {
          return false;
        }
      });
      const before = new Map(journal(out, 'job').map((r) => [r.line, r.job_id]));
      expect(before.size).toBe(2);
      expect((await usedUnits(sandbox, config)).answers).toBe(2);

      const rerun = await pravo(args, { env: config, timeout: 120_000 });
      expect(rerun.exitCode, rerun.stderr).toBe(0);
      const lines = results(out);
      expect(lines.map((r) => r.line).sort()).toEqual([1, 2, 3, 4]);
      // The jobs created before the kill were collected, not created again.
      for (const [line, jobId] of before) expect(lines.find((r) => r.line === line)?.job_id).toBe(jobId);
      expect(new Set(lines.map((r) => r.job_id)).size).toBe(4);
      expect((await usedUnits(sandbox, config)).answers).toBe(4);
    } finally {
      await sandbox.stop();
    }
  }, 120_000);
});
