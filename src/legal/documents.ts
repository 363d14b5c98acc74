/**
 * What kind of document a `GET /v1/documents` response is, and the ref of each element, read tolerantly (spec: Document
 * response; the field names are the sandbox's, see `DocumentResponse` in `src/contract/types.ts`). Pure functions.
 */
import type { DocumentElement, DocumentResponse } from '../contract/types.js';

/**
 * Whether the document is a court decision: it carries court fields (`court`, `court_id`, `case_number`,
 * `decision_number`, `reporting_judge` or a non-empty `judges`). Statutes carry none of them. Note that `court_id` 0
 * (the Конституционен съд) is a court.
 */
export function isCourtDecision(document: DocumentResponse): boolean {
  const nonEmpty = (value: unknown): boolean => typeof value === 'string' && value.trim() !== '';
  return (
    nonEmpty(document.court) ||
    typeof document.court_id === 'number' ||
    nonEmpty(document.case_number) ||
    nonEmpty(document.decision_number) ||
    nonEmpty(document.reporting_judge) ||
    (Array.isArray(document.judges) && document.judges.length > 0)
  );
}

/** The document's elements that are objects (a malformed entry is skipped); `[]` when it has none. */
export function elementsOf(document: DocumentResponse): DocumentElement[] {
  return Array.isArray(document.elements) ? document.elements.filter((e): e is DocumentElement => typeof e === 'object' && e !== null) : [];
}

/**
 * An element's ref: `ref` when it is a non-empty string; else the part of `excerpt_id` after its last colon, without
 * a `~N` disambiguation suffix (`act-1:4~2` → `4`); else `''`.
 */
export function elementRefOf(element: DocumentElement): string {
  if (typeof element.ref === 'string' && element.ref !== '') return element.ref;
  if (typeof element.excerpt_id === 'string') {
    const colon = element.excerpt_id.lastIndexOf(':');
    if (colon >= 0) return element.excerpt_id.slice(colon + 1).replace(/~\d+$/u, '');
  }
  return '';
}
