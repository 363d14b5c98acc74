/** Helpers of the end-to-end tests: run the built CLI in a clean environment, and a recording HTTP server. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa, type Result } from 'execa';
import { CLI } from './paths.js';

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
