/**
 * Keys (`src/sandbox/state/keys.ts`): `last_used_at` written at most once a minute per key, by the injected clock, also
 * across two handles on the same directory; ephemeral keys deleted one by one by their run, and those of killed runs
 * removed by a later start; the authentication cache (a revocation refused at once by the handle that revoked, within
 * the TTL by another); the records of `GET /v1/keys` and the keys of `POST /v1/keys`.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_ACCOUNT_ID, SandboxState, sha256 } from '../../../src/sandbox/state/store.js';

let dataDir: string;
const opened: SandboxState[] = [];

beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pravo-keys-test-'));
});

afterEach(() => {
  for (const state of opened.splice(0)) state.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** A manual clock: the test sets `current`. */
function manualClock(iso: string): { now: () => Date; set: (iso: string) => void } {
  let current = new Date(iso);
  return { now: () => current, set: (next) => (current = new Date(next)) };
}

function open(now: () => Date, options: { authCacheTtlMs?: number } = {}): SandboxState {
  const state = SandboxState.open(dataDir, { now, ...options });
  opened.push(state);
  return state;
}

/** The stored `last_used_at` of a key, read through a separate connection. */
function lastUsedAt(keyId: string): string | null {
  const db = new DatabaseSync(path.join(dataDir, 'state.sqlite'), { readOnly: true });
  try {
    return (db.prepare('SELECT last_used_at FROM api_keys WHERE key_id = ?').get(keyId) as { last_used_at: string | null })
      .last_used_at;
  } finally {
    db.close();
  }
}

describe('last_used_at', () => {
  it('is written at the first use, not again within a minute, and again after a minute', () => {
    const clock = manualClock('2025-05-01T10:00:00.000Z');
    const state = open(clock.now);
    const issued = state.issueKey('clock');
    expect(lastUsedAt(issued.key_id)).toBeNull();

    expect(state.authenticate(issued.api_key).ok).toBe(true);
    expect(lastUsedAt(issued.key_id)).toBe('2025-05-01T10:00:00.000Z');

    clock.set('2025-05-01T10:00:59.999Z');
    expect(state.authenticate(issued.api_key).ok).toBe(true);
    expect(lastUsedAt(issued.key_id)).toBe('2025-05-01T10:00:00.000Z');

    clock.set('2025-05-01T10:01:00.000Z');
    expect(state.authenticate(issued.api_key).ok).toBe(true);
    expect(lastUsedAt(issued.key_id)).toBe('2025-05-01T10:01:00.000Z');

    clock.set('2025-05-01T10:05:30.000Z');
    expect(state.authenticate(issued.api_key).ok).toBe(true);
    expect(lastUsedAt(issued.key_id)).toBe('2025-05-01T10:05:30.000Z');
  });

  it('counts per key', () => {
    const clock = manualClock('2025-05-01T10:00:00.000Z');
    const state = open(clock.now);
    const a = state.issueKey('a');
    const b = state.issueKey('b');
    state.authenticate(a.api_key);
    clock.set('2025-05-01T10:00:30.000Z');
    state.authenticate(b.api_key);
    state.authenticate(a.api_key);
    expect(lastUsedAt(a.key_id)).toBe('2025-05-01T10:00:00.000Z');
    expect(lastUsedAt(b.key_id)).toBe('2025-05-01T10:00:30.000Z');
  });

  it('is not rewritten within a minute by another handle that has not written it yet', () => {
    const clock = manualClock('2025-05-01T10:00:00.000Z');
    const first = open(clock.now);
    const issued = first.issueKey('shared');
    first.authenticate(issued.api_key);
    const second = open(clock.now);
    clock.set('2025-05-01T10:00:40.000Z');
    expect(second.authenticate(issued.api_key)).toEqual({ ok: true, key_id: issued.key_id, account_id: DEFAULT_ACCOUNT_ID });
    expect(lastUsedAt(issued.key_id)).toBe('2025-05-01T10:00:00.000Z');
    clock.set('2025-05-01T10:01:10.000Z');
    second.authenticate(issued.api_key);
    expect(lastUsedAt(issued.key_id)).toBe('2025-05-01T10:01:10.000Z');
  });

  it('does not delay a revocation', () => {
    const clock = manualClock('2025-05-01T10:00:00.000Z');
    const state = open(clock.now);
    const issued = state.issueKey('revoked');
    state.authenticate(issued.api_key);
    state.revokeKey(DEFAULT_ACCOUNT_ID, issued.key_id);
    expect(state.authenticate(issued.api_key)).toEqual({ ok: false, code: 'revoked_api_key' });
  });
});

describe('ephemeral keys on a shared data directory', () => {
  /** The id of a process that has ended: a child run to completion (its id is free until the system reuses it). */
  function deadPid(): number {
    const child = spawnSync(process.execPath, ['-e', '']);
    expect(child.status).toBe(0);
    return child.pid!;
  }

  it('a run deletes only its own ephemeral key; another run on the same directory keeps working', () => {
    const clock = manualClock('2025-05-01T10:00:00.000Z');
    const first = open(clock.now);
    const second = open(clock.now);
    const lasting = first.issueKey('sandbox serve');
    const mine = first.issueKey('pravo --sandbox', { ephemeral: true });
    const theirs = second.issueKey('pravo --sandbox', { ephemeral: true });

    expect(first.deleteEphemeralKey(mine.key_id)).toBe(true);
    expect(first.authenticate(mine.api_key)).toEqual({ ok: false, code: 'invalid_api_key' });
    expect(second.authenticate(theirs.api_key)).toEqual({ ok: true, key_id: theirs.key_id, account_id: DEFAULT_ACCOUNT_ID });
    expect(second.authenticate(lasting.api_key)).toEqual({ ok: true, key_id: lasting.key_id, account_id: DEFAULT_ACCOUNT_ID });

    expect(second.deleteEphemeralKey(theirs.key_id)).toBe(true);
    expect(second.deleteEphemeralKey(theirs.key_id)).toBe(false);
    // A key not issued as ephemeral is never deleted this way.
    expect(second.deleteEphemeralKey(lasting.key_id)).toBe(false);
    expect(first.authenticate(lasting.api_key)).toEqual({ ok: true, key_id: lasting.key_id, account_id: DEFAULT_ACCOUNT_ID });
  });

  it('a later start removes the key of a run that was killed, and keeps those of running processes', () => {
    const clock = manualClock('2025-05-01T10:00:00.000Z');
    const host = os.hostname();
    const killed = SandboxState.open(dataDir, { now: clock.now, owner: { pid: deadPid(), host } });
    opened.push(killed);
    const orphan = killed.issueKey('pravo --sandbox', { ephemeral: true });
    const running = open(clock.now);
    const live = running.issueKey('pravo --sandbox', { ephemeral: true });
    const serve = running.issueKey('sandbox serve');

    const next = open(clock.now);
    expect(next.deleteStaleEphemeralKeys()).toBe(1);
    expect(next.authenticate(orphan.api_key)).toEqual({ ok: false, code: 'invalid_api_key' });
    expect(next.authenticate(live.api_key)).toEqual({ ok: true, key_id: live.key_id, account_id: DEFAULT_ACCOUNT_ID });
    expect(next.authenticate(serve.api_key)).toEqual({ ok: true, key_id: serve.key_id, account_id: DEFAULT_ACCOUNT_ID });
    expect(next.deleteStaleEphemeralKeys()).toBe(0);
  });

  it('removes a key whose owner cannot be checked (another host, no owner recorded) only after 24 hours', () => {
    const clock = manualClock('2025-05-01T10:00:00.000Z');
    const elsewhere = SandboxState.open(dataDir, { now: clock.now, owner: { pid: 4242, host: 'another-host' } });
    opened.push(elsewhere);
    const remote = elsewhere.issueKey('pravo --sandbox', { ephemeral: true });
    // As a run of the first release recorded it: ephemeral, without an owner.
    const legacyKey = `sbx_live_${'L'.repeat(32)}`;
    const db = new DatabaseSync(path.join(dataDir, 'state.sqlite'));
    db.prepare('INSERT INTO api_keys (key_id, name, prefix, key_sha256, ephemeral, created_at) VALUES (?, ?, ?, ?, 1, ?)').run(
      'key_legacy000001',
      'pravo --sandbox',
      legacyKey.slice(0, 13),
      sha256(legacyKey),
      '2025-05-01T10:00:00.000Z',
    );
    db.close();

    // Nothing on this host runs: only the age decides for these two.
    const here = SandboxState.open(dataDir, { now: clock.now, isRunning: () => false });
    opened.push(here);
    clock.set('2025-05-02T09:59:59.999Z');
    expect(here.deleteStaleEphemeralKeys()).toBe(0);
    expect(here.authenticate(remote.api_key).ok).toBe(true);
    clock.set('2025-05-02T10:00:00.001Z');
    expect(here.deleteStaleEphemeralKeys()).toBe(2);
    expect(here.authenticate(remote.api_key)).toEqual({ ok: false, code: 'invalid_api_key' });
    expect(here.authenticate(legacyKey)).toEqual({ ok: false, code: 'invalid_api_key' });
  });
});

describe('the authentication cache', () => {
  /** Handle A (the one that revokes) and handle B (another process on the same directory), on one clock. */
  function twoHandles(authCacheTtlMs?: number) {
    const clock = manualClock('2025-05-01T10:00:00.000Z');
    const options = authCacheTtlMs === undefined ? {} : { authCacheTtlMs };
    const a = open(clock.now, options);
    const b = open(clock.now, options);
    const key = a.issueKey('shared');
    return { clock, a, b, key };
  }

  it('a key revoked by handle A is refused by A at once, and by B once its entry is 60 s old', () => {
    const { clock, a, b, key } = twoHandles();
    const accepted = { ok: true, key_id: key.key_id, account_id: DEFAULT_ACCOUNT_ID };
    expect(b.authenticate(key.api_key)).toEqual(accepted);
    expect(a.authenticate(key.api_key)).toEqual(accepted);
    expect(a.revokeKey(DEFAULT_ACCOUNT_ID, key.key_id)?.status).toBe('revoked');
    expect(a.authenticate(key.api_key)).toEqual({ ok: false, code: 'revoked_api_key' });
    expect(b.authenticate(key.api_key)).toEqual(accepted);
    clock.set('2025-05-01T10:00:59.999Z');
    expect(b.authenticate(key.api_key)).toEqual(accepted);
    clock.set('2025-05-01T10:01:00.000Z');
    expect(b.authenticate(key.api_key)).toEqual({ ok: false, code: 'revoked_api_key' });
  });

  it('an entry ages from its lookup, not from its last use', () => {
    const { clock, a, b, key } = twoHandles();
    b.authenticate(key.api_key);
    clock.set('2025-05-01T10:00:30.000Z');
    b.authenticate(key.api_key);
    a.revokeKey(DEFAULT_ACCOUNT_ID, key.key_id);
    clock.set('2025-05-01T10:01:00.000Z');
    expect(b.authenticate(key.api_key)).toEqual({ ok: false, code: 'revoked_api_key' });
  });

  it('with a TTL of 0, another handle refuses a revoked key at once', () => {
    const { a, b, key } = twoHandles(0);
    expect(b.authenticate(key.api_key).ok).toBe(true);
    a.revokeKey(DEFAULT_ACCOUNT_ID, key.key_id);
    expect(b.authenticate(key.api_key)).toEqual({ ok: false, code: 'revoked_api_key' });
  });

  it('with a TTL of 5 s, another handle refuses a revoked key 5 s after its lookup', () => {
    const { clock, a, b, key } = twoHandles(5_000);
    b.authenticate(key.api_key);
    a.revokeKey(DEFAULT_ACCOUNT_ID, key.key_id);
    clock.set('2025-05-01T10:00:04.999Z');
    expect(b.authenticate(key.api_key).ok).toBe(true);
    clock.set('2025-05-01T10:00:05.000Z');
    expect(b.authenticate(key.api_key)).toEqual({ ok: false, code: 'revoked_api_key' });
  });

  it('does not remember refusals: a revoked key made active again (by hand) is accepted at once', () => {
    const { b, a, key } = twoHandles();
    a.revokeKey(DEFAULT_ACCOUNT_ID, key.key_id);
    expect(b.authenticate(key.api_key)).toEqual({ ok: false, code: 'revoked_api_key' });
    const db = new DatabaseSync(path.join(dataDir, 'state.sqlite'));
    db.prepare("UPDATE api_keys SET status = 'active', revoked_at = NULL WHERE key_id = ?").run(key.key_id);
    db.close();
    expect(b.authenticate(key.api_key).ok).toBe(true);
  });

  it('a clock that went back does not keep an entry alive', () => {
    const { clock, a, b, key } = twoHandles();
    b.authenticate(key.api_key);
    a.revokeKey(DEFAULT_ACCOUNT_ID, key.key_id);
    clock.set('2025-05-01T09:59:00.000Z');
    expect(b.authenticate(key.api_key)).toEqual({ ok: false, code: 'revoked_api_key' });
  });

  it('an ephemeral key deleted through the handle is refused by it at once', () => {
    const clock = manualClock('2025-05-01T10:00:00.000Z');
    const state = open(clock.now);
    const key = state.issueKey('pravo --sandbox', { ephemeral: true });
    expect(state.authenticate(key.api_key).ok).toBe(true);
    state.deleteEphemeralKey(key.key_id);
    expect(state.authenticate(key.api_key)).toEqual({ ok: false, code: 'invalid_api_key' });
  });

  it.each([-1, Number.NaN, Number.POSITIVE_INFINITY])('a TTL of %s ms is a RangeError', (authCacheTtlMs) => {
    expect(() => SandboxState.open(dataDir, { authCacheTtlMs })).toThrow(RangeError);
  });
});

describe('key records', () => {
  it('listKeys: every key of the account, ephemeral ones too, oldest first and ties by key_id, never a secret', () => {
    const clock = manualClock('2025-05-01T10:00:00.000Z');
    const state = open(clock.now);
    const first = state.issueKey('first');
    const second = state.issueKey('second', { ephemeral: true });
    state.issueKey('elsewhere', { account: 'acct_other' });
    clock.set('2025-04-30T10:00:00.000Z');
    const older = state.issueKey('older');
    const list = state.listKeys(DEFAULT_ACCOUNT_ID);
    const sameTime = [first.key_id, second.key_id].sort();
    expect(list.map((k) => k.key_id)).toEqual([older.key_id, ...sameTime]);
    expect(list.find((k) => k.key_id === first.key_id)).toEqual({
      key_id: first.key_id,
      name: 'first',
      prefix: first.prefix,
      plan: 'sandbox',
      status: 'active',
      created_at: '2025-05-01T10:00:00.000Z',
      last_used_at: null,
      revoked_at: null,
    });
    const text = JSON.stringify(list);
    for (const key of [first, second, older]) {
      expect(text).not.toContain(key.api_key);
      expect(text).not.toContain(sha256(key.api_key));
    }
    expect(state.listKeys('acct_nobody')).toEqual([]);
  });

  it('createKey: an active key of the account with its plan, returned once in full, that authenticates', () => {
    const clock = manualClock('2025-05-01T10:00:00.000Z');
    const state = open(clock.now);
    const created = state.createKey(DEFAULT_ACCOUNT_ID, 'CI');
    expect(created).toEqual({
      key_id: expect.stringMatching(/^key_[0-9a-f]{12}$/),
      name: 'CI',
      prefix: created.api_key.slice(0, 13),
      plan: 'sandbox',
      status: 'active',
      created_at: '2025-05-01T10:00:00.000Z',
      last_used_at: null,
      revoked_at: null,
      api_key: expect.stringMatching(/^sbx_live_[0-9A-Za-z]{32}$/),
    });
    expect(state.authenticate(created.api_key)).toEqual({ ok: true, key_id: created.key_id, account_id: DEFAULT_ACCOUNT_ID });
    expect(state.listKeys(DEFAULT_ACCOUNT_ID).find((k) => k.key_id === created.key_id)?.last_used_at).toBe('2025-05-01T10:00:00.000Z');
  });

  it("revokeKey keeps the first revoked_at, and never touches another account's key", () => {
    const clock = manualClock('2025-05-01T10:00:00.000Z');
    const state = open(clock.now);
    const key = state.createKey(DEFAULT_ACCOUNT_ID, 'old');
    const other = state.createKey('acct_other', 'theirs');
    clock.set('2025-05-01T11:00:00.000Z');
    const revoked = state.revokeKey(DEFAULT_ACCOUNT_ID, key.key_id);
    expect(revoked).toMatchObject({ key_id: key.key_id, status: 'revoked', revoked_at: '2025-05-01T11:00:00.000Z' });
    expect(revoked).not.toHaveProperty('api_key');
    clock.set('2025-05-01T12:00:00.000Z');
    expect(state.revokeKey(DEFAULT_ACCOUNT_ID, key.key_id)).toEqual(revoked);
    expect(state.revokeKey(DEFAULT_ACCOUNT_ID, other.key_id)).toBeUndefined();
    expect(state.listKeys('acct_other')[0]).toMatchObject({ status: 'active', revoked_at: null });
  });
});

describe('accountResponse', () => {
  it('shows the plan, the stored overage as monthly_limit, the constant unit prices and created_at', () => {
    const state = open(manualClock('2025-05-01T10:00:00.000Z').now);
    const account = state.accountResponse(DEFAULT_ACCOUNT_ID);
    expect(account).toEqual({
      account_id: DEFAULT_ACCOUNT_ID,
      plan: 'sandbox',
      overage: { allowed: false, monthly_limit: 0 },
      unit_prices: { currency: 'EUR', search: 0.02, retrieval: 0.01, answers: 0.25 },
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    state.setOverage(DEFAULT_ACCOUNT_ID, { allowed: true, limit: 250 });
    expect(state.accountResponse(DEFAULT_ACCOUNT_ID)?.overage).toEqual({ allowed: true, monthly_limit: 250 });
    expect(state.accountResponse('acct_nobody')).toBeUndefined();
  });

  it('gives a copy of the prices: changing one response changes no other', () => {
    const state = open(manualClock('2025-05-01T10:00:00.000Z').now);
    state.accountResponse(DEFAULT_ACCOUNT_ID)!.unit_prices.search = 99;
    expect(state.accountResponse(DEFAULT_ACCOUNT_ID)!.unit_prices.search).toBe(0.02);
  });
});
