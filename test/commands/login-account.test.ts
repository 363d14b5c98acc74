/**
 * `pravo login`, `logout`, `login --status`, `pravo account` and `account overages`, run in this process against a
 * made-up key and account service (the sandbox's shapes): the token is checked before it is stored, never echoed, and
 * never taken from argv; the account is shown in its three forms; overage changes only after consent.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli.js';
import { keysService, SESSION, type KeysService } from '../helpers/keys-service.js';
import { runPravo, testHost } from '../helpers/host.js';
import { plain, readProfile, writeProfiles as writeProfilesIn } from '../helpers/profiles.js';

let root: string;
let env: NodeJS.ProcessEnv;
let service: KeysService;
const KEY = 'sbx_live_TESTKEYabcdefghijklmnopqrstuvwx';

beforeEach(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'pravo-cmd-login-'));
  env = { PRAVO_CONFIG_DIR: path.join(root, 'config'), PRAVO_STATE_DIR: path.join(root, 'state'), PRAVO_CACHE_DIR: path.join(root, 'cache') };
  service = await keysService();
  writeProfiles({ default: { base_url: service.url, api_key: KEY } });
});

afterEach(async () => {
  await service.close();
  fs.rmSync(root, { recursive: true, force: true });
});

const configFile = (): string => path.join(root, 'config', 'config.json');
const writeProfiles = (profiles: Record<string, Record<string, unknown>>): void => writeProfilesIn(path.join(root, 'config'), profiles);
const stored = (): Record<string, unknown> => readProfile(path.join(root, 'config'));

describe('pravo login', () => {
  it('--stdin: checks the token with GET /v1/account, stores it in the profile (0600) and shows it only masked', async () => {
    const result = await runPravo(['login', '--stdin'], { env, input: `${SESSION}\n` });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(service.requests.map((r) => `${r.method} ${r.url} ${r.headers.authorization}`)).toEqual([`GET /v1/account Bearer ${SESSION}`]);
    expect(stored().session_token).toBe(SESSION);
    expect(fs.statSync(configFile()).mode & 0o777).toBe(0o600);
    expect(result.stderr).toContain('Signed in: stored session token …rstu for profile "default" (account acct_test, plan sandbox)');
    expect(result.stdout + result.stderr).not.toContain(SESSION);
    const shown = await runPravo(['config', 'show', '--json'], { env });
    expect(JSON.parse(shown.stdout)).toMatchObject({ session_token: '…rstu', session_token_source: 'from profile' });
  });

  it('a token the server refuses is not stored: exit 4 with the code', async () => {
    const result = await runPravo(['login', '--stdin'], { env, input: 'sbx_sess_WRONGwrongWRONGwrong00000000' });
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain('invalid_session_token');
    expect(stored().session_token).toBeUndefined();
  });

  it('refuses a token given as an argument, an API key given as the token, and no terminal without --stdin: nothing sent', async () => {
    const argv = await runPravo(['login', SESSION], { env });
    expect(argv.exitCode).toBe(2);
    expect(argv.stderr).toContain('never takes a session token as an argument');
    expect(argv.stderr).not.toContain(SESSION);
    const apiKey = await runPravo(['login', '--stdin'], { env, input: KEY });
    expect(apiKey.exitCode).toBe(2);
    expect(apiKey.stderr).toContain('That is an API key');
    const noTerminal = await runPravo(['login'], { env });
    expect(noTerminal.exitCode).toBe(2);
    expect(noTerminal.stderr).toContain('--stdin');
    expect(service.requests).toHaveLength(0);
    expect(stored().session_token).toBeUndefined();
  });

  it('at a terminal: a hidden prompt, nothing echoed while typing', async () => {
    const t = testHost({ env, stdinTTY: true, stderrTTY: true });
    const done = main(['login'], t.host);
    await vi.waitFor(() => expect(t.stderr()).toContain('Session token for profile "default":'));
    for (const char of SESSION) (t.host.stdin as PassThrough).write(char);
    (t.host.stdin as PassThrough).write('\r');
    expect(await done).toBe(0);
    expect(t.stderr()).not.toContain(SESSION);
    expect(stored().session_token).toBe(SESSION);
  });

  it('--no-verify stores a token without a base URL to check it against', async () => {
    writeProfiles({});
    const refused = await runPravo(['login', '--stdin'], { env, input: SESSION });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('--no-verify');
    const result = await runPravo(['login', '--stdin', '--no-verify', '--json'], { env, input: SESSION });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ profile: 'default', verified: false, session_token: '…rstu' });
    expect(service.requests).toHaveLength(0);
  });

  it('--status: exit 0 when the server accepts the token, 4 when there is none or it is refused; says where it comes from', async () => {
    const none = await runPravo(['login', '--status', '--json'], { env });
    expect(none.exitCode).toBe(4);
    expect(JSON.parse(none.stdout)).toMatchObject({ signed_in: false, source: 'unset', valid: null });
    writeProfiles({ default: { base_url: service.url, session_token: SESSION } });
    const valid = await runPravo(['login', '--status'], { env });
    expect(valid.exitCode).toBe(0);
    expect(valid.stderr).toContain('session token …rstu (stored in profile "default") is valid for account acct_test');
    const refused = await runPravo(['login', '--status', '--json'], { env: { ...env, PRAVO_SESSION_TOKEN: 'sbx_sess_stale0000000000000000000' } });
    expect(refused.exitCode).toBe(4);
    expect(JSON.parse(refused.stdout)).toMatchObject({ signed_in: true, source: 'env', valid: false, code: 'invalid_session_token' });
  });

  it('--status of a profile whose sandbox setting is on: exit 0, saying the in-process sandbox gives each command a session', async () => {
    writeProfiles({ offline: { sandbox: true } });
    const text = await runPravo(['login', '--status', '--profile', 'offline'], { env });
    expect(text.exitCode).toBe(0);
    expect(text.stderr).toMatch(/runs against the in-process sandbox .* need no sign-in/);
    const json = await runPravo(['login', '--status', '--json', '--profile', 'offline'], { env });
    expect(JSON.parse(json.stdout)).toMatchObject({ profile: 'offline', signed_in: true, source: 'sandbox', valid: null });
    expect(service.requests).toHaveLength(0);
  });

  it('logout forgets the stored token; a second logout has nothing to do', async () => {
    writeProfiles({ default: { base_url: service.url, session_token: SESSION } });
    const first = await runPravo(['logout'], { env });
    expect(first.stderr).toContain('Signed out');
    expect(stored().session_token).toBeUndefined();
    const second = await runPravo(['logout', '--json'], { env });
    expect(JSON.parse(second.stdout)).toEqual({ profile: 'default', removed: false });
  });
});

describe('pravo account', () => {
  beforeEach(() => writeProfiles({ default: { base_url: service.url, api_key: KEY, session_token: SESSION } }));

  it('shows the plan, the overage setting and the unit prices; TSV piped; --json the body', async () => {
    const text = await runPravo(['account'], { env, stdoutTTY: true });
    expect(text.exitCode).toBe(0);
    expect(text.stdout).toContain('Account      acct_test\nPlan         sandbox\nOverage      not allowed');
    // Wrapped to the terminal's 100 columns, its continuation under the value.
    expect(text.stdout.replace(/\n {13}/g, ' ')).toContain('Unit prices  search €0.02, retrieval €0.01, answers €0.25 per unit beyond the quota (set by the server)');
    const tsv = await runPravo(['account'], { env });
    expect(tsv.stdout).toContain('account\tacct_test\nplan\tsandbox\noverage\tfalse\t0\nunit_price\tsearch\t0.02\tEUR\n');
    const json = await runPravo(['account', '--json'], { env });
    expect(JSON.parse(json.stdout)).toMatchObject({ account_id: 'acct_test', overage: { allowed: false, monthly_limit: 0 } });
  });

  it('overages --allow --limit N --yes sends {allowed, monthly_limit} and prints the account after', async () => {
    const result = await runPravo(['account', 'overages', '--allow', '--limit', '500', '--yes'], { env });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(service.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /v1/account', 'PATCH /v1/account/overages']);
    expect(JSON.parse(service.requests[1]!.body)).toEqual({ allowed: true, monthly_limit: 500 });
    expect(result.stdout).toContain('overage\ttrue\t500');
    expect(result.stderr).toContain('Overage is now allowed, up to 500 units a month');
    const again = await runPravo(['account', 'overages', '--allow', '--limit', '500', '--yes'], { env });
    expect(again.stderr).toContain('Nothing to change');
    expect(service.requests.filter((r) => r.method === 'PATCH')).toHaveLength(1);
    const deny = await runPravo(['account', 'overages', '--deny', '--yes', '--json'], { env });
    expect(JSON.parse(service.requests.at(-1)!.body)).toEqual({ allowed: false });
    expect(JSON.parse(deny.stdout)).toMatchObject({ overage: { allowed: false, monthly_limit: 0 } });
  });

  it('refuses bad options, and no terminal without --yes, before sending anything', async () => {
    for (const args of [[], ['--allow'], ['--allow', '--deny'], ['--allow', '--limit', '0'], ['--allow', '--limit', '2.5'], ['--deny', '--limit', '5'], ['--allow', '--limit', '9999999'], ['--deny']]) {
      const result = await runPravo(['account', 'overages', ...args], { env });
      expect(result.exitCode, args.join(' ')).toBe(2);
    }
    expect(service.requests).toHaveLength(0);
  });

  it('on a terminal, asks with what overage may cost at most; no changes nothing', async () => {
    const t = testHost({ env, stdinTTY: true, stderrTTY: true, columns: 200 });
    const done = main(['account', 'overages', '--allow', '--limit', '1000'], t.host);
    await vi.waitFor(() => expect(plain(t.stderr())).toContain('Allow overage of up to 1000 units a month beyond the quotas (now: not allowed'));
    expect(plain(t.stderr()).replace(/\n/g, '')).toContain('at most €250.00 a month');
    (t.host.stdin as PassThrough).write('n\r');
    expect(await done).toBe(130);
    expect(service.requests.map((r) => r.method)).toEqual(['GET']);
  });
});
