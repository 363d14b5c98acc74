/** The contract's endpoint paths (spec: Endpoints), and how a path with parameters is built. */

/** Endpoint paths, relative to the base URL (spec: Endpoints). */
export const PATHS = {
  search: '/v1/search',
  sourceTypes: '/v1/catalog/source-types',
  courts: '/v1/catalog/courts',
  judges: '/v1/catalog/judges',
  documents: '/v1/documents',
  usage: '/v1/usage',
  answers: '/v1/answers',
  /** One answer job; `:job_id` is replaced by the URL-encoded id. */
  answer: '/v1/answers/:job_id',
  keys: '/v1/keys',
  /** Revokes one key; `:key_id` is replaced by the URL-encoded id. */
  keyRevoke: '/v1/keys/:key_id/revoke',
  account: '/v1/account',
  accountOverages: '/v1/account/overages',
} as const;

/**
 * A path of {@link PATHS} with each `:name` replaced by `encodeURIComponent(params[name])` (`/v1/answers/ans_1`).
 * @throws TypeError when a parameter is missing, empty, `.` or `..` (which would address another resource).
 */
export function buildPath(template: string, params: Record<string, string> = {}): string {
  return template.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_match, name: string) => {
    const value = Object.hasOwn(params, name) ? params[name] : undefined;
    if (typeof value !== 'string' || value === '' || value === '.' || value === '..') {
      throw new TypeError(`Path parameter "${name}" of ${template} is ${JSON.stringify(value) ?? 'missing'}.`);
    }
    return encodeURIComponent(value);
  });
}
