/**
 * The spinner every command shows while it waits for a request (a search, a document, an account check), on stderr
 * whenever stderr is a terminal.
 */
import type { Factory } from '../factory.js';

/**
 * Waits for `work` with a spinner on stderr whose text shows the seconds elapsed (`Searching… 12s`) whenever stderr is
 * a terminal, whatever stdout is (`pravo search ... > out.tsv` or `--json | jq` still show that something is
 * happening); never when stderr is not a terminal. The spinner stops when `work` settles; the runner stops it on
 * every other path. `label` may be a function, read every second (a status that changes); `startedAt` (ms since the
 * epoch, default now) is where the elapsed time counts from.
 */
export async function waitWithSpinner<T>(
  factory: Factory,
  label: string | (() => string),
  work: () => Promise<T>,
  options: { startedAt?: number } = {},
): Promise<T> {
  if (!factory.io.showsProgress) return work();
  const { waitingText } = await import('../render/progress.js');
  const started = options.startedAt ?? factory.clock.now();
  const text = (): string => waitingText(typeof label === 'string' ? label : label(), factory.clock.now() - started);
  const spinner = await factory.io.startSpinner(text());
  let timer: unknown;
  const tick = (): void => {
    spinner.update(text());
    timer = factory.clock.setTimeout(tick, 1000);
  };
  timer = factory.clock.setTimeout(tick, 1000);
  try {
    return await work();
  } finally {
    factory.clock.clearTimeout(timer);
    spinner.stop();
  }
}
