/**
 * The real structure of an act's text (`src/sandbox/corpus/structure.ts`): the decree and adoption dates, synthetic
 * texts for each rule (their titles say they are test data), and the whole statutes file of `shared/corpus/` (read at
 * run time) rebuilt, with the payloads of `parliament-api/` as the official text to compare with.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { readActPayload } from '../../../src/sandbox/corpus/payload.js';
import type { CorpusDocument } from '../../../src/sandbox/corpus/reader.js';
import {
  adoptionDate,
  decreeDate,
  publishedAsOf,
  restructureStatute,
  structureActLines,
} from '../../../src/sandbox/corpus/structure.js';

const SHARED = fileURLToPath(new URL('../../../../shared/corpus/', import.meta.url));
const PAYLOAD_IDS = ['15565', '163477', '164632', '165829', '165848', '165936', '166496', '77744', '78098', '78179'];

function refs(elements: readonly { ref: string }[]): string[] {
  return elements.map((e) => e.ref);
}

/** `['§from', …, '§to']`. */
function paragraphs(from: number, to: number): string[] {
  return Array.from({ length: to - from + 1 }, (_, i) => `§${from + i}`);
}

describe('decreeDate', () => {
  it('reads the date of „Издаден в София на …“ with Bulgarian month names', () => {
    expect(decreeDate('Издаден в София на 27 юни 2025 г.')).toBe('2025-06-27');
    expect(decreeDate('ПОСТАНОВЯВАМ:\nДа се обнародва …\nИздаден в София на 1 август 2024 г.\nПрезидент …')).toBe('2024-08-01');
    expect(decreeDate('Издаден в София на 3 февруари 2014 г.')).toBe('2014-02-03');
    expect(decreeDate('Издаден в София на 21 ДЕКЕМВРИ 2009 г.')).toBe('2009-12-21');
    expect(decreeDate('Издаден  в  гр. София на 5 септември 2019 г.')).toBe('2019-09-05');
    expect(decreeDate('Издаден в София на 12.11.2013 г.')).toBe('2013-11-12');
  });

  it('is null without such a line or with no calendar date', () => {
    expect(decreeDate('Законът е приет от 51-вото Народно събрание на 20 юни 2025 г.')).toBeNull();
    expect(decreeDate('Издаден в София на 31 юни 2025 г.')).toBeNull();
    expect(decreeDate('Издаден в София на 3 мартт 2025 г.')).toBeNull();
    expect(decreeDate('')).toBeNull();
  });
});

describe('adoptionDate and publishedAsOf', () => {
  it('reads the last date of the adoption note', () => {
    expect(adoptionDate('§ 3. …\nЗаконът е приет от 51-вото Народно събрание на 20 юни 2025 г. и е подпечатан …')).toBe('2025-06-20');
    expect(adoptionDate('Законът е приет от 44-то Народно събрание на 24 януари 2019 г. и на 20 февруари 2019 г. и е подпечатан')).toBe(
      '2019-02-20',
    );
    expect(adoptionDate('Законът заедно с приложенията към него е приет от 42-то Народно събрание на 10 юли 2014 г.')).toBe('2014-07-10');
    expect(adoptionDate('Кодексът е приет от 43-то Народно събрание на 30 септември 2015 г.')).toBe('2015-09-30');
    expect(adoptionDate('… който Законът е приет от …')).toBeNull();
  });

  it('dates a text as published by its decree, else its adoption note, else the fallback', () => {
    const decreed = 'Издаден в София на 27 юни 2025 г.\n…\nЗаконът е приет от 51-вото Народно събрание на 20 юни 2025 г.';
    expect(publishedAsOf(decreed, '2024-12-31')).toBe('2025-06-27');
    expect(publishedAsOf('Законът е приет от 51-вото Народно събрание на 20 юни 2025 г.', '2024-12-31')).toBe('2025-06-20');
    expect(publishedAsOf('Чл. 1. Текст.', '2024-12-31')).toBe('2024-12-31');
    expect(publishedAsOf('Чл. 1. Текст.', 'not a date')).toBeNull();
    expect(publishedAsOf('Чл. 1. Текст.')).toBeNull();
  });
});

describe('structureActLines (synthetic texts, test data)', () => {
  const primary = [
    'УКАЗ № 1',
    'На основание чл. 98, т. 4 от Конституцията на Република България',
    'ПОСТАНОВЯВАМ:',
    'Да се обнародва в „Държавен вестник“ Законът за синтетичните тестови данни (тестови данни), приет от 99-ото Народно събрание на 2 март 2099 г.',
    'Издаден в София на 5 март 2099 г.',
    'Президент на Републиката: Тестово Име',
    'Подпечатан с държавния печат.',
    'Министър на правосъдието: Тестово Име',
    'ЗАКОН',
    'за синтетичните тестови данни (тестови данни)',
    'Глава първа',
    'ОБЩИ ПОЛОЖЕНИЯ',
    'Предмет',
    'Чл. 1. (1) Този закон урежда тестовите данни.',
    '(2) Данните не са истински.',
    'Чл. 2 . Тестовете се пускат често.',
    'Глава втора',
    'ТЕСТОВЕ',
    'Раздел I',
    'Общи правила',
    'Чл. 3. Тестът е синтетичен:',
    '1. първо;',
    '2. второ.',
    'ДОПЪЛНИТЕЛНИ РАЗПОРЕДБИ',
    '§ 1. По смисъла на този закон „тест“ е проверка.',
    'ПРЕХОДНИ И ЗАКЛЮЧИТЕЛНИ',
    'РАЗПОРЕДБИ',
    '§ 2. В Закона за примерите (обн., ДВ, бр. 1 от 2098 г.) се правят следните изменения:',
    '1. Създава се глава пета „а“ с чл. 40а и 40б:',
    '„Глава пета „а“',
    'Примерни правила',
    'Чл. 40а. Примерът е кратък.',
    'Чл. 40б. (1) Примерът е ясен.',
    '(2) Примерът е тестов.“',
    '2. Член 41 се изменя така:',
    '„Чл. 41. Примерите са синтетични „тестови“ данни.“',
    '§ 3 . Законът влиза в сила от деня на обнародването му.',
    'Законът е приет от 99-ото Народно събрание на 2 март 2099 г. и е подпечатан с официалния печат на Народното събрание.',
    'Председател на Народното събрание: Тестово Име',
    'Приложение № 1 към чл. 3',
    'Таблица',
    'Приложение № 2 към чл. 1',
    'Текст на приложението',
    '1234',
  ];

  it('drops the decree and title, gives articles, then §§, then annexes', () => {
    const elements = structureActLines(primary);
    expect(refs(elements)).toEqual(['1', '2', '3', '§1', '§2', '§3', 'прил1', 'прил2']);
    expect(elements.map((e) => e.text).join('\n')).not.toMatch(/УКАЗ|Издаден|ЗАКОН\n|Председател на Народното събрание|1234/u);
  });

  it('moves headings to the provision they open, joined by " / "', () => {
    const byRef = new Map(structureActLines(primary).map((e) => [e.ref, e]));
    expect(byRef.get('1')!.heading).toBe('Глава първа. ОБЩИ ПОЛОЖЕНИЯ / Предмет');
    expect(byRef.get('2')!.heading).toBeUndefined();
    expect(byRef.get('3')!.heading).toBe('Глава втора. ТЕСТОВЕ / Раздел I. Общи правила');
    expect(byRef.get('2')!.text).toBe('Чл. 2. Тестовете се пускат често.');
    expect(byRef.get('§1')!.heading).toBe('Допълнителни разпоредби');
    expect(byRef.get('§2')!.heading).toBe('Преходни и заключителни разпоредби');
    expect(byRef.get('3')!.text).toBe('Чл. 3. Тестът е синтетичен:\n1. първо;\n2. второ.');
  });

  it('keeps quoted articles and quoted headings in the text of their §, and the adoption note in the last §', () => {
    const byRef = new Map(structureActLines(primary).map((e) => [e.ref, e]));
    expect(byRef.get('§2')!.text).toContain('\n„Глава пета „а“\nПримерни правила\nЧл. 40а. Примерът е кратък.\nЧл. 40б. (1)');
    expect(byRef.get('§2')!.text).toContain('\n„Чл. 41. Примерите');
    expect(byRef.get('§3')!.text).toBe(
      '§ 3. Законът влиза в сила от деня на обнародването му.\nЗаконът е приет от 99-ото Народно събрание на 2 март 2099 г. и е подпечатан с официалния печат на Народното събрание.',
    );
    expect(byRef.get('прил1')).toEqual({ ref: 'прил1', label: 'Приложение № 1', text: 'Приложение № 1 към чл. 3\nТаблица' });
  });

  it('reads an amending act as its §§, a quoted „§“ and a quoted article numbered like the next staying text', () => {
    const elements = structureActLines([
      'ЗАКОН',
      'за изменение на Закона за примерите (тестови данни)',
      '(обн., ДВ, бр. 1 от 2098 г.)',
      '§ 1. Създава се чл. 2:',
      '„Чл. 2. Нов тестов текст.',
      '§ 2. Този ред е цитиран, защото кавичките не са затворени.“',
      '§ 2. В допълнителните разпоредби се създават § 5 и 6:',
      '„§ 5. Пети.',
      '§ 6. Шести.“',
      'Заключителна разпоредба',
      '§ 3. Законът влиза в сила от 1 януари 2100 г.',
    ]);
    expect(refs(elements)).toEqual(['§1', '§2', '§3']);
    expect(elements[0]!.text).toContain('§ 2. Този ред е цитиран');
    expect(elements[1]!.text).toBe('§ 2. В допълнителните разпоредби се създават § 5 и 6:\n„§ 5. Пети.\n§ 6. Шести.“');
    expect(elements[2]!.heading).toBe('Заключителна разпоредба');
  });

  it('reads a ratification with its sole article and a title broken over lines', () => {
    const elements = structureActLines([
      'ЗАКОН',
      'за ратифициране на Споразумението между',
      'Тестовата република и Примерното кралство (тестови данни)',
      'Член единствен. Ратифицира споразумението.',
      'Параграф единствен . Законът влиза в сила от деня на обнародването му.',
    ]);
    expect(elements).toEqual([
      { ref: 'единствен', label: 'Член единствен.', text: 'Член единствен. Ратифицира споразумението.' },
      { ref: '§единствен', label: 'Параграф единствен.', text: 'Параграф единствен. Законът влиза в сила от деня на обнародването му.' },
    ]);
  });

  it('keeps text that starts inside a quotation whose § is lost as one element `body` (statutes file)', () => {
    const lost = structureActLines([
      'Чл. 10б. Цитиран член без отварящите кавички (тестови данни).',
      'Чл. 10в. Още цитиран текст.“',
      '§ 8. В чл. 11 думата „а“ се заменя с „б“.',
      '§ 9. Член 12 се отменя.',
    ]);
    expect(refs(lost)).toEqual(['body', '§8', '§9']);
    expect(lost[0]).toEqual({ ref: 'body', label: 'Основен текст', text: 'Чл. 10б. Цитиран член без отварящите кавички (тестови данни).\nЧл. 10в. Още цитиран текст.“' });
    // `Чл. 1.` closing a quotation it never opened is quoted text too.
    expect(refs(structureActLines(['Чл. 1. Цитиран първи член.“', '§ 3. Членове 3 и 4 се отменят.']))).toEqual(['body', '§3']);
    expect(refs(structureActLines(['Чл. 1. Истински първи член.', 'Чл. 2. Втори.', '§ 1. Параграф.']))).toEqual(['1', '2', '§1']);
  });

  it("resumes after the statutes file's mark of a cut text at the next § whatever its number", () => {
    const cut = structureActLines([
      '§ 1. Първи.',
      '§ 2. Втори, отрязан: „Чл. 5. Дълъг цитиран',
      '[...truncated for storage...]',
      'Чл. 9. Цитиран текст от загубен параграф.“',
      '§ 7. Седми.',
      '§ 8. Осми.',
    ]);
    expect(refs(cut)).toEqual(['§1', '§2', '§7', '§8']);
    expect(cut[1]!.text).toContain('\n[...truncated for storage...]\n');
  });

  it('is empty for a text with nothing but a decree and title, and one `body` for a text with no provision', () => {
    expect(structureActLines(['УКАЗ № 1', 'Издаден в София на 5 март 2099 г.', 'ЗАКОН', 'за нищо (тестови данни)'])).toEqual([]);
    expect(structureActLines([])).toEqual([]);
    expect(refs(structureActLines(['Текст без разпоредби (тестови данни).']))).toEqual(['body']);
  });
});

describe('restructureStatute on the whole statutes file', () => {
  let statutes: CorpusDocument[];
  let rebuilt: CorpusDocument[];
  const byId = new Map<string, CorpusDocument>();

  beforeAll(() => {
    const text = gunzipSync(readFileSync(`${SHARED}bg-statutes.jsonl.gz`)).toString('utf8');
    statutes = text
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as CorpusDocument);
    rebuilt = statutes.map((doc) => restructureStatute(doc));
    for (const doc of rebuilt) byId.set(doc.document_id, doc);
  });

  it('rebuilds every document: no repeated ref, §§ numbered on, articles increasing, texts starting with labels', () => {
    expect(rebuilt).toHaveLength(1997);
    const skipping: string[] = [];
    for (const doc of rebuilt) {
      const docRefs = refs(doc.elements);
      expect(new Set(docRefs).size, doc.document_id).toBe(docRefs.length);
      expect(doc.consolidated).toBe(false);
      expect(doc.as_of, doc.document_id).toMatch(/^\d{4}-\d{2}-\d{2}$/u);
      const numbers = docRefs.filter((r) => /^§\d+$/u.test(r)).map((r) => Number(r.slice(1)));
      for (let i = 1; i < numbers.length; i++) {
        if (numbers[i] !== numbers[i - 1]! + 1 && !skipping.includes(doc.document_id)) skipping.push(doc.document_id);
        expect(numbers[i]! > numbers[i - 1]!, doc.document_id).toBe(true);
      }
      const articleNumbers = docRefs.filter((r) => /^\d+$/u.test(r)).map(Number);
      for (let i = 1; i < articleNumbers.length; i++) expect(articleNumbers[i], doc.document_id).toBe(articleNumbers[i - 1]! + 1);
      for (const e of doc.elements) {
        if (e.ref !== 'body') expect(e.text.startsWith(e.label), `${doc.document_id} ${e.ref}`).toBe(true);
        expect(e.text, `${doc.document_id} ${e.ref}`).not.toMatch(/^(?:УКАЗ №|ПОСТАНОВЯВАМ|Издаден в София на|Председател на Народното събрание:)/mu);
      }
    }
    // §§ lost where the statutes file cut a text (10 documents), and gaps in the numbering as printed (`§ 33.` then
    // `§ 36.`, `§ 72.` then `§ 77.`, `§ 18.` then `§ 20.`).
    expect(skipping).toHaveLength(13);
    for (const id of ['act-9648', 'act-10042', 'act-66460']) expect(skipping).toContain(id);
  });

  it('keeps the text: every line of the statutes file is in the rebuilt document, but the decree, title and signature', () => {
    const clean = (line: string): string => line.replace(/&ensp;/gu, ' ').replace(/\s+/gu, ' ').trim();
    for (const doc of statutes.filter((_, i) => i % 20 === 0)) {
      const after = new Set(restructureStatute(doc).elements.flatMap((e) => e.text.split('\n')));
      const before = doc.elements.flatMap((e) => e.text.split('\n')).map(clean);
      const firstProvision = before.findIndex((l) => /^(?:Чл\.|§|Член единствен|Параграф единствен)/u.test(l));
      const missing = before
        .slice(Math.max(0, firstProvision))
        .filter((l) => l !== '' && !after.has(l))
        .filter((l) => !/^(?:Чл\.|§|Параграф)/u.test(l)) // label lines, rewritten as their label
        .filter((l) => !/^Председател на Народното събрание|^\d+$/u.test(l)); // signature and State Gazette number
      // Heading lines moved to `heading` are the only others.
      const headings = new Set(restructureStatute(doc).elements.flatMap((e) => (e.heading ?? '').split(/ \/ |\. /u)));
      for (const line of missing) {
        expect(headings.has(line) || [...headings].some((h) => h.toLowerCase().includes(line.toLowerCase())), `${doc.document_id}: ${line}`).toBe(true);
      }
    }
  });

  it('yields the ref sequence of the official payload, but where the statutes file lost text', () => {
    for (const id of PAYLOAD_IDS) {
      const official = readActPayload(JSON.parse(readFileSync(`${SHARED}parliament-api/${id}.json`, 'utf8')) as unknown);
      const statute = byId.get(`act-${id}`)!;
      // The metadata is the statutes file's.
      const statuteFields = statutes.find((d) => d.document_id === `act-${id}`)!;
      for (const field of ['document_id', 'source_type', 'type', 'title', 'date', 'in_force_date', 'author', 'url', 'signature'] as const) {
        expect(official[field], `act-${id} ${field}`).toEqual(statuteFields[field]);
      }
      const expected = refs(official.elements);
      if (id === '78179') {
        // The statutes file starts at `Чл. 10б.`, the second article quoted in § 7 (§§ 1–7 before it are lost, so
        // its start is text of a lost § — `body`), and its element `87` is cut at 45,030 characters inside § 67
        // (§§ 68–122 are lost).
        expect(refs(statute.elements)).toEqual(['body', ...paragraphs(8, 67)]);
        expect(statute.elements[0]!.text).toMatch(/^Чл\. 10б\. /u);
        expect(statute.elements.at(-1)!.text).toMatch(/\n\[\.\.\.truncated for storage\.\.\.\]$/u);
      } else if (id === '166496') {
        // The statutes file starts at `Чл. 49г.`, quoted in § 9 without an opening „ of its own: §§ 1–8 and the
        // opening of § 9 are lost, the rest of § 9 is `body`.
        expect(refs(statute.elements)).toEqual(['body', ...paragraphs(10, 23)]);
        expect(expected).toEqual(paragraphs(1, 23));
      } else if (id === '165848') {
        // The statutes file's last element is cut at 45,030 characters inside annex 3: annexes 4 and 5 are lost.
        expect(refs(statute.elements)).toEqual(expected.filter((r) => r !== 'прил4' && r !== 'прил5'));
      } else {
        expect(refs(statute.elements), `act-${id}`).toEqual(expected);
      }
      // Where both have the element, the text is the same but for the spaces the statutes file put between runs of
      // the HTML (`осигу ряване`, `§ 8 1 :` for a superscript): compare without spaces.
      const statuteText = new Map(statute.elements.map((e) => [e.ref, e.text.replace(/\s+/gu, '')]));
      let same = 0;
      for (const e of official.elements) {
        const other = statuteText.get(e.ref);
        if (other !== undefined && e.ref !== 'body' && other === e.text.replace(/\s+/gu, '')) same++;
      }
      const shared = official.elements.filter((e) => statuteText.has(e.ref) && !statute.elements.find((s) => s.ref === e.ref)!.text.includes('[...truncated')).length;
      expect(same, `act-${id}`).toBe(shared);
    }
  });

  it('dates a rebuilt text by its decree when the statutes file kept it, else by its adoption note', () => {
    // act-165936 lost its decree in the statutes file: the adoption note's date (20 June 2025), a week before the
    // decree of 27 June 2025 that the official payload gives.
    expect(byId.get('act-165936')!.as_of).toBe('2025-06-20');
    const withDecree = statutes.find((d) => d.elements[0]!.ref === 'body' && /Издаден в София на/u.test(d.elements[0]!.text))!;
    expect(byId.get(withDecree.document_id)!.as_of).toBe(decreeDate(withDecree.elements[0]!.text));
  });
});
