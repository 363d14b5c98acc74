/**
 * The citation markers of an answer (spec: Answer job, `answer` and `sources`: "each citation marker in `answer` points
 * to an `excerpt_id` or a `document_id` in this array"): where they are, which source and excerpt each names, and
 * which sources no marker names. Pure functions over the job's data; no I/O. Renderers number the markers `[1]`,
 * `[2]`… from what {@link resolveCitations} returns; the verifier (`verify.ts`) checks them against the documents.
 *
 * What counts as a marker (the spec leaves the form open):
 *
 * - A pair of square brackets with neither a newline nor another bracket inside: `[act-15535:352]`. Nested brackets
 *   are not markers as a whole (`[[x:1]]` holds the marker `[x:1]` between two literal brackets).
 * - Its content is split at `,` and `;` (with any white space around them) into ids. When every id names a source,
 *   each id is a citation: `[act-1:5; act-1:7]` becomes two citation segments in a row, which renderers print as
 *   `[1][2]`. A repeated id within one bracket is kept once.
 * - An id names a source when it equals an `excerpt_id` of some source's `excerpts` or some source's `document_id`;
 *   exactly first, then after trimming and Unicode NFC on both sides. An id that is both prefers the excerpt.
 * - When not every id names a source but each one that does not looks like an identifier (no white space; letters,
 *   digits and `_ - . : ~ # /` only; at least one digit), the bracket is still a marker: the ids that name nothing
 *   are unresolved citations, numbered like the others and kept visible (an answer must never lose a marker
 *   silently). So `[act-1:99]` with no such excerpt, or `[act-1:5, act-1:99]`, are markers.
 * - Anything else is ordinary text and left exactly as written: `[изм. – ДВ, бр. 12 от 2020 г.]`, `[sic]`,
 *   `[населено място]`, `[ЕИК]`, `[]`.
 */
import type { AnswerJob, Excerpt, SearchResult } from '../contract/types.js';

/** One source of an answer job: a search result, its fields read tolerantly (spec: Answer job, `sources`). */
export type AnswerSource = Partial<SearchResult> & Record<string, unknown>;

/** A piece of the answer: text as written, or a citation by its number (see {@link Citation}). */
export type AnswerSegment = { kind: 'text'; text: string } | { kind: 'citation'; number: number };

/** A citation that names a source of the answer. */
export interface ResolvedCitation {
  /** 1-based; distinct citations are numbered in the order they first appear in the answer. */
  number: number;
  /** The id as the answer wrote it (its first occurrence, trimmed). */
  marker: string;
  resolved: true;
  /** Index into the job's `sources`. */
  sourceIndex: number;
  /** The cited excerpt when the marker is an `excerpt_id`; absent when it is a `document_id`. */
  excerpt?: Excerpt;
}

/** A marker that names no `excerpt_id` and no `document_id` of the sources. */
export interface UnresolvedCitation {
  number: number;
  /** The id as the answer wrote it (trimmed). */
  marker: string;
  resolved: false;
}

/** One numbered citation of an answer. */
export type Citation = ResolvedCitation | UnresolvedCitation;

/** An answer with its markers resolved. */
export interface ResolvedAnswer {
  /** The answer in order: text (exactly as written, ordinary brackets included) and citations between. */
  segments: AnswerSegment[];
  /** Every distinct citation; `citations[i].number === i + 1`. */
  citations: Citation[];
  /** Indexes into `sources` of the sources no resolved citation names, ascending. */
  uncited: number[];
}

/** A bracket without newline or nested brackets: the candidate marker and its content. */
const BRACKET = /\[([^[\]\n\r]*)\]/g;

/** Where the ids of one bracket are separated. */
const ID_SEPARATOR = /\s*[,;]\s*/u;

/** What an identifier is written with; it must also hold a digit ({@link DIGIT}). */
const IDENTIFIER = /^[\p{L}\p{M}\p{N}_\-.:~#/]+$/u;
const DIGIT = /\p{Nd}/u;

/** Whether `id` looks like an identifier (see the module's rules): no white space, a digit, a restricted alphabet. */
export function looksLikeIdentifier(id: string): boolean {
  return IDENTIFIER.test(id) && DIGIT.test(id);
}

/** What an id names. */
type Target = { sourceIndex: number; excerpt?: Excerpt };

/** Lookup of ids in the sources: exact, then trimmed and NFC; an excerpt before a document. */
class SourceIds {
  readonly #excerpts = new Map<string, Target>();
  readonly #documents = new Map<string, Target>();
  readonly #looseExcerpts = new Map<string, Target>();
  readonly #looseDocuments = new Map<string, Target>();

  constructor(sources: readonly AnswerSource[]) {
    sources.forEach((source, sourceIndex) => {
      if (typeof source !== 'object' || source === null) return;
      if (typeof source.document_id === 'string') {
        setFirst(this.#documents, source.document_id, { sourceIndex });
        setFirst(this.#looseDocuments, loose(source.document_id), { sourceIndex });
      }
      for (const excerpt of excerptsOf(source)) {
        setFirst(this.#excerpts, excerpt.excerpt_id, { sourceIndex, excerpt });
        setFirst(this.#looseExcerpts, loose(excerpt.excerpt_id), { sourceIndex, excerpt });
      }
    });
  }

  find(id: string): Target | undefined {
    const l = loose(id);
    return this.#excerpts.get(id) ?? this.#documents.get(id) ?? this.#looseExcerpts.get(l) ?? this.#looseDocuments.get(l);
  }
}

function setFirst<V>(map: Map<string, V>, key: string, value: V): void {
  if (key !== '' && !map.has(key)) map.set(key, value);
}

/** An id compared loosely: trimmed, Unicode NFC. */
function loose(id: string): string {
  return id.trim().normalize('NFC');
}

/** The excerpts of a source that are objects with a string `excerpt_id`; `[]` when none. */
export function excerptsOf(source: AnswerSource): Excerpt[] {
  const excerpts = (source as { excerpts?: unknown }).excerpts;
  if (!Array.isArray(excerpts)) return [];
  return excerpts.filter((e): e is Excerpt => typeof e === 'object' && e !== null && typeof (e as Excerpt).excerpt_id === 'string');
}

/**
 * Resolves the citation markers of an answer against its sources (spec: Answer job). `answer` is the job's `answer`
 * (Bulgarian text with markers in square brackets); `sources` its `sources` (`undefined` or malformed entries are
 * tolerated: they name nothing). See the module comment for what a marker is. Citations are numbered from 1 in the
 * order of first appearance; a repeated marker (the same excerpt or document, or the same unresolved id) reuses its
 * number. Never throws.
 */
export function resolveCitations(answer: string, sources: AnswerJob['sources']): ResolvedAnswer {
  const list: readonly AnswerSource[] = Array.isArray(sources) ? sources : [];
  const ids = new SourceIds(list);
  const segments: AnswerSegment[] = [];
  const citations: Citation[] = [];
  const numbers = new Map<string, number>();
  const cited = new Set<number>();

  const numberOf = (id: string, target: Target | undefined): number => {
    const key = target
      ? `${target.sourceIndex}\u0000${target.excerpt ? `e\u0000${target.excerpt.excerpt_id}` : 'd'}`
      : `?\u0000${loose(id)}`;
    const known = numbers.get(key);
    if (known !== undefined) return known;
    const number = citations.length + 1;
    numbers.set(key, number);
    citations.push(
      target
        ? { number, marker: id, resolved: true, sourceIndex: target.sourceIndex, ...(target.excerpt ? { excerpt: target.excerpt } : {}) }
        : { number, marker: id, resolved: false },
    );
    if (target) cited.add(target.sourceIndex);
    return number;
  };

  let text = '';
  let last = 0;
  for (const match of answer.matchAll(BRACKET)) {
    const parts = markerIds(match[1] ?? '', ids);
    if (parts === undefined) continue;
    text += answer.slice(last, match.index);
    if (text !== '') segments.push({ kind: 'text', text });
    text = '';
    const inBracket = new Set<number>();
    for (const { id, target } of parts) {
      const number = numberOf(id, target);
      if (!inBracket.has(number)) segments.push({ kind: 'citation', number });
      inBracket.add(number);
    }
    last = match.index + match[0].length;
  }
  text += answer.slice(last);
  if (text !== '') segments.push({ kind: 'text', text });

  const uncited = list.map((_, i) => i).filter((i) => !cited.has(i));
  return { segments, citations, uncited };
}

/**
 * {@link resolveCitations} of a job's `answer` (empty when absent) and `sources`: the one call the renderer and the
 * verifier both make, so that the numbers printed in the answer are those of the verification's checks.
 */
export function resolvedAnswerOf(job: Pick<AnswerJob, 'answer' | 'sources'>): ResolvedAnswer {
  return resolveCitations(typeof job.answer === 'string' ? job.answer : '', job.sources);
}

/** The ids of a bracket's content with what each names, or `undefined` when the bracket is ordinary text. */
function markerIds(content: string, ids: SourceIds): Array<{ id: string; target: Target | undefined }> | undefined {
  const whole = ids.find(content);
  if (whole) return [{ id: content.trim(), target: whole }];
  const parts = content.split(ID_SEPARATOR).map((part) => part.trim());
  if (parts.some((part) => part === '')) return undefined;
  const found = parts.map((id) => ({ id, target: ids.find(id) }));
  return found.every(({ id, target }) => target !== undefined || looksLikeIdentifier(id)) ? found : undefined;
}

/** The answer's text with each citation written by `write` (e.g. `[1]`), ordinary text unchanged. */
export function answerWithCitations(resolved: ResolvedAnswer, write: (citation: Citation) => string): string {
  return resolved.segments
    .map((segment) => (segment.kind === 'text' ? segment.text : write(resolved.citations[segment.number - 1]!)))
    .join('');
}
