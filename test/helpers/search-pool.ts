/**
 * Search pools for tests. Worker threads run JavaScript while the tests run the TypeScript sources, so the workers run
 * the built worker, `dist/sandbox/search/worker.js` (`npm test` builds first): the pool's default module from the
 * sources (see `DEFAULT_WORKER_URL`), or through `search-worker-hooks.js`, which adds hooks a test triggers by its
 * query (a crash, a blocked worker).
 */
import crypto from 'node:crypto';
import { BroadcastChannel } from 'node:worker_threads';
import type { SearchIndex } from '../../src/sandbox/storage.js';
import { createSearchPool, type SearchPool } from '../../src/sandbox/search/pool.js';

/** The built search worker with the test hooks of `search-worker-hooks.js`. */
export const HOOKED_SEARCH_WORKER = new URL('./search-worker-hooks.js', import.meta.url);

/** The BroadcastChannel on which a hooked worker says it is blocked (the same name as in `search-worker-hooks.js`). */
const HOOKS_CHANNEL = 'pravo-test-search-worker-hooks';

/** Queries that make a hooked worker crash: by an uncaught error, or by `process.exit(3)`. */
export const CRASH_QUERIES = { throw: 'crash: throw', exit: 'crash: exit' } as const;

/**
 * A pool of `size` workers (default 2) over `index`, running the built worker (the pool's default module), with the
 * test hooks when `hooks`.
 * @throws Error when the worker is not built (run `npm run build`).
 */
export function testSearchPool(
  index: Pick<SearchIndex, 'path' | 'inputsKey'>,
  options: { size?: number; hooks?: boolean; log?: (line: string) => void } = {},
): SearchPool {
  return createSearchPool(index, {
    size: options.size ?? 2,
    ...(options.hooks ? { workerUrl: HOOKED_SEARCH_WORKER } : {}),
    ...(options.log ? { log: options.log } : {}),
  });
}

/** A worker held by the `block` hook. */
export interface BlockedWorker {
  /** Lets the worker go on: it runs the search it was given. */
  release(): void;
}

/**
 * A query that blocks the hooked worker that takes it (see `search-worker-hooks.js`), then searches `words`, and the
 * promise of that worker saying it is blocked. Listen before sending the query.
 */
export function blockingQuery(words: string): { query: string; blocked: Promise<BlockedWorker> } {
  const token = crypto.randomBytes(8).toString('hex');
  const channel = new BroadcastChannel(HOOKS_CHANNEL);
  const blocked = new Promise<BlockedWorker>((resolve) => {
    channel.onmessage = (event) => {
      const { token: got, latch } = (event as { data: { token: string; latch: SharedArrayBuffer } }).data;
      if (got !== token) return;
      channel.close();
      const cell = new Int32Array(latch);
      resolve({
        release: () => {
          Atomics.store(cell, 0, 1);
          Atomics.notify(cell, 0);
        },
      });
    };
  });
  return { query: `block ${token} ${words}`, blocked };
}
