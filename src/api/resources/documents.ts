/** `GET /v1/documents` (spec: GET /v1/documents). */
import { parseDocument } from '../shapes.js';
import type { ApiResponse } from '../transport.js';
import { PATHS } from '../../contract/paths.js';
import type { DocumentResponse } from '../../contract/types.js';
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
   * retried (as a GET) only on connection failures, 429 and 503, never after 502 or 504 (the service may have
   * handled it behind the gateway, and a retry could spend a second unit).
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
