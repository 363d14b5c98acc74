/**
 * `pravo doc --article` and `--paragraph`: which element of a document they ask for (read before anything is sent),
 * and finding it in the retrieved document (spec: Document response, `elements`). Pure functions; the errors say what
 * the document has instead.
 */
import type { DocumentElement, DocumentResponse } from '../../contract/types.js';
import { UsageError } from '../../errors/cli.js';
import { sanitizeLine } from '../../shared/sanitize.js';
import { articleRefCandidates, parseArticleQuery, type ArticleQuery } from '../../shared/article-ref.js';
import { elementRefOf, elementsOf, isCourtDecision, refsAround } from '../../legal/documents.js';
import { plural } from '../../render/text.js';

/** One element asked for. */
export type ElementRequest =
  | { kind: 'article'; query: ArticleQuery; input: string }
  | { kind: 'paragraph'; number: number; input: string };

/**
 * The element `--article` or `--paragraph` asks for; `undefined` when neither is given.
 * `--article`: see `parseArticleQuery` (`45`, `45а`, `Чл. 45`, `чл.45`, `4~2`). `--paragraph`: a whole number from 1,
 * optionally written `¶ 3`.
 * @throws UsageError (before anything is sent) for both at once, an empty `--article`, or a `--paragraph` that is not
 *   a whole number from 1.
 */
export function parseElementRequest(options: { article?: string; paragraph?: string }): ElementRequest | undefined {
  if (options.article !== undefined && options.paragraph !== undefined) {
    throw new UsageError('Give --article or --paragraph, not both: each prints one element.');
  }
  if (options.article !== undefined) {
    const query = parseArticleQuery(options.article);
    if (!query) throw new UsageError('--article takes an article number, e.g. 45, 45а or "Чл. 45", or a § of the final provisions, e.g. "§ 12".');
    return { kind: 'article', query, input: options.article };
  }
  if (options.paragraph !== undefined) {
    const match = /^\s*(?:¶\s*)?(\d+)\.?\s*$/u.exec(options.paragraph);
    const number = match ? Number(match[1]) : NaN;
    if (!Number.isSafeInteger(number) || number < 1) {
      throw new UsageError(`--paragraph takes a paragraph number from 1, e.g. 3, not "${sanitizeLine(options.paragraph)}".`);
    }
    return { kind: 'paragraph', number, input: options.paragraph };
  }
  return undefined;
}

/** The element found, and the others that carry the same ref (a ref repeated in the document). */
export interface SelectedElement {
  element: DocumentElement;
  /** Its position in `elements`, 0-based. */
  index: number;
  /** Its ref (see `elementRefOf`). */
  ref: string;
  /** Which of the elements with this ref it is, 1-based (`4~2` → 2). */
  occurrence: number;
  /** How many elements carry this ref (1 when it is unique). */
  sameRef: number;
}

/**
 * Finds the element asked for in a retrieved document.
 *
 * - `--article R`: the elements whose ref equals R, ignoring case; when none does and R ends in Latin letters, R with
 *   those letters read as the Cyrillic ones they look like (`45a` → `45а`), then transliterated (`45b` → `45б`).
 *   `R~N` is the N-th of them in document order.
 * - `--paragraph N`: when every element's ref is a whole number (court decisions: `¶ 1`, `¶ 2`, …), the element whose
 *   ref is N; otherwise the N-th element in document order.
 *
 * @param cachedNote appended to a not-found message (e.g. that another try reads the cached copy).
 * @throws UsageError (after the request: `afterRequest`) when there is no such element, listing the nearest refs and
 *   the document's range.
 */
export function selectElement(document: DocumentResponse, request: ElementRequest, cachedNote = ''): SelectedElement {
  const elements = elementsOf(document);
  const refs = elements.map(elementRefOf);
  const noun = isCourtDecision(document) ? 'paragraph' : 'article';
  const fail = (message: string): never => {
    throw new UsageError(`${message}${cachedNote ? ` ${cachedNote}` : ''}`, { afterRequest: true });
  };
  if (elements.length === 0) fail('This document has no elements (articles or paragraphs): print it whole, without --article or --paragraph.');

  const found = (index: number, occurrence: number): SelectedElement => {
    const ref = refs[index]!;
    return { element: elements[index]!, index, ref, occurrence, sameRef: refs.filter((r) => r.toLowerCase() === ref.toLowerCase()).length };
  };

  if (request.kind === 'paragraph') {
    const numbered = refs.every((ref) => /^\d+$/u.test(ref));
    if (numbered) {
      const index = refs.findIndex((ref) => Number(ref) === request.number);
      if (index >= 0) return found(index, 1);
      const numbers = refs.map(Number);
      fail(`There is no paragraph ${request.number} in this document: it has ${plural(refs.length, 'paragraph')}, ${Math.min(...numbers)} – ${Math.max(...numbers)}.`);
    }
    if (request.number <= elements.length) {
      const index = request.number - 1;
      const ref = refs[index]!;
      const occurrence = refs.slice(0, index + 1).filter((r) => r.toLowerCase() === ref.toLowerCase()).length;
      return found(index, occurrence);
    }
    fail(`There is no element ${request.number} in this document: it has ${plural(elements.length, 'element')}, so --paragraph takes 1 to ${elements.length}.`);
  }

  const { query } = request as Extract<ElementRequest, { kind: 'article' }>;
  for (const candidate of articleRefCandidates(query.ref)) {
    const matches = refs.flatMap((ref, index) => (ref.toLowerCase() === candidate ? [index] : []));
    if (matches.length === 0) continue;
    if (query.occurrence <= matches.length) return found(matches[query.occurrence - 1]!, query.occurrence);
    const shown = sanitizeLine(refs[matches[0]!]!);
    fail(
      matches.length === 1
        ? `Only one element of this document is numbered ${shown}: print it with --article ${shown}.`
        : `Only ${matches.length} elements of this document are numbered ${shown}: --article ${shown}~1 to ${shown}~${matches.length}.`,
    );
  }
  const wanted = sanitizeLine(query.ref);
  return fail(`There is no ${noun} ${wanted} in this document. ${describeRefs(refs, articleRefCandidates(query.ref).at(-1)!, noun)}`);
}

/** "Nearby: 44, 45, 45а, 46. It has 303 articles, 1 – 303." (nearest refs in article order around `wanted`). */
function describeRefs(refs: readonly string[], wanted: string, noun: string): string {
  const count = plural(refs.length, noun);
  const { sorted, around } = refsAround(refs, wanted, { width: 3 });
  if (sorted.length === 0) {
    const others = [...new Set(refs.filter((ref) => ref !== ''))];
    return `Its elements are ${others.slice(0, 8).map(sanitizeLine).join(', ')}${others.length > 8 ? ', …' : ''} (${count}).`;
  }
  return `Nearby: ${around.map(sanitizeLine).join(', ')}. It has ${count}, ${sanitizeLine(sorted[0]!)} – ${sanitizeLine(sorted.at(-1)!)}.`;
}


/** The other elements with the same ref as `selected`, as `--article` values (`4~2`, `4~3`), for the stderr note. */
export function otherOccurrences(selected: SelectedElement): string[] {
  const ref = sanitizeLine(selected.ref);
  const others: string[] = [];
  for (let n = 1; n <= selected.sameRef; n++) if (n !== selected.occurrence) others.push(n === 1 ? ref : `${ref}~${n}`);
  return others;
}
