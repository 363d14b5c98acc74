/**
 * Files a user names for a command's output (`pravo doc --out FILE`): checked before anything is sent, then written
 * atomically (the `write-file-atomic` package: a temporary file in the same directory, fsync, rename), so the file is
 * either complete or untouched, also when the command fails or is cancelled midway. Unlike pravo's own files
 * (`src/state/atomic.ts`), a user's file keeps its mode when it exists and otherwise gets the umask's default, and its
 * directory is never created.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import writeFileAtomicPackage from 'write-file-atomic';
import { EnvironmentError } from '../errors/cli.js';
import { describeFileSystemProblem } from '../errors/file-system.js';

/**
 * Words for an errno code of a user's output file (`ENOENT` → "its directory does not exist"; other codes as
 * `describeFileSystemProblem` words them), for "Cannot write FILE: <this>." messages.
 */
export function outputFileProblem(code: string): string {
  if (code === 'ENOENT') return 'its directory does not exist';
  if (code === 'ENOTDIR') return 'a part of its path is a file, not a directory';
  return describeFileSystemProblem(code);
}

/**
 * Checks, before a request is sent, that `file` can be written: its directory exists and is writable, and `file` is
 * not a directory.
 * @throws EnvironmentError naming the file and saying that nothing was sent.
 */
export async function checkOutputFile(file: string, option: string): Promise<void> {
  const resolved = path.resolve(file);
  let code: string | undefined;
  try {
    const stat = await fs.stat(resolved).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (stat?.isDirectory()) code = 'EISDIR';
    else await fs.access(path.dirname(resolved), fs.constants.W_OK | fs.constants.X_OK);
  } catch (error) {
    code = (error as NodeJS.ErrnoException).code ?? 'EIO';
  }
  if (code !== undefined) {
    throw new EnvironmentError(`Cannot write ${option} ${file}: ${outputFileProblem(code)}. Nothing was sent.`);
  }
}

/**
 * Writes `data` (UTF-8) to `file` atomically; an existing file keeps its mode.
 * @throws EnvironmentError naming the file when it cannot be written; the file is then unchanged and no temporary file
 *   is left.
 */
export async function writeOutputFile(file: string, data: string): Promise<void> {
  try {
    await writeFileAtomicPackage(file, data, { encoding: 'utf8', fsync: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'EIO';
    throw new EnvironmentError(`Cannot write ${file}: ${outputFileProblem(code)}. Its previous content, if any, is unchanged.`, { cause: error });
  }
}
