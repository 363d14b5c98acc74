/**
 * Which act a citation names, by its title or abbreviation, and which of a list of documents is that act: the rules of
 * `pravo cite` (`legal/cite.ts`, which checks a memo's citations against the service's search results), shared with the
 * sandbox's corpus (`sandbox/corpus/act-resolver.ts`, which resolves the acts court decisions cite against the corpus's
 * documents), so both read a title the same way. Pure functions over strings.
 *
 * - {@link namedAct}: the act as written („ЗОП“, „Закона за обществените поръчки възложителят …“), with its title in
 *   the nominative when known and how many of its words a title must cover ({@link titleLengthOf},
 *   {@link requiredLengthOf});
 * - {@link matchAct}: which of the documents is the act (customary abbreviations expanded, other abbreviations a
 *   title's initials, a title read up to the longest document title that begins it; {@link fits});
 * - {@link withConnectedActs}: the act of a chain „чл. 49 вр. чл. 45 ЗЗД“ for each of its citations.
 */
import { CUSTOMARY_ABBREVIATIONS } from './act-abbreviations.js';
import { AMENDING_TITLE, initials, isConstitutionAlone, nominativeTitle, sameTitleWord } from './act-titles.js';
import type { Citation } from './citations.js';

/** An act a memo names: one per act, shared by all its citations. */
export interface NamedAct {
  /** Identity of the act within the memo: its title in the nominative, lower case, or `abbreviation:` and an unknown abbreviation. */
  key: string;
  /** As the memo first wrote it: an abbreviation (`ЗОП`), or a title read up to where its name seems to end. */
  written: string;
  kind: 'abbreviation' | 'title';
  /** The title in the nominative when known before asking: a customary abbreviation's, or the title as written. */
  title?: string;
  /**
   * A title's words as written, up to the punctuation after it (the parser cannot tell where a title ends: „от Закона
   * за обществените поръчки възложителят …“); `[]` for an abbreviation.
   */
  words: string[];
  /** How many of `words` the title seems to have (the words after them begin the sentence's next part). */
  titleLength: number;
  /**
   * How many of `words` a result's title must cover to be the act ({@link requiredLengthOf}): `titleLength`, or fewer
   * when a word among them seems to begin the sentence's subject. 0 for an abbreviation.
   */
  requiredLength: number;
  /** What is searched to find the act (3 to 2000 characters): its title, else the abbreviation. */
  query: string;
}

/** Words that end a title read in running text: verbs, pronouns and conjunctions that begin the sentence's next part. */
const CLAUSE_WORDS = new Set([
  'е', 'са', 'се', 'си', 'не', 'ще', 'да', 'бе', 'беше', 'бил', 'била', 'било', 'били', 'има', 'няма', 'това', 'тази', 'този',
  'тези', 'той', 'тя', 'те', 'то', 'който', 'която', 'което', 'които', 'като', 'когато', 'ако', 'че', 'но', 'а', 'обаче',
  'също', 'вече', 'може', 'могат', 'трябва', 'следва', 'важи', 'гласи', 'предвижда', 'урежда', 'установява', 'определя',
  'изисква', 'допуска', 'забранява', 'дава', 'казва', 'сочи', 'посочва', 'както', 'съгласно', 'съответно', 'относно',
  'чл', 'член', 'ал', 'т', 'вж', 'всички', 'всеки', 'всяка', 'всяко', 'никой', 'никоя', 'никое', 'някой', 'някоя', 'някое',
  'някои', 'само', 'именно', 'тук', 'така', 'тогава', 'дори', 'нито', 'защото', 'затова', 'поради',
]);

/** After „и“ / „или“, words that begin another reference rather than continue a title. */
const NEW_REFERENCE = new Set(['чл', 'член', 'от', 'по', 'съгласно', 'ал', 'т', '§']);

/** Prepositions and conjunctions: a word after one of them may begin a noun phrase of the title („за задълженията“). */
const TITLE_LINKS = new Set([
  'за', 'на', 'и', 'или', 'в', 'във', 'с', 'със', 'от', 'по', 'при', 'срещу', 'върху', 'към', 'до', 'между', 'относно',
  'чрез', 'без', 'след', 'пред', 'над', 'под', 'през', 'из', 'у',
]);

/** Words of a title as written: quotation marks and brackets dropped, split on white space. */
export function titleWords(text: string): string[] {
  return text
    .replace(/[„“”"«»()]/gu, ' ')
    .split(/\s+/u)
    .map((w) => w.replace(/[.,;:]+$/u, ''))
    .filter((w) => w !== '');
}

/**
 * How many of a title's words, read in running text, belong to the title: it ends before a word of
 * {@link CLAUSE_WORDS}, a noun with the full definite article (`нотариусът`, `работодателят`: the sentence's subject),
 * or „и“ / „или“ that begins another reference („и чл. 7“, „и Закона за …“). At least two words.
 */
export function titleLengthOf(words: readonly string[]): number {
  for (let i = 2; i < words.length; i++) {
    const word = words[i]!.toLowerCase();
    if (CLAUSE_WORDS.has(word)) return i;
    if (word.length >= 4 && /(?:ът|ят)$/u.test(word)) return i;
    if (word === 'и' || word === 'или') {
      const next = words[i + 1];
      if (next === undefined || NEW_REFERENCE.has(next.toLowerCase()) || /^\p{Lu}/u.test(next)) return i;
    }
  }
  return words.length;
}

/**
 * How many of a title's first `titleLength` words a result's title must cover: fewer when a word with the definite
 * article -та, -те or -то (`вредите`, `отговорността`) follows a word that is not a preposition or a conjunction. In a
 * title only the first word of a noun phrase takes the article („за задълженията и договорите“, „за Сметната палата“),
 * so such a word begins the sentence's subject: „от Закона за задълженията и договорите вредите се поправят“ needs a
 * title of 5 words. An ending that is not the article („палата“) only lets a title that stops at the adjective before it
 * („Закон за Сметната“) fit too, and the longest title that fits is still the act. So may a word in lower case right
 * after a capitalized one („… на Република България граждани …“). At least three words.
 */
export function requiredLengthOf(words: readonly string[], titleLength: number): number {
  for (let i = 3; i < Math.min(titleLength, words.length); i++) {
    const word = words[i]!.toLowerCase();
    const before = words[i - 1]!;
    if (TITLE_LINKS.has(before.toLowerCase())) continue;
    if (word.length >= 5 && /(?:та|те|то)$/u.test(word)) return i;
    // A word in lower case right after a name („… на Република България граждани …“) goes on with the sentence.
    if (/^\p{Lu}/u.test(before) && /^\p{Ll}/u.test(words[i]!)) return i;
  }
  return titleLength;
}

/** A title's words in the nominative (`nominativeTitle`: „Закона“ → „Закон“, „Семейния кодекс“ → „Семеен кодекс“). */
export function nominativeOf(words: readonly string[]): string {
  return nominativeTitle(words.join(' '));
}

/** Key of a title: its words in the nominative, lower case („Закона за …“ and „Закон за …“ are one act). */
export function titleKey(title: string): string {
  return nominativeWordsOf(title).join(' ').toLowerCase().normalize('NFC');
}

/**
 * The act of a citation as the memo writes it. `citation` is the first of the act's citations (an unknown abbreviation
 * of two letters is searched with it, since a query has at least three characters).
 */
export function namedAct(act: NonNullable<Citation['act']>, citation: Citation): NamedAct {
  if (act.kind === 'abbreviation') {
    const title = CUSTOMARY_ABBREVIATIONS[act.text];
    if (title !== undefined) return { key: titleKey(title), written: act.text, kind: 'abbreviation', title, words: [], titleLength: 0, requiredLength: 0, query: title };
    const query = act.text.length >= 3 ? act.text : `${citation.text} ${act.text}`;
    return { key: `abbreviation:${act.text}`, written: act.text, kind: 'abbreviation', words: [], titleLength: 0, requiredLength: 0, query };
  }
  let words = titleWords(act.text);
  // „Конституцията“ alone is the Constitution of the Republic.
  if (words.length === 1 && isConstitutionAlone(words[0]!)) words = titleWords(CUSTOMARY_ABBREVIATIONS['КРБ']!);
  const titleLength = Math.min(words.length, titleLengthOf(words));
  const shown = words.slice(0, titleLength);
  const title = nominativeOf(shown);
  const requiredLength = requiredLengthOf(words, titleLength);
  return { key: titleKey(title), written: shown.join(' '), kind: 'title', title, words, titleLength, requiredLength, query: title.slice(0, 2000) };
}

/** „вр.“, „вр. с“, „във вр. с“, „във връзка с“ alone between two citations (a comma before it allowed). */
const IN_CONNECTION_WITH = /^[\s\u00a0]*,?[\s\u00a0]*(?:във[\s\u00a0]+)?(?:вр\.|връзка)(?:[\s\u00a0]*с(?![\p{L}]))?[\s\u00a0]*$/iu;
/** A list separator alone between two citations of one group. */
const LIST_SEPARATOR = /^[\s\u00a0]*(?:,|и|или|и\/или)?[\s\u00a0]*$/iu;

/**
 * The citations with the act of a chain „чл. 49 вр. чл. 45 ЗЗД“ / „чл. 52 във вр. с чл. 51 ЗЗД“: in a memo the act
 * written after the last citation is every one's, so a citation that names none takes the act of the one it is „във
 * връзка с“ (and so does the rest of its list: „чл. 3 и 4 вр. чл. 7 ЗЗД“). Only in `pravo cite`: in an act's own text
 * „чл. 5 във връзка с чл. 7 от Закона за …“ may well mean чл. 5 of the act being read.
 */
export function withConnectedActs(text: string, parsed: readonly Citation[]): Citation[] {
  const out = [...parsed];
  for (let i = out.length - 2; i >= 0; i--) {
    const here = out[i]!;
    const next = out[i + 1]!;
    if (here.act !== undefined || next.act === undefined) continue;
    const between = text.slice(here.end, next.start);
    // A list separator passes on only an act the next citation itself took from a chain.
    const inherited = parsed[i + 1]!.act === undefined;
    if (IN_CONNECTION_WITH.test(between) || (inherited && LIST_SEPARATOR.test(between))) out[i] = { ...here, act: next.act, scope: 'external' };
  }
  return out;
}

/** A search result as `pravo cite` reads it: the pair that identifies the document, its title and date. */
export interface ResultRef {
  document_id: string;
  collection: string;
  title: string;
  /** Publication date (`YYYY-MM-DD`), `''` when absent. */
  date: string;
}

/** Which document a named act is, from the results of its search. */
export type ActMatch =
  /** `others`: older acts of the same title, left aside. */
  | { kind: 'found'; document: ResultRef; others: ResultRef[] }
  | { kind: 'ambiguous'; candidates: ResultRef[] }
  /** `amendedBy`: results that only amend the act (the service holds them, not the act); `nearest`: a shorter title. */
  | { kind: 'not_found'; amendedBy: ResultRef[]; nearest?: ResultRef };

/** The words of titles in the nominative, by title: a corpus's titles are compared with many acts as written. */
const TITLE_WORDS = new Map<string, string[]>();
/** The most titles {@link TITLE_WORDS} holds (it starts over when full). */
const TITLE_WORDS_MAX = 10_000;

/** A result title's words in the nominative (`titleWords(nominativeOf(titleWords(title)))`), kept by title. */
function nominativeWordsOf(title: string): string[] {
  let words = TITLE_WORDS.get(title);
  if (words === undefined) {
    words = titleWords(nominativeOf(titleWords(title)));
    if (TITLE_WORDS.size >= TITLE_WORDS_MAX) TITLE_WORDS.clear();
    TITLE_WORDS.set(title, words);
  }
  return words;
}

/** How many words of `written` a title takes: all of the title's words, when they begin `written`; else 0. */
function prefixLength(title: string, written: readonly string[]): number {
  const words = nominativeWordsOf(title);
  if (words.length === 0 || words.length > written.length) return 0;
  return words.every((word, i) => sameTitleWord(word, written[i]!)) ? words.length : 0;
}

/** Whether a result's title is the act (see {@link matchAct}); the number of words it takes (0: not the act). */
export function fits(act: NamedAct, title: string): number {
  if (act.title !== undefined && act.kind === 'abbreviation') {
    const words = titleWords(act.title);
    const length = prefixLength(title, words);
    return length === words.length ? length : 0;
  }
  if (act.kind === 'abbreviation') return initials(title) === act.written ? 1 : 0;
  const length = prefixLength(title, act.words);
  return length >= act.requiredLength ? length : 0;
}

/**
 * Which result is the act (see the module comment). A title read in running text is taken up to the longest result
 * title that begins it and covers at least the words {@link requiredLengthOf} requires, so „Закона за собствеността и
 * ползването на земеделските земи“ is never taken for the Закон за собствеността. Of several results of the same title,
 * the newest is the act (`others`, older, are left aside) unless they amend another act (`ambiguous`), or share the
 * newest date. Several titles that fit (an abbreviation that is the initials of more than one): `ambiguous`.
 */
export function matchAct(act: NamedAct, results: readonly ResultRef[]): ActMatch {
  const scored = results.map((result) => ({ result, length: fits(act, result.title) })).filter((s) => s.length > 0 && !AMENDING_TITLE.test(s.result.title));
  const amendingOnly = (): ActMatch => {
    const amendedBy = results.filter((result) => {
      const amended = AMENDING_TITLE.exec(result.title)?.[1];
      return amended !== undefined && fits(act, nominativeTitle(amended)) > 0;
    });
    const nearest = act.kind === 'title' ? results.find((r) => prefixLength(r.title, act.words) >= 2 && !AMENDING_TITLE.test(r.title)) : undefined;
    return { kind: 'not_found', amendedBy, ...(nearest ? { nearest } : {}) };
  };
  if (scored.length === 0) {
    // An amending act cited by its own title („§ 5 от Закона за изменение и допълнение на …“).
    const exact = results.filter((r) => AMENDING_TITLE.test(r.title) && act.kind === 'title' && prefixLength(r.title, act.words) >= act.requiredLength);
    if (exact.length === 1) return { kind: 'found', document: exact[0]!, others: [] };
    if (exact.length > 1) return { kind: 'ambiguous', candidates: exact };
    return amendingOnly();
  }
  const longest = Math.max(...scored.map((s) => s.length));
  const best = scored.filter((s) => s.length === longest).map((s) => s.result);
  const titles = new Set(best.map((r) => titleKey(r.title)));
  if (titles.size > 1) return { kind: 'ambiguous', candidates: best };
  if (best.length === 1) return { kind: 'found', document: best[0]!, others: [] };
  const newest = [...best].sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
  if (newest[0]!.date === '' || newest[0]!.date === newest[1]!.date) return { kind: 'ambiguous', candidates: best };
  return { kind: 'found', document: newest[0]!, others: newest.slice(1) };
}
