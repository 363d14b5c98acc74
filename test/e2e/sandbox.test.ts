/**
 * `pravo sandbox serve` end to end: one JSON line when ready, logs on stderr without keys, quota, clean stop,
 * `--save-to-profile`; many `pravo search --sandbox` runs at once on one data directory.
 */
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { DatabaseSync } from 'node:sqlite';
import zlib from 'node:zlib';
import { execa } from 'execa';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { CLI } from './paths.js';
import { pravo, tempDir } from './helpers.js';

const sandbox = inject('sandbox');

/** Starts `pravo sandbox serve` with the given arguments; resolves once its ready line is read. */
async function serve(args: string[], env: Record<string, string>) {
  const child = execa('node', [CLI, 'sandbox', 'serve', '--port', '0', ...args], { env, reject: false });
  const line = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).once('line', resolve);
    void child.then((r) => reject(new Error(`serve exited ${r.exitCode}: ${String(r.stderr)}`)));
  });
  return { child, ready: JSON.parse(line) as Record<string, string> };
}

/** A tiny synthetic corpus: made-up acts, each titled as test data. */
function syntheticCorpus(dir: string, gzip: boolean): string {
  const docs = [1, 2, 3].map((n) => ({
    document_id: `test-${n}`,
    source_type: 'bulgarian_laws_regulations',
    type: 'Закон',
    title: `ТЕСТОВИ ДАННИ: Закон за примерните пчели ${n}`,
    date: `2020-0${n}-01`,
    in_force_date: null,
    author: 'ТЕСТОВИ ДАННИ',
    url: `https://example.invalid/test-${n}`,
    signature: null,
    elements: [{ ref: '1', label: 'Чл. 1.', text: `Чл. 1. Тестов текст за пчели и кошери номер ${n}.` }],
  }));
  const text = docs.map((d) => JSON.stringify(d)).join('\n') + '\n';
  const file = path.join(dir, gzip ? 'corpus.jsonl.gz' : 'corpus.jsonl');
  fs.writeFileSync(file, gzip ? zlib.gzipSync(text) : text);
  return file;
}

describe('pravo sandbox serve', () => {
  const work = tempDir('serve');
  afterAll(() => work.cleanup());

  it('prints exactly one JSON line with base_url, a live-looking api_key and a session token, logs without either, stops on SIGTERM', async () => {
    const { child, ready } = await serve(['--corpus', sandbox.corpus, '--data-dir', sandbox.dataDir], {
      PRAVO_CONFIG_DIR: path.join(work.dir, 'c1'),
    });
    expect(Object.keys(ready).sort()).toEqual(['api_key', 'base_url', 'session_token']);
    expect(ready.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(ready.api_key).toMatch(/^sbx_live_[A-Za-z0-9]{32}$/);
    expect(ready.session_token).toMatch(/^sbx_sess_[A-Za-z0-9]{32}$/);
    const keys = await fetch(`${ready.base_url}/v1/keys`, { headers: { authorization: `Bearer ${ready.session_token}` } });
    expect(keys.status).toBe(200);
    expect(await keys.text()).not.toContain(ready.api_key);

    const search = await pravo(['search', '-n', '1', 'изборен кодекс гласуване'], {
      env: { PRAVO_CONFIG_DIR: path.join(work.dir, 'c1'), PRAVO_BASE_URL: ready.base_url!, PRAVO_API_KEY: ready.api_key! },
    });
    expect(search.exitCode).toBe(0);

    child.kill('SIGTERM');
    const result = await child;
    expect(result.exitCode).toBe(0);
    expect(String(result.stdout).trim().split('\n')).toHaveLength(1);
    expect(String(result.stderr)).toMatch(/POST \/v1\/search 200/);
    expect(String(result.stderr)).toMatch(/stopped/);
    expect(String(result.stderr)).not.toContain(ready.api_key);
    expect(String(result.stderr)).not.toContain(ready.session_token);
  });

  it('builds the index of a new corpus once (gzipped or not) and reuses it on the next start', async () => {
    for (const gzip of [false, true]) {
      const dir = path.join(work.dir, gzip ? 'gz' : 'plain');
      fs.mkdirSync(dir);
      const corpus = syntheticCorpus(dir, gzip);
      const args = ['--corpus', corpus, '--data-dir', path.join(dir, 'data')];
      const env = { PRAVO_CONFIG_DIR: path.join(dir, 'config') };
      const first = await serve(args, env);
      first.child.kill('SIGINT');
      expect(String((await first.child).stderr)).toMatch(/Building the search index/);
      const second = await serve(args, env);
      second.child.kill('SIGINT');
      const again = await second.child;
      expect(again.exitCode).toBe(0);
      expect(String(again.stderr)).not.toMatch(/Building the search index/);
    }
  });

  it('with --json, logs JSON lines on stderr, the build messages included', async () => {
    const dir = path.join(work.dir, 'jsonlog');
    fs.mkdirSync(dir);
    const corpus = syntheticCorpus(dir, false);
    const { child } = await serve(['--json', '--corpus', corpus, '--data-dir', path.join(dir, 'data')], {
      PRAVO_CONFIG_DIR: path.join(dir, 'config'),
    });
    child.kill('SIGTERM');
    const lines = String((await child).stderr).trim().split('\n');
    const entries = lines.map((line) => JSON.parse(line) as { time: string; message: string });
    expect(entries.some((e) => e.message.startsWith('Building the search index'))).toBe(true);
    expect(entries.some((e) => e.message.startsWith('pravo sandbox listening on'))).toBe(true);
    expect(entries.every((e) => !Number.isNaN(Date.parse(e.time)))).toBe(true);
  });

  it('answers monthly_quota_exceeded past --search-quota, and pravo exits 5', async () => {
    const dir = path.join(work.dir, 'quota');
    fs.mkdirSync(dir);
    const corpus = syntheticCorpus(dir, false);
    const { child, ready } = await serve(['--corpus', corpus, '--data-dir', path.join(dir, 'data'), '--search-quota', '1'], {
      PRAVO_CONFIG_DIR: path.join(dir, 'config'),
    });
    const env = { PRAVO_CONFIG_DIR: path.join(dir, 'config'), PRAVO_BASE_URL: ready.base_url!, PRAVO_API_KEY: ready.api_key! };
    expect((await pravo(['search', 'пчели кошери'], { env })).exitCode).toBe(0);
    const over = await pravo(['search', 'пчели кошери'], { env });
    child.kill('SIGTERM');
    await child;
    expect(over.exitCode).toBe(5);
    expect(over.stderr).toMatch(/monthly quota/i);
  });

  it('--save-to-profile NAME: `pravo --profile NAME` reaches the server after every restart; the key and session token are never printed', async () => {
    const dir = path.join(work.dir, 'profile');
    fs.mkdirSync(dir);
    const corpus = syntheticCorpus(dir, false);
    const env = { PRAVO_CONFIG_DIR: path.join(dir, 'config') };
    const configFile = path.join(dir, 'config', 'config.json');
    const args = ['--corpus', corpus, '--data-dir', path.join(dir, 'data'), '--save-to-profile', 'local'];
    const keys: string[] = [];
    const outputs: string[] = [];
    for (const start of [1, 2]) {
      const { child, ready } = await serve(args, env);
      expect(Object.keys(ready).sort(), `start ${start}`).toEqual(['base_url', 'profile']);
      expect(ready.profile).toBe('local');
      expect(fs.statSync(configFile).mode & 0o777).toBe(0o600);
      const saved = (JSON.parse(fs.readFileSync(configFile, 'utf8')) as { profiles: Record<string, Record<string, string>> })
        .profiles.local!;
      expect(saved.base_url).toBe(ready.base_url);
      keys.push(saved.api_key!, saved.session_token!);

      const search = await pravo(['--profile', 'local', 'search', '--json', 'пчели кошери'], { env });
      expect(search.exitCode, search.stderr).toBe(0);
      expect((JSON.parse(search.stdout) as { result_count: number }).result_count).toBe(3);

      child.kill('SIGTERM');
      const result = await child;
      expect(result.exitCode).toBe(0);
      expect(String(result.stderr)).toMatch(/saved base URL, key and session token to profile local/);
      outputs.push(String(result.stdout), String(result.stderr));
    }
    expect(keys[0]).not.toBe(keys[2]);
    expect(keys[1]).not.toBe(keys[3]);
    for (const key of keys) for (const output of outputs) expect(output).not.toContain(key);
  });

  it('without a corpus, says how to give one (exit 2)', async () => {
    const result = await pravo(['sandbox', 'serve'], { env: { PRAVO_CONFIG_DIR: path.join(work.dir, 'none') } });
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/--corpus PATH/);
  });

  it('names the line of a malformed corpus (exit 1)', async () => {
    const dir = path.join(work.dir, 'bad');
    fs.mkdirSync(dir);
    const corpus = path.join(dir, 'bad.jsonl');
    fs.writeFileSync(corpus, `${fs.readFileSync(syntheticCorpus(dir, false), 'utf8')}{not json\n`);
    const result = await pravo(['sandbox', 'serve', '--corpus', corpus, '--data-dir', path.join(dir, 'data')], {
      env: { PRAVO_CONFIG_DIR: path.join(dir, 'config') },
    });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/line 4/);
  });
});

describe('pravo search --sandbox, many at once on one data directory', () => {
  const work = tempDir('parallel');
  afterAll(() => work.cleanup());

  it('20 runs started together all succeed, and each deletes only its own key', async () => {
    const corpus = syntheticCorpus(work.dir, false);
    const dataDir = path.join(work.dir, 'data');
    const env = { PRAVO_CONFIG_DIR: path.join(work.dir, 'config') };
    const args = ['search', '--sandbox', '--corpus', corpus, '--data-dir', dataDir, '--json', 'пчели кошери'];
    // The first run builds the index, so that the parallel ones only open it.
    const first = await pravo(args, { env });
    expect(first.exitCode, first.stderr).toBe(0);

    const runs = await Promise.all(Array.from({ length: 20 }, () => pravo(args, { env })));
    const failures = runs.filter((run) => run.exitCode !== 0).map((run) => `exit ${run.exitCode}: ${run.stderr}`);
    expect(failures).toEqual([]);
    for (const run of runs) expect((JSON.parse(run.stdout) as { result_count: number }).result_count).toBe(3);

    const db = new DatabaseSync(path.join(dataDir, 'state.sqlite'), { readOnly: true });
    try {
      expect(db.prepare('SELECT COUNT(*) AS n FROM api_keys WHERE ephemeral = 1').get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
  });
});

describe('pravo, the program', () => {
  it('--version prints the version', async () => {
    const result = await pravo(['--version']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('--help lists the commands with examples, and the help topics (exit codes among them)', async () => {
    const result = await pravo(['--help']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/search/);
    expect(result.stdout).toMatch(/Examples:/);
    expect(result.stdout).toMatch(/Help topics \(pravo help TOPIC\):\n {2}exit-codes /);
    const codes = await pravo(['help', 'exit-codes']);
    expect(codes.exitCode).toBe(0);
    expect(codes.stdout).toMatch(/^ {2}130 +cancelled/m);
  });

  it('an unknown command is a usage error (exit 2)', async () => {
    const result = await pravo(['serach', 'x']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/unknown command 'serach'/);
    expect(result.stderr).toMatch(/pravo --help/);
  });
});
