/**
 * The composed answer (`src/sandbox/answers/compose.ts`): which documents and provisions it quotes, whole and without
 * amendment notes, how it cites them, what the sources hold and that `--verify`'s check finds every quotation; over
 * made-up documents and search responses (titles say they are test data) and over the real corpus of
 * `../shared/corpus` (read at run time; skipped when absent).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { DocumentElement, SearchRequest, SearchResponse, SearchResult } from '../../../src/contract/types.js';
import { resolveCitations } from '../../../src/legal/answer-markers.js';
import { checkCitations, documentKey, findExcerptInDocument, type RetrievedDocument } from '../../../src/legal/verify.js';
import { ANSWER_LEAD, composeAnswer, NOTHING_FOUND_ANSWER, quotableSentences, type AnswerDocuments } from '../../../src/sandbox/answers/compose.js';
import type { SearchIndex } from '../../../src/sandbox/storage.js';
import { search } from '../../../src/sandbox/search/pipeline.js';
import { AMENDMENT_NOTE, expectWellCited } from './answer-text.js';
import { haveSharedCorpus, SHARED_CORPUS, useRealIndex } from '../real-index.js';

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

const LAW = 'Закон за пазителите на фарове (ТЕСТОВИ ДАННИ)';

/** Made-up elements of the test law `test-a`: чл. 2 with amendment notes, a lead-in, a repealed point and a repealed ал. */
const A1 = 'Чл. 1. (1) Пазителят на фара води дневник на корабите.\n(2) Дневникът се пази десет години.';
const A2 =
  '(1) (Изм. - ДВ, бр. 25 от 2001 г., в сила от 31.03.2001 г.) Пазителят на фара може да напусне фара без разрешение, когато корабите не плават.\n' +
  '(2) (Нова - ДВ, бр. 10 от 2005 г.) Пазителят на фара напуска фара без разрешение, когато:\n' +
  '1. (отм. - ДВ, бр. 3 от 2010 г.)\n' +
  '2. (изм. - ДВ, бр. 3 от 2010 г.) фарът е обхванат от пожар;\n' +
  '3. има опасност за живота му (доп. - ДВ, бр. 4 от 2012 г.) или за живота на близките му.\n' +
  '(3) (Отм. - ДВ, бр. 3 от 2010 г.)';

/** The elements of the made-up documents, by document_id. */
const ELEMENTS: Record<string, DocumentElement[]> = {
  'test-a': [
    { excerpt_id: 'test-a:1', ref: '1', label: 'Чл. 1.', text: A1 },
    { excerpt_id: 'test-a:2', ref: '2', label: 'Чл. 2.', text: A2 },
  ],
};

/** A made-up one-article act whose чл. 5 says `text` (its title says it is test data). */
function act(documentId: string, title: string, text: string, extra: Partial<SearchResult> = {}): SearchResult {
  ELEMENTS[documentId] = [{ excerpt_id: `${documentId}:5`, ref: '5', label: 'Чл. 5.', text: `Чл. 5. ${text}` }];
  return result(documentId, title, [[`${documentId}:5`, 'Чл. 5.', `Чл. 5. ${text}`]], extra);
}

/** A made-up search result; excerpts as `[excerpt_id, label, text]`. */
function result(documentId: string, title: string, excerpts: [string, string, string][], extra: Partial<SearchResult> = {}): SearchResult {
  return {
    document_id: documentId,
    collection: 'c_test',
    type: 'Закон',
    title,
    date: '2020-01-15',
    author: 'ТЕСТОВИ ДАННИ: измислен автор',
    url: `https://example.invalid/${documentId}`,
    excerpts: excerpts.map(([excerpt_id, label, text], i) => ({ excerpt_id, label, score: 1 - i / 10, text })),
    score: 0.9,
    explanation: 'Съвпадение с „фар“.',
    source_type: 'bulgarian_laws_regulations',
    ...extra,
  };
}

/** The search's result for the test law: чл. 1 whole and first, чл. 2 a window cut at both ends. */
const lawResult = (): SearchResult =>
  result('test-a', LAW, [
    ['test-a:1', 'Чл. 1.', A1],
    ['test-a:2', 'Чл. 2.', `…напусне фара без разрешение, когато корабите не плават.\n${A2.split('\n').slice(1, 4).join('\n')}\n3. има опасност…`],
  ]);

/** The made-up documents as the index serves them. */
const documents: AnswerDocuments = {
  readDocument: (documentId, collection) => (collection === 'c_test' && ELEMENTS[documentId] ? { elements: ELEMENTS[documentId] } : undefined),
};

const response = (query: string, results: SearchResult[]): SearchResponse => ({ query, result_count: results.length, results });
const answerTo = (query: string, results: SearchResult[]) => composeAnswer({ query }, response(query, results), documents);

const LEAVE = 'Кога пазителят на фара може да напусне фара без разрешение?';

/** Characters quoted in an answer (between „ and “ of its quoted lines). */
const quotedLength = (answer: string): number => [...answer.matchAll(/: „(.*)“/gu)].reduce((sum, m) => sum + m[1]!.length, 0);

describe('composeAnswer: what it quotes', () => {
  it('quotes the provision of the first result that best answers the question, whole, from its element, without its amendment note, headed by the title and label', () => {
    // The search put чл. 1 first and cut чл. 2's ал. 1; the answer is ал. 1 of чл. 2, whole, read from the element.
    const { answer, sources } = answerTo(LEAVE, [lawResult()]);
    expect(answer).toBe(
      `${ANSWER_LEAD}\n\n${LAW}, чл. 2, ал. 1: „Пазителят на фара може да напусне фара без разрешение, когато корабите не плават.“ [test-a:2]`,
    );
    // The source: the search's fields without the explanation; the cited excerpt with what the answer quotes of it.
    const { explanation: _explanation, ...fields } = lawResult();
    expect(sources).toEqual([
      {
        ...fields,
        excerpts: [{ excerpt_id: 'test-a:2', label: 'Чл. 2.', score: 0.9, text: 'Пазителят на фара може да напусне фара без разрешение, когато корабите не плават.' }],
      },
    ]);
  });

  it('quotes a lead-in with its points, each on its own line, leaving out repealed points and the notes inside a point', () => {
    const { answer, sources } = answerTo('пазителят на фара напуска фара без разрешение при пожар', [lawResult()]);
    expect(answer).toBe(
      `${ANSWER_LEAD}\n\n` +
        `${LAW}, чл. 2, ал. 2: „Пазителят на фара напуска фара без разрешение, когато:“\n` +
        'т. 2: „фарът е обхванат от пожар;“\n' +
        'т. 3: „има опасност за живота му … или за живота на близките му.“ [test-a:2]',
    );
    expect(answer).not.toMatch(/ДВ|т\. 1:|ал\. 3/u);
    // The excerpt holds the quoted pieces, in the element's order, between cut marks.
    expect(sources[0]!.excerpts[0]!.text).toBe(
      'Пазителят на фара напуска фара без разрешение, когато: … фарът е обхванат от пожар; … има опасност за живота му … или за живота на близките му.',
    );
    expectWellCited(answer, sources);
  });

  it('quotes a point with the lead-in above it, not the other points, and says how many are not quoted', () => {
    const { answer } = answerTo('обхванат от пожар', [lawResult()]);
    expect(answer).toBe(
      `${ANSWER_LEAD}\n\n${LAW}, чл. 2, ал. 2: „Пазителят на фара напуска фара без разрешение, когато:“\n` +
        'т. 2: „фарът е обхванат от пожар;“ [test-a:2]\n(Не е цитирана още 1 точка.)',
    );
  });

  it('quotes the points of a lead-in up to 1,500 characters and says how many are left out', () => {
    const point = (n: number): string => `${n}. пазителят на фара ${'не е получил тестовото си възнаграждение за месеца '.repeat(6).trim()} (случай ${n});`;
    const text = `Чл. 5. Пазителят на фара може да напусне фара без разрешение, когато:\n${[1, 2, 3, 4, 5, 6].map(point).join('\n')}`;
    const { answer, sources } = answerTo(LEAVE, [act('test-l', 'Закон за дългите списъци (ТЕСТОВИ ДАННИ)', text.slice('Чл. 5. '.length))]);
    const lines = answer.split('\n\n')[1]!.split('\n');
    expect(lines[0]).toBe('Закон за дългите списъци (ТЕСТОВИ ДАННИ), чл. 5: „Пазителят на фара може да напусне фара без разрешение, когато:“');
    expect(lines.slice(1, -1).map((line) => line.slice(0, line.indexOf(':')))).toEqual(['т. 1', 'т. 2', 'т. 3', 'т. 4']);
    expect(lines.at(-1)).toBe('(Не са цитирани още 2 точки.)');
    expect(quotedLength(answer)).toBeLessThanOrEqual(1500);
    expectWellCited(answer, sources);
  });

  it('without the documents, quotes the whole lines of an excerpt, never a line cut at either end', () => {
    const { answer, sources } = composeAnswer({ query: LEAVE }, response(LEAVE, [lawResult()]));
    // ал. 1 and т. 3 are cut in the excerpt: the lead-in and т. 2, whole in it, are quoted.
    expect(answer).toBe(
      `${ANSWER_LEAD}\n\n${LAW}, чл. 2, ал. 2: „Пазителят на фара напуска фара без разрешение, когато:“\nт. 2: „фарът е обхванат от пожар;“ [test-a:2]`,
    );
    expectWellCited(answer, sources);
  });

  it('quotes the best whole sentence of a long paragraph of a decision', () => {
    const filler = Array.from({ length: 12 }, (_, i) => `Свидетел № ${i + 1} даде показания пред състава в открито заседание.`).join(' ');
    const sentence = 'Пазителят на фара може да напусне фара без разрешение само при опасност за живота.';
    const title = 'Решение № 1 по измислено дело за фар (ТЕСТОВИ ДАННИ)';
    ELEMENTS['test-r'] = [{ excerpt_id: 'test-r:4', ref: '4', label: '¶ 4', text: `${filler} ${sentence} ${filler}` }];
    const decision = result('test-r', title, [['test-r:4', '¶ 4', `…${sentence}…`]], { type: 'Решение', source_type: 'high_courts_cases' });
    expect(answerTo(LEAVE, [decision]).answer).toBe(`${ANSWER_LEAD}\n\n${title}, ¶ 4: „${sentence}“ [test-r:4]`);
  });
});

describe('composeAnswer: which documents', () => {
  const close = (id: string, score: number, extra: Partial<SearchResult> = {}): SearchResult =>
    act(id, `Правилник за фаровете ${id} (ТЕСТОВИ ДАННИ)`, `Пазителят на фара ${id} може да напусне фара без разрешение на капитана.`, { score, ...extra });

  it('cites a further document only when it scores close to the first and is no weak match, and at most two, one paragraph each', () => {
    const { answer, sources } = answerTo(LEAVE, [
      lawResult(),
      close('test-w', 0.88, { weak_match: true }),
      close('test-b', 0.7),
      close('test-d', 0.69),
    ]);
    expect(sources.map((s) => s.document_id)).toEqual(['test-a', 'test-b']);
    const { paragraphs } = expectWellCited(answer, sources);
    expect(paragraphs.map((blocks) => blocks.map((b) => b.id))).toEqual([['test-a:2'], ['test-b:5']]);
    expect(answer.split('\n\n')[2]).toBe(
      'Правилник за фаровете test-b (ТЕСТОВИ ДАННИ), чл. 5: „Пазителят на фара test-b може да напусне фара без разрешение на капитана.“ [test-b:5]',
    );
  });

  it('leaves out a result under 3/4 of the first one\'s score, though the search does not call it a weak match', () => {
    const { sources } = answerTo(LEAVE, [lawResult(), close('test-c', 0.5)]);
    expect(sources.map((s) => s.document_id)).toEqual(['test-a']);
  });

  it('tells apart two documents of one title by their dates', () => {
    const title = 'Закон за изменение на Закона за пазителите на фарове (ТЕСТОВИ ДАННИ)';
    const a = act('test-e', title, 'Пазителят на фара може да напусне фара без разрешение в неделя.', { date: '2011-06-10' });
    const b = act('test-f', title, 'Пазителят на фара може да напусне фара без разрешение в събота.', { date: '2018-08-01' });
    const { answer } = answerTo(LEAVE, [a, b]);
    expect(answer.split('\n\n').slice(1).map((p) => p.slice(0, p.indexOf(':')))).toEqual([`${title} (от 2011-06-10), чл. 5`, `${title} (от 2018-08-01), чл. 5`]);
  });

  it('says in Bulgarian that nothing relevant was found when the search found nothing, or nothing that holds a word of the question', () => {
    expect(answerTo(LEAVE, [])).toEqual({ answer: NOTHING_FOUND_ANSWER, sources: [] });
    const unrelated = act('test-u', 'Закон за пчелите (ТЕСТОВИ ДАННИ)', 'Пчеларят води регистър на кошерите.');
    expect(answerTo(LEAVE, [unrelated])).toEqual({ answer: NOTHING_FOUND_ANSWER, sources: [] });
    expect(NOTHING_FOUND_ANSWER).toMatch(/^В наличните източници не е намерено нищо относимо/);
  });
});

describe('composeAnswer and pravo answer --verify', () => {
  const retrieved = (elements: DocumentElement[]): Map<string, RetrievedDocument> => new Map([[documentKey('test-a', 'c_test'), { elements }]]);

  it.each([LEAVE, 'пазителят на фара напуска фара без разрешение при пожар', 'обхванат от пожар'])(
    'every quotation of „%s“ is found in its document by the check --verify runs, and a changed word is not',
    (query) => {
      const { answer, sources } = answerTo(query, [lawResult()]);
      const resolved = resolveCitations(answer, sources);
      expect(checkCitations(resolved, sources, retrieved(ELEMENTS['test-a']!)).map((c) => c.verdict)).toEqual(
        resolved.citations.map(() => 'verified'),
      );
      const changed = ELEMENTS['test-a']!.map((e) => ({ ...e, text: e.text!.replace('напуска', 'изоставя').replace('може да напусне', 'може да изостави') }));
      expect(checkCitations(resolved, sources, retrieved(changed)).map((c) => c.verdict)).toContain('text_not_found');
    },
  );
});

const haveCorpus = haveSharedCorpus;
if (!haveCorpus) console.warn(`skipping the real-corpus answer tests: ${SHARED_CORPUS} is absent`);

describe.skipIf(!haveCorpus)('composeAnswer over ../shared/corpus', () => {
  const realIndex = useRealIndex('pravo-answers-real-');
  let index: SearchIndex;

  beforeAll(() => {
    index = realIndex();
  });

  it('the labour code\'s question is answered from КТ чл. 330, and no other act comes first', () => {
    // Depends on the search returning чл. 330 among the excerpts of its first result (the Кодекс на труда).
    const req = { query: 'Кога работодателят може да прекрати трудовия договор без предизвестие?' };
    const { answer, sources } = composeAnswer(req, search(index, req), index);
    const { paragraphs } = expectWellCited(answer, sources);
    expect(sources[0]!.title).toBe('Кодекс на труда');
    expect(paragraphs[0]![0]!.id).toMatch(/:330$/u);
    expect(paragraphs[0]![0]!.lines[0]!.where).toMatch(/^Кодекс на труда, чл\. 330\b/u);
    expect(paragraphs[0]![0]!.lines[0]!.quote).toMatch(/^Работодателят може да прекрати трудовия договор без предизвестие/u);
  });

  it.each<[string, SearchRequest]>([
    ['statutes: an insurer refusing to pay', { query: 'застрахователят отказва да изплати обезщетение' }],
    ['statutes: public procurement appeals', { query: 'обжалване на решение на възложителя по обществена поръчка' }],
    ['statutes: termination of employment', { query: 'прекратяване на трудовия договор' }],
    ['statutes: voting in a polling station', { query: 'гласуване в избирателна секция' }],
    ['decisions: a cassation appeal against a sentence', { query: 'касационна жалба срещу присъдата наказание', source_types: ['high_courts_cases'] }],
    ['decisions: the Constitutional Court on unconstitutionality', { query: 'противоконституционност на закон решение на Конституционния съд' }],
    ['decisions of ВКС by court id', { query: 'отмяна на присъдата', court_ids: [1] }],
  ])('%s: well cited, no amendment note, every cited excerpt found in its element as --verify checks it', (_name, req) => {
    const found = search(index, req);
    const { answer, sources } = composeAnswer(req, found, index);
    expectWellCited(answer, sources);
    expect(answer).not.toMatch(AMENDMENT_NOTE);
    // Each source is a result of the search, in rank order, with its fields; its excerpts are the search's, by id and label.
    const ranks = sources.map((s) => found.results.findIndex((r) => r.document_id === s.document_id));
    expect(ranks.every((r) => r >= 0)).toBe(true);
    expect(ranks).toEqual([...ranks].sort((x, y) => x - y));
    for (const source of sources) {
      const { explanation: _explanation, excerpts, ...fields } = found.results.find((r) => r.document_id === source.document_id)!;
      expect({ ...source, excerpts: [] }).toEqual({ ...fields, excerpts: [] });
      const document = index.readDocument(source.document_id, source.collection)!;
      for (const excerpt of source.excerpts) {
        const searched = excerpts.find((e) => e.excerpt_id === excerpt.excerpt_id)!;
        expect(excerpt.label).toBe(searched.label);
        expect(findExcerptInDocument(excerpt.text!, excerpt.excerpt_id, document)).toEqual({ found: true, element_excerpt_id: excerpt.excerpt_id });
      }
    }
    if (req.source_types?.[0] === 'high_courts_cases' || req.court_ids) {
      expect(sources.every((s) => s.court !== undefined && s.case_number !== undefined)).toBe(true);
    }
  });

  it('a nonsense query succeeds with no sources', () => {
    const req = { query: 'ксилофонни пингвини блорпират зъзъф' };
    expect(composeAnswer(req, search(index, req), index)).toEqual({ answer: NOTHING_FOUND_ANSWER, sources: [] });
  });
});
