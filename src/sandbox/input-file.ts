/**
 * Reading the sandbox's input files — corpus files (JSON Lines, Akoma Ntoso acts, act payloads), the courts file, the
 * thesaurus, and the payloads `pravo sandbox import` reads — so that no file can hang or swamp a reader:
 *
 * - Regular files only. The type is checked with `stat` (following a symbolic link to what it names) before the file
 *   is opened, and again with `fstat` on the descriptor, which is opened with `O_NONBLOCK`: a FIFO (named pipe),
 *   a device (`/dev/zero`), a socket or a directory is refused ({@link InputFileError}, `ENOTREG` or `EISDIR`) and is
 *   never read; opening a FIFO without `O_NONBLOCK` would block a thread of libuv's pool until a writer came, which
 *   not even `process.exit` gets past.
 * - A cap on the bytes actually read, counted as they are read (not the size `stat` gives, which a growing file or a
 *   device does not keep to), and for a gzip file on the bytes it decompresses to as well (a gzip bomb): reading stops
 *   at the cap with {@link InputFileError} `ETOOBIG` naming the file and the cap.
 * - Cancellation: streamed reads check their `signal` before every chunk and reject with an `AbortError`
 *   (a `DOMException`, `cause` the signal's reason).
 *
 * The caps of each kind of input are here ({@link INPUT_MAX_BYTES}), so that hashing an input (`corpus/inputs.ts`)
 * refuses one its reader would refuse, without loading the readers. Light: it imports only Node's modules and
 * `../shared/bytes.ts`.
 */
import { closeSync, constants, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { createGunzip, gunzip, gunzipSync } from 'node:zlib';
import { formatBytes } from '../shared/bytes.js';

const MiB = 1024 * 1024;

/**
 * The most bytes read of each kind of input, raw and (for gzip) decompressed alike; the real inputs are far smaller
 * (in parentheses): a JSON Lines corpus file (bg-statutes.jsonl.gz: 71 MB decompressed) and one line of it, one
 * document (3 MB); an Akoma Ntoso act (2.4 MB); an act payload (0.6 MB); the courts file (30 KB); the thesaurus
 * (4.8 MB).
 */
export const INPUT_MAX_BYTES = {
  jsonl: 1024 * MiB,
  jsonlLine: 64 * MiB,
  akn: 64 * MiB,
  payload: 32 * MiB,
  courts: 16 * MiB,
  thesaurus: 64 * MiB,
} as const;

/** Why an input file was refused. */
export type InputFileProblem = 'EISDIR' | 'ENOTREG' | 'ETOOBIG';

/**
 * An input file refused: a directory (`EISDIR`), anything else that is not a regular file (`ENOTREG`: a FIFO, a
 * device, a socket), or one larger than its cap, raw or decompressed (`ETOOBIG`). {@link problem} says what is wrong
 * without naming the file (`is a FIFO (named pipe), not a regular file; only regular files are read`), for messages
 * that name it their own way; `message` is the file and the problem.
 */
export class InputFileError extends Error {
  readonly code: InputFileProblem;
  readonly file: string;
  /** What is wrong, a predicate: `is a character device, not a regular file; …`, `is larger than 32 MiB, …`. */
  readonly problem: string;
  /** `ETOOBIG` only: the cap, in bytes. */
  readonly limit: number | undefined;

  constructor(file: string, code: InputFileProblem, problem: string, limit?: number) {
    super(`${file} ${problem}`);
    this.name = 'InputFileError';
    this.code = code;
    this.file = file;
    this.problem = problem;
    this.limit = limit;
  }
}

/** What a file that is not a regular one is, in words. */
function fileKind(info: Stats): string {
  if (info.isFIFO()) return 'a FIFO (named pipe)';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  if (info.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** @throws InputFileError unless `info` is a regular file's. */
function checkRegular(file: string, info: Stats): void {
  if (info.isFile()) return;
  if (info.isDirectory()) throw new InputFileError(file, 'EISDIR', 'is a directory, not a file');
  const kind = fileKind(info);
  throw new InputFileError(file, 'ENOTREG', `is ${kind === 'not a regular file' ? 'not' : `${kind}, not`} a regular file; only regular files are read`);
}

/** The cap exceeded. */
function tooBig(file: string, limit: number, decompressed: boolean): InputFileError {
  const what = decompressed ? 'decompresses to more than' : 'is larger than';
  return new InputFileError(file, 'ETOOBIG', `${what} ${formatBytes(limit)}, the limit for this kind of file`, limit);
}

/** The rejection of a cancelled read: an `AbortError` whose cause is the signal's reason. */
function cancelled(file: string, signal: AbortSignal): DOMException {
  return new DOMException(`Reading ${file} was cancelled`, { name: 'AbortError', cause: signal.reason });
}

/** Flags of every open: read only, never blocking (a FIFO), never becoming the controlling terminal. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

/** An open regular file and the size `fstat` gave it, in bytes. */
interface OpenFile {
  handle: FileHandle;
  size: number;
}

/**
 * Opens a regular file for reading (see the module comment): `stat` first, then `open` with `O_NONBLOCK`, then `fstat`.
 * @throws InputFileError (`EISDIR`, `ENOTREG`); the file system's error (`ENOENT`, `EACCES`, …) as is.
 */
async function openRegularFile(file: string): Promise<OpenFile> {
  checkRegular(file, await stat(file));
  const handle = await open(file, OPEN_FLAGS);
  try {
    const info = await handle.stat();
    checkRegular(file, info);
    return { handle, size: info.size };
  } catch (error) {
    await handle.close().catch(() => {});
    throw error;
  }
}

/** Bytes read at most at a time. */
const CHUNK_BYTES = 1 << 20;

/** Bytes asked for by the read that looks for the end of a file past its size (small enough for Node's buffer pool). */
const PROBE_BYTES = 4095;

/**
 * How many bytes to ask for next, `total` read so far: the rest of the file by its size and one more (so that a
 * file read whole ends with a short read), a small probe once the size is reached (the file may have grown), never more
 * than {@link CHUNK_BYTES} nor than one byte past the cap (enough to know the file is too large).
 */
function nextReadLength(total: number, size: number, maxBytes: number): number {
  const want = total < size ? size - total + 1 : PROBE_BYTES;
  return Math.max(1, Math.min(CHUNK_BYTES, maxBytes - total + 1, want));
}

/** Whether `bytes` start with the gzip magic bytes `1f 8b`. */
export function isGzipData(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/** Options of the readers of this module. */
export interface ReadOptions {
  /** The most bytes read from the file; one more is {@link InputFileError} `ETOOBIG`. */
  maxBytes: number;
  /** Checked before each chunk; when it aborts, the read rejects with an `AbortError`. */
  signal?: AbortSignal | undefined;
}

/** The chunks of an open file, read from the start, counted against `maxBytes`; the handle is left open. */
async function* chunksOf({ handle, size }: OpenFile, file: string, { maxBytes, signal }: ReadOptions): AsyncGenerator<Buffer> {
  let total = 0;
  let known = size;
  for (;;) {
    if (signal?.aborted) throw cancelled(file, signal);
    const buffer = Buffer.allocUnsafe(nextReadLength(total, known, maxBytes));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
    if (bytesRead === 0) return;
    total += bytesRead;
    if (total > maxBytes) throw tooBig(file, maxBytes, false);
    // Past its size the file grew while being read: read on in whole chunks.
    if (total > known) known = Infinity;
    yield bytesRead === buffer.length ? buffer : buffer.subarray(0, bytesRead);
  }
}

/**
 * The chunks of a regular file as stored (see the module comment), streamed: at most `maxBytes`, the signal checked
 * before each chunk. The file is closed when the iteration ends, however it ends.
 * @throws InputFileError; the file system's error; an `AbortError` when `signal` aborts.
 */
export async function* readRegularFileChunks(file: string, options: ReadOptions): AsyncGenerator<Buffer> {
  if (options.signal?.aborted) throw cancelled(file, options.signal);
  const opened = await openRegularFile(file);
  try {
    yield* chunksOf(opened, file, options);
  } finally {
    await opened.handle.close().catch(() => {});
  }
}

/**
 * The bytes of a regular file, whole (see {@link readRegularFileChunks}).
 * @throws InputFileError; the file system's error; an `AbortError` when `signal` aborts.
 */
export async function readRegularFile(file: string, options: ReadOptions): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of readRegularFileChunks(file, options)) chunks.push(chunk);
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}

/**
 * The decompressed chunks of a regular file that may be gzip-compressed (by its first bytes, whatever its name):
 * at most `maxBytes` read from the file and at most `maxBytes` decompressed; a plain file's chunks as they are read.
 * The signal is checked before each chunk; the file is closed when the iteration ends.
 * @throws InputFileError (`ETOOBIG` for either cap); the file system's error; zlib's error for corrupt gzip data
 *   (`code` `Z_DATA_ERROR`, `Z_BUF_ERROR`); an `AbortError` when `signal` aborts.
 */
export async function* readDecompressedChunks(file: string, options: ReadOptions): AsyncGenerator<Buffer> {
  const { maxBytes, signal } = options;
  if (signal?.aborted) throw cancelled(file, signal);
  const opened = await openRegularFile(file);
  try {
    const raw = chunksOf(opened, file, options);
    const first = await raw.next();
    if (first.done) return;
    if (!isGzipData(first.value)) {
      yield first.value;
      yield* raw;
      return;
    }
    const gunzipStream = createGunzip();
    const feeding = pipeline(
      Readable.from(
        (async function* () {
          yield first.value;
          yield* raw;
        })(),
      ),
      gunzipStream,
    );
    feeding.catch(() => {}); // its error is met by the iteration below, which ends with the stream
    let total = 0;
    try {
      for await (const chunk of gunzipStream as AsyncIterable<Buffer>) {
        if (signal?.aborted) throw cancelled(file, signal);
        total += chunk.length;
        if (total > maxBytes) throw tooBig(file, maxBytes, true);
        yield chunk;
      }
      await feeding;
    } finally {
      gunzipStream.destroy();
      await raw.return(undefined);
    }
  } finally {
    await opened.handle.close().catch(() => {});
  }
}

const gunzipAsync = promisify(gunzip);

/** zlib's error past `maxOutputLength` as {@link InputFileError} `ETOOBIG` naming `file`; any other error as it is. */
function decompressError(file: string, maxBytes: number, error: unknown): unknown {
  return (error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' ? tooBig(file, maxBytes, true) : error;
}

/**
 * `bytes` gunzipped when they start with the gzip magic bytes, else as they are; at most `maxBytes` decompressed.
 * @throws InputFileError `ETOOBIG` naming `file` past the cap; zlib's error for corrupt gzip data.
 */
export async function gunzipWithin(file: string, bytes: Buffer, maxBytes: number): Promise<Buffer> {
  if (!isGzipData(bytes)) return bytes;
  try {
    return await gunzipAsync(bytes, { maxOutputLength: maxBytes });
  } catch (error) {
    throw decompressError(file, maxBytes, error);
  }
}

/**
 * {@link readRegularFile}, synchronously (for a reader that runs inside a synchronous build step): a regular file
 * only, at most `maxBytes` read.
 * @throws InputFileError; the file system's error.
 */
export function readRegularFileSync(file: string, maxBytes: number): Buffer {
  checkRegular(file, statSync(file));
  const fd = openSync(file, OPEN_FLAGS);
  const chunks: Buffer[] = [];
  try {
    const info = fstatSync(fd);
    checkRegular(file, info);
    let total = 0;
    let known = info.size;
    for (;;) {
      const buffer = Buffer.allocUnsafe(nextReadLength(total, known, maxBytes));
      const bytesRead = readSync(fd, buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > maxBytes) throw tooBig(file, maxBytes, false);
      if (total > known) known = Infinity;
      chunks.push(bytesRead === buffer.length ? buffer : buffer.subarray(0, bytesRead));
    }
  } finally {
    closeSync(fd);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}

/**
 * `bytes` gunzipped, synchronously, at most `maxBytes` decompressed.
 * @throws InputFileError `ETOOBIG` naming `file` past the cap; zlib's error for data that is not gzip or is corrupt.
 */
export function gunzipSyncWithin(file: string, bytes: Buffer, maxBytes: number): Buffer {
  try {
    return gunzipSync(bytes, { maxOutputLength: maxBytes });
  } catch (error) {
    throw decompressError(file, maxBytes, error);
  }
}
