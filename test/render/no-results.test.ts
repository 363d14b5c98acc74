/**
 * Why a search found nothing (`src/render/no-results.ts`): the line from the server's account (the sandbox's
 * `no_results_reason`), and, without it, from the request's filters and the catalogs. The counts and names here are
 * made up for the tests.
 */
import { describe, expect, it } from 'vitest';
import type { NoResultsReason, SearchRequest } from '../../src/contract/types.js';
import { noResultsReasonOf } from '../../src/render/fields.js';
import { noResultsLine } from '../../src/render/no-results.js';

const QUERY = 'неустойка по договор';
const request = (fields: Partial<SearchRequest> = {}): SearchRequest => ({ query: QUERY, ...fields });

/** A court's decisions left by `--court`, of the kind the sandbox reports (test data). */
const LEFT: NoResultsReason['left'] = {
  documents: 12,
  source_types: [{ value: 'high_courts_cases', documents: 12 }],
  courts: [{ value: 'Тестов върховен съд', documents: 12 }],
  years: { from: 2015, to: 2024 },
  case_kinds: [{ value: 'наказателно дело', documents: 12 }],
  departments: [
    { value: 'Първо наказателно отделение', documents: 7 },
    { value: 'Второ наказателно отделение', documents: 5 },
  ],
};

describe("noResultsLine, with the server's account", () => {
  it('names what the filter left and that none of it holds the words, then the option to widen', () => {
    const reason: NoResultsReason = { kind: 'no_match', filters: [{ filter: 'source_types', documents: 475 }, { filter: 'court_ids', documents: 12 }], left: LEFT };
    expect(noResultsLine({ request: request({ court_ids: [1] }), reason })).toBe(
      `No results for „${QUERY}“: of 475 documents, --court leaves 12 (Тестов върховен съд; 2015–2024; Първо наказателно отделение 7, ` +
        "Второ наказателно отделение 5), and none of them holds the query's words. Widen or drop --court to search more.",
    );
  });

  it('names the filter that left none, and what the filters before it left', () => {
    const reason: NoResultsReason = {
      kind: 'no_documents',
      filters: [
        { filter: 'source_types', documents: 475 },
        { filter: 'court_ids', documents: 12 },
        { filter: 'date_from', documents: 0 },
      ],
      left: LEFT,
    };
    expect(noResultsLine({ request: request({ court_ids: [1], date_from: '2025-01-01' }), reason })).toBe(
      `No results for „${QUERY}“: of 475 documents, --court leaves 12 (Тестов върховен съд; 2015–2024; Първо наказателно отделение 7, ` +
        'Второ наказателно отделение 5), and --from leaves none of them. Widen or drop --from to search more.',
    );
  });

  it('a query without searchable words, a search without filters, and types without documents', () => {
    const none = { documents: 0, source_types: [], courts: [], years: null, case_kinds: [], departments: [] };
    expect(noResultsLine({ request: request(), reason: { kind: 'no_words', filters: [{ filter: 'source_types', documents: 2896 }], left: none } })).toBe(
      `No results for „${QUERY}“: the query has no word that is searched (common words and single characters are skipped); use more specific words.`,
    );
    expect(noResultsLine({ request: request(), reason: { kind: 'no_match', filters: [{ filter: 'source_types', documents: 2896 }], left: none } })).toBe(
      `No results for „${QUERY}“: none of the 2896 documents searched holds the query's words; check their spelling or try other words.`,
    );
    const empty: NoResultsReason = { kind: 'no_documents', filters: [{ filter: 'source_types', documents: 0 }], left: none };
    expect(noResultsLine({ request: request({ source_types: ['high_courts_cases'] }), reason: empty })).toBe(
      `No results for „${QUERY}“: the service holds no documents of type high_courts_cases; nothing could match.`,
    );
    expect(noResultsLine({ request: request({ judge_name: 'Иванова' }), reason: empty })).toBe(
      `No results for „${QUERY}“: --judge selects court decisions, and the service holds none; nothing could match.`,
    );
  });

  it('reads the account tolerantly: another shape is no account; foreign text is sanitized', () => {
    expect(noResultsReasonOf({ no_results_reason: 'none' })).toBeUndefined();
    expect(noResultsReasonOf({ no_results_reason: { kind: 'other' } })).toBeUndefined();
    expect(noResultsReasonOf({})).toBeUndefined();
    const read = noResultsReasonOf({
      no_results_reason: { kind: 'no_match', filters: [{ filter: 'court_ids', documents: 3 }, { filter: 'bogus', documents: 1 }, { filter: 'date_to', documents: -1 }], left: { courts: [{ value: 'Съд\u001b]0;x\u0007', documents: 3 }, 'x'] } },
    });
    expect(read?.filters).toEqual([{ filter: 'court_ids', documents: 3 }]);
    expect(noResultsLine({ request: request({ court_ids: [7] }), reason: read! })).toBe(
      `No results for „${QUERY}“: --court leaves 3 (Съд 3), and none of them holds the query's words. Widen or drop --court to search more.`,
    );
  });
});

describe("noResultsLine, with the server's account of the corpus: whether to widen the search or the corpus lacks it", () => {
  /** Decisions of three courts, each with its years, as left before a filter that left none (test data). */
  const COURTS: NoResultsReason['left'] = {
    documents: 475,
    source_types: [{ value: 'high_courts_cases', documents: 475 }],
    courts: [
      { value: 'Тестов административен съд', documents: 314, years: { from: 2002, to: 2026 } },
      { value: 'Тестов конституционен съд', documents: 149, years: { from: 2003, to: 2026 } },
      { value: 'Тестов върховен съд', documents: 12, years: { from: 2015, to: 2024 } },
    ],
    years: { from: 2002, to: 2026 },
    dates: { from: '2002-12-18', to: '2026-04-02' },
    case_kinds: [],
    departments: [{ value: 'Петчленен състав', documents: 54 }],
  };
  const ELSEWHERE = {
    documents: 60,
    source_types: [
      { value: 'bulgarian_laws_regulations', documents: 58 },
      { value: 'high_courts_cases', documents: 2 },
    ],
    courts: [{ value: 'Тестов административен съд', documents: 2 }],
  };

  it('a civil question limited to a court whose decisions are all criminal: what the court holds, and where the words are', () => {
    const reason: NoResultsReason = { kind: 'no_match', filters: [{ filter: 'source_types', documents: 475 }, { filter: 'court_ids', documents: 12 }], left: LEFT, elsewhere: ELSEWHERE };
    expect(noResultsLine({ request: request({ source_types: ['high_courts_cases'], court_ids: [1] }), reason })).toBe(
      `No results for „${QUERY}“: of 475 documents of high_courts_cases, --court leaves 12 (Тестов върховен съд; 2015–2024; Първо наказателно ` +
        "отделение 7, Второ наказателно отделение 5), and none of them holds the query's words. Outside these filters, 60 documents hold words of the " +
        'query (bulgarian_laws_regulations 58, high_courts_cases 2; Тестов административен съд 2): widen or drop --type and --court to see them.',
    );
  });

  it('a court without decisions in the corpus: the courts that have them, each with its years', () => {
    const reason: NoResultsReason = { kind: 'no_documents', filters: [{ filter: 'source_types', documents: 475 }, { filter: 'court_ids', documents: 0 }], left: COURTS, elsewhere: ELSEWHERE };
    const line = noResultsLine({ request: request({ court_ids: [531] }), reason });
    expect(line).toBe(
      `No results for „${QUERY}“: of 475 documents (Тестов административен съд 314 (2002–2026), Тестов конституционен съд 149 (2003–2026), ` +
        'Тестов върховен съд 12 (2015–2024)), and --court leaves none of them: the corpus holds no decisions of that court. Outside this ' +
        'filter, 60 documents hold words of the query (bulgarian_laws_regulations 58, high_courts_cases 2; Тестов административен съд 2): widen or drop --court to see them.',
    );
    expect(line).not.toContain('Петчленен състав');
  });

  it('a date past the last decision: the latest date; before the first: the earliest', () => {
    const filters = (filter: 'date_from' | 'date_to'): NoResultsReason['filters'] => [
      { filter: 'source_types', documents: 475 },
      { filter, documents: 0 },
    ];
    expect(noResultsLine({ request: request({ date_from: '2030-01-01' }), reason: { kind: 'no_documents', filters: filters('date_from'), left: COURTS } })).toMatch(
      /, and --from leaves none of them: the latest is of 2026-04-02\. Widen or drop --from to search more\.$/,
    );
    expect(noResultsLine({ request: request({ date_to: '2001-01-01' }), reason: { kind: 'no_documents', filters: filters('date_to'), left: COURTS } })).toMatch(
      /, and --to leaves none of them: the earliest is of 2002-12-18\. Widen or drop --to to search more\.$/,
    );
  });

  it('a judge the corpus does not name: the nearest names, how many judges it names, how many decisions record no panel', () => {
    const left = { ...COURTS, judges: { named: 236, without_panel: 3, nearest: [{ value: 'Тестова Иванова', documents: 3 }, { value: 'Тест Петров', documents: 10 }] } };
    const reason: NoResultsReason = { kind: 'no_documents', filters: [{ filter: 'source_types', documents: 475 }, { filter: 'judge_name', documents: 0 }], left };
    expect(noResultsLine({ request: request({ judge_name: 'Иван Петров' }), reason })).toMatch(
      /, and --judge leaves none of them: no judge of their panels is named like „Иван Петров“ \(nearest: Тестова Иванова 3, Тест Петров 10\); the panels name 236 judges \(`pravo catalog judges` lists them\), and 3 of the decisions record no panel\. Widen or drop --judge to search more\.$/,
    );
  });

  it('words no document of the corpus holds, whatever the filters', () => {
    const reason: NoResultsReason = { kind: 'no_match', filters: [{ filter: 'source_types', documents: 475 }], left: COURTS, elsewhere: { documents: 0, source_types: [], courts: [] } };
    expect(noResultsLine({ request: request({ source_types: ['high_courts_cases'] }), reason })).toMatch(
      /and none of them holds the query's words\. No document of the corpus holds them, whatever the filters: try other words\.$/,
    );
  });

  it('reads the new parts of the account only when well formed, and sanitizes the names in them', () => {
    const read = noResultsReasonOf({
      no_results_reason: {
        kind: 'no_documents',
        filters: [{ filter: 'judge_name', documents: 0 }],
        left: {
          courts: [{ value: 'Съд', documents: 3, years: { from: 2002, to: 'x' } }, { value: 'Друг', documents: 1, years: { from: 2010, to: 2011 } }],
          dates: { from: '2002-01-01', to: 'soon' },
          judges: { named: 2, without_panel: 0, nearest: [{ value: 'Име\u001b[31m', documents: 1 }] },
        },
        elsewhere: { documents: -1 },
      },
    });
    expect(read?.left.courts).toEqual([{ value: 'Съд', documents: 3 }, { value: 'Друг', documents: 1, years: { from: 2010, to: 2011 } }]);
    expect(read?.left.dates).toBeUndefined();
    expect(read?.elsewhere).toBeUndefined();
    const line = noResultsLine({ request: request({ judge_name: 'Име' }), reason: read! });
    expect(line).toContain('(nearest: Име 1); the panels name 2 judges');
    expect(line).not.toContain('\u001b');
  });
});

describe('noResultsLine, without it: the filters applied and what the catalogs say of them', () => {
  it('names the court with the decisions the catalog lists, and each other filter', () => {
    const courts = { courts: [{ court_id: 1, name: 'Тестов върховен съд', decision_count: 12 }] };
    expect(noResultsLine({ request: request({ court_ids: [1, 9], judge_name: 'Иванова', date_to: '2020-12-31' }), courts })).toBe(
      `No results for „${QUERY}“. Filters applied: --court Тестов върховен съд (the catalog lists 12 decisions of it), 9; --judge Иванова; ` +
        '--to 2020-12-31; widen or drop them to search more.',
    );
  });

  it('says that a type has no documents when the catalog says so, else only that nothing was found', () => {
    const sourceTypes = { source_types: [{ id: 'high_courts_cases', name: 'Тестова практика', case_law: true, document_count: 0 }] };
    expect(noResultsLine({ request: request({ source_types: ['high_courts_cases'] }), sourceTypes })).toBe(
      `No results for „${QUERY}“. The corpus has no documents of type high_courts_cases (Тестова практика); nothing could match.`,
    );
    expect(noResultsLine({ request: request() })).toBe(`No results for „${QUERY}“.`);
  });
});
