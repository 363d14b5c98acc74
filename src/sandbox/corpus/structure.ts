/**
 * The real structure of a Bulgarian act's text as the National Assembly publishes it: its own articles (`Чл. N.`),
 * then each `§` of the additional, transitional and final provisions as an element of its own, with the chapter,
 * section and provisions headings on the element they open.
 *
 * Input is the text as lines (one paragraph a line): the official payload's HTML made into lines (`payload.ts`), or the
 * element texts of a statutes-file document joined (`restructureStatute`). The statutes file was made by a builder
 * that split at every line starting `Чл. N.`, also at articles QUOTED inside the §§ of amending acts, and dropped the
 * text before the first such line; its amending acts that quote no article are a single element `body` (decree,
 * title and all §§). This module rebuilds those documents in the structure below.
 *
 * Rules (`structureActLines`):
 * - Decree and title. The President's decree (`УКАЗ № …` … `Министър на правосъдието: …`) and the act's title lines
 *   (`ЗАКОН` / `за …` / `(обн., ДВ, …)`) are not elements: everything up to the title is dropped. Lines between the
 *   title and the first provision that are headings open that provision (its `heading`); any other text there is the
 *   act's own preamble, element `преамбюл` (label `Преамбюл`, as the consolidated corpus names it).
 * - Articles. A line starting `Чл. N.` (ref `N`, label `Чл. N.`) is an article of the act while no `§` has opened,
 *   when it does not start with `„` and its number is above the previous article's (exactly one more when the quote
 *   state says the line is inside a quotation). `Член единствен.` is the sole article (ref `единствен`).
 * - Paragraphs. A line starting `§ N.` (ref `§N`, label `§ N.`) not starting with `„` opens a paragraph when it is
 *   numbered one more than the previous (the first: `§ 1.` after articles, any number in a text without articles);
 *   inside a quotation by the quote state too, unless an unquoted `§ N.` is printed again further on (then this one
 *   is the quoted one). A gap in the numbering as printed (`§ 72.` then `§ 77.`, at most {@link MAX_PARAGRAPH_GAP})
 *   is taken at top level when neither the number nor those skipped are printed further on. `Параграф единствен.` is
 *   ref `§единствен`. Once a `§` has opened, every `Чл.` line is text of the current `§` (an amending act's quoted
 *   article: the act's own articles all come before its §§).
 * - Quotations. A line starting `„` that leaves a quotation open (more `„` than `“`/`”`, and not closed by a `“` at
 *   its end, except a quoted heading like `„Глава десета „а“`) opens a quoted block; the block closes at the line with
 *   more closing than opening marks, or at the next line starting `„` (a new quotation: the source often closes two
 *   nested quotations with one mark, so counts alone drift). Quotations within one line are not followed. Lines of a
 *   block and lines starting `„` are never headings.
 * - Headings. Heading-like lines at top level just before a provision (no colon, no closing punctuation, capital
 *   first letter, at most {@link HEADING_MAX} characters) move from the previous element's end to the provision's
 *   `heading`: `Глава първа` + its title line as `Глава първа. ОБЩИ ПОЛОЖЕНИЯ`, `Раздел I. …`, the provisions'
 *   headings (`Допълнителни разпоредби`, `Преходни и заключителни разпоредби`; sentence case when printed in
 *   capitals), an article's own title (`Предмет`); several joined by ` / `.
 * - Labels. An element's `text` is its lines joined by `\n` and starts with its label (as in the statutes file); a
 *   label printed with other spacing (`§ 4 .`, `§3.`) is written as the label.
 * - Closing. The adoption note (`Законът е приет от … Народно събрание на …`) stays at the end of the last
 *   provision's text; the chairman's signature after it (`Председател на Народното събрание: …`) and the State
 *   Gazette's item number (a last line of digits) are dropped, like the decree. Annexes printed after the note
 *   (`Приложение № 1 към чл. 3`, numbered on in order) are elements of their own: ref `прил1` (`прил` when
 *   unnumbered), label `Приложение № 1`.
 * - Lost beginnings (statutes file only). A text that starts, without decree or title, with a `Чл. N.` line whose
 *   number is not 1, or with a `Чл. 1.` whose lines close a quotation never opened, starts inside a quotation of an
 *   amending act whose § was lost: that text, up to the first `§`, is kept as one element `body` (label `Основен
 *   текст`, the statutes file's label for undivided text). Any other text before the first provision of a text
 *   without decree or title is kept the same way, and a text with no provision at all is one element `body`.
 * - Cut texts (statutes file only). The statutes file cut 62 long element texts at 45,030 characters, marking the cut
 *   with a line `[...truncated for storage...]`: the mark is kept in the text (it shows where text is missing), and
 *   after it the next `§` at top level is taken whatever its number above the last (the §§ in between are lost).
 * - White space. Lines are trimmed and their white space collapsed (no-break spaces, undecoded `&ensp;`), soft
 *   hyphens and zero-width characters removed; blank lines are skipped.
 */
import type { CorpusDocument, CorpusElement } from './reader.js';

/** Longest line taken for a heading, in characters. */
export const HEADING_MAX = 160;

/** Most §§ missing from the numbering as printed that a `§` line may skip (`§ 72.` then `§ 77.`: 4). */
const MAX_PARAGRAPH_GAP = 5;

const MONTHS: Readonly<Record<string, number>> = {
  януари: 1,
  февруари: 2,
  март: 3,
  април: 4,
  май: 5,
  юни: 6,
  юли: 7,
  август: 8,
  септември: 9,
  октомври: 10,
  ноември: 11,
  декември: 12,
};

/** The number (1–12) of a Bulgarian month's name in any case (`Април` → 4); undefined for anything else. */
function monthNumber(name: string): number | undefined {
  return Object.hasOwn(MONTHS, name.toLowerCase()) ? MONTHS[name.toLowerCase()] : undefined;
}

/** `YYYY-MM-DD` of a day, month (1–12) and year, or null when that is no calendar date. */
function isoDate(day: number, month: number, year: number): string | null {
  if (!(month >= 1 && month <= 12 && day >= 1 && day <= 31 && year >= 1800 && year <= 2200)) return null;
  const d = new Date(Date.UTC(year, month - 1, day));
  if (d.getUTCDate() !== day || d.getUTCMonth() !== month - 1) return null;
  return d.toISOString().slice(0, 10);
}

/**
 * A Bulgarian date `27 юни 2025` or `27.06.2025` at the start of `text` (month names in any case) as `YYYY-MM-DD`, or
 * null when there is none or it is no calendar date.
 */
export function parseBulgarianDate(text: string): string | null {
  const named = /^(\d{1,2})\s+([\p{L}]+)\s+(\d{4})/u.exec(text);
  if (named) {
    const month = monthNumber(named[2]!);
    return month === undefined ? null : isoDate(Number(named[1]), month, Number(named[3]));
  }
  const numeric = /^(\d{1,2})\.\s?(\d{1,2})\.\s?(\d{4})/.exec(text);
  return numeric ? isoDate(Number(numeric[1]), Number(numeric[2]), Number(numeric[3])) : null;
}

/**
 * The date of the President's decree promulgating an act, from its line „Издаден в София на 27 юни 2025 г.“
 * anywhere in `text` (also `… на 27.06.2025 г.`, `в гр. София`).
 * @returns `YYYY-MM-DD` (`2025-06-27`), or null when the text has no such line or its date is no calendar date.
 */
export function decreeDate(text: string): string | null {
  for (let at = text.indexOf('Издаден'); at !== -1; at = text.indexOf('Издаден', at + 1)) {
    const m = /^Издаден\s+в\s+(?:гр\.\s*)?София\s+на\s+/u.exec(text.slice(at, at + 60));
    if (m) return parseBulgarianDate(text.slice(at + m[0].length, at + m[0].length + 40));
  }
  return null;
}

/**
 * The date an act was adopted, from its closing note, a line „Законът е приет от 51-вото Народно събрание на 20 юни
 * 2025 г. …“ (also `Кодексът е приет …`, `Законът заедно с приложенията към него е приет …`). An act adopted at two
 * sittings („на 24 януари 2019 г. и на 20 февруари 2019 г.“) was adopted on the later date, the last one of the note.
 * @returns `YYYY-MM-DD`, or null when the text has no such line with a date.
 */
export function adoptionDate(text: string): string | null {
  for (const word of ['Законът', 'Кодексът']) {
    for (let at = text.indexOf(word); at !== -1; at = text.indexOf(word, at + 1)) {
      if (at > 0 && !/\n[ \t]*$/u.test(text.slice(Math.max(0, at - 8), at))) continue;
      const end = text.indexOf('\n', at);
      const line = text.slice(at, end === -1 ? text.length : end);
      if (!CLOSING_NOTE.test(line)) continue;
      let found: string | null = null;
      for (const on of line.matchAll(/(?<![\p{L}])на\s+(?=\d)/gu)) {
        const date = parseBulgarianDate(line.slice(on.index + on[0].length));
        if (date !== null) found = date;
      }
      if (found !== null) return found;
    }
  }
  return null;
}

/**
 * The date a text as first published is current as of (`as_of`): its publication, as close as the text tells it.
 * The State Gazette's date of issue is not in the inputs, so: the decree's date ({@link decreeDate}, the State Gazette
 * prints the act within days of it); else the adoption date of the closing note ({@link adoptionDate}, days before the
 * decree; the statutes file dropped the decree of every act it split into articles); else `fallback` (the source's
 * date of the act's final adoption: the statutes file's `in_force_date`, the payload's `L_Act_date2`) when it is a date
 * `YYYY-MM-DD`.
 * @returns `YYYY-MM-DD`, or null when none of them is known.
 */
export function publishedAsOf(text: string, fallback?: string | null): string | null {
  return decreeDate(text) ?? adoptionDate(text) ?? (fallback && /^\d{4}-\d{2}-\d{2}$/.test(fallback) ? fallback : null);
}

const ARTICLE = /^Чл\.\s*(\d+)\s*([а-я]{1,3})?\s*\.(?!\d)/u;
const SOLE_ARTICLE = /^Член\s+единствен\s*\./u;
const PARAGRAPH = /^§\s*(\d+)\s*([а-я]{1,3})?\s*\.(?!\d)/u;
const SOLE_PARAGRAPH = /^Параграф\s+единствен\s*\./u;
/** The adoption note closing an act: `Законът е приет от …`, `Кодексът е приет …`, `Законът заедно с приложенията към него е приет …`. */
const CLOSING_NOTE = /^(?:Законът|Кодексът)(?:\s+заедно\s+с\s+приложени[\p{L}]*(?:\s+към\s+него)?)?\s+е\s+прие(?:т|то)(?![\p{L}])/u;
const CHAIRMAN = /^Председател\s+на\s+Народното\s+събрание(?![\p{L}])/u;
const ANNEX = /^Приложение(?:\s*№\s*(\d+[а-я]?))?(?=[\s,.]|$)/u;
const DECREE = /^УКАЗ(?![\p{L}])/u;
/** The statutes file's mark of a text cut at 45,000 characters. */
const TRUNCATED = /^\[\.\.\.truncated for storage\.\.\.\]$/u;
/** The act's title line after the decree: `ЗАКОН`, `КОДЕКС`, `ИЗБОРЕН КОДЕКС`, `ЗАКОН за …`, `ЗАКОН ЗА …`. */
const TITLE_LINE = /^(?:[А-Я-]+\s+){0,3}(?:ЗАКОН|КОДЕКС)(?:\s+[А-Я-]+)*(?:\s+(?:за|на)\s.*)?$/u;
/** A chapter, section, part or title marker: `Глава първа`, `Раздел I`, `Част втора`, `Дял II`. */
const HEADING_MARKER =
  /^(?:част|дял|глава|раздел)\s+(?:[а-я]+(?:\s+и\s+[а-я]+)?|[ivxlcіхѵ]+[а-я]?|\d+[а-я]?)(?:\s+„[а-я\d]{1,3}“)?\.?$/iu;
/** The heading of the additional, transitional or final provisions. */
const PROVISIONS_HEADING =
  /^(?:(?:допълнителн|преходн|заключителн)(?:а|и)(?:,\s*|\s+и\s+|\s+))+(?:разпоредб(?:а|и))?$/iu;

/** Counts of opening (`„`) and closing (`“`, `”`) quotation marks in a line. */
function quoteCounts(line: string): { open: number; close: number } {
  let open = 0;
  let close = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 0x201e) open++;
    else if (c === 0x201c || c === 0x201d) close++;
  }
  return { open, close };
}

/** Whether a line ends with a closing quotation mark, then at most sentence punctuation (`“.`, `“;`, `“`). */
function endsClosed(line: string): boolean {
  return /[“”][.,;)]*$/u.test(line);
}

/**
 * The quote state after a line: 0 at top level, 1 inside a quoted block that runs over lines. See the module comment;
 * nested quotations within one line are not followed (the source closes two with one mark), only blocks.
 */
function quoteStateAfter(depth: number, line: string): number {
  const { open, close } = quoteCounts(line);
  // A line starting `„` opens a quotation of its own: the block before it has ended (an amending act quotes each new
  // text after an instruction line; a block left open was closed by a mark the source merged into another).
  if (depth === 0 || line.startsWith('„')) {
    if (!line.startsWith('„') || open <= close) return 0;
    // `„Глава десета „а“` opens a quoted chapter; `„Чл. 1. … Агенция „Митници“.` closes at its end.
    if (endsClosed(line) && !/[“”]$/u.test(line)) return 0;
    if (/[“”]$/u.test(line) && !HEADING_MARKER.test(line.slice(1)) && !isHeadingLine(line.slice(1))) return 0;
    return 1;
  }
  return close > open ? 0 : 1;
}

/**
 * Whether a line (trimmed, unquoted) reads as a heading: 1 to {@link HEADING_MAX} characters, starting with a capital
 * letter, with no colon and no sentence punctuation at its end.
 */
function isHeadingLine(line: string): boolean {
  return (
    line.length > 0 &&
    line.length <= HEADING_MAX &&
    /^\p{Lu}/u.test(line) &&
    !line.includes(':') &&
    !/[.;,!?…\-–—][“”"»)]*$/u.test(line) &&
    !ARTICLE.test(line) &&
    !PARAGRAPH.test(line) &&
    !CLOSING_NOTE.test(line)
  );
}

/** `ДОПЪЛНИТЕЛНИ РАЗПОРЕДБИ` → `Допълнителни разпоредби`; other lines as they are. */
function provisionsHeading(line: string): string {
  if (!PROVISIONS_HEADING.test(line) || line !== line.toUpperCase()) return line;
  return line.charAt(0) + line.slice(1).toLowerCase();
}

/**
 * The `heading` of a provision from the heading lines before it: a marker line (`Глава първа`) and the title line
 * after it as `Глава първа. ОБЩИ ПОЛОЖЕНИЯ`; the units joined by ` / `.
 */
function formatHeading(lines: readonly string[]): string {
  const units: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i]!;
    // `ПРЕХОДНИ И ЗАКЛЮЧИТЕЛНИ` / `РАЗПОРЕДБИ` printed over two lines.
    if (i + 1 < lines.length && /^разпоредб[аи]$/iu.test(lines[i + 1]!) && PROVISIONS_HEADING.test(`${line} ${lines[i + 1]!}`)) {
      line = `${line} ${lines[++i]!}`;
    }
    line = provisionsHeading(line);
    const next = lines[i + 1];
    if (HEADING_MARKER.test(line) && next !== undefined && !HEADING_MARKER.test(next) && !PROVISIONS_HEADING.test(next)) {
      units.push(`${line}${/[.]$/u.test(line) ? '' : '.'} ${next}`);
      i++;
    } else {
      units.push(line);
    }
  }
  return units.join(' / ');
}

/** One line of an element being built, with whether it is quoted (inside a quoted block or opening one). */
interface Line {
  text: string;
  quoted: boolean;
}

/** An element being built. */
interface Draft {
  ref: string;
  label: string;
  lines: Line[];
  heading?: string | undefined;
}

/** A provision's number for ordering: `12`, `12а` → [12, 'а']. */
function provisionNumber(m: RegExpExecArray): { n: number; suffix: string } {
  return { n: Number(m[1]), suffix: m[2] ?? '' };
}

/** Whether `a` comes after `b` in numbering (`12а` after `12`, `13` after `12а`). */
function after(a: { n: number; suffix: string }, b: { n: number; suffix: string }): boolean {
  return a.n > b.n || (a.n === b.n && a.suffix > b.suffix);
}

/** Space entities left undecoded in the statutes file's text (`чл.&ensp;98`). */
const SPACE_ENTITY = /&(?:ensp|emsp|nbsp|thinsp|#160|#8194|#8195);/gu;
/** What {@link cleanLine} changes: invisible characters, white space other than single spaces, space at either end. */
const UNCLEAN = /[\u00ad\u200b-\u200d\ufeff\u00a0\u2000-\u200a\u202f\u205f\u3000\t\n\v\f\r]| {2}|^ | $|&(?:ensp|emsp|nbsp|thinsp|#160|#8194|#8195);/u;

/**
 * Normalises one line: white space (no-break spaces and undecoded space entities such as `&ensp;` included) collapsed,
 * soft hyphens and zero-width characters removed, trimmed.
 */
function cleanLine(line: string): string {
  if (!UNCLEAN.test(line)) return line;
  return line
    .replace(SPACE_ENTITY, ' ')
    .replace(/[\u00ad\u200b\u200c\u200d\ufeff]/gu, '')
    .replace(/[\s\u00a0\u2000-\u200a\u202f\u205f\u3000]+/gu, ' ')
    .trim();
}

/** Whether a line opens a provision: `Чл. N.`, `§ N.`, `Член единствен.`, `Параграф единствен.`. */
function isProvisionLine(line: string): boolean {
  return ARTICLE.test(line) || PARAGRAPH.test(line) || SOLE_ARTICLE.test(line) || SOLE_PARAGRAPH.test(line);
}

/** Round brackets opened and not closed in `text`. */
function openBrackets(text: string): number {
  let n = 0;
  for (const c of text) {
    if (c === '(') n++;
    else if (c === ')' && n > 0) n--;
  }
  return n;
}

/**
 * Where the decree and the title end (see the module comment): `start`, the first line after them, and `titled`,
 * whether the text has a decree or a title (it is a text from its beginning, not one that lost it). The lines before
 * the first provision are searched for the title line (`ЗАКОН`, `ИЗБОРЕН КОДЕКС`, `ЗАКОН за …`); the title goes on
 * over lines while a bracket is open (`(обн., ДВ, бр. 27 от 2018 г.; изм., …` broken over lines), over lines
 * starting in lower case, with a digit or a bracket, and over lines after a title line not ending in sentence
 * punctuation unless they read as a heading. Without a title line, a decree (`УКАЗ`, `ПОСТАНОВЯВАМ:`, `Издаден в
 * София`) before the first provision is dropped up to it.
 */
function afterDecree(lines: readonly string[]): { start: number; titled: boolean } {
  let first = lines.findIndex((l) => !l.startsWith('„') && isProvisionLine(l));
  if (first === -1) first = lines.length;
  const title = lines.slice(0, first).findIndex((l) => TITLE_LINE.test(l));
  if (title !== -1) {
    let j = title + 1;
    let brackets = openBrackets(lines[title]!);
    while (j < first) {
      const line = lines[j]!;
      const previous = lines[j - 1]!;
      const continues =
        brackets > 0 ||
        /^[\p{Ll}\d(–-]/u.test(line) ||
        // `… на територията на` / `Република България на …`: a title broken after a preposition or a comma.
        /(?:,|\s(?:на|за|и|или|между|от|в|във|с|със|по|към|до|при|относно))$/u.test(previous) ||
        (!/[.:;!?]$/u.test(previous) && !isHeadingLine(line));
      if (!continues) break;
      brackets = openBrackets(lines.slice(title, j + 1).join(' '));
      j++;
    }
    return { start: j, titled: true };
  }
  const decree = lines.slice(0, first).some((l) => DECREE.test(l) || /^ПОСТАНОВЯВАМ/u.test(l) || /^Издаден\s+в\s/u.test(l));
  return decree ? { start: first, titled: true } : { start: 0, titled: false };
}

/**
 * The elements of an act's text given as lines (see the module comment for every rule): its articles (ref `N`,
 * label `Чл. N.`), then its §§ (ref `§N`, label `§ N.`), then annexes printed after the adoption note (ref `прил1`);
 * a preamble of the act's own (`преамбюл`) or text whose provision is lost (`body`) first when there is one. Each
 * element's `text` is its lines joined by `\n`, starting with its label line; `heading` is set on an element that a
 * heading opens.
 * @param lines the text, one paragraph a line; blank lines are skipped, white space is normalised.
 * @returns the elements in text order; empty when the text holds nothing but a decree and a title (or nothing).
 */
export function structureActLines(lines: readonly string[]): CorpusElement[] {
  const text = lines.flatMap((l) => l.split('\n')).map(cleanLine).filter((l) => l !== '');
  const { start, titled } = afterDecree(text);
  const drafts: Draft[] = [];
  /** Lines before the first provision: heading, preamble, or the lost beginning of a text. */
  const lead: Line[] = [];
  let current: Draft | undefined;
  let depth = 0;
  let lastArticle: { n: number; suffix: string } | undefined;
  let lastParagraph: number | undefined;
  let lastAnnex: number | undefined;
  let phase: 'articles' | 'paragraphs' | 'closing' = 'articles';
  // After the statutes file's mark of a cut (`[...truncated for storage...]`) the text resumes at an unknown point:
  // the next `§` at top level is taken whatever its number above the last.
  let resync = false;
  // A text without decree or title that starts inside a quotation whose § was lost (statutes file): no articles.
  let orphan = false;
  if (!titled && start < text.length) {
    const first = ARTICLE.exec(text[start]!);
    if (first && Number(first[1]) !== 1) orphan = true;
    else if (first) {
      // `Чл. 1. …“` whose first lines close a quotation never opened: quoted text of a lost §.
      for (let i = start, d = 0; i < text.length; i++) {
        if (i > start && (ARTICLE.test(text[i]!) || PARAGRAPH.test(text[i]!))) break;
        const { open, close } = quoteCounts(text[i]!);
        d += open - close;
        if (d < 0) {
          orphan = true;
          break;
        }
      }
    }
    if (orphan) phase = 'paragraphs';
  }

  /** Line indices of each unquoted `§ N.` line, to tell a real `§` from a quoted one printed again further on. */
  const paragraphLines = new Map<number, number[]>();
  for (let i = start; i < text.length; i++) {
    const m = text[i]!.startsWith('„') ? null : PARAGRAPH.exec(text[i]!);
    if (!m || m[2]) continue;
    const list = paragraphLines.get(Number(m[1]));
    if (list) list.push(i);
    else paragraphLines.set(Number(m[1]), [i]);
  }
  /** Whether an unquoted `§ n.` line follows line `i`. */
  const printedLater = (n: number, i: number): boolean => (paragraphLines.get(n) ?? []).some((j) => j > i);

  /**
   * Starts an element at `line`, whose first `prefix` is the label as printed (`§ 4 .`, `§3.`): written as `label`,
   * so that the text starts with it. Heading lines at the end of the previous element (or of the lead) open it.
   */
  const open = (ref: string, label: string, line: string, prefix: string): void => {
    const source = current ? current.lines : lead;
    const keep = current ? 1 : 0;
    let k = source.length;
    while (k > keep && !source[k - 1]!.quoted && isHeadingLine(source[k - 1]!.text)) k--;
    const headingLines = source.splice(k).map((l) => l.text);
    current = { ref, label, lines: [{ text: label + line.slice(prefix.length), quoted: false }] };
    if (headingLines.length > 0) current.heading = formatHeading(headingLines);
    drafts.push(current);
  };

  for (let i = start; i < text.length; i++) {
    const line = text[i]!;
    if (TRUNCATED.test(line)) {
      (current ? current.lines : lead).push({ text: line, quoted: true });
      depth = 0;
      resync = true;
      continue;
    }
    const before = depth;
    depth = quoteStateAfter(depth, line);
    const quoted = before > 0 || line.startsWith('„') || depth > 0;
    if (phase === 'closing') {
      if (CHAIRMAN.test(line) && !quoted) continue;
      if (i === text.length - 1 && /^\d{1,6}$/u.test(line)) continue;
      // Annexes follow one another: the first (numbered or not), then each numbered one more than the previous.
      const annex = ANNEX.exec(line);
      const number = annex?.[1] === undefined ? undefined : parseInt(annex[1], 10);
      if (annex && (lastAnnex === undefined ? true : number !== undefined && number === lastAnnex + 1)) {
        current = { ref: `прил${annex[1] ?? ''}`, label: annex[1] ? `Приложение № ${annex[1]}` : 'Приложение', lines: [] };
        current.lines.push({ text: line, quoted: false });
        drafts.push(current);
        lastAnnex = number ?? 0;
        depth = 0;
        continue;
      }
    } else if (!line.startsWith('„')) {
      const paragraph = PARAGRAPH.exec(line);
      if (paragraph && !paragraph[2]) {
        const n = Number(paragraph[1]);
        const next =
          lastParagraph === undefined
            ? lastArticle === undefined
              ? before === 0 || n === 1
              : n === 1 || (resync && before === 0)
            : n === lastParagraph + 1
              ? before === 0 || !printedLater(n, i)
              : before === 0 &&
                n > lastParagraph &&
                (resync ||
                  // A gap in the numbering as printed (`§ 72.` then `§ 77.`): none of the numbers between, nor this
                  // one, is printed further on.
                  (n <= lastParagraph + MAX_PARAGRAPH_GAP &&
                    !printedLater(n, i) &&
                    !Array.from({ length: n - lastParagraph - 1 }, (_, k) => lastParagraph! + 1 + k).some((m) => printedLater(m, i))));
        if (next) {
          resync = false;
          open(`§${n}`, `§ ${n}.`, line, paragraph[0]);
          lastParagraph = n;
          phase = 'paragraphs';
          depth = quoteStateAfter(0, line);
          continue;
        }
      } else if (before === 0 && lastParagraph === undefined && SOLE_PARAGRAPH.test(line)) {
        open('§единствен', 'Параграф единствен.', line, SOLE_PARAGRAPH.exec(line)![0]);
        lastParagraph = 1;
        phase = 'paragraphs';
        continue;
      }
      if (phase === 'articles') {
        const article = ARTICLE.exec(line);
        if (article) {
          const number = provisionNumber(article);
          const ok =
            lastArticle === undefined
              ? before === 0 || number.n === 1
              : before === 0
                ? after(number, lastArticle)
                : number.suffix === '' && lastArticle.suffix === '' && number.n === lastArticle.n + 1;
          if (ok) {
            const ref = `${number.n}${number.suffix}`;
            open(ref, `Чл. ${ref}.`, line, article[0]);
            lastArticle = number;
            depth = quoteStateAfter(0, line);
            continue;
          }
        } else if (before === 0 && lastArticle === undefined && SOLE_ARTICLE.test(line)) {
          open('единствен', 'Член единствен.', line, SOLE_ARTICLE.exec(line)![0]);
          lastArticle = { n: 1, suffix: '' };
          continue;
        }
      }
      if (CLOSING_NOTE.test(line) && (current !== undefined || lead.length > 0)) {
        phase = 'closing';
        depth = 0;
      }
    }
    (current ? current.lines : lead).push({ text: line, quoted });
  }

  const elements: CorpusElement[] = [];
  if (lead.length > 0) {
    const body = lead.map((l) => l.text).join('\n');
    elements.push(titled ? { ref: 'преамбюл', label: 'Преамбюл', text: body } : { ref: 'body', label: 'Основен текст', text: body });
  }
  for (const d of drafts) {
    const element: CorpusElement = { ref: d.ref, label: d.label, text: d.lines.map((l) => l.text).join('\n') };
    if (d.heading !== undefined && d.heading !== '') element.heading = d.heading;
    elements.push(element);
  }
  return elements;
}

/**
 * A statutes-file document (`act-<id>`, a text as published) rebuilt in its real structure: its element texts in
 * order (the `body` element's whole text included) as lines, through {@link structureActLines}. The statutes file
 * cannot give back what its builder lost: text before the first `Чл.` line (the §§ of an amending act before its
 * first quoted article: see `body` in the module comment) and text cut off at the end of a long element.
 * @returns a new document: the same fields with the new `elements`, `as_of` ({@link publishedAsOf} of the text, with
 *   `in_force_date` as the fallback, then `date`) and `consolidated: false`. When the rebuild yields no element, the
 *   document's own elements are kept.
 */
export function restructureStatute(doc: CorpusDocument): CorpusDocument {
  const lines = doc.elements.flatMap((e) => e.text.split('\n'));
  const rebuilt = structureActLines(lines);
  const text = lines.join('\n');
  return {
    ...doc,
    elements: rebuilt.length > 0 ? rebuilt : doc.elements,
    as_of: publishedAsOf(text, doc.in_force_date ?? null) ?? (/^\d{4}-\d{2}-\d{2}$/.test(doc.date) ? doc.date : null),
    consolidated: false,
  };
}
