/**
 * The parts of the court decisions the search excerpts (header, reasons, operative part, signatures, opinions, text
 * appended after the act: `shared/decision-parts.ts`), read from the index on first use and kept per index object: a
 * decision's paragraphs are read whole once (one statement, about 0.3 ms for a decision of 40 paragraphs) the first time
 * one of its paragraphs is a candidate excerpt, so a warm search pays nothing for them.
 */
import { decisionParts, type DecisionPart } from '../../shared/decision-parts.js';
import type { SearchIndex } from '../storage.js';

/** A paragraph's part, and for a paragraph of an opinion, which kind of opinion it is. */
export interface ParagraphPart {
  part: DecisionPart;
  /** For `dissent`: an особено мнение (`dissent`) or a становище (`separate`) printed with the act. */
  opinion?: 'dissent' | 'separate';
}

/** Per index: the part of each article of the decisions read so far, by article id. */
const cache = new WeakMap<SearchIndex, { parts: Map<number, ParagraphPart>; documents: Set<number> }>();

/**
 * Most decisions whose parts are kept per index; past it the cache starts again (the sandbox's corpora hold hundreds;
 * a much larger one would otherwise keep every decision it ever excerpted).
 */
export const DECISIONS_CACHED = 20_000;

/**
 * The part of article `article` of decision `document` (documents rowid) in the index: the parts of all the decision's
 * paragraphs are computed on the first call for it and kept (see the module). `undefined` when the document has no
 * such article.
 * @throws the index's SQLite errors.
 */
export function decisionPartOf(index: SearchIndex, document: number, article: number): ParagraphPart | undefined {
  let entry = cache.get(index);
  if (entry === undefined || entry.documents.size >= DECISIONS_CACHED) {
    entry = { parts: new Map(), documents: new Set() };
    cache.set(index, entry);
  }
  if (!entry.documents.has(document)) {
    const rows = index.articleTexts(document);
    let opinion: 'dissent' | 'separate' = 'dissent';
    decisionParts(rows.map(([, text]) => text)).forEach(({ part, opens }, i) => {
      if (opens !== undefined && opens !== 'operative' && opens !== 'appended') opinion = opens === 'separate' ? 'separate' : 'dissent';
      entry.parts.set(rows[i]![0], part === 'dissent' ? { part, opinion } : { part });
    });
    entry.documents.add(document);
  }
  return entry.parts.get(article);
}

/** `¶ 2`, `¶ 2 и ¶ 5`, `¶ 2, ¶ 5 и ¶ 7`. */
function listed(labels: readonly string[]): string {
  return labels.length <= 1 ? labels.join('') : `${labels.slice(0, -1).join(', ')} и ${labels.at(-1)}`;
}

/**
 * For a decision's excerpts that are not from its reasons or operative part (see `excerptArticles`), the sentence of
 * the explanation that says so, in Bulgarian: `Откъсът ¶ 112 е от особено мнение, отпечатано с акта, не от мотивите на
 * съда.`, `… от становище на съдия, отпечатано с акта …`, `Думите на заявката са само в заглавието и състава на акта
 * (¶ 2), не в мотивите или диспозитива.`, `… само в подписите (¶ 27) …`. `''` when every excerpt is from the reasons or
 * the operative part (or the parts are unknown).
 * @param excerpts each excerpt's label (`¶ 112`) and its paragraph's part.
 */
export function excerptPartsNote(excerpts: readonly { label: string; part: ParagraphPart | undefined }[]): string {
  const sentences: string[] = [];
  for (const [kind, words] of [
    ['dissent', 'особено мнение'],
    ['separate', 'становище на съдия'],
  ] as const) {
    const labels = excerpts.filter((e) => e.part?.part === 'dissent' && (e.part.opinion ?? 'dissent') === kind).map((e) => e.label);
    if (labels.length > 0) {
      sentences.push(`${labels.length === 1 ? 'Откъсът' : 'Откъсите'} ${listed(labels)} ${labels.length === 1 ? 'е' : 'са'} от ${words}, отпечатано с акта, не от мотивите на съда.`);
    }
  }
  for (const [part, where] of [
    ['header', 'в заглавието и състава на акта'],
    ['signatures', 'в подписите'],
  ] as const) {
    const labels = excerpts.filter((e) => e.part?.part === part).map((e) => e.label);
    if (labels.length > 0) sentences.push(`Думите на заявката са само ${where} (${listed(labels)}), не в мотивите или диспозитива.`);
  }
  return sentences.join(' ');
}
