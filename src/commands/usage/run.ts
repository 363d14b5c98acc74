/**
 * `pravo usage` (spec: GET /v1/usage; Quota rules): the current consumption against the monthly quotas, asked of the
 * target every time (never cached: it changes with every request), with a spinner while waiting, printed in the run's
 * output form: a table on a terminal, TSV when piped, `--json` the server's body exactly. The body is read tolerantly
 * (`readUsage`), so a live service naming things otherwise still renders.
 */
import { readUsage } from '../../api/usage.js';
import type { Factory } from '../../factory.js';
import { Printer } from '../../io/printer.js';
import { waitWithSpinner } from '../../services/waiting.js';

/** Options of `pravo usage` as commander parses them (the target options reach the factory as globals). */
export interface UsageOptions {
  json?: boolean;
}

/**
 * Asks `GET /v1/usage` and prints it; returns the exit code (0).
 * @throws API errors of the request (an `AuthenticationError` for a missing, invalid or revoked key: exit 4; a
 *   `ServerError`: exit 1), `UnexpectedResponseError` for a body that is not a JSON object, and the target's errors
 *   (no key or base URL configured, a sandbox that cannot start).
 */
export async function runUsage(factory: Factory, options: UsageOptions): Promise<number> {
  const printer = new Printer(factory.io, options.json === true);
  const client = await factory.client();
  const response = await waitWithSpinner(factory, 'Fetching usage', () => client.usage.retrieve({ signal: factory.signal }));
  // The days left of the period count from when the answer came.
  const now = factory.clock.now();
  await printer.response({ raw: response.raw, data: readUsage(response.data) }, async () => (await import('../../render/usage.js')).usageView(now));
  return 0;
}
