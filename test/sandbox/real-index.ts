/**
 * The real corpus's index for tests that search it in process: opened from a link to the index the shared test sandbox
 * (the global setup) built of the same inputs, not built a second time.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, inject } from 'vitest';
import { openIndex } from '../../src/sandbox/corpus/index-db.js';
import { resolveCorpusInputs } from '../../src/sandbox/corpus/inputs.js';
import type { SearchIndex } from '../../src/sandbox/storage.js';
import { linkedDataDir, tempDir } from '../e2e/helpers.js';

/** `../shared/corpus`, read at run time, never copied. */
export const SHARED_CORPUS = fileURLToPath(new URL('../../../shared/corpus', import.meta.url));

/** Whether `../shared/corpus` is there (the real-corpus tests are skipped without it). */
export const haveSharedCorpus = existsSync(SHARED_CORPUS);

/**
 * Registers, in the calling `describe` block, the opening of the real corpus's index before its tests and its closing
 * after them; returns a getter of the open index.
 * @param prefix of the temporary directory holding the link.
 */
export function useRealIndex(prefix: string): () => SearchIndex {
  const t = tempDir(prefix);
  let index: SearchIndex | undefined;
  beforeAll(async () => {
    index = await openIndex({ inputs: resolveCorpusInputs([SHARED_CORPUS]), dataDir: linkedDataDir(t.dir, inject('sandbox').dataDir) });
  }, 300_000);
  afterAll(() => {
    index?.close();
    t.cleanup();
  });
  return () => index!;
}
