/**
 * The acts' public pages (`src/sandbox/corpus/links.ts`) matched to documents, on made-up acts and pages: every title
 * says it is test data („тестов“), every link is `example.invalid`.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { matchActLinks, readActLinks, type ActLink } from '../../../src/sandbox/corpus/links.js';
import type { CorpusDocument } from '../../../src/sandbox/corpus/reader.js';
import { tempDirsPerTest } from '../fixtures.js';

const dir = tempDirsPerTest();

/** A made-up statute: no url unless given, a text as published unless said otherwise. */
function act(document_id: string, title: string, date: string, extra: Partial<CorpusDocument> = {}): CorpusDocument {
  return { document_id, source_type: 'bulgarian_laws_regulations', type: 'Закон', title, date, as_of: date, consolidated: false, elements: [], ...extra };
}

/** A made-up page. */
function page(title: string, lex_id: string, published: string | null, updated: string | null = '2026-01-31'): ActLink {
  return { title, url: `https://example.invalid/ldoc/${lex_id}`, lex_id, published, updated };
}

describe('matchActLinks', () => {
  it('gives an act without a url its page, by its title in any case and without the renaming note', () => {
    const documents = [
      act('akn-2006-test', 'Закон за тестовите данъци', '2006-08-04'),
      act('akn-1999-test', 'КОДЕКС ЗА ТЕСТОВОТО ОСИГУРЯВАНЕ', '1999-12-17'),
    ];
    const links = [page('Закон за тестовите данъци', '11', '2006-08-04'), page('Кодекс за тестовото осигуряване (загл. изм. - ДВ, бр. 67 от 2003 г.)', '12', '1999-12-17')];
    expect(matchActLinks(documents, links)).toEqual({ filled: 2, dated: 2 });
    expect(documents.map((d) => [d.url, d.url_as_of])).toEqual([
      ['https://example.invalid/ldoc/11', '2026-01-31'],
      ['https://example.invalid/ldoc/12', '2026-01-31'],
    ]);
  });

  it('never gives the page to an act amending the act, nor to another act of the same title from another year', () => {
    const documents = [
      act('act-1', 'Закон за изменение и допълнение на Закона за тестовите поръчки', '2017-03-01'),
      act('akn-2004-test', 'Закон за тестовите поръчки', '2004-04-06'),
      act('act-2', 'Закон за тестовите поръчки', '2015-08-12', { as_of: '2016-02-02', url: 'https://example.invalid/parliament/2' }),
    ];
    expect(matchActLinks(documents, [page('Закон за тестовите поръчки', '21', '2016-02-16')])).toEqual({ filled: 0, dated: 0 });
    // The act of 2016 is the page's: it keeps its own url (the text as adopted), and the act of 2004 gets none.
    expect(documents.map((d) => d.url)).toEqual([undefined, undefined, 'https://example.invalid/parliament/2']);
    // Only an act of another year: not the page's.
    const older = [act('akn-2005-test', 'Кодекс за тестовото застраховане', '2005-12-23')];
    expect(matchActLinks(older, [page('Кодекс за тестовото застраховане', '22', '2015-12-29')])).toEqual({ filled: 0, dated: 0 });
    expect(older[0]!.url).toBeUndefined();
  });

  it('takes the nearest of several texts of the title, and dates a consolidated text by its first publication', () => {
    const documents = [
      act('akn-1950-test', 'Закон за тестовите договори', '1950-11-22', { as_of: '2021-04-27', consolidated: true }),
      act('akn-1951-test', 'Закон за тестовите договори', '1951-05-01'),
    ];
    expect(matchActLinks(documents, [page('Закон за тестовите договори', '31', '1950-12-05', '2021-04-27')])).toEqual({ filled: 1, dated: 1 });
    expect(documents.map((d) => d.url)).toEqual(['https://example.invalid/ldoc/31', undefined]);
    // A consolidated text as of the page's publication is not that act.
    const later = [act('akn-2005-test', 'Закон за тестовите такси', '2005-01-10', { as_of: '2015-12-20', consolidated: true })];
    expect(matchActLinks(later, [page('Закон за тестовите такси', '32', '2015-12-29')]).filled).toBe(0);
  });

  it('dates a consolidated text read from the page by its id, and takes a title cut short only at the same date', () => {
    const documents = [
      act('ldoc-41', 'Тестов закон', '1991-06-18', { as_of: '2026-06-16', consolidated: true, url: 'https://example.invalid/ldoc/41' }),
      act('akn-2015-test', 'Кодекс за тестовата етика на медицинските сес…', '2015-06-19'),
      act('akn-2016-test', 'Кодекс за тестовата етика на медицинските сес…', '2016-09-01'),
    ];
    const links = [
      page('Тестов закон с друго заглавие', '41', '1991-06-18', '2026-07-31'),
      page('Кодекс за тестовата етика на медицинските сестри и акушерките', '42', '2015-06-19', '2015-06-19'),
    ];
    expect(matchActLinks(documents, links)).toEqual({ filled: 1, dated: 2 });
    expect(documents.map((d) => [d.url, d.url_as_of])).toEqual([
      ['https://example.invalid/ldoc/41', '2026-07-31'],
      ['https://example.invalid/ldoc/42', '2015-06-19'],
      [undefined, undefined],
    ]);
  });

  it('gives a page without a publication date only to the one act of its title, and never to a court decision', () => {
    const one = [act('akn-test', 'Етичен тестов кодекс', '2010-01-01')];
    expect(matchActLinks(one, [page('Етичен тестов кодекс', '51', null, null)])).toEqual({ filled: 1, dated: 0 });
    const two = [act('akn-a', 'Етичен тестов кодекс', '2010-01-01'), act('akn-b', 'Етичен тестов кодекс', '2020-01-01')];
    expect(matchActLinks(two, [page('Етичен тестов кодекс', '52', null)]).filled).toBe(0);
    const decision = [act('ks-test', 'Етичен тестов кодекс', '2010-01-01', { court_id: 0 })];
    expect(matchActLinks(decision, [page('Етичен тестов кодекс', '53', '2010-01-01')]).filled).toBe(0);
  });
});

describe('readActLinks', () => {
  it('reads the links in file order, and names the entry and field of a bad one', async () => {
    const file = join(dir(), 'test-act-links.json');
    const good = { title: 'Закон за тестовите уведомления', url: 'https://example.invalid/ldoc/-7', lex_id: '-7', published: '2001-01-02', updated: null, source: {} };
    writeFileSync(file, JSON.stringify([good]));
    expect(await readActLinks(file)).toEqual([{ title: good.title, url: good.url, lex_id: '-7', published: '2001-01-02', updated: null }]);
    writeFileSync(file, JSON.stringify([good, { ...good, url: 'javascript:alert(1)' }]));
    await expect(readActLinks(file)).rejects.toThrow(`links file ${file}, entry 2: field "url" must be an https link`);
    writeFileSync(file, JSON.stringify([{ ...good, published: '2001' }]));
    await expect(readActLinks(file)).rejects.toThrow('entry 1: field "published" must be a date YYYY-MM-DD or null');
    writeFileSync(file, '{}');
    await expect(readActLinks(file)).rejects.toThrow('must be a JSON array of links');
  });
});
