/**
 * The excerpt ids of the sandbox (spec: search results, `excerpts[].excerpt_id`; `GET /v1/documents`,
 * `elements[].excerpt_id`): `<document_id>:<ref>`, unique within the document.
 */
import type { CorpusElement } from './reader.js';

/**
 * The excerpt ids of a document's elements, in element order: `<document_id>:<ref>` (`act-165936:12`,
 * `act-165936:§3`), with `~2`, `~3`… for a ref repeated in the document, and `#<ordinal>` (1-based) for an element
 * without a ref.
 */
export function excerptIds(documentId: string, elements: readonly Pick<CorpusElement, 'ref'>[]): string[] {
  const used = new Set<string>();
  return elements.map((element, ordinal) => {
    const base = `${documentId}:${element.ref === '' ? `#${ordinal + 1}` : element.ref}`;
    let id = base;
    for (let n = 2; used.has(id); n++) id = `${base}~${n}`;
    used.add(id);
    return id;
  });
}
