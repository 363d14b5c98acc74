/**
 * The sandbox's written answer (spec: Answer job, `answer` and `sources`; "Answer text in Bulgarian with citation
 * markers in square brackets"; GUIDE: "No legal content is ever invented"): composed extractively from the excerpts of
 * a search, so that it says nothing its sources do not say.
 *
 * Shape of `answer` (paragraphs separated by a blank line, `\n\n`):
 * 1. a lead sentence in Bulgarian naming each cited act or decision by its title, each title followed by
 *    ` [<document_id>]`;
 * 2. one paragraph per cited document, in rank order: up to {@link MAX_SENTENCES_PER_DOCUMENT} sentences quoted
 *    verbatim from its excerpts, at most one per excerpt, each followed by ` [<excerpt_id>]`; at most
 *    {@link MAX_QUOTED_SENTENCES} sentences in all, from the top results.
 *
 * Every quoted sentence is a substring of the `text` of the excerpt its marker names, exactly; every marker names a
 * `document_id` or `excerpt_id` of `sources`; `sources` are the cited results only, with only the cited excerpts.
 * When no excerpt has a usable sentence (or the search found nothing), the answer is {@link NOTHING_FOUND_ANSWER} and
 * `sources` is empty.
 */
import type { Excerpt, SearchRequest, SearchResponse, SearchResult } from '../../contract/types.js';
import { analyzeQuery, createStemMatcher, type StemMatch } from '../text/analysis.js';

/**
 * One source of an answer: a search result as `POST /v1/search` sends it (`document_id`, `collection`, `type`,
 * `title`, `date`, `author`, `url`, `score`, `source_type` and, for court decisions, `court`, `court_id`,
 * `case_number`, `decision_number`, `reporting_judge` when the search sends them) without its `explanation` (which
 * speaks of excerpts that may not be cited), and with `excerpts` reduced to the cited ones, each exactly as the search
 * sent it.
 */
export type AnswerSource = Omit<SearchResult, 'explanation'>;

/** What {@link composeAnswer} returns: the `answer` and `sources` of a succeeded job. */
export interface ComposedAnswer {
  answer: string;
  sources: AnswerSource[];
}

/** Most sentences quoted in one answer. */
export const MAX_QUOTED_SENTENCES = 5;
/** Most sentences quoted from one document (each from a different excerpt). */
export const MAX_SENTENCES_PER_DOCUMENT = 2;
/** Shortest sentence quoted, in UTF-16 code units (shorter ones are headings, labels, fragments). */
export const SENTENCE_MIN_CHARS = 30;
/** Longest sentence quoted, in UTF-16 code units (an excerpt holds at most 400). */
export const SENTENCE_MAX_CHARS = 300;
/** Fewest words of a sentence quoted. */
export const SENTENCE_MIN_WORDS = 4;

/** The answer of a job whose search found nothing usable (Bulgarian: nothing relevant was found in the sources). */
export const NOTHING_FOUND_ANSWER =
  'В наличните източници не е намерено нищо относимо към този въпрос. Опитайте с други думи или с други типове източници.';

/**
 * Words written with a final period that does not end a sentence (lower case; compared to the word before a period):
 * references (чл., ал., т., б., пр., изр.), dates and gazettes (г., год., бр., стр.), titles (адв., проф., д-р),
 * places (гр., с., ул., обл.), parties as decisions shorten them (подс., обв., прок.) and common short forms. Any single letter (initials, т., г.) and any word with a period
 * inside (т.е., н.о.) counts too.
 */
const ABBREVIATIONS: ReadonlySet<string> = new Set([
  'чл', 'ал', 'пр', 'изр', 'год', 'гр', 'бр', 'стр', 'вр', 'адв', 'проф', 'доц', 'д-р', 'инж', 'ул', 'бул', 'обл',
  'общ', 'сп', 'напр', 'вкл', 'млн', 'млрд', 'хил', 'лв', 'ст', 'тел', 'разп', 'опр', 'реш', 'пост', 'прот', 'см',
  'ср', 'съотв', 'вж', 'им', 'др', 'ред', 'изм', 'доп', 'бел', 'прил', 'мин', 'кв', 'км', 'отд', 'кол', 'нар', 'пом',
  'гл', 'раз', 'подр', 'св', 'ген', 'мл', 'сл', 'пл', 'вх', 'изх', 'рег',
  // parties and offices as court decisions shorten them before a name or an initial (подс. К.)
  'подс', 'обв', 'пострад', 'прок', 'ищ', 'отв', 'осъд', 'касат', 'жалб', 'тъж', 'зам', 'пред', 'дир', 'тълк',
]);

/** Characters that may follow a sentence's final punctuation and still belong to it. */
const CLOSERS = '"”“»\')';
/** Characters that may open a sentence before its first (capital) letter. */
const OPENERS = '„"«(';

/** A sentence of an excerpt's text that may be quoted: `text` is `excerpt.slice(start, end)`. */
export interface QuotableSentence {
  start: number;
  end: number;
  text: string;
}

/** A quotable sentence chosen from one excerpt, with how well it matches the query. */
interface Candidate {
  excerpt: Excerpt;
  excerptIndex: number;
  sentence: QuotableSentence;
  /** Distinct query stems in the sentence. */
  distinct: number;
  /** Occurrences of query stems in the sentence. */
  occurrences: number;
}

/**
 * Composes the answer to `request` from `response`, the search's response to the same request (spec: Answer job;
 * the rule in this module's doc). Pure and deterministic.
 *
 * Choice: for each result in rank order, each excerpt's best quotable sentence (see {@link quotableSentences}): the one
 * with the most distinct query words (the search's stemming, `text/analysis.ts`), then the most occurrences, then the
 * first; a sentence with no query word is not chosen, nor one already quoted from another result (amending acts repeat
 * their acts' text). Of those, the document's {@link MAX_SENTENCES_PER_DOCUMENT} best, quoted in excerpt order; until
 * {@link MAX_QUOTED_SENTENCES} are quoted.
 * @returns the answer and the cited sources (rank order); {@link NOTHING_FOUND_ANSWER} and `[]` when nothing is quotable.
 */
export function composeAnswer(request: SearchRequest, response: SearchResponse): ComposedAnswer {
  const matcher = createStemMatcher(analyzeQuery(request.query).terms.map((t) => t.stem));
  const quoted = new Set<string>();
  const cited: { result: SearchResult; candidates: Candidate[] }[] = [];
  let total = 0;
  for (const result of response.results) {
    if (total >= MAX_QUOTED_SENTENCES) break;
    const candidates = result.excerpts
      .map((excerpt, excerptIndex) => bestSentence(excerpt, excerptIndex, matcher, quoted))
      .filter((c): c is Candidate => c !== undefined)
      .sort(byMatch)
      .slice(0, Math.min(MAX_SENTENCES_PER_DOCUMENT, MAX_QUOTED_SENTENCES - total))
      .sort((a, b) => a.excerptIndex - b.excerptIndex);
    if (candidates.length === 0) continue;
    for (const c of candidates) quoted.add(c.sentence.text);
    total += candidates.length;
    cited.push({ result, candidates });
  }
  if (cited.length === 0) return { answer: NOTHING_FOUND_ANSWER, sources: [] };

  const lead = leadSentence(cited.map(({ result }) => result));
  const paragraphs = cited.map(({ candidates }) =>
    candidates.map((c) => `${c.sentence.text} [${c.excerpt.excerpt_id}]`).join(' '),
  );
  const sources = cited.map(({ result, candidates }) => sourceOf(result, new Set(candidates.map((c) => c.excerpt.excerpt_id))));
  return { answer: [lead, ...paragraphs].join('\n\n'), sources };
}

/** Better match first: more distinct query words, then more occurrences, then the earlier excerpt. */
function byMatch(a: Candidate, b: Candidate): number {
  return b.distinct - a.distinct || b.occurrences - a.occurrences || a.excerptIndex - b.excerptIndex;
}

/** The excerpt's best quotable sentence with at least one query word (see {@link composeAnswer}), not in `quoted`. */
function bestSentence(
  excerpt: Excerpt,
  excerptIndex: number,
  matcher: (text: string) => StemMatch[],
  quoted: ReadonlySet<string>,
): Candidate | undefined {
  if (typeof excerpt.text !== 'string' || typeof excerpt.excerpt_id !== 'string') return undefined;
  let best: Candidate | undefined;
  for (const sentence of quotableSentences(excerpt.text)) {
    if (quoted.has(sentence.text)) continue;
    const matches = matcher(sentence.text);
    const distinct = new Set(matches.map((m) => m.stem)).size;
    if (distinct === 0) continue;
    const candidate: Candidate = { excerpt, excerptIndex, sentence, distinct, occurrences: matches.length };
    if (!best || candidate.distinct > best.distinct || (candidate.distinct === best.distinct && candidate.occurrences > best.occurrences)) {
      best = candidate;
    }
  }
  return best;
}

/**
 * The whole sentences of an excerpt's `text` that may be quoted, in text order, each with its position.
 *
 * Sentences end at a line break, or at `.`, `!` or `?` (with any closing quote or parenthesis) followed by white
 * space and a capital letter (or an opening quote or parenthesis and a capital), unless the period ends an
 * abbreviation (a single letter such as an initial, `т.`, `г.`; a word with a period inside; or one of
 * `ABBREVIATIONS`: `чл.`, `ал.`, `бр.`, `адв.`…). A sentence's leading article label (`Чл. 12.`), `§ 3.`, paragraph
 * number `(2)` or list number (`1.`, `а)`) is left out of it.
 *
 * Quotable when: not the cut piece at either end of a text that begins or ends with `…` (an excerpt is a window of
 * its article); it starts with a capital letter (or an opening quote before one) and ends with `.`, `!` or `?` (with
 * any closer), not after an abbreviation; it holds no `[`, `]` (they would read as citation markers) and no `…`;
 * its parentheses and „…“ quotes are balanced; {@link SENTENCE_MIN_CHARS} to {@link SENTENCE_MAX_CHARS} characters and
 * at least {@link SENTENCE_MIN_WORDS} words.
 */
export function quotableSentences(text: string): QuotableSentence[] {
  const spans = sentenceSpans(text);
  const usable: QuotableSentence[] = [];
  spans.forEach(([from, to], i) => {
    if (i === 0 && text.startsWith('…')) return;
    if (i === spans.length - 1 && text.endsWith('…')) return;
    const sentence = trimSentence(text, from, to);
    if (sentence && isQuotable(sentence.text, text, sentence.end)) usable.push(sentence);
  });
  return usable;
}

/** The spans `[start, end)` of `text` split into sentences by line breaks and sentence ends (see {@link quotableSentences}). */
function sentenceSpans(text: string): [number, number][] {
  const spans: [number, number][] = [];
  let lineStart = 0;
  while (lineStart <= text.length) {
    const newline = text.indexOf('\n', lineStart);
    const lineEnd = newline === -1 ? text.length : newline;
    let start = lineStart;
    for (let i = lineStart; i < lineEnd; i++) {
      if (!'.!?'.includes(text[i]!)) continue;
      let j = i + 1;
      while (j < lineEnd && CLOSERS.includes(text[j]!)) j++;
      if (j >= lineEnd || !/\s/u.test(text[j]!)) continue;
      let k = j;
      while (k < lineEnd && /\s/u.test(text[k]!)) k++;
      if (k >= lineEnd || !startsSentence(text, k)) continue;
      if (text[i] === '.' && endsAbbreviation(text, i)) continue;
      spans.push([start, j]);
      start = k;
      i = k - 1;
    }
    spans.push([start, lineEnd]);
    if (newline === -1) break;
    lineStart = newline + 1;
  }
  return spans;
}

/** Whether a sentence may start at `at`: a capital letter, or an opening quote or parenthesis before one. */
function startsSentence(text: string, at: number): boolean {
  const first = text[at] ?? '';
  if (/\p{Lu}/u.test(first)) return true;
  return OPENERS.includes(first) && /\p{Lu}/u.test(text[at + 1] ?? '');
}

/** Whether the period at `dot` ends an abbreviation (see {@link quotableSentences}). */
function endsAbbreviation(text: string, dot: number): boolean {
  let start = dot;
  while (start > 0 && /[\p{L}-]/u.test(text[start - 1]!)) start--;
  const word = text.slice(start, dot);
  if (word === '') return false;
  if ([...word].length === 1) return true;
  if (start > 0 && text[start - 1] === '.') return true;
  return ABBREVIATIONS.has(word.toLowerCase());
}

/** A leading label or number of a sentence: `Чл. 12а.`, `§ 3.`, `(2)`, `1.`, `а)`, in that order, each optional. */
const LEADING_NUMBERING = /^(?:Чл\.\s*\d+[\p{L}\d]*\.\s+)?(?:§\s*\d+[\p{L}\d]*\.\s+)?(?:\(\d+[\p{L}\d]*\)\s+)?(?:\d+[\p{L}\d]*\.\s+|\p{Ll}\)\s+)?/u;

/** The span `[from, to)` of `text` without surrounding white space and leading numbering; undefined when empty. */
function trimSentence(text: string, from: number, to: number): QuotableSentence | undefined {
  while (from < to && /\s/u.test(text[from]!)) from++;
  while (to > from && /\s/u.test(text[to - 1]!)) to--;
  const numbering = LEADING_NUMBERING.exec(text.slice(from, to))?.[0] ?? '';
  from += numbering.length;
  return from < to ? { start: from, end: to, text: text.slice(from, to) } : undefined;
}

/** Whether `sentence` (ending at `end` in `text`) may be quoted (see {@link quotableSentences}). */
function isQuotable(sentence: string, text: string, end: number): boolean {
  if (sentence.length < SENTENCE_MIN_CHARS || sentence.length > SENTENCE_MAX_CHARS) return false;
  if (/[[\]…]/u.test(sentence)) return false;
  if (!startsSentence(sentence, 0)) return false;
  let last = sentence.length - 1;
  while (last > 0 && CLOSERS.includes(sentence[last]!)) last--;
  const final = sentence[last]!;
  if (!'.!?'.includes(final)) return false;
  if (final === '.' && endsAbbreviation(text, end - (sentence.length - last))) return false;
  if (count(sentence, '(') !== count(sentence, ')') || count(sentence, '„') !== count(sentence, '“')) return false;
  return (sentence.match(/[\p{L}\p{N}]+/gu)?.length ?? 0) >= SENTENCE_MIN_WORDS;
}

function count(text: string, char: string): number {
  let n = 0;
  for (const c of text) if (c === char) n++;
  return n;
}

/** A title as it may appear in the lead: on one line, without square brackets (which only markers may use). */
function nameOf(result: SearchResult): string {
  return result.title.replace(/\s+/gu, ' ').replace(/\[/gu, '(').replace(/\]/gu, ')').trim() || result.document_id;
}

/**
 * The lead sentence: the cited acts and decisions by title, each followed by its `[document_id]`; a title that several
 * of them share (amending acts of one law) is told apart by its date, `(от 2011-06-10)`.
 */
function leadSentence(results: readonly SearchResult[]): string {
  const names = results.map(nameOf);
  const shared = (name: string): boolean => names.filter((n) => n === name).length > 1;
  const named = results.map((r, i) => `${names[i]}${shared(names[i]!) && r.date ? ` (от ${r.date})` : ''} [${r.document_id}]`);
  if (named.length === 1) return `Най-относимият източник, намерен по въпроса, е ${named[0]}.`;
  const list = `${named.slice(0, -1).join(', ')} и ${named.at(-1)}`;
  return `Най-относимите източници, намерени по въпроса, са ${list}.`;
}

/** The result as a source: every field but `explanation`, and only the cited excerpts (see {@link AnswerSource}). */
function sourceOf(result: SearchResult, cited: ReadonlySet<string>): AnswerSource {
  const { explanation: _explanation, ...fields } = result;
  return { ...fields, excerpts: result.excerpts.filter((e) => cited.has(e.excerpt_id)) };
}
