/**
 * One line per paragraph (алинея), point (точка) and letter (буква) of a provision's text, whatever the input: the
 * consolidated texts print an article's paragraphs and points inline („(1) … (2) … : 1. …; 2. …“), the Akoma Ntoso
 * files mostly one per line (but some `<p>` run them together), the National Assembly's texts one per line. The index
 * build (`index-build.ts`) passes every statute's element text through {@link splitProvisionLines}, so that `pravo doc`
 * shows each ал. on its own line, `pravo cite` quotes exactly one ал. (`legal/cite.ts`, a paragraph is a line that
 * begins `(N)`), and an answer quotes sentences of one ал. (`answers/compose.ts`, sentences end at a line break).
 *
 * A line break is put only before a real marker (never inside a word, nor anywhere else):
 * - a paragraph `(N)` (`(2а)` inserted ones too) numbered next after the text's previous paragraph (`(2)` after
 *   `(1)`, `(2а)` after `(2)`, `(3)` after `(2а)`), after a sentence's end (`.`, `;`, `:`, `!`, `?`, a closing quote
 *   after one of them); a period ending an abbreviated reference (`ал.`, `чл.`, `т.` …: „по ал. (1)“) is no
 *   sentence's end. Amendment notes right before it („… дете. (Изм. – ДВ, бр. 5 от 1992 г.) (3) …“) go with it: the
 *   break is put before them; but notes that are all the previous paragraph holds („(3) (Отм. – ДВ, бр. …) (4) …“, a
 *   repealed paragraph) stay with it. A paragraph `(1)` is never split off: it opens the text (after its label and
 *   notes), and a `(1)` later in a line is no next paragraph;
 * - a point `N.` (`6а.` inserted ones too): `1.` after a colon, a later one numbered next after the previous point of
 *   its paragraph, after `;`, `.`, `:` or `,`, or after „и“ / „или“ ending the previous point („… наследството и
 *   2. …“) unless the word before them is a number or a marker („т. 1 и 2.“);
 * - a letter `а)`: `а)` after a colon, a later one the next letter after the previous of its point, under the same
 *   rules as points („… на наследството и б) …“, but not „букви а) и б)“).
 * Nothing inside quotation marks („…“) or brackets is split (quoted provisions of an amending act, references), and an
 * amendment note alone („(Изм. – ДВ, бр. …)“) is never a marker. A paragraph marker resets the numbering of points,
 * a point that of letters. Lines already broken stay broken, and their markers count for the numbering: the function is
 * idempotent, so a text already one paragraph a line comes back unchanged. Where a text runs unnumbered paragraphs
 * together (the ЗЗД's „чл. 55“: two sentences, no marker), nothing is split: which sentence is ал. 2 cannot be told.
 */

/** A number of a paragraph or point: `2а` → `{n: 2, suffix: 'а'}`. */
interface Numbered {
  n: number;
  suffix: string;
}

/** The letters of points, in order (Bulgarian, without ъ and ь). */
const LETTERS = 'абвгдежзийклмнопрстуфхцчшщюя';

/** Words whose period is no sentence's end before a marker: references (`ал. (1)`, `т. 1.`) and `№`. */
const REFERENCE_WORDS = new Set(['ал', 'чл', 'т', 'б', 'пр', 'предл', 'изр', 'пар', 'бр', 'стр', 'разд', 'гл']);

/** Whether bracketed text (brackets included) is an amendment note: it names the State Gazette or a КС decision. */
function isNote(bracketed: string): boolean {
  return /^\(\s*\p{L}/u.test(bracketed) && /ДВ|РКС|Д\.В\./u.test(bracketed);
}

/**
 * Where the amendment notes that end `text.slice(0, before)` begin (white space around them skipped); `before` when it
 * does not end with one. Scans back bracket by bracket: linear in the notes' length.
 */
function trailingNotesStart(text: string, before: number): number {
  let end = before;
  for (;;) {
    let i = end;
    while (i > 0 && /\s/u.test(text[i - 1]!)) i--;
    if (i === 0 || text[i - 1] !== ')') return end;
    let depth = 0;
    let open = -1;
    for (let j = i - 1; j >= 0; j--) {
      if (text[j] === ')') depth++;
      else if (text[j] === '(' && --depth === 0) {
        open = j;
        break;
      }
    }
    if (open < 0 || !isNote(text.slice(open, i))) return end;
    end = open;
  }
}

/** An article's or §'s own label opening a text: `Чл. 12а.`, `§ 3.`, `Член единствен.`. */
const LABEL = /^(?:Чл\.\s*\d+[\p{L}\d]*\.|§\s*\d+[\p{L}\d]*\.|Член\s+единствен\.|Параграф\s+единствен\.)\s*/u;

/** The markers at the start of a line (after a label and notes): a paragraph, a point or a letter. */
const LINE_START = /^(?:\((\d{1,3})([а-я])?\)|(\d{1,3})([а-я])?\.(?=\s)|([а-я])\)(?=\s))/u;

/**
 * Candidate markers inside a line, each with the white space before it (the marker starts one character after the
 * match). No `u` flag: the letters are of the Basic Multilingual Plane, and the scan runs over every statute's text.
 */
const CANDIDATE = /\s(?:\((\d{1,3})([а-я])?\)|(\d{1,3})([а-я])?\.|([а-я])\))(?=\s)/g;

/** Whether a text may hold a marker inside a line: a cheap test before the reading. */
const MAYBE_INLINE = /[^\s]\s+(?:\(\d|\d{1,3}[а-я]?\.\s|[а-я]\)\s)/;

/** Whether `next` is numbered right after `previous` (`2` after `1`, `2а` after `2`, `3` after `2а`). */
function follows(next: Numbered, previous: Numbered | undefined): boolean {
  if (previous === undefined) return next.n === 1 && next.suffix === '';
  if (next.n === previous.n) return next.suffix.length === 1 && next.suffix > previous.suffix;
  return next.n === previous.n + 1 && next.suffix === '';
}

/** The numbering state of a text being read. */
interface State {
  paragraph: Numbered | undefined;
  point: Numbered | undefined;
  /** Index in {@link LETTERS} of the last letter, -1 before the first. */
  letter: number;
  /** Quotation marks („) open at this point of the text. */
  quotes: number;
}

/** What ends the text before a marker: `:`, `;`, `.`, `,`, `!`, `?`, `и` (and / or), or nothing that ends anything. */
type Boundary = ':' | ';' | '.' | ',' | '!' | '?' | 'и' | undefined;

/** How many characters before a marker {@link boundaryOf} reads. */
const BOUNDARY_TAIL = 80;

/** What ends `before` (the line up to a marker, notes removed), by the rules of the module comment. */
function boundaryOf(before: string): Boundary {
  // The end of the text decides: a bounded tail keeps the patterns below, anchored at the end, linear.
  const text = before.slice(-BOUNDARY_TAIL).trimEnd();
  const m = /([.;:,!?])[“”"»]?$/u.exec(text);
  if (m) {
    const mark = m[1] as Boundary;
    if (mark === '.') {
      const word = /(?<![\p{L}\d])([\p{L}№]+)\.[“”"»]?$/u.exec(text)?.[1];
      if (word !== undefined && REFERENCE_WORDS.has(word.toLowerCase())) return undefined;
    }
    return mark;
  }
  // „… наследството и б)“: „и“ / „или“ after a word that is not a number or a marker („т. 1 и 2.“, „букви а) и б)“).
  const conjunction = /(\S+)\s+(?:и|или)$/u.exec(text);
  if (conjunction && !/^(?:\d+[\p{L}]?[.)]?|\(?[\p{L}]\)|\(\d+[\p{L}]?\))$/u.test(conjunction[1]!)) return 'и';
  return undefined;
}

/** `„`, `“` and `”`: the quotation marks counted (as UTF-16 code units). */
const OPENING_QUOTE = 0x201e;
const CLOSING_QUOTE = 0x201c;
const CLOSING_QUOTE_RIGHT = 0x201d;

/** Bracketed text opening a line that is no marker (a note: „(Изм. – ДВ …)“, „(Отм.)“), with the space after it. */
const LEADING_BRACKET = /^\((?!\d)(?:[^()]|\([^()]*\))*\)\s*/u;

/** Takes the marker at the start of a line (after its label and notes) into the numbering. */
function readLineStart(line: string, state: State): void {
  let rest = line.replace(LABEL, '');
  for (let note = LEADING_BRACKET.exec(rest); note; note = LEADING_BRACKET.exec(rest)) rest = rest.slice(note[0].length);
  const m = LINE_START.exec(rest);
  if (!m) return;
  if (m[1] !== undefined) {
    state.paragraph = { n: Number(m[1]), suffix: m[2] ?? '' };
    state.point = undefined;
    state.letter = -1;
  } else if (m[3] !== undefined) {
    state.point = { n: Number(m[3]), suffix: m[4] ?? '' };
    state.letter = -1;
  } else if (m[5] !== undefined) {
    state.letter = LETTERS.indexOf(m[5]);
  }
}

/**
 * Where one line breaks (offsets in the line where a new line starts), reading its markers into `state`. See the module
 * comment for the rules. Quotation marks and brackets are counted once over the line, up to each candidate in turn.
 */
function breaksOf(line: string, state: State): number[] {
  const candidates = [...line.matchAll(CANDIDATE)];
  const breaks: number[] = [];
  let quotes = state.quotes;
  let brackets = 0;
  let scanned = 0;
  // A line without a candidate (most) only has its quotation marks counted, and only when it has any.
  if (candidates.length === 0 && !/[„“”]/.test(line)) return breaks;
  for (const m of candidates) {
    const at = m.index + 1;
    for (; scanned < at; scanned++) {
      const c = line.charCodeAt(scanned);
      if (c === OPENING_QUOTE) quotes++;
      else if ((c === CLOSING_QUOTE || c === CLOSING_QUOTE_RIGHT) && quotes > 0) quotes--;
      else if (c === 0x28) brackets++;
      else if (c === 0x29 && brackets > 0) brackets--;
    }
    if (quotes > 0 || brackets > 0) continue;
    // Notes right before a marker go with it, unless they are all a paragraph holds („(3) (Отм. – ДВ …) (4) …“):
    // then they are that paragraph's, which ends before the marker.
    let cut = trailingNotesStart(line, at);
    let boundary = boundaryOf(line.slice(Math.max(0, cut - BOUNDARY_TAIL), cut));
    if (cut < at && /(?:^|\s)\(\d{1,3}[а-я]?\)\s*$/u.test(line.slice(Math.max(0, cut - 12), cut))) {
      cut = at;
      boundary = '.';
    }
    if (boundary === undefined || !/\S/u.test(line.slice(0, cut))) continue;
    if (m[1] !== undefined) {
      const number = { n: Number(m[1]), suffix: m[2] ?? '' };
      if (number.n === 1 || !follows(number, state.paragraph) || boundary === ',' || boundary === 'и') continue;
      state.paragraph = number;
      state.point = undefined;
      state.letter = -1;
    } else if (m[3] !== undefined) {
      const number = { n: Number(m[3]), suffix: m[4] ?? '' };
      const first = number.n === 1 && number.suffix === '' && boundary === ':';
      if (!first && (boundary === ':' || state.point === undefined || !follows(number, state.point))) continue;
      state.point = number;
      state.letter = -1;
    } else {
      const letter = LETTERS.indexOf(m[5]!);
      const first = letter === 0 && boundary === ':';
      if (!first && (boundary === ':' || state.letter < 0 || letter !== state.letter + 1)) continue;
      state.letter = letter;
    }
    breaks.push(cut);
  }
  for (; scanned < line.length; scanned++) {
    const c = line.charCodeAt(scanned);
    if (c === OPENING_QUOTE) quotes++;
    else if ((c === CLOSING_QUOTE || c === CLOSING_QUOTE_RIGHT) && quotes > 0) quotes--;
  }
  state.quotes = quotes;
  return breaks;
}

/**
 * A provision's text with each paragraph, point and letter on a line of its own (see the module comment): line breaks
 * put before the markers that run inline, the white space before them removed; nothing else changed. Idempotent.
 * @param text an element's text, lines joined by `\n` (its label at its start or not).
 * @returns the text, with more line breaks or none.
 */
export function splitProvisionLines(text: string): string {
  if (!MAYBE_INLINE.test(text)) return text;
  const state: State = { paragraph: undefined, point: undefined, letter: -1, quotes: 0 };
  const out: string[] = [];
  for (const line of text.split('\n')) {
    readLineStart(line, state);
    const breaks = breaksOf(line, state);
    let from = 0;
    for (const at of breaks) {
      out.push(line.slice(from, at).trimEnd());
      from = at;
    }
    out.push(from === 0 ? line : line.slice(from));
  }
  return out.join('\n');
}
