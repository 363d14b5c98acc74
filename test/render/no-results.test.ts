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
      `No results for „${QUERY}“: none of the 2896 documents searched holds the query's words.`,
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
