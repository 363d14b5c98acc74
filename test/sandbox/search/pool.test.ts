/**
 * The search pool (`src/sandbox/search/pool.ts`): worker threads running the built worker over an index of the
 * synthetic corpus give the responses and errors of `search` on the test's thread, queue searches first come first
 * served, survive a worker's crash, and stop on close. No test waits for a fixed time: blocked workers say so on a
 * channel (`test/helpers/search-worker-hooks.js`).
 */
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SearchRequest } from '../../../src/contract/types.js';
import type { SearchIndex } from '../../../src/sandbox/storage.js';
import { search } from '../../../src/sandbox/search/pipeline.js';
import {
  createSearchPool,
  DEFAULT_WORKER_URL,
  defaultSearchWorkers,
  MAX_DEFAULT_SEARCH_WORKERS,
  type SearchPool,
} from '../../../src/sandbox/search/pool.js';
import { inProcessSearcher } from '../../../src/sandbox/search/searcher.js';
import { SearchRequestError } from '../../../src/sandbox/search/source-types.js';
import { blockingQuery, CRASH_QUERIES, testSearchPool } from '../../helpers/search-pool.js';
import { openSyntheticIndex } from '../http/harness.js';

let index: SearchIndex;
let closeIndex: () => void;

beforeAll(async () => {
  ({ index, close: closeIndex } = await openSyntheticIndex('pravo-pool-test-'));
});

afterAll(() => closeIndex?.());

const pools: SearchPool[] = [];
/** A pool closed after the test. */
const pool = (options: Parameters<typeof testSearchPool>[1] = {}): SearchPool => {
  const created = testSearchPool(index, options);
  pools.push(created);
  return created;
};

afterEach(async () => {
  for (const created of pools.splice(0)) await created.close();
});

const REQUESTS: SearchRequest[] = [
  { query: 'неустойка по договор' },
  { query: 'неустойка по договор', source_types: ['bulgarian_laws_regulations'], max_results: 1 },
  { query: 'съдът приема неустойка при забава', court_ids: [7] },
  { query: 'обезщетение за вреда', date_from: '2021-01-01' },
  { query: 'и на за' },
];

/** What `search` on this thread throws for `request`. */
function thrownBy(request: SearchRequest): unknown {
  try {
    search(index, request);
  } catch (error) {
    return error;
  }
  throw new Error('the search did not throw');
}

describe('a pool of workers', () => {
  it('answers each search as search() does on this thread, also many at once', async () => {
    const workers = pool({ size: 2 });
    for (const request of REQUESTS) expect(await workers.search(request)).toEqual(search(index, request));
    const together = await Promise.all(REQUESTS.map((request) => workers.search(request)));
    expect(together).toEqual(REQUESTS.map((request) => search(index, request)));
    await expect(workers.ready()).resolves.toBeUndefined();
  });

  it('rejects what search() rejects with a SearchRequestError of the same field, code and message', async () => {
    const workers = pool();
    for (const request of [
      { query: 'неустойка', source_types: ['no_such_type'] },
      { query: 'неустойка', source_types: ['bulgarian_laws_regulations'], court_ids: [7] },
    ]) {
      const expected = thrownBy(request) as SearchRequestError;
      expect(expected).toBeInstanceOf(SearchRequestError);
      const error = await workers.search(request).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(SearchRequestError);
      expect(error).toMatchObject({ name: 'SearchRequestError', code: 'invalid_request', field: expected.field, message: expected.message });
    }
  });

  it.each([
    ['an uncaught error', CRASH_QUERIES.throw, /search worker running this search ended \(Error: a crash the test asked for\)/],
    ['process.exit', CRASH_QUERIES.exit, /search worker running this search ended \(exit code 3\)/],
  ])('a worker that dies of %s: its search rejects, another worker takes its place', async (_name, query, message) => {
    const logs: string[] = [];
    const workers = pool({ size: 1, hooks: true, log: (line) => logs.push(line) });
    await expect(workers.search({ query })).rejects.toThrow(message);
    expect(await workers.search(REQUESTS[0]!)).toEqual(search(index, REQUESTS[0]!));
    expect(logs).toEqual([expect.stringMatching(/^search worker \d+ ended \(.+\); starting another$/)]);
  });

  it('queues searches while every worker is busy, and answers them first come first served', async () => {
    const workers = pool({ size: 1, hooks: true });
    const block = blockingQuery('неустойка');
    const answered: string[] = [];
    const first = workers.search({ query: block.query }).then(() => answered.push('blocked'));
    const worker = await block.blocked;
    const queued = REQUESTS.slice(0, 3).map((request, i) => workers.search(request).then(() => answered.push(`queued ${i}`)));
    expect(answered).toEqual([]);
    worker.release();
    await Promise.all([first, ...queued]);
    expect(answered).toEqual(['blocked', 'queued 0', 'queued 1', 'queued 2']);
  });

  it('close() rejects the searches running and waiting, and every later one, and ends the workers', async () => {
    const workers = pool({ size: 1, hooks: true });
    const block = blockingQuery('неустойка');
    const running = workers.search({ query: block.query });
    const worker = await block.blocked;
    const waiting = workers.search(REQUESTS[0]!);
    const closing = workers.close();
    await expect(running).rejects.toThrow('the search pool is closed');
    await expect(waiting).rejects.toThrow('the search pool is closed');
    // The worker still blocked is ended all the same.
    await closing;
    worker.release();
    await expect(workers.search(REQUESTS[0]!)).rejects.toThrow('the search pool is closed');
    await expect(workers.close()).resolves.toBeUndefined();
  });

  it('whose workers cannot open the index: ready() and every search reject, naming the file', async () => {
    const logs: string[] = [];
    const workers = pool({ size: 2, log: (line) => logs.push(line) });
    const broken = testSearchPool({ path: `${index.path}.missing`, inputsKey: index.inputsKey }, { log: (line) => logs.push(line) });
    pools.push(broken);
    await expect(broken.ready()).rejects.toThrow(/could not start .*\.missing is not a complete search index/);
    await expect(broken.search(REQUESTS[0]!)).rejects.toThrow(/could not start/);
    expect(logs).toHaveLength(2);
    // The other pool is not concerned.
    expect(await workers.search(REQUESTS[0]!)).toEqual(search(index, REQUESTS[0]!));
  });

  it('refuses a size out of range, and a worker module that is not there (before any thread starts)', () => {
    expect(() => createSearchPool(index, { size: 0 })).toThrow(RangeError);
    expect(() => createSearchPool(index, { size: 1.5 })).toThrow(RangeError);
    expect(() => createSearchPool(index, { size: 65 })).toThrow(RangeError);
    const missing = new URL('./no-such-worker.js', DEFAULT_WORKER_URL);
    expect(() => createSearchPool(index, { size: 1, workerUrl: missing })).toThrow(/search worker module .*no-such-worker\.js does not exist; build pravo first/);
  });

  it('runs the built worker, also from the sources', () => {
    expect(fileURLToPath(DEFAULT_WORKER_URL)).toBe(fileURLToPath(new URL('../../../dist/sandbox/search/worker.js', import.meta.url)));
  });

  it('has a default size from the CPUs, at least 1, at most 4', () => {
    expect(defaultSearchWorkers()).toBeGreaterThanOrEqual(1);
    expect(defaultSearchWorkers()).toBeLessThanOrEqual(MAX_DEFAULT_SEARCH_WORKERS);
    expect(MAX_DEFAULT_SEARCH_WORKERS).toBe(4);
  });
});

describe('the in-process searcher', () => {
  it('answers as search() does, rejects its SearchRequestError, and nothing once closed', async () => {
    const searcher = inProcessSearcher(index);
    expect(await searcher.search(REQUESTS[0]!)).toEqual(search(index, REQUESTS[0]!));
    await expect(searcher.search({ query: 'неустойка', source_types: ['no_such_type'] })).rejects.toBeInstanceOf(SearchRequestError);
    await searcher.close();
    await expect(searcher.search(REQUESTS[0]!)).rejects.toThrow('the searcher is closed');
  });
});
