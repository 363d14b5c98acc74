/** `pravo config` run in this process on test streams: output forms, masking, refusals and exit codes. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli.js';
import { runPravo, testHost } from '../helpers/host.js';

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

  it('set-key at a terminal: the prompt shows nothing while typing (no mask that tells the length), and stores the key', async () => {
    const t = testHost({ env, stdinTTY: true, stderrTTY: true });
    const stdin = t.host.stdin as PassThrough;
    const done = main(['config', 'set-key'], t.host);
    await vi.waitFor(() => expect(t.stderr()).toMatch(/API key for profile "default":/));
    for (const char of KEY) stdin.write(char);
    await vi.waitFor(() => expect(t.stderr()).toMatch(/hidden/));
    const whileTyping = t.stderr();
    stdin.write('\r');
    expect(await done).toBe(0);
    expect(whileTyping).not.toMatch(/\*{3,}/);
    expect(t.stderr()).not.toContain(KEY);
    expect(t.stderr()).not.toMatch(/\*{3,}/);
    const shown = await runPravo(['config', 'show', '--json'], { env });
    expect(JSON.parse(shown.stdout).api_key).toBe('sbx_live_…uvwx');
  });

  it('show: aligned lines, or one JSON object with --json; the key masked and its source named', async () => {
    await runPravo(['config', 'set-key', '--stdin'], { env, input: KEY });
    const text = await runPravo(['config', 'show'], { env: { ...env, PRAVO_BASE_URL: 'http://127.0.0.1:8787' } });
    expect(text.exitCode).toBe(0);
    expect(text.stdout).toMatch(/^Profile\s+default$/m);
    expect(text.stdout).toMatch(/^Base URL\s+http:\/\/127\.0\.0\.1:8787 \(from PRAVO_BASE_URL\)$/m);
    expect(text.stdout).toMatch(/^API key\s+sbx_live_…uvwx \(from profile\)$/m);
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

  it('a base URL with credentials is refused when set, and when read from a hand-edited file; never echoed', async () => {
    const url = `http://u:${KEY}@127.0.0.1:9`;
    const set = await runPravo(['config', 'set', 'base-url', url], { env });
    expect(set.exitCode).toBe(2);
    expect(set.stderr).not.toContain(KEY);
    expect(fs.existsSync(path.join(root, 'config', 'config.json'))).toBe(false);
    fs.mkdirSync(path.join(root, 'config'));
    fs.writeFileSync(path.join(root, 'config', 'config.json'), JSON.stringify({ profiles: { default: { base_url: url, api_key: KEY } } }));
    for (const args of [['config', 'show'], ['config', 'show', '--json'], ['search', 'трудов договор'], ['search', '--json', 'трудов договор']]) {
      const result = await runPravo(args, { env });
      expect(result.exitCode, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(/credentials/);
      expect(result.stdout + result.stderr).not.toContain(KEY);
    }
  });

  it('set api-key is refused without echoing the value, pointing at set-key; nothing stored, no "Nothing was sent"', async () => {
    const result = await runPravo(['config', 'set', 'api-key', KEY], { env });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/pravo config set-key/);
    expect(result.stderr).not.toContain(KEY);
    expect(result.stderr).not.toMatch(/Nothing was sent/);
    expect(fs.existsSync(path.join(root, 'config'))).toBe(false);
  });

  it('unset of something not stored says so: "removed": false, and a message that nothing was removed', async () => {
    const json = await runPravo(['config', 'unset', 'api-key', '--json'], { env });
    expect(json.exitCode).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({ profile: 'default', setting: 'api-key', removed: false });
    const text = await runPravo(['config', 'unset', 'sandbox-corpus'], { env });
    expect(text.stderr).toMatch(/Nothing to remove: sandbox-corpus is not stored/);
    await runPravo(['config', 'set-key', '--stdin'], { env, input: KEY });
    const removed = await runPravo(['config', 'unset', 'api-key', '--json'], { env });
    expect(JSON.parse(removed.stdout).removed).toBe(true);
  });

  it('set sandbox-corpus takes a file or a directory and stores its absolute path; refuses a directory without a corpus file', async () => {
    const corpusDir = path.join(root, 'corpus');
    fs.mkdirSync(corpusDir);
    fs.writeFileSync(path.join(corpusDir, 'README.md'), 'test data\n');
    const refused = await runPravo(['config', 'set', 'sandbox-corpus', corpusDir], { env });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain(`directory ${corpusDir}: holds no corpus file`);
    expect(fs.existsSync(path.join(root, 'config'))).toBe(false);

    fs.writeFileSync(path.join(corpusDir, 'test.jsonl'), '');
    const set = await runPravo(['config', 'set', 'sandbox-corpus', path.relative(process.cwd(), corpusDir), '--json'], { env });
    expect(set.exitCode, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toEqual({ profile: null, setting: 'sandbox-corpus', value: corpusDir });
    const shown = await runPravo(['config', 'show', '--json'], { env });
    expect(JSON.parse(shown.stdout).sandbox_corpus).toBe(corpusDir);
  });

  it('show, path and a failed search leave no config directory behind', async () => {
    expect((await runPravo(['config', 'show'], { env })).exitCode).toBe(0);
    expect((await runPravo(['config', 'show', '--json'], { env })).exitCode).toBe(0);
    expect((await runPravo(['config', 'path'], { env })).exitCode).toBe(0);
    expect((await runPravo(['search', 'трудов договор'], { env })).exitCode).toBe(2);
    expect(fs.existsSync(path.join(root, 'config'))).toBe(false);
  });

  it('a hand-edited config with an api_key that is a number: exit 2 naming the file and field, and set-key repairs it', async () => {
    fs.mkdirSync(path.join(root, 'config'));
    const file = path.join(root, 'config', 'config.json');
    fs.writeFileSync(file, JSON.stringify({ profiles: { default: { api_key: 123456789, auth_header: 'basic' } } }));
    for (const args of [['config', 'show'], ['search', 'трудов договор']]) {
      const result = await runPravo(args, { env: { ...env, PRAVO_BASE_URL: 'http://127.0.0.1:9' } });
      expect(result.exitCode, args.join(' ')).toBe(2);
      expect(result.stderr).toContain(`In ${file}, api_key of profile "default" is a number, not a string`);
      expect(result.stderr).toMatch(/pravo config set-key/);
      expect(result.stderr).not.toMatch(/Unexpected|bug in pravo|123456789/);
    }
    expect((await runPravo(['config', 'set-key', '--stdin'], { env, input: KEY })).exitCode).toBe(0);
    const next = await runPravo(['config', 'show'], { env });
    expect(next.stderr).toMatch(/auth_header of profile "default" is neither "x-api-key" nor "bearer"/);
    expect((await runPravo(['config', 'set', 'auth-header', 'bearer'], { env })).exitCode).toBe(0);
    expect((await runPravo(['config', 'show'], { env })).exitCode).toBe(0);
  });

  it('unset removes a hand-edited field of the wrong type (a number), so the profile works again', async () => {
    fs.mkdirSync(path.join(root, 'config'));
    fs.writeFileSync(path.join(root, 'config', 'config.json'), JSON.stringify({ profiles: { default: { api_key: 123456789 } } }));
    const unset = await runPravo(['config', 'unset', 'api-key', '--json'], { env });
    expect(unset.exitCode).toBe(0);
    expect(JSON.parse(unset.stdout)).toEqual({ profile: 'default', setting: 'api-key', removed: true });
    expect((await runPravo(['config', 'show'], { env })).exitCode).toBe(0);
  });

  it('an unknown command points at the help of its level, not at a look-alike command', async () => {
    const top = await runPravo(['serach'], { env });
    expect(top.exitCode).toBe(2);
    expect(top.stderr).toMatch(/unknown command 'serach'/);
    expect(top.stderr).toMatch(/Run `pravo --help` to see the commands/);
    expect(top.stderr).not.toMatch(/Did you mean/);
    const nested = await runPravo(['config', 'frobnicate'], { env });
    expect(nested.exitCode).toBe(2);
    expect(nested.stderr).toMatch(/Run `pravo config --help`/);
  });

  it('pravo help [command] is the help of pravo or of the command', async () => {
    const top = await runPravo(['help'], { env });
    expect(top.exitCode).toBe(0);
    expect(top.stdout).toBe((await runPravo(['--help'], { env })).stdout);
    const search = await runPravo(['help', 'search'], { env });
    expect(search.exitCode).toBe(0);
    expect(search.stdout).toBe((await runPravo(['search', '--help'], { env })).stdout);
  });

  it('path prints the config file', async () => {
    const result = await runPravo(['config', 'path'], { env });
    expect(result.stdout).toBe(`${path.join(root, 'config', 'config.json')}\n`);
  });
});
