/**
 * The Bulgarian sentence that says a provision was declared unconstitutional, in the Constitutional Court's own
 * wording: „Решение № 12 от 2016 г. на Конституционния съд обявява за противоконституционна разпоредбата на чл. 79,
 * ал. 2, т. 2.“ Shared by the sandbox's search explanations (`sandbox/corpus/case-law.ts`) and the CLI's Markdown
 * (`render/markdown.ts`). Pure; returns raw text (callers sanitize or escape it).
 */

/** What the sentence needs of a ruling. */
export interface RulingWords {
  /** The decision's number and year (`12`, `2016`). */
  number: string;
  year: string;
  /** The part struck down, without the article (`ал. 2, т. 2`, `в частта „28 и“`); undefined for the whole provision. */
  part?: string;
  /** The text was enacted or amended again after the ruling. */
  laterAmended: boolean;
}

/**
 * The sentence of one ruling.
 * @param provision the provision as a lawyer names it in the genitive after „разпоредбата на“: `чл. 79`, `§ 35`.
 */
export function rulingSentence(provision: string, ruling: RulingWords): string {
  const part = ruling.part === undefined ? '' : ruling.part.startsWith('в частта') ? ` ${ruling.part}` : `, ${ruling.part}`;
  const later = ruling.laterAmended ? ' Текстът е приет или изменен отново след решението.' : '';
  return `Решение № ${ruling.number} от ${ruling.year} г. на Конституционния съд обявява за противоконституционна разпоредбата на ${provision}${part}.${later}`;
}

/** A label as a provision's name in a sentence: `Чл. 79.` → `чл. 79`, `§ 35.` → `§ 35`. */
export function provisionOfLabel(label: string): string {
  return label.trim().replace(/\.$/u, '').replace(/^Чл\./u, 'чл.');
}
