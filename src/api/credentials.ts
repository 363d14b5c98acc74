/**
 * The credentials a request can carry (spec: Authentication). The API-key endpoints take an API key in exactly one
 * header; the key and account endpoints take a user-session token as `Authorization: Bearer`. Secrets are kept in
 * memory only and go in a header, never in a URL.
 */

/** Which header carries an API key (spec: Authentication, API key): `X-API-Key` (recommended) or `Authorization: Bearer`. */
export type AuthHeader = 'x-api-key' | 'bearer';

/** API key (spec: Authentication, API key): sent in exactly one header. */
export interface ApiKeyCredential {
  kind: 'api_key';
  /** The key, e.g. `xyz_live_…`. */
  apiKey: string;
  header: AuthHeader;
}

/** User-session token (spec: Authentication, User-session token): always `Authorization: Bearer`. */
export interface SessionCredential {
  kind: 'session';
  token: string;
}

export type Credential = ApiKeyCredential | SessionCredential;

/** The credentials a client holds; each endpoint uses one of them (see `RequestSpec.auth`). */
export interface Credentials {
  api_key?: ApiKeyCredential;
  session?: SessionCredential;
}

/** The one authentication header for a credential: `{ 'x-api-key': key }` or `{ authorization: 'Bearer …' }`. */
export function authHeaders(credential: Credential): Record<string, string> {
  if (credential.kind === 'session') return { authorization: `Bearer ${credential.token}` };
  return credential.header === 'bearer'
    ? { authorization: `Bearer ${credential.apiKey}` }
    : { 'x-api-key': credential.apiKey };
}
