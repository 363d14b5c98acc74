/**
 * Reading error bodies and mapping error responses to typed errors (`src/api/errors.ts`): the exit code a script sees
 * and the message a person reads.
 */
import { describe, expect, it } from 'vitest';
import {
  ApiError,
  AuthenticationError,
  InvalidRequestError,
  QuotaExceededError,
  errorFromResponse,
  parseErrorBody,
} from '../../src/api/errors.js';
import { EXIT } from '../../src/exit-codes.js';

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

  it.each(['missing_api_key', 'invalid_api_key', 'revoked_api_key'])('%s → AuthenticationError, exit 4', (code) => {
    const error = errorFromResponse(401, body(code), 'req_1');
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.exitCode).toBe(EXIT.auth);
    expect(error.exitCode).toBe(4);
    expect(error.code).toBe(code);
    expect(error.status).toBe(401);
    expect(error.requestId).toBe('req_1');
  });

  it('invalid_request → InvalidRequestError, exit 1, with the server message', () => {
    const error = errorFromResponse(400, body('invalid_request', 'query too short'), undefined);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error.exitCode).toBe(1);
    expect(error.serverMessage).toBe('query too short');
    expect(error.message).toContain('query too short');
    expect(error.requestId).toBeUndefined();
  });

  it('monthly_quota_exceeded → QuotaExceededError, exit 5', () => {
    const error = errorFromResponse(429, body('monthly_quota_exceeded'), 'req_2');
    expect(error).toBeInstanceOf(QuotaExceededError);
    expect(error.exitCode).toBe(EXIT.quota);
    expect(error.exitCode).toBe(5);
  });

  it('maps by code, not by status: a quota code on 403 is still a quota error', () => {
    expect(errorFromResponse(403, body('monthly_quota_exceeded'), undefined)).toBeInstanceOf(QuotaExceededError);
  });

  it('401 without a code → AuthenticationError, exit 4', () => {
    const error = errorFromResponse(401, '', undefined);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.exitCode).toBe(4);
    expect(error.code).toBeUndefined();
    expect(error.message).toContain('401');
  });

  it('400 without a code → InvalidRequestError', () => {
    expect(errorFromResponse(400, 'Bad Request', undefined)).toBeInstanceOf(InvalidRequestError);
  });

  it('an unknown code → plain ApiError, exit 1, carrying the code and status', () => {
    const error = errorFromResponse(418, body('teapot_overheated'), undefined);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).not.toBeInstanceOf(AuthenticationError);
    expect(error).not.toBeInstanceOf(InvalidRequestError);
    expect(error).not.toBeInstanceOf(QuotaExceededError);
    expect(error.exitCode).toBe(EXIT.error);
    expect(error.code).toBe('teapot_overheated');
    expect(error.status).toBe(418);
  });

  it('an unknown code on 401 is still not silently called an authentication error', () => {
    const error = errorFromResponse(401, body('session_expired'), undefined);
    expect(error.constructor).toBe(ApiError);
    expect(error.exitCode).toBe(1);
  });

  it('502 with an HTML body → ApiError whose message carries a short excerpt', () => {
    const error = errorFromResponse(502, `<html><body><h1>Bad Gateway</h1>${'x'.repeat(5000)}</body></html>`, undefined);
    expect(error.constructor).toBe(ApiError);
    expect(error.exitCode).toBe(1);
    expect(error.message).toContain('HTTP 502');
    expect(error.message).toContain('Bad Gateway');
    expect(error.message.length).toBeLessThan(300);
  });
});
