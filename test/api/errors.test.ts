/**
 * Reading error bodies and mapping error responses to typed errors (`src/api/errors.ts`): the class a caller sees and
 * the message a person reads. Exit codes are the CLI's business (the former exit-code assertions are class assertions).
 */
import { describe, expect, it } from 'vitest';
import {
  ApiClientError,
  ApiError,
  AuthenticationError,
  InvalidRequestError,
  NotFoundError,
  PermissionError,
  QuotaExceededError,
  RateLimitError,
  ServerError,
  SessionError,
  errorFromResponse,
  parseErrorBody,
  parseRetryAfterMs,
} from '../../src/api/errors.js';

describe('parseErrorBody', () => {
  it('reads {"error":{"code","message"}} (the sandbox shape)', () => {
    expect(parseErrorBody('{"error":{"code":"invalid_api_key","message":"The API key is unknown."}}')).toEqual({
      code: 'invalid_api_key',
      message: 'The API key is unknown.',
    });
  });

  it('reads {"code","message"}', () => {
    expect(parseErrorBody('{"code":"monthly_quota_exceeded","message":"Quota used up."}')).toEqual({
      code: 'monthly_quota_exceeded',
      message: 'Quota used up.',
    });
  });

  it('reads {"error":"<code>"}, with and without a top-level message', () => {
    expect(parseErrorBody('{"error":"revoked_api_key"}')).toEqual({ code: 'revoked_api_key', message: undefined });
    expect(parseErrorBody('{"error":"revoked_api_key","message":"Key revoked."}')).toEqual({
      code: 'revoked_api_key',
      message: 'Key revoked.',
    });
  });

  it('keeps Cyrillic messages unchanged', () => {
    expect(parseErrorBody('{"error":{"code":"invalid_request","message":"Невалидна заявка"}}').message).toBe(
      'Невалидна заявка',
    );
  });

  it('turns an HTML page into a short single-line excerpt without a code', () => {
    const html = `<html>\n<head><title>502 Bad Gateway</title></head>\n<body>\n${'<p>proxy error</p>\n'.repeat(100)}</body></html>`;
    const parsed = parseErrorBody(html);
    expect(parsed.code).toBeUndefined();
    expect(parsed.message).toContain('502 Bad Gateway');
    expect(parsed.message).not.toMatch(/[\r\n]/);
    expect(parsed.message!.length).toBeLessThanOrEqual(201);
    expect(parsed.message!.endsWith('…')).toBe(true);
  });

  it('keeps a short plain-text body whole', () => {
    expect(parseErrorBody('upstream connect error\n')).toEqual({ code: undefined, message: 'upstream connect error' });
  });

  it.each(['', '   \n\t'])('gives neither code nor message for an empty body (%j)', (text) => {
    expect(parseErrorBody(text)).toEqual({ code: undefined, message: undefined });
  });

  it('never throws on JSON that is not an object', () => {
    expect(parseErrorBody('null')).toEqual({ code: undefined, message: undefined });
    expect(parseErrorBody('42')).toEqual({ code: undefined, message: undefined });
    expect(parseErrorBody('"just a string"')).toEqual({ code: undefined, message: 'just a string' });
    expect(parseErrorBody('[1,2]')).toEqual({ code: undefined, message: undefined });
  });

  it('treats blank or non-string codes as absent', () => {
    expect(parseErrorBody('{"error":{"code":"  ","message":"m"}}')).toEqual({ code: undefined, message: 'm' });
    expect(parseErrorBody('{"code":401,"message":"m"}')).toEqual({ code: undefined, message: 'm' });
  });
});

describe('errorFromResponse', () => {
  const body = (code: string, message = 'server says so'): string => JSON.stringify({ error: { code, message } });

  it.each(['missing_api_key', 'invalid_api_key', 'revoked_api_key'])('%s → AuthenticationError', (code) => {
    const error = errorFromResponse(401, body(code), 'req_1');
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toBeInstanceOf(ApiClientError);
    expect(error.name).toBe('AuthenticationError');
    expect(error).not.toHaveProperty('exitCode');
    expect(error.code).toBe(code);
    expect(error.status).toBe(401);
    expect(error.requestId).toBe('req_1');
  });

  it('invalid_request → InvalidRequestError, with the server message', () => {
    const error = errorFromResponse(400, body('invalid_request', 'query too short'), undefined);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error.serverMessage).toBe('query too short');
    expect(error.message).toContain('query too short');
    expect(error.requestId).toBeUndefined();
  });

  it('monthly_quota_exceeded → QuotaExceededError, not a RateLimitError even on 429', () => {
    const error = errorFromResponse(429, body('monthly_quota_exceeded'), 'req_2');
    expect(error).toBeInstanceOf(QuotaExceededError);
    expect(error).not.toBeInstanceOf(RateLimitError);
  });

  it('maps by code, not by status: a quota code on 403 is still a quota error', () => {
    expect(errorFromResponse(403, body('monthly_quota_exceeded'), undefined)).toBeInstanceOf(QuotaExceededError);
  });

  it('401 without a code → AuthenticationError', () => {
    const error = errorFromResponse(401, '', undefined);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.code).toBeUndefined();
    expect(error.message).toContain('401');
  });

  it('400 without a code → InvalidRequestError', () => {
    expect(errorFromResponse(400, 'Bad Request', undefined)).toBeInstanceOf(InvalidRequestError);
  });

  it('an unknown code → plain ApiError, carrying the code and status', () => {
    const error = errorFromResponse(418, body('teapot_overheated'), undefined);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).not.toBeInstanceOf(AuthenticationError);
    expect(error).not.toBeInstanceOf(InvalidRequestError);
    expect(error).not.toBeInstanceOf(QuotaExceededError);
    expect(error.constructor).toBe(ApiError);
    expect(error.code).toBe('teapot_overheated');
    expect(error.status).toBe(418);
  });

  it('an unknown code on 401 is still not silently called an authentication error', () => {
    const error = errorFromResponse(401, body('session_expired'), undefined);
    expect(error.constructor).toBe(ApiError);
  });

  it('502 with an HTML body → ServerError (an ApiError) whose message carries a short excerpt', () => {
    const error = errorFromResponse(502, `<html><body><h1>Bad Gateway</h1>${'x'.repeat(5000)}</body></html>`, undefined);
    expect(error.constructor).toBe(ServerError);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toContain('HTTP 502');
    expect(error.message).toContain('Bad Gateway');
    expect(error.message.length).toBeLessThan(300);
  });
});

describe('errorFromResponse: the classes by status', () => {
  const body = (code: string): string => JSON.stringify({ error: { code, message: 'm' } });

  it.each([
    [403, '', PermissionError],
    [403, body('forbidden'), PermissionError],
    [404, body('not_found'), NotFoundError],
    [404, '', NotFoundError],
    [422, '', InvalidRequestError],
    [429, body('rate_limited'), RateLimitError],
    [429, '', RateLimitError],
    [500, '', ServerError],
    [503, body('maintenance'), ServerError],
    [504, '<html>Gateway Timeout</html>', ServerError],
  ] as const)('HTTP %i %j → %o', (status, text, type) => {
    const error = errorFromResponse(status, text, 'req_x');
    expect(error.constructor).toBe(type);
    expect(error.status).toBe(status);
    expect(error.requestId).toBe('req_x');
  });

  it('a 401 on a session endpoint → SessionError, with or without a session code', () => {
    const withCode = errorFromResponse(401, body('session_expired'), undefined, {}, 'GET', { auth: 'session' });
    expect(withCode).toBeInstanceOf(SessionError);
    expect(withCode.code).toBe('session_expired');
    expect(errorFromResponse(401, '', undefined, {}, 'POST', { auth: 'session' })).toBeInstanceOf(SessionError);
  });

  it('an API-key code stays an AuthenticationError even on a session endpoint', () => {
    const error = errorFromResponse(401, body('invalid_api_key'), undefined, {}, 'GET', { auth: 'session' });
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).not.toBeInstanceOf(SessionError);
  });

  it('RateLimitError carries Retry-After in milliseconds', () => {
    const error = errorFromResponse(429, '', undefined, { 'retry-after': '7' });
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(7_000);
    expect(errorFromResponse(429, '', undefined).retryAfterMs).toBeUndefined();
  });
});

describe('errorFromResponse: whether the request may have been counted', () => {
  it.each([
    ['POST', 500, true],
    ['PATCH', 502, true],
    ['POST', 503, true],
    ['GET', 500, false],
    ['POST', 400, false],
    ['POST', 429, false],
    ['POST', 401, false],
  ] as const)('%s answered %i → %s', (method, status, counted) => {
    expect(errorFromResponse(status, '', undefined, {}, method).mayHaveBeenCounted).toBe(counted);
  });

  it('a 5xx on a counted GET (GET /v1/documents) may have been counted', () => {
    expect(errorFromResponse(500, '', undefined, {}, 'GET', { counted: true }).mayHaveBeenCounted).toBe(true);
  });
});

describe('parseRetryAfterMs', () => {
  const now = Date.UTC(2025, 0, 1, 12, 0, 0);

  it('reads delay-seconds', () => {
    expect(parseRetryAfterMs('0', now)).toBe(0);
    expect(parseRetryAfterMs('3', now)).toBe(3_000);
    expect(parseRetryAfterMs(['120'], now)).toBe(120_000);
  });

  it('reads an HTTP date relative to now, a past date as 0', () => {
    expect(parseRetryAfterMs('Wed, 01 Jan 2025 12:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfterMs('Wed, 01 Jan 2025 11:00:00 GMT', now)).toBe(0);
  });

  it.each([undefined, '', 'soon', '-1', '1.5'])('gives undefined for %j', (value) => {
    expect(parseRetryAfterMs(value, now)).toBeUndefined();
  });
});
