/**
 * `pravo open` end to end: the built CLI with an in-process sandbox over the real corpus (its index linked from the
 * shared test sandbox's data directory). Piped, `pravo open 1` prints result 1's https link exactly; at a
 * pseudo-terminal (util-linux `script`) it starts BROWSER, here a node script that records its arguments, never a
 * browser.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { execa } from 'execa';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { CLI, CORPUS } from './paths.js';
import { linkedDataDir, pravo, tempDir } from './helpers.js';

const QUERY = 'изборен кодекс гласуване извън страната';
/** The collection of the statutes in the sandbox. */
const LAWS = 'c_a30f6994b8';
const sandbox = inject('sandbox');

describe('pravo open with --sandbox', () => {
  const home = tempDir('open');
  afterAll(() => home.cleanup());
  const env = { PRAVO_CONFIG_DIR: home.dir, PRAVO_SANDBOX_CORPUS: CORPUS, PRAVO_SANDBOX_DATA_DIR: linkedDataDir(home.dir, sandbox.dataDir) };

  it('search, then open 1 piped prints exactly the https link of result 1, as the search sent it', async () => {
    const search = await pravo(['search', '--sandbox', '--json', '-n', '3', QUERY], { env });
    expect(search.exitCode, search.stderr).toBe(0);
    const first = (JSON.parse(search.stdout) as { results: { url: string }[] }).results[0]!;
    expect(first.url).toMatch(/^https:\/\//);

    const opened = await pravo(['open', '1', '--sandbox'], { env: { ...env, BROWSER: path.join(home.dir, 'never-started') } });
    expect(opened.exitCode, opened.stderr).toBe(0);
    expect(opened.stdout).toBe(first.url);
    expect(opened.stderr).toBe('');

    const json = await pravo(['open', '1', '--sandbox', '--json'], { env });
    expect(JSON.parse(json.stdout)).toMatchObject({ url: first.url, opened: false });

    // Without --sandbox the result belongs elsewhere: refused with the command that opens it.
    const elsewhere = await pravo(['open', '1'], { env });
    expect(elsewhere.exitCode).toBe(2);
    expect(elsewhere.stderr).toContain('run `pravo open 1 --sandbox`');
  });

  it('opens the codes read from Akoma Ntoso at lex.bg, saying when the page shows a newer text than the one served', async () => {
    const code = await pravo(['open', 'akn-1986-dv-26-86-1', '--collection', LAWS, '--sandbox'], { env });
    expect(code.exitCode, code.stderr).toBe(0);
    expect(code.stdout).toBe('https://lex.bg/laws/ldoc/1594373121');
    const vat = await pravo(['open', 'akn-2006-dv-63-06-2', '--collection', LAWS, '--sandbox'], { env });
    expect(vat.stdout).toBe('https://lex.bg/laws/ldoc/2135533201');
    expect(vat.stderr).toContain(
      "The page shows the act's current text, amended up to 31.07.2026; the text here is as first published, 04.08.2006: `pravo doc akn-2006-dv-63-06-2",
    );
  });

  it('at a terminal, BROWSER is started with the link as one argument', async (context) => {
    context.skip(spawnSync('script', ['--version']).error !== undefined, 'util-linux script is not installed');
    await pravo(['search', '--sandbox', '-n', '3', QUERY], { env });
    const recorder = path.join(home.dir, 'record.mjs');
    const recorded = path.join(home.dir, 'argv.json');
    fs.writeFileSync(recorder, `import fs from 'node:fs';\nfs.writeFileSync(${JSON.stringify(recorded)}, JSON.stringify(process.argv.slice(2)));\n`);
    const command = `node '${CLI}' open 1 --sandbox`;
    const result = await execa('script', ['-qec', command, '/dev/null'], {
      env: { ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('PRAVO_'))), ...env, PRAVO_STATE_DIR: path.join(home.dir, 'state'), PRAVO_CACHE_DIR: path.join(home.dir, 'cache'), BROWSER: `"${process.execPath}" "${recorder}" %s` },
      extendEnv: false,
      reject: false,
      stdin: 'ignore',
      timeout: 60_000,
    });
    expect(result.exitCode, result.stdout).toBe(0);
    expect(result.stdout).toMatch(/Opened https:\/\/\S+ in the browser/);
    const argv = JSON.parse(fs.readFileSync(recorded, 'utf8')) as string[];
    expect(argv).toHaveLength(1);
    expect(argv[0]).toMatch(/^https:\/\/\S+$/);
    expect(result.stdout).toContain(argv[0]);
  });
});
