import { describe, expect, it } from 'vitest';
import { elementsWithHeadings, splitTrailingHeading } from '../../../src/sandbox/corpus/headings.js';

// Made-up statute text (test data, not legal text) laid out as the corpus lays out its acts.
describe('section headings', () => {
  it('moves the heading lines at the end of an article to the article they introduce', () => {
    const elements = [
      { label: 'Чл. 1.', text: 'Чл. 1. (1) Пазителят пази фара.\n(2) Фарът свети нощем.\nГлава втора\nЛОДКИ\nРегистър на лодките' },
      { label: 'Чл. 2.', text: 'Чл. 2. Пазителят води регистър на лодките.' },
    ];
    expect(elementsWithHeadings(elements)).toEqual([
      { body: 'Чл. 1. (1) Пазителят пази фара.\n(2) Фарът свети нощем.', heading: '' },
      { body: 'Чл. 2. Пазителят води регистър на лодките.', heading: 'Глава втора\nЛОДКИ\nРегистър на лодките' },
    ]);
  });

  it('leaves sentences, numbered points, quoted new headings and signature lines in the text', () => {
    for (const text of [
      'Чл. 3. Текст.\n1. първа точка\n2. втора точка',
      'Чл. 3. Заглавието се изменя така:\n„Регистър на лодките',
      'Чл. 3. Текст.\nПредседател на Народното събрание: Измислено Име',
      'Чл. 3. Пазителят пази фара.',
    ]) {
      expect(splitTrailingHeading(text)).toEqual({ body: text, heading: '' });
    }
  });

  it('keeps the last article and court decisions’ paragraphs as they are', () => {
    const last = [{ label: 'Чл. 9.', text: 'Чл. 9. Текст.\nЗаключителни разпоредби' }];
    expect(elementsWithHeadings(last)[0]).toEqual({ body: last[0]!.text, heading: '' });
    const paragraphs = [
      { label: '¶ 1', text: 'Съдът установи.\nМотиви' },
      { label: '¶ 2', text: 'Жалбата е основателна.' },
    ];
    expect(elementsWithHeadings(paragraphs).map((e) => e.heading)).toEqual(['', '']);
  });
});
