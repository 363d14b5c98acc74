/**
 * A function of a string key called at most once per distinct key: for the `held` lookups of the index builders of
 * `thesaurus.ts` and `search/morphology.ts`, which a caller may back by a SQLite query.
 */

/**
 * `fn`, memoized: each distinct key is computed once, and later calls return the stored result. The store lives as long
 * as the returned function (no bound: meant for one pass over a dictionary).
 */
export function memoized<T>(fn: (key: string) => T): (key: string) => T {
  const results = new Map<string, T>();
  return (key: string): T => {
    if (results.has(key)) return results.get(key) as T;
    const value = fn(key);
    results.set(key, value);
    return value;
  };
}
