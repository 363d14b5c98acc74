/**
 * Time as the API client sees it: the current time, one-shot timers and interruptible sleeps, behind a small interface
 * so that tests drive timeouts, retry waits and answer polling with a fake clock instead of sleeping, and the CLI hands
 * the real one in.
 */

/** The client's view of time; every duration is in milliseconds. */
export interface Clock {
  /** Milliseconds since the epoch (`Date.now` for the system clock). */
  now(): number;
  /** Calls `callback` once after `ms` milliseconds; returns a handle for {@link Clock.clearTimeout}. */
  setTimeout(callback: () => void, ms: number): unknown;
  /** Cancels a timer set by {@link Clock.setTimeout}; a handle already fired or cleared is ignored. */
  clearTimeout(handle: unknown): void;
  /**
   * Resolves after `ms` milliseconds; rejects with `signal.reason` when the signal aborts (at once if it is already
   * aborted), clearing its timer.
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/**
 * A `sleep` built on a clock's own `setTimeout`/`clearTimeout`, for {@link Clock} implementations (the system clock and
 * the tests' fake clock share it, so both abort the same way).
 */
export function sleepOn(clock: Pick<Clock, 'setTimeout' | 'clearTimeout'>, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clock.clearTimeout(handle);
      reject(signal?.reason);
    };
    const handle = clock.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The real clock: `Date.now` and the global timers. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  sleep: (ms, signal) => sleepOn(systemClock, ms, signal),
};
