/**
 * Ctrl-C during the index build of `pravo sandbox serve`, end to end: the built CLI in its own process gets a real
 * SIGINT while it indexes a synthetic corpus, says "Cancelled", exits 130 and leaves nothing in the data directory.
 */
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { generatedLaws, writeCorpusFile } from '../helpers/synthetic-corpus.js';
import { CLI } from './paths.js';
import { tempDir } from './helpers.js';

describe('pravo sandbox serve, cancelled', () => {
  const work = tempDir('serve-cancel');
  afterAll(() => work.cleanup());

  it('stops the index build on SIGINT: "Cancelled", exit 130, no file left in the data directory', async () => {
    // About 18 MB, a build of a few seconds: far longer than the signal takes to arrive.
    const corpus = writeCorpusFile(path.join(work.dir, 'big', 'corpus.jsonl'), generatedLaws(8_000));
    const dataDir = path.join(work.dir, 'big', 'data');
    const child = execa('node', [CLI, 'sandbox', 'serve', '--port', '0', '--corpus', corpus, '--data-dir', dataDir], {
      env: { PRAVO_CONFIG_DIR: path.join(work.dir, 'big', 'config') },
      reject: false,
    });
    const building = await new Promise<string>((resolve, reject) => {
      readline.createInterface({ input: child.stderr! }).on('line', (line) => {
        if (line.includes('Building the search index')) resolve(line);
      });
      void child.then((r) => reject(new Error(`serve exited ${r.exitCode} before building: ${String(r.stderr)}`)));
    });
    expect(building).toContain(corpus);
    child.kill('SIGINT');
    const result = await child;
    expect(result.exitCode).toBe(130);
    expect(String(result.stderr)).toMatch(/Cancelled/);
    expect(String(result.stderr)).not.toMatch(/Search index ready/);
    expect(String(result.stdout)).toBe('');
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });
});
