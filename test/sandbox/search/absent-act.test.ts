import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CorpusDocument } from '../../../src/sandbox/corpus/reader.js';
import { openIndex } from '../../../src/sandbox/corpus/index-db.js';
import type { SearchIndex } from '../../../src/sandbox/storage.js';
import { leadWithAbsentAct, search } from '../../../src/sandbox/search/pipeline.js';
import type { DocumentHit } from '../../../src/sandbox/search/ranking.js';
import { nominativeTitle } from '../../../src/shared/act-titles.js';
import { MISSING_KEY_TERM_CEILING } from '../../../src/sandbox/search/ranking.js';
import { law, LAWS, tempDir, writeCorpus } from '../fixtures.js';

/** An invented act of the synthetic corpus (`law` of the fixtures), its texts as articles 1, 2, … */
function act(document_id: string, title: string, date: string, texts: string[]): CorpusDocument {
  return law(document_id, title, date, texts.map((text, i): [string, string] => [String(i + 1), text]));
}

/** Amendments of an act the corpus does not hold, and the repeal of another. */
const ABSENT: CorpusDocument[] = [
  act('test-harbours-amend-1', 'Закон за изменение и допълнение на Закона за облачните пристанища', '2020-02-02', [
    'В чл. 5 таксата за акостиране на облак в облачно пристанище се увеличава.',
  ]),
  act('test-harbours-amend-2', 'Закон за изменение на Закона за облачните пристанища', '2022-03-03', [
    'В чл. 7 капитанът на облачното пристанище води дневник на облаците.',
  ]),
  act('test-cloud-code', 'Облачеен кодекс', '2015-05-05', ['Облачният кодекс урежда паркирането на дъждовни облаци.']),
  act('test-cloud-code-amend', 'Закон за изменение на Облачейния кодекс', '2019-05-05', [
    'В чл. 3 паркирането на дъждовни облаци се разрешава и нощем.',
  ]),
  act('test-rainbows-repeal', 'Закон за отмяна на Закона за дъгите', '2021-01-01', [
    'Законът за дъгите се отменя, а дъгата остава без такса за акостиране.',
  ]),
];

let index: SearchIndex;
let cleanup: () => void;

beforeAll(async () => {
  const t = tempDir();
  cleanup = t.cleanup;
  index = await openIndex({ corpusPath: writeCorpus(join(t.dir, 'laws.jsonl'), [...LAWS, ...ABSENT]), dataDir: join(t.dir, 'd') });
});

afterAll(() => {
  index.close();
  cleanup();
});

describe('an act the corpus holds only through its amendments', () => {
  it('names the act in the first result, in the nominative, and says the corpus holds only its amendments', () => {
    const first = search(index, { query: 'такса за акостиране в облачно пристанище' }).results[0]!;
    expect(first.document_id).toBe('test-harbours-amend-1');
    expect(first.absent_act).toBe('Закон за облачните пристанища (ТЕСТОВИ ДАННИ)');
    expect(first.explanation).toContain('Корпусът съдържа само изменения на „Закон за облачните пристанища (ТЕСТОВИ ДАННИ)“');
  });

  it('says nothing of the kind for an amending act whose act the corpus holds, or for a repeal', () => {
    const lighthouse = search(index, { query: 'дневника на фара и лодките' }).results.find((r) => r.document_id === 'test-lighthouse-amend');
    expect(lighthouse).toBeDefined();
    expect(lighthouse!.absent_act).toBeUndefined();
    // The amending act writes the code's title in another form („Облачейния кодекс“, which stems apart from „Облачеен“) than the code's own.
    const cloud = search(index, { query: 'паркирането на дъждовни облаци нощем' }).results.find((r) => r.document_id === 'test-cloud-code-amend');
    expect(cloud).toBeDefined();
    expect(cloud!.absent_act).toBeUndefined();
    const repeal = search(index, { query: 'дъгата' }).results.find((r) => r.document_id === 'test-rainbows-repeal');
    expect(repeal).toBeDefined();
    expect(repeal!.absent_act).toBeUndefined();
    expect(repeal!.explanation).not.toContain('само изменения');
  });

  it('turns the title an amending act writes into the act’s own title', () => {
    expect(nominativeTitle('Търговския закон')).toBe('Търговски закон');
    expect(nominativeTitle('Закона за движението по пътищата')).toBe('Закон за движението по пътищата');
    expect(nominativeTitle('Кодекса за социално осигуряване')).toBe('Кодекс за социално осигуряване');
    expect(nominativeTitle('Наказателно-процесуалния кодекс')).toBe('Наказателно-процесуален кодекс');
    expect(nominativeTitle('Семейния кодекс')).toBe('Семеен кодекс');
    expect(nominativeTitle('Конституцията на Република България')).toBe('Конституция на Република България');
    expect(nominativeTitle('Конвенцията за тестова защита')).toBe('Конвенция за тестова защита');
    // The first head noun is the title's: a law named after it keeps its own form.
    expect(nominativeTitle('Правилника за прилагане на тестовия закон')).toBe('Правилник за прилагане на тестовия закон');
  });
});

describe('scores that mean it', () => {
  it('keeps a result whose article lacks a key word of the question at or below 0.5, however good the rest', () => {
    const full = search(index, { query: 'пазителят на фара' }).results[0]!;
    expect(full.score).toBeGreaterThan(MISSING_KEY_TERM_CEILING);
    // „вулкан“ is in no article: the rarest word of the question, so a key word no result holds.
    const missing = search(index, { query: 'пазителят на фара вулкан' });
    expect(missing.results[0]!.document_id).toBe('test-lighthouse');
    expect(missing.results.every((r) => r.score! <= MISSING_KEY_TERM_CEILING)).toBe(true);
    const scores = missing.results.map((r) => r.score!);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });
});

describe('the amendments of an absent act as evidence', () => {
  /** A scored document for `leadWithAbsentAct` (only the fields it reads). */
  const hit = (document_id: string, score: number, absentAct: string | null = null): DocumentHit =>
    ({ meta: { document_id, absentAct }, articles: [], score, coverage: 1, termsInArticles: new Set(), termsInTitle: new Set() }) as unknown as DocumentHit;

  it('leads with the best amending act when the act’s amendments together outweigh the first result, scored as their sum', () => {
    const ranked = [hit('weak-match', 0.1), hit('amend-1', 0.08, 'X'), hit('other', 0.07), hit('amend-2', 0.06, 'X')];
    const led = leadWithAbsentAct(ranked);
    expect(led.map((d) => d.meta.document_id)).toEqual(['amend-1', 'weak-match', 'other', 'amend-2']);
    expect(led[0]!.score).toBeCloseTo(0.08 + 0.06 / 2);
  });

  it('keeps the order when the first result outweighs them, or is itself such an act', () => {
    const strong = [hit('strong', 0.5), hit('amend-1', 0.08, 'X'), hit('amend-2', 0.06, 'X')];
    expect(leadWithAbsentAct(strong)).toBe(strong);
    const already = [hit('amend-1', 0.08, 'X'), hit('other', 0.07)];
    expect(leadWithAbsentAct(already)).toBe(already);
  });
});
