/**
 * The sandbox server with its searches on a pool of worker threads (`src/sandbox/search/pool.ts`, running the built
 * worker) on the synthetic corpus: the same responses as in-process, a search the search rejects still answered 400
 * with its unit given back, a worker's crash answered 500 with its unit given back, answer jobs searching on a
 * worker, and, while a worker is blocked mid-search, the other endpoints still answered. No test waits for a fixed
 * time.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_ACCOUNT_ID } from '../../../src/sandbox/state/store.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { blockingQuery, CRASH_QUERIES, testSearchPool } from '../../helpers/search-pool.js';
import { expectError, request, useTestServers, type Reply, type TestServer, type TestServerOptions } from './harness.js';

const { serve } = useTestServers('pravo-search-pool-http-');

/** Server options with a pool of `size` workers (hooked: see `search-worker-hooks.js`). */
const onPool = (size: number, hooks = false): TestServerOptions => ({ searcher: (index) => testSearchPool(index, { size, hooks }) });

function search(server: TestServer, body: unknown): Promise<Reply> {
  return request(server.baseUrl, 'POST', '/v1/search', {
    headers: { 'x-api-key': server.key, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

const QUERY = { query: 'неустойка при неизпълнение на договор' };

describe('POST /v1/search on a pool of workers', () => {
  it('answers 200 with the body an in-process search gives', async () => {
    const pooled = await serve(onPool(2));
    const inProcess = await serve();
    for (const body of [QUERY, { ...QUERY, source_types: ['high_courts_cases'] }, { query: 'обезщетение', max_results: 1 }]) {
      const reply = await search(pooled, body);
      expect(reply.status).toBe(200);
      expect(reply.json).toEqual((await search(inProcess, body)).json);
    }
    expect(pooled.state.used(DEFAULT_ACCOUNT_ID, 'search')).toBe(3);
  });

  it('an unknown source type → 400 invalid_request naming it, its unit given back', async () => {
    const server = await serve(onPool(1));
    const message = expectError(await search(server, { ...QUERY, source_types: ['no_such_source_type'] }), 400, 'invalid_request');
    expect(message).toContain('no_such_source_type');
    expect(server.state.used(DEFAULT_ACCOUNT_ID, 'search')).toBe(0);
  });

  it.each([CRASH_QUERIES.throw, CRASH_QUERIES.exit])(
    'a worker that dies mid-search (%s) → 500 internal_error, logged, its unit given back; the next search → 200',
    async (query) => {
      const server = await serve(onPool(1, true));
      const reply = await search(server, { query });
      expectError(reply, 500, 'internal_error');
      expect(server.state.used(DEFAULT_ACCOUNT_ID, 'search')).toBe(0);
      await server.waitForLog(/^POST \/v1\/search req_\w+ failed: Error: the search worker running this search ended/);
      expect((await search(server, QUERY)).status).toBe(200);
      expect(server.state.used(DEFAULT_ACCOUNT_ID, 'search')).toBe(1);
    },
  );

  it('while a worker is blocked mid-search and another search waits, catalog, usage and keys are answered at once', async () => {
    const server = await serve(onPool(1, true));
    const block = blockingQuery('неустойка при неизпълнение на договор');
    const blockedSearch = search(server, { query: block.query });
    const worker = await block.blocked;
    const waitingSearch = search(server, QUERY);
    // The event loop is free: these are answered while both searches are unanswered.
    const key = { 'x-api-key': server.key };
    expect((await request(server.baseUrl, 'GET', '/v1/catalog/source-types', { headers: key })).status).toBe(200);
    expect((await request(server.baseUrl, 'GET', '/v1/usage', { headers: key })).status).toBe(200);
    const keys = await request(server.baseUrl, 'GET', '/v1/keys', { headers: { authorization: `Bearer ${server.session}` } });
    expect(keys.status).toBe(200);
    expect(server.logs.filter((line) => line.startsWith('POST /v1/search'))).toEqual([]);
    worker.release();
    const [first, second] = await Promise.all([blockedSearch, waitingSearch]);
    expect(first.status).toBe(200);
    expect(first.json.query).toBe(block.query);
    expect(second.status).toBe(200);
    expect((second.json.results as unknown[]).length).toBeGreaterThan(0);
  });
});

describe('answer jobs on a pool of workers', () => {
  it('a job searches on a worker and succeeds with its sources', async () => {
    const clock = new FakeClock();
    const server = await serve({ ...onPool(1), answers: { clock, delayMs: 1000 } });
    const created = await request(server.baseUrl, 'POST', '/v1/answers', {
      headers: { 'x-api-key': server.key, 'content-type': 'application/json' },
      body: JSON.stringify(QUERY),
    });
    expect(created.status).toBe(202);
    await clock.advance(1000);
    await server.waitForLog(/^answer job ans_\w+ succeeded: [1-9]\d* source\(s\)$/);
    const job = await request(server.baseUrl, 'GET', created.json.poll_url as string, { headers: { 'x-api-key': server.key } });
    expect(job.json.status).toBe('succeeded');
    expect((job.json.sources as unknown[]).length).toBeGreaterThan(0);
    expect(server.answers.pendingJobs()).toBe(0);
  });
});
