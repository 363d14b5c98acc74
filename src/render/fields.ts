/**
 * Tolerant reading of fields the spec does not name (spec: "Exact field names of ... the court-decision data: not
 * shown"; "Catalog entries (source types, courts, judges): fields: not shown"): each accessor takes the sandbox's
 * name first (`src/contract/types.ts`), then common alternates, so that a live service using other names still renders.
 * Values come back raw (unsanitized): renderers sanitize them; `absentActLine`, a whole line, is sanitized. Pure functions.
 */
import { SEARCH_FILTERS, type FilterCount, type NoResultsReason, type SearchFilter } from '../contract/types.js';
import { sanitizeLine } from '../shared/sanitize.js';

/** The first of `keys` whose value in `item` is a non-empty string (after trimming); `undefined` when none. */
export function stringField(item: object, keys: readonly string[]): string | undefined {
  const r = item as Record<string, unknown>;
  for (const key of keys) {
    const value = r[key];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return undefined;
}

/** The first of `keys` whose value in `item` is a finite number; `undefined` when none. */
export function numberField(item: object, keys: readonly string[]): number | undefined {
  const r = item as Record<string, unknown>;
  for (const key of keys) {
    const value = r[key];
    if (typeof value === 'number' && Number.isFinite(value)) return value;
  }
  return undefined;
}

/** The first of `keys` whose value in `item` is a boolean; `undefined` when none. */
export function booleanField(item: object, keys: readonly string[]): boolean | undefined {
  const r = item as Record<string, unknown>;
  for (const key of keys) {
    const value = r[key];
    if (typeof value === 'boolean') return value;
  }
  return undefined;
}

/**
 * A court reference as a service may give it: a number (`1`), a numeric string, or an object with `court_id` or `id`
 * (and maybe `name`). Returns its code, `undefined` when none can be read.
 */
export function courtIdOf(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  if (typeof value === 'string' && /^\d+$/.test(value.trim())) return Number(value.trim());
  if (typeof value === 'object' && value !== null) return numberField(value, ['court_id', 'id', 'code']);
  return undefined;
}

/** The court-decision data of a search result (sandbox: `court`, `court_id`, `decision_number`, `case_number`, `reporting_judge`). */
export interface DecisionFields {
  /** Court name: `court` (a string, or an object with `name`), else `court_name`. */
  court: string | undefined;
  /** Court code: `court_id`, else the `court` object's `court_id`/`id`. */
  courtId: number | undefined;
  /** `decision_number`, else `decision_no`, `act_number`. */
  decisionNumber: string | undefined;
  /** `case_number`, else `case_no`, `case`. */
  caseNumber: string | undefined;
  /** `reporting_judge`, else `judge_rapporteur`, `rapporteur`. */
  reportingJudge: string | undefined;
}

/** Reads the court-decision data of a search result (or a document), tolerantly; every field may be missing. */
export function decisionFieldsOf(result: object): DecisionFields {
  const r = result as Record<string, unknown>;
  const courtObject = typeof r.court === 'object' && r.court !== null ? r.court : undefined;
  const asText = (value: unknown): string | undefined =>
    typeof value === 'string' && value.trim() !== '' ? value : typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined;
  return {
    court: (courtObject ? stringField(courtObject, ['name']) : undefined) ?? stringField(result, ['court', 'court_name']),
    courtId: courtIdOf(r.court_id) ?? (courtObject ? courtIdOf(courtObject) : undefined),
    decisionNumber: asText(r.decision_number) ?? asText(r.decision_no) ?? asText(r.act_number),
    caseNumber: asText(r.case_number) ?? asText(r.case_no) ?? asText(r.case),
    reportingJudge: stringField(result, ['reporting_judge', 'judge_rapporteur', 'rapporteur']),
  };
}

/** `2026-02-10` → `10.02.2026` (the Bulgarian way of writing a date); other strings unchanged. */
export function bulgarianDate(date: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date.trim());
  return m ? `${m[3]}.${m[2]}.${m[1]}` : date.trim();
}

/**
 * What date a statute's text is current as of, in Bulgarian, from the sandbox's `as_of` and `consolidated` (a search
 * result or a document): `текст към 10.02.2026` for a consolidated text (amendments applied up to that date),
 * `текст както е обнародван, 29.12.2015` for a text as published — which is not today's law when the act has been
 * amended since. `undefined` when the item says nothing (court decisions, a service without these fields). Raw:
 * the caller sanitizes.
 */
export function textStatusOf(item: object): string | undefined {
  const asOf = textAsOf(item);
  return asOf === undefined ? undefined : `текст ${asOf}`;
}

/**
 * {@link textStatusOf} without its first word, for a field labelled `Текст`: `към 10.02.2026`, `както е обнародван,
 * 29.12.2015`; `undefined` when the item says nothing. Raw.
 */
export function textAsOf(item: object): string | undefined {
  const asOf = stringField(item, ['as_of', 'current_as_of']);
  const consolidated = booleanField(item, ['consolidated']);
  if (asOf === undefined) return undefined;
  return consolidated === true ? `към ${bulgarianDate(asOf)}` : `както е обнародван, ${bulgarianDate(asOf)}`;
}

/**
 * A count and its noun in Bulgarian: the singular after 1 and after a number ending in 1 other than 11 (`1 член`,
 * `21 член`: "двадесет и един член"), else the plural given, for a masculine noun its count form (`2 члена`,
 * `11 члена`, `0 члена`).
 */
export function bulgarianCount(count: number, singular: string, plural: string): string {
  return `${count} ${count % 10 === 1 && count % 100 !== 11 ? singular : plural}`;
}

/**
 * What the page at a statute's `url` shows when it is not the text served (the sandbox's `url_as_of`, the date of the
 * text on the page: a lex.bg page shows the act's current text, which is newer than a text here as first published):
 * `the page shows the act's current text, amended up to 31.07.2026; the text here is as first published,
 * 04.08.2006` (in Bulgarian with `bg`, for a memo's Markdown). `undefined` when `item` (a search result, a document, a stored result) has no `url_as_of`, or the page
 * shows the text of the same date. Raw: the caller sanitizes it.
 */
export function linkNoteOf(item: object, language: 'en' | 'bg' = 'en'): string | undefined {
  const page = stringField(item, ['url_as_of']);
  if (page === undefined) return undefined;
  const asOf = stringField(item, ['as_of', 'current_as_of']);
  if (asOf !== undefined && asOf.trim() === page.trim()) return undefined;
  const consolidated = booleanField(item, ['consolidated']);
  const words =
    language === 'bg'
      ? { older: 'текстът тук може да е по-стар', consolidated: 'текстът тук е консолидиран към', published: 'текстът тук е както е обнародван,', page: 'страницата показва действащия текст на акта с изменения до' }
      : { older: 'the text here may be older', consolidated: 'the text here is consolidated as of', published: 'the text here is as first published,', page: "the page shows the act's current text, amended up to" };
  const here = asOf === undefined ? words.older : `${consolidated === true ? words.consolidated : words.published} ${bulgarianDate(asOf)}`;
  return `${words.page} ${bulgarianDate(page)}; ${here}`;
}

/**
 * The line `pravo search` and `pravo answer` print above their output when the best evidence found is the amendments
 * of an act the service does not hold (the sandbox's `absent_act` on the first result or the first source):
 * `The service holds only amendments of „Закон за движението по пътищата“, not the act itself: …`. `undefined` when
 * `item` has no such field. Sanitized (one line, no control sequences): the title comes from a server.
 */
export function absentActLine(item: object | undefined): string | undefined {
  const title = item === undefined ? undefined : stringField(item, ['absent_act']);
  if (title === undefined) return undefined;
  return `The service holds only amendments of „${sanitizeLine(title)}“, not the act itself: the results are acts amending it, and the act's text is not among them.`;
}

/** Relevance score of a result or excerpt: `score`, else the first numeric field among common alternates. */
export function scoreOf(item: object): number | undefined {
  return numberField(item, ['score', 'relevance_score', 'relevance']);
}

/** Explanation of relevance of a result: `explanation`, else a common alternate; `undefined` when absent or blank. */
export function explanationOf(result: object): string | undefined {
  return stringField(result, ['explanation', 'relevance_explanation', 'reason']);
}

/** Text of an excerpt: `text`, else a common alternate; empty when absent. */
export function excerptTextOf(excerpt: object): string {
  const r = excerpt as Record<string, unknown>;
  for (const key of ['text', 'content', 'snippet']) {
    if (typeof r[key] === 'string') return r[key];
  }
  return '';
}

/** Label of a document element: `label`, else a common alternate, else `ref`; empty when none is a non-blank string. */
export function elementLabelOf(element: object): string {
  return stringField(element, ['label', 'title', 'heading', 'ref']) ?? '';
}

/** Text of a document element: `text`, else a common alternate; empty when absent. */
export function elementTextOf(element: object): string {
  return excerptTextOf(element);
}

/** `{from, to}` of two whole numbers ≥ 0 (years), else `undefined`. */
function yearSpanOf(value: unknown): { from: number; to: number } | undefined {
  const span = value as Record<string, unknown> | null | undefined;
  const year = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;
  return span && typeof span === 'object' && year(span.from) && year(span.to) ? { from: span.from, to: span.to } : undefined;
}

/** `{from, to}` of two `YYYY-MM-DD` dates, else `undefined`. */
function dateSpanOf(value: unknown): { from: string; to: string } | undefined {
  const span = value as Record<string, unknown> | null | undefined;
  const date = (v: unknown): v is string => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v);
  return span && typeof span === 'object' && date(span.from) && date(span.to) ? { from: span.from, to: span.to } : undefined;
}

/**
 * A list of `{value, documents}` (a court's also with its `years`) as the sandbox's `no_results_reason` gives it;
 * entries of another shape are skipped.
 */
function filterCountsOf(value: unknown): FilterCount[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry): FilterCount[] => {
    if (typeof entry !== 'object' || entry === null) return [];
    const name = stringField(entry, ['value', 'name']);
    const documents = numberField(entry, ['documents', 'count']);
    const years = yearSpanOf((entry as Record<string, unknown>).years);
    return name === undefined || documents === undefined ? [] : [years === undefined ? { value: name, documents } : { value: name, documents, years }];
  });
}

/**
 * Why a search found nothing, as the server says it (the sandbox's `no_results_reason` on a response without results;
 * docs/sandbox.md, "Why nothing was found"), read tolerantly: `undefined` when the response has none or it is not of
 * that shape (a live service without the field). Filters other than those of `SEARCH_FILTERS`, and counts that are
 * not whole numbers ≥ 0, are dropped; the optional parts (`left.dates`, `left.judges`, `elsewhere`, a court's
 * `years`) only when well formed. Strings come back raw: the caller sanitizes.
 */
export function noResultsReasonOf(response: object): NoResultsReason | undefined {
  const raw = (response as Record<string, unknown>).no_results_reason;
  if (typeof raw !== 'object' || raw === null) return undefined;
  const r = raw as Record<string, unknown>;
  const kind = r.kind;
  if (kind !== 'no_words' && kind !== 'no_documents' && kind !== 'no_match') return undefined;
  const count = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;
  const filters = (Array.isArray(r.filters) ? r.filters : []).flatMap((f): NoResultsReason['filters'] => {
    const entry = f as Record<string, unknown> | null;
    return entry !== null && typeof entry === 'object' && (SEARCH_FILTERS as readonly unknown[]).includes(entry.filter) && count(entry.documents)
      ? [{ filter: entry.filter as SearchFilter, documents: entry.documents }]
      : [];
  });
  const left = (typeof r.left === 'object' && r.left !== null ? r.left : {}) as Record<string, unknown>;
  const reason: NoResultsReason = {
    kind,
    filters,
    left: {
      documents: count(left.documents) ? left.documents : 0,
      source_types: filterCountsOf(left.source_types),
      courts: filterCountsOf(left.courts),
      years: yearSpanOf(left.years) ?? null,
      case_kinds: filterCountsOf(left.case_kinds),
      departments: filterCountsOf(left.departments),
    },
  };
  const dates = dateSpanOf(left.dates);
  if (dates !== undefined) reason.left.dates = dates;
  const judges = left.judges as Record<string, unknown> | null | undefined;
  if (judges && typeof judges === 'object' && count(judges.named) && count(judges.without_panel)) {
    reason.left.judges = { named: judges.named, without_panel: judges.without_panel, nearest: filterCountsOf(judges.nearest) };
  }
  const elsewhere = r.elsewhere as Record<string, unknown> | null | undefined;
  if (elsewhere && typeof elsewhere === 'object' && count(elsewhere.documents)) {
    reason.elsewhere = { documents: elsewhere.documents, source_types: filterCountsOf(elsewhere.source_types), courts: filterCountsOf(elsewhere.courts) };
  }
  return reason;
}
