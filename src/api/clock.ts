/**
 * Timers the HTTP client uses for timeouts, as a small interface so that tests can fire a timeout deterministically
 * (no sleeping) and the CLI can hand the real one in without loading the client.
 */

/** Sets and clears one-shot timers; `ms` in milliseconds. */
export interface Clock {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The real clock (global timers). */
export const systemClock: Clock = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};
