/**
 * Renderers of the three catalogs (spec: GET /v1/catalog/source-types, /courts, /judges): tables for terminals
 * (cli-table3, in the style of the search table) and tab-separated lines for pipes. Pure functions of the data.
 * Entries are read tolerantly (`fields.ts`: the sandbox's names first, then common alternates), and every string from
 * the server passes through the sanitizer (`sanitizeLine` in cells, `sanitizeTsvField` in TSV).
 *
 * TSV column orders (no header; a missing value is an empty field):
 * - source types: `id`, `name`, `case_law` (`true`/`false`), `document_count`;
 * - courts: `court_id`, `name`, `court_type`, `ecli_code`, `parent_court_id`, `decision_count`;
 * - judges: `name`, `decision_count`, `latest_date`, `court_ids` (codes joined by `,`).
 */
import { Chalk } from 'chalk';
import { JUDGES_LIMIT } from '../contract/limits.js';
import { isCourtSourceType, type CourtEntry, type CourtsResponse, type JudgeEntry, type JudgesResponse, type SourceTypeEntry, type SourceTypesResponse } from '../contract/types.js';
import { COURT_ABBREVIATIONS } from '../shared/court-abbreviations.js';
import { sanitizeLine } from '../shared/sanitize.js';
import type { View } from '../io/printer.js';
import { booleanField, courtIdOf, numberField, stringField } from './fields.js';
import { compactTable, fitColumns } from './table.js';
import { tsvLines, wrapText } from './text.js';

/** Options of the table renderers. */
export interface CatalogTableOptions {
  /** Terminal width in columns; the table never exceeds it (minimum 60). */
  width: number;
  /** Whether to use ANSI colours. */
  color: boolean;
}

const MIN_WIDTH = 60;
/** Below this width the courts table names a parent court by its code only. */
const PARENT_NAME_MIN_WIDTH = 120;

/** One source type as rendered. */
export interface SourceTypeRow {
  id: string;
  name: string | undefined;
  /** `case_law`, else known by the type's name (`isCourtSourceType`); `undefined` when unknown. */
  caseLaw: boolean | undefined;
  /** `document_count`, else `count`, `documents`. */
  documentCount: number | undefined;
}

/** Reads a source-type entry tolerantly. */
export function sourceTypeRow(entry: SourceTypeEntry): SourceTypeRow {
  return {
    id: entry.id,
    name: stringField(entry, ['name', 'label', 'title', 'description']),
    caseLaw: booleanField(entry, ['case_law', 'is_case_law']) ?? isCourtSourceType(entry.id),
    documentCount: numberField(entry, ['document_count', 'count', 'documents']),
  };
}

/** One court as rendered. */
export interface CourtRow {
  courtId: number;
  name: string;
  /** `court_type`, else `type`. */
  courtType: string | undefined;
  /** `ecli_code`, else `ecli`. */
  ecliCode: string | undefined;
  /** `parent_court_id`, else `parent_id`, `parent` (a code or an object with one). */
  parentCourtId: number | undefined;
  /** `decision_count`, else `document_count`, `count`, `decisions`. */
  decisionCount: number | undefined;
}

/** Reads a court entry tolerantly. */
export function courtRow(entry: CourtEntry): CourtRow {
  const r = entry as Record<string, unknown>;
  return {
    courtId: entry.court_id,
    name: entry.name,
    courtType: stringField(entry, ['court_type', 'type']),
    ecliCode: stringField(entry, ['ecli_code', 'ecli']),
    parentCourtId: courtIdOf(r.parent_court_id) ?? courtIdOf(r.parent_id) ?? courtIdOf(r.parent),
    decisionCount: numberField(entry, ['decision_count', 'document_count', 'count', 'decisions']),
  };
}

/** One judge as rendered. */
export interface JudgeRow {
  name: string;
  /** `decision_count`, else `count`, `decisions`. */
  decisionCount: number | undefined;
  /** `latest_date`, else `last_date`, `latest_decision_date`. */
  latestDate: string | undefined;
  /** `court_ids`, else `courts` (codes or objects with one). */
  courtIds: number[];
}

/** Reads a judge entry tolerantly. */
export function judgeRow(entry: JudgeEntry): JudgeRow {
  const r = entry as Record<string, unknown>;
  const courts = Array.isArray(r.court_ids) ? r.court_ids : Array.isArray(r.courts) ? r.courts : [];
  return {
    name: entry.name,
    decisionCount: numberField(entry, ['decision_count', 'count', 'decisions']),
    latestDate: stringField(entry, ['latest_date', 'last_date', 'latest_decision_date']),
    courtIds: courts.map(courtIdOf).filter((id): id is number => id !== undefined),
  };
}

const chars = (text: string): number => [...text].length;

/** A line above a table, wrapped to `width` (never cut: it may say how to see more). */
function summaryLines(text: string, width: number): string {
  return wrapText(text, width).join('\n');
}

const count = (n: number | undefined): string => (n === undefined ? '' : String(n));

/**
 * The source types: columns `Source type` (the value for `--type`), `Name`, `Case law` (`yes`/`no`, whether
 * `--court` and `--judge` apply), `Documents`; a one-line summary above.
 */
export function renderSourceTypesTable(catalog: SourceTypesResponse, options: CatalogTableOptions): string {
  const c = new Chalk({ level: options.color ? 1 : 0 });
  const width = Math.max(MIN_WIDTH, options.width);
  const rows = catalog.source_types.map(sourceTypeRow);
  if (rows.length === 0) return 'The catalog lists no source types.\n';
  const ids = rows.map((r) => sanitizeLine(r.id));
  const caseLaw = rows.map((r) => (r.caseLaw === undefined ? '' : r.caseLaw ? 'yes' : 'no'));
  const documents = rows.map((r) => count(r.documentCount));
  // The id is what `--type` takes: never cut. Its column is as wide as the longest id when the name keeps 12
  // characters beside it; an id wider than that (none of the contract's) is broken across lines, not trimmed.
  const fixed = [chars('Case law'), chars('Documents')].reduce((sum, n) => sum + n + 3, 0);
  const idRoom = width - 3 - fixed - (12 + 3);
  const widths = fitColumns(
    [
      { header: 'Source type', cells: ids, min: Math.min(Math.max(...ids.map(chars)), idRoom), max: idRoom },
      { header: 'Name', cells: rows.map((r) => sanitizeLine(r.name ?? '')) },
      { header: 'Case law', cells: caseLaw },
      { header: 'Documents', cells: documents },
    ],
    width,
  );
  const t = compactTable(c, ['Source type', 'Name', 'Case law', 'Documents'], widths, ['left', 'left', 'left', 'right'], options.color);
  rows.forEach((r, i) => t.push([{ content: ids[i]!, wrapOnWordBoundary: false }, sanitizeLine(r.name ?? ''), caseLaw[i]!, documents[i]!]));
  const summary = c.dim(`${rows.length} source type${rows.length === 1 ? '' : 's'}; give one to \`pravo search --type\``);
  return `${summary}\n${t.toString()}\n`;
}

/** Source types as TSV: `id`, `name`, `case_law` (`true`/`false`/empty), `document_count`. */
export function renderSourceTypesTsv(catalog: SourceTypesResponse): string {
  return tsvLines(catalog.source_types.map(sourceTypeRow).map((r) => [r.id, r.name, r.caseLaw, r.documentCount]));
}

/**
 * The courts: columns `Code` (the value for `--court`), `Name`, `Type` (blank when it is the name: ВКС, ВАС, КС),
 * `Parent` (the court an appeal goes to: its code, and its name from 120 columns on), `Decisions` (in the
 * collection); a summary above, wrapped.
 */
export function renderCourtsTable(catalog: CourtsResponse, options: CatalogTableOptions): string {
  const c = new Chalk({ level: options.color ? 1 : 0 });
  const width = Math.max(MIN_WIDTH, options.width);
  const rows = catalog.courts.map(courtRow);
  if (rows.length === 0) return 'The catalog lists no courts.\n';
  const names = new Map(rows.map((r) => [r.courtId, sanitizeLine(r.name)]));
  const parentNames = width >= PARENT_NAME_MIN_WIDTH;
  const parentOf = (r: CourtRow): string => {
    if (r.parentCourtId === undefined) return '';
    const name = names.get(r.parentCourtId);
    return parentNames && name !== undefined ? `${r.parentCourtId} ${name}` : String(r.parentCourtId);
  };
  // A court that is a type of its own (ВКС, ВАС, КС: the type is the name) leaves the type blank, not repeated.
  const typeOf = (r: CourtRow): string => {
    const type = sanitizeLine(r.courtType ?? '');
    return type === names.get(r.courtId) ? '' : type;
  };
  const cells = rows.map((r) => [String(r.courtId), names.get(r.courtId) ?? '', typeOf(r), parentOf(r), count(r.decisionCount)]);
  const head = ['Code', 'Name', 'Type', 'Parent', 'Decisions'];
  const widths = fitColumns(
    // The code is what --court takes: whole. The name grows twice as fast as the type, which it mostly repeats.
    head.map((header, i) => ({
      header,
      cells: cells.map((row) => row[i]!),
      ...(i === 0 ? { min: Math.max(...cells.map((row) => chars(row[0]!))) } : {}),
      ...(i === 1 ? { weight: 2 } : {}),
    })),
    width,
  );
  const t = compactTable(c, head, widths, ['right', 'left', 'left', 'left', 'right'], options.color);
  for (const row of cells) t.push(row);
  const counted = rows.filter((r) => r.decisionCount !== undefined);
  const total = counted.reduce((sum, r) => sum + (r.decisionCount ?? 0), 0);
  const withDecisions = counted.filter((r) => (r.decisionCount ?? 0) > 0).length;
  const short = `${rows.length} court${rows.length === 1 ? '' : 's'}${
    counted.length > 0 ? `; ${total} decision${total === 1 ? '' : 's'} in the collection, from ${withDecisions} of them` : ''
  }`;
  const summary = summaryLines(`${short}; give a code or a name to \`pravo search --court\``, width);
  return `${c.dim(summary)}\n${t.toString()}\n`;
}

/** Courts as TSV: `court_id`, `name`, `court_type`, `ecli_code`, `parent_court_id`, `decision_count`. */
export function renderCourtsTsv(catalog: CourtsResponse): string {
  return tsvLines(catalog.courts.map(courtRow).map((r) => [r.courtId, r.name, r.courtType, r.ecliCode, r.parentCourtId, r.decisionCount]));
}

/** A judges response with what was asked (the response does not repeat `search`). */
export interface JudgesView {
  body: JudgesResponse;
  /** `--search` as given, for the summary line. */
  search?: string;
  /** The `limit` the request had (default `JUDGES_LIMIT.default`): a list that long may have been cut at it. */
  limit?: number;
}

/**
 * The court of a judges response as a user names it: `Върховен касационен съд (ВКС)` with its abbreviation in common
 * use, else its name alone (`Окръжен съд – Варна`), else `court 410`; undefined when the response names no court.
 */
function courtOfJudges(body: JudgesResponse): string | undefined {
  const court = (body as { court?: unknown }).court;
  if (typeof court !== 'object' || court === null) return undefined;
  const name = stringField(court, ['name']);
  const id = courtIdOf(court);
  if (name === undefined) return id === undefined ? undefined : `court ${id}`;
  const abbreviation = Object.entries(COURT_ABBREVIATIONS).find(([, full]) => full === name)?.[0];
  return `${sanitizeLine(name)}${abbreviation === undefined ? '' : ` (${abbreviation})`}`;
}

/**
 * The judges: columns `Judge`, `Decisions`, `Latest` (date of the latest decision), `Courts` (codes, as in
 * `pravo catalog courts`); above them a summary naming the court (`Върховен касационен съд (ВКС)`) and the search
 * text, and when the list may be cut at the limit, how to see more, wrapped; with no judges, that summary alone.
 */
export function renderJudgesTable(view: JudgesView, options: CatalogTableOptions): string {
  const c = new Chalk({ level: options.color ? 1 : 0 });
  const width = Math.max(MIN_WIDTH, options.width);
  const rows = view.body.judges.map(judgeRow);
  const court = courtOfJudges(view.body);
  const where = `${court === undefined ? ' in the decisions of the collection' : ` in the decisions of ${court}`}${
    view.search === undefined ? '' : ` matching „${sanitizeLine(view.search)}“`
  }`;
  if (rows.length === 0) return `${summaryLines(`No judges${where}.`, width)}\n`;
  const cells = rows.map((r) => [sanitizeLine(r.name), count(r.decisionCount), sanitizeLine(r.latestDate ?? ''), r.courtIds.join(', ')]);
  const head = ['Judge', 'Decisions', 'Latest', 'Courts'];
  const widths = fitColumns(head.map((header, i) => ({ header, cells: cells.map((row) => row[i]!) })), width);
  const t = compactTable(c, head, widths, ['left', 'right', 'left', 'left'], options.color);
  for (const row of cells) t.push(row);
  const limit = view.limit ?? JUDGES_LIMIT.default;
  // The server says nothing of how many more there are: a list as long as the limit may have been cut.
  const cut = rows.length >= limit && limit < JUDGES_LIMIT.max ? ` (the first ${limit}; --limit ${JUDGES_LIMIT.max} shows more)` : rows.length >= limit ? ` (the first ${limit})` : '';
  const summary = c.dim(summaryLines(`${rows.length} judge${rows.length === 1 ? '' : 's'}${where}${cut}`, width));
  return `${summary}\n${t.toString()}\n`;
}

/** Judges as TSV: `name`, `decision_count`, `latest_date`, `court_ids` (joined by `,`). */
export function renderJudgesTsv(view: JudgesView): string {
  return tsvLines(view.body.judges.map(judgeRow).map((r) => [r.name, r.decisionCount, r.latestDate, r.courtIds.join(',')]));
}

/** `pravo catalog source-types`: the table (paged) on a terminal, TSV when piped. */
export const sourceTypesView: View<SourceTypesResponse> = { table: renderSourceTypesTable, tsv: renderSourceTypesTsv, page: true };

/** `pravo catalog courts`: the table (paged; 185 courts) on a terminal, TSV when piped. */
export const courtsView: View<CourtsResponse> = { table: renderCourtsTable, tsv: renderCourtsTsv, page: true };

/** `pravo catalog judges`: the table (paged) on a terminal, TSV when piped. */
export const judgesView: View<JudgesView> = { table: renderJudgesTable, tsv: renderJudgesTsv, page: true };
