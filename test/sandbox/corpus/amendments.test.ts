/**
 * What the §§ of an act change in other acts (`src/sandbox/corpus/amendments.ts`): the action patterns, the act
 * changed, quoted new text left out, act keys; and a real amending act, the National Assembly's payload of act 78179
 * (read at run time from `../shared/corpus/parliament-api/`, never copied here).
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  actKey,
  amendedActOf,
  amendmentsOf,
  maskQuoted,
  nominativeActName,
  type Amendment,
} from '../../../src/sandbox/corpus/amendments.js';
import { readActPayload } from '../../../src/sandbox/corpus/payload.js';

// Synthetic texts: made up for these tests (the acts' names say so), not legal text.
const TITLE = 'Закон за изменение и допълнение на Закона за синтетичните фарове';
const ACT = 'Закон за синтетичните фарове';

/** The records of one synthetic § (`§1`), as `article action` strings, in order. */
function of(text: string, title = TITLE): string[] {
  return amendmentsOf(title, [{ ref: '§1', text: `§ 1. ${text}` }]).map((a) => `${a.article} ${a.action}`);
}

/** `act | article | action` of every record of `elements`. */
function records(title: string, elements: { ref: string; text: string }[]): string[] {
  return amendmentsOf(title, elements).map((a) => `${a.section} ${a.act} | ${a.article} ${a.action}`);
}

describe('amendmentsOf: actions', () => {
  it('reads „В чл. 12, ал. 2 …“ and „Член 12 се изменя така:“ as amending article 12', () => {
    expect(of('В чл. 12, ал. 2 думата „фар“ се заменя с „маяк“.')).toEqual(['12 amends']);
    expect(of('Член 12 се изменя така:\n„Чл. 12. Пазачът пали синтетичния фар.“')).toEqual(['12 amends']);
    expect(of('Чл. 12 се изменя и допълва така:\n„Чл. 12. Текст.“')).toEqual(['12 amends']);
    expect(of('В заглавието на чл. 12 думата „фар“ се заличава.')).toEqual(['12 amends']);
    expect(of('Навсякъде в чл. 12 и 13 думата „фар“ се заменя с „маяк“.')).toEqual(['12 amends', '13 amends']);
    // A lead line whose changes are its sub-items.
    expect(of('В чл. 12:\nа) в ал. 1 думата „фар“ се заличава;\nб) алинея 2 се отменя.')).toEqual(['12 amends']);
  });

  it('reads „Създава се чл. 12а:“ / „Създават се чл. 12а и 12б“ as inserting, ranges by their quoted headings', () => {
    expect(of('Създава се чл. 12а:\n„Чл. 12а. Фарът свети.“')).toEqual(['12а inserts']);
    expect(of('Създава се нов чл. 12а:\n„Чл. 12а. Фарът свети.“')).toEqual(['12а inserts']);
    expect(of('Създават се чл. 12а и 12б:\n„Чл. 12а. Едно.\nЧл. 12б. Друго.“')).toEqual(['12а inserts', '12б inserts']);
    expect(of('Създават се чл. 7д – 7ж:\n„Чл. 7д. Едно.\nЧл. 7е. Друго.\nЧл. 7ж. Трето.“')).toEqual([
      '7д inserts',
      '7е inserts',
      '7ж inserts',
    ]);
    expect(of('В глава трета се създава раздел IIа с чл. 25а и 25б:\n„Раздел IIа\nЧл. 25а. Едно.\nЧл. 25б. Друго.“')).toEqual([
      '25а inserts',
      '25б inserts',
    ]);
    // „След чл. 12“ is where, not what.
    expect(of('След чл. 12 се създава чл. 12а:\n„Чл. 12а. Фарът свети.“')).toEqual(['12а inserts']);
    // A new paragraph of an article amends the article.
    expect(of('В чл. 12 се създава ал. 3:\n„(3) Фарът свети.“')).toEqual(['12 amends']);
  });

  it('reads „Член 15 се отменя.“ / „Чл. 15 се отменя“ as repealing; a paragraph of it repealed amends it', () => {
    expect(of('Член 15 се отменя.')).toEqual(['15 repeals']);
    expect(of('Чл. 15 се отменя')).toEqual(['15 repeals']);
    expect(of('Членове 15, 16 и 17 се отменят.')).toEqual(['15 repeals', '16 repeals', '17 repeals']);
    expect(of('Членове 15 – 17 се отменят.')).toEqual(['15 repeals', '16 repeals', '17 repeals']);
    expect(of('Член 15, ал. 2 се отменя.')).toEqual(['15 amends']);
    expect(of('В чл. 15 ал. 2 се отменя.')).toEqual(['15 amends']);
    expect(of('Глава пета с чл. 26 и чл. 28 – 29б се отменя.')).toEqual([
      '26 repeals',
      '28 repeals',
      '29 repeals',
      '29а repeals',
      '29б repeals',
    ]);
  });

  it('reads each sub-item of a §', () => {
    const text = [
      'В чл. 3 се правят следните изменения:',
      '1. В ал. 1 думата „фар“ се заменя с „маяк“.',
      '2. Алинея 2 се отменя.',
      'Член 4 се отменя.',
    ].join('\n');
    expect(of(text)).toEqual(['3 amends', '4 repeals']);
  });

  it('leaves out article numbers inside quoted new text, nested quotations and the older “…” quotes included', () => {
    expect(of('Създава се чл. 12а:\n„Чл. 12а. (1) Фарът по чл. 5 свети „по чл. 9“.\n(2) Пазачът по чл. 6 го пали.“')).toEqual([
      '12а inserts',
    ]);
    expect(of('В чл. 11, т. 4 думите „чл. 43, ал. 2“ се заменят с „чл. 87, ал. 3“.')).toEqual(['11 amends']);
    expect(of('Създава се чл. 3а:\n“Чл. 3а. Фарът по чл. 5 свети.”\nЧлен 4 се отменя.')).toEqual(['3а inserts', '4 repeals']);
    // Closing marks written as one („агенция „Синтетичен фар“ …): the quotation ends before „се заменят“.
    expect(of('В чл. 8 думите „агенция „Синтетичен фар“ се заменят с „агенция“, а в чл. 9 думата „фар“ се заличава.')).toEqual([
      '8 amends',
      '9 amends',
    ]);
    expect(maskQuoted('а „б „в“ г“ д')).toBe(`а ${'_'.repeat(9)} д`);
  });

  it('keeps only changes: transitional provisions, positions and references are not targets', () => {
    expect(of('Производствата по чл. 5, започнали до влизането в сила на този закон, се довършват по досегашния ред.')).toEqual([]);
    expect(of('Законът влиза в сила от деня на обнародването му в „Държавен вестник“.')).toEqual([]);
    expect(of('Лицата, посочени в чл. 10, ал. 2, могат да изменят плановете си.')).toEqual([]);
    expect(of('Наредбата по чл. 7 се отменя.')).toEqual([]);
    expect(of('Наименованието на глава трета се изменя така: „Синтетични фарове“.')).toEqual([]);
  });

  it('deduplicates (section, act, article, action) and keeps an article’s distinct actions', () => {
    expect(of('В чл. 3, ал. 1 думата „фар“ се заличава и в чл. 3, ал. 2 думата „маяк“ се заличава.')).toEqual(['3 amends']);
    expect(of('Създава се чл. 9а:\n„Чл. 9а. Текст.“\nВ чл. 9а думата „фар“ се заличава.')).toEqual(['9а inserts', '9а amends']);
  });

  it('reads only the elements whose ref starts with §', () => {
    expect(amendmentsOf(TITLE, [{ ref: '12а', text: 'Чл. 12а. Член 15 се отменя.' }])).toEqual([]);
  });
});

describe('amendmentsOf: the act changed', () => {
  it('is the act of the amending act’s title, in the nominative', () => {
    const [record] = amendmentsOf(TITLE, [{ ref: '§12', text: '§ 12. Член 15 се отменя.' }]);
    expect(record).toEqual<Amendment>({ section: '§12', act: ACT, act_key: actKey(ACT), article: '15', action: 'repeals' });
    for (const title of [
      'Закон за изменение на Закона за синтетичните фарове',
      'Закон за допълнение на Закона за синтетичните фарове',
      'Закон за изменение и допълнение на Кодекса за синтетичните фарове',
    ]) {
      expect(amendmentsOf(title, [{ ref: '§1', text: '§ 1. Член 15 се отменя.' }])[0]?.act).toBe(nominativeActName(amendedActOf(title)!));
    }
    expect(amendedActOf('Закон за изменение и допълнение на Наказателния кодекс')).toBe('Наказателния кодекс');
    expect(amendedActOf('Закон за синтетичните фарове')).toBeUndefined();
    expect(amendedActOf('Закон за изменение и допълнение на някои закони')).toBeUndefined();
  });

  it('is the act a § opens with: „В Закона за X (обн., ДВ …)“, „В Кодекса за …“, „В Наказателния кодекс …“', () => {
    const elements = [
      { ref: '§20', text: '§ 20. В Закона за синтетичните маяци (обн., ДВ, бр. 1 от 2001 г.; изм., бр. 2 от 2002 г.) в чл. 9, ал. 1 думата „фар“ се заличава.' },
      { ref: '§21', text: '§ 21. В Кодекса за синтетичните плавателни съдове (обн., ДВ, бр. 3 от 2003 г.) се правят следните изменения:\n1. В чл. 3 думата „фар“ се заличава.\n2. Член 4 се отменя.\n3. След чл. 5 се създава чл. 5а:\n„Чл. 5а. Текст по чл. 5.“' },
      { ref: '§22', text: '§ 22. Във Валутния закон (обн., ДВ, бр. 4 от 2004 г.) в чл. 10а, ал. 5 думите „синтетичен фар“ се заменят с „маяк“.' },
      { ref: '§23', text: '§ 23. В Наказателния кодекс (обн., ДВ, бр. 5 от 2005 г.)\nчл. 7 се отменя.' },
      { ref: '§24', text: '§ 24. Член 15 се отменя.' },
    ];
    expect(records(TITLE, elements)).toEqual([
      '§20 Закон за синтетичните маяци | 9 amends',
      '§21 Кодекс за синтетичните плавателни съдове | 3 amends',
      '§21 Кодекс за синтетичните плавателни съдове | 4 repeals',
      '§21 Кодекс за синтетичните плавателни съдове | 5а inserts',
      '§22 Валутен закон | 10а amends',
      '§23 Наказателен кодекс | 7 repeals',
      `§24 ${ACT} | 15 repeals`,
    ]);
  });

  it('is the act a citation names: „В чл. 5 от Кодекса на труда …“', () => {
    expect(records(TITLE, [{ ref: '§3', text: '§ 3. В чл. 5 от Кодекса на труда думата „фар“ се заличава.' }])).toEqual([
      '§3 Кодекс на труда | 5 amends',
    ]);
  });

  it('in an ordinary act, only §§ that name another act', () => {
    const elements = [
      { ref: '§4', text: '§ 4. В чл. 3 думата „фар“ се заменя с „маяк“.' },
      { ref: '§5', text: '§ 5. В Закона за синтетичните маяци (обн., ДВ, бр. 1 от 2001 г.) се правят следните изменения:\n1. В чл. 3 думата „фар“ се заличава.\n2. Член 4 се отменя.' },
      { ref: '§6', text: '§ 6. Министерският съвет приема наредбата по чл. 3 в срок до три месеца.' },
    ];
    expect(records(ACT, elements)).toEqual(['§5 Закон за синтетичните маяци | 3 amends', '§5 Закон за синтетичните маяци | 4 repeals']);
  });
});

describe('actKey', () => {
  it('is equal for nominative and definite forms, any case, white space and promulgation note', () => {
    const pairs: [string, string][] = [
      ['Закона за здравето', 'Закон за здравето'],
      ['Законът за здравето', 'закон  за\nздравето'],
      ['Кодекса на труда', 'Кодекс на труда'],
      ['Наказателния кодекс', 'Наказателен кодекс'],
      ['Наказателният кодекс', 'НАКАЗАТЕЛЕН КОДЕКС'],
      ['Гражданския процесуален кодекс', 'Граждански процесуален кодекс'],
      ['Семейния кодекс', 'Семеен кодекс'],
      ['Данъчно-осигурителния процесуален кодекс', 'Данъчно-осигурителен процесуален кодекс'],
      ['Изборния кодекс', 'Изборен кодекс'],
      ['Търговския закон', 'Търговски закон'],
      ['Конституцията на Република България', 'Конституция на Република България'],
      ['Закона за здравето (обн., ДВ, бр. 70 от 2004 г.; изм., бр. 46 от 2005 г.)', 'Закон за здравето'],
    ];
    for (const [a, b] of pairs) expect(actKey(a), `${a} / ${b}`).toBe(actKey(b));
  });

  it('differs for different acts', () => {
    expect(actKey('Закон за собствеността')).not.toBe(actKey('Закон за собствеността и ползването на земеделските земи'));
    expect(actKey('Наказателен кодекс')).not.toBe(actKey('Наказателно-процесуален кодекс'));
    expect(actKey('Закон за здравето')).not.toBe(actKey('Закон за здравното осигуряване'));
  });

  it('names the act in the nominative', () => {
    expect(nominativeActName('Закона за здравето (обн., ДВ, бр. 70 от 2004 г.)')).toBe('Закон за здравето');
    expect(nominativeActName('Кодекса за застраховането')).toBe('Кодекс за застраховането');
    expect(nominativeActName('Наказателния кодекс')).toBe('Наказателен кодекс');
    expect(nominativeActName('Семейния кодекс')).toBe('Семеен кодекс');
    expect(nominativeActName('Гражданския процесуален кодекс')).toBe('Граждански процесуален кодекс');
  });
});

const PAYLOAD = fileURLToPath(new URL('../../../../shared/corpus/parliament-api/78179.json', import.meta.url));

describe.skipIf(!existsSync(PAYLOAD))('amendmentsOf on a real amending act (payload 78179)', () => {
  // Закон за изменение и допълнение на Закона за защита на личните данни (ДВ, бр. 17 от 2019 г.).
  const doc = readActPayload(JSON.parse(readFileSync(PAYLOAD, 'utf8')));
  const all = amendmentsOf(doc.title, doc.elements);
  const ZZLD = actKey('Закон за защита на личните данни');
  const bySection = (section: string): string[] =>
    all.filter((a) => a.section === section).map((a) => `${a.act_key === ZZLD ? '' : `${a.act} | `}${a.article} ${a.action}`);

  it('reads the §§ of the act its title names', () => {
    expect(doc.title).toBe('Закон за изменение и допълнение на Закона за защита на личните данни');
    // „§ 1. Член 1 се изменя така: „Чл. 1. (1) Този закон урежда …““
    expect(bySection('§1')).toEqual(['1 amends']);
    // „§ 2. Членове 2, 3, 4 и 5 се отменят.“
    expect(bySection('§2')).toEqual(['2 repeals', '3 repeals', '4 repeals', '5 repeals']);
    // „§ 7. Създават се чл. 10а – 10г: „Чл. 10а. (1) Комисията упражнява правомощията по чл. 58 от Регламент …““
    expect(bySection('§7')).toEqual(['10а inserts', '10б inserts', '10в inserts', '10г inserts']);
    // „§ 8. В чл. 11, т. 4 думите „чл. 43, ал. 2“ се заменят с „чл. 87, ал. 3“.“
    expect(bySection('§8')).toEqual(['11 amends']);
    // „§ 10. Създава се чл. 12а: „Чл. 12а. … по чл. 58, параграф 1, букви „д“ и „е“ от Регламент …““
    expect(bySection('§10')).toEqual(['12а inserts']);
    // „§ 24. Членове 22 и 22а се отменят.“
    expect(bySection('§24')).toEqual(['22 repeals', '22а repeals']);
    // „§ 25. Глава четвърта с чл. 23 – 25 се отменя.“
    expect(bySection('§25')).toEqual(['23 repeals', '24 repeals', '25 repeals']);
    // „§ 16. Наименованието на глава трета се изменя така: …“ — a chapter, no article.
    expect(bySection('§16')).toEqual([]);
  });

  it('reads the §§ of the final provisions that change other acts', () => {
    // „§ 58. В Кодекса за застраховането (обн., ДВ, бр. 102 от 2015 г.; …) се правят следните изменения и допълнения:
    // 1. В чл. 426 се създава ал. 4: … 2. В чл. 429 се създава ал. 6: … 3. В чл. 514, ал. 4 думата „Закона“ се заменя
    // с „изискванията“. 4. В чл. 571, ал. 8 думите … се заменят … 5. В § 7 от допълнителните разпоредби се създава ал. 3:
    // „(3) … предвидена в чл. 107 и 454 от този кодекс …““
    expect(bySection('§58')).toEqual([
      'Кодекс за застраховането | 426 amends',
      'Кодекс за застраховането | 429 amends',
      'Кодекс за застраховането | 514 amends',
      'Кодекс за застраховането | 571 amends',
    ]);
    // „§ 61. Във Валутния закон (обн., ДВ, бр. 83 от 1999 г.; …) в чл. 10а, ал. 5 думите „Закона за защита на личните
    // данни“ се заменят с „изискванията за защита на личните данни“.“
    expect(bySection('§61')).toEqual(['Валутен закон | 10а amends']);
    // „§ 46. В Закона за Министерството на вътрешните работи (…) се правят следните изменения и допълнения:
    // 1. В чл. 22 ал. 1 се отменя. 2. В чл. 24 се създава ал. 4: … 4. Създава се чл. 25а: …“
    expect(bySection('§46').slice(0, 4)).toEqual([
      'Закон за Министерството на вътрешните работи | 22 amends',
      'Закон за Министерството на вътрешните работи | 24 amends',
      'Закон за Министерството на вътрешните работи | 25 amends',
      'Закон за Министерството на вътрешните работи | 25а inserts',
    ]);
    const electoral = all.filter((a) => a.section === '§52');
    expect(new Set(electoral.map((a) => a.act))).toEqual(new Set(['Изборен кодекс']));
    expect(electoral[0]!.act_key).toBe(actKey('Изборния кодекс'));
    // „§ 120. В срок до една година от влизането в сила на този закон Комисията … приема наредбата …“
    expect(bySection('§120')).toEqual([]);
    expect(bySection('§122')).toEqual([]);
  });
});
