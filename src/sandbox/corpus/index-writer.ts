/**
 * The rows of an index build (`index-build.ts`: documents, articles, their full-text entries, aliases, courts), written
 * in one transaction, by a thread of their own when the machine has more than one CPU: SQLite's work (about half of
 * inserting the corpus) then runs while the build analyses the next documents. The rows, and so the index, are the
 * same either way: every statement runs in the order the build runs it, on the same file.
 *
 * The writer thread (`index-writer-worker.ts`) has its own connection to the build's temporary file; the build's
 * connection writes nothing until {@link RowWriter.finish} has committed. The build sends rows in batches of about
 * {@link BATCH_CHARS} characters and, between documents, waits ({@link RowWriter.ready}) while more than
 * {@link MAX_PENDING_CHARS} are sent but not yet written, so memory stays bounded.
 *
 * Errors: a statement's failure on the writer thread (a constraint, a full disk), or the thread's end, is rethrown by
 * the next `ready` or `finish`, with SQLite's message and codes; rows sent after it are dropped. Without a second CPU,
 * or when the writer's module is not there (not built), the statements run on the build's connection, as given.
 */
import { existsSync } from 'node:fs';
import os from 'node:os';
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { WriterMessage, WriterReply, WriterStart } from './index-writer-worker.js';

/** A statement of the build whose runs the writer performs, in order (`StatementSync.run`'s parameters). */
export interface RowStatement {
  run(...params: SQLInputValue[]): void;
}

/** Writes a build's rows (see the module comment). */
export interface RowWriter {
  /** A statement run by the writer, in the order of all the writer's runs. */
  prepare(sql: string): RowStatement;
  /**
   * Resolves when the writer is close enough behind the build for it to go on (at once on the build's connection).
   * @throws the writer's first error, as `finish`.
   */
  ready(): Promise<void>;
  /**
   * Commits every row run so far; resolves when they are in the file and the writer's connection is closed.
   * @throws the first error of a statement or of the commit (SQLite's message; `code`, `errcode`, `errstr` kept).
   */
  finish(): Promise<void>;
  /** Stops the writer without committing (a failed or cancelled build); resolves when its thread has ended. */
  close(): Promise<void>;
}

/** Characters of the rows' texts sent to the writer thread in one message. */
export const BATCH_CHARS = 1 << 22;
/** Most characters sent and not yet written before the build waits for the writer thread. */
export const MAX_PENDING_CHARS = 1 << 25;

/**
 * The writer's module: `index-writer-worker.js` beside this module, `dist/sandbox/corpus/index-writer-worker.js`; the
 * built one also when this module runs from its TypeScript source (as in the tests), as the search pool does.
 */
export const WRITER_WORKER_URL = import.meta.url.endsWith('.ts')
  ? new URL('../../../dist/sandbox/corpus/index-writer-worker.js', import.meta.url)
  : new URL('./index-writer-worker.js', import.meta.url);

/**
 * A writer of the rows of the build whose temporary file `path` is open as `db` (its tables created, no transaction
 * open): on a thread of its own when `threads` (default: when the machine has more than one CPU) and the writer's
 * module exists; else on `db`, in a transaction begun here.
 * @throws the error of creating the thread.
 */
export function startRowWriter(db: DatabaseSync, path: string, threads = os.availableParallelism() > 1): RowWriter {
  if (!threads || !existsSync(fileURLToPath(WRITER_WORKER_URL))) return connectionWriter(db);
  return threadWriter(path);
}

/** The rows run on `db` as they are given, in one transaction. */
function connectionWriter(db: DatabaseSync): RowWriter {
  db.exec('BEGIN');
  return {
    prepare: (sql) => db.prepare(sql),
    ready: async () => {},
    finish: async () => {
      db.exec('COMMIT');
    },
    close: async () => {
      if (db.isOpen && db.isTransaction) db.exec('ROLLBACK');
    },
  };
}

/** The characters of a row's texts (its size for batching; numbers and nulls count nothing). */
function charsOf(params: readonly SQLInputValue[]): number {
  let chars = 0;
  for (const p of params) if (typeof p === 'string') chars += p.length;
  return chars;
}

/** The rows run by a writer thread (see the module comment). */
function threadWriter(path: string): RowWriter {
  const shared = new SharedArrayBuffer(4);
  const progress = new Int32Array(shared);
  const worker = new Worker(WRITER_WORKER_URL, { workerData: { path, progress: shared } satisfies WriterStart });
  let failure: Error | undefined;
  let done = false;
  let settle: (() => void) | undefined;
  const ended = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.on('message', (reply: WriterReply) => {
    if (reply.type === 'done') done = true;
    else failure ??= revive(reply.error);
    settle?.();
  });
  worker.on('error', (error) => {
    failure ??= error;
    settle?.();
  });
  worker.on('exit', (code) => {
    if (!done) failure ??= new Error(`the index writer thread stopped (exit code ${code}) before the rows were written`);
    settle?.();
  });
  const post = (message: WriterMessage): void => worker.postMessage(message);
  let statements = 0;
  let batch: [number, SQLInputValue[]][] = [];
  let batchChars = 0;
  /** Characters sent to the thread so far. */
  let sent = 0;
  const flush = (): void => {
    if (batch.length === 0) return;
    post({ type: 'rows', rows: batch, chars: batchChars });
    sent += batchChars;
    batch = [];
    batchChars = 0;
  };
  return {
    prepare(sql) {
      flush();
      const id = statements++;
      post({ type: 'prepare', id, sql });
      return {
        run(...params) {
          batch.push([id, params]);
          batchChars += charsOf(params) + 1;
          if (batchChars >= BATCH_CHARS) flush();
        },
      };
    },
    async ready() {
      for (;;) {
        if (failure !== undefined) throw failure;
        const written = Atomics.load(progress, 0);
        if (sent - written <= MAX_PENDING_CHARS) return;
        // Woken by the thread's progress; the timeout lets its end (an 'exit' event) be seen too.
        const wait = Atomics.waitAsync(progress, 0, written, 100);
        if (wait.async) await wait.value;
      }
    },
    async finish() {
      flush();
      post({ type: 'finish' });
      while (!done && failure === undefined) await new Promise<void>((resolve) => (settle = resolve));
      settle = undefined;
      if (failure !== undefined) {
        await worker.terminate();
        throw failure;
      }
      await ended;
    },
    async close() {
      if (!done) await worker.terminate();
      await ended;
    },
  };
}

/** The writer thread's error as an `Error` of the same message, name and SQLite codes. */
function revive(error: Extract<WriterReply, { type: 'failed' }>['error']): Error {
  const revived = Object.assign(new Error(error.message), { code: error.code, errcode: error.errcode, errstr: error.errstr });
  revived.name = error.name;
  if (error.stack !== undefined) revived.stack = error.stack;
  return revived;
}
