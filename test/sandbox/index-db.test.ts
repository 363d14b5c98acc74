import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { CorpusError, hashCorpusFile, readCorpus, type CorpusDocument } from '../../src/sandbox/corpus.js';
import {
  collectionOf,
  openIndex,
  readDocument,
  type IndexProgress,
  type SearchIndex,
} from '../../src/sandbox/index-db.js';
import { CASES, LAWS, tempDir, toJsonl, writeCorpus } from './fixtures.js';

const cleanups: (() => void)[] = [];
const opened: SearchIndex[] = [];
afterEach(() => {
  for (const index of opened.splice(0)) index.close();
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function dir(): string {
  const t = tempDir();
  cleanups.push(t.cleanup);
  return t.dir;
}

async function open(corpusPath: string, dataDir: string, phases: IndexProgress[] = []): Promise<SearchIndex> {
  const index = await openIndex({ corpusPath, dataDir, onProgress: (p) => phases.push(p) });
  opened.push(index);
  return index;
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

describe('openIndex', () => {
  it('builds once, then reuses the complete index without re-reading the corpus', async () => {
    const d = dir();
    const corpus = writeCorpus(join(d, 'corpus.jsonl.gz'), [...LAWS, ...CASES], true);
    const data = join(d, 'data');
    const first: IndexProgress[] = [];
    const a = await open(corpus, data, first);
    expect(a.built).toBe(true);
    expect(first.some((p) => p.phase === 'indexing')).toBe(true);
    const lastIndexing = first.filter((p) => p.phase === 'indexing').at(-1);
    const total = LAWS.length + CASES.length;
    expect(lastIndexing).toEqual({ phase: 'indexing', done: total, total });
    expect(a.documentCount).toBe(LAWS.length + CASES.length);
    expect(a.articleCount).toBe([...LAWS, ...CASES].reduce((n, doc) => n + doc.elements.length, 0));
    a.close();

    const second: IndexProgress[] = [];
    const b = await open(corpus, data, second);
    expect(b.built).toBe(false);
    expect(b.path).toBe(a.path);
    expect(second.map((p) => p.phase)).not.toContain('indexing');
    expect(b.documentCount).toBe(a.documentCount);
    // Only the finished index remains: no temporary files.
    expect(readdirSync(data)).toEqual([a.path.split('/').at(-1)]);
    expect(readdirSync(data)[0]).toMatch(/^index-[0-9a-f]{16}\.sqlite$/);
  });

  it('indexes the same content in plain or gzip form', async () => {
    const d = dir();
    const a = await open(writeCorpus(join(d, 'a.jsonl'), LAWS), join(d, 'data-a'));
    const b = await open(writeCorpus(join(d, 'b.jsonl'), LAWS, true), join(d, 'data-b'));
    expect([a.documentCount, a.articleCount]).toEqual([b.documentCount, b.articleCount]);
  });

  it('builds a new index when the corpus file changes', async () => {
    const d = dir();
    const corpus = join(d, 'corpus.jsonl');
    const data = join(d, 'data');
    writeCorpus(corpus, LAWS);
    const a = await open(corpus, data);
    writeCorpus(corpus, LAWS.slice(0, 3));
    const b = await open(corpus, data);
    expect(b.built).toBe(true);
    expect(b.path).not.toBe(a.path);
    expect(b.documentCount).toBe(3);
    expect(b.corpusSha256).not.toBe(a.corpusSha256);
  });

  it('fails with the corrupt line number and leaves no index or temporary file', async () => {
    const d = dir();
    const corpus = join(d, 'corpus.jsonl.gz');
    const lines = toJsonl(LAWS).trimEnd().split('\n');
    lines[3] = 'not json at all';
    writeFileSync(corpus, gzipSync(lines.join('\n')));
    const data = join(d, 'data');
    const error = await openIndex({ corpusPath: corpus, dataDir: data }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CorpusError);
    expect((error as CorpusError).line).toBe(4);
    expect(readdirSync(data)).toEqual([]);
  });

  it('reports a missing corpus as a CorpusError', async () => {
    const d = dir();
    await expect(openIndex({ corpusPath: join(d, 'missing.jsonl.gz'), dataDir: join(d, 'data') })).rejects.toThrow(
      CorpusError,
    );
  });

  it('removes temporary files of crashed builds and replaces an unusable index file', async () => {
    const d = dir();
    const corpus = writeCorpus(join(d, 'corpus.jsonl'), LAWS);
    const data = join(d, 'data');
    const a = await open(corpus, data);
    const name = a.path.split('/').at(-1)!;
    a.close();
    // A crashed build (its process is gone) and a truncated index file at the final name.
    writeFileSync(join(data, `${name}.tmp-999999999-abcdef`), 'half-written');
    writeFileSync(a.path, 'not a database');
    const b = await open(corpus, data);
    expect(b.built).toBe(true);
    expect(b.documentCount).toBe(LAWS.length);
    expect(readdirSync(data)).toEqual([name]);
  });

  it('lets concurrent builders of the same corpus finish without corrupting the index', async () => {
    const d = dir();
    const corpus = writeCorpus(join(d, 'corpus.jsonl'), [...LAWS, ...CASES]);
    const data = join(d, 'data');
    const [a, b] = await Promise.all([open(corpus, data), open(corpus, data)]);
    expect(a.path).toBe(b.path);
    expect(readdirSync(data)).toHaveLength(1);
    const c = await open(corpus, data);
    expect(c.built).toBe(false);
    expect(c.documentCount).toBe(LAWS.length + CASES.length);
  });

  it('lists source types with Bulgarian names, case-law flags and counts', async () => {
    const d = dir();
    const index = await open(writeCorpus(join(d, 'c.jsonl'), [...LAWS, ...CASES]), join(d, 'data'));
    expect(index.sourceTypes()).toEqual([
      {
        id: 'bulgarian_laws_regulations',
        name: 'Закони и подзаконови нормативни актове',
        case_law: false,
        document_count: LAWS.length,
      },
      { id: 'high_courts_cases', name: 'Съдебна практика на върховните съдилища', case_law: true, document_count: 2 },
      // Unknown types: case law when their documents carry a court_id.
      { id: 'test_arbitration_awards', name: 'test_arbitration_awards', case_law: true, document_count: 1 },
      { id: 'test_notes', name: 'test_notes', case_law: false, document_count: 1 },
    ]);
  });

  it('stores every document in full, with its ordered elements, for document retrieval', async () => {
    const d = dir();
    const index = await open(writeCorpus(join(d, 'c.jsonl'), [...LAWS, ...CASES]), join(d, 'data'));
    const law = LAWS[0]!;
    expect(readDocument(index, law.document_id, collectionOf(law.source_type))).toEqual({
      ...law,
      collection: collectionOf(law.source_type),
    });
    const decision = CASES[0]!;
    expect(readDocument(index, decision.document_id, collectionOf(decision.source_type))).toEqual({
      ...decision,
      collection: collectionOf(decision.source_type),
    });
    expect(readDocument(index, law.document_id, collectionOf('high_courts_cases'))).toBeUndefined();
  });

  it('uses opaque collection values, one per source type, stable across runs', () => {
    expect(collectionOf('bulgarian_laws_regulations')).toMatch(/^c_[0-9a-f]{10}$/);
    expect(collectionOf('bulgarian_laws_regulations')).toBe(collectionOf('bulgarian_laws_regulations'));
    expect(collectionOf('bulgarian_laws_regulations')).not.toBe(collectionOf('high_courts_cases'));
  });
});
