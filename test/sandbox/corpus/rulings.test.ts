/**
 * The rulings of the Constitutional Court on the corpus's acts (`src/sandbox/corpus/rulings.ts`): the editorial notes
 * of an act's text, the operative part of a decision, and the two tied to elements and compared. Synthetic texts (the
 * acts are made up and their titles say ТЕСТОВИ ДАННИ; the words are the patterns the real texts use, not legal text),
 * and the real corpus read at run time from `../shared/corpus/` (never copied here), skipped without it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { collectionOf } from '../../../src/sandbox/catalog-rules.js';
import { collectCorpus } from '../../../src/sandbox/corpus/collect.js';
import { resolveCorpusInputs } from '../../../src/sandbox/corpus/inputs.js';
import { splitProvisionLines } from '../../../src/sandbox/corpus/provision-lines.js';
import type { CorpusDocument } from '../../../src/sandbox/corpus/reader.js';
import {
  defaultActResolver,
  linkRulings,
  operativeRulingsOf,
  partKey,
  rulingNotesOf,
  type RulingsReport,
} from '../../../src/sandbox/corpus/rulings.js';
import type { RulingEntry } from '../../../src/sandbox/corpus/case-law.js';
import { haveSharedCorpus, SHARED_CORPUS } from '../real-index.js';

/** `number/year part [later]` of every note of `text`. */
function notes(text: string): string[] {
  return rulingNotesOf(text).map((n) => `${n.decision_number}/${n.decision_year} ${n.part?.text ?? 'whole'}${n.later_amended ? ' [later]' : ''}`);
}

const collection = (d: CorpusDocument): string => d.collection ?? collectionOf(d.source_type);

describe('rulingNotesOf: where the note stands tells the part', () => {
  it('reads a note after „2.“ inside ал. 2 as ал. 2, т. 2, whatever notes stand before', () => {
    const text = [
      '(1) Първа алинея:',
      '1. първа точка;',
      '2. втора точка.',
      '(2) (Изм. - ДВ, бр. 74 от 2015 г.) Не се изключват по давност:',
      '1. първа точка;',
      '2. (обявена за противоконституционна с РКС № 12 от 2016 г. - ДВ, бр. 83 от 2016 г.) тежки престъпления по глава втора.',
    ].join('\n');
    expect(notes(text)).toEqual(['12/2016 ал. 2, т. 2']);
    const [note] = rulingNotesOf(text);
    expect(note).toMatchObject({ scope: 'part', part: { paragraph: '2', point: '2' }, later_amended: false });
    expect(note!.note).toBe('(обявена за противоконституционна с РКС № 12 от 2016 г. - ДВ, бр. 83 от 2016 г.)');
  });

  it('reads the same from a text printed inline, once its provisions are one a line (as the index stores it)', () => {
    const inline =
      '(1) Първа алинея. (2) (Изм. - ДВ, бр. 74 от 2015 г.) Не се изключват по давност: 1. първа точка; 2. (обявена за противоконституционна с РКС № 12 от 2016 г. - ДВ, бр. 83 от 2016 г.) тежки престъпления.';
    expect(notes(splitProvisionLines(inline))).toEqual(['12/2016 ал. 2, т. 2']);
  });

  it('reads a note right after „(3)“ as ал. 3, and one opening the text before „(1)“ as the whole article', () => {
    expect(notes('(1) Текст.\n(2) Текст.\n(3) (Нова - ДВ, бр. 106 от 2023 г., обявена за противоконституционна с РКС № 13 от 2024 г. - ДВ, бр. 66 от 2024 г.) Текст.')).toEqual([
      '13/2024 ал. 3',
    ]);
    const whole = '(Нов - ДВ, бр. 106 от 2023 г., обявен за противоконституционен с РКС № 13 от 2024 г. - ДВ, бр. 66 от 2024 г.) (1) Текст.\n(2) Текст.';
    expect(notes(whole)).toEqual(['13/2024 whole']);
    expect(rulingNotesOf(whole)[0]).toMatchObject({ scope: 'whole', part: null });
    // A note before „(1)“ after another note: still the article's; one after „(1)“ is ал. 1's.
    expect(notes('(Изм. - ДВ, бр. 95 от 1975 г.) (1) (Изм. - ДВ, бр. 92 от 2002 г., обявена за противоконституционна с РКС № 13 от 2022 г. - ДВ, бр. 79 от 2022 г.) Текст.')).toEqual([
      '13/2022 ал. 1',
    ]);
  });

  it('reads a note on a letter inside a point: т. 2, б. „к“', () => {
    const text = [
      '(Доп. - ДВ, бр. 43 от 2002 г.) Прилагат се следните мерки:',
      '1. първа мярка:',
      'а) първа буква;',
      'б) втора буква;',
      '2. втора мярка:',
      'а) първа буква;',
      'к) (нова - ДВ, бр. 101 от 2016 г., обявена за противоконституционна с РКС № 3 от 2021 г. - ДВ, бр. 26 от 2021 г.) на собственик.',
    ].join('\n');
    expect(notes(text)).toEqual(['3/2021 т. 2, б. „к“']);
    expect(rulingNotesOf(text)[0]!.part).toMatchObject({ point: '2', letter: 'к' });
  });

  it('reads the whole of a § element', () => {
    expect(notes('(Обявен за противоконституционен с РКС № 11 от 2021 г. - ДВ, бр. 84 от 2021 г.) На превозните средства от категория ТЕСТ.')).toEqual([
      '11/2021 whole',
    ]);
  });
});

describe('rulingNotesOf: what the note narrows the part to', () => {
  it('reads quoted words: „в частта "закрито заседание"“, „в частта относно думата "съществен"“', () => {
    const text = '(1) Текст.\n(2) (Обявена за противоконституционна в частта "закрито заседание" с РКС № 5 от 2019 г. - ДВ, бр. 36 от 2019 г.) Текст.';
    expect(notes(text)).toEqual(['5/2019 ал. 2, в частта „закрито заседание“']);
    expect(rulingNotesOf(text)[0]!.part).toMatchObject({ paragraph: '2', words: 'закрито заседание' });
    expect(rulingNotesOf('(1) (Обявена за противоконституционна в частта относно думата "съществен" с РКС № 4 от 2009 г. - ДВ, бр. 47 от 2009 г.) Текст.')[0]!.part).toMatchObject({
      paragraph: '1',
      words: 'съществен',
    });
  });

  it('reads a sentence (изр. второ) and a proposition (предл. второ) as numbers', () => {
    const sentence = '(1) Текст.\n(2) (Доп. - ДВ, бр. 110 от 2020 г., обявена за противоконституционна в частта относно изр. второ с РКС № 13 от 2021 г. - ДВ, бр. 85 от 2021 г.) Първо. Второ.';
    expect(notes(sentence)).toEqual(['13/2021 ал. 2, изр. второ']);
    expect(rulingNotesOf(sentence)[0]!.part).toMatchObject({ paragraph: '2', sentence: '2' });
    const proposition = '(1) (Изм. - ДВ, бр. 51 от 2007 г., обявена за противоконституционна в частта относно предл. второ с РКС № 11 от 2021 г. - ДВ, бр. 84 от 2021 г.) Текст.';
    expect(rulingNotesOf(proposition)[0]!.part).toMatchObject({ paragraph: '1', proposition: '2', text: 'ал. 1, предл. второ' });
  });

  it('keeps a part described in words („в частта, в която е предвидено, че …“) as its text', () => {
    const text = '(Нов - ДВ, бр. 60 от 1992 г., обявен за противоконституционен в частта, в която е предвидено, че завещанието няма действие, с РКС № 4 от 1996 г. - ДВ, бр. 21 от 1996 г.) Текст.';
    const [note] = rulingNotesOf(text);
    expect(note).toMatchObject({ decision_number: '4', decision_year: '1996', scope: 'part' });
    expect(note!.part).toEqual({ text: 'в частта, в която е предвидено, че завещанието няма действие,' });
  });

  it('reads the decision written out („Решение № 13 на Конституционния съд от 2021 г.“) and the struck amendment („доп. от ДВ … е обявено“)', () => {
    expect(notes('(1) Текст.\n(2) (Обявена за противоконституционна с Решение № 13 на Конституционния съд от 2021 г. - ДВ, бр. 85 от 2021 г.) Текст.')).toEqual([
      '13/2021 ал. 2',
    ]);
    expect(notes('(1) (Доп. - ДВ, бр. 13 от 2010 г., доп. от ДВ, бр. 13 от 2010 г. е обявено за противоконституционно с РКС № 15 от 2010 г. - ДВ, бр. 5 от 2011 г.) Текст.')).toEqual([
      '15/2010 ал. 1, доп. от ДВ, бр. 13 от 2010 г.',
    ]);
  });

  it('sets later_amended when the note records a change after the ruling, not before it', () => {
    expect(notes('(1) Текст.\n(5) (Нова - ДВ, бр. 67 от 2023 г., обявена за противоконституционна с РКС № 8 от 2025 г. - ДВ, бр. 60 от 2025 г., нова - ДВ, бр. 32 от 2026 г.) Текст.')).toEqual([
      '8/2025 ал. 5 [later]',
    ]);
    expect(notes('(1) Текст.\n(3) (Нова - ДВ, бр. 95 от 2016 г., изм. - ДВ, бр. 5 от 2017 г., обявена за противоконституционна с РКС № 7 от 2025 г. - ДВ, бр. 50 от 2025 г.) Текст.')).toEqual([
      '7/2025 ал. 3',
    ]);
  });

  it('reads no ruling where none is recorded: the promulgation history, a word in the text, a text without „онституцион“', () => {
    expect(
      notes(
        '§ 9. В Закона за синтетичните фарове ТЕСТОВИ ДАННИ (обн., ДВ, бр. 12 от 2009 г.; Решение № 13 на Конституционния съд от 2021 г. – бр. 85 от 2021 г.; изм., бр. 32 от 2022 г.) се правят следните изменения:',
      ),
    ).toEqual([]);
    expect(notes('4. влязло в сила решение на Конституционния съд, с което партията е обявена за противоконституционна;')).toEqual([]);
    expect(notes('(Изм. - ДВ, бр. 5 от 2020 г.) Текст.')).toEqual([]);
  });
});

/** A synthetic КС decision: its paragraphs in order. */
function decision(number: string, date: string, paragraphs: string[], caseNumber = '1/2020'): CorpusDocument {
  return {
    document_id: `ks-${date.slice(0, 4)}-${number}-${caseNumber.replace('/', '-')}`,
    source_type: 'high_courts_cases',
    type: 'Решение',
    title: `Решение № ${number} от ${date} г. по к. д. № ${caseNumber} г., КС – ТЕСТОВИ ДАННИ`,
    date,
    court_id: 0,
    court: 'Конституционен съд',
    decision_number: number,
    case_number: caseNumber,
    elements: paragraphs.map((text, i) => ({ ref: String(i + 1), label: `¶ ${i + 1}`, text })),
  };
}

/** `act | ref | part` of every ruling of the decision's operative part, and its paragraph index. */
function rulingsOf(paragraphs: string[]): string[] {
  return operativeRulingsOf(decision('1', '2020-01-01', paragraphs)).map((r) => `${r.excerpt} ${r.act} | ${r.ref} | ${r.part?.text ?? 'whole'}`);
}

const REASONS = 'Съдът намира, че разпоредбата на чл. 9 от Закона за синтетичните фарове следва да бъде обявена за противоконституционна. Обявява за противоконституционна разпоредбата на чл. 8 от Закона за синтетичните фарове.';

describe('operativeRulingsOf: the operative part only', () => {
  it('reads „Обявява за противоконституционна разпоредбата на чл. 2, ал. 2, т. 2 от Закона …“, not the reasons before „Р Е Ш И:“', () => {
    const paragraphs = [REASONS, 'Р Е Ш И:', 'Обявява за противоконституционна разпоредбата на чл. 2, ал. 2, т. 2 от Закона за синтетичните фарове за 2003 г.'];
    expect(rulingsOf(paragraphs)).toEqual(['2 Закона за синтетичните фарове за 2003 г. | 2 | ал. 2, т. 2']);
    expect(operativeRulingsOf(decision('1', '2020-01-01', paragraphs))[0]!.part).toEqual({ text: 'ал. 2, т. 2', paragraph: '2', point: '2' });
  });

  it('reads an article and §§ of another act in one disposition, each with its act and that act’s promulgation', () => {
    const paragraphs = [
      'РЕШИ:',
      'ОБЯВЯВА за противоконституционни чл. 79, ал. 2, т. 2 от Кодекса за синтетичните фарове (обн., ДВ, бр. 26 от 2.04.1968 г.; посл. доп., бр. 47 от 21.06.2016 г.) и § 35 и § 36 от преходните и заключителните разпоредби на Закона за изменение и допълнение на Кодекса за синтетичните фарове (ДВ, бр. 74 от 26.09.2015 г.). Решението е подписано с особено мнение от съдия Тестов.',
    ];
    expect(rulingsOf(paragraphs)).toEqual([
      '1 Кодекса за синтетичните фарове | 79 | ал. 2, т. 2',
      '1 Закона за изменение и допълнение на Кодекса за синтетичните фарове | §35 | whole',
      '1 Закона за изменение и допълнение на Кодекса за синтетичните фарове | §36 | whole',
    ]);
    const rulings = operativeRulingsOf(decision('1', '2020-01-01', paragraphs));
    expect(rulings[0]!.gazette).toEqual({ issue: '26', year: '1968', date: '1968-04-02' });
    expect(rulings[1]).toMatchObject({ section: '35', article: null, gazette: { issue: '74', year: '2015', date: '2015-09-26' } });
  });

  it('reads the numbered list after „Обявява за противоконституционни:“ up to the next disposition', () => {
    const paragraphs = [
      'Р Е Ш И:',
      'Обявява за противоконституционни:',
      'Член 36, 36а и 36б от Закона за синтетичните фарове в актуалната им редакция.',
      'Параграф 40 от Закона за изменение и допълнение на Закона за синтетичните фарове (ДВ, бр. 29 от 2004 г.) в частта му, с която се създава нова ал. 7 на чл. 125а. Отхвърля искането за § 41 от същия закон.',
      'Отхвърля искането за обявяване за противоконституционен на § 64 от Закона за изменение и допълнение на Закона за синтетичните фарове (ДВ, бр. 29 от 2004 г.).',
      'Председател: Тест Тестов',
    ];
    expect(rulingsOf(paragraphs)).toEqual([
      '2 Закона за синтетичните фарове | 36 | whole',
      '2 Закона за синтетичните фарове | 36а | whole',
      '2 Закона за синтетичните фарове | 36б | whole',
      '3 Закона за изменение и допълнение на Закона за синтетичните фарове | §40 | в частта му, с която се създава нова ал. 7 на чл. 125а',
    ]);
  });

  it('reads „в частта „…““ after the act and its promulgation, and parts of several provisions of one act named at the end', () => {
    expect(
      rulingsOf([
        'РЕШИ:',
        '3. Обявява за противоконституционни чл. 224, ал. 1 от Кодекса за синтетичните фарове (§ 11 от Закона за изменение и допълнение на Кодекса за синтетичните фарове – ДВ, бр. 58 от 2010 г.) в частта „за текущата календарна година“. 4. Обявява несъответствие на чл. 224, ал. 1 от Кодекса за синтетичните фарове с чл. 6 от Конвенцията за синтетичните фарове.',
      ]),
    ).toEqual(['1 Кодекса за синтетичните фарове | 224 | ал. 1, в частта „за текущата календарна година“']);
    const rulings = operativeRulingsOf(
      decision('1', '2020-01-01', [
        'Р Е Ш И:',
        'Обявява за противоконституционни разпоредбите на чл. 234г, ал. 3 в частта „независимо чия собственост е“, на чл. 242, ал. 8 в частта „и когато не е собственост на дееца“ и на чл. 280, ал. 5 в цялост от Кодекса за синтетичните фарове (обн., ДВ, бр. 26 от 1968 г.).',
      ]),
    );
    expect(rulings.map((r) => `${r.act} | ${r.ref} | ${r.part?.text}`)).toEqual([
      'Кодекса за синтетичните фарове | 234г | ал. 3, в частта „независимо чия собственост е“',
      'Кодекса за синтетичните фарове | 242 | ал. 8, в частта „и когато не е собственост на дееца“',
      'Кодекса за синтетичните фарове | 280 | ал. 5',
    ]);
    expect(rulings[0]!.part).toMatchObject({ paragraph: '3', words: 'независимо чия собственост е' });
  });

  it('reads a list numbered inside one paragraph up to a numbered rejection, and „от същия закон“ as the act before', () => {
    expect(
      rulingsOf([
        'Р Е Ш И:',
        'Обявява за противоконституционни разпоредбите на: 1. чл. 5 от Закона за синтетичните фарове; 2. чл. 6, ал. 1 от Закона за синтетичните фарове и чл. 8 от същия закон. 3. Отхвърля искането за чл. 7 от Закона за синтетичните фарове.',
      ]),
    ).toEqual([
      '1 Закона за синтетичните фарове | 5 | whole',
      '1 Закона за синтетичните фарове | 6 | ал. 1',
      '1 Закона за синтетичните фарове | 8 | whole',
    ]);
  });

  it('reads „чл. 64, ал. 2, изречение второ“ and „предл. второ“ as a sentence and a proposition', () => {
    const rulings = operativeRulingsOf(
      decision('1', '2020-01-01', [
        'Р Е Ш И:',
        'Обявява за противоконституционна разпоредбата на чл. 64, ал. 2, изречение второ от Кодекса за синтетичните фарове (обн., ДВ, бр. 86 от 28.10.2005 г.).',
        'Обявява за противоконституционни разпоредбата на чл. 143, ал. 1, предл. второ от Закона за синтетичните фарове (обн., ДВ, бр. 20 от 5.03.1999 г.).',
      ]),
    );
    expect(rulings.map((r) => r.part)).toEqual([
      { text: 'ал. 2, изречение второ', paragraph: '2', sentence: '2' },
      { text: 'ал. 1, предл. второ', paragraph: '1', proposition: '2' },
    ]);
  });

  it('does not count rejections, dissenting opinions, signatures, nor the provision that created a text', () => {
    const paragraphs = [
      'Р Е Ш И:',
      'Обявява за противоконституционна разпоредбата на чл. 12, ал. 1 от Закона за синтетичните фарове (обн., ДВ, бр. 12 от 2000 г.) в частта „без търг“, създадена с § 39 от Закона за изменение и допълнение на Закона за синтетичните фарове (ДВ, бр. 28 от 2013 г.). Отхвърля искането за установяване на противоконституционност на чл. 5 и чл. 6 от Закона за синтетичните фарове.',
      'Отхвърля искането на омбудсмана за обявяване за противоконституционна на разпоредбата на чл. 7 от Закона за синтетичните фарове.',
      'Съдиите Тест Тестов и Тест Тестова са подписали решението с особено мнение. Председател: Тест Тестов',
      'ОСОБЕНО МНЕНИЕ на съдията Тест Тестов Обявява за противоконституционна разпоредбата на чл. 9 от Закона за синтетичните фарове, би следвало да гласи решението.',
      'Обявява за противоконституционна разпоредбата на чл. 10 от Закона за синтетичните фарове.',
    ];
    expect(rulingsOf(paragraphs)).toEqual(['1 Закона за синтетичните фарове | 12 | ал. 1, в частта „без търг“']);
  });

  it('reads nothing from a decision without an operative part, nor from a declaration that names no provision', () => {
    expect(rulingsOf([REASONS])).toEqual([]);
    expect(rulingsOf(['Р Е Ш И:', 'Обявява за противоконституционно Решение на Народното събрание от 20.01.2023 г. (ДВ, бр. 8 от 2023 г.).'])).toEqual([]);
  });
});

describe('partKey', () => {
  it('is equal for the two sources\' writing of one part, and differs for other words', () => {
    expect(partKey({ text: 'ал. 2, изр. второ', paragraph: '2', sentence: '2' })).toBe(partKey({ text: 'ал. 2, изречение второ', paragraph: '2', sentence: '2' }));
    expect(partKey({ text: 'в частта „ ,безвъзмездно“', words: ' ,безвъзмездно' })).toBe(partKey({ text: 'в частта „безвъзмездно“', words: 'безвъзмездно' }));
    expect(partKey({ text: 'в частта „в лева“', words: 'в лева' })).not.toBe(partKey({ text: 'в частта „в левове“', words: 'в левове' }));
    expect(partKey(null)).toBe('');
  });
});

/** A synthetic statute: a text as published (act-*) or consolidated. */
function statute(id: string, title: string, date: string, elements: { ref: string; text: string; heading?: string }[], extra: Partial<CorpusDocument> = {}): CorpusDocument {
  return {
    document_id: id,
    source_type: 'bulgarian_laws_regulations',
    type: 'Закон',
    title,
    date,
    elements: elements.map((e) => ({ ...e, label: e.ref.startsWith('§') ? `§ ${e.ref.slice(1)}.` : `Чл. ${e.ref}.` })),
    ...extra,
  };
}

/** `document ref decision part sources [later]` of every entry. */
function entries(documents: CorpusDocument[], rulings: Map<number, Map<number, RulingEntry[]>>): string[] {
  const out: string[] = [];
  for (const [doc, byElement] of rulings) {
    for (const [element, list] of byElement) {
      for (const e of list) {
        out.push(
          `${documents[doc]!.document_id} ${documents[doc]!.elements[element]!.ref} ${e.decision_number}/${e.decision_year} ${e.part?.text ?? 'whole'} ${e.sources.join('+')}${e.later_amended ? ' [later]' : ''}`,
        );
      }
    }
  }
  return out.sort();
}

describe('linkRulings: both sources tied to elements and compared', () => {
  const FAROVE = 'Закон за синтетичните фарове ТЕСТОВИ ДАННИ';
  const ZID = 'Закон за изменение и допълнение на Закона за синтетичните фарове ТЕСТОВИ ДАННИ';
  const documents: CorpusDocument[] = [
    // 0: the act as published, older than the rulings; 1: its consolidated text, with the notes.
    statute('act-1', FAROVE, '2010-01-01', [{ ref: '5', text: 'Чл. 5. (1) Текст.\n(2) Текст. Второ изречение.' }]),
    statute(
      'ldoc-1',
      FAROVE,
      '2010-01-01',
      [
        {
          ref: '5',
          text: '(1) Текст.\n(2) (Доп. - ДВ, бр. 5 от 2020 г., обявена за противоконституционна в частта относно изр. второ с РКС № 13 от 2021 г. - ДВ, бр. 85 от 2021 г.) Текст. Второ изречение.',
        },
        { ref: '6', text: '(Нов - ДВ, бр. 5 от 2020 г., обявен за противоконституционен с РКС № 13 от 2021 г. - ДВ, бр. 85 от 2021 г.) Текст.' },
        {
          ref: '7',
          text: '(1) (Нова - ДВ, бр. 5 от 2020 г., обявена за противоконституционна в частта "в лева" с РКС № 2 от 2022 г. - ДВ, бр. 9 от 2022 г., изм. - ДВ, бр. 3 от 2023 г.) Текст в лева.',
        },
        { ref: '8', text: '(Нов - ДВ, бр. 5 от 2020 г., обявен за противоконституционен с РКС № 4 от 1999 г. - ДВ, бр. 1 от 1999 г.) Текст.' },
        { ref: '9', text: 'Текст.' },
        { ref: '§1', text: 'Текст на собствения § 1.' },
        { ref: '§63', text: '(Обявен за противоконституционен с РКС № 2 от 2022 г. - ДВ, бр. 9 от 2022 г.) Препечатан § 63.', heading: '(ОБН. - ДВ, БР. 60 ОТ 2020 Г.)' },
      ],
      { consolidated: true, as_of: '2024-01-01' },
    ),
    // 2: an amending act of the same act, adopted before the issue that promulgated it.
    statute('act-2', ZID, '2020-03-01', [{ ref: '§63', text: '§ 63. Текст.' }], { in_force_date: '2020-06-25' }),
    // 3: a later amending act of the same title.
    statute('act-3', ZID, '2021-02-01', [{ ref: '§63', text: '§ 63. Друг текст.' }], { in_force_date: '2021-05-01' }),
    decision('13', '2021-10-05', [
      'Р Е Ш И:',
      'Обявява за противоконституционни разпоредбата на чл. 5, ал. 2, изречение второ и чл. 6 от Закона за синтетичните фарове ТЕСТОВИ ДАННИ (обн., ДВ, бр. 1 от 2010 г.).',
    ]),
    decision('2', '2022-02-01', [
      'Р Е Ш И:',
      'Обявява за противоконституционни чл. 7, ал. 1 в частта „в левове“ и чл. 9 от Закона за синтетичните фарове ТЕСТОВИ ДАННИ (обн., ДВ, бр. 1 от 2010 г.) и § 63 от преходните и заключителните разпоредби на Закона за изменение и допълнение на Закона за синтетичните фарове ТЕСТОВИ ДАННИ (обн., ДВ, бр. 60 от 2020 г.).',
      'Обявява за противоконституционни чл. 44 от Закона за синтетичните фарове ТЕСТОВИ ДАННИ (обн., ДВ, бр. 1 от 2010 г.) и чл. 3 от Закона за липсващите фарове ТЕСТОВИ ДАННИ (обн., ДВ, бр. 2 от 2010 г.).',
    ]),
  ];
  let result: ReturnType<typeof linkRulings>;
  let report: RulingsReport;
  beforeAll(() => {
    result = linkRulings(documents, collection);
    report = result.report;
  });

  it('merges a ruling both sources found into one entry with both sources, the decision\'s paragraph and the note', () => {
    const entry = result.rulings.get(1)!.get(0)!;
    expect(entry).toHaveLength(1);
    expect(entry[0]).toEqual({
      ruling: 'declared_unconstitutional',
      scope: 'part',
      part: { text: 'ал. 2, изречение второ', paragraph: '2', sentence: '2' },
      decision_number: '13',
      decision_year: '2021',
      document_id: 'ks-2021-13-1-2020',
      collection: collectionOf('high_courts_cases'),
      title: 'Решение № 13 от 2021-10-05 г. по к. д. № 1/2020 г., КС – ТЕСТОВИ ДАННИ',
      date: '2021-10-05',
      excerpt_id: 'ks-2021-13-1-2020:2',
      sources: ['note', 'decision'],
      note: '(Доп. - ДВ, бр. 5 от 2020 г., обявена за противоконституционна в частта относно изр. второ с РКС № 13 от 2021 г. - ДВ, бр. 85 от 2021 г.)',
      later_amended: false,
    });
  });

  it('ties the decision\'s rulings to the consolidated text, and a § of an amending act also to its reprint', () => {
    expect(entries(documents, result.rulings)).toEqual([
      'act-2 §63 2/2022 whole decision',
      'ldoc-1 5 13/2021 ал. 2, изречение второ note+decision',
      'ldoc-1 6 13/2021 whole note+decision',
      'ldoc-1 7 2/2022 ал. 1, в частта „в лева“ note [later]',
      'ldoc-1 7 2/2022 ал. 1, в частта „в левове“ decision',
      'ldoc-1 8 4/1999 whole note',
      'ldoc-1 9 2/2022 whole decision',
      'ldoc-1 §63 2/2022 whole note+decision',
    ]);
  });

  it('reports the counts: notes, operative rulings, unresolved by reason, agreement and disagreements', () => {
    expect(report.notes).toEqual({ found: 5, decision_in_corpus: 4, decision_not_in_corpus: 1 });
    expect(report.decisions).toEqual({
      read: 2,
      declaring: 2,
      found: 7,
      resolved: 5,
      unresolved: { act_not_in_corpus: 1, no_such_element: 1 },
      without_provision: 0,
      reprints: 1,
    });
    expect(report.agreement).toEqual({ both: 3, only_notes: 0, only_decisions_text_older: 1, only_decisions_no_note: 1, disagreements: 1 });
    expect(report.lists.disagreements).toEqual([
      expect.objectContaining({ decision: '2/2022', ref: '7', note_part: 'ал. 1, в частта „в лева“', decision_part: 'ал. 1, в частта „в левове“' }),
    ]);
    expect(report.lists.unresolved.map((u) => `${u.act} ${u.ref} ${u.reason}`)).toEqual([
      'Закона за синтетичните фарове ТЕСТОВИ ДАННИ 44 no_such_element',
      'Закона за липсващите фарове ТЕСТОВИ ДАННИ 3 act_not_in_corpus',
    ]);
    expect(report.lists.only_decisions.map((o) => `${o.document_id} ${o.ref} ${o.text_older}`).sort()).toEqual(['act-2 §63 true', 'ldoc-1 9 false']);
  });

  it('resolves an act by title in any form, preferring the consolidated text, and an amending act by its promulgation', () => {
    const resolve = defaultActResolver(documents);
    expect(resolve('Закона за синтетичните фарове ТЕСТОВИ ДАННИ', '2022-01-01')).toBe(1);
    expect(resolve('Закон за синтетичните фарове ТЕСТОВИ ДАННИ в актуалната редакция', '2022-01-01')).toBe(1);
    // An act adopted after the decision is not the one it ruled on.
    expect(resolve('Закона за синтетичните фарове ТЕСТОВИ ДАННИ', '2009-01-01')).toBeUndefined();
    expect(resolve(ZID, '2022-01-01', { issue: '60', year: '2020', date: null })).toBe(2);
    expect(resolve('Закона за липсващите фарове ТЕСТОВИ ДАННИ', '2022-01-01')).toBeUndefined();
  });

  it('takes another resolver (the project\'s) in place of the default', () => {
    const { report: none } = linkRulings(documents, collection, () => undefined);
    expect(none.decisions.unresolved.act_not_in_corpus).toBe(6);
    expect(none.decisions.reprints).toBe(1);
  });
});

describe.skipIf(!haveSharedCorpus)('linkRulings over ../shared/corpus', () => {
  let documents: CorpusDocument[];
  let linked: ReturnType<typeof linkRulings>;
  beforeAll(async () => {
    // The documents as the index build has them: collected, each statute's provisions one a line.
    documents = (await collectCorpus(resolveCorpusInputs([SHARED_CORPUS]).corpusFiles)).documents;
    for (const d of documents) if (d.court_id == null) d.elements = d.elements.map((e) => ({ ...e, text: splitProvisionLines(e.text) }));
    linked = linkRulings(documents, collection);
  }, 180_000);

  /** The rulings of element `ref` of the document titled `title` (its consolidated text). */
  const rulingsOn = (title: string, ref: string): RulingEntry[] => {
    const doc = documents.findIndex((d) => d.title === title && d.consolidated === true);
    const element = documents[doc]!.elements.findIndex((e) => e.ref === ref);
    return linked.rulings.get(doc)?.get(element) ?? [];
  };

  it('ties КС Решение № 12/2016 to НК чл. 79, ал. 2, т. 2, read from the note and from the decision', () => {
    expect(rulingsOn('Наказателен кодекс', '79')).toEqual([
      expect.objectContaining({
        decision_number: '12',
        decision_year: '2016',
        document_id: 'ks-2016-12-13-2015',
        part: { text: 'ал. 2, т. 2', paragraph: '2', point: '2' },
        sources: ['note', 'decision'],
        later_amended: false,
      }),
    ]);
  });

  it('ties КС Решение № 13/2021 to НПК чл. 64, ал. 2, изречение второ', () => {
    expect(rulingsOn('Наказателно-процесуален кодекс', '64')).toEqual([
      expect.objectContaining({
        document_id: 'ks-2021-13-12-2021',
        scope: 'part',
        part: { text: 'ал. 2, изречение второ', paragraph: '2', sentence: '2' },
        sources: ['note', 'decision'],
      }),
    ]);
  });

  it('reports the figures measured over the corpus', () => {
    // Measured 2026-11-27 over ../shared/corpus with this reader and the default resolver (a script printing
    // `linkRulings(...).report`): 53 notes, all in consolidated texts (a scan of every statute's 62,046 elements
    // finds none elsewhere), 15 of them of a decision in the corpus; 125 КС decisions with an operative part, 34 of
    // them declaring 62 provisions, 8 more declaring only acts of the Assembly or decrees (9 dispositions).
    const { report } = linked;
    expect(report.notes).toEqual({ found: 53, decision_in_corpus: 15, decision_not_in_corpus: 38 });
    expect(report.decisions).toEqual({
      read: 125,
      declaring: 34,
      found: 62,
      resolved: 38,
      unresolved: { act_not_in_corpus: 21, no_such_element: 3 },
      without_provision: 9,
      reprints: 1,
    });
    expect(report.agreement).toEqual({ both: 13, only_notes: 1, only_decisions_text_older: 25, only_decisions_no_note: 0, disagreements: 1 });
    // The one disagreement: НК чл. 281, ал. 4, where the decision's operative part quotes „в левове, ако“ and the note
    // (with the amending act's own text) „в лева, когато“.
    expect(report.lists.disagreements).toEqual([expect.objectContaining({ decision: '8/2025', ref: '281', document_id: 'akn-1968-nk' })]);
  });
});
