/**
 * The one runner of a command. It builds the run's IO streams and factory, owns the cancellation signal (SIGINT and
 * SIGTERM), and on every path stops spinners, closes clients and in-process sandboxes, ends the pager, renders errors
 * (text, or one JSON line with `--json`) and returns the exit code. Commands never touch `process`.
 */
import type { Clock } from '../shared/clock.js';
import { CancelledError } from '../api/errors.js';
import { describeError } from '../errors/advice.js';
import { UserCancelledError } from '../errors/cli.js';
import { EXIT } from '../errors/exit-codes.js';
import type { ConfigStore } from '../config/store.js';
import { Factory, type GlobalOptions } from '../factory.js';
import { IOStreams, type InputStream, type OutputStream } from '../io/iostreams.js';
import { listenForCancellation, type SignalSource } from '../io/signal.js';
import { retryNoticeText } from '../render/progress.js';

/** What the process (or a test) gives pravo. */
export interface Host {
  stdout: OutputStream;
  stderr: OutputStream;
  stdin: InputStream;
  env: NodeJS.ProcessEnv;
  /** SIGINT and SIGTERM. */
  onSignal: SignalSource;
  /** Ends the process at once with `code` (a second Ctrl-C; work that did not stop when cancelled). */
  exit(code: number): void;
  clock: Clock;
  /** Version of pravo. */
  version: string;
}

/** How a command is run. */
export interface RunSpec {
  /** Command path for advice, e.g. `search`, `config set-key`. */
  command: string;
  /** `--json`: errors are one JSON line on stderr. */
  json: boolean;
  /** Global and target options of the command line. */
  globals: GlobalOptions;
  /**
   * The command waits for the cancellation signal itself and stops gracefully (a server): the runner then waits for it
   * instead of ending it after a grace period.
   */
  ownsSignal?: boolean;
  /** The command never sends a request (`config`, `sandbox serve`): its errors do not say "Nothing was sent." */
  local?: boolean;
  /**
   * The command takes the target options (`--sandbox`): without `--sandbox`, it runs against the in-process sandbox
   * when the active profile's `sandbox` setting is on (`pravo config set sandbox on`).
   */
  targetable?: boolean;
}

/** How long a cancelled command may take to stop by itself before the runner reports it cancelled, in ms. */
const CANCEL_GRACE_MS = 500;

/** A command body: does the work through the factory, returns an exit code (default 0). */
export type CommandBody = (factory: Factory) => Promise<number | void>;

/**
 * Runs a command body and returns its exit code. Never throws. When the run was cancelled and the body did not stop by
 * itself within the grace period, returns 130 and sets `stuck`, so `main()` can end the process.
 */
export async function runCommand(host: Host, spec: RunSpec, body: CommandBody): Promise<{ exitCode: number; stuck: boolean }> {
  const io = new IOStreams(host, { ...(spec.globals.color === false ? { color: false } : {}), ...(spec.globals.pager === false ? { pager: false } : {}) });
  const cancellation = listenForCancellation(host.onSignal, () => host.exit(EXIT.cancelled));
  // An API command without --sandbox reads the config now, for the profile's sandbox setting; the factory reuses it.
  const config = spec.targetable && spec.globals.sandbox === undefined ? import('../config/store.js').then(({ ConfigStore }) => ConfigStore.open(host.env)) : undefined;
  const globals = config !== undefined && (await profileRunsSandbox(config, host.env, spec.globals.profile)) ? { ...spec.globals, sandbox: true } : spec.globals;
  const factory = new Factory({
    io,
    globals,
    ...(config !== undefined ? { config } : {}),
    clock: host.clock,
    signal: cancellation.signal,
    version: host.version,
    // A wait before a GET is tried again is said on stderr, above any spinner: a busy server does not look like a hang.
    onRetry: (notice) => io.notice(retryNoticeText(notice)),
  });
  let stuck = false;
  let exitCode: number;
  try {
    const work = body(factory);
    exitCode = (await (spec.ownsSignal ? work : raceCancellation(work, cancellation.signal, host.clock, () => (stuck = true)))) ?? EXIT.ok;
  } catch (error) {
    io.stopIndicators();
    // Once cancelled, whatever the body threw is a consequence of stopping; only the transport's CancelledError (whether
    // the request had been sent and may have been counted) and the body's own UserCancelledError (what to do next) say
    // more.
    const explained = error instanceof CancelledError || error instanceof UserCancelledError;
    const shown = cancellation.signal.aborted && !explained ? new UserCancelledError() : error;
    const summary = describeError(shown, { ...factory.errorContext(spec.command), ...(spec.local ? { local: true } : {}) });
    const { renderErrorJson, renderErrorText } = await import('../render/errors.js');
    if (spec.json) io.stderr.write(renderErrorJson(summary));
    else io.message(renderErrorText(summary, io.colorStderr));
    exitCode = summary.exitCode;
  } finally {
    io.stopIndicators();
    cancellation.dispose();
  }
  await factory.close();
  await io.stopPager();
  return { exitCode, stuck };
}

/**
 * Whether the active profile (`--profile`, else `PRAVO_PROFILE`, else `default`) of the config store `config` has its
 * `sandbox` setting on. A config file that cannot be read, or a bad profile name, counts as off here: the command then
 * reports it when it resolves the profile (the factory's `config()` gives the same rejection).
 */
async function profileRunsSandbox(config: Promise<ConfigStore>, env: NodeJS.ProcessEnv, flagProfile: string | undefined): Promise<boolean> {
  try {
    const [store, { activeProfileName }] = await Promise.all([config, import('../config/profile.js')]);
    return store.profile(activeProfileName(env, flagProfile)).sandbox === true;
  } catch {
    return false;
  }
}

/**
 * The body's outcome, unless the signal aborts and the body has not settled within the grace period: then a
 * `UserCancelledError`. The grace lets the transport report whether a cancelled request may have been counted.
 */
function raceCancellation<T>(work: Promise<T>, signal: AbortSignal, clock: Clock, onStuck: () => void): Promise<T> {
  if (signal.aborted) return Promise.reject(new UserCancelledError());
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    /** Settles once: with the body's outcome, or with the cancellation after the grace period. */
    const settle = (finish: () => void): void => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      finish();
    };
    const onAbort = (): void => {
      void clock.sleep(CANCEL_GRACE_MS).then(() =>
        settle(() => {
          onStuck();
          reject(new UserCancelledError());
        }),
      );
    };
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => settle(() => resolve(value)),
      (error: unknown) => settle(() => reject(error)),
    );
  });
}
