/**
 * The conventions every command keeps, checked mechanically over the whole command tree (a command without a sample
 * below fails the first test, so a new command cannot slip through):
 * - not on a terminal (the built CLI with pipes): no escape sequence or carriage return anywhere (no colour, spinner,
 *   progress bar or cursor movement), no pager started, no prompt (stdin is empty); with --json, stdout is JSON (data
 *   on stdout, every message on stderr);
 * - on a terminal with NO_COLOR=1, and with --no-color: no colour; on a terminal without them: colour where the command
 *   colours (so the check can fail); FORCE_COLOR=1 off a terminal: colour in the error message;
 * - a command that would ask, run without a terminal and without --yes/--stdin: a usage error (exit 2) naming the flag,
 *   before anything is sent.
 * Each sample runs against a `pravo sandbox serve` of its own (real corpus, data directory of its own), in order (a
 * search before `doc 1`, a job before `answer show`).
 */
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildProgram, main } from '../../src/cli.js';
import { testHost } from '../helpers/host.js';
import { hasAnsi, linkedDataDir, linkIndexFiles, pravo, serveSandbox, tempDir, type Served } from './helpers.js';
import { CLI, CORPUS } from './paths.js';

const shared = inject('sandbox');
const home = tempDir('conventions');
afterAll(() => home.cleanup());

/** One sample run of a command: its arguments (`$JOB`, `$KEY_ID` filled from earlier runs), its stdin, what --json gives. */
interface Sample {
  args: string[];
  input?: string;
  /** stdout with --json: one JSON value, JSON lines, or not JSON at all (a script, a token). */
  json?: 'value' | 'lines';
}

/** A sample per command path, in the order they run. */
const SAMPLES: Record<string, Sample> = {
  search: { args: ['search', '-n', '3', 'трудов договор прекратяване'], json: 'value' },
  doc: { args: ['doc', '1', '--article', '1'], json: 'value' },
  open: { args: ['open', 'act-15520', '--collection', 'c_a30f6994b8'], json: 'value' },
  // A memo written for the tests: citations of provisions the corpus has (exit 0), no legal text.
  cite: { args: ['cite', '--yes', '$MEMO'], json: 'value' },
  answer: { args: ['answer', '--no-wait', 'неустойка при забава'], json: 'value' },
  'answer wait': { args: ['answer', 'wait'], json: 'value' },
  'answer show': { args: ['answer', 'show', '$JOB'], json: 'value' },
  'answer list': { args: ['answer', 'list'], json: 'value' },
  'catalog source-types': { args: ['catalog', 'source-types'], json: 'value' },
  'catalog courts': { args: ['catalog', 'courts'], json: 'value' },
  'catalog judges': { args: ['catalog', 'judges', '--court', 'ВКС', '--limit', '3'], json: 'value' },
  usage: { args: ['usage'], json: 'value' },
  // The second run (--json) finds the lines done by the first in the same --out, and prints the summary.
  batch: { args: ['batch', '-', '--yes', '--out', '$OUT'], input: 'обезщетение при застраховка\n', json: 'value' },
  'config set-key': { args: ['config', 'set-key', '--stdin', '--profile', 'scratch'], input: 'sbx_live_EXAMPLEexampleEXAMPLEexample12\n', json: 'value' },
  'config show': { args: ['config', 'show'], json: 'value' },
  'config set': { args: ['config', 'set', 'auth-header', 'bearer', '--profile', 'scratch'], json: 'value' },
  'config unset': { args: ['config', 'unset', 'auth-header', '--profile', 'scratch'], json: 'value' },
  'config path': { args: ['config', 'path'], json: 'value' },
  login: { args: ['login', '--status'], json: 'value' },
  logout: { args: ['logout', '--profile', 'scratch'], json: 'value' },
  'keys create': { args: ['keys', 'create', '--name', 'conventions'], json: 'value' },
  'keys list': { args: ['keys', 'list'], json: 'value' },
  'keys revoke': { args: ['keys', 'revoke', '$KEY_ID', '--yes'], json: 'value' },
  account: { args: ['account'], json: 'value' },
  'account overages': { args: ['account', 'overages', '--deny', '--yes'], json: 'value' },
  'keys rotate': { args: ['keys', 'rotate', '--yes'], json: 'value' },
  'sandbox token': { args: ['sandbox', 'token', '--data-dir', '$DATA'], json: 'value' },
  'sandbox serve': { args: ['sandbox', 'serve', '--data-dir', '$DATA', '--corpus', CORPUS, '--port', '0'], json: 'value' },
  'sandbox import': { args: ['sandbox', 'import', path.join(CORPUS, 'parliament-api'), '--id', '166496', '--out', '$IMPORTED'], json: 'value' },
  completion: { args: ['completion', 'bash'] },
};

/** Commands that ask, run without a terminal: the flag the error must name. */
const PROMPTS: [string[], string, string?][] = [
  [['config', 'set-key', '--profile', 'scratch'], '--stdin'],
  [['login', '--profile', 'scratch'], '--stdin'],
  [['keys', 'revoke', 'key_never_sent'], '--yes'],
  [['keys', 'rotate'], '--yes'],
  [['account', 'overages', '--deny'], '--yes'],
  [['answer', '--verify', 'неустойка при забава'], '--yes'],
  [['batch', '-'], '--yes', 'неустойка при забава\n'],
  [['cite', '-'], '--yes', 'Тестово: чл. 1 от Кодекса на труда.\n'],
];

let served: Served;
let env: Record<string, string>;
let data: string;
/** A pager that leaves a mark: it must never start off a terminal. */
let pagerMark: string;
const filled: Record<string, string> = {};

beforeAll(async () => {
  const config = { PRAVO_CONFIG_DIR: path.join(home.dir, 'config') };
  data = linkedDataDir(home.dir, shared.dataDir);
  served = await serveSandbox(data, config, ['--answer-delay', '0.2']);
  pagerMark = path.join(home.dir, 'pager-started');
  const pager = path.join(home.dir, 'pager.sh');
  fs.writeFileSync(pager, `#!/bin/sh\ntouch '${pagerMark}'\ncat\n`, { mode: 0o755 });
  env = { ...config, PRAVO_PROFILE: 'sandbox', PRAVO_PAGER: pager };
  filled.$OUT = path.join(home.dir, 'batch-results.jsonl');
  filled.$DATA = path.join(home.dir, 'serve-data');
  filled.$IMPORTED = path.join(home.dir, 'imported.jsonl.gz');
  filled.$MEMO = path.join(home.dir, 'memo.md');
  fs.writeFileSync(filled.$MEMO, 'Тестова бележка: чл. 72 от ЗОП и чл. 45 ЗЗД.\n');
  fs.mkdirSync(filled.$DATA);
  linkIndexFiles(data, filled.$DATA);
}, 120_000);

afterAll(async () => {
  await served?.stop();
});

function fill(args: string[]): string[] {
  return args.map((arg) => filled[arg] ?? arg);
}

/** `pravo sandbox serve` until its ready line, then SIGINT: what it printed, and its exit code. */
async function serveOnce(args: string[]): Promise<{ stdout: string; stderr: string; exitCode: number }> {
  const child = execa('node', [CLI, ...args], { env: { ...env, PRAVO_STATE_DIR: path.join(home.dir, 'serve-state') }, reject: false });
  await new Promise<string>((resolve) => readline.createInterface({ input: child.stdout! }).once('line', resolve));
  child.kill('SIGINT');
  const result = await child;
  return { stdout: String(result.stdout), stderr: String(result.stderr), exitCode: result.exitCode ?? -1 };
}

describe('every command keeps the conventions', () => {
  it('has a sample here (a new command must add one)', async () => {
    const { program } = await buildProgram(testHost().host);
    const leaves: string[] = [];
    const walk = (command: typeof program, prefix: string): void => {
      const runs = (command as unknown as { _actionHandler: unknown })._actionHandler !== null;
      if (prefix && runs) leaves.push(prefix);
      for (const sub of command.commands) walk(sub, prefix ? `${prefix} ${sub.name()}` : sub.name());
    };
    walk(program, '');
    expect(leaves.filter((leaf) => !(leaf in SAMPLES))).toEqual([]);
  });

  it('off a terminal: no escape sequences, no pager, no prompt; with --json, stdout is JSON', async () => {
    for (const [name, sample] of Object.entries(SAMPLES)) {
      for (const json of sample.json ? [false, true] : [false]) {
        const args = fill([...sample.args, ...(json ? ['--json'] : [])]);
        const result = name === 'sandbox serve' ? await serveOnce(args) : await pravo(args, { env, ...(sample.input ? { input: sample.input } : {}), timeout: 60_000 });
        const what = `pravo ${args.join(' ')}`;
        expect(result.exitCode, `${what}: ${String(result.stderr)}`).toBe(0);
        const stdout = String(result.stdout);
        const stderr = String(result.stderr);
        expect(hasAnsi(stdout) || hasAnsi(stderr), `${what}: an escape sequence`).toBe(false);
        expect(/\r/.test(stdout + stderr), `${what}: a carriage return (a spinner or progress bar)`).toBe(false);
        if (json && sample.json === 'value') expect(() => JSON.parse(stdout), `${what}: stdout is not JSON`).not.toThrow();
        if (json && sample.json === 'lines') for (const line of stdout.trim().split('\n')) expect(() => JSON.parse(line), `${what}: ${line}`).not.toThrow();
        // Values later samples need: the job of `answer --no-wait`, the key `keys create` made.
        if (json && name === 'answer') filled.$JOB = (JSON.parse(stdout) as { job_id: string }).job_id;
        if (json && name === 'keys create') filled.$KEY_ID = (JSON.parse(stdout) as { key_id: string }).key_id;
        if (!json && name === 'keys create') {
          const list = await pravo(['keys', 'list', '--json'], { env });
          filled.$KEY_ID = (JSON.parse(String(list.stdout)) as { keys: { key_id: string; name: string; status: string }[] }).keys.find(
            (k) => k.name === 'conventions' && k.status === 'active',
          )!.key_id;
        }
      }
    }
    expect(fs.existsSync(pagerMark), 'a pager started off a terminal').toBe(false);
  }, 300_000);

  it('on a terminal: NO_COLOR=1 and --no-color turn colour off; without them the command colours', async () => {
    const sgr = /\u001b\[[0-9;]*m/;
    for (const args of [['search', '-n', '3', 'трудов договор прекратяване'], ['catalog', 'source-types'], ['usage'], ['keys', 'list']]) {
      const runOn = async (extra: string[], extraEnv: Record<string, string>): Promise<string> => {
        const t = testHost({ env: { ...env, PRAVO_PAGER: 'cat', ...extraEnv }, stdoutTTY: true, stderrTTY: true, columns: 120 });
        expect(await main([...args, ...extra], t.host), args.join(' ')).toBe(0);
        return t.stdout() + t.stderr();
      };
      expect(sgr.test(await runOn([], {})), `${args.join(' ')} colours on a terminal`).toBe(true);
      expect(sgr.test(await runOn([], { NO_COLOR: '1' })), `${args.join(' ')} with NO_COLOR`).toBe(false);
      expect(sgr.test(await runOn(['--no-color'], {})), `${args.join(' ')} --no-color`).toBe(false);
    }
  });

  it('FORCE_COLOR colours an error off a terminal, unless --no-color', async () => {
    const forced = await pravo(['doc', '999'], { env: { ...env, FORCE_COLOR: '1' } });
    expect(forced.exitCode).toBe(2);
    expect(hasAnsi(String(forced.stderr))).toBe(true);
    const off = await pravo(['doc', '999', '--no-color'], { env: { ...env, FORCE_COLOR: '1' } });
    expect(hasAnsi(String(off.stderr))).toBe(false);
  });

  it.each(PROMPTS)('pravo %j without a terminal asks for %s, sends nothing', async (args, flag, input) => {
    const before = await pravo(['usage', '--json'], { env });
    const result = await pravo(args, { env, ...(input ? { input } : {}) });
    expect(result.exitCode).toBe(2);
    expect(String(result.stderr)).toContain(flag);
    expect(String(result.stdout)).toBe('');
    const after = await pravo(['usage', '--json'], { env });
    expect(String(after.stdout)).toBe(String(before.stdout));
  });
});
