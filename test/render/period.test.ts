/**
 * The usage period for people (`src/render/period.ts`): one convention in every command that prints it. `pravo usage`
 * and `pravo batch` name the same last day of the period, inclusive, in UTC, for the same usage; the day after it is
 * named only as the day the next period begins.
 */
import { describe, expect, it } from 'vitest';
import { readUsage } from '../../src/api/usage.js';
import { planBatch, unitsNeeded, type BatchCounts } from '../../src/batch/plan.js';
import { nextPeriodBegins, periodDates, periodEnds } from '../../src/render/period.js';
import { planText, refusalText, summaryText } from '../../src/render/batch.js';
import { renderUsageTable } from '../../src/render/usage.js';
import { batchSummary } from '../helpers/batch.js';

/** November 2026 as the sandbox sends it: the end is the first instant of December (exclusive). */
const BODY = {
  period: { start: '2026-11-01T00:00:00.000Z', end: '2026-12-01T00:00:00.000Z', month: '2026-11' },
  quotas: { search: { used: 990, limit: 1000, remaining: 10, overage_used: 0 } },
  overage: { allowed: false, limit: 0, used: 0 },
};
const NOW = Date.parse('2026-11-18T10:00:00Z');
const COUNTS: BatchCounts = { total: 50, done: 0, failed: 0, interrupted: 0, missing: 0, toSend: 50, jobsToCollect: 0, searchedToFinish: 0 };

describe('the period end, one convention', () => {
  it('is the last day of the period, inclusive, in UTC', () => {
    const { period } = readUsage(BODY);
    expect(periodEnds(period)).toBe('ends 2026-11-30 (UTC)');
    expect(periodDates(period)).toBe('2026-11-01 – 2026-11-30 (UTC)');
    expect(nextPeriodBegins(period)).toBe('2026-12-01 (UTC)');
    // From the month alone, and for December, whose end is in the next year.
    expect(periodEnds({ month: '2028-02' })).toBe('ends 2028-02-29 (UTC)');
    expect(periodEnds({ end: '2027-01-01T00:00:00Z' })).toBe('ends 2026-12-31 (UTC)');
  });

  it('is left out when the end cannot be read, never shown as the server sent it', () => {
    expect(periodEnds(undefined)).toBeUndefined();
    expect(periodEnds({ end: '2026-12\u001b[2J-01' })).toBeUndefined();
    expect(nextPeriodBegins({ start: '2026-11-01' })).toBeUndefined();
  });

  it('is the same day in pravo usage and in the plan, refusal and stop of pravo batch', () => {
    const facts = readUsage(BODY);
    const usage = renderUsageTable(facts, { width: 100, color: false, now: NOW });
    expect(usage).toContain('Period   2026-11-01 – 2026-11-30 (UTC), 13 days left');

    const plan = planBatch('search', 0, COUNTS, unitsNeeded('search', 0, COUNTS, 0), facts);
    const names = { input: 'q.txt', out: 'out.jsonl' };
    expect(planText(plan, names, { color: false, interrupted: [] })).toContain('the period ends 2026-11-30 (UTC)');
    expect(refusalText(plan)).toContain('The period ends 2026-11-30 (UTC); the next begins 2026-12-01 (UTC).');
    const stopped = summaryText(batchSummary({ stop: 'quota', period: facts.period }), { ...names, rerun: 'pravo batch q.txt', color: false });
    expect(stopped).toContain('Continue in the next period, which begins 2026-12-01 (UTC), or once the quota is raised');
    for (const text of [usage, planText(plan, names, { color: false, interrupted: [] }), refusalText(plan)]) {
      expect(text).not.toMatch(/ends 2026-12-01/);
    }
  });
});
