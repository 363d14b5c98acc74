/**
 * Files a user names for a command's output (`pravo doc --out FILE`, `--format md --out FILE`): checked before
 * anything is sent, then written atomically (a temporary file in the same directory, fsync, rename), so the file is
 * either complete or untouched, also when the command fails or is cancelled midway. They may be in a directory other
 * users share (`/tmp`), so they are written through `src/shared/user-files.ts`: never through another user's symbolic
 * link (refused with the link named), and created 0600 whatever the umask. Unlike pravo's own files
 * (`src/state/atomic.ts`), an existing file keeps its mode, and the directory is never created.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { EnvironmentError } from '../errors/cli.js';
import { describeFileSystemProblem } from '../errors/file-system.js';
import { sanitizeLine } from '../shared/sanitize.js';
import { RefusedLinkError, resolveUserFile, writeUserFile } from '../shared/user-files.js';

/**
 * Words for an errno code of a user's output file (`ENOENT` → "its directory does not exist"; other codes as
 * `describeFileSystemProblem` words them), for "Cannot write FILE: <this>." messages.
 */
export function outputFileProblem(code: string): string {
  if (code === 'ENOENT') return 'its directory does not exist';
  if (code === 'ENOTDIR') return 'a part of its path is a file, not a directory';
  if (code === 'ELOOP') return 'its path holds a loop of symbolic links, or a symbolic link was put in its place';
  return describeFileSystemProblem(code);
}

/**
 * Words for why a user's output file could not be written, for "Cannot write FILE: <this>." messages: a refused link
 * (`RefusedLinkError`: which link, whose, to what, and what to do), else the error's code as {@link outputFileProblem}
 * words it (`EIO` when it has none).
 */
export function outputFileProblemOf(error: unknown): string {
  if (error instanceof RefusedLinkError) {
    const which = path.resolve(error.file) === error.link ? 'it' : sanitizeLine(error.link);
    return (
      `${which} is a symbolic link of another user (uid ${error.owner}) to ${sanitizeLine(error.target)}, and pravo does not write through ` +
      "another user's link (someone may have put it there to make you overwrite its target): remove the link, or name a file in a directory of your own"
    );
  }
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return outputFileProblem(typeof code === 'string' ? code : 'EIO');
}

/**
 * Checks, before a request is sent, that `file` can be written: no symbolic link of another user on its way (see
 * `resolveUserFile`), its directory exists and is writable, and `file` is not a directory.
 * @param what how the message names the file before its path: `--out`, `the journal`.
 * @throws EnvironmentError naming the file and saying that nothing was sent.
 */
export async function checkOutputFile(file: string, what: string): Promise<void> {
  let problem: unknown;
  try {
    const resolved = await resolveUserFile(file);
    const stat = await fs.stat(resolved).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (stat?.isDirectory()) problem = { code: 'EISDIR' };
    else await fs.access(path.dirname(resolved), fs.constants.W_OK | fs.constants.X_OK);
  } catch (error) {
    problem = error;
  }
  if (problem !== undefined) {
    throw new EnvironmentError(`Cannot write ${what} ${sanitizeLine(file)}: ${outputFileProblemOf(problem)}. Nothing was sent.`, {
      ...(problem instanceof Error ? { cause: problem } : {}),
    });
  }
}

/**
 * Writes `data` (UTF-8) to `file` atomically (`writeUserFile`): a new file is 0600, an existing one keeps its mode;
 * never through another user's symbolic link.
 * @throws EnvironmentError naming the file when it cannot be written; the file is then unchanged and no temporary file
 *   is left.
 */
export async function writeOutputFile(file: string, data: string): Promise<void> {
  try {
    await writeUserFile(file, data);
  } catch (error) {
    throw new EnvironmentError(`Cannot write ${sanitizeLine(file)}: ${outputFileProblemOf(error)}. Its previous content, if any, is unchanged.`, { cause: error });
  }
}
