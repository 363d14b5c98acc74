/**
 * One run at a time of work that must not be done twice at once: `pravo batch` per results file (two runs appending to
 * one file and one journal would each send what the other is sending), `pravo keys rotate` per profile (two rotations
 * would each create a key and revoke the other's). The lock is a file created exclusively, holding the owner's process
 * id and host. A run killed with `kill -9` leaves it behind; the next run on the same host sees that the owner no
 * longer runs and takes the lock at once (no waiting for a staleness timeout, as mtime-based lock libraries do).
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import { UsageError } from '../errors/cli.js';
import { sanitizeLine } from '../shared/sanitize.js';
import { processIsRunning } from '../shared/processes.js';

/** What the lock file holds. */
interface LockOwner {
  pid: number;
  host: string;
  started_at: string;
}

/** A held lock; {@link FileLock.release} removes it. */
export interface FileLock {
  release(): Promise<void>;
}

/**
 * Takes the lock of the results file `outPath` (`<outPath>.lock`) for `pravo batch`.
 * @param isRunning whether a process of this host runs (default a signal-0 check).
 * @throws UsageError when another run that is still running holds it (naming its process and start); the
 *   file-system error when the lock file cannot be created.
 */
export function acquireBatchLock(outPath: string, now: () => number, isRunning: (pid: number) => boolean = processIsRunning): Promise<FileLock> {
  const file = `${outPath}.lock`;
  return acquireLock(
    file,
    (who) =>
      `Another pravo batch${who} is writing to ${sanitizeLine(outPath)}. Wait for it to finish, or stop it; if it is surely gone, remove ${sanitizeLine(file)}.`,
    now,
    isRunning,
  );
}

/**
 * Takes the lock file `file` (created 0600).
 * @param busyMessage the refusal's message, given ` (process 123 on host, started …)` or `` when the holder is unknown.
 * @param isRunning whether a process of this host runs (default a signal-0 check).
 * @throws UsageError with `busyMessage` when another run that is still running holds it; the file-system error when
 *   the lock file cannot be created.
 */
export async function acquireLock(
  file: string,
  busyMessage: (who: string) => string,
  now: () => number,
  isRunning: (pid: number) => boolean = processIsRunning,
): Promise<FileLock> {
  const owner: LockOwner = { pid: process.pid, host: os.hostname(), started_at: new Date(now()).toISOString() };
  for (let attempt = 0; ; attempt++) {
    try {
      await fs.writeFile(file, `${JSON.stringify(owner)}\n`, { flag: 'wx', mode: 0o600 });
      return { release: () => fs.rm(file, { force: true }) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw busy(busyMessage, undefined);
        throw error;
      }
    }
    const holder = await readOwner(file);
    const dead = holder !== undefined && holder.host === owner.host && !isRunning(holder.pid);
    // An unreadable lock file (empty: its writer was killed between creating and writing it) counts as abandoned.
    if (holder === undefined || dead) {
      await fs.rm(file, { force: true });
      continue;
    }
    throw busy(busyMessage, holder);
  }
}

async function readOwner(file: string): Promise<LockOwner | undefined> {
  try {
    const value = JSON.parse(await fs.readFile(file, 'utf8')) as Partial<LockOwner>;
    if (typeof value.pid === 'number' && typeof value.host === 'string') {
      return { pid: value.pid, host: value.host, started_at: String(value.started_at ?? '') };
    }
  } catch {
    // Missing or unreadable: no owner.
  }
  return undefined;
}

function busy(busyMessage: (who: string) => string, holder: LockOwner | undefined): UsageError {
  // The lock file's text reaches the terminal as it is: no control sequences.
  const who = holder ? ` (process ${holder.pid} on ${sanitizeLine(holder.host)}, started ${sanitizeLine(holder.started_at)})` : '';
  return new UsageError(busyMessage(who));
}
