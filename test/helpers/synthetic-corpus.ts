/**
 * A tiny synthetic corpus for unit tests of the sandbox, in the line format of `src/sandbox/corpus/reader.ts`. Every title
 * says it is test data and every article text is made up; no real legal text is used.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { CorpusDocument } from '../../src/sandbox/corpus/reader.js';

/** A made-up article text longer than a search excerpt (400 characters), to check that results never carry it whole. */
export const LONG_ARTICLE_TEXT =
  'Чл. 3. (1) ТЕСТОВИ ДАННИ: при забава длъжникът дължи неустойка в размер, уговорен в договора. ' +
  'Този текст е измислен за проверка на търсенето и не е част от действащ нормативен акт. '.repeat(8) +
  'Краят на измисления член съдържа думата финалмаркер.';

/** The documents of the synthetic corpus: two laws and two court decisions. */
export const SYNTHETIC_DOCUMENTS: CorpusDocument[] = [
  {
    document_id: 'test-law-1',
    source_type: 'bulgarian_laws_regulations',
    type: 'Закон',
    title: 'ТЕСТОВИ ДАННИ: Закон за примерните договори',
    date: '2020-05-01',
    in_force_date: '2020-06-01',
    author: 'ТЕСТОВИ ДАННИ: Народно събрание',
    url: 'https://example.invalid/test-law-1',
    signature: null,
    elements: [
      { ref: '1', label: 'Чл. 1.', text: 'Чл. 1. ТЕСТОВИ ДАННИ: Този закон урежда примерните договори и неустойка при неизпълнение.' },
      { ref: '2', label: 'Чл. 2.', text: 'Чл. 2. ТЕСТОВИ ДАННИ: Страните по договора определят свободно неговото съдържание.' },
      { ref: '3', label: 'Чл. 3.', text: LONG_ARTICLE_TEXT },
    ],
  },
  {
    document_id: 'test-law-2',
    source_type: 'bulgarian_laws_regulations',
    type: 'Наредба',
    title: 'ТЕСТОВИ ДАННИ: Наредба за измислените обезщетения',
    date: '2022-01-15',
    author: 'ТЕСТОВИ ДАННИ: Министерски съвет',
    url: 'https://example.invalid/test-law-2',
    elements: [
      { ref: '1', label: 'Чл. 1.', text: 'Чл. 1. ТЕСТОВИ ДАННИ: Обезщетение се дължи за всяка вреда от неизпълнение на договор.' },
      { ref: '2', label: 'Чл. 2.', text: 'Чл. 2. ТЕСТОВИ ДАННИ: Размерът на обезщетението се доказва от кредитора.' },
    ],
  },
  {
    document_id: 'test-case-1',
    source_type: 'high_courts_cases',
    type: 'Решение',
    title: 'ТЕСТОВИ ДАННИ: Решение по измислено търговско дело',
    date: '2023-03-10',
    author: 'ТЕСТОВИ ДАННИ: Върховен съд',
    url: 'https://example.invalid/test-case-1',
    court_id: 7,
    court: 'ТЕСТОВИ ДАННИ: Върховен съд',
    decision_number: '101',
    case_number: '2002/2022',
    reporting_judge: 'Тестов Съдия Примеров',
    elements: [
      { ref: '1', label: 'Мотиви', text: 'ТЕСТОВИ ДАННИ: Съдът приема, че неустойка по договор се дължи при забава.' },
    ],
  },
  {
    document_id: 'test-case-2',
    source_type: 'high_courts_cases',
    type: 'Определение',
    title: 'ТЕСТОВИ ДАННИ: Определение по измислено дело',
    date: '2024-02-29',
    court_id: 8,
    court: 'ТЕСТОВИ ДАННИ: Друг съд',
    decision_number: '55',
    case_number: '17/2024',
    reporting_judge: 'Друга Тестова Съдийка',
    elements: [
      { ref: '1', label: 'Мотиви', text: 'ТЕСТОВИ ДАННИ: Касационната жалба срещу обезщетение е недопустима.' },
    ],
  },
];

/** Writes the synthetic corpus as JSON Lines to `<dir>/corpus.jsonl` and returns the file's path. */
export function writeSyntheticCorpus(dir: string, documents: CorpusDocument[] = SYNTHETIC_DOCUMENTS): string {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'corpus.jsonl');
  fs.writeFileSync(file, documents.map((d) => JSON.stringify(d)).join('\n') + '\n');
  return file;
}

/**
 * `count` made-up laws (`test-generated-1`…), each with `articles` articles of a few invented sentences: a corpus large
 * enough for an index build to take a while, e.g. to cancel it mid-way. Titles say they are test data.
 */
export function generatedLaws(count: number, articles = 5): CorpusDocument[] {
  const words = ['пазител', 'фар', 'кошер', 'джудже', 'облак', 'часовник', 'лодка', 'градина', 'пчела', 'светлина'];
  return Array.from({ length: count }, (_, i) => ({
    document_id: `test-generated-${i + 1}`,
    source_type: 'bulgarian_laws_regulations',
    type: 'Закон',
    title: `ТЕСТОВИ ДАННИ: Измислен закон № ${i + 1} за ${words[i % words.length]}`,
    date: `20${String(10 + (i % 15))}-0${1 + (i % 9)}-1${i % 10}`,
    in_force_date: null,
    author: 'ТЕСТОВИ ДАННИ: измислен автор',
    url: `https://example.invalid/test-generated-${i + 1}`,
    signature: null,
    elements: Array.from({ length: articles }, (_, a) => ({
      ref: String(a + 1),
      label: `Чл. ${a + 1}.`,
      text:
        `Чл. ${a + 1}. ТЕСТОВИ ДАННИ: ` +
        Array.from({ length: 12 }, (_, w) => `${words[(i + a + w) % words.length]}${(i * 7 + a * 3 + w) % 50}`).join(' ') +
        '. Този текст е измислен за проверка и не е част от действащ нормативен акт.',
    })),
  }));
}

/** Writes `documents` as JSON Lines to `file` (plain) and returns `file`. */
export function writeCorpusFile(file: string, documents: readonly CorpusDocument[]): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, documents.map((d) => JSON.stringify(d)).join('\n') + '\n');
  return file;
}
