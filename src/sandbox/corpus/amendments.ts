/**
 * What the §§ of an act change in other acts: for each § of an amending act ("Закон за изменение и допълнение на
 * Закона за …"), and for each § of an ordinary act's transitional and final provisions that names another act
 * ("§ 5. В Закона за … се правят следните изменения: …"), the act and the articles it amends, inserts or repeals.
 *
 * How a § is read:
 * 1. Quoted new text („…“, with nesting; the older “…” and "…" too) and the promulgation parenthetical after an act's
 *    name ("(обн., ДВ, бр. …)") are masked, so that article numbers inside them (the content of the change, not its
 *    target) are never read. Offsets are kept, so names are sliced from the original text.
 * 2. Each line (the § itself and its sub-items „1. …“, „а) …“) is read for article citations with the CLI's
 *    references parser ({@link findArticleCitations}); a citation is a target only in a target position:
 *    - after „в“ / „във“ (or „заглавието на“, „текста на“ …) in a line with a verb of change („В чл. 12, ал. 2 думите …
 *      се заменят …“), or in a lead line ending with a colon („В чл. 12:“) → amends;
 *    - after „Създава(т) се (нов)“ / „се създава(т)“ (or „… с чл.“ after one of these) → inserts;
 *    - after „Отменя(т) се“ / „се отменя(т)“, or directly before „се отменя(т)“, with no paragraph or point named
 *      („Член 15 се отменя.“) → repeals; with one („Член 15, ал. 2 се отменя.“) → amends;
 *    - directly before „се изменя“ / „се допълва“ / „става“ („Член 12 се изменя така:“) → amends.
 *    Before an amended target, the clause may hold only a chapter or section („В глава трета чл. 25 се отменя.“), so
 *    citations after „след“ / „преди“ (a position: „След чл. 12 се създава чл. 12а“), „по“ and other words („посочени
 *    в чл. 10“) are not targets.
 * 3. The act changed: the act a citation names („чл. 5 от Закона за X“); else the act the line or an earlier line of
 *    the § opens with („В Закона за X (обн., ДВ …) …“, „В Наказателния кодекс …“); else, for an amending act, the act
 *    of its title. A § of an ordinary act that names no other act changes nothing here.
 *
 * Ranges: an insertion („Създават се чл. 7д – 7ж“) lists the quoted articles' headings inside it; another range lists
 * every article that can lie between its ends (whole numbers and one-letter suffixes: „чл. 28 – 34б“ is 28 … 34, 34а,
 * 34б), so some refs may be ones the act never had.
 *
 * Known limits (a change missed is better than one invented): targets that are §§ of another act („В § 7 от
 * допълнителните разпоредби …“, „в § 119“), whole acts („Законът за … се отменя.“), chapters, sections and titles
 * without an article, articles of an annex („в чл. 3 от приложение № 2“), and articles of an act that an amending act
 * changed („В Закона за изменение … на Закона за X … в § 5, в чл. 66 …“) are not reported; nor are instructions with
 * typing slips inside their words („се замeня“ with a Latin „e“), nor an act named by an abbreviation („чл. 5 от ЗЗД“).
 * Pure functions over strings; no I/O.
 */
import { compareArticleRefs, splitArticleRef } from '../../shared/article-ref.js';
import { findArticleCitations, type ArticleCitation } from '../../shared/references.js';
import { AMENDING_TITLE } from '../../shared/act-titles.js';
import { stem } from '../text/analysis.js';

/** What a § does to an article. */
export type AmendmentAction = 'amends' | 'inserts' | 'repeals';

/** One article a § changes. */
export interface Amendment {
  /** The § ref, e.g. `§12`. */
  section: string;
  /** The act changed, as written, in the nominative where it could be made so: `Кодекс за застраховането`. */
  act: string;
  /** {@link actKey} of `act`: equal for the nominative and the definite forms of one title. */
  act_key: string;
  /** The article changed, e.g. `12а`. */
  article: string;
  action: AmendmentAction;
}

// ---------------------------------------------------------------------------------------------------------------
// Act names

/** The promulgation note after an act's name: "(обн., ДВ, бр. 1 от 2002 г.; изм., …)", "(ДВ, бр. …)". */
const PROMULGATION = /\((?:\s*(?:[оo]бн|обнародван|ДВ|загл|изм|попр|доп)[^()]*(?:\([^()]*\)[^()]*)*)\)/gu;

/** Words that may stand before "кодекс" / "закон" as the name's adjectives (definite or not). */
const ADJECTIVE = String.raw`\p{Lu}[\p{Ll}-]*(?:ия|ият|ен|ки)(?:\s+[\p{Ll}-]*(?:ия|ият|ен|ки))?`;

/** The start of an act's name: "Закона", "Кодекса", "Конституцията", "Наказателния кодекс", "Търговския закон". */
const ACT_HEAD = new RegExp(
  String.raw`(?:Закон(?:а|ът)?|Кодекс(?:а|ът)?|Конституция(?:та)?|Указ(?:а|ът)?(?:\s+№\s*\d+)?|${ADJECTIVE}\s+(?:кодекс|закон)(?:а|ът)?)(?!\p{L})`,
  'uy',
);

/** A head that takes a complement ("Закона за …", "Кодекса на труда", "Конституцията на Република България"). */
const HEAD_WITH_COMPLEMENT = /^(?:Закон|Кодекс|Конституция|Указ)/u;

/** Where the complement of an act's name ends. */
const NAME_END =
  /\s*[(,;:]|\.(?=\s|$)|\s+се(?!\p{L})|\s+(?:в|във)\s+(?:чл|член|глав|раздел|наименован|заглав|§|параграф|преходн|допълнителн|заключителн|приложени|част|текст|края|началото|навсякъде)|\s+(?:чл\.|член|думите|думата|навсякъде|след|накрая|относно\s+чл)(?!\p{L})|\s*\n|$/u;

/** The act's name at `pos` of the (masked) `text`: `[start, end]`, or undefined when no name starts there. */
function actNameAt(text: string, pos: number): [number, number] | undefined {
  ACT_HEAD.lastIndex = pos;
  const head = ACT_HEAD.exec(text);
  if (!head) return undefined;
  let end = ACT_HEAD.lastIndex;
  if (HEAD_WITH_COMPLEMENT.test(head[0])) {
    const rest = text.slice(end, end + 400);
    if (!/^\s+(?:за|на|относно|върху)\s/u.test(rest)) {
      // "Закона" alone is this act ("В закона навсякъде …" is lower case, but "Законът се отменя" is not a name).
      return head[0].startsWith('Конституция') ? [head.index, end] : undefined;
    }
    // A name with commas („Закона за кръвта, кръводаряването и кръвопреливането“) runs to its promulgation note.
    const note = /\s*\(_/u.exec(rest);
    const stop = NAME_END.exec(rest.slice(1));
    let length = stop ? stop.index + 1 : rest.length;
    if (note && note.index > length && !/[;:\n]|\sсе\s|(?<!\p{L})чл\./u.test(rest.slice(0, note.index))) length = note.index;
    // "… за 2024 г." keeps its "г.".
    if (/\sг$/u.test(rest.slice(0, length)) && rest[length] === '.') length++;
    end += length;
  }
  return [head.index, end];
}

/**
 * An act's name in the nominative as far as the common forms allow: „Закона за здравето“ → „Закон за здравето“,
 * „Кодекса на труда“ → „Кодекс на труда“, „Наказателния кодекс“ → „Наказателен кодекс“, „Семейния кодекс“ → „Семеен
 * кодекс“, „Гражданския процесуален кодекс“ → „Граждански процесуален кодекс“, „Конституцията“ → „Конституция“;
 * the promulgation parenthetical and surrounding white space and punctuation are removed.
 */
export function nominativeActName(name: string): string {
  let text = name.normalize('NFC').replace(PROMULGATION, ' ').replace(/\s+/gu, ' ').trim().replace(/[\s,;:]+$/u, '');
  text = text.replace(/^(Закон|Кодекс|Указ)(?:а|ът)(?!\p{L})/u, '$1').replace(/^Конституцията(?!\p{L})/u, 'Конституция');
  // Adjectives before the head noun: "Наказателния кодекс", "Данъчно-осигурителния процесуален кодекс".
  const adjectival = /^((?:[\p{L}-]+\s+){1,2})(кодекс|закон)(?:а|ът)?(?=\s|$)/iu.exec(text);
  if (adjectival && !/^(?:закон|кодекс)/iu.test(adjectival[1]!)) {
    const words = adjectival[1]!.trim().split(' ').map(indefiniteAdjective);
    text = `${words.join(' ')} ${adjectival[2]}${text.slice(adjectival[0].length)}`;
  }
  return text;
}

/** "наказателния" → "наказателен", "семейния" → "семеен", "гражданския" → "граждански", "трудовия" → "трудов". */
function indefiniteAdjective(word: string): string {
  const m = /^(.*?)(?:ият|ия)$/u.exec(word);
  if (!m) return word;
  const base = m[1]!;
  if (/(?:ск|цк|шк)$/u.test(base)) return `${base}и`;
  if (/йн$/u.test(base)) return `${base.slice(0, -2)}ен`;
  if (/н$/u.test(base)) return `${base.slice(0, -1)}ен`;
  if (/[вл]$/u.test(base)) return base;
  return word;
}

/**
 * A key equal for the forms of one act's title: nominative or definite („Закона за здравето“ / „Закон за здравето“,
 * „Наказателния кодекс“ / „Наказателен кодекс“), any case, any white space, with or without the trailing „(обн., ДВ …)“;
 * the words' light stems ({@link stem}, as the search analyzes titles), joined by spaces.
 */
export function actKey(name: string): string {
  const nominative = nominativeActName(name);
  const tokens = nominative.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return tokens
    .filter((t) => t !== 'г')
    // „семейн-“ / „семен-“: the stemmer's two stems of „семейния“ / „семеен“, should a form escape the nominative.
    .map((t) => stem(t).replace(/ейн$/u, 'ен'))
    .join(' ');
}

/**
 * The act an amending act's title names, as written („Закон за изменение и допълнение на Закона за X“ → „Закона за
 * X“; also „… за изменение на …“, „… за допълнение на …“, „… за отмяна на …“: `AMENDING_TITLE` of the search);
 * undefined for any other title, and for a title that names no single act („… на някои закони“).
 */
export function amendedActOf(title: string): string | undefined {
  // Typing slips of real titles: „Законт за …“, „Законопроект за …“, a Latin „e“ in „изменениe“.
  const normalized = title
    .normalize('NFC')
    .replace(/\s+/gu, ' ')
    .trim()
    .replace(/(?<=\p{Script=Cyrillic})[aeopcxyk]|[aeopcxyk](?=\p{Script=Cyrillic})/gu, (c) => LATIN_LOOKALIKE[c] ?? c)
    .replace(/^(?:Закон|Кодекс)\p{L}*(?=\s)/u, (w) => (w.startsWith('Кодекс') ? 'Кодекс' : 'Закон'))
    .replace(/(?<!\p{L})именени(?=[ея](?!\p{L}))/gu, 'изменени');
  const m = AMENDING_TITLE.exec(normalized);
  const act = m?.[1]?.replace(PROMULGATION, '').trim();
  // "… на някои закони", "… на Закона за X и на Закона за Y": no single act.
  if (!act || !/^\p{Lu}/u.test(act) || /\sи\s+на\s+\p{Lu}/u.test(act)) return undefined;
  return act;
}

// ---------------------------------------------------------------------------------------------------------------
// Masking

const MASK = '_';

/** After a closing quotation mark: the verb of a word replacement, so every quotation is closed there. */
const INSTRUCTION_AFTER = /^\s*,?\s*(?:се\s+)?(?:заменя|заменят|заличава|заличават|добавя|добавят|поставя|поставят)(?!\p{L})/u;
/** Before an inline quotation: a word replacement („думите „…“ се заменят с „…““, „се добавя „…““). */
const INLINE_BEFORE = /(?<!\p{L})(?:с|със|добавя|добавят|думите|думата|думи|текста|съответно|и|или)\s*$/u;

/**
 * `text` with quoted passages (quotation marks included) and promulgation parentheticals (their content) replaced by
 * {@link MASK} (line breaks kept), offsets unchanged. „ opens; “ closes „ — or, in a text that uses ” (the older “…”
 * style), opens; ” and » close; « opens; " toggles. An unclosed quotation runs to the end, except that a nested quotation whose
 * closing marks were written as one („Агенция „Морска администрация“ се заменят …“) is closed whole before the verb
 * of a word replacement, or at the end of its line when it is an inline replacement text („… се добавя „Държавно
 * предприятие „Пристанищна инфраструктура“.“).
 */
export function maskQuoted(text: string): string {
  const oldStyle = text.includes('”');
  // Only the quotation marks and line breaks change what is masked: the characters between two of them are masked
  // alike, so the loop visits those alone. Offsets are code units, those of `text`; the masked text is `text` with
  // its masked runs replaced, built from slices.
  const stack: number[] = [];
  const parts: string[] = [];
  let copied = 0;
  let runStart = -1;
  /** Whether the code units from `from` on (up to the next call) are masked. */
  const mark = (from: number, masked: boolean): void => {
    if (masked) {
      if (runStart < 0) runStart = from;
    } else if (runStart >= 0) {
      parts.push(text.slice(copied, runStart), MASK.repeat(from - runStart));
      copied = from;
      runStart = -1;
    }
  };
  let outerStart = -1;
  let lineStart = 0;
  const marks = new RegExp(QUOTE_OR_LINE_BREAK.source, 'g');
  for (let found = marks.exec(text); found !== null; found = marks.exec(text)) {
    const i = found.index;
    const c = text.charCodeAt(i);
    const inside = stack.length > 0;
    let closed = false;
    if (c === LOW_OPEN || c === GUILLEMET_OPEN) stack.push(c);
    else if (c === HIGH_CLOSE) {
      if (stack.at(-1) === LOW_OPEN) (stack.pop(), (closed = true));
      else if (oldStyle) stack.push(c);
      else if (stack.length > 0) (stack.pop(), (closed = true));
    } else if (c === RIGHT_CLOSE || c === GUILLEMET_CLOSE) {
      if (stack.length > 0) (stack.pop(), (closed = true));
    } else if (c === STRAIGHT) {
      if (stack.at(-1) === STRAIGHT) (stack.pop(), (closed = true));
      else stack.push(c);
    } else if (c === LINE_FEED) {
      if (
        stack.length > 0 &&
        outerStart >= lineStart &&
        /[“”"»][.;,]?\s*$/u.test(text.slice(lineStart, i)) &&
        INLINE_BEFORE.test(text.slice(lineStart, outerStart))
      ) {
        stack.length = 0;
      }
      lineStart = i + 1;
    }
    if (!inside && stack.length > 0) outerStart = i;
    if (closed && stack.length > 0 && INSTRUCTION_AFTER.test(text.slice(i + 1, i + 40))) stack.length = 0;
    // Line breaks stay, so that the lines of a quotation stay lines.
    mark(i, (inside || stack.length > 0) && c !== LINE_FEED);
    mark(i + 1, stack.length > 0);
  }
  mark(text.length, false);
  parts.push(text.slice(copied));
  return parts.join('').replace(PROMULGATION, (m) => `(${MASK.repeat(m.length - 2)})`);
}

/** The characters {@link maskQuoted} reads: quotation marks and line breaks. */
const QUOTE_OR_LINE_BREAK = /[„“”«»"\n]/;
/** The quotation marks and line break {@link maskQuoted} reads, as code units. */
const LOW_OPEN = '„'.charCodeAt(0);
const HIGH_CLOSE = '“'.charCodeAt(0);
const RIGHT_CLOSE = '”'.charCodeAt(0);
const GUILLEMET_OPEN = '«'.charCodeAt(0);
const GUILLEMET_CLOSE = '»'.charCodeAt(0);
const STRAIGHT = '"'.charCodeAt(0);
const LINE_FEED = 10;

// ---------------------------------------------------------------------------------------------------------------
// Reading a §

/** Numbering at a line's start: the § label, „1.“, „1а.“, „а)“, in any combination. */
const NUMBERING = /^(?:\s*(?:§\s*\d[\d\s]*[а-я]{0,2}\s*\.|\d+[а-я]{0,2}\.|[а-я]{1,2}\)))*\s*/u;

/** A line that opens with an act: „В Закона за X …“, „В Наказателния кодекс …“ (after the numbering). */
const OPENER = /^(?:В|Във)(?:\s+|(?=\p{Lu}))/u;

/** Verbs of change (a line must have one after a locative target, unless it is a lead ending with a colon). */
const CHANGE_VERB =
  /(?<!\p{L})(?:изменя|изменят|допълва|допълват|заменя|заменят|заличава|заличават|добавя|добавят|създава|създават|отменя|отменят|поставя|поставят|правят|прави|преномерира|преномерират|става|стават|изменени[ея])(?!\p{L})/iu;

/** Before a citation: a locative target („в чл.“, „заглавието на чл.“). */
const LOCATIVE = /(?:(?<!\p{L})(?:в|във)|(?:заглавието|наименованието|текста|текстът|края|началото)\s+на)\s+$/iu;
/** Before a citation: an insertion („Създава се чл.“, „се създават нови чл.“, „… се създава раздел IIа с чл.“). */
const INSERTION = /(?:(?<!\p{L})(?:създава|създават)\s+се|(?<!\p{L})се\s+(?:създава|създават))\s+(?:(?:нов|нова|нови)\s+)?$/iu;
const INSERTION_WITH = /(?<!\p{L})(?:създава|създават)(?!\p{L}).*(?<!\p{L})(?:с|със)\s+(?:(?:нов|нова|нови)\s+)?$/iu;
/** Between two groups: the second continues the first („чл. 17, чл. 17а и нов чл. 18“). */
const CONTINUATION = /^[\s,]*(?:и\s+)?(?:(?:нов|нова|нови)\s+)?$/iu;
/** Latin letters that look like the Cyrillic ones of an article's suffix. */
const LATIN_LOOKALIKE: Record<string, string> = { a: 'а', e: 'е', o: 'о', p: 'р', c: 'с', x: 'х', y: 'у', k: 'к' };
/** Before a citation: a chapter or section „с чл.“ (its articles), and after it, its repeal („Глава пета с чл. 18а се отменя.“). */
const PART_WITH = /(?<!\p{L})(?:глава|раздел|част)(?!\p{L})[^;:]*?(?<!\p{L})(?:с|със)\s+$/iu;
const PART_REPEALED = /^[^;:]*?(?<!\p{L})се\s+(?:отменя|отменят)(?!\p{L})/iu;
/** Before a citation: a repeal („Отменя се чл.“, „се отменят чл.“). */
const REPEAL_BEFORE = /(?:(?<!\p{L})(?:отменя|отменят)\s+се|(?<!\p{L})се\s+(?:отменя|отменят))\s+$/iu;
/** A chapter or section named before an article: „в глава трета“, „в глава втора, раздел III“. */
const PART = String.raw`(?:(?:в|във)\s+)?(?:глава|раздел|част)\s+[^,;:]{1,60}?,?\s+`;
/** All a clause may hold before a locative target: „В чл.“, „Навсякъде в чл.“, „В глава трета в заглавието на чл.“. */
const LOCATIVE_CLAUSE = new RegExp(
  String.raw`^[\s,]*(?:навсякъде\s+)?(?:${PART})*(?:(?:в|във)\s+(?:него|нея)\s+)?(?:(?:в|във)\s+)?(?:(?:заглавието|наименованието|текста|текстът|края|началото)\s+на\s+)?$`,
  'iu',
);
/** All a clause may hold before the subject of a change: „Член 5 се отменя“, „В глава трета чл. 25 се отменя“, „Досегашният чл. 5 става …“. */
const SUBJECT_CLAUSE = new RegExp(
  String.raw`^[\s,]*(?:${PART})*(?:(?:досегашни(?:ят|я|те)|текстът\s+на|заглавието\s+на|наименованието\s+на|разпоредбата\s+на|разпоредбите\s+на)\s+)?$`,
  'iu',
);
/** After a citation (and its „от <act>“): the verb of which it is the subject. */
const REPEAL_AFTER = /^\s*,?\s*се\s+(?:отменя|отменят)(?!\p{L})/iu;
const AMEND_AFTER = /^\s*,?\s*(?:се\s+(?:изменя|изменят|допълва|допълват|изменя\s+и\s+допълва|изменят\s+и\s+допълват)|става|стават)(?!\p{L})/iu;

/** Quoted article headings („Чл. 12а. …“) in the original text, within masked (quoted) spans. */
function quotedHeadings(text: string, masked: string): string[] {
  const refs: string[] = [];
  for (const m of text.matchAll(/Чл\.\s*(\d+[а-яѝ]{0,2})\./gu)) {
    if (masked[m.index] === MASK) refs.push(m[1]!.toLowerCase());
  }
  return refs;
}

/** The articles a citation stands for: itself, or the articles of its range. */
function articlesOf(citation: ArticleCitation, action: AmendmentAction, headings: readonly string[]): string[] {
  const from = citation.article;
  const through = citation.through;
  if (through === undefined) return [from];
  const a = splitArticleRef(from);
  const b = splitArticleRef(through);
  if (!a || !b || compareArticleRefs(from, through) >= 0) return [from, through];
  if (action === 'inserts') {
    const inside = headings.filter((r) => compareArticleRefs(r, from) > 0 && compareArticleRefs(r, through) < 0);
    return [from, ...new Set(inside), through];
  }
  // Otherwise every article that can lie between (a repeal of „чл. 28 – 34б“ repeals 28 to 34, 34а and 34б): whole
  // numbers, and the one-letter suffixes before the last end's (refs the act does not have are harmless to a reader).
  if (b.number - a.number > 200 || a.suffix.length > 1 || b.suffix.length > 1) return [from, through];
  const result = [from];
  const lettersBefore = (number: number, after: string, before: string): void => {
    for (const letter of SUFFIX_LETTERS) if (letter > after && letter < before) result.push(`${number}${letter}`);
  };
  if (a.number === b.number) lettersBefore(a.number, a.suffix, b.suffix);
  else {
    for (let n = a.number + 1; n < b.number; n++) result.push(String(n));
    if (b.suffix !== '') {
      result.push(String(b.number));
      lettersBefore(b.number, '', b.suffix);
    }
  }
  result.push(through);
  return result;
}

/** The letters of inserted articles' suffixes, in order (й, ъ, ь are not used). */
const SUFFIX_LETTERS = [...'абвгдежзиклмнопрстуфхцчшщюя'];

interface LineTarget {
  act: string;
  article: string;
  action: AmendmentAction;
}

/** The act a citation group names after it („чл. 5 от Закона за X“), on the masked line. */
function citedAct(line: string, masked: string, end: number): { name: string; end: number } | undefined {
  const from = /^\s*,?\s*(?:от|на)\s+/u.exec(masked.slice(end));
  if (!from) return undefined;
  const span = actNameAt(masked, end + from[0].length);
  if (!span) return undefined;
  let after = span[1];
  const parenthetical = /^\s*\(_*\)/u.exec(masked.slice(after));
  if (parenthetical) after += parenthetical[0].length;
  return { name: line.slice(span[0], span[1]), end: after };
}

/** Groups of citations: consecutive citations that the parser read from one „чл.“ on (same scope, no gap of text). */
function groupsOf(citations: ArticleCitation[], masked: string): ArticleCitation[][] {
  const groups: ArticleCitation[][] = [];
  for (const c of citations) {
    const last = groups.at(-1)?.at(-1);
    const between = last ? masked.slice(last.end, c.start) : '';
    if (last && last.scope === c.scope && /^[\s,]*(?:и|или|и\/или|[–—-])?[\s,]*$/u.test(between)) {
      groups.at(-1)!.push(c);
    } else {
      groups.push([c]);
    }
  }
  return groups;
}

/** Reads one line of a § (masked, and original for names). */
function readLine(line: string, maskedLine: string, act: string | undefined, headings: readonly string[]): LineTarget[] {
  // „чл. 31a“ typed with a Latin letter is „чл. 31а“ (lookalikes only; the length is kept).
  const masked = maskedLine.replace(/(?<=\d)[aeopcxyk](?![\p{L}\p{N}])/gu, (c) => LATIN_LOOKALIKE[c] ?? c);
  const citations = findArticleCitations(masked);
  if (citations.length === 0) return [];
  const targets: LineTarget[] = [];
  const hasVerb = CHANGE_VERB.test(masked);
  const lead = /:\s*$/u.test(masked);
  const start = NUMBERING.exec(masked)![0].length;
  let previous: { end: number; kind: 'locative' | AmendmentAction } | undefined;
  for (const group of groupsOf(citations, masked)) {
    const first = group[0]!;
    const last = group.at(-1)!;
    // The clause the group is in: from the last sentence boundary (". " before a capital, ";", ":") before it.
    let clauseStart = start;
    for (const m of masked.slice(0, first.start).matchAll(/(?:[.;:]\s+(?=\p{Lu}))|;\s*/gu)) {
      clauseStart = Math.max(clauseStart, m.index + m[0].length);
    }
    const prefix = masked.slice(clauseStart, first.start);
    // The part of the clause right before the group: after the last comma, „ и “, „, а “, „, както и “.
    let localStart = clauseStart;
    for (const m of prefix.matchAll(/(?:,\s*(?:а|както\s+и)?|(?<!\p{L})и)\s+/gu)) localStart = clauseStart + m.index + m[0].length;
    const local = masked.slice(localStart, first.start);
    const external = first.scope === 'external' ? citedAct(line, masked, last.end) : undefined;
    if (first.scope === 'external' && !external) continue;
    const afterEnd = external?.end ?? last.end;
    const after = masked.slice(afterEnd, afterEnd + 80);
    let kind: 'locative' | AmendmentAction | undefined;
    // A group continuing the one before it („Създава се нова глава с нов чл. 17, чл. 17а и нов чл. 18“) is alike.
    const continued = previous !== undefined && CONTINUATION.test(masked.slice(previous.end, first.start)) ? previous.kind : undefined;
    if (continued !== undefined) kind = continued;
    else if (INSERTION.test(prefix) || INSERTION_WITH.test(prefix)) kind = 'inserts';
    else if (REPEAL_BEFORE.test(prefix)) kind = 'repeals';
    else if (PART_WITH.test(prefix) && PART_REPEALED.test(masked.slice(afterEnd))) kind = 'repeals';
    else if (LOCATIVE.test(local) && LOCATIVE_CLAUSE.test(local)) kind = 'locative';
    else if (SUBJECT_CLAUSE.test(local) && REPEAL_AFTER.test(after)) kind = 'repeals';
    else if (SUBJECT_CLAUSE.test(local) && AMEND_AFTER.test(after)) kind = 'amends';
    if (kind === undefined) continue;
    previous = { end: afterEnd, kind };
    if (kind === 'locative' && !hasVerb && !lead) continue;
    const target = external?.name ?? act;
    if (target === undefined) continue;
    for (const citation of group) {
      let action: AmendmentAction = kind === 'locative' ? 'amends' : kind;
      if (action === 'repeals' && citation.detail !== '') action = 'amends';
      if (action === 'inserts' && citation.detail !== '') action = 'amends';
      for (const article of articlesOf(citation, action, headings)) targets.push({ act: target, article, action });
    }
  }
  return targets;
}

/**
 * The act a line opens with („В Закона за X (обн., …) се правят …“): its name from the original line and where the
 * opening ends in the line (after the name and its promulgation note); undefined if the line opens with none.
 */
function openingAct(line: string, masked: string): { name: string; end: number } | undefined {
  const start = NUMBERING.exec(masked)![0].length;
  const opener = OPENER.exec(masked.slice(start));
  if (!opener) return undefined;
  const span = actNameAt(masked, start + opener[0].length);
  if (!span) return undefined;
  const parenthetical = /^\s*\(_*\)/u.exec(masked.slice(span[1]));
  return { name: line.slice(span[0], span[1]), end: span[1] + (parenthetical?.[0].length ?? 0) };
}

/** {@link namedAct}'s results by the name as a § writes it: the §§ of the corpus name a few thousand acts. */
const namedActs = new Map<string, { name: string; key: string }>();

/** The nominative name (`nominativeActName`) and `actKey` of an act's name as written in a §; cached (bounded). */
function namedAct(written: string): { name: string; key: string } {
  let named = namedActs.get(written);
  if (named === undefined) {
    const name = nominativeActName(written);
    named = { name, key: actKey(name) };
    if (namedActs.size >= 50_000) namedActs.clear();
    namedActs.set(written, named);
  }
  return named;
}

/**
 * The articles of other acts that the §§ among `elements` (refs starting with `§`) amend, insert or repeal (see the
 * module comment), in § order, each (section, act key, article, action) once. `title` is the act's own title: an
 * amending act's title names the act its §§ change unless they name another.
 */
export function amendmentsOf(title: string, elements: readonly { ref: string; text: string }[]): Amendment[] {
  const defaultAct = amendedActOf(title);
  const result: Amendment[] = [];
  const seen = new Set<string>();
  for (const element of elements) {
    if (!element.ref.startsWith('§')) continue;
    // A promulgation note broken over lines is one line's part.
    const text = element.text.normalize('NFC').replace(PROMULGATION, (m) => m.replace(/\n/gu, ' '));
    const masked = maskQuoted(text);
    const headings = quotedHeadings(text, masked);
    let act = defaultAct;
    let offset = 0;
    for (const line of text.split('\n')) {
      const maskedLine = masked.slice(offset, offset + line.length);
      offset += line.length + 1;
      if (/^_*\s*$/u.test(maskedLine)) continue;
      const opening = openingAct(line, maskedLine);
      if (opening) act = opening.name;
      // The opening is not part of any clause: blank it (offsets kept).
      const clauses = opening ? ' '.repeat(opening.end) + maskedLine.slice(opening.end) : maskedLine;
      for (const target of readLine(line, clauses, act, headings)) {
        const { name, key } = namedAct(target.act);
        const id = `${key}\u0000${target.article}\u0000${target.action}`;
        if (seen.has(`${element.ref}\u0000${id}`)) continue;
        seen.add(`${element.ref}\u0000${id}`);
        result.push({ section: element.ref, act: name, act_key: key, article: target.article, action: target.action });
      }
    }
  }
  return result;
}
