/**
 * A {@link Clock} whose time moves only when a test says so: timers fire in due order during {@link FakeClock.advance},
 * with pending promise callbacks (microtasks) run between them, so code that awaits a sleep and then sets the next
 * timer behaves as it would in real time, without the test sleeping.
 */
import { sleepOn, type Clock } from '../../src/shared/clock.js';

interface Timer {
  id: number;
  dueMs: number;
  callback: () => void;
}

export class FakeClock implements Clock {
  #nowMs: number;
  #nextId = 1;
  readonly #timers = new Map<number, Timer>();
  /** Every `ms` passed to {@link FakeClock.sleep}, in call order (what a test asserts instead of wall time). */
  readonly sleeps: number[] = [];
  /** Every `ms` passed to {@link FakeClock.setTimeout} (sleeps included), in call order. */
  readonly timeouts: number[] = [];

  /** @param startMs the initial time, in milliseconds since the epoch; default 2025-01-01T00:00:00Z. */
  constructor(startMs = Date.UTC(2025, 0, 1)) {
    this.#nowMs = startMs;
  }

  now(): number {
    return this.#nowMs;
  }

  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.#nextId++;
    this.timeouts.push(ms);
    this.#timers.set(id, { id, dueMs: this.#nowMs + Math.max(0, ms), callback });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.#timers.delete(handle as number);
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    this.sleeps.push(ms);
    return sleepOn(this, ms, signal);
  }

  /** Number of timers set and neither fired nor cleared. */
  pendingTimers(): number {
    return this.#timers.size;
  }

  /** Milliseconds until each pending timer fires, soonest first. */
  pendingDelays(): number[] {
    return [...this.#timers.values()].map((t) => t.dueMs - this.#nowMs).sort((a, b) => a - b);
  }

  /**
   * Moves time forward by `ms`, firing every timer that falls due on the way in due order (timers set by a callback
   * fire too when they fall within the interval), and lets pending microtasks run after each one.
   */
  async advance(ms: number): Promise<void> {
    const targetMs = this.#nowMs + ms;
    await flushMicrotasks();
    for (;;) {
      let next: Timer | undefined;
      for (const timer of this.#timers.values()) {
        if (timer.dueMs <= targetMs && (next === undefined || timer.dueMs < next.dueMs)) next = timer;
      }
      if (next === undefined) break;
      this.#timers.delete(next.id);
      this.#nowMs = next.dueMs;
      next.callback();
      await flushMicrotasks();
    }
    this.#nowMs = targetMs;
  }
}

/** Lets queued promise callbacks run (several turns, for chains of awaits). */
async function flushMicrotasks(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}
