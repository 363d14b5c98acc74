/**
 * `last_used_at` of keys (`src/sandbox/state/keys.ts`): written at most once a minute per key, by the injected clock,
 * also across two handles on the same directory.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SandboxState } from '../../../src/sandbox/state/index.js';

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
    expect(second.authenticate(issued.api_key)).toEqual({ ok: true, key_id: issued.key_id });
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
