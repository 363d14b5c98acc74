/**
 * `GET /v1/usage` over HTTP (`src/sandbox/routes/usage.ts`; spec: GET /v1/usage, Quota rules; README "Sandbox: usage")
 * on the synthetic corpus: the shape of `UsageResponse`, the numbers after searches, retrievals and answer jobs (a
 * failed job's unit restored), the calendar month (UTC) of the state's clock, one account's usage only, overage, and
 * the 429 `monthly_quota_exceeded` that says which limit was hit.
 */
import { describe, expect, it } from 'vitest';
import { QUOTA_KINDS, type UsageResponse } from '../../../src/contract/types.js';
import { DEFAULT_ACCOUNT_ID } from '../../../src/sandbox/state/store.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { expectError, request, useTestServers, type Reply, type TestServer } from './harness.js';

const { serve } = useTestServers('pravo-usage-http-');

const QUERY = { query: 'неустойка при неизпълнение на договор' };

function usage(server: TestServer, key = server.key, method = 'GET'): Promise<Reply> {
  return request(server.baseUrl, method, '/v1/usage', { headers: { 'x-api-key': key } });
}

/** `GET /v1/usage`, asserted 200, as the contract's type. */
async function usageBody(server: TestServer, key = server.key): Promise<UsageResponse> {
  const reply = await usage(server, key);
  expect(reply.status).toBe(200);
  return reply.json as UsageResponse;
}

function search(server: TestServer, key = server.key): Promise<Reply> {
  return request(server.baseUrl, 'POST', '/v1/search', {
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify(QUERY),
  });
}

/** Searches once and retrieves its first result with each method in turn; returns the statuses. */
async function retrieve(server: TestServer, methods: readonly ('GET' | 'HEAD')[]): Promise<number[]> {
  const found = (await search(server)).json.results as { document_id: string; collection: string }[];
  const query = new URLSearchParams({ document_id: found[0]!.document_id, collection: found[0]!.collection });
  const statuses: number[] = [];
  for (const method of methods) {
    statuses.push((await request(server.baseUrl, method, `/v1/documents?${query}`, { headers: { 'x-api-key': server.key } })).status);
  }
  return statuses;
}

function postAnswer(server: TestServer): Promise<Reply> {
  return request(server.baseUrl, 'POST', '/v1/answers', {
    headers: { 'x-api-key': server.key, 'content-type': 'application/json' },
    body: JSON.stringify(QUERY),
  });
}

describe('GET /v1/usage', () => {
  it("answers 200 with the period, the plan's quotas per kind and the overage, all zero at first", async () => {
    const server = await serve({ now: () => new Date('2025-03-15T12:00:00Z') });
    const reply = await usage(server);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
    expect(reply.json).toEqual({
      period: { start: '2025-03-01T00:00:00.000Z', end: '2025-04-01T00:00:00.000Z', month: '2025-03' },
      plan: 'sandbox',
      quotas: {
        search: { used: 0, limit: 10_000, remaining: 10_000, overage_used: 0 },
        retrieval: { used: 0, limit: 10_000, remaining: 10_000, overage_used: 0 },
        answers: { used: 0, limit: 1_000, remaining: 1_000, overage_used: 0 },
      },
      overage: { allowed: false, limit: 0, used: 0 },
    });
    expect(Object.keys(reply.json.quotas as object)).toEqual([...QUOTA_KINDS]);
  });

  it('counts searches, retrievals and answer jobs; a failed job has its unit restored; asking costs nothing', async () => {
    const clock = new FakeClock(Date.parse('2025-03-15T12:00:00Z'));
    const draws = [0.9, 0.1];
    const server = await serve({
      quotas: { search: 5, answers: null },
      answers: { clock, delayMs: 1000, failureRate: 0.5, random: () => draws.shift()! },
    });
    expect(await retrieve(server, ['GET', 'GET'])).toEqual([200, 200]);
    expect((await search(server)).status).toBe(200);
    const succeeding = (await postAnswer(server)).json.poll_url as string;
    const failing = (await postAnswer(server)).json.poll_url as string;
    expect((await usageBody(server)).quotas.answers).toEqual({ used: 2, limit: null, remaining: null, overage_used: 0 });

    await clock.advance(1000);
    const check = async (pollUrl: string) => (await request(server.baseUrl, 'GET', pollUrl, { headers: { 'x-api-key': server.key } })).json.status;
    expect([await check(succeeding), await check(failing)]).toEqual(['succeeded', 'failed']);
    for (let i = 0; i < 3; i++) await usage(server);
    const body = await usageBody(server);
    expect(body.quotas).toEqual({
      search: { used: 2, limit: 5, remaining: 3, overage_used: 0 },
      retrieval: { used: 2, limit: 10_000, remaining: 9_998, overage_used: 0 },
      answers: { used: 1, limit: null, remaining: null, overage_used: 0 },
    });
    expect(body.overage).toEqual({ allowed: false, limit: 0, used: 0 });
  });

  it('still answers when every quota is used up', async () => {
    const server = await serve({ quotas: { search: 0, retrieval: 0, answers: 0 } });
    expectError(await search(server), 429, 'monthly_quota_exceeded');
    const body = await usageBody(server);
    for (const kind of QUOTA_KINDS) expect(body.quotas[kind]).toEqual({ used: 0, limit: 0, remaining: 0, overage_used: 0 });
  });

  it('reports the calendar month (UTC) of the clock: 2026-11-30T23:59:59.999Z is November, a millisecond later December', async () => {
    let now = new Date('2026-11-30T23:59:59.999Z');
    const server = await serve({ now: () => now });
    expect((await search(server)).status).toBe(200);
    const november = await usageBody(server);
    expect(november.period).toEqual({ start: '2026-11-01T00:00:00.000Z', end: '2026-12-01T00:00:00.000Z', month: '2026-11' });
    expect(november.quotas.search?.used).toBe(1);

    now = new Date('2026-12-01T00:00:00Z');
    const december = await usageBody(server);
    expect(december.period).toEqual({ start: '2026-12-01T00:00:00.000Z', end: '2027-01-01T00:00:00.000Z', month: '2026-12' });
    expect(december.quotas.search?.used).toBe(0);
    expect(server.state.used(DEFAULT_ACCOUNT_ID, 'search', '2026-11')).toBe(1);
  });

  it("shows the key's account only: another account's consumption is not visible", async () => {
    const server = await serve();
    const other = server.state.issueKey('other account', { account: 'acct_other' });
    expect((await search(server, other.api_key)).status).toBe(200);
    expect((await search(server, other.api_key)).status).toBe(200);
    expect((await usageBody(server)).quotas.search?.used).toBe(0);
    expect((await usageBody(server, other.api_key)).quotas.search?.used).toBe(2);
  });

  it('counts overage beyond a quota up to the limit, then answers 429 saying the limit is spent', async () => {
    const server = await serve({ quotas: { search: 1 } });
    server.state.setOverage(DEFAULT_ACCOUNT_ID, { allowed: true, limit: 2 });
    expect([(await search(server)).status, (await search(server)).status, (await search(server)).status]).toEqual([200, 200, 200]);
    const message = expectError(await search(server), 429, 'monthly_quota_exceeded');
    expect(message).toBe(
      "The monthly search quota of 1 unit is used up for 2025-03, and the account's overage limit of 2 units for 2025-03 is spent (2 used). GET /v1/usage shows this month's consumption.",
    );
    const body = await usageBody(server);
    expect(body.quotas.search).toEqual({ used: 3, limit: 1, remaining: 0, overage_used: 2 });
    expect(body.overage).toEqual({ allowed: true, limit: 2, used: 2 });
  });

  it('overage also lets a retrieval past its quota through (HEAD too), against the same limit', async () => {
    const server = await serve({ quotas: { retrieval: 1 } });
    server.state.setOverage(DEFAULT_ACCOUNT_ID, { allowed: true, limit: 1 });
    // Within quota, then (HEAD: one more would be counted) as overage, then (HEAD: none more would be) refused.
    expect(await retrieve(server, ['GET', 'HEAD', 'GET', 'HEAD', 'GET'])).toEqual([200, 200, 200, 429, 429]);
    const body = await usageBody(server);
    expect(body.quotas.retrieval).toEqual({ used: 2, limit: 1, remaining: 0, overage_used: 1 });
    expect(body.overage.used).toBe(1);
  });

  it('needs an API key; HEAD answers like GET without a body', async () => {
    const server = await serve();
    expectError(await request(server.baseUrl, 'GET', '/v1/usage'), 401, 'missing_api_key');
    const head = await usage(server, server.key, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
  });
});
