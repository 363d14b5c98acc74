/**
 * The sandbox's `POST /v1/search` (spec: POST /v1/search, Search result, Search response): multi-stage ranking over the
 * index of `index-db.ts`.
 *
 * 1. Analysis: the query's distinct stems with the words typed for them (`analyzeQuery`); none left → 0 results.
 * 2. Candidates: per stem, the BM25 score of every matching article (FTS5 `MATCH '"stem"'`, `bm25()`); BM25 is a
 *    sum over query terms, so the per-stem scores add up to exactly the score of the OR of all stems, and also tell
 *    which stems each article matched. Articles of documents outside the filters (source types, dates, courts,
 *    judge) are dropped; the best `MAX_CANDIDATE_ARTICLES` remain.
 * 3. Documents: candidates grouped by document and scored from their articles (see `scoreDocuments`).
 * 4. Excerpts: up to 3 of the document's best articles (only those close to its best one), each cut to a passage of
 *    at most `EXCERPT_MAX_CHARS` around the densest run of matched words.
 * 5. Explanation: a short Bulgarian sentence naming the matched words as typed and the excerpted articles.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import {
  isCourtSourceType,
  KNOWN_SOURCE_TYPES,
  LIMITS,
  type Excerpt,
  type SearchRequest,
  type SearchResponse,
  type SearchResult,
  type SourceTypeEntry,
} from '../api/types.js';
import type { SearchIndex } from './index-db.js';
import { analyze, analyzeQuery, createStemMatcher, type AnalyzedQuery, type QueryTerm, type StemMatch } from './text.js';

/** Maximum length of an excerpt's `text`, in UTF-16 code units, "…" marks included. */
export const EXCERPT_MAX_CHARS = 400;
/** Share of an article an excerpt may hold when the excerpts would otherwise be the whole document. */
export const EXCERPT_SHARE_OF_SHORT_DOCUMENT = 0.6;
/** Maximum number of excerpts per result. */
export const MAX_EXCERPTS = 3;
/** An article becomes a further excerpt only when its score is at least this fraction of the document's best. */
export const EXCERPT_MIN_RELATIVE_SCORE = 0.5;
/** Candidate articles kept after stage 2 (best BM25 first); bounds the work of the later stages. */
export const MAX_CANDIDATE_ARTICLES = 3000;

/** A request the contract allows syntactically but the service rejects (spec: Errors, `invalid_request`). */
export class SearchRequestError extends Error {
  readonly code = 'invalid_request';
  /** The request field concerned. */
  readonly field: keyof SearchRequest;

  constructor(field: keyof SearchRequest, message: string) {
    super(message);
    this.name = 'SearchRequestError';
    this.field = field;
  }
}

/**
 * Words whose stems mark a question about case law (court decisions). Matched by stem after the same analysis as the
 * query, so their inflected forms with the same stem count too. "ВАС" is a stopword ("вас", "you"), so it is matched
 * separately, on the query's tokens, only when typed in capitals.
 */
const CASE_LAW_WORDS = [
  'решение', 'решения', 'решението', 'решенията',
  'съд', 'съда', 'съдът', 'съдилища', 'съдилищата', 'съдебен', 'съдебна', 'съдебно', 'съдебни', 'съдебната',
  'съдия', 'съдии', 'съдията', 'съдиите',
  'дело', 'делото', 'дела', 'делата',
  'касация', 'касацията', 'касационен', 'касационна', 'касационно', 'касационни', 'касационната',
  'вкс', 'практика', 'практиката',
  'определение', 'определения', 'определението',
  'тълкувателно', 'тълкувателни',
];
const CASE_LAW_STEMS: ReadonlySet<string> = new Set(CASE_LAW_WORDS.flatMap((w) => analyze(w)));
const CASE_LAW_UPPERCASE_TOKENS: ReadonlySet<string> = new Set(['ВАС', 'ВКС']);

/** Whether the analyzed query uses case-law vocabulary (see `chooseSourceTypes`). */
export function isCaseLawQuery(analyzed: AnalyzedQuery): boolean {
  return (
    analyzed.terms.some((t) => CASE_LAW_STEMS.has(t.stem)) ||
    analyzed.tokens.some((t) => CASE_LAW_UPPERCASE_TOKENS.has(t))
  );
}

/** Whether a source type holds court decisions: the catalog's `case_law`, else `isCourtSourceType` (spec names). */
function isCaseLawType(sourceType: string, available: readonly SourceTypeEntry[]): boolean {
  const entry = available.find((e) => e.id === sourceType);
  return entry ? entry.case_law : isCourtSourceType(sourceType) === true;
}

/**
 * The source types a search covers (spec: POST /v1/search, `source_types`: "When omitted, the service chooses types
 * by the question").
 *
 * Rule (sandbox):
 * - `source_types` given (non-empty): exactly those types, duplicates removed. Each must be listed by
 *   `GET /v1/catalog/source-types` or be one the spec names (`bulgarian_laws_regulations`, `high_courts_cases`, which
 *   then simply match nothing when the corpus has none); any other value is `invalid_request`.
 * - `source_types` omitted or empty, the service chooses, from the types present in the corpus:
 *   1. `court_ids` or `judge_name` given → the case-law types (those whose catalog entry has `case_law: true`);
 *   2. otherwise, when the query uses case-law vocabulary — a word with the stem of решение/решения, съд/съдът,
 *      съдилища, съдебен/съдебна…, съдия/съдии, дело/дела, касация, касационен…, ВКС, практика, определение/
 *      определения, тълкувателно, or the abbreviation „ВАС“ in capitals — → `bulgarian_laws_regulations` plus the
 *      case-law types;
 *   3. otherwise → `bulgarian_laws_regulations`;
 *   and when the chosen set would be empty in step 2 or 3 (e.g. a corpus without laws), every type present.
 * - `court_ids` (non-empty) when no selected type is a case-law type (explicit or automatic, including a corpus with
 *   no case law at all) is `invalid_request` (spec rule 1).
 *
 * @param request the validated request (`searchRequestProblems` found nothing).
 * @param analyzedQuery `analyzeQuery(request.query)`.
 * @param availableTypes the corpus's catalog (`SearchIndex.sourceTypes()`).
 * @returns the selected source type ids, in the order given (explicit) or catalog order (automatic); may be empty in
 *   case 1 when the corpus has no case law and only `judge_name` is given.
 * @throws SearchRequestError (`invalid_request`) for an unknown source type or `court_ids` with only non-court types.
 */
export function chooseSourceTypes(
  request: SearchRequest,
  analyzedQuery: AnalyzedQuery,
  availableTypes: readonly SourceTypeEntry[],
): string[] {
  const known = new Set<string>([...availableTypes.map((e) => e.id), ...Object.values(KNOWN_SOURCE_TYPES)]);
  const courtIdsGiven = (request.court_ids?.length ?? 0) > 0;
  let selected: string[];
  if (request.source_types && request.source_types.length > 0) {
    selected = [...new Set(request.source_types)];
    const unknown = selected.filter((t) => !known.has(t));
    if (unknown.length > 0) {
      const list = unknown.map((t) => `"${t}"`).join(', ');
      throw new SearchRequestError(
        'source_types',
        `unknown source type${unknown.length > 1 ? 's' : ''} ${list}; the allowed values are listed by GET /v1/catalog/source-types`,
      );
    }
  } else {
    const present = availableTypes.filter((e) => e.document_count > 0);
    const caseLaw = present.filter((e) => e.case_law).map((e) => e.id);
    const laws = present.some((e) => e.id === KNOWN_SOURCE_TYPES.laws) ? [KNOWN_SOURCE_TYPES.laws] : [];
    if (courtIdsGiven || request.judge_name !== undefined) {
      selected = caseLaw;
    } else {
      selected = isCaseLawQuery(analyzedQuery) ? [...laws, ...caseLaw] : laws;
      if (selected.length === 0) selected = present.map((e) => e.id);
    }
  }
  if (courtIdsGiven && !selected.some((t) => isCaseLawType(t, availableTypes))) {
    throw new SearchRequestError(
      'court_ids',
      selected.length === 0
        ? 'court_ids applies only to case-law sources, and this collection has no case-law source types (see GET /v1/catalog/source-types)'
        : `court_ids applies only to case-law sources, and every selected source type (${selected.join(', ')}) is a non-court source`,
    );
  }
  return selected;
}

// ---------------------------------------------------------------------------------------------------------------------
// Per-index cache of document metadata (small: one row per document, one number per article).

interface DocumentMeta {
  id: number;
  document_id: string;
  collection: string;
  source_type: string;
  type: string;
  title: string;
  date: string;
  author: string | null;
  url: string | null;
  court_id: number | null;
  court: string | null;
  decision_number: string | null;
  case_number: string | null;
  reporting_judge: string | null;
  titleStems: Set<string>;
  /** An act that only amends, supplements or repeals other acts (see `documentPrior`). */
  amending: boolean;
  /** For an amending act: rowids of the corpus's documents it amends, recognised by title (see `documentPrior`). */
  amends: number[];
  /** Normalized name tokens of `reporting_judge`, computed on first use. */
  judgeTokens?: string[];
  /** Number of articles (elements) of the document. */
  articleCount: number;
}

interface IndexCache {
  /** By documents rowid. */
  documents: (DocumentMeta | undefined)[];
  /** Document rowid of each article, by article id. */
  articleDocument: Int32Array;
  articleCount: number;
  sourceTypes: SourceTypeEntry[];
  ftsStatement: StatementSync;
  articleStatement: StatementSync;
}

const caches = new WeakMap<SearchIndex, IndexCache>();

/**
 * Titles of acts that only change other acts: "Закон за изменение (и допълнение) на …", "Закон за допълнение на …",
 * "Закон за отмяна на …" (the corpus's most numerous kind). The first group after "на" is the amended act's title
 * (in the definite form: "на Закона за …", "на Кодекса за …").
 */
const AMENDING_TITLE =
  /^\s*(?:закон|кодекс)\s+за\s+(?:изменени[ея]|допълнени[ея]|отмяна|отменяне)(?!\p{L})(?:\s+и\s+(?:изменени[ея]|допълнени[ея]))?(?:\s+на\s+(.+))?$/iu;

function loadCache(index: SearchIndex): IndexCache {
  const cached = caches.get(index);
  if (cached) return cached;
  const db: DatabaseSync = index.db;
  const rows = db
    .prepare(
      `SELECT id, document_id, collection, source_type, type, title, date, author, url, court_id, court,
         decision_number, case_number, reporting_judge, title_stems FROM documents`,
    )
    .all() as unknown as (Omit<DocumentMeta, 'titleStems' | 'amending'> & { title_stems: string })[];
  const documents: (DocumentMeta | undefined)[] = [];
  // Primary acts by their analyzed title, to find what an amending act amends: "… на Закона за обществените поръчки"
  // and "Закон за обществените поръчки" analyze to the same stems.
  const primaryByTitle = new Map<string, number[]>();
  const amendedTitles = new Map<number, string>();
  for (const { title_stems, ...row } of rows) {
    const amending = AMENDING_TITLE.exec(row.title);
    documents[row.id] = {
      ...row,
      titleStems: new Set(title_stems.split(' ').filter((s) => s !== '')),
      amending: amending !== null,
      amends: [],
      articleCount: 0,
    };
    if (amending === null) {
      const list = primaryByTitle.get(title_stems);
      if (list) list.push(row.id);
      else primaryByTitle.set(title_stems, [row.id]);
    } else if (amending[1] !== undefined) {
      amendedTitles.set(row.id, analyze(amending[1]).join(' '));
    }
  }
  for (const [id, amended] of amendedTitles) {
    const meta = documents[id];
    if (meta) meta.amends = primaryByTitle.get(amended) ?? [];
  }
  const maxArticle = (db.prepare('SELECT COALESCE(MAX(id), 0) AS n FROM articles').get() as { n: number }).n;
  const articleDocument = new Int32Array(maxArticle + 1);
  const articleRows = db.prepare('SELECT id, doc FROM articles');
  articleRows.setReturnArrays(true);
  for (const [article, doc] of articleRows.iterate() as Iterable<[number, number]>) {
    articleDocument[article] = doc;
    const meta = documents[doc];
    if (meta) meta.articleCount++;
  }
  const ftsStatement = db.prepare('SELECT rowid, bm25(fts) FROM fts WHERE fts MATCH ?');
  ftsStatement.setReturnArrays(true);
  const cache: IndexCache = {
    documents,
    articleDocument,
    articleCount: index.articleCount,
    sourceTypes: index.sourceTypes(),
    ftsStatement,
    articleStatement: db.prepare('SELECT id, ordinal, label, text, excerpt_id FROM articles WHERE id = ?'),
  };
  caches.set(index, cache);
  return cache;
}

/**
 * Loads the per-index metadata `search` keeps in memory (document metadata, article → document map; about 0.1 s on
 * the full corpus), so that the first search is as fast as the others. Optional: `search` does it on first use.
 */
export function prepareSearch(index: SearchIndex): void {
  loadCache(index);
}

// ---------------------------------------------------------------------------------------------------------------------
// Judge names.

/** Lowercased letter runs of a name ("Иван П. Иванов" → иван, п, иванов). */
function nameTokens(name: string): string[] {
  return (name.toLowerCase().match(/\p{L}+/gu) ?? []).map((t) => t.replace(/ѝ/g, 'и'));
}

/** Levenshtein distance, stopping early once it exceeds `limit`. */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length] ?? limit + 1;
}

/**
 * Whether a reporting judge's name matches the requested `judge_name` (spec: "case-insensitive, approximate match").
 * Every name token of the request must match some token of the judge's name: equal or a prefix of it (so initials
 * and shortened names match: "И. Петров" ↔ "Иван Петров Петров"), or, for tokens of 4+ letters, within edit distance 1
 * (2 from 8 letters), so "Иванова" ↔ "Иванов" and small typos match. Case and punctuation are ignored.
 */
export function judgeNameMatches(requested: string, reportingJudge: string): boolean {
  return judgeTokensMatch(nameTokens(requested), nameTokens(reportingJudge));
}

function judgeTokensMatch(wanted: readonly string[], judge: readonly string[]): boolean {
  if (wanted.length === 0) return false;
  return wanted.every((w) =>
    judge.some((j) => j.startsWith(w) || (w.length >= 4 && editDistance(w, j, w.length >= 8 ? 2 : 1) <= (w.length >= 8 ? 2 : 1))),
  );
}

// ---------------------------------------------------------------------------------------------------------------------
// Ranking.

/** One candidate article after stage 2. */
interface ArticleHit {
  article: number;
  document: number;
  /** BM25 (FTS5, positive: larger is better) summed over the matched query stems. */
  bm25: number;
  /** Indexes (into the query's terms) of the stems the article contains. */
  terms: number[];
  /** `bm25` adjusted by the IDF-weighted share of query stems matched (see `articleScore`). */
  score: number;
}

/** A scored document after stage 3, with its articles best first. */
interface DocumentHit {
  meta: DocumentMeta;
  articles: ArticleHit[];
  score: number;
  /** Indexes of the query terms found in the document's articles. */
  termsInArticles: Set<number>;
  /** Indexes of the query terms found in the title. */
  termsInTitle: Set<number>;
}

/**
 * IDF of a term over articles (BM25's, floored at a small positive value): how much a match on it tells.
 * `n` = articles containing the term, `total` = all articles.
 */
function idf(n: number, total: number): number {
  return Math.max(0.05, Math.log(1 + (total - n + 0.5) / (n + 0.5)));
}

/**
 * Article score: BM25 times a coverage factor `0.5 + 0.5 × c`, where `c` is the IDF-weighted share of the query's
 * stems the article contains. BM25 alone lets one frequent, heavily repeated term outweigh an article that contains
 * all of the question's terms; the factor halves the score of an article that matches only a small, common part of
 * the question.
 */
function articleScore(bm25: number, coverage: number): number {
  return bm25 * (0.5 + 0.5 * coverage);
}

/**
 * Prior of a document by kind. Amending acts ("Закон за изменение и допълнение на …") are most of the corpus and
 * repeat the vocabulary of the act they change, often in one very long article; when the amended act itself is in the
 * collection (and passes the filters), it is the better answer, so the amending act gets `AMENDED_ACT_PRESENT_PRIOR`.
 * When it is not (the corpus has many amending acts of codes it does not hold, e.g. Кодекс на труда), the amending
 * act is the best proxy for it and is not demoted beyond `AMENDING_PRIOR`. Checked on the real corpus: a flat
 * demotion of every amending act pushed the ЗИД of the VAT act and of the labour code below unrelated acts for VAT
 * and labour questions; without any, ЗИД of the insurance code came close to Кодекс за застраховането.
 */
function documentPrior(meta: DocumentMeta, allowed: Uint8Array): number {
  if (!meta.amending) return 1;
  return meta.amends.some((id) => allowed[id] === 1) ? AMENDED_ACT_PRESENT_PRIOR : AMENDING_PRIOR;
}
const AMENDED_ACT_PRESENT_PRIOR = 0.6;
const AMENDING_PRIOR = 0.9;
const TITLE_WEIGHT = 1;

/**
 * Stage 3: document score =
 *   (s₁ + ½·s₂ + ¼·s₃ + … over its best 8 articles, s = article score)  — best article plus a decaying bonus
 *   × (0.4 + 0.6 × coverage of the query's stems by the whole document, articles and title, IDF-weighted)
 *   × (1 + 0.5 × IDF-weighted share of the query's stems found in the title)
 *   × `documentPrior`.
 * The decay lets a document with several relevant articles win over one with a single long one without letting the
 * longest documents win by volume; coverage prefers documents answering the whole question.
 */
function scoreDocuments(
  hits: ArticleHit[],
  cache: IndexCache,
  terms: readonly QueryTerm[],
  weights: readonly number[],
  allowed: Uint8Array,
): DocumentHit[] {
  const totalWeight = weights.reduce((a, b) => a + b, 0) || 1;
  const byDocument = new Map<number, DocumentHit>();
  for (const hit of hits) {
    let doc = byDocument.get(hit.document);
    if (!doc) {
      const meta = cache.documents[hit.document];
      if (!meta) continue;
      const termsInTitle = new Set<number>();
      terms.forEach((t, i) => {
        if (meta.titleStems.has(t.stem)) termsInTitle.add(i);
      });
      doc = { meta, articles: [], score: 0, termsInArticles: new Set(), termsInTitle };
      byDocument.set(hit.document, doc);
    }
    doc.articles.push(hit);
    for (const t of hit.terms) doc.termsInArticles.add(t);
  }
  const documents = [...byDocument.values()];
  for (const doc of documents) {
    doc.articles.sort((a, b) => b.score - a.score || a.article - b.article);
    let base = 0;
    let factor = 1;
    for (const a of doc.articles.slice(0, 8)) {
      base += factor * a.score;
      factor /= 2;
    }
    let covered = 0;
    let inTitle = 0;
    weights.forEach((w, i) => {
      if (doc.termsInArticles.has(i) || doc.termsInTitle.has(i)) covered += w;
      if (doc.termsInTitle.has(i)) inTitle += w;
    });
    doc.score =
      base * (0.4 + 0.6 * (covered / totalWeight)) * (1 + TITLE_WEIGHT * (inTitle / totalWeight)) * documentPrior(doc.meta, allowed);
  }
  documents.sort(
    (a, b) => b.score - a.score || (a.meta.document_id < b.meta.document_id ? -1 : a.meta.document_id > b.meta.document_id ? 1 : 0),
  );
  return documents;
}

// ---------------------------------------------------------------------------------------------------------------------
// Excerpts and explanation.

/**
 * A passage of `text` of at most `maxChars` UTF-16 code units centred on the densest run of matched words (found by
 * `matcher`, see `createStemMatcher`): the span holding the most distinct matched stems (then the most matched words)
 * that fits the limit. Cut at word boundaries; "…" marks each cut. The whole text when it fits.
 */
export function excerptPassage(
  text: string,
  matcher: (text: string) => StemMatch[],
  maxChars = EXCERPT_MAX_CHARS,
): string {
  if (text.length <= maxChars) return text;
  const budget = maxChars - 2; // room for "…" at both ends
  const matches = matcher(text);
  let runStart = 0;
  let runEnd = 0;
  if (matches.length > 0) {
    // Two pointers over the matches: the window [i, j] of matches spanning at most `budget` with the best value.
    let best = -1;
    const counts = new Map<string, number>();
    let j = 0;
    for (let i = 0; i < matches.length; i++) {
      const first = matches[i]!;
      while (j < matches.length && matches[j]!.end - first.start <= budget) {
        const s = matches[j]!.stem;
        counts.set(s, (counts.get(s) ?? 0) + 1);
        j++;
      }
      const value = counts.size * 1000 + (j - i);
      if (value > best && j > i) {
        best = value;
        runStart = first.start;
        runEnd = matches[j - 1]!.end;
      }
      const s = first.stem;
      const c = (counts.get(s) ?? 1) - 1;
      if (c <= 0) counts.delete(s);
      else counts.set(s, c);
      if (j === i) j++;
    }
    if (best < 0) {
      runStart = matches[0]!.start;
      runEnd = Math.min(text.length, runStart + budget);
    }
  }
  // Centre the run in the budget, then shift into the text.
  const slack = budget - (runEnd - runStart);
  let start = Math.max(0, runStart - Math.floor(slack / 2));
  let end = Math.min(text.length, start + budget);
  start = Math.max(0, end - budget);
  // Snap to word boundaries (never cutting inside a word).
  if (start > 0 && !/\s/u.test(text[start - 1] ?? '')) {
    const next = text.slice(start).search(/\s/u);
    if (next >= 0 && start + next < runStart) start += next + 1;
  }
  if (end < text.length && !/\s/u.test(text[end] ?? '')) {
    const lastSpace = text.slice(start, end).search(/\s\S*$/u);
    if (lastSpace > 0 && start + lastSpace >= runEnd) end = start + lastSpace;
  }
  const body = text.slice(start, end).trim();
  return (start > 0 ? '…' : '') + body + (end < text.length ? '…' : '');
}

/** "с" or "със" before a word (Bulgarian: "със" before с/з). */
function withPreposition(word: string): string {
  return /^[„"]?[сзСЗ]/u.test(word) ? 'със' : 'с';
}

/** Bulgarian enumeration: "a", "a и b", "a, b и c". */
function enumerate(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} и ${items[items.length - 1]}`;
}

/** At most this many words are named in an explanation (long queries). */
const EXPLANATION_MAX_WORDS = 8;

function quoteWords(terms: readonly QueryTerm[]): string[] {
  const words = terms.flatMap((t) => t.surfaces).map((w) => `„${w}“`);
  return words.length > EXPLANATION_MAX_WORDS ? [...words.slice(0, EXPLANATION_MAX_WORDS), 'др.'] : words;
}

/**
 * The explanation of a result, in Bulgarian, e.g. `Съвпадение с „застрахователят“ и „обезщетение“ в Чл. 405 и
 * Чл. 408.`, followed, when applicable, by `Заглавието съвпада с „…“.` and `Няма съвпадение за „…“.` (query words
 * found nowhere in the document).
 */
function explain(
  doc: DocumentHit,
  excerpted: readonly ArticleHit[],
  labels: readonly string[],
  terms: readonly QueryTerm[],
): string {
  const inExcerpts = new Set(excerpted.flatMap((a) => a.terms));
  const parts: string[] = [];
  const excerptTerms = terms.filter((_, i) => inExcerpts.has(i));
  if (excerptTerms.length > 0) {
    const words = quoteWords(excerptTerms);
    // Labels without their final period ("Чл. 405." → "Чл. 405"), each once (a ref can repeat within a document).
    const where = [...new Set(labels.map((l) => l.trim().replace(/\.$/u, '')).filter((l) => l !== ''))];
    parts.push(
      `Съвпадение ${withPreposition(words[0] ?? '')} ${enumerate(words)}${where.length > 0 ? ` в ${enumerate(where)}` : ''}.`,
    );
  }
  const titleTerms = terms.filter((_, i) => doc.termsInTitle.has(i));
  if (titleTerms.length > 0) {
    const words = quoteWords(titleTerms);
    parts.push(`Заглавието съвпада ${withPreposition(words[0] ?? '')} ${enumerate(words)}.`);
  }
  const missing = terms.filter((_, i) => !doc.termsInArticles.has(i) && !doc.termsInTitle.has(i));
  if (missing.length > 0) parts.push(`Няма съвпадение за ${enumerate(quoteWords(missing))}.`);
  return parts.join(' ');
}

function round4(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

// ---------------------------------------------------------------------------------------------------------------------

/**
 * Runs `POST /v1/search` on the index (spec: POST /v1/search; result shape: Search result, Search response).
 *
 * The request must already be valid (`searchRequestProblems` found nothing); this applies the semantics:
 * source-type selection (`chooseSourceTypes`), inclusive `date_from`/`date_to` on the publication `date`,
 * `court_ids` and `judge_name` (`judgeNameMatches`) on documents of case-law types (documents of explicitly selected
 * non-court types are not affected by them), `max_results` (default 20).
 *
 * Results: ranked by score, ties by `document_id`; `score` relative to the best result (best = 1, 4 decimals, > 0);
 * each result's `excerpts` (≤ 3; `score` relative to the best excerpt of the response; `text` ≤ 400 characters) and a
 * Bulgarian `explanation`; court fields only for documents of case-law types. Never the full document or `elements`.
 * A query with no indexable words (only stopwords) or no matches gives `result_count` 0 and `results` [].
 *
 * @throws SearchRequestError (`invalid_request`) for an unknown source type or `court_ids` with only non-court types.
 */
export function search(index: SearchIndex, request: SearchRequest): SearchResponse {
  const cache = loadCache(index);
  const analyzed = analyzeQuery(request.query);
  const selected = new Set(chooseSourceTypes(request, analyzed, cache.sourceTypes));
  const empty: SearchResponse = { query: request.query, result_count: 0, results: [] };
  const terms = analyzed.terms;
  if (terms.length === 0 || selected.size === 0) return empty;

  // Filters, decided once per document.
  const caseLaw = new Set([...selected].filter((t) => isCaseLawType(t, cache.sourceTypes)));
  const courtIds = request.court_ids && request.court_ids.length > 0 ? new Set(request.court_ids) : undefined;
  const judgeWanted = request.judge_name !== undefined ? nameTokens(request.judge_name) : undefined;
  const allowed = new Uint8Array(cache.documents.length);
  for (const meta of cache.documents) {
    if (!meta || !selected.has(meta.source_type)) continue;
    if (request.date_from !== undefined && meta.date < request.date_from) continue;
    if (request.date_to !== undefined && meta.date > request.date_to) continue;
    if (caseLaw.has(meta.source_type)) {
      if (courtIds && (meta.court_id === null || !courtIds.has(meta.court_id))) continue;
      if (judgeWanted) {
        if (meta.reporting_judge === null) continue;
        meta.judgeTokens ??= nameTokens(meta.reporting_judge);
        if (!judgeTokensMatch(judgeWanted, meta.judgeTokens)) continue;
      }
    }
    allowed[meta.id] = 1;
  }

  // Stage 2: per-stem BM25 over all articles, summed per allowed article.
  const bm25 = new Map<number, number>();
  const matched = new Map<number, number[]>();
  const weights: number[] = [];
  terms.forEach((term, i) => {
    const rows = cache.ftsStatement.all(`"${term.stem.replaceAll('"', '""')}"`) as unknown as [number, number][];
    weights.push(idf(rows.length, cache.articleCount));
    for (const [article, rank] of rows) {
      if (allowed[cache.articleDocument[article] ?? 0] !== 1) continue;
      bm25.set(article, (bm25.get(article) ?? 0) - rank);
      const list = matched.get(article);
      if (list) list.push(i);
      else matched.set(article, [i]);
    }
  });
  const totalWeight = weights.reduce((a, b) => a + b, 0) || 1;
  let hits: ArticleHit[] = [];
  for (const [article, score] of bm25) {
    const termList = matched.get(article) ?? [];
    const coverage = termList.reduce((sum, t) => sum + (weights[t] ?? 0), 0) / totalWeight;
    hits.push({
      article,
      document: cache.articleDocument[article] ?? 0,
      bm25: score,
      terms: termList,
      score: articleScore(score, coverage),
    });
  }
  if (hits.length > MAX_CANDIDATE_ARTICLES) {
    hits.sort((a, b) => b.score - a.score || a.article - b.article);
    hits = hits.slice(0, MAX_CANDIDATE_ARTICLES);
  }

  // Stage 3.
  const maxResults = request.max_results ?? LIMITS.maxResultsDefault;
  const ranked = scoreDocuments(hits, cache, terms, weights, allowed).slice(0, maxResults);
  if (ranked.length === 0) return empty;

  // Stage 4 and 5.
  const matcher = createStemMatcher(terms.map((t) => t.stem));
  const bestDocument = ranked[0]!.score;
  const picked = ranked.map((doc) => {
    const best = doc.articles[0]!.score;
    return doc.articles.slice(0, MAX_EXCERPTS).filter((a) => a.score >= EXCERPT_MIN_RELATIVE_SCORE * best);
  });
  const bestExcerpt = Math.max(...picked.flat().map((a) => a.score));
  const results = ranked.map((doc, i): SearchResult => {
    const articles = picked[i] ?? [];
    const rows = articles.map(
      (a) => cache.articleStatement.get(a.article) as { label: string; text: string; excerpt_id: string },
    );
    // Results never carry a document's full text (spec: POST /v1/search, rule 3). When the excerpts would be every
    // article of a short document, each whole, each is cut to at most EXCERPT_SHARE_OF_SHORT_DOCUMENT of its article.
    const wholeDocument =
      rows.length === doc.meta.articleCount && rows.every((row) => row.text.length <= EXCERPT_MAX_CHARS);
    const excerpts: Excerpt[] = articles.map((a, k) => {
      const row = rows[k]!;
      const maxChars = wholeDocument
        ? Math.floor(row.text.length * EXCERPT_SHARE_OF_SHORT_DOCUMENT)
        : EXCERPT_MAX_CHARS;
      return {
        excerpt_id: row.excerpt_id,
        label: row.label,
        score: Math.max(0.0001, round4(a.score / bestExcerpt)),
        text: excerptPassage(row.text, matcher, maxChars),
      };
    });
    const m = doc.meta;
    const result: SearchResult = {
      document_id: m.document_id,
      collection: m.collection,
      type: m.type,
      title: m.title,
      date: m.date,
      author: m.author ?? '',
      url: m.url ?? '',
      excerpts,
      score: Math.max(0.0001, round4(doc.score / bestDocument)),
      explanation: explain(doc, articles, excerpts.map((e) => e.label ?? ''), terms),
      source_type: m.source_type,
    };
    if (isCaseLawType(m.source_type, cache.sourceTypes)) {
      if (m.decision_number !== null) result.decision_number = m.decision_number;
      if (m.case_number !== null) result.case_number = m.case_number;
      if (m.reporting_judge !== null) result.reporting_judge = m.reporting_judge;
      if (m.court_id !== null) result.court_id = m.court_id;
      if (m.court !== null) result.court = m.court;
    }
    return result;
  });
  return { query: request.query, result_count: results.length, results };
}
