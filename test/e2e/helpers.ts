/** Helpers of the end-to-end tests: run the built CLI in a clean environment, and a recording HTTP server. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { DatabaseSync } from 'node:sqlite';
import { execa, type Result, type ResultPromise } from 'execa';
import { CLI, CORPUS } from './paths.js';

/** A fresh temporary directory, removed by the returned cleanup. */
export function tempDir(prefix: string): { dir: string; cleanup: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `pravo-${prefix}-`));
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** The process environment without any PRAVO_*, pager or colour variables, so tests never see the user's settings. */
function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined || key.startsWith('PRAVO_') || ['NO_COLOR', 'FORCE_COLOR', 'PAGER'].includes(key)) continue;
    env[key] = value;
  }
  return env;
}

/**
 * pravo's state and cache directories for a run: beside its PRAVO_CONFIG_DIR (or under a per-run temporary
 * directory), so that no test writes to the user's real ones.
 */
function privateDirs(env: Record<string, string> | undefined): Record<string, string> {
  const base = env?.PRAVO_CONFIG_DIR ?? fallbackRoot();
  return { PRAVO_STATE_DIR: path.join(base, 'state'), PRAVO_CACHE_DIR: path.join(base, 'cache') };
}

let fallback: string | undefined;
function fallbackRoot(): string {
  if (fallback === undefined) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pravo-e2e-home-'));
    process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
    fallback = dir;
  }
  return fallback;
}

/** Runs `node bin/pravo.js ...args` with only the given PRAVO_* variables; never rejects. */
export async function pravo(
  args: string[],
  options: { env?: Record<string, string>; input?: string; timeout?: number } = {},
): Promise<Result<{ reject: false }>> {
  return execa('node', [CLI, ...args], {
    ...(options.timeout === undefined ? {} : { timeout: options.timeout }),
    env: { ...cleanEnv(), ...privateDirs(options.env), ...options.env },
    extendEnv: false,
    reject: false,
    ...(options.input === undefined ? { stdin: 'ignore' as const } : { input: options.input }),
  });
}

/** Whether text contains ANSI escape sequences. */
export function hasAnsi(text: string): boolean {
  return /\u001b\[/.test(text);
}

/**
 * Puts the complete index files of data directory `from` (`index-<key>.sqlite`, not a build's temporary files) into
 * `to`, which must exist, unless `to` has one of that name already: a hard link, else a copy (an index is only read
 * once built).
 */
export function linkIndexFiles(from: string, to: string): void {
  for (const name of fs.readdirSync(from).filter((n) => /^index-.*\.sqlite$/.test(n))) {
    if (fs.existsSync(path.join(to, name))) continue;
    try {
      fs.linkSync(path.join(from, name), path.join(to, name));
    } catch {
      fs.copyFileSync(path.join(from, name), path.join(to, name));
    }
  }
}

/**
 * A new data directory `<root>/data-<n>` holding the shared test sandbox's index ({@link linkIndexFiles}), so a test's
 * sandbox processes count only its own units in their own `state.sqlite`.
 */
export function linkedDataDir(root: string, sharedDataDir: string): string {
  const dir = path.join(root, `data-${++dataDirs}`);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  linkIndexFiles(sharedDataDir, dir);
  return dir;
}
let dataDirs = 0;

/** Units of one quota kind a data directory's state has counted (`account_usage`, every account and month). */
export function unitsCounted(dataDir: string, kind: 'search' | 'retrieval' | 'answers'): number {
  const db = new DatabaseSync(path.join(dataDir, 'state.sqlite'), { readOnly: true });
  try {
    return (db.prepare('SELECT used FROM account_usage WHERE kind = ?').all(kind) as { used: number }[]).reduce((sum, row) => sum + row.used, 0);
  } finally {
    db.close();
  }
}

/** A running `pravo sandbox serve`. */
export interface Served {
  baseUrl: string;
  process: ResultPromise;
  stop(): Promise<void>;
}

/**
 * Starts `pravo sandbox serve` over the test corpus on `data` with `args`, saving its base URL and key to profile
 * `sandbox` of the config directory `config.PRAVO_CONFIG_DIR`; resolves once it listens.
 * @throws when it exits before printing its ready line (with its stderr).
 */
export async function serveSandbox(data: string, config: Record<string, string>, args: string[] = []): Promise<Served> {
  const child = execa('node', [CLI, 'sandbox', 'serve', '--corpus', CORPUS, '--data-dir', data, '--save-to-profile', 'sandbox', ...args], {
    env: { ...config, PRAVO_STATE_DIR: path.join(config.PRAVO_CONFIG_DIR!, 'state') },
    extendEnv: true,
    reject: false,
    stderr: 'pipe',
  });
  const line = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).once('line', resolve);
    void child.then((r) => reject(new Error(`pravo sandbox serve exited (${r.exitCode}): ${String(r.stderr)}`)));
  });
  const ready = JSON.parse(line) as { base_url: string };
  return {
    baseUrl: ready.base_url,
    process: child,
    stop: async () => {
      child.kill('SIGTERM');
      await child;
    },
  };
}
