/**
 * Keys, sign-in and the account end to end: the built CLI against `pravo sandbox serve` processes over
 * `../shared/corpus`, each test on a data directory of its own. What issue 10 promises: a created key works and is
 * listed without its secret; a revoked key is refused with `revoked_api_key` at once by the process that revoked it,
 * and by a second process on the same data directory within its authentication cache's time; `keys rotate` leaves the
 * profile on a new working key and the old one revoked; a rotation whose confirmation fails, and rotations killed
 * between steps and rerun, leave the profile on a working key and no lost key active; an API key sent to a session
 * endpoint and a session token sent to an API-key endpoint are refused with their distinct codes; the overage setting
 * changes what `monthly_quota_exceeded` does.
 */
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest';
import { faultProxy, type FaultProxy } from '../helpers/fault-proxy.js';
import { readProfile } from '../helpers/profiles.js';
import { linkedDataDir, pravo, serveSandbox, tempDir, type Served } from './helpers.js';
import { CLI } from './paths.js';

const shared = inject('sandbox');
const home = tempDir('keys');
afterAll(() => home.cleanup());

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
});

interface StoredProfile {
  base_url?: string;
  api_key?: string;
  api_key_id?: string;
  session_token?: string;
  rotation?: { step: string };
}

/** A config directory of its own, and a sandbox on a data directory of its own whose key and token are in profile `sandbox`. */
async function setUp(name: string, args: string[] = []): Promise<{ config: Record<string, string>; served: Served; data: string }> {
  const config = { PRAVO_CONFIG_DIR: path.join(home.dir, name) };
  const data = linkedDataDir(home.dir, shared.dataDir);
  const served = await serveSandbox(data, config, args);
  stops.push(served.stop);
  return { config, served, data };
}

function profileOf(config: Record<string, string>, name: string): StoredProfile {
  return readProfile(config.PRAVO_CONFIG_DIR!, name) as StoredProfile;
}

function writeProfile(config: Record<string, string>, name: string, profile: StoredProfile): void {
  const file = path.join(config.PRAVO_CONFIG_DIR!, 'config.json');
  const data = JSON.parse(fs.readFileSync(file, 'utf8')) as { profiles: Record<string, StoredProfile> };
  data.profiles[name] = profile;
  fs.writeFileSync(file, JSON.stringify(data), { mode: 0o600 });
}

/** `GET path` with headers, status and error code. */
async function call(baseUrl: string, route: string, headers: Record<string, string>): Promise<{ status: number; code: string | undefined }> {
  const response = await fetch(`${baseUrl}${route}`, { headers });
  const body = (await response.json()) as { error?: { code?: string } };
  return { status: response.status, code: body.error?.code };
}

/** The account's keys, as `pravo keys list --json` gives them. */
async function keys(config: Record<string, string>, profile = 'sandbox'): Promise<Array<{ key_id: string; name: string; status: string }>> {
  const listed = await pravo(['--profile', profile, 'keys', 'list', '--json'], { env: config });
  expect(listed.exitCode, listed.stderr).toBe(0);
  return (JSON.parse(listed.stdout) as { keys: Array<{ key_id: string; name: string; status: string }> }).keys;
}

/** Whether the key works: `pravo usage` with it against `baseUrl`. */
async function works(baseUrl: string, apiKey: string, config: Record<string, string>): Promise<{ ok: boolean; stderr: string }> {
  const result = await pravo(['usage', '--json'], { env: { ...config, PRAVO_BASE_URL: baseUrl, PRAVO_API_KEY: apiKey } });
  return { ok: result.exitCode === 0, stderr: result.stderr };
}

describe('keys end to end', () => {
  it('a created key works and is listed without its secret; revoked, it is refused at once here and within the cache time elsewhere', async () => {
    const { config, served, data } = await setUp('create');
    const created = await pravo(['--profile', 'sandbox', 'keys', 'create', '--name', 'e2e created'], { env: config });
    expect(created.exitCode, created.stderr).toBe(0);
    const key = created.stdout.trim();
    expect(key).toMatch(/^sbx_live_[A-Za-z0-9]{32}$/);
    expect(created.stderr).toContain('only time its full value is shown');
    expect((await works(served.baseUrl, key, config)).ok).toBe(true);

    const listed = await pravo(['--profile', 'sandbox', 'keys', 'list', '--json'], { env: config });
    expect(listed.stdout).not.toContain(key);
    const record = (JSON.parse(listed.stdout) as { keys: Array<{ key_id: string; name: string; prefix: string; status: string }> }).keys.find((k) => k.name === 'e2e created');
    expect(record).toMatchObject({ status: 'active' });
    expect(key.startsWith(record!.prefix)).toBe(true);

    // A second process on the same data directory, with a 5-second authentication cache, learns the key now.
    const other = await serveSandbox(data, { PRAVO_CONFIG_DIR: path.join(home.dir, 'create-other') }, ['--auth-cache-ttl', '5']);
    stops.push(other.stop);
    expect((await call(other.baseUrl, '/v1/usage', { 'x-api-key': key })).status).toBe(200);

    const revoked = await pravo(['--profile', 'sandbox', 'keys', 'revoke', record!.key_id, '--yes'], { env: config });
    expect(revoked.exitCode, revoked.stderr).toBe(0);
    expect(revoked.stderr).toContain('up to 60 s');
    const revokedAt = Date.now();
    expect(await call(served.baseUrl, '/v1/usage', { 'x-api-key': key })).toEqual({ status: 401, code: 'revoked_api_key' });
    const here = await works(served.baseUrl, key, config);
    expect(here.ok).toBe(false);
    expect(here.stderr).toContain('revoked_api_key');

    // The other process refuses it once its cache entry (at most 5 s old) expires: polled, with a deadline.
    let refusedAfter: number | undefined;
    while (refusedAfter === undefined && Date.now() - revokedAt < 15_000) {
      const answer = await call(other.baseUrl, '/v1/usage', { 'x-api-key': key });
      if (answer.status === 401) {
        expect(answer.code).toBe('revoked_api_key');
        refusedAfter = Date.now() - revokedAt;
      } else {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    expect(refusedAfter).toBeDefined();
    expect(refusedAfter!).toBeLessThanOrEqual(5_000 + 1_000);
  }, 60_000);

  it('an API key at a session endpoint and a session token at an API-key endpoint are refused with their own codes', async () => {
    const { config, served } = await setUp('codes');
    const { api_key: key, session_token: token } = profileOf(config, 'sandbox');
    expect(token).toMatch(/^sbx_sess_/);
    expect(await call(served.baseUrl, '/v1/account', { 'x-api-key': key! })).toEqual({ status: 401, code: 'api_key_not_accepted' });
    expect(await call(served.baseUrl, '/v1/keys', { authorization: `Bearer ${key}` })).toEqual({ status: 401, code: 'api_key_not_accepted' });
    expect(await call(served.baseUrl, '/v1/usage', { authorization: `Bearer ${token}` })).toEqual({ status: 401, code: 'invalid_api_key' });
    expect(await call(served.baseUrl, '/v1/account', {})).toEqual({ status: 401, code: 'missing_session_token' });

    const asToken = await pravo(['--profile', 'sandbox', 'keys', 'list'], { env: { ...config, PRAVO_SESSION_TOKEN: key! } });
    expect(asToken.exitCode).toBe(4);
    expect(asToken.stderr).toContain('api_key_not_accepted');
    expect(asToken.stderr).toContain('pravo login');
    const asKey = await pravo(['--profile', 'sandbox', 'usage'], { env: { ...config, PRAVO_API_KEY: token! } });
    expect(asKey.exitCode).toBe(4);
    expect(asKey.stderr).toContain('invalid_api_key');
  });

  it('keys rotate leaves the profile on a new working key and the old one revoked', async () => {
    const { config, served } = await setUp('rotate');
    const before = profileOf(config, 'sandbox');
    const rotated = await pravo(['--profile', 'sandbox', 'keys', 'rotate', '--yes', '--json'], { env: config });
    expect(rotated.exitCode, rotated.stderr).toBe(0);
    const after = profileOf(config, 'sandbox');
    expect(after.api_key).not.toBe(before.api_key);
    expect(after.rotation).toBeUndefined();
    expect(JSON.parse(rotated.stdout)).toMatchObject({ done: true, new_key: { key_id: after.api_key_id }, old_key: { key_id: before.api_key_id, status: 'revoked' } });
    expect((await pravo(['--profile', 'sandbox', 'search', '--json', 'неустойка договор'], { env: config })).exitCode).toBe(0);
    expect((await works(served.baseUrl, before.api_key!, config)).stderr).toContain('revoked_api_key');
    const listed = await keys(config);
    expect(listed.find((k) => k.key_id === before.api_key_id)?.status).toBe('revoked');
    expect(listed.find((k) => k.key_id === after.api_key_id)?.status).toBe('active');
  });
});

describe('rotations that fail or are killed', () => {
  /**
   * A sandbox behind a fault proxy, and profile `proxied` pointing at the proxy with a key of its own (created through
   * pravo) and the sandbox's session token.
   */
  async function proxied(name: string): Promise<{ config: Record<string, string>; served: Served; proxy: FaultProxy; oldKey: string; oldId: string }> {
    const { config, served } = await setUp(name);
    const proxy = await faultProxy(served.baseUrl);
    stops.push(() => proxy.close());
    writeProfile(config, 'proxied', { base_url: proxy.url, session_token: profileOf(config, 'sandbox').session_token! });
    const created = await pravo(['--profile', 'proxied', 'keys', 'create', '--name', `${name} old`], { env: config });
    expect(created.exitCode, created.stderr).toBe(0);
    const oldKey = created.stdout.trim();
    const oldId = (await keys(config)).find((k) => k.name === `${name} old`)!.key_id;
    writeProfile(config, 'proxied', { ...profileOf(config, 'proxied'), api_key: oldKey, api_key_id: oldId });
    return { config, served, proxy, oldKey, oldId };
  }

  /** Runs `pravo --profile proxied keys rotate --yes` and kills it with SIGKILL when the proxy holds an exchange. */
  async function rotateUntilKilled(config: Record<string, string>, proxy: FaultProxy): Promise<void> {
    const child = execa('node', [CLI, '--profile', 'proxied', 'keys', 'rotate', '--yes'], {
      env: { ...config, PRAVO_STATE_DIR: path.join(config.PRAVO_CONFIG_DIR!, 'state'), PRAVO_CACHE_DIR: path.join(config.PRAVO_CONFIG_DIR!, 'cache') },
      reject: false,
    });
    proxy.onHeld = () => child.kill('SIGKILL');
    const result = await child;
    expect(result.signal, result.stderr).toBe('SIGKILL');
  }

  /** The active keys of a rotation of profile `proxied` (named after `<name> old`). */
  async function activeRotated(config: Record<string, string>, name: string): Promise<string[]> {
    return (await keys(config)).filter((k) => k.status === 'active' && k.name.startsWith(`${name} old (rotated`)).map((k) => k.key_id);
  }

  it('a new key that fails its confirmation: the profile is back on the old, working key, and the new one is revoked', async () => {
    const { config, served, proxy, oldKey, oldId } = await proxied('verify');
    proxy.rule = (r) => (r.url === '/v1/usage' ? { status: 500, body: '{"error":{"code":"internal_error","message":"made up for the test"}}' } : 'forward');
    const result = await pravo(['--profile', 'proxied', 'keys', 'rotate', '--yes'], { env: config });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('failed its confirmation');
    expect(profileOf(config, 'proxied')).toMatchObject({ api_key: oldKey, api_key_id: oldId });
    expect(profileOf(config, 'proxied').rotation).toBeUndefined();
    expect((await works(served.baseUrl, oldKey, config)).ok).toBe(true);
    expect(await activeRotated(config, 'verify')).toEqual([]);
  });

  it('killed while the new key is being confirmed: the profile holds the new, working key; the rerun finishes', async () => {
    const { config, served, proxy, oldKey, oldId } = await proxied('confirm');
    proxy.rule = (r) => (r.url === '/v1/usage' ? 'hold-request' : 'forward');
    await rotateUntilKilled(config, proxy);
    const stopped = profileOf(config, 'proxied');
    expect(stopped.rotation).toMatchObject({ step: 'deployed' });
    expect((await works(served.baseUrl, stopped.api_key!, config)).ok).toBe(true);

    proxy.rule = () => 'forward';
    const rerun = await pravo(['--profile', 'proxied', 'keys', 'rotate', '--yes'], { env: config });
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    expect(rerun.stderr).toContain('stopped at step "deployed"');
    const done = profileOf(config, 'proxied');
    expect(done.api_key).toBe(stopped.api_key);
    expect(done.rotation).toBeUndefined();
    expect((await works(served.baseUrl, done.api_key!, config)).ok).toBe(true);
    expect((await works(served.baseUrl, oldKey, config)).ok).toBe(false);
    expect(await activeRotated(config, 'confirm')).toEqual([done.api_key_id]);
    expect((await keys(config)).find((k) => k.key_id === oldId)?.status).toBe('revoked');
  });

  it('killed after the server created the key but before pravo saw it: the rerun revokes that lost key; one new key stays', async () => {
    const { config, served, proxy, oldKey } = await proxied('lost');
    proxy.rule = (r) => (r.method === 'POST' && r.url === '/v1/keys' ? 'hold-response' : 'forward');
    await rotateUntilKilled(config, proxy);
    const stopped = profileOf(config, 'proxied');
    expect(stopped).toMatchObject({ api_key: oldKey, rotation: { step: 'planned' } });
    expect((await works(served.baseUrl, oldKey, config)).ok).toBe(true);
    const [lost] = await activeRotated(config, 'lost');
    expect(lost).toBeDefined();

    proxy.rule = () => 'forward';
    const rerun = await pravo(['--profile', 'proxied', 'keys', 'rotate', '--yes'], { env: config });
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    expect(rerun.stderr).toContain(`revoked ${lost}`);
    const done = profileOf(config, 'proxied');
    expect(await activeRotated(config, 'lost')).toEqual([done.api_key_id]);
    expect((await works(served.baseUrl, done.api_key!, config)).ok).toBe(true);
    expect((await works(served.baseUrl, oldKey, config)).ok).toBe(false);
  });
});

describe('the account', () => {
  it('the overage setting changes what monthly_quota_exceeded does', async () => {
    const { config } = await setUp('overage', ['--quota', 'search=1']);
    const search = () => pravo(['--profile', 'sandbox', 'search', '--json', 'неустойка договор'], { env: config });
    expect((await search()).exitCode).toBe(0);
    const refused = await search();
    expect(refused.exitCode).toBe(5);
    expect(refused.stderr).toContain('monthly_quota_exceeded');

    const allowed = await pravo(['--profile', 'sandbox', 'account', 'overages', '--allow', '--limit', '1', '--yes', '--json'], { env: config });
    expect(allowed.exitCode, allowed.stderr).toBe(0);
    expect(JSON.parse(allowed.stdout)).toMatchObject({ overage: { allowed: true, monthly_limit: 1 } });
    expect((await search()).exitCode).toBe(0);
    const spent = await search();
    expect(spent.exitCode).toBe(5);
    const usage = JSON.parse((await pravo(['--profile', 'sandbox', 'usage', '--json'], { env: config })).stdout) as { overage: { used: number } };
    expect(usage.overage.used).toBe(1);

    await pravo(['--profile', 'sandbox', 'account', 'overages', '--allow', '--limit', '5', '--yes'], { env: config });
    expect((await search()).exitCode).toBe(0);
    const denied = await pravo(['--profile', 'sandbox', 'account', 'overages', '--deny', '--yes'], { env: config });
    expect(denied.exitCode).toBe(0);
    expect((await search()).exitCode).toBe(5);
    const shown = await pravo(['--profile', 'sandbox', 'account'], { env: config });
    expect(shown.stdout).toContain('overage\tfalse\t0');
  });
});
