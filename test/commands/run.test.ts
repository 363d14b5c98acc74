/** The runner (`src/commands/runner.ts`): exit codes, closing on every path, cancellation, error forms. */
import { describe, expect, it } from 'vitest';
import { runCommand } from '../../src/commands/runner.js';
import { UsageError } from '../../src/errors/cli.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { testHost } from '../helpers/host.js';

describe('runCommand', () => {
  it('returns the body exit code, and closes what the factory opened, on success and on error', async () => {
    const t = testHost();
    const closed: string[] = [];
    const ok = await runCommand(t.host, { command: 'x', json: false, globals: {} }, async (f) => {
      f.defer(() => void closed.push('ok'));
      return 3;
    });
    expect(ok).toEqual({ exitCode: 3, stuck: false });
    const failed = await runCommand(t.host, { command: 'x', json: false, globals: {} }, async (f) => {
      f.defer(() => void closed.push('failed'));
      throw new UsageError('bad --thing');
    });
    expect(failed.exitCode).toBe(2);
    expect(closed).toEqual(['ok', 'failed']);
    expect(t.stderr()).toMatch(/Error: bad --thing\nNothing was sent\. See `pravo x --help`\./);
  });

  it('with --json an error is one JSON line on stderr', async () => {
    const t = testHost();
    await runCommand(t.host, { command: 'x', json: true, globals: {} }, async () => {
      throw new UsageError('bad');
    });
    expect(JSON.parse(t.stderr())).toEqual({
      error: { kind: 'usage', code: null, message: 'bad', hint: 'Nothing was sent. See `pravo x --help`.', exit_code: 2, may_have_been_counted: false, request_id: null },
    });
  });

  it('an unknown error is a bug report, exit 1', async () => {
    const t = testHost();
    const result = await runCommand(t.host, { command: 'x', json: false, globals: {} }, async () => {
      throw new TypeError('oops');
    });
    expect(result.exitCode).toBe(1);
    expect(t.stderr()).toMatch(/Unexpected error: oops/);
  });

  it('Ctrl-C on work that does not stop: after the grace period exit 130, marked stuck, resources closed', async () => {
    const clock = new FakeClock();
    const t = testHost({ clock });
    const closed: string[] = [];
    let started!: () => void;
    const begun = new Promise<void>((resolve) => (started = resolve));
    const run = runCommand(t.host, { command: 'x', json: false, globals: {} }, async (f) => {
      f.defer(() => void closed.push('sandbox'));
      started();
      await new Promise(() => {}); // never settles, like a build that ignores the signal
    });
    await begun;
    t.signal('SIGINT');
    await clock.advance(500);
    expect(await run).toEqual({ exitCode: 130, stuck: true });
    expect(closed).toEqual(['sandbox']);
    expect(t.stderr()).toMatch(/Cancelled\./);
  });

  it('a second Ctrl-C ends the process at once', async () => {
    const clock = new FakeClock();
    const t = testHost({ clock });
    let started!: () => void;
    const begun = new Promise<void>((resolve) => (started = resolve));
    const run = runCommand(t.host, { command: 'x', json: false, globals: {}, ownsSignal: true }, async (f) => {
      started();
      await new Promise<void>((resolve) => f.signal.addEventListener('abort', () => resolve()));
      await new Promise<void>((resolve) => setImmediate(resolve));
      return 0;
    });
    await begun;
    t.signal('SIGINT');
    t.signal('SIGINT');
    expect(t.exits).toEqual([130]);
    expect((await run).exitCode).toBe(0);
  });
});
