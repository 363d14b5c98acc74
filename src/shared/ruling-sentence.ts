/**
 * What the sandbox and the CLI share of a ruling that declared a provision unconstitutional: the shape of the part
 * struck down ({@link RulingPart}: the sandbox stores it on elements, `sandbox/corpus/case-law.ts`; `pravo cite` reads
 * it, `legal/rulings.ts`), the reading of a sentence and a proposition in a citation's details („изречение второ“ →
 * `2`), and the Bulgarian sentence that says it in the Constitutional Court's own wording: „Решение № 12 от 2016 г. на
 * Конституционния съд обявява за противоконституционна разпоредбата на чл. 79, ал. 2, т. 2.“ (the sandbox's search
 * explanations and the CLI's Markdown). Pure; returns raw text (callers sanitize or escape it).
 */

/**
 * The part of a provision a ruling struck down, when it is not the whole element: the paragraph (ал.), point (т.),
 * letter (буква), sentence (изречение) or proposition (предложение) and the words („в частта „…““), as the ruling
 * names them. Every field is optional; `text` is always there.
 */
export interface RulingPart {
  /** The part as written, without the article: `ал. 2, т. 2`, `ал. 2, изречение второ`, `в частта „28 и“`. */
  text: string;
  paragraph?: string;
  point?: string;
  letter?: string;
  /** The sentence, as a number (`2` for „изречение второ“, „изр. 2“). */
  sentence?: string;
  /** The proposition (предложение), as a number. */
  proposition?: string;
  /** The words struck down, when the ruling quotes them („в частта „…““). */
  words?: string;
}

/** Ordinals as the texts write sentences and propositions („изречение второ“, „предл. второ“) → their number. */
const ORDINALS: Readonly<Record<string, string>> = {
  първо: '1',
  второ: '2',
  трето: '3',
  четвърто: '4',
  пето: '5',
  шесто: '6',
  седмо: '7',
  осмо: '8',
  девето: '9',
  десето: '10',
};
/** A sentence's or proposition's number as written: digits or an ordinal word. */
export const ORDINAL = String.raw`(?:\d+|първо|второ|трето|четвърто|пето|шесто|седмо|осмо|девето|десето|последно)`;
/** The words that name a sentence (`изр.`, `изречение`, `изречения`) and a proposition (`пр.`, `предл.`, `предложение`, `предложения`). */
export const SENTENCE_WORD = String.raw`(?:изр\.|изречения|изречение)`;
export const PROPOSITION_WORD = String.raw`(?:пр\.|предл\.|предложения|предложение)`;
/** A sentence or a proposition with its number or ordinal (group 1). */
export const SENTENCE = new RegExp(String.raw`(?<!\p{L})${SENTENCE_WORD}\s*(${ORDINAL})(?!\p{L})`, 'iu');
export const PROPOSITION = new RegExp(String.raw`(?<!\p{L})${PROPOSITION_WORD}\s*(${ORDINAL})(?!\p{L})`, 'iu');

/** `второ` → `2`, `2` → `2`; `последно` stays a word. */
export function ordinalNumber(written: string): string {
  const lower = written.toLowerCase();
  return ORDINALS[lower] ?? lower;
}

/**
 * The sentence and the proposition a citation's details name („ал. 2, изречение второ“ → `{ sentence: '2' }`), as
 * numbers ({@link ordinalNumber}); each absent when not named.
 */
export function sentenceAndProposition(detail: string): { sentence?: string; proposition?: string } {
  const sentence = SENTENCE.exec(detail);
  const proposition = PROPOSITION.exec(detail);
  return { ...(sentence ? { sentence: ordinalNumber(sentence[1]!) } : {}), ...(proposition ? { proposition: ordinalNumber(proposition[1]!) } : {}) };
}

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
