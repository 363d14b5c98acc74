/** `pravo config` end to end: keys come from stdin or a prompt, never argv; stored 0600; shown masked. */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pravo, tempDir } from './helpers.js';

const KEY = 'sbx_live_Q7w3E9r1T5y8U2i6O4p0A3s7D1f5G9h2';
const SECRET_MIDDLE = KEY.slice('sbx_live_'.length, -4);

describe('pravo config', () => {
  let config: ReturnType<typeof tempDir>;
  let env: Record<string, string>;
  beforeEach(() => {
    config = tempDir('config');
    env = { PRAVO_CONFIG_DIR: path.join(config.dir, 'pravo') };
  });
  afterEach(() => config.cleanup());

  it('stores a key read from stdin in a 0600 file in a 0700 directory, and shows it masked', async () => {
    const set = await pravo(['config', 'set-key', '--stdin'], { env, input: `${KEY}\n` });
    expect(set.exitCode).toBe(0);
    expect(set.stderr).toContain('sbx_live_…G9h2');
    expect(set.stdout + set.stderr).not.toContain(SECRET_MIDDLE);

    const file = path.join(env.PRAVO_CONFIG_DIR!, 'config.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(env.PRAVO_CONFIG_DIR!).mode & 0o777).toBe(0o700);
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).profiles.default.api_key).toBe(KEY);

    const show = await pravo(['config', 'show', '--json'], { env });
    expect(show.exitCode).toBe(0);
    expect(JSON.parse(show.stdout)).toMatchObject({ profile: 'default', api_key: 'sbx_live_…G9h2', api_key_source: 'from profile' });
    expect(show.stdout).not.toContain(SECRET_MIDDLE);
  });

  it('refuses a key given as an argument, stores nothing, and says why', async () => {
    const result = await pravo(['config', 'set-key', KEY], { env });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/never takes a key as an argument/);
    expect(result.stderr).not.toContain(SECRET_MIDDLE);
    expect(fs.existsSync(path.join(env.PRAVO_CONFIG_DIR!, 'config.json'))).toBe(false);
  });

  it('without a terminal and without --stdin, asks for --stdin instead of hanging', async () => {
    const result = await pravo(['config', 'set-key'], { env, input: '' });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/--stdin/);
  });

  it('warns when a key does not look like a live key, and stores it anyway', async () => {
    const result = await pravo(['config', 'set-key', '--stdin'], { env, input: 'not-a-live-key-123456' });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toMatch(/does not look like a live key/);
  });

  it('keeps profiles apart, and PRAVO_PROFILE selects one', async () => {
    await pravo(['config', 'set-key', '--stdin', '--profile', 'work'], { env, input: KEY });
    await pravo(['config', 'set', 'base-url', 'https://api.example.bg/legal/', '--profile', 'work'], { env });
    const work = JSON.parse((await pravo(['config', 'show', '--json'], { env: { ...env, PRAVO_PROFILE: 'work' } })).stdout);
    expect(work).toMatchObject({ profile: 'work', base_url: 'https://api.example.bg/legal', api_key: 'sbx_live_…G9h2' });
    const fallback = JSON.parse((await pravo(['config', 'show', '--json'], { env })).stdout);
    expect(fallback).toMatchObject({ profile: 'default', base_url: null, api_key: null });
  });

  it('refuses a base URL with credentials, a query string or a trailing /v1 (exit 2), storing nothing', async () => {
    for (const bad of ['https://user:pw@api.example.bg', 'https://api.example.bg/?key=abc', 'https://api.example.bg/v1', 'ftp://api.example.bg']) {
      const result = await pravo(['config', 'set', 'base-url', bad], { env });
      expect(result.exitCode, bad).toBe(2);
    }
    expect(fs.existsSync(path.join(env.PRAVO_CONFIG_DIR!, 'config.json'))).toBe(false);
  });

  it('environment overrides show where values come from', async () => {
    const show = await pravo(['config', 'show', '--json'], {
      env: { ...env, PRAVO_BASE_URL: 'http://127.0.0.1:9', PRAVO_API_KEY: KEY },
    });
    expect(JSON.parse(show.stdout)).toMatchObject({ base_url_source: 'from PRAVO_BASE_URL', api_key_source: 'from PRAVO_API_KEY' });
  });

  it('`config path` prints the config file under PRAVO_CONFIG_DIR', async () => {
    const result = await pravo(['config', 'path'], { env });
    expect(result.stdout.trim()).toBe(path.join(env.PRAVO_CONFIG_DIR!, 'config.json'));
  });

  it('with --json, every config command reports on stdout as one JSON object, the key masked', async () => {
    const set = await pravo(['config', 'set-key', '--stdin', '--json'], { env, input: KEY });
    expect(JSON.parse(set.stdout)).toEqual({
      profile: 'default',
      api_key: 'sbx_live_…G9h2',
      looks_live: true,
      config_path: path.join(env.PRAVO_CONFIG_DIR!, 'config.json'),
    });
    expect(set.stdout).not.toContain(SECRET_MIDDLE);
    const base = await pravo(['config', 'set', 'base-url', 'https://api.example.bg/', '--json'], { env });
    expect(JSON.parse(base.stdout)).toEqual({ profile: 'default', setting: 'base-url', value: 'https://api.example.bg' });
    const unset = await pravo(['config', 'unset', 'api-key', '--json'], { env });
    expect(JSON.parse(unset.stdout)).toEqual({ profile: 'default', setting: 'api-key', removed: true });
    const where = await pravo(['config', 'path', '--json'], { env });
    expect(JSON.parse(where.stdout)).toEqual({ config_path: path.join(env.PRAVO_CONFIG_DIR!, 'config.json') });
    const bad = await pravo(['config', 'set', 'auth-header', 'basic', '--json'], { env });
    expect(bad.exitCode).toBe(2);
    expect(JSON.parse(bad.stderr)).toMatchObject({ error: { kind: 'usage', exit_code: 2 } });
  });

  it('unknown settings are usage errors', async () => {
    const result = await pravo(['config', 'set', 'colour', 'blue'], { env });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/base-url, auth-header, sandbox, sandbox-corpus/);
  });
});
