/**
 * `GET /v1/account` and `PATCH /v1/account/overages` over HTTP (`src/sandbox/routes/account.ts`; spec: Key and account
 * endpoints, Quota rules 4; README "Sandbox: keys and account"): the account's plan, overage and read-only unit
 * prices; the PATCH's rules (every problem listed, prices refused, nothing changed on a 400); and the setting acting at
 * once on the next request past a quota: counted as overage when allowed, 429 `monthly_quota_exceeded` when not.
 */
import { describe, expect, it } from 'vitest';
import { OVERAGE_LIMIT_MAX } from '../../../src/contract/limits.js';
import type { AccountResponse, UsageResponse } from '../../../src/contract/types.js';
import { DEFAULT_ACCOUNT_ID } from '../../../src/sandbox/state/store.js';
import { expectError, request, useTestServers, type Reply, type TestServer } from './harness.js';

const { serve } = useTestServers('pravo-account-http-');

const bearer = (server: TestServer): Record<string, string> => ({ authorization: `Bearer ${server.session}` });

async function getAccount(server: TestServer): Promise<AccountResponse> {
  const reply = await request(server.baseUrl, 'GET', '/v1/account', { headers: bearer(server) });
  expect(reply.status).toBe(200);
  return reply.json as AccountResponse;
}

function patchOverages(server: TestServer, body: unknown): Promise<Reply> {
  return request(server.baseUrl, 'PATCH', '/v1/account/overages', {
    headers: { ...bearer(server), 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

function search(server: TestServer): Promise<Reply> {
  return request(server.baseUrl, 'POST', '/v1/search', {
    headers: { 'x-api-key': server.key, 'content-type': 'application/json' },
    body: JSON.stringify({ query: 'неустойка при неизпълнение на договор' }),
  });
}

async function usage(server: TestServer): Promise<UsageResponse> {
  return (await request(server.baseUrl, 'GET', '/v1/usage', { headers: { 'x-api-key': server.key } })).json as UsageResponse;
}

const PRICES = { currency: 'EUR', search: 0.02, retrieval: 0.01, answers: 0.25 };

describe('GET /v1/account', () => {
  it('→ 200 with the account, its plan, its overage setting (off at first) and the unit prices', async () => {
    const server = await serve();
    const reply = await request(server.baseUrl, 'GET', '/v1/account', { headers: bearer(server) });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
    expect(reply.json).toEqual({
      account_id: DEFAULT_ACCOUNT_ID,
      plan: 'sandbox',
      overage: { allowed: false, monthly_limit: 0 },
      unit_prices: PRICES,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
  });
});

describe('PATCH /v1/account/overages', () => {
  it('{"allowed": true, "monthly_limit": N} → 200 with the account after the change; GET /v1/account and /v1/usage show it', async () => {
    const server = await serve();
    const reply = await patchOverages(server, { allowed: true, monthly_limit: 500 });
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({ ...(await getAccount(server)), overage: { allowed: true, monthly_limit: 500 } });
    expect((await getAccount(server)).overage).toEqual({ allowed: true, monthly_limit: 500 });
    expect((await usage(server)).overage).toEqual({ allowed: true, limit: 500, used: 0 });
  });

  it(`takes monthly_limit up to ${OVERAGE_LIMIT_MAX}`, async () => {
    const server = await serve();
    expect((await patchOverages(server, { allowed: true, monthly_limit: OVERAGE_LIMIT_MAX })).json.overage).toEqual({
      allowed: true,
      monthly_limit: OVERAGE_LIMIT_MAX,
    });
  });

  it.each([[{ allowed: false }], [{ allowed: false, monthly_limit: 0 }]])('%j → 200, overage off with monthly_limit 0', async (body) => {
    const server = await serve();
    await patchOverages(server, { allowed: true, monthly_limit: 10 });
    const reply = await patchOverages(server, body);
    expect(reply.status).toBe(200);
    expect((reply.json as AccountResponse).overage).toEqual({ allowed: false, monthly_limit: 0 });
  });

  it.each([
    ['an array', [], /the request body must be a JSON object/],
    ['no allowed', {}, /allowed is required/],
    ['allowed not a boolean', { allowed: 'yes', monthly_limit: 5 }, /allowed must be true or false/],
    ['allowed without monthly_limit', { allowed: true }, /monthly_limit is required when allowed is true/],
    ['allowed with monthly_limit 0', { allowed: true, monthly_limit: 0 }, /monthly_limit must be a whole number from 1 to 1000000 when allowed is true.*\{"allowed": false\}/],
    ['a fractional monthly_limit', { allowed: true, monthly_limit: 1.5 }, /monthly_limit must be a whole number from 1 to 1000000/],
    ['a monthly_limit over the bound', { allowed: true, monthly_limit: OVERAGE_LIMIT_MAX + 1 }, /monthly_limit must be a whole number from 1 to 1000000/],
    ['a monthly_limit as a string', { allowed: true, monthly_limit: '5' }, /monthly_limit must be a whole number from 1 to 1000000/],
    ['not allowed with a limit', { allowed: false, monthly_limit: 5 }, /monthly_limit must be absent or 0 when allowed is false/],
    ['unit prices', { allowed: true, monthly_limit: 5, unit_prices: { search: 0 } }, /unit prices are set by the server and cannot be changed \("unit_prices"\)/],
    ['a price field', { search_price: 0 }, /unit prices are set by the server and cannot be changed \("search_price"\)/],
    ['a Price field in another case', { allowed: false, Price: 1 }, /unit prices are set by the server and cannot be changed/],
    ['an unknown field', { allowed: false, limit: 5 }, /unknown field "limit": the body takes only "allowed" and "monthly_limit"/],
    ['invalid JSON', '{"allowed": tru', /not valid JSON/],
  ])('%s → 400 invalid_request, and the setting is unchanged', async (_name, body, message) => {
    const server = await serve();
    await patchOverages(server, { allowed: true, monthly_limit: 7 });
    expect(expectError(await patchOverages(server, body), 400, 'invalid_request')).toMatch(message);
    expect((await getAccount(server)).overage).toEqual({ allowed: true, monthly_limit: 7 });
    expect((await getAccount(server)).unit_prices).toEqual(PRICES);
  });

  it('lists every problem of the body in one message', async () => {
    const server = await serve();
    const message = expectError(await patchOverages(server, { allowed: 1, unit_prices: {}, extra: true }), 400, 'invalid_request');
    expect(message).toMatch(/unit prices are set by the server/);
    expect(message).toMatch(/unknown field "extra"/);
    expect(message).toMatch(/allowed must be true or false/);
  });

  it('acts at once on requests past the quota: overage counted when allowed up to the limit, 429 when not', async () => {
    const server = await serve({ quotas: { search: 1 } });
    expect((await search(server)).status).toBe(200);
    expect(expectError(await search(server), 429, 'monthly_quota_exceeded')).toMatch(/overage is off for this account/);

    expect((await patchOverages(server, { allowed: true, monthly_limit: 2 })).status).toBe(200);
    expect((await search(server)).status).toBe(200);
    expect((await search(server)).status).toBe(200);
    expect(expectError(await search(server), 429, 'monthly_quota_exceeded')).toMatch(/overage limit of 2 units for 2025-03 is spent/);
    expect((await usage(server)).quotas.search).toEqual({ used: 3, limit: 1, remaining: 0, overage_used: 2 });

    expect((await patchOverages(server, { allowed: true, monthly_limit: 3 })).status).toBe(200);
    expect((await search(server)).status).toBe(200);

    expect((await patchOverages(server, { allowed: false })).status).toBe(200);
    expect(expectError(await search(server), 429, 'monthly_quota_exceeded')).toMatch(/overage is off for this account/);
    expect((await usage(server)).overage).toEqual({ allowed: false, limit: 0, used: 3 });
  });
});
