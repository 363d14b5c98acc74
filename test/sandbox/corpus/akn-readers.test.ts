/**
 * The Akoma Ntoso files read ahead on threads (`src/sandbox/corpus/akn-readers.ts`, run from the build: threads run
 * the built `dist/sandbox/corpus/akn-reader-worker.js`): the corpus collected with reader threads is the one
 * collected without, acts in input order and the same files skipped, on files of the real corpus (read at run time).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type * as Collect from '../../../src/sandbox/corpus/collect.js';
import { haveSharedCorpus, SHARED_CORPUS } from '../real-index.js';

/** The built module, whose reader threads run (the sources read every file on the caller's thread). */
const DIST_COLLECT = new URL('../../../dist/sandbox/corpus/collect.js', import.meta.url);

/** The Akoma Ntoso files under `dir`, sorted. */
function aknFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.xml(?:\.gz)?$/u.test(name))
    .map((name) => join(dir, name))
    .sort();
}

describe.skipIf(!haveSharedCorpus)('collectCorpus with Akoma Ntoso reader threads', () => {
  it('collects the same acts, in input order, and skips the same files as one thread', async () => {
    const { collectCorpus } = (await import(pathToFileURL(DIST_COLLECT.pathname).href)) as typeof Collect;
    const all = aknFiles(join(SHARED_CORPUS, 'akn'));
    // A file the corpus has that is not well-formed XML, among well-formed ones, and a JSON Lines file between them.
    const broken = all.find((f) => f.includes('dv-28-21-22'))!;
    const files = [...all.slice(0, 30), broken, join(SHARED_CORPUS, 'bg-decisions.jsonl.gz'), ...all.slice(-30)];
    const threaded = await collectCorpus(files, { readerThreads: 2 });
    const alone = await collectCorpus(files, { readerThreads: 0 });
    expect(threaded.skipped.map((s) => s.path)).toContain(broken);
    expect(threaded.documents.length).toBeGreaterThan(50);
    expect(threaded).toEqual(alone);
  });
});
