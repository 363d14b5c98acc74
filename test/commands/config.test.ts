/** `pravo config` run in this process on test streams: output forms, masking, refusals and exit codes. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runPravo } from '../helpers/host.js';

/** A made-up key of the live form; not a real credential. */
const KEY = 'sbx_live_TESTKEYabcdefghijklmnopqrstuvwx';

let root: string;
let env: NodeJS.ProcessEnv;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'pravo-cmd-config-'));
  env = { PRAVO_CONFIG_DIR: path.join(root, 'config'), PRAVO_STATE_DIR: path.join(root, 'state') };
});

afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe('pravo config', () => {
  it('set-key --stdin stores the key 0600 and reports it masked: a line on stderr, or one JSON line on stdout', async () => {
    const text = await runPravo(['config', 'set-key', '--stdin'], { env, input: `${KEY}\n` });
    expect(text.exitCode).toBe(0);
    expect(text.stdout).toBe('');
    expect(text.stderr).toMatch(/Stored API key sbx_live_…uvwx for profile "default"/);
    const file = path.join(root, 'config', 'config.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);

    const json = await runPravo(['config', 'set-key', '--stdin', '--json', '--profile', 'work'], { env, input: KEY });
    expect(json.stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(json.stdout)).toEqual({ profile: 'work', api_key: 'sbx_live_…uvwx', looks_live: true, config_path: file });
    expect(json.stdout + json.stderr).not.toContain(KEY);
  });

  it('set-key without a terminal and without --stdin: exit 2 naming --stdin; a key as an argument is refused', async () => {
    const noTty = await runPravo(['config', 'set-key'], { env });
    expect(noTty.exitCode).toBe(2);
    expect(noTty.stderr).toMatch(/--stdin/);
    const argv = await runPravo(['config', 'set-key', KEY], { env });
    expect(argv.exitCode).toBe(2);
    expect(argv.stderr).toMatch(/never takes a key as an argument/);
    expect(argv.stderr).not.toContain(KEY);
  });

  it('show: aligned lines, or one JSON object with --json; the key masked and its source named', async () => {
    await runPravo(['config', 'set-key', '--stdin'], { env, input: KEY });
    const text = await runPravo(['config', 'show'], { env: { ...env, PRAVO_BASE_URL: 'http://127.0.0.1:8787' } });
    expect(text.exitCode).toBe(0);
    expect(text.stdout).toMatch(/^Profile\s+default$/m);
    expect(text.stdout).toMatch(/^Base URL\s+http:\/\/127\.0\.0\.1:8787 {2}\(from PRAVO_BASE_URL\)$/m);
    expect(text.stdout).toMatch(/^API key\s+sbx_live_…uvwx {2}\(from profile\)$/m);
    const json = await runPravo(['config', 'show', '--json'], { env });
    expect(JSON.parse(json.stdout)).toMatchObject({ profile: 'default', api_key: 'sbx_live_…uvwx', api_key_source: 'from profile', base_url: null });
    expect(json.stdout.trim().split('\n')).toHaveLength(1);
  });

  it('show refuses a PRAVO_BASE_URL that carries credentials, and never echoes them', async () => {
    for (const json of [false, true]) {
      const result = await runPravo(json ? ['config', 'show', '--json'] : ['config', 'show'], {
        env: { ...env, PRAVO_BASE_URL: `http://u:${KEY}@127.0.0.1:8787` },
      });
      expect(result.exitCode).toBe(2);
      expect(result.stdout + result.stderr).not.toContain(KEY);
      expect(result.stderr).toMatch(/credentials/);
    }
  });

  it('set and unset: unknown settings are usage errors; an unknown command is exit 2', async () => {
    expect((await runPravo(['config', 'set', 'colour', 'x'], { env })).exitCode).toBe(2);
    const header = await runPravo(['config', 'set', 'auth-header', 'bearer', '--json'], { env });
    expect(JSON.parse(header.stdout)).toEqual({ profile: 'default', setting: 'auth-header', value: 'bearer' });
    const unset = await runPravo(['config', 'unset', 'auth-header', '--json'], { env });
    expect(JSON.parse(unset.stdout)).toEqual({ profile: 'default', setting: 'auth-header', removed: true });
    expect((await runPravo(['nonsense'], { env })).exitCode).toBe(2);
  });

  it('path prints the config file', async () => {
    const result = await runPravo(['config', 'path'], { env });
    expect(result.stdout).toBe(`${path.join(root, 'config', 'config.json')}\n`);
  });
});
