/**
 * Shell completion: the scripts in completions/ are what the command tree generates; they parse in bash, zsh and
 * fish; bash's completion, driven as readline would drive it, offers the right candidates for commands, options, fixed
 * values and values from local state (profiles, cached catalogs, jobs, keys, last results); and the `__complete` path
 * never loads commander, the HTTP client or conf. The state is synthetic, written by the test into temporary
 * directories.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli.js';
import { candidates, complete } from '../../src/completion/dynamic.js';
import { completionFileName, completionScript } from '../../src/completion/scripts.js';
import { ARGUMENT_VALUES, OPTION_VALUES, SHELLS, allNodes, completionTree, type CompletionNode } from '../../src/completion/tree.js';
import { cacheKey } from '../../src/state/cache-key.js';
import { testHost } from '../helpers/host.js';
import { modulesLoadedBy, packagesAmong } from '../helpers/loaded-modules.js';
import { TerminalSession, terminalAvailable } from '../helpers/terminal.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const BASE_URL = 'http://127.0.0.1:9/legal';

let tree: CompletionNode;
let tmp: string;
let env: NodeJS.ProcessEnv;
let bin: string;

/** A response cache entry as `state/cache.ts` stores it. */
function cacheEntry(apiPath: string, body: unknown, storedAt: number, baseUrl = BASE_URL): [string, string] {
  const key = cacheKey({ baseUrl, path: apiPath });
  return [`${key}.json`, JSON.stringify({ key, stored_at: storedAt, status: 200, raw: JSON.stringify(body) })];
}

beforeAll(async () => {
  tree = completionTree((await buildProgram(testHost().host)).program);
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pravo-completion-'));
  env = {
    PATH: process.env.PATH,
    LANG: 'C.UTF-8',
    PRAVO_CONFIG_DIR: path.join(tmp, 'config'),
    PRAVO_STATE_DIR: path.join(tmp, 'state'),
    PRAVO_CACHE_DIR: path.join(tmp, 'cache'),
  };
  for (const dir of ['config', 'state/answer-jobs', 'state/keys', 'cache/responses', 'bin']) fs.mkdirSync(path.join(tmp, dir), { recursive: true });
  fs.writeFileSync(
    path.join(tmp, 'config', 'config.json'),
    JSON.stringify({ profiles: { default: { base_url: BASE_URL, api_key: 'secret-not-shown' }, staging: { base_url: 'https://staging.example.bg' } } }),
  );
  const responses = path.join(tmp, 'cache', 'responses');
  const courts = {
    courts: [
      { court_id: 310, name: 'Окръжен съд – Варна (synthetic test court)' },
      { court_id: 410, name: 'Окръжен съд – Велико Търново (synthetic test court)' },
      // Three courts of one town, and two whose names start alike but not with the town (Оряхов fits both).
      { court_id: 530, name: 'Окръжен съд – Пловдив (synthetic test court)' },
      { court_id: 533, name: 'Районен съд – Пловдив (synthetic test court)' },
      { court_id: 718, name: 'Административен съд – Пловдив (synthetic test court)' },
      { court_id: 426, name: 'Районен съд – Оряхово (synthetic test court)' },
      { court_id: 412, name: 'Районен съд – Горна Оряховица (synthetic test court)' },
      { court_id: 999, name: 'Evil\u001b[31m court\u0007' },
    ],
  };
  for (const [name, body] of [
    cacheEntry('/v1/catalog/courts', courts, 2),
    cacheEntry('/v1/catalog/source-types', { source_types: [{ id: 'synthetic_laws', name: 'Synthetic test laws' }, { id: 'synthetic_cases', name: 'Synthetic test cases' }] }, 2),
    // An older catalog of another target: found only by the scan, when the profile's own entry is missing.
    cacheEntry('/v1/catalog/source-types', { source_types: [{ id: 'other_target_type', name: 'Other' }] }, 1, 'http://elsewhere.example'),
  ]) {
    fs.writeFileSync(path.join(responses, name!), body!);
  }
  fs.writeFileSync(
    path.join(tmp, 'state', 'last-results.json'),
    JSON.stringify({ saved_at: '2026-11-22T10:00:00Z', query: 'q', profile: 'default', sandbox: false, results: [1, 2, 3].map((rank) => ({ rank, document_id: `d${rank}`, collection: 'c', title: `Synthetic test act ${rank}` })) }),
  );
  const job = (id: string, status: string, created: string) => ({ job_id: id, query: `synthetic question ${id}`, last_status: status, created_at: created, profile: 'default', sandbox: false });
  fs.writeFileSync(path.join(tmp, 'state', 'answer-jobs', 'a.json'), JSON.stringify(job('job_running', 'running', '2026-11-22T10:00:00Z')));
  fs.writeFileSync(path.join(tmp, 'state', 'answer-jobs', 'b.json'), JSON.stringify(job('job_done', 'succeeded', '2026-11-22T11:00:00Z')));
  fs.writeFileSync(
    path.join(tmp, 'state', 'keys', 'default.json'),
    JSON.stringify({ saved_at: '2026-11-22T10:00:00Z', keys: [{ key_id: 'key_active1', name: 'ci', status: 'active' }, { key_id: 'key_gone', name: 'old', status: 'revoked' }] }),
  );
  // `pravo` on PATH, as the scripts call it by the name typed: the built CLI under this node.
  bin = path.join(tmp, 'bin', 'pravo');
  fs.writeFileSync(bin, `#!/bin/sh\nexec "${process.execPath}" "${path.join(repo, 'bin', 'pravo.js')}" "$@"\n`, { mode: 0o755 });
  env.PATH = `${path.join(tmp, 'bin')}:${process.env.PATH}`;
});

afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** Whether `shell` can be started here (bash, zsh and fish are not on every machine; `.ci/run` installs them). */
function installed(shell: string): boolean {
  return spawnSync(shell, ['--version'], { encoding: 'utf8' }).error === undefined;
}

/** Why a test of `shell` is skipped, and how to run it. */
function notInstalled(shell: string): string {
  return `${shell} is not installed here: install it (e.g. apt-get install ${shell}; .ci/run does) to run this test`;
}

describe('completion scripts', () => {
  it.each(SHELLS)('completions/ holds the %s script the command tree generates (npm run completions regenerates it)', (shell) => {
    const committed = fs.readFileSync(path.join(repo, 'completions', completionFileName(shell)), 'utf8');
    expect(committed).toBe(completionScript(shell, tree));
  });

  it.for([
    ['bash', ['-n']],
    ['zsh', ['-n']],
    ['fish', ['--no-execute']],
  ] as const)('the %s script parses (%s)', ([shell, flags], { skip }) => {
    skip(!installed(shell), notInstalled(shell));
    const file = path.join(repo, 'completions', completionFileName(shell));
    const result = spawnSync(shell, [...flags, file], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('pravo completion SHELL prints the script; an unknown shell is a usage error', async () => {
    const { main } = await import('../../src/cli.js');
    const ok = testHost();
    expect(await main(['completion', 'fish'], ok.host)).toBe(0);
    expect(ok.stdout()).toBe(completionScript('fish', tree));
    const bad = testHost();
    expect(await main(['completion', 'tcsh'], bad.host)).toBe(2);
    expect(bad.stderr()).toMatch(/bash, zsh, fish/);
    expect(bad.stdout()).toBe('');
  });

  it('every value-taking option and argument says how it completes, and no entry is left over', () => {
    const nodes = allNodes(tree);
    const flags = new Set(nodes.flatMap((n) => n.options.flatMap((o) => (o.value ? o.flags : []))));
    const argumentKeys = new Set(nodes.flatMap((n) => n.arguments.map((a) => `${n.path}/${a.name}`)));
    expect(Object.keys(OPTION_VALUES).filter((flag) => !flags.has(flag))).toEqual([]);
    expect(Object.keys(ARGUMENT_VALUES).filter((key) => !argumentKeys.has(key))).toEqual([]);
    // The commands a user completes are all there, the help command included.
    expect(tree.commands.map((c) => c.name)).toEqual(expect.arrayContaining(['search', 'doc', 'answer', 'catalog', 'keys', 'completion', 'help']));
  });
});

/** What bash's completion offers for `words` (the last being the word under the cursor, as typed). */
function bashComplete(...words: string[]): string[] {
  return bashCompleteWith(path.join(repo, 'completions', 'pravo.bash'), ...words);
}

/** {@link bashComplete} with the bash script `script` (the committed one, or one just generated from the tree). */
function bashCompleteWith(script: string, ...words: string[]): string[] {
  return bashCompletion(script, ...words).values;
}

/**
 * What bash's completion function puts in COMPREPLY for `words`, and the `compopt` options it asks readline for (the
 * driver stands in for `compopt`, which only works while readline completes).
 */
function bashCompletion(script: string, ...words: string[]): { values: string[]; options: string[] } {
  const driver =
    `source "$1"; shift; exec 3>&2; compopt() { printf 'compopt %s\\n' "$*" >&3; }; ` +
    `COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=\${#COMP_LINE}; _pravo; printf '%s\\n' "\${COMPREPLY[@]}"`;
  const result = spawnSync('bash', ['-c', driver, 'bash', script, ...words], { env, encoding: 'utf8' });
  const lines = (text: string) => text.split('\n').filter((line) => line !== '');
  return { values: lines(result.stdout), options: lines(result.stderr).filter((l) => l.startsWith('compopt ')).map((l) => l.slice('compopt '.length)) };
}

describe('bash completion, driven as readline does', () => {
  it('completes commands, subcommands and options', () => {
    expect(bashComplete('pravo', '')).toEqual(expect.arrayContaining(['search', 'doc', 'answer', 'catalog', 'sandbox', 'completion', 'help']));
    expect(bashComplete('pravo', 'ca')).toEqual(['catalog']);
    expect(bashComplete('pravo', 'catalog', '')).toEqual(['source-types', 'courts', 'judges', 'help']);
    expect(bashComplete('pravo', 'search', '--ma')).toEqual(['--max-results']);
    // Global options after a subcommand, as commander reads them.
    expect(bashComplete('pravo', 'doc', '--pro')).toEqual(['--profile']);
    // The value of an option is not taken for a subcommand: `--profile staging catalog` is still the catalog group.
    expect(bashComplete('pravo', '--profile', 'staging', 'catalog', 'c')).toEqual(['courts']);
  });

  it('completes fixed values', () => {
    expect(bashComplete('pravo', 'completion', '')).toEqual(['bash', 'zsh', 'fish']);
    expect(bashComplete('pravo', 'config', 'set', '')).toEqual(['base-url', 'auth-header', 'sandbox', 'sandbox-corpus']);
    expect(bashComplete('pravo', 'config', 'set', 'sandbox', '')).toEqual(['on', 'off']);
    expect(bashComplete('pravo', 'config', 'set', 'auth-header', '')).toEqual(['x-api-key', 'bearer']);
    expect(bashComplete('pravo', 'help', 'ca')).toEqual(['catalog']);
  });

  it('completes values from local state: profiles, catalogs, results, jobs and keys', () => {
    expect(bashComplete('pravo', '--profile', '')).toEqual(['default', 'staging']);
    expect(bashComplete('pravo', 'search', '--type', 'synthetic_l')).toEqual(['synthetic_laws']);
    expect(bashComplete('pravo', 'search', '--court', 'ВК')).toEqual(['ВКС']);
    // A name with spaces is offered as it is (readline quotes it, see below), and what was typed with backslashes or
    // inside a quote still matches.
    expect(bashComplete('pravo', 'search', '--court', 'Окръжен\\ съд\\ –\\ Ва')).toEqual(['Окръжен съд – Варна (synthetic test court)']);
    expect(bashComplete('pravo', 'search', '--court', '"Окръжен съд – Ва')).toEqual(['Окръжен съд – Варна (synthetic test court)']);
    expect(bashComplete('pravo', 'doc', '')).toEqual(['1', '2', '3']);
    expect(bashComplete('pravo', 'answer', 'wait', '')).toEqual(['job_running']);
    expect(bashComplete('pravo', 'answer', 'show', '')).toEqual(['job_done', 'job_running']);
    expect(bashComplete('pravo', 'keys', 'revoke', '')).toEqual(['key_active1']);
    // Free text (a query) gets nothing, not file names.
    expect(bashComplete('pravo', 'search', 'трудов', '')).toEqual([]);
  });

  it('completes a court by any word of its name, case ignored, and offers every court that fits', () => {
    const script = path.join(repo, 'completions', 'pravo.bash');
    const plovdiv = ['Окръжен съд – Пловдив (synthetic test court)', 'Районен съд – Пловдив (synthetic test court)', 'Административен съд – Пловдив (synthetic test court)'];
    for (const typed of ['Пловд', 'пловд', 'Пловдив']) expect(bashComplete('pravo', 'search', '--court', typed), typed).toEqual(plovdiv);
    expect(bashComplete('pravo', 'search', '--court', 'Окръжен съд – Пл')).toEqual([plovdiv[0]]);
    // Readline quotes the value it inserts as a file name: backslashes, or inside the quote the user opened.
    expect(bashCompletion(script, 'pravo', 'search', '--court', 'Пловд').options).toEqual(['-o filenames']);
    // Values that start alike but not with the typed text: the typed text is offered too, so that readline keeps it.
    expect(bashComplete('pravo', 'search', '--court', 'Оряхов')).toEqual([
      'Районен съд – Оряхово (synthetic test court)',
      'Районен съд – Горна Оряховица (synthetic test court)',
      'Оряхов',
    ]);
  });

  it('pravo open completes result numbers as pravo doc does (the script the tree generates)', () => {
    const script = path.join(tmp, 'generated.bash');
    fs.writeFileSync(script, completionScript('bash', tree));
    expect(bashCompleteWith(script, 'pravo', 'op')).toEqual(['open']);
    expect(bashCompleteWith(script, 'pravo', 'open', '')).toEqual(['1', '2', '3']);
    expect(bashCompleteWith(script, 'pravo', 'open', '--pr')).toEqual(expect.arrayContaining(['--print', '--profile']));
  });

  it('completes a file name where a path is expected', () => {
    const dir = path.join(tmp, 'files');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'questions.txt'), '');
    expect(bashComplete('pravo', 'batch', path.join(dir, 'quest'))).toEqual([path.join(dir, 'questions.txt')]);
    expect(bashComplete('pravo', 'config', 'set', 'sandbox-corpus', path.join(dir, 'quest'))).toEqual([path.join(dir, 'questions.txt')]);
  });

  it('fish offers every court one of whose words starts with the typed text, in or out of a quote', ({ skip }) => {
    skip(!installed('fish'), notInstalled('fish'));
    const fish = (line: string) =>
      spawnSync('fish', ['-c', `source ${path.join(repo, 'completions', 'pravo.fish')}; complete -C ${JSON.stringify(line)}`], { env, encoding: 'utf8' }).stdout;
    const plovdiv = fish('pravo search --court Пловд').split('\n').filter((l) => l !== '').map((l) => l.split('\t')[0]);
    expect(plovdiv.sort()).toEqual(['Административен съд – Пловдив (synthetic test court)', 'Окръжен съд – Пловдив (synthetic test court)', 'Районен съд – Пловдив (synthetic test court)']);
    expect(fish('pravo search --court "Окръжен съд – Вар')).toBe('Окръжен съд – Варна (synthetic test court)\tcode 310\n');
  });

  it('fish offers the same values, with descriptions', ({ skip }) => {
    skip(!installed('fish'), notInstalled('fish'));
    const result = spawnSync('fish', ['-c', `source ${path.join(repo, 'completions', 'pravo.fish')}; complete -C 'pravo keys revoke '`], { env, encoding: 'utf8' });
    expect(result.stdout).toBe('key_active1\tci\n');
  });
});

describe('completion in a terminal: what is listed and what is inserted', () => {
  const varna = 'Окръжен съд – Варна (synthetic test court)';
  const plovdiv = ['Окръжен съд – Пловдив (synthetic test court)', 'Районен съд – Пловдив (synthetic test court)', 'Административен съд – Пловдив (synthetic test court)'];
  /** The arguments `printf '[%s]'` received: the words of a completed line, as the shell parses them. */
  const ARGUMENTS = /\[pravo\]\[search\]\[--court\]\[[^\n]*\]/;

  /**
   * Starts `shell` on a terminal, sets it up with `setup` (which must end by setting the prompt to `<ready> `), then
   * checks: `Пловд<TAB>` lists the three courts of Пловдив as they are written (no backslashes) and leaves the line as
   * typed; a name completed inside a `"` the user opened, or after backslashes, is one argument (`printf '[%s]'` put
   * before the line shows the arguments the shell parses).
   */
  async function checkTerminal(shell: string, setup: string, listKeys: string, clearLine: string): Promise<void> {
    const session = new TerminalSession(shell, { ...env, TERM: 'dumb', HOME: tmp, HISTFILE: '/dev/null', INPUTRC: '/dev/null' });
    try {
      await session.waitFor(/[$#%>] $/);
      await session.type(`${setup}\n`, /<ready> $/);
      const all = new RegExp(plovdiv.map((name) => `(?=[^]*${name.replace(/[()]/g, '\\$&')})`).join(''));
      const listed = await session.type(`pravo search --court Пловд${listKeys}`, all);
      for (const name of plovdiv) expect(listed).toContain(name);
      expect(listed).not.toContain('\\ ');
      expect(listed).toMatch(/--court Пловд$/m);
      await session.type(`${clearLine}printf '[%s]' cleared\n`, /\[cleared\]/);
      for (const typed of ['"Окръжен съд – Вар', 'Окръжен\\ съд\\ –\\ Вар', 'Вар']) {
        // One court of Варна fits: completed, then the line run with printf before it.
        const line = await session.type(`pravo search --court ${typed}\t\u0001printf '[%s]' \n`, ARGUMENTS);
        expect(ARGUMENTS.exec(line)?.[0], typed).toBe(`[pravo][search][--court][${varna}]`);
      }
    } finally {
      session.close();
    }
  }

  it('bash (readline), installed as the README says without bash-completion: lists names without backslashes, quotes the one it inserts as the line is quoted', async ({ skip }) => {
    skip(!terminalAvailable(), 'script (util-linux) is not installed here: it gives the shell a terminal');
    // The README's line for a bash without the bash-completion package; the script needs none of its functions.
    fs.writeFileSync(path.join(tmp, '.bashrc'), 'source <(pravo completion bash)\n');
    const script = fs.readFileSync(path.join(repo, 'completions', 'pravo.bash'), 'utf8');
    expect(script).not.toMatch(/_init_completion|_get_comp_words_by_ref|_filedir|__ltrim_colon_completions|\b_comp_/);
    await checkTerminal('bash --noprofile -i', `PS1='<''ready''> '`, '\t\t', '\u0015');
  });

  it('zsh (zle): lists names without backslashes, quotes the one it inserts as the line is quoted', async ({ skip }) => {
    skip(!installed('zsh'), notInstalled('zsh'));
    skip(!terminalAvailable(), 'script (util-linux) is not installed here: it gives the shell a terminal');
    await checkTerminal(
      'zsh -f -i',
      `bindkey -e; autoload -U compinit && compinit -u; source ${path.join(repo, 'completions', '_pravo')}; PS1='<''ready''> '`,
      '\t',
      '\u0015',
    );
  });
});

describe('pravo __complete', () => {
  it('offers only what is in the local state, cleaned of control characters', () => {
    const out: string[] = [];
    expect(complete(['courts', 'search', '--court'], env, { write: (text: string) => out.push(text) })).toBe(0);
    const lines = out.join('').split('\n');
    expect(lines).toContain('Evil [31m court\tcode 999');
    expect(lines).toContain('Окръжен съд – Варна (synthetic test court)\tcode 310');
    // Nothing a terminal would act on: only the tab between value and description, and line ends.
    expect(out.join('')).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
  });

  it('reads the profile given on the command line, and the newest catalog of any target with --sandbox', () => {
    expect(candidates('source-types', ['--profile', 'staging', 'search', '--type'], env)).toEqual([
      // staging has no cached catalog: the newest of any target.
      { value: 'synthetic_laws', description: 'Synthetic test laws' },
      { value: 'synthetic_cases', description: 'Synthetic test cases' },
    ]);
    expect(candidates('keys', ['--profile', 'staging', 'keys', 'revoke'], env)).toEqual([]);
    expect(candidates('setting-values', ['config', 'set', 'sandbox-corpus'], env)).toBe('file');
  });

  it('prints nothing and succeeds when there is no state at all; an unknown kind is exit 2', () => {
    const empty = { PRAVO_CONFIG_DIR: path.join(tmp, 'none', 'c'), PRAVO_STATE_DIR: path.join(tmp, 'none', 's'), PRAVO_CACHE_DIR: path.join(tmp, 'none', 'k') };
    for (const kind of ['profiles', 'source-types', 'courts', 'jobs', 'keys', 'results'] as const) {
      const out: string[] = [];
      expect(complete([kind], empty, { write: (text: string) => out.push(text) })).toBe(0);
      // Courts still offer the usual abbreviations, which need no catalog.
      if (kind === 'courts') expect(out.join('')).toMatch(/^ВКС\tВърховен касационен съд$/m);
      else expect(out.join(''), kind).toBe('');
    }
    expect(complete(['nonsense'], empty, { write: () => {} })).toBe(2);
    expect(fs.existsSync(path.join(tmp, 'none'))).toBe(false);
  });

  it('loads neither commander, the HTTP client nor conf', () => {
    const { code, stdout, loaded } = modulesLoadedBy(['__complete', 'results'], env);
    expect(code).toBe(0);
    expect(stdout).toBe('1\tSynthetic test act 1\n2\tSynthetic test act 2\n3\tSynthetic test act 3\n');
    // env-paths (and its is-safe-filename) find the default directories; nothing else from node_modules.
    expect(packagesAmong(loaded)).toEqual(['env-paths', 'is-safe-filename']);
  });
});
