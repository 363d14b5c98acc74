import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CorpusDocument } from '../../../src/sandbox/corpus/reader.js';
import { openIndex } from '../../../src/sandbox/corpus/index-db.js';
import type { SearchIndex } from '../../../src/sandbox/storage.js';
import { search } from '../../../src/sandbox/search/pipeline.js';
import { MAX_QUERY_TERMS } from '../../../src/sandbox/search/ranking.js';
import { LAWS, longArticleText, tempDir, testAct, writeCorpus } from '../fixtures.js';


const INSURANCE: CorpusDocument[] = [
  // Three short articles with three of the four words; "отказва" only once, deep inside a long fourth article, which
  // therefore is not among the excerpts.
  testAct('test-umbrellas', 'Закон за измислените чадъри', [
    'Застрахователят трябва да изплати обезщетение за счупен чадър.',
    'Застрахователят може да изплати обезщетение и за изгубен чадър.',
    'Застрахователят ще изплати обезщетение в едномесечен срок.',
    longArticleText('Понякога застрахованият отказва чадъра.'),
  ]),
  // The law's word for what a citizen calls „фалит“ (see src/sandbox/search/vocabulary.ts).
  testAct('test-circus', 'Закон за измислените циркове', ['Съдът обявява несъстоятелността на цирка.']),
  // The heading of Чл. 2 is printed at the end of Чл. 1, as the corpus prints headings.
  testAct('test-balloons', 'Закон за измислените балони', ['Балонът се пълни с въздух.\nСпукване на балона', 'Собственикът търпи загубата.']),
  // None of the words but "обезщетение".
  testAct('test-kites', 'Закон за хвърчилата', ['Собственикът на хвърчилото получава обезщетение, ако то се скъса.']),
];

let index: SearchIndex;
let cleanup: () => void;

beforeAll(async () => {
  const t = tempDir();
  cleanup = t.cleanup;
  index = await openIndex({ corpusPath: writeCorpus(join(t.dir, 'c.jsonl'), [...LAWS, ...INSURANCE]), dataDir: join(t.dir, 'd') });
});

afterAll(() => {
  index.close();
  cleanup();
});

/** The words a user typed, after trivial normalization: lower case, punctuation dropped, each once. */
function typedWords(query: string): string[] {
  return [...new Set(query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])];
}

/** How many times `word` is named (in „…“ quotes) in `explanation`, ignoring case. */
function timesNamed(explanation: string, word: string): number {
  return explanation.toLowerCase().split(`„${word}“`).length - 1;
}

describe('explanation of a result', () => {
  it('finds the law\'s term for an everyday word and names the term searched, the word still once', () => {
    const result = search(index, { query: 'фалит на цирка' }).results[0]!;
    expect(result.document_id).toBe('test-circus');
    expect(result.explanation).toContain('Търсен е и правният термин „несъстоятелност“.');
    expect(timesNamed(result.explanation!, 'фалит')).toBe(1);
  });

  it('finds an article by its heading, which it names, and keeps the heading out of the article before it', () => {
    const result = search(index, { query: 'спукване на балон' }).results[0]!;
    expect(result.document_id).toBe('test-balloons');
    expect(result.excerpts[0]!.label).toBe('Чл. 2.');
    expect(result.explanation).toContain('Чл. 2 е озаглавен „Спукване на балона“.');
    const before = search(index, { query: 'балонът въздух' }).results[0]!.excerpts[0]!;
    expect(before.text).not.toContain('Спукване');
  });

  it('says which words a query with too many words did not search: the most frequent ones', () => {
    // Made-up words (in no document) and „изплати“ (3 articles) fill the query's MAX_QUERY_TERMS words before
    // „обезщетение“ (5 articles), the most frequent, which is skipped and named as such.
    const padding = Array.from({ length: MAX_QUERY_TERMS - 1 }, (_, i) => `шшш${100 + i}`).join(' ');
    const result = search(index, { query: `${padding} изплати обезщетение` }).results[0]!;
    expect(result.document_id).toBe('test-umbrellas');
    expect(result.explanation).toContain('„обезщетение“ не е търсена: заявката има повече думи, отколкото се търсят наведнъж');
    expect(timesNamed(result.explanation!, 'обезщетение')).toBe(1);
    expect(result.explanation).toContain('Съвпадение с „изплати“');
  });

  it('names every word of "застрахователят отказва да изплати обезщетение", matched or not, once', () => {
    const query = 'застрахователят отказва да изплати обезщетение';
    const results = search(index, { query }).results;
    const umbrellas = results.find((r) => r.document_id === 'test-umbrellas')!;
    expect(umbrellas.excerpts.map((e) => e.label)).not.toContain('Чл. 4.');
    expect(umbrellas.explanation).toMatch(/^Съвпадение със „застрахователят“, „изплати“ и „обезщетение“ в Чл\. \d, Чл\. \d и Чл\. \d\. /u);
    expect(umbrellas.explanation).toContain('„отказва“ се среща в други части на документа.');
    expect(umbrellas.explanation).toContain('„да“ е пропусната като твърде обща дума.');

    const kites = results.find((r) => r.document_id === 'test-kites')!;
    expect(kites.explanation).toBe(
      'Съвпадение с „обезщетение“ в Чл. 1. Няма съвпадение за „застрахователят“, „отказва“ и „изплати“. ' +
        '„да“ е пропусната като твърде обща дума.',
    );
  });

  it('names each word of the query exactly once, whatever the query (property over several queries)', () => {
    const queries = [
      'застрахователят отказва да изплати обезщетение',
      'Застрахователят, застрахователят и ЗАСТРАХОВАТЕЛЯТ отказва!',
      // A title word and an article word at once (фар/фара), stopwords, a one-character digit.
      'пазителят на фара води дневник в 5 нощи',
      // Several forms of one stem, and punctuation around words.
      '„облакът“ (облаци) — облака, облакът?',
      // More words than an explanation used to name.
      'пазителят на фара води дневник на кораби, лодки, облаци, пчели, кошери, часовници, чадъри и джуджета',
      'часовникар на селото и неговите часовници',
    ];
    let checked = 0;
    for (const query of queries) {
      const response = search(index, { query });
      expect(response.result_count, query).toBeGreaterThan(0);
      for (const result of response.results) {
        const explanation = result.explanation as string;
        for (const word of typedWords(query)) {
          expect(timesNamed(explanation, word), `${query} → ${result.document_id}: „${word}“ in ${explanation}`).toBe(1);
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThan(50);
  });

  it('says when a word matches in the title as well as in the excerpts, and when short tokens are skipped', () => {
    const explanation = search(index, { query: 'чадър 5 и 7 на' }).results[0]!.explanation as string;
    expect(explanation).toMatch(/^Съвпадение с „чадър“ в заглавието и в Чл\. \d(?:, Чл\. \d)* и Чл\. \d\. /u);
    expect(explanation).toContain('„и“ и „на“ са пропуснати като твърде общи думи.');
    expect(explanation).toContain('„5“ и „7“ са пропуснати като твърде кратки.');
  });
});
