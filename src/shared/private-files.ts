/**
 * Private directories and files, shared by both sides: the CLI's own directories (config, state, cache; see
 * `src/state/paths.ts`) and the sandbox's data directory (`src/sandbox/files.ts`). A leaf module: it imports only
 * Node's `fs` and `path`, so the sandbox can use it without importing CLI code.
 */
import fs from 'node:fs';
import path from 'node:path';

/** Mode of a private directory (owner only). */
export const PRIVATE_DIR_MODE = 0o700;
/** Mode of a private file (owner read and write). */
export const PRIVATE_FILE_MODE = 0o600;

/**
 * `mkdir -p` with mode 0700 for the directories it creates, in a bounded number of steps. Node's own recursive
 * `mkdirSync` loops for ever (at 100 % CPU, deaf to signals) when a parent exists but refuses new entries with ENOENT,
 * as `/proc` does; this walks up once to the nearest existing ancestor, then creates each missing directory once,
 * non-recursively, so any refusal is thrown at once. A directory created meanwhile by another process is accepted.
 * Each directory it creates is chmod-ed to 0700 (the umask cannot widen it); an existing one keeps its mode.
 * @returns the first directory created (the highest), or `undefined` when `dir` existed already.
 * @throws the file-system error (`ENOTDIR` when the path or one of its parents is not a directory, `EACCES`,
 *   `EROFS`, `ENOSPC`, `ENOENT` from a file system that refuses new entries, …) with `path` set to the directory
 *   that could not be created or used.
 */
export function makePrivateDir(dir: string): string | undefined {
  const target = path.resolve(dir);
  const missing: string[] = [];
  for (let current = target; ; ) {
    const stat = statOrUndefined(current);
    if (stat === undefined) {
      const parent = path.dirname(current);
      if (parent === current) throw errnoError('ENOENT', 'no such file system root', current);
      missing.push(current);
      current = parent;
      continue;
    }
    if (!stat.isDirectory()) throw errnoError('ENOTDIR', 'not a directory', current);
    break;
  }
  missing.reverse();
  for (const missingDir of missing) {
    try {
      fs.mkdirSync(missingDir, { mode: PRIVATE_DIR_MODE });
      fs.chmodSync(missingDir, PRIVATE_DIR_MODE);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (!fs.statSync(missingDir).isDirectory()) throw errnoError('ENOTDIR', 'not a directory', missingDir);
    }
  }
  return missing[0];
}

/** The stat of `file` (following links), or `undefined` when nothing is there (ENOENT). @throws other errors. */
function statOrUndefined(file: string): fs.Stats | undefined {
  try {
    return fs.statSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    // A parent that is a file: report the path asked for as not a directory.
    if (code === 'ENOTDIR') throw errnoError('ENOTDIR', 'not a directory', file);
    throw error;
  }
}

/** An Error shaped like Node's file-system errors: `code`, `syscall` and `path` set. */
function errnoError(code: string, description: string, file: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`${code}: ${description}, mkdir '${file}'`);
  error.code = code;
  error.syscall = 'mkdir';
  error.path = file;
  return error;
}

/**
 * Sets mode 0600 on each of `paths` that exists. Skipped: missing files, and files of another user (EPERM: only their
 * owner may change their mode).
 * @throws the error of a chmod that fails otherwise.
 */
export function makePrivate(...paths: string[]): void {
  for (const file of paths) {
    try {
      fs.chmodSync(file, PRIVATE_FILE_MODE);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'EPERM') throw error;
    }
  }
}
