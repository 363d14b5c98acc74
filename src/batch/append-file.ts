/**
 * Durable append-only line files: `pravo batch`'s results (`--out`) and its journal. Each line is appended with one
 * `write` on a descriptor opened in append mode and then `fdatasync`-ed, before the next line is written, so once
 * {@link AppendFile.append} resolves the line survives a crash or a `kill -9`, and lines are never interleaved. A line
 * cut short by a kill in the middle of a write (no final newline) is removed when the file is opened again.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import readline from 'node:readline';
import { openUserFileForAppend, USER_FILE_MODE } from '../shared/user-files.js';

/** An open append-only line file. */
export class AppendFile {
  readonly path: string;
  readonly #handle: fsp.FileHandle;
  /** The chain of appends: each waits for the one before, so lines keep their order and each is durable in turn. */
  #tail: Promise<void> = Promise.resolve();
  /** The error of a failed append: every later append fails with it (the partial line is cut at the next open). */
  #broken: unknown;

  private constructor(file: string, handle: fsp.FileHandle) {
    this.path = file;
    this.#handle = handle;
  }

  /**
   * Opens `file` for appending, creating it with `mode` (default 0600, owner only: the file tells a rerun which lines
   * are done, so no one else may write it) when missing; never through another user's symbolic link (see
   * `openUserFileForAppend`: the file may be in a shared directory). When the file does not end with a newline (a write
   * cut short by a kill), the incomplete last line is cut off first.
   * @throws RefusedLinkError; the file-system error (`EACCES`, `ENOSPC`, `EISDIR`, …).
   */
  static async open(file: string, mode = USER_FILE_MODE): Promise<AppendFile> {
    const handle = await openUserFileForAppend(file, mode);
    try {
      const { size } = await handle.stat();
      const keep = await endOfLastLine(handle, size);
      if (keep < size) await handle.truncate(keep);
    } catch (error) {
      await handle.close().catch(() => {});
      throw error;
    }
    return new AppendFile(file, handle);
  }

  /**
   * Appends `line` (which must not contain a newline) and a newline, durably: resolves once the data is on disk. With
   * `sync: false` it resolves once written (the operating system flushes it later): for a line that can be rebuilt
   * from another file if a crash loses it; a later synced append makes it durable too.
   * @throws the file-system error of the write or the sync (`ENOSPC`, `EIO`); the line may then be partly written and
   *   is cut off at the next open. Every later append of this handle fails with the same error.
   */
  append(line: string, options: { sync?: boolean } = {}): Promise<void> {
    const next = this.#tail.then(async () => {
      // After a failed write the file may end in a partial line: appending more would glue a line onto it.
      if (this.#broken) throw this.#broken;
      try {
        await this.#handle.write(`${line}\n`);
        if (options.sync !== false) await this.#handle.datasync();
      } catch (error) {
        this.#broken = error;
        throw error;
      }
    });
    // A failed append must not block the ones after it from reporting their own outcome.
    this.#tail = next.catch(() => {});
    return next;
  }

  /** Waits for pending appends and closes the file. Safe to call twice. */
  async close(): Promise<void> {
    await this.#tail;
    await this.#handle.close().catch(() => {});
  }
}

/** Bytes read per step when looking for the last newline. */
const TAIL_CHUNK = 64 * 1024;

/** The byte offset just after the file's last newline (0 when it has none), reading backwards from `size`. */
async function endOfLastLine(handle: fsp.FileHandle, size: number): Promise<number> {
  const buffer = Buffer.alloc(TAIL_CHUNK);
  let end = size;
  while (end > 0) {
    const start = Math.max(0, end - TAIL_CHUNK);
    const { bytesRead } = await handle.read(buffer, 0, end - start, start);
    const at = buffer.subarray(0, bytesRead).lastIndexOf(0x0a);
    if (at >= 0) return start + at + 1;
    end = start;
  }
  return 0;
}

/**
 * The complete lines of a line file, streamed (a file of results may hold hundreds of megabytes of documents), without
 * their newlines; an incomplete last line (no newline after it) is not yielded. Nothing when the file does not exist.
 * @throws the file-system error other than `ENOENT`.
 */
export async function* readLines(file: string): AsyncGenerator<string> {
  let stream: fs.ReadStream;
  try {
    const handle = await fsp.open(file, 'r');
    stream = handle.createReadStream({ encoding: 'utf8' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  let pending: string | undefined;
  for await (const line of readline.createInterface({ input: stream, crlfDelay: Infinity })) {
    if (pending !== undefined) yield pending;
    pending = line;
  }
  // readline yields a last line without its newline too: keep it only when the file ends with one.
  if (pending !== undefined && (await endsWithNewline(file))) yield pending;
}

async function endsWithNewline(file: string): Promise<boolean> {
  const handle = await fsp.open(file, 'r');
  try {
    const { size } = await handle.stat();
    if (size === 0) return false;
    const byte = Buffer.alloc(1);
    await handle.read(byte, 0, 1, size - 1);
    return byte[0] === 0x0a;
  } finally {
    await handle.close();
  }
}
