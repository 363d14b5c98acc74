/** The list of recorded answer jobs (`src/render/answer-jobs.ts`) as a user sees it at 80 columns, and piped. */
import { describe, expect, it } from 'vitest';
import { renderAnswerJobsTable, renderAnswerJobsTsv, shortAge } from '../../src/render/answer-jobs.js';
import type { AnswerJobRecord } from '../../src/state/answer-jobs.js';

const NOW = Date.parse('2025-03-15T12:00:00.000Z');

function record(jobId: string, minutesAgo: number, extra: Partial<AnswerJobRecord> = {}): AnswerJobRecord {
  const at = new Date(NOW - minutesAgo * 60_000).toISOString();
  return {
    job_id: jobId,
    query: 'Синтетичен тестов въпрос за срока на уведомлението по тестовия закон и неговите изключения',
    request: { query: 'Синтетичен тестов въпрос' },
    profile: 'default',
    sandbox: false,
    base_url: 'https://api.example.invalid',
    created_at: at,
    last_status: 'succeeded',
    checked_at: at,
    ...extra,
  };
}

const widest = (text: string): number => Math.max(...text.split('\n').map((line) => [...line].length));

describe('renderAnswerJobsTable', () => {
  it('fits 80 columns, shows ages and the error code of a failed job, and names the one target in the summary', () => {
    const out = renderAnswerJobsTable(
      [record('ans_3f9c2a7e41d0b8c6a5e2f170', 3, { last_status: 'running' }), record('ans_0b1c', 130, { last_status: 'failed', error_code: 'timed_out' })],
      { width: 80, color: false, now: NOW, total: 5 },
    );
    expect(widest(out)).toBeLessThanOrEqual(80);
    expect(out.split('\n')[0]).toBe('2 of 5 recorded answer jobs (profile default), newest first; -n 0 lists all.');
    expect(out).toMatch(/ans_3f9c2a7e41d0b8c6a5e2f170 +│ running +│ +3m │ Синтетичен/);
    expect(out).toMatch(/ans_0b1c +│ timed_out +│ +2h │/);
    expect(out).not.toContain('Target');
  });

  it('adds a Target column when the jobs were created on several targets', () => {
    const out = renderAnswerJobsTable([record('ans_a', 1), record('ans_b', 2, { sandbox: true, profile: 'sandbox' })], { width: 80, color: false, now: NOW, total: 2 });
    expect(widest(out)).toBeLessThanOrEqual(80);
    expect(out).toContain('Target');
    expect(out).toContain('--sandbox');
  });

  it('removes control sequences from recorded text; says when nothing is recorded', () => {
    const out = renderAnswerJobsTable([record('ans_\u001b[31mred', 1, { query: 'въпрос\u001b]0;title\u0007' })], { width: 80, color: false, now: NOW, total: 1 });
    expect(out).not.toMatch(/\u001b/);
    expect(renderAnswerJobsTable([], { width: 80, color: false, now: NOW, total: 0 })).toBe('No answer jobs are recorded. Ask with `pravo answer "…"`.\n');
  });
});

describe('renderAnswerJobsTsv and shortAge', () => {
  it('one line per job with the documented fields', () => {
    const r = record('ans_a', 1, { last_status: 'failed', error_code: 'timed_out', query: 'два\tреда\nтук' });
    expect(renderAnswerJobsTsv([r])).toBe(`ans_a\tfailed\t${r.created_at}\t${r.checked_at}\tdefault\tfalse\ttimed_out\tдва реда тук\n`);
  });

  it('ages in a few characters', () => {
    expect([0, 59_000, 60_000, 3_599_000, 3_600_000, 47 * 3_600_000, 48 * 3_600_000].map(shortAge)).toEqual(['0s', '59s', '1m', '59m', '1h', '47h', '2d']);
  });
});
