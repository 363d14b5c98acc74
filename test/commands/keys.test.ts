/**
 * `pravo keys create | list | revoke | rotate` run in this process against a made-up key service (the sandbox's
 * shapes): what is sent and with which credential, what is printed (never a secret where it should not be), the
 * confirmations, and rotations that fail or stop at each step and are rerun.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli.js';
import { keysService, SESSION, type FakeKey, type KeysService } from '../helpers/keys-service.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { runPravo, testHost } from '../helpers/host.js';
import { plain, readProfile, writeProfiles as writeProfilesIn } from '../helpers/profiles.js';

let root: string;
let env: NodeJS.ProcessEnv;
let service: KeysService;
let old: FakeKey;

beforeEach(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'pravo-cmd-keys-'));
  env = { PRAVO_CONFIG_DIR: path.join(root, 'config'), PRAVO_STATE_DIR: path.join(root, 'state'), PRAVO_CACHE_DIR: path.join(root, 'cache') };
  service = await keysService();
  old = service.addKey('ci-deploy');
  writeProfiles({ default: { base_url: service.url, api_key: old.secret, session_token: SESSION } });
});

afterEach(async () => {
  await service.close();
  fs.rmSync(root, { recursive: true, force: true });
});

const writeProfiles = (profiles: Record<string, Record<string, unknown>>): void => writeProfilesIn(path.join(root, 'config'), profiles);
const storedProfile = (name = 'default'): Record<string, unknown> => readProfile(path.join(root, 'config'), name);
const sent = (): string[] => service.requests.map((r) => `${r.method} ${r.url}`);
const active = (): string[] => service.keys.filter((k) => k.status === 'active').map((k) => k.key_id);

describe('pravo keys list', () => {
  it('on a terminal: a table of the keys, the profile\'s key marked, never a secret; sent with the session token', async () => {
    const other = service.addKey('staging');
    service.keys[1]!.status = 'revoked';
    service.keys[1]!.revoked_at = '2026-11-22T10:30:00.000Z';
    const result = await runPravo(['keys', 'list'], { env, stdoutTTY: true, columns: 120 });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('2 keys: 1 active, 1 revoked. * marks the key of profile "default".');
    expect(plain(result.stdout)).toMatch(new RegExp(`\\* +│ ${old.key_id} +│ ci-deploy +│ ${old.prefix} +│ active`));
    expect(plain(result.stdout)).toMatch(new RegExp(`│ ${other.key_id} +│ staging .*│ revoked +│`));
    expect(plain(result.stdout)).toMatch(/│ 2026-11-22 +│ (2026-11-22 +│ )?never +│/);
    for (const key of service.keys) expect(result.stdout + result.stderr).not.toContain(key.secret);
    expect(sent()).toEqual(['GET /v1/keys']);
    expect(service.requests[0]!.headers.authorization).toBe(`Bearer ${SESSION}`);
    expect(service.requests[0]!.headers['x-api-key']).toBeUndefined();
  });

  it('piped: one TSV line per key, with current true for the profile\'s key; --json is the body as sent', async () => {
    service.addKey('staging');
    const tsv = await runPravo(['keys', 'list'], { env });
    const lines = tsv.stdout.trimEnd().split('\n').map((l) => l.split('\t'));
    expect(lines.map((l) => [l[0], l[1], l[4], l[8]])).toEqual([
      [old.key_id, 'ci-deploy', 'active', 'true'],
      [service.keys[1]!.key_id, 'staging', 'active', 'false'],
    ]);
    const json = await runPravo(['keys', 'list', '--json'], { env });
    expect(JSON.parse(json.stdout)).toEqual({ keys: service.keys.map(({ secret: _s, ...rest }) => rest) });
  });

  it('keeps the ids, names and statuses it listed (never a secret or prefix) so that `pravo keys revoke <TAB>` can offer them; a revoke marks its key', async () => {
    const other = service.addKey('staging');
    expect((await runPravo(['keys', 'list'], { env })).exitCode).toBe(0);
    const { candidates } = await import('../../src/completion/dynamic.js');
    expect(candidates('keys', ['keys', 'revoke'], env)).toEqual([
      { value: old.key_id, description: 'ci-deploy' },
      { value: other.key_id, description: 'staging' },
    ]);
    const kept = fs.readFileSync(path.join(root, 'state', 'keys', 'default.json'), 'utf8');
    for (const key of service.keys) {
      expect(kept).not.toContain(key.secret);
      expect(kept).not.toContain(key.prefix);
    }
    expect((await runPravo(['keys', 'revoke', other.key_id, '--yes'], { env })).exitCode).toBe(0);
    expect(candidates('keys', ['keys', 'revoke'], env)).toEqual([{ value: old.key_id, description: 'ci-deploy' }]);
  });

  it('without a session token: exit 4, nothing sent, and the advice names pravo login', async () => {
    writeProfiles({ default: { base_url: service.url, api_key: old.secret } });
    const result = await runPravo(['keys', 'list'], { env });
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain('No user-session token is configured for profile "default"');
    expect(result.stderr).toContain('pravo login');
    expect(service.requests).toHaveLength(0);
  });

  it('a refused token: exit 4 with the code, and the fix depends on where the token came from', async () => {
    const stored = await runPravo(['keys', 'list'], { env: { ...env, PRAVO_SESSION_TOKEN: 'sbx_sess_expiredOrWrong000000000000' } });
    expect(stored.exitCode).toBe(4);
    expect(stored.stderr).toContain('The user session was rejected (invalid_session_token)');
    expect(stored.stderr).toContain('PRAVO_SESSION_TOKEN');
  });
});

describe('pravo keys create', () => {
  it('prints the full key once on stdout, warns on stderr that it will not be shown again, and sends only the name', async () => {
    const result = await runPravo(['keys', 'create', '--name', '  nightly-batch '], { env });
    expect(result.exitCode).toBe(0);
    const created = service.keys.at(-1)!;
    expect(result.stdout).toBe(`${created.secret}\n`);
    expect(result.stderr).toContain(`Created key ${created.key_id} "nightly-batch"`);
    expect(result.stderr).toContain('only time its full value is shown');
    expect(result.stderr).not.toContain(created.secret);
    expect(JSON.parse(service.requests.at(-1)!.body)).toEqual({ name: 'nightly-batch' });
  });

  it('--save-to-profile stores the key and its id in that profile (with the base URL) and prints no secret', async () => {
    const result = await runPravo(['keys', 'create', '--name', 'staging', '--save-to-profile', 'staging', '--json'], { env });
    expect(result.exitCode).toBe(0);
    const created = service.keys.at(-1)!;
    expect(result.stdout + result.stderr).not.toContain(created.secret);
    expect(JSON.parse(result.stdout)).toMatchObject({ key_id: created.key_id, prefix: created.prefix, profile: 'staging' });
    expect(storedProfile('staging')).toEqual({ base_url: service.url, api_key: created.secret, api_key_id: created.key_id, auth_header: 'x-api-key' });
    const usage = await runPravo(['--profile', 'staging', 'usage', '--json'], { env });
    expect(usage.exitCode).toBe(0);
  });

  it('refuses, before sending, a bad name or a profile that already holds a key', async () => {
    for (const args of [['--name', ' '], ['--name', 'x'.repeat(101)], ['--name', 'tab\there'], ['--name', 'ok', '--save-to-profile', 'default']]) {
      const result = await runPravo(['keys', 'create', ...args], { env });
      expect(result.exitCode, args.join(' ')).toBe(2);
    }
    const taken = await runPravo(['keys', 'create', '--name', 'ok', '--save-to-profile', 'default'], { env });
    expect(taken.stderr).toContain('already holds a key');
    expect(taken.stderr).toContain('pravo keys rotate --profile default');
    expect(service.requests).toHaveLength(0);
  });

  it('a failure that may have created the key says how to find it', async () => {
    service.fault = (r) => (r.method === 'POST' ? { status: 502, body: 'bad gateway', after: true } : undefined);
    const result = await runPravo(['keys', 'create', '--name', 'lost'], { env });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('may have been created without pravo seeing it');
    expect(result.stderr).toContain('pravo keys list');
  });
});

describe('pravo keys revoke', () => {
  it('without a terminal, --yes is required: exit 2 and nothing sent', async () => {
    const result = await runPravo(['keys', 'revoke', old.key_id], { env });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('add --yes');
    expect(service.requests).toHaveLength(0);
  });

  it('--yes revokes at once, says other instances may accept it for up to 60 s, and warns when it was the profile\'s key', async () => {
    const result = await runPravo(['keys', 'revoke', old.key_id, '--yes'], { env });
    expect(result.exitCode).toBe(0);
    expect(sent()).toEqual([`POST /v1/keys/${old.key_id}/revoke`]);
    expect(old.status).toBe('revoked');
    expect(result.stderr).toContain(`Revoked key ${old.key_id} "ci-deploy"`);
    expect(result.stderr).toContain('up to 60 s');
    expect(result.stderr).toContain('It was the key of profile "default"');
  });

  it('an id not on the account: exit 1, and the hint points at keys list', async () => {
    const result = await runPravo(['keys', 'revoke', 'key_nope', '--yes'], { env });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('No such key on this account');
    expect(result.stderr).toContain('pravo keys list');
  });

  it('on a terminal, asks naming the key and warning that it is the key in use; no means nothing is revoked', async () => {
    const t = testHost({ env, stdinTTY: true, stderrTTY: true });
    const done = main(['keys', 'revoke', old.key_id], t.host);
    await vi.waitFor(() => expect(plain(t.stderr())).toMatch(/Revoke key key_\d+ "ci-deploy" \(sbx_live_\w+…, active, created 2026-11-22\)\?/));
    expect(plain(t.stderr()).replace(/\n/g, '')).toContain('It is the key of profile "default": pravo stops working with it at once.');
    (t.host.stdin as PassThrough).write('n\r');
    expect(await done).toBe(130);
    expect(sent()).toEqual(['GET /v1/keys']);
    expect(old.status).toBe('active');
  });

  it('on a terminal, Enter alone revokes nothing, for a key other than the one in use too: the default is no', async () => {
    const other = service.addKey('staging');
    const t = testHost({ env, stdinTTY: true, stderrTTY: true });
    const done = main(['keys', 'revoke', other.key_id], t.host);
    await vi.waitFor(() => expect(plain(t.stderr())).toMatch(/Revoke key key_\d+ "staging" .*\(y\/N\)/s));
    expect(plain(t.stderr())).not.toContain('It is the key of');
    (t.host.stdin as PassThrough).write('\r');
    expect(await done).toBe(130);
    expect(sent()).toEqual(['GET /v1/keys']);
    expect(other.status).toBe('active');
  });
});

describe('pravo keys rotate', () => {
  /**
   * Five minutes after the made-up service created its keys (10:00 UTC): a rerun recognises a key created by the run it
   * continues by its creation time, so the runs need a clock that agrees with the service's, whatever the day.
   */
  const clock = (): FakeClock => new FakeClock(Date.parse('2026-11-22T10:05:00Z'));

  it('creates, stores, confirms the new key with GET /v1/usage, revokes the old one: the profile ends on a working new key', async () => {
    const result = await runPravo(['keys', 'rotate', '--yes', '--json'], { env, clock: clock() });
    expect(result.exitCode, result.stderr).toBe(0);
    const fresh = service.keys.at(-1)!;
    expect(sent()).toEqual(['GET /v1/keys', 'POST /v1/keys', 'GET /v1/usage', `POST /v1/keys/${old.key_id}/revoke`]);
    expect(service.requests[2]!.headers['x-api-key']).toBe(fresh.secret);
    expect(fresh.name).toMatch(/^ci-deploy \(rotated \d{4}-\d\d-\d\d\)$/);
    expect(storedProfile()).toEqual({ base_url: service.url, api_key: fresh.secret, api_key_id: fresh.key_id, session_token: SESSION });
    expect(active()).toEqual([fresh.key_id]);
    expect(JSON.parse(result.stdout)).toMatchObject({ done: true, new_key: { key_id: fresh.key_id }, old_key: { key_id: old.key_id, status: 'revoked' } });
    expect(result.stderr).toContain('up to 60 s');
    expect(result.stdout + result.stderr).not.toContain(fresh.secret);
  });

  it('rotates the profile\'s stored key when PRAVO_API_KEY overrides it, and says that the variable still applies', async () => {
    const result = await runPravo(['keys', 'rotate', '--yes'], { env: { ...env, PRAVO_API_KEY: `sbx_live_${'E'.repeat(32)}` }, clock: clock() });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(old.status).toBe('revoked');
    expect(storedProfile().api_key).toBe(service.keys.at(-1)!.secret);
    expect(result.stderr).toContain('PRAVO_API_KEY is set in this environment and overrides');
  });

  it('a new key that fails its confirmation: the old key goes back into the profile, the new one is revoked', async () => {
    service.fault = (r) => (r.url === '/v1/usage' ? { status: 500, body: '{"error":{"code":"internal_error","message":"boom"}}' } : undefined);
    const result = await runPravo(['keys', 'rotate', '--yes'], { env, clock: clock() });
    expect(result.exitCode).toBe(1);
    expect(storedProfile()).toEqual({ base_url: service.url, api_key: old.secret, api_key_id: old.key_id, session_token: SESSION });
    expect(active()).toEqual([old.key_id]);
    expect(result.stderr).toContain('failed its confirmation');
    expect(result.stderr).toContain('revoked the unused new key');
  });

  it('stopped after the server created the key but before pravo saw it: the rerun revokes that lost key, then finishes', async () => {
    service.fault = (r) => (r.method === 'POST' && r.url === '/v1/keys' ? { status: 503, body: 'unavailable', after: true } : undefined);
    const first = await runPravo(['keys', 'rotate', '--yes'], { env, clock: clock() });
    expect(first.exitCode).toBe(1);
    expect(storedProfile().api_key).toBe(old.secret);
    expect(storedProfile().rotation).toMatchObject({ step: 'planned' });
    expect(first.stderr).toContain('still uses the old key');
    const lost = service.keys.at(-1)!;
    expect(active()).toEqual([old.key_id, lost.key_id]);

    service.fault = undefined;
    const rerun = await runPravo(['keys', 'rotate', '--yes'], { env, clock: clock() });
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    expect(rerun.stderr).toContain('Continuing the rotation');
    expect(rerun.stderr).toContain(`revoked ${lost.key_id}`);
    const fresh = service.keys.at(-1)!;
    expect(active()).toEqual([fresh.key_id]);
    expect(storedProfile()).toMatchObject({ api_key: fresh.secret, api_key_id: fresh.key_id });
    expect(storedProfile().rotation).toBeUndefined();
  });

  it('stopped before the old key is revoked: the profile is on the new key, and the rerun only revokes the old one', async () => {
    service.fault = (r) => (r.url.endsWith('/revoke') ? { status: 503, body: 'unavailable' } : undefined);
    const first = await runPravo(['keys', 'rotate', '--yes'], { env, clock: clock() });
    expect(first.exitCode).toBe(1);
    const fresh = service.keys.at(-1)!;
    expect(storedProfile()).toMatchObject({ api_key: fresh.secret, rotation: { step: 'verified' } });
    expect(first.stderr).toContain('the old key');
    expect(first.stderr).toContain('is still active');
    service.fault = undefined;
    service.requests.length = 0;
    const rerun = await runPravo(['keys', 'rotate', '--yes'], { env, clock: clock() });
    expect(rerun.exitCode).toBe(0);
    expect(sent()).toEqual([`POST /v1/keys/${old.key_id}/revoke`]);
    expect(active()).toEqual([fresh.key_id]);
  });

  it('a failed confirmation whose clean-up also fails: the rerun revokes the unused key, then rotates', async () => {
    service.fault = (r) => (r.url === '/v1/usage' || r.url.endsWith('/revoke') ? { status: 500, body: 'down' } : undefined);
    const first = await runPravo(['keys', 'rotate', '--yes'], { env, clock: clock() });
    expect(first.exitCode).toBe(1);
    expect(storedProfile()).toMatchObject({ api_key: old.secret, rotation: { step: 'reverted' } });
    expect(first.stderr).toContain('is back on the old key');
    const unused = service.keys.at(-1)!;
    service.fault = undefined;
    const rerun = await runPravo(['keys', 'rotate', '--yes'], { env, clock: clock() });
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    expect(unused.status).toBe('revoked');
    const fresh = service.keys.at(-1)!;
    expect(active()).toEqual([fresh.key_id]);
    expect(storedProfile().api_key).toBe(fresh.secret);
  });

  it('on a terminal, declining to revoke the old key leaves the new key in use and says so (exit 130)', async () => {
    const t = testHost({ env, stdinTTY: true, stderrTTY: true, clock: clock() });
    const done = main(['keys', 'rotate'], t.host);
    await vi.waitFor(() => expect(t.stderr()).toContain('Revoke the old key'));
    (t.host.stdin as PassThrough).write('n\r');
    expect(await done).toBe(130);
    expect(t.stderr()).toContain('The old key was not revoked.');
    // On a terminal, the message is broken at spaces to its width.
    expect(plain(t.stderr()).replace(/\n/g, ' ')).toMatch(/uses the new key key_\d+ .* \(active, confirmed\); the old key key_\d+ .* is still active/);
    expect(active()).toHaveLength(2);
  });

  it('refuses before sending: no terminal without --yes, no key; after listing: a key not on the account', async () => {
    expect((await runPravo(['keys', 'rotate'], { env, clock: clock() })).exitCode).toBe(2);
    writeProfiles({ default: { base_url: service.url, session_token: SESSION } });
    expect((await runPravo(['keys', 'rotate', '--yes'], { env, clock: clock() })).exitCode).toBe(2);
    expect(service.requests).toHaveLength(0);
    writeProfiles({ default: { base_url: service.url, session_token: SESSION, api_key: `sbx_live_${'Z'.repeat(32)}` } });
    const stranger = await runPravo(['keys', 'rotate', '--yes'], { env, clock: clock() });
    expect(stranger.exitCode).toBe(2);
    expect(stranger.stderr).toContain('is not among the keys of the account');
    expect(sent()).toEqual(['GET /v1/keys']);
    expect(storedProfile().rotation).toBeUndefined();
  });
});
