/**
 * A response cache for GET requests whose answers rarely change (`doc`, `catalog`): one JSON file per request,
 * `<dir>/<key>.json`, mode 0600, written atomically. The key is derived from the request's URL alone and never from
 * credentials, which are not part of a URL (spec: Authentication, rule 2) and are never stored here. Time comes from
 * an injected clock, so expiry is testable without waiting.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { readJsonFile, writeFileAtomic } from './atomic.js';

export { cacheKey, type CacheRequest } from './cache-key.js';

/** One cached response, as stored. */
export interface CachedResponse {
  /** The {@link cacheKey} of the request. */
  key: string;
  /** When the response was stored, ms since the epoch (from the cache's clock). */
  stored_at: number;
  /** HTTP status of the response. */
  status: number;
  /** The response body exactly as received. */
  raw: string;
  /** The response's `x-request-id`, when it had one. */
  request_id?: string;
}

/** Keys are file names: letters, digits, `_` and `-` only (a {@link cacheKey} is 64 hex digits). */
const SAFE_KEY = /^[A-Za-z0-9_-]{1,128}$/;

/** Entry files and the temporary files write-file-atomic makes beside them (`<name>.json.<number>`). */
const ENTRY_FILE = /^[A-Za-z0-9_-]{1,128}\.json(?:\.\d+)?$/;

/** The response cache in one directory. Missing directories are created (0700) on the first write. */
export class ResponseCache {
  readonly #dir: string;
  /** The injected clock, ms since the epoch. */
  readonly now: () => number;

  /**
   * @param options.dir the cache directory, normally `pravoPaths(env).cache + '/responses'`.
   * @param options.now the clock, ms since the epoch.
   */
  constructor(options: { dir: string; now: () => number }) {
    this.#dir = options.dir;
    this.now = options.now;
  }

  /**
   * The entry for `key` when present and younger than `ttlMs` (age `now() - stored_at`, in ms, at least 0 and less
   * than `ttlMs`); `undefined` otherwise. An expired entry, one stored "in the future" (the clock went back), and a
   * JSON file of the wrong shape are removed; a file that cannot be read or parsed is a miss too (the next `set`
   * replaces it). The cache never fails a command for a read.
   * @throws TypeError when `key` is not a safe file name (letters, digits, `_`, `-`; at most 128).
   */
  async get(key: string, ttlMs: number): Promise<CachedResponse | undefined> {
    const file = this.#file(key);
    let entry: CachedResponse | undefined;
    try {
      entry = await readJsonFile<CachedResponse>(file);
    } catch {
      return undefined;
    }
    if (entry === undefined) return undefined;
    if (isCachedResponse(entry) && entry.key === key) {
      const age = this.now() - entry.stored_at;
      if (age >= 0 && age < ttlMs) return entry;
    }
    await this.delete(key).catch(() => {});
    return undefined;
  }

  /**
   * Stores a response under `key`, stamped with `now()`, atomically, mode 0600; replaces any previous entry.
   * Returns the entry as stored.
   * @throws TypeError for an unsafe key (see {@link get}).
   * @throws StateDirectoryError when the cache directory cannot be created.
   * @throws StateWriteError when the file cannot be written.
   */
  async set(key: string, entry: Omit<CachedResponse, 'key' | 'stored_at'>): Promise<CachedResponse> {
    const file = this.#file(key);
    const stored = stamp(key, this.now(), entry);
    await writeFileAtomic(file, JSON.stringify(stored), { mode: 0o600 });
    return stored;
  }

  /**
   * Removes the entry for `key`, if any.
   * @throws TypeError for an unsafe key; the fs error when the file exists but cannot be removed.
   */
  async delete(key: string): Promise<void> {
    await fs.rm(this.#file(key), { force: true });
  }

  /**
   * Removes every entry (and any leftover temporary file) from the cache directory; other files, and the directory
   * itself, stay. Nothing happens when the directory does not exist.
   * @throws the fs error when the directory cannot be listed or a file cannot be removed.
   */
  async clear(): Promise<void> {
    let names: string[];
    try {
      names = await fs.readdir(this.#dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    await Promise.all(
      names.filter((name) => ENTRY_FILE.test(name)).map((name) => fs.rm(path.join(this.#dir, name), { force: true })),
    );
  }

  #file(key: string): string {
    if (!SAFE_KEY.test(key)) throw new TypeError(`Not a cache key: ${JSON.stringify(key.slice(0, 80))}`);
    return path.join(this.#dir, `${key}.json`);
  }
}

/** A stored entry: only the fields of {@link CachedResponse}, `request_id` only when given. */
function stamp(key: string, storedAt: number, response: Omit<CachedResponse, 'key' | 'stored_at'>): CachedResponse {
  const entry: CachedResponse = { key, stored_at: storedAt, status: response.status, raw: response.raw };
  if (response.request_id !== undefined) entry.request_id = response.request_id;
  return entry;
}

function isCachedResponse(value: unknown): value is CachedResponse {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Record<string, unknown>;
  return (
    typeof entry.key === 'string' &&
    typeof entry.stored_at === 'number' &&
    typeof entry.status === 'number' &&
    typeof entry.raw === 'string' &&
    (entry.request_id === undefined || typeof entry.request_id === 'string')
  );
}

/**
 * How a command uses the cache. Without `bypass`, a fresh entry (younger than `ttlMs`) is returned with
 * `fromCache: true` and `fetch` is not called. Otherwise, or with `bypass` (`--no-cache` / `--refresh`: skip reading,
 * still write), `fetch` is called; a 2xx response is stored (replacing any older entry) and returned with
 * `fromCache: false`. A response of any other status is returned but not stored. Storing is best effort: when the
 * cache cannot be written, the fetched response is still returned. The returned entry's `stored_at` is the cache's
 * `now()` at storing. `T` is unused (kept for the callers' signature).
 * @throws whatever `fetch` throws (nothing is stored then).
 */
export async function cached<T>(
  cache: ResponseCache,
  key: string,
  ttlMs: number,
  options: { bypass?: boolean },
  fetch: () => Promise<{ status: number; raw: string; request_id?: string }>,
): Promise<{ entry: CachedResponse; fromCache: boolean }> {
  if (!options.bypass) {
    const hit = await cache.get(key, ttlMs);
    if (hit) return { entry: hit, fromCache: true };
  }
  const response = await fetch();
  if (response.status >= 200 && response.status < 300) {
    try {
      return { entry: await cache.set(key, response), fromCache: false };
    } catch (error) {
      // Best effort: a cache that cannot be written must not fail the command; a bad key is a bug, though.
      if (error instanceof TypeError) throw error;
    }
  }
  return { entry: stamp(key, cache.now(), response), fromCache: false };
}
