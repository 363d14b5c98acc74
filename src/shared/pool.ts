/**
 * The bounded pool of `pravo batch`: at most `concurrency` items in flight, taken in input order; once `stopped()`
 * says so, no new item is started and the pool ends when those in flight have finished (a quota exhausted, Ctrl-C, a
 * rejected key: what was sent is allowed to finish, so its outcome is recorded rather than lost). Also the pool of
 * `pravo sandbox import` (payloads read or fetched) and of hashing the sandbox's inputs. Pure: no I/O of its own.
 */

/**
 * Runs `work` on each item, at most `concurrency` at a time, starting items in order.
 * @param stopped consulted before each start; when true, nothing more starts.
 * @returns once every started item has finished.
 * @throws the first error `work` threw (after every started item has finished; nothing more starts after it).
 */
export async function runPool<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<void>,
  stopped: () => boolean,
): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const lane = async (): Promise<void> => {
    while (next < items.length && failure === undefined && !stopped()) {
      const item = items[next++]!;
      try {
        await work(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  const lanes = Math.max(1, Math.min(Math.floor(concurrency), items.length));
  await Promise.all(Array.from({ length: lanes }, lane));
  if (failure) throw failure.error;
}
