/**
 * `pravo search` (spec: POST /v1/search): the request checked before anything is sent, a spinner while waiting, the
 * results in the run's output form, and the last results stored for `pravo doc N`. Before sending, `--court` names
 * are resolved to codes and `--type` values checked, against the cached catalogs (`services/search/`). A search that
 * finds nothing says so, and why, on stderr (`services/search/no-results.ts`), in every output form: stdout then
 * holds only what `--json` or `--format md` print. Piped, the results that score under half of the first one's are
 * named on stderr as weak matches (the table shows them apart).
 */
import type { Factory } from '../../factory.js';
import { Printer } from '../../io/printer.js';
import { readOutputFormat } from '../../io/output-format.js';
import { absentActLine } from '../../render/fields.js';
import { waitWithSpinner } from '../../services/waiting.js';
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
    const { whyNoResults } = await import('../../services/search/no-results.js');
    printer.note(await whyNoResults(factory, request, response.data));
    // The note says it all: the table and the piped lines would add nothing (JSON and Markdown still print).
    if (printer.mode === 'table' || printer.mode === 'tsv') return 0;
  }
  const absent = absentActLine(response.data.results[0]);
  if (absent !== undefined) printer.note(absent);
  if (printer.mode === 'tsv') {
    const weak = (await import('../../render/search.js')).weakMatchNote(response.data);
    if (weak !== undefined) printer.note(weak);
  }
  await printer.response(response, async () => (await import('../../render/search.js')).searchView);
  return 0;
}
