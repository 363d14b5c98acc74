/**
 * The key of a response cache entry (`./cache.ts`), in a module of its own with no dependencies, so that shell
 * completion (`src/completion/dynamic.ts`) can find a cached catalog without loading the cache's writer. node:crypto
 * (about 5 ms to load) is taken when a key is first computed, not when the module loads: completing a result number
 * needs no hash.
 */

/** The request a cache entry answers. `query` values that are `undefined` are left out, as they are from the URL. */
export interface CacheRequest {
  /** Base URL of the service, e.g. `https://api.example.bg/legal`; normalized (see {@link cacheKey}). */
  baseUrl: string;
  /** Path below the base URL, e.g. `/v1/documents`. */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
}

/**
 * Cache key: lower-case hex SHA-256 (64 characters) of the normalized base URL, the path, and the query parameters
 * sorted by name (values as `String(value)`; `undefined` values dropped). The base URL is normalized with the WHATWG
 * URL parser (scheme and host lower-cased, default port dropped), then stripped of any user name and password, query
 * string, fragment and trailing slashes; a string that does not parse is only trimmed. Credentials never enter the
 * key: the request has no field for them, and any on the base URL are stripped.
 */
export function cacheKey(request: CacheRequest): string {
  const query = Object.entries(request.query ?? {})
    .filter((entry): entry is [string, string | number | boolean] => entry[1] !== undefined)
    .map(([name, value]) => [name, String(value)])
    .sort(([a], [b]) => (a! < b! ? -1 : a! > b! ? 1 : 0));
  const material = JSON.stringify([normalizeBaseUrl(request.baseUrl), request.path, query]);
  return process.getBuiltinModule('node:crypto').createHash('sha256').update(material).digest('hex');
}

function normalizeBaseUrl(baseUrl: string): string {
  try {
    const url = new URL(baseUrl.trim());
    return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return baseUrl.trim();
  }
}
