/**
 * `pravo search` (spec: POST /v1/search): the request checked before anything is sent, a spinner while waiting, the
 * results in the run's output form, and the last results stored for `pravo doc N`.
 */
import type { Factory } from '../../factory.js';
import { Printer } from '../../io/printer.js';
import { waitWithSpinner } from '../shared.js';
import { buildSearchRequest, parseTimeout, type SearchFieldOptions } from './request.js';

/** Options of `pravo search` as commander parses them. */
export interface SearchOptions extends SearchFieldOptions {
  timeout?: string;
  json?: boolean;
}

/** Runs the search; returns the exit code. @throws UsageError before sending; API errors from the client. */
export async function runSearch(factory: Factory, query: string, options: SearchOptions): Promise<number> {
  const request = buildSearchRequest(query, options);
  const timeoutMs = parseTimeout(options.timeout);
  const printer = new Printer(factory.io, options.json === true);
  const client = await factory.client();
  const target = await factory.target();
  const response = await waitWithSpinner(factory, 'Searching', () =>
    client.search.create(request, { signal: factory.signal, timeoutMs }),
  );

  // Stored before printing, so that a reader closing the pipe early cannot lose them; a failure to store them costs
  // the user `pravo doc N`, not the search they paid for.
  try {
    const { saveLastResults } = await import('../../state/last-results.js');
    await saveLastResults(factory.env, {
      saved_at: new Date(factory.clock.now()).toISOString(),
      query: request.query,
      profile: target.profile,
      sandbox: target.kind === 'sandbox',
      results: response.data.results.map((r, i) => ({ rank: i + 1, document_id: r.document_id, collection: r.collection, title: r.title ?? '' })),
    });
  } catch (error) {
    printer.note(`Warning: could not store these results for \`pravo doc N\`: ${(error as Error).message}`);
  }

  await printer.response(response, async () => (await import('../../render/search.js')).searchView);
  return 0;
}
