/**
 * Who runs the sandbox's searches (spec: POST /v1/search; also the search of each answer job): the routes and the
 * answer runner ask a {@link Searcher}, which either searches on the calling thread ({@link inProcessSearcher}) or
 * hands the request to a pool of worker threads (`pool.ts`), so that a long search does not hold up the server's other
 * requests.
 */
import type { SearchRequest, SearchResponse } from '../../contract/types.js';
import type { SearchIndex } from '../storage.js';
import { search } from './pipeline.js';

/** Runs searches; every implementation gives the response `search(index, request)` gives. */
export interface Searcher {
  /**
   * Runs `POST /v1/search` on the index (see `search` in `index.ts` for the semantics and the response's shape).
   * @param request a request `searchRequestProblems` found nothing wrong with.
   * @returns the search response (spec: Search response).
   * @throws (rejects with) SearchRequestError (`invalid_request`, with its `field` and message) for what the search
   *   rejects: an unknown source type, `court_ids` with only non-court types; any other Error when the search fails
   *   (the index's SQLite errors, a worker that died, a searcher closed before the search ran).
   */
  search(request: SearchRequest): Promise<SearchResponse>;
  /**
   * Stops: searches not answered yet reject, later ones too. Resolves when the searcher holds no resource any more (its
   * workers ended). Does not close the index it was given. Safe to call twice.
   */
  close(): Promise<void>;
}

/**
 * A searcher that runs each search at once on the calling thread, through the open `index` (which its owner keeps
 * and closes): `search` returns a promise already settled. For one-request sandboxes (`--sandbox`) and tests; a server
 * under load should use a pool (`createSearchPool`).
 */
export function inProcessSearcher(index: SearchIndex): Searcher {
  let closed = false;
  return {
    async search(request: SearchRequest): Promise<SearchResponse> {
      if (closed) throw new Error('the searcher is closed');
      return search(index, request);
    },
    async close(): Promise<void> {
      closed = true;
    },
  };
}
