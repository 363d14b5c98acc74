/**
 * The contract's request rules (spec: POST /v1/search, Validation): what makes a search or answer request body valid,
 * checked by the CLI before sending and by the sandbox on receipt, and the one list of the search request's fields.
 */
import { LIMITS } from './limits.js';
import { isCourtSourceType, type SearchRequest } from './types.js';

/**
 * The fields of a search request body, in the spec's order (spec: POST /v1/search, Request body): those a client may
 * send to `POST /v1/search` and `POST /v1/answers`, and a batch input line may carry. `include_content` is deprecated
 * and left out.
 */
export const SEARCH_REQUEST_FIELDS = ['query', 'source_types', 'court_ids', 'judge_name', 'date_from', 'date_to', 'max_results'] as const satisfies readonly (keyof SearchRequest)[];

/** A problem found in a request body: the field it concerns and a message that says what is allowed. */
export interface RequestProblem {
  field: keyof SearchRequest | 'body';
  message: string;
}

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether `value` is a real calendar date written `YYYY-MM-DD` (2025-02-29 is not). */
export function isCalendarDate(value: string): boolean {
  const m = DATE_PATTERN.exec(value);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day); // unlike Date.UTC, keeps years 0 to 99 as written
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
}

/** Length of `text` in characters as the contract counts them (Unicode code points). */
export function characterLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/**
 * Checks a `POST /v1/search` (or `POST /v1/answers`) body against the contract's rules: field types, `query` 3 to 2000
 * characters, `max_results` an integer 1 to 50, dates real `YYYY-MM-DD` calendar dates with `date_from <= date_to`,
 * `court_ids` integers, and `court_ids` not combined with only known non-court `source_types` (rule 1).
 * Unknown fields and `include_content` are ignored (the latter is deprecated). Returns every problem found, empty when
 * the body is valid. Pure; used by the CLI before sending and by the sandbox on receipt.
 */
export function searchRequestProblems(body: unknown): RequestProblem[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return [{ field: 'body', message: 'the request body must be a JSON object' }];
  }
  const b = body as Record<string, unknown>;
  const problems: RequestProblem[] = [];
  if (typeof b.query !== 'string') {
    problems.push({ field: 'query', message: 'query is required and must be a string' });
  } else {
    const length = characterLength(b.query);
    if (length < LIMITS.queryMinLength || length > LIMITS.queryMaxLength) {
      problems.push({
        field: 'query',
        message: `query must be ${LIMITS.queryMinLength} to ${LIMITS.queryMaxLength} characters long (got ${length})`,
      });
    }
  }
  if (b.source_types !== undefined) {
    if (!Array.isArray(b.source_types) || b.source_types.some((t) => typeof t !== 'string' || t.length === 0)) {
      problems.push({ field: 'source_types', message: 'source_types must be an array of non-empty strings' });
    }
  }
  if (b.court_ids !== undefined) {
    if (!Array.isArray(b.court_ids) || b.court_ids.some((c) => !Number.isSafeInteger(c))) {
      problems.push({ field: 'court_ids', message: 'court_ids must be an array of integers' });
    } else if (
      b.court_ids.length > 0 &&
      Array.isArray(b.source_types) &&
      b.source_types.length > 0 &&
      b.source_types.every((t) => typeof t === 'string' && isCourtSourceType(t) === false)
    ) {
      problems.push({
        field: 'court_ids',
        message: 'court_ids applies only to case-law sources, and every selected source type is a non-court source',
      });
    }
  }
  if (b.judge_name !== undefined && (typeof b.judge_name !== 'string' || b.judge_name.trim() === '')) {
    problems.push({ field: 'judge_name', message: 'judge_name must be a non-empty string' });
  }
  for (const field of ['date_from', 'date_to'] as const) {
    const v = b[field];
    if (v !== undefined && (typeof v !== 'string' || !isCalendarDate(v))) {
      problems.push({ field, message: `${field} must be a real calendar date written YYYY-MM-DD` });
    }
  }
  if (
    typeof b.date_from === 'string' &&
    typeof b.date_to === 'string' &&
    isCalendarDate(b.date_from) &&
    isCalendarDate(b.date_to) &&
    b.date_from > b.date_to
  ) {
    problems.push({ field: 'date_from', message: `date_from (${b.date_from}) is after date_to (${b.date_to})` });
  }
  if (b.max_results !== undefined) {
    const n = b.max_results;
    if (!Number.isInteger(n) || (n as number) < LIMITS.maxResultsMin || (n as number) > LIMITS.maxResultsMax) {
      problems.push({
        field: 'max_results',
        message: `max_results must be an integer from ${LIMITS.maxResultsMin} to ${LIMITS.maxResultsMax}`,
      });
    }
  }
  return problems;
}
