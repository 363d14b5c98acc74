/**
 * What a command runs with: its streams, environment, global options and clocks (in the manner of the GitHub CLI's
 * factory). Commands take a `Context` instead of reaching for `process`, so tests run them without a terminal.
 */
import type { Readable, Writable } from 'node:stream';
import type { Clock } from './api/clock.js';

/** An output stream with the terminal facts renderers need. */
export type Output = Writable & { isTTY?: boolean; columns?: number };

/** The streams and environment of a run. */
export interface IO {
  stdout: Output;
  stderr: Output;
  stdin: Readable & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
}

/** Options every command accepts (defined on the program). */
export interface GlobalOptions {
  /** `--profile NAME`. */
  profile?: string;
  /** `--no-color` sets this to false. */
  color?: boolean;
}

/** Everything a command needs from the outside world. */
export interface Context {
  io: IO;
  globals: GlobalOptions;
  /** Timers for request timeouts. */
  clock: Clock;
  /** Milliseconds, monotonic; for elapsed-time displays. */
  now: () => number;
  /** Registers a handler for Ctrl-C for the duration of a request; returns a function that removes it. */
  onInterrupt: (handler: () => void) => () => void;
  /** Version of pravo. */
  version: string;
}

/**
 * Whether to colour a stream: a TTY, colours not turned off by `--no-color`, `NO_COLOR` or `TERM=dumb`; `FORCE_COLOR`
 * (other than `0`) turns them on anyway.
 */
export function useColor(stream: Output, env: NodeJS.ProcessEnv, globals: GlobalOptions): boolean {
  if (globals.color === false) return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.TERM === 'dumb') return false;
  return stream.isTTY === true;
}
