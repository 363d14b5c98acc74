/**
 * The input of `pravo batch` (spec: POST /v1/search request fields, Limits): one query per line, or one JSON object
 * per line with the search fields. Every line is checked before anything is sent, so a batch with a bad line sends
 * nothing, and its problems are listed by line number. Pure.
 *
 * - Blank lines and lines whose first non-blank character is `#` are ignored (a query cannot start with `#`).
 * - A line whose first non-blank character is `{` is a JSON object with the fields `query` (required), `source_types`,
 *   `court_ids`, `judge_name`, `date_from`, `date_to`, `max_results`, checked by the contract's rules
 *   (`searchRequestProblems`); an unknown field is refused (a typo such as `querry` would otherwise be dropped
 *   silently), and so is the deprecated `include_content`.
 * - Any other line is a query, trimmed.
 * - Line numbers are 1-based physical lines of the input (comments and blank lines count), as an editor shows them.
 *   CRLF line ends and a leading byte-order mark are accepted.
 */
import crypto from 'node:crypto';
import { characterLength, SEARCH_REQUEST_FIELDS, searchRequestProblems } from '../contract/requests.js';
import type { SearchRequest } from '../contract/types.js';

/** One request of the batch. */
export interface BatchItem {
  /** 1-based line number in the input. */
  line: number;
  /** The request body, checked, as it will be sent to `POST /v1/search` or `POST /v1/answers`. */
  request: SearchRequest;
}

/** A line that cannot be sent, and why. */
export interface LineProblem {
  /** 1-based line number in the input. */
  line: number;
  message: string;
}

/** What {@link parseBatchInput} found. */
export interface BatchInput {
  /** The requests, in input order. */
  items: BatchItem[];
  /** The lines that cannot be sent; when any, nothing of the batch may be sent. */
  problems: LineProblem[];
}

/** The fields a JSON line may carry: those of the search request (spec: POST /v1/search), in the contract's order. */
export const BATCH_FIELDS = SEARCH_REQUEST_FIELDS;

/** Longest input line accepted, in characters: a query is at most 2000 characters; a JSON line has room for filters. */
export const MAX_LINE_LENGTH = 16_384;

/**
 * Parses and checks a batch input (see the module's doc for the format).
 * @param text the whole input, UTF-8 decoded.
 */
export function parseBatchInput(text: string): BatchInput {
  const items: BatchItem[] = [];
  const problems: LineProblem[] = [];
  const lines = (text.startsWith('\ufeff') ? text.slice(1) : text).split('\n');
  // A final newline ends the last line; it does not start another one.
  if (lines.length > 0 && lines.at(-1) === '') lines.pop();
  lines.forEach((raw, index) => {
    const line = index + 1;
    const content = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const trimmed = content.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    // Characters are code points, as for the query; a line within the limit in UTF-16 units is within it in code points.
    const length = content.length > MAX_LINE_LENGTH ? characterLength(content) : content.length;
    if (length > MAX_LINE_LENGTH) {
      problems.push({ line, message: `the line is ${length} characters long; at most ${MAX_LINE_LENGTH} are accepted` });
      return;
    }
    const parsed = trimmed.startsWith('{') ? parseJsonLine(trimmed) : { request: { query: trimmed } };
    if ('problem' in parsed) {
      problems.push({ line, message: parsed.problem });
      return;
    }
    const found = searchRequestProblems(parsed.request).map((p) => p.message);
    if (found.length > 0) problems.push({ line, message: found.join('; ') });
    else items.push({ line, request: parsed.request });
  });
  return { items, problems };
}

/** A JSON line's request, or what is wrong with it. */
function parseJsonLine(text: string): { request: SearchRequest } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { problem: `the line starts with "{" but is not valid JSON (${(error as Error).message})` };
  }
  // A text that starts with "{" and parses is an object.
  const record = value as Record<string, unknown>;
  const unknown = Object.keys(record).filter((key) => !(BATCH_FIELDS as readonly string[]).includes(key));
  if (unknown.includes('include_content')) {
    return { problem: 'include_content is deprecated and never sent; remove it' };
  }
  if (unknown.length > 0) {
    const names = unknown.map((key) => JSON.stringify(key.slice(0, 40))).join(', ');
    return { problem: `unknown field${unknown.length === 1 ? '' : 's'} ${names}; the fields are ${BATCH_FIELDS.join(', ')}` };
  }
  const request = { ...record } as unknown as SearchRequest;
  if (typeof request.query === 'string') request.query = request.query.trim();
  return { request };
}

/**
 * The identity of a batch's requests: SHA-256 (hex) of their line numbers and bodies, in order. Comments and blank
 * lines do not change it unless they move a request to another line. A journal begun for one identity is not resumed
 * for another.
 */
export function batchDigest(items: readonly BatchItem[]): string {
  const canonical = JSON.stringify(items.map((item) => [item.line, canonicalRequest(item.request)]));
  return crypto.createHash('sha256').update(canonical, 'utf8').digest('hex');
}

/** The request with its fields in {@link BATCH_FIELDS} order (JSON lines may list them in any order). */
function canonicalRequest(request: SearchRequest): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of BATCH_FIELDS) if (request[field] !== undefined) out[field] = request[field];
  return out;
}
