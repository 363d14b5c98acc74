/**
 * Error advice and rendering (`src/errors/advice.ts`, `src/errors/exit.ts`, `src/render/errors.ts`): what a user is
 * told, the exit code, and the JSON line for scripts. Ported from the renderer tests, with the same assertions.
 */
import { describe, expect, it } from 'vitest';
import {
  ApiError,
  AuthenticationError,
  CancelledError,
  ConnectionError,
  InvalidRequestError,
  MissingCredentialError,
  NetworkError,
  NotFoundError,
  QuotaExceededError,
  RateLimitError,
  ServerError,
  TimeoutError,
  UnexpectedResponseError,
  type ApiErrorDetails,
} from '../../src/api/errors.js';
import { ConfigError, UsageError } from '../../src/errors/cli.js';
import { describeError, type ErrorContext } from '../../src/errors/advice.js';
import { renderErrorJson, renderErrorText } from '../../src/render/errors.js';

const hasAnsi = (text: string): boolean => /\x1b\[/.test(text);
/** describeError with the context of `pravo search` unless given. */
const describe_ = (error: unknown, context: Partial<ErrorContext> = {}) => describeError(error, { command: 'search', ...context });

describe('describeError', () => {
  const details = (status: number, code: string | undefined, serverMessage?: string): ApiErrorDetails => ({
    status,
    code,
    serverMessage,
    requestId: 'req_abc',
  });

  it.each([
    ['UsageError', new UsageError('bad option'), 'usage', 2],
    ['ConfigError', new ConfigError('bad base URL'), 'config', 2],
    ['MissingCredentialError', new MissingCredentialError('api_key'), 'auth', 4],
    ['AuthenticationError', new AuthenticationError(details(401, 'invalid_api_key')), 'auth', 4],
    ['InvalidRequestError', new InvalidRequestError(details(400, 'invalid_request')), 'invalid_request', 1],
    ['QuotaExceededError', new QuotaExceededError(details(429, 'monthly_quota_exceeded')), 'quota', 5],
    ['ServerError 500', new ServerError(details(500, 'internal_error')), 'server', 1],
    ['ConnectionError', new ConnectionError('http://127.0.0.1:1', new Error('connect ECONNREFUSED')), 'connection', 6],
    ['NetworkError', new NetworkError(new Error('other side closed'), true), 'network', 6],
    ['TimeoutError', new TimeoutError(60_000, true), 'timeout', 6],
    ['CancelledError', new CancelledError(true), 'cancelled', 130],
    ['UnexpectedResponseError', new UnexpectedResponseError(200, 'not JSON', undefined), 'unexpected', 1],
    ['a plain Error', new Error('boom'), 'unexpected', 1],
    ['a thrown string', 'boom', 'unexpected', 1],
  ])('%s → kind %s, exit %i', (_name, error, kind, exitCode) => {
    const summary = describeError(error, { command: 'search' });
    expect(summary.kind).toBe(kind);
    expect(summary.exitCode).toBe(exitCode);
    expect(summary.message.length).toBeGreaterThan(0);
  });

  it.each([
    ['UsageError', new UsageError('x')],
    ['MissingCredentialError', new MissingCredentialError('api_key')],
    ['AuthenticationError', new AuthenticationError(details(401, 'revoked_api_key'))],
    ['InvalidRequestError', new InvalidRequestError(details(400, 'invalid_request'))],
    ['QuotaExceededError', new QuotaExceededError(details(429, 'monthly_quota_exceeded'))],
    ['ConnectionError', new ConnectionError('http://127.0.0.1:1', new Error('refused'))],
    ['NetworkError', new NetworkError(new Error('reset'), true)],
    ['TimeoutError', new TimeoutError(60_000, true)],
    ['UnexpectedResponseError', new UnexpectedResponseError(200, 'x', undefined)],
    ['ServerError 503', new ServerError(details(503, undefined))],
  ])('%s comes with a hint of what to do next', (_name, error) => {
    expect(describe_(error).hint).toBeTruthy();
  });

  it('timeout and network hints say the server may already have counted the request', () => {
    for (const error of [new TimeoutError(60_000, true), new NetworkError(new Error('reset'), true)]) {
      const summary = describe_(error);
      expect(summary.hint).toMatch(/may already have/);
      expect(summary.hint).toMatch(/counted/);
      expect(summary.mayHaveBeenCounted).toBe(true);
    }
  });

  it('the timeout hint names a way to allow more time', () => {
    expect(describe_(new TimeoutError(60_000, true)).hint).toContain('--timeout');
  });

  it('a connection error says nothing reached the server, and was not counted', () => {
    const summary = describe_(new ConnectionError('http://127.0.0.1:1', new Error('refused')));
    expect(summary.hint).toMatch(/Nothing reached the server/);
    expect(summary.mayHaveBeenCounted).toBe(false);
  });

  it('invalid_api_key says retrying will not help', () => {
    const summary = describe_(new AuthenticationError(details(401, 'invalid_api_key', 'unknown key')));
    expect(summary.hint).toMatch(/Retrying will not help/);
    expect(summary.code).toBe('invalid_api_key');
    expect(summary.message).toContain('invalid_api_key');
    expect(summary.message).toContain('unknown key');
    expect(summary.requestId).toBe('req_abc');
  });

  it('revoked_api_key says the key was revoked; missing_api_key suggests the bearer header', () => {
    expect(describe_(new AuthenticationError(details(401, 'revoked_api_key'))).hint).toMatch(/revoked/);
    expect(describe_(new AuthenticationError(details(401, 'missing_api_key'))).hint).toMatch(/auth-header bearer/);
  });

  it('usage errors say nothing was sent and point to the command help', () => {
    const summary = describe_(new UsageError('--max-results must be 1 to 50'), { command: 'search' });
    expect(summary.hint).toMatch(/Nothing was sent/);
    expect(summary.hint).toContain('pravo search --help');
    expect(summary.message).toBe('--max-results must be 1 to 50');
    expect(summary.mayHaveBeenCounted).toBe(false);
  });

  it('an exhausted quota points at `pravo usage` on the same target', () => {
    const quota = new QuotaExceededError(details(429, 'monthly_quota_exceeded'));
    expect(describe_(quota).hint).toContain('`pravo usage` shows what is left of each quota');
    expect(describe_(quota, { profile: 'work' }).hint).toContain('`pravo usage --profile work`');
    expect(describe_(quota, { sandbox: true }).hint).toContain('`pravo usage --sandbox`');
  });

  it('a missing key says nothing was sent and how to store a key for the profile in use', () => {
    const summary = describe_(new MissingCredentialError('api_key'), { profile: 'work' });
    expect(summary.hint).toMatch(/Nothing was sent/);
    expect(summary.hint).toContain('pravo config set-key --profile work');
  });

  it('adds --profile to suggested commands only for a non-default profile', () => {
    const error = new AuthenticationError(details(401, 'invalid_api_key'));
    expect(describe_(error, { profile: 'work' }).hint).toContain('--profile work');
    expect(describe_(error, { profile: 'default' }).hint).not.toContain('--profile');
  });

  it('server errors (5xx) may have been counted; 4xx without a known code were not', () => {
    expect(describe_(new ServerError({ ...details(502, undefined, 'Bad Gateway'), mayHaveBeenCounted: true })).mayHaveBeenCounted).toBe(true);
    expect(describe_(new ApiError(details(404, 'not_found'))).mayHaveBeenCounted).toBe(false);
  });

  it('a busy server that asked to wait longer than pravo waits says when to try again', () => {
    const busy = describe_(new ServerError({ ...details(503, 'service_unavailable', 'busy'), retryAfterMs: 59_000 }), { command: 'usage' });
    expect(busy.hint).toBe('The server asked to wait 59s: try again after that.');
    const limited = describe_(new RateLimitError({ ...details(429, 'rate_limited', 'slow down'), retryAfterMs: 185_000 }));
    expect(limited.hint).toBe('The server asked to wait 3m05s: try again after that.');
    const counted = describe_(new ServerError({ ...details(503, undefined), mayHaveBeenCounted: true, retryAfterMs: 120_000 }));
    expect(counted.hint).toMatch(/counted it against your quota; pravo does not retry it automatically\. The server asked to wait 2m00s: try again after that\.$/);
    // Without Retry-After: as before.
    expect(describe_(new ServerError(details(503, undefined))).hint).toBe('Try again later.');
    expect(describe_(new RateLimitError(details(429, undefined))).hint).toBe('Wait a little and try again.');
  });

  it('pravo doc: a 404 says the document is not on this server and why that may be; other commands keep "Not found"', () => {
    const error = new NotFoundError(details(404, 'not_found', 'No such document'));
    const doc = describe_(error, { command: 'doc' });
    expect(doc).toMatchObject({ kind: 'not_found', exitCode: 1, message: 'The document is not on this server: No such document' });
    expect(doc.hint).toMatch(/document_id or the collection may be wrong, or the result came from another target/);
    expect(describe_(error).message).toBe('Not found: No such document');
  });

  it('a usage error found in the server\'s answer does not claim that nothing was sent', () => {
    expect(describe_(new UsageError('There is no article 45.', { afterRequest: true }), { command: 'doc' }).hint).toBe('See `pravo doc --help`.');
    expect(describe_(new UsageError('bad'), { command: 'doc' }).hint).toBe('Nothing was sent. See `pravo doc --help`.');
  });

  it('a cancelled request says whether it may have been counted', () => {
    expect(describe_(new CancelledError(true)).mayHaveBeenCounted).toBe(true);
    expect(describe_(new CancelledError(true)).hint).toMatch(/counted/);
    expect(describe_(new CancelledError(false)).mayHaveBeenCounted).toBe(false);
    expect(describe_(new CancelledError(false)).hint).toBeUndefined();
  });
});

describe('renderErrorText and renderErrorJson', () => {
  const summary = describe_(
    new AuthenticationError({ status: 401, code: 'invalid_api_key', serverMessage: 'unknown key', requestId: 'req_42' }),
  );

  it('renders "Error: …", the hint and the request id, without ANSI when colour is off', () => {
    const text = renderErrorText(summary, false);
    const [first, second, third] = text.trimEnd().split('\n');
    expect(first).toMatch(/^Error: Authentication failed/);
    expect(second).toMatch(/Retrying will not help/);
    expect(third).toBe('Request id: req_42');
    expect(hasAnsi(text)).toBe(false);
    expect(hasAnsi(renderErrorText(summary, true))).toBe(true);
  });

  it('renders one parseable JSON line with every field', () => {
    const out = renderErrorJson(summary);
    expect(out.endsWith('\n')).toBe(true);
    expect(out.trimEnd().split('\n')).toHaveLength(1);
    expect(JSON.parse(out)).toEqual({
      error: {
        kind: 'auth',
        code: 'invalid_api_key',
        message: summary.message,
        hint: summary.hint,
        exit_code: 4,
        may_have_been_counted: false,
        request_id: 'req_42',
      },
    });
  });

  it('stays one line when the message has newlines, and uses null for absent values', () => {
    const out = renderErrorJson(describe_(new UnexpectedResponseError(200, 'line one\nline two', undefined)));
    expect(out.trimEnd().split('\n')).toHaveLength(1);
    const parsed = JSON.parse(out) as { error: Record<string, unknown> };
    // Text that may come from a server is sanitized to one line before it is shown.
    expect(parsed.error.message).toBe('The server sent a response pravo does not understand: line one line two');
    expect(parsed.error.code).toBeNull();
    expect(parsed.error.request_id).toBeNull();
  });
});
