/**
 * Reading Akoma Ntoso acts (`src/sandbox/corpus/akn.ts`): the real files of `shared/corpus/akn/` (read at run time,
 * never copied) and synthetic files written to a temporary directory (their titles say they are test data).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { constants, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { findAknFiles, readAknFile, type AknAct } from '../../../src/sandbox/corpus/akn.js';
import { CorpusError, type CorpusElement } from '../../../src/sandbox/corpus/reader.js';
import { HAS_SPECIAL_FILES, linkToDevZero, makeFifo } from '../../helpers/special-files.js';

const AKN = fileURLToPath(new URL('../../../../shared/corpus/akn/', import.meta.url));

/** A real file of the corpus: `<type>/<year>/<slug>` → its one expression. */
function real(work: string): string {
  const files = findAknFiles(join(AKN, work));
  expect(files).toHaveLength(1);
  return files[0]!;
}

const TMP = mkdtempSync(join(tmpdir(), 'pravo-akn-test-'));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

/** Writes a synthetic file under the temporary directory (gzip-compressed when the name ends in `.gz`). */
function write(name: string, xml: string): string {
  const path = join(TMP, name);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, name.endsWith('.gz') ? gzipSync(Buffer.from(xml)) : xml);
  return path;
}

/** A synthetic Akoma Ntoso act: the metadata of the corpus's files around `body`. */
function aknXml(options: {
  alias: string;
  uri?: string;
  workDate?: string;
  expressionDate?: string;
  subtype?: string;
  preface?: string[];
  body: string;
}): string {
  const uri = options.uri ?? '/akn/bg/act/2020/test-1';
  const workDate = options.workDate ?? '2020-01-10';
  const expressionDate = options.expressionDate ?? workDate;
  const preface = (options.preface ?? [options.alias]).map((p) => `<p>${p}</p>`).join('');
  return `<?xml version="1.0" encoding="UTF-8"?>
<akomaNtoso xmlns="http://docs.oasis-open.org/legaldocml/ns/akn/3.0">
  <act contains="originalVersion">
    <meta>
      <identification source="#test">
        <FRBRWork>
          <FRBRthis value="${uri}/main"/>
          <FRBRuri value="${uri}"/>
          <FRBRalias value="${options.alias}" name="short"/>
          <FRBRdate date="${workDate}" name="Generation"/>
          <FRBRauthor href="#parliament"/>
          <FRBRcountry value="bg"/>
          ${options.subtype ? `<FRBRsubtype value="${options.subtype}"/>` : ''}
        </FRBRWork>
        <FRBRExpression>
          <FRBRthis value="${uri}/bul@${expressionDate}/main"/>
          <FRBRuri value="${uri}/bul@${expressionDate}"/>
          <FRBRdate date="${expressionDate}" name="Generation"/>
          <FRBRauthor href="#parliament"/>
          <FRBRlanguage language="bul"/>
        </FRBRExpression>
      </identification>
      <publication date="${workDate}" name="Държавен вестник" number="1" showAs="ДВ"/>
    </meta>
    <preface>${preface}</preface>
    <body>${options.body}</body>
  </act>
</akomaNtoso>
`;
}

const SYNTHETIC_TITLE = 'ЗАКОН ЗА СИНТЕТИЧНИТЕ ТЕСТОВИ ДАННИ (ТЕСТОВИ ДАННИ, НЕ ЗАКОНОВ ТЕКСТ)';

/** A synthetic act with chapters, a section, an empty chapter, an empty article and provisions quoting an article. */
const SYNTHETIC_BODY = `
  <chapter eId="chap_1">
    <num>Глава    първа</num>
    <heading>ОБЩИ ПОЛОЖЕНИЯ</heading>
    <article eId="art_1">
      <num>Чл. 1.</num>
      <heading>Предмет</heading>
      <paragraph eId="art_1__al_1">
        <num>(1)</num>
        <content>
          <p>(Изм. - ДВ, бр. 1 от 2020 г.) Първа  \t тестова\u00a0алинея.</p>
        </content>
      </paragraph>
      <paragraph eId="art_1__al_2">
        <num>(2)</num>
        <intro><p>Втора тестова алинея:</p></intro>
        <point eId="art_1__al_2__pt_1"><num>1.</num><content><p>точка едно;</p></content></point>
        <point eId="art_1__al_2__pt_2"><num>2.</num><content><p>точка две.</p></content></point>
      </paragraph>
    </article>
    <article eId="art_2"><num>Чл.2а.</num><content><p>Текст на тестовия член 2а.</p></content></article>
    <article eId="art_3"><num>Чл. 3.</num></article>
  </chapter>
  <chapter eId="chap_2"><num>Глава втора</num><heading>ПРАЗНА</heading></chapter>
  <chapter eId="chap_3">
    <num>Глава трета</num>
    <heading>ДРУГИ</heading>
    <section eId="chap_3__sec_1">
      <num>Раздел I</num>
      <heading>Общи</heading>
      <article eId="art_4"><num>Чл. 4.</num><content><p>Тестов текст.</p></content></article>
    </section>
  </chapter>
  <hcontainer eId="sec_final" name="transitional-provisions">
    <num>ПРЕХОДНИ И ЗАКЛЮЧИТЕЛНИ РАЗПОРЕДБИ</num>
    <hcontainer eId="sec_final__par_1" name="modification">
      <num>§ 1.</num>
      <content>
        <p>В тестовия закон се създава чл. 9:</p>
        <p><mod><quotedStructure><article><num>Чл. 9.</num><content><p>Цитиран тестов текст.</p></content></article></quotedStructure></mod></p>
      </content>
    </hcontainer>
    <hcontainer eId="sec_final__par_2" name="modification">
      <num>§ 12а.</num>
      <content><p>Тестовият закон влиза в сила от деня на обнародването му.</p></content>
    </hcontainer>
  </hcontainer>`;

describe('readAknFile: the real corpus', () => {
  it('reads the Кодекс на труда: a consolidated code, its title in sentence case, its articles and §§', async () => {
    const path = real('kodeks/1986/dv-26-86-1');
    const act = await readAknFile(path);
    const { elements, ...meta } = act.document;
    expect(meta).toEqual({
      document_id: 'akn-1986-dv-26-86-1',
      source_type: 'bulgarian_laws_regulations',
      type: 'Кодекс',
      title: 'Кодекс на труда',
      // The preface's „Обн. ДВ. бр.26 от 1 Април 1986г.“: the work's FRBR date (1987-01-01) is its entry into force.
      date: '1986-04-01',
      in_force_date: null,
      as_of: '2026-02-10',
      consolidated: true,
    });
    expect(act.work_uri).toBe('/akn/bg/act/1986/dv-26-86-1');
    expect(act.expression_date).toBe('2026-02-10');
    expect(act.path).toBe(path);
    expect(act.publication).toEqual({ date: '2026-02-10', number: '26', name: 'Държавен вестник' });

    const articles = elements.filter((e) => !e.ref.startsWith('§'));
    expect(articles).toHaveLength(503);
    const art330 = elements.find((e) => e.ref === '330')!;
    expect(art330.label).toBe('Чл. 330.');
    expect(art330.text).toContain('без предизвестие');
    expect(art330.text).not.toMatch(/^Чл\./);
    expect(art330.heading).toBe('Прекратяване на трудовия договор от работодателя без предизвестие');
    // One line per paragraph and point, each with its own number; amendment notes stay in the text.
    expect(art330.text.split('\n').slice(0, 3)).toEqual([
      '(1) (Изм. - ДВ, бр. 100 от 1992 г.) Работодателят може да прекрати трудовия договор без предизвестие, когато работникът или служителят бъде задържан за изпълнение на присъда.',
      '(2) (Изм. - ДВ, бр. 100 от 1992 г.) Работодателят прекратява трудовия договор без предизвестие, когато:',
      '1. (отм., предишна т. 2 - ДВ, бр. 100 от 1992 г.) работникът или служителят бъде лишен с присъда или по административен ред от право да упражнява професия или да заема длъжността, на която е назначен;',
    ]);
    // Headings: the chapter's on its first article only, with the article's own title.
    expect(elements[0]).toMatchObject({ ref: '1', label: 'Чл. 1.', heading: 'Глава първа. ОБЩИ ПОЛОЖЕНИЯ / Предмет и цел' });
    expect(elements[0]!.text).toMatch(/^\(Изм\. - ДВ, бр\. 100 от 1992 г\.\) \(1\) Този кодекс урежда/);
    expect(elements[1]).toMatchObject({ ref: '2', heading: 'Социален диалог' });
  });

  it('gives the elements in document order: articles by number, then the §§, the first § with its block heading', async () => {
    const { elements } = (await readAknFile(real('kodeks/1986/dv-26-86-1'))).document;
    const isParagraph = (e: CorpusElement): boolean => e.ref.startsWith('§');
    const lastArticle = elements.map((e) => !isParagraph(e)).lastIndexOf(true);
    const firstParagraph = elements.findIndex(isParagraph);
    expect(lastArticle).toBe(firstParagraph - 1);
    const numbers = elements.filter((e) => !isParagraph(e)).map((e) => Number.parseInt(e.ref, 10));
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    expect(elements.slice(firstParagraph, firstParagraph + 4).map((e) => [e.ref, e.label])).toEqual([
      ['§1', '§ 1.'],
      ['§2', '§ 2.'],
      ['§2а', '§ 2а.'],
      ['§3', '§ 3.'],
    ]);
    expect(elements[firstParagraph]!.heading).toBe('Заключителни разпоредби');
    expect(elements[firstParagraph + 1]!.heading).toBeUndefined();
  });

  it('reads the Закон за задълженията и договорите, its §§ without <num> and its repealed articles', async () => {
    const act = await readAknFile(real('zakon/1950/zzd'));
    const d = act.document;
    expect([d.document_id, d.type, d.title, d.date, d.as_of, d.consolidated]).toEqual([
      'akn-1950-zzd',
      'Закон',
      'Закон за задълженията и договорите',
      '1950-11-22',
      '2021-04-27',
      true,
    ]);
    const art45 = d.elements.find((e) => e.ref === '45')!;
    expect(art45.text).toContain('Всеки е длъжен да поправи вредите');
    expect(art45.heading).toBe('4. НЕПОЗВОЛЕНО УВРЕЖДАНЕ');
    // A repealed article repeats its note as heading: that is its text, not a heading.
    expect(d.elements.find((e) => e.ref === '3')).toEqual({ ref: '3', label: 'Чл. 3.', text: '(Отм. - ДВ, бр. 12 от 1993 г.)' });
    expect(d.elements.filter((e) => e.ref.startsWith('§')).map((e) => e.ref)).toEqual(['§2', '§4', '§5', '§6', '§7', '§48', '§3']);
    const p4 = d.elements.find((e) => e.ref === '§4')!;
    expect(p4.label).toBe('§ 4.');
    expect(p4.text).toMatch(/^Настоящият закон влиза в сила от 1 януари 1951 г\./);
  });

  it('dates the Наказателен кодекс by its promulgation (1968), not by the work FRBR date the source gives (2026)', async () => {
    const d = (await readAknFile(real('kodeks/1968/nk'))).document;
    expect([d.title, d.type, d.date, d.as_of, d.consolidated]).toEqual(['Наказателен кодекс', 'Кодекс', '1968-04-02', '2026-04-01', true]);
    expect(d.elements).toHaveLength(632);
    expect(d.elements[0]!.heading).toBe(
      'Обща Част / Глава първа. ЗАДАЧА И ПРЕДЕЛИ НА ДЕЙСТВИЕ НА НАКАЗАТЕЛНИЯ КОДЕКС / Раздел I. Задача на Наказателния кодекс',
    );
    expect(d.elements.find((e) => e.ref === '278б1')?.label).toBe('Чл. 278б1.');
    // The source puts the points of some articles on lines of one <p>: the lines are kept.
    const lines = d.elements.find((e) => e.ref === '93')!.text.split('\n');
    expect(lines[0]).toBe('Указаните по-долу думи и изрази са употребени в този кодекс в следния смисъл:');
    expect(lines[1]).toMatch(/^1\. "Длъжностно лице" е това/);
    expect(lines[2]).toMatch(/^а\) служба в държавно учреждение/);
  });

  it('gives the two files of the Наказателно-процесуален кодекс the same title (one in capitals in the source)', async () => {
    const original = (await readAknFile(real('kodeks/2005/dv-86-05-1'))).document;
    const consolidated = (await readAknFile(real('kodeks/2005/npk'))).document;
    expect(original.title).toBe('Наказателно-процесуален кодекс');
    expect(consolidated.title).toBe(original.title);
    expect([original.consolidated, consolidated.consolidated]).toEqual([false, true]);
  });

  it('takes the type from the title: a Council of Ministers decision filed under codes is a Решение', async () => {
    const path = real('kodeks/2009/dv-101-09-7');
    expect(path).toContain('/kodeks/');
    const act = await readAknFile(path);
    expect(act.document.type).toBe('Решение');
    // The preamble („На основание …“) is cut off, and the capitals of the date lowered.
    expect(act.document.title).toBe('Решение № 956 от 16 декември 2009 г. за разместване на почивни дни през 2010 г.');
    // The source keeps the decision as one block of text: no articles, so that text is its one element.
    expect(act.unstructured_text).toContain('1. Обявява 7 май (петък) за почивен ден');
    expect(act.document.elements).toEqual([{ ref: '', label: '', text: act.unstructured_text.trim() }]);
  });

  it('completes a title the source cut short from the body, or marks it cut', async () => {
    const completed = await readAknFile(real('zakon/2012/dv-32-12-6'));
    expect(completed.document.title).toBe(
      'Закон за денонсиране на Споразумението за Международната организация за спътникови телекомуникации ИНТЕЛСАТ',
    );
    const cut = await readAknFile(real('zakon/2018/dv-7-18-2'));
    expect(cut.document.title).toBe('Закон за противодействие на корупцията и за отне…');
    expect(cut.document.type).toBe('Закон');
  });

  it('reads every file of the directory but exactly the 9 that are not well-formed, which it rejects by path', async () => {
    const files = findAknFiles(AKN);
    expect(files).toHaveLength(603);
    expect(files.every((f) => f.endsWith('.xml.gz'))).toBe(true);
    const acts: AknAct[] = [];
    const failed: CorpusError[] = [];
    for (const file of files) {
      try {
        acts.push(await readAknFile(file));
      } catch (error) {
        expect(error).toBeInstanceOf(CorpusError);
        failed.push(error as CorpusError);
      }
    }
    expect(failed).toHaveLength(9);
    for (const error of failed) {
      expect(files).toContain(error.file);
      expect(error.message).toContain(`Akoma Ntoso file ${error.file}: not well-formed XML: `);
    }
    expect(failed.map((e) => e.file)).toContain(join(AKN, 'kodeks/2020/dv-108-20-42/expressions/2020-12-22.bul.xml.gz'));
    // The empty one: gzip of nothing.
    expect(failed.map((e) => e.file)).toContain(join(AKN, 'zakon/2013/dv-30-13-4/expressions/2013-03-26.bul.xml.gz'));

    expect(acts).toHaveLength(594);
    const ids = acts.map((a) => a.document.document_id);
    expect(new Set(ids).size).toBe(594);
    for (const act of acts) {
      const d = act.document;
      expect(d.document_id).toMatch(/^akn-\d{4}-[a-z0-9-]+$/);
      expect(d.title).not.toBe('');
      expect(d.title).not.toMatch(/\s{2}|\u00ad|[-,]$/u);
      expect(d.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(d.as_of).toBe(act.expression_date);
      for (const e of d.elements) {
        expect(e.text.trim()).not.toBe('');
        // An article or a §; an act without either is one element without a label (its whole text).
        if (d.elements.length === 1 && e.ref === '') expect(e.label).toBe('');
        else expect(e.label).toMatch(/^(?:Чл\. \d+[\p{L}\d]*|§ \d+[\p{L}\d]*)\.$/u);
        if (e.heading !== undefined) expect(e.heading).not.toBe('');
      }
    }
    expect(acts.filter((a) => a.document.consolidated).map((a) => a.document.document_id).sort()).toEqual([
      'akn-1950-zzd',
      'akn-1968-nk',
      'akn-1986-dv-26-86-1',
      'akn-2005-npk',
      'akn-2007-gpk',
    ]);
    // Folders do not type acts: decisions filed under codes are decisions.
    const inKodeks = acts.filter((a) => a.path.includes('/kodeks/'));
    expect(inKodeks.filter((a) => a.document.title.startsWith('Решение')).every((a) => a.document.type === 'Решение')).toBe(true);
    expect(inKodeks.some((a) => a.document.type === 'Решение')).toBe(true);
  });
});

describe('readAknFile: synthetic files', () => {
  it('maps a synthetic act: id, title, dates, elements with labels, text lines and headings', async () => {
    const path = write(
      'plain/test.xml',
      aknXml({ alias: SYNTHETIC_TITLE, workDate: '2020-01-10', expressionDate: '2021-05-01', body: SYNTHETIC_BODY }),
    );
    const act = await readAknFile(path);
    const { elements, ...meta } = act.document;
    expect(meta).toEqual({
      document_id: 'akn-2020-test-1',
      source_type: 'bulgarian_laws_regulations',
      type: 'Закон',
      title: 'Закон за синтетичните тестови данни (тестови данни, не законов текст)',
      date: '2020-01-10',
      in_force_date: null,
      as_of: '2021-05-01',
      consolidated: true,
    });
    expect(elements).toEqual([
      {
        ref: '1',
        label: 'Чл. 1.',
        text: '(1) (Изм. - ДВ, бр. 1 от 2020 г.) Първа тестова алинея.\n(2) Втора тестова алинея:\n1. точка едно;\n2. точка две.',
        heading: 'Глава първа. ОБЩИ ПОЛОЖЕНИЯ / Предмет',
      },
      { ref: '2а', label: 'Чл. 2а.', text: 'Текст на тестовия член 2а.' },
      // Чл. 3 has no text and is left out; the empty Глава втора opens nothing.
      { ref: '4', label: 'Чл. 4.', text: 'Тестов текст.', heading: 'Глава трета. ДРУГИ / Раздел I. Общи' },
      {
        ref: '§1',
        label: '§ 1.',
        // The quoted article stays in the § that quotes it.
        text: 'В тестовия закон се създава чл. 9:\nЧл. 9. Цитиран тестов текст.',
        heading: 'Преходни и заключителни разпоредби',
      },
      { ref: '§12а', label: '§ 12а.', text: 'Тестовият закон влиза в сила от деня на обнародването му.' },
    ]);
    expect(act.unstructured_text).toBe('');
  });

  it('reads a gzip file like the plain one, whatever its name', async () => {
    const xml = aknXml({ alias: SYNTHETIC_TITLE, body: SYNTHETIC_BODY });
    const plain = await readAknFile(write('same/a.xml', xml));
    const gz = await readAknFile(write('same/a.xml.gz', xml));
    expect(gz.document).toEqual(plain.document);
  });

  it('joins the words the typesetter broke with a soft hyphen, so that they are found', async () => {
    const path = write(
      'zakon/2020/soft/expressions/2020-01-10.bul.xml',
      aknXml({ alias: SYNTHETIC_TITLE, body: '<article><num>Чл. 1.</num><content><p>Договорът за за\u00ad страховането е тестови данни.</p></content></article>' }),
    );
    const act = await readAknFile(path);
    expect(act.document.elements.map((e) => e.text)).toEqual(['Договорът за застраховането е тестови данни.']);
  });

  it('types a decision by its title even when its metadata files it under codes', async () => {
    const path = write(
      'kodeks/2020/x/expressions/2020-01-10.bul.xml',
      aknXml({
        alias: 'Решение № 1 ОТ 2 ЯНУАРИ 2020 Г. за синтетичен тестов документ (тестови данни) На основание чл. 1 от Кодекса за',
        uri: '/akn/bg/act/2020/x',
        subtype: 'kodeks',
        body: '<section eId="sec_1"><content><p>РЕШЕНИЕ № 1 (тестови данни) ... Р Е Ш И : 1. Тестово решение.</p></content></section>',
      }),
    );
    const act = await readAknFile(path);
    expect(act.document.type).toBe('Решение');
    expect(act.document.title).toBe('Решение № 1 от 2 януари 2020 г. за синтетичен тестов документ (тестови данни)');
    expect(act.unstructured_text).toBe('РЕШЕНИЕ № 1 (тестови данни) ... Р Е Ш И : 1. Тестово решение.');
    expect(act.document.elements).toEqual([{ ref: '', label: '', text: act.unstructured_text }]);
  });

  it('rejects a file that is not well-formed with a CorpusError naming the path, plain or gzip', async () => {
    const broken = aknXml({ alias: SYNTHETIC_TITLE, body: '<article><num>Чл. 1.</num><content><p>Тест \u0007 данни</p></content></article>' });
    for (const name of ['broken/a.xml', 'broken/a.xml.gz']) {
      const path = write(name, broken);
      const error = await readAknFile(path).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(CorpusError);
      expect((error as CorpusError).file).toBe(path);
      expect((error as CorpusError).message).toMatch(/^Akoma Ntoso file .*: not well-formed XML: \d+:\d+: disallowed character\.$/);
      expect((error as CorpusError).message).toContain(path);
    }
    const truncated = write('broken/truncated.xml', aknXml({ alias: SYNTHETIC_TITLE, body: '' }).slice(0, 400));
    await expect(readAknFile(truncated)).rejects.toThrow(/not well-formed XML/);
    const empty = write('broken/empty.xml.gz', '');
    await expect(readAknFile(empty)).rejects.toThrow(`Akoma Ntoso file ${empty}: not well-formed XML: 1:0: document must contain a root element.`);
  });

  it('rejects a file that is not an Akoma Ntoso act, or lacks the work URI or a title', async () => {
    const html = write('other/page.xml', '<html><body><p>Тестови данни</p></body></html>');
    await expect(readAknFile(html)).rejects.toThrow(/not an Akoma Ntoso document: the root element is <html>/);
    const noUri = write('other/no-uri.xml', aknXml({ alias: SYNTHETIC_TITLE, body: '' }).replace(/<FRBRuri value="[^"]*"\/>\s*<FRBRalias/, '<FRBRalias'));
    await expect(readAknFile(noUri)).rejects.toThrow(CorpusError);
    await expect(readAknFile(noUri)).rejects.toThrow(/no FRBRWork\/FRBRuri/);
    const noTitle = write('other/no-title.xml', aknXml({ alias: '', preface: [], body: '' }));
    await expect(readAknFile(noTitle)).rejects.toThrow(/no title/);
    await expect(readAknFile(join(TMP, 'missing.xml'))).rejects.toThrow(/file not found/);
  });
});

describe('readAknFile: any depth, linear', () => {
  /** Nesting deep enough that a reader quadratic in the depth (or recursing per level) would not finish in time. */
  const DEPTH = 100_000;

  it('reads an article inside 100,000 nested chapters, and one of 100,000 nested paragraphs and inline spans', async () => {
    const chapters = write(
      'deep/chapters.xml',
      aknXml({
        alias: SYNTHETIC_TITLE,
        body: `${'<chapter>'.repeat(DEPTH)}<article><num>Чл. 1.</num><content><p>Тестов текст.</p></content></article>${'</chapter>'.repeat(DEPTH)}`,
      }),
    );
    expect((await readAknFile(chapters)).document.elements).toEqual([{ ref: '1', label: 'Чл. 1.', text: 'Тестов текст.' }]);
    const paragraphs = write(
      'deep/paragraphs.xml.gz',
      aknXml({
        alias: SYNTHETIC_TITLE,
        body: `<article><num>Чл. 2.</num>${'<paragraph>'.repeat(DEPTH)}Тестов ${'<span>'.repeat(DEPTH)}текст.${'</span>'.repeat(DEPTH)}${'</paragraph>'.repeat(DEPTH)}</article>`,
      }),
    );
    expect((await readAknFile(paragraphs)).document.elements).toEqual([{ ref: '2', label: 'Чл. 2.', text: 'Тестов текст.' }]);
  });

  it('reads the text of 100,000 nested blocks outside any article as the one element', async () => {
    const loose = write('deep/loose.xml', aknXml({ alias: SYNTHETIC_TITLE, body: `${'<p>'.repeat(DEPTH)}Тестов текст.${'</p>'.repeat(DEPTH)}` }));
    expect((await readAknFile(loose)).document.elements).toEqual([{ ref: '', label: '', text: 'Тестов текст.' }]);
  });

  it('resolves prefixed names by the namespaces in scope, and rejects an unbound prefix', async () => {
    const prefixed = write(
      'ns/prefixed.xml',
      aknXml({ alias: SYNTHETIC_TITLE, body: '<a:article xmlns:a="http://docs.oasis-open.org/legaldocml/ns/akn/3.0"><a:num>Чл. 1.</a:num><a:content><a:p>Тестов текст.</a:p></a:content></a:article><x:article xmlns:x="urn:other"><x:num>Чл. 2.</x:num></x:article>' }),
    );
    // The second article is in another namespace: its text is loose text, not an element.
    expect((await readAknFile(prefixed)).document.elements).toEqual([{ ref: '1', label: 'Чл. 1.', text: 'Тестов текст.' }]);
    const unbound = write('ns/unbound.xml', aknXml({ alias: SYNTHETIC_TITLE, body: '<y:article><y:num>Чл. 1.</y:num></y:article>' }));
    await expect(readAknFile(unbound)).rejects.toThrow(/^Akoma Ntoso file .*unbound\.xml: not well-formed XML: \d+:\d+: unbound namespace prefix: "y"\.$/);
  });
});

describe('readAknFile: only regular files, within the cap', () => {
  it('refuses a file that decompresses to more than 64 MiB, naming it and the cap', async () => {
    const bomb = join(TMP, 'bomb.xml.gz');
    writeFileSync(bomb, gzipSync(Buffer.alloc(64 * 1024 * 1024 + 1, 0x20), { level: constants.Z_BEST_SPEED }));
    await expect(readAknFile(bomb)).rejects.toThrow(`Akoma Ntoso file ${bomb}: decompresses to more than 64 MiB, the limit for this kind of file`);
  });

  it.skipIf(!HAS_SPECIAL_FILES)('refuses a FIFO and a link to /dev/zero at once, without reading them', async () => {
    const fifo = makeFifo(join(TMP, 'pipe.xml'));
    await expect(readAknFile(fifo)).rejects.toThrow(`Akoma Ntoso file ${fifo}: is a FIFO (named pipe), not a regular file; only regular files are read`);
    const zero = linkToDevZero(join(TMP, 'zero.xml.gz'));
    await expect(readAknFile(zero)).rejects.toThrow(`Akoma Ntoso file ${zero}: is a character device, not a regular file; only regular files are read`);
  });
});

describe('findAknFiles', () => {
  it('lists .xml and .xml.gz files recursively, sorted', () => {
    const dir = join(TMP, 'find');
    for (const name of ['b/2.xml.gz', 'a/1.xml', 'a/notes.txt', 'c/d/3.xml']) write(join('find', name), '<x/>');
    expect(findAknFiles(dir)).toEqual([join(dir, 'a/1.xml'), join(dir, 'b/2.xml.gz'), join(dir, 'c/d/3.xml')]);
  });
});
