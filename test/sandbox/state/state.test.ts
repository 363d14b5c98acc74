/**
 * The sandbox's keys, accounts and usage (`src/sandbox/state/`) in a temporary data directory: keys are stored only as
 * their SHA-256, revocation is immediate, monthly quotas (the plan's, or the handle's overrides) count per account and
 * calendar month (UTC) of the injected clock, overage beyond them up to the account's limit, exactly across handles.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_ACCOUNT_ID, PLANS, SANDBOX_KEY_PREFIX, SandboxState, sha256, usagePeriod } from '../../../src/sandbox/state/store.js';

let dataDir: string;
const opened: SandboxState[] = [];

beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pravo-state-test-'));
});

afterEach(() => {
  for (const state of opened.splice(0)) {
    try {
      state.close();
    } catch {
      // already closed by the test
    }
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function open(options: Parameters<typeof SandboxState.open>[1] = {}): SandboxState {
  const state = SandboxState.open(dataDir, options);
  opened.push(state);
  return state;
}

/** Every byte the state database has on disk: the main file, and its WAL and shared-memory files when present. */
function databaseBytes(): Buffer {
  return Buffer.concat(
    fs
      .readdirSync(dataDir)
      .filter((name) => name.startsWith('state.sqlite'))
      .map((name) => fs.readFileSync(path.join(dataDir, name))),
  );
}

/** A manual clock: the test sets `current`. */
function manualClock(iso: string): { now: () => Date; set: (iso: string) => void } {
  let current = new Date(iso);
  return { now: () => current, set: (next) => (current = new Date(next)) };
}

describe('SandboxState keys', () => {
  it('issues a live key (prefix sbx_live_) that authenticate accepts', () => {
    const state = open();
    const issued = state.issueKey('test');
    expect(issued.api_key.startsWith(SANDBOX_KEY_PREFIX)).toBe(true);
    expect(SANDBOX_KEY_PREFIX.endsWith('_live_')).toBe(true);
    expect(issued.api_key.length).toBeGreaterThanOrEqual(SANDBOX_KEY_PREFIX.length + 16);
    expect(state.authenticate(issued.api_key)).toEqual({ ok: true, key_id: issued.key_id, account_id: DEFAULT_ACCOUNT_ID });
  });

  it('issues a different key every time', () => {
    const state = open();
    const a = state.issueKey('a');
    const b = state.issueKey('b');
    expect(a.api_key).not.toBe(b.api_key);
    expect(a.key_id).not.toBe(b.key_id);
    expect(state.authenticate(b.api_key)).toEqual({ ok: true, key_id: b.key_id, account_id: DEFAULT_ACCOUNT_ID });
  });

  it('gives a display prefix that does not reveal the secret part', () => {
    const issued = open().issueKey('test');
    expect(issued.api_key.startsWith(issued.prefix)).toBe(true);
    expect(issued.prefix.length).toBeLessThanOrEqual(SANDBOX_KEY_PREFIX.length + 4);
  });

  it('never writes the plaintext key to disk, only its SHA-256', () => {
    const state = open();
    const issued = state.issueKey('test');
    state.authenticate(issued.api_key);
    const secretPart = issued.api_key.slice(issued.prefix.length);

    const whileOpen = databaseBytes();
    expect(whileOpen.includes(issued.api_key)).toBe(false);
    expect(whileOpen.includes(secretPart)).toBe(false);

    state.close();
    const afterClose = databaseBytes();
    expect(afterClose.includes(issued.api_key)).toBe(false);
    expect(afterClose.includes(secretPart)).toBe(false);
    expect(afterClose.includes(sha256(issued.api_key))).toBe(true);

    const db = new DatabaseSync(path.join(dataDir, 'state.sqlite'), { readOnly: true });
    try {
      const rows = db.prepare('SELECT * FROM api_keys').all() as Record<string, unknown>[];
      expect(rows).toHaveLength(1);
      const row = rows[0]!;
      expect(row.key_sha256).toBe(sha256(issued.api_key));
      expect(row.key_sha256).toMatch(/^[0-9a-f]{64}$/);
      for (const value of Object.values(row)) {
        if (typeof value === 'string') expect(value).not.toContain(secretPart);
      }
    } finally {
      db.close();
    }
  });

  it('rejects an unknown key of the right form with invalid_api_key', () => {
    const state = open();
    state.issueKey('test');
    expect(state.authenticate(`${SANDBOX_KEY_PREFIX}${'A'.repeat(32)}`)).toEqual({ ok: false, code: 'invalid_api_key' });
  });

  it.each(['', 'not-a-key', 'sbx_live_short', 'sbx_test_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'sbx_live_AAAA AAAAAAAAAAAAAAAA'])(
    'rejects the malformed key %j with invalid_api_key',
    (key) => {
      expect(open().authenticate(key)).toEqual({ ok: false, code: 'invalid_api_key' });
    },
  );

  it('rejects a key that differs from an issued one only in case', () => {
    const state = open();
    const issued = state.issueKey('test');
    const flipped = issued.api_key.slice(0, -1) + (issued.api_key.endsWith('a') ? 'A' : 'a');
    expect(state.authenticate(flipped)).toEqual({ ok: false, code: 'invalid_api_key' });
  });

  it('revokeKey makes the key fail with revoked_api_key at once, and only that key', () => {
    const state = open();
    const revoked = state.issueKey('old');
    const kept = state.issueKey('new');
    expect(state.revokeKey(DEFAULT_ACCOUNT_ID, revoked.key_id)?.status).toBe('revoked');
    expect(state.authenticate(revoked.api_key)).toEqual({ ok: false, code: 'revoked_api_key' });
    expect(state.authenticate(kept.api_key)).toEqual({ ok: true, key_id: kept.key_id, account_id: DEFAULT_ACCOUNT_ID });
  });

  it('revokeKey is undefined for an unknown key or another account\'s, and idempotent for a revoked one', () => {
    const state = open();
    const issued = state.issueKey('test');
    const other = state.issueKey('other', { account: 'acct_other' });
    expect(state.revokeKey(DEFAULT_ACCOUNT_ID, 'key_doesnotexist')).toBeUndefined();
    expect(state.revokeKey(DEFAULT_ACCOUNT_ID, other.key_id)).toBeUndefined();
    expect(state.authenticate(other.api_key).ok).toBe(true);
    const first = state.revokeKey(DEFAULT_ACCOUNT_ID, issued.key_id);
    expect(state.revokeKey(DEFAULT_ACCOUNT_ID, issued.key_id)).toEqual(first);
  });

  it('keeps keys and revocations across reopening', () => {
    const first = open();
    const active = first.issueKey('active');
    const revoked = first.issueKey('revoked');
    first.revokeKey(DEFAULT_ACCOUNT_ID, revoked.key_id);
    first.close();
    const second = open();
    expect(second.authenticate(active.api_key)).toEqual({ ok: true, key_id: active.key_id, account_id: DEFAULT_ACCOUNT_ID });
    expect(second.authenticate(revoked.api_key)).toEqual({ ok: false, code: 'revoked_api_key' });
  });

  it('deleteEphemeralKey removes that ephemeral key only', () => {
    const state = open();
    const ephemeral = state.issueKey('one command', { ephemeral: true });
    const other = state.issueKey('another command', { ephemeral: true });
    const lasting = state.issueKey('serve');
    expect(state.deleteEphemeralKey(ephemeral.key_id)).toBe(true);
    expect(state.authenticate(ephemeral.api_key)).toEqual({ ok: false, code: 'invalid_api_key' });
    expect(state.authenticate(other.api_key)).toEqual({ ok: true, key_id: other.key_id, account_id: DEFAULT_ACCOUNT_ID });
    expect(state.authenticate(lasting.api_key)).toEqual({ ok: true, key_id: lasting.key_id, account_id: DEFAULT_ACCOUNT_ID });
  });
});

const MARCH = (): Date => new Date('2025-03-15T12:00:00Z');

describe('SandboxState usage', () => {
  it('with a quota of 2, allows two searches, then refuses without counting', () => {
    const state = open({ quotas: { search: 2 }, now: MARCH });
    const counted = { kind: 'search', quota: 2, month: '2025-03', beyondQuota: false, overage: { allowed: false, limit: 0, used: 0 } };
    expect(state.consume(DEFAULT_ACCOUNT_ID, 'search')).toEqual({ ...counted, allowed: true, used: 1 });
    expect(state.consume(DEFAULT_ACCOUNT_ID, 'search')).toEqual({ ...counted, allowed: true, used: 2 });
    expect(state.consume(DEFAULT_ACCOUNT_ID, 'search')).toEqual({ ...counted, allowed: false, used: 2 });
    expect(state.consume(DEFAULT_ACCOUNT_ID, 'search')).toMatchObject({ allowed: false, used: 2 });
    expect(state.used(DEFAULT_ACCOUNT_ID, 'search')).toBe(2);
  });

  it('counts each kind against its own quota', () => {
    const state = open({ quotas: { search: 1, retrieval: 5 }, now: MARCH });
    expect(state.consume(DEFAULT_ACCOUNT_ID, 'search').allowed).toBe(true);
    expect(state.consume(DEFAULT_ACCOUNT_ID, 'search').allowed).toBe(false);
    expect(state.consume(DEFAULT_ACCOUNT_ID, 'retrieval')).toMatchObject({ allowed: true, kind: 'retrieval', used: 1, quota: 5 });
    expect(state.used(DEFAULT_ACCOUNT_ID, 'retrieval')).toBe(1);
  });

  it('is unlimited for a kind whose quota is null', () => {
    const state = open({ quotas: { answers: null } });
    for (let i = 1; i <= 5; i++) expect(state.consume(DEFAULT_ACCOUNT_ID, 'answers')).toMatchObject({ allowed: true, used: i, quota: null });
  });

  it("counts against the plan's quotas (sandbox: 10000 searches, 10000 retrievals, 1000 answers) where not overridden", () => {
    expect(PLANS.sandbox!.quotas).toEqual({ search: 10_000, retrieval: 10_000, answers: 1_000 });
    const state = open({ now: MARCH });
    expect(state.account(DEFAULT_ACCOUNT_ID)?.plan).toBe('sandbox');
    expect(state.quotas(DEFAULT_ACCOUNT_ID)).toEqual({ search: 10_000, retrieval: 10_000, answers: 1_000 });
    for (let i = 1; i <= 1000; i++) expect(state.consume(DEFAULT_ACCOUNT_ID, 'answers').allowed).toBe(true);
    expect(state.consume(DEFAULT_ACCOUNT_ID, 'answers')).toMatchObject({ allowed: false, used: 1000, quota: 1000 });
    const overridden = open({ now: MARCH, quotas: { retrieval: 20, answers: null } });
    expect(overridden.quotas(DEFAULT_ACCOUNT_ID)).toEqual({ search: 10_000, retrieval: 20, answers: null });
    expect(overridden.consume(DEFAULT_ACCOUNT_ID, 'answers')).toMatchObject({ allowed: true, used: 1001, quota: null });
  });

  it('counts per account: one account reaching its quota leaves another untouched', () => {
    const state = open({ quotas: { search: 1 }, now: MARCH });
    state.issueKey('other', { account: 'acct_other' });
    expect(state.consume(DEFAULT_ACCOUNT_ID, 'search').allowed).toBe(true);
    expect(state.consume(DEFAULT_ACCOUNT_ID, 'search').allowed).toBe(false);
    expect(state.consume('acct_other', 'search')).toMatchObject({ allowed: true, used: 1 });
    expect(state.used(DEFAULT_ACCOUNT_ID, 'search')).toBe(1);
    expect(state.used('acct_other', 'search')).toBe(1);
  });

  it('starts counting again in the next calendar month (UTC) of the injected clock', () => {
    const clock = manualClock('2025-01-31T23:59:59.999Z');
    const state = open({ quotas: { search: 2 }, now: clock.now });
    state.consume(DEFAULT_ACCOUNT_ID, 'search');
    state.consume(DEFAULT_ACCOUNT_ID, 'search');
    expect(state.consume(DEFAULT_ACCOUNT_ID, 'search').allowed).toBe(false);

    clock.set('2025-02-01T00:00:00.000Z');
    expect(state.used(DEFAULT_ACCOUNT_ID, 'search')).toBe(0);
    expect(state.consume(DEFAULT_ACCOUNT_ID, 'search')).toMatchObject({ allowed: true, used: 1, quota: 2, month: '2025-02' });
  });

  it('counts by the UTC month, not the local one', () => {
    // 00:30 on 1 April in UTC+2 is still 31 March in UTC: the month follows the UTC date.
    const clock = manualClock('2025-04-01T00:30:00+02:00');
    const state = open({ quotas: { search: 1 }, now: clock.now });
    expect(state.consume(DEFAULT_ACCOUNT_ID, 'search').month).toBe('2025-03');
  });

  it('keeps the month’s usage across reopening', () => {
    const now = (): Date => new Date('2025-06-10T08:00:00Z');
    const first = open({ quotas: { search: 2 }, now });
    first.consume(DEFAULT_ACCOUNT_ID, 'search');
    first.close();
    const second = open({ quotas: { search: 2 }, now });
    expect(second.used(DEFAULT_ACCOUNT_ID, 'search')).toBe(1);
    expect(second.consume(DEFAULT_ACCOUNT_ID, 'search')).toMatchObject({ allowed: true, used: 2 });
    expect(second.consume(DEFAULT_ACCOUNT_ID, 'search').allowed).toBe(false);
  });

  it('two handles on one data directory, alternating against a quota of 3: exactly 3 counted in total', () => {
    const first = open({ quotas: { retrieval: 3 }, now: MARCH });
    const second = open({ quotas: { retrieval: 3 }, now: MARCH });
    const allowed = Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? first : second).consume(DEFAULT_ACCOUNT_ID, 'retrieval').allowed);
    expect(allowed).toEqual([true, true, true, false, false, false, false, false, false, false]);
    expect(first.used(DEFAULT_ACCOUNT_ID, 'retrieval')).toBe(3);
    expect(second.used(DEFAULT_ACCOUNT_ID, 'retrieval')).toBe(3);
  });

  it('allows and preview consume nothing, and say what consume would do', () => {
    const state = open({ quotas: { retrieval: 1 }, now: MARCH });
    expect(state.allows(DEFAULT_ACCOUNT_ID, 'retrieval')).toBe(true);
    expect(state.used(DEFAULT_ACCOUNT_ID, 'retrieval')).toBe(0);
    state.consume(DEFAULT_ACCOUNT_ID, 'retrieval');
    expect(state.allows(DEFAULT_ACCOUNT_ID, 'retrieval')).toBe(false);
    expect(state.preview(DEFAULT_ACCOUNT_ID, 'retrieval')).toMatchObject({ allowed: false, used: 1, quota: 1, month: '2025-03' });
    state.setOverage(DEFAULT_ACCOUNT_ID, { allowed: true, limit: 1 });
    expect(state.allows(DEFAULT_ACCOUNT_ID, 'retrieval')).toBe(true);
    expect(state.used(DEFAULT_ACCOUNT_ID, 'retrieval')).toBe(1);
  });
});

describe('SandboxState accounts and overage', () => {
  it('has acct_sandbox, plan sandbox, overage off; issuing a key for a new account creates it the same way', () => {
    const state = open({ now: MARCH });
    expect(state.account(DEFAULT_ACCOUNT_ID)).toMatchObject({ account_id: DEFAULT_ACCOUNT_ID, plan: 'sandbox', overage: { allowed: false, limit: 0 } });
    expect(state.account('acct_new')).toBeUndefined();
    state.issueKey('new', { account: 'acct_new' });
    expect(state.account('acct_new')).toEqual({
      account_id: 'acct_new',
      plan: 'sandbox',
      overage: { allowed: false, limit: 0 },
      created_at: '2025-03-15T12:00:00.000Z',
    });
  });

  it('setOverage stores the setting (off stores limit 0), refuses a bad limit, and answers undefined for no account', () => {
    const state = open({ now: MARCH });
    expect(state.setOverage(DEFAULT_ACCOUNT_ID, { allowed: true, limit: 500 })?.overage).toEqual({ allowed: true, limit: 500 });
    expect(state.setOverage(DEFAULT_ACCOUNT_ID, { allowed: false, limit: 500 })?.overage).toEqual({ allowed: false, limit: 0 });
    expect(() => state.setOverage(DEFAULT_ACCOUNT_ID, { allowed: true, limit: -1 })).toThrow(RangeError);
    expect(() => state.setOverage(DEFAULT_ACCOUNT_ID, { allowed: true, limit: 1.5 })).toThrow(/whole number/);
    expect(state.setOverage('acct_nobody', { allowed: true, limit: 5 })).toBeUndefined();
    expect(state.account('acct_nobody')).toBeUndefined();
    state.setOverage(DEFAULT_ACCOUNT_ID, { allowed: true, limit: 7 });
    state.close();
    expect(open({ now: MARCH }).account(DEFAULT_ACCOUNT_ID)?.overage).toEqual({ allowed: true, limit: 7 });
  });

  it('beyond a quota, counts overage up to the monthly limit, every kind together, then refuses', () => {
    const state = open({ quotas: { search: 2, retrieval: 1, answers: null }, now: MARCH });
    state.setOverage(DEFAULT_ACCOUNT_ID, { allowed: true, limit: 3 });
    const search = () => state.consume(DEFAULT_ACCOUNT_ID, 'search');
    expect(search()).toMatchObject({ allowed: true, used: 1, beyondQuota: false, overage: { used: 0 } });
    expect(search()).toMatchObject({ allowed: true, used: 2, beyondQuota: false, overage: { used: 0 } });
    expect(search()).toMatchObject({ allowed: true, used: 3, beyondQuota: true, overage: { allowed: true, limit: 3, used: 1 } });
    expect(state.consume(DEFAULT_ACCOUNT_ID, 'retrieval')).toMatchObject({ allowed: true, beyondQuota: false, overage: { used: 1 } });
    expect(state.consume(DEFAULT_ACCOUNT_ID, 'retrieval')).toMatchObject({ allowed: true, used: 2, beyondQuota: true, overage: { used: 2 } });
    expect(search()).toMatchObject({ allowed: true, used: 4, beyondQuota: true, overage: { used: 3 } });
    expect(search()).toMatchObject({ allowed: false, used: 4, beyondQuota: false, overage: { allowed: true, limit: 3, used: 3 } });
    expect(state.consume(DEFAULT_ACCOUNT_ID, 'retrieval')).toMatchObject({ allowed: false, used: 2 });
    // An unlimited kind is never beyond its quota, and adds nothing to the overage.
    for (let i = 0; i < 5; i++) expect(state.consume(DEFAULT_ACCOUNT_ID, 'answers')).toMatchObject({ allowed: true, beyondQuota: false, overage: { used: 3 } });
  });

  it('overage off (the default) refuses at the quota; a released overage unit gives its overage back', () => {
    const state = open({ quotas: { search: 1 }, now: MARCH });
    state.consume(DEFAULT_ACCOUNT_ID, 'search');
    expect(state.consume(DEFAULT_ACCOUNT_ID, 'search')).toMatchObject({ allowed: false, overage: { allowed: false, limit: 0, used: 0 } });
    state.setOverage(DEFAULT_ACCOUNT_ID, { allowed: true, limit: 1 });
    expect(state.consume(DEFAULT_ACCOUNT_ID, 'search')).toMatchObject({ allowed: true, beyondQuota: true, overage: { used: 1 } });
    expect(state.consume(DEFAULT_ACCOUNT_ID, 'search').allowed).toBe(false);
    expect(state.release(DEFAULT_ACCOUNT_ID, 'search')).toBe(true);
    expect(state.consume(DEFAULT_ACCOUNT_ID, 'search')).toMatchObject({ allowed: true, beyondQuota: true, overage: { used: 1 } });
  });

  it('two handles on one data directory, alternating against a quota of 3 and an overage limit of 2: exactly 5 counted', () => {
    const first = open({ quotas: { search: 3 }, now: MARCH });
    const second = open({ quotas: { search: 3 }, now: MARCH });
    first.setOverage(DEFAULT_ACCOUNT_ID, { allowed: true, limit: 2 });
    const results = Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? first : second).consume(DEFAULT_ACCOUNT_ID, 'search'));
    expect(results.filter((r) => r.allowed)).toHaveLength(5);
    expect(results.map((r) => r.beyondQuota)).toEqual([false, false, false, true, true, false, false, false, false, false, false, false]);
    expect(second.usage(DEFAULT_ACCOUNT_ID).overage).toEqual({ allowed: true, limit: 2, used: 2 });
    expect(first.used(DEFAULT_ACCOUNT_ID, 'search')).toBe(5);
  });
});

describe('SandboxState usage report (GET /v1/usage)', () => {
  it('reports the month of the clock, the plan, each kind and the overage of one account', () => {
    const state = open({ quotas: { search: 2, answers: null }, now: () => new Date('2026-11-30T23:59:59.999Z') });
    state.setOverage(DEFAULT_ACCOUNT_ID, { allowed: true, limit: 10 });
    for (let i = 0; i < 3; i++) state.consume(DEFAULT_ACCOUNT_ID, 'search');
    state.consume(DEFAULT_ACCOUNT_ID, 'retrieval');
    state.consume(DEFAULT_ACCOUNT_ID, 'answers');
    state.issueKey('other', { account: 'acct_other' });
    state.consume('acct_other', 'retrieval');
    expect(state.usage(DEFAULT_ACCOUNT_ID)).toEqual({
      period: { start: '2026-11-01T00:00:00.000Z', end: '2026-12-01T00:00:00.000Z', month: '2026-11' },
      plan: 'sandbox',
      quotas: {
        search: { used: 3, limit: 2, remaining: 0, overage_used: 1 },
        retrieval: { used: 1, limit: 10_000, remaining: 9_999, overage_used: 0 },
        answers: { used: 1, limit: null, remaining: null, overage_used: 0 },
      },
      overage: { allowed: true, limit: 10, used: 1 },
    });
    expect(state.usage('acct_other').quotas.retrieval).toEqual({ used: 1, limit: 10_000, remaining: 9_999, overage_used: 0 });
    expect(state.usage('acct_other').overage).toEqual({ allowed: false, limit: 0, used: 0 });
  });
});

describe('usagePeriod', () => {
  it.each([
    ['2026-11-30T23:59:59.999Z', { start: '2026-11-01T00:00:00.000Z', end: '2026-12-01T00:00:00.000Z', month: '2026-11' }],
    ['2026-12-01T00:00:00.000Z', { start: '2026-12-01T00:00:00.000Z', end: '2027-01-01T00:00:00.000Z', month: '2026-12' }],
    ['2028-02-29T12:00:00+05:00', { start: '2028-02-01T00:00:00.000Z', end: '2028-03-01T00:00:00.000Z', month: '2028-02' }],
    ['2025-04-01T00:30:00+02:00', { start: '2025-03-01T00:00:00.000Z', end: '2025-04-01T00:00:00.000Z', month: '2025-03' }],
  ])('%s is in the UTC month %j', (at, period) => {
    expect(usagePeriod(new Date(at))).toEqual(period);
  });
});
