/**
 * Citations of Bulgarian legal provisions: the one parser of „чл. 12, ал. 2“, „чл. 45 – 47“, „чл. 3, 4 и 5“,
 * „§ 1 от ДР на ЗДДС“, „чл. 25 от Закона за търговския регистър“, „чл. 344, ал. 1 от КТ“, below both the CLI and the
 * sandbox. The CLI reads an article's references with it (`references.ts`, `findArticleCitations`), the sandbox reads
 * the amending acts of its corpus with it and the references of a search query (`sandbox/search/references.ts`, which
 * only resolves the act as written against its corpus). Pure functions over strings: no I/O, and no imports outside
 * `src/shared` and `src/contract`. Positions are UTF-16 code units (`String.prototype.slice` offsets), `start`
 * inclusive, `end` exclusive.
 *
 * Syntax understood, in two readings of the same lexicon (below, one table of spellings):
 *
 * Running text (the default; an act's article, a memo), in the manner of freelawproject/eyecite: a cheap literal
 * pre-filter, then at each article keyword a small token parser that reads the citation group that follows.
 * - article keyword: `чл.`, `чл` before a number, `член`, `членове` (any case; not inside a word); the number:
 *   `12`, `44а`, `192в` (at most two lower-case Cyrillic letters, not followed by a letter or digit);
 * - lists joined by `,` / `и` / `или` / `и/или` („чл. 3, 4 и 5“, „чл. 2 и чл. 7“), ranges by a dash or `до`
 *   („чл. 45 – 47“, „чл. 43д – 43и“, „чл. 5 до чл. 9“); „и сл.“ / „и следв.“ / „и следващите“ after a number is part
 *   of the group (not a citation of its own: „чл. 45 и сл. ЗЗД“ is чл. 45 of the ЗЗД);
 * - details of an article: `ал.` / `алинея` / `алинеи` (paragraph), `т.` / `точка` / `точки` (point), `б.` /
 *   `буква` / `букви` with a quoted letter (`буква „а“`), `изр.` / `изречение` with a number or an ordinal
 *   (`изречение второ`), `пр.` / `предл.` / `предложение`, `параграф`; each with its own lists and ranges („ал. 1, 7 и 12“,
 *   „т. 1 – 3“);
 * - `§` items: after a list inside an article group („чл. 192в и § 139“), or a group of their own („§ 1, т. 5“,
 *   „§§ 1 – 3“), not an item's own heading at the start of a line („§ 9. Създава се …“);
 * - after the group: the provisions a `§` belongs to, `от ДР` / `ПЗР` / `ПР` / `ЗР` / `ДПЗР` or written out
 *   (`от допълнителните разпоредби`, `от преходните и заключителните разпоредби`); then the act: „от <another act>“,
 *   „на <Capitalized word>“ („на Регламент (ЕО) …“) or an abbreviation right after the group („чл. 348 НПК“) make
 *   every citation of the group one of another act, while „от този закон“, „от настоящия кодекс“, „от ДР“ keep it in
 *   the act being read, and „от същия закон“ points back at an act named before („чл. 5 и § 1 от ДР на ЗИН“ stays in
 *   the act being read: „от ДР“ decides; a `§` group of its own, „§ 1 от ДР на ЗИН“, is of the act named);
 * - not read, by design (a citation missed is better than one invented): roman-numbered articles („чл. ХІ“), a
 *   paragraph without its article („ал. 2“ alone), a quoted article's own heading („„Чл. 17. Към …“), a quantity after
 *   a list separator („чл. 3, 14 дни“ ends at 3).
 *
 * Typed (`{ typed: true }`: a search query as a person types it; dots, commas and spaces optional):
 * - an article: `чл. 45`, `чл.45`, `чл 45`, `член 45`, `чл. 2б` (one letter), with an optional `, ал. 1` (also
 *   `ал.1`, `ал 1`) and then `, т. 3`; a range `чл. 78 – 80` / `чл. 78-80` or a pair `чл. 71 и 72` (one citation,
 *   `articleTo` the second);
 * - a `§` of the supplementary or final provisions: `§ 1`, `§ 1, т. 2`, with `от ДР` / `ПЗР` / `ПР` / `ЗР` or
 *   those words written out (`от допълнителните разпоредби`; `ДПЗР` is not among them, it reads as the act);
 * - the act, after `от`, `на`, `по` or directly: an abbreviation in capitals (`КТ`, `ЗЗД`, `ЗЗДискр`) or a title
 *   (`Закона за …`, `Кодекса на …`, `Конституцията на …`) running over the words that follow; which of those words
 *   belong to the title only a list of titles can tell (the sandbox keeps the longest run that is a title it knows),
 *   or a code or law named by its adjective (`Семейния кодекс`, `гражданския процесуален кодекс`);
 * An abbreviation written alone („ЗОП обжалване“) is not a citation: see {@link findActAbbreviations}.
 *
 * The two readings differ where typed queries and drafted text differ (a query „чл 5 ал 1“ has no dots; drafted text
 * lists „чл. 3, 4 и 5“ and names „членове“), and each keeps the behaviour its callers have always had.
 */
import { CUSTOMARY_ABBREVIATIONS } from './act-abbreviations.js';

/** The provisions of an act outside its articles that a `§` belongs to, by their customary abbreviation. */
export type ProvisionsName = 'ДР' | 'ПЗР' | 'ПР' | 'ЗР' | 'ДПЗР';

/** The provisions a `§` citation names, as written („ДР“, „преходните и заключителните разпоредби“). */
export interface ProvisionsPart {
  /** `ДР` (допълнителни), `ПЗР` (преходни и заключителни), `ПР` (преходни), `ЗР` (заключителни), `ДПЗР`. */
  name: ProvisionsName;
  /** As written, without the „от“ / „на“ before it. */
  text: string;
  start: number;
  end: number;
}

/** The act a citation names, as written (not resolved: that needs a list of acts). */
export interface ActAsWritten {
  /**
   * `abbreviation`: capitals (`КТ`, `ЗЗД`, `ЗЗДискр`); `title`: a title as written. A title that reads „Закон(а) /
   * Кодекс(а) за|на …“ or „Конституцията на …“ runs over every word up to the next punctuation (in running text, not
   * past the line): its end is not known without a list of titles, so it may take words of the sentence after it. In
   * running text also „Гражданския процесуален кодекс“ (up to four words ending in кодекс / закон), an act of the
   * European Union („Регламент (ЕС) № 1234/2013“), else the capitalized word alone („Конституцията“, „Наредба“).
   * `previous`: an act named before („същия закон“).
   */
  kind: 'abbreviation' | 'title' | 'previous';
  /** As written, without the preposition or the quotation mark before it; no white space at its end. */
  text: string;
  start: number;
  end: number;
}

/** One citation of a provision: an article (`article`) or a `§` of an act's other provisions (`section`). */
export interface Citation {
  /**
   * The citation as written, `text.slice(start, end)`: from its keyword („чл.“, „§“) or, for a later item of a list,
   * its bare number, to its last detail; the provisions (`part`) and the act (`act`) after it are not included, they
   * have their own positions (in a typed query „§ 1 от ДР“ and „чл. 5 от КТ“ read as one citation each, so the whole
   * reference runs from `start` to `act?.end ?? part?.end ?? end`).
   */
  text: string;
  start: number;
  end: number;
  /** The article, lower case as the corpus writes refs: `12`, `45а`; absent for a `§`. */
  article?: string;
  /** The last article of a range („чл. 45 – 47“: `47`); typed, also the second of a pair („чл. 71 и 72“: `72`). */
  articleTo?: string;
  /** The `§` number (`1`, `12а`); absent for an article. */
  section?: string;
  /** The last `§` of a range („§§ 1 – 3“: `3`); running text only. */
  sectionTo?: string;
  /** The first paragraph cited (`ал. 2` → `2`). */
  paragraph?: string;
  /**
   * Every paragraph number listed, in order, a range by its two ends: „ал. 1, 7 и 12“ → `1`, `7`, `12`; „ал. 1 – 3“ →
   * `1`, `3`. Numbers after another detail (изречение, предложение) are not among them. Absent when none is cited.
   */
  paragraphs?: string[];
  /** The first point cited (`т. 3` → `3`). */
  point?: string;
  /** Every point number listed, as {@link paragraphs} („ал. 2, т. 1 – 3“ → `1`, `3`). */
  points?: string[];
  /** The first letter cited (`буква „а“` → `а`); running text only. */
  letter?: string;
  /** The details as written, white space collapsed: `ал. 2, т. 3`, `ал. 1, 7 и 12`; `''` when none. */
  detail: string;
  /** For a `§`, the provisions it belongs to, when written after it („от ДР“). */
  part?: ProvisionsPart;
  /**
   * The act written after the citation (or after its group: „чл. 3, 4 и 5 от ЗОП“ gives all three the same act). In
   * running text only when `scope` is `external`, and not always then (an act the reader cannot delimit).
   */
  act?: ActAsWritten;
  /**
   * `same`: a provision of the act being read (nothing after it, or „от този закон“, „от ДР“ and the like); `external`:
   * of another act („от Закона за …“, „от Конституцията“, „от ЗЗД“, „НПК“, „от същия закон“). Typed: `external` when
   * an act is named.
   */
  scope: 'same' | 'external';
}

// ---------------------------------------------------------------------------------------------------------------------
// The lexicon: every spelling both readings know, one entry per element. Where a typed query and drafted text are
// spelled differently, the two spellings sit side by side (`…_TYPED` beside the running text's token).
// ---------------------------------------------------------------------------------------------------------------------

/**
 * Running text: where a group may start: "чл.", "чл" before a number, "член", "членове", not inside a word. (The
 * letters first, then the look behind: the engine then looks for "чл" rather than tries every position.)
 */
const GROUP_START = /чл(?<![\p{L}\p{N}]чл)(?:енове|ен|\.|(?=[ \u00a0]*\d))/giu;
/** Typed: the article keyword, the dot optional (`Чл`, `ЧЛ.`, `член`); a number must follow. */
const ARTICLE_KEYWORD_TYPED = String.raw`(?:[Чч][Лл]\.?|[Чч]лен)`;
/** Typed: an article or `§` number, with at most one letter (no boundary after it: `45аб` reads `45а`). */
const NUMBER_TYPED = String.raw`\d+[а-я]?`;
/** Typed: a range (a dash) or a pair (`и`) of articles. */
const RANGE_OR_PAIR_TYPED = String.raw`(?:[-–—]|и)`;
/** Typed: the paragraph keyword (`ал.`, `ал`, `Ал.`) and the point keyword (`т.`, `т`; after a `§` lower case only). */
const PARAGRAPH_TYPED = String.raw`[Аа]л\.?`;
const POINT_TYPED = String.raw`[Тт]\.?`;
const SECTION_POINT_TYPED = String.raw`т\.?`;

type TokenKind = 'article' | 'detail' | 'number' | 'letter' | 'ordinal' | 'following' | 'list' | 'range' | 'section' | 'other';

interface Token {
  kind: TokenKind;
  start: number;
  end: number;
  /** The matched text. */
  text: string;
}

/** Running text: the token patterns, tried in this order at the first non-blank character (sticky). */
const TOKENS: [TokenKind, RegExp][] = [
  ['article', /(?:членове|член|чл\.?)(?!\p{L})/iuy],
  ['detail', /(?:ал\.|алинеи|алинея|т\.|точки|точка|б\.|букви|буква|изр\.|изречения|изречение|пр\.|предл\.|предложения|предложение|параграфи|параграф)(?!\p{L})/iuy],
  ['number', /\d+(?:[а-яѝ]{1,2})?(?![\p{L}\p{N}])/uy],
  ['letter', /[„"“«']\s*[а-яa-z]\s*[“"”»']/iuy],
  ['ordinal', /(?:първо|второ|трето|четвърто|пето|шесто|последно)(?!\p{L})/iuy],
  // „и сл.“ (and the articles after it): part of the group, so that the act after it is the group's („чл. 45 и сл. ЗЗД“).
  ['following', /и[ \u00a0]+(?:сл\.|следв\.|следващите)(?!\p{L})/iuy],
  ['list', /,|(?:и\/или|или|и)(?!\p{L})/iuy],
  ['range', /[–—‒−-]|до(?!\p{L})/uy],
  ['section', /§/uy],
];

/** Which detail a detail keyword (a `detail` token) introduces. */
function detailKindOf(keyword: string): 'paragraph' | 'point' | 'letter' | undefined {
  const k = keyword.toLowerCase();
  if (k === 'ал.' || k.startsWith('алине')) return 'paragraph';
  if (k === 'т.' || k.startsWith('точк')) return 'point';
  if (k === 'б.' || k.startsWith('букв')) return 'letter';
  return undefined;
}

/** Running text: words after a number that make it a quantity, not an article ("чл. 3, 14 дни", "до 3000 лв."). */
const UNIT = /^[ \u00a0]*(?:дни|ден|дена|седмици|седмица|месеца|месец|месеци|години|година|г\.|часа|час|минути|лв\.?|лева|евро|на сто|%|процента|души|броя|пъти)(?!\p{L})/iu;

/** Abbreviations of an act's own provisions: допълнителни, преходни и заключителни, преходни, заключителни разпоредби. */
const PROVISIONS_ABBREVIATIONS: readonly ProvisionsName[] = ['ДР', 'ПЗР', 'ПР', 'ЗР', 'ДПЗР'];
/** Those provisions written out (`допълнителните разпоредби`, `преходните и заключителните разпоредби` …). */
const PROVISIONS_WRITTEN_OUT = String.raw`[Дд]опълнителн\p{L}*\s+разпоредби|[Пп]реходн\p{L}*(?:\s+и\s+заключителн\p{L}*)?\s+разпоредби|[Зз]аключителн\p{L}*\s+разпоредби`;
/** Typed: the provisions after a `§` (the first four abbreviations, no boundary after them, or written out). */
const PROVISIONS_TYPED = `${PROVISIONS_ABBREVIATIONS.slice(0, 4).join('|')}|${PROVISIONS_WRITTEN_OUT}`;
/** Running text: the provisions after a group, after „от“ / „на“. */
const PROVISIONS_AFTER = new RegExp(
  String.raw`[ \u00a0]*,?[\s\u00a0]*(?:от|на)[\s\u00a0]+(?<part>(?:${[...PROVISIONS_ABBREVIATIONS].sort((a, b) => b.length - a.length).join('|')})(?![\p{L}\p{N}])|${PROVISIONS_WRITTEN_OUT})`,
  'uy',
);
/** Running text: a word after „от“ that is the abbreviation of the act's own provisions (`от ДР`). */
const SAME_ACT_ABBREVIATION = new RegExp(`^(?:${PROVISIONS_ABBREVIATIONS.join('|')})$`, 'u');

/** Running text: words after "от" that keep a citation in the act being read. */
const SAME_ACT_WORD = /^(?:този|тази|това|настоящия|настоящият|настоящата|настоящото|преходните|преходни|допълнителните|допълнителни|заключителните|заключителни|общите)$/iu;

/**
 * Running text: what follows a group: "от <word>" (or "на <Capitalized word>": "чл. 2 и 3 на Регламент (ЕО) №
 * 178/2002"), or an abbreviation (2+ capitals: НПК, ЗЗД, ДОПК, ЗМВнР) on the same line.
 */
const FROM_WORD = /[ \u00a0]*,?[\s\u00a0]*(?:от[\s\u00a0]+[„"“«]?([\p{L}\p{N}]+)|на[\s\u00a0]+[„"“«]?(\p{Lu}[\p{L}\p{N}]*))/uy;
/** Running text: "… разпоредби на Кодекса за …", another act's provisions (after "от преходните и заключителните"). */
const PROVISIONS_OF_ANOTHER_ACT = /^[^.;:\n]{0,60}?разпоредби[\s\u00a0]+(?:на|към)[\s\u00a0]+[„"“«]?(?=\p{Lu})/u;
/** Running text: an act's abbreviation right after a group. */
const ABBREVIATION_WRITTEN = String.raw`[А-Я]{2}[А-Яа-я]{0,6}(?!\p{L})`;
const ABBREVIATION_AFTER = new RegExp(String.raw`[ \u00a0]*,?[ \u00a0]*(${ABBREVIATION_WRITTEN})`, 'uy');
const ABBREVIATION_AT = new RegExp(ABBREVIATION_WRITTEN, 'uy');
/** Typed (and alone): an act's abbreviation in capitals, then at most five lower-case letters (`ЗЗДискр`). */
const ABBREVIATION_TYPED = String.raw`\p{Lu}{2,}[\p{Ll}]{0,5}`;
/** An act's title: „Закон(а) за …“, „Кодекс(а) на …“, „Конституцията на …“, over the words that follow. */
const TITLE = String.raw`(?:[Зз]акона?|[Кк]одекса?|[Кк]онституцията)\s+(?:за|на)\s+[\p{L}\s-]+`;
const TITLE_AT = new RegExp(TITLE, 'uy');
/**
 * Running text: another kind of act by its title: „Конвенцията за защита на правата на човека …“, „Наредба № 3 за …“,
 * „Правилника за прилагане на …“, over the words that follow (so the act is named whole, not by its first word).
 */
const OTHER_TITLE_AT = /(?:Конвенция(?:та)?|Наредба(?:та)?|Правилника?)(?:[ \u00a0]+№[ \u00a0]*\d+)?[ \u00a0]+(?:за|относно|на)[ \u00a0]+[\p{L}\s-]+/uy;
/**
 * Typed: a code or law named by its adjective, as running text reads it ({@link NAMED_CODE_AT}), in any case
 * („Семейния кодекс“, „гражданския процесуален кодекс“, „Търговския закон“).
 */
const NAMED_CODE_TYPED = String.raw`\p{L}[\p{Ll}-]*(?:\s+\p{Ll}[\p{Ll}-]*){0,3}?\s+(?:[Кк]одекс|[Зз]акон)а?(?!\p{L})`;
/** Typed: the Constitution by its name alone („чл. 4 от Конституцията“, „чл. 4 Конституция“). */
const CONSTITUTION_TYPED = String.raw`[Кк]онституция(?:та)?(?!\p{L})`;
/** Running text: a code or law named by its adjective („Гражданския процесуален кодекс“, „Търговския закон“). */
const NAMED_CODE_AT = /\p{Lu}[\p{Ll}-]*(?:[ \u00a0]+\p{Ll}[\p{Ll}-]*){0,3}?[ \u00a0]+(?:кодекс|закон)а?(?!\p{L})/uy;
/** Running text: an act of the European Union („Регламент (ЕС) № 1234/2013“, „Директива (ЕС) 2019/1937“). */
const EU_ACT_AT = /(?:Регламент|Директива|Решение)(?:[ \u00a0]+за[ \u00a0]+изпълнение)?[ \u00a0]*(?:\([^()\n]{1,20}\)[ \u00a0]*)?(?:№[ \u00a0]*)?\d+\/\d+(?:\/[\p{L}\p{N}]+)?/uy;
/** Running text: another act named by its first word („Конституцията“, „Наредба“). */
const CAPITALIZED_WORD_AT = /\p{Lu}[\p{L}\p{N}]*/uy;
/** Running text: the patterns of an act by its title, in the order {@link actAt} tries them. */
const TITLES_AT = [TITLE_AT, OTHER_TITLE_AT, NAMED_CODE_AT, EU_ACT_AT, CAPITALIZED_WORD_AT];
/** Running text: „същия закон“, an act named before. */
const PREVIOUS_ACT_AT = /същ\p{L}*(?:[\s\u00a0]+\p{L}+)?/iuy;
/** Running text: the act after a `§` group or its provisions: „от|на|към …“ or an abbreviation. */
const ACT_AFTER_SECTIONS = /[ \u00a0]*,?[\s\u00a0]*(?:(от|на|към)[\s\u00a0]+)?[„"“«]?/uy;

/** Typed: an article with its range or pair, paragraph and point (each part captured, with its position). */
const ARTICLE_TYPED =
  String.raw`${ARTICLE_KEYWORD_TYPED}\s*(?<article>${NUMBER_TYPED})(?:\s*${RANGE_OR_PAIR_TYPED}\s*(?<articleTo>${NUMBER_TYPED}))?` +
  String.raw`(?:\s*,?\s*(?<paragraphAt>${PARAGRAPH_TYPED}\s*(?<paragraph>${NUMBER_TYPED})))?` +
  String.raw`(?:\s*,?\s*(?<pointAt>${POINT_TYPED}\s*(?<point>${NUMBER_TYPED})))?`;
/** Typed: a `§` with its point and the provisions it belongs to. */
const SECTION_TYPED =
  String.raw`§\s*(?<section>${NUMBER_TYPED})(?:\s*,?\s*(?<sectionPointAt>${SECTION_POINT_TYPED}\s*(?<sectionPoint>\d+)))?` +
  String.raw`(?:\s*(?:от|на)\s+(?<part>${PROVISIONS_TYPED}))?`;
/** Typed: a citation, then optionally the act after „от“ / „на“ / „по“ or directly. */
const REFERENCE_TYPED = new RegExp(
  String.raw`(?<![\p{L}\p{N}])(?:${ARTICLE_TYPED}|${SECTION_TYPED})(?:\s*,?\s*(?:(?:от|на|по)\s+)?(?:(?<abbreviation>${ABBREVIATION_TYPED})(?![\p{L}\p{N}])|(?<title>${TITLE}|${NAMED_CODE_TYPED}|${CONSTITUTION_TYPED})))?`,
  'gud',
);
/** An abbreviation in capitals written alone. */
const BARE_ABBREVIATION = new RegExp(String.raw`(?<![\p{L}\p{N}])(${ABBREVIATION_TYPED})(?![\p{L}\p{N}])`, 'gu');

// ---------------------------------------------------------------------------------------------------------------------
// Running text
// ---------------------------------------------------------------------------------------------------------------------

/** The token at `pos` (after blanks); `other` for anything the grammar does not know, `undefined` at the end. */
function tokenAt(text: string, pos: number): Token | undefined {
  let start = pos;
  while (start < text.length && isBlank(text.charCodeAt(start))) start++;
  if (start >= text.length) return undefined;
  const patterns = tokensStartingWith(text.charCodeAt(start));
  for (let i = 0; i < patterns.length; i++) {
    const [kind, pattern] = patterns[i]!;
    pattern.lastIndex = start;
    const match = pattern.exec(text);
    if (match) return { kind, start, end: pattern.lastIndex, text: match[0] };
  }
  return { kind: 'other', start, end: start + 1, text: text[start]! };
}

/**
 * Whether a UTF-16 code unit is white space as `\s` reads it (the blanks between tokens, `[\s\u00a0]*`): tab, line
 * feed, vertical tab, form feed, carriage return, space, no-break space, and the Unicode spaces and separators.
 */
function isBlank(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 || code === 0x202f ||
    code === 0x205f || code === 0x3000 || code === 0xfeff
  );
}

/**
 * The first characters each token pattern can match at (lower case; the patterns that ignore case match the upper case
 * too), so that {@link tokenAt} tries only the patterns that can match there, in the order of {@link TOKENS}.
 */
const TOKEN_FIRST: Readonly<Record<TokenKind, string>> = {
  article: 'ч',
  detail: 'атбип',
  number: '0123456789',
  letter: '„"“«\'',
  ordinal: 'пвтчш',
  following: 'и',
  list: ',и',
  range: '–—‒−-д',
  section: '§',
  other: '',
};
const TOKENS_BY_FIRST = new Map<number, [TokenKind, RegExp][]>();
for (const entry of TOKENS) {
  for (const first of TOKEN_FIRST[entry[0]]) {
    for (const c of new Set([first, first.toUpperCase()])) {
      const list = TOKENS_BY_FIRST.get(c.charCodeAt(0)) ?? [];
      list.push(entry);
      TOKENS_BY_FIRST.set(c.charCodeAt(0), list);
    }
  }
}
const NO_TOKENS: [TokenKind, RegExp][] = [];

/** The token patterns that can match at a character, by its UTF-16 code unit (see {@link TOKEN_FIRST}). */
function tokensStartingWith(c: number): [TokenKind, RegExp][] {
  return TOKENS_BY_FIRST.get(c) ?? NO_TOKENS;
}

/** A citation being read: an article or a `§`, its details and its extent. */
interface Building {
  article?: string;
  through?: string;
  section?: string;
  sectionTo?: string;
  paragraph?: string;
  paragraphs?: string[];
  point?: string;
  points?: string[];
  letter?: string;
  /** The kind of the last detail keyword read: what a number after a list or range separator continues. */
  detailKind?: 'paragraph' | 'point' | 'letter';
  detailStart?: number;
  detailEnd?: number;
  start: number;
  end: number;
}

/** A group: the citations read from one keyword on, and where the group ends. */
interface Group {
  citations: Building[];
  end: number;
}

/** Whether a token holds a value a detail takes: a number (`ал. 2`, `т. 1а`), a quoted letter (`б. „а“`), an ordinal. */
function isDetailValue(token: Token | undefined): token is Token {
  return token !== undefined && (token.kind === 'number' || token.kind === 'letter' || token.kind === 'ordinal');
}

/**
 * Notes a detail's value on a citation: the first paragraph, point or letter (after its keyword, the detail token
 * `keyword`), and every paragraph and point number listed (without a keyword, the value continues the last detail:
 * „ал. 1, 7 и 12“, „т. 1 – 3“).
 */
function recordDetail(citation: Building, keyword: Token | undefined, value: Token): void {
  if (keyword) {
    const kind = detailKindOf(keyword.text);
    if (kind === undefined) delete citation.detailKind;
    else citation.detailKind = kind;
  }
  const kind = citation.detailKind;
  if (kind === undefined) return;
  if (kind === 'letter') {
    if (keyword && citation.letter === undefined && value.kind === 'letter') citation.letter = /[а-яa-z]/iu.exec(value.text)![0].toLowerCase();
    return;
  }
  if (value.kind !== 'number') return;
  const number = value.text.toLowerCase();
  if (keyword) citation[kind] ??= number;
  (kind === 'paragraph' ? (citation.paragraphs ??= []) : (citation.points ??= [])).push(number);
}

/** Whether the `§` at `start`, its number ending at `numberEnd`, is an item's own heading: `§ 9.` opening a line. */
function isSectionHeading(text: string, start: number, numberEnd: number): boolean {
  if (text[numberEnd] !== '.') return false;
  let i = start - 1;
  while (i >= 0 && (text[i] === ' ' || text[i] === '\t' || text[i] === '\u00a0')) i--;
  return i < 0 || text[i] === '\n' || text[i] === '\r' || '„"“«'.includes(text[i]!);
}

/**
 * Reads the citation group that starts with the keyword at `start`: an article keyword (`opening` `article`), or a
 * `§` (`section`: such a group ends before any article keyword, which starts a group of its own). `undefined` when no
 * number follows, or when it is an article's own heading in quoted text ("„Чл. 17. Към …": capital "Чл.", the number
 * followed by a dot), or a `§` item's heading ({@link isSectionHeading}).
 */
function readGroup(text: string, start: number, opening: 'article' | 'section'): Group | undefined {
  const keyword = tokenAt(text, start);
  const citations: Building[] = [];
  let current: Building | undefined;
  // The `§` item being read, and whether a detail of it was read (a number after a list is then that detail's).
  let section: Building | undefined;
  let sectionDetail = false;
  // Widened on purpose: `addDetail` changes it, which narrowing cannot see.
  let level = 'article' as 'article' | 'detail' | 'section';
  let pos: number;
  if (opening === 'article') {
    if (keyword?.kind !== 'article') return undefined;
    const first = tokenAt(text, keyword.end);
    if (first?.kind !== 'number') return undefined;
    if (keyword.text === 'Чл.' && text[first.end] === '.') return undefined;
    current = { article: first.text.toLowerCase(), start: keyword.start, end: first.end };
    citations.push(current);
    pos = first.end;
  } else {
    if (keyword?.kind !== 'section') return undefined;
    const first = tokenAt(text, text[keyword.end] === '§' ? keyword.end + 1 : keyword.end);
    if (first?.kind !== 'number' || isSectionHeading(text, keyword.start, first.end)) return undefined;
    section = { section: first.text.toLowerCase(), start: keyword.start, end: first.end };
    citations.push(section);
    level = 'section';
    pos = first.end;
  }
  const addDetail = (from: number, value: Token, detailKeyword?: Token): void => {
    current!.detailStart ??= from;
    current!.detailEnd = value.end;
    current!.end = value.end;
    recordDetail(current!, detailKeyword, value);
    level = 'detail';
    pos = value.end;
  };
  // A detail of a `§` item: noted on the item; the reading goes on as it always has (`pos` moves past the value).
  const addSectionDetail = (from: number, value: Token, detailKeyword?: Token): void => {
    if (section) {
      section.detailStart ??= from;
      section.detailEnd = value.end;
      section.end = value.end;
      recordDetail(section, detailKeyword, value);
      sectionDetail = true;
    }
    pos = value.end;
  };

  for (;;) {
    const token = tokenAt(text, pos);
    if (token === undefined) break;
    if (token.kind === 'following') {
      pos = token.end;
      continue;
    }
    if (token.kind === 'detail') {
      const value = tokenAt(text, token.end);
      if (!isDetailValue(value)) break;
      if (current) addDetail(token.start, value, token);
      else addSectionDetail(token.start, value, token); // a detail of a § item: part of the group, not of an article
      continue;
    }
    if (token.kind !== 'list' && token.kind !== 'range') break;
    const next = tokenAt(text, token.end);
    if (next === undefined) break;
    if (next.kind === 'article') {
      if (opening === 'section') break;
      const number = tokenAt(text, next.end);
      if (number?.kind !== 'number' || (next.text === 'Чл.' && text[number.end] === '.')) break;
      if (token.kind === 'range' && level === 'article' && current) {
        current.through = number.text.toLowerCase();
      } else {
        current = { article: number.text.toLowerCase(), start: next.start, end: number.end };
        citations.push(current);
      }
      current.end = number.end;
      level = 'article';
      pos = number.end;
      continue;
    }
    if (next.kind === 'number') {
      if (UNIT.test(text.slice(next.end, next.end + 12))) break;
      if (level === 'article' && current) {
        if (token.kind === 'range') current.through = next.text.toLowerCase();
        else citations.push((current = { article: next.text.toLowerCase(), start: next.start, end: next.end }));
        current.end = next.end;
        pos = next.end;
        continue;
      }
      if (level === 'detail' && current) {
        addDetail(current.detailStart!, next);
        continue;
      }
      if (level === 'section') {
        if (section && sectionDetail) addSectionDetail(section.detailStart!, next);
        else if (section && token.kind === 'range') {
          section.sectionTo = next.text.toLowerCase();
          section.end = next.end;
        } else if (section) {
          citations.push((section = { section: next.text.toLowerCase(), start: next.start, end: next.end }));
        }
        pos = next.end;
        continue;
      }
      break;
    }
    if ((next.kind === 'letter' || next.kind === 'ordinal') && level === 'detail' && current) {
      addDetail(current.detailStart!, next);
      continue;
    }
    if (next.kind === 'detail' && token.kind === 'list') {
      const value = tokenAt(text, next.end);
      if (!isDetailValue(value)) break;
      if (current) addDetail(next.start, value, next);
      else addSectionDetail(next.start, value, next);
      continue;
    }
    if (next.kind === 'section' && token.kind === 'list') {
      const number = tokenAt(text, next.end);
      if (number?.kind !== 'number') break;
      current = undefined;
      citations.push((section = { section: number.text.toLowerCase(), start: next.start, end: number.end }));
      sectionDetail = false;
      level = 'section';
      pos = number.end;
      continue;
    }
    break;
  }
  return { citations, end: pos };
}

/**
 * The act written at `at` (after „от“ / „на“ and a quotation mark): an abbreviation; a title („Закона за …“ to the end
 * of its words on that line, „Конвенцията за …“, „Наредба № 3 за …“, „Гражданския процесуален кодекс“, „Регламент (ЕС)
 * № 1234/2013“); else a capitalized word.
 */
function actAt(text: string, at: number): ActAsWritten | undefined {
  ABBREVIATION_AT.lastIndex = at;
  const abbreviation = ABBREVIATION_AT.exec(text);
  if (abbreviation) return { kind: 'abbreviation', text: abbreviation[0], start: at, end: at + abbreviation[0].length };
  for (const pattern of TITLES_AT) {
    pattern.lastIndex = at;
    const match = pattern.exec(text);
    if (match) {
      // A title does not run over a line break.
      const line = /[\n\r]/u.exec(match[0]);
      const written = (line ? match[0].slice(0, line.index) : match[0]).trimEnd();
      return { kind: 'title', text: written, start: at, end: at + written.length };
    }
  }
  return undefined;
}

/** „същия закон“ at `at`: an act named before. */
function previousActAt(text: string, at: number): ActAsWritten {
  PREVIOUS_ACT_AT.lastIndex = at;
  const written = PREVIOUS_ACT_AT.exec(text)![0];
  return { kind: 'previous', text: written, start: at, end: at + written.length };
}

/**
 * The scope of an article group by what follows it at `end`, and the act named there: "от <this act's words>" or
 * "от ДР" → `same` (but "от преходните и заключителните разпоредби на Кодекса …" → `external`); "от същия …", "от
 * <anything else>", "на <Capitalized>" or an act's abbreviation → `external`; nothing → `same`.
 */
function scopeAfter(text: string, end: number): { scope: Citation['scope']; act?: ActAsWritten | undefined } {
  FROM_WORD.lastIndex = end;
  const from = FROM_WORD.exec(text);
  if (from) {
    // The word ends the match.
    if (from[2] !== undefined) return { scope: 'external', act: actAt(text, FROM_WORD.lastIndex - from[2].length) };
    const word = from[1]!;
    const wordAt = FROM_WORD.lastIndex - word.length;
    // "чл. 5 от 1 януари …": a date, not an act.
    if (/^\d/u.test(word)) return { scope: 'same' };
    if (SAME_ACT_WORD.test(word)) {
      const after = FROM_WORD.lastIndex;
      const another = PROVISIONS_OF_ANOTHER_ACT.exec(text.slice(after, after + 120));
      return another ? { scope: 'external', act: actAt(text, after + another[0].length) } : { scope: 'same' };
    }
    if (SAME_ACT_ABBREVIATION.test(word)) return { scope: 'same' };
    // "от същия закон" points back at an act named before, in a citation or in prose; never at the act being read
    // (which says "от този закон").
    if (/^същ/iu.test(word)) return { scope: 'external', act: previousActAt(text, wordAt) };
    return { scope: 'external', act: actAt(text, wordAt) };
  }
  ABBREVIATION_AFTER.lastIndex = end;
  const abbreviation = ABBREVIATION_AFTER.exec(text);
  if (abbreviation) {
    const written = abbreviation[1]!;
    if (SAME_ACT_ABBREVIATION.test(written)) return { scope: 'same' };
    const at = ABBREVIATION_AFTER.lastIndex - written.length;
    return { scope: 'external', act: { kind: 'abbreviation', text: written, start: at, end: at + written.length } };
  }
  return { scope: 'same' };
}

/** The provisions written after a group at `end` („от ДР“, „от преходните и заключителните разпоредби“). */
function partAfter(text: string, end: number): ProvisionsPart | undefined {
  PROVISIONS_AFTER.lastIndex = end;
  const match = PROVISIONS_AFTER.exec(text);
  if (!match) return undefined;
  const written = match.groups!.part!;
  return provisionsPart(written, PROVISIONS_AFTER.lastIndex - written.length, PROVISIONS_AFTER.lastIndex);
}

/** The act after a `§` group (or its provisions) at `end`: after „от“ / „на“ / „към“, or an abbreviation directly. */
function actAfterSections(text: string, end: number): ActAsWritten | undefined {
  ACT_AFTER_SECTIONS.lastIndex = end;
  const match = ACT_AFTER_SECTIONS.exec(text)!;
  const at = ACT_AFTER_SECTIONS.lastIndex;
  if (match[1] === undefined) {
    ABBREVIATION_AT.lastIndex = at;
    const abbreviation = ABBREVIATION_AT.exec(text);
    if (!abbreviation || SAME_ACT_ABBREVIATION.test(abbreviation[0])) return undefined;
    return { kind: 'abbreviation', text: abbreviation[0], start: at, end: at + abbreviation[0].length };
  }
  if (/^същ/iu.test(text.slice(at, at + 3))) return previousActAt(text, at);
  const act = actAt(text, at);
  return act && !(act.kind === 'abbreviation' && SAME_ACT_ABBREVIATION.test(act.text)) ? act : undefined;
}

/** `ДР`, `ПЗР` … for the provisions as written. */
function provisionsPart(written: string, start: number, end: number): ProvisionsPart {
  const lower = written.toLowerCase();
  const name: ProvisionsName = (PROVISIONS_ABBREVIATIONS as readonly string[]).includes(written)
    ? (written as ProvisionsName)
    : lower.startsWith('допълнителн')
      ? 'ДР'
      : lower.startsWith('преходн')
        ? /заключителн/u.test(lower)
          ? 'ПЗР'
          : 'ПР'
        : 'ЗР';
  return { name, text: written, start, end };
}

/** The citations of `group` as {@link Citation}s, with what follows the group. */
function citationsOf(text: string, group: Group, scope: Citation['scope'], act: ActAsWritten | undefined, part: ProvisionsPart | undefined): Citation[] {
  return group.citations.map((c) => {
    const citation = { text: text.slice(c.start, c.end), start: c.start, end: c.end } as Citation;
    if (c.article !== undefined) citation.article = c.article;
    if (c.through !== undefined) citation.articleTo = c.through;
    if (c.section !== undefined) citation.section = c.section;
    if (c.sectionTo !== undefined) citation.sectionTo = c.sectionTo;
    if (c.paragraph !== undefined) citation.paragraph = c.paragraph;
    if (c.paragraphs !== undefined) citation.paragraphs = c.paragraphs;
    if (c.point !== undefined) citation.point = c.point;
    if (c.points !== undefined) citation.points = c.points;
    if (c.letter !== undefined) citation.letter = c.letter;
    citation.detail = c.detailStart === undefined ? '' : text.slice(c.detailStart, c.detailEnd).replace(/[\s\u00a0]+/gu, ' ');
    if (c.section !== undefined && part) citation.part = part;
    if (act) citation.act = act;
    citation.scope = scope;
    return citation;
  });
}

/**
 * Running text: the article groups (with their `§` items), then `§` groups outside them; in text order. With
 * `articlesOnly`, the article citations alone (no `§` group is read).
 */
function readRunningText(text: string, articlesOnly: boolean): Citation[] {
  const found: Citation[] = [];
  const spans: [number, number][] = [];
  if (/чл/iu.test(text)) {
    let consumed = 0;
    // `exec` in a loop rather than `matchAll`, which copies the expression on every call.
    GROUP_START.lastIndex = 0;
    for (let match = GROUP_START.exec(text); match !== null; match = GROUP_START.exec(text)) {
      if (match.index < consumed) continue;
      const group = readGroup(text, match.index, 'article');
      if (!group) continue;
      consumed = group.end;
      spans.push([match.index, group.end]);
      const { scope, act } = scopeAfter(text, group.end);
      if (articlesOnly) group.citations = group.citations.filter((c) => c.article !== undefined);
      const part = group.citations.some((c) => c.section !== undefined) ? partAfter(text, group.end) : undefined;
      found.push(...citationsOf(text, group, scope, scope === 'external' ? act : undefined, part));
    }
  }
  if (articlesOnly || !text.includes('§')) return found;
  const sections: Citation[] = [];
  let consumed = 0;
  let span = 0;
  for (let at = text.indexOf('§'); at >= 0; at = text.indexOf('§', at + 1)) {
    if (at < consumed) continue;
    while (span < spans.length && spans[span]![1] <= at) span++;
    if (span < spans.length && spans[span]![0] <= at) continue;
    const group = readGroup(text, at, 'section');
    if (!group) continue;
    consumed = group.end;
    const part = partAfter(text, group.end);
    const act = actAfterSections(text, part?.end ?? group.end);
    sections.push(...citationsOf(text, group, act ? 'external' : 'same', act, part));
  }
  if (sections.length === 0) return found;
  return [...found, ...sections].sort((a, b) => a.start - b.start);
}

// ---------------------------------------------------------------------------------------------------------------------
// Typed
// ---------------------------------------------------------------------------------------------------------------------

/** Typed: one match of {@link REFERENCE_TYPED} as a {@link Citation}. */
function typedCitation(query: string, match: RegExpMatchArray): Citation {
  const groups = match.groups!;
  const at = match.indices!.groups!;
  const start = match.index!;
  // The citation ends at its last part present (the provisions and the act have their own positions).
  const parts = ['article', 'articleTo', 'paragraph', 'point', 'section', 'sectionPoint'] as const;
  const end = Math.max(...parts.map((name) => at[name]?.[1] ?? start));
  const detailStart = at.paragraphAt?.[0] ?? at.pointAt?.[0] ?? at.sectionPointAt?.[0];
  const citation = { text: query.slice(start, end), start, end } as Citation;
  if (groups.article !== undefined) citation.article = groups.article.toLowerCase();
  if (groups.articleTo !== undefined) citation.articleTo = groups.articleTo.toLowerCase();
  if (groups.section !== undefined) citation.section = groups.section.toLowerCase();
  if (groups.paragraph !== undefined) {
    citation.paragraph = groups.paragraph.toLowerCase();
    citation.paragraphs = [citation.paragraph];
  }
  const point = groups.point ?? groups.sectionPoint;
  if (point !== undefined) {
    citation.point = point.toLowerCase();
    citation.points = [citation.point];
  }
  citation.detail = detailStart === undefined ? '' : query.slice(detailStart, end).replace(/[\s\u00a0]+/gu, ' ');
  if (groups.part !== undefined) citation.part = provisionsPart(groups.part, at.part![0], at.part![1]);
  const written = groups.abbreviation ?? groups.title;
  if (written !== undefined) {
    const actStart = (at.abbreviation ?? at.title)![0];
    const text = written.trimEnd();
    citation.act = { kind: groups.abbreviation !== undefined ? 'abbreviation' : 'title', text, start: actStart, end: actStart + text.length };
  }
  citation.scope = written !== undefined ? 'external' : 'same';
  return citation;
}

// ---------------------------------------------------------------------------------------------------------------------
// The API
// ---------------------------------------------------------------------------------------------------------------------

/**
 * Every citation in `text`, in the order written (by `start`), read as running text (default) or as a typed query
 * (`typed`); see the module comment for the syntax of each. Running text: a list („чл. 3, 4 и 5“) gives one citation
 * per article, a range („чл. 45 – 47“) one with `articleTo`, details stay with their article („чл. 109, ал. 1, 7 и 12“
 * is article 109, `paragraph` `1`, `detail` `ал. 1, 7 и 12`), and what follows a group (its provisions, its act) goes
 * to every citation of the group. Pass an article's text without its own label (`Чл. 45.`), or that label is skipped
 * as a heading. Positions in UTF-16 code units. `articlesOnly` (running text): the article citations alone, faster
 * (no `§` group is read; what follows a group still applies).
 *
 * `parseCitations('по чл. 12, ал. 2 от ЗЗД')` →
 * `[{ text: 'чл. 12, ал. 2', start: 3, end: 16, article: '12', paragraph: '2', detail: 'ал. 2', scope: 'external',
 * act: { kind: 'abbreviation', text: 'ЗЗД', start: 20, end: 23 } }]`.
 */
export function parseCitations(text: string, options: { typed?: boolean; articlesOnly?: boolean } = {}): Citation[] {
  if (!options.typed) return readRunningText(text, options.articlesOnly === true);
  return [...text.matchAll(REFERENCE_TYPED)].map((match) => typedCitation(text, match));
}

/**
 * The acts named by an abbreviation alone („ЗОП обжалване“, „срок по ЗМИП“), in the order written, wherever they are
 * (inside a citation too: leave out those a citation already covers). An abbreviation is a word in capitals (2 or
 * more, then at most five lower-case letters) that is either one of {@link CUSTOMARY_ABBREVIATIONS} or the initials of
 * a law or code (З…, К…, 3 letters or more): ВКС, ЕС or БВП stay words. Each has `kind` `abbreviation`.
 */
export function findActAbbreviations(text: string): ActAsWritten[] {
  const found: ActAsWritten[] = [];
  for (const match of text.matchAll(BARE_ABBREVIATION)) {
    const abbreviation = match[1]!;
    if (CUSTOMARY_ABBREVIATIONS[abbreviation] === undefined && !(/^[ЗК]/u.test(abbreviation) && abbreviation.length >= 3)) continue;
    found.push({ kind: 'abbreviation', text: abbreviation, start: match.index, end: match.index + abbreviation.length });
  }
  return found;
}
