/**
 * The answer polling schedule (`src/api/polling.ts`; spec: GET /v1/answers/{job_id}, "first check after 2 seconds,
 * then … exponentially to a maximum of 10 seconds; stop at a final status"), on a fake clock.
 */
import { describe, expect, it, vi } from 'vitest';
import { CancelledError } from '../../src/api/errors.js';
import { answerPollDelayMs, pollUntil } from '../../src/api/polling.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { answer, client, startServer } from './test-server.js';

describe('answerPollDelayMs', () => {
  it('waits 2, 4, 8, then 10 s for ever', () => {
    expect([1, 2, 3, 4, 5, 6, 50].map(answerPollDelayMs)).toEqual([2000, 4000, 8000, 10000, 10000, 10000, 10000]);
  });
});

describe('pollUntil', () => {
  it('checks first after 2 s, then after 4, 8, 10, 10 s, and stops at the first final result', async () => {
    const clock = new FakeClock();
    const start = clock.now();
    const checkedAt: number[] = [];
    const states = ['queued', 'running', 'running', 'running', 'succeeded', 'never'];
    const check = vi.fn(async () => {
      checkedAt.push(clock.now() - start);
      return states[checkedAt.length - 1]!;
    });
    const updates: string[] = [];
    const done = pollUntil(check, (s) => s === 'succeeded' || s === 'failed', { clock, onUpdate: (s) => updates.push(s) });
    await clock.advance(60_000);
    expect(await done).toBe('succeeded');
    expect(clock.sleeps).toEqual([2000, 4000, 8000, 10000, 10000]);
    expect(checkedAt).toEqual([2000, 6000, 14000, 24000, 34000]);
    expect(updates).toEqual(['queued', 'running', 'running', 'running', 'succeeded']);
    expect(check).toHaveBeenCalledTimes(5);
    expect(clock.pendingTimers()).toBe(0);
  });

  it('does not check before the first 2 s are up', async () => {
    const clock = new FakeClock();
    const check = vi.fn(async () => 'failed');
    const done = pollUntil(check, () => true, { clock });
    await clock.advance(1_999);
    expect(check).not.toHaveBeenCalled();
    await clock.advance(1);
    expect(await done).toBe('failed');
  });

  it('Ctrl-C during a wait → CancelledError at once, no further check', async () => {
    const clock = new FakeClock();
    const controller = new AbortController();
    const check = vi.fn(async () => 'running');
    const done = pollUntil(check, () => false, { clock, signal: controller.signal }).catch((e: unknown) => e);
    await clock.advance(2_000);
    expect(check).toHaveBeenCalledTimes(1);
    controller.abort();
    const error = await done;
    expect(error).toBeInstanceOf(CancelledError);
    expect((error as CancelledError).mayHaveBeenCounted).toBe(false);
    expect(check).toHaveBeenCalledTimes(1);
    expect(clock.pendingTimers()).toBe(0);
  });

  it('an error of the check ends the polling with that error', async () => {
    const clock = new FakeClock();
    const done = pollUntil(async () => Promise.reject(new Error('boom')), () => false, { clock }).catch((e: unknown) => e);
    await clock.advance(2_000);
    expect(await done).toMatchObject({ message: 'boom' });
  });
});

describe('answers.poll against a server', () => {
  const job = (status: string, extra: Record<string, unknown> = {}): string => JSON.stringify({ job_id: 'job 1/ж', status, ...extra });

  /** Advances the clock through each wait as soon as the client has started it; returns when `done` settles. */
  async function drive(clock: FakeClock, done: Promise<unknown>): Promise<void> {
    let finished = false;
    void done.finally(() => (finished = true)).catch(() => {});
    for (let n = 1; !finished; n++) {
      await vi.waitFor(() => expect(finished || clock.sleeps.length >= n).toBe(true), { timeout: 5_000, interval: 2 });
      if (!finished) await clock.advance(clock.sleeps[n - 1]!);
    }
  }

  it('checks GET /v1/answers/{job_id} after 2, 4, 8, 10, 10 s and stops at succeeded', async () => {
    const server = await startServer([
      answer(200, job('queued')),
      answer(200, job('running')),
      answer(200, job('running')),
      answer(200, job('running')),
      answer(200, job('succeeded', { query: 'неустойка', answer: 'Да [1].', sources: [{ document_id: 'd1' }] })),
      answer(500, 'polled once too often'),
    ]);
    const clock = new FakeClock();
    const start = clock.now();
    const checkedAt: number[] = [];
    const updates: string[] = [];
    const done = client({ baseUrl: server.baseUrl, clock }).answers.poll('job 1/ж', {
      onUpdate: (j) => {
        updates.push(j.status);
        checkedAt.push(clock.now() - start);
      },
    });
    await drive(clock, done);
    const response = await done;
    expect(response.data.status).toBe('succeeded');
    expect(response.data.answer).toBe('Да [1].');
    expect(clock.sleeps).toEqual([2000, 4000, 8000, 10000, 10000]);
    expect(checkedAt).toEqual([2000, 6000, 14000, 24000, 34000]);
    expect(updates).toEqual(['queued', 'running', 'running', 'running', 'succeeded']);
    expect(server.seen.map((r) => r.url)).toEqual(Array(5).fill(`/v1/answers/${encodeURIComponent('job 1/ж')}`));
  });

  it('a failed job (e.g. timed_out) ends the polling and is returned, not thrown', async () => {
    const server = await startServer([
      answer(200, job('running')),
      answer(200, job('failed', { error_code: 'timed_out', error_message: 'The job timed out.' })),
    ]);
    const clock = new FakeClock();
    const done = client({ baseUrl: server.baseUrl, clock }).answers.poll('job 1/ж');
    await drive(clock, done);
    expect((await done).data).toMatchObject({ status: 'failed', error_code: 'timed_out' });
    expect(clock.sleeps).toEqual([2000, 4000]);
    expect(server.seen).toHaveLength(2);
  });

  it('Ctrl-C while waiting for the next check → CancelledError at once', async () => {
    const server = await startServer(answer(200, job('running')));
    const clock = new FakeClock();
    const controller = new AbortController();
    const done = client({ baseUrl: server.baseUrl, clock })
      .answers.poll('job 1/ж', { signal: controller.signal })
      .catch((e: unknown) => e);
    await clock.advance(2_000);
    await vi.waitFor(() => expect(clock.sleeps).toHaveLength(2), { timeout: 5_000, interval: 2 });
    controller.abort();
    expect(await done).toBeInstanceOf(CancelledError);
    expect(server.seen).toHaveLength(1);
    expect(clock.pendingTimers()).toBe(0);
  });

  it('a check that fails transiently (503 after the transport\'s own retries) is tried again at the next scheduled check', async () => {
    const server = await startServer([
      answer(200, job('running')),
      answer(503, '{"error":{"code":"service_unavailable","message":"busy"}}'),
      answer(503, '{"error":{"code":"service_unavailable","message":"busy"}}'),
      answer(503, '{"error":{"code":"service_unavailable","message":"busy"}}'),
      answer(200, job('succeeded', { query: 'неустойка', answer: 'Да.', sources: [] })),
      answer(500, 'polled once too often'),
    ]);
    const clock = new FakeClock();
    const troubles: number[] = [];
    const done = client({ baseUrl: server.baseUrl, clock }).answers.poll('job 1/ж', { onTransientError: (_e, n) => troubles.push(n) });
    await drive(clock, done);
    expect((await done).data.status).toBe('succeeded');
    expect(troubles).toEqual([1]);
    expect(server.seen).toHaveLength(5);
  });

  it('gives up with the last error after maxTransientFailures failed checks in a row; a 404 ends polling at once', async () => {
    const busy = answer(502, '{"error":{"code":"bad_gateway","message":"down"}}');
    const server = await startServer([busy]);
    const clock = new FakeClock();
    const done = client({ baseUrl: server.baseUrl, clock }).answers.poll('job 1/ж', { maxTransientFailures: 1 }).catch((e: unknown) => e);
    await drive(clock, done);
    expect(await done).toMatchObject({ status: 502 });
    expect(server.seen).toHaveLength(6); // two checks, each tried 3 times by the transport

    const missing = await startServer([answer(404, '{"error":{"code":"not_found","message":"no such job"}}')]);
    const clock2 = new FakeClock();
    const gone = client({ baseUrl: missing.baseUrl, clock: clock2 }).answers.poll('job 1/ж').catch((e: unknown) => e);
    await drive(clock2, gone);
    expect(await gone).toMatchObject({ status: 404 });
    expect(missing.seen).toHaveLength(1);
  });
});

