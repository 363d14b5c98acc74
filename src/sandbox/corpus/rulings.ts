/**
 * The rulings of the Constitutional Court (КС) on the corpus's acts (docs/sandbox.md, "Case law under the articles"):
 * which provisions it declared unconstitutional, read from two sources that should agree, and tied to the element of
 * the act each applies to (the `rulings` of a statute element, {@link RulingEntry} in `case-law.ts`).
 *
 * 1. The notes of the act's text ({@link rulingNotesOf}): the editorial notes a consolidated text prints in a
 *    provision („(Нова - ДВ, бр. 106 от 2023 г., обявена за противоконституционна с РКС № 13 от 2024 г. - ДВ, бр. 66
 *    от 2024 г.)“). Where the note stands tells the part: at the start of the element's text (before its first „(1)“),
 *    the whole article or §; right after „(2)“, ал. 2; after „2.“ in ал. 2, ал. 2, т. 2; after „д)“, that letter. The
 *    note itself may narrow it („в частта "закрито заседание"“, „в частта относно изр. второ“, „в частта, в която е
 *    предвидено, че …“), or strike the text of one amendment („доп. от ДВ, бр. 50 от 1995 г. е обявено за
 *    противоконституционно“). A change after the ruling („…, нова - ДВ, бр. 32 от 2026 г.“) sets `later_amended`.
 *    Texts are read as the index stores them: one paragraph, point and letter a line (`provision-lines.ts`).
 * 2. The operative part of the КС decision ({@link operativeRulingsOf}): after „Р Е Ш И:“ / „РЕШИ:“ and before the
 *    signatures, „Решението е подписано с особено мнение …“ and the dissenting opinions (which say „обявява за
 *    противоконституционна“ too), each „Обявява за противоконституционн…“ / „Установява противоконституционност на …“
 *    disposition, inline or as the numbered list of the paragraphs after „Обявява за противоконституционни:“; the
 *    provisions it names are read with the project's citation parser (`shared/citations.ts`). Rejections („Отхвърля
 *    искането …“, „Отклонява …“) and other dispositions („Обявява несъответствие …“) are not rulings.
 * 3. {@link linkRulings} ties both to elements and merges them: one {@link RulingEntry} per (decision, element, part),
 *    `sources` saying which found it, and reports how far the two sources agree ({@link RulingsReport}).
 *
 * Not read, by design: the promulgation histories of acts („(обн., ДВ, бр. …; Решение № 10 на Конституционния съд от
 * 2011 г. – бр. 93 от 2011 г.; изм., …)“) name a decision that changed the act, not the provision; a declaration of a
 * whole act, a decision of the National Assembly or a decree names no provision of the corpus's acts.
 * Pure functions over the documents; no I/O.
 */
import { AMENDING_TITLE } from '../../shared/act-titles.js';
import { CUSTOMARY_ABBREVIATIONS } from '../../shared/act-abbreviations.js';
import { compareArticleRefs, splitArticleRef } from '../../shared/article-ref.js';
import { parseCitations, type Citation } from '../../shared/citations.js';
import { actKey, nominativeActName } from './amendments.js';
import { elementsOfRefIn } from './amended-by.js';
import { ORDINAL, ordinalNumber, PROPOSITION, PROPOSITION_WORD, SENTENCE, SENTENCE_WORD, sentenceAndProposition } from '../../shared/ruling-sentence.js';
import type { RulingEntry, RulingPart, RulingSource } from './case-law.js';
import { excerptIds } from './excerpts.js';
import type { CorpusDocument } from './reader.js';

// ---------------------------------------------------------------------------------------------------------------
// Shared bits

/** The words of a quotation without its marks, white space collapsed. */
function unquote(quoted: string): string {
  return quoted
    .replace(/^[\s„"“”«»']+|[\s„"“”«»']+$/gu, '')
    .replace(/\s+/gu, ' ')
    .trim();
}

/**
 * A comparable form of a part: the paragraph, point, letter, sentence, proposition and words (lower case, without
 * quotation marks, ellipses, punctuation and white space at their ends); `''` for the whole element. Two sources
 * agree on a part when its keys are equal.
 */
export function partKey(part: RulingPart | null): string {
  if (part === null) return '';
  const words =
    part.words === undefined
      ? ''
      : part.words
          .toLowerCase()
          .replace(/\.{3}|…/gu, ' ')
          .replace(/[„"“”«»]/gu, '')
          .replace(/\s+/gu, ' ')
          .replace(/^[\s,.;:–-]+|[\s,.;:–-]+$/gu, '');
  // A part described in words without a quotation („в частта, в която е предвидено, че …“) is its text.
  const described = part.words === undefined && /в\s+частта/u.test(part.text) ? part.text.replace(/\s+/gu, ' ').trim() : '';
  const key = [part.paragraph, part.point, part.letter, part.sentence, part.proposition, words, described].map((x) => x ?? '').join('|');
  return key === '||||||' ? '' : key;
}

/** A part's text from its fields: `ал. 2, т. 2, б. „д“`; `''` for none. */
function positionText(position: { paragraph?: string; point?: string; letter?: string }): string {
  const parts: string[] = [];
  if (position.paragraph !== undefined) parts.push(`ал. ${position.paragraph}`);
  if (position.point !== undefined) parts.push(`т. ${position.point}`);
  if (position.letter !== undefined) parts.push(`б. „${position.letter}“`);
  return parts.join(', ');
}

/** Builds a part from its fields, or null when it names nothing (the whole element). */
function makePart(text: string, fields: Omit<RulingPart, 'text'>): RulingPart | null {
  const part: RulingPart = { text };
  for (const key of ['paragraph', 'point', 'letter', 'sentence', 'proposition', 'words'] as const) {
    const value = fields[key];
    if (value !== undefined && value !== '') part[key] = value;
  }
  return text === '' && Object.keys(part).length === 1 ? null : part;
}

// ---------------------------------------------------------------------------------------------------------------
// 1. The notes of an act's text

/** A ruling read from an editorial note of an element's text. */
export interface RulingNote {
  /** The decision's number and year as the note names them (`РКС № 12 от 2016 г.` → `12`, `2016`). */
  decision_number: string;
  decision_year: string;
  /** `whole`: the note is on the element itself and narrows nothing; `part`: see `part`. */
  scope: 'whole' | 'part';
  /** The paragraph, point or letter the note stands at, and what the note narrows it to; null for the whole element. */
  part: RulingPart | null;
  /** True when the note records a change after the ruling (`изм.`, `доп.`, `нова`, `отм.` after the decision). */
  later_amended: boolean;
  /** The note as printed, brackets included. */
  note: string;
  /** Where the note starts in the text (UTF-16 offset of its „(“). */
  start: number;
}

/** The declaration inside a note: „обявена за противоконституционна“, „обявен за противоконституционен“, „е обявено …“. */
const NOTE_DECLARATION = /(?<!\p{L})обявен[аои]?\s+за\s+противоконституцион\p{L}*/giu;
/**
 * The decision a note names: „с РКС № 12 от 2016 г.“, „с Решение № 13 на Конституционния съд от 2021 г.“, „с Решение на
 * Конституционния съд № 13 от 2021 г.“ (number, year).
 */
const NOTE_DECISION =
  /(?<!\p{L})(?:РКС|Решение(?:\s+на\s+(?:Конституционния\s+съд|КС))?)\s*№\s*(\d+)(?:\s+на\s+(?:Конституционния\s+съд|КС)(?:\s+на\s+(?:РБ|Република\s+България))?)?\s+от\s+(?:\d{1,2}\.\d{1,2}\.|\d{1,2}\s+\p{L}+\s+)?(\d{4})(?:\s*г\.?)?(?:\s*[-–]\s*(?:ДВ,?\s*)?бр\.\s*\d+\s+от\s+\d{4}\s*г\.?)?/u;
/** The amendment whose text a note strikes down: „доп. от ДВ, бр. 50 от 1995 г. е обявено …“. */
const STRUCK_AMENDMENT = /((?:изм\.\s+и\s+доп\.|изм\.|доп\.)\s+от\s+ДВ,?\s*бр\.\s*\d+\s+от\s+\d{4}\s*г\.)\s+е\s*$/iu;
/** A change recorded after the ruling, in the rest of the note. */
const LATER_CHANGE = /(?<!\p{L})(?:изм|доп|нов|нова|ново|нови|отм)(?!\p{L})/iu;
/** An editorial note: bracketed, opening with a word, naming the State Gazette or a КС decision. */
function isEditorialNote(bracketed: string): boolean {
  return /^\(\s*\p{L}/u.test(bracketed) && /ДВ|РКС|Конституционния\s+съд/u.test(bracketed);
}
/** A marker opening a line (after the notes before it): a paragraph `(2)`, `(9а)`, a point `2.`, `2а.`, a letter `д)`. */
const LINE_MARKER = /^(?:\((\d{1,3}[а-я]?)\)|(\d{1,3}[а-я]?)\.(?=\s)|([а-я]{1,2})\)(?=\s))/u;
/** An element's own label at the start of its text (`Чл. 12а.`, `§ 3.`), as the National Assembly's texts print it. */
const OWN_LABEL = /^(?:Чл\.\s*\d+[\p{L}\d¹²³]*\.|§\s*\d+[\p{L}\d]*\.)\s*/u;

/** The offset of the bracket closing the one at `open`, within `[open, end)`; -1 if it is not closed there. */
function closingBracket(text: string, open: number, end: number): number {
  let depth = 0;
  for (let i = open; i < end; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return i;
  }
  return -1;
}

/** The bracket enclosing `at` (the innermost `(` before it still open), or -1. */
function enclosingBracket(text: string, at: number): number {
  let depth = 0;
  for (let i = at - 1; i >= 0; i--) {
    const c = text[i];
    if (c === ')') depth++;
    else if (c === '(') {
      if (depth === 0) return i;
      depth--;
    } else if (c === '\n' && depth === 0) return -1;
  }
  return -1;
}

type Marker = { kind: 'paragraph' | 'point' | 'letter'; value: string };

/** One line's opening: the editorial notes before and after its marker, and the marker. */
interface LineOpening {
  marker: Marker | undefined;
  /** Starts of the notes before the marker (all of them when there is none). */
  before: number[];
  /** Starts of the notes after the marker. */
  after: number[];
}

/** Reads the opening of the line `[start, end)` of `text`: notes, one marker, notes. */
function lineOpening(text: string, start: number, end: number): LineOpening {
  const opening: LineOpening = { marker: undefined, before: [], after: [] };
  let i = start;
  if (start === 0) {
    const label = OWN_LABEL.exec(text.slice(0, Math.min(end, 40)));
    if (label) i += label[0].length;
  }
  for (;;) {
    while (i < end && (text[i] === ' ' || text[i] === '\t' || text[i] === '\u00a0')) i++;
    if (i >= end) break;
    if (text[i] === '(') {
      const close = closingBracket(text, i, end);
      if (close > i && isEditorialNote(text.slice(i, close + 1))) {
        (opening.marker ? opening.after : opening.before).push(i);
        i = close + 1;
        continue;
      }
    }
    if (opening.marker) break;
    const m = LINE_MARKER.exec(text.slice(i, Math.min(end, i + 8)));
    if (!m) break;
    opening.marker =
      m[1] !== undefined
        ? { kind: 'paragraph', value: m[1] }
        : m[2] !== undefined
          ? { kind: 'point', value: m[2] }
          : { kind: 'letter', value: m[3]! };
    i += m[0].length;
  }
  return opening;
}

/** Where a position in an element stands: its paragraph, point and letter (none of them: the whole element). */
interface Position {
  paragraph?: string;
  point?: string;
  letter?: string;
}

/** The position after `marker` in the context `current` (a paragraph resets the point and letter, a point the letter). */
function applyMarker(current: Position, marker: Marker): Position {
  if (marker.kind === 'paragraph') return { paragraph: marker.value };
  if (marker.kind === 'point') return { ...(current.paragraph !== undefined ? { paragraph: current.paragraph } : {}), point: marker.value };
  // Double letters (`аа)`) are sub-letters of a letter: they do not change the letter.
  if (marker.value.length > 1) return current;
  const next: Position = {};
  if (current.paragraph !== undefined) next.paragraph = current.paragraph;
  if (current.point !== undefined) next.point = current.point;
  next.letter = marker.value;
  return next;
}

/**
 * The position of the note starting at `noteStart` in `text` (one paragraph, point or letter a line): a note at the
 * start of the element's first line, before its marker, is on the whole element; a note before or after a later line's
 * marker is on that marker's paragraph, point or letter (notes right before a marker go with it, `provision-lines.ts`);
 * a note inside a line's text is on the line's provision.
 */
function notePosition(text: string, noteStart: number): Position {
  let current: Position = {};
  let lineStart = 0;
  for (;;) {
    const newline = text.indexOf('\n', lineStart);
    const lineEnd = newline < 0 ? text.length : newline;
    const opening = lineOpening(text, lineStart, lineEnd);
    if (noteStart < lineEnd || newline < 0) {
      if (lineStart === 0 && opening.before.includes(noteStart)) return {};
      return opening.marker ? applyMarker(current, opening.marker) : current;
    }
    if (opening.marker) current = applyMarker(current, opening.marker);
    lineStart = newline + 1;
  }
}

/** What a note narrows its position to, read between its declaration and the decision it names. */
function notePart(between: string): { text: string; words?: string; sentence?: string; proposition?: string } | undefined {
  const m = /^\s*(в\s+частта)(?:\s+(?:му|й|ѝ|є|им))?\s*(.*)$/su.exec(between);
  if (!m) return undefined;
  const rest = m[2]!.trim();
  const written = between.replace(/\s+(?:с|със)\s*$/u, '').trim().replace(/\s+/gu, ' ');
  const quoted = /^(?:относно\s+(?:думите|думата|израза|текста|словосъчетанието)\s*)?([„"“«][^„"“”«»]*[“"”»])/u.exec(rest);
  if (quoted) {
    const words = unquote(quoted[1]!);
    return { text: `в частта „${words}“`, words };
  }
  const sentence = new RegExp(String.raw`^относно\s+(${SENTENCE_WORD}\s*${ORDINAL})`, 'iu').exec(rest);
  if (sentence) return { text: sentence[1]!, sentence: ordinalNumber(SENTENCE.exec(sentence[1]!)![1]!) };
  const proposition = new RegExp(String.raw`^относно\s+(${PROPOSITION_WORD}\s*${ORDINAL})`, 'iu').exec(rest);
  if (proposition) return { text: proposition[1]!, proposition: ordinalNumber(PROPOSITION.exec(proposition[1]!)![1]!) };
  return { text: written };
}

/**
 * The rulings the editorial notes of an element's text record (see the module comment): for each note that declares
 * the element, or a part of it, unconstitutional and names the decision, the decision's number and year, the part,
 * whether the text changed after the ruling, and the note. `text` is the element's text as the index stores it (one
 * paragraph, point and letter a line). Cheap on texts without „онституцион“. In text order.
 */
export function rulingNotesOf(text: string): RulingNote[] {
  if (!text.includes('онституцион')) return [];
  const notes: RulingNote[] = [];
  for (const declaration of text.matchAll(NOTE_DECLARATION)) {
    const open = enclosingBracket(text, declaration.index);
    if (open < 0) continue;
    const lineEnd = text.indexOf('\n', open);
    const close = closingBracket(text, open, lineEnd < 0 ? text.length : lineEnd);
    if (close < 0) continue;
    const note = text.slice(open, close + 1);
    if (!isEditorialNote(note) || /^\(\s*(?:обн|oбн)/u.test(note)) continue;
    const declEnd = declaration.index + declaration[0].length - open;
    const after = note.slice(declEnd);
    const decision = NOTE_DECISION.exec(after);
    if (!decision) continue;
    const position = notePosition(text, open);
    const narrowed = notePart(after.slice(0, decision.index));
    const struck = STRUCK_AMENDMENT.exec(note.slice(0, declaration.index - open));
    // The rest of the note after this ruling, up to the next declaration (a later ruling is no change of the text).
    let rest = after.slice(decision.index + decision[0].length);
    const nextDeclaration = /обявен[аои]?\s+за\s+противоконституцион/iu.exec(rest);
    if (nextDeclaration) rest = rest.slice(0, nextDeclaration.index);
    const texts = [positionText(position)];
    if (struck) texts.push(struck[1]!.replace(/\s+/gu, ' '));
    if (narrowed) texts.push(narrowed.text);
    const part = makePart(texts.filter((t) => t !== '').join(', '), {
      ...position,
      ...(narrowed?.words !== undefined ? { words: narrowed.words } : {}),
      ...(narrowed?.sentence !== undefined ? { sentence: narrowed.sentence } : {}),
      ...(narrowed?.proposition !== undefined ? { proposition: narrowed.proposition } : {}),
    });
    notes.push({
      decision_number: decision[1]!,
      decision_year: decision[2]!,
      scope: part === null ? 'whole' : 'part',
      part,
      later_amended: LATER_CHANGE.test(rest),
      note,
      start: open,
    });
  }
  return notes;
}

// ---------------------------------------------------------------------------------------------------------------
// 2. The operative part of a decision

/** A State Gazette issue that promulgated an act: `ДВ, бр. 74 от 26.09.2015 г.` → `74`, `2015`, `2015-09-26`. */
export interface GazetteRef {
  issue: string;
  year: string;
  /** `YYYY-MM-DD` when the reference gives the day; null otherwise. */
  date: string | null;
}

/** A provision a decision's operative part declares unconstitutional. */
export interface OperativeRuling {
  /** The act as written (`Наказателния кодекс`, `Закона за изменение и допълнение на Наказателния кодекс`). */
  act: string;
  /** The act's promulgation when the decision gives it right after the act's name („(обн., ДВ, бр. 26 от 1968 г.; …)“). */
  gazette: GazetteRef | null;
  /** The article (`79`, `234г`), or null for a §. */
  article: string | null;
  /** The last article of a range („чл. 28 – 34“), or null. */
  article_to: string | null;
  /** The § (`35`, `3е`), or null for an article. */
  section: string | null;
  /** The element's ref as the corpus writes it: `79`, `§35`. */
  ref: string;
  scope: 'whole' | 'part';
  /** The paragraph, point, letter, sentence, proposition or words struck down; null for the whole element. */
  part: RulingPart | null;
  /** The citation as written („чл. 79, ал. 2, т. 2“). */
  citation: string;
  /** The index of the decision's element (paragraph, ¶) that names it. */
  excerpt: number;
}

/** The operative part's marker (a paragraph of its own). */
const OPERATIVE_MARKER = /^\s*(?:Р\s*Е\s*Ш\s*И|РЕШИ)\s*:\s*$/u;
/** A paragraph after which the operative part is over: the signatures, the note on dissents, the dissenting opinions. */
const OPERATIVE_END_PARAGRAPH =
  /^\s*(?:(?:За\s+|Заместващ\s+)?[Пп]редседател(?:ств[а-я]+)?\s*:|ОСОБЕН[OО]\s+МНЕНИ|ОСОБЕНИ\s+МНЕНИЯ|Особено\s+мнение|Особени\s+мнения|Становище|Съди(?:ите|ята|я)\s[^.]{0,200}?(?:подписал|представил)|Решението\s+е\s+(?:подписано|прието))/u;
/** Inside a paragraph: where the operative text stops. */
const OPERATIVE_END_INLINE =
  /(?:(?:За\s+|Заместващ\s+)?[Пп]редседател\s*:|Решението\s+е\s+(?:подписано|прието)\s+с\s+особен|Съди(?:ите|ята|я)\s[^.]{0,200}?подписал[иа]?\s+решението|ОСОБЕНО\s+МНЕНИЕ)/u;
/** A disposition declaring provisions unconstitutional. */
const DECLARING = /(?<!\p{L})(?:Обявява|ОБЯВЯВА|Установява|УСТАНОВЯВА)\s+(?:за\s+)?противоконституцион\p{L}*(?:\s+на)?/gu;
/** The verbs that open a disposition of an operative part. */
const VERBS =
  'Обявява|ОБЯВЯВА|Установява|УСТАНОВЯВА|Отхвърля|ОТХВЪРЛЯ|Отклонява|ОТКЛОНЯВА|Прекратява|ПРЕКРАТЯВА|Възлага|Допуска|Оставя|Указва|Решението';
/** The start of any disposition (a paragraph of a list ends at the next one). */
const DISPOSITION_START = new RegExp(String.raw`^\s*(?:(?:\d+|[IVXІ]+)\.\s*)?(?:${VERBS})(?!\p{L})`, 'u');
/**
 * The end of a disposition (on the masked text): a sentence's end before a capital, or before a numbered disposition
 * („… . 2. Обявява несъответствие …“; a numbered provision, „…: 1. чл. 5 …; 2. чл. 6 …“, goes on), or the text's end.
 */
const DISPOSITION_END = new RegExp(String.raw`[.;]\s+(?=\p{Lu}|(?:\d+|[IVXІ]+)\.\s*(?:${VERBS})(?!\p{L}))|[.;:]?\s*$`, 'u');
/** The clause that says which provision created a text („създадена с § 39 от …“): its citations are not rulings. */
const ORIGIN_BEFORE = /(?:създаден|приет|въведен|изменен|добавен|допълнен)\p{L}*\s+(?:с|със)\s+$/u;
/** A part right after a citation (on the masked text): „в частта „…““, „в частта относно думите „…““, „в частта, с която …“. */
const PART_AFTER = /в\s+частта(?:\s+(?:му|й|ѝ|є|им))?\s*(?:,\s*)?(?:относно\s+(?:думите|думата|израза|текста)\s*)?/uy;
/** „в цялост“: the whole provision named. */
const WHOLE_AFTER = /в\s+цялост(?!\p{L})/gu;
/** A promulgation right after an act's name: `(обн., ДВ, бр. 26 от 2.04.1968 г.; …)`, `(ДВ, бр. 74 от 26.09.2015 г.)`. */
const PROMULGATION_AFTER = /^\s*\(\s*(?:[оo]бн(?:\.|,)*\s*)?(?:ДВ|ДB)[.,]?\s*(?:бр|бp)\.\s*(\d+)\s+(?:от|oт)\s+(?:(\d{1,2})\.(\d{1,2})\.)?(\d{4})/u;

/** A masked paragraph: quotations and brackets replaced by `_` (their marks kept), offsets unchanged. */
function maskQuotesAndBrackets(text: string): string {
  const chars = text.split('');
  const stack: string[] = [];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    const inside = stack.length > 0;
    if (c === '„' || c === '«' || c === '(') stack.push(c);
    else if (c === '“' && stack.at(-1) === '„') stack.pop();
    else if (c === '»' && stack.at(-1) === '«') stack.pop();
    else if (c === '”' && (stack.at(-1) === '„' || stack.at(-1) === '“')) stack.pop();
    else if (c === '“') stack.push(c);
    else if (c === ')' && stack.at(-1) === '(') stack.pop();
    else if (c === '"') {
      if (stack.at(-1) === '"') stack.pop();
      else stack.push(c);
    }
    if (inside && stack.length > 0) chars[i] = '_';
  }
  return chars.join('');
}

/** One „в частта …“ after a citation: where it is, and what it says. */
interface PartSpan {
  start: number;
  end: number;
  words?: string;
  text: string;
}

/** A disposition being read: its paragraph's index and text, and its range in the text. */
interface Disposition {
  excerpt: number;
  text: string;
  start: number;
  end: number;
}

/**
 * Reads the provisions of one disposition (`text.slice(start, end)` of paragraph `excerpt`), in order: each
 * citation the parser reads there, but for those inside brackets, quotations and parts described in words, and those
 * naming the provision that created a text („създадена с § 39 от …“).
 */
function readDisposition(d: Disposition): OperativeRuling[] {
  const original = d.text;
  let masked = maskQuotesAndBrackets(original);
  // Outside the disposition nothing is read.
  masked = ' '.repeat(d.start) + masked.slice(d.start, d.end) + ' '.repeat(original.length - d.end);
  // „Параграф 40“ is „§ 40“ to the parser (same length).
  masked = masked.replace(/(?<!\p{L})[Пп]араграф(?:и)?(?=\s+\d)/gu, (w) => '§' + ' '.repeat(w.length - 1));
  // The parts: „в частта „…““ (words), „в частта, с която …“ (described, to the disposition's end); both blanked so
  // that the act after them stays the group's, and citations inside a description are not read.
  const parts: PartSpan[] = [];
  for (let at = masked.indexOf('в частта', d.start); at >= 0 && at < d.end; at = masked.indexOf('в частта', at + 1)) {
    PART_AFTER.lastIndex = at;
    const head = PART_AFTER.exec(masked);
    if (!head) continue;
    let end = PART_AFTER.lastIndex;
    const quote = /^[„"“«]_*[“"”»]/u.exec(masked.slice(end));
    let span: PartSpan;
    if (quote) {
      const words = unquote(original.slice(end, end + quote[0].length));
      end += quote[0].length;
      span = { start: at, end, words, text: `в частта „${words}“` };
    } else {
      end = d.end;
      span = { start: at, end, text: original.slice(at, end).replace(/\s+/gu, ' ').replace(/[\s.;,]+$/u, '') };
    }
    parts.push(span);
    masked = masked.slice(0, at) + ' '.repeat(end - at) + masked.slice(end);
  }
  masked = masked.replace(WHOLE_AFTER, (w) => ' '.repeat(w.length));
  const citations = parseCitations(masked);
  const rulings: OperativeRuling[] = [];
  const kept: Citation[] = [];
  for (const c of citations) {
    if (c.start < d.start || c.start >= d.end) continue;
    if (ORIGIN_BEFORE.test(masked.slice(Math.max(0, c.start - 40), c.start))) continue;
    kept.push(c);
  }
  // Groups that name no act take the act named after them („чл. 234г, ал. 3 …, на чл. 242, ал. 8 … от Наказателния кодекс“).
  // „от същия закон“ is the act of the citation before.
  const acts: (Citation['act'] | undefined)[] = kept.map((c) => (c.scope === 'external' && c.act?.kind !== 'previous' ? c.act : undefined));
  for (let i = acts.length - 2; i >= 0; i--) if (kept[i]!.act?.kind !== 'previous') acts[i] ??= acts[i + 1];
  for (let i = 1; i < acts.length; i++) if (kept[i]!.act?.kind === 'previous') acts[i] = acts[i - 1];
  kept.forEach((c, i) => {
    const act = acts[i];
    if (act === undefined) return;
    // A part goes with the last citation before it („чл. 212, ал. 5 в частта „…“ и чл. 213б …“, „чл. 189з от … (…) в частта „…““).
    const part = parts.find((p) => p.start >= c.end && kept.findLast((k) => k.end <= p.start) === c);
    const gazetteMatch = PROMULGATION_AFTER.exec(original.slice(act.end, act.end + 80));
    const gazette: GazetteRef | null = gazetteMatch
      ? {
          issue: gazetteMatch[1]!,
          year: gazetteMatch[4]!,
          date: gazetteMatch[2] !== undefined ? `${gazetteMatch[4]}-${gazetteMatch[3]!.padStart(2, '0')}-${gazetteMatch[2].padStart(2, '0')}` : null,
        }
      : null;
    const { sentence, proposition } = sentenceAndProposition(c.detail);
    // Lists and ranges of paragraphs or points („ал. 3 и 4“) are one ruling each.
    const paragraphs = expand(c.paragraphs, c.detail, 'ал');
    const points = paragraphs.length > 1 ? [c.point] : expand(c.points, c.detail, 'т');
    for (const paragraph of paragraphs.length > 0 ? paragraphs : [undefined]) {
      for (const point of points.length > 0 ? points : [undefined]) {
        const single = paragraphs.length <= 1 && points.length <= 1;
        let detailText = single ? c.detail : positionText({ ...(paragraph !== undefined ? { paragraph } : {}), ...(point !== undefined ? { point } : {}) });
        // A row of a table, which the parser does not read („чл. 1, ал. 2, ред 5“): part of the part.
        const row = /^\s*,?\s*(ред\s+\d+)/u.exec(masked.slice(c.end, c.end + 20));
        if (row) detailText = [detailText, row[1]!].filter((t) => t !== '').join(', ');
        const text = [detailText, part?.text ?? ''].filter((t) => t !== '').join(', ');
        const fields: Omit<RulingPart, 'text'> = {};
        if (paragraph !== undefined) fields.paragraph = paragraph;
        if (point !== undefined) fields.point = point;
        if (c.letter !== undefined && single) fields.letter = c.letter;
        if (sentence !== undefined) fields.sentence = sentence;
        if (proposition !== undefined) fields.proposition = proposition;
        if (part?.words !== undefined) fields.words = part.words;
        const rulingPart = makePart(text, fields);
        rulings.push({
          act: cleanActName(act.text, original, act.end),
          gazette,
          article: c.article ?? null,
          article_to: c.articleTo ?? null,
          section: c.section ?? null,
          ref: c.article ?? `§${c.section}`,
          scope: rulingPart === null ? 'whole' : 'part',
          part: rulingPart,
          citation: c.text,
          excerpt: d.excerpt,
        });
      }
    }
  });
  return rulings;
}

/** The numbers a detail lists: `paragraphs` as the parser gives them, a range („ал. 1 – 3“) filled in. */
function expand(numbers: string[] | undefined, detail: string, keyword: 'ал' | 'т'): string[] {
  if (numbers === undefined || numbers.length === 0) return [];
  const range = new RegExp(String.raw`${keyword}\.\s*(\d+)\s*[–—-]\s*(\d+)(?!\d)`, 'u').exec(detail);
  if (range && numbers.length === 2) {
    const from = Number(range[1]);
    const to = Number(range[2]);
    if (to > from && to - from < 30) return Array.from({ length: to - from + 1 }, (_, i) => String(from + i));
  }
  return [...new Set(numbers)];
}

/**
 * An act's name as written, without what a title reading runs into („в актуалната им редакция“), with what it stops
 * short of: „г.“ after a year („… за 2003 г.“) and the words after a comma up to the promulgation („Закона за морските
 * пространства, вътрешните водни пътища и пристанищата на Република България (обн., …)“).
 */
function cleanActName(written: string, original: string, end: number): string {
  let name = written.replace(/\s+(?:в\s+(?:частта|актуалн|редакци|останал|цялост)|(?:както\s+и|и\s+(?:на|чл|член|§)|съответно)(?!\p{L}))[\s\S]*$/u, '').trim();
  if (name.length < written.trimEnd().length) return name;
  const after = original.slice(end, end + 200);
  const year = /^\s*(\d{4})\s*г\./u.exec(after);
  if (/\sза$/u.test(name) && year) return `${name} ${year[1]} г.`;
  if (/\d$/u.test(name) && /^\s*г\./u.test(after)) return `${name} г.`;
  const commas = /^(,\s+\p{Ll}[\p{L}\s,-]{0,150}?)\s*\((?:\s*[оo]бн|\s*ДВ)/u.exec(after);
  if (commas) name += commas[1]!.replace(/\s+/gu, ' ');
  return name;
}

/**
 * The provisions a decision of the Constitutional Court declares unconstitutional, read from its operative part (see
 * the module comment): per provision, the act as written, the article or §, the part and the paragraph (¶) of the
 * decision naming it; in the order written. Decisions without an operative part („Р Е Ш И:“), and every other
 * document, give none.
 */
export function operativeRulingsOf(decision: CorpusDocument): OperativeRuling[] {
  return readOperativePart(decision).rulings;
}

/** The operative part's rulings, and how many declaring dispositions named no provision (an act of the Assembly, a decree). */
function readOperativePart(decision: CorpusDocument): { rulings: OperativeRuling[]; withoutProvision: number } {
  const result = { rulings: [] as OperativeRuling[], withoutProvision: 0 };
  const elements = decision.elements;
  const marker = elements.findIndex((e) => OPERATIVE_MARKER.test(e.text));
  if (marker < 0) return result;
  /** The list after „Обявява за противоконституционни:“, when a disposition is only that. */
  let listOpen = false;
  for (let i = marker + 1; i < elements.length; i++) {
    const paragraph = elements[i]!.text;
    if (OPERATIVE_END_PARAGRAPH.test(paragraph)) break;
    const stop = OPERATIVE_END_INLINE.exec(paragraph);
    const text = stop ? paragraph.slice(0, stop.index) : paragraph;
    const masked = maskQuotesAndBrackets(text);
    if (listOpen && !DISPOSITION_START.test(text)) {
      // An item of the list: up to its sentence's end (a rejection may follow in the same paragraph).
      const endMatch = DISPOSITION_END.exec(masked);
      const rulings = readDisposition({ excerpt: i, text, start: 0, end: endMatch ? endMatch.index : text.length });
      if (rulings.length === 0) result.withoutProvision++;
      result.rulings.push(...rulings);
      if (stop) break;
      continue;
    }
    listOpen = false;
    for (const declaring of masked.matchAll(DECLARING)) {
      const start = declaring.index + declaring[0].length;
      // „Обявява за противоконституционни:“ (or „… разпоредбите на:“) ending the paragraph: the list follows.
      if (/^\s*(?:(?:разпоредбите|разпоредбата)\s+)?(?:на\s*)?:\s*$/u.test(text.slice(start))) {
        listOpen = true;
        continue;
      }
      const endMatch = DISPOSITION_END.exec(masked.slice(start));
      const end = endMatch ? start + endMatch.index : text.length;
      const rulings = readDisposition({ excerpt: i, text, start, end });
      if (rulings.length === 0) result.withoutProvision++;
      result.rulings.push(...rulings);
    }
    if (stop) break;
  }
  return result;
}

// ---------------------------------------------------------------------------------------------------------------
// 3. Linking

/**
 * Finds the document of an act named by a decision: `name` as written (nominative or oblique, an abbreviation, with
 * or without its promulgation), `decisionDate` (`YYYY-MM-DD`: an act of that title adopted after the decision is not the
 * one it ruled on), and `gazette`, the act's promulgation when the decision gives it (telling apart acts of one title,
 * such as amending acts). Returns an index into the documents, or undefined when the corpus does not serve the act.
 */
export type ActResolver = (name: string, decisionDate: string, gazette?: GazetteRef | null) => number | undefined;

/** The State Gazette issue of an Akoma Ntoso act, from its id (`akn-2015-dv-74-15-3` → 74, 2015). */
function aknGazette(documentId: string): { issue: string; year: string } | undefined {
  const m = /^akn-(\d{4})-dv-(\d+)-(\d{2})-\d+$/u.exec(documentId);
  return m ? { issue: m[2]!, year: m[1]! } : undefined;
}

/** A letter or digit (one UTF-16 unit: the titles' letters are of the Basic Multilingual Plane). */
const WORD_CHAR = /[\p{L}\p{N}]/u;

/**
 * The first three letters of a name's last word, lower case, brackets at its end and a final „г.“ left out: equal for
 * the forms of one title („Закона за здравното осигуряване“ / „Закон за здравното осигуряване“), which differ at the
 * head noun and its adjectives. Walks back from the end: no regular expression over the whole name.
 */
function lastWordSignature(name: string): string {
  let i = name.length - 1;
  for (;;) {
    while (i >= 0 && !WORD_CHAR.test(name[i]!)) {
      if (name[i] === ')') {
        const open = name.lastIndexOf('(', i);
        if (open >= 0) {
          i = open - 1;
          continue;
        }
      }
      i--;
    }
    let j = i;
    while (j >= 0 && WORD_CHAR.test(name[j]!)) j--;
    const word = name.slice(j + 1, i + 1).toLowerCase();
    if (word !== 'г' || j < 0) return word.slice(0, 3);
    i = j;
  }
}

/**
 * The default {@link ActResolver}: the act whose title has the name's {@link actKey} (the longest leading run of the
 * name's words that is a served title, since a name read from running text may run on), or whose customary
 * abbreviation it is (`CUSTOMARY_ABBREVIATIONS`); of several, those dated on or before the decision; of several
 * amending acts, the one the gazette reference names (an Akoma Ntoso act by its issue; else the latest adopted on or
 * before the issue's date, in its year; none when none is); then the consolidated text current as of the latest date,
 * else the latest. Statutes only (no court
 * decisions). Meant to be replaced by the project's act resolver (the rules of `pravo cite`).
 */
export function defaultActResolver(documents: readonly CorpusDocument[]): ActResolver {
  // Titles are bucketed by a cheap signature that every form of a title shares (its last word's first letters: the
  // oblique forms differ at the head noun and its adjectives), and keyed ({@link actKey}) only when a name falls in
  // their bucket: keying every title of the corpus costs more than all the rest of the linking.
  const signature = lastWordSignature;
  const buckets = new Map<string, number[]>();
  documents.forEach((d, i) => {
    if (d.court_id != null) return;
    const key = signature(d.title);
    const list = buckets.get(key);
    if (list) list.push(i);
    else buckets.set(key, [i]);
  });
  const keys = new Map<number, string>();
  const titlesOf = (name: string): number[] => {
    const key = actKey(name);
    return (buckets.get(signature(name)) ?? []).filter((i) => {
      let k = keys.get(i);
      if (k === undefined) keys.set(i, (k = actKey(documents[i]!.title)));
      return k === key;
    });
  };
  const candidatesOf = (name: string): number[] => {
    const trimmed = name.trim();
    const abbreviation = CUSTOMARY_ABBREVIATIONS[trimmed];
    if (abbreviation !== undefined) return titlesOf(abbreviation);
    const nominative = nominativeActName(trimmed);
    if (/^Конституция$/u.test(nominative)) return titlesOf(CUSTOMARY_ABBREVIATIONS['КРБ']!);
    const words = nominative.split(' ');
    for (let n = words.length; n >= 2; n--) {
      const found = titlesOf(words.slice(0, n).join(' '));
      if (found.length > 0) return found;
    }
    return [];
  };
  return (name, decisionDate, gazette) => {
    let candidates = candidatesOf(name).filter((i) => documents[i]!.date <= decisionDate);
    if (candidates.length === 0) return undefined;
    // Acts of one title that are different acts (amending acts: „Закон за изменение и допълнение на …“) are told apart
    // by the issue that promulgated them; the texts of one act, by the date their text is current as of.
    if (candidates.length > 1 && gazette && candidates.every((i) => AMENDING_TITLE.test(documents[i]!.title))) {
      const akn = candidates.filter((i) => {
        const g = aknGazette(documents[i]!.document_id);
        return g !== undefined && g.issue === gazette.issue && g.year === gazette.year;
      });
      if (akn.length > 0) candidates = akn;
      else {
        const until = gazette.date ?? `${gazette.year}-12-31`;
        const adopted = (i: number): string => documents[i]!.in_force_date ?? documents[i]!.date;
        const inYear = candidates.filter((i) => adopted(i) <= until && adopted(i).slice(0, 4) === gazette.year);
        if (inYear.length > 0) candidates = [inYear.reduce((a, b) => (adopted(b) > adopted(a) ? b : a))];
        else if (candidates.some((i) => AMENDING_TITLE.test(documents[i]!.title))) return undefined;
      }
    }
    const score = (i: number): [number, string] => {
      const d = documents[i]!;
      return [d.consolidated === true ? 1 : 0, d.as_of ?? d.date];
    };
    return candidates.reduce((best, i) => {
      const [c1, d1] = score(best);
      const [c2, d2] = score(i);
      return c2 > c1 || (c2 === c1 && d2 > d1) ? i : best;
    });
  };
}

/** Why an operative ruling was not tied to an element. */
export type UnresolvedReason = 'act_not_in_corpus' | 'no_such_element';

/** One ruling of the report's lists: the decision, the act and element, the part. */
export interface RulingReportItem {
  /** `12/2016`. */
  decision: string;
  /** The decision's document_id when in the corpus. */
  decision_id: string | null;
  /** The act: as the decision writes it, or the title of the document the element is in. */
  act: string;
  /** The document (for tied rulings). */
  document_id: string | null;
  /** The element's ref (`79`, `§63`). */
  ref: string;
  /** The part's text; `''` for the whole element. */
  part: string;
}

/** A disagreement: both sources name the decision on the element, with different parts. */
export interface RulingDisagreement extends Omit<RulingReportItem, 'part'> {
  note_part: string;
  decision_part: string;
  note: string;
}

/** What {@link linkRulings} found (counts are of rulings, a ruling being a (decision, element, part)). */
export interface RulingsReport {
  notes: {
    /** Rulings read from notes. */
    found: number;
    /** Of which the decision is in the corpus. */
    decision_in_corpus: number;
    /** Of which the decision is not (older than the corpus's КС acts, or left out of it). */
    decision_not_in_corpus: number;
  };
  decisions: {
    /** КС decisions with an operative part read. */
    read: number;
    /** Of which declare at least one provision unconstitutional. */
    declaring: number;
    /** Provisions read from operative parts. */
    found: number;
    /** Of which tied to at least one element. */
    resolved: number;
    /** Of which not, by reason. */
    unresolved: Record<UnresolvedReason, number>;
    /** Declaring dispositions that name no provision (a whole act, an act of the Assembly, a decree). */
    without_provision: number;
    /** Rulings on a § of an amending act also tied to the § as a consolidated text reprints it. */
    reprints: number;
  };
  agreement: {
    /** Rulings both sources found (same decision, element and part). */
    both: number;
    /** Found only in a note, the decision being in the corpus. */
    only_notes: number;
    /** Found only in the decision, the text served being older than the decision (it cannot have the note). */
    only_decisions_text_older: number;
    /** Found only in the decision, the text served being as of the decision or later (and having no note). */
    only_decisions_no_note: number;
    /** Same decision and element, different parts. */
    disagreements: number;
  };
  /** The rulings behind the counts, for reading. */
  lists: {
    unresolved: (RulingReportItem & { reason: UnresolvedReason })[];
    only_notes: RulingReportItem[];
    only_decisions: (RulingReportItem & { text_older: boolean })[];
    disagreements: RulingDisagreement[];
  };
}

/** A ruling on its way to an entry. */
interface Found {
  doc: number;
  element: number;
  /** The decision: its document index in the corpus, or undefined. */
  decision: number | undefined;
  number: string;
  year: string;
  part: RulingPart | null;
  source: RulingSource;
  note?: RulingNote;
  excerpt?: number;
}

/**
 * Reads the rulings of both sources over `documents` (as the index build has them: statutes' texts one paragraph,
 * point and letter a line) and ties them to elements: the notes to the element they are in; the operative rulings to
 * the element of the act `resolveAct` finds (its consolidated text by preference; a text older than the decision
 * too), and, for a § of an amending act whose promulgation the decision gives, also to that § where a consolidated
 * text reprints it (a § whose heading is „(ОБН. - ДВ, БР. 60 ОТ 2020 Г. …)“, or a § after it in the same group).
 * Rulings on the same (decision, element, part) are merged into one entry with both `sources`.
 * @param collectionOf the `collection` a document is served under.
 * @param resolveAct finds a named act's document ({@link defaultActResolver} when not given).
 * @returns per document index, per element index, the element's rulings (newest decision first, as `cited_by` and
 *   `amended_by`; one decision's in the order of their parts), and the report.
 */
export function linkRulings(
  documents: readonly CorpusDocument[],
  collectionOf: (document: CorpusDocument) => string,
  resolveAct: ActResolver = defaultActResolver(documents),
): { rulings: Map<number, Map<number, RulingEntry[]>>; report: RulingsReport } {
  const report: RulingsReport = {
    notes: { found: 0, decision_in_corpus: 0, decision_not_in_corpus: 0 },
    decisions: { read: 0, declaring: 0, found: 0, resolved: 0, unresolved: { act_not_in_corpus: 0, no_such_element: 0 }, without_provision: 0, reprints: 0 },
    agreement: { both: 0, only_notes: 0, only_decisions_text_older: 0, only_decisions_no_note: 0, disagreements: 0 },
    lists: { unresolved: [], only_notes: [], only_decisions: [], disagreements: [] },
  };
  /** КС decisions by `number/year`. */
  const decisions = new Map<string, number>();
  documents.forEach((d, i) => {
    if (d.court_id === 0 && d.decision_number != null && /^Решение/u.test(d.type)) decisions.set(`${d.decision_number}/${d.date.slice(0, 4)}`, i);
  });
  const found: Found[] = [];
  // 1. The notes: editorial notes of consolidated texts (a text as published has none of later rulings; scanning the
  // other statutes' texts, some 60 million characters, for none costs more than all the rest of the linking).
  documents.forEach((d, doc) => {
    if (d.court_id != null || d.consolidated !== true) return;
    d.elements.forEach((e, element) => {
      if (!e.text.includes('онституцион')) return;
      for (const note of rulingNotesOf(e.text)) {
        const decision = decisions.get(`${note.decision_number}/${note.decision_year}`);
        report.notes.found++;
        if (decision === undefined) report.notes.decision_not_in_corpus++;
        else report.notes.decision_in_corpus++;
        found.push({ doc, element, decision, number: note.decision_number, year: note.decision_year, part: note.part, source: 'note', note });
      }
    });
  });
  // 2. The operative parts.
  const elementsOfRef = elementsOfRefIn(documents);
  let reprints: Map<string, [number, number][]> | undefined;
  for (const [, decisionIndex] of decisions) {
    const decision = documents[decisionIndex]!;
    const { rulings, withoutProvision } = readOperativePart(decision);
    if (!decision.elements.some((e) => OPERATIVE_MARKER.test(e.text))) continue;
    report.decisions.read++;
    report.decisions.without_provision += withoutProvision;
    if (rulings.length > 0) report.decisions.declaring++;
    const [number, year] = [decision.decision_number!, decision.date.slice(0, 4)];
    for (const ruling of rulings) {
      report.decisions.found++;
      const targets: [number, number][] = [];
      const doc = resolveAct(ruling.act, decision.date, ruling.gazette);
      if (doc !== undefined) {
        if (ruling.article !== null && ruling.article_to !== null) {
          documents[doc]!.elements.forEach((e, i) => {
            if (splitArticleRef(e.ref) && compareArticleRefs(e.ref, ruling.article!) >= 0 && compareArticleRefs(e.ref, ruling.article_to!) <= 0) targets.push([doc, i]);
          });
        } else {
          // The first element of the ref: an act's own § comes before the §§ its consolidated text reprints.
          const element = elementsOfRef(doc, ruling.ref)[0];
          if (element !== undefined) targets.push([doc, element]);
        }
      }
      if (ruling.section !== null && ruling.gazette !== null && AMENDING_TITLE.test(nominativeActName(ruling.act))) {
        reprints ??= reprintedSections(documents);
        for (const target of reprints.get(`${ruling.gazette.issue}/${ruling.gazette.year}|${ruling.ref}`) ?? []) {
          if (!targets.some(([a, b]) => a === target[0] && b === target[1])) {
            targets.push(target);
            report.decisions.reprints++;
          }
        }
      }
      if (targets.length === 0) {
        const reason: UnresolvedReason = doc === undefined ? 'act_not_in_corpus' : 'no_such_element';
        report.decisions.unresolved[reason]++;
        report.lists.unresolved.push({
          decision: `${number}/${year}`,
          decision_id: decision.document_id,
          act: ruling.act,
          document_id: doc === undefined ? null : documents[doc]!.document_id,
          ref: ruling.ref,
          part: ruling.part?.text ?? '',
          reason,
        });
        continue;
      }
      report.decisions.resolved++;
      for (const [d, element] of targets) {
        found.push({ doc: d, element, decision: decisionIndex, number, year, part: ruling.part, source: 'decision', excerpt: ruling.excerpt });
      }
    }
  }
  // 3. Merge and compare.
  const ids = new Map<number, string[]>();
  const excerptIdOf = (doc: number, element: number): string => {
    let list = ids.get(doc);
    if (list === undefined) ids.set(doc, (list = excerptIds(documents[doc]!.document_id, documents[doc]!.elements)));
    return list[element]!;
  };
  /** (doc, element, decision) → its rulings from each source. */
  const groups = new Map<string, { notes: Found[]; decisions: Found[] }>();
  for (const f of found) {
    const key = `${f.doc}:${f.element}:${f.number}/${f.year}`;
    let group = groups.get(key);
    if (group === undefined) groups.set(key, (group = { notes: [], decisions: [] }));
    (f.source === 'note' ? group.notes : group.decisions).push(f);
  }
  const result = new Map<number, Map<number, RulingEntry[]>>();
  const item = (f: Found, part: RulingPart | null): RulingReportItem => ({
    decision: `${f.number}/${f.year}`,
    decision_id: f.decision === undefined ? null : documents[f.decision]!.document_id,
    act: documents[f.doc]!.title,
    document_id: documents[f.doc]!.document_id,
    ref: documents[f.doc]!.elements[f.element]!.ref,
    part: part?.text ?? '',
  });
  for (const group of groups.values()) {
    const entries: RulingEntry[] = [];
    const notes = dedupe(group.notes);
    const rulings = dedupe(group.decisions);
    const unmatchedDecisions = [...rulings];
    const unmatchedNotes: Found[] = [];
    for (const n of notes) {
      const at = unmatchedDecisions.findIndex((r) => partKey(r.part) === partKey(n.part));
      const d = at < 0 ? undefined : unmatchedDecisions.splice(at, 1)[0];
      entries.push(entryOf(n, d));
      if (d !== undefined) report.agreement.both++;
      else if (n.decision !== undefined) unmatchedNotes.push(n);
    }
    for (const r of unmatchedDecisions) entries.push(entryOf(undefined, r));
    // Pairs left on both sides are disagreements; the rest were found by one source only.
    const pairs = Math.min(unmatchedNotes.length, unmatchedDecisions.length);
    for (let i = 0; i < pairs; i++) {
      const n = unmatchedNotes[i]!;
      const r = unmatchedDecisions[i]!;
      report.agreement.disagreements++;
      const base = item(n, n.part);
      report.lists.disagreements.push({
        decision: base.decision,
        decision_id: base.decision_id,
        act: base.act,
        document_id: base.document_id,
        ref: base.ref,
        note_part: n.part?.text ?? '',
        decision_part: r.part?.text ?? '',
        note: n.note!.note,
      });
    }
    for (const n of unmatchedNotes.slice(pairs)) {
      report.agreement.only_notes++;
      report.lists.only_notes.push(item(n, n.part));
    }
    for (const r of unmatchedDecisions.slice(pairs)) {
      const target = documents[r.doc]!;
      const textOlder = (target.as_of ?? target.date) < documents[r.decision!]!.date;
      if (textOlder) report.agreement.only_decisions_text_older++;
      else report.agreement.only_decisions_no_note++;
      report.lists.only_decisions.push({ ...item(r, r.part), text_older: textOlder });
    }
    const [first] = group.notes.length > 0 ? group.notes : group.decisions;
    let byElement = result.get(first!.doc);
    if (byElement === undefined) result.set(first!.doc, (byElement = new Map()));
    const list = byElement.get(first!.element) ?? [];
    list.push(...entries);
    byElement.set(first!.element, list);
  }
  for (const byElement of result.values()) {
    for (const list of byElement.values()) {
      list.sort(
        (a, b) =>
          b.decision_year.localeCompare(a.decision_year) ||
          (b.date ?? '').localeCompare(a.date ?? '') ||
          Number(b.decision_number) - Number(a.decision_number) ||
          partOrder(a.part).localeCompare(partOrder(b.part)),
      );
    }
  }
  return { rulings: result, report };

  /** The entry of a note, a decision's ruling, or both (the note's part and later change; the decision's paragraph). */
  function entryOf(note: Found | undefined, ruling: Found | undefined): RulingEntry {
    const f = (ruling ?? note)!;
    const decision = f.decision === undefined ? undefined : documents[f.decision]!;
    const sources: RulingSource[] = [];
    if (note) sources.push('note');
    if (ruling) sources.push('decision');
    const part = ruling !== undefined ? ruling.part : note!.part;
    return {
      ruling: 'declared_unconstitutional',
      scope: part === null ? 'whole' : 'part',
      part,
      decision_number: f.number,
      decision_year: f.year,
      document_id: decision?.document_id ?? null,
      collection: decision ? collectionOf(decision) : null,
      title: decision?.title ?? null,
      date: decision?.date ?? null,
      excerpt_id: ruling?.excerpt !== undefined ? excerptIdOf(ruling.decision!, ruling.excerpt) : null,
      sources,
      note: note?.note?.note ?? null,
      later_amended: note?.note?.later_amended ?? false,
    };
  }
}

/** One of each part (a decision naming a provision twice, two notes alike): the first. */
function dedupe(list: Found[]): Found[] {
  const seen = new Set<string>();
  return list.filter((f) => {
    const key = partKey(f.part);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** A sort key of a part: the whole element first, then by paragraph, point, letter (numbers padded). */
function partOrder(part: RulingPart | null): string {
  if (part === null) return '';
  const pad = (x: string | undefined): string => (x === undefined ? '' : x.replace(/\d+/gu, (n) => n.padStart(4, '0')));
  return [pad(part.paragraph), pad(part.point), part.letter ?? '', pad(part.sentence), pad(part.proposition), part.words ?? ''].join('|');
}

/**
 * The §§ of amending acts that consolidated texts reprint, by the amending act's promulgation and the § ref
 * (`60/2020|§63` → [document, element]): a § whose heading is the act's promulgation („(ОБН. - ДВ, БР. 60 ОТ 2020 Г.,
 * …)“) opens a group; the §§ after it without a heading belong to it; another heading closes it.
 */
function reprintedSections(documents: readonly CorpusDocument[]): Map<string, [number, number][]> {
  const map = new Map<string, [number, number][]>();
  documents.forEach((d, doc) => {
    if (d.consolidated !== true || d.court_id != null) return;
    let group: string | undefined;
    d.elements.forEach((e, i) => {
      if (!e.ref.startsWith('§')) {
        group = undefined;
        return;
      }
      if (e.heading !== undefined && e.heading !== '') {
        const m = /ОБН\.?\s*[-–]?\s*ДВ,?\s*БР\.\s*(\d+)\s+ОТ\s+(?:\d{1,2}\.\d{1,2}\.)?(\d{4})/iu.exec(e.heading);
        group = m ? `${m[1]}/${m[2]}` : undefined;
      }
      if (group === undefined) return;
      const key = `${group}|${e.ref}`;
      const list = map.get(key);
      if (list) list.push([doc, i]);
      else map.set(key, [[doc, i]]);
    });
  });
  return map;
}
