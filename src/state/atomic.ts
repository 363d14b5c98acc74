/**
 * Atomic writes and forgiving JSON reads for pravo's own files (config, state, cache). A write goes to a temporary
 * file in the same directory, is fsynced, then renamed over the target (the `write-file-atomic` package), so a reader
 * sees the old content or the new, never a half-written file, even if pravo is killed mid-write.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { EnvironmentError } from '../errors/cli.js';
import { ensurePrivateDir } from './paths.js';

/**
 * A file of pravo's could not be written. `path` is the target file; `reason` the errno code (`EACCES`, `EROFS`,
 * `ENOSPC`, `EISDIR`, …). The target keeps its previous content, and no temporary file is left behind. An
 * `EnvironmentError` (exit 1).
 */
export class StateWriteError extends EnvironmentError {
  readonly path: string;
  readonly reason: string;
  constructor(file: string, reason: string, options?: ErrorOptions) {
    super(
      `Cannot write ${file} (${reason}): its previous content, if any, is unchanged. ` +
        'Check that the directory is writable and the disk is not full.',
      options,
    );
    this.path = file;
    this.reason = reason;
  }
}

/**
 * Writes `data` (a string is written as UTF-8) to `file` atomically: temporary file in the same directory, fsync,
 * rename. The file gets `options.mode` (default 0o600) whatever the umask; the parent directory is created with mode
 * 0700 when missing (see `ensurePrivateDir`). Concurrent writes to the same file within this process are serialized.
 * @throws StateDirectoryError when the parent directory cannot be created.
 * @throws StateWriteError when the file cannot be written; the target is then unchanged.
 */
export async function writeFileAtomic(
  file: string,
  data: string | Uint8Array,
  options: { mode?: number } = {},
): Promise<void> {
  ensurePrivateDir(path.dirname(path.resolve(file)));
  const bytes = typeof data === 'string' ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  try {
    // Loaded at the first write: commands that only read (a cached document, a cached catalog) never load it.
    const { default: writeFileAtomicPackage } = await import('write-file-atomic');
    // A fresh options object each time: write-file-atomic fills in missing fields of the one it is given.
    await writeFileAtomicPackage(file, bytes, { mode: options.mode ?? 0o600, encoding: 'utf8', fsync: true });
  } catch (error) {
    throw new StateWriteError(file, (error as NodeJS.ErrnoException).code ?? 'EIO', { cause: error });
  }
}

/**
 * Reads and parses a JSON file. Returns `undefined` when the file does not exist, and also when it is empty or not
 * valid JSON (the caller may then overwrite it); a leading UTF-8 BOM is ignored. The value is cast to `T`
 * unchecked: callers check its shape.
 * @throws the fs error (`EACCES`, `EISDIR`, …) for any other read failure.
 */
export async function readJsonFile<T>(file: string): Promise<T | undefined> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    return JSON.parse(text.startsWith('\ufeff') ? text.slice(1) : text) as T;
  } catch {
    return undefined;
  }
}
