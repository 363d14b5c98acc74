/** The contract's error codes and error body (spec: Error codes; Key and account endpoints, session errors). */

/**
 * Error codes of the user-session token (spec: User-session token: "Error codes for a missing or invalid session
 * token are not part of the API-key codes"; these are the sandbox's, docs/sandbox.md, "Sandbox: keys and account"), all
 * HTTP 401 on the key and account endpoints: no `Authorization: Bearer` token; a token unknown or malformed; a token
 * past its expiry; an API key sent where a session token is required.
 */
export const SESSION_ERROR_CODES = {
  missingSessionToken: 'missing_session_token',
  invalidSessionToken: 'invalid_session_token',
  expiredSessionToken: 'expired_session_token',
  apiKeyNotAccepted: 'api_key_not_accepted',
} as const;

/** Error codes of the contract (spec: Errors, Authentication). The complete list is not shown; others may arrive. */
export const ERROR_CODES = {
  missingApiKey: 'missing_api_key',
  invalidApiKey: 'invalid_api_key',
  revokedApiKey: 'revoked_api_key',
  invalidRequest: 'invalid_request',
  monthlyQuotaExceeded: 'monthly_quota_exceeded',
  timedOut: 'timed_out',
} as const;

/** The error body the sandbox sends (one of the shapes the client accepts; spec: "Standard error body: not shown"). */
export interface ErrorBody {
  error: { code: string; message: string };
}
