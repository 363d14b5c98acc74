/**
 * `pravo sandbox token` run in this process on test streams (clock injected): the token alone on stdout and its
 * expiry on stderr, `--json`, `--expires-in` and its bounds, `--save-to-profile` (the token in the profile, printed
 * nowhere), `PRAVO_SANDBOX_DATA_DIR`, usage errors before anything is written; and a minted token accepted at once by
 * a server already running on the same data directory.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountResponse } from '../../src/contract/types.js';
import { main } from '../../src/cli.js';
import { parseExpiresIn } from '../../src/commands/sandbox/token.js';
import { UsageError } from '../../src/errors/cli.js';
import { SandboxState } from '../../src/sandbox/state/store.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { runPravo, testHost } from '../helpers/host.js';
import { writeSyntheticCorpus } from '../helpers/synthetic-corpus.js';

let root: string;
let runs = 0;

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'pravo-cmd-token-'));
});

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** A fresh config directory and data directory for one test. */
function dirs(): { env: Record<string, string>; dataDir: string; configDir: string } {
  const n = ++runs;
  const configDir = path.join(root, `config-${n}`);
  return { env: { PRAVO_CONFIG_DIR: configDir, PRAVO_STATE_DIR: path.join(root, `state-${n}`) }, dataDir: path.join(root, `data-${n}`), configDir };
}

const START = Date.UTC(2025, 2, 15, 12, 0, 0);

/** How the state of `dataDir` sees `token` at `at` (ms since the epoch). */
function check(dataDir: string, token: string, at = START) {
  const state = SandboxState.open(dataDir, { now: () => new Date(at) });
  try {
    return state.authenticateSession(token);
  } finally {
    state.close();
  }
}

describe('pravo sandbox token', () => {
  it('prints the token alone on stdout and its expiry (24 h by default) on stderr; the data directory accepts it', async () => {
    const { env, dataDir } = dirs();
    const result = await runPravo(['sandbox', 'token', '--data-dir', dataDir], { env, clock: new FakeClock(START) });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^sbx_sess_[0-9A-Za-z]{32}\n$/);
    const token = result.stdout.trim();
    expect(result.stderr).toMatch(/Session token of acct_sandbox, valid until 2025-03-16T12:00:00\.000Z \(24h\)/);
    expect(result.stderr).toMatch(/Authorization: Bearer/);
    expect(result.stderr).not.toContain(token);
    expect(check(dataDir, token)).toMatchObject({ ok: true, account_id: 'acct_sandbox' });
    expect(check(dataDir, token, START + 24 * 3_600_000)).toEqual({ ok: false, code: 'expired_session_token' });
  });

  it('--json prints {"session_token","expires_at","account_id"}; --expires-in sets the lifetime', async () => {
    const { env, dataDir } = dirs();
    const result = await runPravo(['sandbox', 'token', '--data-dir', dataDir, '--expires-in', '30m', '--json'], { env, clock: new FakeClock(START) });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('');
    const body = JSON.parse(result.stdout) as Record<string, string>;
    expect(Object.keys(body)).toEqual(['session_token', 'expires_at', 'account_id']);
    expect(body).toEqual({ session_token: expect.stringMatching(/^sbx_sess_/), expires_at: '2025-03-15T12:30:00.000Z', account_id: 'acct_sandbox' });
    expect(check(dataDir, body.session_token!, START + 30 * 60_000 - 1).ok).toBe(true);
  });

  it('takes the data directory from PRAVO_SANDBOX_DATA_DIR, as serve does', async () => {
    const { env, dataDir } = dirs();
    const result = await runPravo(['sandbox', 'token', '--expires-in', '7d', '--json'], { env: { ...env, PRAVO_SANDBOX_DATA_DIR: dataDir }, clock: new FakeClock(START) });
    expect(result.exitCode).toBe(0);
    const body = JSON.parse(result.stdout) as { session_token: string; expires_at: string };
    expect(body.expires_at).toBe('2025-03-22T12:00:00.000Z');
    expect(check(dataDir, body.session_token).ok).toBe(true);
  });

  it('--save-to-profile stores the token as the profile\'s session_token, keeps its other settings, and prints it nowhere', async () => {
    const { env, dataDir, configDir } = dirs();
    expect((await runPravo(['config', 'set', 'base-url', 'http://127.0.0.1:9', '--profile', 'local'], { env })).exitCode).toBe(0);
    const saved = await runPravo(['sandbox', 'token', '--data-dir', dataDir, '--save-to-profile', 'local'], { env, clock: new FakeClock(START) });
    expect(saved.exitCode).toBe(0);
    expect(saved.stdout).toBe('');
    expect(saved.stderr).toMatch(/Saved a session token of acct_sandbox to profile local, valid until 2025-03-16T12:00:00\.000Z/);
    expect(saved.stderr).not.toMatch(/no base URL/);
    const config = JSON.parse(fs.readFileSync(path.join(configDir, 'config.json'), 'utf8')) as { profiles: Record<string, Record<string, string>> };
    expect(config.profiles.local).toEqual({ base_url: 'http://127.0.0.1:9', session_token: expect.stringMatching(/^sbx_sess_[0-9A-Za-z]{32}$/) });
    const token = config.profiles.local!.session_token!;
    expect(saved.stderr).not.toContain(token);
    expect(check(dataDir, token).ok).toBe(true);

    const json = await runPravo(['sandbox', 'token', '--data-dir', dataDir, '--save-to-profile', 'other', '--json'], { env, clock: new FakeClock(START) });
    expect(JSON.parse(json.stdout)).toEqual({ profile: 'other', expires_at: '2025-03-16T12:00:00.000Z' });
    expect(json.stdout).not.toMatch(/sbx_sess_/);
  });

  it('--save-to-profile into a profile without a base URL says how to give it one', async () => {
    const { env, dataDir } = dirs();
    const saved = await runPravo(['sandbox', 'token', '--data-dir', dataDir, '--save-to-profile', 'fresh'], { env, clock: new FakeClock(START) });
    expect(saved.exitCode).toBe(0);
    expect(saved.stderr).toMatch(/Profile fresh has no base URL yet: `pravo sandbox serve --save-to-profile fresh` sets it/);
  });

  it.each([
    [['--expires-in', '31d'], /--expires-in takes a duration such as 30m, 12h or 7d .* at most 30d; not "31d"/],
    [['--expires-in', '0h'], /--expires-in takes a duration .*; not "0h"/],
    [['--expires-in', '1.5h'], /not "1\.5h"/],
    [['--expires-in', 'tomorrow'], /not "tomorrow"/],
    [['--expires-in', '12'], /not "12"/],
    [['--save-to-profile', '../evil'], /--save-to-profile: .*not a valid profile name/],
    [['--data-dir', ''], /--data-dir needs a directory/],
  ])('%j is a usage error (exit 2), nothing written', async (args, message) => {
    const { env, dataDir, configDir } = dirs();
    const result = await runPravo(['sandbox', 'token', ...(args.includes('--data-dir') ? [] : ['--data-dir', dataDir]), ...args], { env });
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
    expect(fs.existsSync(dataDir)).toBe(false);
    expect(fs.existsSync(configDir)).toBe(false);
  });

  it('--json errors are one JSON line on stderr', async () => {
    const { env, dataDir } = dirs();
    const result = await runPravo(['sandbox', 'token', '--data-dir', dataDir, '--expires-in', 'soon', '--json'], { env });
    expect(result.exitCode).toBe(2);
    expect(JSON.parse(result.stderr).error.message).toMatch(/--expires-in/);
  });

  it('a data directory in place of a file is refused naming it (exit 2)', async () => {
    const { env } = dirs();
    const file = path.join(root, 'a-file');
    fs.writeFileSync(file, 'x');
    const result = await runPravo(['sandbox', 'token', '--data-dir', file], { env });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(file);
  });
});

describe('pravo sandbox token with a running server', () => {
  it('a token minted while `pravo sandbox serve` runs on the same data directory serves GET /v1/account at once', async () => {
    const { env, dataDir } = dirs();
    const corpus = writeSyntheticCorpus(path.join(root, 'corpus'));
    const t = testHost({ env });
    const run = main(['sandbox', 'serve', '--corpus', corpus, '--data-dir', dataDir], t.host);
    while (!t.stdout().includes('\n')) await new Promise((resolve) => t.host.stdout.once('data', resolve));
    const ready = JSON.parse(t.stdout().split('\n')[0]!) as { base_url: string };

    const minted = await runPravo(['sandbox', 'token', '--data-dir', dataDir, '--expires-in', '1h'], { env });
    expect(minted.exitCode).toBe(0);
    const reply = await fetch(`${ready.base_url}/v1/account`, { headers: { authorization: `Bearer ${minted.stdout.trim()}` } });
    expect(reply.status).toBe(200);
    expect(((await reply.json()) as AccountResponse).account_id).toBe('acct_sandbox');

    t.signal('SIGTERM');
    expect(await run).toBe(0);
  });
});

describe('parseExpiresIn', () => {
  it('reads s, m, h and d, surrounding white space ignored', () => {
    expect(parseExpiresIn('90s')).toBe(90_000);
    expect(parseExpiresIn('30m')).toBe(1_800_000);
    expect(parseExpiresIn(' 12h ')).toBe(43_200_000);
    expect(parseExpiresIn('30d')).toBe(30 * 86_400_000);
    expect(() => parseExpiresIn('720h1s')).toThrow(UsageError);
    expect(() => parseExpiresIn('721h')).toThrow(UsageError);
  });
});
