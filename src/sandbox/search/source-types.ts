/**
 * Which source types a search covers (spec: POST /v1/search, `source_types`: "When omitted, the service chooses types
 * by the question"; rule 1 for `court_ids`), and the `invalid_request` errors of that choice.
 */
import {
  isCourtSourceType,
  KNOWN_SOURCE_TYPES,
  type SearchRequest,
  type SourceTypeEntry,
} from '../../api/types.js';
import { analyze, type AnalyzedQuery } from './analysis.js';

/** A request the contract allows syntactically but the service rejects (spec: Errors, `invalid_request`). */
export class SearchRequestError extends Error {
  readonly code = 'invalid_request';
  /** The request field concerned. */
  readonly field: keyof SearchRequest;

  constructor(field: keyof SearchRequest, message: string) {
    super(message);
    this.name = 'SearchRequestError';
    this.field = field;
  }
}

/**
 * Words whose stems mark a question about case law (court decisions). Matched by stem after the same analysis as the
 * query, so their inflected forms with the same stem count too. "ВАС" is a stopword ("вас", "you"), so it is matched
 * separately, on the query's tokens, only when typed in capitals.
 */
const CASE_LAW_WORDS = [
  'решение', 'решения', 'решението', 'решенията',
  'съд', 'съда', 'съдът', 'съдилища', 'съдилищата', 'съдебен', 'съдебна', 'съдебно', 'съдебни', 'съдебната',
  'съдия', 'съдии', 'съдията', 'съдиите',
  'дело', 'делото', 'дела', 'делата',
  'касация', 'касацията', 'касационен', 'касационна', 'касационно', 'касационни', 'касационната',
  'вкс', 'практика', 'практиката',
  'определение', 'определения', 'определението',
  'тълкувателно', 'тълкувателни',
];
const CASE_LAW_STEMS: ReadonlySet<string> = new Set(CASE_LAW_WORDS.flatMap((w) => analyze(w)));
const CASE_LAW_UPPERCASE_TOKENS: ReadonlySet<string> = new Set(['ВАС', 'ВКС']);

/** Whether the analyzed query uses case-law vocabulary (see `chooseSourceTypes`). */
export function isCaseLawQuery(analyzed: AnalyzedQuery): boolean {
  return (
    analyzed.terms.some((t) => CASE_LAW_STEMS.has(t.stem)) ||
    analyzed.tokens.some((t) => CASE_LAW_UPPERCASE_TOKENS.has(t))
  );
}

/** Whether a source type holds court decisions: the catalog's `case_law`, else `isCourtSourceType` (spec names). */
export function isCaseLawType(sourceType: string, available: readonly SourceTypeEntry[]): boolean {
  const entry = available.find((e) => e.id === sourceType);
  return entry ? entry.case_law : isCourtSourceType(sourceType) === true;
}

/**
 * The source types a search covers (spec: POST /v1/search, `source_types`: "When omitted, the service chooses types
 * by the question").
 *
 * Rule (sandbox):
 * - `source_types` given (non-empty): exactly those types, duplicates removed. Each must be listed by
 *   `GET /v1/catalog/source-types` or be one the spec names (`bulgarian_laws_regulations`, `high_courts_cases`, which
 *   then simply match nothing when the corpus has none); any other value is `invalid_request`.
 * - `source_types` omitted or empty, the service chooses, from the types present in the corpus:
 *   1. `court_ids` or `judge_name` given → the case-law types (those whose catalog entry has `case_law: true`);
 *   2. otherwise, when the query uses case-law vocabulary — a word with the stem of решение/решения, съд/съдът,
 *      съдилища, съдебен/съдебна…, съдия/съдии, дело/дела, касация, касационен…, ВКС, практика, определение/
 *      определения, тълкувателно, or the abbreviation „ВАС“ in capitals — → `bulgarian_laws_regulations` plus the
 *      case-law types;
 *   3. otherwise → `bulgarian_laws_regulations`;
 *   and when the chosen set would be empty in step 2 or 3 (e.g. a corpus without laws), every type present.
 * - `court_ids` (non-empty) when no selected type is a case-law type (explicit or automatic, including a corpus with
 *   no case law at all) is `invalid_request` (spec rule 1).
 *
 * @param request the validated request (`searchRequestProblems` found nothing).
 * @param analyzedQuery `analyzeQuery(request.query)`.
 * @param availableTypes the corpus's catalog (`SearchIndex.sourceTypes()`).
 * @returns the selected source type ids, in the order given (explicit) or catalog order (automatic); may be empty in
 *   case 1 when the corpus has no case law and only `judge_name` is given.
 * @throws SearchRequestError (`invalid_request`) for an unknown source type or `court_ids` with only non-court types.
 */
export function chooseSourceTypes(
  request: SearchRequest,
  analyzedQuery: AnalyzedQuery,
  availableTypes: readonly SourceTypeEntry[],
): string[] {
  const known = new Set<string>([...availableTypes.map((e) => e.id), ...Object.values(KNOWN_SOURCE_TYPES)]);
  const courtIdsGiven = (request.court_ids?.length ?? 0) > 0;
  let selected: string[];
  if (request.source_types && request.source_types.length > 0) {
    selected = [...new Set(request.source_types)];
    const unknown = selected.filter((t) => !known.has(t));
    if (unknown.length > 0) {
      const list = unknown.map((t) => `"${t}"`).join(', ');
      throw new SearchRequestError(
        'source_types',
        `unknown source type${unknown.length > 1 ? 's' : ''} ${list}; the allowed values are listed by GET /v1/catalog/source-types`,
      );
    }
  } else {
    const present = availableTypes.filter((e) => e.document_count > 0);
    const caseLaw = present.filter((e) => e.case_law).map((e) => e.id);
    const laws = present.some((e) => e.id === KNOWN_SOURCE_TYPES.laws) ? [KNOWN_SOURCE_TYPES.laws] : [];
    if (courtIdsGiven || request.judge_name !== undefined) {
      selected = caseLaw;
    } else {
      selected = isCaseLawQuery(analyzedQuery) ? [...laws, ...caseLaw] : laws;
      if (selected.length === 0) selected = present.map((e) => e.id);
    }
  }
  if (courtIdsGiven && !selected.some((t) => isCaseLawType(t, availableTypes))) {
    throw new SearchRequestError(
      'court_ids',
      selected.length === 0
        ? 'court_ids applies only to case-law sources, and this collection has no case-law source types (see GET /v1/catalog/source-types)'
        : `court_ids applies only to case-law sources, and every selected source type (${selected.join(', ')}) is a non-court source`,
    );
  }
  return selected;
}
