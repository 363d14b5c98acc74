/**
 * User-session tokens in `state.sqlite` (schema version 5; spec: Authentication, User-session token): the bearer
 * tokens of the key and account endpoints (`/v1/keys…`, `/v1/account…`). The live service has them issued by an
 * identity provider; the sandbox mints its own for `acct_sandbox`: one at each start (the ready line of `pravo sandbox
 * serve`) and one per `pravo sandbox token`.
 *
 * A token is `sbx_sess_` + 32 random characters of [0-9A-Za-z] (`../session-tokens.ts`); like a key, it is returned
 * once, at creation, and only its SHA-256 is stored. Every token expires (`expires_at`, ISO 8601 UTC); it is refused
 * with `expired_session_token` from that instant on (`expires_at <= now`, on the state's clock), and its row is
 * deleted a day later by {@link SessionStore.deleteExpired} (run at each sandbox start), after which it is just
 * unknown (`invalid_session_token`). Sessions are read from the database at every request, never cached, so a token minted by
 * another process (`pravo sandbox token`) works at once.
 */
import crypto from 'node:crypto';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { SESSION_TOKEN_PATTERN, SESSION_TOKEN_PREFIX } from '../session-tokens.js';
import { randomBase62, sha256 } from './keys.js';

/** Lifetime of the session of `pravo sandbox serve`, and the default of `pravo sandbox token`: 24 hours, in ms. */
export const DEFAULT_SESSION_TTL_MS = 24 * 60 * 60 * 1000;

/** Lifetime of the ephemeral session of a one-command sandbox (`--sandbox`): one hour, in ms. */
export const EPHEMERAL_SESSION_TTL_MS = 60 * 60 * 1000;

/** Longest lifetime of a session: 30 days, in ms (`pravo sandbox token --expires-in 30d`). */
export const SESSION_TTL_MAX_MS = 30 * 24 * 60 * 60 * 1000;

/** How long an expired session's row is kept (so it is still refused as expired, not unknown): a day, in ms. */
export const EXPIRED_SESSION_RETENTION_MS = 24 * 60 * 60 * 1000;

/** Options of {@link SessionStore.create}. */
export interface CreateSessionOptions {
  /** Lifetime in milliseconds, from now (the state's clock): more than 0, at most {@link SESSION_TTL_MAX_MS}. */
  ttlMs: number;
  /** The session of a one-command run, deleted by it when it stops (recorded in the row); default false. */
  ephemeral?: boolean;
}

/** A newly created session: the only time its token exists outside the caller's hands. */
export interface CreatedSession {
  /** `sess_` + 16 hex digits; names the session in logs. */
  session_id: string;
  /** The bearer token, `sbx_sess_…`. Shown once; never stored. */
  session_token: string;
  /** When it stops being accepted, ISO 8601 UTC. */
  expires_at: string;
}

/** Result of checking a presented session token. */
export type SessionCheck =
  | { ok: true; session_id: string; account_id: string }
  | { ok: false; code: 'invalid_session_token' | 'expired_session_token' };

/**
 * Checks a session lifetime: a number of milliseconds more than 0 and at most {@link SESSION_TTL_MAX_MS}.
 * @throws RangeError otherwise.
 */
export function checkSessionTtl(ttlMs: number): number {
  if (!Number.isFinite(ttlMs) || ttlMs <= 0 || ttlMs > SESSION_TTL_MAX_MS) {
    throw new RangeError(`a session lifetime must be more than 0 and at most ${SESSION_TTL_MAX_MS} ms (30 days), not ${ttlMs}`);
  }
  return ttlMs;
}

/** The `sessions` table. Statements only; transactions are the caller's (`SandboxState`). */
export class SessionStore {
  readonly #now: () => Date;
  readonly #insert: StatementSync;
  readonly #findByHash: StatementSync;
  readonly #delete: StatementSync;
  readonly #deleteExpired: StatementSync;

  /** @param now clock of `created_at`, of expiry and of the deletion of expired sessions. */
  constructor(db: DatabaseSync, now: () => Date) {
    this.#now = now;
    this.#insert = db.prepare(
      'INSERT INTO sessions (session_id, account_id, token_sha256, created_at, expires_at, ephemeral) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.#findByHash = db.prepare('SELECT session_id, account_id, expires_at FROM sessions WHERE token_sha256 = ?');
    this.#delete = db.prepare('DELETE FROM sessions WHERE session_id = ?');
    this.#deleteExpired = db.prepare('DELETE FROM sessions WHERE expires_at < ?');
  }

  /**
   * Creates a session of `accountId` that expires `options.ttlMs` after now, and stores its token's SHA-256.
   * @throws RangeError for a lifetime out of range (see {@link checkSessionTtl}); the SQLite error of the insert.
   */
  create(accountId: string, options: CreateSessionOptions): CreatedSession {
    const ttlMs = checkSessionTtl(options.ttlMs);
    const now = this.#now();
    const token = SESSION_TOKEN_PREFIX + randomBase62(32);
    const sessionId = `sess_${crypto.randomBytes(8).toString('hex')}`;
    const expiresAt = new Date(now.getTime() + ttlMs).toISOString();
    this.#insert.run(sessionId, accountId, sha256(token), now.toISOString(), expiresAt, options.ephemeral ? 1 : 0);
    return { session_id: sessionId, session_token: token, expires_at: expiresAt };
  }

  /**
   * Checks a presented token: `invalid_session_token` when it is not of the sandbox's form or unknown (never issued,
   * or deleted), `expired_session_token` when its `expires_at` is now or earlier (state clock); else the session and
   * its account. Reads the database every time (no cache).
   * @throws the SQLite error of the lookup.
   */
  authenticate(token: string): SessionCheck {
    if (!SESSION_TOKEN_PATTERN.test(token)) return { ok: false, code: 'invalid_session_token' };
    const row = this.#findByHash.get(sha256(token)) as { session_id: string; account_id: string; expires_at: string } | undefined;
    if (!row) return { ok: false, code: 'invalid_session_token' };
    if (Date.parse(row.expires_at) <= this.#now().getTime()) return { ok: false, code: 'expired_session_token' };
    return { ok: true, session_id: row.session_id, account_id: row.account_id };
  }

  /** Deletes one session by id; false when there was none. @throws the SQLite error of the delete. */
  delete(sessionId: string): boolean {
    return Number(this.#delete.run(sessionId).changes) > 0;
  }

  /**
   * Deletes the sessions that expired more than {@link EXPIRED_SESSION_RETENTION_MS} ago (state clock); returns how
   * many. @throws the SQLite error of the delete.
   */
  deleteExpired(): number {
    const cutoff = new Date(this.#now().getTime() - EXPIRED_SESSION_RETENTION_MS).toISOString();
    return Number(this.#deleteExpired.run(cutoff).changes);
  }
}
