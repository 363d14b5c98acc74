/**
 * The document filters of `POST /v1/search` (spec: POST /v1/search, request fields): selected source types, inclusive
 * `date_from`/`date_to` on the publication date, and, on documents of case-law types only, `court_ids` and
 * `judge_name` (the reporting judge or any judge of the panel, approximately: see `judges.ts`). One list of filters
 * ({@link documentFilters}) decides which documents are searched ({@link allowedDocuments}) and, when nothing is
 * found, says what each filter left ({@link noResultsReason}).
 */
import type { FilterCount, NoResultsReason, SearchFilter, SearchRequest } from '../../contract/types.js';
import type { SearchIndex } from '../storage.js';
import { decisionJudgeMatcher, decisionJudgeNames, judgeNameKey, judgeWordFits } from './judges.js';
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

/** Each court of `documents` with its documents and the years of their dates, most documents first, at most {@link LEFT_VALUES}. */
function courtsWithYears(documents: readonly DocumentMeta[]): FilterCount[] {
  const years = new Map<string, { from: number; to: number }>();
  for (const m of documents) {
    const year = Number(m.date.slice(0, 4));
    if (m.court === null || !Number.isInteger(year) || year <= 0) continue;
    const span = years.get(m.court);
    years.set(m.court, span === undefined ? { from: year, to: year } : { from: Math.min(span.from, year), to: Math.max(span.to, year) });
  }
  return counted(documents.map((m) => m.court)).map((c) => {
    const span = years.get(c.value);
    return span === undefined ? c : { ...c, years: span };
  });
}

/**
 * The judges of `decisions` as `no_results_reason.left.judges` gives them for a `judge_name` that found none of them:
 * how many distinct names, how many decisions record no judge, and the names nearest to `judgeName` (names a typed word
 * fits a word of, `judgeWordFits`: most fitting words first, then most decisions, then the name; at most
 * {@link LEFT_VALUES}).
 */
function judgesOf(decisions: readonly DocumentMeta[], judgeName: string): NonNullable<NoResultsReason['left']['judges']> {
  const counts = new Map<string, number>();
  let withoutPanel = 0;
  for (const d of decisions) {
    const names = decisionJudgeNames(d);
    if (names.length === 0) withoutPanel++;
    for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  const wanted = judgeNameKey(judgeName);
  const nearest = [...counts]
    .map(([name, documents]) => {
      const words = judgeNameKey(name);
      return { value: name, documents, fits: wanted.filter((typed) => words.some((word) => judgeWordFits(typed, word))).length };
    })
    .filter((j) => j.fits > 0)
    .sort((a, b) => b.fits - a.fits || b.documents - a.documents || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0))
    .slice(0, LEFT_VALUES)
    .map(({ value, documents }) => ({ value, documents }));
  return { named: counts.size, without_panel: withoutPanel, nearest };
}

/**
 * The documents rowids of the index that hold a word of the query as the search matches it: every article matching
 * one of `stems` (the search's plan: each typed word, its legal terms and its word family) belongs to one; whatever
 * the filters. For `no_results_reason.elsewhere`.
 * @throws the index's SQLite errors.
 */
export function documentsHolding(index: SearchIndex, metadata: SearchMetadata, stems: readonly (readonly { stem: string; family?: boolean }[])[]): Set<number> {
  const documents = new Set<number>();
  for (const group of stems) {
    for (const s of group) for (const [article] of index.matchStem(s.stem, s.family === true)) documents.add(metadata.articleDocument[article] ?? 0);
  }
  documents.delete(0);
  return documents;
}

/**
 * Why a search that found nothing found nothing (the sandbox's `no_results_reason`, docs/sandbox.md, "Why nothing was
 * found"): the documents of the selected source types, what each further filter of the request left of them (in the
 * order of `SEARCH_FILTERS`), and what the documents left are (source types, courts with their years, case kinds,
 * departments, years and first and last dates, and with `judge_name` their judges): those every filter left, or, when
 * none is left, those left before the filter that left none (so that a user sees what that filter excluded: 12
 * decisions of the ВКС of 2015–2024, none from 2025). With `holding` (the documents holding the query's words,
 * {@link documentsHolding}) and filters given, what the whole corpus holds of the query (`elsewhere`).
 * @param kind `no_words` when the query had nothing to search; otherwise `no_documents` or `no_match` is decided here
 *   by whether any document is left.
 */
export function noResultsReason(
  request: SearchRequest,
  metadata: SearchMetadata,
  selected: ReadonlySet<string>,
  caseLaw: ReadonlySet<string>,
  kind: 'no_words' | 'searched',
  holding?: () => ReadonlySet<number>,
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
  const dates = left.map((m) => m.date).filter((d) => /^\d{4}-\d{2}-\d{2}$/.test(d)).sort();
  const reason: NoResultsReason = {
    kind: kind === 'no_words' ? 'no_words' : counts[filters.length] === 0 ? 'no_documents' : 'no_match',
    filters: [{ filter: 'source_types', documents: counts[0]! }, ...filters.map((f, i) => ({ filter: f.filter, documents: counts[i + 1]! }))],
    left: {
      documents: left.length,
      source_types: counted(left.map((m) => m.source_type)),
      courts: courtsWithYears(left),
      years: years.length === 0 ? null : { from: Math.min(...years), to: Math.max(...years) },
      dates: dates.length === 0 ? null : { from: dates[0]!, to: dates.at(-1)! },
      case_kinds: counted(left.map((m) => m.case_kind)),
      departments: counted(left.map((m) => m.department)),
    },
  };
  if (request.judge_name !== undefined) reason.left.judges = judgesOf(left.filter((m) => caseLaw.has(m.source_type)), request.judge_name);
  const filtered = filters.length > 0 || (request.source_types?.length ?? 0) > 0;
  if (kind === 'searched' && filtered && holding !== undefined) {
    const elsewhere = [...holding()].flatMap((id) => metadata.documents[id] ?? []);
    reason.elsewhere = { documents: elsewhere.length, source_types: counted(elsewhere.map((m) => m.source_type)), courts: counted(elsewhere.map((m) => m.court)) };
  }
  return reason;
}
