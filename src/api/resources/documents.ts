/** `GET /v1/documents` (spec: GET /v1/documents). */
import { parseDocument } from '../shapes.js';
import type { ApiResponse } from '../transport.js';
import { PATHS, type DocumentResponse } from '../types.js';
import { Resource, type CallOptions } from './resource.js';

/** The pair from a search result that identifies a document. */
export interface DocumentQuery {
  document_id: string;
  /** Opaque; exactly as the search result gave it. */
  collection: string;
}

export class Documents extends Resource {
  /**
   * The full document (`elements` an array of objects when present). Both values are URL-encoded. API key. Each
   * retrieval consumes a unit of the retrieval quota, so interruptions after sending report `mayHaveBeenCounted`;
   * retried (as a GET) only on connection failures and 429/502/503/504.
   */
  retrieve(query: DocumentQuery, options: CallOptions = {}): Promise<ApiResponse<DocumentResponse>> {
    return this.transport.request({
      method: 'GET',
      path: PATHS.documents,
      query: { document_id: query.document_id, collection: query.collection },
      auth: 'api_key',
      counted: true,
      signal: options.signal,
      timeoutMs: options.timeoutMs,
      parse: parseDocument,
    });
  }
}
