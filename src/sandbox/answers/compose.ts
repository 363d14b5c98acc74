/**
 * The sandbox's written answer (spec: Answer job, `answer` and `sources`; "Answer text in Bulgarian with citation
 * markers in square brackets"; GUIDE: "No legal content is ever invented"): whole provisions quoted verbatim from the
 * documents the search found, so that it says nothing its sources do not say.
 *
 * What is quoted ({@link composeAnswer}):
 * - documents: the first search result and at most one more ({@link MAX_DOCUMENTS} in all), in rank order; a further
 *   result only when it scores at least {@link CLOSE_RATIO} of the first's score and is not marked `weak_match`;
 * - of a document, the provision of its excerpted articles that best matches the question, and at most one more that
 *   matches nearly as well ({@link MAX_PICKS_PER_DOCUMENT}); a provision is one line of the element's text as the index
 *   serves it (one ал., т. or буква a line, `corpus/provision-lines.ts`; a decision's paragraph), quoted whole: a
 *   lead-in ending in `:` with its points (or letters), a point with its lead-in. The element's text is read from the
 *   index ({@link AnswerDocuments}); without it, the excerpt's lines that are not cut (`…`) are the provisions.
 * - amendment notes („(Изм. - ДВ, бр. 25 от 2001 г., в сила от 31.03.2001 г.)“, „(Нов - ДВ …)“, „(Отм. - …)“,
 *   „(Доп. - …)“, „(предишна т. 2 - ДВ …)“) are left out: a line is quoted as the text before, between and after them,
 *   each such piece a substring of the element's text, pieces joined by ` … ` (an excerpt's cut mark); a line that is
 *   only notes (a repealed provision) is not quoted.
 *
 * Shape of `answer` (paragraphs separated by a blank line, `\n\n`):
 * 1. the lead {@link ANSWER_LEAD} (no marker);
 * 2. one paragraph per cited document, in rank order: a block per quoted provision, best match first; a block's first
 *    line is `<title>, <чл. 330, ал. 2>: „<text>“`, each of its points on a line of its own, `т. 2: „<text>“`; the
 *    block's last quoted line ends with ` [<excerpt_id>]`; when points of the lead-in are not quoted (past
 *    {@link MAX_BLOCK_CHARS}, or others than the point chosen; repealed ones aside), a line says how many:
 *    `(Не са цитирани още 3 точки.)`.
 *
 * `sources` are the cited results in rank order, each with only its cited excerpts; a cited excerpt's `text` is what
 * the answer quotes from its element: the quoted pieces in the element's order, joined by ` … `. So every quotation of
 * the answer is a substring of the excerpt its marker names, and every piece of that excerpt occurs, in order, in the
 * element of the same `excerpt_id`: what `pravo answer --verify` checks (`legal/verify.ts`: an excerpt's pieces between
 * cut marks, in order, in one element). When nothing is quotable (or the search found nothing), the answer is
 * {@link NOTHING_FOUND_ANSWER} and `sources` is empty.
 */
import type { DocumentElement, Excerpt, SearchRequest, SearchResponse, SearchResult } from '../../contract/types.js';
import { analyzeQuery, createStemMatcher, isIndexable, stem, tokenSpans, type StemMatch } from '../text/analysis.js';

/**
 * One source of an answer: a search result as `POST /v1/search` sends it (`document_id`, `collection`, `type`,
 * `title`, `date`, `author`, `url`, `score`, `source_type` and, for court decisions, `court`, `court_id`,
 * `case_number`, `decision_number`, `reporting_judge` when the search sends them) without its `explanation` (which
 * speaks of excerpts that may not be cited), and with `excerpts` reduced to the cited ones, each with the search's
 * `excerpt_id`, `label` and `score` and, as `text`, the passages the answer quotes from it (see the module's doc).
 */
export type AnswerSource = Omit<SearchResult, 'explanation'>;

/** What {@link composeAnswer} returns: the `answer` and `sources` of a succeeded job. */
export interface ComposedAnswer {
  answer: string;
  sources: AnswerSource[];
}

/**
 * Where the composer reads the elements of a document it quotes (the index, `SearchIndex.readDocument`: the elements
 * `GET /v1/documents` sends, each `excerpt_id` the search's). `undefined` for a document it does not hold.
 */
export interface AnswerDocuments {
  readDocument(documentId: string, collection: string): { elements: readonly DocumentElement[] } | undefined;
}

/** Most documents cited in one answer. */
export const MAX_DOCUMENTS = 2;
/**
 * How close is close: a result after the first is cited only when its score is at least this share of the first's;
 * a provision after a document's best only when its match is at least this share of the best's. On the search's
 * scale (docs/sandbox.md, "The score scale") a result holding every key word of the question scores about 0.9, one
 * lacking a key word at most 0.5: 0.75 keeps the second kind away from the first.
 */
export const CLOSE_RATIO = 0.75;
/** Most provisions chosen from one document (each with its lead-in or its points). */
export const MAX_PICKS_PER_DOCUMENT = 2;
/** A line longer than this (UTF-16 code units) is quoted by its best whole sentence instead (a decision's paragraph). */
export const MAX_LINE_CHARS = 700;
/** Most characters quoted in one block: the points of a lead-in after this are left out, and the answer says so. */
export const MAX_BLOCK_CHARS = 1500;
/** Shortest sentence quoted, in UTF-16 code units (shorter ones are headings, labels, fragments). */
export const SENTENCE_MIN_CHARS = 30;
/** Longest sentence quoted, in UTF-16 code units. */
export const SENTENCE_MAX_CHARS = 300;
/** Fewest words of a sentence quoted. */
export const SENTENCE_MIN_WORDS = 4;

/** The first paragraph of an answer with sources (Bulgarian: the most relevant texts found, quoted verbatim, without the amendment notes). */
export const ANSWER_LEAD = 'Най-относимите текстове, намерени по въпроса, цитирани дословно (без бележките за изменения):';

/** The answer of a job whose search found nothing usable (Bulgarian: nothing relevant was found in the sources). */
export const NOTHING_FOUND_ANSWER =
  'В наличните източници не е намерено нищо относимо към този въпрос. Опитайте с други думи или с други типове източници.';

/** What a text is matched against: the question's stems (the search's stemming) and its pairs of adjacent words. */
interface QueryModel {
  matcher: (text: string) => StemMatch[];
  /** Stems of adjacent words of the question, `a b`, except pairs of two stopwords („може да“). */
  pairs: ReadonlySet<string>;
}

/** One line of an element's text, parsed (see {@link parseLines}). */
interface Line {
  /** 0: unnumbered (a decision's paragraph, an article without ал.); 1: ал. `(2)`; 2: т. `2.`; 3: буква `а)`. */
  level: number;
  /** Where the line stands in its element: `['ал. 2', 'т. 6']`; `[]` for an unnumbered line. */
  where: string[];
  /** What is quoted of the line: its text without numbering and amendment notes, in pieces of the element's text. `[]`: nothing. */
  pieces: string[];
}

/** A document's element (or, without one, the search's excerpt) as quotable lines. */
interface Quotable {
  excerpt: Excerpt;
  /** Position of the excerpt among the result's. */
  excerptIndex: number;
  /** The element's label as cited after the title: `чл. 330`, `§ 7`, `¶ 9`; `''` when it has none. */
  label: string;
  lines: Line[];
}

/** A provision chosen: a line of a quotable, its match. */
interface Pick {
  quotable: Quotable;
  line: number;
  score: number;
}

/** A quoted block: a line and the points (or letters) quoted under it, as indexes into the quotable's lines. */
interface Block {
  quotable: Quotable;
  head: number;
  items: number[];
  /** Order of the pick that made it (best first). */
  rank: number;
}

/**
 * Composes the answer to `request` from `response`, the search's response to the same request (spec: Answer job;
 * the rules in this module's doc). Pure and deterministic given `documents`.
 *
 * A line's match with the question: the distinct query stems it holds (the search's stemming, `text/analysis.ts`)
 * plus the pairs of adjacent question words it holds adjacent (by stem; „прекрати трудовия договор без предизвестие“
 * holds four): 0 when it holds no query stem (never quoted). Ties go to the search's order (excerpt, then line). A line
 * already quoted from an earlier document (amending acts repeat their act's text) is not quoted again.
 * @param documents the index, whose elements are quoted whole; without it (or for a document it lacks) the search's
 *   excerpts are quoted, line by line, leaving out the lines cut at either end.
 * @returns the answer and the cited sources (rank order); {@link NOTHING_FOUND_ANSWER} and `[]` when nothing is quotable.
 */
export function composeAnswer(request: SearchRequest, response: SearchResponse, documents?: AnswerDocuments): ComposedAnswer {
  const query = queryModel(request.query);
  const first = response.results[0];
  const quoted = new Set<string>();
  const cited: { result: SearchResult; blocks: Block[] }[] = [];
  for (const result of response.results) {
    if (cited.length >= MAX_DOCUMENTS) break;
    if (result !== first && !isClose(result, first!)) continue;
    const blocks = blocksOf(result, query, quoted, documents);
    if (blocks.length === 0) continue;
    for (const block of blocks) for (const i of [block.head, ...block.items]) quoted.add(quoteOf(block.quotable.lines[i]!));
    cited.push({ result, blocks });
  }
  if (cited.length === 0) return { answer: NOTHING_FOUND_ANSWER, sources: [] };
  const names = namesOf(cited.map(({ result }) => result));
  const paragraphs = cited.map(({ blocks }, i) => blocks.flatMap((block) => blockLines(names[i]!, block)).join('\n'));
  return { answer: [ANSWER_LEAD, ...paragraphs].join('\n\n'), sources: cited.map(({ result, blocks }) => sourceOf(result, blocks)) };
}

/** Whether `result` scores close to the first result (see {@link CLOSE_RATIO}) and is not a weak match. */
function isClose(result: SearchResult, first: SearchResult): boolean {
  const { score } = result;
  const best = first.score;
  if (result.weak_match === true || typeof score !== 'number' || typeof best !== 'number' || !(best > 0)) return false;
  return score >= CLOSE_RATIO * best;
}

function queryModel(query: string): QueryModel {
  return { matcher: createStemMatcher(analyzeQuery(query).terms.map((t) => t.stem)), pairs: wordPairs(query) };
}

/** The stems of adjacent words of `text`, `a b`, but pairs of two stopwords. */
function wordPairs(text: string): Set<string> {
  const words = tokenSpans(text).map((t) => t.lower);
  const pairs = new Set<string>();
  for (let i = 1; i < words.length; i++) {
    const [a, b] = [words[i - 1]!, words[i]!];
    if (isIndexable(a) || isIndexable(b)) pairs.add(`${stem(a)} ${stem(b)}`);
  }
  return pairs;
}

/** A text's match with the question (see {@link composeAnswer}); 0 when it holds no query stem. */
function matchScore(text: string, query: QueryModel): number {
  const distinct = new Set(query.matcher(text).map((m) => m.stem)).size;
  if (distinct === 0) return 0;
  let pairs = 0;
  for (const pair of wordPairs(text)) if (query.pairs.has(pair)) pairs++;
  return distinct + pairs;
}

/** What is quoted of a line: its pieces, joined by the cut mark. */
function quoteOf(line: Line): string {
  return line.pieces.join(' … ');
}

/**
 * The blocks quoted from one result: its excerpts' elements as lines, the best-matching line and at most one more
 * close to it ({@link CLOSE_RATIO}), each with its lead-in or its points; none when no line matches.
 */
function blocksOf(result: SearchResult, query: QueryModel, quoted: ReadonlySet<string>, documents: AnswerDocuments | undefined): Block[] {
  const elements = elementsOf(result, documents);
  const quotables = result.excerpts.flatMap((excerpt, excerptIndex) => {
    if (typeof excerpt.excerpt_id !== 'string') return [];
    const element = elements?.get(excerpt.excerpt_id);
    const text = typeof element?.text === 'string' ? element.text : excerpt.text;
    if (typeof text !== 'string') return [];
    const label = typeof element?.label === 'string' ? element.label : excerpt.label;
    const numbered = /^(?:Чл\.|§|Член|Параграф)/u.test(label ?? '');
    const lines = parseLines(text, numbered, query);
    if (element === undefined) {
      // An excerpt is a window of its element: the lines cut at either end are not whole provisions.
      if (text.startsWith('…')) lines[0]!.pieces = [];
      if (text.endsWith('…')) lines.at(-1)!.pieces = [];
    }
    return [{ excerpt, excerptIndex, label: citedLabel(label), lines }];
  });
  const picks: Pick[] = quotables
    .flatMap((quotable) =>
      quotable.lines.map((line, i) => {
        const text = quoteOf(line);
        return { quotable, line: i, score: text === '' || quoted.has(text) ? 0 : matchScore(text, query) };
      }),
    )
    .filter((pick) => pick.score > 0)
    .sort((a, b) => b.score - a.score || a.quotable.excerptIndex - b.quotable.excerptIndex || a.line - b.line);
  const blocks: Block[] = [];
  let taken = 0;
  for (const pick of picks) {
    if (taken >= MAX_PICKS_PER_DOCUMENT || pick.score < CLOSE_RATIO * picks[0]!.score) break;
    const covered = blocks.some((b) => b.quotable === pick.quotable && (b.head === pick.line || b.items.includes(pick.line)));
    if (covered) continue;
    const block = blockOf(pick.quotable, pick.line, taken++);
    const same = blocks.find((b) => b.quotable === block.quotable && b.head === block.head);
    if (same) same.items = [...new Set([...same.items, ...block.items])].sort((x, y) => x - y);
    else blocks.push(block);
  }
  // The element of the best pick first; within an element, in the text's order.
  const rankOf = (q: Quotable): number => Math.min(...blocks.filter((b) => b.quotable === q).map((b) => b.rank));
  return blocks.sort((a, b) => rankOf(a.quotable) - rankOf(b.quotable) || a.head - b.head);
}

/** The elements of a result's document by `excerpt_id`, when `documents` holds it. */
function elementsOf(result: SearchResult, documents: AnswerDocuments | undefined): Map<string, DocumentElement> | undefined {
  if (documents === undefined || typeof result.document_id !== 'string' || typeof result.collection !== 'string') return undefined;
  const document = documents.readDocument(result.document_id, result.collection);
  if (document === undefined) return undefined;
  const byId = new Map<string, DocumentElement>();
  for (const element of document.elements) if (typeof element.excerpt_id === 'string') byId.set(element.excerpt_id, element);
  return byId;
}

/** Whether a line introduces points or letters: its text ends with `:`. */
function isLeadIn(line: Line): boolean {
  return line.pieces.at(-1)?.endsWith(':') ?? false;
}

/** The points (or letters) under the lead-in at `head` that have text to quote (not repealed); `[]` for any other line. */
function itemsUnder(lines: readonly Line[], head: number): number[] {
  const line = lines[head]!;
  if (!isLeadIn(line)) return [];
  const items: number[] = [];
  for (let i = head + 1; i < lines.length && lines[i]!.level > Math.max(line.level, 1); i++) if (lines[i]!.pieces.length > 0) items.push(i);
  return items;
}

/**
 * The block of the line `at`: a point (or letter) with the lead-in above it, when that ends with `:`; a lead-in with its
 * points (or letters) but the repealed ones, up to {@link MAX_BLOCK_CHARS} in all; any other line alone.
 */
function blockOf(quotable: Quotable, at: number, rank: number): Block {
  const { lines } = quotable;
  const line = lines[at]!;
  if (line.level >= 2) {
    let up = at - 1;
    while (up >= 0 && lines[up]!.level >= line.level) up--;
    if (up >= 0 && lines[up]!.pieces.length > 0 && itemsUnder(lines, up).includes(at)) return { quotable, head: up, items: [at], rank };
  }
  const items: number[] = [];
  let length = quoteOf(line).length;
  for (const i of itemsUnder(lines, at)) {
    length += quoteOf(lines[i]!).length;
    if (length > MAX_BLOCK_CHARS) break;
    items.push(i);
  }
  return { quotable, head: at, items, rank };
}

/**
 * A block as lines of the answer: `<title>, <label>, <where>: „<text>“`, then each item as `<where>: „<text>“` (its
 * place below the head's), the last one followed by the marker; then how many points of the lead-in are not quoted,
 * if any (repealed ones are not counted).
 */
function blockLines(title: string, block: Block): string[] {
  const { quotable } = block;
  const head = quotable.lines[block.head]!;
  const where = [quotable.label, ...head.where].filter((part) => part !== '').join(', ');
  const out = [`${title}${where === '' ? '' : `, ${where}`}: „${quoteOf(head)}“`];
  for (const i of block.items) {
    const item = quotable.lines[i]!;
    const place = item.where.filter((part) => !head.where.includes(part)).join(', ');
    out.push(`${place === '' ? '…' : place}: „${quoteOf(item)}“`);
  }
  out[out.length - 1] += ` [${quotable.excerpt.excerpt_id}]`;
  const omitted = itemsUnder(quotable.lines, block.head).length - block.items.length;
  if (omitted > 0) {
    const letters = head.level >= 2;
    const noun = omitted === 1 ? (letters ? 'буква' : 'точка') : letters ? 'букви' : 'точки';
    out.push(omitted === 1 ? `(Не е цитирана още 1 ${noun}.)` : `(Не са цитирани още ${omitted} ${noun}.)`);
  }
  return out;
}

/**
 * The result as a source: every field but `explanation`, and only the cited excerpts, each with the quoted pieces of
 * its element as `text` (see {@link AnswerSource}).
 */
function sourceOf(result: SearchResult, blocks: readonly Block[]): AnswerSource {
  const { explanation: _explanation, ...fields } = result;
  const excerpts = result.excerpts.flatMap((excerpt) => {
    const mine = blocks.filter((b) => b.quotable.excerpt === excerpt);
    if (mine.length === 0) return [];
    const lines = [...new Set(mine.flatMap((b) => [b.head, ...b.items]))].sort((x, y) => x - y);
    const text = lines.flatMap((i) => mine[0]!.quotable.lines[i]!.pieces).join(' … ');
    return [{ ...excerpt, text }];
  });
  return { ...fields, excerpts };
}

/** A leading article label of an element's text: `Чл. 12а.`, `§ 3.`, `Член единствен.`. */
const ARTICLE_LABEL = /^(?:Чл\.\s*\d+[\p{L}\d]*\.|§\s*\d+[\p{L}\d]*\.|Член\s+единствен\.|Параграф\s+единствен\.)\s*/u;
/** The numbering opening a line: `(2)`, `(2а)` (ал.); `6.`, `6а.` (т.); `а)` (буква). */
const NUMBERING = /^(?:\((\d{1,3}[а-я]?)\)|(\d{1,3}[а-я]?)\.(?=\s)|([а-я])\)(?=\s))/u;

/**
 * The lines of an element's text (statutes: one ал., т. or буква a line), each without its numbering and amendment
 * notes ({@link notesIn}), with where it stands (`numbered`: a statute's article or §; otherwise no numbering is read).
 * A line longer than {@link MAX_LINE_CHARS} keeps only its best-matching whole sentence ({@link quotableSentences});
 * a line with square brackets (they would read as markers) keeps nothing.
 */
function parseLines(text: string, numbered: boolean, query: QueryModel): Line[] {
  let paragraph: string | undefined;
  let point: string | undefined;
  return text.split('\n').map((raw, i) => {
    let rest = i === 0 ? raw.replace(ARTICLE_LABEL, '') : raw;
    let level = 0;
    let letter: string | undefined;
    for (;;) {
      rest = rest.trimStart();
      const note = notesIn(rest)[0];
      if (note !== undefined && note[0] === 0) {
        rest = rest.slice(note[1]);
        continue;
      }
      const numbering = numbered && level === 0 ? NUMBERING.exec(rest) : null;
      if (numbering === null) break;
      rest = rest.slice(numbering[0].length);
      if (numbering[1] !== undefined) [level, paragraph, point] = [1, numbering[1], undefined];
      else if (numbering[2] !== undefined) [level, point] = [2, numbering[2]];
      else [level, letter] = [3, numbering[3]];
    }
    const where =
      level === 0
        ? []
        : [paragraph === undefined ? '' : `ал. ${paragraph}`, level >= 2 && point !== undefined ? `т. ${point}` : '', letter === undefined ? '' : `б. „${letter}“`];
    const line: Line = { level, where: where.filter((part) => part !== ''), pieces: withoutNotes(rest) };
    if (/[[\]]/u.test(rest)) line.pieces = [];
    else if (quoteOf(line).length > MAX_LINE_CHARS) line.pieces = bestSentence(line.pieces, query);
    return line;
  });
}

/** A statute's label as cited after the act's title: `Чл. 330.` → `чл. 330`, `§ 7.` → `§ 7`; `¶ 9` as it is. */
function citedLabel(label: string | undefined): string {
  const trimmed = (label ?? '').replace(/\s+/gu, ' ').replace(/[[\]]/gu, '').trim().replace(/\.$/u, '');
  return trimmed.replace(/^(?:Чл|Член|Параграф)(?=[\s.])/u, (word) => word.toLowerCase());
}

/** Where a bracketed text of a statute is an amendment note: it names the State Gazette or a КС decision. */
const NOTE_SOURCE = /(?<!\p{L})(?:ДВ|РКС)(?!\p{L})|Д\.\s?В\./u;
/** An amendment note without its gazette: „(Отм.)“, „(Отменен)“, „(Нова)“, „(Изм.)“. */
const BARE_NOTE = /^\(\s*(?:изм|доп|отм|нов|предишн|загл)\p{L}*\.?\s*\)$/iu;

/**
 * The amendment notes of a text, as `[start, end)`, in order: bracketed texts (nested brackets allowed) that begin with
 * a letter and name the State Gazette (`ДВ`, `Д. В.`) or a decision of the Constitutional Court (`РКС`), or say only
 * „Отм.“, „Нова“, „Изм.“ and the like: „(Изм. - ДВ, бр. 25 от 2001 г., в сила от 31.03.2001 г.)“, „(нова - ДВ, бр.
 * 83 от 1998 г.)“, „(отм., предишна т. 2 - ДВ, бр. 100 от 1992 г.)“, „(Отм.)“.
 */
function notesIn(text: string): [number, number][] {
  const notes: [number, number][] = [];
  for (let open = text.indexOf('('); open >= 0; open = text.indexOf('(', open + 1)) {
    let depth = 0;
    let end = -1;
    for (let j = open; j < text.length && end < 0; j++) {
      if (text[j] === '(') depth++;
      else if (text[j] === ')' && --depth === 0) end = j + 1;
    }
    if (end < 0) break;
    const bracketed = text.slice(open, end);
    if (/^\(\s*\p{L}/u.test(bracketed) && (NOTE_SOURCE.test(bracketed) || BARE_NOTE.test(bracketed))) {
      notes.push([open, end]);
      open = end - 1;
    }
  }
  return notes;
}

/** The text before, between and after its amendment notes, each trimmed; empty pieces left out. */
function withoutNotes(text: string): string[] {
  const pieces: string[] = [];
  let from = 0;
  for (const [start, end] of [...notesIn(text), [text.length, text.length] as [number, number]]) {
    const piece = text.slice(from, start).trim();
    if (piece !== '') pieces.push(piece);
    from = end;
  }
  return pieces;
}

/** The best-matching whole sentence of the pieces of a long line (else its first), as its only piece; `[]` when none is quotable. */
function bestSentence(pieces: readonly string[], query: QueryModel): string[] {
  const sentences = pieces.flatMap((piece) => quotableSentences(piece).map((s) => s.text));
  let best: { text: string; score: number } | undefined;
  for (const text of sentences) {
    const score = matchScore(text, query);
    if (best === undefined || score > best.score) best = { text, score };
  }
  return best === undefined ? [] : [best.text];
}

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

/**
 * The whole sentences of a text that may be quoted (a line too long to quote whole, or an excerpt's `text`), in text
 * order, each with its position.
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

/**
 * The titles of the cited results as they head their blocks: on one line, without square brackets (which only markers
 * may use); a title both share (two texts of one act, amending acts of one law) followed by the result's date,
 * `(от 2011-06-10)`.
 */
function namesOf(results: readonly SearchResult[]): string[] {
  const names = results.map((r) => r.title.replace(/\s+/gu, ' ').replace(/\[/gu, '(').replace(/\]/gu, ')').trim() || r.document_id);
  return names.map((name, i) => (names.indexOf(name) !== names.lastIndexOf(name) && results[i]!.date ? `${name} (от ${results[i]!.date})` : name));
}
