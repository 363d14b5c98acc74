/**
 * The tolerant reader of `GET /v1/usage` (`src/api/usage.ts`): the sandbox's shape read exactly, the shapes a live
 * service might send instead read to the same facts, and nothing that is not a count taken for one.
 */
import { describe, expect, it } from 'vitest';
import { kindUsage, readUsage } from '../../src/api/usage.js';
import type { UsageResponse } from '../../src/contract/types.js';

/** The sandbox's documented shape: 812 of 1000 searches, 3 of 500 retrievals, unlimited answers, overage off. */
const SANDBOX: UsageResponse = {
  period: { start: '2026-11-01T00:00:00.000Z', end: '2026-12-01T00:00:00.000Z', month: '2026-11' },
  plan: 'sandbox',
  quotas: {
    search: { used: 812, limit: 1000, remaining: 188, overage_used: 0 },
    retrieval: { used: 3, limit: 500, remaining: 497, overage_used: 0 },
    answers: { used: 12, limit: null, remaining: null, overage_used: 0 },
  },
  overage: { allowed: false, limit: 0, used: 0 },
};

describe('readUsage', () => {
  it('reads the sandbox shape field for field, kinds in the contract order', () => {
    expect(readUsage(SANDBOX as unknown as Record<string, unknown>)).toEqual({
      period: { start: '2026-11-01T00:00:00.000Z', end: '2026-12-01T00:00:00.000Z', month: '2026-11' },
      plan: 'sandbox',
      kinds: [
        { kind: 'search', used: 812, limit: 1000, remaining: 188, overageUsed: 0 },
        { kind: 'retrieval', used: 3, limit: 500, remaining: 497, overageUsed: 0 },
        { kind: 'answers', used: 12, limit: null, remaining: null, overageUsed: 0 },
      ],
      overage: { allowed: false, limit: 0, used: 0 },
    });
  });

  it('puts the contract kinds first in QUOTA_KINDS order, whatever order they came in, then other kinds as sent', () => {
    const facts = readUsage({
      quotas: { exports: { used: 1, limit: 5 }, answers: { used: 2, limit: 10 }, search: { used: 3, limit: 100 }, alerts: { used: 0, limit: 1 } },
    });
    expect(facts.kinds.map((k) => k.kind)).toEqual(['search', 'answers', 'exports', 'alerts']);
  });

  it('reads kinds at the top level, with the aliases searches, documents and quota for limit, like a live service might send', () => {
    const facts = readUsage({
      searches: { used: 40, quota: 50 },
      documents: { used: 7, quota: 100, remaining: 93 },
      answers: { used: 1, quota: null },
      period: { start: '2026-11-01', end: '2026-12-01' },
      overages: { enabled: true, monthly_limit: 200, used: 4 },
      account_id: 'acct_1',
      plan: { name: 'Professional', id: 'pro' },
    });
    expect(facts.kinds).toEqual([
      { kind: 'search', used: 40, limit: 50, remaining: 10, overageUsed: undefined },
      { kind: 'retrieval', used: 7, limit: 100, remaining: 93, overageUsed: undefined },
      { kind: 'answers', used: 1, limit: null, remaining: null, overageUsed: undefined },
    ]);
    expect(facts.period).toEqual({ start: '2026-11-01', end: '2026-12-01' });
    expect(facts.overage).toEqual({ allowed: true, limit: 200, used: 4 });
    expect(facts.plan).toBe('Professional');
  });

  it('retrievals is the retrieval kind too; an array of records with kind or name is read', () => {
    const facts = readUsage({
      quotas: [
        { kind: 'retrievals', consumed: 9, limit: 10 },
        { name: 'searches', used: 1, limit: 2 },
        { used: 5 },
        'junk',
      ],
    });
    expect(facts.kinds).toEqual([
      { kind: 'search', used: 1, limit: 2, remaining: 1, overageUsed: undefined },
      { kind: 'retrieval', used: 9, limit: 10, remaining: 1, overageUsed: undefined },
    ]);
  });

  it('prefers the contract name when a kind also appears under an alias, and does not list the alias again', () => {
    const facts = readUsage({ quotas: { documents: { used: 99, limit: 100 }, retrieval: { used: 1, limit: 100 } } });
    expect(facts.kinds).toEqual([{ kind: 'retrieval', used: 1, limit: 100, remaining: 99, overageUsed: undefined }]);
  });

  it('computes remaining from limit − used when absent, never below 0; null when unlimited; undefined when it cannot', () => {
    const facts = readUsage({
      quotas: {
        search: { used: 120, limit: 100, overage_used: 20 },
        retrieval: { used: 5, limit: null },
        answers: { used: 5 },
        exports: { limit: 10 },
      },
    });
    expect(facts.kinds.map((k) => [k.kind, k.remaining])).toEqual([
      ['search', 0],
      ['retrieval', null],
      ['answers', undefined],
      ['exports', undefined],
    ]);
    expect(kindUsage(facts, 'search')?.overageUsed).toBe(20);
  });

  it('ignores values that are not counts: strings, negatives, NaN, booleans; a string limit falls through to quota', () => {
    const facts = readUsage({
      quotas: {
        search: { used: '12', limit: 'unlimited', quota: 30, remaining: -1, overage_used: true },
        retrieval: { used: Number.NaN, limit: -5 },
      },
    });
    expect(facts.kinds).toEqual([
      { kind: 'search', used: undefined, limit: 30, remaining: undefined, overageUsed: undefined },
      { kind: 'retrieval', used: undefined, limit: undefined, remaining: undefined, overageUsed: undefined },
    ]);
  });

  it('ignores top-level objects that hold no count and the members that are never kinds', () => {
    const facts = readUsage({ period: { used: 1 }, overage: { used: 2, limit: 3, allowed: true }, account: { id: 'acct_1' }, links: { self: '/v1/usage' } });
    expect(facts.kinds).toEqual([]);
    expect(facts.period).toEqual({});
    expect(facts.overage).toEqual({ allowed: true, limit: 3, used: 2 });
  });

  it('reads a YYYY-MM string as the period month', () => {
    expect(readUsage({ period: '2026-11' }).period).toEqual({ month: '2026-11' });
    expect(readUsage({ period: 'November' }).period).toEqual({});
  });

  it('never throws for an object, whatever its members, and reports nothing it could not read', () => {
    const odd: Record<string, unknown>[] = [
      {},
      { quotas: null, overage: null, period: null, plan: null },
      { quotas: 'many', overage: [], period: 7, plan: 3 },
      { quotas: [null, 1, []], overage: { allowed: 'yes', limit: '5', used: -1 } },
      Object.create(null) as Record<string, unknown>,
    ];
    for (const body of odd) {
      const facts = readUsage(body);
      expect(facts.kinds).toEqual([]);
      expect(facts.overage).toEqual({});
      expect(facts.period).toEqual({});
      expect(facts.plan).toBeUndefined();
    }
  });
});

describe('kindUsage', () => {
  it('finds a contract kind by its name, aliases already resolved; undefined when not reported', () => {
    const facts = readUsage({ quotas: { documents: { used: 2, limit: 3 } } });
    expect(kindUsage(facts, 'retrieval')).toEqual({ kind: 'retrieval', used: 2, limit: 3, remaining: 1, overageUsed: undefined });
    expect(kindUsage(facts, 'search')).toBeUndefined();
  });
});
