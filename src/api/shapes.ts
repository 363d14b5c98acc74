/**
 * Checks of success responses against the contract (spec: Resources and their fields), run by the transport on every
 * 2xx body before it is returned. Where the spec fixes a field, its type is checked; where it says "not shown", only
 * what the client relies on is. Each parser returns its input typed (or, for the search response, with the optional
 * counts filled in) and throws {@link ShapeError} naming the path of the first thing wrong.
 */
import { ANSWER_JOB_STATES, type AnswerJob, type AnswerJobCreated, type AnswerJobStatus, type CourtsResponse, type DocumentResponse, type JudgesResponse, type SearchResponse, type SourceTypesResponse } from '../contract/types.js';

/** A response body that does not have the shape the contract gives; the message names the path, e.g. `results[2].title is a number, not a string`. */
export class ShapeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ShapeError';
  }
}

type Obj = Record<string, unknown>;

/** `null`, `an array`, `a string`, `a number`, `a boolean`, `an object`, `undefined`. */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'missing';
  if (Array.isArray(value)) return 'an array';
  const t = typeof value;
  return t === 'object' ? 'an object' : t === 'string' || t === 'number' || t === 'boolean' ? `a ${t}` : t;
}

function wrong(path: string, value: unknown, expected: string): ShapeError {
  return new ShapeError(value === undefined ? `${path} is missing` : `${path} is ${kindOf(value)}, not ${expected}`);
}

function object(value: unknown, path: string): Obj {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw wrong(path, value, 'an object');
  return value as Obj;
}

function array(value: unknown, path: string): unknown[] {
  if (!Array.isArray(value)) throw wrong(path, value, 'an array');
  return value;
}

function string(value: unknown, path: string, { nonEmpty = false } = {}): string {
  if (typeof value !== 'string') throw wrong(path, value, 'a string');
  if (nonEmpty && value === '') throw new ShapeError(`${path} is an empty string`);
  return value;
}

/** A field that may be absent or null, and otherwise must be a string. */
function optionalString(value: unknown, path: string): void {
  if (value !== undefined && value !== null) string(value, path);
}

/** A field that may be absent or null, and otherwise must be a finite number. */
function optionalNumber(value: unknown, path: string): void {
  if (value !== undefined && value !== null && (typeof value !== 'number' || !Number.isFinite(value))) {
    throw wrong(path, value, 'a number');
  }
}

/**
 * The body is a JSON object (for records whose fields the spec leaves open: usage, account, keys, catalogs).
 * @throws ShapeError when it is null, an array or a scalar.
 */
export function parseObject(data: unknown): Record<string, unknown> {
  return object(data, 'the body');
}

/**
 * {@link parseObject} for endpoints that may answer 204 without a body (the transport hands `undefined`), which
 * stands for an empty object: key revocation, the overage setting.
 * @throws ShapeError when a body is there and is not a JSON object.
 */
export function parseObjectOrEmpty(data: unknown): Record<string, unknown> {
  return data === undefined ? {} : parseObject(data);
}

/**
 * Search response (spec: Search response, Search result): an object with a `results` array (required); `query` a
 * string and `result_count` a non-negative integer when present (filled in as `''` and `results.length` when absent);
 * each result an object with non-empty string `document_id` and `collection` (clients store them); `type`, `title`,
 * `date`, `author`, `url` strings when present (null or absent tolerated); `excerpts` an array (required, may be
 * empty) of objects with a string `excerpt_id`; `score` a number and `explanation` a string when present.
 * @throws ShapeError naming the path, e.g. `results[2].title is a number, not a string`.
 */
export function parseSearchResponse(data: unknown): SearchResponse {
  const body = object(data, 'the body');
  const results = array(body.results, 'results');
  if (body.query !== undefined && body.query !== null) string(body.query, 'query');
  if (body.result_count !== undefined && body.result_count !== null) {
    if (!Number.isSafeInteger(body.result_count) || (body.result_count as number) < 0) {
      throw new ShapeError(`result_count is ${describe(body.result_count)}, not a non-negative integer`);
    }
  }
  results.forEach((item, i) => {
    const path = `results[${i}]`;
    const result = object(item, path);
    string(result.document_id, `${path}.document_id`, { nonEmpty: true });
    string(result.collection, `${path}.collection`, { nonEmpty: true });
    for (const field of ['type', 'title', 'date', 'author', 'url'] as const) {
      optionalString(result[field], `${path}.${field}`);
    }
    optionalNumber(result.score, `${path}.score`);
    optionalString(result.explanation, `${path}.explanation`);
    array(result.excerpts, `${path}.excerpts`).forEach((e, j) => {
      const excerpt = object(e, `${path}.excerpts[${j}]`);
      string(excerpt.excerpt_id, `${path}.excerpts[${j}].excerpt_id`);
      optionalNumber(excerpt.score, `${path}.excerpts[${j}].score`);
    });
  });
  if (typeof body.query === 'string' && typeof body.result_count === 'number') {
    return body as unknown as SearchResponse;
  }
  return {
    ...body,
    query: typeof body.query === 'string' ? body.query : '',
    result_count: typeof body.result_count === 'number' ? body.result_count : results.length,
  } as unknown as SearchResponse;
}

/**
 * Source-type catalog (spec: GET /v1/catalog/source-types; fields not shown, the sandbox's shape): an object with a
 * `source_types` array of objects, each with a non-empty string `id`. Other fields are not checked.
 * @throws ShapeError naming the path.
 */
export function parseSourceTypes(data: unknown): SourceTypesResponse {
  const body = object(data, 'the body');
  array(body.source_types, 'source_types').forEach((e, i) => {
    string(object(e, `source_types[${i}]`).id, `source_types[${i}].id`, { nonEmpty: true });
  });
  return body as unknown as SourceTypesResponse;
}

/**
 * Court catalog (spec: GET /v1/catalog/courts, "court identifiers (integers, usable in `court_ids`)"; other fields not
 * shown, the sandbox's shape): an object with a `courts` array of objects, each with an integer `court_id` and a string
 * `name`. Other fields are not checked.
 * @throws ShapeError naming the path.
 */
export function parseCourts(data: unknown): CourtsResponse {
  const body = object(data, 'the body');
  array(body.courts, 'courts').forEach((e, i) => {
    const court = object(e, `courts[${i}]`);
    if (!Number.isSafeInteger(court.court_id)) throw wrong(`courts[${i}].court_id`, court.court_id, 'an integer');
    string(court.name, `courts[${i}].name`);
  });
  return body as unknown as CourtsResponse;
}

/**
 * Judge catalog (spec: GET /v1/catalog/judges; fields not shown, the sandbox's shape): an object with a `judges` array
 * of objects, each with a non-empty string `name`. Other fields are not checked.
 * @throws ShapeError naming the path.
 */
export function parseJudges(data: unknown): JudgesResponse {
  const body = object(data, 'the body');
  array(body.judges, 'judges').forEach((e, i) => {
    string(object(e, `judges[${i}]`).name, `judges[${i}].name`, { nonEmpty: true });
  });
  return body as unknown as JudgesResponse;
}

/**
 * Document response (spec: Document response): an object; `elements`, when present and not null, an array of objects.
 * @throws ShapeError naming the path.
 */
export function parseDocument(data: unknown): DocumentResponse {
  const body = object(data, 'the body');
  if (body.elements !== undefined && body.elements !== null) {
    array(body.elements, 'elements').forEach((e, i) => object(e, `elements[${i}]`));
  }
  return body as DocumentResponse;
}

/**
 * `POST /v1/answers` response (spec: POST /v1/answers): `job_id`, `status` and `poll_url` strings (`job_id` non-empty).
 * @throws ShapeError naming the field.
 */
export function parseAnswerJobCreated(data: unknown): AnswerJobCreated {
  const body = object(data, 'the body');
  string(body.job_id, 'job_id', { nonEmpty: true });
  string(body.status, 'status');
  string(body.poll_url, 'poll_url');
  return body as AnswerJobCreated;
}

/**
 * Answer job (spec: Answer job): `job_id` a non-empty string; `status` one of `queued`, `running`, `succeeded`,
 * `failed`; when `succeeded`, `answer` a string and `sources` an array of objects (`query` a string when present);
 * when `failed`, `error_code` and `error_message` strings.
 * @throws ShapeError naming the field.
 */
export function parseAnswerJob(data: unknown): AnswerJob {
  const body = object(data, 'the body');
  string(body.job_id, 'job_id', { nonEmpty: true });
  const status = string(body.status, 'status');
  if (!(ANSWER_JOB_STATES as readonly string[]).includes(status)) {
    throw new ShapeError(`status is "${status}", not one of ${ANSWER_JOB_STATES.join(', ')}`);
  }
  if ((status as AnswerJobStatus) === 'succeeded') {
    string(body.answer, 'answer');
    array(body.sources, 'sources').forEach((s, i) => object(s, `sources[${i}]`));
    optionalString(body.query, 'query');
  }
  if ((status as AnswerJobStatus) === 'failed') {
    string(body.error_code, 'error_code');
    string(body.error_message, 'error_message');
  }
  return body as AnswerJob;
}

function describe(value: unknown): string {
  return typeof value === 'number' ? String(value) : kindOf(value);
}
