/**
 * The Bulgarian `explanation` of a `POST /v1/search` result (stage 5; spec: Search result, "an explanation in
 * Bulgarian"): what became of every word of the query in this document, the words as typed.
 */
import { isIndexable, STOPWORDS, type AnalyzedQuery } from '../text/analysis.js';
import type { ArticleHit, DocumentHit, GroupStem, GroupWeight } from './ranking.js';

/** "с" or "със" before a word (Bulgarian: "със" before с/з). */
function withPreposition(word: string): string {
  return /^[„"]?[сзСЗ]/u.test(word) ? 'със' : 'с';
}

/** Bulgarian enumeration: "a", "a и b", "a, b и c". */
function enumerate(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} и ${items[items.length - 1]}`;
}

/** Words in Bulgarian quotation marks: „дума“. */
function quote(words: readonly string[]): string[] {
  return words.map((w) => `„${w}“`);
}

/** Singular or plural form, by the number of words it is said of. */
function agree(count: number, singular: string, plural: string): string {
  return count === 1 ? singular : plural;
}

/**
 * Where each word of a query stands for one result; every distinct word of the query (as typed, compared without
 * case) is in exactly one list, in query order.
 * - `excerptsAndTitle`: its stem is in one of the result's excerpted articles and in the title.
 * - `excerpts`: its stem is in one of the excerpted articles, not in the title.
 * - `questions`: its stem is in the written questions or keywords of an excerpted article (the subject index), not
 *   in the text or own heading of any excerpted article, nor in the title.
 * - `title`: its stem is in the title, not in an excerpted article.
 * - `elsewhere`: otherwise, its stem is in another article of the document (one that is not excerpted).
 * - `missing`: its stem was found nowhere in the document.
 * - `frequent`: not searched, because the query had more (or more frequent) words than one query may search (see
 *   `planQuery` in `ranking.ts`); the rarest words were searched.
 * - `common`: a stopword, not searched for (see `STOPWORDS`).
 * - `short`: a one-character token that is not a stopword (e.g. a digit), not searched for.
 */
export interface WordPlacement {
  excerptsAndTitle: string[];
  excerpts: string[];
  questions: string[];
  title: string[];
  elsewhere: string[];
  missing: string[];
  frequent: string[];
  common: string[];
  short: string[];
}

/**
 * Places every word of the query (see {@link WordPlacement}). Words are the query's tokens (maximal runs of letters
 * and digits, `analyzeQuery`), so punctuation never counts; a word typed twice, in any case, is placed once, as first
 * typed.
 * @param excerpted the document's excerpted articles.
 * @param questionsOnly the query groups the excerpted articles hold only in their written questions and keywords.
 */
export function placeWords(
  doc: DocumentHit,
  excerpted: readonly ArticleHit[],
  query: AnalyzedQuery,
  weights: readonly GroupWeight[] = [],
  questionsOnly: ReadonlySet<number> = new Set(),
): WordPlacement {
  const inExcerpts = new Set(excerpted.flatMap((a) => a.terms));
  const placement: WordPlacement = {
    excerptsAndTitle: [],
    excerpts: [],
    questions: [],
    title: [],
    elsewhere: [],
    missing: [],
    frequent: [],
    common: [],
    short: [],
  };
  query.terms.forEach((term, i) => {
    const list = weights[i]?.skipped
      ? placement.frequent
      : inExcerpts.has(i)
      ? doc.termsInTitle.has(i)
        ? placement.excerptsAndTitle
        : questionsOnly.has(i)
          ? placement.questions
          : placement.excerpts
      : doc.termsInTitle.has(i)
        ? placement.title
        : doc.termsInArticles.has(i)
          ? placement.elsewhere
          : placement.missing;
    list.push(...term.surfaces);
  });
  const seen = new Set<string>();
  for (const token of query.tokens) {
    const lower = token.toLowerCase();
    if (isIndexable(lower) || seen.has(lower)) continue;
    seen.add(lower);
    (STOPWORDS.has(lower) ? placement.common : placement.short).push(token);
  }
  return placement;
}

/**
 * The explanation of a result, in Bulgarian: one sentence per non-empty list of {@link placeWords}, in this order,
 * e.g. `Съвпадение с „…“ в заглавието и в Чл. 405 и Чл. 408. Съвпадение със „застрахователят“ и „обезщетение“ в
 * Чл. 405 и Чл. 408. Заглавието съвпада с „…“. „изплати“ се среща в други части на документа. Няма съвпадение за
 * „…“. „да“ е пропусната като твърде обща дума.` (the articles named are the excerpted ones).
 * Every word of the query is named exactly once (none is dropped or shortened away), so the user can see what became
 * of each; the legal terms searched for everyday words (`vocabulary.ts`) follow in a sentence of their own
 * (`Търсени са и правните термини „прекратяване“ и „трудово правоотношение“.`). Empty only for an empty query.
 * @param excerpted the document's excerpted articles; @param labels their labels, in the same order.
 * @param plan the query's plan (`planQuery`): which words were skipped as too frequent, which legal terms searched.
 * @param headings per excerpted article, its heading when the heading matched (`''` otherwise): quoted, e.g.
 *   `Чл. 72 е озаглавен „Необичайно благоприятни оферти“.`
 * @param questionsOnly the query groups the excerpted articles hold only in their written questions (see
 *   {@link placeWords}): said apart, `„шефът“ е във въпросите, написани към Чл. 330 (предметен указател), не в текста.`
 */
export function explain(
  doc: DocumentHit,
  excerpted: readonly ArticleHit[],
  labels: readonly string[],
  query: AnalyzedQuery,
  plan: { weights: readonly GroupWeight[]; stems: readonly GroupStem[][] } = { weights: [], stems: [] },
  headings: readonly string[] = [],
  questionsOnly: ReadonlySet<number> = new Set(),
): string {
  const words = placeWords(doc, excerpted, query, plan.weights, questionsOnly);
  const parts: string[] = [];
  // Labels without their final period ("Чл. 405." → "Чл. 405"), each once (a ref can repeat within a document).
  const where = enumerate([...new Set(labels.map((l) => l.trim().replace(/\.$/u, '')).filter((l) => l !== ''))]);
  for (const [group, inTitle] of [[words.excerptsAndTitle, true], [words.excerpts, false]] as const) {
    if (group.length === 0) continue;
    const quoted = quote(group);
    const places = [inTitle ? 'в заглавието' : '', where !== '' ? `в ${where}` : ''].filter((p) => p !== '').join(' и ');
    parts.push(`Съвпадение ${withPreposition(quoted[0]!)} ${enumerate(quoted)}${places !== '' ? ` ${places}` : ''}.`);
  }
  // Words found only in the questions the team wrote for the excerpted articles (the subject index), not in their text.
  if (words.questions.length > 0) {
    const n = words.questions.length;
    parts.push(`${enumerate(quote(words.questions))} ${agree(n, 'е', 'са')} във въпросите, написани към ${where !== '' ? where : 'откъсите'} (предметен указател), не в текста.`);
  }
  // The headings of excerpted articles that matched (`Чл. 72 е озаглавен „Необичайно благоприятни оферти“.`).
  const titled = labels.flatMap((label, k) => {
    const heading = headings[k] ?? '';
    const name = label.trim().replace(/\.$/u, '');
    return heading === '' || name === '' ? [] : [`${name} е озаглавен „${heading}“`];
  });
  if (titled.length > 0) parts.push(`${enumerate(titled)}.`);
  if (words.title.length > 0) {
    const quoted = quote(words.title);
    parts.push(`Заглавието съвпада ${withPreposition(quoted[0]!)} ${enumerate(quoted)}.`);
  }
  if (words.elsewhere.length > 0) {
    const n = words.elsewhere.length;
    parts.push(`${enumerate(quote(words.elsewhere))} ${agree(n, 'се среща', 'се срещат')} в други части на документа.`);
  }
  if (words.missing.length > 0) parts.push(`Няма съвпадение за ${enumerate(quote(words.missing))}.`);
  // The legal terms searched for everyday words (see vocabulary.ts), then the thesaurus's synonyms and the word forms.
  // Named without the words they stand for, so that every word of the query stays named exactly once.
  const expansions = (source: GroupStem['source']): string[] => [
    ...new Set(plan.stems.flat().flatMap((s) => (s.expansion === undefined || s.source !== source ? [] : [s.expansion]))),
  ];
  const legalTerms = expansions(undefined);
  if (legalTerms.length > 0) {
    parts.push(`${agree(legalTerms.length, 'Търсен е и правният термин', 'Търсени са и правните термини')} ${enumerate(quote(legalTerms))}.`);
  }
  const synonyms = expansions('thesaurus');
  if (synonyms.length > 0) {
    parts.push(`${agree(synonyms.length, 'Търсен е и синонимът', 'Търсени са и синонимите')} ${enumerate(quote(synonyms))}.`);
  }
  // The translation model's words, by the word typed: „шеф“ → „работодател“.
  const translated = new Map<string, string[]>();
  for (const s of plan.stems.flat()) {
    if (s.source !== 'translation' || s.expansion === undefined || s.from === undefined) continue;
    const list = translated.get(s.from) ?? [];
    if (!list.includes(s.expansion)) list.push(s.expansion);
    translated.set(s.from, list);
  }
  if (translated.size > 0) {
    const pairs = [...translated].map(([from, to]) => `„${from}“ → ${enumerate(quote(to))}`);
    parts.push(`Преведено на езика на закона: ${pairs.join('; ')}.`);
  }
  const forms = expansions('forms');
  if (forms.length > 0) parts.push(`${agree(forms.length, 'Търсена е и формата', 'Търсени са и формите')} ${enumerate(quote(forms))}.`);
  if (words.frequent.length > 0) {
    const n = words.frequent.length;
    parts.push(
      `${enumerate(quote(words.frequent))} ${agree(n, 'не е търсена: заявката има повече думи, отколкото се търсят наведнъж, и тази е сред най-честите', 'не са търсени: заявката има повече думи, отколкото се търсят наведнъж, и тези са сред най-честите')}.`,
    );
  }
  if (words.common.length > 0) {
    const n = words.common.length;
    parts.push(
      `${enumerate(quote(words.common))} ${agree(n, 'е пропусната като твърде обща дума', 'са пропуснати като твърде общи думи')}.`,
    );
  }
  if (words.short.length > 0) {
    const n = words.short.length;
    parts.push(`${enumerate(quote(words.short))} ${agree(n, 'е пропусната като твърде кратка', 'са пропуснати като твърде кратки')}.`);
  }
  return parts.join(' ');
}
