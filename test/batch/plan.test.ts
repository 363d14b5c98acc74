/**
 * The pre-flight of `pravo batch` (`src/batch/plan.ts`): the units each quota kind needs, and whether the batch fits
 * in what the period has left (the quotas plus the overage still allowed), as read from `GET /v1/usage`.
 */
import { describe, expect, it } from 'vitest';
import { readUsage, type UsageFacts } from '../../src/api/usage.js';
import { planBatch, plannedUnits, unitsNeeded, type BatchCounts } from '../../src/batch/plan.js';

function counts(extra: Partial<BatchCounts> = {}): BatchCounts {
  return { total: 10, done: 0, failed: 0, interrupted: 0, missing: 0, toSend: 10, jobsToCollect: 0, searchedToFinish: 0, ...extra };
}

/** Usage facts as the sandbox reports them (`GET /v1/usage`). */
function usage(
  quotas: Record<string, { used: number; limit: number | null }>,
  overage: { allowed: boolean; limit: number; used: number } = { allowed: false, limit: 0, used: 0 },
): UsageFacts {
  return readUsage({
    period: { start: '2025-03-01T00:00:00Z', end: '2025-04-01T00:00:00Z', month: '2025-03' },
    plan: 'sandbox',
    quotas: Object.fromEntries(
      Object.entries(quotas).map(([kind, q]) => [kind, { ...q, remaining: q.limit === null ? null : Math.max(0, q.limit - q.used), overage_used: 0 }]),
    ),
    overage,
  });
}

describe('unitsNeeded', () => {
  it('needs one search unit per line to send, in search mode', () => {
    expect(unitsNeeded('search', 0, counts({ toSend: 7 }), 0)).toEqual([{ kind: 'search', units: 7, upTo: false }]);
  });

  it('needs one answers unit per line to send, and nothing for answer jobs to collect', () => {
    expect(unitsNeeded('answers', 0, counts({ toSend: 4, jobsToCollect: 3 }), 0)).toEqual([{ kind: 'answers', units: 4, upTo: false }]);
  });

  it('with --fetch-docs K, needs up to K retrievals per line to send, plus the known documents of lines already searched', () => {
    expect(unitsNeeded('search', 3, counts({ toSend: 5, searchedToFinish: 2 }), 4)).toEqual([
      { kind: 'search', units: 5, upTo: false },
      { kind: 'retrieval', units: 5 * 3 + 4, upTo: true },
    ]);
  });

  it('counts retrievals exactly when every line left was searched before', () => {
    expect(unitsNeeded('search', 3, counts({ toSend: 0, searchedToFinish: 2 }), 4)).toEqual([
      { kind: 'search', units: 0, upTo: false },
      { kind: 'retrieval', units: 4, upTo: false },
    ]);
  });
});

describe('planBatch', () => {
  it('fits when every kind needs no more than it has left', () => {
    const needs = unitsNeeded('search', 2, counts({ toSend: 10 }), 0);
    const plan = planBatch('search', 2, counts({ toSend: 10 }), needs, usage({ search: { used: 90, limit: 100 }, retrieval: { used: 0, limit: 20 } }));
    expect(plan.exceeds).toBe(false);
    expect(plan.beyondQuota).toBe(0);
    expect(plan.unknown).toEqual([]);
    expect(plan.needs).toEqual([
      { kind: 'search', units: 10, upTo: false, remaining: 10, beyondQuota: 0 },
      { kind: 'retrieval', units: 20, upTo: true, remaining: 20, beyondQuota: 0 },
    ]);
    expect(plan.period?.end).toBe('2025-04-01T00:00:00Z');
    expect(plannedUnits(plan)).toBe(30);
  });

  it('lists the needs in the order of the quota kinds, whatever order they came in', () => {
    const plan = planBatch(
      'search',
      1,
      counts(),
      [
        { kind: 'retrieval', units: 1, upTo: true },
        { kind: 'search', units: 1, upTo: false },
      ],
      undefined,
    );
    expect(plan.needs.map((n) => n.kind)).toEqual(['search', 'retrieval']);
  });

  it('goes ahead in overage when the units beyond the quota fit in the overage still allowed', () => {
    const needs = unitsNeeded('search', 0, counts({ toSend: 15 }), 0);
    const facts = usage({ search: { used: 95, limit: 100 } }, { allowed: true, limit: 20, used: 10 });
    const plan = planBatch('search', 0, counts({ toSend: 15 }), needs, facts);
    expect(plan.needs[0]).toMatchObject({ kind: 'search', remaining: 5, beyondQuota: 10 });
    expect(plan.overage).toEqual({ allowed: true, available: 10 });
    expect(plan.beyondQuota).toBe(10);
    expect(plan.exceeds).toBe(false);
  });

  it('exceeds when the units beyond the quota are more than the overage still allowed', () => {
    const needs = unitsNeeded('search', 0, counts({ toSend: 16 }), 0);
    const facts = usage({ search: { used: 95, limit: 100 } }, { allowed: true, limit: 20, used: 10 });
    const plan = planBatch('search', 0, counts({ toSend: 16 }), needs, facts);
    expect(plan.beyondQuota).toBe(11);
    expect(plan.exceeds).toBe(true);
  });

  it('exceeds by a single unit when overage is not allowed', () => {
    const needs = unitsNeeded('answers', 0, counts({ toSend: 6 }), 0);
    const plan = planBatch('answers', 0, counts({ toSend: 6 }), needs, usage({ answers: { used: 15, limit: 20 } }));
    expect(plan.needs).toEqual([{ kind: 'answers', units: 6, upTo: false, remaining: 5, beyondQuota: 1 }]);
    expect(plan.overage).toEqual({ allowed: false, available: 0 });
    expect(plan.exceeds).toBe(true);
  });

  it('counts no overage as available once the period used it up', () => {
    const needs = unitsNeeded('search', 0, counts({ toSend: 3 }), 0);
    const plan = planBatch('search', 0, counts({ toSend: 3 }), needs, usage({ search: { used: 100, limit: 100 } }, { allowed: true, limit: 50, used: 60 }));
    expect(plan.overage.available).toBe(0);
    expect(plan.exceeds).toBe(true);
  });

  it('never exceeds an unlimited quota (remaining null)', () => {
    const needs = unitsNeeded('search', 0, counts({ toSend: 100_000 }), 0);
    const plan = planBatch('search', 0, counts({ toSend: 100_000 }), needs, usage({ search: { used: 5_000, limit: null } }));
    expect(plan.needs).toEqual([{ kind: 'search', units: 100_000, upTo: false, remaining: null, beyondQuota: 0 }]);
    expect(plan.unknown).toEqual([]);
    expect(plan.exceeds).toBe(false);
  });

  it('lists a kind whose remaining the server did not report as unknown, and does not count it against the batch', () => {
    const needs = unitsNeeded('search', 3, counts({ toSend: 10 }), 0);
    const plan = planBatch('search', 3, counts({ toSend: 10 }), needs, usage({ search: { used: 0, limit: 100 } }));
    expect(plan.needs[1]).toEqual({ kind: 'retrieval', units: 30, upTo: true, remaining: undefined, beyondQuota: 0 });
    expect(plan.unknown).toEqual(['retrieval']);
    expect(plan.exceeds).toBe(false);
  });

  it('lists every kind with units to spend as unknown when there are no usage facts at all', () => {
    const needs = unitsNeeded('search', 3, counts({ toSend: 10 }), 0);
    const plan = planBatch('search', 3, counts({ toSend: 10 }), needs, undefined);
    expect(plan.unknown).toEqual(['search', 'retrieval']);
    expect(plan.overage).toEqual({ allowed: undefined, available: undefined });
    expect(plan.period).toBeUndefined();
    expect(plan.exceeds).toBe(false);
  });

  it('does not list a kind as unknown when the batch spends none of it', () => {
    const needs = unitsNeeded('search', 3, counts({ toSend: 0, searchedToFinish: 2 }), 5);
    const plan = planBatch('search', 3, counts({ toSend: 0, searchedToFinish: 2 }), needs, usage({ retrieval: { used: 0, limit: 100 } }));
    expect(plan.unknown).toEqual([]);
  });

  it('assumes no overage when the server does not report it: beyond the quota exceeds', () => {
    const facts = readUsage({ quotas: { search: { used: 98, limit: 100 } } });
    expect(facts.overage).toEqual({});
    const needs = unitsNeeded('search', 0, counts({ toSend: 3 }), 0);
    const plan = planBatch('search', 0, counts({ toSend: 3 }), needs, facts);
    expect(plan.overage).toEqual({ allowed: undefined, available: undefined });
    expect(plan.beyondQuota).toBe(1);
    expect(plan.exceeds).toBe(true);
    // Within the quota, an unreported overage does not matter.
    const fits = planBatch('search', 0, counts({ toSend: 2 }), unitsNeeded('search', 0, counts({ toSend: 2 }), 0), facts);
    expect(fits.exceeds).toBe(false);
  });

  it('does not refuse when overage is allowed but its limit is not reported: that cannot be checked', () => {
    const facts = readUsage({ quotas: { search: { used: 98, limit: 100 } }, overage: { allowed: true } });
    const plan = planBatch('search', 0, counts({ toSend: 30 }), unitsNeeded('search', 0, counts({ toSend: 30 }), 0), facts);
    expect(plan.overage).toEqual({ allowed: true, available: undefined });
    expect(plan.beyondQuota).toBe(28);
    expect(plan.exceeds).toBe(false);
  });

  it('sums the units beyond the quota over every kind against the one overage limit', () => {
    const facts = usage({ search: { used: 97, limit: 100 }, retrieval: { used: 195, limit: 200 } }, { allowed: true, limit: 12, used: 0 });
    const c = counts({ toSend: 5 });
    // search: 5 needed, 3 left → 2 beyond; retrieval: up to 15 needed, 5 left → 10 beyond; 12 in all.
    const plan = planBatch('search', 3, c, unitsNeeded('search', 3, c, 0), facts);
    expect(plan.needs.map((n) => n.beyondQuota)).toEqual([2, 10]);
    expect(plan.beyondQuota).toBe(12);
    expect(plan.exceeds).toBe(false);
    const tighter = usage({ search: { used: 97, limit: 100 }, retrieval: { used: 195, limit: 200 } }, { allowed: true, limit: 11, used: 0 });
    expect(planBatch('search', 3, c, unitsNeeded('search', 3, c, 0), tighter).exceeds).toBe(true);
  });

  it('plans nothing to spend when every line is done or only answer jobs are left to collect', () => {
    const c = counts({ toSend: 0, done: 8, jobsToCollect: 2 });
    const plan = planBatch('answers', 0, c, unitsNeeded('answers', 0, c, 0), usage({ answers: { used: 20, limit: 20 } }));
    expect(plannedUnits(plan)).toBe(0);
    expect(plan.exceeds).toBe(false);
    expect(plan.counts).toBe(c);
  });
});
