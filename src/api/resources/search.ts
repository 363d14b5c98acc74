/** `POST /v1/search` (spec: POST /v1/search). */
import { parseSearchResponse } from '../shapes.js';
import type { ApiResponse } from '../transport.js';
import { LIMITS } from '../../contract/limits.js';
import { PATHS } from '../../contract/paths.js';
import type { SearchRequest, SearchResponse } from '../../contract/types.js';
import { Resource, type CallOptions } from './resource.js';

export class Search extends Resource {
  /**
   * Runs a search. The body is sent as given (check it first with `searchRequestProblems`; never put
   * `include_content` in it). API key; default timeout 60 s (`LIMITS.searchTimeoutMs`, spec rule 4); never retried,
   * since the server may already have run and counted it.
   * @throws AuthenticationError, InvalidRequestError, QuotaExceededError, other ApiError subclasses;
   *   MissingCredentialError, ConnectionError/TlsError (nothing sent); NetworkError, TimeoutError, CancelledError
   *   (`mayHaveBeenCounted` once sent); UnexpectedResponseError (not a search response, see `parseSearchResponse`).
   */
  create(body: SearchRequest, options: CallOptions = {}): Promise<ApiResponse<SearchResponse>> {
    return this.transport.request({
      method: 'POST',
      path: PATHS.search,
      body,
      auth: 'api_key',
      timeoutMs: options.timeoutMs ?? LIMITS.searchTimeoutMs,
      signal: options.signal,
      parse: parseSearchResponse,
    });
  }
}
