/**
 * What `pravo batch` makes of each error a request can end with (`classifyFailure` and `resultError` in
 * `src/batch/items.ts`): whether the line is sent again by a rerun (not counted), listed as interrupted (it
 * may have been counted), or written with its error; whether the batch stops; and the exit code of a finished run
 * (`batchExitCode` in `src/commands/batch/run.ts`).
 */
import { describe, expect, it } from 'vitest';
import { batchSummary as summary } from '../helpers/batch.js';
import {
  ApiError,
  AuthenticationError,
  CancelledError,
  ConnectionError,
  InvalidBaseUrlError,
  InvalidRequestError,
  MissingCredentialError,
  NetworkError,
  NotFoundError,
  PermissionError,
  QuotaExceededError,
  RateLimitError,
  ResponseTooLargeError,
  ServerError,
  SessionError,
  TimeoutError,
  TlsError,
  UnexpectedResponseError,
  errorFromResponse,
  type ApiErrorDetails,
} from '../../src/api/errors.js';
import { classifyFailure, resultError } from '../../src/batch/items.js';
import { batchExitCode } from '../../src/commands/batch/run.js';
import { EXIT } from '../../src/errors/exit-codes.js';

const details = (status: number, code: string | undefined, extra: Partial<ApiErrorDetails> = {}): ApiErrorDetails => ({
  status,
  code,
  serverMessage: `server says ${status}`,
  requestId: 'req_1',
  ...extra,
});

const refused = new Error('connect ECONNREFUSED 127.0.0.1:9');

describe('classifyFailure: not counted, sent again by a rerun', () => {
  it('stops the batch for monthly_quota_exceeded, whatever the status', () => {
    expect(classifyFailure(new QuotaExceededError(details(429, 'monthly_quota_exceeded')))).toEqual({ outcome: 'unsent', stop: 'quota' });
    expect(classifyFailure(new QuotaExceededError(details(403, 'monthly_quota_exceeded')))).toEqual({ outcome: 'unsent', stop: 'quota' });
    expect(classifyFailure(errorFromResponse(402, '{"error":{"code":"monthly_quota_exceeded","message":"x"}}', undefined, {}, 'POST'))).toEqual({
      outcome: 'unsent',
      stop: 'quota',
    });
  });

  it('stops the batch for a refused or missing key', () => {
    expect(classifyFailure(new AuthenticationError(details(401, 'invalid_api_key')))).toEqual({ outcome: 'unsent', stop: 'auth' });
    expect(classifyFailure(new AuthenticationError(details(401, 'revoked_api_key')))).toEqual({ outcome: 'unsent', stop: 'auth' });
    expect(classifyFailure(new MissingCredentialError('api_key'))).toEqual({ outcome: 'unsent', stop: 'auth' });
  });

  it('stops the batch when the server asks to slow down (429 without the quota code)', () => {
    expect(classifyFailure(new RateLimitError(details(429, undefined, { retryAfterMs: 30_000 })))).toEqual({ outcome: 'unsent', stop: 'rate_limited' });
  });

  it('stops the batch when the server cannot be reached, TLS failures included', () => {
    expect(classifyFailure(new ConnectionError('http://127.0.0.1:9', refused))).toEqual({ outcome: 'unsent', stop: 'connection' });
    expect(classifyFailure(new TlsError('https://127.0.0.1:9', 'wrong version number', refused))).toEqual({ outcome: 'unsent', stop: 'connection' });
  });

  it('stops the batch for Ctrl-C before the request was sent', () => {
    expect(classifyFailure(new CancelledError(false))).toEqual({ outcome: 'unsent', stop: 'cancelled' });
  });

  it('goes on after a connection failure or a timeout on a request that could not have been counted', () => {
    expect(classifyFailure(new NetworkError(new Error('socket hang up'), false))).toEqual({ outcome: 'unsent' });
    expect(classifyFailure(new TimeoutError(60_000, false))).toEqual({ outcome: 'unsent' });
  });
});

describe('classifyFailure: may have been counted, listed as interrupted', () => {
  it('for a connection dropped or a timeout after a counted request was sent, without stopping the batch', () => {
    expect(classifyFailure(new NetworkError(new Error('socket hang up'), true))).toEqual({ outcome: 'interrupted' });
    expect(classifyFailure(new TimeoutError(60_000, true))).toEqual({ outcome: 'interrupted' });
  });

  it('for a 5xx to a request that spends a unit', () => {
    expect(classifyFailure(new ServerError(details(500, undefined, { mayHaveBeenCounted: true })))).toEqual({ outcome: 'interrupted' });
    expect(classifyFailure(errorFromResponse(502, 'Bad Gateway', undefined, {}, 'POST'))).toEqual({ outcome: 'interrupted' });
  });

  it('for Ctrl-C after the request was sent, stopping the batch', () => {
    expect(classifyFailure(new CancelledError(true))).toEqual({ outcome: 'interrupted', stop: 'cancelled' });
  });
});

describe('classifyFailure: answered with an error for good, written in the results', () => {
  it('for a request the server rejects, a 403, a 404', () => {
    expect(classifyFailure(new InvalidRequestError(details(400, 'invalid_request')))).toEqual({ outcome: 'failed' });
    expect(classifyFailure(new PermissionError(details(403, undefined)))).toEqual({ outcome: 'failed' });
    expect(classifyFailure(new NotFoundError(details(404, undefined)))).toEqual({ outcome: 'failed' });
  });

  it('for a 5xx to a status check, which counts nothing', () => {
    expect(classifyFailure(new ServerError(details(503, undefined)))).toEqual({ outcome: 'failed' });
    expect(classifyFailure(errorFromResponse(503, '', undefined, {}, 'GET'))).toEqual({ outcome: 'failed' });
  });

  it('for other error statuses, a session error among them', () => {
    expect(classifyFailure(new ApiError(details(418, 'teapot')))).toEqual({ outcome: 'failed' });
    expect(classifyFailure(new SessionError(details(401, 'session_expired')))).toEqual({ outcome: 'failed' });
  });

  it('for a success response that breaks the contract, or is too large', () => {
    expect(classifyFailure(new UnexpectedResponseError(200, 'results is not an array', 'req_2'))).toEqual({ outcome: 'failed' });
    expect(classifyFailure(new ResponseTooLargeError(200, 32 * 1024 * 1024, undefined))).toEqual({ outcome: 'failed' });
  });
});

describe('classifyFailure: not the request\'s error', () => {
  it('leaves a local failure (a full disk, a bad base URL, anything thrown) to the caller', () => {
    const full = Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
    expect(classifyFailure(full)).toBeUndefined();
    expect(classifyFailure(new InvalidBaseUrlError('bad base URL'))).toBeUndefined();
    expect(classifyFailure('a string')).toBeUndefined();
    expect(classifyFailure(undefined)).toBeUndefined();
  });
});

describe('resultError', () => {
  it("keeps the server's code, status, message and request id", () => {
    expect(resultError(new InvalidRequestError(details(400, 'invalid_request', { serverMessage: 'query too short' })))).toEqual({
      code: 'invalid_request',
      status: 400,
      message: 'query too short',
      request_id: 'req_1',
    });
  });

  it("falls back to the error's own message, and leaves out a missing request id", () => {
    expect(resultError(new ServerError(details(500, undefined, { serverMessage: undefined, requestId: undefined })))).toEqual({
      code: undefined,
      status: 500,
      message: 'HTTP 500',
    });
  });

  it('names a response that breaks the contract unexpected_response, and gives any other error its message', () => {
    expect(resultError(new UnexpectedResponseError(200, 'results is not an array', undefined))).toEqual({
      code: 'unexpected_response',
      message: 'Unexpected HTTP 200 response: results is not an array.',
    });
    expect(resultError(new TimeoutError(60_000, true))).toEqual({ code: undefined, message: 'No response within 60 s.' });
    expect(resultError('odd')).toEqual({ code: undefined, message: 'odd' });
  });
});


describe('batchExitCode', () => {
  it('is 0 when every line has succeeded, in this run or before', () => {
    expect(batchExitCode(summary())).toBe(EXIT.ok);
    expect(batchExitCode(summary({ succeeded: 4, skipped: 6 }))).toBe(EXIT.ok);
    expect(batchExitCode(summary({ succeeded: 0, skipped: 10 }))).toBe(0);
  });

  it('is 9 when a run ends with lines failed, now or before', () => {
    expect(batchExitCode(summary({ succeeded: 9, failed: 1 }))).toBe(EXIT.batchIncomplete);
    expect(batchExitCode(summary({ succeeded: 4, skipped: 6, skippedFailed: 1 }))).toBe(9);
  });

  it('is 9 when lines are interrupted, unfinished or not sent', () => {
    expect(batchExitCode(summary({ succeeded: 8, interrupted: [3, 4] }))).toBe(9);
    expect(batchExitCode(summary({ succeeded: 9, unfinished: [2] }))).toBe(9);
    expect(batchExitCode(summary({ succeeded: 9, notSent: [10] }))).toBe(9);
    expect(batchExitCode(summary({ succeeded: 0, skipped: 8, interrupted: [9, 10] }))).toBe(9);
  });

  it('is 9 when a line marked done before is missing its result: it is no success', () => {
    expect(batchExitCode(summary({ succeeded: 0, skipped: 9, missing: [4] }))).toBe(9);
  });

  it('says why the batch stopped, before whether lines are left', () => {
    const left = { succeeded: 4, notSent: [5, 6, 7, 8, 9, 10] };
    expect(batchExitCode(summary({ ...left, stop: 'quota' }))).toBe(EXIT.quota);
    expect(batchExitCode(summary({ ...left, stop: 'auth' }))).toBe(EXIT.auth);
    expect(batchExitCode(summary({ ...left, stop: 'connection' }))).toBe(EXIT.network);
    expect(batchExitCode(summary({ ...left, stop: 'rate_limited' }))).toBe(EXIT.error);
    expect(batchExitCode(summary({ ...left, stop: 'local' }))).toBe(EXIT.error);
    expect(batchExitCode(summary({ ...left, stop: 'cancelled' }))).toBe(EXIT.cancelled);
    expect([EXIT.quota, EXIT.auth, EXIT.network, EXIT.error, EXIT.cancelled]).toEqual([5, 4, 6, 1, 130]);
  });
});
