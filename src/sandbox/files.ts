/**
 * File modes of the sandbox's data directory: it holds key hashes and usage, so it is private to the user.
 * The directory is 0700; its files (`state.sqlite` and its `-wal`/`-shm`, the index files) are 0600. The work is done
 * by the shared leaf module `src/shared/private-files.ts`.
 */
import { makePrivateDir } from '../shared/private-files.js';

export { makePrivate, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../shared/private-files.js';

/**
 * Creates `dir` (and missing parents) with mode 0700, in a bounded number of steps (see `makePrivateDir`). A
 * directory that already existed keeps its mode (it may be shared on purpose).
 * @throws the file-system error, with `path` naming the directory, when it cannot be created.
 */
export function ensurePrivateDir(dir: string): void {
  makePrivateDir(dir);
}
