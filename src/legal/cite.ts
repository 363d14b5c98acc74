/**
 * `pravo cite`: the citations of a memo and their verdicts (spec: POST /v1/search finds the act a citation names; GET
 * /v1/documents, `elements`, holds its provisions). Pure functions; the service (`services/cite.ts`) searches,
 * retrieves and hands the responses in.
 *
 * 1. {@link findMemoCitations}: every citation of the text, read by the shared parser (`shared/citations.ts`, running
 *    text: articles with ал./т./буква, ranges and lists, §§ of the additional and transitional provisions, an act by
 *    abbreviation or title, „от същия закон“), with its line and column and the act it names ({@link NamedAct}, one
 *    per act however often it is cited).
 * 2. {@link matchAct}: which search result is the act: a result whose title is the act's title (customary
 *    abbreviations are expanded, other abbreviations are a title's initials; a title written in running text is read
 *    up to the longest result title that begins it). Several acts of the same title: the newest (a later act of the
 *    same name replaces the earlier one), unless they are acts amending another (then the citation is `ambiguous`).
 * 3. {@link checkProvision}: whether the document has the article or § (and the ал., т. cited), and whether its text
 *    says it is repealed („(Отм. – ДВ, бр. …)“ and nothing else). An ал. of an article whose text numbers no paragraph
 *    is not checked (`found`, the detail says so) unless a note says it was repealed.
 */
import type { DocumentElement, DocumentResponse } from '../contract/types.js';
import { CUSTOMARY_ABBREVIATIONS } from '../shared/act-abbreviations.js';
import { AMENDING_TITLE, initials, nominativeTitle, sameTitleWord } from '../shared/act-titles.js';
import { articleRefCandidates } from '../shared/article-ref.js';
import { parseCitations, type Citation } from '../shared/citations.js';
import { elementLabelOf, elementTextOf, stringField } from '../render/fields.js';
import { elementRefOf, elementsOf, refsAround } from './documents.js';
import { unwrapMemo } from './memo-lines.js';
import { describeRuling, rulingBearing, rulingsOf, type RulingView } from './rulings.js';

/**
 * The verdict on one citation (the `verdict` of `pravo cite --json`):
 * - `found`: the act and the provision exist;
 * - `no_such_provision`: the act was found, the provision (article, §, ал. or т.) is not in it;
 * - `act_not_found`: no document of the service is the act;
 * - `ambiguous`: the act's name fits several documents;
 * - `repealed`: the provision's text says it is repealed („Отм.“);
 * - `act_not_named`: the citation names no act („чл. 5“ alone, „от този закон“), so there is nothing to check it in;
 * - `declared_unconstitutional`: the Constitutional Court declared the provision cited unconstitutional (sandbox: the
 *   element's `rulings`, see `legal/rulings.ts`); a ruling on only a part of what is cited leaves it `found`, with a
 *   `warning`.
 */
export type CiteVerdict = 'found' | 'no_such_provision' | 'act_not_found' | 'ambiguous' | 'repealed' | 'act_not_named' | 'declared_unconstitutional';

/** The verdicts, in the order the summary lists them. */
export const CITE_VERDICTS: readonly CiteVerdict[] = ['found', 'no_such_provision', 'act_not_found', 'ambiguous', 'repealed', 'declared_unconstitutional', 'act_not_named'];

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

/** One citation of a memo. */
export interface MemoCitation {
  /**
   * The citation as written: from its keyword („чл.“, „§“) or a list's bare number to its last detail; a line break
   * inside it reads as a space.
   */
  text: string;
  /** 1-based line of its start. */
  line: number;
  /** 1-based column of its start, in characters (Unicode code points) of that line. */
  column: number;
  /** Offsets of the citation in the memo as written (UTF-16 code units), `start` inclusive, `end` exclusive. */
  start: number;
  end: number;
  citation: Citation;
  /** The act it names; absent when it names none. */
  act?: NamedAct;
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
function titleWords(text: string): string[] {
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
function nominativeOf(words: readonly string[]): string {
  return nominativeTitle(words.join(' '));
}

/** Key of a title: its words in the nominative, lower case („Закона за …“ and „Закон за …“ are one act). */
function titleKey(title: string): string {
  return titleWords(nominativeOf(titleWords(title))).join(' ').toLowerCase().normalize('NFC');
}

/**
 * The act of a citation as the memo writes it. `citation` is the first of the act's citations (an unknown abbreviation
 * of two letters is searched with it, since a query has at least three characters).
 */
function namedAct(act: NonNullable<Citation['act']>, citation: Citation): NamedAct {
  if (act.kind === 'abbreviation') {
    const title = CUSTOMARY_ABBREVIATIONS[act.text];
    if (title !== undefined) return { key: titleKey(title), written: act.text, kind: 'abbreviation', title, words: [], titleLength: 0, requiredLength: 0, query: title };
    const query = act.text.length >= 3 ? act.text : `${citation.text} ${act.text}`;
    return { key: `abbreviation:${act.text}`, written: act.text, kind: 'abbreviation', words: [], titleLength: 0, requiredLength: 0, query };
  }
  let words = titleWords(act.text);
  // „Конституцията“ alone is the Constitution of the Republic.
  if (words.length === 1 && /^конституция(?:та)?$/iu.test(words[0]!)) words = titleWords(CUSTOMARY_ABBREVIATIONS['КРБ']!);
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
function withConnectedActs(text: string, parsed: readonly Citation[]): Citation[] {
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

/** Offsets of the starts of the text's lines. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/**
 * Every citation of a memo, in the order written, with the act each names: a citation followed by an act („чл. 72 от
 * ЗОП“, „чл. 3 от Закона за …“; a list's citations share it), „от същия закон“ the act named last before it; none for
 * a citation of no act („чл. 5“ alone, „от този закон“). Also the acts, once each, in the order first named. The memo
 * is read with the lines of each paragraph joined (`memo-lines.ts`: a title wrapped or hyphenated over lines is read
 * whole); `line`, `column`, `start` and `end` are those of the memo as written, `text` and `citation` those of the
 * joined text (a citation broken over lines reads „чл. 999“).
 */
export function findMemoCitations(memo: string): { citations: MemoCitation[]; acts: NamedAct[] } {
  const starts = lineStarts(memo);
  // Read as one text per paragraph: a title wrapped or hyphenated over lines is read whole (`memo-lines.ts`).
  const { text, originOf } = unwrapMemo(memo);
  const acts = new Map<string, NamedAct>();
  const citations: MemoCitation[] = [];
  let previous: NamedAct | undefined;
  let lineIndex = 0;
  for (const citation of withConnectedActs(text, parseCitations(text))) {
    let act: NamedAct | undefined;
    if (citation.act?.kind === 'previous') act = previous;
    else if (citation.act !== undefined) {
      const named = namedAct(citation.act, citation);
      act = acts.get(named.key) ?? named;
      acts.set(act.key, act);
      previous = act;
    }
    const start = originOf(citation.start);
    const end = originOf(citation.end - 1) + 1;
    while (lineIndex + 1 < starts.length && starts[lineIndex + 1]! <= start) lineIndex++;
    const column = [...memo.slice(starts[lineIndex]!, start)].length + 1;
    citations.push({ text: citation.text, line: lineIndex + 1, column, start, end, citation, ...(act ? { act } : {}) });
  }
  // A title read past its end („Закона за задълженията и договорите вредите“) is an act the memo names elsewhere
  // („ЗЗД“) when the words it requires begin that act's title: one act, one search.
  for (const act of acts.values()) {
    if (act.kind !== 'title' || act.requiredLength >= act.titleLength) continue;
    for (let length = act.titleLength - 1; length >= act.requiredLength; length--) {
      const same = acts.get(titleKey(act.words.slice(0, length).join(' ')));
      if (same === undefined || same === act) continue;
      acts.delete(act.key);
      for (const citation of citations) if (citation.act === act) citation.act = same;
      break;
    }
  }
  return { citations, acts: [...acts.values()] };
}

/** A search result as `pravo cite` reads it: the pair that identifies the document, its title and date. */
export interface ResultRef {
  document_id: string;
  collection: string;
  title: string;
  /** Publication date (`YYYY-MM-DD`), `''` when absent. */
  date: string;
}

/** The results of a search that name a document (a `document_id`, `collection` and `title`, all strings). */
export function resultRefsOf(results: unknown): ResultRef[] {
  if (!Array.isArray(results)) return [];
  return results.flatMap((result: unknown) => {
    if (typeof result !== 'object' || result === null) return [];
    const document_id = stringField(result, ['document_id']);
    const collection = stringField(result, ['collection']);
    const title = stringField(result, ['title']);
    if (document_id === undefined || collection === undefined || title === undefined) return [];
    return [{ document_id, collection, title: title.trim(), date: stringField(result, ['date']) ?? '' }];
  });
}

/** Which document a named act is, from the results of its search. */
export type ActMatch =
  /** `others`: older acts of the same title, left aside. */
  | { kind: 'found'; document: ResultRef; others: ResultRef[] }
  | { kind: 'ambiguous'; candidates: ResultRef[] }
  /** `amendedBy`: results that only amend the act (the service holds them, not the act); `nearest`: a shorter title. */
  | { kind: 'not_found'; amendedBy: ResultRef[]; nearest?: ResultRef };

/** How many words of `written` a title takes: all of the title's words, when they begin `written`; else 0. */
function prefixLength(title: string, written: readonly string[]): number {
  const words = titleWords(nominativeOf(titleWords(title)));
  if (words.length === 0 || words.length > written.length) return 0;
  return words.every((word, i) => sameTitleWord(word, written[i]!)) ? words.length : 0;
}

/** Whether a result's title is the act (see {@link matchAct}); the number of words it takes (0: not the act). */
function fits(act: NamedAct, title: string): number {
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

/** The outcome of {@link checkProvision}. */
export interface ProvisionCheck {
  verdict: 'found' | 'no_such_provision' | 'repealed' | 'declared_unconstitutional';
  /** The provision's ref as the document writes it (`72`, `§1`), else as cited. */
  ref: string;
  /** Short: the provision's label and first words, or what is missing and the nearest refs, or the repeal note. */
  detail: string;
  /** Found, but these details the text cannot show were not checked (`ал. 1` where no paragraph is numbered). */
  unchecked?: string;
  /** Found, but a part of what is cited was declared unconstitutional: which part, by which decision. */
  warning?: string;
}

/** How many characters of a provision's text a detail quotes. */
const FIRST_WORDS = 70;

/** The text of an element without its own label at the start. */
function bodyOf(element: DocumentElement): string {
  const label = elementLabelOf(element);
  const text = elementTextOf(element).trim();
  return label !== '' && text.startsWith(label) ? text.slice(label.length).trim() : text;
}

/** A repeal note and nothing else: „(Отм. – ДВ, бр. 30 от 2006 г.)“, „(Отменен)“. */
const REPEALED = /^\((?:отм\.|отменен[аo]?|отменена)(?:\s*[-–—,][^()]*(?:\([^()]*\)[^()]*)*)?\)\.?$/iu;

/** The first words of a text, on one line, cut at a word with `…`. */
function firstWords(text: string): string {
  const line = text.replace(/\s+/gu, ' ').trim();
  if ([...line].length <= FIRST_WORDS) return line;
  const cut = [...line].slice(0, FIRST_WORDS).join('');
  const space = cut.lastIndexOf(' ');
  return `${(space > FIRST_WORDS / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:]+$/u, '')}…`;
}

/**
 * The paragraphs (ал.) of an article's text, by number: `(1) …` at the start of a line or of the text, after any
 * editorial notes („(Изм. – ДВ, бр. 100 от 1992 г.) (1) …“).
 */
function paragraphsOf(body: string): Map<string, string> {
  const paragraphs = new Map<string, string>();
  const marks = [...body.matchAll(/(?:^|\n)[ \t]*(?:\((?!\d)[^()\n]*\)[ \t]*)*\((\d+[а-я]?)\)[ \t]*/gu)];
  marks.forEach((mark, i) => {
    const from = mark.index + mark[0].length;
    const to = i + 1 < marks.length ? marks[i + 1]!.index : body.length;
    if (!paragraphs.has(mark[1]!)) paragraphs.set(mark[1]!, body.slice(from, to).trim());
  });
  return paragraphs;
}

/** Point (т.) N of a text: the line that begins `N.` (`3.`, `3а.`), without its number; `undefined` when none does. */
function pointOf(text: string, point: string): string | undefined {
  const match = new RegExp(`(?:^|\\n)[ \\t]*${point}\\.[ \\t]*([^\\n]*)`, 'u').exec(text);
  return match?.[1];
}

/** „Nearby: 259, 260, 261; 261 articles, 1 – 261“ for a ref the document lacks. */
function nearby(refs: readonly string[], wanted: string, section: boolean): string {
  const { sorted, around } = refsAround(refs, wanted, { section, width: 2 });
  if (sorted.length === 0) return section ? 'it has no §§' : 'it has no numbered articles';
  const show = (r: string): string => (section ? `§ ${r.slice(1)}` : r);
  const noun = section ? (sorted.length === 1 ? '§' : '§§') : sorted.length === 1 ? 'article' : 'articles';
  return `nearest: ${around.map(show).join(', ')}; it has ${sorted.length} ${noun}, ${show(sorted[0]!)} – ${show(sorted.at(-1)!)}`;
}

/**
 * Whether a document has the provision a citation names, and what it says (see the module comment): the article (or
 * `§`) by its ref (case ignored, Latin lookalike letters read as Cyrillic; a range needs both ends), then the ал. and
 * т. cited in it. `repealed` when the element's (or the cited paragraph's) text is only a repeal note. Never throws.
 * @param label how the act is named in a detail (`Закон за обществените поръчки`).
 */
export function checkProvision(citation: Citation, document: DocumentResponse, label: string): ProvisionCheck {
  const elements = elementsOf(document);
  const refs = elements.map(elementRefOf);
  const section = citation.article === undefined;
  const cited = section ? `§${citation.section ?? ''}` : citation.article!;
  const display = (ref: string): string => (section ? `§ ${ref.replace(/^§/u, '')}` : `чл. ${ref}`);
  const find = (ref: string): number => {
    for (const candidate of articleRefCandidates(ref.toLowerCase())) {
      const index = refs.findIndex((r) => r.toLowerCase() === candidate);
      if (index >= 0) return index;
    }
    return -1;
  };
  if (elements.length === 0) return { verdict: 'no_such_provision', ref: cited, detail: `the document of ${label} has no articles to look in` };
  const index = find(cited);
  if (index < 0) return { verdict: 'no_such_provision', ref: cited, detail: `${label} has no ${display(cited)}; ${nearby(refs, cited, section)}` };
  const last = section ? (citation.sectionTo !== undefined ? `§${citation.sectionTo}` : undefined) : citation.articleTo;
  if (last !== undefined && find(last) < 0) {
    return { verdict: 'no_such_provision', ref: refs[index]!, detail: `${label} has ${display(refs[index]!)} but no ${display(last)}; ${nearby(refs, last, section)}` };
  }
  const element = elements[index]!;
  const ref = refs[index]!;
  const name = elementLabelOf(element).replace(/\.$/u, '') || display(ref);
  const body = bodyOf(element);
  if (REPEALED.test(body)) return { verdict: 'repealed', ref, detail: `${name} ${body}` };
  const paragraphsCited = citation.paragraphs ?? [];
  const pointsCited = citation.points ?? [];
  let text = body;
  let where = name;
  if (paragraphsCited.length > 0) {
    const paragraphs = paragraphsOf(body);
    if (paragraphs.size === 0) return withRulings(unnumberedParagraph(citation, ref, name, body), element, citation, name);
    const missing = paragraphsCited.find((number) => !paragraphs.has(number));
    if (missing !== undefined) {
      return { verdict: 'no_such_provision', ref, detail: `${name} has no ал. ${missing}; its paragraphs: ${[...paragraphs.keys()].join(', ')}` };
    }
    const repealed = paragraphsCited.find((number) => REPEALED.test(paragraphs.get(number)!));
    if (repealed !== undefined) return { verdict: 'repealed', ref, detail: `${name}, ал. ${repealed} ${paragraphs.get(repealed)!}` };
    // The points cited are those of the last paragraph named („ал. 1 и ал. 2, т. 3“).
    where = `${name}, ал. ${paragraphsCited.at(-1)!}`;
    text = paragraphs.get(paragraphsCited.at(-1)!)!;
  }
  if (pointsCited.length > 0) {
    const points = pointsCited.map((number) => pointOf(text, number));
    const missing = points.indexOf(undefined);
    if (missing >= 0) return { verdict: 'no_such_provision', ref, detail: `${where} has no т. ${pointsCited[missing]!}` };
    where = `${where}, т. ${pointsCited[0]!}`;
    text = points[0]!;
  }
  // Several numbers cited („ал. 1 и 2“, „т. 1 – 3“): the detail names them as written and quotes the first.
  const several = paragraphsCited.length > 1 || pointsCited.length > 1;
  if (several) where = `${name}, ${citation.detail}`;
  return withRulings({ verdict: 'found', ref, detail: `${where}: ${firstWords(text.replace(EDITORIAL_NOTES, ''))}` }, element, citation, name);
}

/**
 * A `found` check with the element's rulings (`legal/rulings.ts`) applied: `declared_unconstitutional` when a ruling
 * struck down what the citation names (or a part of it that the citation goes down to), naming the decision;
 * `found` with a `warning` when a ruling struck down a part of what is cited („чл. 64, ал. 2“ whose second sentence
 * was struck); unchanged otherwise.
 * @param name the element's label (`Чл. 79`), for the detail.
 */
function withRulings(check: ProvisionCheck, element: DocumentElement, citation: Citation, name: string): ProvisionCheck {
  if (check.verdict !== 'found') return check;
  const rulings = rulingsOf(element);
  if (rulings.length === 0) return check;
  const provision = name.replace(/^Чл\./u, 'чл.');
  const described = (ruling: RulingView): string => describeRuling(ruling, provision, true);
  const bearings = rulings.map((ruling) => ({ ruling, bearing: rulingBearing(ruling, citation) }));
  const struck = bearings.find((b) => b.bearing === 'struck');
  if (struck !== undefined) return { verdict: 'declared_unconstitutional', ref: check.ref, detail: described(struck.ruling) };
  const partly = bearings.filter((b) => b.bearing === 'partly');
  if (partly.length === 0) return check;
  return { ...check, warning: partly.map((b) => described(b.ruling)).join('; ') };
}

/**
 * A paragraph (ал.) cited in an article whose text numbers none: older acts such as the ЗЗД leave their paragraphs
 * unnumbered, and a text may run them together, so which words are ал. 2 cannot be told. `repealed` when an editorial
 * note says that paragraph was repealed („(Ал. 3 отм. – ДВ, бр. 30 от 1990 г.)“) and no later note brings it back;
 * otherwise `found` for the article, the detail saying that the ал. (and any т.) was not checked: the article exists,
 * and a memo citing „чл. 26, ал. 1 ЗЗД“ is not wrong because the text lacks the number.
 */
function unnumberedParagraph(citation: Citation, ref: string, name: string, body: string): ProvisionCheck {
  const notes = [...body.matchAll(/\(\s*ал\.\s*(\d+[а-я]?)\s+(отм|нова|изм|доп)[^()]*\)/giu)];
  for (const number of citation.paragraphs ?? []) {
    const last = notes.filter((note) => note[1] === number).at(-1);
    if (last !== undefined && last[2]!.toLowerCase() === 'отм') return { verdict: 'repealed', ref, detail: `${name}, ал. ${number}: ${last[0]}` };
  }
  return {
    verdict: 'found',
    ref,
    detail: `${name} (${citation.detail} not checked: this text does not number its paragraphs): ${firstWords(body.replace(EDITORIAL_NOTES, ''))}`,
    unchecked: citation.detail,
  };
}

/** Editorial notes at the start of a provision's text: „(Изм. – ДВ, бр. 100 от 1992 г.) “, „(Нова – …) “. */
const EDITORIAL_NOTES = /^(?:\((?!\d)[^()\n]*\)\s*)+/u;

/** One citation in the report: an entry of `citations` in `pravo cite --json`. */
export interface CiteEntry {
  /** The citation as written („чл. 72“, „§ 1, т. 5“, „чл. 344, ал. 1, т. 3“). */
  text: string;
  /** 1-based line and column (in characters) of its start in the memo. */
  line: number;
  column: number;
  /** The act: the document's title when found, else as the memo names it; null when it names none. */
  act: string | null;
  /** The document the act is, when found (spec: Search result, `document_id` and `collection`). */
  document_id: string | null;
  collection: string | null;
  /** The provision's ref in the document (`72`, `§1`), or as cited when not found; null when no act was found. */
  ref: string | null;
  verdict: CiteVerdict;
  /** Short, in English with the memo's and the document's words quoted: what was found or why not. */
  detail: string;
  /**
   * For a `found` citation, its details that the document's text cannot show and that were therefore not checked
   * (`ал. 1, пр. 1` of an article whose paragraphs are not numbered); null when everything cited was checked.
   */
  unchecked: string | null;
  /**
   * For a `found` citation, what of it the Constitutional Court declared unconstitutional (a part of the provision
   * cited: „чл. 64, ал. 2, изречение второ declared unconstitutional by Решение № … (ks-…)“); null when nothing was.
   */
  warning: string | null;
}

/** A document the citations were checked in, with the date its text is current as of. */
export interface CitedDocument {
  document_id: string;
  collection: string;
  title: string;
  /** Publication date, `YYYY-MM-DD`, when given. */
  date: string | null;
  /** The date the text is current as of (sandbox: `as_of`), when given. */
  as_of: string | null;
  /** Whether the text is consolidated (all amendments in), when given. */
  consolidated: boolean | null;
}

/** What `pravo cite --json` prints. */
export interface CiteReport {
  citations: CiteEntry[];
  /** Documents retrieved for the check (one retrieval unit each, spec: Quota rules). */
  documents_retrieved: number;
  /** Documents taken from the local cache instead (no unit spent). */
  documents_from_cache: number;
  /** Searches sent to find the acts (each counted by the server, spec: Quota rules, 3). */
  searches_sent: number;
  /** Searches answered from the local cache instead. */
  searches_from_cache: number;
  /** The documents the citations were found in, once each, in the order first cited. */
  documents: CitedDocument[];
}

/**
 * Whether every citation of a report is `found` with no warning (exit 0; else 8, as a failed verification: a citation
 * of which a part was declared unconstitutional fails too).
 */
export function allFound(report: CiteReport): boolean {
  return report.citations.every((c) => c.verdict === 'found' && c.warning === null);
}
