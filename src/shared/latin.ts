/**
 * Bulgarian words in one Latin form, so that what a user types in Cyrillic, in the official transliteration or in an
 * English-style spelling meets the same words: judges' names (`sandbox/search/judges.ts`) and courts' names and
 * abbreviations (`courts.ts`: `--court VKS`, `--court "okrazhen sad plovdiv"`). A leaf shared by the CLI and the
 * sandbox, which must agree on what a name means.
 */
import transliterate from '@sindresorhus/transliterate';

/**
 * The Streamlined System of the Bulgarian Transliteration Act (Закон за транслитерацията, its table) where it
 * differs from `@sindresorhus/transliterate`'s defaults (which follow Russian practice), as `customReplacements`
 * (lower and upper case). Every other Bulgarian letter already comes out as the Act says (а a, б b, в v, г g, д d,
 * е e, ж zh, з z, и i, й y, к k, л l, м m, н n, о o, п p, р r, с s, т t, у u, ф f, ц ts, ч ch, ш sh, ю yu, я ya).
 *
 * | letter | library default | Act |
 * |---|---|---|
 * | х | kh | h |
 * | щ | sch | sht |
 * | ъ | (dropped) | a |
 * | ь | (dropped) | y |
 * | ѝ | и (left Cyrillic: only its accent is stripped) | i (not in the Act: it is и with a grave accent) |
 *
 * The Act's one positional rule, word-final "ия" → "ia" (София → Sofia), cannot be a plain replacement;
 * {@link transliterateBulgarian} applies it first. (The Act's named exception България → Bulgaria is not applied:
 * names are not spelled by exception.)
 */
export const BULGARIAN_REPLACEMENTS: readonly (readonly [cyrillic: string, latin: string])[] = [
  ['х', 'h'],
  ['Х', 'H'],
  ['щ', 'sht'],
  ['Щ', 'Sht'],
  ['ъ', 'a'],
  ['Ъ', 'A'],
  ['ь', 'y'],
  ['Ь', 'Y'],
  ['ѝ', 'i'],
  ['Ѝ', 'I'],
];

const CUSTOM_REPLACEMENTS: [string, string][] = BULGARIAN_REPLACEMENTS.map(([from, to]) => [from, to]);

/** Word-final "ия" in any case (the letters may be followed by anything but another letter). */
const FINAL_IA = /(и)(я)(?!\p{L})/giu;

/**
 * `text` in Latin letters by the Streamlined System of the Bulgarian Transliteration Act: word-final "ия" → "ia"
 * (keeping case: "ИЯ" → "IA"), then `@sindresorhus/transliterate` with {@link BULGARIAN_REPLACEMENTS}. Latin text
 * passes unchanged except that diacritics are removed ("Mihová" → "Mihova"); other scripts get the library's
 * defaults. Examples: "Христина Михова" → "Hristina Mihova", "Щерю Ъглев" → "Shteryu Aglev", "Мария" → "Maria".
 */
export function transliterateBulgarian(text: string): string {
  const finalIa = text.normalize('NFC').replace(FINAL_IA, (_, i: string, ya: string) => (i === 'и' ? 'i' : 'I') + (ya === 'я' ? 'a' : 'A'));
  return transliterate(finalIa, { customReplacements: CUSTOM_REPLACEMENTS });
}

/**
 * Latin spellings folded to the Act's, applied to both sides after transliteration: English- and Russian-style
 * "kh" for х (Mikhova, Khristina) and "shch" for щ are read as "h" and "sht", and a word-final "iya" as the Act's "ia"
 * (Mariya → maria).
 */
const LATIN_FOLDS: readonly (readonly [RegExp, string])[] = [
  [/shch/g, 'sht'],
  [/kh/g, 'h'],
  [/iya\b/g, 'ia'],
];

/**
 * The comparable form of a text: its words, lower-cased, in Latin letters by {@link transliterateBulgarian}, with
 * {@link LATIN_FOLDS} applied; a word is a run of letters, so punctuation (the dot of an initial, a hyphen, a dash, a
 * comma) separates words and is dropped; digits are dropped too.
 * Examples: "Христина Михова" → [hristina, mihova]; "Khristina MIKHOVA" → [hristina, mihova]; "Окръжен съд –
 * Пловдив" → [okrazhen, sad, plovdiv]; "" → [].
 */
export function latinWords(text: string): string[] {
  let latin = transliterateBulgarian(text.toLowerCase()).toLowerCase();
  for (const [pattern, replacement] of LATIN_FOLDS) latin = latin.replace(pattern, replacement);
  return latin.match(/\p{L}+/gu) ?? [];
}
