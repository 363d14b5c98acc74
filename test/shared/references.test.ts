/**
 * The references parser (`src/shared/references.ts`): the articles an article's text cites, and which of them belong to
 * the same act; and the citation parser below it (`src/shared/citations.ts`, `parseCitations`, `findActAbbreviations`). Sentences written here imitate Bulgarian legislative drafting (they are not quoted from any act); the
 * last block reads real articles from `../shared/corpus/bg-statutes.jsonl.gz` at run time (never copied here).
 */
import fs from 'node:fs';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { findActAbbreviations, parseCitations, type Citation } from '../../src/shared/citations.js';
import { findArticleCitations, MAX_RANGE_LISTED, referencedArticles, type ArticleCitation } from '../../src/shared/references.js';

/** The citations as `[article, detail, scope]` (and `through` when a range), for compact expectations. */
function cited(text: string): (string | undefined)[][] {
  return findArticleCitations(text).map((c) => (c.through === undefined ? [c.article, c.detail, c.scope] : [c.article, c.detail, c.scope, c.through]));
}

describe('findArticleCitations: the forms of a citation', () => {
  it.each([
    ['Заповедта по чл. 12, ал. 2 се обжалва пред съда.', [['12', 'ал. 2', 'same']]],
    ['Нарушенията по чл. 45 – 47 се установяват с акт.', [['45', '', 'same', '47']]],
    ['Нарушенията по чл. 45-47 се установяват с акт.', [['45', '', 'same', '47']]],
    ['Разпоредбите на чл. 12 и 13 не се прилагат.', [['12', '', 'same'], ['13', '', 'same']]],
    ['Разпоредбите на чл. 3, 4 и 5 не се прилагат.', [['3', '', 'same'], ['4', '', 'same'], ['5', '', 'same']]],
    ['В случаите по чл. 44а лицето уведомява агенцията.', [['44а', '', 'same']]],
    ['Лицата по чл. 12, ал. 2, т. 3 подават декларация.', [['12', 'ал. 2, т. 3', 'same']]],
    ['Съгласно чл. 109, ал. 1, 7, 8 и 12 комисията решава.', [['109', 'ал. 1, 7, 8 и 12', 'same']]],
    ['Актовете по чл. 26а, ал. 1 – 3 се съобщават.', [['26а', 'ал. 1 – 3', 'same']]],
    ['По чл. 5, ал. 1, буква „а“ се подава искане.', [['5', 'ал. 1, буква „а“', 'same']]],
    ['В чл. 24, ал. 13, изречение второ думите се заличават.', [['24', 'ал. 13, изречение второ', 'same']]],
    ['Мерките по чл. 43д – 43и се прилагат.', [['43д', '', 'same', '43и']]],
    ['Ограниченията по чл. 177а, 178 и/или 179а се спазват.', [['177а', '', 'same'], ['178', '', 'same'], ['179а', '', 'same']]],
    ['Срокът по чл. 22, ал. 3 или 4 тече от съобщението.', [['22', 'ал. 3 или 4', 'same']]],
    ['Това не засяга действието на членове 10 и 13.', [['10', '', 'same'], ['13', '', 'same']]],
    ['Данните по чл.192в се пазят пет години.', [['192в', '', 'same']]],
    ['Лицата по чл. 2 и ръководителите по чл. 7 определят служители.', [['2', '', 'same'], ['7', '', 'same']]],
    ['По чл. 5 до чл. 9 се прилага същият ред.', [['5', '', 'same', '9']]],
  ])('%s', (text, expected) => {
    expect(cited(text)).toEqual(expected);
  });

  it('gives the offsets of each citation in the text: "чл." and its details, or the bare number of a list', () => {
    const text = 'Заповедта по чл. 12, ал. 2 и по чл. 3, 4 и 5 се обжалва.';
    const found = findArticleCitations(text);
    expect(found.map((c) => text.slice(c.start, c.end))).toEqual(['чл. 12, ал. 2', 'чл. 3', '4', '5']);
  });

  it('collapses white space (line breaks, no-break spaces) inside a detail', () => {
    expect(cited('по чл. 12,\u00a0ал.\n2 се подава')).toEqual([['12', 'ал. 2', 'same']]);
  });
});

describe('findArticleCitations: the same act or another', () => {
  it.each([
    ['Обжалва се по реда на чл. 25 от Закона за търговския регистър.', [['25', '', 'external']]],
    ['Изборите се насрочват в срока по чл. 160, ал. 2 от Конституцията.', [['160', 'ал. 2', 'external']]],
    ['Вземането се погасява по чл. 110 от ЗЗД.', [['110', '', 'external']]],
    ['Отговорността е по чл. 45 и сл. ЗЗД, а по чл. 82 и следващите от ЗЗД – обезщетението.', [['45', '', 'external'], ['82', '', 'external']]],
    ['Вземането е по чл. 79, ал. 1, предл. 1 ЗЗД, а нищожността по чл. 26, ал. 1, пр. 3 ЗЗД.', [['79', 'ал. 1, предл. 1', 'external'], ['26', 'ал. 1, пр. 3', 'external']]],
    ['Касационните основания по чл. 348, ал. 1, т. 1 – 3 НПК са налице.', [['348', 'ал. 1, т. 1 – 3', 'external']]],
    ['Органите по чл. 5 от Регламент (ЕС) № 1234/2013 уведомяват.', [['5', '', 'external']]],
    ['По чл. 22, 23 и 24 на Регламент (ЕО) № 1257/1999 се подпомагат.', [['22', '', 'external'], ['23', '', 'external'], ['24', '', 'external']]],
    ['Отказът по чл. 10 от „Закона за особените залози“ се обжалва.', [['10', '', 'external']]],
    ['Наредбата по чл. 86, ал. 2 от този закон се прилага.', [['86', 'ал. 2', 'same']]],
    ['Обстоятелствата по чл. 4 от настоящия закон се вписват.', [['4', '', 'same']]],
    ['Лицензът по чл. 12 от този кодекс се отнема.', [['12', '', 'same']]],
    ['Сумите по чл. 8 от тази наредба се превеждат.', [['8', '', 'same']]],
    ['Решението по чл. 7, ал. 1 от същия закон се обнародва.', [['7', 'ал. 1', 'external']]],
    ['Срокът по чл. 5 от 1 януари 2020 г. се удължава.', [['5', '', 'same']]],
  ])('%s', (text, expected) => {
    expect(cited(text)).toEqual(expected);
  });

  it('"от …" after a list or a chain of citations applies to every citation of the group', () => {
    expect(cited('съгласно чл. 11, ал. 1, т. 2, буква „в“, чл. 12, ал. 1 и чл. 13 от Кодекса за социално осигуряване')).toEqual([
      ['11', 'ал. 1, т. 2, буква „в“', 'external'],
      ['12', 'ал. 1', 'external'],
      ['13', '', 'external'],
    ]);
  });

  it('keeps each group apart: a citation of another act does not carry over to the next group', () => {
    expect(cited('по реда на чл. 25 от Закона за търговския регистър, а отказът по чл. 44б се обжалва')).toEqual([
      ['25', '', 'external'],
      ['44б', '', 'same'],
    ]);
  });

  it('§ items: "от преходните и заключителните разпоредби" is this act, "… разпоредби на Кодекса …" another', () => {
    expect(cited('по чл. 192в и § 139 от преходните и заключителните разпоредби')).toEqual([['192в', '', 'same']]);
    expect(cited('по чл. 192в и § 1 от ДР се прилагат')).toEqual([['192в', '', 'same']]);
    expect(cited('по чл. 157, ал. 7 и § 4, ал. 4 от преходните и заключителните разпоредби на Кодекса за социално осигуряване')).toEqual([
      ['157', 'ал. 7', 'external'],
    ]);
  });
});

describe('findArticleCitations: what is not a citation', () => {
  it.each([
    ['no article at all', 'Министърът издава наредба по ал. 2 в срок до три месеца.'],
    ['an article heading in quoted text', '§ 9. Създава се чл. 17: „Чл. 17. Към агенцията се води регистър.“'.slice('§ 9. Създава се чл. 17: '.length)],
    ['"членовете" (the members)', 'Членовете на комисията се определят със заповед.'],
    ['"член на" (a member of)', 'Председател е член на Министерския съвет.'],
    ['a roman-numbered article of a treaty', 'по чл. ХІ, раздел 43 от Конвенцията'],
  ])('%s', (_name, text) => {
    expect(findArticleCitations(text)).toEqual([]);
  });

  it('a quantity after a list separator ends the group ("чл. 3, 14 дни")', () => {
    expect(cited('В срока по чл. 3, 14 дни след съобщението се подава жалба.')).toEqual([['3', '', 'same']]);
    expect(cited('се наказват по чл. 16, ал. 6, 1000 лв. глоба')).toEqual([['16', 'ал. 6', 'same']]);
  });

  it('reads a reference inside quoted amending text, but not the quoted article\'s own heading', () => {
    expect(cited('§ 22. Създават се чл. 26а и 26б: „Чл. 26а. (1) Агенцията по чл. 2 уведомява.')).toEqual([
      ['26а', '', 'same'],
      ['26б', '', 'same'],
      ['2', '', 'same'],
    ]);
  });
});

/** `text.slice(start, end)` of each positioned part, to check positions against the text. */
function spans(text: string, citations: Citation[]): string[][] {
  return citations.map((c) => [text.slice(c.start, c.end), c.part ? text.slice(c.part.start, c.part.end) : '', c.act ? text.slice(c.act.start, c.act.end) : '']);
}

// The sentences below are synthetic: made up for these tests in the manner of Bulgarian legal writing, quoted from no act.
describe('parseCitations: running text', () => {
  it('reads an article with its paragraph, point and letter, and the act after it, with positions', () => {
    const text = 'Синтетичен текст: по чл. 12, ал. 2, т. 3, буква „б“ от ЗЗД се подава искане.';
    expect(parseCitations(text)).toEqual([
      {
        text: 'чл. 12, ал. 2, т. 3, буква „б“',
        start: 21,
        end: 51,
        article: '12',
        paragraph: '2',
        paragraphs: ['2'],
        point: '3',
        points: ['3'],
        letter: 'б',
        detail: 'ал. 2, т. 3, буква „б“',
        act: { kind: 'abbreviation', text: 'ЗЗД', start: 55, end: 58 },
        scope: 'external',
      },
    ]);
  });

  it('counts positions in UTF-16 code units', () => {
    const text = '😀 Синтетично: чл. 5';
    const [citation] = parseCitations(text);
    expect([citation!.start, citation!.end, citation!.text]).toEqual([15, 20, 'чл. 5']);
  });

  it('gives each article of a list, and a range with `articleTo`, the act written after the group', () => {
    const text = 'Измислено изречение по чл. 3, 4 и 5 и чл. 7 – 9 от Закона за измислените неща, а по чл. 10 не.';
    const found = parseCitations(text);
    expect(found.map((c) => [c.article, c.articleTo, c.scope])).toEqual([
      ['3', undefined, 'external'],
      ['4', undefined, 'external'],
      ['5', undefined, 'external'],
      ['7', '9', 'external'],
      ['10', undefined, 'same'],
    ]);
    expect(spans(text, found)).toEqual([
      ['чл. 3', '', 'Закона за измислените неща'],
      ['4', '', 'Закона за измислените неща'],
      ['5', '', 'Закона за измислените неща'],
      ['чл. 7 – 9', '', 'Закона за измислените неща'],
      ['чл. 10', '', ''],
    ]);
    expect(found[0]!.act).toEqual({ kind: 'title', text: 'Закона за измислените неща', start: 51, end: 77 });
  });

  it('keeps „от този закон“ in the act being read, and marks „от същия закон“ as an act named before', () => {
    expect(parseCitations('Синтетично: по чл. 8 от този закон.')).toEqual([expect.objectContaining({ article: '8', scope: 'same' })]);
    expect(parseCitations('Синтетично: по чл. 8 от този закон.')[0]!.act).toBeUndefined();
    expect(parseCitations('Синтетично: по чл. 8 от същия закон.')[0]!.act).toEqual({ kind: 'previous', text: 'същия закон', start: 24, end: 35 });
  });

  it('names a code by its adjective and an act of the European Union', () => {
    expect(parseCitations('Синтетично: по чл. 9 от Измисления процесуален кодекс.')[0]!.act?.text).toBe('Измисления процесуален кодекс');
    expect(parseCitations('Синтетично: по чл. 2 от Регламент (ЕС) № 1/2000 се прилага.')[0]!.act?.text).toBe('Регламент (ЕС) № 1/2000');
  });

  it('reads § items of an article group, and § groups of their own, with the provisions they belong to', () => {
    const text = 'Синтетично: по чл. 4 и § 2, т. 1 от допълнителните разпоредби; съгласно § 6, ал. 2 от ДР на ЗИН и §§ 7 – 9 от ПЗР.';
    const found = parseCitations(text);
    expect(found.map((c) => [c.article ?? `§${c.section}${c.sectionTo ? `–${c.sectionTo}` : ''}`, c.paragraph, c.point, c.part?.name, c.act?.text, c.scope])).toEqual([
      ['4', undefined, undefined, undefined, undefined, 'same'],
      ['§2', undefined, '1', 'ДР', undefined, 'same'],
      ['§6', '2', undefined, 'ДР', 'ЗИН', 'external'],
      ['§7–9', undefined, undefined, 'ПЗР', undefined, 'same'],
    ]);
    expect(spans(text, found)).toEqual([
      ['чл. 4', '', ''],
      ['§ 2, т. 1', 'допълнителните разпоредби', ''],
      ['§ 6, ал. 2', 'ДР', 'ЗИН'],
      ['§§ 7 – 9', 'ПЗР', ''],
    ]);
  });

  it('skips a § item\'s own heading at the start of a line, not a § cited at the end of a sentence', () => {
    expect(parseCitations('§ 3. Синтетичен параграф.\n§ 4. Прилага се § 1.').map((c) => c.text)).toEqual(['§ 1']);
  });

  it('articlesOnly leaves the § out', () => {
    expect(parseCitations('Синтетично: § 1 и чл. 2 и § 3', { articlesOnly: true }).map((c) => c.text)).toEqual(['чл. 2']);
  });
});

describe('parseCitations: typed', () => {
  it('reads a query as typed: dots optional, the paragraph and point, the act after „от“ or directly', () => {
    const query = 'чл.344 ал.1, т 3 от КТ срок';
    expect(parseCitations(query, { typed: true })).toEqual([
      {
        text: 'чл.344 ал.1, т 3',
        start: 0,
        end: 16,
        article: '344',
        paragraph: '1',
        paragraphs: ['1'],
        point: '3',
        points: ['3'],
        detail: 'ал.1, т 3',
        act: { kind: 'abbreviation', text: 'КТ', start: 20, end: 22 },
        scope: 'external',
      },
    ]);
  });

  it('takes a pair or a range as one citation, and a § with its provisions written out', () => {
    const query = 'чл. 71 и 72 ЗИН; § 5, т. 2 от преходните и заключителните разпоредби на ЗИН';
    const found = parseCitations(query, { typed: true });
    expect(found.map((c) => [c.article, c.articleTo, c.section, c.point, c.part?.name, c.act?.text])).toEqual([
      ['71', '72', undefined, undefined, undefined, 'ЗИН'],
      [undefined, undefined, '5', '2', 'ПЗР', 'ЗИН'],
    ]);
    expect(spans(query, found)).toEqual([
      ['чл. 71 и 72', '', 'ЗИН'],
      ['§ 5, т. 2', 'преходните и заключителните разпоредби', 'ЗИН'],
    ]);
  });

  it('lets a title run over the words after it (only a list of titles can tell where it ends)', () => {
    const [citation] = parseCitations('чл. 5 от Закона за измислените неща срок', { typed: true });
    expect(citation!.act).toEqual({ kind: 'title', text: 'Закона за измислените неща срок', start: 9, end: 40 });
  });

  it('reads a code or law named by its adjective, in any case, ending at кодекс / закон', () => {
    const acts = ['чл. 49 от Семейния кодекс', 'чл. 124 гражданския процесуален кодекс срок', 'чл. 286 от Търговския закон'].map(
      (query) => parseCitations(query, { typed: true })[0]!.act?.text,
    );
    expect(acts).toEqual(['Семейния кодекс', 'гражданския процесуален кодекс', 'Търговския закон']);
    expect(parseCitations('чл. 5 срок за обжалване', { typed: true })[0]!.act).toBeUndefined();
  });

  it('reads the Constitution named alone, as lawyers type it', () => {
    const acts = ['чл. 4 от Конституцията', 'чл. 4 Конституция', 'чл. 5, ал. 3 от конституцията'].map((query) => parseCitations(query, { typed: true })[0]!.act);
    expect(acts.map((a) => a?.text)).toEqual(['Конституцията', 'Конституция', 'конституцията']);
    expect(parseCitations('чл. 4 от Конституционния съд', { typed: true })[0]!.act).toBeUndefined();
  });

  it('reads no ordinary word as a citation', () => {
    for (const query of ['член на семейството', 'срок за обжалване', '3 години']) expect(parseCitations(query, { typed: true }), query).toEqual([]);
  });
});

describe('findActAbbreviations', () => {
  it('finds customary abbreviations and initials of a law or code (З…, К…, 3 letters or more), not other capitals', () => {
    const text = 'Синтетично: ЗОП, КТ, ЗИН и ЗЗДискр; ВКС, ЕС и БВП остават думи.';
    expect(findActAbbreviations(text).map((a) => [a.text, text.slice(a.start, a.end)])).toEqual([
      ['ЗОП', 'ЗОП'],
      ['КТ', 'КТ'],
      ['ЗИН', 'ЗИН'],
      ['ЗЗДискр', 'ЗЗДискр'],
    ]);
  });
});

/** A citation of the same act, for `referencedArticles`. */
function same(article: string, detail = '', through?: string): ArticleCitation {
  return { article, detail, scope: 'same', start: 0, end: 0, ...(through === undefined ? {} : { through }) };
}

describe('referencedArticles', () => {
  const refs = ['1', '12', '44', '45', '45а', '46', '47', '48'];

  it('lists a range article by article: both ends and every article of the document between them', () => {
    expect(referencedArticles([same('45', '', '47')], refs)).toEqual([
      { ref: '45', exists: true, details: [] },
      { ref: '45а', exists: true, details: [] },
      { ref: '46', exists: true, details: [] },
      { ref: '47', exists: true, details: [] },
    ]);
  });

  it('marks the articles the document does not have', () => {
    expect(referencedArticles([same('47', '', '50'), same('99', 'ал. 1')], refs)).toEqual([
      { ref: '47', exists: true, details: [] },
      { ref: '48', exists: true, details: [] },
      { ref: '50', exists: false, details: [] },
      { ref: '99', exists: false, details: ['ал. 1'] },
    ]);
  });

  it('lists each article once, in the order first cited, with its distinct details', () => {
    expect(referencedArticles([same('12', 'ал. 2'), same('1'), same('12', 'ал. 5, т. 1'), same('12', 'ал. 2'), same('12')], refs)).toEqual([
      { ref: '12', exists: true, details: ['ал. 2', 'ал. 5, т. 1'] },
      { ref: '1', exists: true, details: [] },
    ]);
  });

  it('leaves out the article being read and every citation of another act', () => {
    const external: ArticleCitation = { ...same('46'), scope: 'external' };
    expect(referencedArticles([same('45'), external, same('12')], refs, { self: '45' })).toEqual([{ ref: '12', exists: true, details: [] }]);
  });

  it('matches refs ignoring case and gives the document\'s spelling', () => {
    expect(referencedArticles([same('45а')], ['45А'])).toEqual([{ ref: '45А', exists: true, details: [] }]);
  });

  it(`keeps a range with more than ${MAX_RANGE_LISTED} articles of the document inside as one entry`, () => {
    const many = Array.from({ length: 300 }, (_, i) => String(i + 1));
    expect(referencedArticles([same('1', '', '300')], many)).toEqual([{ ref: '1', exists: true, details: [], through: '300', count: 300 }]);
  });

  it('a reversed range lists its two ends', () => {
    expect(referencedArticles([same('47', '', '45')], refs).map((a) => a.ref)).toEqual(['47', '45']);
  });
});

describe('real articles of ../shared/corpus/bg-statutes.jsonl.gz (read at run time)', () => {
  const corpus = new URL('../../../shared/corpus/bg-statutes.jsonl.gz', import.meta.url);
  const documents = new Map<string, { elements: { ref: string; label: string; text: string }[] }>();
  for (const line of zlib.gunzipSync(fs.readFileSync(corpus)).toString('utf8').split('\n')) {
    if (line !== '') {
      const document = JSON.parse(line) as { document_id: string; elements: { ref: string; label: string; text: string }[] };
      documents.set(document.document_id, document);
    }
  }

  /** The same-act references of an article, as an article of `pravo doc --article` shows them. */
  function referencesOf(documentId: string, ref: string) {
    const document = documents.get(documentId)!;
    const element = document.elements.find((e) => e.ref === ref)!;
    const citations = findArticleCitations(element.text.slice(element.label.length));
    return { citations, articles: referencedArticles(citations, document.elements.map((e) => e.ref), { self: ref }) };
  }

  it('Изборен кодекс (act-14715), чл. 45: "органите по чл. 23, ал. 1"', () => {
    expect(referencesOf('act-14715', '45').articles).toEqual([{ ref: '23', exists: true, details: ['ал. 1'] }]);
  });

  it('Изборен кодекс, чл. 12: "по чл. 14" and "по реда на чл. 58"', () => {
    expect(referencesOf('act-14715', '12').articles.map((a) => a.ref)).toEqual(['14', '58']);
  });

  it('Изборен кодекс, чл. 4: "по чл. 160, ал. 2 от Конституцията" is another act', () => {
    const { citations, articles } = referencesOf('act-14715', '4');
    expect(articles).toEqual([]);
    expect(citations).toEqual([expect.objectContaining({ article: '160', detail: 'ал. 2', scope: 'external' })]);
  });

  it('act-15570, чл. 44в: чл. 44а, ал. 1 and чл. 44б of this act; чл. 25 от Закона за търговския регистър is not', () => {
    const { citations, articles } = referencesOf('act-15570', '44в');
    expect(articles.slice(0, 2)).toEqual([
      { ref: '44а', exists: true, details: ['ал. 1'] },
      { ref: '44б', exists: true, details: [] },
    ]);
    expect(citations.find((c) => c.article === '25')?.scope).toBe('external');
  });

  it('act-10044, чл. 52: the range "по чл. 36 – 47" lists 36 to 47', () => {
    expect(referencesOf('act-10044', '52').articles.map((a) => a.ref)).toEqual(['36', '37', '38', '39', '40', '41', '42', '43', '44', '45', '46', '47']);
  });

  it('act-9663, чл. 7: "чл. 5, 6 и 8"', () => {
    expect(referencesOf('act-9663', '7').articles.map((a) => a.ref)).toEqual(['5', '6', '8']);
  });

  it('act-13692, чл. 48: "по чл. 7, ал. 1 от същия закон" (the Закон за държавните помощи) is not this act', () => {
    const { citations, articles } = referencesOf('act-13692', '48');
    expect(articles).toEqual([]);
    expect(citations.map((c) => [c.article, c.scope])).toEqual([
      ['7', 'external'],
      ['9', 'external'],
    ]);
  });

  it('over every article of the corpus: never throws, each citation starts at "чл."/"член" or its number', () => {
    let count = 0;
    for (const document of documents.values()) {
      for (const element of document.elements) {
        const text = element.text.startsWith(element.label) ? element.text.slice(element.label.length) : element.text;
        for (const citation of findArticleCitations(text)) {
          count++;
          expect(text.slice(citation.start, citation.end)).toMatch(/^(?:чл|член|\d)/iu);
          expect(citation.article).toMatch(/^\d+[а-яѝ]{0,2}$/u);
        }
      }
    }
    expect(count).toBeGreaterThan(50_000);
  });
});
