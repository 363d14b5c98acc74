/**
 * The start of `pravo sandbox serve`, end to end (the built CLI in its own process): a real SIGINT while it indexes a
 * synthetic corpus makes it say "Cancelled", exit 130 and leave nothing in the data directory; a corpus without
 * documents is served with a warning.
 */
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { generatedLaws, writeCorpusFile } from '../helpers/synthetic-corpus.js';
import { CLI } from './paths.js';
import { tempDir } from './helpers.js';

describe('pravo sandbox serve, cancelled or empty', () => {
  const work = tempDir('serve-start');
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

  it('warns that a corpus without documents has nothing to search, naming the file', async () => {
    const corpus = path.join(work.dir, 'empty.jsonl');
    fs.writeFileSync(corpus, '\n\n');
    const child = execa('node', [CLI, 'sandbox', 'serve', '--port', '0', '--corpus', corpus, '--data-dir', path.join(work.dir, 'empty-data')], {
      env: { PRAVO_CONFIG_DIR: path.join(work.dir, 'empty-config') },
      reject: false,
    });
    await new Promise<void>((resolve, reject) => {
      readline.createInterface({ input: child.stdout! }).once('line', () => resolve());
      void child.then((r) => reject(new Error(`serve exited ${r.exitCode}: ${String(r.stderr)}`)));
    });
    child.kill('SIGTERM');
    const result = await child;
    expect(result.exitCode).toBe(0);
    expect(String(result.stderr)).toContain(`Warning: the sandbox corpus ${corpus} has no documents`);
    expect(String(result.stderr)).toMatch(/Point --corpus at a corpus file/);
  });
});
