/**
 * The lock of a `pravo batch` results file (`src/state/lock.ts`): a second run on the same file is refused with a
 * message naming the run that holds it; the lock of a run killed with `kill -9` (its process gone, or its lock file
 * left empty) is taken over at once.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireBatchLock } from '../../src/state/lock.js';
import { UsageError } from '../../src/errors/cli.js';

const NOW = Date.parse('2025-03-15T12:00:00.000Z');
const now = (): number => NOW;
const running = (): boolean => true;
const gone = (): boolean => false;

let root: string;
let out: string;
let lockFile: string;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'pravo-lock-test-'));
  out = path.join(root, 'results.jsonl');
  lockFile = `${out}.lock`;
});

afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

const owner = (): { pid: number; host: string; started_at: string } => JSON.parse(fs.readFileSync(lockFile, 'utf8')) as never;

describe('acquireBatchLock', () => {
  it('creates the lock beside the results, holding this process, its host and the start time, readable by its owner only', async () => {
    const lock = await acquireBatchLock(out, now, running);
    expect(owner()).toEqual({ pid: process.pid, host: os.hostname(), started_at: '2025-03-15T12:00:00.000Z' });
    expect(fs.statSync(lockFile).mode & 0o777).toBe(0o600);
    await lock.release();
  });

  it('refuses a second run while the first still runs, naming its process, host and start, and the lock file', async () => {
    const first = await acquireBatchLock(out, now, running);
    const refused = acquireBatchLock(out, () => NOW + 60_000, running);
    await expect(refused).rejects.toBeInstanceOf(UsageError);
    await expect(refused).rejects.toThrow(
      `Another pravo batch (process ${process.pid} on ${os.hostname()}, started 2025-03-15T12:00:00.000Z) is writing to ${out}. ` +
        `Wait for it to finish, or stop it; if it is surely gone, remove ${lockFile}.`,
    );
    // The first run's lock is left as it was.
    expect(owner().pid).toBe(process.pid);
    await first.release();
  });

  it('takes over the lock of a run on this host whose process is gone', async () => {
    const deadPid = 999_999;
    fs.writeFileSync(lockFile, `${JSON.stringify({ pid: deadPid, host: os.hostname(), started_at: '2025-03-14T08:00:00.000Z' })}\n`);
    const asked: number[] = [];
    const lock = await acquireBatchLock(out, now, (pid) => {
      asked.push(pid);
      return false;
    });
    expect(asked).toEqual([deadPid]);
    expect(owner()).toMatchObject({ pid: process.pid, started_at: '2025-03-15T12:00:00.000Z' });
    await lock.release();
  });

  it('refuses the lock of a run on another host, which it cannot check', async () => {
    fs.writeFileSync(lockFile, `${JSON.stringify({ pid: 4242, host: 'other-machine.example', started_at: '2025-03-14T08:00:00.000Z' })}\n`);
    await expect(acquireBatchLock(out, now, gone)).rejects.toThrow('(process 4242 on other-machine.example, started 2025-03-14T08:00:00.000Z)');
    expect(owner().pid).toBe(4242);
  });

  it('takes over an empty lock file (its writer was killed before writing it)', async () => {
    fs.writeFileSync(lockFile, '');
    const lock = await acquireBatchLock(out, now, running);
    expect(owner().pid).toBe(process.pid);
    await lock.release();
  });

  it('takes over a lock file that is not a lock (no process id)', async () => {
    fs.writeFileSync(lockFile, '{"host":"x"');
    const lock = await acquireBatchLock(out, now, running);
    expect(owner().pid).toBe(process.pid);
    await lock.release();
  });

  it('removes the lock on release, so the next run takes it; a second release does no harm', async () => {
    const lock = await acquireBatchLock(out, now, running);
    await lock.release();
    expect(fs.existsSync(lockFile)).toBe(false);
    await lock.release();
    const next = await acquireBatchLock(out, now, running);
    expect(fs.existsSync(lockFile)).toBe(true);
    await next.release();
  });

  it('reports a file-system error other than an existing lock', async () => {
    await expect(acquireBatchLock(path.join(root, 'missing-dir', 'results.jsonl'), now, running)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('acquireBatchLock: the refusal as printed', () => {
  it('removes control characters from what it repeats of the lock file and of the file names', async () => {
    fs.writeFileSync(lockFile, `${JSON.stringify({ pid: 4242, host: 'evil\u001b]0;pwned\u0007host', started_at: '2025\u001b[2J-03-14' })}\n`);
    const error = await acquireBatchLock(out, now, running).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error).toBeInstanceOf(UsageError);
    expect(error!.message).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(error!.message).toContain('(process 4242 on evilhost, started 2025-03-14)');

    const oddDir = path.join(root, 'odd\u001b[31mdir');
    fs.mkdirSync(oddDir);
    const oddOut = path.join(oddDir, 'results.jsonl');
    const first = await acquireBatchLock(oddOut, now, running);
    const refusal = await acquireBatchLock(oddOut, now, running).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(refusal!.message).not.toContain('\u001b');
    expect(refusal!.message).toContain(`${path.join(root, 'odddir', 'results.jsonl')}.lock`);
    await first.release();
  });
});
