/**
 * One line per paragraph, point and letter (`src/sandbox/corpus/provision-lines.ts`), on synthetic texts: every text
 * here is made up for the tests („тестов“) and is not legal content. What must be split, and what must never be.
 */
import { describe, expect, it } from 'vitest';
import { splitProvisionLines } from '../../../src/sandbox/corpus/provision-lines.js';

/** The text split, as its lines. */
const lines = (text: string): string[] => splitProvisionLines(text).split('\n');

describe('splitProvisionLines', () => {
  it('puts each paragraph numbered in sequence on its own line, also after the article label and inserted ones', () => {
    expect(lines('(1) Първа тестова алинея. (2) Втора тестова алинея; (3) Трета: тестова.')).toEqual([
      '(1) Първа тестова алинея.',
      '(2) Втора тестова алинея;',
      '(3) Трета: тестова.',
    ]);
    expect(lines('Чл. 2. (1) Първа тестова. (2) Втора тестова.')).toEqual(['Чл. 2. (1) Първа тестова.', '(2) Втора тестова.']);
    expect(lines('(1) Първа. (2) Втора. (2а) (Нова - ДВ, бр. 1 от 2000 г.) Вмъкната. (2б) Още една. (3) Трета.')).toEqual([
      '(1) Първа.',
      '(2) Втора.',
      '(2а) (Нова - ДВ, бр. 1 от 2000 г.) Вмъкната.',
      '(2б) Още една.',
      '(3) Трета.',
    ]);
    // A year's „г.“ ends a sentence; a paragraph that opens after notes of the whole article counts as the first.
    expect(lines('(Изм. - ДВ, бр. 9 от 2001 г.) (1) Тестов срок до 2000 г. (2) Втора.')).toEqual([
      '(Изм. - ДВ, бр. 9 от 2001 г.) (1) Тестов срок до 2000 г.',
      '(2) Втора.',
    ]);
  });

  it('keeps an amendment note with the paragraph it precedes, and a repealed paragraph with its own note', () => {
    expect(lines('(1) Първа тестова. (Изм. - ДВ, бр. 5 от 1992 г.) (2) Втора тестова.')).toEqual([
      '(1) Първа тестова.',
      '(Изм. - ДВ, бр. 5 от 1992 г.) (2) Втора тестова.',
    ]);
    expect(lines('(1) Първа. (2) (Изм. - ДВ, бр. 5 от 1992 г.) Втора. (3) (Отм. - ДВ, бр. 7 от 1993 г.) (4) Четвърта.')).toEqual([
      '(1) Първа.',
      '(2) (Изм. - ДВ, бр. 5 от 1992 г.) Втора.',
      '(3) (Отм. - ДВ, бр. 7 от 1993 г.)',
      '(4) Четвърта.',
    ]);
    // A note alone is no marker.
    expect(lines('Първо тестово изречение. (Изм. - ДВ, бр. 5 от 1992 г.) Второ тестово изречение.')).toEqual([
      'Първо тестово изречение. (Изм. - ДВ, бр. 5 от 1992 г.) Второ тестово изречение.',
    ]);
  });

  it('splits points after a colon and each next point, inserted ones too, and letters likewise', () => {
    expect(lines('(1) Тестовият орган: 1. прави едно; 1а. (нова - ДВ, бр. 2 от 2001 г.) прави вмъкнато; 2. прави друго, и 3. прави трето. (2) Втора.')).toEqual([
      '(1) Тестовият орган:',
      '1. прави едно;',
      '1а. (нова - ДВ, бр. 2 от 2001 г.) прави вмъкнато;',
      '2. прави друго, и',
      '3. прави трето.',
      '(2) Втора.',
    ]);
    expect(lines('Не може тестово: а) първото и б) второто; в) третото.')).toEqual(['Не може тестово:', 'а) първото и', 'б) второто;', 'в) третото.']);
    // Points restart in the next paragraph; letters restart in the next point.
    expect(lines('(1) Едно: 1. първо; 2. второ. (2) Друго: 1. трето: а) четвърто; б) пето; 2. шесто.')).toEqual([
      '(1) Едно:',
      '1. първо;',
      '2. второ.',
      '(2) Друго:',
      '1. трето:',
      'а) четвърто;',
      'б) пето;',
      '2. шесто.',
    ]);
  });

  it('never splits on a reference, a number out of sequence, a quotation or brackets', () => {
    const unchanged = [
      // „ал. (2)“, „по т. 1“, „т. 1 и 2.“, „букви а) и б)“: references inside a sentence.
      '(1) Тестов текст по ал. (2) се прилага.',
      'Тестов текст по т. 1. 2. и т. н.',
      'Тестов текст по букви а) и б) се прилага.',
      // A paragraph (1) later in a line, and numbers out of sequence.
      'Тестов текст. (1) Не е алинея.',
      '(1) Първа тестова. (3) Не е следващата.',
      '(1) Първа тестова, (2) след запетая.',
      // Inside a quotation of an amending act, and inside brackets.
      '(1) В чл. 5 се създава: „(2) Тестова втора. (3) Тестова трета.“',
      '(1) Тестов текст (виж т. 2. 3. нещо) край.',
      // Unnumbered paragraphs run together: no marker, no split.
      'Първо тестово изречение. Второ тестово изречение. (Ал. 3 отм. - ДВ, бр. 30 от 1990 г.) Трето.',
    ];
    for (const text of unchanged) expect(splitProvisionLines(text), text).toBe(text);
    expect(lines('Тестов орган: 1. прави по т. 1 и 2. повече.')).toEqual(['Тестов орган:', '1. прави по т. 1 и 2. повече.']);
    // After a closed quotation the numbering goes on.
    expect(lines('(1) В чл. 5 се създава: „(2) Тестова втора. (3) Тестова трета.“ (2) Същинската втора.')).toEqual([
      '(1) В чл. 5 се създава: „(2) Тестова втора. (3) Тестова трета.“',
      '(2) Същинската втора.',
    ]);
    // A quotation opened on one line goes on over the next.
    expect(splitProvisionLines('(1) Създава се: „Тестов текст:\n1. едно. 2. две.“')).toBe('(1) Създава се: „Тестов текст:\n1. едно. 2. две.“');
  });

  it('leaves lines already broken as they are, and counts their markers: it is idempotent', () => {
    const split = '(1) Първа тестова:\n1. едно;\n2. две.\n(2) Втора тестова. (3) Трета тестова.';
    expect(splitProvisionLines(split)).toBe('(1) Първа тестова:\n1. едно;\n2. две.\n(2) Втора тестова.\n(3) Трета тестова.');
    const once = splitProvisionLines('(1) А тестово. (2) Б тестово: 1. в; 2. г.');
    expect(splitProvisionLines(once)).toBe(once);
    expect(splitProvisionLines('')).toBe('');
  });
});
