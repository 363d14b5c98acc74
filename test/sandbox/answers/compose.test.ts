/**
 * The composed answer (`src/sandbox/answers/compose.ts`): which sentences of an excerpt may be quoted, how the answer
 * cites them, and what the sources hold; over made-up search responses (titles say they are test data) and over the
 * real corpus of `../shared/corpus` (read at run time; skipped when absent).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { SearchRequest, SearchResponse, SearchResult } from '../../../src/contract/types.js';
import {
  composeAnswer,
  MAX_QUOTED_SENTENCES,
  NOTHING_FOUND_ANSWER,
  quotableSentences,
} from '../../../src/sandbox/answers/compose.js';
import { openIndex } from '../../../src/sandbox/corpus/index-db.js';
import type { SearchIndex } from '../../../src/sandbox/storage.js';
import { resolveCorpusInputs } from '../../../src/sandbox/corpus/inputs.js';
import { search } from '../../../src/sandbox/search/pipeline.js';
import { linkedDataDir } from '../../e2e/helpers.js';
import { tempDir } from '../fixtures.js';
import { expectWellCited, parseAnswer } from './answer-text.js';

const texts = (text: string): string[] => quotableSentences(text).map((s) => s.text);

describe('quotableSentences', () => {
  it('keeps whole sentences only: never the cut piece at either end of an excerpt', () => {
    const text =
      '…на фара и на лодките. Пазителят на фара води дневник на корабите всяка нощ. Общината изплаща възнаграждение на ' +
      'пазителя всеки месец. Пазителят поддържа светлината на фара до сутринта и';
    expect(texts(text)).toEqual([
      'Пазителят на фара води дневник на корабите всяка нощ.',
      'Общината изплаща възнаграждение на пазителя всеки месец.',
    ]);
    // The same text with the cut marks: the first and last pieces go, even when they look like sentences.
    expect(texts('…Пазителят на фара поддържа светлината на фара всяка нощ. Общината изплаща възнаграждение на пазителя всеки месец.…'))
      .toEqual([]);
  });

  it('each quotable sentence is the text between its start and end, exactly', () => {
    const text = 'Чл. 2. (1) Пазителят на фара води дневник на преминаващите кораби край фара.\n(2) Дневникът се пази десет години в общината.';
    const sentences = quotableSentences(text);
    expect(sentences.map((s) => s.text)).toEqual([
      'Пазителят на фара води дневник на преминаващите кораби край фара.',
      'Дневникът се пази десет години в общината.',
    ]);
    for (const s of sentences) expect(text.slice(s.start, s.end)).toBe(s.text);
  });

  it('leaves out article labels, paragraph and list numbers, and skips list items that are not sentences', () => {
    const text =
      'Чл. 7. Пазителят на фара е длъжен да:\n1. поддържа светлината;\n2. води дневника, или\n' +
      'а) Пазителят на малкия фар води отделен дневник за лодките.\n§ 3. Законът влиза в сила от деня на обнародването си в Държавен вестник.';
    expect(texts(text)).toEqual([
      'Пазителят на малкия фар води отделен дневник за лодките.',
      'Законът влиза в сила от деня на обнародването си в Държавен вестник.',
    ]);
  });

  it('does not end a sentence at an abbreviation, an initial or a date', () => {
    const text =
      'Съдът прие, че подс. К. е изпълнил задълженията си по чл. 5, ал. 1, т. 2 от закона. ' +
      'Жалбата е подадена от адв. П. Петров на 16.07.2013 г. Касационната жалба е неоснователна.';
    expect(texts(text)).toEqual([
      'Съдът прие, че подс. К. е изпълнил задълженията си по чл. 5, ал. 1, т. 2 от закона.',
      'Жалбата е подадена от адв. П. Петров на 16.07.2013 г. Касационната жалба е неоснователна.',
    ]);
  });

  it('skips sentences with square brackets (they would read as markers), too short, too long or unbalanced', () => {
    const long = `Пазителят ${'на фара и на лодките '.repeat(20)}води дневник.`;
    const text = [
      'Подсъдимият живее в [населено място] от много години насам.',
      'Кратко е.',
      long,
      'Съдът приема (без да обсъжда доводите на пазителя на фара.',
      'Пазителят на фара води дневник на корабите всяка нощ.',
    ].join('\n');
    expect(texts(text)).toEqual(['Пазителят на фара води дневник на корабите всяка нощ.']);
  });
});

/** A made-up search result (its title says it is test data). */
function result(documentId: string, excerpts: [id: string, text: string][], extra: Partial<SearchResult> = {}): SearchResult {
  return {
    document_id: documentId,
    collection: 'c_test',
    type: 'Закон',
    title: `Закон за пазителите на фарове ${documentId} (ТЕСТОВИ ДАННИ)`,
    date: '2020-01-15',
    author: 'ТЕСТОВИ ДАННИ: измислен автор',
    url: `https://example.invalid/${documentId}`,
    excerpts: excerpts.map(([id, text], i) => ({ excerpt_id: `${documentId}:${id}`, label: `Чл. ${id}.`, score: 1 - i / 10, text })),
    score: 1,
    explanation: 'Съвпадение с „фар“ в Чл. 1.',
    source_type: 'bulgarian_laws_regulations',
    ...extra,
  };
}

const response = (results: SearchResult[]): SearchResponse => ({ query: 'пазител на фар', result_count: results.length, results });
const request: SearchRequest = { query: 'пазител на фар' };

describe('composeAnswer', () => {
  it('leads with the sources by title and [document_id], then quotes sentences with [excerpt_id], at most 2 per document', () => {
    const a = result('test-a', [
      ['1', 'Пазителят на фара поддържа светлината на фара всяка нощ.'],
      ['2', 'Общината изплаща възнаграждение всеки месец. Пазителят на фара води дневник на корабите.'],
      ['3', 'Пазителят на фара има право на почивка веднъж седмично.'],
    ]);
    const b = result('test-b', [['4', 'Съдът приема, че пазителят на фара е изпълнил задълженията си.']], {
      type: 'Решение',
      title: 'Решение № 1 по измислено дело за фар [ТЕСТОВИ ДАННИ]',
      source_type: 'high_courts_cases',
      court_id: 10,
      court: 'ТЕСТОВИ ДАННИ: Първи измислен съд',
      case_number: '100/2020',
      decision_number: '1',
      reporting_judge: 'Мария Петрова',
    });
    const { answer, sources } = composeAnswer(request, response([a, b]));
    expect(answer).toBe(
      'Най-относимите източници, намерени по въпроса, са Закон за пазителите на фарове test-a (ТЕСТОВИ ДАННИ) [test-a] и ' +
        'Решение № 1 по измислено дело за фар (ТЕСТОВИ ДАННИ) [test-b].\n\n' +
        'Пазителят на фара поддържа светлината на фара всяка нощ. [test-a:1] Пазителят на фара води дневник на корабите. [test-a:2]\n\n' +
        'Съдът приема, че пазителят на фара е изпълнил задълженията си. [test-b:4]',
    );
    // Sources: the search's fields without the explanation, excerpts reduced to the cited ones, unchanged.
    const { explanation: _a, ...aFields } = a;
    const { explanation: _b, ...bFields } = b;
    expect(sources).toEqual([{ ...aFields, excerpts: a.excerpts.slice(0, 2) }, bFields]);
    expect(Object.keys(sources[1]!)).toEqual(Object.keys(bFields));
  });

  it('tells apart sources that share a title (amending acts of one law) by their date in the lead', () => {
    const title = 'Закон за изменение на Закона за пазителите на фарове (ТЕСТОВИ ДАННИ)';
    const a = result('test-a', [['1', 'Пазителят на фара поддържа светлината на фара всяка нощ.']], { title, date: '2011-06-10' });
    const b = result('test-b', [['2', 'Пазителят на фара води дневник на корабите всяка нощ.']], { title, date: '2018-08-01' });
    const c = result('test-c', [['3', 'Пазителят на фара има право на почивка веднъж седмично.']]);
    const { answer } = composeAnswer(request, response([a, b, c]));
    expect(answer.split('\n')[0]).toBe(
      `Най-относимите източници, намерени по въпроса, са ${title} (от 2011-06-10) [test-a], ${title} (от 2018-08-01) [test-b] и ` +
        'Закон за пазителите на фарове test-c (ТЕСТОВИ ДАННИ) [test-c].',
    );
  });

  it('quotes at most 5 sentences, from the top results, and never the same sentence twice', () => {
    const same = 'Пазителят на фара поддържа светлината на фара всяка нощ.';
    const results = ['a', 'b', 'c', 'd', 'e'].map((d) =>
      result(`test-${d}`, [
        ['1', same],
        ['2', `Пазителят на фара ${d} води свой дневник на корабите.`],
      ]),
    );
    const { answer, sources } = composeAnswer(request, response(results));
    const { quotes } = expectWellCited(answer, sources);
    expect(quotes).toHaveLength(MAX_QUOTED_SENTENCES);
    expect(quotes.filter((q) => q.sentence === same)).toHaveLength(1);
    expect(sources.map((s) => s.document_id)).toEqual(['test-a', 'test-b', 'test-c', 'test-d']);
  });

  it('chooses the sentence of an excerpt with the most query words, by stem', () => {
    // „пазителят“ and „пазителя“ share the stem of „пазител“, „фара“ that of „фар“; the query has both stems.
    const a = result('test-a', [
      ['1', 'Пазителят получава заплата от общината всеки месец. Общината плаща на пазителя на фара в началото на месеца.'],
    ]);
    expect(parseAnswer(composeAnswer(request, response([a])).answer).quotes).toEqual([
      { sentence: 'Общината плаща на пазителя на фара в началото на месеца.', id: 'test-a:1' },
    ]);
  });

  it('says in Bulgarian that nothing relevant was found when the search found nothing, or nothing quotable', () => {
    expect(composeAnswer(request, response([]))).toEqual({ answer: NOTHING_FOUND_ANSWER, sources: [] });
    const unusable = result('test-a', [
      ['1', '…светлината на фара всяка нощ.'],
      ['2', 'Кратко е.'],
      ['3', 'Общината изплаща възнаграждение всеки месец на служителите си.'],
    ]);
    expect(composeAnswer(request, response([unusable]))).toEqual({ answer: NOTHING_FOUND_ANSWER, sources: [] });
    expect(NOTHING_FOUND_ANSWER).toMatch(/^В наличните източници не е намерено нищо относимо/);
  });
});

const SHARED_CORPUS = fileURLToPath(new URL('../../../../shared/corpus', import.meta.url));
const haveCorpus = existsSync(SHARED_CORPUS);
if (!haveCorpus) console.warn(`skipping the real-corpus answer tests: ${SHARED_CORPUS} is absent`);

describe.skipIf(!haveCorpus)('composeAnswer over ../shared/corpus', () => {
  const t = tempDir('pravo-answers-real-');
  let index: SearchIndex;

  beforeAll(async () => {
    // The shared test sandbox's index is of the same inputs: opened from a link to it, not built a second time.
    index = await openIndex({ inputs: resolveCorpusInputs([SHARED_CORPUS]), dataDir: linkedDataDir(t.dir, inject('sandbox').dataDir) });
  }, 300_000);

  afterAll(() => {
    index?.close();
    t.cleanup();
  });

  it.each<[string, SearchRequest]>([
    ['statutes: an insurer refusing to pay', { query: 'застрахователят отказва да изплати обезщетение' }],
    ['statutes: public procurement appeals', { query: 'обжалване на решение на възложителя по обществена поръчка' }],
    ['statutes: termination of employment', { query: 'прекратяване на трудовия договор' }],
    ['statutes: voting in a polling station', { query: 'гласуване в избирателна секция' }],
    ['decisions: a cassation appeal against a sentence', { query: 'касационна жалба срещу присъдата наказание', source_types: ['high_courts_cases'] }],
    ['decisions: the Constitutional Court on unconstitutionality', { query: 'противоконституционност на закон решение на Конституционния съд' }],
    ['decisions of ВКС by court id', { query: 'отмяна на присъдата', court_ids: [1] }],
  ])('%s: every marker resolves, every quote is in its excerpt, the lead names the sources', (_name, req) => {
    const found = search(index, req);
    const { answer, sources } = composeAnswer(req, found);
    expect(sources.length).toBeGreaterThan(0);
    expectWellCited(answer, sources);
    // Each source is a result of the search, in rank order, with its cited excerpts exactly as the search sent them.
    const ranks = sources.map((s) => found.results.findIndex((r) => r.document_id === s.document_id));
    expect(ranks.every((r) => r >= 0)).toBe(true);
    expect(ranks).toEqual([...ranks].sort((x, y) => x - y));
    for (const source of sources) {
      const { explanation: _explanation, excerpts, ...fields } = found.results.find((r) => r.document_id === source.document_id)!;
      expect(source).toEqual({ ...fields, excerpts: excerpts.filter((e) => source.excerpts.some((c) => c.excerpt_id === e.excerpt_id)) });
    }
    if (req.source_types?.[0] === 'high_courts_cases' || req.court_ids) {
      expect(sources.every((s) => s.court !== undefined && s.case_number !== undefined)).toBe(true);
    }
  });

  it('a nonsense query succeeds with no sources', () => {
    const req = { query: 'ксилофонни пингвини блорпират зъзъф' };
    expect(composeAnswer(req, search(index, req))).toEqual({ answer: NOTHING_FOUND_ANSWER, sources: [] });
  });
});
