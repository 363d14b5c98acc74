/**
 * Properties of the ranking that hold for every query a user may type, checked over every question of the judged set
 * (`bench/judged/`) on the real corpus (read from `../shared/corpus` at run time): the first k results for
 * `max_results` k are the first k for 50, and scores never rise down the list. Plus the properties that make the
 * subject index and the translation model useful: a question in everyday words reaches the article it asks about,
 * and the explanation names the law's words the translation model searched for. (Phrases: `phrases.test.ts`.)
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { SearchResponse } from '../../../src/contract/types.js';
import { search } from '../../../src/sandbox/search/pipeline.js';
import { haveSharedCorpus, useRealIndex } from '../real-index.js';
const JUDGED = fileURLToPath(new URL('../../../bench/judged', import.meta.url));

/** Every query of the judged set (the questions only: the answers are not read here). */
function judgedQueries(): string[] {
  return readdirSync(JUDGED)
    .filter((name) => name.endsWith('.json') && name !== 'baseline.json')
    .flatMap((name) => (JSON.parse(readFileSync(path.join(JUDGED, name), 'utf8')) as { query: string }[]).map((q) => q.query));
}

describe.skipIf(!haveSharedCorpus)('the ranking over the judged set’s queries (real corpus)', () => {
  const realIndex = useRealIndex('pravo-ranking-properties-');

  const ids = (r: SearchResponse): string[] => r.results.map((x) => x.document_id);

  it('gives, for max_results 7, the first 7 results of max_results 50, scores falling with rank', () => {
    const queries = judgedQueries();
    expect(queries.length).toBeGreaterThan(200);
    const broken: string[] = [];
    for (const query of queries) {
      const all = search(realIndex(), { query, max_results: 50 });
      for (const k of [7]) {
        const first = search(realIndex(), { query, max_results: k });
        if (JSON.stringify(ids(first)) !== JSON.stringify(ids(all).slice(0, k))) broken.push(`${k}: ${query}`);
        // The same results, scores and excerpts: only the cut differs.
        expect(first.results).toEqual(all.results.slice(0, k));
      }
      const scores = all.results.map((r) => r.score!);
      for (let i = 1; i < scores.length; i++) if (scores[i]! > scores[i - 1]!) broken.push(`score rises at ${i + 1}: ${query}`);
    }
    expect(broken).toEqual([]);
  }, 300_000);

  it('answers a question in everyday words with the article it asks about, and says which words of the law it searched', () => {
    const reply = search(realIndex(), { query: 'може ли шефът да ме уволни веднага без предупреждение', max_results: 5 });
    const first = reply.results[0]!;
    expect(first.title).toBe('Кодекс на труда');
    expect(first.excerpts.map((e) => e.excerpt_id)).toContain('akn-1986-dv-26-86-1:330');
    expect(first.explanation).toMatch(/Преведено на езика на закона: .*„шефът“ → „работодател/u);
    // A word found only in the questions written for the article is said to be there, not in its text.
    expect(first.explanation).toMatch(/„предупреждение“ (?:е|са) във въпросите, написани към Чл\. 330.* \(предметен указател\), не в текста\./u);
    expect(first.explanation).not.toMatch(/Съвпадение с [^.]*„предупреждение“/u);
  });
});
