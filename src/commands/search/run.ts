/**
 * `pravo search` (spec: POST /v1/search): the request checked before anything is sent, a spinner while waiting, the
 * results in the run's output form, and the last results stored for `pravo doc N`. When a search limited by source
 * type, court or judge finds nothing, one `GET /v1/catalog/source-types` tells whether the collection has any such
 * documents at all (see `no-match.ts`).
 */
import type { Factory } from '../../factory.js';
import { Printer } from '../../io/printer.js';
import { waitWithSpinner } from '../shared.js';
import type { LegalResearchClient } from '../../api/client.js';
import type { SearchRequest } from '../../api/types.js';
import { buildSearchRequest, parseTimeout, type SearchFieldOptions } from './request.js';

/** Timeout of the catalog request that may explain an empty result, in milliseconds (a small, fast GET). */
const CATALOG_TIMEOUT_MS = 10_000;

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

  // Written before the results: on a terminal these may go through the pager, and a note on stderr while it runs
  // would land anywhere on the screen.
  if (response.data.results.length === 0) {
    const note = await explainNoMatch(factory, client, request);
    if (note !== undefined) printer.note(note);
  }
  await printer.response(response, async () => (await import('../../render/search.js')).searchView);
  return 0;
}

/**
 * For a search that found nothing: whether the catalog shows that the source types it asked for (or the court
 * decisions its court or judge filter selects) hold no documents; the note to print, or `undefined`. Makes one
 * `GET /v1/catalog/source-types`, and only when the request names source types, courts or a judge. The search has
 * succeeded: a catalog that fails or answers in another shape adds nothing (no note, no error).
 * @throws only when the run is cancelled (Ctrl-C) meanwhile.
 */
async function explainNoMatch(factory: Factory, client: LegalResearchClient, request: SearchRequest): Promise<string | undefined> {
  const { mayExplainNoMatch, noMatchNote } = await import('./no-match.js');
  if (!mayExplainNoMatch(request)) return undefined;
  try {
    const catalog = await client.catalog.sourceTypes({ signal: factory.signal, timeoutMs: CATALOG_TIMEOUT_MS });
    return noMatchNote(request, catalog.data);
  } catch (error) {
    if (factory.signal.aborted) throw error;
    return undefined;
  }
}
