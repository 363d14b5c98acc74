/**
 * Ranking of `POST /v1/search` (stages 2 and 3): the query's term groups matched per stem (BM25 from FTS5), articles
 * scored from them, and documents scored from their articles. The scale of the final `score` is described at
 * {@link absoluteScore}.
 */
import type { SearchIndex } from '../storage.js';
import { ownHeading } from '../corpus/headings.js';
import { isIndexable, stem, tokenSpans, type QueryTerm, type StemMatch } from '../text/analysis.js';
import type { DocumentMeta, SearchMetadata } from './metadata.js';

/** Candidate articles kept after stage 2 (best first); bounds the work of the later stages. */
export const MAX_CANDIDATE_ARTICLES = 1500;
/**
 * Most postings (article × stem rows) one query may read from the index. Stems are matched rarest first; a stem that
 * would take the query past the budget is skipped (the explanation says so). Reading a posting costs about 1 µs, so
 * this bounds a query's matching to some 20 ms whatever its length (the spec allows 2,000 characters).
 */
export const MAX_QUERY_POSTINGS = 20_000;
/** Most stem counts kept per index (`SearchMetadata.stemCounts`); the cache is emptied when full. */
export const STEM_COUNTS_CACHED = 100_000;
/** Most term groups (distinct query words) searched; beyond it, the most common words are skipped. */
export const MAX_QUERY_TERMS = 16;
/** Weight of a stem that only stands for a query word (a synonym, see `vocabulary.ts`) relative to the word itself. */
export const EXPANSION_WEIGHT = 0.6;

/** One stem searched for a term group, with its weight in the group. */
export interface GroupStem {
  stem: string;
  /** 1 for the word as typed; {@link EXPANSION_WEIGHT} for a synonym. */
  weight: number;
  /** The synonym's words as the vocabulary writes them, for the explanation; absent for the typed word. */
  expansion?: string;
  /**
   * Where `expansion` comes from: the hand-kept vocabulary of legal terms (absent), the thesaurus, or Hunspell's word
   * forms; the explanation names them apart (a thesaurus synonym is not a legal term).
   */
  source?: 'thesaurus' | 'forms' | 'translation';
  /** For a translation: the typed word it translates (as typed), for the explanation. */
  from?: string;
  /** A word-family prefix (see {@link familyPrefix}): matches every stem beginning with `stem`. */
  family?: boolean;
}

/**
 * The family prefix of a typed word's stem: the stem less its last two letters, at least {@link FAMILY_PREFIX_MIN}
 * letters; undefined for shorter stems. The light stemmer strips inflections, not derivations, so the verbs and
 * participles people type (подписах, използвам, отнемат, регистрирах) miss the verbal nouns the law writes
 * (подписване, използване, отнемане, регистриран); the prefix (подпис, използв, отнем, регистрир) meets them.
 */
export function familyPrefix(stem: string): string | undefined {
  if (stem.length < FAMILY_PREFIX_MIN + 1) return undefined;
  return stem.slice(0, Math.max(FAMILY_PREFIX_MIN, stem.length - 2));
}
/** Shortest family prefix, in letters. */
export const FAMILY_PREFIX_MIN = 5;
/** A typed word held by fewer articles than this is also searched by its family prefix. */
export const FAMILY_RARE_ARTICLES = 30;
/** Weight of a family match relative to the typed word. */
export const FAMILY_WEIGHT = 0.5;
/** Weight of another form of the typed word's Hunspell lexeme (`SearchMetadata.lexemes`), relative to the word. */
export const LEXEME_WEIGHT = 0.8;

/**
 * A word of the query as the ranking sees it: the typed word's stem plus, when the vocabulary knows the word, the
 * stems of the terms the law uses for it. An article matches the group when it holds any of the stems.
 */
export interface TermGroup {
  term: QueryTerm;
  stems: GroupStem[];
}

/** A term group after matching: its IDF weight, and why it was not searched when it was not. */
export interface GroupWeight {
  /** IDF (over articles) of the group's best-known stem: how much a match on it tells. */
  weight: number;
  /** `common`: skipped as too frequent for the query's budget ({@link MAX_QUERY_POSTINGS}, {@link MAX_QUERY_TERMS}). */
  skipped?: 'common';
}

/** One candidate article after stage 2. */
export interface ArticleHit {
  article: number;
  document: number;
  /** BM25 summed over the matched groups (each group: its best stem, see {@link scoreArticles}). */
  bm25: number;
  /** Indexes (into the query's groups) of the groups the article matches. */
  terms: number[];
  /** IDF-weighted share of the query's groups the article matches, 0…1. */
  coverage: number;
  /** `bm25` adjusted for coverage (see {@link articleScore}). */
  score: number;
}

/** A scored document after stage 3, with its articles best first. */
export interface DocumentHit {
  meta: DocumentMeta;
  articles: ArticleHit[];
  /** Ranking score (unbounded); see {@link scoreDocuments}. */
  score: number;
  /** IDF-weighted share of the query's groups in the document's candidate articles or title, 0…1. */
  coverage: number;
  /** Indexes of the query groups found in the document's articles. */
  termsInArticles: Set<number>;
  /** Indexes of the query groups found in the title. */
  termsInTitle: Set<number>;
}

/**
 * IDF of a stem over articles (BM25's, floored at a small positive value): how much a match on it tells.
 * `n` = articles containing the stem, `total` = all articles.
 */
export function idf(n: number, total: number): number {
  return Math.max(0.05, Math.log(1 + (total - n + 0.5) / (n + 0.5)));
}

/**
 * Article score: BM25 times `coverage`, the IDF-weighted share of the query's groups the article holds (for a long
 * article, the share its best passage holds: {@link rescoreByPassage}). BM25 alone lets one heavily repeated word
 * outweigh an article that answers the whole question. (A square, tried on the judged set, favoured articles holding
 * many words of a long everyday question over the one answering it.)
 */
function articleScore(bm25: number, coverage: number): number {
  return bm25 * coverage;
}

/**
 * Prior of a document by kind. Amending acts ("Закон за изменение и допълнение на …") are most of the corpus and
 * repeat the vocabulary of the act they change, often in one very long article; when the amended act itself is in the
 * collection (and passes the filters), it is the better answer, so the amending act gets `AMENDED_ACT_PRESENT_PRIOR`.
 * When it is not (the corpus may hold amending acts of codes it does not hold), the amending act is the best proxy for
 * it and gets `AMENDING_PRIOR`. A law or code followed in the collection (and the filters) by a later one of the same
 * title, which replaced it, gets `SUPERSEDED_PRIOR`: its text as published long ago is not the law a question asks.
 */
function documentPrior(meta: DocumentMeta, allowed: Uint8Array): number {
  if (meta.supersededBy.some((id) => allowed[id] === 1)) return SUPERSEDED_PRIOR;
  if (!meta.amending) return 1;
  return meta.amends.some((id) => allowed[id] === 1) ? AMENDED_ACT_PRESENT_PRIOR : AMENDING_PRIOR;
}
/**
 * Authority of an act from the corpus's own citations: `1 + AUTHORITY_WEIGHT × ln(1 + n) / ln(1 + N)`, `n` the number
 * of acts of the corpus that amend it (`DocumentMeta.amendedBy`, its in-degree in the amendment graph) and `N` the
 * largest such number in the corpus. The code that governs a matter (amended by dozens of acts: the Кодекс на труда,
 * 25) outranks a special law that repeats its words (amended by none or one). Other documents get 1.
 */
export function authorityPrior(meta: DocumentMeta, maxAmendedBy: number): number {
  if (meta.amendedBy === 0 || maxAmendedBy === 0) return 1;
  return 1 + (AUTHORITY_WEIGHT * Math.log1p(meta.amendedBy)) / Math.log1p(maxAmendedBy);
}
/**
 * Chosen on the tuning part of the judged set only (docs/benchmarks.md): 0, 0.2 and 0.5 scored 0.65, 0.63 and 0.63
 * article success@3 and 0.33, 0.37, 0.33 citizen article success@1; 0.2 puts the governing code first more often.
 */
export const AUTHORITY_WEIGHT = 0.2;
const AMENDED_ACT_PRESENT_PRIOR = 0.5;
const AMENDING_PRIOR = 0.85;
/** Chosen on the judged questions of `set-a.json` only (docs/benchmarks.md, "Relevance"). */
const SUPERSEDED_PRIOR = 0.7;
/** Weight of the title: a document scores up to `1 + TITLE_WEIGHT` times more when its title holds the whole query. */
const TITLE_WEIGHT = 1;
/** Articles counted in a document's score (the best, then a decaying bonus). */
const ARTICLES_PER_DOCUMENT = 5;
/** Act-level length normalization: the score is divided by `1 + LENGTH_SLOPE × ln(1 + articles / LENGTH_PIVOT)`. */
const LENGTH_SLOPE = 0.1;
const LENGTH_PIVOT = 40;

/** Result order: score descending, ties by `document_id` (so equal scores come out in a stable, documented order). */
function byRank(a: DocumentHit, b: DocumentHit): number {
  return b.score - a.score || (a.meta.document_id < b.meta.document_id ? -1 : a.meta.document_id > b.meta.document_id ? 1 : 0);
}

/**
 * Stage 3: document score =
 *   (s₁ + ½·s₂ + ¼·s₃ + … over its best {@link ARTICLES_PER_DOCUMENT} articles, s = article score)
 *   × (0.3 + 0.7 × coverage²), coverage = IDF-weighted share of the groups in its candidate articles or its title
 *   × (1 + TITLE_WEIGHT × IDF-weighted share of the groups found in the title)
 *   ÷ (1 + LENGTH_SLOPE × ln(1 + articles / LENGTH_PIVOT))   — act-level length normalization
 *   × `documentPrior` × `authorityPrior` (in-degree in the amendment graph) × `boost` (a referenced act, see `search`).
 * The bonus lets a document with several relevant articles win over one with a single long one; the length
 * normalization keeps long codes, which hold some article for almost any combination of words, from winning
 * questions their shorter neighbours answer (gently: on the judged set, a steeper slope lost more acts it should have
 * found than long codes it should not).
 *
 * @param hits the candidates of {@link scoreArticles}; their `articles` order is changed.
 * @param weights the groups' weights (same order as the groups).
 * @param allowed per document rowid, 1 when the document passes the filters.
 * @param boost per document rowid, a factor (default 1) for documents the query names.
 * @returns the documents best first, ties by `document_id`.
 */
export function scoreDocuments(
  hits: ArticleHit[],
  metadata: SearchMetadata,
  groups: readonly TermGroup[],
  weights: readonly GroupWeight[],
  allowed: Uint8Array,
  boost: ReadonlyMap<number, number> = new Map(),
): DocumentHit[] {
  const totalWeight = weights.reduce((a, b) => a + b.weight, 0) || 1;
  const byDocument = new Map<number, DocumentHit>();
  for (const hit of hits) {
    let doc = byDocument.get(hit.document);
    if (!doc) {
      const meta = metadata.documents[hit.document];
      if (!meta) continue;
      const termsInTitle = new Set<number>();
      groups.forEach((g, i) => {
        if (g.stems.some((s) => s.weight === 1 && meta.titleStems.has(s.stem))) termsInTitle.add(i);
      });
      doc = { meta, articles: [], score: 0, coverage: 0, termsInArticles: new Set(), termsInTitle };
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
    for (const a of doc.articles.slice(0, ARTICLES_PER_DOCUMENT)) {
      base += factor * a.score;
      factor *= 0.5;
    }
    let covered = 0;
    let inTitle = 0;
    weights.forEach((w, i) => {
      if (doc.termsInArticles.has(i) || doc.termsInTitle.has(i)) covered += w.weight;
      if (doc.termsInTitle.has(i)) inTitle += w.weight;
    });
    doc.coverage = covered / totalWeight;
    const length = 1 + LENGTH_SLOPE * Math.log(1 + doc.meta.articleCount / LENGTH_PIVOT);
    doc.score =
      (base *
        (0.3 + 0.7 * doc.coverage ** 2) *
        (1 + TITLE_WEIGHT * (inTitle / totalWeight)) *
        documentPrior(doc.meta, allowed) *
        authorityPrior(doc.meta, metadata.maxAmendedBy) *
        (boost.get(doc.meta.id) ?? 1)) /
      length;
  }
  documents.sort(byRank);
  return documents;
}

/**
 * Orders a scored document's articles for its excerpts by what tells them apart within the document. A word of the
 * question that most of the act's articles hold (продукти за растителна защита in the plant protection act) says
 * nothing about which article answers; the corpus-wide IDF still counts it fully. Each article's score is multiplied
 * by its local coverage to the power `LOCAL_EXPONENT`: the share of the document's local weight of the matched groups
 * it holds, a group's local weight being `ln(1 + articles of the document / its articles holding the group)`.
 * Called (by `search`) for the documents that are returned, after their scores are set: this changes which articles
 * are excerpted, not the document's rank.
 */
export function orderWithinDocument(doc: DocumentHit, groupCount: number): void {
  const holding = new Int32Array(groupCount);
  for (const a of doc.articles) for (const t of a.terms) holding[t] = holding[t]! + 1;
  const articles = Math.max(doc.meta.articleCount, doc.articles.length);
  const local = Array.from(holding, (n) => (n === 0 ? 0 : Math.log(1 + articles / n)));
  const total = local.reduce((a, b) => a + b, 0) || 1;
  for (const a of doc.articles) {
    const share = a.terms.reduce((sum, t) => sum + local[t]!, 0) / total;
    a.score *= share ** LOCAL_EXPONENT;
  }
  doc.articles.sort((a, b) => b.score - a.score || a.article - b.article);
}
const LOCAL_EXPONENT = 1;

/** Documents (best first) whose articles are re-ranked by relevance feedback ({@link feedbackWithinDocument}). */
export const FEEDBACK_DOCUMENTS = 3;
/** Articles of such a document whose words make its feedback model. */
export const FEEDBACK_ARTICLES = 3;
/** Articles of such a document (best first) re-ranked by the model. */
export const FEEDBACK_RERANKED = 12;
/** Words of the feedback model (its heaviest, those the query does not search already). */
export const FEEDBACK_TERMS = 10;
/** Weight of the feedback model: an article holding all its words scores this much more. */
export const FEEDBACK_WEIGHT = 0.5;

/**
 * Relevance feedback within a document (RM3 restricted to the best acts): its best {@link FEEDBACK_ARTICLES}
 * articles make a model of the question's words in this act, P(w) ∝ Σ score(a) × tf(w, a) / |a|, times the word's
 * IDF (so that words every article of the corpus writes do not lead), keeping the {@link FEEDBACK_TERMS} heaviest words
 * the query does not already search; each of its next articles, up to {@link FEEDBACK_RERANKED}, scores
 * `× (1 + FEEDBACK_WEIGHT × share of the model's weight it holds)`, and the articles are re-ordered. Reads up to
 * {@link FEEDBACK_RERANKED} articles of the document. Changes which articles are excerpted, not the document's rank.
 * @param stemsOf the analysed stems of an article (`analyze` of its heading and text).
 * @param searched the stems the query searches.
 * @param idfOf a stem's IDF over articles.
 */
export function feedbackWithinDocument(
  doc: DocumentHit,
  stemsOf: (article: number) => readonly string[],
  searched: ReadonlySet<string>,
  idfOf: (stem: string) => number,
): void {
  const head = doc.articles.slice(0, FEEDBACK_RERANKED);
  if (head.length <= 1) return;
  const stems = new Map(head.map((a) => [a.article, stemsOf(a.article)]));
  const model = new Map<string, number>();
  const sources = head.slice(0, FEEDBACK_ARTICLES);
  const total = sources.reduce((sum, a) => sum + a.score, 0) || 1;
  for (const a of sources) {
    const words = stems.get(a.article)!;
    if (words.length === 0) continue;
    for (const w of words) if (!searched.has(w)) model.set(w, (model.get(w) ?? 0) + a.score / total / words.length);
  }
  const weighted = [...model].map(([w, p]): [string, number] => [w, p * idfOf(w)]).sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1));
  const top = weighted.slice(0, FEEDBACK_TERMS);
  const mass = top.reduce((sum, [, p]) => sum + p, 0);
  if (mass <= 0) return;
  for (const a of head.slice(FEEDBACK_ARTICLES)) {
    const words = new Set(stems.get(a.article)!);
    const held = top.reduce((sum, [w, p]) => sum + (words.has(w) ? p : 0), 0);
    a.score *= 1 + FEEDBACK_WEIGHT * (held / mass);
  }
  const rest = doc.articles.slice(FEEDBACK_RERANKED);
  doc.articles = [...head.sort((a, b) => b.score - a.score || a.article - b.article), ...rest];
}

/** A referenced article's document scores at least this much per unit of query weight (score ≈ 0.95). */
const REFERENCE_SCORE = 3;

/**
 * Puts the articles a query references (`planReferences` in `references.ts`) first: each referenced document gets
 * them at the head of its articles (so they are its first excerpts), and a score above every document without a
 * referenced article (and at least `REFERENCE_SCORE` per unit of query weight, so its `score` reads about 0.95).
 * A referenced document no word of the query matched is added. `followers` (amending acts standing for an act the
 * corpus lacks, not naming the provision) score a sixth of that (about 0.4: they stand for the act, they do not answer), newest first.
 * @param documents the output of {@link scoreDocuments}; changed in place and returned re-sorted.
 */
export function pinReferencedArticles(
  documents: DocumentHit[],
  pinned: ReadonlyMap<number, readonly number[]>,
  metadata: SearchMetadata,
  weights: readonly GroupWeight[],
  followers: ReadonlySet<number> = new Set(),
): DocumentHit[] {
  if (pinned.size === 0) return documents;
  const totalWeight = weights.reduce((a, b) => a + b.weight, 0) || 1;
  const best = Math.max(0, ...documents.map((d) => d.score));
  for (const [id, articles] of pinned) {
    let doc = documents.find((d) => d.meta.id === id);
    if (!doc) {
      const meta = metadata.documents[id];
      if (!meta) continue;
      doc = { meta, articles: [], score: 0, coverage: 0, termsInArticles: new Set(), termsInTitle: new Set() };
      documents.push(doc);
    }
    const top = Math.max(1, doc.articles[0]?.score ?? 0);
    const heads = articles.map((article): ArticleHit => {
      const hit = doc.articles.find((a) => a.article === article);
      return hit ? { ...hit, score: top } : { article, document: id, bm25: 0, terms: [], coverage: 0, score: top };
    });
    doc.articles = [...heads, ...doc.articles.filter((a) => !articles.includes(a.article))];
    // Followers (acts standing for the one referenced, not naming the provision) go after the others, newest first.
    doc.score = followers.has(id)
      ? (REFERENCE_SCORE / 6) * totalWeight * (1 + Number(doc.meta.date.replaceAll('-', '')) / 1e9)
      : Math.max(doc.score, best * 1.2, REFERENCE_SCORE * totalWeight);
  }
  documents.sort(byRank);
  return documents;
}

/**
 * Which groups and stems a query may search within its budget: groups by their rarest stem, rarest first; a group
 * is searched while the postings read stay within {@link MAX_QUERY_POSTINGS} and the groups within
 * {@link MAX_QUERY_TERMS}; a synonym stem is dropped first when it alone would break the budget. The rest are marked
 * `skipped: 'common'`. At least the rarest group is always searched.
 * @returns per group, the weight and the stems to match (empty for a skipped group).
 */
export function planQuery(
  index: SearchIndex,
  metadata: SearchMetadata,
  groups: readonly TermGroup[],
): { weights: GroupWeight[]; stems: GroupStem[][] } {
  const total = metadata.articleCount;
  // Word families: a typed word the corpus (nearly) lacks is also searched by its family prefix (see familyPrefix).
  const count = (s: GroupStem): number => {
    const key = s.family === true ? `${s.stem}*` : s.stem;
    let n = metadata.stemCounts.get(key);
    if (n === undefined) {
      n = index.stemArticleCount(s.stem, s.family === true);
      if (metadata.stemCounts.size >= STEM_COUNTS_CACHED) metadata.stemCounts.clear();
      metadata.stemCounts.set(key, n);
    }
    return n;
  };
  const withFamilies = groups.map((g): GroupStem[] => {
    const typed = g.stems[0]!;
    const prefix = familyPrefix(typed.stem);
    if (prefix === undefined || count(typed) >= FAMILY_RARE_ARTICLES) return g.stems;
    // Word forms from Hunspell, when given (`SearchMetadata.lexemes`), stand in for the prefix.
    const forms = metadata.lexemes?.get(typed.stem)?.filter((s) => !g.stems.some((x) => x.stem === s));
    if (forms !== undefined && forms.length > 0) {
      return [...g.stems, ...forms.map((s): GroupStem => ({ stem: s, weight: LEXEME_WEIGHT, expansion: s, source: 'forms' }))];
    }
    return [...g.stems, { stem: prefix, weight: FAMILY_WEIGHT, family: true }];
  });
  const counts = withFamilies.map((list) => list.map(count));
  const weights: GroupWeight[] = groups.map((g, i) => {
    // The typed word's IDF; a word the corpus does not have takes its best synonym's, so that a citizen's word the
    // law never uses still weighs what its legal term weighs.
    const own = counts[i]![0]!;
    const found = counts[i]!.slice(1).filter((n) => n > 0);
    const n = own > 0 || found.length === 0 ? own : Math.min(...found);
    return { weight: idf(n, total) };
  });
  const order = groups.map((_, i) => i).sort((a, b) => Math.min(...counts[a]!) - Math.min(...counts[b]!) || a - b);
  const stems: GroupStem[][] = groups.map(() => []);
  let budget = MAX_QUERY_POSTINGS;
  let searched = 0;
  for (const i of order) {
    const own = counts[i]![0]!;
    if (searched > 0 && (searched >= MAX_QUERY_TERMS || own > budget)) {
      weights[i]!.skipped = 'common';
      continue;
    }
    searched++;
    budget -= own;
    stems[i]!.push(withFamilies[i]![0]!);
    withFamilies[i]!.slice(1).forEach((s, k) => {
      const n = counts[i]![k + 1]!;
      if (n > 0 && n <= budget) {
        budget -= n;
        stems[i]!.push(s);
      }
    });
  }
  return { weights, stems };
}

/**
 * Stage 2: per stem of each searched group, the BM25 score of every matching article (`SearchIndex.matchStem`). A
 * group's contribution to an article is its typed word's BM25, or, when larger, its synonyms' and word family's (their
 * BM25 times their weight, {@link EXPANSION_WEIGHT} or {@link FAMILY_WEIGHT}, summed and divided by the square root
 * of their number, so that a phrase of several legal words counts about as much as one word). Articles of documents not `allowed` are dropped; the best
 * {@link MAX_CANDIDATE_ARTICLES} (by `articleScore`, ties by article id) remain.
 *
 * @param plan the output of {@link planQuery}.
 * @param allowed per document rowid, 1 when the document passes the filters.
 * @returns the candidates (in no particular order when there are at most {@link MAX_CANDIDATE_ARTICLES}).
 */
export function scoreArticles(
  index: SearchIndex,
  metadata: SearchMetadata,
  plan: { weights: readonly GroupWeight[]; stems: readonly GroupStem[][] },
  allowed: Uint8Array,
): ArticleHit[] {
  const { weights, stems } = plan;
  const groupCount = weights.length;
  // Per matched article, a row of 2 × groupCount numbers in one growing buffer: the typed words' BM25 per group,
  // then the synonyms' summed BM25 per group. Flat typed arrays, not objects per article: a long query touches
  // tens of thousands of postings.
  const rowOf = new Int32Array(metadata.articleDocument.length).fill(-1);
  const articles: number[] = [];
  let table = new Float64Array(1024 * 2 * groupCount);
  const row = (article: number): number => {
    let r = rowOf[article]!;
    if (r < 0) {
      r = articles.length;
      rowOf[article] = r;
      articles.push(article);
      if ((r + 1) * 2 * groupCount > table.length) {
        const grown = new Float64Array(table.length * 2);
        grown.set(table);
        table = grown;
      }
    }
    return r * 2 * groupCount;
  };
  stems.forEach((groupStems, g) => {
    for (const s of groupStems) {
      const offset = s.weight === 1 ? g : groupCount + g;
      for (const [article, rank] of index.matchStem(s.stem, s.family === true)) {
        if (allowed[metadata.articleDocument[article] ?? 0] !== 1) continue;
        table[row(article) + offset]! -= rank * s.weight;
      }
    }
  });
  const synonymFactor = stems.map((list) => 1 / Math.sqrt(list.filter((s) => s.weight !== 1).length || 1));
  const totalWeight = weights.reduce((a, b) => a + b.weight, 0) || 1;
  let hits: ArticleHit[] = [];
  articles.forEach((article, r) => {
    const base = r * 2 * groupCount;
    let bm25 = 0;
    let covered = 0;
    const terms: number[] = [];
    for (let g = 0; g < groupCount; g++) {
      const best = Math.max(table[base + g]!, table[base + groupCount + g]! * synonymFactor[g]!);
      if (best <= 0) continue;
      bm25 += best;
      covered += weights[g]!.weight;
      terms.push(g);
    }
    if (terms.length === 0) return;
    const coverage = covered / totalWeight;
    hits.push({ article, document: metadata.articleDocument[article] ?? 0, bm25, terms, coverage, score: articleScore(bm25, coverage) });
  });
  if (hits.length > MAX_CANDIDATE_ARTICLES) hits = bestHits(hits, MAX_CANDIDATE_ARTICLES);
  return hits;
}

/**
 * The best `k` of `hits` (more than `k`), best first by score, ties by article id: what sorting them all and keeping
 * the first `k` gives, sorting only those scoring at least the `k`-th best score (found by sorting the bare scores).
 */
function bestHits(hits: ArticleHit[], k: number): ArticleHit[] {
  const byRank = (a: ArticleHit, b: ArticleHit): number => b.score - a.score || a.article - b.article;
  const scores = new Float64Array(hits.length);
  for (let i = 0; i < hits.length; i++) scores[i] = hits[i]!.score;
  // A NaN score would make the order the comparator's own: sort them all then.
  if (scores.some((score) => Number.isNaN(score))) return hits.sort(byRank).slice(0, k);
  scores.sort();
  const threshold = scores[hits.length - k]!;
  return hits.filter((hit) => hit.score >= threshold).sort(byRank).slice(0, k);
}

/** Candidates (best first) whose score is re-weighed by their best passage ({@link rescoreByPassage}). */
export const PASSAGE_RESCORED_ARTICLES = 50;
/**
 * Most characters of article text one query scans for passages; the candidates past it keep their article score.
 * Bounds the stage on queries whose candidates are the corpus's longest articles (amending acts' run-on texts).
 */
export const PASSAGE_SCAN_CHARS = 400_000;
/** Length of the passage whose coverage counts, in UTF-16 code units (about a paragraph of a statute). */
export const PASSAGE_CHARS = 600;
/** Width of the window in which the question's words count as standing close together (about a sentence). */
export const PROXIMITY_CHARS = 150;
/** Weight of proximity: an article whose words all stand within {@link PROXIMITY_CHARS} scores this much more (0.25: chosen on the tuning part, where 0 to 1 scored alike on articles and 0.25 best on acts). */
export const PROXIMITY_WEIGHT = 0.25;

/**
 * Weight of phrases: an article holding every phrase of the query as typed scores this much more ({@link queryPhrases}).
 * Small on purpose: on the tuning part of the judged set, 0 to 0.6 scored 0.71 to 0.68 article success@3 (higher
 * weights lost), so the weight is the least that still puts a phrase found together above its words found apart.
 */
export const PHRASE_WEIGHT = 0.1;
/**
 * Function words that carry the meaning of the word after them, so that a phrase of the query may start with one
 * („без предизвестие“, „не по-късно“, „след смъртта“); other stopwords („на“, „за“, „от“) join anything.
 */
const MEANINGFUL_STOPWORDS: ReadonlySet<string> = new Set(['без', 'не', 'след', 'преди', 'срещу', 'освен', 'над', 'под']);

/**
 * The phrases of a query: each two consecutive words as typed (punctuation between them breaks a phrase) that are both
 * searched words, or a {@link MEANINGFUL_STOPWORDS} word and a searched word, as `"stem1 stem2"` (a function word
 * as itself), e.g. „без предизвестие“ → `без предизвести`, „трудовия договор“ → `трудов договор`.
 */
export function queryPhrases(query: string): string[] {
  const phrases = new Set<string>();
  let previous: string | undefined;
  let previousEnd = -1;
  for (const span of tokenSpans(query)) {
    const key = isIndexable(span.lower) ? stem(span.lower) : MEANINGFUL_STOPWORDS.has(span.lower) ? span.lower : undefined;
    const joined = previous !== undefined && /^\s+$/u.test(query.slice(previousEnd, span.start));
    if (key !== undefined && joined && !MEANINGFUL_STOPWORDS.has(key)) phrases.add(`${previous} ${key}`);
    previous = key;
    previousEnd = span.end;
  }
  return [...phrases];
}

/** Function words that turn the word after them into its opposite: „без предизвестие“ is not „с предизвестие“. */
const NEGATIONS: ReadonlySet<string> = new Set(['без', 'не']);

/**
 * The {@link queryPhrases} a text holds, read from the matches of the searched stems in it (`matches`, in text
 * order): two matches with only white space between them, or a match preceded by a meaningful function word. Linear
 * in the matches; the text is not tokenized again.
 * @returns how many it holds, and the stems of the query's negated words („без предизвестие“: `предизвести`) that
 *   the text holds only without their negation: the text speaks of the opposite.
 */
function phrasesIn(text: string, matches: readonly StemMatch[], phrases: ReadonlySet<string>): { found: number; opposite: Set<string> } {
  const found = new Set<string>();
  const negated = new Map<string, boolean>(); // negated stem of the query → whether the text negates it somewhere
  for (const p of phrases) {
    const [first, second] = p.split(' ') as [string, string];
    if (NEGATIONS.has(first)) negated.set(second, false);
  }
  for (let i = 0; i < matches.length; i++) {
    const m = matches[i]!;
    const before = matches[i - 1];
    if (before !== undefined && /^\s+$/u.test(text.slice(before.end, m.start))) {
      const pair = `${before.stem} ${m.stem}`;
      if (phrases.has(pair)) found.add(pair);
    }
    const word = /(\p{L}+)\s+$/u.exec(text.slice(Math.max(0, m.start - 12), m.start))?.[1]?.toLowerCase();
    if (word !== undefined && MEANINGFUL_STOPWORDS.has(word)) {
      const pair = `${word} ${m.stem}`;
      if (phrases.has(pair)) {
        found.add(pair);
        if (NEGATIONS.has(word)) negated.set(m.stem, true);
      }
    }
  }
  const held = new Set(matches.map((m) => m.stem));
  const opposite = new Set([...negated].filter(([s, seen]) => !seen && held.has(s)).map(([s]) => s));
  return { found: found.size, opposite };
}

/**
 * The largest IDF weight of distinct groups found within any window of `width` characters of `matches` (in text
 * order), a group's words counting once per window; groups in `always` (found in the heading) are not counted here.
 * Sliding window, O(matches).
 */
function windowCoverage(
  matches: readonly StemMatch[],
  width: number,
  weights: readonly GroupWeight[],
  groupOf: ReadonlyMap<string, number>,
  always: ReadonlySet<number | undefined>,
  counts: Int32Array,
): number {
  counts.fill(0);
  let covered = 0;
  let best = 0;
  let j = 0;
  for (let i = 0; i < matches.length; i++) {
    while (j < matches.length && matches[j]!.end - matches[i]!.start <= width) {
      const g = groupOf.get(matches[j]!.stem) ?? -1;
      if (g >= 0) {
        counts[g] = counts[g]! + 1;
        if (counts[g] === 1 && !always.has(g)) covered += weights[g]!.weight;
      }
      j++;
    }
    best = Math.max(best, covered);
    const g = groupOf.get(matches[i]!.stem) ?? -1;
    if (g >= 0) {
      counts[g] = counts[g]! - 1;
      if (counts[g] === 0 && !always.has(g)) covered -= weights[g]!.weight;
    }
  }
  return best;
}

/**
 * Stage 2b: passage coverage and proximity. An article's coverage counts the query's words anywhere in it, so a very
 * long article (an amending act's run-on text, a corpus article that swallowed the articles after it) covers almost
 * any question without answering it; and among articles holding the same words, the one where they stand together
 * answers more often than the one where they are scattered. For the best {@link PASSAGE_RESCORED_ARTICLES} candidates
 * that match at least two groups, within {@link PASSAGE_SCAN_CHARS} of text in all, this finds the passage of
 * {@link PASSAGE_CHARS} holding the largest IDF-weighted share of the query's groups (words in the article's heading
 * or in its written questions and keywords count for every passage) and the window of {@link PROXIMITY_CHARS} holding the largest, and scores the article
 * `bm25 × passage coverage × (1 + PROXIMITY_WEIGHT × near)`, `near` being the window's weight over the weight of all
 * the groups the article holds (1 when every word of the question the article holds stands within one sentence-long
 * window, or in its heading), times `1 + PHRASE_WEIGHT × the share of the query's phrases it holds as typed`
 * ({@link queryPhrases}: „без предизвестие“ together outweighs „без“ and „предизвестие“ apart); and a word the query
 * negates („без предизвестие“) that the article holds only un-negated does not count in its coverage (it speaks of
 * notice, the question of its absence). The others keep their score.
 * @param articleLength text length per article id (`SearchMetadata.articleLength`), to bound the text read.
 * @param matcher finds the words of the searched stems in a text (`createStemMatcher` over every searched stem).
 * @param groupOf the group index of each searched stem.
 */
export function rescoreByPassage(
  index: SearchIndex,
  articleLength: Int32Array,
  hits: ArticleHit[],
  weights: readonly GroupWeight[],
  matcher: (text: string) => StemMatch[],
  groupOf: ReadonlyMap<string, number>,
  phrases: readonly string[] = [],
): void {
  const phraseSet = new Set(phrases);
  hits.sort((a, b) => b.score - a.score || a.article - b.article);
  const totalWeight = weights.reduce((a, b) => a + b.weight, 0) || 1;
  const counts = new Int32Array(weights.length);
  let budget = PASSAGE_SCAN_CHARS;
  for (const hit of hits.slice(0, PASSAGE_RESCORED_ARTICLES)) {
    if (hit.terms.length < 2) continue;
    budget -= articleLength[hit.article] ?? 0;
    if (budget < 0) break;
    const row = index.article(hit.article);
    if (!row) continue;
    // Words of the own heading, and of the article's written questions (the subject index), hold for every passage.
    const own = ownHeading(row.heading);
    const headingMatches = own === '' ? [] : matcher(own);
    const inHeading = new Set(
      [...headingMatches, ...(row.subject === '' ? [] : matcher(row.subject))].map((m) => groupOf.get(m.stem)),
    );
    const matches = matcher(row.text);
    const passage = windowCoverage(matches, PASSAGE_CHARS, weights, groupOf, inHeading, counts);
    const near = windowCoverage(matches, PROXIMITY_CHARS, weights, groupOf, inHeading, counts);
    let headingWeight = 0;
    for (const g of inHeading) if (g !== undefined) headingWeight += weights[g]!.weight;
    const coverage = Math.min(hit.coverage, (passage + headingWeight) / totalWeight);
    const held = hit.coverage * totalWeight;
    const closeness = held > 0 ? Math.min(1, (near + headingWeight) / held) : 0;
    // Phrases over the own heading and the text as one text (the text's matches shifted past the heading's line).
    const shift = own.length + 1;
    const phrases =
      phraseSet.size === 0
        ? undefined
        : own === ''
          ? phrasesIn(row.text, matches, phraseSet)
          : phrasesIn(`${own}\n${row.text}`, [...headingMatches, ...matches.map((m) => ({ ...m, start: m.start + shift, end: m.end + shift }))], phraseSet);
    const phrased = phrases === undefined ? 0 : phrases.found / phraseSet.size;
    // A negated word of the question the article holds only un-negated („предизвестие“ where the question says „без
    // предизвестие“) counts as not held: the article speaks of the opposite.
    let opposite = 0;
    for (const s of phrases?.opposite ?? []) {
      const g = groupOf.get(s);
      if (g !== undefined) opposite += weights[g]!.weight;
    }
    hit.score =
      articleScore(hit.bm25, Math.max(0, coverage - opposite / totalWeight)) * (1 + PROXIMITY_WEIGHT * closeness) * (1 + PHRASE_WEIGHT * phrased);
  }
}

/**
 * The `score` of a result, on a scale shared by all queries, in (0, 1], 4 decimals: `1 − e^(−r / (SCORE_SCALE × W))`,
 * `r` being the document's ranking score ({@link scoreDocuments}) and `W` the summed IDF weight of the query's words.
 * Dividing by `W` takes out the query's length (BM25 adds up over words), so `r / W` is about the BM25 term-frequency
 * part per word of the question, times the coverage factors: a result holding every word of the question with
 * repeated matches, or in its title, comes near 1 (0.8–0.95); one matching a single word of a four-word question
 * stays under 0.05, however good that match, because coverage enters squared twice. Monotone in the ranking score, so
 * results stay ordered by it; at least 0.0001.
 */
export function absoluteScore(score: number, weights: readonly GroupWeight[]): number {
  const total = weights.reduce((a, b) => a + b.weight, 0) || 1;
  const value = 1 - Math.exp(-score / (SCORE_SCALE * total));
  return Math.max(0.0001, Math.round(value * 10_000) / 10_000);
}
/** Ranking score per unit of query weight at which a result's score reaches 1 − 1/e (0.63). */
const SCORE_SCALE = 1;

/**
 * The score a result may not exceed when its first article lacks a key term of the question ({@link keyGroups}):
 * whatever the other results are, a result that does not hold what the question is about is at best a partial match.
 */
export const MISSING_KEY_TERM_CEILING = 0.5;
/** A searched word is a key term when its IDF weight is at least this share of the query's highest. */
export const KEY_TERM_SHARE = 0.5;

/**
 * The key terms of a query, as group indexes: the searched groups (not skipped as too common) whose IDF weight is at
 * least {@link KEY_TERM_SHARE} of the highest group weight: the rare words that say what the question is about
 * („предизвестие“ in „уволнение без предизвестие“), not the common ones („срок“, „лице“). Empty for no groups.
 */
export function keyGroups(weights: readonly GroupWeight[]): number[] {
  const searched = weights.map((w, i) => ({ w, i })).filter(({ w }) => w.skipped === undefined);
  const top = Math.max(0, ...searched.map(({ w }) => w.weight));
  return searched.filter(({ w }) => w.weight >= KEY_TERM_SHARE * top).map(({ i }) => i);
}

/**
 * The `score` of a result after the key-term rule: {@link absoluteScore}, scaled into (0, {@link MISSING_KEY_TERM_CEILING}]
 * (multiplied by it, so that such results keep their order among themselves rather than all reading the ceiling)
 * when the article it is ranked by (`article`, its first excerpt's) does not hold every key term ({@link keyGroups};
 * a word counts as held when it or a legal term searched for it is in the article). A result pinned by a reference
 * the query names (`pinned`) is exempt: the user asked for that article.
 *
 * The scale, for users: about 0.9 and above, the article holds every key word of the question, repeatedly or in its
 * heading or the act's title; about 0.5, a partial match (some of the question's words; a result lacking a key word
 * never scores above 0.5); about 0.1 and below, it shares one minor word with the question.
 */
export function resultScore(
  score: number,
  weights: readonly GroupWeight[],
  article: ArticleHit | undefined,
  pinned: boolean,
): number {
  const value = absoluteScore(score, weights);
  if (pinned) return value;
  const held = new Set(article?.terms ?? []);
  const holdsAll = keyGroups(weights).every((g) => held.has(g));
  return holdsAll ? value : Math.max(0.0001, Math.round(value * MISSING_KEY_TERM_CEILING * 10_000) / 10_000);
}

/**
 * A score relative to the best of its kind in the response, as excerpts carry it: `score / best` rounded to 4
 * decimals, at least 0.0001 (so every returned item has a positive score; the best has 1).
 */
export function relativeScore(score: number, best: number): number {
  return Math.max(0.0001, Math.round((score / best) * 10_000) / 10_000);
}
