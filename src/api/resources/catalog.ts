/** Catalogs of filter values (spec: GET /v1/catalog/source-types, /courts, /judges). API key; GETs, retried when safe. */
import { parseCourts, parseJudges, parseSourceTypes } from '../shapes.js';
import type { ApiResponse } from '../transport.js';
import { PATHS } from '../../contract/paths.js';
import type { CourtsResponse, JudgesResponse, SourceTypesResponse } from '../../contract/types.js';
import { Resource, type CallOptions } from './resource.js';

/** Query of `GET /v1/catalog/judges`. */
export interface JudgesQuery {
  /** Court name whose decisions are searched. */
  court?: string;
  /** Text to look for in judge names. */
  search?: string;
  /** Maximum number of entries (bounds and default: not shown in the spec). */
  limit?: number;
}

export class Catalog extends Resource {
  /** `GET /v1/catalog/source-types`: the supported source types (see `parseSourceTypes`). */
  sourceTypes(options: CallOptions = {}): Promise<ApiResponse<SourceTypesResponse>> {
    return this.transport.request({
      method: 'GET',
      path: PATHS.sourceTypes,
      auth: 'api_key',
      signal: options.signal,
      timeoutMs: options.timeoutMs,
      parse: parseSourceTypes,
    });
  }

  /** `GET /v1/catalog/courts`: court identifiers for `court_ids` (see `parseCourts`). */
  courts(options: CallOptions = {}): Promise<ApiResponse<CourtsResponse>> {
    return this.transport.request({
      method: 'GET',
      path: PATHS.courts,
      auth: 'api_key',
      signal: options.signal,
      timeoutMs: options.timeoutMs,
      parse: parseCourts,
    });
  }

  /** `GET /v1/catalog/judges?court=&search=&limit=`: judges seen in a court's decisions (see `parseJudges`). */
  judges(query: JudgesQuery = {}, options: CallOptions = {}): Promise<ApiResponse<JudgesResponse>> {
    return this.transport.request({
      method: 'GET',
      path: PATHS.judges,
      query: { court: query.court, search: query.search, limit: query.limit },
      auth: 'api_key',
      signal: options.signal,
      timeoutMs: options.timeoutMs,
      parse: parseJudges,
    });
  }
}
