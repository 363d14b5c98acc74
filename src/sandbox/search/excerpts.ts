/**
 * Excerpts of `POST /v1/search` results (stage 4; spec: Search result, `excerpts`; rule 3: results never include the
 * full document text): up to {@link MAX_EXCERPTS} of a document's best articles, each cut to a passage around the
 * densest run of matched words.
 */
import type { Excerpt } from '../../contract/types.js';
import type { ArticleRow, SearchIndex } from '../storage.js';
import { ownHeading } from '../corpus/headings.js';
import type { StemMatch } from '../text/analysis.js';
import { EXCERPT_PARTS, type DecisionPart } from '../../shared/decision-parts.js';
import { relativeScore, type ArticleHit, type DocumentHit } from './ranking.js';

/** Maximum length of an excerpt's `text`, in UTF-16 code units, "…" marks included. */
export const EXCERPT_MAX_CHARS = 400;
/** Share of an article an excerpt may hold when the excerpts would otherwise be the whole document. */
export const EXCERPT_SHARE_OF_SHORT_DOCUMENT = 0.6;
/**
 * Most characters an excerpt shows before the first matched word of its passage (less when a sentence or clause
 * starts closer), so that the first 80 characters, all a terminal table shows, say why the article was chosen.
 */
export const EXCERPT_LEAD_CHARS = 30;
/** Maximum number of excerpts per result. */
export const MAX_EXCERPTS = 3;
/**
 * An article becomes a further excerpt only when its score is at least this fraction of the document's best. 0: every
 * result shows its best {@link MAX_EXCERPTS} articles (chosen on the tuning part of the judged set, where 0.5 and 0.25
 * hid the answering article more often than they spared a reader a weak one).
 */
export const EXCERPT_MIN_RELATIVE_SCORE = 0;

/**
 * The articles of a scored document that become excerpts: its best {@link MAX_EXCERPTS} articles, keeping only those
 * scoring at least {@link EXCERPT_MIN_RELATIVE_SCORE} of its best one; best first. Empty for a document without
 * articles.
 *
 * A court decision (`partOf` given: the part of each of its articles, `decisionPartOf`) shows what the court reasoned
 * and ruled: its best paragraphs of the reasons and the operative part (`EXCERPT_PARTS`). Only when none of those
 * matched, its best paragraphs of the opinions printed with it (the explanation says so: `opinionNote`); only when
 * nothing else matched, its one best paragraph of the header (title, panel) or the signatures, which is then all there
 * is to show of why it matched (the query named the case, a judge): an excerpt shows it rather than none, so that the
 * result still says why it is there. Never text appended after the act (the next State Gazette items some acts carry).
 */
export function excerptArticles(doc: DocumentHit, partOf?: (article: number) => DecisionPart | undefined): ArticleHit[] {
  const best = doc.articles[0]?.score ?? 0;
  let articles = doc.articles;
  if (partOf !== undefined) {
    const of = (kinds: (part: DecisionPart | undefined) => boolean): ArticleHit[] => doc.articles.filter((a) => kinds(partOf(a.article)));
    articles = of((p) => p === undefined || EXCERPT_PARTS.has(p));
    if (articles.length === 0) articles = of((p) => p === 'dissent');
    if (articles.length === 0) articles = of((p) => p === 'header' || p === 'signatures').slice(0, 1);
  }
  return articles.slice(0, MAX_EXCERPTS).filter((a) => a.score >= EXCERPT_MIN_RELATIVE_SCORE * best);
}

/**
 * The excerpts of one result, in the order of `articles`: `excerpt_id`, `label`, `score` relative to `bestExcerpt`
 * (the best article score among the response's excerpts) and `text` cut by {@link excerptPassage} to at most
 * {@link EXCERPT_MAX_CHARS}; and, per excerpt, its article's heading when the heading holds a matched word (`''`
 * otherwise; see `matchedHeading`), for the explanation; and the articles' rows as read, with the searched stems each
 * one's text holds. The heading stays out of the excerpt's text: the corpus
 * prints it at the end of the previous element, and an excerpt is a passage of its own element (`pravo answer
 * --verify` checks that). Short-document rule: when the excerpts would be every article of the document, each
 * whole, each is cut to at most {@link EXCERPT_SHARE_OF_SHORT_DOCUMENT} of its article, so no result carries a
 * document's full text.
 * @throws Error when an article of `articles` is missing from the index (an inconsistent index file).
 */
export function excerptsOf(
  index: SearchIndex,
  doc: DocumentHit,
  articles: readonly ArticleHit[],
  bestExcerpt: number,
  matcher: (text: string) => StemMatch[],
): { excerpts: Excerpt[]; headings: string[]; rows: ArticleRow[]; matched: Set<string>[] } {
  const rows = articles.map((a): ArticleRow => {
    const row = index.article(a.article);
    if (!row) throw new Error(`index ${index.path} has no article ${a.article}`);
    return row;
  });
  const wholeDocument =
    rows.length === doc.meta.articleCount && rows.every((row) => row.text.length <= EXCERPT_MAX_CHARS);
  // The searched stems each article's text holds (read once: its passage is found from the same matches).
  const matched: Set<string>[] = [];
  const excerpts = articles.map((a, k): Excerpt => {
    const row = rows[k]!;
    const matches = matcher(row.text);
    matched.push(new Set(matches.map((m) => m.stem)));
    const maxChars = wholeDocument ? Math.floor(row.text.length * EXCERPT_SHARE_OF_SHORT_DOCUMENT) : EXCERPT_MAX_CHARS;
    return {
      excerpt_id: row.excerpt_id,
      label: row.label,
      score: relativeScore(a.score, bestExcerpt),
      text: excerptPassage(row.text, () => matches, maxChars),
    };
  });
  return { excerpts, headings: rows.map((row) => matchedHeading(row.heading, matcher)), rows, matched };
}

/** Longest heading the explanation quotes, in characters (longer headings: their last line, if it fits). */
export const EXCERPT_HEADING_MAX_CHARS = 120;

/**
 * The heading the explanation quotes for an excerpt: the article's own heading (`ownHeading`, `corpus/headings.ts`:
 * its title, never the heading of the chapter or section above it) when it holds a matched word and is at most
 * {@link EXCERPT_HEADING_MAX_CHARS} long; `''` otherwise. A heading that matched is the shortest statement of why the
 * article was chosen.
 */
function matchedHeading(heading: string, matcher: (text: string) => StemMatch[]): string {
  const own = ownHeading(heading);
  return own === '' || own.length > EXCERPT_HEADING_MAX_CHARS || matcher(own).length === 0 ? '' : own;
}

/**
 * A passage of `text` of at most `maxChars` UTF-16 code units opening on the densest run of matched words (found by
 * `matcher`, see `createStemMatcher`): the span holding the most distinct matched stems (then the most matched words)
 * that fits the limit, starting at most {@link EXCERPT_LEAD_CHARS} before it (at a sentence or clause start when one is
 * that close; at the text's start when the run is that close to it). Cut at word boundaries; "…" marks each cut. The
 * whole text when it fits.
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
  // Open on the run: start at most EXCERPT_LEAD_CHARS before its first matched word (after the last line break or
  // sentence/clause end in that stretch, when there is one), so that the first characters shown hold the words that
  // matched; then fill the budget forward only (a passage near the end is shorter rather than opening elsewhere).
  const leadStart = Math.max(0, runStart - EXCERPT_LEAD_CHARS);
  let start = leadStart;
  if (leadStart > 0) {
    const lead = text.slice(leadStart, runStart);
    const boundary = Math.max(lead.lastIndexOf('\n') + 1, ...[...lead.matchAll(/[.;:!?]\s/gu)].map((m) => m.index + 2));
    start = leadStart + boundary;
  }
  let end = Math.min(text.length, start + budget);
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
