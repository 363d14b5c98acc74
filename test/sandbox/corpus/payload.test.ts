/**
 * The National Assembly's act payloads (`src/sandbox/corpus/payload.ts`): the ten real payloads of
 * `shared/corpus/parliament-api/` read at run time as documents in their real structure (articles, then §§, then
 * annexes), the HTML made into lines, and the errors of a payload that cannot be read (synthetic payloads, their
 * titles say they are test data). The comparison with the statutes file is in `structure.test.ts`.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { htmlToLines, PayloadError, readActPayload, actType } from '../../../src/sandbox/corpus/payload.js';
import type { CorpusDocument } from '../../../src/sandbox/corpus/reader.js';

const PAYLOADS = fileURLToPath(new URL('../../../../shared/corpus/parliament-api/', import.meta.url));
const IDS = ['15565', '163477', '164632', '165829', '165848', '165936', '166496', '77744', '78098', '78179'];

function rawPayload(id: string): Record<string, unknown> {
  return JSON.parse(readFileSync(`${PAYLOADS}${id}.json`, 'utf8')) as Record<string, unknown>;
}

const documents = new Map<string, CorpusDocument>(IDS.map((id) => [id, readActPayload(rawPayload(id))]));

function payload(id: string): CorpusDocument {
  return documents.get(id)!;
}

function refs(id: string): string[] {
  return payload(id).elements.map((e) => e.ref);
}

/** `['1', …, 'n']`. */
function articles(n: number): string[] {
  return Array.from({ length: n }, (_, i) => String(i + 1));
}

/** `['§1', …, '§n']`. */
function paragraphs(n: number): string[] {
  return Array.from({ length: n }, (_, i) => `§${i + 1}`);
}

function element(id: string, ref: string) {
  const found = payload(id).elements.find((e) => e.ref === ref);
  if (!found) throw new Error(`act-${id} has no element ${ref}`);
  return found;
}

describe('readActPayload on the real payloads', () => {
  it('reads the Закон за пазарите на криптоактиви as its 47 articles, then §§ 1–25, quoted articles staying in their §', () => {
    expect(refs('165936')).toEqual([...articles(47), ...paragraphs(25)]);
    // Чл. 587б. is an article of the Кодекс за застраховането that § 16 creates, quoted after „Глава десета „а“.
    expect(refs('165936')).not.toContain('587б');
    expect(element('165936', '§16').text).toMatch(/^Чл\. 587б\. /mu);
    expect(element('165936', '§9').text).toContain('„Глава десета „а“');
    expect(element('165936', '§1').heading).toContain('разпоредби');
    expect(element('165936', '§1').heading).toBe('Допълнителни разпоредби');
    expect(element('165936', '§3').heading).toBe('Преходни и заключителни разпоредби');
    expect(element('165936', '1').heading).toBe('Глава първа. ОБЩИ ПОЛОЖЕНИЯ');
    expect(element('165936', '6').heading).toMatch(/^Глава трета\. ТОКЕНИ, ОБЕЗПЕЧЕНИ С АКТИВИ \/ Раздел I\. Издаване/u);
  });

  it('drops the decree, the title, the chairman and the State Gazette number, and keeps the adoption note last', () => {
    const doc = payload('165936');
    const all = doc.elements.map((e) => e.text).join('\n');
    expect(all).not.toMatch(/УКАЗ|ПОСТАНОВЯВАМ|Издаден в София|Президент на Републиката|Председател на Народното събрание/u);
    expect(doc.elements[0]!.text).toMatch(/^Чл\. 1\. \(1\) Този закон урежда/u);
    const last = doc.elements.at(-1)!;
    expect(last.ref).toBe('§25');
    expect(last.text).toMatch(/\nЗаконът е приет от 51-вото Народно събрание на 20 юни 2025 г\.[^\n]*$/u);
  });

  it('gives every element a text starting with its label, and the article labels as the statutes file writes them', () => {
    for (const id of IDS) {
      for (const e of payload(id).elements) {
        expect(e.text.startsWith(e.label), `act-${id} ${e.ref}`).toBe(true);
        if (/^\d+$/u.test(e.ref)) expect(e.label).toBe(`Чл. ${e.ref}.`);
        if (e.ref.startsWith('§')) expect(e.label).toBe(`§ ${e.ref.slice(1)}.`);
      }
    }
  });

  it('reads an amending act that quotes whole chapters as its §§ only (act-78179: §§ 1–122)', () => {
    expect(refs('78179')).toEqual(paragraphs(122));
    // § 7 creates чл. 10а – 10г: the later three are printed without an opening „ of their own.
    expect(element('78179', '§7').text).toMatch(/^Чл\. 10б\. /mu);
    expect(element('78179', '§41').text).toMatch(/^Раздел III$/mu);
    expect(element('78179', '§1').heading).toBeUndefined();
    expect(element('78179', '§44').heading).toBe('Преходни и заключителни разпоредби');
  });

  it('reads the articles of the primary acts, then their §§, with no quoted article as an element of its own', () => {
    // Article and § counts as printed in the official texts (the last `Чл.` before „ДОПЪЛНИТЕЛНИ РАЗПОРЕДБИ“).
    expect(refs('163477')).toEqual([...articles(75), ...paragraphs(11)]);
    expect(element('163477', '§8').text).toMatch(/^„Чл\. 103а\. /mu);
    expect(refs('165829')).toEqual([...articles(59), ...paragraphs(17)]);
    expect(refs('165829')).not.toContain('53а');
    expect(element('165829', '§13').text).toMatch(/^Чл\. 53а\. /mu);
    expect(refs('78098')).toEqual([...articles(31), ...paragraphs(14), 'прил1', 'прил2']);
    expect(refs('15565')).toEqual([...articles(50), ...paragraphs(6)]);
    expect(element('15565', '§5').text).toMatch(/^Чл\. 24\. /mu);
    expect(refs('77744')).toEqual([...articles(105), ...paragraphs(12)]);
    expect(refs('164632')).toEqual([...articles(47), ...paragraphs(10), 'прил']);
    expect(refs('165848')).toEqual([...articles(92), ...paragraphs(9), 'прил1', 'прил2', 'прил3', 'прил4', 'прил5']);
    expect(refs('166496')).toEqual(paragraphs(23));
  });

  it("puts an article's own title and the chapter above it in its heading", () => {
    expect(element('78098', '1').heading).toBe('Глава първа. ОБЩИ ПОЛОЖЕНИЯ / Предмет');
    expect(element('78098', '12').heading).toBe('Председател на Държавна агенция „Електронно управление“');
    expect(element('78098', '11').text).not.toContain('Председател на Държавна агенция');
    expect(element('15565', '43').heading).toBe(
      'Глава девета. ПРИНУДИТЕЛНИ АДМИНИСТРАТИВНИ МЕРКИ И АДМИНИСТРАТИВНОНАКАЗАТЕЛНА ОТГОВОРНОСТ / Раздел I. Принудителни административни мерки / Принудителни административни мерки',
    );
  });

  it('makes the annexes printed after the adoption note elements of their own', () => {
    const annex = element('78098', 'прил1');
    expect(annex.label).toBe('Приложение № 1');
    expect(annex.text).toMatch(/^Приложение № 1 към чл\. 4, ал\. 1, т\. 2\n/u);
    expect(element('78098', '§14').text).toMatch(/Законът е приет от 44-то Народно събрание на 31 октомври 2018 г\./u);
    expect(element('78098', '§14').text).not.toContain('Приложение № 1');
    expect(element('78098', 'прил2').text).not.toMatch(/\n\d+$/u);
    expect(element('164632', 'прил').label).toBe('Приложение');
  });

  it('gives the metadata in the statutes file form, the as_of the decree date', () => {
    const doc = payload('165936');
    expect({ ...doc, elements: doc.elements.length }).toEqual({
      document_id: 'act-165936',
      source_type: 'bulgarian_laws_regulations',
      type: 'Закон',
      title: 'Закон за пазарите на криптоактиви',
      date: '2024-12-31',
      in_force_date: '2025-06-20',
      as_of: '2025-06-27',
      consolidated: false,
      author: 'Народно събрание на Република България',
      url: 'https://www.parliament.bg/bg/laws/ID/165936',
      signature: '51-402-01-31',
      elements: 72,
    });
    // Adopted at two sittings (24 January and 20 February 2019), promulgated by the decree of 21 February 2019.
    expect(payload('78179').as_of).toBe('2019-02-21');
    expect(payload('78179').in_force_date).toBe('2019-02-20');
    for (const id of IDS) {
      const doc = payload(id);
      expect(doc.as_of! >= doc.in_force_date!, `act-${id}: decreed on or after the final adoption`).toBe(true);
    }
  });
});

describe('readActPayload errors (synthetic payloads)', () => {
  const synthetic = {
    L_Act_id: 999001,
    L_ActL_final: 'Закон за синтетичните тестови данни (тестови данни, не е истински акт)',
    L_Act_date: '2025-01-02 00:00:00',
    L_Act_date2: '2025-01-03 00:00:00',
    L_Act_sign: '00-000-00-00',
    L_ActL_final_body: '<p>ЗАКОН<br/>за синтетичните тестови данни</p><p><b>Чл. 1.</b> Тестов текст.</p>',
  };

  it('reads a minimal synthetic payload', () => {
    const doc = readActPayload(synthetic);
    expect(doc.document_id).toBe('act-999001');
    expect(doc.elements).toEqual([{ ref: '1', label: 'Чл. 1.', text: 'Чл. 1. Тестов текст.' }]);
    // No decree, no adoption note: as_of is the source's final adoption date.
    expect(doc.as_of).toBe('2025-01-03');
  });

  it('throws a PayloadError naming L_ActL_final_body when the text is missing', () => {
    const { L_ActL_final_body: _omitted, ...missing } = synthetic;
    expect(() => readActPayload(missing)).toThrow(PayloadError);
    expect(() => readActPayload(missing)).toThrow(/"L_ActL_final_body"/u);
    try {
      readActPayload(missing);
    } catch (error) {
      expect((error as PayloadError).field).toBe('L_ActL_final_body');
      expect((error as PayloadError).name).toBe('PayloadError');
    }
  });

  it('throws a PayloadError naming the field for each other invalid field', () => {
    expect(() => readActPayload(null)).toThrow(/JSON object/u);
    expect(() => readActPayload([synthetic])).toThrow(PayloadError);
    expect(() => readActPayload({ ...synthetic, L_Act_id: 'abc' })).toThrow(/"L_Act_id"/u);
    expect(() => readActPayload({ ...synthetic, L_Act_id: -4 })).toThrow(/"L_Act_id"/u);
    expect(() => readActPayload({ ...synthetic, L_ActL_final: '  ' })).toThrow(/"L_ActL_final"/u);
    expect(() => readActPayload({ ...synthetic, L_Act_date: '0000-00-00' })).toThrow(/"L_Act_date"/u);
    expect(() => readActPayload({ ...synthetic, L_Act_sign: 12 })).toThrow(/"L_Act_sign"/u);
    expect(() => readActPayload({ ...synthetic, L_ActL_final_body: '<p>ЗАКОН</p><p>за синтетичните тестови данни</p>' })).toThrow(
      /"L_ActL_final_body" holds no text/u,
    );
  });

  it('accepts an id given as a digit string', () => {
    expect(readActPayload({ ...synthetic, L_Act_id: '999002' }).document_id).toBe('act-999002');
  });
});

describe('htmlToLines', () => {
  it('breaks lines at blocks and <br>, decodes entities, drops comments, styles and MSO blocks, normalises spaces', () => {
    const html =
      '<!--[if gte mso 9]><xml> Normal </xml><![endif]--><!--[if gte mso 10]>\n<style>p {x:y}</style>\n<![endif]-->' +
      '<style>table.MsoNormalTable {font-size:10pt}</style>' +
      '<p align="center"><b><span>ЗАКОН<br />\nза тест&shy;овете</span></b></p>' +
      '<p style="text-indent:14pt"><b><span>Чл. 1. </span></b><span>Текст&nbsp;&nbsp; с &bdquo;кавички&ldquo;&nbsp;</span><span>и&nbsp;&sect; 2.</span></p>' +
      '<div>ос</div><div><span>игу</span><span>ряване</span></div>' +
      '<table><tr><td>Клетка</td><td>2</td></tr><tr><td><p>а</p></td></tr></table>' +
      '<![if !supportLists]><span>1.</span><![endif]><p>   </p>';
    expect(htmlToLines(html)).toEqual([
      'ЗАКОН',
      'за тестовете',
      'Чл. 1. Текст с „кавички“ и § 2.',
      'ос',
      'игуряване',
      'Клетка 2',
      'а',
      '1.',
    ]);
  });
});

describe('htmlToLines: any depth, linear', () => {
  /** Nesting deep enough that a reader quadratic in the depth would not finish in time (160,000 took 40 s before). */
  const DEPTH = 200_000;

  it('reads a text inside 200,000 nested <div>, and one after 200,000 unclosed <span> and stray end tags', () => {
    expect(htmlToLines(`${'<div>'.repeat(DEPTH)}Тестов текст.${'</div>'.repeat(DEPTH)}<p>Втори тестов ред.</p>`)).toEqual([
      'Тестов текст.',
      'Втори тестов ред.',
    ]);
    expect(htmlToLines(`<p>${'<span>'.repeat(DEPTH)}Тестов ${'</b>'.repeat(DEPTH)}текст.</p>`)).toEqual(['Тестов текст.']);
  });

  it('reads a synthetic payload whose article is inside 200,000 nested <div>', () => {
    const body = `<p>ЗАКОН<br/>за синтетичните тестови данни</p>${'<div>'.repeat(DEPTH)}<p><b>Чл. 1.</b> Тестов текст.</p>${'</div>'.repeat(DEPTH)}`;
    const doc = readActPayload({
      L_Act_id: 999003,
      L_ActL_final: 'Закон за синтетичните тестови данни (тестови данни, не е истински акт)',
      L_Act_date: '2025-01-02 00:00:00',
      L_ActL_final_body: body,
    });
    expect(doc.elements).toEqual([{ ref: '1', label: 'Чл. 1.', text: 'Чл. 1. Тестов текст.' }]);
  });

  it('ends elements as HTML does: implied end tags, void elements, </p> and </br> alone, <body> after an open <head>', () => {
    expect(htmlToLines('<head><title>Тестово заглавие</title><body>Тестов текст')).toEqual(['Тестов текст']);
    expect(htmlToLines('<p>първи<p>втори<div>трети</p>четвърти')).toEqual(['първи', 'втори', 'трети', 'четвърти']);
    expect(htmlToLines('<table><tr><td>а<td>б<tr><th>в</table>')).toEqual(['а б', 'в']);
    expect(htmlToLines('едно</p>две</br>три<hr>четири<img src="x">пет<style>скрит</style>')).toEqual(['едно', 'две', 'три', 'четирипет']);
  });
});

describe('actType', () => {
  it('reads the type from the title as the statutes file gives it', () => {
    expect(actType('Закон за пазарите на криптоактиви')).toBe('Закон');
    expect(actType('Законо за допълнение на Закона за енергетиката')).toBe('Закон');
    expect(actType('Изборен кодекс')).toBe('Кодекс');
    expect(actType('Кодекс за застраховането')).toBe('Кодекс');
    expect(actType('Решение за синтетичните тестови данни')).toBe('Решение');
  });
});
