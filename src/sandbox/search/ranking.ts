/**
 * Ranking of `POST /v1/search` (stages 2 and 3): BM25 candidates per query stem, scored articles, and documents scored
 * from their articles. Scores are relative only within one query.
 */
import type { SearchIndex } from '../corpus/index-db.js';
import type { QueryTerm } from './analysis.js';
import type { DocumentMeta, SearchMetadata } from './metadata.js';

/** Candidate articles kept after stage 2 (best BM25 first); bounds the work of the later stages. */
export const MAX_CANDIDATE_ARTICLES = 3000;

/** One candidate article after stage 2. */
export interface ArticleHit {
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
export interface DocumentHit {
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
 *
 * @param hits the candidates of {@link scoreArticles}; their `articles` order is changed.
 * @param weights IDF weight per query term (same order as `terms`).
 * @param allowed per document rowid, 1 when the document passes the filters.
 * @returns the documents best first, ties by `document_id`.
 */
export function scoreDocuments(
  hits: ArticleHit[],
  metadata: SearchMetadata,
  terms: readonly QueryTerm[],
  weights: readonly number[],
  allowed: Uint8Array,
): DocumentHit[] {
  const totalWeight = weights.reduce((a, b) => a + b, 0) || 1;
  const byDocument = new Map<number, DocumentHit>();
  for (const hit of hits) {
    let doc = byDocument.get(hit.document);
    if (!doc) {
      const meta = metadata.documents[hit.document];
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

/**
 * Stage 2: per query stem, the BM25 score of every matching article (`SearchIndex.matchStem`); BM25 is a sum over
 * query terms, so the per-stem scores add up to exactly the score of the OR of all stems, and also tell which stems
 * each article matched. Articles of documents not `allowed` are dropped; the best {@link MAX_CANDIDATE_ARTICLES} (by
 * `articleScore`, ties by article id) remain.
 *
 * @param allowed per document rowid, 1 when the document passes the filters.
 * @returns the candidates (in no particular order when there are at most {@link MAX_CANDIDATE_ARTICLES}) and the IDF
 *   weight of each term, in the order of `terms`.
 */
export function scoreArticles(
  index: SearchIndex,
  metadata: SearchMetadata,
  terms: readonly QueryTerm[],
  allowed: Uint8Array,
): { hits: ArticleHit[]; weights: number[] } {
  const bm25 = new Map<number, number>();
  const matched = new Map<number, number[]>();
  const weights: number[] = [];
  terms.forEach((term, i) => {
    const rows = index.matchStem(term.stem);
    weights.push(idf(rows.length, metadata.articleCount));
    for (const [article, rank] of rows) {
      if (allowed[metadata.articleDocument[article] ?? 0] !== 1) continue;
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
      document: metadata.articleDocument[article] ?? 0,
      bm25: score,
      terms: termList,
      score: articleScore(score, coverage),
    });
  }
  if (hits.length > MAX_CANDIDATE_ARTICLES) {
    hits.sort((a, b) => b.score - a.score || a.article - b.article);
    hits = hits.slice(0, MAX_CANDIDATE_ARTICLES);
  }
  return { hits, weights };
}

/**
 * A score relative to the best of its kind in the response, as results and excerpts carry it: `score / best` rounded
 * to 4 decimals, at least 0.0001 (so every returned item has a positive score; the best has 1).
 */
export function relativeScore(score: number, best: number): number {
  return Math.max(0.0001, Math.round((score / best) * 10_000) / 10_000);
}
