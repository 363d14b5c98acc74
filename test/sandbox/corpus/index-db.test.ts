/**
 * The corpus index (`src/sandbox/corpus/index-db.ts`, `index-build.ts`, `index-files.ts`): built once per corpus
 * content, reused, never half-written, private file modes, and the purpose-named reads the search and the document
 * endpoint use.
 */
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { CorpusError, type CorpusDocument } from '../../../src/sandbox/corpus/reader.js';
import { analyze } from '../../../src/sandbox/text/analysis.js';
import { searchMetadata } from '../../../src/sandbox/search/metadata.js';
import { collectionOf } from '../../../src/sandbox/catalog-rules.js';
import type { IndexProgress } from '../../../src/sandbox/corpus/index-build.js';
import { openIndex } from '../../../src/sandbox/corpus/index-db.js';
import type { SearchIndex } from '../../../src/sandbox/storage.js';
import { generatedLaws } from '../../helpers/synthetic-corpus.js';
import { CASES, LAWS, tempDir, toJsonl, writeCorpus } from '../fixtures.js';

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
    expect(b.inputsKey).not.toBe(a.inputsKey);
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

  it('stores every document in full, with its ordered elements and their excerpt ids, for document retrieval', async () => {
    const d = dir();
    const index = await open(writeCorpus(join(d, 'c.jsonl'), [...LAWS, ...CASES]), join(d, 'data'));
    const withIds = (doc: CorpusDocument) => doc.elements.map((e) => ({ excerpt_id: `${doc.document_id}:${e.ref}`, ...e }));
    const law = LAWS[0]!;
    const storedLaw = index.readDocument(law.document_id, collectionOf(law.source_type));
    expect(storedLaw).toEqual({ ...law, collection: collectionOf(law.source_type), elements: withIds(law) });
    // A statute carries no court fields at all.
    expect(Object.keys(storedLaw!)).toEqual([
      'document_id', 'collection', 'source_type', 'type', 'title', 'date', 'in_force_date', 'author', 'url', 'signature', 'elements',
    ]);
    const decision = CASES[0]!;
    const storedDecision = index.readDocument(decision.document_id, collectionOf(decision.source_type));
    // A decision has every court field, null (or [] for the panel) where the corpus gives none.
    expect(storedDecision).toEqual({
      ...decision,
      case_kind: null,
      department: null,
      judges: [],
      collection: collectionOf(decision.source_type),
      elements: withIds(decision),
    });
    expect(Object.keys(storedDecision!).slice(10)).toEqual([
      'court_id', 'court', 'decision_number', 'case_number', 'case_kind', 'department', 'reporting_judge', 'judges', 'elements',
    ]);
    expect(index.readDocument(law.document_id, collectionOf('high_courts_cases'))).toBeUndefined();
    // The JSON text GET /v1/documents sends (built without parsing the elements) is the same document, member for
    // member and in the same order.
    expect(index.readDocumentJson(law.document_id, collectionOf(law.source_type))?.toString('utf8')).toBe(JSON.stringify(storedLaw));
    expect(index.readDocumentJson(decision.document_id, collectionOf(decision.source_type))?.toString('utf8')).toBe(JSON.stringify(storedDecision));
    expect(index.readDocumentJson(law.document_id, collectionOf('high_courts_cases'))).toBeUndefined();
  });

  it('uses opaque collection values, one per source type, stable across runs', () => {
    expect(collectionOf('bulgarian_laws_regulations')).toMatch(/^c_[0-9a-f]{10}$/);
    expect(collectionOf('bulgarian_laws_regulations')).toBe(collectionOf('bulgarian_laws_regulations'));
    expect(collectionOf('bulgarian_laws_regulations')).not.toBe(collectionOf('high_courts_cases'));
  });

  it('creates the data directory 0700 and the index file 0600', async () => {
    const d = dir();
    const data = join(d, 'new', 'data');
    const index = await open(writeCorpus(join(d, 'c.jsonl'), LAWS), data);
    expect(statSync(data).mode & 0o777).toBe(0o700);
    expect(statSync(index.path).mode & 0o777).toBe(0o600);
  });
});

/** A pid that no process has (above Linux's largest pid_max): a builder that died. */
const DEAD_PID = 999_999_999;

describe('openIndex: temporary files and cancellation', () => {
  it('writes no SQLite journal beside the temporary index while building (only the temporary file exists)', async () => {
    const d = dir();
    const data = join(d, 'data');
    const seen: string[][] = [];
    const corpus = writeCorpus(join(d, 'c.jsonl'), generatedLaws(300));
    const index = await openIndex({
      corpusPath: corpus,
      dataDir: data,
      onProgress: (p) => {
        if (p.phase === 'indexing' && p.done > 0 && p.done < p.total) seen.push(readdirSync(data));
      },
    });
    opened.push(index);
    expect(seen.length).toBeGreaterThan(0);
    for (const names of seen) {
      expect(names).toHaveLength(1);
      expect(names[0]).toMatch(new RegExp(`^index-[0-9a-f]{16}\\.sqlite\\.tmp-${process.pid}-[0-9a-f]+$`));
    }
  });

  it('creates the temporary index 0600 from its first byte, under umask 000 too', async () => {
    const d = dir();
    const data = join(d, 'data');
    const modes: number[] = [];
    const corpus = writeCorpus(join(d, 'c.jsonl'), generatedLaws(300));
    const saved = process.umask(0);
    try {
      const index = await openIndex({
        corpusPath: corpus,
        dataDir: data,
        onProgress: (p) => {
          if (p.phase === 'indexing' && p.done > 0 && p.done < p.total) modes.push(...readdirSync(data).map((name) => statSync(join(data, name)).mode & 0o777));
        },
      });
      opened.push(index);
    } finally {
      process.umask(saved);
    }
    expect(modes.length).toBeGreaterThan(0);
    expect(new Set(modes)).toEqual(new Set([0o600]));
  });

  it('stops a build when the signal aborts mid-way: rejects with AbortError and leaves no file behind', async () => {
    const d = dir();
    const data = join(d, 'data');
    const corpus = writeCorpus(join(d, 'c.jsonl'), generatedLaws(400), true);
    const controller = new AbortController();
    let lastDone = 0;
    const error = await openIndex({
      corpusPath: corpus,
      dataDir: data,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.phase !== 'indexing') return;
        lastDone = p.done;
        if (p.done >= 100) controller.abort('SIGINT');
      },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DOMException);
    expect((error as DOMException).name).toBe('AbortError');
    expect((error as DOMException).cause).toBe('SIGINT');
    // It stopped at the abort, not at the end of the corpus.
    expect(lastDone).toBeLessThan(400);
    expect(readdirSync(data)).toEqual([]);
    // A later start builds the index from scratch.
    const index = await open(corpus, data);
    expect(index.built).toBe(true);
    expect(index.documentCount).toBe(400);
  });

  it('stops while hashing the corpus when the signal aborts, and before anything when it already has', async () => {
    const d = dir();
    const data = join(d, 'data');
    const corpus = writeCorpus(join(d, 'c.jsonl'), generatedLaws(2_000, 2));
    expect(statSync(corpus).size).toBeGreaterThan(2 << 20);
    const controller = new AbortController();
    const phases: string[] = [];
    const error = await openIndex({
      corpusPath: corpus,
      dataDir: data,
      signal: controller.signal,
      onProgress: (p) => {
        phases.push(p.phase);
        controller.abort();
      },
    }).catch((e: unknown) => e);
    expect((error as Error).name).toBe('AbortError');
    expect(phases).toEqual(['hashing']);
    await expect(openIndex({ corpusPath: corpus, dataDir: data, signal: AbortSignal.abort() })).rejects.toMatchObject({
      name: 'AbortError',
    });
  });

  it('removes the files of dead builders at every open, even when the index already exists', async () => {
    const d = dir();
    const corpus = writeCorpus(join(d, 'c.jsonl'), LAWS);
    const data = join(d, 'data');
    const a = await open(corpus, data);
    const name = a.path.split('/').at(-1)!;
    a.close();
    const stale = [
      `${name}.tmp-${DEAD_PID}-abcdef`,
      `${name}.tmp-${DEAD_PID}-abcdef-journal`,
      `${name}.tmp-${DEAD_PID}-0123ab-wal`,
      `${name}.tmp-${DEAD_PID}-0123ab-shm`,
      // Another corpus's build, killed too.
      `index-0123456789abcdef.sqlite.tmp-${DEAD_PID}-ffff-journal`,
    ];
    for (const file of stale) writeFileSync(join(data, file), 'left by a killed build');
    const b = await open(corpus, data);
    expect(b.built).toBe(false);
    expect(readdirSync(data).sort()).toEqual([name]);
  });

  it("keeps the files of a build that is still running in another process, and other files", async () => {
    const d = dir();
    const corpus = writeCorpus(join(d, 'c.jsonl'), LAWS);
    const data = join(d, 'data');
    mkdirSync(data);
    // The parent process (the test runner) is alive: a concurrent builder's files must survive.
    const live = [
      `index-0123456789abcdef.sqlite.tmp-${process.ppid}-abcdef`,
      `index-0123456789abcdef.sqlite.tmp-${process.ppid}-abcdef-journal`,
    ];
    const unrelated = ['notes.txt', `index-0123456789abcdef.sqlite.bak-${DEAD_PID}`];
    for (const file of [...live, ...unrelated]) writeFileSync(join(data, file), 'x');
    const index = await open(corpus, data);
    expect(readdirSync(data).sort()).toEqual([index.path.split('/').at(-1)!, ...live, ...unrelated].sort());
  });
});

describe('SearchIndex reads', () => {
  it('does not expose its database', async () => {
    const d = dir();
    const index = await open(writeCorpus(join(d, 'c.jsonl'), LAWS), join(d, 'data'));
    expect(index).not.toHaveProperty('db');
  });

  it('lists document rows, article → document pairs, and articles by id', async () => {
    const d = dir();
    const index = await open(writeCorpus(join(d, 'c.jsonl'), [...LAWS, ...CASES]), join(d, 'data'));
    const rows = index.documentRows();
    expect(rows.map((r) => r.document_id)).toEqual([...LAWS, ...CASES].map((doc) => doc.document_id));
    expect(rows.map((r) => r.id)).toEqual(rows.map((_, i) => i + 1));
    const decision = rows.find((r) => r.document_id === 'test-case-1')!;
    expect({ ...decision }).toMatchObject({ court_id: 10, reporting_judge: 'Мария Иванова Петрова', collection: collectionOf('high_courts_cases') });
    expect(rows[0]!.court_id).toBeNull();
    expect(rows[0]!.title_stems).toBe(analyze(LAWS[0]!.title).join(' '));

    const pairs = [...index.articleDocumentPairs()];
    expect(pairs).toHaveLength(index.articleCount);
    expect(index.maxArticleId()).toBe(index.articleCount);
    expect(pairs.slice(0, 4).map(([article, doc]) => [article, doc])).toEqual([[1, 1], [2, 1], [3, 1], [4, 2]]);
    // The third member is the length of the article's text.
    expect(pairs[0]![2]).toBe(LAWS[0]!.elements[0]!.text.length);

    expect({ ...index.article(1)! }).toEqual({
      id: 1,
      ordinal: 0,
      label: 'Чл. 1.',
      text: LAWS[0]!.elements[0]!.text,
      heading: '',
      subject: '', // the shipped subject index writes questions for real acts, not for this synthetic one
      excerpt_id: 'test-lighthouse:1',
    });
    expect(index.article(index.articleCount + 1)).toBeUndefined();
    // Articles by their ref within a document (for references such as „чл. 2“).
    expect(index.articleByRef(1, '2')).toBe(2);
    expect(index.articleByRef(1, '99')).toBeUndefined();
    // Articles per stem, from the FTS vocabulary.
    expect(index.stemArticleCount('пазител')).toBeGreaterThan(0);
    expect(index.stemArticleCount('несъществуващадума')).toBe(0);
  });

  it('matches one stem with its BM25 (negative, lower is better), and nothing for unknown or quoted stems', async () => {
    const d = dir();
    const index = await open(writeCorpus(join(d, 'c.jsonl'), LAWS), join(d, 'data'));
    const hits = index.matchStem('фар');
    expect(hits.length).toBeGreaterThan(0);
    for (const [article, bm25] of hits) {
      expect(index.article(article)!.text.toLowerCase()).toContain('фар');
      expect(bm25).toBeLessThan(0);
    }
    expect(index.matchStem('несъществуващ')).toEqual([]);
    expect(index.matchStem('a"b')).toEqual([]);
  });
});

describe('openIndex over several inputs', () => {
  /** Made-up courts: the court of `test-case-1` (10), and one without decisions (15, parent 10). */
  const COURTS = [
    { court_id: 15, name: 'ТЕСТОВИ ДАННИ: Долен измислен съд', court_type: 'Районен съд', ecli_code: 'RC015', parent_court_id: 10 },
    { court_id: 10, name: 'ТЕСТОВИ ДАННИ: Първи измислен съд (по файла)', court_type: 'Окръжен съд', ecli_code: 'DC010', parent_court_id: null },
  ];
  /** A decision with a panel, kind and department (made up). */
  const PANEL_CASE: CorpusDocument = {
    ...CASES[1]!,
    document_id: 'test-case-panel',
    case_kind: 'ТЕСТОВИ ДАННИ: измислено дело',
    department: 'ТЕСТОВИ ДАННИ: Второ измислено отделение',
    judges: ['Георги Стоянов', 'Христина Тестова'],
  };

  function inputs(d: string): { laws: string; cases: string; courts: string } {
    const courts = join(d, 'test-courts.json');
    writeFileSync(courts, JSON.stringify(COURTS));
    return {
      laws: writeCorpus(join(d, 'laws.jsonl.gz'), LAWS, true),
      cases: writeCorpus(join(d, 'cases.jsonl'), [...CASES, PANEL_CASE]),
      courts,
    };
  }

  async function openSet(dataDir: string, corpusFiles: string[], courtsFile?: string, phases: IndexProgress[] = []): Promise<SearchIndex> {
    const index = await openIndex({ inputs: { corpusFiles, courtsFile }, dataDir, onProgress: (p) => phases.push(p) });
    opened.push(index);
    return index;
  }

  it('indexes every corpus file, counting progress over all of them, and reuses the index whatever their order', async () => {
    const d = dir();
    const { laws, cases, courts } = inputs(d);
    const data = join(d, 'data');
    const phases: IndexProgress[] = [];
    const a = await openSet(data, [laws, cases], courts, phases);
    const documents = LAWS.length + CASES.length + 1;
    expect(a.documentCount).toBe(documents);
    const indexing = phases.filter((p) => p.phase === 'indexing');
    expect(indexing[0]).toEqual({ phase: 'indexing', done: 0, total: documents });
    expect(indexing.at(-1)).toEqual({ phase: 'indexing', done: documents, total: documents });
    const bytes = [laws, cases, courts].reduce((n, f) => n + statSync(f).size, 0);
    expect(phases.filter((p) => p.phase === 'hashing').at(-1)).toEqual({ phase: 'hashing', done: bytes, total: bytes });
    a.close();

    const b = await openSet(data, [cases, laws], courts);
    expect(b.built).toBe(false);
    expect(b.path).toBe(a.path);
    expect(b.inputsKey).toBe(a.inputsKey);
    expect(readdirSync(data)).toEqual([a.path.split('/').at(-1)]);
    // Without the courts file, or without a corpus file, it is another set of inputs.
    const c = await openSet(data, [cases, laws]);
    expect(c.built).toBe(true);
    expect(c.inputsKey).not.toBe(a.inputsKey);
  });

  it('refuses a document_id found in two corpus files, naming both, and leaves nothing behind', async () => {
    const d = dir();
    const { laws } = inputs(d);
    const again = writeCorpus(join(d, 'again.jsonl'), [CASES[0]!, LAWS[2]!]);
    const data = join(d, 'data');
    const error = await openSet(data, [laws, again]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CorpusError);
    const message = (error as CorpusError).message;
    expect(message).toContain(`document_id "${LAWS[2]!.document_id}"`);
    expect(message).toContain(laws);
    expect(message).toContain(again);
    expect(readdirSync(data)).toEqual([]);
  });

  it('reports an invalid courts file by entry and field before indexing', async () => {
    const d = dir();
    const { laws, courts } = inputs(d);
    writeFileSync(courts, JSON.stringify([COURTS[0], { court_id: 16 }]));
    const phases: IndexProgress[] = [];
    const error = await openSet(join(d, 'data'), [laws], courts, phases).catch((e: unknown) => e);
    expect((error as CorpusError).message).toBe(`courts file ${courts}, entry 2: missing or invalid required field "name" (a non-empty string)`);
    expect(phases.some((p) => p.phase === 'indexing')).toBe(false);
  });

  it('lists the courts of the file and those only decisions name, with the decisions of each', async () => {
    const d = dir();
    const { laws, cases, courts } = inputs(d);
    const index = await openSet(join(d, 'data'), [laws, cases], courts);
    expect(index.courts()).toEqual([
      // From the file: its name wins over the decision's.
      COURTS[1],
      COURTS[0],
      // Named by decisions only: their name, nothing else known.
      { court_id: 20, name: 'ТЕСТОВИ ДАННИ: Втори измислен съд', court_type: null, ecli_code: null, parent_court_id: null },
      { court_id: 30, name: 'ТЕСТОВИ ДАННИ: Измислен арбитраж', court_type: null, ecli_code: null, parent_court_id: null },
    ]);
    expect([...index.decisionCounts()]).toEqual([[10, 1], [20, 2], [30, 1]]);
  });

  it('keeps the panel, case kind and department of decisions for the search', async () => {
    const d = dir();
    const { laws, cases } = inputs(d);
    const index = await openSet(join(d, 'data'), [laws, cases]);
    const rows = index.documentRows();
    expect(rows.find((r) => r.document_id === 'test-case-panel')).toMatchObject({
      case_kind: PANEL_CASE.case_kind,
      department: PANEL_CASE.department,
      judges_json: JSON.stringify(PANEL_CASE.judges),
    });
    expect(rows.find((r) => r.document_id === LAWS[0]!.document_id)).toMatchObject({ case_kind: null, department: null, judges_json: null });
    const metadata = searchMetadata(index);
    const byId = new Map(metadata.documents.filter((m) => m !== undefined).map((m) => [m.document_id, m]));
    expect(byId.get('test-case-panel')!.judges).toEqual(PANEL_CASE.judges);
    expect(byId.get(LAWS[0]!.document_id)!.judges).toEqual([]);
    expect(byId.get('test-case-1')!.judges).toEqual([]);
  });

  it('gives a corpus document its own collection when it sets one', async () => {
    const d = dir();
    const odd = { ...LAWS[3]!, document_id: 'test/odd & id?#1 тест', collection: 'колекция/a&b?c#d e' };
    const index = await openSet(join(d, 'data'), [writeCorpus(join(d, 'odd.jsonl'), [LAWS[0]!, odd])]);
    expect(index.readDocument(odd.document_id, odd.collection)?.title).toBe(odd.title);
    expect(index.readDocument(odd.document_id, collectionOf(odd.source_type))).toBeUndefined();
  });
});
