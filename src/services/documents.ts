/**
 * Document retrieval through the response cache (spec: GET /v1/documents; each retrieval spends a unit of the
 * retrieval quota), shared by `pravo doc`, `pravo answer --verify` and `pravo batch --fetch-docs`: one cache key per
 * (`document_id`, `collection`) pair of the target, so a document any of them retrieved is never retrieved again
 * while fresh.
 */
import type { DocumentQuery } from '../api/resources/documents.js';
import { PATHS } from '../contract/paths.js';
import type { DocumentResponse } from '../contract/types.js';
import type { Factory } from '../factory.js';
import { cachedGet, isCached, type CachedGetResult } from './cached-get.js';
import { waitWithSpinner } from './waiting.js';

/** The cache's view of one document request: its path and query. */
function documentRequest(query: DocumentQuery): { path: string; query: Record<string, string> } {
  return { path: PATHS.documents, query: { document_id: query.document_id, collection: query.collection } };
}

/**
 * The document, from the cache when a fresh copy is there (nothing sent, no client built, no sandbox started), else
 * retrieved (one retrieval unit) and cached.
 * @param options.refresh retrieve even when cached; `timeoutMs` of the request; `spinner` a label to show while
 *   waiting (on a terminal), or none; `signal` that cancels the request (default the run's: Ctrl-C; `pravo batch`
 *   lets requests in flight finish after a first Ctrl-C, and passes none); `beforeSend`, awaited only when the document
 *   is not cached, just before the request is sent (`pravo batch` journals the retrieval there; what it throws is
 *   thrown, and nothing is sent).
 * @throws the errors of `client.documents.retrieve`; ConfigError for a bad `PRAVO_CACHE_TTL`.
 */
export async function retrieveDocument(
  factory: Factory,
  query: DocumentQuery,
  options: { refresh?: boolean; timeoutMs?: number; spinner?: string; signal?: AbortSignal | null; beforeSend?: () => Promise<void> } = {},
): Promise<CachedGetResult<DocumentResponse>> {
  const { parseDocument } = await import('../api/shapes.js');
  return cachedGet(factory, {
    ...documentRequest(query),
    refresh: options.refresh === true,
    parse: parseDocument,
    fetch: async () => {
      // Only on a miss: a cached document builds no client and starts no sandbox.
      const client = await factory.client();
      await options.beforeSend?.();
      const send = () =>
        client.documents.retrieve(
          { document_id: query.document_id, collection: query.collection },
          { signal: options.signal === undefined ? factory.signal : (options.signal ?? undefined), ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}) },
        );
      return options.spinner === undefined ? send() : waitWithSpinner(factory, options.spinner, send);
    },
  });
}

/** Whether a fresh copy of the document is cached, so that retrieving it would spend nothing. Sends nothing. */
export function isDocumentCached(factory: Factory, query: DocumentQuery): Promise<boolean> {
  return isCached(factory, { ...documentRequest(query), refresh: false });
}
