/**
 * The harness of the examples tests (`examples-help.test.ts`, `examples-docs.test.ts`, two files so that they run side
 * by side): every example pravo shows runs as written: the `$ pravo ...` lines of every command's `--help`, and the ```sh blocks
 * of README.md and of the pages of docs/ (except the set-up and test commands, which `.ci/run` runs itself: they
 * reinstall node_modules).
 *
 * Each runs with bash in a scratch directory beside a link to `../shared` (so `../shared/corpus/...` resolves as in a
 * checkout), with `pravo` on PATH as the built CLI, the service being the shared test sandbox (PRAVO_BASE_URL and
 * PRAVO_API_KEY, and its session token in PRAVO_SESSION_TOKEN), the sandbox corpus and data directory given by
 * PRAVO_SANDBOX_CORPUS and PRAVO_SANDBOX_DATA_DIR, answer jobs of in-process sandboxes as quick as the shared sandbox's
 * (PRAVO_SANDBOX_ANSWER_DELAY), HOME a scratch directory (examples that install something in the
 * home install it there), and the outside things an example names provided: a `pass` that prints a made-up key (or, asked for a session, the test sandbox's session token), a `key.txt`, the inputs of
 * `pravo batch` (`questions.txt`, `questions.jsonl`) and the memo of `pravo cite` (`memo.md`). The `./sandbox-data`
 * that examples name holds the shared sandbox's index already, as a returning user's does (`linkIndexFiles`: an index is
 * only read once built), so that each does not spend 15 to 20 s of CPU building it again; building an index is what
 * the global setup and `sandbox.test.ts` exercise. How an example is run follows from its text:
 * - a group of lines of which one runs something in the background (`&`, or `coproc`) is one script, whose processes
 *   are all stopped afterwards;
 * - `pravo sandbox serve` in the foreground must print its ready line, then stop with exit 0 on Ctrl-C (SIGINT);
 * - `pravo config set-key` and `pravo login` without `--stdin` get the key or the session token typed at a
 *   pseudo-terminal (util-linux `script`);
 * - anything else must exit 0 within a minute, every command of a pipeline included (`pipefail`: `pravo ... | jq`
 *   fails when pravo does).
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { execa } from 'execa';
import { afterAll, inject } from 'vitest';
import { CLI, CORPUS } from './paths.js';
import { TEST_ANSWER_DELAY_SECONDS } from './global-setup.js';
import { linkIndexFiles, tempDir } from './helpers.js';

const README = path.join(path.dirname(CLI), '..', 'README.md');
/** A made-up key of the live form; not a real credential. */
const TYPED_KEY = 'sbx_live_EXAMPLEexampleEXAMPLEexample12';

const scratch = tempDir('examples');
afterAll(() => scratch.cleanup());
const work = path.join(scratch.dir, 'checkout');
const bin = path.join(scratch.dir, 'bin');
fs.mkdirSync(work);
fs.mkdirSync(bin);
fs.symlinkSync(path.dirname(CORPUS), path.join(scratch.dir, 'shared'));
const home = path.join(scratch.dir, 'home');
fs.mkdirSync(home);
fs.writeFileSync(path.join(bin, 'pravo'), `#!/bin/sh\nexec node '${CLI}' "$@"\n`, { mode: 0o755 });
fs.writeFileSync(
  path.join(bin, 'pass'),
  `#!/bin/sh\ncase "$*" in *session*) echo "$PRAVO_SESSION_TOKEN" ;; *) echo '${TYPED_KEY}' ;; esac\n`,
  { mode: 0o755 },
);
fs.writeFileSync(path.join(work, 'key.txt'), `${TYPED_KEY}\n`);
// Inputs of `pravo batch` examples: questions of the kind a user asks (no legal content).
fs.writeFileSync(path.join(work, 'questions.txt'), '# questions\nнеустойка при забава\nдавност на вземане по запис на заповед\n');
// The memo of `pravo cite` examples: written for the tests, it only cites (provisions the corpus has), quoting nothing.
fs.writeFileSync(
  path.join(work, 'memo.md'),
  '# Тестова бележка (за примерите на pravo)\n\nСъгласно чл. 72 от ЗОП и чл. 3 от Закона за ограничаване на плащанията в брой; вж. и чл. 45 ЗЗД.\n',
);
fs.writeFileSync(
  path.join(work, 'questions.jsonl'),
  '{"query": "обезщетение при застраховка", "max_results": 5}\n{"query": "обществени поръчки обжалване", "source_types": ["bulgarian_laws_regulations"]}\n',
);

/** The environment of every example: nothing of the user's, pravo's directories in the scratch directory. */
function exampleEnv(): Record<string, string> {
  const sandbox = inject('sandbox');
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith('PRAVO_') && !['NO_COLOR', 'FORCE_COLOR', 'PAGER'].includes(key)) env[key] = value;
  }
  return {
    ...env,
    PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`,
    // Examples that install something in the user's home (shell completion) install it in the scratch directory.
    HOME: home,
    PRAVO_CONFIG_DIR: path.join(scratch.dir, 'config'),
    PRAVO_STATE_DIR: path.join(scratch.dir, 'state'),
    PRAVO_CACHE_DIR: path.join(scratch.dir, 'cache'),
    PRAVO_BASE_URL: sandbox.baseUrl,
    PRAVO_API_KEY: sandbox.apiKey,
    PRAVO_SESSION_TOKEN: sandbox.sessionToken,
    PRAVO_SANDBOX_CORPUS: CORPUS,
    PRAVO_SANDBOX_DATA_DIR: sandbox.dataDir,
    PRAVO_SANDBOX_ANSWER_DELAY: String(TEST_ANSWER_DELAY_SECONDS),
  };
}

/** One example: the lines of a script, and where it was shown. */
export interface Example {
  where: string;
  lines: string[];
}

/**
 * Groups of consecutive example lines as units to run: a group with a background job (a line ending in `&`, or a
 * `coproc`, whose output the next lines read from a pipe) is one script, else each line.
 */
function unitsOf(where: string, groups: string[][]): Example[] {
  return groups.flatMap((lines) =>
    lines.some((line) => /&\s*(#.*)?$/.test(line) || /^\s*coproc\s/.test(line)) ? [{ where, lines }] : lines.map((line) => ({ where, lines: [line] })),
  );
}

/** What `pravo <command> --help` prints, asked once per command (the help is read for its commands and its examples). */
const helpTexts = new Map<string, Promise<string>>();
function helpOf(command: string[]): Promise<string> {
  const key = command.join(' ');
  let text = helpTexts.get(key);
  // At 80 columns, where the longer examples are broken over lines (` \`): they must run so, as a user copies them.
  if (!text) helpTexts.set(key, (text = execa('node', [CLI, ...command, '--help'], { env: { COLUMNS: '80' } }).then((result) => result.stdout)));
  return text;
}

/** The commands of pravo, from the `Commands:` sections of the help (without `help` itself), as argument lists. */
export async function commands(prefix: string[] = []): Promise<string[][]> {
  const help = await helpOf(prefix);
  const section = help.split(/\n(?=\S)/).find((part) => part.startsWith('Commands:'));
  const names = (section ?? '')
    .split('\n')
    .slice(1)
    .map((line) => /^ {2}(\S+)/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined && name !== 'help');
  const nested = await Promise.all(names.map((name) => commands([...prefix, name])));
  return [prefix, ...nested.flat()];
}

/** The examples of one command's help: groups of consecutive `  $ ` lines. */
export async function helpExamples(command: string[]): Promise<Example[]> {
  return unitsOf(['pravo', ...command, '--help'].join(' '), splitGroups(await helpOf(command)));
}

/**
 * Consecutive `  $ ` lines of a help text, as groups; an example broken over lines (each but the last ending in ` \`)
 * is one, its lines kept as printed, so that bash reads the continuation as a user's shell does.
 */
function splitGroups(help: string): string[][] {
  const groups: string[][] = [];
  let current: string[] | undefined;
  const lines = help.split('\n');
  for (let i = 0; i < lines.length; i++) {
    let example = /^ {2}\$ (.*)$/.exec(lines[i]!)?.[1];
    if (example === undefined) {
      current = undefined;
      continue;
    }
    while (example.endsWith(' \\') && i + 1 < lines.length) example += `\n${lines[++i]!}`;
    if (!current) groups.push((current = []));
    current.push(example);
  }
  return groups;
}

/**
 * The ```sh blocks of the README and of every page under docs/ (in that order, the pages by path), except the set-up
 * and test commands (marked by the comment before them); each example's `where` names its file.
 */
export function readmeExamples(): Example[] {
  const root = path.dirname(README);
  const pages = fs
    .readdirSync(path.join(root, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .map((name) => ['docs', ...name.split(path.sep)].join('/'))
    .sort();
  return ['README.md', ...pages].flatMap((where) => {
    const text = fs.readFileSync(path.join(root, where), 'utf8');
    const blocks: string[][] = [];
    const pattern = /(<!-- [a-z-]+ -->\n)?```sh\n([\s\S]*?)```/g;
    for (const match of text.matchAll(pattern)) {
      if (match[1]) continue;
      blocks.push(match[2]!.split('\n').filter((line) => line.trim() !== '' && !line.trim().startsWith('#')));
    }
    return unitsOf(where, blocks);
  });
}

/**
 * Creates `./sandbox-data` of the scratch checkout (0700, as pravo makes a data directory) holding the shared
 * sandbox's index files ({@link linkIndexFiles}), once, before the first example runs.
 */
let seeded = false;
function seedDataDir(): void {
  if (seeded) return;
  seeded = true;
  const from = inject('sandbox').dataDir;
  const to = path.join(work, 'sandbox-data');
  fs.mkdirSync(to, { mode: 0o700 });
  linkIndexFiles(from, to);
}

/** Runs one example as its text says (see the module comment); resolves with what a failure message needs. */
export async function runExample(example: Example): Promise<{ ok: boolean; detail: string }> {
  seedDataDir();
  const env = exampleEnv();
  const script = example.lines.join('\n');
  const options = { cwd: work, env, extendEnv: false, reject: false, timeout: 120_000 } as const;
  if (example.lines.length > 1) {
    // Output to a file descriptor the child inherits, not a pipe: a server the script leaves running would hold a pipe
    // open, and the run with it. The script leads its own process group, stopped as a whole afterwards.
    const out = path.join(scratch.dir, 'script.out');
    const fd = fs.openSync(out, 'w');
    const child = spawn('bash', ['-o', 'pipefail', '-c', `set -e\n${script}`], { cwd: work, env, detached: true, stdio: ['ignore', fd, fd], timeout: 120_000 });
    const exitCode = await new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    fs.closeSync(fd);
    if (child.pid !== undefined) killGroup(child.pid);
    const result = { exitCode };
    return { ok: result.exitCode === 0, detail: fs.readFileSync(out, 'utf8') };
  }
  const line = example.lines[0]!;
  if (/\bpravo sandbox serve\b/.test(line)) return serveUntilReady(line, options);
  if (/\bpravo config set-key\b/.test(line) && !/--stdin/.test(line)) return typeAtPrompt(line, 'API key for profile', TYPED_KEY, options);
  if (/\bpravo login\b/.test(line) && !/--stdin|--status/.test(line)) {
    return typeAtPrompt(line, 'Session token for profile', options.env.PRAVO_SESSION_TOKEN!, options);
  }
  const result = await execa('bash', ['-o', 'pipefail', '-c', line], { ...options, stdin: 'ignore' });
  return { ok: result.exitCode === 0, detail: `${result.stdout}\n${result.stderr}` };
}

/**
 * Runs a line that prompts for a secret (`pravo config set-key`, `pravo login`) at a pseudo-terminal (util-linux
 * `script`) and types `secret` once the prompt (`promptText`) shows (typed earlier, the terminal would echo it before
 * the prompt hides input); it must exit 0 without the secret appearing.
 */
async function typeAtPrompt(
  line: string,
  promptText: string,
  secret: string,
  options: { cwd: string; env: Record<string, string> },
): Promise<{ ok: boolean; detail: string }> {
  const child = execa('script', ['-qec', line, '/dev/null'], { ...options, extendEnv: false, reject: false, stdin: 'pipe', timeout: 60_000 });
  let output = '';
  let typed = 0;
  child.stdout!.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
    // One key per prompt (`set-key && set-key` would ask twice). The prompt redraws itself on every keystroke, so
    // its text appears many times per prompt: a key is typed only when every key typed so far has been answered
    // (`✔`) and the prompt's text shows again after the last answer.
    const answered = output.split('✔').length - 1;
    const lastAnswer = output.lastIndexOf('✔');
    const from = lastAnswer === -1 ? 0 : output.indexOf('\n', lastAnswer);
    if (typed === answered && from !== -1 && output.includes(promptText, from)) {
      typed++;
      child.stdin!.write(`${secret}\r`);
    }
  });
  const result = await child;
  return { ok: result.exitCode === 0 && typed > 0 && !output.includes(secret), detail: `exit ${result.exitCode}, typed ${typed}\n${output}\n${result.stderr}` };
}

/** Starts a foreground `pravo sandbox serve` line; it must print the ready line, then stop with exit 0 on SIGINT. */
async function serveUntilReady(line: string, options: { cwd: string; env: Record<string, string> }): Promise<{ ok: boolean; detail: string }> {
  const child = execa('bash', ['-c', `exec ${line}`], { ...options, extendEnv: false, reject: false, stdin: 'ignore', timeout: 120_000 });
  let stdout = '';
  const ready = new Promise<boolean>((resolve) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      if (/"base_url":"http:\/\/[^"]+"/.test(stdout)) resolve(true);
    });
    void child.then(() => resolve(false));
  });
  const wasReady = await ready;
  child.kill('SIGINT');
  const result = await child;
  return { ok: wasReady && result.exitCode === 0, detail: `ready: ${wasReady}, exit ${result.exitCode}\n${stdout}\n${result.stderr}` };
}

/** Stops every process of a detached script's group (a server it left in the background). */
function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGTERM');
  } catch {
    // Already gone.
  }
}
