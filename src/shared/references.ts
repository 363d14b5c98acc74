/**
 * The articles an article's text refers to ("по чл. 12, ал. 2", "чл. 45 – 47", "чл. 3, 4 и 5", "чл. 25 от Закона за
 * търговския регистър"), and which of them a document has: `findArticleCitations` gives the articles cited, each with
 * whether it is of the act being read (`same`) or of another act (`external`); `referencedArticles` lists those of the
 * act being read against the document's elements. The syntax is the citation parser's (`citations.ts`,
 * `parseCitations`, running text: what it understands and what it leaves out by design); here only its articles.
 * Pure functions over strings; no I/O.
 */
import { compareArticleRefs, splitArticleRef } from './article-ref.js';
import { parseCitations } from './citations.js';

/** One article cited in a text. */
export interface ArticleCitation {
  /** The article as cited, lower case: `12`, `45а`. */
  article: string;
  /** For a range ("чл. 45 – 47"), its last article: `47`. */
  through?: string;
  /** What the citation names inside the article, as written with white space collapsed: `ал. 2, т. 3`; `''` if nothing. */
  detail: string;
  /**
   * `same`: an article of the act being read (no "от …" after it, or "от този закон" and the like); `external`: an
   * article of another act ("от Закона за …", "от Конституцията", "от ЗЗД", "НПК").
   */
  scope: 'same' | 'external';
  /** Offsets of the citation in the text (UTF-16 code units): from "чл." (or the bare number of a list) to its end. */
  start: number;
  end: number;
}

/**
 * Every article cited in `text`, in the order written: the article citations of {@link parseCitations} (running text,
 * `articlesOnly`). A list ("чл. 3, 4 и 5") gives one citation per article; a range ("чл. 45 – 47", "чл. 43д –
 * 43и") one citation with `through`; details stay with their article ("чл. 109, ал. 1, 7 и 12" is article 109, detail
 * `ал. 1, 7 и 12`). Pass an article's text without its own label (`Чл. 45.`), or that label is skipped as a heading.
 */
export function findArticleCitations(text: string): ArticleCitation[] {
  const found: ArticleCitation[] = [];
  for (const c of parseCitations(text, { articlesOnly: true })) {
    if (c.article === undefined) continue;
    found.push({ article: c.article, ...(c.articleTo !== undefined ? { through: c.articleTo } : {}), detail: c.detail, scope: c.scope, start: c.start, end: c.end });
  }
  return found;
}

/** An article of the act being read that a text refers to. */
export interface ReferencedArticle {
  /** The article's ref: as the document writes it when it has the article, else as cited. */
  ref: string;
  /** Whether the document has an element with this ref. */
  exists: boolean;
  /** The distinct details cited for it, in order (`ал. 2`, `ал. 5, т. 1`); empty when the article is cited whole. */
  details: string[];
  /**
   * For a range too long to list article by article (more than {@link MAX_RANGE_LISTED} articles of the document fall
   * inside it): its last article; `count` is then the number of the document's articles from `ref` to `through`.
   */
  through?: string;
  count?: number;
}

/** A range with more of the document's articles inside it than this stays one entry (`чл. 1 – 300`). */
export const MAX_RANGE_LISTED = 20;

/**
 * The articles of the same act that `citations` refer to, each once, in the order first cited: ranges are listed
 * article by article (both ends, and every article of the document that falls between them, e.g. `45`, `45а`, `46`,
 * `47`), unless more than {@link MAX_RANGE_LISTED} fall inside. `documentRefs` are the refs of the document's
 * elements; `self` (the ref of the article being read) is left out. Citations of other acts are ignored.
 */
export function referencedArticles(
  citations: readonly ArticleCitation[],
  documentRefs: readonly string[],
  options: { self?: string } = {},
): ReferencedArticle[] {
  const byLowerRef = new Map<string, string>();
  for (const ref of documentRefs) if (!byLowerRef.has(ref.toLowerCase())) byLowerRef.set(ref.toLowerCase(), ref);
  const ordered = [...new Set([...byLowerRef.keys()].filter((ref) => splitArticleRef(ref) !== undefined))].sort(compareArticleRefs);
  const self = options.self?.toLowerCase();
  const result: ReferencedArticle[] = [];
  const seen = new Map<string, ReferencedArticle>();

  const add = (cited: string, detail: string): void => {
    if (cited === self) return;
    let entry = seen.get(cited);
    if (!entry) {
      entry = { ref: byLowerRef.get(cited) ?? cited, exists: byLowerRef.has(cited), details: [] };
      seen.set(cited, entry);
      result.push(entry);
    }
    if (detail !== '' && !entry.details.includes(detail)) entry.details.push(detail);
  };

  for (const citation of citations) {
    if (citation.scope !== 'same') continue;
    const through = citation.through;
    if (through === undefined || !splitArticleRef(citation.article) || !splitArticleRef(through) || compareArticleRefs(citation.article, through) >= 0) {
      add(citation.article, citation.detail);
      if (through !== undefined) add(through, '');
      continue;
    }
    const inside = ordered.filter((ref) => compareArticleRefs(ref, citation.article) > 0 && compareArticleRefs(ref, through) < 0);
    if (inside.length > MAX_RANGE_LISTED) {
      const key = `${citation.article}–${through}`;
      if (seen.has(key)) continue;
      const entry: ReferencedArticle = {
        ref: byLowerRef.get(citation.article) ?? citation.article,
        exists: byLowerRef.has(citation.article),
        details: [],
        through: byLowerRef.get(through) ?? through,
        count: inside.length + (byLowerRef.has(citation.article) ? 1 : 0) + (byLowerRef.has(through) ? 1 : 0),
      };
      seen.set(key, entry);
      result.push(entry);
      continue;
    }
    for (const ref of [citation.article, ...inside, through]) add(ref, '');
  }
  return result;
}
