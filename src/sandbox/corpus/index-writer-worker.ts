/**
 * Entry module of an index build's writer thread (see `index-writer.ts`; run from the built
 * `dist/sandbox/corpus/index-writer-worker.js`). It opens the build's temporary file (its `workerData`,
 * {@link WriterStart}) with a connection of its own, the journal in memory as the build's, starts one transaction, and
 * then runs, in order, the messages of the build: `prepare` (a statement by id), `rows` (statement id and parameters,
 * run in order; the characters of the batch are then added to the shared progress counter, which the build waits on
 * when it is too far ahead) and `finish` (commit, close, post `done`). The first failure is posted as `failed`
 * (message, name, code and SQLite's `errcode`/`errstr`); the connection is closed without committing and later messages are ignored. Imports nothing of pravo's, so a writer of
 * another build of pravo speaks the same messages. Loaded anywhere but in a worker thread, it throws.
 */
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';

/** What the writer thread is started with (`workerData`). */
export interface WriterStart {
  /** The build's temporary index file, its tables already created. */
  path: string;
  /** One 32-bit integer: the characters of the rows written so far (see `index-writer.ts`, `charsOf`). */
  progress: SharedArrayBuffer;
}

/** A message of the build to its writer. */
export type WriterMessage =
  | { type: 'prepare'; id: number; sql: string }
  | { type: 'rows'; rows: [id: number, params: SQLInputValue[]][]; chars: number }
  | { type: 'finish' };

/** A message of the writer to the build. */
export type WriterReply =
  | { type: 'done' }
  | { type: 'failed'; error: { message: string; name: string; code?: unknown; errcode?: unknown; errstr?: unknown; stack?: string } };

if (!parentPort) throw new Error('corpus/index-writer-worker.js is the entry module of an index writer thread (see corpus/index-writer.ts)');
const port = parentPort;
const start = workerData as WriterStart;
const progress = new Int32Array(start.progress);
const statements: StatementSync[] = [];
let db: DatabaseSync | undefined;
let ended = false;

/** Ends the thread's work with `error`: the connection closed without committing, the error posted. */
function fail(error: unknown): void {
  ended = true;
  try {
    db?.close();
  } catch {
    // Closing rolls back; nothing more to do if that fails too.
  }
  const e = error instanceof Error ? error : new Error(String(error));
  const fields = e as Error & { code?: unknown; errcode?: unknown; errstr?: unknown };
  port.postMessage({
    type: 'failed',
    error: { message: e.message, name: e.name, code: fields.code, errcode: fields.errcode, errstr: fields.errstr, stack: e.stack },
  } satisfies WriterReply);
  port.close();
}

try {
  db = new DatabaseSync(start.path);
  // As the build's own connection (`index-build.ts`): no journal file beside the temporary file, no syncs.
  const mode = db.prepare('PRAGMA journal_mode = MEMORY').get() as { journal_mode: string } | undefined;
  if (mode?.journal_mode !== 'memory') throw new Error(`SQLite refused journal_mode = MEMORY for ${start.path}`);
  db.exec('PRAGMA synchronous = OFF; PRAGMA temp_store = MEMORY;');
  db.exec('BEGIN');
} catch (error) {
  fail(error);
}

port.on('message', (message: WriterMessage) => {
  if (ended) return;
  try {
    if (message.type === 'prepare') {
      statements[message.id] = db!.prepare(message.sql);
    } else if (message.type === 'rows') {
      for (const [id, params] of message.rows) statements[id]!.run(...params);
      Atomics.add(progress, 0, message.chars);
      Atomics.notify(progress, 0);
    } else {
      db!.exec('COMMIT');
      db!.close();
      ended = true;
      port.postMessage({ type: 'done' } satisfies WriterReply);
      port.close();
    }
  } catch (error) {
    fail(error);
  }
});
