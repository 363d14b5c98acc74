/**
 * The files of the search index in the data directory, by name, and the cleanup of a build's temporary files; no SQL.
 *
 * - The index of a set of inputs: `<dataDir>/index-<key>.sqlite` ({@link indexFileName}; `key` = the inputs key of
 *   `inputs.ts`), opened by `index-db.ts`.
 * - A build in progress: `index-<key>.sqlite.tmp-<pid>-<random>` in the same directory ({@link tempIndexPath}), written
 *   by `index-build.ts` and renamed into place only when complete, so a half-written index is never used; concurrent
 *   builders each write their own temporary file, and the atomic rename makes the last one win with identical content.
 *   A failed or cancelled build removes its temporary file ({@link removeTempFiles}); one killed outright (kill -9, a
 *   crash, a power cut) leaves it, and every later `openIndex` on the directory removes it
 *   ({@link removeStaleTempFiles}).
 */
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { PRIVATE_FILE_MODE } from '../../shared/private-files.js';
import { processIsRunning } from '../../shared/processes.js';

/** The index file name for an inputs key (`inputsKeyOf` in `inputs.ts`, 16 hex digits): `index-<16 hex>.sqlite`. */
export function indexFileName(inputsKey: string): string {
  return `index-${inputsKey}.sqlite`;
}

/**
 * A new temporary file name for building the index `indexPath` (a path from {@link indexFileName}), in the same
 * directory: `<indexPath>.tmp-<pid>-<12 random hex digits>`, `pid` this process's id (see
 * {@link removeStaleTempFiles}).
 */
export function tempIndexPath(indexPath: string): string {
  return `${indexPath}.tmp-${process.pid}-${randomBytes(6).toString('hex')}`;
}

/**
 * Creates a new, empty temporary file for building the index `indexPath` ({@link tempIndexPath}), exclusively and
 * 0600 whatever the umask, so that the index (the whole corpus) is private from its first byte: SQLite, given an
 * existing file, keeps its mode (it would create a new one 0644). Returns its path.
 * @throws the file-system error (EEXIST only if the random name was taken).
 */
export function createTempIndexFile(indexPath: string): string {
  const tempPath = tempIndexPath(indexPath);
  closeSync(openSync(tempPath, 'wx', PRIVATE_FILE_MODE));
  return tempPath;
}

/**
 * The files of a build: the temporary index (`index-<key>.sqlite.tmp-<pid>-<random>`, `pid` = the builder's process
 * id) and the side files SQLite may create beside it (`-journal`, `-wal`, `-shm`; not with the in-memory journal the
 * build uses now, but left by older builds or a SQLite that refused it). Group 1 is the pid.
 */
const TEMP_PATTERN = /^index-[0-9a-f]{16}\.sqlite\.tmp-(\d+)-[0-9a-f]+(?:-journal|-wal|-shm)?$/;

/** The side files SQLite may create beside a database file. */
const SIDE_SUFFIXES = ['-journal', '-wal', '-shm'] as const;

/**
 * Removes a build's temporary file and any SQLite side file beside it; missing files are fine.
 * @throws the file-system error of a file that exists but cannot be removed.
 */
export function removeTempFiles(tempPath: string): void {
  for (const file of [tempPath, ...SIDE_SUFFIXES.map((suffix) => tempPath + suffix)]) rmSync(file, { force: true });
}

/**
 * Removes the temporary files (see {@link TEMP_PATTERN}) of builds that no longer run: their process was killed, or
 * crashed, before it could clean up. Called by every `openIndex`, whether or not it builds, so such a file (as large
 * as an index) does not stay for ever once an index exists. Best effort: a file that cannot be removed is left, and a
 * directory that cannot be read is skipped; never throws.
 *
 * Why a pid in the name and not a lock: another process may be building in the same directory right now, and its
 * file must be kept. Node has no portable advisory file lock (`flock`), a lock file needs the same liveness check to
 * tell a stale lock, and SQLite's own POSIX locks are per process (closing any handle of the file in the same process
 * drops them), so probing a builder's file could break a concurrent build in this process. The builder's pid, checked
 * with `process.kill(pid, 0)`, needs nothing to be released on a crash. Temporary files of this process are never
 * removed here (a concurrent `openIndex` in this process may be building). Limits: when a dead builder's pid has been
 * reused by another process, its file is kept until that process ends (only late, never wrong); pids are only
 * meaningful on this machine, so a data directory shared with other machines or pid namespaces is not supported.
 */
export function removeStaleTempFiles(dataDir: string): void {
  let names: string[];
  try {
    names = readdirSync(dataDir);
  } catch {
    return;
  }
  for (const name of names) {
    const m = TEMP_PATTERN.exec(name);
    if (!m) continue;
    const pid = Number(m[1]);
    if (pid === process.pid || processIsRunning(pid)) continue;
    try {
      rmSync(join(dataDir, name), { force: true });
    } catch {
      // Not ours to insist on (permissions): the next start tries again.
    }
  }
}
