/**
 * The response cache (`src/state/cache.ts`): keys that never involve credentials, TTL expiry on an injected clock,
 * private atomic files, and how `cached` reads, bypasses and rewrites.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ResponseCache, cacheKey, cached, type CacheRequest } from '../../src/state/cache.js';

const mode = (file: string): number => fs.statSync(file).mode & 0o777;
const MINUTE = 60_000;
const T0 = Date.UTC(2025, 2, 1, 10, 0, 0);

let root: string;
let dir: string;
let clock: number;
let cache: ResponseCache;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'pravo-cache-test-'));
  dir = path.join(root, 'cache', 'responses');
  clock = T0;
  cache = new ResponseCache({ dir, now: () => clock });
});

afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

const DOC: CacheRequest = {
  baseUrl: 'https://api.example.bg/legal',
  path: '/v1/documents',
  query: { collection: 'bg-statutes', document_id: 'act-1/2?x=1', include: 'text' },
};

describe('cacheKey', () => {
  it('is 64 lower-case hex digits (SHA-256)', () => {
    expect(cacheKey(DOC)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('is the same for the query parameters in another order', () => {
    const reordered: CacheRequest = {
      ...DOC,
      query: { include: 'text', document_id: 'act-1/2?x=1', collection: 'bg-statutes' },
    };
    expect(cacheKey(reordered)).toBe(cacheKey(DOC));
  });

  it('differs by query value, query name, path and host', () => {
    const keys = [
      cacheKey(DOC),
      cacheKey({ ...DOC, query: { ...DOC.query, document_id: 'act-2' } }),
      cacheKey({ ...DOC, query: { ...DOC.query, extra: 'text' } }),
      cacheKey({ ...DOC, query: { collection: 'bg-statutes', document_id: 'act-1/2?x=1', includes: 'text' } }),
      cacheKey({ ...DOC, path: '/v1/catalog/courts' }),
      cacheKey({ ...DOC, baseUrl: 'https://other.example.bg/legal' }),
      cacheKey({ ...DOC, baseUrl: 'http://api.example.bg/legal' }),
      cacheKey({ ...DOC, baseUrl: 'https://api.example.bg' }),
      cacheKey({ baseUrl: DOC.baseUrl, path: DOC.path }),
    ];
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('cannot be confused by separators inside names and values', () => {
    expect(cacheKey({ ...DOC, query: { a: 'b&c=d' } })).not.toBe(cacheKey({ ...DOC, query: { a: 'b', c: 'd' } }));
    expect(cacheKey({ ...DOC, path: '/v1/a', query: {} })).not.toBe(cacheKey({ ...DOC, path: '/v1', query: { a: '' } }));
  });

  it('normalizes the base URL: case of scheme and host, default port, trailing slashes', () => {
    const key = cacheKey(DOC);
    expect(cacheKey({ ...DOC, baseUrl: 'HTTPS://API.Example.BG/legal/' })).toBe(key);
    expect(cacheKey({ ...DOC, baseUrl: 'https://api.example.bg:443/legal//' })).toBe(key);
    expect(cacheKey({ ...DOC, baseUrl: ' https://api.example.bg/legal ' })).toBe(key);
  });

  it('ignores credentials: user info in the base URL and any extra fields of the request', () => {
    const key = cacheKey(DOC);
    expect(cacheKey({ ...DOC, baseUrl: 'https://user:sbx_live_SECRET@api.example.bg/legal' })).toBe(key);
    const withSecrets = { ...DOC, apiKey: 'sbx_live_SECRET0000', headers: { 'x-api-key': 'sbx_live_SECRET0000' } };
    expect(cacheKey(withSecrets)).toBe(key);
  });

  it('drops undefined query values and writes values with String()', () => {
    expect(cacheKey({ ...DOC, query: { ...DOC.query, page: undefined } })).toBe(cacheKey(DOC));
    expect(cacheKey({ ...DOC, query: { limit: 5, exact: true } })).toBe(
      cacheKey({ ...DOC, query: { exact: 'true', limit: '5' } }),
    );
    expect(cacheKey({ ...DOC, query: {} })).toBe(cacheKey({ baseUrl: DOC.baseUrl, path: DOC.path }));
  });
});

describe('ResponseCache', () => {
  const key = cacheKey(DOC);
  const response = { status: 200, raw: '{"text":"Чл. 1."}', request_id: 'req_1' };

  it('returns a stored entry, stamped with the clock, while it is younger than the TTL', async () => {
    const stored = await cache.set(key, response);
    expect(stored).toEqual({ key, stored_at: T0, ...response });
    clock = T0 + 10 * MINUTE - 1;
    expect(await cache.get(key, 10 * MINUTE)).toEqual({ key, stored_at: T0, ...response });
  });

  it('stores the file with mode 0600 in a directory created 0700', async () => {
    await cache.set(key, response);
    expect(mode(path.join(dir, `${key}.json`))).toBe(0o600);
    expect(mode(dir)).toBe(0o700);
    expect(mode(path.dirname(dir))).toBe(0o700);
    expect(fs.readdirSync(dir)).toEqual([`${key}.json`]);
  });

  it('omits request_id when there was none', async () => {
    await cache.set(key, { status: 200, raw: '[]' });
    const entry = await cache.get(key, MINUTE);
    expect(entry).toEqual({ key, stored_at: T0, status: 200, raw: '[]' });
    expect(entry).not.toHaveProperty('request_id');
  });

  it('is a miss when nothing is stored', async () => {
    expect(await cache.get(key, MINUTE)).toBeUndefined();
    expect(fs.existsSync(dir)).toBe(false);
  });

  it('expires an entry once it is as old as the TTL, and removes its file', async () => {
    await cache.set(key, response);
    clock = T0 + 10 * MINUTE;
    expect(await cache.get(key, 10 * MINUTE)).toBeUndefined();
    expect(fs.existsSync(path.join(dir, `${key}.json`))).toBe(false);
  });

  it('treats a TTL of 0 as always expired', async () => {
    await cache.set(key, response);
    expect(await cache.get(key, 0)).toBeUndefined();
  });

  it('expires an entry stored "in the future" (the clock went back)', async () => {
    await cache.set(key, response);
    clock = T0 - 1;
    expect(await cache.get(key, 10 * MINUTE)).toBeUndefined();
  });

  it('is a miss for a malformed file, or an entry stored under another key', async () => {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `${key}.json`), '{"key":');
    expect(await cache.get(key, MINUTE)).toBeUndefined();
    fs.writeFileSync(path.join(dir, `${key}.json`), 'null');
    expect(await cache.get(key, MINUTE)).toBeUndefined();
    const other = cacheKey({ ...DOC, path: '/v1/other' });
    fs.writeFileSync(path.join(dir, `${key}.json`), JSON.stringify({ key: other, stored_at: T0, status: 200, raw: '' }));
    expect(await cache.get(key, MINUTE)).toBeUndefined();
  });

  it('replaces an entry on set, restamping it', async () => {
    await cache.set(key, response);
    clock = T0 + MINUTE;
    await cache.set(key, { status: 200, raw: 'new' });
    expect(await cache.get(key, 10 * MINUTE)).toEqual({ key, stored_at: T0 + MINUTE, status: 200, raw: 'new' });
  });

  it('deletes one entry; deleting a missing one is fine', async () => {
    const other = cacheKey({ ...DOC, path: '/v1/catalog/courts' });
    await cache.set(key, response);
    await cache.set(other, response);
    await cache.delete(key);
    await cache.delete(key);
    expect(await cache.get(key, MINUTE)).toBeUndefined();
    expect(await cache.get(other, MINUTE)).toBeDefined();
  });

  it('clears every entry and leftover temporary file, but not other files', async () => {
    await cache.set(key, response);
    await cache.set(cacheKey({ ...DOC, path: '/v1/catalog/courts' }), response);
    fs.writeFileSync(path.join(dir, `${key}.json.123456`), 'half');
    fs.writeFileSync(path.join(dir, 'README'), 'not ours');
    await cache.clear();
    expect(fs.readdirSync(dir)).toEqual(['README']);
  });

  it('clears a cache whose directory does not exist', async () => {
    await expect(cache.clear()).resolves.toBeUndefined();
  });

  it('refuses a key that is not a safe file name', async () => {
    await expect(cache.get('../../etc/passwd', MINUTE)).rejects.toBeInstanceOf(TypeError);
    await expect(cache.set('a/b', response)).rejects.toBeInstanceOf(TypeError);
    await expect(cache.delete('')).rejects.toBeInstanceOf(TypeError);
  });

  it('never writes credentials: only the response is stored', async () => {
    await cache.set(cacheKey({ ...DOC, baseUrl: 'https://u:sbx_live_SECRET@api.example.bg/legal' }), response);
    const [name] = fs.readdirSync(dir);
    expect(fs.readFileSync(path.join(dir, name!), 'utf8')).not.toContain('SECRET');
  });
});

describe('cached', () => {
  const key = cacheKey(DOC);
  const TTL = 10 * MINUTE;

  function fetcher(...responses: { status: number; raw: string; request_id?: string }[]) {
    return vi.fn(async () => {
      const next = responses.shift();
      if (!next) throw new Error('fetched too often');
      return next;
    });
  }

  it('fetches and stores on a miss, then answers from the cache without fetching', async () => {
    const fetch = fetcher({ status: 200, raw: 'v1', request_id: 'req_1' });
    const first = await cached(cache, key, TTL, {}, fetch);
    expect(first).toEqual({ entry: { key, stored_at: T0, status: 200, raw: 'v1', request_id: 'req_1' }, fromCache: false });
    clock = T0 + MINUTE;
    const second = await cached(cache, key, TTL, {}, fetch);
    expect(second).toEqual({ entry: first.entry, fromCache: true });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('refetches once the entry has expired, and stores the new one', async () => {
    const fetch = fetcher({ status: 200, raw: 'v1' }, { status: 200, raw: 'v2' });
    await cached(cache, key, TTL, {}, fetch);
    clock = T0 + TTL;
    const again = await cached(cache, key, TTL, {}, fetch);
    expect(again).toEqual({ entry: { key, stored_at: T0 + TTL, status: 200, raw: 'v2' }, fromCache: false });
    expect(fetch).toHaveBeenCalledTimes(2);
    expect((await cache.get(key, TTL))?.raw).toBe('v2');
  });

  it('with bypass, fetches even when a fresh entry exists, and rewrites it', async () => {
    const fetch = fetcher({ status: 200, raw: 'v1' }, { status: 200, raw: 'v2' });
    await cached(cache, key, TTL, {}, fetch);
    clock = T0 + MINUTE;
    const refreshed = await cached(cache, key, TTL, { bypass: true }, fetch);
    expect(refreshed).toEqual({ entry: { key, stored_at: T0 + MINUTE, status: 200, raw: 'v2' }, fromCache: false });
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(await cache.get(key, TTL)).toEqual(refreshed.entry);
    expect(mode(path.join(dir, `${key}.json`))).toBe(0o600);
  });

  it('with bypass on an empty cache, fetches and stores', async () => {
    const fetch = fetcher({ status: 200, raw: 'v1' });
    expect((await cached(cache, key, TTL, { bypass: true }, fetch)).fromCache).toBe(false);
    expect((await cache.get(key, TTL))?.raw).toBe('v1');
  });

  it('returns but does not store a response that is not 2xx', async () => {
    const fetch = fetcher({ status: 503, raw: '{"error":{}}' }, { status: 200, raw: 'v1' });
    const failed = await cached(cache, key, TTL, {}, fetch);
    expect(failed).toEqual({ entry: { key, stored_at: T0, status: 503, raw: '{"error":{}}' }, fromCache: false });
    expect(await cache.get(key, TTL)).toBeUndefined();
    expect((await cached(cache, key, TTL, {}, fetch)).entry.raw).toBe('v1');
  });

  it('keeps an older entry when a bypassing fetch gets an error status', async () => {
    const fetch = fetcher({ status: 200, raw: 'v1' }, { status: 500, raw: 'oops' });
    await cached(cache, key, TTL, {}, fetch);
    await cached(cache, key, TTL, { bypass: true }, fetch);
    expect((await cache.get(key, TTL))?.raw).toBe('v1');
  });

  it('lets a fetch error through and stores nothing', async () => {
    const fetch = vi.fn(async () => {
      throw new Error('network down');
    });
    await expect(cached(cache, key, TTL, {}, fetch)).rejects.toThrow('network down');
    expect(await cache.get(key, TTL)).toBeUndefined();
  });

  it('still returns the response when the cache cannot be written', async () => {
    fs.writeFileSync(path.join(root, 'blocker'), 'x');
    const broken = new ResponseCache({ dir: path.join(root, 'blocker', 'responses'), now: () => clock });
    const result = await cached(broken, key, TTL, {}, fetcher({ status: 200, raw: 'v1' }));
    expect(result).toEqual({ entry: { key, stored_at: T0, status: 200, raw: 'v1' }, fromCache: false });
  });
});
