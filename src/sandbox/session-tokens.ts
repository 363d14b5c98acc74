/**
 * The form of the sandbox's user-session tokens (spec: Authentication, User-session token): what the state mints
 * (`state/sessions.ts`) and what the HTTP layer tells apart from an API key (`http/auth.ts`) before asking the state.
 * Constants only, so that the HTTP layer can read them without loading the state's storage.
 */

/** Prefix of every sandbox session token. It does not contain `_live_`: a session token is not an API key. */
export const SESSION_TOKEN_PREFIX = 'sbx_sess_';

/** The form of a session token the sandbox issues: the prefix and 32 characters of [0-9A-Za-z]. */
export const SESSION_TOKEN_PATTERN = /^sbx_sess_[0-9A-Za-z]{32}$/;
