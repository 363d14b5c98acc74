/**
 * The three catalogs (spec: GET /v1/catalog/source-types, /courts, /judges) through the response cache
 * (`cached-get.ts`: fresh for `PRAVO_CACHE_TTL`, default 24 h; `refresh` asks the server again). `pravo catalog` and
 * the search filters that look values up in a catalog (`--court NAME`, `--type`, the note on an empty result) share
 * these, so one cached copy serves all of them and a hit sends nothing.
 */
import type { JudgesQuery } from '../api/resources/catalog.js';
import { PATHS } from '../contract/paths.js';
import type { CourtsResponse, JudgesResponse, SourceTypesResponse } from '../contract/types.js';
import type { Factory } from '../factory.js';
import { cachedGet, type CachedGetResult } from './cached-get.js';

/** How a catalog is asked for. */
export interface CatalogFetchOptions {
  /** Ask the server even when a fresh copy is cached (`--refresh`); the answer replaces the copy. */
  refresh?: boolean;
  /** Total timeout of the request (per try), in ms; default the client's. */
  timeoutMs?: number;
  /** Wraps the request when one is sent (a spinner, say); not called on a cache hit. */
  around?: <T>(send: () => Promise<T>) => Promise<T>;
}

/** Timeout of a catalog lookup made on the way to another request (a search), in ms: a small, fast GET. */
export const CATALOG_LOOKUP_TIMEOUT_MS = 10_000;

/**
 * `GET /v1/catalog/source-types`, cached.
 * @throws API errors of the request (only on a miss); ConfigError for a bad `PRAVO_CACHE_TTL` or a missing base URL.
 */
export async function cachedSourceTypes(factory: Factory, options: CatalogFetchOptions = {}): Promise<CachedGetResult<SourceTypesResponse>> {
  const { parseSourceTypes } = await import('../api/shapes.js');
  return cachedGet(factory, {
    path: PATHS.sourceTypes,
    refresh: options.refresh === true,
    parse: parseSourceTypes,
    fetch: send(options, async () => (await factory.client()).catalog.sourceTypes(callOptions(factory, options))),
  });
}

/**
 * `GET /v1/catalog/courts`, cached.
 * @throws as {@link cachedSourceTypes}.
 */
export async function cachedCourts(factory: Factory, options: CatalogFetchOptions = {}): Promise<CachedGetResult<CourtsResponse>> {
  const { parseCourts } = await import('../api/shapes.js');
  return cachedGet(factory, {
    path: PATHS.courts,
    refresh: options.refresh === true,
    parse: parseCourts,
    fetch: send(options, async () => (await factory.client()).catalog.courts(callOptions(factory, options))),
  });
}

/**
 * `GET /v1/catalog/judges?court=&search=&limit=`, cached per query (parameters left out are not sent and not part of
 * the cache key).
 * @throws as {@link cachedSourceTypes}.
 */
export async function cachedJudges(factory: Factory, query: JudgesQuery, options: CatalogFetchOptions = {}): Promise<CachedGetResult<JudgesResponse>> {
  const { parseJudges } = await import('../api/shapes.js');
  return cachedGet(factory, {
    path: PATHS.judges,
    query: { court: query.court, search: query.search, limit: query.limit },
    refresh: options.refresh === true,
    parse: parseJudges,
    fetch: send(options, async () => (await factory.client()).catalog.judges(query, callOptions(factory, options))),
  });
}

function callOptions(factory: Factory, options: CatalogFetchOptions): { signal: AbortSignal; timeoutMs?: number } {
  return { signal: factory.signal, ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}) };
}

function send<T>(options: CatalogFetchOptions, request: () => Promise<T>): () => Promise<T> {
  return options.around ? () => options.around!(request) : request;
}
