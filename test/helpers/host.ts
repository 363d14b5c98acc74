/**
 * An in-process host for running `main()` on test streams: captured stdout and stderr with chosen terminal facts,
 * a stdin holding the given input, signals sent by the test, and a recorded `exit` instead of ending the process.
 */
import { EventEmitter } from 'node:events';
import { main } from '../../src/cli.js';
import { systemClock, type Clock } from '../../src/shared/clock.js';
import type { Host } from '../../src/commands/runner.js';
import type { StopSignal } from '../../src/io/signal.js';
import { captureStream, inputStream } from '../../src/io/iostreams.js';

/** A host for one in-process run, with what it captured. */
export interface TestHost {
  host: Host;
  stdout(): string;
  stderr(): string;
  /** Sends SIGINT or SIGTERM to the run. */
  signal(name: StopSignal): void;
  /** Codes passed to `host.exit`, in order. */
  exits: number[];
}

/** Options of {@link testHost}. */
export interface TestHostOptions {
  env?: NodeJS.ProcessEnv;
  stdoutTTY?: boolean;
  stderrTTY?: boolean;
  stdinTTY?: boolean;
  input?: string;
  columns?: number;
  /** Rows of the terminals (default 24). */
  rows?: number;
  clock?: Clock;
}

/**
 * A host whose environment is exactly `env` plus `PRAVO_PAGER=cat` (no pager in tests unless a test sets one);
 * nothing is a terminal unless asked.
 */
export function testHost(options: TestHostOptions = {}): TestHost {
  const terminal = { columns: options.columns ?? 100, ...(options.rows !== undefined ? { rows: options.rows } : {}) };
  const out = captureStream(options.stdoutTTY ? terminal : undefined);
  const err = captureStream(options.stderrTTY ? terminal : undefined);
  const stdin = inputStream(options.input ?? '', options.stdinTTY === true);
  const signals = new EventEmitter();
  const exits: number[] = [];
  const host: Host = {
    stdout: out.stream,
    stderr: err.stream,
    stdin,
    env: { PRAVO_PAGER: 'cat', ...options.env },
    onSignal: (handler) => {
      signals.on('signal', handler);
      return () => signals.off('signal', handler);
    },
    exit: (code) => {
      exits.push(code);
    },
    clock: options.clock ?? systemClock,
    version: '0.0.0-test',
  };
  return { host, stdout: out.text, stderr: err.text, signal: (name) => signals.emit('signal', name), exits };
}

/** Runs `pravo ...args` in this process on a test host; resolves with the exit code and the captured output. */
export async function runPravo(
  args: string[],
  options: TestHostOptions = {},
): Promise<{ exitCode: number; stdout: string; stderr: string; exits: number[] }> {
  const t = testHost(options);
  const exitCode = await main(args, t.host);
  return { exitCode, stdout: t.stdout(), stderr: t.stderr(), exits: t.exits };
}
