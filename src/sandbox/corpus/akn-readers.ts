/**
 * The Akoma Ntoso files of a corpus read ahead by threads of their own (`akn-reader-worker.ts`), while the build reads
 * its other inputs: parsing some 600 XML files is most of reading the corpus, and each file is read alone. The acts
 * are those `readAknFile` gives on the caller's thread; `collect.ts` takes them in the order of its inputs, so the
 * corpus is the same.
 *
 * Threads: {@link aknReaderThreads}. They take the files in order from a shared counter, so the first files are ready
 * first; the caller's thread takes from it too: while the act it asks for is not there, it reads the next file no
 * thread has taken (the one it asks for, when no thread has taken it yet). When a thread fails (it ends early, or
 * cannot start), the files whose acts have not arrived are read on the caller's thread instead.
 */
import { existsSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { readAknFile, type AknAct } from './akn.js';
import { CorpusError } from './reader.js';

/** What a reader thread is started with (`workerData`). */
export interface AknReaderStart {
  /** The Akoma Ntoso files, in the order they are taken. */
  files: string[];
  /** One 32-bit integer shared by the threads: the index of the next file to take. */
  next: SharedArrayBuffer;
}

/**
 * What came of reading the file `files[index]`: its act; the message of the `CorpusError` it was skipped for; or
 * another error (name, message, code), which fails the build.
 */
export type AknOutcome =
  | { index: number; act: AknAct }
  | { index: number; skipped: string }
  | { index: number; failed: { message: string; name: string; code?: unknown; stack?: string | undefined } };

/** Fewest Akoma Ntoso files worth starting threads for. */
export const MIN_THREADED_FILES = 32;
/** Most reader threads, whatever the number of CPUs. */
export const MAX_READER_THREADS = 4;

/**
 * The reader threads for `files` Akoma Ntoso files besides the caller's: one per other CPU this process may use
 * (`os.availableParallelism()`), at most {@link MAX_READER_THREADS}; none on one CPU or for fewer than
 * {@link MIN_THREADED_FILES} files.
 */
export function aknReaderThreads(files: number): number {
  const cpus = os.availableParallelism();
  return cpus < 2 || files < MIN_THREADED_FILES ? 0 : Math.min(cpus - 1, MAX_READER_THREADS);
}

/**
 * The readers' module: `akn-reader-worker.js` beside this module. Threads run only from the built JavaScript: when
 * this module runs from its TypeScript source (the tests), the files are read on the caller's thread.
 */
export const AKN_READER_URL = new URL('./akn-reader-worker.js', import.meta.url);

/** What came of reading one file for the build: its act, or the message of the `CorpusError` it is skipped for. */
export type AknRead = { act: AknAct } | { skipped: string };

/** Reads the act of one of the files, in any order; `close` stops the threads. */
export interface AknReaders {
  /**
   * What came of reading `files[index]` with `readAknFile`: its act, or, when it throws a `CorpusError`, that error's
   * message (the file is skipped).
   * @throws any other error of `readAknFile` (cancellation on the caller's thread; from a thread, an `Error` of the
   *   same name, message and code).
   */
  read(index: number): Promise<AknRead>;
  /** Stops the threads (after the last read, or when the build stops early); resolves when they have ended. */
  close(): Promise<void>;
}

/**
 * Starts reading `files` (Akoma Ntoso files) on `threads` threads; with none (or from the TypeScript sources), each
 * file is read when asked for, on the caller's thread, with `signal`.
 */
export function startAknReaders(files: readonly string[], threads: number, signal?: AbortSignal): AknReaders {
  const local = async (index: number): Promise<AknRead> => {
    try {
      return { act: await readAknFile(files[index]!, signal) };
    } catch (error) {
      if (error instanceof CorpusError) return { skipped: error.message };
      throw error;
    }
  };
  if (threads < 1 || import.meta.url.endsWith('.ts') || !existsSync(fileURLToPath(AKN_READER_URL))) {
    return { read: local, close: async () => {} };
  }
  const outcomes = new Map<number, AknOutcome>();
  /** Files this thread has read ahead of their turn. */
  const readHere = new Map<number, Promise<AknRead>>();
  const waiting = new Map<number, () => void>();
  let broken = false;
  const workers: Worker[] = [];
  const ended: Promise<void>[] = [];
  const start: AknReaderStart = { files: [...files], next: new SharedArrayBuffer(4) };
  const next = new Int32Array(start.next);
  /** A thread failed: the others are stopped, and what has not arrived is read here. */
  const breakDown = (): void => {
    if (broken) return;
    broken = true;
    for (const worker of workers) void worker.terminate();
    for (const wake of waiting.values()) wake();
  };
  for (let t = 0; t < threads; t++) {
    const worker = new Worker(AKN_READER_URL, { workerData: start });
    worker.on('message', (outcome: AknOutcome) => {
      outcomes.set(outcome.index, outcome);
      waiting.get(outcome.index)?.();
    });
    worker.on('error', breakDown);
    ended.push(
      new Promise((resolve) =>
        worker.once('exit', (code) => {
          if (code !== 0) breakDown();
          resolve();
        }),
      ),
    );
    workers.push(worker);
  }
  return {
    async read(index) {
      for (;;) {
        const here = readHere.get(index);
        if (here !== undefined) {
          readHere.delete(index);
          return here;
        }
        if (outcomes.has(index) || broken) break;
        // While its act is on its way, this thread reads the next file no thread has taken (this one, when no thread
        // has taken it yet): the counter moves past it, so no thread will.
        const ahead = Atomics.add(next, 0, 1);
        if (ahead < files.length) {
          const read = local(ahead);
          readHere.set(ahead, read);
          // Its error, if any, is thrown when its turn comes.
          await read.catch(() => undefined);
          continue;
        }
        await new Promise<void>((resolve) => waiting.set(index, resolve));
      }
      waiting.delete(index);
      const outcome = outcomes.get(index);
      outcomes.delete(index);
      if (outcome === undefined) return local(index);
      if ('act' in outcome) return { act: outcome.act };
      if ('skipped' in outcome) return { skipped: outcome.skipped };
      const { name, message, code, stack } = outcome.failed;
      throw Object.assign(new Error(message), { name, code, stack });
    },
    async close() {
      for (const worker of workers) void worker.terminate();
      await Promise.all(ended);
    },
  };
}
