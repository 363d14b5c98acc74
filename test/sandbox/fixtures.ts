/**
 * Synthetic corpora for the sandbox tests. Every document is invented test data (its title ends with
 * "(ТЕСТОВИ ДАННИ)"; a suffix, so that titles still start like the kinds of acts the ranking recognises), not legal
 * text.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach } from 'vitest';
import type { CorpusDocument } from '../../src/sandbox/corpus/reader.js';

const AUTHOR = 'ТЕСТОВИ ДАННИ: измислен автор';

/** An invented statute (its title marked as test data) with the given articles (`Чл. <ref>.`). */
export function law(
  document_id: string,
  title: string,
  date: string,
  elements: [ref: string, text: string][],
  extra: Partial<CorpusDocument> = {},
): CorpusDocument {
  return {
    document_id,
    source_type: 'bulgarian_laws_regulations',
    type: 'Закон',
    title: `${title} (ТЕСТОВИ ДАННИ)`,
    date,
    in_force_date: null,
    author: AUTHOR,
    url: `https://example.invalid/${document_id}`,
    signature: null,
    elements: elements.map(([ref, text]) => ({ ref, label: `Чл. ${ref}.`, text: `Чл. ${ref}. ${text}` })),
    ...extra,
  };
}

/** A filler sentence with none of the tests' query words. */
const FILLER = 'Тази изречена тук примерна фраза съществува само за да удължи текста на члена. ';

/** A long article: filler, the given sentence in the middle, more filler (about 3,000 characters). */
export function longArticleText(middle: string): string {
  return FILLER.repeat(20) + middle + ' ' + FILLER.repeat(20);
}

/** Laws only: the fixture for ranking, stemming, dates, excerpts. */
export const LAWS: CorpusDocument[] = [
  law('test-lighthouse', 'Закон за пазителите на фарове', '2020-01-15', [
    ['1', 'Пазителят на фара поддържа светлината на фара всяка нощ.'],
    ['2', 'Пазителят на фара води дневник на преминаващите кораби край фара.'],
    ['3', 'Общината изплаща възнаграждение на пазителя всеки месец.'],
  ]),
  law(
    'test-lighthouse-amend',
    'Закон за изменение и допълнение на Закона за пазителите на фарове',
    '2021-06-01',
    [['2', 'Пазителят вписва в дневника на фара и лодките.']],
  ),
  law('test-gnomes', 'Закон за градинските джуджета', '2019-03-10', [
    ['1', 'Градинските джуджета се боядисват веднъж годишно.'],
    ['2', 'Джуджето може да държи малък фар от глина.'],
  ]),
  law('test-hives', 'Закон за пчелните кошери', '2017-04-04', [['1', 'Пчеларят държи кошера чист.']]),
  law('test-hives-amend', 'Закон за изменение на Закона за пчелните кошери', '2018-04-04', [
    ['1', 'Пчеларят държи кошера чист. Пчеларят проверява кошера.'],
  ]),
  law('test-clouds', 'Закон за застрахователите на облаци', '2022-12-31', [
    ['1', 'Застрахователят изплаща обезщетение, когато облакът се разсее.'],
    ['2', 'Застрахователите водят регистър на облаците.'],
  ]),
  law('test-long', 'Закон за дългите текстове', '2018-07-01', [
    ['1', longArticleText('Тук се споменава единственият часовникар на селото.')],
    ['2', 'Часовникарят поправя часовници.'],
    ['2', 'Повторен номер на член: часовникарят сверява часовници.'],
  ]),
];

/** Case-law documents and a custom type, added to `LAWS` in the mixed fixture. */
export const CASES: CorpusDocument[] = [
  {
    ...law('test-case-1', 'Решение № 1 по измислено дело за фар', '2020-05-05', [
      ['1', 'Съдът приема, че пазителят на фара е изпълнил задълженията си.'],
    ]),
    source_type: 'high_courts_cases',
    type: 'Решение',
    court_id: 10,
    court: 'ТЕСТОВИ ДАННИ: Първи измислен съд',
    decision_number: '1',
    case_number: '100/2020',
    reporting_judge: 'Мария Иванова Петрова',
  },
  {
    ...law('test-case-2', 'Решение № 2 по измислено дело за фар', '2021-02-02', [
      ['1', 'Съдът отхвърля жалбата на пазителя на фара.'],
    ]),
    source_type: 'high_courts_cases',
    type: 'Решение',
    court_id: 20,
    court: 'ТЕСТОВИ ДАННИ: Втори измислен съд',
    decision_number: '2',
    case_number: '200/2021',
    reporting_judge: 'Георги Стоянов',
  },
  {
    ...law('test-opinion-1', 'Становище на измислен арбитър за фар', '2021-03-03', [
      ['1', 'Арбитърът смята, че пазителят на фара има право на почивка.'],
    ]),
    source_type: 'test_arbitration_awards',
    type: 'Становище',
    court_id: 30,
    court: 'ТЕСТОВИ ДАННИ: Измислен арбитраж',
    reporting_judge: 'Петър Арбитров',
  },
  {
    ...law('test-note-1', 'Бележка за фар', '2021-04-04', [['1', 'Бележка за пазителя на фара.']]),
    source_type: 'test_notes',
    type: 'Бележка',
  },
];

/** JSON Lines of the documents (plain). */
export function toJsonl(documents: readonly CorpusDocument[]): string {
  return documents.map((d) => JSON.stringify(d)).join('\n') + '\n';
}

/** A temporary directory, removed by `cleanup()`. */
export function tempDir(prefix = 'pravo-sandbox-test-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Writes the corpus to `path`, gzip-compressed when `gzip` is true (whatever the name). Returns `path`. */
export function writeCorpus(path: string, documents: readonly CorpusDocument[], gzip = false): string {
  const text = toJsonl(documents);
  writeFileSync(path, gzip ? gzipSync(Buffer.from(text, 'utf8')) : text);
  return path;
}

/**
 * A maker of temporary directories for the tests of the calling file: each directory it returns is removed after the
 * test that made it (it registers an `afterEach`, so call it at the top level of a test file).
 */
export function tempDirsPerTest(): () => string {
  const cleanups: (() => void)[] = [];
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup();
  });
  return () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    return t.dir;
  };
}

/**
 * A made-up act (test data, not legal text, said so in its title) dated 2021-01-01 whose articles are numbered from 1:
 * each text is prefixed with its label (`Чл. 1. …`), as the corpus writes articles.
 */
export function testAct(document_id: string, title: string, articles: string[]): CorpusDocument {
  return {
    document_id,
    source_type: 'bulgarian_laws_regulations',
    type: 'Закон',
    title: `${title} (ТЕСТОВИ ДАННИ)`,
    date: '2021-01-01',
    in_force_date: null,
    author: 'ТЕСТОВИ ДАННИ: измислен автор',
    url: `https://example.invalid/${document_id}`,
    signature: null,
    elements: articles.map((text, i) => ({ ref: String(i + 1), label: `Чл. ${i + 1}.`, text: `Чл. ${i + 1}. ${text}` })),
  };
}
