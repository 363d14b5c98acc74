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
import { namedAct, titleKey, withConnectedActs, type NamedAct, type ResultRef } from '../shared/act-match.js';
import { articleRefCandidates } from '../shared/article-ref.js';
import { parseCitations, type Citation } from '../shared/citations.js';
import { elementLabelOf, elementTextOf, stringField } from '../render/fields.js';
import { elementRefOf, elementsOf, refsAround } from './documents.js';
import { unwrapMemo } from './memo-lines.js';
import { describeRuling, rulingBearing, rulingsOf, type RulingView } from './rulings.js';

// Which act a citation names and which search result is that act: shared with the sandbox's corpus, which resolves the
// acts court decisions cite by the same rules (`shared/act-match.ts`).
export { matchAct, requiredLengthOf, titleLengthOf, type ActMatch, type NamedAct, type ResultRef } from '../shared/act-match.js';

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
