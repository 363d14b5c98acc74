/**
 * The document filters of `POST /v1/search` (spec: POST /v1/search, request fields): selected source types, inclusive
 * `date_from`/`date_to` on the publication date, and, on documents of case-law types only, `court_ids` and
 * `judge_name` (the reporting judge or any judge of the panel, approximately: see `judges.ts`).
 */
import type { SearchRequest } from '../../contract/types.js';
import { decisionJudgeMatcher } from './judges.js';
import type { SearchMetadata } from './metadata.js';

/**
 * Which documents pass the filters, decided once per document.
 * @param selected the source types of `chooseSourceTypes`.
 * @param caseLaw the case-law types among `selected` (`court_ids` and `judge_name` apply only to their documents).
 * @returns per document rowid, 1 when the document passes, else 0 (length = `metadata.documents.length`).
 */
export function allowedDocuments(
  request: SearchRequest,
  metadata: SearchMetadata,
  selected: ReadonlySet<string>,
  caseLaw: ReadonlySet<string>,
): Uint8Array {
  const courtIds = request.court_ids && request.court_ids.length > 0 ? new Set(request.court_ids) : undefined;
  const judgeMatches = request.judge_name !== undefined ? decisionJudgeMatcher(request.judge_name) : undefined;
  const allowed = new Uint8Array(metadata.documents.length);
  for (const meta of metadata.documents) {
    if (!meta || !selected.has(meta.source_type)) continue;
    if (request.date_from !== undefined && meta.date < request.date_from) continue;
    if (request.date_to !== undefined && meta.date > request.date_to) continue;
    if (caseLaw.has(meta.source_type)) {
      if (courtIds && (meta.court_id === null || !courtIds.has(meta.court_id))) continue;
      if (judgeMatches && !judgeMatches(meta)) continue;
    }
    allowed[meta.id] = 1;
  }
  return allowed;
}
