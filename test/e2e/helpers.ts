/** Helpers of the end-to-end tests: run the built CLI in a clean environment, and a recording HTTP server. */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { execa, type Result } from 'execa';
import { CLI } from './paths.js';

/** A fresh temporary directory, removed by the returned cleanup. */
export function tempDir(prefix: string): { dir: string; cleanup: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `pravo-${prefix}-`));
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** The process environment without any PRAVO_* or colour variables, so tests never see the user's settings. */
function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined || key.startsWith('PRAVO_') || key === 'NO_COLOR' || key === 'FORCE_COLOR') continue;
    env[key] = value;
  }
  return env;
}

/** Runs `node bin/pravo.js ...args` with only the given PRAVO_* variables; never rejects. */
export async function pravo(
  args: string[],
  options: { env?: Record<string, string>; input?: string } = {},
): Promise<Result<{ reject: false }>> {
  return execa('node', [CLI, ...args], {
    env: { ...cleanEnv(), ...options.env },
    extendEnv: false,
    reject: false,
    ...(options.input === undefined ? { stdin: 'ignore' as const } : { input: options.input }),
  });
}

/** A request the recording server received. */
export interface Recorded {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * A loopback HTTP server that records every request and answers with `respond` (default: 200 and an empty search
 * response). For proving what the CLI sends, and that it sends nothing.
 */
export async function recordingServer(
  respond: (request: Recorded) => { status: number; body: string } = () => ({
    status: 200,
    body: JSON.stringify({ query: 'x', result_count: 0, results: [] }),
  }),
): Promise<{ url: string; requests: Recorded[]; close: () => Promise<void> }> {
  const requests: Recorded[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(recorded);
      const { status, body } = respond(recorded);
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Whether text contains ANSI escape sequences. */
export function hasAnsi(text: string): boolean {
  return /\u001b\[/.test(text);
}
