/**
 * What kind of document a `GET /v1/documents` response is, and the ref of each element, read tolerantly (spec: Document
 * response; the field names are the sandbox's, see `DocumentResponse` in `src/contract/types.ts`). Pure functions.
 */
import type { DocumentElement, DocumentResponse } from '../contract/types.js';
import { compareArticleRefs, splitArticleRef } from '../shared/article-ref.js';

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

/**
 * A document's refs of one kind in their order in an act, and those around the place of a ref it lacks: its articles
 * (`45`, `45а`; refs that are not article numbers left out), or with `section` its §§ (`§1`, `§2а`, ordered by the
 * number after the `§`). Case is ignored in the order; each ref is listed once, as the document writes it.
 * @returns `sorted`, every such ref (`[]` when the document has none), and `around`, up to `width` of them on each
 *   side of where `wanted` would stand.
 */
export function refsAround(
  refs: readonly string[],
  wanted: string,
  options: { section?: boolean; width: number },
): { sorted: string[]; around: string[] } {
  const section = options.section === true;
  const key = (ref: string): string => (section ? ref.slice(1) : ref).toLowerCase();
  const sorted = [...new Set(refs.filter((ref) => (section ? ref.startsWith('§') : splitArticleRef(ref.toLowerCase()) !== undefined)))].sort((a, b) =>
    compareArticleRefs(key(a), key(b)),
  );
  let at = sorted.findIndex((ref) => compareArticleRefs(key(ref), key(wanted)) > 0);
  if (at < 0) at = sorted.length;
  return { sorted, around: sorted.slice(Math.max(0, at - options.width), at + options.width) };
}

/**
 * The entries of an element field that is a list of objects (sandbox: `amended_by`, `amends`, `cited_by`, `cites`,
 * `rulings`), read tolerantly: `[]` when the field is absent or not an array; entries that are not objects are skipped.
 * The values inside are unchecked (untrusted): callers check each field they read.
 */
export function elementEntries(element: DocumentElement, field: string): Record<string, unknown>[] {
  const value = element[field];
  return Array.isArray(value) ? value.filter((v): v is Record<string, unknown> => typeof v === 'object' && v !== null) : [];
}
