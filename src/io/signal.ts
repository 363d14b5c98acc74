/**
 * Cancellation of a run: the first SIGINT or SIGTERM aborts the run's signal (requests stop, spinners stop, clients
 * and sandboxes close, exit 130); a second one ends the process at once, for work that does not stop by itself.
 */

/** The signals a run listens to. */
export type StopSignal = 'SIGINT' | 'SIGTERM';

/** Where signals come from: the process in `main()`, an event emitter in tests. Returns an unsubscribe function. */
export type SignalSource = (handler: (signal: StopSignal) => void) => () => void;

/** The cancellation of one run. */
export interface Cancellation {
  /** Aborted on the first signal; its `reason` is the signal's name. */
  readonly signal: AbortSignal;
  /** Stops listening. */
  dispose(): void;
}

/**
 * Listens for SIGINT and SIGTERM: the first aborts the returned signal, a second calls `forceExit` (exit 130 in the
 * CLI).
 */
export function listenForCancellation(source: SignalSource, forceExit: () => void): Cancellation {
  const controller = new AbortController();
  const unsubscribe = source((signal) => {
    if (controller.signal.aborted) forceExit();
    else controller.abort(signal);
  });
  return { signal: controller.signal, dispose: unsubscribe };
}
