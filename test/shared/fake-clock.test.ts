/** The fake clock other suites rely on (`test/helpers/fake-clock.ts`), and the system clock's sleep. */
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../src/shared/clock.js';
import { FakeClock } from '../helpers/fake-clock.js';

describe('FakeClock', () => {
  it('starts at the given time and moves only on advance', async () => {
    const clock = new FakeClock(1_000);
    expect(clock.now()).toBe(1_000);
    await clock.advance(250);
    expect(clock.now()).toBe(1_250);
  });

  it('fires due timers in due order, with the time of each, including timers set by a callback', async () => {
    const clock = new FakeClock(0);
    const fired: string[] = [];
    clock.setTimeout(() => fired.push(`b@${clock.now()}`), 200);
    clock.setTimeout(() => {
      fired.push(`a@${clock.now()}`);
      clock.setTimeout(() => fired.push(`c@${clock.now()}`), 50);
    }, 100);
    clock.setTimeout(() => fired.push('late'), 1_000);
    await clock.advance(300);
    expect(fired).toEqual(['a@100', 'c@150', 'b@200']);
    expect(clock.pendingTimers()).toBe(1);
    expect(clock.pendingDelays()).toEqual([700]);
  });

  it('clearTimeout removes a timer', async () => {
    const clock = new FakeClock();
    let fired = false;
    const handle = clock.setTimeout(() => (fired = true), 10);
    clock.clearTimeout(handle);
    await clock.advance(20);
    expect(fired).toBe(false);
    expect(clock.pendingTimers()).toBe(0);
  });

  it('runs code awaiting a sleep before the next timer fires', async () => {
    const clock = new FakeClock(0);
    const log: number[] = [];
    const loop = (async () => {
      for (let i = 0; i < 3; i++) {
        await clock.sleep(1_000);
        log.push(clock.now());
      }
    })();
    await clock.advance(3_000);
    await loop;
    expect(log).toEqual([1_000, 2_000, 3_000]);
    expect(clock.sleeps).toEqual([1_000, 1_000, 1_000]);
  });

  it('sleep rejects with the signal reason on abort and clears its timer; at once when already aborted', async () => {
    const clock = new FakeClock();
    const controller = new AbortController();
    const sleeping = clock.sleep(5_000, controller.signal).catch((e: unknown) => e);
    controller.abort(new Error('stop'));
    expect(await sleeping).toMatchObject({ message: 'stop' });
    expect(clock.pendingTimers()).toBe(0);
    await expect(clock.sleep(1, AbortSignal.abort(new Error('already')))).rejects.toMatchObject({ message: 'already' });
  });
});

describe('systemClock', () => {
  it('sleep(0) resolves, and rejects at once for an aborted signal', async () => {
    await expect(systemClock.sleep(0)).resolves.toBeUndefined();
    await expect(systemClock.sleep(60_000, AbortSignal.abort(new Error('x')))).rejects.toMatchObject({ message: 'x' });
    expect(Math.abs(systemClock.now() - Date.now())).toBeLessThan(1_000);
  });
});
