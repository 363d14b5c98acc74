/**
 * `pravo sandbox serve` run in this process on test streams: the ready line, a request served, the stop on SIGTERM
 * with exit 0, and start-up errors.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { runPravo, testHost } from '../helpers/host.js';
import { writeSyntheticCorpus } from '../helpers/synthetic-corpus.js';

let root: string;
let corpus: string;

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'pravo-cmd-serve-'));
  corpus = writeSyntheticCorpus(path.join(root, 'corpus'));
});

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** Resolves with the first line written to a captured stream, polling the capture (no timers: each write wakes it). */
async function firstLine(read: () => string, stream: NodeJS.EventEmitter): Promise<string> {
  while (!read().includes('\n')) await new Promise((resolve) => stream.once('data', resolve));
  return read().split('\n')[0]!;
}

describe('pravo sandbox serve (in process)', () => {
  it('prints one JSON ready line, serves the contract, and stops on SIGTERM with exit 0', async () => {
    const env = { PRAVO_CONFIG_DIR: path.join(root, 'config'), PRAVO_STATE_DIR: path.join(root, 'state') };
    const t = testHost({ env });
    const run = main(['sandbox', 'serve', '--corpus', corpus, '--data-dir', path.join(root, 'data')], t.host);
    const ready = JSON.parse(await firstLine(t.stdout, t.host.stdout)) as { base_url: string; api_key: string };
    expect(ready.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(ready.api_key).toMatch(/^sbx_live_/);

    const search = await runPravo(['search', '--json', 'неустойка договор'], {
      env: { ...env, PRAVO_BASE_URL: ready.base_url, PRAVO_API_KEY: ready.api_key },
    });
    expect(search.exitCode).toBe(0);
    expect(JSON.parse(search.stdout).result_count).toBeGreaterThan(0);

    t.signal('SIGTERM');
    expect(await run).toBe(0);
    expect(t.stdout().trim().split('\n')).toHaveLength(1);
    expect(t.stderr()).toMatch(/SIGTERM: stopping/);
    expect(t.stderr()).toMatch(/stopped/);
    expect(t.stderr()).not.toContain(ready.api_key);
  });

  it('bad options and a missing corpus are exit 2; a malformed corpus is exit 1 naming its line', async () => {
    const env = { PRAVO_CONFIG_DIR: path.join(root, 'config2') };
    expect((await runPravo(['sandbox', 'serve', '--port', '70000'], { env })).exitCode).toBe(2);
    const none = await runPravo(['sandbox', 'serve'], { env });
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toMatch(/No sandbox corpus given/);
    const bad = path.join(root, 'bad.jsonl');
    fs.writeFileSync(bad, '{"document_id": 1}\n');
    const malformed = await runPravo(['sandbox', 'serve', '--corpus', bad, '--data-dir', path.join(root, 'data-bad')], { env });
    expect(malformed.exitCode).toBe(1);
    expect(malformed.stderr).toMatch(/line 1/);
    expect(malformed.stderr).not.toMatch(/bug in pravo/);
  });
});
