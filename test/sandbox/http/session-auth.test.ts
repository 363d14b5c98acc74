/**
 * User-session authentication over HTTP (`authenticateSession` in `src/sandbox/http/auth.ts`; spec: Authentication,
 * User-session token; README "Sandbox: keys and account"): the four session codes, API keys refused on the key and
 * account endpoints and session tokens refused on the API-key endpoints, tokens never repeated in messages or logs,
 * and a token minted by another handle on the data directory accepted at once.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_ACCOUNT_ID, SandboxState } from '../../../src/sandbox/state/store.js';
import { expectError, request, useTestServers, type Reply, type TestServer } from './harness.js';

const { serve } = useTestServers('pravo-session-http-');

function account(server: TestServer, headers: Record<string, string>): Promise<Reply> {
  return request(server.baseUrl, 'GET', '/v1/account', { headers });
}

describe('the key and account endpoints take a session token', () => {
  it('a valid Authorization: Bearer session token → 200 (any case of "Bearer"), logged by session id', async () => {
    const server = await serve();
    expect((await account(server, { authorization: `Bearer ${server.session}` })).status).toBe(200);
    expect((await account(server, { authorization: `bearer   ${server.session}` })).status).toBe(200);
    expect(server.logs[0]).toMatch(new RegExp(`^GET /v1/account 200 \\d+ms session=${server.sessionId} req_[0-9a-f]{16}$`));
  });

  it('no Authorization header → 401 missing_session_token, saying where to get a token', async () => {
    const server = await serve();
    const message = expectError(await account(server, {}), 401, 'missing_session_token');
    expect(message).toMatch(/pravo sandbox token/);
    expect(message).toMatch(/Authorization: Bearer/);
    expectError(await account(server, { authorization: 'Bearer ' }), 401, 'missing_session_token');
    expectError(await account(server, { authorization: 'Bearer' }), 401, 'missing_session_token');
  });

  it.each([
    ['an X-API-Key header', (s: TestServer) => ({ 'x-api-key': s.key })],
    ['an unknown key in X-API-Key', () => ({ 'x-api-key': `sbx_live_${'Z'.repeat(32)}` })],
    ['an API key as the bearer token', (s: TestServer) => ({ authorization: `Bearer ${s.key}` })],
    ['X-API-Key beside a valid session token', (s: TestServer) => ({ 'x-api-key': s.key, authorization: `Bearer ${s.session}` })],
  ])('%s → 401 api_key_not_accepted, not repeating the key', async (_name, headers) => {
    const server = await serve();
    for (const [method, path] of [['GET', '/v1/keys'], ['POST', '/v1/keys'], ['GET', '/v1/account'], ['PATCH', '/v1/account/overages']] as const) {
      const reply = await request(server.baseUrl, method, path, { headers: headers(server), body: method === 'GET' ? undefined : '{}' });
      const message = expectError(reply, 401, 'api_key_not_accepted');
      expect(message).toMatch(/takes a user-session token, not an API key/);
      expect(message).toMatch(/pravo sandbox token/);
      expect(reply.text).not.toContain(server.key.slice(9));
    }
  });

  it.each([
    ['an unknown token of the sandbox form', `Bearer sbx_sess_${'Q'.repeat(32)}`],
    ['a malformed token', 'Bearer hello'],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['a token with a character too many', 'Bearer sbx_sess_QQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQ'],
  ])('%s → 401 invalid_session_token', async (_name, authorization) => {
    const server = await serve();
    const reply = await account(server, { authorization });
    expectError(reply, 401, 'invalid_session_token');
    expect(reply.text).not.toContain('QQQQQQQQ');
    expect(reply.text).not.toContain('dXNlcjpwYXNz');
  });

  it('a token past its expires_at → 401 expired_session_token (from that instant on), saying how to get a new one', async () => {
    let now = new Date('2025-03-15T12:00:00.000Z');
    const server = await serve({ now: () => now });
    now = new Date('2025-03-16T11:59:59.999Z');
    expect((await account(server, { authorization: `Bearer ${server.session}` })).status).toBe(200);
    now = new Date('2025-03-16T12:00:00.000Z');
    const reply = await account(server, { authorization: `Bearer ${server.session}` });
    expect(expectError(reply, 401, 'expired_session_token')).toMatch(/pravo sandbox token/);
    expect(reply.text).not.toContain(server.session);
    expect(reply.text).not.toContain(server.session.slice(9));
  });

  it('a token minted by another handle on the data directory (pravo sandbox token) is accepted at once', async () => {
    const server = await serve();
    const other = SandboxState.open(server.stateDir, { now: () => new Date('2025-03-15T12:00:00Z') });
    const minted = other.createSession(DEFAULT_ACCOUNT_ID, { ttlMs: 60_000 });
    other.close();
    expect((await account(server, { authorization: `Bearer ${minted.session_token}` })).status).toBe(200);
  });

  it('the log names sessions by id and never holds a token', async () => {
    const server = await serve();
    const unknown = `sbx_sess_${'U'.repeat(32)}`;
    await account(server, { authorization: `Bearer ${server.session}` });
    await account(server, { authorization: `Bearer ${unknown}` });
    await account(server, { 'x-api-key': server.key });
    expect(server.logs).toHaveLength(3);
    expect(server.logs[1]).toMatch(/^GET \/v1\/account 401 \d+ms key=- req_/);
    for (const line of server.logs) {
      expect(line).not.toContain(server.session.slice(9));
      expect(line).not.toContain('U'.repeat(16));
      expect(line).not.toContain(server.key.slice(9));
    }
  });
});

describe('the API-key endpoints refuse session tokens', () => {
  it.each([
    ['X-API-Key', (token: string) => ({ 'x-api-key': token })],
    ['Authorization: Bearer', (token: string) => ({ authorization: `Bearer ${token}` })],
  ])('a session token in %s → 401 invalid_api_key saying it is a session token', async (_name, headers) => {
    const server = await serve();
    for (const [method, path] of [['GET', '/v1/usage'], ['GET', '/v1/catalog/courts'], ['POST', '/v1/search']] as const) {
      const reply = await request(server.baseUrl, method, path, { headers: headers(server.session), body: method === 'POST' ? '{"query":"договор"}' : undefined });
      const message = expectError(reply, 401, 'invalid_api_key');
      expect(message).toMatch(/user-session token, not an API key/);
      expect(reply.text).not.toContain(server.session.slice(9));
    }
    expect(server.state.used(DEFAULT_ACCOUNT_ID, 'search')).toBe(0);
  });
});
