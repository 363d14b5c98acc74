/**
 * Entry module of an Akoma Ntoso reader thread (see `akn-readers.ts`; run from the built
 * `dist/sandbox/corpus/akn-reader-worker.js`). Its `workerData` ({@link AknReaderStart}) lists the Akoma Ntoso files of
 * a corpus and a counter shared by every reader thread: the thread takes the next file from the counter, reads it
 * (`readAknFile`) and posts what came of it ({@link AknOutcome}), until no file is left, a few files at once
 * ({@link IN_FLIGHT}); then it ends. Loaded anywhere but in a worker thread, it throws.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { readAknFile } from './akn.js';
import { CorpusError } from './reader.js';
import type { AknOutcome, AknReaderStart } from './akn-readers.js';

if (!parentPort) throw new Error('corpus/akn-reader-worker.js is the entry module of an Akoma Ntoso reader thread (see corpus/akn-readers.ts)');
const port = parentPort;
const start = workerData as AknReaderStart;
const next = new Int32Array(start.next);

/** Files a thread reads at once: while one is parsed, the next ones are read and gunzipped (on libuv's pool). */
const IN_FLIGHT = 3;

/** Takes files from the counter and reads them, one after the other, until none is left. */
async function take(): Promise<void> {
  for (let i = Atomics.add(next, 0, 1); i < start.files.length; i = Atomics.add(next, 0, 1)) {
    let outcome: AknOutcome;
    try {
      outcome = { index: i, act: await readAknFile(start.files[i]!) };
    } catch (error) {
      if (error instanceof CorpusError) outcome = { index: i, skipped: error.message };
      else {
        const e = error instanceof Error ? error : new Error(String(error));
        outcome = { index: i, failed: { message: e.message, name: e.name, code: (e as { code?: unknown }).code, stack: e.stack } };
      }
    }
    port.postMessage(outcome);
  }
}

await Promise.all(Array.from({ length: IN_FLIGHT }, take));
port.close();
