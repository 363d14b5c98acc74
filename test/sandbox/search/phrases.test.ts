/**
 * Phrases of the query (`queryPhrases`, `rescoreByPassage`): an article holding „без предизвестие“ as typed outweighs
 * one holding the same words apart. Synthetic acts (ТЕСТОВИ ДАННИ).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openIndex } from '../../../src/sandbox/corpus/index-db.js';
import { search } from '../../../src/sandbox/search/pipeline.js';
import { queryPhrases } from '../../../src/sandbox/search/ranking.js';
import type { SearchIndex } from '../../../src/sandbox/storage.js';
import { LAWS, tempDir, testAct, writeCorpus } from '../fixtures.js';

// The same words, as many, as close: together in one act, apart in the other (which a tie would put first, by id).
const TOGETHER = testAct('test-lamps-together', 'Закон за измислените фенери', [
  'Пазачът на фенера може да прекрати договора без предизвестие, когато фенерът угасне.',
]);
const APART = testAct('test-lamps-apart', 'Закон за измислените факли', [
  'Пазачът на факлата може да прекрати договора без факлата, като даде предизвестие.',
]);

let index: SearchIndex;
let cleanup: () => void;

beforeAll(async () => {
  const t = tempDir();
  cleanup = t.cleanup;
  index = await openIndex({ corpusPath: writeCorpus(join(t.dir, 'c.jsonl'), [...LAWS, TOGETHER, APART]), dataDir: join(t.dir, 'd') });
});

afterAll(() => {
  index.close();
  cleanup();
});

describe('phrases of a query', () => {
  it('are the query’s consecutive searched words, and a meaningful function word with the word after it', () => {
    expect(queryPhrases('Кога може да се прекрати трудовия договор без предизвестие?')).toEqual([
      'прекрат трудов',
      'трудов договор',
      'без предизвести',
    ]);
    // Punctuation breaks a phrase; „на“ joins nothing.
    expect(queryPhrases('уволнение, без предизвестие на работника')).toEqual(['без предизвести']);
  });

  it('put the article holding the phrase together above the one holding its words apart', () => {
    const reply = search(index, { query: 'прекратяване на договора без предизвестие' });
    expect(reply.results.map((r) => r.document_id).slice(0, 2)).toEqual(['test-lamps-together', 'test-lamps-apart']);
    expect(reply.results[0]!.score!).toBeGreaterThan(reply.results[1]!.score!);
  });
});
