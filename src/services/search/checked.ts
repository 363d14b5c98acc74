/**
 * The checked search request that `pravo search` and `pravo answer` send (spec: POST /v1/search and POST /v1/answers
 * share the request fields and their rules): local checks first, then `--court` names and `--type` values against the
 * cached catalogs (`lookups.ts`, loaded only when the request names courts or source types).
 */
import type { SearchRequest } from '../../contract/types.js';
import type { Factory } from '../../factory.js';
import { parseTimeout } from '../timeout.js';
import { buildSearchRequest, courtNamesOf, searchUsageError, type SearchFieldOptions } from './request.js';

/**
 * The request to send (of `pravo search`, and of `pravo answer`, whose body has the same fields and rules), and
 * `--timeout` in ms: the options checked locally first (nothing is asked of any server for a request that is wrong
 * anyway), then `--court` names resolved and `--type` values checked against the cached catalogs, every problem
 * found reported at once.
 * @throws UsageError listing the problems (the search is not sent); as `resolveCourtNames` when the courts catalog
 *   cannot be fetched for a name.
 */
export async function checkedRequest(
  factory: Factory,
  query: string,
  options: SearchFieldOptions & { timeout?: string },
  unsent = 'The search was not sent.',
): Promise<{ request: SearchRequest; timeoutMs: number }> {
  const names = courtNamesOf(options);
  const local = buildSearchRequest(query, options, { pending: names.length > 0 });
  const timeoutMs = parseTimeout(options.timeout);
  if (names.length === 0 && (local.source_types?.length ?? 0) === 0) return { request: local, timeoutMs };
  const { resolveCourtNames, sourceTypeLookupProblems } = await import('../../services/search/lookups.js');
  const courts = names.length > 0 ? await resolveCourtNames(factory, names) : { ids: new Map<string, number>(), problems: [] };
  if (courts.problems.length > 0) {
    throw searchUsageError([...courts.problems, ...(await sourceTypeLookupProblems(factory, local))], { catalogAsked: true, unsent });
  }
  const request = names.length > 0 ? buildSearchRequest(query, options, { ids: courts.ids }) : local;
  const problems = await sourceTypeLookupProblems(factory, request);
  if (problems.length > 0) throw searchUsageError(problems, { catalogAsked: true, unsent });
  return { request, timeoutMs };
}
