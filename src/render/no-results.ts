/**
 * Why a search found nothing, in one line for people (spec: POST /v1/search, rule 2: a valid query with no matches is
 * HTTP 200 with `result_count` 0 and an empty `results`, which alone does not say why). From the server's own account
 * when it gives one (the sandbox's `no_results_reason`: which filter left how many documents, and what they are);
 * otherwise from the request's filters and the catalogs pravo has (source types' `document_count`, courts'
 * `decision_count`). Pure; `services/search/no-results.ts` gathers its inputs. Every string from a server passes
 * through `sanitizeLine`.
 */
import { isCourtSourceType, type CourtsResponse, type FilterCount, type NoResultsReason, type SearchFilter, type SearchRequest, type SourceTypesResponse } from '../contract/types.js';
import { sanitizeLine } from '../shared/sanitize.js';
import { plural } from './text.js';

/** What {@link noResultsLine} reads. */
export interface NoResultsFacts {
  /** The search request sent. */
  request: SearchRequest;
  /** The server's account (`noResultsReasonOf`), when it gives one. */
  reason?: NoResultsReason;
  /** The source-types catalog, when pravo has it (only read without `reason`). */
  sourceTypes?: SourceTypesResponse;
  /** The courts catalog, when pravo has it (only read without `reason`). */
  courts?: CourtsResponse;
}

/** The option of `pravo search` (and `pravo answer`) that sets each filter. */
const FLAGS: Readonly<Record<SearchFilter, string>> = {
  source_types: '--type',
  court_ids: '--court',
  judge_name: '--judge',
  date_from: '--from',
  date_to: '--to',
};

/** "a", "a and b", "a, b and c". */
function enumerate(items: readonly string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** The filters `request` gives, as their options, in the order of `SEARCH_FILTERS`. */
function givenFlags(request: SearchRequest): string[] {
  return [
    ...((request.source_types?.length ?? 0) > 0 ? [FLAGS.source_types] : []),
    ...((request.court_ids?.length ?? 0) > 0 ? [FLAGS.court_ids] : []),
    ...(request.judge_name !== undefined ? [FLAGS.judge_name] : []),
    ...(request.date_from !== undefined ? [FLAGS.date_from] : []),
    ...(request.date_to !== undefined ? [FLAGS.date_to] : []),
  ];
}

/** `Първо наказателно отделение 5, Второ наказателно отделение 4`; a single value without its count. */
function counts(values: readonly FilterCount[], total: number): string {
  if (values.length === 1 && values[0]!.documents === total) return sanitizeLine(values[0]!.value);
  return values.map((v) => `${sanitizeLine(v.value)} ${v.documents}`).join(', ');
}

/** `2015–2024`, or `2020` for one year. */
function span(years: { from: number; to: number }): string {
  return years.from === years.to ? String(years.from) : `${years.from}–${years.to}`;
}

/** Courts with their counts and, when the server gives them, their years: `Върховен административен съд 314 (2002–2026), …`. */
function courtsWithYears(courts: readonly FilterCount[]): string {
  return courts.map((c) => `${sanitizeLine(c.value)} ${c.documents}${c.years === undefined ? '' : ` (${span(c.years)})`}`).join(', ');
}

/**
 * What documents are left, in words, from the reason's `left`: their courts, years, and departments (else case kinds);
 * for documents without courts, their source types. E.g. `Върховен касационен съд; 2015–2024; Първо наказателно
 * отделение 5, Второ наказателно отделение 4, Трето наказателно отделение 3`. When the court filter left none of them
 * (`courtsOnly`), their courts alone, each with its years: `Върховен административен съд 314 (2002–2026), Конституционен
 * съд 149 (2003–2026), …`. Empty when nothing is known.
 */
function describeLeft(left: NoResultsReason['left'], courtsOnly = false): string {
  const n = left.documents;
  if (courtsOnly && left.courts.length > 0) return courtsWithYears(left.courts);
  const parts = [
    left.courts.length > 0 ? counts(left.courts, n) : left.source_types.length > 0 ? counts(left.source_types, n) : '',
    left.years === null ? '' : span(left.years),
    left.departments.length > 0 ? counts(left.departments, n) : left.case_kinds.length > 0 ? counts(left.case_kinds, n) : '',
  ];
  return parts.filter((p) => p !== '').join('; ');
}

/**
 * Why the filter that left no document left none, from what was left before it: the court asked for has no decisions;
 * no judge of those decisions has that name (the nearest names, how many judges there are, how many decisions record
 * no panel); the dates end before `--from` (the latest) or begin after `--to` (the earliest). `''` when nothing more is
 * known.
 */
function blamedDetail(filter: SearchFilter, request: SearchRequest, left: NoResultsReason['left']): string {
  if (filter === 'court_ids') return `: the corpus holds no decisions of ${(request.court_ids?.length ?? 0) > 1 ? 'those courts' : 'that court'}`;
  if (filter === 'judge_name' && left.judges !== undefined) {
    const { named, without_panel: unrecorded, nearest } = left.judges;
    const near = nearest.length === 0 ? '' : ` (nearest: ${nearest.map((j) => `${sanitizeLine(j.value)} ${j.documents}`).join(', ')})`;
    const asked = sanitizeLine(request.judge_name ?? '');
    const without = unrecorded === 0 ? '' : `, and ${unrecorded} of the decisions record no panel`;
    return `: no judge of their panels is named like „${asked}“${near}; the panels name ${plural(named, 'judge')} (\`pravo catalog judges\` lists them)${without}`;
  }
  if (filter === 'date_from' && left.dates) return `: the latest is of ${left.dates.to}`;
  if (filter === 'date_to' && left.dates) return `: the earliest is of ${left.dates.from}`;
  return '';
}

/**
 * What the whole corpus holds of the query's words whatever the filters (`elsewhere`), as the end of the line: `Outside
 * these filters, 3 documents hold words of the query (high_courts_cases 3; Върховен административен съд 2,
 * Конституционен съд 1): widen or drop --court to see them.`, or `No document of the corpus holds them, whatever the
 * filters: try other words.`; `undefined` when the server does not say.
 */
function elsewhereSentence(reason: NoResultsReason, flags: readonly string[]): string | undefined {
  const elsewhere = reason.elsewhere;
  if (elsewhere === undefined) return undefined;
  const n = elsewhere.documents;
  if (n === 0) return 'No document of the corpus holds them, whatever the filters: try other words.';
  const what = [counts(elsewhere.source_types, n), elsewhere.courts.length > 0 ? counts(elsewhere.courts, -1) : ''].filter((p) => p !== '').join('; ');
  return `Outside ${flags.length === 1 ? 'this filter' : 'these filters'}, ${plural(n, 'document')} ${n === 1 ? 'holds' : 'hold'} words of the query${what === '' ? '' : ` (${what})`}: widen or drop ${enumerate(flags)} to see ${n === 1 ? 'it' : 'them'}.`;
}

/** The sentence of {@link noResultsLine} from the server's account. */
function fromReason(request: SearchRequest, reason: NoResultsReason): string {
  if (reason.kind === 'no_words') return 'the query has no word that is searched (common words and single characters are skipped); use more specific words.';
  const total = reason.filters.find((f) => f.filter === 'source_types')?.documents;
  const steps = reason.filters.filter((f) => f.filter !== 'source_types');
  if (total === 0) {
    const asked = request.source_types ?? [];
    if (asked.length > 0) return `the service holds no documents of ${asked.length === 1 ? 'type' : 'types'} ${enumerate(asked.map(sanitizeLine))}; nothing could match.`;
    const selecting = givenFlags(request).filter((f) => f === FLAGS.court_ids || f === FLAGS.judge_name);
    return selecting.length > 0
      ? `${enumerate(selecting)} ${selecting.length > 1 ? 'select' : 'selects'} court decisions, and the service holds none; nothing could match.`
      : 'the service holds no documents to search; nothing could match.';
  }
  const flags = givenFlags(request);
  if (steps.length === 0 && flags.length === 0) {
    return total === undefined
      ? "no document holds the query's words; check their spelling or try other words."
      : `none of the ${plural(total, 'document')} searched holds the query's words; check their spelling or try other words.`;
  }
  const blamed = steps.findIndex((step) => step.documents === 0);
  const trail = (blamed === -1 ? steps : steps.slice(0, blamed)).map((step) => `${FLAGS[step.filter]} leaves ${step.documents}`);
  const asked = request.source_types ?? [];
  const described = describeLeft(reason.left, blamed !== -1 && steps[blamed]!.filter === 'court_ids');
  const subject = [
    total === undefined ? '' : `of ${plural(total, 'document')}${asked.length > 0 ? ` of ${enumerate(asked.map(sanitizeLine))}` : ''}`,
    ...trail,
  ]
    .filter((part) => part !== '')
    .join(', ');
  const what = `${subject}${described === '' ? '' : ` (${described})`}`;
  const and = what === '' ? '' : `${what}, and `;
  const elsewhere = elsewhereSentence(reason, flags);
  if (blamed !== -1) {
    const filter = steps[blamed]!.filter;
    const flag = FLAGS[filter];
    const widen = elsewhere ?? `Widen or drop ${flag} to search more.`;
    return `${and}${flag} leaves none of them${blamedDetail(filter, request, reason.left)}. ${widen}`;
  }
  return `${and}none of them holds the query's words. ${elsewhere ?? `Widen or drop ${enumerate(flags)} to search more.`}`;
}

/** One source-types catalog entry as read here: `document_count` only when it is a whole number ≥ 0. */
interface TypeEntry {
  name: string | undefined;
  caseLaw: boolean | undefined;
  count: number | undefined;
}

function typeEntries(catalog: SourceTypesResponse): Map<string, TypeEntry> {
  const entries = new Map<string, TypeEntry>();
  for (const raw of catalog.source_types as unknown as Record<string, unknown>[]) {
    if (typeof raw !== 'object' || raw === null || typeof raw.id !== 'string') continue;
    const count = raw.document_count;
    entries.set(raw.id, {
      name: typeof raw.name === 'string' && raw.name.trim() !== '' ? raw.name : undefined,
      caseLaw: typeof raw.case_law === 'boolean' ? raw.case_law : isCourtSourceType(raw.id),
      count: typeof count === 'number' && Number.isInteger(count) && count >= 0 ? count : undefined,
    });
  }
  return entries;
}

/** `high_courts_cases (Съдебна практика …)`, sanitized for a terminal. */
function describeType(id: string, entry: TypeEntry | undefined): string {
  const name = entry?.name === undefined || entry.name === id ? '' : ` (${sanitizeLine(entry.name)})`;
  return `${sanitizeLine(id)}${name}`;
}

/**
 * The sentence from the source-types catalog when it shows that the collection holds no documents the request could
 * match (only types it lists with `document_count` 0 count as empty): the empty ones among the `--type` values, or,
 * with `--court` or `--judge` and no `--type`, every case-law type. `undefined` otherwise.
 */
function emptyTypes(request: SearchRequest, catalog: SourceTypesResponse): string | undefined {
  const entries = typeEntries(catalog);
  const requested = request.source_types ?? [];
  if (requested.length > 0) {
    const empty = requested.filter((id) => entries.get(id)?.count === 0);
    if (empty.length === 0) return undefined;
    const types = `type${empty.length > 1 ? 's' : ''} ${enumerate(empty.map((id) => describeType(id, entries.get(id))))}`;
    return `The corpus has no documents of ${types}${empty.length === requested.length ? '; nothing could match' : ''}.`;
  }
  const flags = givenFlags(request).filter((f) => f === FLAGS.court_ids || f === FLAGS.judge_name);
  if (flags.length === 0) return undefined;
  const caseLaw = [...entries].filter(([, e]) => e.caseLaw === true);
  if (caseLaw.length === 0 || caseLaw.some(([, e]) => e.count !== 0)) return undefined;
  const types = `type${caseLaw.length > 1 ? 's' : ''} ${enumerate(caseLaw.map(([id, e]) => describeType(id, e)))}`;
  return `${flags.join(' and ')} select${flags.length > 1 ? '' : 's'} court decisions, and the corpus has no documents of ${types}; nothing could match.`;
}

/**
 * Without the server's account: the filters the request applied, with what the catalogs say of them (`--court`: the
 * courts' names and the decisions the catalog lists of them; `--type`: the documents of those types), and the advice to
 * widen them. E.g. `Filters applied: --court Върховен касационен съд (the catalog lists 12 decisions of it), --from
 * 2025-01-01; widen or drop them to search more.` Empty when the request has no filters.
 */
function fromRequest(request: SearchRequest, facts: NoResultsFacts): string {
  const parts: string[] = [];
  if ((request.source_types?.length ?? 0) > 0) {
    const entries = facts.sourceTypes === undefined ? new Map<string, TypeEntry>() : typeEntries(facts.sourceTypes);
    const types = request.source_types!.map((id) => {
      const count = entries.get(id)?.count;
      return `${sanitizeLine(id)}${count === undefined ? '' : ` (${plural(count, 'document')} in the catalog)`}`;
    });
    parts.push(`--type ${types.join(', ')}`);
  }
  if ((request.court_ids?.length ?? 0) > 0) {
    const courts = (facts.courts?.courts ?? []) as unknown as Record<string, unknown>[];
    const named = request.court_ids!.map((id) => {
      const court = courts.find((c) => typeof c === 'object' && c !== null && c.court_id === id);
      const name = court !== undefined && typeof court.name === 'string' && court.name.trim() !== '' ? sanitizeLine(court.name) : String(id);
      const count = court?.decision_count;
      const listed = typeof count === 'number' && Number.isInteger(count) && count >= 0 ? ` (the catalog lists ${plural(count, 'decision')} of it)` : '';
      return `${name}${listed}`;
    });
    parts.push(`--court ${named.join(', ')}`);
  }
  if (request.judge_name !== undefined) parts.push(`--judge ${sanitizeLine(request.judge_name)}`);
  if (request.date_from !== undefined) parts.push(`--from ${request.date_from}`);
  if (request.date_to !== undefined) parts.push(`--to ${request.date_to}`);
  return parts.length === 0 ? '' : `Filters applied: ${parts.join('; ')}; widen or drop them to search more.`;
}

/**
 * Why nothing was found, as one line (no trailing newline), for stderr: `No results for „<query>“: …`. The reusable
 * "why nothing was found" of pravo (a search; later other commands that search).
 *
 * - With the server's account (`facts.reason`): the query had no word to search; or the documents of the types
 *   searched, what each further filter left of them (`--court leaves 12`), what those are (courts, years,
 *   departments), and which filter left none, or that none of them holds the query's words; then which options to
 *   widen. E.g. `No results for „неустойка“: of 475 documents, --court leaves 12 (Върховен касационен съд; 2015–2024;
 *   Първо наказателно отделение 5, …), and none of them holds the query's words. Widen or drop --court to search more.`
 * - Without it: when the source-types catalog lists a requested type (or, for `--court`/`--judge`, every case-law
 *   type) with 0 documents, that (`The corpus has no documents of type high_courts_cases (…); nothing could match.`);
 *   otherwise the filters applied, with what the catalogs say of them, and the advice to widen them; with no filters,
 *   the first sentence alone.
 */
export function noResultsLine(facts: NoResultsFacts): string {
  const head = `No results for „${sanitizeLine(facts.request.query)}“`;
  if (facts.reason !== undefined) return `${head}: ${fromReason(facts.request, facts.reason)}`;
  const empty = facts.sourceTypes === undefined ? undefined : emptyTypes(facts.request, facts.sourceTypes);
  if (empty !== undefined) return `${head}. ${empty}`;
  const applied = fromRequest(facts.request, facts);
  return applied === '' ? `${head}.` : `${head}. ${applied}`;
}
