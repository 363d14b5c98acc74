/**
 * Response checks (`src/api/shapes.ts`): what the client accepts as a contract response, and the path it names when
 * something is wrong (the CLI shows it, so a user can tell a broken server from a broken client).
 */
import { describe, expect, it } from 'vitest';
import {
  ShapeError,
  parseAnswerJob,
  parseAnswerJobCreated,
  parseDocument,
  parseObject,
  parseSearchResponse,
  parseSourceTypes,
} from '../../src/api/shapes.js';

const result = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  document_id: 'zzd-1',
  collection: 'laws_v1',
  type: 'Закон',
  title: 'Закон за задълженията и договорите',
  date: '1950-12-05',
  author: 'Народно събрание',
  url: 'https://example.bg/zzd',
  excerpts: [{ excerpt_id: 'zzd-1:чл.92', score: 1, text: 'Неустойката обезпечава…' }],
  score: 0.9,
  explanation: 'Урежда неустойката.',
  ...extra,
});
const search = (results: unknown[], extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  query: 'неустойка',
  result_count: results.length,
  results,
  ...extra,
});

/** The message of the ShapeError `fn` throws. */
function problem(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ShapeError);
    return (error as ShapeError).message;
  }
  throw new Error('expected a ShapeError');
}

describe('parseSearchResponse', () => {
  it('accepts a full response and returns it unchanged', () => {
    const body = search([result(), result({ document_id: 'zzd-2', excerpts: [] })]);
    expect(parseSearchResponse(body)).toBe(body);
  });

  it('accepts an empty result list (no matches)', () => {
    expect(parseSearchResponse(search([])).results).toEqual([]);
  });

  it('tolerates null or absent optional strings, score and explanation', () => {
    const r = result({ type: null, title: undefined, author: null, url: null, score: null, explanation: null });
    delete r.date;
    expect(() => parseSearchResponse(search([r]))).not.toThrow();
  });

  it('fills in query and result_count when the server leaves them out', () => {
    expect(parseSearchResponse({ results: [result()] })).toMatchObject({ query: '', result_count: 1 });
  });

  it.each([
    ['a null body', null, 'the body is null, not an object'],
    ['an array body', [], 'the body is an array, not an object'],
    ['missing results', { query: 'q', result_count: 0 }, 'results is missing'],
    ['results not an array', search([], { results: {} }), 'results is an object, not an array'],
    ['a null result', search([result(), null]), 'results[1] is null, not an object'],
    ['a numeric title', search([result(), result(), result({ title: 7 })]), 'results[2].title is a number, not a string'],
    ['excerpts not an array', search([result({ excerpts: 'чл. 92' })]), 'results[0].excerpts is a string, not an array'],
    ['excerpts missing', search([result({ excerpts: undefined })]), 'results[0].excerpts is missing'],
    ['an excerpt without id', search([result({ excerpts: [{ text: 't' }] })]), 'results[0].excerpts[0].excerpt_id is missing'],
    ['an empty document_id', search([result({ document_id: '' })]), 'results[0].document_id is an empty string'],
    ['a missing collection', search([result({ collection: undefined })]), 'results[0].collection is missing'],
    ['a numeric collection', search([result({ collection: 3 })]), 'results[0].collection is a number, not a string'],
    ['a string score', search([result({ score: '0.9' })]), 'results[0].score is a string, not a number'],
    ['a numeric explanation', search([result({ explanation: 1 })]), 'results[0].explanation is a number, not a string'],
    ['a numeric query', search([], { query: 5 }), 'query is a number, not a string'],
    ['a fractional result_count', search([], { result_count: 1.5 }), 'result_count is 1.5, not a non-negative integer'],
    ['a string result_count', search([], { result_count: '0' }), 'result_count is a string, not a non-negative integer'],
  ])('rejects %s, naming the path', (_name, body, message) => {
    expect(problem(() => parseSearchResponse(body))).toBe(message);
  });
});

describe('parseSourceTypes', () => {
  it('accepts entries with an id, whatever else they carry', () => {
    const body = { source_types: [{ id: 'bulgarian_laws_regulations', name: 'Закони', future_field: [1] }] };
    expect(parseSourceTypes(body)).toBe(body);
  });

  it.each([
    [{}, 'source_types is missing'],
    [{ source_types: [null] }, 'source_types[0] is null, not an object'],
    [{ source_types: [{ name: 'x' }] }, 'source_types[0].id is missing'],
  ])('rejects %j', (body, message) => {
    expect(problem(() => parseSourceTypes(body))).toBe(message);
  });
});

describe('parseObject and parseDocument', () => {
  it('parseObject accepts any object and rejects the rest', () => {
    expect(parseObject({ a: 1 })).toEqual({ a: 1 });
    expect(problem(() => parseObject([1]))).toBe('the body is an array, not an object');
    expect(problem(() => parseObject('x'))).toBe('the body is a string, not an object');
  });

  it('parseDocument accepts a document with or without elements', () => {
    expect(parseDocument({ title: 'ЗЗД', elements: [{ ref: 'Чл. 1.' }] }).elements).toHaveLength(1);
    expect(parseDocument({ title: 'ЗЗД' }).elements).toBeUndefined();
  });

  it('parseDocument rejects elements that are not an array of objects', () => {
    expect(problem(() => parseDocument({ elements: 'text' }))).toBe('elements is a string, not an array');
    expect(problem(() => parseDocument({ elements: [{}, 3] }))).toBe('elements[1] is a number, not an object');
  });
});

describe('parseAnswerJobCreated and parseAnswerJob', () => {
  it('accepts the 202 body of POST /v1/answers', () => {
    const body = { job_id: 'job_1', status: 'queued', poll_url: '/v1/answers/job_1' };
    expect(parseAnswerJobCreated(body)).toBe(body);
  });

  it.each([
    [{ status: 'queued', poll_url: '/v1/answers/x' }, 'job_id is missing'],
    [{ job_id: 'x', status: 'queued' }, 'poll_url is missing'],
    [{ job_id: 7, status: 'queued', poll_url: '/v1/answers/7' }, 'job_id is a number, not a string'],
  ])('rejects the creation body %j', (body, message) => {
    expect(problem(() => parseAnswerJobCreated(body))).toBe(message);
  });

  it.each([
    { job_id: 'j', status: 'queued' },
    { job_id: 'j', status: 'running' },
    { job_id: 'j', status: 'succeeded', query: 'неустойка', answer: 'Отговор [1].', sources: [{ document_id: 'd' }] },
    { job_id: 'j', status: 'failed', error_code: 'timed_out', error_message: 'The job timed out.' },
  ])('accepts a job in status $status', (body) => {
    expect(parseAnswerJob(body)).toBe(body);
  });

  it.each([
    [{ job_id: 'j', status: 'done' }, 'status is "done", not one of queued, running, succeeded, failed'],
    [{ job_id: 'j', status: 'succeeded', sources: [] }, 'answer is missing'],
    [{ job_id: 'j', status: 'succeeded', answer: 'a', sources: null }, 'sources is null, not an array'],
    [{ job_id: 'j', status: 'succeeded', answer: 'a', sources: ['d'] }, 'sources[0] is a string, not an object'],
    [{ job_id: 'j', status: 'failed', error_message: 'm' }, 'error_code is missing'],
    [{ job_id: 'j', status: 'failed', error_code: 'timed_out' }, 'error_message is missing'],
  ])('rejects the job %j', (body, message) => {
    expect(problem(() => parseAnswerJob(body))).toBe(message);
  });
});
