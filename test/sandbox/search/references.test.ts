import { describe, expect, it } from 'vitest';
import { analyze } from '../../../src/sandbox/text/analysis.js';
import { initials } from '../../../src/shared/act-titles.js';
import { parseReferences, planReferences, type AbbreviationTable } from '../../../src/sandbox/search/references.js';

/** A table over made-up document rowids: ЗОП held (1), КТ only through an amending act (2). */
function table(): AbbreviationTable {
  const zop = { title: 'Закон за обществените поръчки', primary: [1], amending: [3] };
  const kt = { title: 'Кодекс на труда', primary: [], amending: [2] };
  return {
    byAbbreviation: new Map([
      ['ЗОП', zop],
      ['КТ', kt],
    ]),
    byTitleStems: new Map([
      [analyze(zop.title).join(' '), zop],
      [analyze(kt.title).join(' '), kt],
    ]),
  };
}

describe('initials of a title', () => {
  it('take a letter per word but prepositions and conjunctions, and per part of a hyphenated word', () => {
    expect(initials('Закон за обществените поръчки')).toBe('ЗОП');
    expect(initials('Закон за данък върху добавената стойност')).toBe('ЗДДС');
    expect(initials('Закон за задълженията и договорите')).toBe('ЗЗД');
    expect(initials('Кодекса на труда')).toBe('КТ');
    expect(initials('Данъчно-осигурителен процесуален кодекс')).toBe('ДОПК');
  });
});

describe('parseReferences', () => {
  it('reads articles with paragraphs and points, ranges, § of the provisions, and the act in any usual spelling', () => {
    const cases: [string, Record<string, unknown>][] = [
      ['чл. 344, ал. 1 от КТ', { article: '344', act: 'КТ', text: 'чл. 344, ал. 1 от КТ' }],
      ['чл.344 ал.1 КТ', { article: '344', act: 'КТ' }],
      ['член 72 от ЗОП', { article: '72', act: 'ЗОП' }],
      ['чл. 2б ЗОП', { article: '2б', act: 'ЗОП' }],
      ['чл. 12, ал. 2, т. 3 от ЗОП', { article: '12', act: 'ЗОП' }],
      ['чл. 78 – 80 ЗОП', { article: '78', articleTo: '80', act: 'ЗОП' }],
      ['чл. 71 и 72 от ЗОП', { article: '71', articleTo: '72' }],
      ['§ 1 от ДР на ЗОП', { section: '1', act: 'ЗОП' }],
      ['§ 5, т. 2 от преходните и заключителните разпоредби на ЗОП', { section: '5', act: 'ЗОП' }],
      ['чл. 72 от Закона за обществените поръчки', { article: '72', act: 'Закона за обществените поръчки' }],
    ];
    for (const [query, expected] of cases) {
      const { references, rest } = parseReferences(query, table());
      expect(references, query).toHaveLength(1);
      expect(references[0], query).toMatchObject(expected);
      expect(rest, query).toBe('');
    }
  });

  it('keeps the other words of the query, and takes a bare abbreviation for the act', () => {
    const { references, rest } = parseReferences('ЗОП срок за обжалване по чл. 196', table());
    expect(references.map((r) => [r.act, r.article])).toEqual([
      ['ЗОП', undefined],
      [undefined, '196'],
    ]);
    expect(rest).toBe('срок за обжалване по');
  });

  it('reads „Конституцията“ alone as the Constitution of the Republic (КРБ), when the corpus holds it', () => {
    const constitution = { title: 'Конституция на Република България', primary: [7], amending: [] };
    const held = table();
    held.byAbbreviation.set('КРБ', constitution);
    held.byTitleStems.set(analyze(constitution.title).join(' '), constitution);
    for (const query of ['чл. 4 от Конституцията правова държава', 'чл. 4 Конституция правова държава']) {
      const { references, rest } = parseReferences(query, held);
      expect(references.map((r) => [r.article, r.resolved?.primary])).toEqual([['4', [7]]]);
      expect(rest).toBe('правова държава');
    }
    // Without the Constitution in the corpus the word names no act it holds.
    expect(parseReferences('чл. 4 от Конституцията', table()).references[0]!.resolved).toBeUndefined();
  });

  it('takes no ordinary word for an act or a reference', () => {
    for (const query of ['срок за обжалване', 'член на семейството', '3 години', 'ВКС отменя присъдата', 'данък ДДС', 'за']) {
      expect(parseReferences(query, table()).references, query).toEqual([]);
    }
  });
});

describe('planReferences', () => {
  const index = {
    articleByRef: (doc: number, ref: string) => (doc === 1 && ref === '72' ? 172 : undefined),
    articleContaining: (doc: number, needle: string) => (needle === '' ? doc * 10 : undefined),
  };

  it('pins the referenced article of an act the corpus holds and boosts the act', () => {
    const plan = planReferences(parseReferences('чл. 72 от ЗОП', table()).references, new Uint8Array([0, 1, 1, 1]), index);
    expect(plan.pinned.get(1)).toEqual([172]);
    expect(plan.boost.get(1)).toBeGreaterThan(1);
    expect(plan.notes).toEqual(['„чл. 72 от ЗОП“ е в Закон за обществените поръчки; показан е първо.']);
  });

  it('shows the amending acts of an act the corpus lacks, and says so', () => {
    const plan = planReferences(parseReferences('чл. 344 от КТ', table()).references, new Uint8Array([0, 1, 1, 1]), index);
    expect(plan.pinned.get(2)).toEqual([20]);
    expect(plan.followers.has(2)).toBe(true);
    expect(plan.notes[0]).toBe('„чл. 344 от КТ“: Кодекс на труда не е в корпуса, а само закони за изменението му; никой от тях не споменава чл. 344; показани са те.');
  });

  it('says a missing article is missing, and keeps the act to stand in for it when nothing else is searched', () => {
    const plan = planReferences(parseReferences('чл. 999 от ЗОП', table()).references, new Uint8Array([0, 1, 1, 1]), index);
    expect(plan.pinned.size).toBe(0);
    expect(plan.standIns).toEqual(new Map([[1, 10]]));
    expect(plan.notes[0]).toBe('„чл. 999 от ЗОП“: Закон за обществените поръчки е в корпуса, но чл. 999 не е намерен в текста му.');
  });

  it('a query that is a title and nothing else names the act; a title with other words stays words', () => {
    const alone = parseReferences('Закон за обществените поръчки', table());
    expect(alone.references.map((r) => [r.act, r.resolved?.title])).toEqual([['Закон за обществените поръчки', 'Закон за обществените поръчки']]);
    expect(alone.rest).toBe('');
    expect(planReferences(alone.references, new Uint8Array([0, 1, 1, 1]), index).standIns).toEqual(new Map([[1, 10]]));
    const words = parseReferences('Закон за обществените поръчки срок за обжалване', table());
    expect(words.references).toEqual([]);
  });
});
