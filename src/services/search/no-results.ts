/**
 * Why a search found nothing (spec: POST /v1/search, rule 2), as the line `render/no-results.ts` writes, with what that
 * line needs: the server's own account when the response carries one (the sandbox's `no_results_reason`), otherwise
 * the catalogs through the response cache (`catalogs.ts`, `cached-get.ts`; usually cached already: `--court` names
 * and `--type` values were looked up in them before sending). Shared by the commands that search, so that they say it
 * alike.
 */
import { PATHS } from '../../contract/paths.js';
import type { SearchRequest, SearchResponse, SourceTypesResponse } from '../../contract/types.js';
import type { Factory } from '../../factory.js';
import { noResultsReasonOf } from '../../render/fields.js';
import { noResultsLine } from '../../render/no-results.js';
import { cachedBody } from '../cached-get.js';
import { CATALOG_LOOKUP_TIMEOUT_MS, cachedSourceTypes } from '../catalogs.js';

/**
 * The line that says why `request` found nothing (`No results for „…“: …`, no trailing newline). Without the server's
 * account, reads the source-types catalog (through the cache, asking the server on a miss) when the request names
 * source types, courts or a judge, to say when a type holds no documents; and the courts catalog only as cached (a
 * `--court` name put it there), for the decisions it lists of each court: a code needs no catalog, and the note asks
 * for none. A date filter alone needs neither. The search has succeeded: a catalog that fails or answers in another
 * shape only leaves its facts out (no error).
 * @throws only when the run is cancelled (Ctrl-C) meanwhile.
 */
export async function whyNoResults(factory: Factory, request: SearchRequest, response: SearchResponse): Promise<string> {
  const reason = noResultsReasonOf(response);
  if (reason !== undefined) return noResultsLine({ request, reason });
  const hasCourts = (request.court_ids?.length ?? 0) > 0;
  const wantsTypes = (request.source_types?.length ?? 0) > 0 || hasCourts || request.judge_name !== undefined;
  const [sourceTypes, courts] = await Promise.all([
    wantsTypes ? orNothing(factory, async (): Promise<SourceTypesResponse> => (await cachedSourceTypes(factory, { timeoutMs: CATALOG_LOOKUP_TIMEOUT_MS })).response.data) : undefined,
    hasCourts ? orNothing(factory, async () => cachedBody(factory, { path: PATHS.courts, parse: (await import('../../api/shapes.js')).parseCourts })) : undefined,
  ]);
  return noResultsLine({ request, sourceTypes, courts });
}

/** What `read` gives, or `undefined` when it fails; a cancelled run still throws. */
async function orNothing<T>(factory: Factory, read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    if (factory.signal.aborted) throw error;
    return undefined;
  }
}
