import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchRequest, SearchResponse, SourceTypeEntry } from '../../../src/contract/types.js';
import { openIndex } from '../../../src/sandbox/corpus/index-db.js';
import type { SearchIndex } from '../../../src/sandbox/storage.js';
import { analyzeQuery } from '../../../src/sandbox/text/analysis.js';
import { EXCERPT_MAX_CHARS } from '../../../src/sandbox/search/excerpts.js';
import { search } from '../../../src/sandbox/search/pipeline.js';
import { judgeNameMatches } from '../../../src/sandbox/search/judges.js';
import { chooseSourceTypes, SearchRequestError } from '../../../src/sandbox/search/source-types.js';
import { CASES, LAWS, tempDir, writeCorpus } from '../fixtures.js';

let lawsIndex: SearchIndex;
let mixedIndex: SearchIndex;
let cleanup: () => void;

beforeAll(async () => {
  const t = tempDir();
  cleanup = t.cleanup;
  lawsIndex = await openIndex({ corpusPath: writeCorpus(join(t.dir, 'laws.jsonl'), LAWS), dataDir: join(t.dir, 'd') });
  mixedIndex = await openIndex({
    corpusPath: writeCorpus(join(t.dir, 'mixed.jsonl.gz'), [...LAWS, ...CASES], true),
    dataDir: join(t.dir, 'd'),
  });
});

afterAll(() => {
  lawsIndex.close();
  mixedIndex.close();
  cleanup();
});

const ids = (response: SearchResponse): string[] => response.results.map((r) => r.document_id);

describe('search on a synthetic corpus', () => {
  it('ranks the act about the subject first, then an act matching every word once, then a passing mention', () => {
    const response = search(lawsIndex, { query: 'пазителят на фара' });
    expect(ids(response)).toEqual(['test-lighthouse', 'test-lighthouse-amend', 'test-gnomes']);
    expect(response.result_count).toBe(3);
    expect(response.query).toBe('пазителят на фара');
    const scores = response.results.map((r) => r.score!);
    expect(scores.every((s) => s > 0 && s <= 1)).toBe(true);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    // Every word in the title and in two articles: a confident match.
    expect(scores[0]).toBeGreaterThan(0.6);
  });

  it('scores on one scale across queries: a one-word match of a longer question stays low, even when it is the best', () => {
    const full = search(lawsIndex, { query: 'пазителят на фара' }).results[0]!;
    // Only „фара“ of four searched words is in the corpus's lighthouse acts; the best result is still a weak match.
    const partial = search(lawsIndex, { query: 'фара вулкан лава кратер' });
    expect(partial.results[0]!.document_id).toBe('test-lighthouse');
    expect(partial.results[0]!.score).toBeLessThan(0.1);
    expect(partial.results[0]!.score).toBeLessThan(full.score! / 5);
  });

  it('ranks an act above an act amending it when both match alike', () => {
    // The amending act repeats the words more often, but the amended act is in the collection.
    expect(ids(search(lawsIndex, { query: 'пчеларят и кошерът' }))).toEqual(['test-hives', 'test-hives-amend']);
    // When a filter excludes the amended act, the amending act is still found.
    expect(ids(search(lawsIndex, { query: 'пчеларят и кошерът', date_from: '2018-01-01' }))).toEqual(['test-hives-amend']);
  });

  it('matches inflected forms and names the words as typed in the explanation', () => {
    // The corpus says "Застрахователят" and "Застрахователите"; the query uses another form.
    const response = search(lawsIndex, { query: 'застрахователя и обезщетенията' });
    expect(ids(response)).toEqual(['test-clouds']);
    const result = response.results[0]!;
    expect(result.explanation).toContain('„застрахователя“');
    expect(result.explanation).toContain('Чл. 1');
    expect(result.excerpts[0]?.text).toContain('Застрахователят');
  });

  it('returns excerpts with unique, stable ids, labels and relative scores', () => {
    const response = search(lawsIndex, { query: 'часовникар часовници' });
    const result = response.results[0]!;
    expect(result.document_id).toBe('test-long');
    // The document repeats ref "2": both articles match and keep distinct ids; its third matching article follows.
    expect(result.excerpts.slice(0, 2).map((e) => e.excerpt_id).sort()).toEqual(['test-long:2', 'test-long:2~2']);
    expect(result.excerpts.map((e) => e.label)).toEqual(['Чл. 2.', 'Чл. 2.', 'Чл. 1.']);
    expect(search(lawsIndex, { query: 'часовникар часовници' })).toEqual(response);
    for (const excerpt of result.excerpts) {
      expect(excerpt.score).toBeGreaterThan(0);
      expect(excerpt.score).toBeLessThanOrEqual(1);
    }
    expect(Math.max(...result.excerpts.map((e) => e.score!))).toBe(1);
    expect(result.explanation).toMatch(/^Съвпадение с „часовникар“ и „часовници“ в Чл. 2/u);
  });

  it('cuts a long article to a passage opening on the match, marking the cuts', () => {
    const full = LAWS.find((d) => d.document_id === 'test-long')!.elements[0]!.text;
    const excerpt = search(lawsIndex, { query: 'часовникар на селото' }).results[0]!.excerpts.find((e) =>
      e.text!.includes('селото'),
    )!;
    expect(excerpt.excerpt_id).toBe('test-long:1');
    expect(excerpt.text!.length).toBeLessThanOrEqual(EXCERPT_MAX_CHARS);
    expect(excerpt.text!.length).toBeGreaterThan(EXCERPT_MAX_CHARS - 100);
    expect(excerpt.text).toMatch(/^….*единственият часовникар на селото.*…$/su);
    // The first 80 characters, all a terminal table shows, hold the words that matched.
    expect(excerpt.text!.slice(0, 80)).toContain('часовникар на селото');
    // Cut at word boundaries: the passage minus its marks is a run of whole words of the article.
    const inner = excerpt.text!.slice(1, -1);
    const at = full.indexOf(inner);
    expect(at).toBeGreaterThan(0);
    expect(full[at - 1]).toMatch(/\s/u);
    expect(full[at + inner.length]).toMatch(/\s/u);
  });

  it('never returns elements or full document text', () => {
    const response = search(mixedIndex, { query: 'фар пазител часовникар застраховател', source_types: ['bulgarian_laws_regulations', 'high_courts_cases'] });
    expect(response.result_count).toBeGreaterThan(3);
    for (const result of response.results) {
      expect(result).not.toHaveProperty('elements');
      expect(Object.keys(result).sort()).toEqual(
        expect.arrayContaining(['author', 'collection', 'date', 'document_id', 'excerpts', 'explanation', 'score', 'source_type', 'title', 'type', 'url']),
      );
      expect(result.excerpts.length).toBeLessThanOrEqual(3);
      for (const e of result.excerpts) expect(e.text!.length).toBeLessThanOrEqual(EXCERPT_MAX_CHARS);
    }
    expect(JSON.stringify(response)).not.toContain(LAWS.find((d) => d.document_id === 'test-long')!.elements[0]!.text);
  });

  it('never returns a short document whole through its excerpts', () => {
    // test-hives is one short article; test-gnomes two; each whole article would fit an excerpt.
    for (const query of ['пчеларят кошера', 'градинските джуджета фар глина', 'пазителят вписва лодките']) {
      const response = search(lawsIndex, { query });
      expect(response.result_count).toBeGreaterThan(0);
      for (const result of response.results) {
        const articles = LAWS.find((d) => d.document_id === result.document_id)!.elements.map((e) => e.text);
        const shown = result.excerpts.map((e) => e.text!);
        expect(articles.every((text) => shown.includes(text)), `${query} → ${result.document_id}`).toBe(false);
        for (const text of shown) expect(text.length).toBeGreaterThan(0);
      }
    }
    const hives = search(lawsIndex, { query: 'пчеларят кошера' }).results.find((r) => r.document_id === 'test-hives')!;
    expect(hives.excerpts[0]!.text).toMatch(/…/u);
    expect(hives.excerpts[0]!.text).toMatch(/Пчеларят|кошера/u);
  });

  it('respects max_results and defaults to 20', () => {
    expect(search(mixedIndex, { query: 'фар', max_results: 2 }).results).toHaveLength(2);
    expect(search(mixedIndex, { query: 'фар', max_results: 2 }).result_count).toBe(2);
    // Every document holding „фар“ (3 acts, 4 court acts), fewer than the default 20.
    expect(search(mixedIndex, { query: 'фар' }).result_count).toBe(7);
  });

  it('returns 0 results for a query of stopwords only and for a query without matches', () => {
    expect(search(lawsIndex, { query: 'и на за от' })).toMatchObject({ query: 'и на за от', result_count: 0, results: [], no_results_reason: { kind: 'no_words' } });
    expect(search(lawsIndex, { query: 'несъществуващадума' })).toMatchObject({
      query: 'несъществуващадума',
      result_count: 0,
      results: [],
      no_results_reason: { kind: 'no_match', filters: [{ filter: 'source_types' }] },
    });
  });

  it('applies date_from and date_to inclusively on the publication date', () => {
    const q = 'фар';
    expect(ids(search(lawsIndex, { query: q, date_from: '2020-01-15' }))).toEqual(['test-lighthouse', 'test-lighthouse-amend']);
    expect(ids(search(lawsIndex, { query: q, date_from: '2020-01-16' }))).toEqual(['test-lighthouse-amend']);
    expect(ids(search(lawsIndex, { query: q, date_to: '2020-01-15' })).sort()).toEqual(['test-gnomes', 'test-lighthouse']);
    expect(ids(search(lawsIndex, { query: q, date_from: '2020-01-15', date_to: '2020-01-15' }))).toEqual(['test-lighthouse']);
  });

  it('filters by source_types and gives court fields to court decisions only', () => {
    const cases = search(mixedIndex, { query: 'пазителя на фара', source_types: ['high_courts_cases'] });
    expect(ids(cases).sort()).toEqual(['test-case-1', 'test-case-2']);
    const decision = cases.results.find((r) => r.document_id === 'test-case-1')!;
    expect(decision).toMatchObject({
      source_type: 'high_courts_cases',
      court_id: 10,
      court: 'ТЕСТОВИ ДАННИ: Първи измислен съд',
      decision_number: '1',
      case_number: '100/2020',
      reporting_judge: 'Мария Иванова Петрова',
    });
    const laws = search(mixedIndex, { query: 'пазителя на фара', source_types: ['bulgarian_laws_regulations'] });
    expect(laws.results.every((r) => r.source_type === 'bulgarian_laws_regulations')).toBe(true);
    for (const r of laws.results) expect(r).not.toHaveProperty('court_id');
    expect(laws.results[0]?.collection).not.toBe(decision.collection);
  });

  it('ranks statutes and decisions together when no source type is chosen', () => {
    // „фара“ is in the lighthouse acts, the made-up decisions and notes alike: every kind comes back, without court
    // words.
    expect(new Set(search(mixedIndex, { query: 'пазителя на фара' }).results.map((r) => r.source_type))).toEqual(
      new Set(['bulgarian_laws_regulations', 'high_courts_cases', 'test_arbitration_awards', 'test_notes']),
    );
    expect(new Set(search(mixedIndex, { query: 'пазителя на фара', source_types: ['bulgarian_laws_regulations'] }).results.map((r) => r.source_type))).toEqual(
      new Set(['bulgarian_laws_regulations']),
    );
  });

  it('filters court decisions by court_ids', () => {
    expect(ids(search(mixedIndex, { query: 'фара', court_ids: [20] }))).toEqual(['test-case-2']);
    expect(ids(search(mixedIndex, { query: 'фара', court_ids: [10, 30] })).sort()).toEqual(['test-case-1', 'test-opinion-1']);
    expect(search(mixedIndex, { query: 'фара', court_ids: [99] }).result_count).toBe(0);
  });

  it('matches the reporting judge case-insensitively and approximately', () => {
    const q = (judge_name: string): string[] => ids(search(mixedIndex, { query: 'фара', judge_name })).sort();
    expect(q('мария иванова')).toEqual(['test-case-1']);
    expect(q('ИВАНОВА')).toEqual(['test-case-1']);
    expect(q('М. Петрова')).toEqual(['test-case-1']);
    expect(q('Мария Иванов')).toEqual(['test-case-1']);
    expect(q('Стоянова')).toEqual(['test-case-2']);
    expect(q('Николай Стоянов')).toEqual([]);
    expect(judgeNameMatches('иванова', 'Мария Иванова Петрова')).toBe(true);
    expect(judgeNameMatches('Драганова', 'Мария Иванова Петрова')).toBe(false);
  });

  it('rejects an unknown source type, naming it and the catalog', () => {
    const attempt = (): SearchResponse => search(mixedIndex, { query: 'фара', source_types: ['bulgarian_laws_regulations', 'no_such_type'] });
    expect(attempt).toThrow(SearchRequestError);
    expect(attempt).toThrow(/"no_such_type".*GET \/v1\/catalog\/source-types/);
    try {
      attempt();
    } catch (error) {
      expect((error as SearchRequestError).code).toBe('invalid_request');
    }
  });

  it('rejects court_ids when every selected source type is non-court', () => {
    const explicit = (): SearchResponse =>
      search(mixedIndex, { query: 'фара', court_ids: [10], source_types: ['bulgarian_laws_regulations', 'test_notes'] });
    expect(explicit).toThrow(SearchRequestError);
    expect(explicit).toThrow(/court_ids applies only to case-law sources/);
    // Automatic selection on a corpus without case law.
    expect(() => search(lawsIndex, { query: 'фара', court_ids: [10] })).toThrow(SearchRequestError);
    // A known case-law type absent from the corpus is allowed and simply matches nothing.
    expect(search(lawsIndex, { query: 'фара', court_ids: [10], source_types: ['high_courts_cases'] }).result_count).toBe(0);
  });
});

describe('chooseSourceTypes', () => {
  const catalog: SourceTypeEntry[] = [
    { id: 'bulgarian_laws_regulations', name: 'Закони', case_law: false, document_count: 10 },
    { id: 'high_courts_cases', name: 'Практика', case_law: true, document_count: 5 },
    { id: 'other_case_law', name: 'other_case_law', case_law: true, document_count: 2 },
    { id: 'other_texts', name: 'other_texts', case_law: false, document_count: 2 },
  ];
  const choose = (request: SearchRequest, types = catalog): string[] =>
    chooseSourceTypes(request, types);

  it('uses explicit source_types as given', () => {
    expect(choose({ query: 'решение на съда', source_types: ['other_texts', 'other_texts'] })).toEqual(['other_texts']);
  });

  it('selects case law when court_ids or judge_name is given', () => {
    expect(choose({ query: 'договор', court_ids: [1] })).toEqual(['high_courts_cases', 'other_case_law']);
    expect(choose({ query: 'договор', judge_name: 'Иванов' })).toEqual(['high_courts_cases', 'other_case_law']);
  });

  it('searches every type present when none is chosen, whatever the words', () => {
    const every = ['bulgarian_laws_regulations', 'high_courts_cases', 'other_case_law', 'other_texts'];
    for (const query of ['решението по делото', 'трудов договор прекратяване', 'какво засяга вас договорът']) {
      expect(choose({ query })).toEqual(every);
    }
    expect(choose({ query: 'договор' }, catalog.slice(2))).toEqual(['other_case_law', 'other_texts']);
  });

  it('treats an empty source_types like an omitted one', () => {
    expect(choose({ query: 'договор', source_types: [] })).toEqual(['bulgarian_laws_regulations', 'high_courts_cases', 'other_case_law', 'other_texts']);
  });

  it('throws invalid_request for unknown types and for court_ids with only non-court types', () => {
    expect(() => choose({ query: 'договор', source_types: ['x_unknown'] })).toThrow(/unknown source type "x_unknown"/);
    expect(() => choose({ query: 'договор', source_types: ['other_texts'], court_ids: [3] })).toThrow(SearchRequestError);
    expect(() => choose({ query: 'договор', court_ids: [3] }, catalog.filter((t) => !t.case_law))).toThrow(SearchRequestError);
    expect(choose({ query: 'договор', source_types: ['other_texts', 'other_case_law'], court_ids: [3] })).toEqual([
      'other_texts',
      'other_case_law',
    ]);
  });
});

const CORPUS = '/work/shared/corpus/bg-statutes.jsonl.gz';
const haveCorpus = existsSync(CORPUS);
if (!haveCorpus) console.warn(`skipping the real-corpus search test: ${CORPUS} is absent`);

describe.skipIf(!haveCorpus)('search on the real corpus (bg-statutes)', () => {
  let index: SearchIndex;
  let cleanupReal: () => void;

  beforeAll(async () => {
    const t = tempDir('pravo-real-index-');
    cleanupReal = t.cleanup;
    index = await openIndex({ corpusPath: CORPUS, dataDir: t.dir });
  }, 300_000);

  afterAll(() => {
    index?.close();
    cleanupReal?.();
  });

  it('ranks Кодекс за застраховането first for an insurance refusal question, with refusal articles', () => {
    const response = search(index, { query: 'застрахователят отказва да изплати обезщетение' });
    const top = response.results[0]!;
    expect(top.document_id).toBe('act-15535');
    expect(top.title).toBe('Кодекс за застраховането');
    expect(top.excerpts.length).toBeGreaterThan(0);
    expect(top.excerpts.some((e) => /откаж|отказ/iu.test(e.text ?? ''))).toBe(true);
    expect(top.explanation).toContain('„застрахователят“');
  });

  it('resolves a reference to the article, by abbreviation or by the title written out', () => {
    for (const query of ['чл. 72 от ЗОП', 'чл.72 ЗОП', 'член 72 от Закона за обществените поръчки']) {
      const top = search(index, { query }).results[0]!;
      expect(top.document_id).toBe('act-15520');
      expect(top.excerpts[0]!.excerpt_id).toBe('act-15520:72');
      expect(top.score).toBeGreaterThan(0.9);
      expect(top.explanation).toContain('е в Закон за обществените поръчки; показан е първо.');
    }
    // With words: the act named by its abbreviation comes first, the words ranking its articles.
    const named = search(index, { query: 'ЗОП срок за обжалване' }).results[0]!;
    expect(named.document_id).toBe('act-15520');
    expect(named.explanation).toMatch(/^„ЗОП“ е Закон за обществените поръчки\. /u);
  });

  it('answers a title alone, an abbreviation alone or a provision the act lacks with the act itself', () => {
    for (const query of ['Закон за обществените поръчки', 'ЗОП', 'чл. 999 от ЗОП']) {
      const top = search(index, { query }).results[0]!;
      expect(top.document_id, query).toBe('act-15520');
    }
    expect(search(index, { query: 'чл. 999 от ЗОП' }).results[0]!.explanation).toContain('чл. 999 не е намерен в текста му');
  });

  it('says when the referenced act is in the corpus only through acts amending it, and shows those', () => {
    const response = search(index, { query: 'чл. 344, ал. 1 от КТ' });
    expect(response.results.length).toBeGreaterThan(0);
    for (const result of response.results) {
      expect(result.title).toMatch(/^Закон за (?:изменение|допълнение)(?: и допълнение)? на Кодекса на труда/u);
      expect(result.explanation).toMatch(/^„чл\. 344, ал\. 1 от КТ“: Кодекс на труда не е в корпуса, а само закони за изменението му/u);
    }
    const vat = search(index, { query: '§ 1 от ДР на ЗДДС' }).results;
    expect(vat.length).toBeGreaterThan(0);
    expect(vat.every((r) => /Закона за данък върху добавената стойност/u.test(r.title))).toBe(true);
    expect(search(index, { query: 'чл. 45 ЗЗД' }).results[0]!.title).toMatch(/Закона за задълженията и договорите/u);
  });
});
