/**
 * The Bulgarian `explanation` of a `POST /v1/search` result (stage 5; spec: Search result, "an explanation in
 * Bulgarian"): the matched words as typed and the excerpted articles.
 */
import type { QueryTerm } from './analysis.js';
import type { ArticleHit, DocumentHit } from './ranking.js';

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
 * @param excerpted the document's excerpted articles; @param labels their labels, in the same order.
 */
export function explain(
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
