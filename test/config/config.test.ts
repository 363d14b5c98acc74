/**
 * Profiles and secrets (`src/config/store.ts`, `profile.ts`). Every test uses its own temporary directory as
 * `PRAVO_CONFIG_DIR`, passed in an env object; the real config is never touched. The last search's results moved to
 * the state directory: `test/state/last-results.test.ts`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors/cli.js';
import { ConfigStore, DEFAULT_PROFILE, checkProfileName } from '../../src/config/store.js';
import { looksLikeLiveKey, maskKey, resolveProfile } from '../../src/config/profile.js';

/** Made-up keys of the live form; not real credentials. */
const SECRET_MIDDLE = 'MIDDLEsecretPART0123456789';
const KEY = `sbx_live_${SECRET_MIDDLE}wxyz`;

let root: string;
/** A config dir that does not exist yet, inside the test's temp dir. */
let configDir: string;
let env: NodeJS.ProcessEnv;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'pravo-config-test-'));
  configDir = path.join(root, 'nested', 'pravo');
  env = { PRAVO_CONFIG_DIR: configDir };
});

afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

const mode = (file: string): number => fs.statSync(file).mode & 0o777;

describe('ConfigStore', () => {
  it('keeps config.json in PRAVO_CONFIG_DIR', async () => {
    const store = await ConfigStore.open(env);
    expect(store.path).toBe(path.join(configDir, 'config.json'));
  });

  it('writes config.json with mode 0600', async () => {
    const store = await ConfigStore.open(env);
    store.setProfileField('default', 'api_key', KEY);
    expect(fs.existsSync(store.path)).toBe(true);
    expect(mode(store.path)).toBe(0o600);
  });

  it('creates a missing config directory with mode 0700', async () => {
    const store = await ConfigStore.open(env);
    store.setProfileField('default', 'base_url', 'https://api.example.bg');
    expect(fs.statSync(configDir).isDirectory()).toBe(true);
    expect(mode(configDir)).toBe(0o700);
  });

  it('writes nothing until a setter is called', async () => {
    await ConfigStore.open(env);
    expect(fs.existsSync(path.join(configDir, 'config.json'))).toBe(false);
  });

  it('keeps profiles separate, and survives reopening', async () => {
    const store = await ConfigStore.open(env);
    store.setProfileField('default', 'base_url', 'https://api.example.bg');
    store.setProfileField('default', 'api_key', KEY);
    store.setProfileField('work', 'base_url', 'http://127.0.0.1:8080');
    store.setProfileField('work', 'auth_header', 'bearer');

    const reopened = await ConfigStore.open(env);
    expect(reopened.profile('default')).toEqual({ base_url: 'https://api.example.bg', api_key: KEY });
    expect(reopened.profile('work')).toEqual({ base_url: 'http://127.0.0.1:8080', auth_header: 'bearer' });
    expect(reopened.profile('absent')).toEqual({});
  });

  it('removes a field when set to undefined, leaving the rest of the profile', async () => {
    const store = await ConfigStore.open(env);
    store.setProfileField('default', 'base_url', 'https://api.example.bg');
    store.setProfileField('default', 'api_key', KEY);
    store.setProfileField('default', 'api_key', undefined);
    expect((await ConfigStore.open(env)).profile('default')).toEqual({ base_url: 'https://api.example.bg' });
    expect(fs.readFileSync(path.join(configDir, 'config.json'), 'utf8')).not.toContain(SECRET_MIDDLE);
  });

  it('rejects an invalid profile name before writing', async () => {
    const store = await ConfigStore.open(env);
    expect(() => store.setProfileField('../evil', 'api_key', KEY)).toThrow(ConfigError);
    expect(fs.existsSync(path.join(configDir, 'config.json'))).toBe(false);
  });

  it('saveEndpoint creates a missing profile with the base URL, the key and the x-api-key header, file 0600', async () => {
    const store = await ConfigStore.open(env);
    store.setProfileField('default', 'base_url', 'https://api.example.bg');
    store.saveEndpoint('local', { base_url: 'http://127.0.0.1:40001', api_key: KEY });
    const reopened = await ConfigStore.open(env);
    expect(reopened.profile('local')).toEqual({ base_url: 'http://127.0.0.1:40001', api_key: KEY, auth_header: 'x-api-key' });
    expect(reopened.profile('default')).toEqual({ base_url: 'https://api.example.bg' });
    expect(mode(store.path)).toBe(0o600);
  });

  it('saveEndpoint replaces the base URL and key of an existing profile and keeps its auth header', async () => {
    const store = await ConfigStore.open(env);
    store.setProfileField('proxy', 'auth_header', 'bearer');
    store.saveEndpoint('proxy', { base_url: 'http://127.0.0.1:40001', api_key: `sbx_live_${'A'.repeat(32)}`, api_key_id: 'key_old' });
    store.saveEndpoint('proxy', { base_url: 'http://127.0.0.1:40002', api_key: KEY, api_key_id: 'key_new', session_token: 'sbx_sess_token' });
    expect((await ConfigStore.open(env)).profile('proxy')).toEqual({
      base_url: 'http://127.0.0.1:40002',
      api_key: KEY,
      api_key_id: 'key_new',
      session_token: 'sbx_sess_token',
      auth_header: 'bearer',
    });
  });

  it('setting api_key drops the api_key_id that named the key it replaces', async () => {
    const store = await ConfigStore.open(env);
    store.saveEndpoint('work', { base_url: 'http://127.0.0.1:40001', api_key: KEY, api_key_id: 'key_old' });
    store.setProfileField('work', 'api_key', `sbx_live_${'B'.repeat(32)}`);
    expect((await ConfigStore.open(env)).profile('work')).toEqual({
      base_url: 'http://127.0.0.1:40001',
      api_key: `sbx_live_${'B'.repeat(32)}`,
      auth_header: 'x-api-key',
    });
  });

  it('saveEndpoint rejects an invalid profile name before writing', async () => {
    const store = await ConfigStore.open(env);
    expect(() => store.saveEndpoint('../evil', { base_url: 'http://127.0.0.1:40001', api_key: KEY })).toThrow(ConfigError);
    expect(fs.existsSync(path.join(configDir, 'config.json'))).toBe(false);
  });

  it('reports a config file that is not JSON as a ConfigError', async () => {
    fs.mkdirSync(configDir, { recursive: true });
    fs.writeFileSync(path.join(configDir, 'config.json'), '{ not json');
    await expect(ConfigStore.open(env)).rejects.toBeInstanceOf(ConfigError);
  });

  it.each([
    ['empty', ''],
    ['an array', '[]'],
  ])('reports a config file that is %s as a ConfigError naming the file, as conf would at the first write', async (_what, text) => {
    fs.mkdirSync(configDir, { recursive: true });
    fs.writeFileSync(path.join(configDir, 'config.json'), text);
    await expect(ConfigStore.open(env)).rejects.toThrow(new RegExp(`${path.join(configDir, 'config.json').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}.*Fix or remove it`));
  });

  it('reads without writing, and the first write keeps what was read', async () => {
    fs.mkdirSync(configDir, { recursive: true });
    const file = path.join(configDir, 'config.json');
    fs.writeFileSync(file, JSON.stringify({ profiles: { work: { base_url: 'https://api.example.bg' } }, custom: 1 }), { mode: 0o600 });
    const before = fs.statSync(file).mtimeMs;
    const store = await ConfigStore.open(env);
    expect(store.profile('work').base_url).toBe('https://api.example.bg');
    expect(fs.statSync(file).mtimeMs).toBe(before);
    store.setProfileField('default', 'base_url', 'http://127.0.0.1:9');
    const written = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    expect(written).toEqual({ profiles: { work: { base_url: 'https://api.example.bg' }, default: { base_url: 'http://127.0.0.1:9' } }, custom: 1 });
    expect(store.data().profiles?.default?.base_url).toBe('http://127.0.0.1:9');
  });
});

describe('checkProfileName', () => {
  it.each(['default', 'work', 'prod-eu.2', 'A_b', 'x'.repeat(64)])('accepts %j', (name) => {
    expect(checkProfileName(name)).toBe(name);
  });

  it.each(['', '-lead', '.hidden', 'has space', 'a/b', '../x', 'кирилица', 'x'.repeat(65)])('rejects %j', (name) => {
    expect(() => checkProfileName(name)).toThrow(ConfigError);
  });
});

describe('resolveProfile', () => {
  const data = {
    profiles: {
      default: { base_url: 'https://default.example.bg', api_key: 'sbx_live_defaultKEY0000000000' },
      work: { base_url: 'https://work.example.bg', api_key: 'sbx_live_workKEY000000000000', auth_header: 'bearer' as const },
      staging: { base_url: 'https://staging.example.bg' },
    },
  };

  it('uses "default" when neither --profile nor PRAVO_PROFILE names one', () => {
    const resolved = resolveProfile(data, {}, undefined);
    expect(resolved.name).toBe(DEFAULT_PROFILE);
    expect(resolved.base_url).toBe('https://default.example.bg');
    expect(resolved.auth_header).toBe('x-api-key');
    expect(resolved.sources).toEqual({ base_url: 'profile', api_key: 'profile', session_token: 'unset' });
  });

  it('PRAVO_PROFILE beats the default', () => {
    const resolved = resolveProfile(data, { PRAVO_PROFILE: 'work' }, undefined);
    expect(resolved.name).toBe('work');
    expect(resolved.api_key).toBe('sbx_live_workKEY000000000000');
    expect(resolved.auth_header).toBe('bearer');
  });

  it('--profile beats PRAVO_PROFILE', () => {
    expect(resolveProfile(data, { PRAVO_PROFILE: 'work' }, 'staging').name).toBe('staging');
  });

  it('PRAVO_BASE_URL and PRAVO_API_KEY override the stored values and say they came from the environment', () => {
    const resolved = resolveProfile(
      data,
      { PRAVO_BASE_URL: 'http://127.0.0.1:9999', PRAVO_API_KEY: 'sbx_live_envKEY0000000000000' },
      'work',
    );
    expect(resolved.base_url).toBe('http://127.0.0.1:9999');
    expect(resolved.api_key).toBe('sbx_live_envKEY0000000000000');
    expect(resolved.sources).toEqual({ base_url: 'env', api_key: 'env', session_token: 'unset' });
    expect(resolved.auth_header).toBe('bearer');
  });

  it('mixes sources: env base URL with the stored key', () => {
    const resolved = resolveProfile(data, { PRAVO_BASE_URL: 'http://127.0.0.1:9999' }, undefined);
    expect(resolved.sources).toEqual({ base_url: 'env', api_key: 'profile', session_token: 'unset' });
  });

  it('reports unset values of a profile that lacks them', () => {
    const resolved = resolveProfile(data, {}, 'staging');
    expect(resolved.api_key).toBeUndefined();
    expect(resolved.sources.api_key).toBe('unset');
    const missing = resolveProfile({}, {}, 'nowhere');
    expect(missing).toMatchObject({ name: 'nowhere', base_url: undefined, api_key: undefined });
    expect(missing.sources).toEqual({ base_url: 'unset', api_key: 'unset', session_token: 'unset' });
  });

  it('PRAVO_SESSION_TOKEN overrides the stored session token; api_key_id is given only with the stored key', () => {
    const stored = { profiles: { default: { api_key: 'sbx_live_storedKEY00000000000', api_key_id: 'key_1', session_token: 'stored-token' } } };
    const fromProfile = resolveProfile(stored, {}, undefined);
    expect(fromProfile).toMatchObject({ session_token: 'stored-token', api_key_id: 'key_1' });
    expect(fromProfile.sources.session_token).toBe('profile');
    const fromEnv = resolveProfile(stored, { PRAVO_SESSION_TOKEN: 'env-token', PRAVO_API_KEY: 'sbx_live_envKEY0000000000000' }, undefined);
    expect(fromEnv).toMatchObject({ session_token: 'env-token', api_key_id: undefined });
    expect(fromEnv.sources).toEqual({ base_url: 'unset', api_key: 'env', session_token: 'env' });
  });

  it('treats empty environment values as unset', () => {
    const resolved = resolveProfile(data, { PRAVO_PROFILE: '', PRAVO_API_KEY: '', PRAVO_BASE_URL: '' }, undefined);
    expect(resolved.name).toBe('default');
    expect(resolved.sources).toEqual({ base_url: 'profile', api_key: 'profile', session_token: 'unset' });
  });

  it('rejects an invalid profile name from the flag or the environment', () => {
    expect(() => resolveProfile(data, {}, 'bad name')).toThrow(ConfigError);
    expect(() => resolveProfile(data, { PRAVO_PROFILE: '../etc' }, undefined)).toThrow(ConfigError);
  });
});

describe('maskKey', () => {
  it('shows the prefix through _live_ and the last four characters, never the middle', () => {
    const masked = maskKey(KEY);
    expect(masked.startsWith('sbx_live_')).toBe(true);
    expect(masked.endsWith('wxyz')).toBe(true);
    expect(masked).not.toContain(SECRET_MIDDLE);
    expect(masked).not.toContain(SECRET_MIDDLE.slice(0, 4));
    expect(masked).not.toContain(SECRET_MIDDLE.slice(-4));
    expect(masked.length).toBeLessThan(20);
  });

  it('works for other live prefixes', () => {
    const key = `lr_live_${SECRET_MIDDLE}9f3a`;
    const masked = maskKey(key);
    expect(masked.startsWith('lr_live_')).toBe(true);
    expect(masked.endsWith('9f3a')).toBe(true);
    expect(masked).not.toContain(SECRET_MIDDLE.slice(0, 6));
  });

  it('shows only the last four characters of a key without _live_', () => {
    const key = `abcd${SECRET_MIDDLE}9f3a`;
    const masked = maskKey(key);
    expect(masked).toBe('…9f3a');
    expect(masked).not.toContain('abcd');
  });

  it('reveals little of a short key', () => {
    const masked = maskKey('short_secret');
    expect(masked).not.toContain('short');
    expect(masked).not.toContain('secret');
  });
});

describe('looksLikeLiveKey', () => {
  it.each([
    [KEY, true],
    ['lr_live_ABCDEFGHIJKLMNOP', true],
    ['sbx_live_short', false],
    ['sbx_test_ABCDEFGHIJKLMNOPQRST', false],
    [`Bearer ${KEY}`, false],
    [` ${KEY}`, false],
    ['', false],
  ])('%j → %s', (key, expected) => {
    expect(looksLikeLiveKey(key)).toBe(expected);
  });
});
