/**
 * Pre-rendered help (`dist/help/help.json`, written by `npm run build`): every command's page is there, unwrapped, and
 * laid out at a terminal's width is byte for byte what commander prints for `pravo PATH --help` at that width (the live
 * tree, in process); the built CLI answers a plain help request from it without loading commander; anything that is
 * not a plain help request still goes to commander.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildProgram, main } from '../../src/cli.js';
import { allNodes, completionTree } from '../../src/completion/tree.js';
import { layoutHelp } from '../../src/help/layout.js';
import { helpRequestPath, HELP_FORMAT, type PrerenderedHelp } from '../../src/help/prerendered.js';
import { testHost } from '../helpers/host.js';
import { modulesLoadedBy, packagesAmong } from '../helpers/loaded-modules.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLI = path.join(repo, 'bin', 'pravo.js');

let file: PrerenderedHelp;
let paths: string[];

beforeAll(async () => {
  file = JSON.parse(fs.readFileSync(path.join(repo, 'dist', 'help', 'help.json'), 'utf8')) as PrerenderedHelp;
  const tree = completionTree((await buildProgram(testHost().host)).program);
  paths = allNodes(tree)
    .map((n) => n.path)
    .filter((p) => p !== 'help' && !p.endsWith(' help'));
});

describe('pre-rendered help', () => {
  it('has a page for every command path of the tree, unwrapped', () => {
    expect(file.format).toBe(HELP_FORMAT);
    expect(Object.keys(file.pages).sort()).toEqual([...paths].sort());
  });

  it('each page, laid out at the terminal width, is what commander prints for `pravo PATH --help` at that width', async () => {
    for (const columns of [80, 132]) {
      for (const commandPath of paths) {
        const live = testHost({ stdoutTTY: true, columns });
        const args = [...(commandPath ? commandPath.split(' ') : []), '--help'];
        expect(await main(args, live.host), commandPath).toBe(0);
        expect(live.stdout(), `pravo ${commandPath} --help at ${columns} columns`).toBe(layoutHelp(file.pages[commandPath]!, columns));
      }
    }
  });

  it('the built CLI prints a page without loading commander; `help PATH` and `PATH --help` print the same', () => {
    const env = { ...process.env, COLUMNS: '80' };
    const { code, stdout, loaded } = modulesLoadedBy(['help', 'config', 'set'], env);
    expect(code).toBe(0);
    expect(stdout).toBe(layoutHelp(file.pages['config set']!, 80));
    expect(packagesAmong(loaded)).toEqual([]);
    const viaOption = spawnSync(process.execPath, [CLI, 'config', 'set', '--help'], { encoding: 'utf8', env });
    expect(viaOption.status).toBe(0);
    expect(viaOption.stdout).toBe(stdout);
  });

  it('only plain help requests are answered from the file', () => {
    expect(helpRequestPath(['--help'])).toBe('');
    expect(helpRequestPath(['-h'])).toBe('');
    expect(helpRequestPath(['help'])).toBe('');
    expect(helpRequestPath(['search', '--help'])).toBe('search');
    expect(helpRequestPath(['help', 'config', 'set'])).toBe('config set');
    // An option beside --help, a query, or no help at all: commander decides.
    expect(helpRequestPath(['--profile', 'work', 'search', '--help'])).toBeUndefined();
    expect(helpRequestPath(['search', 'трудов договор'])).toBeUndefined();
    expect(helpRequestPath(['help', '--json'])).toBeUndefined();
  });

  it('a help request for a path that is not a command goes to commander, as before', async () => {
    expect(file.pages.serach).toBeUndefined();
    const built = spawnSync(process.execPath, [CLI, 'serach', '--help'], { encoding: 'utf8' });
    const live = testHost();
    const code = await main(['serach', '--help'], live.host);
    expect([built.status, built.stdout, built.stderr]).toEqual([code, live.stdout(), live.stderr()]);
  });
});
