/**
 * The reading and the verdicts of `pravo cite` (`src/legal/cite.ts`), on synthetic memos and documents: every title says
 * it is test data („тестов“), every text is made up and is not legal content.
 */
import { describe, expect, it } from 'vitest';
import type { DocumentResponse } from '../../src/contract/types.js';
import { checkProvision, findMemoCitations, matchAct, requiredLengthOf, titleLengthOf, type NamedAct, type ResultRef } from '../../src/legal/cite.js';
import { unwrapMemo } from '../../src/legal/memo-lines.js';
import { sameTitleWord } from '../../src/shared/act-titles.js';
import { parseCitations } from '../../src/shared/citations.js';

/** The one act a memo names. */
function actOf(memo: string): NamedAct {
  const { acts } = findMemoCitations(memo);
  expect(acts).toHaveLength(1);
  return acts[0]!;
}

const result = (document_id: string, title: string, date = '2020-01-01'): ResultRef => ({ document_id, collection: 'c_test', title, date });

/** A synthetic statute whose elements are given as [ref, text] (labels `Чл. N.` / `§ N.`, texts without them). */
function statute(elements: Array<[string, string]>): DocumentResponse {
  return {
    document_id: 'test-act',
    collection: 'c_test',
    title: 'Закон за тестовите уведомления',
    elements: elements.map(([ref, text]) => ({ excerpt_id: `test-act:${ref}`, ref, label: ref.startsWith('§') ? `§ ${ref.slice(1)}.` : `Чл. ${ref}.`, text })),
  };
}

/** The one citation of a text. */
function citation(text: string) {
  const [first] = parseCitations(text);
  return first!;
}

describe('reading a memo', () => {
  it('gives each citation its line, its column in characters, and the act it names', () => {
    const memo = 'Заглавие 𝔸\nСъгласно чл. 7 от ЗТУ и чл. 9 от същия закон.\n\n𝔸 Вж. чл. 3, ал. 2 от Закона за тестовите уведомления срокът тече.';
    const { citations, acts } = findMemoCitations(memo);
    expect(citations.map((c) => [c.text, c.line, c.column, c.act?.written])).toEqual([
      ['чл. 7', 2, 10, 'ЗТУ'],
      ['чл. 9', 2, 25, 'ЗТУ'],
      // The astral 𝔸 is one character (two UTF-16 units).
      ['чл. 3, ал. 2', 4, 7, 'Закона за тестовите уведомления'],
    ]);
    expect(acts.map((a) => a.query)).toEqual(['ЗТУ', 'Закон за тестовите уведомления']);
  });

  it('reads a title up to where the sentence goes on, and names one act once however it is written', () => {
    expect(actOf('чл. 1 от Закона за тестовите уведомления нотариусът удостоверява').written).toBe('Закона за тестовите уведомления');
    expect(actOf('чл. 1 от Закона за тестовите уведомления това е така').written).toBe('Закона за тестовите уведомления');
    expect(actOf('чл. 1 от Закона за тестовите уведомления всички лица са равни').written).toBe('Закона за тестовите уведомления');
    expect(actOf('чл. 1 от Закона за тестовите уведомления и регистри').written).toBe('Закона за тестовите уведомления и регистри');
    const { acts } = findMemoCitations('чл. 1 от Закона за обществените поръчки и чл. 2 от ЗОП');
    expect(acts).toHaveLength(1);
    expect(acts[0]!.title).toBe('Закон за обществените поръчки');
    // A title read past its end, whose words begin an act the memo names elsewhere, is that act.
    const pastItsEnd = findMemoCitations('чл. 1 от Закона за обществените поръчки вредите се поправят; чл. 2 от ЗОП.');
    expect(pastItsEnd.acts.map((a) => a.title)).toEqual(['Закон за обществените поръчки']);
    expect(pastItsEnd.citations.map((c) => c.act?.written)).toEqual(['ЗОП', 'ЗОП']);
    // A code named by its adjective is the code its customary abbreviation names.
    expect(findMemoCitations('чл. 49 СК и чл. 5 от Семейния кодекс').acts.map((a) => a.title)).toEqual(['Семеен кодекс']);
  });

  it('titleLengthOf stops at a clause word, a subject with the full article, and „и“ before another reference', () => {
    const words = (text: string) => text.split(' ');
    expect(titleLengthOf(words('Закона за тестовите срокове важи'))).toBe(4);
    expect(titleLengthOf(words('Закона за тестовите срокове работодателят'))).toBe(4);
    expect(titleLengthOf(words('Закона за тестовите срокове и чл'))).toBe(4);
    expect(titleLengthOf(words('Закона за тестовите срокове и Закона'))).toBe(4);
    expect(titleLengthOf(words('Закона за тестовите срокове и такси'))).toBe(6);
  });

  it('requiredLengthOf lets a title end before a word with the article that follows no preposition: the subject', () => {
    const words = (text: string) => text.split(' ');
    expect(requiredLengthOf(words('Закона за тестовите срокове и такси вредите'), 7)).toBe(6);
    expect(requiredLengthOf(words('Закона за тестовите срокове отговорността'), 5)).toBe(4);
    // After a preposition or a conjunction, a word with the article begins a noun phrase of the title.
    expect(requiredLengthOf(words('Закона за тестовите срокове и таксите'), 6)).toBe(6);
    expect(requiredLengthOf(words('Закона за тестовите срокове на общините'), 6)).toBe(6);
    expect(requiredLengthOf(words('Закона за тестовите срокове'), 4)).toBe(4);
    // A word in lower case after a name goes on with the sentence.
    expect(requiredLengthOf(words('Закона за Тестова Република граждани'), 5)).toBe(4);
  });

  it('a chain „вр.“ / „във връзка с“ gives every citation of it the act written after the last; „и сл.“ keeps the act', () => {
    const { citations } = findMemoCitations(
      'По чл. 49 вр. чл. 45 ЗТУ; по чл. 52 във вр. с чл. 51 от Закона за тестовите уведомления; чл. 3 и 4 във връзка с чл. 7 ЗТУ; чл. 60 и сл. ЗТУ.',
    );
    expect(citations.map((c) => [c.text, c.act?.written])).toEqual([
      ['чл. 49', 'ЗТУ'],
      ['чл. 45', 'ЗТУ'],
      ['чл. 52', 'Закона за тестовите уведомления'],
      ['чл. 51', 'Закона за тестовите уведомления'],
      ['чл. 3', 'ЗТУ'],
      ['4', 'ЗТУ'],
      ['чл. 7', 'ЗТУ'],
      ['чл. 60', 'ЗТУ'],
    ]);
    // A citation that names its own act, or says „от този закон“, keeps it.
    const own = findMemoCitations('чл. 5 от ЗТР вр. чл. 7 ЗТУ; чл. 8 от този закон вр. чл. 9 ЗТУ.').citations;
    expect(own.map((c) => c.act?.written)).toEqual(['ЗТР', 'ЗТУ', undefined, 'ЗТУ']);
  });

  it('names a convention, a regulation or rules by their whole title, in the nominative', () => {
    expect(actOf('чл. 8 от Конвенцията за тестова защита на правата, а не друго').title).toBe('Конвенция за тестова защита на правата');
    expect(actOf('чл. 3 от Наредба № 7 за тестовите регистри').title).toBe('Наредба № 7 за тестовите регистри');
    expect(actOf('чл. 2 от Правилника за прилагане на тестовия закон').title).toBe('Правилник за прилагане на тестовия закон');
  });

  it('a citation of no act has none; „от същия закон“ with nothing named before it has none', () => {
    const { citations } = findMemoCitations('Само чл. 5 и после чл. 6 от същия закон.');
    expect(citations.map((c) => c.act)).toEqual([undefined, undefined]);
  });

  it('reads a title wrapped over lines whole, and gives the citation the line and column of its start in the memo', () => {
    const wrapped = findMemoCitations('Първи ред на тестовата бележка.\nСъгласно чл. 999 от Закона за обществените\nпоръчки възложителят не е прав.');
    expect(wrapped.acts.map((a) => a.title)).toEqual(['Закон за обществените поръчки']);
    expect(wrapped.citations.map((c) => [c.text, c.line, c.column])).toEqual([['чл. 999', 2, 10]]);
    // Broken after „от“, with the next line indented; a citation broken between its keyword and its number.
    const indented = findMemoCitations('Тестова бележка: по чл. 5 от\n    Закона за тестовите уведомления срокът тече, а по чл.\n  7 ЗТУ – не.');
    expect(indented.citations.map((c) => [c.text, c.line, c.column, c.act?.written])).toEqual([
      ['чл. 5', 1, 21, 'Закона за тестовите уведомления'],
      ['чл. 7', 2, 55, 'ЗТУ'],
    ]);
    const memo = 'Тестова бележка: по чл. 5 от\n    Закона за тестовите уведомления срокът тече, а по чл.\n  7 ЗТУ – не.';
    const second = indented.citations[1]!;
    expect(memo.slice(second.start, second.end)).toBe('чл.\n  7');
  });

  it('joins a word hyphenated at a line end, and keeps the hyphen of a compound', () => {
    expect(actOf('Съгласно чл. 999 от Закона за обществе-\nните поръчки възложителят').title).toBe('Закон за обществените поръчки');
    expect(actOf('чл. 9 от Административно-\nпроцесуалния кодекс').title).toBe('Административнопроцесуален кодекс');
    expect(actOf('чл. 9 от Наказателно-\nпроцесуалния кодекс').title).toBe('Наказателно-процесуален кодекс');
    expect(actOf('чл. 3 от Закона за тестовото социално-\nикономическо развитие и нещо').title).toBe('Закон за тестовото социално-икономическо развитие и нещо');
    // A word the memo writes whole elsewhere is joined, whatever its ending.
    expect(actOf('чл. 3 от Закона за тестовите разпо-\nредби, а тестовите разпоредби са ясни').title).toBe('Закон за тестовите разпоредби');
    // A dash is no hyphen: the title ends before it.
    expect(actOf('чл. 3 от Закона за тестовите уведомления –\nсрокът тече').written).toBe('Закона за тестовите уведомления');
  });

  it('keeps the line breaks of blocks: a blank line, a list item, a heading, an act\'s own provision', () => {
    expect(actOf('чл. 5 от Закона за тестовите уведомления\n\nдруг абзац').written).toBe('Закона за тестовите уведомления');
    expect(actOf('чл. 5 от Закона за тестовите уведомления\n- тестов списък').written).toBe('Закона за тестовите уведомления');
    expect(actOf('чл. 5 от Закона за тестовите уведомления\n# Тестово заглавие').written).toBe('Закона за тестовите уведомления');
    expect(findMemoCitations('Тестов текст\nЧл. 5. Тестов член.').citations).toEqual([]);
  });

  it('unwrapMemo maps every joined offset back to the memo', () => {
    const memo = 'ab обществе-\r\n  ните\n\nв';
    const { text, originOf } = unwrapMemo(memo);
    expect(text).toBe('ab обществените\n\nв');
    expect([...text].map((_, i) => memo[originOf(i)]).join('')).toBe('ab обществените\n\nв');
    expect(originOf(text.length)).toBe(memo.length);
  });

  it('sameTitleWord allows the forms a title takes in a sentence, not other words', () => {
    expect(sameTitleWord('Закона', 'Закон')).toBe(true);
    expect(sameTitleWord('Гражданския', 'Граждански')).toBe(true);
    expect(sameTitleWord('Наказателния', 'Наказателен')).toBe(true);
    expect(sameTitleWord('Семейния', 'Семеен')).toBe(true);
    expect(sameTitleWord('за', 'на')).toBe(false);
    expect(sameTitleWord('собствеността', 'собственост')).toBe(true);
    expect(sameTitleWord('срокове', 'сроковете')).toBe(true);
    expect(sameTitleWord('такси', 'тестове')).toBe(false);
    // A year has no forms: the budget law for 2011 is not the one for 2014.
    expect(sameTitleWord('2011', '2014')).toBe(false);
    expect(sameTitleWord('2011', '2011')).toBe(true);
  });
});

describe('which result is the act', () => {
  it('the result of the same title; of several, the newest, with the older ones named', () => {
    const act = actOf('чл. 1 от Закона за тестовите срокове');
    const match = matchAct(act, [
      result('old', 'Закон за тестовите срокове', '2004-04-06'),
      result('amending', 'Закон за изменение на Закона за тестовите срокове', '2021-01-01'),
      result('new', 'Закон за тестовите срокове', '2015-08-12'),
      result('other', 'Закон за тестовите такси', '2022-01-01'),
    ]);
    expect(match).toMatchObject({ kind: 'found', document: { document_id: 'new' }, others: [{ document_id: 'old' }] });
  });

  it('never a shorter title for a longer one: the act is not found, the shorter title is named', () => {
    const act = actOf('чл. 1 от Закона за тестовите срокове и такси на общините');
    const match = matchAct(act, [result('short', 'Закон за тестовите срокове')]);
    expect(match).toMatchObject({ kind: 'not_found', nearest: { document_id: 'short' } });
    const longer = matchAct(act, [result('short', 'Закон за тестовите срокове'), result('long', 'Закон за тестовите срокове и такси на общините')]);
    expect(longer).toMatchObject({ kind: 'found', document: { document_id: 'long' } });
  });

  it('a title followed by the sentence\'s subject („… договорите вредите се поправят“) is the act of the title', () => {
    const act = actOf('Съгласно чл. 1 от Закона за тестовите срокове и такси вредите се поправят.');
    expect(act.written).toBe('Закона за тестовите срокове и такси вредите');
    expect(matchAct(act, [result('act', 'Закон за тестовите срокове и такси'), result('short', 'Закон за тестовите срокове')])).toMatchObject({
      kind: 'found',
      document: { document_id: 'act' },
    });
    // A noun after its adjective („палата“ after „Тестовата“) may look like it has the article: the whole title is
    // still the act, being the longest that fits.
    const chamber = actOf('чл. 1 от Закона за Тестовата палата се прилага');
    expect(matchAct(chamber, [result('chamber', 'Закон за Тестовата палата')])).toMatchObject({ kind: 'found', document: { document_id: 'chamber' } });
  });

  it('an act the service holds only amendments of is not found, and its amending acts are named', () => {
    const act = actOf('чл. 25 от Закона за тестовите нотариуси нотариусът');
    const match = matchAct(act, [result('a1', 'Закон за изменение и допълнение на Закона за тестовите нотариуси'), result('x', 'Закон за тестовите такси')]);
    expect(match).toMatchObject({ kind: 'not_found', amendedBy: [{ document_id: 'a1' }] });
  });

  it('ambiguous: initials that fit two titles, two acts of one title and one date, two amending acts of one title', () => {
    const byInitials = matchAct(actOf('чл. 1 ЗТР'), [result('r1', 'Закон за тестовите регистри'), result('r2', 'Закон за тестовите разходи')]);
    expect(byInitials).toMatchObject({ kind: 'ambiguous', candidates: [{ document_id: 'r1' }, { document_id: 'r2' }] });
    const sameDate = matchAct(actOf('чл. 1 от Закона за тестовите регистри'), [result('r1', 'Закон за тестовите регистри'), result('r3', 'Закон за тестовите регистри')]);
    expect(sameDate.kind).toBe('ambiguous');
    const amending = matchAct(actOf('§ 2 от Закона за изменение на Закона за тестовите регистри'), [
      result('z1', 'Закон за изменение на Закона за тестовите регистри', '2010-01-01'),
      result('z2', 'Закон за изменение на Закона за тестовите регистри', '2012-01-01'),
    ]);
    expect(amending.kind).toBe('ambiguous');
  });

  it('a customary abbreviation is its title, whole: ЗОП is not the Закон за обществените поръчки в отбраната', () => {
    const act = actOf('чл. 72 от ЗОП');
    expect(matchAct(act, [result('x', 'Закон за обществените поръчки в отбраната (тестов)')]).kind).toBe('not_found');
  });
});

describe('the provision in the document', () => {
  const document = statute([
    ['1', '(Изм. – ДВ, бр. 1 от 2001 г.) (1) Тестов текст на първа алинея.\n1. първа точка;\n3. трета точка.\n(2) (Отм. – ДВ, бр. 2 от 2002 г.)\n(3) (Отм., предишна ал. 4 – ДВ, бр. 2 от 2002 г.) Тестов текст, преномериран.'],
    ['2', '(Отм. – ДВ, бр. 3 от 2003 г.)'],
    ['45а', 'Тестов член с буква.'],
    ['46', 'Тестов член.'],
    // Unnumbered paragraphs run together, as an older act's text may give them.
    ['47', '(Ал. 1 изм. – ДВ, бр. 4 от 2004 г.) Тестова първа алинея. Тестова втора алинея. (Ал. 3 отм. – ДВ, бр. 5 от 2005 г.) (Ал. 4 отм. – ДВ, бр. 5 от 2005 г.) (Ал. 4 нова – ДВ, бр. 6 от 2006 г.) Тестова четвърта алинея.'],
    ['§1', 'Тестов параграф:\n1. „Тестов термин“ е пример.'],
  ]);
  const check = (text: string) => checkProvision(citation(text), document, 'Закон за тестовите уведомления');

  it('found: the label, the ал. and т. cited, and the first words (editorial notes left out)', () => {
    expect(check('чл. 1, ал. 1, т. 3')).toEqual({ verdict: 'found', ref: '1', detail: 'Чл. 1, ал. 1, т. 3: трета точка.' });
    expect(check('чл. 1')).toMatchObject({ verdict: 'found', detail: 'Чл. 1: (1) Тестов текст на първа алинея. 1. първа точка; 3. трета точка. (2)…' });
    expect(check('§ 1, т. 1 от ДР')).toMatchObject({ verdict: 'found', ref: '§1' });
    expect(check('чл. 45а')).toMatchObject({ verdict: 'found', ref: '45а' });
    expect(check('чл. 45а – 46')).toMatchObject({ verdict: 'found' });
  });

  it('repealed: an article or a paragraph that is only a repeal note; a renumbered paragraph is not', () => {
    expect(check('чл. 2')).toEqual({ verdict: 'repealed', ref: '2', detail: 'Чл. 2 (Отм. – ДВ, бр. 3 от 2003 г.)' });
    expect(check('чл. 1, ал. 2')).toMatchObject({ verdict: 'repealed', detail: 'Чл. 1, ал. 2 (Отм. – ДВ, бр. 2 от 2002 г.)' });
    expect(check('чл. 1, ал. 3')).toMatchObject({ verdict: 'found' });
  });

  it('every ал. and т. listed is checked: a list, and both ends of a range', () => {
    const listed = (text: string) => ({ paragraphs: citation(text).paragraphs ?? [], points: citation(text).points ?? [] });
    expect(listed('чл. 1, ал. 1, 7 и 12')).toEqual({ paragraphs: ['1', '7', '12'], points: [] });
    expect(listed('чл. 1, ал. 2, т. 1 – 3')).toEqual({ paragraphs: ['2'], points: ['1', '3'] });
    expect(listed('чл. 1, ал. 13, изречение второ, буква „а“, пр. 2')).toEqual({ paragraphs: ['13'], points: [] });
    expect(check('чл. 1, ал. 1, т. 1 и 3')).toEqual({ verdict: 'found', ref: '1', detail: 'Чл. 1, ал. 1, т. 1 и 3: първа точка;' });
    expect(check('чл. 1, ал. 1, т. 1 – 4')).toMatchObject({ verdict: 'no_such_provision', detail: 'Чл. 1, ал. 1 has no т. 4' });
    expect(check('чл. 1, ал. 1 и 9')).toMatchObject({ verdict: 'no_such_provision', detail: 'Чл. 1 has no ал. 9; its paragraphs: 1, 2, 3' });
    expect(check('чл. 1, ал. 1 и 2')).toMatchObject({ verdict: 'repealed', detail: 'Чл. 1, ал. 2 (Отм. – ДВ, бр. 2 от 2002 г.)' });
  });

  it('an ал. of a text that numbers no paragraph is not checked, unless a note says it was repealed', () => {
    expect(check('чл. 47, ал. 2')).toEqual({
      verdict: 'found',
      ref: '47',
      detail: 'Чл. 47 (ал. 2 not checked: this text does not number its paragraphs): Тестова първа алинея. Тестова втора алинея. (Ал. 3 отм. – ДВ, бр. 5…',
      unchecked: 'ал. 2',
    });
    expect(check('чл. 46, ал. 1, т. 2')).toMatchObject({ verdict: 'found', detail: expect.stringContaining('(ал. 1, т. 2 not checked') });
    expect(check('чл. 47, ал. 3')).toEqual({ verdict: 'repealed', ref: '47', detail: 'Чл. 47, ал. 3: (Ал. 3 отм. – ДВ, бр. 5 от 2005 г.)' });
    // Repealed, then brought back by a later note.
    expect(check('чл. 47, ал. 4')).toMatchObject({ verdict: 'found' });
    expect(check('чл. 47, ал. 1 – 3')).toMatchObject({ verdict: 'repealed', detail: 'Чл. 47, ал. 3: (Ал. 3 отм. – ДВ, бр. 5 от 2005 г.)' });
  });

  it('no_such_provision: a missing article with the nearest refs, a missing ал., т. or end of a range', () => {
    expect(check('чл. 48')).toEqual({
      verdict: 'no_such_provision',
      ref: '48',
      detail: 'Закон за тестовите уведомления has no чл. 48; nearest: 46, 47; it has 5 articles, 1 – 47',
    });
    expect(check('чл. 1, ал. 9')).toMatchObject({ verdict: 'no_such_provision', detail: 'Чл. 1 has no ал. 9; its paragraphs: 1, 2, 3' });
    expect(check('чл. 1, ал. 1, т. 2')).toMatchObject({ verdict: 'no_such_provision', detail: 'Чл. 1, ал. 1 has no т. 2' });
    expect(check('чл. 46 – 49')).toMatchObject({ verdict: 'no_such_provision', detail: expect.stringContaining('has чл. 46 but no чл. 49') });
    expect(check('§ 7 от ДР')).toMatchObject({ verdict: 'no_such_provision', detail: expect.stringContaining('has no § 7; nearest: § 1') });
  });
});
