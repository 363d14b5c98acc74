/**
 * Answers end to end: the built CLI against `pravo sandbox serve` over `../shared/corpus` (the real statutes and court
 * decisions). What issue 8 promises: an answer whose every marker resolves to a listed source and whose every citation
 * `--verify` finds in its document; a job stuck 15 minutes reported `timed_out` with its unit restored; a failing job
 * that consumes no unit; `pravo answer wait` picking up a job created with `--no-wait` and one interrupted by Ctrl-C.
 *
 * Each test serves its own sandbox processes on a data directory of its own (its `state.sqlite` counts only its
 * units), sharing the index the global setup built (a hard link: the index is opened read-only).
 */
import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { execa } from 'execa';
import { linkedDataDir, pravo, serveSandbox, tempDir, unitsCounted } from './helpers.js';
import { CLI } from './paths.js';

const shared = inject('sandbox');
const home = tempDir('answers');
afterAll(() => home.cleanup());

/** A new data directory holding (a link to) the shared index. */
function dataDir(): string {
  return linkedDataDir(home.dir, shared.dataDir);
}

/** The CLI's environment: its own config (and state and cache beside it) under `home`. */
function env(name: string, extra: Record<string, string> = {}): Record<string, string> {
  return { PRAVO_CONFIG_DIR: path.join(home.dir, name), ...extra };
}

const serve = serveSandbox;

/** The bracketed ids of an answer that are not ordinary text (the markers). */
function markersOf(answer: string): string[] {
  return [...answer.matchAll(/\[([^[\]\n]+)\]/g)].map((m) => m[1]!).filter((m) => !/\s/.test(m));
}

interface Job {
  job_id: string;
  status: string;
  answer?: string;
  sources?: { document_id: string; excerpts?: { excerpt_id: string }[] }[];
  error_code?: string;
}

describe('pravo answer over the real corpus', () => {
  it.each([
    ['statutes', [] as string[], 'Кога работодателят може да прекрати трудовия договор без предизвестие?'],
    ['decisions', ['--type', 'high_courts_cases'], 'Кога се отменя присъдата и делото се връща за ново разглеждане?'],
  ])('%s: every marker resolves to a listed source and --verify verifies every citation', async (_kind, flags, question) => {
    const data = dataDir();
    const config = env(`verify-${_kind}`);
    const sandbox = await serve(data, config, ['--answer-delay', '0.5']);
    try {
      const result = await pravo(['--profile', 'sandbox', 'answer', ...flags, '--verify', '--yes', '--json', question], { env: config, timeout: 60_000 });
      expect(result.exitCode, result.stderr).toBe(0);
      const { job, verification } = JSON.parse(result.stdout) as { job: Job; verification: { verified: boolean; checks: { verdict: string }[] } };
      expect(job.status).toBe('succeeded');
      const ids = new Set(job.sources!.flatMap((s) => [s.document_id, ...(s.excerpts ?? []).map((e) => e.excerpt_id)]));
      const markers = markersOf(job.answer!);
      expect(markers.length).toBeGreaterThanOrEqual(2);
      for (const marker of markers) expect(ids.has(marker), marker).toBe(true);
      expect(verification.verified).toBe(true);
      expect(verification.checks.length).toBe(new Set(markers).size);
      expect(verification.checks.every((c) => c.verdict === 'verified')).toBe(true);
      expect(unitsCounted(data, 'answers')).toBe(1);

      // For people: the markers numbered in order of first appearance, each listed under the answer.
      const text = await pravo(['--profile', 'sandbox', 'answer', 'show', job.job_id], { env: config });
      expect(text.exitCode, text.stderr).toBe(0);
      const numbers = [...text.stdout.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
      expect(Math.max(...numbers)).toBe(new Set(markers).size);
      for (const marker of markers) expect(text.stdout).not.toContain(`[${marker}]`);
    } finally {
      await sandbox.stop();
    }
  });

  it('a failing job consumes no unit and exits 7', async () => {
    const data = dataDir();
    const config = env('failing');
    const sandbox = await serve(data, config, ['--answer-delay', '0.2', '--answer-failure-rate', '1']);
    try {
      const result = await pravo(['--profile', 'sandbox', 'answer', 'обезщетение при застраховка'], { env: config, timeout: 60_000 });
      expect(result.exitCode).toBe(7);
      expect(result.stderr).toMatch(/failed: answer_failed/);
      expect(result.stderr).toContain('consumes no answers-quota unit');
      expect(unitsCounted(data, 'answers')).toBe(0);
    } finally {
      await sandbox.stop();
    }
  });

  it('a job left unfinished by a sandbox restart is reported timed_out after 15 minutes, its unit restored', async () => {
    const data = dataDir();
    const config = env('restart');
    const first = await serve(data, config, ['--answer-delay', '3600']);
    const created = await pravo(['--profile', 'sandbox', 'answer', '--no-wait', 'обезщетение при застраховка'], { env: config });
    expect(created.exitCode, created.stderr).toBe(0);
    const jobId = created.stdout.trim();
    expect(unitsCounted(data, 'answers')).toBe(1);
    await first.stop();

    // Sixteen minutes pass while no sandbox runs the job (its creation time is moved back instead of waiting).
    const db = new DatabaseSync(path.join(data, 'state.sqlite'));
    db.prepare('UPDATE answer_jobs SET created_at = ? WHERE job_id = ?').run(new Date(Date.now() - 16 * 60_000).toISOString(), jobId);
    db.close();

    const second = await serve(data, config);
    try {
      const result = await pravo(['--profile', 'sandbox', 'answer', 'wait', '--json'], { env: config, timeout: 60_000 });
      expect(result.exitCode).toBe(7);
      expect(JSON.parse(result.stdout)).toMatchObject({ job_id: jobId, status: 'failed', error_code: 'timed_out' });
      expect(result.stderr).toContain('unit was restored');
      expect(unitsCounted(data, 'answers')).toBe(0);
    } finally {
      await second.stop();
    }
  });

  it('`answer wait` picks up a job created with --no-wait, and one whose waiting was stopped with Ctrl-C', async () => {
    const data = dataDir();
    const config = env('resume');
    const sandbox = await serve(data, config, ['--answer-delay', '1']);
    try {
      const noWait = await pravo(['--profile', 'sandbox', 'answer', '--no-wait', 'срок за обжалване на обществена поръчка'], { env: config });
      expect(noWait.exitCode, noWait.stderr).toBe(0);
      const waited = await pravo(['--profile', 'sandbox', 'answer', 'wait', '--json'], { env: config, timeout: 60_000 });
      expect(waited.exitCode, waited.stderr).toBe(0);
      expect(JSON.parse(waited.stdout)).toMatchObject({ job_id: noWait.stdout.trim(), status: 'succeeded' });

      // Ctrl-C once the job is recorded (its record file appears before the first status check, 2 s after creation).
      const jobs = path.join(config.PRAVO_CONFIG_DIR!, 'state', 'answer-jobs');
      const before = fs.readdirSync(jobs).length;
      const child = execa('node', [CLI, '--profile', 'sandbox', 'answer', 'неустойка при забава'], {
        env: { ...config, PRAVO_STATE_DIR: path.join(config.PRAVO_CONFIG_DIR!, 'state'), PRAVO_CACHE_DIR: path.join(config.PRAVO_CONFIG_DIR!, 'cache') },
        extendEnv: true,
        reject: false,
      });
      while (fs.readdirSync(jobs).length === before) await new Promise((resolve) => setTimeout(resolve, 20));
      child.kill('SIGINT');
      const stopped = await child;
      expect(stopped.exitCode).toBe(130);
      expect(stopped.stderr).toMatch(/Stopped waiting for answer job \S+( \(last seen \w+\))?; the job was not cancelled/);
      const jobId = /pravo answer wait (\S+)/.exec(stopped.stderr)![1]!;
      const resumed = await pravo(['--profile', 'sandbox', 'answer', 'wait', '--json'], { env: config, timeout: 60_000 });
      expect(resumed.exitCode, resumed.stderr).toBe(0);
      expect(JSON.parse(resumed.stdout)).toMatchObject({ job_id: jobId, status: 'succeeded' });
      expect(unitsCounted(data, 'answers')).toBe(2);
    } finally {
      await sandbox.stop();
    }
  });
});
