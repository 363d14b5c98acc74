/**
 * The sandbox's keys and usage (`src/sandbox/state/`) in a temporary data directory: keys are stored only as their
 * SHA-256, revocation is immediate, and monthly quotas count per calendar month of the injected clock.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_ACCOUNT_ID, SANDBOX_KEY_PREFIX, SandboxState, sha256 } from '../../../src/sandbox/state/index.js';

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
    expect(state.revokeKey(revoked.key_id)).toBe(true);
    expect(state.authenticate(revoked.api_key)).toEqual({ ok: false, code: 'revoked_api_key' });
    expect(state.authenticate(kept.api_key)).toEqual({ ok: true, key_id: kept.key_id, account_id: DEFAULT_ACCOUNT_ID });
  });

  it('revokeKey returns false for an unknown or already revoked key', () => {
    const state = open();
    const issued = state.issueKey('test');
    expect(state.revokeKey('key_doesnotexist')).toBe(false);
    expect(state.revokeKey(issued.key_id)).toBe(true);
    expect(state.revokeKey(issued.key_id)).toBe(false);
  });

  it('keeps keys and revocations across reopening', () => {
    const first = open();
    const active = first.issueKey('active');
    const revoked = first.issueKey('revoked');
    first.revokeKey(revoked.key_id);
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

describe('SandboxState usage', () => {
  it('with a quota of 2, allows two searches, then refuses without counting', () => {
    const state = open({ quotas: { search: 2 }, now: () => new Date('2025-03-15T12:00:00Z') });
    expect(state.consume('search')).toEqual({ allowed: true, used: 1, quota: 2, month: '2025-03' });
    expect(state.consume('search')).toEqual({ allowed: true, used: 2, quota: 2, month: '2025-03' });
    expect(state.consume('search')).toEqual({ allowed: false, used: 2, quota: 2, month: '2025-03' });
    expect(state.consume('search')).toMatchObject({ allowed: false, used: 2 });
    expect(state.used('search')).toBe(2);
  });

  it('counts each kind against its own quota', () => {
    const state = open({ quotas: { search: 1, documents: 5 }, now: () => new Date('2025-03-15T12:00:00Z') });
    expect(state.consume('search').allowed).toBe(true);
    expect(state.consume('search').allowed).toBe(false);
    expect(state.consume('documents')).toMatchObject({ allowed: true, used: 1, quota: 5 });
    expect(state.used('documents')).toBe(1);
  });

  it('is unlimited for a kind without a quota', () => {
    const state = open({ quotas: {} });
    for (let i = 1; i <= 5; i++) expect(state.consume('answers')).toMatchObject({ allowed: true, used: i, quota: undefined });
  });

  it('starts counting again in the next calendar month (UTC) of the injected clock', () => {
    const clock = manualClock('2025-01-31T23:59:59.999Z');
    const state = open({ quotas: { search: 2 }, now: clock.now });
    state.consume('search');
    state.consume('search');
    expect(state.consume('search').allowed).toBe(false);

    clock.set('2025-02-01T00:00:00.000Z');
    expect(state.used('search')).toBe(0);
    expect(state.consume('search')).toEqual({ allowed: true, used: 1, quota: 2, month: '2025-02' });
  });

  it('counts by the UTC month, not the local one', () => {
    // 00:30 on 1 April in UTC+2 is still 31 March in UTC: the month follows the UTC date.
    const clock = manualClock('2025-04-01T00:30:00+02:00');
    const state = open({ quotas: { search: 1 }, now: clock.now });
    expect(state.consume('search').month).toBe('2025-03');
  });

  it('keeps the month’s usage across reopening', () => {
    const now = (): Date => new Date('2025-06-10T08:00:00Z');
    const first = open({ quotas: { search: 2 }, now });
    first.consume('search');
    first.close();
    const second = open({ quotas: { search: 2 }, now });
    expect(second.used('search')).toBe(1);
    expect(second.consume('search')).toMatchObject({ allowed: true, used: 2 });
    expect(second.consume('search').allowed).toBe(false);
  });
});
