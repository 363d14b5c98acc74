/**
 * Keys (`src/sandbox/state/keys.ts`): `last_used_at` written at most once a minute per key, by the injected clock, also
 * across two handles on the same directory; ephemeral keys deleted one by one by their run, and those of killed runs
 * removed by a later start.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_ACCOUNT_ID, SandboxState, sha256 } from '../../../src/sandbox/state/index.js';

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

function open(now: () => Date): SandboxState {
  const state = SandboxState.open(dataDir, { now });
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
    state.revokeKey(issued.key_id);
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
