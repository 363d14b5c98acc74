/**
 * A pool of search worker threads (node:worker_threads): the sandbox's searches run off the event loop, so a long
 * search (node:sqlite is synchronous) no longer holds up the server's other requests, and as many searches as there
 * are workers run at once.
 *
 * Each worker (`worker.ts`) opens the same complete index file read-only, with its own SQLite connection, loads the
 * search's metadata, and then runs one search at a time. Workers start in parallel when the pool is created; a search
 * that arrives before any is ready waits for one. Searches wait in one queue, first come first served, for the next
 * free worker. A worker that dies (an uncaught error, `process.exit`, out of memory) is replaced, and the search it was
 * running rejects; one that dies before it was ready (the index cannot be opened) is not replaced, and once no worker
 * is left, every waiting and later search rejects with its error.
 *
 * Workers run from the built JavaScript, `dist/sandbox/search/worker.js` (see {@link DEFAULT_WORKER_URL}), also when
 * this module runs from its TypeScript source, as in the tests.
 */
import { existsSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { SearchRequest, SearchResponse } from '../../contract/types.js';
import type { SearchIndex } from '../storage.js';
import type { Searcher } from './searcher.js';
import { fromWorkerError, type SearchJobMessage, type WorkerMessage, type WorkerStart } from './worker-messages.js';

/** Most workers {@link defaultSearchWorkers} gives, whatever the number of CPUs (a local sandbox needs no more). */
export const MAX_DEFAULT_SEARCH_WORKERS = 4;

/** Most workers a pool takes (each holds an SQLite connection and the search's metadata, a few MiB). */
export const MAX_SEARCH_WORKERS = 64;

/** Longest wait, in ms, for the workers to end when the pool closes (see `close`). */
export const CLOSE_TIMEOUT_MS = 5_000;

/**
 * The default number of search workers: the CPUs this process may use (`os.availableParallelism()`), at least 1, at
 * most {@link MAX_DEFAULT_SEARCH_WORKERS}.
 */
export function defaultSearchWorkers(): number {
  return Math.max(1, Math.min(os.availableParallelism(), MAX_DEFAULT_SEARCH_WORKERS));
}

/**
 * The worker module of a pool when none is given: `worker.js` beside this module, `dist/sandbox/search/worker.js`.
 * When this module runs from its TypeScript source (`src/sandbox/search/pool.ts`: the tests), the built worker all the
 * same: a worker thread runs JavaScript, and the sources' imports name `.js` files only the build has (`npm test`
 * builds first; after changing the search, build before running a test file alone).
 */
export const DEFAULT_WORKER_URL = import.meta.url.endsWith('.ts')
  ? new URL('../../../dist/sandbox/search/worker.js', import.meta.url)
  : new URL('./worker.js', import.meta.url);

/** Options of {@link createSearchPool}. */
export interface SearchPoolOptions {
  /** Number of worker threads, 1 to {@link MAX_SEARCH_WORKERS}; default {@link defaultSearchWorkers}. */
  size?: number;
  /**
   * The worker's module (a `file:` URL of JavaScript); default {@link DEFAULT_WORKER_URL}. Tests give a module of
   * their own that loads the built worker with hooks.
   */
  workerUrl?: URL;
  /** One line per worker that dies or cannot start; default: discarded. Never a query. */
  log?: (line: string) => void;
}

/** A {@link Searcher} running on worker threads. */
export interface SearchPool extends Searcher {
  /** Number of workers the pool was created with. */
  readonly size: number;
  /**
   * Resolves when every worker of the start is ready to search (each has opened the index and loaded the metadata);
   * rejects with the error of the first one that could not start. Searches do not need to wait for it.
   */
  ready(): Promise<void>;
}

/** A search waiting for, or running on, a worker. */
interface Job {
  id: number;
  request: SearchRequest;
  resolve: (response: SearchResponse) => void;
  reject: (error: Error) => void;
}

/** One worker thread and what it is doing. */
interface Slot {
  worker: Worker;
  /** The worker's `threadId` (the log names it; the worker's own reads -1 once it has ended). */
  threadId: number;
  /** It has opened the index and posted `ready`. */
  ready: boolean;
  /** The search it runs, if any. */
  job: Job | undefined;
  /** The uncaught error it reported before exiting, if any. */
  error: Error | undefined;
  /** Part of the pool's start (its readiness counts for {@link SearchPool.ready}), not a replacement. */
  initial: boolean;
}

/**
 * Creates a pool of `size` search workers over the complete index `index` (opened by `openIndex`; the pool opens its
 * file again in each worker, and does not close `index`). Returns at once: the workers start in parallel.
 * @throws RangeError when `size` is not a whole number from 1 to {@link MAX_SEARCH_WORKERS}; Error when the worker
 *   module does not exist (e.g. not built: run `npm run build`), or a thread cannot be created (none is left running).
 */
export function createSearchPool(index: Pick<SearchIndex, 'path' | 'inputsKey'>, options: SearchPoolOptions = {}): SearchPool {
  const size = options.size ?? defaultSearchWorkers();
  if (!Number.isInteger(size) || size < 1 || size > MAX_SEARCH_WORKERS) {
    throw new RangeError(`a search pool takes 1 to ${MAX_SEARCH_WORKERS} workers, not ${size}`);
  }
  const workerUrl = options.workerUrl ?? DEFAULT_WORKER_URL;
  if (workerUrl.protocol === 'file:' && !existsSync(fileURLToPath(workerUrl))) {
    throw new Error(`the search worker module ${fileURLToPath(workerUrl)} does not exist; build pravo first (npm run build)`);
  }
  const log = options.log ?? (() => {});
  const start: WorkerStart = { path: index.path, inputsKey: index.inputsKey };

  const slots: Slot[] = [];
  let queue: Job[] = [];
  let nextId = 0;
  let closed: Promise<void> | undefined;
  /** Why no worker is left, once every worker has died before it was ready. */
  let noWorkers: Error | undefined;

  let initialPending = size;
  let markReady!: () => void;
  let markFailed!: (error: Error) => void;
  const readiness = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    markFailed = reject;
  });
  readiness.catch(() => {});

  /** Workers keep the process alive only while searches wait or run: an idle pool does not hold a process open. */
  const updateRefs = (): void => {
    const busy = queue.length > 0 || slots.some((s) => s.job !== undefined);
    for (const slot of slots) {
      if (busy) slot.worker.ref();
      else slot.worker.unref();
    }
  };

  /** Hands waiting searches to ready, idle workers, in queue order. */
  const pump = (): void => {
    for (const slot of slots) {
      if (queue.length === 0) break;
      if (!slot.ready || slot.job) continue;
      const job = queue.shift()!;
      try {
        slot.worker.postMessage({ id: job.id, request: job.request } satisfies SearchJobMessage);
        slot.job = job;
      } catch (error) {
        job.reject(error instanceof Error ? error : new Error(String(error)));
      }
    }
    updateRefs();
  };

  const rejectAll = (error: Error): void => {
    const waiting = queue;
    queue = [];
    for (const job of waiting) job.reject(error);
  };

  const onMessage = (slot: Slot, message: WorkerMessage): void => {
    if (message.type === 'ready') {
      slot.ready = true;
      if (slot.initial && --initialPending === 0) markReady();
    } else {
      const job = slot.job;
      if (!job || job.id !== message.id) return;
      slot.job = undefined;
      if (message.type === 'result') job.resolve(message.response);
      else job.reject(fromWorkerError(message.error));
    }
    pump();
  };

  const onExit = (slot: Slot, code: number): void => {
    slots.splice(slots.indexOf(slot), 1);
    if (closed) return;
    const reason = slot.error ? `${slot.error.name}: ${slot.error.message}` : `exit code ${code}`;
    const job = slot.job;
    slot.job = undefined;
    const cause = slot.error ? { cause: slot.error } : undefined;
    job?.reject(new Error(`the search worker running this search ended (${reason})`, cause));
    if (slot.ready) {
      log(`search worker ${slot.threadId} ended (${reason}); starting another`);
      try {
        spawn(false);
      } catch (error) {
        lost(new Error(`a search worker could not be started (${error instanceof Error ? error.message : String(error)})`, { cause: error }));
      }
    } else {
      lost(new Error(`a search worker could not start (${reason})`, cause));
    }
    pump();
  };

  /** A worker that could not start, or whose replacement could not: the pool is one smaller, and maybe empty. */
  const lost = (error: Error): void => {
    log(`${error.message}; ${slots.length} search worker(s) left`);
    markFailed(error);
    if (slots.length === 0) {
      noWorkers = error;
      rejectAll(error);
    }
  };

  const spawn = (initial: boolean): void => {
    const worker = new Worker(workerUrl, { workerData: start, name: 'pravo search' });
    const slot: Slot = { worker, threadId: worker.threadId, ready: false, job: undefined, error: undefined, initial };
    slots.push(slot);
    worker.on('message', (message: WorkerMessage) => onMessage(slot, message));
    worker.on('error', (error) => {
      slot.error = error;
    });
    // A message that cannot be read here (never expected: responses are plain JSON values): its search fails, not hangs.
    worker.on('messageerror', (error) => {
      const job = slot.job;
      slot.job = undefined;
      job?.reject(new Error(`the search worker's answer could not be read (${error.message})`, { cause: error }));
      pump();
    });
    worker.on('exit', (code) => onExit(slot, code));
    worker.unref();
  };

  try {
    for (let i = 0; i < size; i++) spawn(true);
  } catch (error) {
    // E.g. no more threads: none of this pool's workers is left running.
    for (const slot of slots) void slot.worker.terminate();
    throw error;
  }

  return {
    size,
    ready: () => readiness,
    search(request: SearchRequest): Promise<SearchResponse> {
      if (closed) return Promise.reject(new Error('the search pool is closed'));
      if (noWorkers) return Promise.reject(noWorkers);
      return new Promise<SearchResponse>((resolve, reject) => {
        queue.push({ id: ++nextId, request, resolve, reject });
        pump();
      });
    },
    close(): Promise<void> {
      closed ??= (async () => {
        const error = new Error('the search pool is closed');
        rejectAll(error);
        for (const slot of slots) {
          slot.job?.reject(error);
          slot.job = undefined;
        }
        markFailed(error);
        // Each worker's end is awaited on its 'exit' event: a worker terminated while still starting (a Ctrl-C right
        // after the ready line) may not keep the event loop alive until its terminate() settles, and a process
        // awaiting this close would then exit with the await unsettled. A timer keeps the loop alive meanwhile, and
        // bounds the wait (CLOSE_TIMEOUT_MS) should a worker never report its end.
        let keepAlive: NodeJS.Timeout | undefined;
        const timeout = new Promise<void>((resolve) => {
          keepAlive = setTimeout(resolve, CLOSE_TIMEOUT_MS);
        });
        const ends = slots.map(
          (slot) =>
            new Promise<void>((resolve) => {
              if (slot.worker.threadId === -1) return resolve();
              slot.worker.once('exit', () => resolve());
              void slot.worker.terminate().then(() => resolve(), () => resolve());
            }),
        );
        await Promise.race([Promise.all(ends), timeout]);
        clearTimeout(keepAlive);
      })();
      return closed;
    },
  };
}
