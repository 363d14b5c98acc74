/** `POST /v1/search` (spec: POST /v1/search). */
import { ERROR_CODES } from '../../contract/errors.js';
import { PATHS } from '../../contract/paths.js';
import { searchRequestProblems } from '../../contract/requests.js';
import type { SearchRequest, SearchResponse } from '../../contract/types.js';
import { HttpError } from '../http/errors.js';
import type { Route, RouteContext } from '../http/router.js';
import { quotaExceeded } from './quota.js';
import { SearchRequestError } from '../search/source-types.js';

/**
 * Validates the body (`searchRequestProblems`: 400 `invalid_request` listing every problem, nothing consumed), then
 * consumes one unit of the key's account's search quota (or of its overage; 429 `monthly_quota_exceeded` when
 * refused, see `quotaExceeded`), then searches through `deps.searcher` (on a worker thread, or on the event loop). A
 * request the search still rejects (`SearchRequestError`, also when it comes from a worker: unknown source type,
 * `court_ids` with only non-court types) gets its unit back and 400 `invalid_request`, like every other invalid
 * request; any other failure of the search (a worker that died, a searcher closed) also gives the unit back (and
 * becomes a 500).
 * @returns HTTP 200 with the search response (spec: Search response).
 * @throws HttpError 400/413/429 as above; the state store's error (busy/full → 503, see `http/errors.ts`).
 */
async function handleSearch({ body, deps, accountId }: RouteContext): Promise<SearchResponse> {
  const request = await body();
  const problems = searchRequestProblems(request);
  if (problems.length > 0) {
    throw new HttpError(400, ERROR_CODES.invalidRequest, problems.map((p) => p.message).join('; '));
  }
  const consumption = deps.state.consume(accountId, 'search');
  if (!consumption.allowed) throw quotaExceeded(consumption);
  try {
    return await deps.searcher.search(request as SearchRequest);
  } catch (error) {
    // A request rejected as invalid costs nothing, like every other invalid_request.
    deps.state.release(accountId, 'search', consumption.month);
    if (error instanceof SearchRequestError) throw new HttpError(400, error.code, error.message);
    throw error;
  }
}

/** The search route. */
export const SEARCH_ROUTES: readonly Route[] = [
  { method: 'POST', pattern: PATHS.search, auth: 'api-key', quota: 'search', status: 200, handler: handleSearch },
];
