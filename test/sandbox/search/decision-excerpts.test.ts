/**
 * A court decision's search excerpts come from its reasons and operative part (`excerptArticles`,
 * `src/sandbox/search/decision-parts.ts`): on a synthetic decision in the Constitutional Court's printed form (ТЕСТОВИ
 * ДАННИ, made-up text), whose header, reasons, operative part, dissent and appended Gazette text each hold words of
 * their own.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchResponse } from '../../../src/contract/types.js';
import type { CorpusDocument } from '../../../src/sandbox/corpus/reader.js';
import { openIndex } from '../../../src/sandbox/corpus/index-db.js';
import { search } from '../../../src/sandbox/search/pipeline.js';
import type { SearchIndex } from '../../../src/sandbox/storage.js';
import { tempDir, writeCorpus } from '../fixtures.js';

const paragraphs = [
  'РЕШЕНИЕ № 1 от 1 март 2024 г. по конституционно дело № 1 от 2024 г. за фара (ТЕСТОВИ ДАННИ)',
  'Конституционният съд в състав: председател: Зорница Фарова, членове: Борис Тестов, Вера Измислена, при участието на секретар-протоколиста Галя Тестова разгледа делото за фара, докладвано от съдията Борис Тестов.',
  'Тестовите мотиви обсъждат пазителя на фара и неговия фенер. ' + 'Съдът разглежда измислените доводи подробно. '.repeat(6),
  'Р Е Ш И :',
  'Обявява за тестова разпоредбата за фенера на пазителя.',
  'Председател: Зорница Фарова',
  'ОСОБЕНО МНЕНИЕ на съдията Вера Измислена. Не споделям извода за вулкана.',
  'РАЗДЕЛ ДЪРЖАВНИ ВЕДОМСТВА, УЧРЕЖДЕНИЯ И ОБЩИНИ ТЕСТОВО МИНИСТЕРСТВО ЗАПОВЕД № 1 за кратера (ТЕСТОВИ ДАННИ)',
];

const DECISION: CorpusDocument = {
  document_id: 'test-ks-parts',
  source_type: 'high_courts_cases',
  type: 'Решение',
  title: 'Решение № 1 от 01.03.2024 г. по к. д. № 1/2024 г. (ТЕСТОВИ ДАННИ)',
  date: '2024-03-01',
  author: 'ТЕСТОВИ ДАННИ: измислен съд',
  url: '',
  court_id: 0,
  court: 'Конституционен съд',
  decision_number: '1',
  case_number: '1/2024',
  case_kind: 'конституционно дело',
  reporting_judge: 'Борис Тестов',
  judges: ['Зорница Фарова', 'Борис Тестов', 'Вера Измислена'],
  elements: paragraphs.map((text, i) => ({ ref: String(i + 1), label: `¶ ${i + 1}`, text })),
};

let index: SearchIndex;
let cleanup: () => void;

beforeAll(async () => {
  const t = tempDir();
  cleanup = t.cleanup;
  index = await openIndex({ corpusPath: writeCorpus(join(t.dir, 'decisions.jsonl'), [DECISION]), dataDir: join(t.dir, 'd') });
});

afterAll(() => {
  index.close();
  cleanup();
});

const only = (response: SearchResponse): { labels: string[]; explanation: string } => {
  expect(response.results.map((r) => r.document_id)).toEqual(['test-ks-parts']);
  const result = response.results[0]!;
  return { labels: (result.excerpts ?? []).map((e) => e.label ?? ''), explanation: String(result.explanation ?? '') };
};

describe("a decision's excerpts", () => {
  it('come from the reasons and the operative part, never the title or the panel that hold the same words', () => {
    const { labels, explanation } = only(search(index, { query: 'фара' }));
    expect(labels).toEqual(['¶ 3']);
    expect(explanation).not.toContain('само в заглавието');
    const both = only(search(index, { query: 'фенер на пазителя' }));
    expect(both.labels.sort()).toEqual(['¶ 3', '¶ 5']);
  });

  it('come from a dissent only when nothing of the reasons or the operative part matched, and the explanation says so', () => {
    const { labels, explanation } = only(search(index, { query: 'вулкана' }));
    expect(labels).toEqual(['¶ 7']);
    expect(explanation).toContain('Откъсът ¶ 7 е от особено мнение, отпечатано с акта, не от мотивите на съда.');
  });

  it('come from the header only when it is all the query matched: one excerpt, and the explanation says so', () => {
    const { labels, explanation } = only(search(index, { query: 'Зорница Фарова' }));
    expect(labels).toHaveLength(1);
    expect(['¶ 2', '¶ 6']).toContain(labels[0]);
    expect(explanation).toMatch(/Думите на заявката са само (в заглавието и състава на акта|в подписите) \(¶ [26]\), не в мотивите или диспозитива\./);
  });

  it('never come from text printed after the act; a decision that matched only there is no result', () => {
    expect(search(index, { query: 'кратера' }).results).toEqual([]);
  });
});
