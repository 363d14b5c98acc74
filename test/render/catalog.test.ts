/**
 * Renderers of the catalogs (`src/render/catalog.ts`): tables that fit the terminal and keep the values a user types
 * (source-type ids, court codes) whole, over the real courts (`../shared/corpus/bg-courts.json`, read at run time).
 */
import { describe, expect, it } from 'vitest';
import { renderCourtsTable, renderJudgesTable, renderSourceTypesTable } from '../../src/render/catalog.js';
import type { JudgesResponse, SourceTypesResponse } from '../../src/contract/types.js';
import { realCourts } from '../helpers/catalog-server.js';

const ANSI = /\u001b\[[0-9;]*m/g;
const lines = (text: string): string[] => text.replace(ANSI, '').replace(/\n$/, '').split('\n');
const widest = (text: string): number => Math.max(...lines(text).map((l) => [...l].length));

const LONG = 'ТЕСТОВИ ДАННИ: много дълго измислено име на вид източник '.repeat(3);
const sourceTypes: SourceTypesResponse = {
  source_types: [
    { id: 'bulgarian_laws_regulations', name: 'Закони и подзаконови нормативни актове', case_law: false, document_count: 1997 },
    { id: 'test_data_source_type_with_a_long_id', name: LONG, case_law: true, document_count: 0 },
  ],
};
const judges: JudgesResponse = {
  court: { court_id: 1, name: 'Върховен касационен съд' },
  judges: [{ name: `ТЕСТОВИ ДАННИ: ${'Дълго Име '.repeat(8)}`, decision_count: 3, latest_date: '2024-01-02', court_ids: [1, 2, 0, 110, 533] }],
};

describe('catalog tables', () => {
  it.each([60, 80, 120])('fit %i columns, coloured or not', (width) => {
    for (const color of [false, true]) {
      expect(widest(renderSourceTypesTable(sourceTypes, { width, color }))).toBeLessThanOrEqual(width);
      expect(widest(renderCourtsTable({ courts: realCourts() }, { width, color }))).toBeLessThanOrEqual(width);
      expect(widest(renderJudgesTable({ body: judges }, { width, color }))).toBeLessThanOrEqual(width);
    }
  });

  it('never cut a source-type id, which is what --type takes: whole from 80 columns, broken across lines below', () => {
    const at80 = lines(renderSourceTypesTable(sourceTypes, { width: 80, color: false }));
    expect(at80.some((l) => l.includes('test_data_source_type_with_a_long_id'))).toBe(true);
    const at60 = lines(renderSourceTypesTable(sourceTypes, { width: 60, color: false }));
    const idColumn = at60.map((l) => /^│ (\S*)\s*│/.exec(l)?.[1] ?? '').join('');
    expect(idColumn).toContain('bulgarian_laws_regulations');
    expect(idColumn).toContain('test_data_source_type_with_a_long_id');
    expect(idColumn).not.toContain('…');
  });

  it('the courts table: one row per court, codes whole and right-aligned, and renders 185 courts quickly', () => {
    const started = performance.now();
    const out = lines(renderCourtsTable({ courts: realCourts() }, { width: 80, color: false }));
    expect(performance.now() - started).toBeLessThan(2000);
    const codes = out.map((l) => /^│\s+(\d+) │/.exec(l)?.[1]).filter((c) => c !== undefined);
    expect(codes).toHaveLength(185);
    expect(codes.slice(0, 3)).toEqual(['0', '1', '2']);
  });

  it('no entries: one line saying so', () => {
    expect(renderSourceTypesTable({ source_types: [] }, { width: 80, color: false })).toBe('The catalog lists no source types.\n');
    expect(renderCourtsTable({ courts: [] }, { width: 80, color: false })).toBe('The catalog lists no courts.\n');
    expect(renderJudgesTable({ body: { court: null, judges: [] }, search: 'михова' }, { width: 80, color: false })).toBe(
      'No judges in the decisions of the collection matching „михова“.\n',
    );
  });
});

describe('judges cut at the limit', () => {
  const judge = (n: number) => ({ name: `Съдия ${n} (ТЕСТОВИ ДАННИ)`, decision_count: 1, latest_date: '2020-01-01', court_ids: [1] });
  const summary = (view: Parameters<typeof renderJudgesTable>[0]) => renderJudgesTable(view, { width: 120, color: false }).split('\n')[0];

  it('a list as long as the limit says it may be cut, and how to see more', () => {
    const twenty = { court: { court_id: 1, name: 'Върховен касационен съд' }, judges: Array.from({ length: 20 }, (_, i) => judge(i)) };
    expect(summary({ body: twenty })).toBe('20 judges in the decisions of Върховен касационен съд (ВКС) (the first 20; --limit 100 shows more)');
    expect(summary({ body: { ...twenty, judges: twenty.judges.slice(0, 5) }, limit: 5 })).toContain('(the first 5; --limit 100 shows more)');
  });

  it('a shorter list is whole', () => {
    expect(summary({ body: { court: null, judges: [judge(1), judge(2)] } })).toBe('2 judges in the decisions of the collection');
  });
});
