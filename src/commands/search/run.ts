/**
 * `pravo search` (spec: POST /v1/search): the request checked before anything is sent, a spinner while waiting, the
 * results in the run's output form, and the last results stored for `pravo doc N`. Before sending, `--court` names
 * are resolved to codes and `--type` values checked, against the cached catalogs (`services/search/`). When a search
 * limited by source type, court or judge finds nothing, the (cached) source-types catalog tells whether the
 * collection has any such documents at all (see `no-match.ts`).
 */
import type { Factory } from '../../factory.js';
import { Printer } from '../../io/printer.js';
import { readOutputFormat } from '../../io/output-format.js';
import { absentActLine } from '../../render/fields.js';
import { waitWithSpinner } from '../../services/waiting.js';
import type { SearchRequest } from '../../contract/types.js';
import { CATALOG_LOOKUP_TIMEOUT_MS, cachedSourceTypes } from '../../services/catalogs.js';
import { checkedRequest } from '../../services/search/checked.js';
import type { SearchFieldOptions } from '../../services/search/request.js';

/** Options of `pravo search` as commander parses them. */
export interface SearchOptions extends SearchFieldOptions {
  timeout?: string;
  json?: boolean;
  /** `--format md`: Markdown (`render/markdown.ts`). */
  format?: string;
  /** `--out FILE`, with `--format md`: the Markdown written to FILE atomically. */
  out?: string;
}

/**
 * Runs the search; returns the exit code.
 * @throws UsageError before sending (also for `--format` and `--out`: see `readOutputFormat`); EnvironmentError before
 *   sending when `--out` cannot be written, after it when writing fails; API errors from the client.
 */
export async function runSearch(factory: Factory, query: string, options: SearchOptions): Promise<number> {
  const format = readOutputFormat(options, 'pravo search');
  if (format.out !== undefined) {
    const { checkOutputFile } = await import('../../io/output-file.js');
    await checkOutputFile(format.out, '--out');
  }
  const { request, timeoutMs } = await checkedRequest(factory, query, options);
  const printer = new Printer(factory.io, options.json === true, format);
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
      results: response.data.results.map((r, i) => ({
        rank: i + 1,
        document_id: r.document_id,
        collection: r.collection,
        title: r.title ?? '',
        ...(typeof r.url === 'string' ? { url: r.url } : {}),
        ...(typeof r.url_as_of === 'string' ? { url_as_of: r.url_as_of } : {}),
        ...(typeof r.as_of === 'string' ? { as_of: r.as_of } : {}),
        ...(typeof r.consolidated === 'boolean' ? { consolidated: r.consolidated } : {}),
      })),
    });
  } catch (error) {
    printer.note(`Warning: could not store these results for \`pravo doc N\`: ${(error as Error).message}`);
  }

  // Written before the results: on a terminal these may go through the pager, and a note on stderr while it runs
  // would land anywhere on the screen.
  if (response.data.results.length === 0) {
    const note = await explainNoMatch(factory, request);
    if (note !== undefined) printer.note(note);
  }
  const absent = absentActLine(response.data.results[0]);
  if (absent !== undefined) printer.note(absent);
  await printer.response(response, async () => (await import('../../render/search.js')).searchView);
  return 0;
}

/**
 * For a search that found nothing: whether the catalog shows that the source types it asked for (or the court
 * decisions its court or judge filter selects) hold no documents; the note to print, or `undefined`. Reads the
 * source-types catalog through the response cache (so usually sends nothing: `--type` was checked against it), and
 * only when the request names source types, courts or a judge. The search has succeeded: a catalog that fails or
 * answers in another shape adds nothing (no note, no error).
 * @throws only when the run is cancelled (Ctrl-C) meanwhile.
 */
async function explainNoMatch(factory: Factory, request: SearchRequest): Promise<string | undefined> {
  const { mayExplainNoMatch, noMatchNote } = await import('./no-match.js');
  if (!mayExplainNoMatch(request)) return undefined;
  try {
    const catalog = await cachedSourceTypes(factory, { timeoutMs: CATALOG_LOOKUP_TIMEOUT_MS });
    return noMatchNote(request, catalog.response.data);
  } catch (error) {
    if (factory.signal.aborted) throw error;
    return undefined;
  }
}
