/**
 * `POST /v1/keys`, `GET /v1/keys`, `POST /v1/keys/{key_id}/revoke` over HTTP (`src/sandbox/routes/keys.ts`; spec: Key
 * and account endpoints, API key facts; README "Sandbox: keys and account"): a created key is shown once and works at
 * once, listings never hold a secret, the body's rules, revocation refused at once by this server (also for a key it
 * had just accepted) and within the cache's TTL by another on the same data directory, and other accounts' keys out of
 * reach.
 */
import { describe, expect, it } from 'vitest';
import type { ApiKeyList, ApiKeyRecord, CreatedApiKey } from '../../../src/contract/types.js';
import { sha256 } from '../../../src/sandbox/state/store.js';
import { expectError, request, useTestServers, type Reply, type TestServer } from './harness.js';

const { serve } = useTestServers('pravo-keys-http-');

const bearer = (server: TestServer): Record<string, string> => ({ authorization: `Bearer ${server.session}` });

function createKey(server: TestServer, body: unknown): Promise<Reply> {
  return request(server.baseUrl, 'POST', '/v1/keys', {
    headers: { ...bearer(server), 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function listKeys(server: TestServer): Promise<{ reply: Reply; keys: ApiKeyRecord[] }> {
  const reply = await request(server.baseUrl, 'GET', '/v1/keys', { headers: bearer(server) });
  expect(reply.status).toBe(200);
  return { reply, keys: (reply.json as ApiKeyList).keys };
}

function revoke(server: TestServer, keyId: string): Promise<Reply> {
  return request(server.baseUrl, 'POST', `/v1/keys/${encodeURIComponent(keyId)}/revoke`, { headers: bearer(server) });
}

function usage(server: TestServer, key: string): Promise<Reply> {
  return request(server.baseUrl, 'GET', '/v1/usage', { headers: { 'x-api-key': key } });
}

describe('POST /v1/keys', () => {
  it('→ 201 with the record and the full key, which authenticates GET /v1/usage at once', async () => {
    const server = await serve();
    const reply = await createKey(server, { name: 'CI pipeline' });
    expect(reply.status).toBe(201);
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
    const created = reply.json as CreatedApiKey;
    expect(created).toEqual({
      key_id: expect.stringMatching(/^key_[0-9a-f]{12}$/),
      name: 'CI pipeline',
      prefix: created.api_key.slice(0, 13),
      plan: 'sandbox',
      status: 'active',
      created_at: '2025-03-15T12:00:00.000Z',
      last_used_at: null,
      revoked_at: null,
      api_key: expect.stringMatching(/^sbx_live_[0-9A-Za-z]{32}$/),
    });
    expect((await usage(server, created.api_key)).status).toBe(200);
    expect(server.logs.at(-1)).toMatch(new RegExp(`^GET /v1/usage 200 \\d+ms key=${created.key_id} `));
    expect(server.logs.join('\n')).not.toContain(created.api_key.slice(9));
  });

  it('trims the name, and takes up to 100 characters (Cyrillic counted as characters, not bytes)', async () => {
    const server = await serve();
    expect((await createKey(server, { name: '  staging  ' })).json.name).toBe('staging');
    const longest = 'ж'.repeat(100);
    expect((await createKey(server, { name: longest })).json.name).toBe(longest);
    const reply = await createKey(server, { name: 'ж'.repeat(101) });
    expect(expectError(reply, 400, 'invalid_request')).toMatch(/name must be at most 100 characters long \(got 101\)/);
  });

  it.each([
    ['an array', [], /the request body must be a JSON object/],
    ['null', null, /the request body must be a JSON object/],
    ['a string', '"CI"', /the request body must be a JSON object/],
    ['no name', {}, /name is required/],
    ['a number as name', { name: 7 }, /name must be a string of 1 to 100 characters/],
    ['an empty name', { name: '' }, /name must not be empty/],
    ['a blank name', { name: ' \t ' }, /name must not be empty/],
    ['a line break in the name', { name: 'a\nb' }, /name must not contain control characters/],
    ['an escape in the name', { name: 'a\u001b[31mb' }, /name must not contain control characters/],
    ['a plan', { name: 'CI', plan: 'enterprise' }, /plan cannot be chosen: a key has its account's plan/],
    ['a status', { name: 'CI', status: 'revoked' }, /status cannot be set: a new key is active/],
    ['another field', { name: 'CI', expires_at: '2030-01-01' }, /unknown field "expires_at": the body of POST \/v1\/keys takes only "name"/],
    ['invalid JSON', '{"name": ', /not valid JSON/],
  ])('%s → 400 invalid_request, and no key is created', async (_name, body, message) => {
    const server = await serve();
    const before = (await listKeys(server)).keys;
    expect(expectError(await createKey(server, body), 400, 'invalid_request')).toMatch(message);
    expect((await listKeys(server)).keys).toEqual(before);
  });

  it('lists every problem of the body in one message', async () => {
    const server = await serve();
    const message = expectError(await createKey(server, { plan: 'x', extra: 1 }), 400, 'invalid_request');
    expect(message).toMatch(/plan cannot be chosen/);
    expect(message).toMatch(/unknown field "extra"/);
    expect(message).toMatch(/name is required/);
  });
});

describe('GET /v1/keys', () => {
  it("→ 200 {keys}: the account's keys oldest first, never a secret nor its hash", async () => {
    let now = new Date('2025-03-15T12:00:00.000Z');
    const server = await serve({ now: () => now });
    now = new Date('2025-03-15T12:05:00.000Z');
    const created = (await createKey(server, { name: 'second' })).json as CreatedApiKey;
    const { reply, keys } = await listKeys(server);
    expect(Object.keys(reply.json)).toEqual(['keys']);
    expect(keys.map((k) => [k.key_id, k.name, k.status])).toEqual([
      [server.keyId, 'server-test', 'active'],
      [created.key_id, 'second', 'active'],
    ]);
    for (const record of keys) {
      expect(Object.keys(record).sort()).toEqual(['created_at', 'key_id', 'last_used_at', 'name', 'plan', 'prefix', 'revoked_at', 'status']);
    }
    for (const secret of [server.key, created.api_key]) {
      expect(reply.text).not.toContain(secret);
      expect(reply.text).not.toContain(secret.slice(13));
      expect(reply.text).not.toContain(sha256(secret));
    }
  });

  it("shows last_used_at once a key was used, and never another account's keys", async () => {
    const server = await serve();
    server.state.issueKey('theirs', { account: 'acct_other' });
    expect((await usage(server, server.key)).status).toBe(200);
    const { keys } = await listKeys(server);
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ key_id: server.keyId, last_used_at: '2025-03-15T12:00:00.000Z' });
  });

  it('answers HEAD like GET, without a body', async () => {
    const server = await serve();
    const head = await request(server.baseUrl, 'HEAD', '/v1/keys', { headers: bearer(server) });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
  });
});

describe('POST /v1/keys/{key_id}/revoke', () => {
  it('→ 200 the revoked record; the key, accepted a moment before, is refused with revoked_api_key at once', async () => {
    let now = new Date('2025-03-15T12:00:00.000Z');
    const server = await serve({ now: () => now });
    const created = (await createKey(server, { name: 'old' })).json as CreatedApiKey;
    expect((await usage(server, created.api_key)).status).toBe(200);
    now = new Date('2025-03-15T12:00:01.000Z');
    const reply = await revoke(server, created.key_id);
    expect(reply.status).toBe(200);
    const { api_key: _secret, ...record } = created;
    expect(reply.json).toEqual({ ...record, status: 'revoked', revoked_at: '2025-03-15T12:00:01.000Z', last_used_at: '2025-03-15T12:00:00.000Z' });
    expectError(await usage(server, created.api_key), 401, 'revoked_api_key');
    expect((await usage(server, server.key)).status).toBe(200);
    expect((await listKeys(server)).keys.find((k) => k.key_id === created.key_id)?.status).toBe('revoked');
  });

  it('is idempotent: revoking again answers the same record, with the first revoked_at', async () => {
    let now = new Date('2025-03-15T12:00:00.000Z');
    const server = await serve({ now: () => now });
    const first = await revoke(server, server.keyId);
    now = new Date('2025-03-15T13:00:00.000Z');
    const second = await revoke(server, server.keyId);
    expect(second.status).toBe(200);
    expect(second.json).toEqual(first.json);
    expect(second.json.revoked_at).toBe('2025-03-15T12:00:00.000Z');
  });

  it("an unknown key_id, or another account's key → 404 not_found pointing at GET /v1/keys; nothing is revoked", async () => {
    const server = await serve();
    const theirs = server.state.issueKey('theirs', { account: 'acct_other' });
    for (const keyId of ['key_000000000000', theirs.key_id, 'key/../x']) {
      expect(expectError(await revoke(server, keyId), 404, 'not_found')).toMatch(/Take the key_id from GET \/v1\/keys/);
    }
    expect((await usage(server, theirs.api_key)).status).toBe(200);
  });

  it('an API key in place of the key_id is refused (400) without echoing it, and nothing is revoked', async () => {
    const server = await serve();
    const reply = await revoke(server, server.key);
    expectError(reply, 400, 'invalid_request');
    expect(reply.text).not.toContain(server.key.slice(9));
    expect((await usage(server, server.key)).status).toBe(200);
  });

  it('another server on the same data directory keeps accepting a key it accepted until its cache entry is 60 s old', async () => {
    let now = new Date('2025-03-15T12:00:00.000Z');
    const a = await serve({ now: () => now });
    const b = await serve({ now: () => now, stateDir: a.stateDir });
    const created = (await createKey(a, { name: 'shared' })).json as CreatedApiKey;
    expect((await usage(b, created.api_key)).status).toBe(200);
    expect((await revoke(a, created.key_id)).status).toBe(200);
    expectError(await usage(a, created.api_key), 401, 'revoked_api_key');
    now = new Date('2025-03-15T12:00:59.999Z');
    expect((await usage(b, created.api_key)).status).toBe(200);
    now = new Date('2025-03-15T12:01:00.000Z');
    expectError(await usage(b, created.api_key), 401, 'revoked_api_key');
  });

  it('with an authentication cache TTL of 0, the other server refuses the revoked key at once', async () => {
    const a = await serve({ authCacheTtlMs: 0 });
    const b = await serve({ authCacheTtlMs: 0, stateDir: a.stateDir });
    expect((await usage(b, a.key)).status).toBe(200);
    expect((await revoke(a, a.keyId)).status).toBe(200);
    expectError(await usage(b, a.key), 401, 'revoked_api_key');
  });
});
