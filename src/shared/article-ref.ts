/**
 * Article numbers of Bulgarian acts as the corpus and the service write them in an element's `ref`: a whole number with
 * an optional lower-case Cyrillic letter suffix for articles inserted later (`45`, `45а`, `2б`; spec: Document
 * response, `elements`; corpus README, `elements`). Pure functions: ordering, and reading an article as a user types
 * it (`Чл. 45а.`, `чл.45`, `45a` with a Latin `a`).
 */

/** `45а` → number 45, suffix `а`. The suffix is lower-case Cyrillic, at most two letters. */
const ARTICLE_REF = /^(\d+)([а-яѝ]{0,2})$/u;

/** An article ref split into its number and its letter suffix (`''` when none). */
export interface ArticleNumber {
  number: number;
  suffix: string;
}

/** `45а` → `{ number: 45, suffix: 'а' }`; `undefined` for anything that is not an article ref (`body`, `§ 1`). */
export function splitArticleRef(ref: string): ArticleNumber | undefined {
  const match = ARTICLE_REF.exec(ref);
  if (!match) return undefined;
  return { number: Number(match[1]), suffix: match[2]! };
}

/**
 * Orders article refs as they follow each other in an act: by number, then by suffix in alphabetical order
 * (`45` < `45а` < `45б` < `46`). Refs that are not article refs sort after every article ref, by code point.
 * Returns a negative number, 0 or a positive number, as `Array.prototype.sort` expects.
 */
export function compareArticleRefs(a: string, b: string): number {
  const x = splitArticleRef(a);
  const y = splitArticleRef(b);
  if (x && y) return x.number - y.number || (x.suffix < y.suffix ? -1 : x.suffix > y.suffix ? 1 : 0);
  if (x) return -1;
  if (y) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Latin letters that look like Cyrillic ones in lower case (`45a` typed with a Latin `a` means `45а`). */
const LOOKALIKE: Record<string, string> = { a: 'а', e: 'е', o: 'о', p: 'р', c: 'с', x: 'х', y: 'у', k: 'к' };

/** Latin letters as a Bulgarian transliterates them (`45b` typed for `45б`), where no lookalike applies. */
const TRANSLITERATION: Record<string, string> = {
  a: 'а', b: 'б', v: 'в', g: 'г', d: 'д', e: 'е', z: 'з', i: 'и', j: 'й', k: 'к', l: 'л', m: 'м', n: 'н', o: 'о',
  p: 'п', r: 'р', s: 'с', t: 'т', u: 'у', f: 'ф', h: 'х', c: 'ц',
};

/** What `--article VALUE` asks for: an article ref and which of the elements with that ref (1: the first). */
export interface ArticleQuery {
  /** The ref as typed, normalized: prefix and final dot removed, lower case, e.g. `45а` (or `45a` before mapping). */
  ref: string;
  /** 1 for the first element with this ref; `N~2` asks for the second (a ref repeated in the document). */
  occurrence: number;
}

/**
 * Reads an article as a user types it: `45`, `45а`, `Чл. 45`, `чл.45`, `Чл. 45а.`, `член 45`, `art. 45`, or a § of
 * the additional, transitional or final provisions, `§ 12`, `§12а`, `параграф 12` (ref `§12`), with an
 * optional `~N` for the N-th element that carries the same ref (`4~2`), or a whole `excerpt_id`
 * (`act-1:45`, `act-1:4~2`). Case is ignored. Letters are not mapped here: see {@link articleRefCandidates}.
 * Returns `undefined` for an empty value.
 */
export function parseArticleQuery(value: string): ArticleQuery | undefined {
  let text = value.normalize('NFC').trim();
  // An excerpt_id `<document_id>:<ref>`: the ref is after the last colon.
  const colon = text.lastIndexOf(':');
  if (colon >= 0) text = text.slice(colon + 1);
  text = text
    .replace(/^(?:член|чл|article|art)\s*\.?\s*/iu, '')
    .replace(/^(?:§|параграф|пар\.)\s*/iu, '§')
    .replace(/\.$/u, '')
    .trim()
    .toLowerCase();
  let occurrence = 1;
  const tilde = /^(.*?)\s*~\s*(\d+)$/u.exec(text);
  if (tilde) {
    text = tilde[1]!;
    occurrence = Math.max(1, Number(tilde[2]));
  }
  return text === '' ? undefined : { ref: text, occurrence };
}

/**
 * The refs a typed article ref may stand for, most likely first: as typed; with Latin lookalike letters in the suffix
 * replaced by the Cyrillic ones they look like (`45a` → `45а`); transliterated (`45b` → `45б`). Only the letters after
 * the number are mapped. Distinct values.
 */
export function articleRefCandidates(ref: string): string[] {
  const match = /^(§?\d+)([a-z]{1,2})$/.exec(ref);
  if (!match) return [ref];
  const [, number, suffix] = match;
  const map = (table: Record<string, string>): string =>
    `${number}${[...suffix!].map((letter) => table[letter] ?? TRANSLITERATION[letter] ?? letter).join('')}`;
  return [...new Set([ref, map(LOOKALIKE), map(TRANSLITERATION)])];
}
