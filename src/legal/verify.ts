/**
 * Checking an answer's citations against the full documents (spec: Answer job, `sources`; GET /v1/documents, Document
 * response, `elements`): does the passage an answer cites occur in the document it comes from? Pure functions; the
 * command retrieves the documents (one retrieval unit each, spec: Quota rules) and hands them in.
 *
 * An excerpt is a window of one element's text, cut at word boundaries with `…` marking each cut (the sandbox's form;
 * the spec leaves the excerpt's content open). Both sides are compared after {@link normalizeForComparison}, so that
 * typography (quotes, dashes, white space, soft hyphens) cannot fail a faithful quotation, while one changed word
 * does.
 */
import type { DocumentElement, DocumentResponse, Excerpt } from '../contract/types.js';
import { elementTextOf, excerptTextOf } from '../render/fields.js';
import { elementsOf } from './documents.js';
import { excerptsOf, type AnswerSource, type Citation, type ResolvedAnswer } from './answer-markers.js';

/** Typographic and straight quotes: „ “ ” ‟ « » ‹ › ‘ ’ ‚ ‛ ″ ′ " '. */
const QUOTES = /[\u201e\u201c\u201d\u201f\u00ab\u00bb\u2039\u203a\u2018\u2019\u201a\u201b\u2033\u2032"']/gu;
/** Hyphens, dashes and minus: ‐ ‑ ‒ – — ― − and `-`. */
const DASHES = /[\u2010\u2011\u2012\u2013\u2014\u2015\u2212-]/gu;
/** Soft hyphen and zero-width characters (space, non-joiner, joiner, word joiner, BOM). */
const INVISIBLE = /[\u00ad\u200b\u200c\u200d\u2060\ufeff]/gu;
/** White space of any kind (JavaScript `\s`: NBSP, newlines, U+202F, U+3000…), in runs. */
const WHITE_SPACE_RUN = /\s+/gu;
/** Where an excerpt was cut: `…` or three (or more) dots. */
const CUT_MARK = /…|\.{3,}/u;

/**
 * Text as compared: Unicode NFC; soft hyphens and zero-width characters removed; typographic and straight quotes
 * (`„ “ ” « » ‘ ’ ‚ ″` and the like) → `"`; hyphens, dashes and the minus sign (`‐ ‑ ‒ – — −`, `-`) → `-`; every run of
 * white space (NBSP and newlines included) → one space; trimmed. Letter case is kept.
 */
export function normalizeForComparison(text: string): string {
  return text
    .normalize('NFC')
    .replace(INVISIBLE, '')
    .replace(QUOTES, '"')
    .replace(DASHES, '-')
    .replace(WHITE_SPACE_RUN, ' ')
    .trim();
}

/**
 * The parts of an excerpt's text between its cut marks (`…`, `...`), each normalized
 * ({@link normalizeForComparison}), empty ones dropped: `…договор е сключен … за срок…` → `['договор е сключен', 'за
 * срок']`. `[]` for an excerpt without text.
 */
export function excerptFragments(text: string): string[] {
  return text
    .split(CUT_MARK)
    .map(normalizeForComparison)
    .filter((fragment) => fragment !== '');
}

/** Why an excerpt was not found in a document. */
export type NotFoundReason = 'no_elements' | 'empty_excerpt' | 'not_found';

/** The outcome of {@link findExcerptInDocument}. */
export interface ExcerptMatch {
  found: boolean;
  /** The `excerpt_id` of the element that holds the text (when found and the element has one). */
  element_excerpt_id?: string;
  /** Why not found. */
  reason?: NotFoundReason;
  /**
   * With `not_found`: the first fragment (normalized) that occurs in no element; absent when each fragment occurs
   * somewhere but no one element holds them all in order.
   */
  missing_fragment?: string;
}

/** Normalized texts of a document's elements, computed once per document object. */
const normalizedTexts = new WeakMap<DocumentResponse, Array<{ element: DocumentElement; text: string }>>();

function normalizedElements(document: DocumentResponse): Array<{ element: DocumentElement; text: string }> {
  let texts = normalizedTexts.get(document);
  if (texts === undefined) {
    texts = elementsOf(document).map((element) => ({ element, text: normalizeForComparison(elementTextOf(element)) }));
    normalizedTexts.set(document, texts);
  }
  return texts;
}

/** Whether every fragment occurs in `text`, each after the end of the one before. */
function containsInOrder(text: string, fragments: readonly string[]): boolean {
  let from = 0;
  for (const fragment of fragments) {
    const at = text.indexOf(fragment, from);
    if (at < 0) return false;
    from = at + fragment.length;
  }
  return true;
}

/**
 * Whether an excerpt's text occurs in a document (spec: GET /v1/documents, `elements`): every fragment of
 * `excerptText` ({@link excerptFragments}) must occur, in order, in the normalized text of one element. The element
 * whose `excerpt_id` equals `excerptId` is tried first, then every element in document order. Not found: `no_elements`
 * when the document has no elements (no structured content), `empty_excerpt` when the excerpt has no text, else
 * `not_found`. Never throws; the normalized element texts are computed once per document object.
 */
export function findExcerptInDocument(excerptText: string, excerptId: string | undefined, document: DocumentResponse): ExcerptMatch {
  const fragments = excerptFragments(excerptText);
  if (fragments.length === 0) return { found: false, reason: 'empty_excerpt' };
  const elements = normalizedElements(document);
  if (elements.length === 0) return { found: false, reason: 'no_elements' };
  const cited = excerptId === undefined ? undefined : elements.find(({ element }) => element.excerpt_id === excerptId);
  const holder = [cited, ...elements].find((entry) => entry !== undefined && containsInOrder(entry.text, fragments));
  if (holder) {
    const id = holder.element.excerpt_id;
    return typeof id === 'string' ? { found: true, element_excerpt_id: id } : { found: true };
  }
  const missing = fragments.find((fragment) => !elements.some(({ text }) => text.includes(fragment)));
  return missing === undefined ? { found: false, reason: 'not_found' } : { found: false, reason: 'not_found', missing_fragment: missing };
}

/**
 * Verdict on one citation, as the JSON report names it. `verified`: every passage compared ({@link passagesCompared})
 * occurs in the document (after {@link normalizeForComparison}), or, for a document marker with no passage to
 * compare, the document was retrieved. It checks the wording only, never whether the passage answers the question.
 */
export type CitationVerdict = 'verified' | 'text_not_found' | 'document_not_retrievable' | 'unresolved_marker';

/**
 * The check of one citation: one entry of `checks` in the verification report (the JSON object `pravo answer --json
 * --verify` prints beside the job).
 */
export interface CitationCheck {
  /** The citation's number, as the answer is printed (`[1]`). */
  number: number;
  /** The id as the answer wrote it. */
  marker: string;
  verdict: CitationVerdict;
  /** The cited source's document (absent for an unresolved marker). */
  document_id?: string;
  collection?: string;
  /** The cited excerpt; for a document marker, the source's excerpt that was not found. */
  excerpt_id?: string;
  /**
   * Short, in English: what was not found, or the retrieval error; for a verified excerpt found in another element
   * than the one its `excerpt_id` names, which element holds it.
   */
  detail?: string;
}

/** Result of verifying an answer's citations: what `--json --verify` prints beside the job. */
export interface VerificationReport {
  /** Whether every check is `verified` (true when there are no checks). */
  verified: boolean;
  /** One per citation, in citation-number order. */
  checks: CitationCheck[];
  /** Document retrievals made for the checks (one retrieval-quota unit each, spec: Quota rules). */
  retrieval_units_spent: number;
  /** Documents taken from the local cache instead (no unit spent). */
  documents_from_cache: number;
}

/** A retrieved document, or why it could not be retrieved (a short English message). */
export type RetrievedDocument = DocumentResponse | { error: string };

/** Key of the documents map of {@link checkCitations}: `document_id` and `collection` joined by U+0000. */
export function documentKey(document_id: string, collection: string): string {
  return `${document_id}\u0000${collection}`;
}

/** The document a source names: its `document_id` and `collection` when both are strings. */
function documentOf(source: AnswerSource | undefined): { document_id: string; collection: string } | undefined {
  if (typeof source !== 'object' || source === null) return undefined;
  const { document_id, collection } = source;
  return typeof document_id === 'string' && typeof collection === 'string' ? { document_id, collection } : undefined;
}

/**
 * The documents to retrieve to check the citations: those of the sources that resolved citations name, distinct, in
 * citation-number order, only sources with both `document_id` and `collection` as strings (spec: GET /v1/documents:
 * the pair identifies the document). Each costs one retrieval unit unless cached.
 */
export function documentsToRetrieve(resolved: ResolvedAnswer, sources: AnswerSource[] | undefined): Array<{ document_id: string; collection: string }> {
  const seen = new Set<string>();
  const documents: Array<{ document_id: string; collection: string }> = [];
  for (const citation of resolved.citations) {
    if (!citation.resolved) continue;
    const document = documentOf(sources?.[citation.sourceIndex]);
    if (document === undefined) continue;
    const key = documentKey(document.document_id, document.collection);
    if (seen.has(key)) continue;
    seen.add(key);
    documents.push(document);
  }
  return documents;
}

/** How far a passage is quoted in a detail, in characters. */
const QUOTE_CHARS = 60;

function quoted(fragment: string): string {
  const chars = [...fragment];
  return `"${chars.length > QUOTE_CHARS ? `${chars.slice(0, QUOTE_CHARS - 1).join('').trimEnd()}…` : fragment}"`;
}

/** Detail of an excerpt that was not found. */
function notFoundDetail(excerpt: Excerpt, match: ExcerptMatch): string {
  const name = `excerpt ${excerpt.excerpt_id}`;
  switch (match.reason) {
    case 'empty_excerpt':
      return `${name} has no text to compare`;
    case 'no_elements':
      return 'the document has no elements (no structured content) to compare with';
    default:
      return match.missing_fragment !== undefined
        ? `the passage ${quoted(match.missing_fragment)} of ${name} does not occur in the document`
        : `the passages of ${name} occur in the document, but not together and in order in one element`;
  }
}

/**
 * The passages the check of a citation compares with its document ({@link checkCitations}): the cited excerpt of an
 * `excerpt_id` marker; for a `document_id` marker, the source's excerpts that no excerpt marker of the answer cites
 * (none: the check only retrieves the document). `[]` for an unresolved marker.
 */
export function passagesCompared(citation: Citation, resolved: ResolvedAnswer, sources: AnswerSource[] | undefined): Excerpt[] {
  if (!citation.resolved) return [];
  if (citation.excerpt) return [citation.excerpt];
  const source = sources?.[citation.sourceIndex];
  if (typeof source !== 'object' || source === null) return [];
  const cited = new Set(resolved.citations.flatMap((c) => (c.resolved && c.excerpt ? [c.excerpt.excerpt_id] : [])));
  return excerptsOf(source).filter((e) => !cited.has(e.excerpt_id));
}

/**
 * Checks each citation of an answer against the retrieved documents, in citation-number order:
 *
 * - a marker that names no source → `unresolved_marker`;
 * - the source's document absent from `documents`, or an `{error}` there, or a source without `document_id` and
 *   `collection` → `document_not_retrievable`, the error as `detail`;
 * - an `excerpt_id` marker → `verified` when the excerpt's text is in the document ({@link findExcerptInDocument}),
 *   else `text_not_found`;
 * - a `document_id` marker → `verified` when every excerpt the source carries that no excerpt marker of the answer
 *   cites is in the document (also when there is none: the document was retrieved), else `text_not_found` naming the
 *   first excerpt not found. An excerpt with its own marker is judged under that marker only, so a misquoted
 *   excerpt fails exactly the citation that quotes it.
 *
 * `documents` is keyed by {@link documentKey}. Never throws.
 */
export function checkCitations(
  resolved: ResolvedAnswer,
  sources: AnswerSource[] | undefined,
  documents: ReadonlyMap<string, RetrievedDocument>,
): CitationCheck[] {
  return resolved.citations.map((citation) => {
    const { number, marker } = citation;
    if (!citation.resolved) return check({ number, marker, verdict: 'unresolved_marker', detail: 'names no excerpt_id or document_id of the sources' });
    const source = sources?.[citation.sourceIndex];
    const excerpt_id = citation.excerpt?.excerpt_id;
    const pair = documentOf(source);
    if (pair === undefined) {
      return check({ number, marker, verdict: 'document_not_retrievable', excerpt_id, detail: 'the source carries no document_id and collection to retrieve' });
    }
    const cited = { number, marker, ...pair, excerpt_id };
    const document = documents.get(documentKey(pair.document_id, pair.collection));
    if (document === undefined) return check({ ...cited, verdict: 'document_not_retrievable', detail: 'the document was not retrieved' });
    if (typeof document.error === 'string') return check({ ...cited, verdict: 'document_not_retrievable', detail: document.error });

    for (const excerpt of passagesCompared(citation, resolved, sources)) {
      const match = findExcerptInDocument(excerptTextOf(excerpt), excerpt.excerpt_id, document as DocumentResponse);
      if (!match.found) return check({ ...cited, excerpt_id: excerpt.excerpt_id, verdict: 'text_not_found', detail: notFoundDetail(excerpt, match) });
      if (citation.excerpt && match.element_excerpt_id !== undefined && match.element_excerpt_id !== excerpt.excerpt_id) {
        return check({ ...cited, verdict: 'verified', detail: `found in element ${match.element_excerpt_id}, not in the element the excerpt_id names` });
      }
    }
    return check({ ...cited, verdict: 'verified' });
  });
}

/** A check with its fields in the documented order, absent ones left out (for stable JSON). */
function check(fields: { [K in keyof CitationCheck]: CitationCheck[K] | undefined } & Pick<CitationCheck, 'number' | 'marker' | 'verdict'>): CitationCheck {
  const result: CitationCheck = { number: fields.number, marker: fields.marker, verdict: fields.verdict };
  if (fields.document_id !== undefined) result.document_id = fields.document_id;
  if (fields.collection !== undefined) result.collection = fields.collection;
  if (fields.excerpt_id !== undefined) result.excerpt_id = fields.excerpt_id;
  if (fields.detail !== undefined) result.detail = fields.detail;
  return result;
}

/**
 * The verification report of an answer: the checks ({@link checkCitations}) with the retrieval cost. `verified` is
 * true when every check is `verified` (vacuously when there are none).
 */
export function verificationReport(checks: CitationCheck[], cost: { retrieval_units_spent: number; documents_from_cache: number }): VerificationReport {
  return {
    verified: checks.every((check) => check.verdict === 'verified'),
    checks,
    retrieval_units_spent: cost.retrieval_units_spent,
    documents_from_cache: cost.documents_from_cache,
  };
}

/** A verification and the resolution of the markers it was made on (whose numbers the answer is printed with). */
export interface Verification {
  report: VerificationReport;
  resolved: ResolvedAnswer;
}
