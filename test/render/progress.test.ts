/**
 * Texts of progress indicators (`src/render/progress.ts`) as a user reads them: the notice of a wait before a request
 * is tried again says why, for how long and which try follows.
 */
import { describe, expect, it } from 'vitest';
import type { RetryNotice } from '../../src/api/client.js';
import { retryNoticeText } from '../../src/render/progress.js';

const notice = (extra: Partial<RetryNotice>): RetryNotice => ({
  method: 'GET',
  path: '/v1/usage',
  status: 503,
  delayMs: 59_000,
  retryAfter: true,
  nextTry: 2,
  maxTries: 3,
  ...extra,
});

describe('retryNoticeText', () => {
  it('says why the request waits, how long, and which try follows', () => {
    expect(retryNoticeText(notice({}))).toBe('Server busy (HTTP 503); retrying in 59s (try 2 of 3)…');
    expect(retryNoticeText(notice({ status: 429, delayMs: 1_500, nextTry: 3 }))).toBe('Too many requests (HTTP 429); retrying in 2s (try 3 of 3)…');
    expect(retryNoticeText(notice({ status: 504, delayMs: 375, retryAfter: false }))).toBe('Gateway error (HTTP 504); retrying in 1s (try 2 of 3)…');
    expect(retryNoticeText(notice({ status: undefined, delayMs: 90_000, retryAfter: false }))).toBe('Could not connect; retrying in 1m30s (try 2 of 3)…');
  });
});
