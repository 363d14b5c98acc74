/**
 * The bounded pool of `pravo batch` (`src/shared/pool.ts`): never more requests in flight than `--concurrency`, lines
 * started in input order, and a stop (quota, Ctrl-C, a refused key) that starts nothing new but lets what is in
 * flight finish. Driven by promises the test settles itself; no timers.
 */
import { describe, expect, it } from 'vitest';
import { runPool } from '../../src/shared/pool.js';

interface Deferred {
  promise: Promise<void>;
  resolve(): void;
  reject(error: unknown): void;
}

function deferred(): Deferred {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets queued promise callbacks run (several turns, for chains of awaits). */
async function flush(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}

/** A pool over `items` whose work waits for the test: `started` lists the items begun, `finish(item)` ends one. */
function controlledPool(items: number[], concurrency: number, stopped: () => boolean = () => false) {
  const pending = new Map<number, Deferred>();
  const started: number[] = [];
  const finished: number[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  let settled: { ok: true } | { ok: false; error: unknown } | undefined;
  const done = runPool(
    items,
    concurrency,
    async (item) => {
      started.push(item);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const d = deferred();
      pending.set(item, d);
      try {
        await d.promise;
      } finally {
        inFlight--;
        finished.push(item);
      }
    },
    stopped,
  ).then(
    () => {
      settled = { ok: true };
    },
    (error: unknown) => {
      settled = { ok: false, error };
    },
  );
  return {
    started,
    finished,
    done,
    inFlight: () => inFlight,
    maxInFlight: () => maxInFlight,
    settled: () => settled,
    async finish(item: number, error?: unknown): Promise<void> {
      const d = pending.get(item);
      if (!d) throw new Error(`item ${item} was not started`);
      if (error === undefined) d.resolve();
      else d.reject(error);
      await flush();
    },
  };
}

describe('runPool', () => {
  it('starts as many lines as the concurrency allows, and one more each time one finishes', async () => {
    const pool = controlledPool([1, 2, 3, 4, 5, 6, 7], 3);
    await flush();
    expect(pool.started).toEqual([1, 2, 3]);
    await pool.finish(2);
    expect(pool.started).toEqual([1, 2, 3, 4]);
    await pool.finish(1);
    await pool.finish(4);
    expect(pool.started).toEqual([1, 2, 3, 4, 5, 6]);
    expect(pool.inFlight()).toBe(3);
    for (const item of [3, 5, 6, 7]) await pool.finish(item);
    await pool.done;
    expect(pool.settled()).toEqual({ ok: true });
    expect(pool.maxInFlight()).toBe(3);
    expect(pool.started).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('starts the lines in input order whatever order they finish in', async () => {
    const items = Array.from({ length: 20 }, (_, i) => i + 1);
    const pool = controlledPool(items, 4);
    await flush();
    // Always finish the newest line in flight first.
    while (pool.settled() === undefined) {
      const running = pool.started.filter((item) => !pool.finished.includes(item));
      await pool.finish(running.at(-1)!);
      expect(pool.inFlight()).toBeLessThanOrEqual(4);
    }
    expect(pool.started).toEqual(items);
    expect(pool.maxInFlight()).toBe(4);
  });

  it('runs one line at a time with a concurrency of 1', async () => {
    const pool = controlledPool([1, 2, 3], 1);
    await flush();
    expect(pool.started).toEqual([1]);
    await pool.finish(1);
    expect(pool.started).toEqual([1, 2]);
    await pool.finish(2);
    await pool.finish(3);
    await pool.done;
    expect(pool.maxInFlight()).toBe(1);
  });

  it('starts every line at once when the concurrency is above their number', async () => {
    const pool = controlledPool([1, 2], 16);
    await flush();
    expect(pool.started).toEqual([1, 2]);
    await pool.finish(1);
    await pool.finish(2);
    await pool.done;
    expect(pool.settled()).toEqual({ ok: true });
  });

  it('ends at once with no lines, without calling the work', async () => {
    let calls = 0;
    await runPool([], 4, async () => void calls++, () => false);
    expect(calls).toBe(0);
  });

  it('starts nothing when stopped before the start', async () => {
    let calls = 0;
    await runPool([1, 2, 3], 2, async () => void calls++, () => true);
    expect(calls).toBe(0);
  });

  it('starts nothing new once stopped, and ends only when the lines in flight have finished', async () => {
    let stop = false;
    const pool = controlledPool([1, 2, 3, 4, 5, 6], 3, () => stop);
    await flush();
    expect(pool.started).toEqual([1, 2, 3]);
    stop = true;
    await pool.finish(1);
    expect(pool.started).toEqual([1, 2, 3]);
    expect(pool.settled()).toBeUndefined();
    await pool.finish(3);
    expect(pool.settled()).toBeUndefined();
    await pool.finish(2);
    await pool.done;
    expect(pool.settled()).toEqual({ ok: true });
    expect(pool.started).toEqual([1, 2, 3]);
    expect(pool.finished.sort()).toEqual([1, 2, 3]);
  });

  it('rethrows the first error, after the lines in flight have finished, starting nothing after it', async () => {
    const first = new Error('disk full');
    const pool = controlledPool([1, 2, 3, 4, 5], 2);
    await flush();
    await pool.finish(1, first);
    expect(pool.started).toEqual([1, 2]);
    expect(pool.settled()).toBeUndefined();
    await pool.finish(2, new Error('second failure'));
    await pool.done;
    expect(pool.settled()).toEqual({ ok: false, error: first });
    expect(pool.started).toEqual([1, 2]);
  });

  it('rethrows an error the work throws before its first await', async () => {
    const error = new Error('thrown at once');
    const started: number[] = [];
    await expect(
      runPool(
        [1, 2, 3],
        1,
        (item) => {
          started.push(item);
          throw error;
        },
        () => false,
      ),
    ).rejects.toBe(error);
    expect(started).toEqual([1]);
  });
});
