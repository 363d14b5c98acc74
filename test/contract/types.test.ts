/**
 * The contract's request rules and tolerant accessors (`src/contract/types.ts`): what the CLI checks before sending a
 * search and what the sandbox checks on receipt.
 */
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/contract/limits.js';
import { isCalendarDate, searchRequestProblems, type RequestProblem } from '../../src/contract/requests.js';
import { excerptTextOf, explanationOf, scoreOf } from '../../src/render/fields.js';

/** The fields a list of problems concerns, for compact assertions. */
const fields = (problems: RequestProblem[]): string[] => problems.map((p) => p.field);

/** A valid body with one field replaced or added. */
const bodyWith = (extra: Record<string, unknown>): Record<string, unknown> => ({ query: 'неустойка по договор', ...extra });

describe('searchRequestProblems: the body', () => {
  it('accepts a minimal valid body', () => {
    expect(searchRequestProblems({ query: 'неустойка' })).toEqual([]);
  });

  it.each([null, 'query', 42, ['query']])('rejects a body that is not a JSON object (%j)', (body) => {
    expect(fields(searchRequestProblems(body))).toEqual(['body']);
  });

  it('requires a string query', () => {
    expect(fields(searchRequestProblems({}))).toEqual(['query']);
    expect(fields(searchRequestProblems({ query: 123 }))).toEqual(['query']);
  });

  it('reports every problem at once, not only the first', () => {
    const problems = searchRequestProblems({ query: 'ab', max_results: 0, date_from: '2025-02-29' });
    expect(fields(problems).sort()).toEqual(['date_from', 'max_results', 'query']);
  });

  it('ignores the deprecated include_content and unknown fields', () => {
    expect(searchRequestProblems(bodyWith({ include_content: true }))).toEqual([]);
    expect(searchRequestProblems(bodyWith({ include_content: 'yes please' }))).toEqual([]);
    expect(searchRequestProblems(bodyWith({ some_future_field: 1 }))).toEqual([]);
  });
});

describe('searchRequestProblems: query length in characters (code points), 3 to 2000', () => {
  it.each([
    ['2 Cyrillic letters', 'жк', false],
    ['3 Cyrillic letters', 'жкд', true],
    ['2000 Cyrillic letters', 'ж'.repeat(2000), true],
    ['2001 Cyrillic letters', 'ж'.repeat(2001), false],
  ])('%s → valid: %s', (_name, query, valid) => {
    const problems = searchRequestProblems({ query });
    expect(problems.length === 0).toBe(valid);
    if (!valid) expect(fields(problems)).toEqual(['query']);
  });

  it('counts an astral character (two UTF-16 units) as one character', () => {
    // 2 code points but 4 UTF-16 units: too short although .length is 4.
    expect(fields(searchRequestProblems({ query: '𝔸𝔹' }))).toEqual(['query']);
    // 2000 code points, 4000 UTF-16 units: still allowed.
    expect(searchRequestProblems({ query: '𝔸'.repeat(2000) })).toEqual([]);
  });

  it('tells the user the allowed range and the length it got', () => {
    const [problem] = searchRequestProblems({ query: 'ж'.repeat(2001) });
    expect(problem?.message).toContain(String(LIMITS.queryMinLength));
    expect(problem?.message).toContain(String(LIMITS.queryMaxLength));
    expect(problem?.message).toContain('2001');
  });
});

describe('searchRequestProblems: max_results, an integer 1 to 50', () => {
  it.each([
    [0, false],
    [1, true],
    [50, true],
    [51, false],
    [2.5, false],
    [-1, false],
    ['10', false],
    [Number.NaN, false],
  ])('max_results %j → valid: %s', (maxResults, valid) => {
    const problems = searchRequestProblems(bodyWith({ max_results: maxResults }));
    expect(fields(problems)).toEqual(valid ? [] : ['max_results']);
  });
});

describe('searchRequestProblems: dates', () => {
  it.each([
    ['2024-02-29', true],
    ['2025-02-28', true],
    ['2025-02-29', false],
    ['2025-13-01', false],
    ['2025-00-10', false],
    ['2025-04-31', false],
    ['2025-1-5', false],
    ['05.01.2025', false],
    ['2025-01-05T00:00:00Z', false],
  ])('date_from %s → valid: %s', (date, valid) => {
    expect(fields(searchRequestProblems(bodyWith({ date_from: date })))).toEqual(valid ? [] : ['date_from']);
    expect(fields(searchRequestProblems(bodyWith({ date_to: date })))).toEqual(valid ? [] : ['date_to']);
  });

  it('rejects a non-string date', () => {
    expect(fields(searchRequestProblems(bodyWith({ date_to: 20250101 })))).toEqual(['date_to']);
  });

  it('rejects date_from after date_to and names both dates', () => {
    const problems = searchRequestProblems(bodyWith({ date_from: '2025-03-02', date_to: '2025-03-01' }));
    expect(fields(problems)).toEqual(['date_from']);
    expect(problems[0]?.message).toContain('2025-03-02');
    expect(problems[0]?.message).toContain('2025-03-01');
  });

  it('accepts date_from equal to date_to (both bounds are inclusive)', () => {
    expect(searchRequestProblems(bodyWith({ date_from: '2025-03-01', date_to: '2025-03-01' }))).toEqual([]);
  });
});

describe('searchRequestProblems: court_ids', () => {
  it('accepts integers', () => {
    expect(searchRequestProblems(bodyWith({ court_ids: [1, 42] }))).toEqual([]);
  });

  it.each([[1.5], ['1'], [null], '1', 1].map((v) => [v] as const))('rejects court_ids %j', (courtIds) => {
    expect(fields(searchRequestProblems(bodyWith({ court_ids: courtIds })))).toEqual(['court_ids']);
  });

  it('rejects court_ids with only non-court sources (spec rule 1)', () => {
    const problems = searchRequestProblems(
      bodyWith({ court_ids: [1], source_types: ['bulgarian_laws_regulations'] }),
    );
    expect(fields(problems)).toEqual(['court_ids']);
  });

  it('accepts court_ids when a court source is selected', () => {
    expect(searchRequestProblems(bodyWith({ court_ids: [1], source_types: ['high_courts_cases'] }))).toEqual([]);
    expect(
      searchRequestProblems(
        bodyWith({ court_ids: [1], source_types: ['bulgarian_laws_regulations', 'high_courts_cases'] }),
      ),
    ).toEqual([]);
  });

  it('leaves an unknown source type to the server (it may hold court decisions)', () => {
    expect(searchRequestProblems(bodyWith({ court_ids: [1], source_types: ['regional_courts_cases'] }))).toEqual([]);
    expect(
      searchRequestProblems(bodyWith({ court_ids: [1], source_types: ['bulgarian_laws_regulations', 'other_type'] })),
    ).toEqual([]);
  });

  it('accepts court_ids without source_types (the service chooses)', () => {
    expect(searchRequestProblems(bodyWith({ court_ids: [7] }))).toEqual([]);
  });
});

describe('searchRequestProblems: source_types and judge_name', () => {
  it.each(['bulgarian_laws_regulations', [''], [1]].map((v) => [v] as const))('rejects source_types %j', (sourceTypes) => {
    expect(fields(searchRequestProblems(bodyWith({ source_types: sourceTypes })))).toEqual(['source_types']);
  });

  it.each([[''], ['   '], [5]])('rejects judge_name %j', (judgeName) => {
    expect(fields(searchRequestProblems(bodyWith({ judge_name: judgeName })))).toEqual(['judge_name']);
  });
});

describe('isCalendarDate', () => {
  it.each([
    ['2024-02-29', true],
    ['2000-02-29', true],
    ['1900-02-29', false],
    ['2025-02-29', false],
    ['2025-13-01', false],
    ['2025-12-31', true],
    ['2025-12-32', false],
    ['', false],
    [' 2025-01-01', false],
    ['2025-01-01 ', false],
  ])('%j → %s', (value, expected) => {
    expect(isCalendarDate(value)).toBe(expected);
  });
});

describe('tolerant accessors', () => {
  it('scoreOf reads score, else relevance_score, else relevance; ignores non-numbers', () => {
    expect(scoreOf({ score: 0.5, relevance_score: 0.9 })).toBe(0.5);
    expect(scoreOf({ relevance_score: 0.9 })).toBe(0.9);
    expect(scoreOf({ relevance: 0.3 })).toBe(0.3);
    expect(scoreOf({ score: 0 })).toBe(0);
    expect(scoreOf({ score: '0.5' })).toBeUndefined();
    expect(scoreOf({})).toBeUndefined();
  });

  it('explanationOf reads explanation, else relevance_explanation, else reason; empty and null mean absent', () => {
    expect(explanationOf({ explanation: 'ТЕСТОВИ ДАННИ: обяснение' })).toBe('ТЕСТОВИ ДАННИ: обяснение');
    expect(explanationOf({ relevance_explanation: 'алтернатива' })).toBe('алтернатива');
    expect(explanationOf({ reason: 'причина' })).toBe('причина');
    expect(explanationOf({ explanation: '', reason: 'причина' })).toBe('причина');
    expect(explanationOf({ explanation: null })).toBeUndefined();
    expect(explanationOf({})).toBeUndefined();
  });

  it('excerptTextOf reads text, else content, else snippet; empty string when absent', () => {
    expect(excerptTextOf({ text: 'текст', content: 'друго' })).toBe('текст');
    expect(excerptTextOf({ content: 'съдържание' })).toBe('съдържание');
    expect(excerptTextOf({ snippet: 'откъс' })).toBe('откъс');
    expect(excerptTextOf({ text: 5 })).toBe('');
    expect(excerptTextOf({})).toBe('');
  });
});
