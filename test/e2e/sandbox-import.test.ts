/**
 * `pravo sandbox import`, end to end (the built CLI in its own process), with inputs that used to hang it: a payload
 * file that is a FIFO is skipped at once, saying so, and the rest is written; a real SIGTERM while a request is held
 * by the server ends the process with "Cancelled." and exit 130, leaving no file. The real payloads are copied at run
 * time from `../shared/corpus/parliament-api/` into a temporary directory, never into the repository.
 */
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { PAYLOADS, startFakeParliamentApi } from '../helpers/parliament-api.js';
import { HAS_SPECIAL_FILES, makeFifo } from '../helpers/special-files.js';
import { CLI } from './paths.js';
import { pravo, tempDir } from './helpers.js';

describe('pravo sandbox import, inputs that must not hang it', () => {
  const work = tempDir('import');
  afterAll(() => work.cleanup());
  /** pravo's own directories for these runs, inside the test's temporary directory. */
  const env = (): Record<string, string> => ({
    PRAVO_CONFIG_DIR: path.join(work.dir, 'config'),
    PRAVO_STATE_DIR: path.join(work.dir, 'state'),
    PRAVO_CACHE_DIR: path.join(work.dir, 'cache'),
  });

  it.skipIf(!HAS_SPECIAL_FILES)('skips a payload that is a FIFO, naming it, and writes the others: exit 1', async () => {
    const src = path.join(work.dir, 'fifo-src');
    fs.mkdirSync(src);
    makeFifo(path.join(src, '2.json'));
    fs.copyFileSync(path.join(PAYLOADS, '15565.json'), path.join(src, '15565.json'));
    const out = path.join(work.dir, 'fifo-acts.jsonl');
    const result = await pravo(['sandbox', 'import', src, '--out', out], { env: env(), timeout: 20_000 });
    expect(result.timedOut).toBe(false);
    expect(result.exitCode).toBe(1);
    expect(String(result.stderr)).toContain('Skipped act 2: 2.json is a FIFO (named pipe), not a regular file; only regular files are read');
    expect(String(result.stderr)).toContain(`Wrote 1 act to ${out}; skipped 1 act (above).`);
    expect(fs.readFileSync(out, 'utf8')).toContain('"document_id":"act-15565"');
  });

  it('ends on SIGTERM while the server holds the request: "Cancelled.", exit 130, no file', async () => {
    const api = await startFakeParliamentApi({ 15565: 'hold' });
    try {
      const dir = path.join(work.dir, 'held');
      fs.mkdirSync(dir);
      const child = execa('node', [CLI, 'sandbox', 'import', api.baseUrl, '--id', '15565', '--out', path.join(dir, 'acts.jsonl')], {
        env: env(),
        reject: false,
        timeout: 20_000,
      });
      await api.requested(15565);
      child.kill('SIGTERM');
      const result = await child;
      expect(result.timedOut).toBe(false);
      expect(result.exitCode).toBe(130);
      expect(String(result.stderr)).toMatch(/Cancelled\./);
      expect(fs.readdirSync(dir)).toEqual([]);
    } finally {
      await api.close();
    }
  });
});
