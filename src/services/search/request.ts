/**
 * Pure request builders of `pravo search` (spec: POST /v1/search): command-line options to a checked request body.
 * Shared by every command that sends the search fields (search, answer).
 */
import { ERROR_CODES } from '../../contract/errors.js';
import { LIMITS } from '../../contract/limits.js';
import { characterLength, isCalendarDate, searchRequestProblems } from '../../contract/requests.js';
import { isCourtSourceType, KNOWN_SOURCE_TYPES, type SearchRequest } from '../../contract/types.js';
import { UsageError } from '../../errors/cli.js';

/** The search fields as commander parses them (strings, before checking). */
export interface SearchFieldOptions {
  type?: string[];
  court?: string[];
  judge?: string;
  from?: string;
  to?: string;
  maxResults?: string;
}

/** How `--court` values that name a court (not digits) are turned into codes; see {@link buildSearchRequest}. */
export interface CourtNameIds {
  /** The code of each name of {@link courtNamesOf}, as the caller resolved it from the courts catalog. */
  ids?: ReadonlyMap<string, number>;
  /**
   * Check everything else and accept names without a code (they are left out of `court_ids`): the local check made
   * before the catalog is asked. The request returned is then not one to send.
   */
  pending?: boolean;
}

/**
 * The `--court` values that name a court rather than give its code: trimmed, non-empty, not all digits, without
 * repeats, in the order given (`ВКС`, `РС Пловдив`, `Върховен административен съд`). Pure.
 */
export function courtNamesOf(options: SearchFieldOptions): string[] {
  return [...new Set((options.court ?? []).map((c) => c.trim()).filter((c) => c !== '' && !/^\d+$/.test(c)))];
}

/**
 * Builds the `POST /v1/search` body from the command line and checks it against the contract, in the words of the
 * options the user typed (`--from 2024-06-01 is after --to 2024-01-01`), each bad value repeated as given.
 * `include_content` is deprecated and never sent. The contract's own check (`searchRequestProblems`) runs last, as
 * a backstop: a body that passes the option checks passes it too.
 *
 * `--court` takes codes (digits, sent as they are) and names: a name becomes the code `courts.ids` gives it (the
 * caller resolves names against the courts catalog, `lookups.ts`); a name without one is a problem, unless
 * `courts.pending`. Rule 1 (a court filter with only non-court source types) is checked whatever the courts are.
 * @throws UsageError listing every problem, one per line; nothing has been sent.
 */
export function buildSearchRequest(query: string, options: SearchFieldOptions, courts: CourtNameIds = {}): SearchRequest {
  const problems: string[] = [];
  const request: SearchRequest = { query: query.trim() };
  const length = characterLength(request.query);
  if (length < LIMITS.queryMinLength || length > LIMITS.queryMaxLength) {
    problems.push(`The query must be ${LIMITS.queryMinLength} to ${LIMITS.queryMaxLength} characters long; it has ${length}.`);
  }
  if (options.type?.length) {
    const types = options.type.map((t) => t.trim());
    if (types.some((t) => t === '')) problems.push('--type needs a source type, e.g. bulgarian_laws_regulations; it was given an empty value.');
    else request.source_types = [...new Set(types)];
  }
  if (options.court?.length) {
    const values = options.court.map((c) => c.trim());
    const tooLarge = values.filter((c) => /^\d+$/.test(c) && !Number.isSafeInteger(Number(c)));
    const unresolved = values.filter((c) => c !== '' && !/^\d+$/.test(c) && courts.ids?.get(c) === undefined);
    if (values.some((c) => c === '')) {
      problems.push('--court needs a court: its code from the catalog, a name or an abbreviation such as ВКС; it was given an empty value.');
    } else if (tooLarge.length > 0) {
      problems.push(`--court takes a court's code from the catalog (a whole number), a name or an abbreviation; ${tooLarge.map((b) => `"${b}"`).join(', ')} is too large for a code.`);
    } else if (unresolved.length > 0 && !courts.pending) {
      problems.push(`--court ${unresolved.map((b) => `"${b}"`).join(', ')} could not be looked up in the courts catalog here; give the court's code (see \`pravo catalog courts\`).`);
    } else {
      const ids = values.map((c) => (/^\d+$/.test(c) ? Number(c) : courts.ids?.get(c))).filter((id): id is number => id !== undefined);
      if (ids.length > 0) request.court_ids = [...new Set(ids)];
      if (request.source_types?.every((t) => isCourtSourceType(t) === false)) {
        problems.push(`${COURT_NEEDS_CASE_LAW}, but --type selects only ${request.source_types.join(', ')}; add --type ${KNOWN_SOURCE_TYPES.highCourts} or drop --court.`);
      }
    }
  }
  if (options.judge !== undefined) {
    request.judge_name = options.judge.trim();
    if (request.judge_name === '') problems.push('--judge needs a name; it was given an empty value.');
  }
  for (const [option, field, given] of [['--from', 'date_from', options.from], ['--to', 'date_to', options.to]] as const) {
    if (given === undefined) continue;
    request[field] = given.trim();
    if (!isCalendarDate(request[field])) problems.push(`${option} takes a real calendar date written YYYY-MM-DD, e.g. 2024-06-01, not "${given}".`);
  }
  if (request.date_from && request.date_to && isCalendarDate(request.date_from) && isCalendarDate(request.date_to) && request.date_from > request.date_to) {
    problems.push(`--from ${request.date_from} is after --to ${request.date_to}; the range includes both dates, so give the earlier one to --from.`);
  }
  if (options.maxResults !== undefined) {
    const n = options.maxResults.trim();
    if (!/^\d+$/.test(n) || Number(n) < LIMITS.maxResultsMin || Number(n) > LIMITS.maxResultsMax) {
      problems.push(`--max-results takes a whole number from ${LIMITS.maxResultsMin} to ${LIMITS.maxResultsMax}, not "${options.maxResults}".`);
    } else request.max_results = Number(n);
  }
  if (problems.length === 0) problems.push(...searchRequestProblems(request).map((problem) => `${problem.message}.`));
  if (problems.length > 0) throw searchUsageError(problems);
  return request;
}

/**
 * How every problem of rule 1 (spec: POST /v1/search, "`court_ids` given and all selected sources are non-court
 * sources" is `invalid_request`) starts, so that {@link searchUsageError} can give the error the contract's code.
 */
export const COURT_NEEDS_CASE_LAW = '--court applies to court decisions only';

/**
 * The usage error of a search request's problems (one per line): with code `invalid_request` when one of them is the
 * contract's rule 1 (see {@link COURT_NEEDS_CASE_LAW}), which the service would refuse with that code; exit 2 all the
 * same, since the search was not sent. `catalogAsked`: the problems were found against a catalog (`--court` names,
 * `--type` values), which may have been requested, so the error says that the search was not sent rather than that
 * nothing was (`unsent`, default `The search was not sent.`, says what was not sent).
 */
export function searchUsageError(problems: readonly string[], options: { catalogAsked?: boolean; unsent?: string } = {}): UsageError {
  const rule1 = problems.some((p) => p.startsWith(COURT_NEEDS_CASE_LAW));
  const code = rule1 ? { code: ERROR_CODES.invalidRequest } : {};
  // After a catalog lookup something was sent (the catalog request, unless it came from the cache): say what was not.
  if (options.catalogAsked) return new UsageError(problems.join('\n'), { unsent: options.unsent ?? 'The search was not sent.', ...code });
  return new UsageError(problems.join('\n'), code);
}
