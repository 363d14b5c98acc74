/**
 * Global setup of the test run: starts one `pravo sandbox serve` (the built CLI, as a user runs it, with a short answer
 * delay) over the shared corpus directory (statutes, court decisions and courts) on an ephemeral loopback port, with its own data directory, and provides its base URL, key, session token and data
 * directory to the end-to-end tests. The index is built once here and reused by every test that starts another
 * sandbox on the same data directory; so is the index of the statutes and courts alone, which examples serve.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { execa, type ResultPromise } from 'execa';
import type { TestProject } from 'vitest/node';
import { linkIndexFiles } from './helpers.js';
import { CLI, CORPUS } from './paths.js';

declare module 'vitest' {
  export interface ProvidedContext {
    sandbox: { baseUrl: string; apiKey: string; sessionToken: string; dataDir: string; corpus: string };
  }
}

/**
 * The answer delay of the tests' sandboxes, in seconds: the shared one, and the in-process sandboxes of the examples
 * (`PRAVO_SANDBOX_ANSWER_DELAY`). pravo checks a job first 2 s after creating it (the contract's polling rule), so any
 * delay up to that gives the answer at the first check; the default 3 s would take a second check, 6 s after creation.
 */
export const TEST_ANSWER_DELAY_SECONDS = 1;

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (!fs.existsSync(path.join(path.dirname(CLI), '..', 'dist', 'cli.js'))) {
    throw new Error('The CLI is not built: run `npm run build` first (`npm test` does it for you).');
  }
  if (!fs.existsSync(CORPUS)) {
    throw new Error(`The shared corpus is missing at ${CORPUS}; the end-to-end tests read it from there.`);
  }
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'pravo-e2e-'));
  const dataDir = path.join(root, 'sandbox-data');
  const serve = (dir: string, args: string[]): { server: ResultPromise; firstLine: Promise<string> } => {
    const server: ResultPromise = execa('node', [CLI, 'sandbox', 'serve', '--port', '0', '--data-dir', dir, ...args], {
      env: { PRAVO_CONFIG_DIR: path.join(root, 'config') },
      extendEnv: true,
      reject: false,
      stderr: 'pipe',
    });
    const stdout = server.stdout;
    if (!stdout) throw new Error('no stdout from pravo sandbox serve');
    const firstLine = new Promise<string>((resolve, reject) => {
      const lines = readline.createInterface({ input: stdout });
      lines.once('line', (line) => resolve(line));
      void server.then((result) => reject(new Error(`pravo sandbox serve exited (${result.exitCode}): ${String(result.stderr)}`)));
    });
    return { server, firstLine };
  };
  const { server, firstLine: serverReady } = serve(dataDir, ['--corpus', CORPUS, '--answer-delay', String(TEST_ANSWER_DELAY_SECONDS)]);
  // Meanwhile, on the other CPU, the index of the statutes and courts alone, which the help and the docs both show
  // (`pravo sandbox serve --corpus …/bg-statutes.jsonl.gz --corpus …/bg-courts.json`): built here once, not by two
  // examples at the same time. Its server runs in a data directory of its own (its key and session stay out of the
  // shared state), is stopped once ready, and its index is linked into the shared data directory.
  const statutesDir = path.join(root, 'statutes-data');
  const second = serve(statutesDir, ['--corpus', path.join(CORPUS, 'bg-statutes.jsonl.gz'), '--corpus', path.join(CORPUS, 'bg-courts.json')]);
  const [firstLine] = await Promise.all([serverReady, second.firstLine]);
  second.server.kill('SIGTERM');
  await second.server;
  linkIndexFiles(statutesDir, dataDir);
  const ready = JSON.parse(firstLine) as { base_url: string; api_key: string; session_token: string };
  project.provide('sandbox', { baseUrl: ready.base_url, apiKey: ready.api_key, sessionToken: ready.session_token, dataDir, corpus: CORPUS });

  return async () => {
    server.kill('SIGTERM');
    await server;
    fs.rmSync(root, { recursive: true, force: true });
  };
}
