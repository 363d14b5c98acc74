/**
 * The document filters of `POST /v1/search` (spec: POST /v1/search, request fields): selected source types, inclusive
 * `date_from`/`date_to` on the publication date, and, on documents of case-law types only, `court_ids` and
 * `judge_name` (the reporting judge or any judge of the panel, approximately: see `judges.ts`). One list of filters
 * ({@link documentFilters}) decides which documents are searched ({@link allowedDocuments}) and, when nothing is
 * found, says what each filter left ({@link noResultsReason}).
 */
import type { FilterCount, NoResultsReason, SearchFilter, SearchRequest } from '../../contract/types.js';
import { decisionJudgeMatcher } from './judges.js';
import type { DocumentMeta, SearchMetadata } from './metadata.js';

/** One filter of the request: which documents of the selected source types it keeps. */
interface DocumentFilter {
  filter: Exclude<SearchFilter, 'source_types'>;
  keeps(meta: DocumentMeta): boolean;
}

/**
 * The request's filters beyond the source types, in the order of `SEARCH_FILTERS` (courts, judge, dates): only those
 * the request gives. `court_ids` and `judge_name` keep every document of a type that is not case law.
 * @param caseLaw the case-law types among the selected ones.
 */
function documentFilters(request: SearchRequest, caseLaw: ReadonlySet<string>, metadata: SearchMetadata): DocumentFilter[] {
  const filters: DocumentFilter[] = [];
  if (request.court_ids && request.court_ids.length > 0) {
    const courtIds = new Set(request.court_ids);
    filters.push({ filter: 'court_ids', keeps: (m) => !caseLaw.has(m.source_type) || (m.court_id !== null && courtIds.has(m.court_id)) });
  }
  if (request.judge_name !== undefined) {
    // A typo fits a name only when no judge of the corpus fits the name as typed (`typosAllowed`).
    const judgeMatches = decisionJudgeMatcher(request.judge_name, metadata.documents);
    filters.push({ filter: 'judge_name', keeps: (m) => !caseLaw.has(m.source_type) || judgeMatches(m) });
  }
  const from = request.date_from;
  if (from !== undefined) filters.push({ filter: 'date_from', keeps: (m) => m.date >= from });
  const to = request.date_to;
  if (to !== undefined) filters.push({ filter: 'date_to', keeps: (m) => m.date <= to });
  return filters;
}

/**
 * Which documents pass the filters, decided once per document.
 * @param selected the source types of `chooseSourceTypes`.
 * @param caseLaw the case-law types among `selected` (`court_ids` and `judge_name` apply only to their documents).
 * @returns per document rowid, 1 when the document passes, else 0 (length = `metadata.documents.length`).
 */
export function allowedDocuments(
  request: SearchRequest,
  metadata: SearchMetadata,
  selected: ReadonlySet<string>,
  caseLaw: ReadonlySet<string>,
): Uint8Array {
  const filters = documentFilters(request, caseLaw, metadata);
  const allowed = new Uint8Array(metadata.documents.length);
  for (const meta of metadata.documents) {
    if (meta && selected.has(meta.source_type) && filters.every((f) => f.keeps(meta))) allowed[meta.id] = 1;
  }
  return allowed;
}

/** Most values listed per kind in {@link NoResultsReason} `left` (the most frequent). */
const LEFT_VALUES = 5;

/** `values` counted, most frequent first (ties by value), at most {@link LEFT_VALUES}; nulls and blanks skipped. */
function counted(values: readonly (string | null)[]): FilterCount[] {
  const counts = new Map<string, number>();
  for (const v of values) if (v !== null && v.trim() !== '') counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts]
    .map(([value, documents]) => ({ value, documents }))
    .sort((a, b) => b.documents - a.documents || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0))
    .slice(0, LEFT_VALUES);
}

/**
 * Why a search that found nothing found nothing (the sandbox's `no_results_reason`, docs/sandbox.md, "Why nothing was
 * found"): the documents of the selected source types, what each further filter of the request left of them (in the
 * order of `SEARCH_FILTERS`), and what the documents left are (source types, courts, case kinds, departments, years):
 * those every filter left, or, when none is left, those left before the filter that left none (so that a user sees what
 * that filter excluded: 12 decisions of the ВКС of 2015–2024, none from 2025).
 * @param kind `no_words` when the query had nothing to search; otherwise `no_documents` or `no_match` is decided here
 *   by whether any document is left.
 */
export function noResultsReason(
  request: SearchRequest,
  metadata: SearchMetadata,
  selected: ReadonlySet<string>,
  caseLaw: ReadonlySet<string>,
  kind: 'no_words' | 'searched',
): NoResultsReason {
  const filters = documentFilters(request, caseLaw, metadata);
  const counts = new Array<number>(filters.length + 1).fill(0);
  // Per document of the selected types, how many filters it passed, in order.
  const passed: [DocumentMeta, number][] = [];
  for (const meta of metadata.documents) {
    if (!meta || !selected.has(meta.source_type)) continue;
    counts[0]!++;
    let n = 0;
    while (n < filters.length && filters[n]!.keeps(meta)) counts[++n]!++;
    passed.push([meta, n]);
  }
  // The documents every filter left; when none is, those left before the filter that left none.
  let step = filters.length;
  while (step > 0 && counts[step] === 0) step--;
  const left = counts[step] === 0 ? [] : passed.filter(([, n]) => n >= step).map(([meta]) => meta);
  const years = left.map((m) => Number(m.date.slice(0, 4))).filter((y) => Number.isInteger(y) && y > 0);
  return {
    kind: kind === 'no_words' ? 'no_words' : counts[filters.length] === 0 ? 'no_documents' : 'no_match',
    filters: [{ filter: 'source_types', documents: counts[0]! }, ...filters.map((f, i) => ({ filter: f.filter, documents: counts[i + 1]! }))],
    left: {
      documents: left.length,
      source_types: counted(left.map((m) => m.source_type)),
      courts: counted(left.map((m) => m.court)),
      years: years.length === 0 ? null : { from: Math.min(...years), to: Math.max(...years) },
      case_kinds: counted(left.map((m) => m.case_kind)),
      departments: counted(left.map((m) => m.department)),
    },
  };
}
