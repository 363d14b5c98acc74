import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CorpusDocument } from '../../../src/sandbox/corpus/reader.js';
import { openIndex } from '../../../src/sandbox/corpus/index-db.js';
import type { SearchIndex } from '../../../src/sandbox/storage.js';
import { search } from '../../../src/sandbox/search/pipeline.js';
import { familyPrefix, feedbackWithinDocument, orderWithinDocument, PASSAGE_CHARS, PROXIMITY_WEIGHT, rescoreByPassage, scoreDocuments, type ArticleHit, type DocumentHit } from '../../../src/sandbox/search/ranking.js';
import type { SearchMetadata } from '../../../src/sandbox/search/metadata.js';
import { createStemMatcher, stem } from '../../../src/sandbox/text/analysis.js';
import { tempDir, testAct, writeCorpus } from '../fixtures.js';


const FILLER = 'Това изречение е пълнеж без значение за търсенето и само удължава члена. ';

const CORPUS: CorpusDocument[] = [
  testAct('test-boats', 'Закон за измислените лодки', [
    // The words of the question together, once each, in one short article.
    'Собственикът регистрира лодката в пристанището в 7-дневен срок.',
    // The same words repeated but far apart, in one very long article: it holds them all, more often, but no passage
    // of it answers the question.
    Array.from({ length: 3 }, () => `Собственикът ${FILLER.repeat(10)} лодката ${FILLER.repeat(10)} пристанището ${FILLER.repeat(10)} регистрира ${FILLER.repeat(10)}`).join(''),
    // „лодката“ is in most of the act's articles, „капитан“ in one: within the act, „капитан“ tells the articles apart.
    'Лодката се боядисва в бяло, а лодката носи флаг.',
    'Лодката има име.',
    'Лодката има котва.',
    'Капитанът вдига флаг при буря.',
  ]),
  // Other acts say „капитан“ often, so across the corpus it tells no more than „лодката“.
  ...['кораби', 'самолети', 'влакове', 'отбори'].map((name, i) =>
    testAct(`test-captains-${i}`, `Закон за измислените ${name}`, [`Капитанът отговаря за екипажа.`]),
  ),
  testAct('test-kites', 'Закон за измислените хвърчила', ['Хвърчилото се пуска само при вятър.']),
  // One title, two laws: the one of 2004, replaced by the one of 2016. The old one holds the question's words more often.
  { ...testAct('test-lighthouses-2004', 'Закон за измислените фарове', ['Фарът свети нощем, фарът свети в мъгла, фарът има пазач.']), date: '2004-03-01' },
  { ...testAct('test-lighthouses-2016', 'Закон за измислените фарове', ['Фарът свети нощем.']), date: '2016-03-01' },
];

let index: SearchIndex;
let cleanup: () => void;

beforeAll(async () => {
  const t = tempDir();
  cleanup = t.cleanup;
  index = await openIndex({ corpusPath: writeCorpus(join(t.dir, 'c.jsonl'), CORPUS), dataDir: join(t.dir, 'd') });
});

afterAll(() => {
  index.close();
  cleanup();
});

describe('acts replaced by a later act of the same title', () => {
  it('rank below the later act, unless the filters leave the later act out', () => {
    const ids = (request: Parameters<typeof search>[1]) => search(index, request).results.map((r) => r.document_id);
    expect(ids({ query: 'фарът свети нощем' }).slice(0, 2)).toEqual(['test-lighthouses-2016', 'test-lighthouses-2004']);
    expect(ids({ query: 'фарът свети нощем', date_to: '2010-01-01' })[0]).toBe('test-lighthouses-2004');
    const old = search(index, { query: 'фарът свети нощем' }).results.find((r) => r.document_id === 'test-lighthouses-2004')!;
    expect(old.explanation).toContain('По-късен акт със същото заглавие: test-lighthouses-2016 от 2016-03-01.');
  });
});

describe('article-level ranking', () => {
  it('scores a long article by its best passage: words far apart do not answer the question', () => {
    const text = (id: number): string => (id === 1 ? 'лодката пристанището' : `лодката ${FILLER.repeat(20)} пристанището`);
    const fake = { article: (id: number) => ({ id, ordinal: 0, label: '', heading: '', subject: '', excerpt_id: '', text: text(id) }) };
    const hit = (article: number): ArticleHit => ({ article, document: 1, bm25: 10, terms: [0, 1], coverage: 1, score: 10 });
    const hits = [hit(1), hit(2)];
    const weights = [{ weight: 1 }, { weight: 1 }];
    const stems = ['лодката', 'пристанището'].map((w) => stem(w));
    rescoreByPassage(fake as unknown as SearchIndex, Int32Array.from([0, 20, 2000]), hits, weights, createStemMatcher(stems), new Map(stems.map((s, g) => [s, g])));
    // Short: both words side by side, the full proximity bonus (× 1.5). Long: no passage holds both words, so half the
    // coverage, and only half the words it holds stand together (× 1.25).
    expect(hits.find((h) => h.article === 1)!.score).toBe(10 * (1 + PROXIMITY_WEIGHT));
    expect(hits.find((h) => h.article === 2)!.score).toBe(5 * (1 + PROXIMITY_WEIGHT / 2));
  });

  it('ranks first, among articles holding the same words, the one where they stand close together', () => {
    const spread = `лодката ${'дума '.repeat(60)}пристанището`;
    const text = (id: number): string => (id === 1 ? spread : 'лодката влиза в пристанището');
    const fake = { article: (id: number) => ({ id, ordinal: 0, label: '', heading: '', subject: '', excerpt_id: '', text: text(id) }) };
    const hit = (article: number): ArticleHit => ({ article, document: 1, bm25: 10, terms: [0, 1], coverage: 1, score: 10 });
    const hits = [hit(1), hit(2)];
    const stems = ['лодката', 'пристанището'].map((w) => stem(w));
    const lengths = Int32Array.from([0, spread.length, 30]);
    rescoreByPassage(fake as unknown as SearchIndex, lengths, hits, [{ weight: 1 }, { weight: 1 }], createStemMatcher(stems), new Map(stems.map((s, g) => [s, g])));
    expect(spread.length).toBeLessThan(PASSAGE_CHARS);
    expect(hits.find((h) => h.article === 2)!.score).toBeGreaterThan(hits.find((h) => h.article === 1)!.score);
  });

  it('orders an act’s articles by the words that tell them apart within the act', () => {
    // Six articles: „лодката“ (group 0) in five of them, „флаг“ (group 1) in two, „капитан“ (group 2) in one. Чл. 3
    // (лодката, флаг) and Чл. 6 (флаг, капитан) score the same across the corpus; within the act, „капитан“ tells more.
    const meta = { id: 1, document_id: 'test-boats', titleStems: new Set<string>(), amending: false, amends: [], supersededBy: [], articleCount: 6 };
    const metadata = { documents: [undefined, meta], articleDocument: new Int32Array(7).fill(1), articleCount: 6, sourceTypes: [] };
    const hit = (article: number, terms: number[], score: number): ArticleHit => ({ article, document: 1, bm25: score, terms, coverage: 1, score });
    const hits = [hit(1, [0], 5), hit(2, [0], 5), hit(3, [0, 1], 10), hit(4, [0], 5), hit(5, [0], 5), hit(6, [1, 2], 10)];
    const groups = ['лодката', 'флаг', 'капитан'].map((w) => ({ term: { stem: stem(w), surfaces: [w] }, stems: [{ stem: stem(w), weight: 1 }] }));
    const weights = [{ weight: 1 }, { weight: 1 }, { weight: 1 }];
    const [doc] = scoreDocuments(hits, metadata as unknown as SearchMetadata, groups, weights, new Uint8Array([0, 1]));
    orderWithinDocument(doc!, groups.length);
    expect(doc!.articles.map((a) => a.article).slice(0, 2)).toEqual([6, 3]);
  });

  it('meets a typed verb form the corpus lacks through its word family', () => {
    expect(familyPrefix('регистрирах')).toBe('регистрир');
    expect(familyPrefix('лодк')).toBeUndefined();
    // „регистрирах“ is in no article; its family prefix meets „регистрира“.
    const result = search(index, { query: 'регистрирах лодката' }).results[0]!;
    expect(result.document_id).toBe('test-boats');
    expect(result.excerpts.map((e) => e.excerpt_id)).toContain('test-boats:1');
  });
});

describe('relevance feedback within a document', () => {
  it('moves up the article that shares the best articles’ other words', () => {
    const hit = (article: number, score: number): ArticleHit => ({ article, document: 1, bm25: score, terms: [0], coverage: 1, score });
    const doc = { meta: {}, articles: [hit(1, 10), hit(2, 9), hit(3, 8), hit(4, 5), hit(5, 4.9)], score: 1, coverage: 1, termsInArticles: new Set(), termsInTitle: new Set() };
    // Articles 1–3 speak of „фар“ and „пазач“ besides the query's „лодка“; article 5 does too, article 4 does not.
    const words: Record<number, string[]> = { 1: ['лодк', 'фар', 'пазач'], 2: ['лодк', 'фар'], 3: ['лодк', 'пазач'], 4: ['лодк', 'вятър'], 5: ['лодк', 'фар', 'пазач'] };
    feedbackWithinDocument(doc as unknown as DocumentHit, (a) => words[a] ?? [], new Set(['лодк']), () => 1);
    expect(doc.articles.map((a) => a.article)).toEqual([1, 2, 3, 5, 4]);
  });
});
