/**
 * GET requests answered from the response cache (`state/cache.ts`) when a fresh copy is there: `pravo doc` (each
 * retrieval spends a unit of the retrieval quota, so a cached document must never be retrieved again) and
 * `pravo catalog`; also the searches `pravo cite` sends to find an act (keyed by the search path and the request's
 * fields: a memo checked again spends no search; `pravo search` itself always asks). The cache is keyed by the target's {@link Factory.cacheScope} (never a credential), the path and
 * the query, so a hit neither builds a client nor starts a sandbox.
 */
import path from 'node:path';
import type { ApiResponse } from '../api/transport.js';
import { ConfigError } from '../errors/cli.js';
import type { Factory } from '../factory.js';

/** Default time a cached response stays fresh: 24 hours, in ms. */
export const DEFAULT_CACHE_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * How long cached responses stay fresh, in ms: `PRAVO_CACHE_TTL` (hours, a non-negative number such as `24` or `0.5`;
 * `0` turns reading the cache off, responses are still stored), else 24 hours.
 * @throws ConfigError when `PRAVO_CACHE_TTL` is not such a number.
 */
export function cacheTtlMs(env: NodeJS.ProcessEnv): number {
  const value = env.PRAVO_CACHE_TTL;
  if (value === undefined || value.trim() === '') return DEFAULT_CACHE_TTL_MS;
  if (!/^\d+(\.\d+)?$/.test(value.trim())) {
    throw new ConfigError(`PRAVO_CACHE_TTL takes a number of hours, e.g. 24 or 0.5 (0: always ask the server), not "${value}".`);
  }
  return Math.round(Number(value) * 60 * 60 * 1000);
}

/** A cacheable GET. */
export interface CachedGetSpec<T> {
  /** The endpoint's path, e.g. `/v1/documents` (part of the cache key). */
  path: string;
  /** Its query parameters (part of the cache key; `undefined` values dropped). */
  query?: Record<string, string | number | undefined>;
  /** `--refresh`: ask the server even when a fresh copy is cached (the answer replaces it). */
  refresh: boolean;
  /** The same shape check the request uses; a cached body that fails it is a miss. */
  parse: (data: unknown) => T;
  /** Sends the request (called only on a miss or with `refresh`). */
  fetch: () => Promise<ApiResponse<T>>;
}

/**
 * Whether a fresh copy of the GET `spec` names is in the cache now, asking nothing of any server: so that a command can
 * say beforehand how many quota units its requests may spend. Always false when `PRAVO_CACHE_TTL` is 0 or `refresh`.
 * @throws ConfigError for a bad `PRAVO_CACHE_TTL`; as `Factory.cacheScope`.
 */
export async function isCached(factory: Factory, spec: Pick<CachedGetSpec<unknown>, 'path' | 'query' | 'refresh'>): Promise<boolean> {
  const ttlMs = cacheTtlMs(factory.env);
  if (spec.refresh || ttlMs === 0) return false;
  const { cache, key } = await openCache(factory, spec);
  return (await cache.get(key, ttlMs).catch(() => undefined)) !== undefined;
}

/**
 * The body of a fresh cached copy of the request `spec` names, parsed, or `undefined` when there is none (or
 * `PRAVO_CACHE_TTL` is 0, or the copy fails the shape check). Sends nothing: a command reads what it already has to
 * say beforehand what its requests may spend.
 * @throws ConfigError for a bad `PRAVO_CACHE_TTL`; as `Factory.cacheScope`.
 */
export async function cachedBody<T>(factory: Factory, spec: Pick<CachedGetSpec<T>, 'path' | 'query' | 'parse'>): Promise<T | undefined> {
  const ttlMs = cacheTtlMs(factory.env);
  if (ttlMs === 0) return undefined;
  const { cache, key } = await openCache(factory, spec);
  const entry = await cache.get(key, ttlMs).catch(() => undefined);
  if (entry === undefined) return undefined;
  try {
    return spec.parse(JSON.parse(entry.raw));
  } catch {
    return undefined;
  }
}

/** The response cache of the run's target and the key of `spec`'s request in it. */
async function openCache(factory: Factory, spec: Pick<CachedGetSpec<unknown>, 'path' | 'query'>) {
  const [{ ResponseCache, cacheKey, cached }, { pravoPaths }, scope] = await Promise.all([
    import('../state/cache.js'),
    import('../state/paths.js'),
    factory.cacheScope(),
  ]);
  const cache = new ResponseCache({ dir: path.join(pravoPaths(factory.env).cache, 'responses'), now: () => factory.clock.now() });
  const key = cacheKey({ baseUrl: scope, path: spec.path, ...(spec.query ? { query: spec.query } : {}) });
  return { cache, key, cached };
}

/** What {@link cachedGet} returns. */
export interface CachedGetResult<T> {
  response: ApiResponse<T>;
  /** Whether the response came from the cache (nothing was sent). */
  fromCache: boolean;
  /** When the response was stored (or received, when it could not be stored), ms since the epoch. */
  storedAt: number;
}

/**
 * The response of a GET, from the cache when a copy younger than `PRAVO_CACHE_TTL` (default 24 h) is there, else from
 * `spec.fetch()`, whose 2xx answer is then stored (best effort: a cache that cannot be written costs the next run a
 * request, never this one's result).
 * @throws whatever `spec.fetch()` throws; ConfigError for a bad `PRAVO_CACHE_TTL`.
 */
export async function cachedGet<T>(factory: Factory, spec: CachedGetSpec<T>): Promise<CachedGetResult<T>> {
  const ttlMs = cacheTtlMs(factory.env);
  const { cache, key, cached } = await openCache(factory, spec);
  let fetched: ApiResponse<T> | undefined;
  const { entry, fromCache } = await cached(cache, key, ttlMs, { bypass: spec.refresh || ttlMs === 0 }, async () => {
    fetched = await spec.fetch();
    return { status: fetched.status, raw: fetched.raw, ...(fetched.requestId !== undefined ? { request_id: fetched.requestId } : {}) };
  });
  if (fetched) return { response: fetched, fromCache: false, storedAt: entry.stored_at };
  try {
    const data = spec.parse(JSON.parse(entry.raw));
    return { response: { data, raw: entry.raw, status: entry.status, requestId: entry.request_id }, fromCache, storedAt: entry.stored_at };
  } catch {
    // A cached body that no longer passes the shape check (another pravo version wrote it): ask the server.
    await cache.delete(key).catch(() => {});
    const response = await spec.fetch();
    const stored = await cache
      .set(key, { status: response.status, raw: response.raw, ...(response.requestId !== undefined ? { request_id: response.requestId } : {}) })
      .catch(() => undefined);
    return { response, fromCache: false, storedAt: stored?.stored_at ?? factory.clock.now() };
  }
}
