/**
 * Polling of answer jobs (spec: GET /v1/answers/{job_id}, "Polling rule for clients: first check after 2 seconds, then
 * increase the interval exponentially to a maximum of 10 seconds; stop at a final status"). Waits run on the injected
 * clock, so Ctrl-C interrupts them and tests advance a fake clock.
 */
import type { Clock } from '../shared/clock.js';
import { CancelledError } from './errors.js';

/** First wait, in milliseconds (spec: first check after 2 seconds). */
export const ANSWER_POLL_FIRST_DELAY_MS = 2_000;
/** Longest wait, in milliseconds (spec: a maximum of 10 seconds). */
export const ANSWER_POLL_MAX_DELAY_MS = 10_000;

/**
 * Milliseconds to wait before check number `attempt` (1-based): 2000, 4000, 8000, 10000, 10000…
 * (doubling from 2 s, capped at 10 s).
 */
export function answerPollDelayMs(attempt: number): number {
  const n = Math.max(1, Math.floor(attempt));
  return Math.min(ANSWER_POLL_MAX_DELAY_MS, ANSWER_POLL_FIRST_DELAY_MS * 2 ** Math.min(n - 1, 30));
}

/** Options of {@link pollUntil}. */
export interface PollOptions<T> {
  /** Clock the waits run on. */
  clock: Clock;
  /** Aborts a wait → `CancelledError` (mayHaveBeenCounted false: polling only reads); also pass it to `check`. */
  signal?: AbortSignal;
  /** Milliseconds to wait before check number `attempt` (1-based); default {@link answerPollDelayMs}. */
  delayMs?: (attempt: number) => number;
  /** Called with every result, final or not (progress display). */
  onUpdate?: (t: T) => void;
  /**
   * Decides whether a failed check is retried at the next scheduled check rather than ending the polling: called with
   * the error and the number of consecutive failed checks (1 for the first); default: never.
   */
  retryCheck?: (error: unknown, consecutiveFailures: number) => boolean;
}

/**
 * Waits `delayMs(1)`, calls `check`, and repeats with `delayMs(2)`, `delayMs(3)`… until `isFinal` holds for a result,
 * which it returns. An error of `check` ends the polling, unless `retryCheck` says to try again at the next scheduled
 * check (the schedule goes on growing; a successful check resets the count of consecutive failures).
 * @throws CancelledError when the signal aborts during a wait; what `check` throws and `retryCheck` does not retry.
 */
export async function pollUntil<T>(
  check: () => Promise<T>,
  isFinal: (t: T) => boolean,
  options: PollOptions<T>,
): Promise<T> {
  const delayMs = options.delayMs ?? answerPollDelayMs;
  let failures = 0;
  for (let attempt = 1; ; attempt++) {
    try {
      await options.clock.sleep(delayMs(attempt), options.signal);
    } catch {
      throw new CancelledError(false);
    }
    let result: T;
    try {
      result = await check();
    } catch (error) {
      failures++;
      if (options.signal?.aborted || !options.retryCheck?.(error, failures)) throw error;
      continue;
    }
    failures = 0;
    options.onUpdate?.(result);
    if (isFinal(result)) return result;
  }
}
