/**
 * The package a user installs: `npm pack` yields a tarball of the CLI alone (bin, dist, completions, README, docs; no
 * sources, tests, benchmarks, CI scripts or corpus data), which `npm i -g` installs into an empty prefix with this
 * Node 24 (dependencies from npm's cache, as `npm ci` left it), and whose `pravo` then runs: `--help`, the completion
 * scripts it carries, and `search --sandbox` over the shared corpus given by path.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { linkedDataDir, tempDir } from './helpers.js';
import { CLI, CORPUS } from './paths.js';

const repo = path.resolve(path.dirname(CLI), '..');
const shared = inject('sandbox');
const home = tempDir('pack');
afterAll(() => home.cleanup());

/** npm from PATH (the provisioned Node 24 has none of its own); with this node first on PATH, npm runs on it. */
const npmCli = process.platform === 'win32' ? 'npm.cmd' : 'npm';
/** PATH with this node first, so npm and the installed `#!/usr/bin/env node` run Node 24. */
const PATH = `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`;

let tarball: string;
let prefix: string;
let bin: string;
let files: string[];

beforeAll(async () => {
  const out = path.join(home.dir, 'pack');
  fs.mkdirSync(out);
  // dist/ is built by `npm test`'s pretest; --ignore-scripts keeps prepack from rebuilding it under the other tests.
  const packed = JSON.parse(
    execFileSync(npmCli, ['pack', '--json', '--ignore-scripts', '--pack-destination', out], { cwd: repo, encoding: 'utf8', env: { ...process.env, PATH } }),
  ) as { filename: string; files: { path: string }[] }[];
  tarball = path.join(out, packed[0]!.filename);
  files = packed[0]!.files.map((f) => f.path);
  prefix = path.join(home.dir, 'prefix');
  await execa(npmCli, ['install', '--global', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', tarball], {
    env: { ...process.env, PATH },
    timeout: 240_000,
  });
  bin = path.join(prefix, 'bin', 'pravo');
}, 300_000);

describe('npm pack, npm i -g', () => {
  it('packs the CLI and its written subject index alone: no sources, tests, benchmarks, CI scripts or corpus data', () => {
    expect(path.basename(tarball)).toMatch(/^pravo-\d+\.\d+\.\d+\.tgz$/);
    expect(files).toContain('bin/pravo.js');
    expect(files).toContain('dist/cli.js');
    expect(files).toContain('dist/help/help.json');
    expect(files).toEqual(expect.arrayContaining(['completions/pravo.bash', 'completions/_pravo', 'completions/pravo.fish']));
    // The subject index the team wrote ships (the sandbox indexes it); nothing of ../shared does.
    expect(files).toContain('data/subject-index/kt.json');
    expect(files.filter((f) => !/^(bin|dist|completions|docs)\/|^data\/subject-index\/[a-z]+\.json$|^README\.md$|^package\.json$/.test(f))).toEqual([]);
    expect(files.filter((f) => /\.jsonl(\.gz)?$|courts\.json$/.test(f))).toEqual([]);
  });

  it('the installed pravo prints its help and the completion scripts it carries', async () => {
    const help = await execa(bin, ['--help'], { env: { PATH, HOME: home.dir }, extendEnv: false });
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toMatch(/^Usage: pravo /);
    const script = await execa(bin, ['completion', 'bash'], { env: { PATH, HOME: home.dir }, extendEnv: false });
    const packaged = fs.readFileSync(path.join(prefix, 'lib', 'node_modules', 'pravo', 'completions', 'pravo.bash'), 'utf8');
    expect(script.stdout + '\n').toBe(packaged);
  });

  it('the installed pravo searches the corpus with --sandbox', async () => {
    const dirs = { PRAVO_CONFIG_DIR: path.join(home.dir, 'config'), PRAVO_STATE_DIR: path.join(home.dir, 'state'), PRAVO_CACHE_DIR: path.join(home.dir, 'cache') };
    const data = linkedDataDir(home.dir, shared.dataDir);
    const result = await execa(bin, ['search', '--sandbox', '--corpus', CORPUS, '--data-dir', data, '-n', '3', '--json', 'трудов договор прекратяване'], {
      env: { PATH, HOME: home.dir, ...dirs },
      extendEnv: false,
      timeout: 120_000,
    });
    expect(result.exitCode).toBe(0);
    const body = JSON.parse(result.stdout) as { results: { title: string }[] };
    expect(body.results.length).toBeGreaterThan(0);
  }, 180_000);
});
