/**
 * User sessions (`src/sandbox/state/sessions.ts`) on a temporary data directory with an injected clock: the token's
 * form, only its SHA-256 stored, expiry at `expires_at` (inclusive), sessions read from the database at every check (a
 * token minted by another handle works at once), deletion of one session and of those expired over a day ago.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_ACCOUNT_ID, SandboxState, sha256 } from '../../../src/sandbox/state/store.js';

let dataDir: string;
const opened: SandboxState[] = [];

beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pravo-sessions-test-'));
});

afterEach(() => {
  for (const state of opened.splice(0)) state.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** A manual clock: the test moves it. */
function manualClock(iso: string): { now: () => Date; set: (iso: string) => void } {
  let current = new Date(iso);
  return { now: () => current, set: (next) => (current = new Date(next)) };
}

function open(now: () => Date): SandboxState {
  const state = SandboxState.open(dataDir, { now });
  opened.push(state);
  return state;
}

/** The rows of `sessions`, read through a separate connection. */
function sessionRows(): Record<string, unknown>[] {
  const db = new DatabaseSync(path.join(dataDir, 'state.sqlite'), { readOnly: true });
  try {
    return db.prepare('SELECT * FROM sessions ORDER BY created_at').all() as Record<string, unknown>[];
  } finally {
    db.close();
  }
}

const HOUR = 60 * 60 * 1000;

describe('createSession', () => {
  it('returns a sbx_sess_ token once, its id and expiry; only the SHA-256 of the token is stored', () => {
    const state = open(manualClock('2025-05-01T10:00:00.000Z').now);
    const session = state.createSession(DEFAULT_ACCOUNT_ID, { ttlMs: 24 * HOUR });
    expect(session.session_token).toMatch(/^sbx_sess_[0-9A-Za-z]{32}$/);
    expect(session.session_id).toMatch(/^sess_[0-9a-f]{16}$/);
    expect(session.expires_at).toBe('2025-05-02T10:00:00.000Z');
    expect(sessionRows()).toEqual([
      {
        session_id: session.session_id,
        account_id: DEFAULT_ACCOUNT_ID,
        token_sha256: sha256(session.session_token),
        created_at: '2025-05-01T10:00:00.000Z',
        expires_at: '2025-05-02T10:00:00.000Z',
        ephemeral: 0,
      },
    ]);
    const files = fs.readdirSync(dataDir).filter((name) => name.startsWith('state.sqlite'));
    for (const file of files) expect(fs.readFileSync(path.join(dataDir, file)).includes(session.session_token)).toBe(false);
  });

  it('records an ephemeral session as such, and creates the row of an account that has none', () => {
    const state = open(manualClock('2025-05-01T10:00:00.000Z').now);
    state.createSession('acct_new', { ttlMs: HOUR, ephemeral: true });
    expect(sessionRows()[0]).toMatchObject({ account_id: 'acct_new', ephemeral: 1 });
    expect(state.account('acct_new')).toMatchObject({ account_id: 'acct_new', plan: 'sandbox' });
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY, 30 * 24 * HOUR + 1])('refuses a lifetime of %s ms with a RangeError, writing nothing', (ttlMs) => {
    const state = open(manualClock('2025-05-01T10:00:00.000Z').now);
    expect(() => state.createSession(DEFAULT_ACCOUNT_ID, { ttlMs })).toThrow(RangeError);
    expect(sessionRows()).toEqual([]);
  });

  it('accepts a lifetime of exactly 30 days', () => {
    const state = open(manualClock('2025-05-01T10:00:00.000Z').now);
    expect(state.createSession(DEFAULT_ACCOUNT_ID, { ttlMs: 30 * 24 * HOUR }).expires_at).toBe('2025-05-31T10:00:00.000Z');
  });
});

describe('authenticateSession', () => {
  it('accepts a token until just before expires_at, and refuses it as expired from that instant on', () => {
    const clock = manualClock('2025-05-01T10:00:00.000Z');
    const state = open(clock.now);
    const session = state.createSession(DEFAULT_ACCOUNT_ID, { ttlMs: HOUR });
    const accepted = { ok: true, session_id: session.session_id, account_id: DEFAULT_ACCOUNT_ID };
    expect(state.authenticateSession(session.session_token)).toEqual(accepted);
    clock.set('2025-05-01T10:59:59.999Z');
    expect(state.authenticateSession(session.session_token)).toEqual(accepted);
    clock.set('2025-05-01T11:00:00.000Z');
    expect(state.authenticateSession(session.session_token)).toEqual({ ok: false, code: 'expired_session_token' });
    clock.set('2025-06-01T00:00:00.000Z');
    expect(state.authenticateSession(session.session_token)).toEqual({ ok: false, code: 'expired_session_token' });
  });

  it('refuses unknown and malformed tokens, and API keys, as invalid_session_token', () => {
    const state = open(manualClock('2025-05-01T10:00:00.000Z').now);
    const session = state.createSession(DEFAULT_ACCOUNT_ID, { ttlMs: HOUR });
    const key = state.issueKey('a key');
    const flipped = session.session_token.slice(0, -1) + (session.session_token.endsWith('a') ? 'b' : 'a');
    for (const token of [flipped, `sbx_sess_${'Z'.repeat(32)}`, `${session.session_token}x`, 'sbx_sess_', '', key.api_key, session.session_token.toUpperCase()]) {
      expect(state.authenticateSession(token), token).toEqual({ ok: false, code: 'invalid_session_token' });
    }
  });

  it('accepts at once a token another handle on the directory created (sessions are not cached)', () => {
    const clock = manualClock('2025-05-01T10:00:00.000Z');
    const server = open(clock.now);
    const other = open(clock.now);
    const unknownYet = `sbx_sess_${'Q'.repeat(32)}`;
    expect(server.authenticateSession(unknownYet).ok).toBe(false);
    const session = other.createSession(DEFAULT_ACCOUNT_ID, { ttlMs: HOUR });
    expect(server.authenticateSession(session.session_token)).toMatchObject({ ok: true, session_id: session.session_id });
    other.deleteSession(session.session_id);
    expect(server.authenticateSession(session.session_token)).toEqual({ ok: false, code: 'invalid_session_token' });
  });
});

describe('deleteSession and deleteExpiredSessions', () => {
  it('deleteSession removes that session only', () => {
    const state = open(manualClock('2025-05-01T10:00:00.000Z').now);
    const gone = state.createSession(DEFAULT_ACCOUNT_ID, { ttlMs: HOUR, ephemeral: true });
    const kept = state.createSession(DEFAULT_ACCOUNT_ID, { ttlMs: HOUR });
    expect(state.deleteSession(gone.session_id)).toBe(true);
    expect(state.deleteSession(gone.session_id)).toBe(false);
    expect(state.authenticateSession(gone.session_token)).toEqual({ ok: false, code: 'invalid_session_token' });
    expect(state.authenticateSession(kept.session_token).ok).toBe(true);
  });

  it('deletes sessions expired more than a day ago; those expired since are still refused as expired', () => {
    const clock = manualClock('2025-05-01T10:00:00.000Z');
    const state = open(clock.now);
    const old = state.createSession(DEFAULT_ACCOUNT_ID, { ttlMs: HOUR });
    clock.set('2025-05-02T10:00:00.000Z');
    const recent = state.createSession(DEFAULT_ACCOUNT_ID, { ttlMs: HOUR });
    const current = state.createSession(DEFAULT_ACCOUNT_ID, { ttlMs: 24 * HOUR });
    // old expired at 11:00 on 05-01, recent at 11:00 on 05-02.
    clock.set('2025-05-02T11:00:00.000Z');
    expect(state.deleteExpiredSessions()).toBe(0);
    clock.set('2025-05-02T11:00:00.001Z');
    expect(state.deleteExpiredSessions()).toBe(1);
    expect(state.authenticateSession(old.session_token)).toEqual({ ok: false, code: 'invalid_session_token' });
    expect(state.authenticateSession(recent.session_token)).toEqual({ ok: false, code: 'expired_session_token' });
    expect(state.authenticateSession(current.session_token).ok).toBe(true);
    expect(sessionRows().map((row) => row.session_id)).toEqual([recent.session_id, current.session_id]);
  });
});
