/**
 * File modes of the sandbox's data directory: it holds key hashes and usage, so it is private to the user.
 * The directory is 0700; its files (`state.sqlite` and its `-wal`/`-shm`, the index files) are 0600.
 */
import fs from 'node:fs';

/** Mode of the data directory. */
export const PRIVATE_DIR_MODE = 0o700;
/** Mode of every file the sandbox writes into the data directory. */
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Creates `dir` (and missing parents) with mode 0700, chmod-ing the directories it created so that the umask cannot
 * widen them. A directory that already existed keeps its mode (it may be shared on purpose).
 * @throws the file-system error when the directory cannot be created.
 */
export function ensurePrivateDir(dir: string): void {
  const firstCreated = fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (firstCreated !== undefined) fs.chmodSync(dir, PRIVATE_DIR_MODE);
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
