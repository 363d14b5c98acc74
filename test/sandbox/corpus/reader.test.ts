/** Reading corpus files (`src/sandbox/corpus/reader.ts`): plain and gzip JSON Lines, and the errors it names. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { CorpusError, hashCorpusFile, readCorpus, type CorpusDocument } from '../../../src/sandbox/corpus/reader.js';
import { LAWS, tempDir, toJsonl, writeCorpus } from '../fixtures.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function dir(): string {
  const t = tempDir();
  cleanups.push(t.cleanup);
  return t.dir;
}

async function collect(path: string): Promise<CorpusDocument[]> {
  const documents: CorpusDocument[] = [];
  for await (const d of readCorpus(path)) documents.push(d);
  return documents;
}

describe('readCorpus', () => {
  it('reads plain and gzip JSON Lines alike, detecting gzip by content, not by name', async () => {
    const d = dir();
    const plain = writeCorpus(join(d, 'corpus.jsonl'), LAWS);
    const gzipNamedPlain = writeCorpus(join(d, 'corpus-without-gz-suffix.jsonl'), LAWS, true);
    const a = await collect(plain);
    const b = await collect(gzipNamedPlain);
    expect(a.map((x) => x.document_id)).toEqual(LAWS.map((x) => x.document_id));
    expect(b).toEqual(a);
  });

  it('skips blank lines', async () => {
    const d = dir();
    const path = join(d, 'c.jsonl');
    writeFileSync(path, '\n' + toJsonl(LAWS.slice(0, 2)).replace('\n', '\n\n   \n') + '\n\n');
    expect((await collect(path)).length).toBe(2);
  });

  it('names the file and line of invalid JSON', async () => {
    const d = dir();
    const path = join(d, 'c.jsonl.gz');
    const lines = toJsonl(LAWS).split('\n');
    lines.splice(2, 0, '{"document_id": "broken", ');
    writeFileSync(path, gzipSync(lines.join('\n')));
    const error = await collect(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CorpusError);
    expect((error as CorpusError).line).toBe(3);
    expect((error as CorpusError).message).toContain('line 3');
    expect((error as CorpusError).message).toContain(path);
  });

  it('rejects a document missing a required field, and a malformed element', async () => {
    const d = dir();
    const { title: _title, ...noTitle } = LAWS[0]!;
    const path = join(d, 'c.jsonl');
    writeFileSync(path, toJsonl([LAWS[1]!]) + JSON.stringify(noTitle) + '\n');
    await expect(collect(path)).rejects.toThrow(/line 2: .*"title"/);
    writeFileSync(path, JSON.stringify({ ...LAWS[0]!, elements: [{ ref: '1', label: 'Чл. 1.' }] }) + '\n');
    await expect(collect(path)).rejects.toThrow(/line 1: elements\[0\]/);
  });

  it('rejects a repeated document_id', async () => {
    const d = dir();
    const path = writeCorpus(join(d, 'c.jsonl'), [LAWS[0]!, LAWS[1]!, LAWS[0]!]);
    await expect(collect(path)).rejects.toThrow(/line 3: duplicate document_id "test-lighthouse"/);
  });

  it('reports a missing file clearly', async () => {
    const path = join(dir(), 'nope.jsonl.gz');
    await expect(collect(path)).rejects.toThrow(CorpusError);
    await expect(collect(path)).rejects.toThrow(/not found/);
    await expect(hashCorpusFile(path)).rejects.toThrow(/nope\.jsonl\.gz: file not found/);
  });
});
