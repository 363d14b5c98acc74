/**
 * Reading Akoma Ntoso 3.0 acts (`shared/corpus/README.md`, section "akn/"): one XML file (optionally gzip-compressed)
 * per act expression, turned into one corpus document ({@link AknAct}). The XML is parsed with saxes (a streaming
 * SAX parser; namespaces resolved here) into a small element tree, walked with stacks of its own rather than
 * recursion, so that reading is linear in the file at any depth of nesting; no regular expression ever runs over the
 * XML itself (they run over the text of `<num>`, titles and preface notes only).
 *
 * What is read (the source's quirks are in the README's list of what is not clean):
 * - identity: `document_id` `akn-<year>-<slug>` from the work's FRBR URI, `as_of` the expression's date;
 * - `date`: the promulgation date of a consolidated text's preface note („Обн. ДВ бр. 26 от 2 Април 1968 г.“),
 *   else the earlier of the work's FRBR date and the `<publication>` date (the source dates some consolidated codes'
 *   works by their entry into force or by the consolidation date);
 * - `title` and `type` from the short FRBR alias (see {@link AknAct});
 * - `elements`: the articles (`<article>`) and the §§ of the additional, transitional and final provisions, in
 *   document order, with their headings (the convention of `consolidated/bg-consolidated.jsonl.gz`).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { SaxesParser } from 'saxes';
import { gunzipWithin, INPUT_MAX_BYTES, InputFileError, readRegularFile } from '../input-file.js';
import { CorpusError, isCancellation, type CorpusDocument, type CorpusElement } from './reader.js';
import { parseBulgarianDate } from './structure.js';

/** One act read from an Akoma Ntoso file. */
export interface AknAct {
  /**
   * The act as a corpus document:
   * - `document_id`: `akn-` + the work's FRBR URI after `/akn/bg/act/`, `/` → `-` (`/akn/bg/act/1986/dv-26-86-1` →
   *   `akn-1986-dv-26-86-1`; a URI outside `/akn/bg/act/` keeps everything after `/akn/`);
   * - `source_type` `bulgarian_laws_regulations`;
   * - `title`: the short FRBR alias, white space normalised, soft hyphens removed; a decision's preamble
   *   („… На основание чл. …“) cut off; runs of upper-case words lowered (`КОДЕКС НА ТРУДА` → `Кодекс на труда`,
   *   `Решение № 956 ОТ 16 ДЕКЕМВРИ 2009 Г. за …` → `Решение № 956 от 16 декември 2009 г. за …`) except
   *   abbreviations (words without a vowel such as `ДДС`, and `ЕС`, `ООН`, `НАТО`, …), the first letter upper case.
   *   A title the source cut short (ending in a hyphen, a comma or a preposition: `Закон за … и за отне-`) is
   *   completed from the preface or from the body's opening text when they carry it on (a ratification law's
   *   „ЗАКОН за ратифициране … Член единствен.“), and otherwise ends in `…`;
   * - `type`: what the title says the act is, from its first words (`Закон`, `Кодекс`, `Решение`, `Тарифа`,
   *   `Наредба`, …; `Наказателно-процесуален кодекс` → `Кодекс`), never from the file's folder or FRBR subtype
   *   (the source files Council of Ministers decisions under codes); another first word is the type as it stands
   *   (`Документ`, `Поправки`);
   * - `date` (see the module comment), `as_of` the expression's FRBR date, `consolidated` = `as_of` later than
   *   `date`, `in_force_date` null (the source has none); no `url`, `author` or `signature`;
   * - `elements`: see {@link readAknFile}.
   */
  document: CorpusDocument;
  /** The work's FRBR URI as in the file, e.g. `/akn/bg/act/1986/dv-26-86-1`. */
  work_uri: string;
  /** The expression's FRBR date, `YYYY-MM-DD` (= `document.as_of`). */
  expression_date: string;
  /** The file read, as given. */
  path: string;
  /**
   * The `<publication>` of the file's metadata as given (`{date: '2026-02-10', number: '26', name: 'Държавен вестник'}`:
   * `date` `YYYY-MM-DD`, the State Gazette's issue number); absent when the file has none.
   */
  publication?: { date?: string; number?: string; name?: string };
  /**
   * Body text outside any article or §, lines joined by `\n` (`''` when there is none): the source keeps some acts
   * as whole blocks of text (decisions, ratification laws with „Член единствен.“, international codes), which
   * therefore have no elements.
   */
  unstructured_text: string;
}

/** The namespace of Akoma Ntoso 3.0 (working drafts add suffixes: any namespace starting with this is accepted). */
const AKN_NAMESPACE = 'http://docs.oasis-open.org/legaldocml/ns/akn/3.0';

/** What the files are, first words of the errors' messages. */
const WHAT = 'Akoma Ntoso file';

/** One element of the parsed tree: namespace, local name, attributes (by local name) and children in order. */
interface XmlElement {
  ns: string;
  name: string;
  attrs: Map<string, string>;
  children: (XmlElement | string)[];
}

/**
 * The file's bytes, gunzipped when they start with the gzip magic bytes `1f 8b` (whatever the file's name): a regular
 * file only, at most {@link INPUT_MAX_BYTES}`.akn` bytes read and decompressed.
 */
async function readBytes(path: string, signal: AbortSignal | undefined): Promise<Buffer> {
  const maxBytes = INPUT_MAX_BYTES.akn;
  let raw: Buffer;
  try {
    raw = await readRegularFile(path, { maxBytes, signal });
  } catch (error) {
    if (isCancellation(error)) throw error;
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    const options = { cause: error, what: WHAT };
    if (code === 'ENOENT') throw new CorpusError(path, 'file not found', undefined, options);
    if (code === 'EISDIR') throw new CorpusError(path, 'is a directory, not an Akoma Ntoso file', undefined, options);
    if (code === 'EACCES') throw new CorpusError(path, 'permission denied', undefined, options);
    if (error instanceof InputFileError) throw new CorpusError(path, error.problem, undefined, options);
    throw new CorpusError(path, `cannot be read: ${error instanceof Error ? error.message : String(error)}`, undefined, options);
  }
  try {
    return await gunzipWithin(path, raw, maxBytes);
  } catch (error) {
    if (error instanceof InputFileError) throw new CorpusError(path, error.problem, undefined, { cause: error, what: WHAT });
    throw new CorpusError(path, `not valid gzip data: ${error instanceof Error ? error.message : String(error)}`, undefined, {
      cause: error,
      what: WHAT,
    });
  }
}

/** The namespace of the `xml` prefix, bound by definition (XML Namespaces 1.0, section 3). */
const XML_NAMESPACE = 'http://www.w3.org/XML/1998/namespace';

/** A qualified name's prefix (`''` when it has none) and local part. */
function splitName(name: string): { prefix: string; local: string } {
  const colon = name.indexOf(':');
  return colon === -1 ? { prefix: '', local: name } : { prefix: name.slice(0, colon), local: name.slice(colon + 1) };
}

/**
 * Parses the XML text into a tree with saxes, namespaces resolved here: each prefix keeps the stack of the URIs bound
 * to it by the open elements, so that an element's namespace is found in constant time at any depth (saxes' own
 * resolution walks up the open elements for each one, which is quadratic in the depth). Linear in the text.
 * @throws CorpusError `not well-formed XML: <line>:<column>: <saxes' message>` at the first error (an unbound
 *   namespace prefix included).
 */
function parseXml(path: string, xml: string): XmlElement {
  const parser = new SaxesParser<{ xmlns: false; position: true }>({ xmlns: false, position: true });
  /** The URIs bound to each prefix by the open elements, innermost last (`''`: the default namespace). */
  const bindings = new Map<string, string[]>([['xml', [XML_NAMESPACE]]]);
  const resolve = (prefix: string): string | undefined => bindings.get(prefix)?.at(-1);
  /** The open elements, and the prefixes each declared. */
  const stack: { element: XmlElement; declared: string[] }[] = [];
  let root: XmlElement | undefined;
  let encoding: string | undefined;
  const fail = (message: string): CorpusError =>
    new CorpusError(path, `not well-formed XML: ${parser.line}:${parser.column}: ${message}`, undefined, { what: WHAT });
  parser.on('xmldecl', (decl) => {
    encoding = decl.encoding;
  });
  parser.on('opentag', (tag) => {
    const declared: string[] = [];
    const names = Object.keys(tag.attributes);
    for (const name of names) {
      if (name !== 'xmlns' && !name.startsWith('xmlns:')) continue;
      const prefix = name === 'xmlns' ? '' : name.slice('xmlns:'.length);
      const uri = tag.attributes[name]!.trim();
      const bound = bindings.get(prefix);
      if (bound) bound.push(uri);
      else bindings.set(prefix, [uri]);
      declared.push(prefix);
    }
    const attrs = new Map<string, string>();
    for (const name of names) {
      if (name === 'xmlns' || name.startsWith('xmlns:')) continue;
      const { prefix, local } = splitName(name);
      if (prefix !== '' && resolve(prefix) === undefined) throw fail(`unbound namespace prefix: ${JSON.stringify(prefix)}.`);
      attrs.set(local, tag.attributes[name]!);
    }
    const { prefix, local } = splitName(tag.name);
    const ns = resolve(prefix);
    if (ns === undefined && prefix !== '') throw fail(`unbound namespace prefix: ${JSON.stringify(prefix)}.`);
    const element: XmlElement = { ns: ns ?? '', name: local, attrs, children: [] };
    const parent = stack.at(-1)?.element;
    if (parent) parent.children.push(element);
    else root = element;
    stack.push({ element, declared });
  });
  const onText = (text: string): void => {
    const parent = stack.at(-1)?.element;
    if (parent) parent.children.push(text);
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('closetag', () => {
    for (const prefix of stack.pop()?.declared ?? []) bindings.get(prefix)!.pop();
  });
  // Without an error handler saxes throws at the first error, so nothing half-read gets through.
  try {
    parser.write(xml).close();
  } catch (error) {
    if (error instanceof CorpusError) throw error;
    const detail = error instanceof Error ? error.message : String(error);
    throw new CorpusError(path, `not well-formed XML: ${detail}`, undefined, { cause: error, what: WHAT });
  }
  if (encoding !== undefined && !/^utf-?8$/i.test(encoding)) {
    throw new CorpusError(path, `declares encoding ${encoding}; only UTF-8 is read`, undefined, { what: WHAT });
  }
  if (root === undefined) throw new CorpusError(path, 'not well-formed XML: no root element', undefined, { what: WHAT });
  return root;
}

/** Whether `node` is an element (not text). */
function isElement(node: XmlElement | string | undefined): node is XmlElement {
  return typeof node === 'object';
}

/** Whether `node` is the Akoma Ntoso element `name` (any name when `name` is absent). */
function isAkn(node: XmlElement | string | undefined, name?: string): boolean {
  return isElement(node) && node.ns.startsWith(AKN_NAMESPACE) && (name === undefined || node.name === name);
}

/** The first Akoma Ntoso child element of `node` named `name`. */
function child(node: XmlElement | undefined, name: string): XmlElement | undefined {
  return node?.children.find((c): c is XmlElement => isElement(c) && isAkn(c, name));
}

/** The Akoma Ntoso child elements of `node` named `name`. */
function childrenNamed(node: XmlElement | undefined, name: string): XmlElement[] {
  return node === undefined ? [] : node.children.filter((c): c is XmlElement => isElement(c) && isAkn(c, name));
}

/** All text under `node`, in document order (walked with a stack of its own: any depth, linear). */
function rawText(node: XmlElement | string): string {
  if (typeof node === 'string') return node;
  const parts: string[] = [];
  const pending: (XmlElement | string)[] = [node];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (typeof next === 'string') parts.push(next);
    else for (let i = next.children.length - 1; i >= 0; i--) pending.push(next.children[i]!);
  }
  return parts.join('');
}

/** White space (including no-break spaces and line breaks) collapsed to single spaces, trimmed. */
function squash(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The text under `node` on one line, white space normalised. */
function lineText(node: XmlElement | undefined): string {
  return node === undefined ? '' : squash(rawText(node));
}

/** A `YYYY-MM-DD` date attribute, or undefined when absent or not such a date. */
function dateAttr(node: XmlElement | undefined): string | undefined {
  const value = node?.attrs.get('date')?.trim();
  return value !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Text of elements

/**
 * Elements whose text runs on inside a line (everything else starts and ends a line; `<br/>` and `<eol/>` break it).
 * None occur in the corpus; they are the inline elements of Akoma Ntoso, so a text that has them keeps its sentences
 * whole.
 */
const INLINE = new Set([
  'b', 'i', 'u', 'sup', 'sub', 'span', 'a', 'ref', 'mref', 'rref', 'date', 'time', 'term', 'def', 'abbr', 'inline',
  'mod', 'mmod', 'rmod', 'ins', 'del', 'quotedText', 'authorialNote', 'noteRef', 'docTitle', 'docNumber', 'docType',
  'docDate', 'docProponent', 'docStatus', 'docCommittee', 'docIntroducer', 'docStage', 'docAuthority', 'docPurpose',
  'shortTitle', 'entity', 'person', 'organization', 'location', 'concept', 'object', 'event', 'process', 'role',
  'quantity', 'signature', 'legislature', 'session', 'outcome', 'argument', 'affectedDocument', 'relatedDocument',
  'change', 'fillIn', 'placeholder', 'omissis', 'extractText', 'embeddedText', 'vote', 'marker', 'eop', 'img', 'judge',
  'party', 'lawyer', 'courtType', 'neutralCitation', 'opinion', 'recordedTime', 'subFlow',
]);

/** The end of a block element, in {@link LineBuilder.add}'s steps. */
const END = Symbol('end of block');

/** Collects the lines of an element's text: one per block (paragraph, point, `<p>`), a number starting its block's line. */
class LineBuilder {
  readonly lines: string[] = [];
  private current = '';
  /** The current line holds only a `<num>` so far (the next block's text joins it). */
  private numOnly = false;

  /** Ends the current line: its pieces (split at line breaks inside the text) normalised; a bare number is dropped. */
  private endLine(): void {
    if (!this.numOnly) {
      for (const piece of this.current.split('\n')) {
        const line = squash(piece);
        if (line !== '') this.lines.push(line);
      }
    }
    this.current = '';
    this.numOnly = false;
  }

  /**
   * Adds the text of `node` (skipping `skip`: the element's own number and heading). The tree is walked with a stack
   * of its own, so any depth is read, in time linear in the tree.
   */
  add(node: XmlElement | string, skip?: ReadonlySet<XmlElement>): void {
    /** What is left to do, the next step last: a node to add, or the end of a block element (`END`). */
    const steps: (XmlElement | string | typeof END)[] = [node];
    for (let step = steps.pop(); step !== undefined; step = steps.pop()) {
      if (step === END) {
        if (!this.numOnly) this.endLine();
        continue;
      }
      if (typeof step === 'string') {
        this.addText(step);
        continue;
      }
      if (skip?.has(step)) continue;
      if (isAkn(step, 'br') || isAkn(step, 'eol')) {
        this.current += '\n';
        continue;
      }
      if (isAkn(step, 'num')) {
        this.endLine();
        this.current = `${lineText(step)} `;
        this.numOnly = this.current.trim() !== '';
        continue;
      }
      const inline = !isAkn(step) || INLINE.has(step.name);
      if (!inline) {
        if (!this.numOnly) this.endLine();
        steps.push(END);
      }
      for (let i = step.children.length - 1; i >= 0; i--) steps.push(step.children[i]!);
    }
  }

  /** Adds a text node: white space alone is the file's indentation (a space, never a line break); after a number it joins it. */
  private addText(node: string): void {
    let text = /\S/.test(node) ? node : ' ';
    if (this.numOnly) text = text.trimStart();
    if (text === '') return;
    this.current += text;
    this.numOnly = false;
  }

  /** The lines so far, the last one ended. */
  finish(): string[] {
    this.endLine();
    return this.lines;
  }
}

/** The lines of the text of `node`'s children, without `skip`. */
function textLines(node: XmlElement, skip?: ReadonlySet<XmlElement>): string[] {
  const builder = new LineBuilder();
  for (const c of node.children) builder.add(c, skip);
  return builder.finish();
}

/** The lines of the text of `node`, its own `<num>` included. */
function blockLines(node: XmlElement): string[] {
  const builder = new LineBuilder();
  builder.add(node);
  return builder.finish();
}

// ---------------------------------------------------------------------------------------------------------------
// Titles, headings and types

/** Vowels of Bulgarian: a word of capitals without one is an abbreviation (`ДДС`, `БНБ`, `ДВ`). */
const VOWELS = /[АЕИОУЪЮЯЁЭЫІ]/u;

/** Abbreviations with a vowel, kept in capitals inside an upper-case run. */
const ABBREVIATIONS = new Set([
  'ЕС', 'ЕО', 'ЕИО', 'ООН', 'НАТО', 'ИМО', 'МОТ', 'ОУП', 'ЗУТ', 'АД', 'ЕАД', 'ООД', 'ЕООД', 'ЕТ', 'ЕВРАТОМ', 'ЮНЕСКО',
  'УНИЦЕФ', 'ОССЕ', 'ОИСР', 'ЕИБ', 'ЕЦБ', 'ЕИП',
]);

/** Prepositions, conjunctions and pronouns: a cut title can end in one (a real title never does). */
const TRAILING_WORDS = new Set([
  'а', 'в', 'във', 'до', 'за', 'и', 'или', 'из', 'към', 'между', 'на', 'над', 'от', 'относно', 'по', 'под', 'пред',
  'при', 'през', 'с', 'със', 'след', 'срещу', 'чрез', 'както', 'които', 'който', 'която', 'което',
]);

/** How a word takes part in case fixing. */
type WordCase = 'upper' | 'lower' | 'neutral';

/**
 * A word's case: `neutral` when it has no Cyrillic letter, has a Latin one (`NOх`, `MSC.255`), is a Roman numeral
 * (`ІІІ`, `IV`), an abbreviation ({@link isAbbreviation}) or quoted (a name: `“ИНМАТ”`); `upper` when all its letters
 * are capitals; else `lower`.
 */
function wordCase(word: string): WordCase {
  const letters = word.match(/\p{L}/gu);
  if (
    !letters ||
    /[A-Za-z]/.test(word) ||
    !/[\u0400-\u04ff]/u.test(word) ||
    /^[IVXLCMІХ]+$/u.test(letters.join('')) ||
    /["“”„«»]/u.test(word) ||
    isAbbreviation(word)
  ) {
    return 'neutral';
  }
  return letters.every((l) => l === l.toUpperCase() && l !== l.toLowerCase()) ? 'upper' : 'lower';
}

/** Whether a word in capitals is an abbreviation: no vowel (`ДДС`, `БНБ`, `ГФ`) or one of {@link ABBREVIATIONS}. */
function isAbbreviation(word: string): boolean {
  const letters = (word.match(/\p{L}/gu) ?? []).join('');
  if (letters !== letters.toUpperCase()) return false;
  return (letters.length >= 2 && !VOWELS.test(letters)) || ABBREVIATIONS.has(letters);
}

/**
 * Lowers the words in capitals that are not names: runs of two or more upper-case words (words of no case in between
 * do not break a run; a lower-case word does), every upper-case word when the text has no lower-case word, and a
 * preposition or conjunction in capitals after the first word (`Кодекс ОТ 2008 г.`); abbreviations and quoted words
 * stay (see {@link wordCase}). The first letter is then made upper case. `КОДЕКС НА ТРУДА` → `Кодекс на труда`;
 * `Закон за БНБ` stays.
 */
function fixCaps(text: string): string {
  const words = text.split(' ');
  const cases = words.map(wordCase);
  const allUpper = !cases.includes('lower') && cases.includes('upper');
  const lower = cases.map((c, i) => c === 'upper' && i > 0 && TRAILING_WORDS.has(words[i]!.toLowerCase()));
  let run: number[] = [];
  const closeRun = (): void => {
    if (run.length >= 2 || (allUpper && run.length > 0)) for (const i of run) lower[i] = true;
    run = [];
  };
  cases.forEach((c, i) => {
    if (c === 'upper') run.push(i);
    else if (c === 'lower') closeRun();
  });
  closeRun();
  const out = words.map((w, i) => (lower[i] ? w.toLowerCase() : w)).join(' ');
  return out.replace(/^(\P{L}*)(\p{L})/u, (_, before: string, letter: string) => before + letter.toUpperCase());
}

/** Whether a title (normalised) looks cut short: it ends in a hyphen, soft hyphen, comma or {@link TRAILING_WORDS} word. */
function looksCut(title: string): boolean {
  if (/[-\u00ad‐,]$/u.test(title)) return true;
  const last = title.split(' ').pop() ?? '';
  return TRAILING_WORDS.has(last.toLowerCase());
}

/** Where the opening text that carries a cut title on ends: the first article or the preamble of the act. */
const TITLE_END = /\s*(?:Член единствен|Чл\.\s*1\.|\(Приет с |На основание )/u;

/** Longest continuation taken from the body for a cut title, in characters. */
const TITLE_CONTINUATION_MAX = 600;

/** Removes a decision's preamble from its title: `Решение № 1 от … г. На основание чл. …` → `Решение № 1 от … г.`. */
function cutPreamble(title: string): string {
  const at = title.search(/\sНа основание\s/u);
  return at > 0 ? title.slice(0, at).trim() : title;
}

/** Joins words broken over lines: a soft hyphen and the space after it; `Меж- дународна` inside a carried-on text. */
function joinBrokenWords(text: string, hyphens: boolean): string {
  let out = text.replace(/\u00ad\s*/gu, '');
  if (hyphens) out = out.replace(/(\p{Ll})- (?!(?:и|или)\s)(\p{Ll})/gu, '$1$2');
  return out;
}

/**
 * Completes a cut title from `opening`: the preface's first paragraph when it repeats the title and goes on (the long
 * title), or the body's opening text — what follows the title when it repeats it, else the opening itself, carrying
 * the title on; from the body, the continuation must end at {@link TITLE_END}. At most
 * {@link TITLE_CONTINUATION_MAX} characters are added. Undefined when the opening does not complete the title.
 */
function carryOn(title: string, opening: string, fromPreface: boolean): string | undefined {
  if (opening === '') return undefined;
  const repeats = opening.toLowerCase().startsWith(title.toLowerCase());
  if (fromPreface && !repeats) return undefined;
  let rest = repeats ? opening.slice(title.length) : opening;
  const end = rest.search(TITLE_END);
  if (end >= 0) rest = rest.slice(0, end);
  else if (!fromPreface) return undefined;
  rest = rest.trim();
  if (rest === '' || rest.length > TITLE_CONTINUATION_MAX || !/^\p{L}/u.test(rest)) return undefined;
  const wordCut = /[-\u00ad‐]$/u.test(title);
  if (wordCut && /^\p{Ll}/u.test(rest)) return title.replace(/[-\u00ad‐]$/u, '') + joinBrokenWords(rest, true);
  return `${title} ${joinBrokenWords(rest, true)}`;
}

/**
 * The act's title (see {@link AknAct}) from its short alias, the preface's first paragraph and the body's opening
 * text outside articles.
 */
function actTitle(alias: string, preface: string, opening: string): string {
  let title = cutPreamble(squash(alias));
  if (looksCut(title)) {
    const completed =
      (preface.length > title.length ? carryOn(title, cutPreamble(preface), true) : undefined) ??
      carryOn(title, opening.slice(0, title.length + TITLE_CONTINUATION_MAX + 100), false);
    title = completed ?? `${title.replace(/[\s,\-\u00ad‐]+$/u, '')}…`;
  }
  return fixCaps(squash(joinBrokenWords(title, false)));
}

/** Types an act can be, by the base form of the word its title names it by. */
const ACT_TYPES = new Map(
  [
    'Закон', 'Кодекс', 'Конституция', 'Правилник', 'Наредба', 'Решение', 'Указ', 'Постановление', 'Тарифа',
    'Инструкция', 'Устав', 'Правила', 'Заповед', 'Разпореждане', 'Определение', 'Споразумение', 'Конвенция', 'Договор',
    'Протокол', 'Меморандум', 'Декларация', 'Регламент', 'Директива', 'Методика', 'Стратегия', 'Програма',
  ].map((t) => [t.toLowerCase(), t]),
);

/** Words before which no type word is looked for (`Документ за изменения на Конституцията` is a `Документ`). */
const TYPE_STOP = /^(?:за|на|по|от|и|в|във|с|със|към|при|относно|между|№)$/u;

/**
 * The type of an act by its title: the first of its first four words that is a {@link ACT_TYPES} word, looking no
 * further than a preposition (`Наказателно-процесуален кодекс` → `Кодекс`, `Решение № 956 …` → `Решение`); else the
 * title's first word, capitalised, without trailing punctuation.
 */
function actType(title: string): string {
  const words = title.split(' ').slice(0, 4);
  for (const word of words) {
    const bare = word.replace(/[^\p{L}-]/gu, '').toLowerCase();
    const type = ACT_TYPES.get(bare);
    if (type !== undefined) return type;
    if (TYPE_STOP.test(bare) || word === '№') break;
  }
  const first = (words[0] ?? '').replace(/[^\p{L}\d-]+$/u, '');
  return first === '' ? 'Акт' : first.charAt(0).toUpperCase() + first.slice(1).toLowerCase();
}

/** The heading of a container: its number and heading (`Глава първа. ОБЩИ ПОЛОЖЕНИЯ`), one of them when they repeat. */
function containerHeading(node: XmlElement, provisions: boolean): string {
  const num = lineText(child(node, 'num'));
  const heading = [lineText(child(node, 'heading')), lineText(child(node, 'subheading'))].filter((h) => h !== '').join('. ');
  let text: string;
  if (num === '' || heading === '' || num.toLowerCase() === heading.toLowerCase()) text = num || heading;
  else text = `${num}${/[.:]$/.test(num) ? '' : '.'} ${heading}`;
  // A provisions block's heading is a generic label the source writes in capitals: `ЗАКЛЮЧИТЕЛНИ РАЗПОРЕДБИ`.
  return provisions && text !== '' && wordCaseOfText(text) === 'upper' ? fixCaps(text) : text;
}

/** The case of a whole text: `upper` when it has upper-case words and no lower-case one. */
function wordCaseOfText(text: string): WordCase {
  const cases = text.split(' ').map(wordCase);
  if (cases.includes('lower')) return 'lower';
  return cases.includes('upper') ? 'upper' : 'neutral';
}

// ---------------------------------------------------------------------------------------------------------------
// Elements

/** An article number: `Чл. 12а.`, `Чл.152.`, `Чл. 278б1.` → the ref `12а`, `152`, `278б1`. */
const ARTICLE_NUM = /^(?:Чл\.|Член)\s*(\d[\p{L}\d]*)\s*\.?$/u;

/** A § number: `§ 12а.`, `§2.` → `12а`, `2`. */
const PARAGRAPH_NUM = /^§\s*(\d[\p{L}\d]*)\s*\.?$/u;

/** A § number opening a text (a provision without `<num>`): `§ 4. Настоящият закон …`. */
const PARAGRAPH_LEAD = /^§\s*(\d[\p{L}\d]*)\.\s*/u;

/**
 * Whether a container is a block of provisions (additional, transitional, final: `hcontainer` named
 * `final-provisions`, `transitional`, …), whose heading is lowered when in capitals: any `hcontainer` but a § (`modification`).
 */
function isProvisionsBlock(node: XmlElement): boolean {
  return isAkn(node, 'hcontainer') && node.attrs.get('name') !== 'modification';
}

/** Containers whose number and heading open a part of the act (their children are walked for elements). */
const CONTAINERS = new Set([
  'part', 'subpart', 'book', 'title', 'subtitle', 'chapter', 'subchapter', 'section', 'subsection', 'division',
  'subdivision', 'hcontainer', 'tome', 'container', 'blockContainer', 'level',
]);

/** Walks the body in document order, collecting elements and the text outside them. */
class BodyReader {
  readonly elements: CorpusElement[] = [];
  /** Lines of text outside any element. */
  readonly loose: string[] = [];
  /** The lines of {@link loose} before the first element: the act's opening text, which can carry its title on. */
  readonly opening: string[] = [];
  /** Headings of containers opened since the last element, with their depth. */
  private pending: { depth: number; text: string }[] = [];

  /**
   * Reads the children of a container at `depth` (the body is depth 0), skipping its own number and headings, and the
   * containers in it, to any depth: the open containers are a stack of its own, and each node is read once.
   */
  walk(node: XmlElement, depth: number): void {
    const frame = (container: XmlElement, at: number): { node: XmlElement; depth: number; next: number; own: Set<XmlElement | undefined> } => ({
      node: container,
      depth: at,
      next: 0,
      own: new Set([child(container, 'num'), child(container, 'heading'), child(container, 'subheading')]),
    });
    /** The containers being read, the innermost last. */
    const open = [frame(node, depth)];
    while (open.length > 0) {
      const current = open.at(-1)!;
      const c = current.node.children[current.next++];
      if (c === undefined) {
        open.pop();
        // A container without elements: its heading opens nothing. The pending headings are in order of depth, one
        // per depth at most, so those of this container and deeper are the last ones.
        if (open.length > 0) while ((this.pending.at(-1)?.depth ?? -1) >= current.depth - 1) this.pending.pop();
        continue;
      }
      if (typeof c === 'string') {
        if (/\S/.test(c)) this.addLoose([squash(c)]);
        continue;
      }
      if (current.own.has(c)) continue;
      if (isAkn(c, 'article')) {
        this.article(c);
      } else if ((isAkn(c, 'hcontainer') || isAkn(c, 'paragraph')) && this.paragraph(c)) {
        // A § (read by paragraph()).
      } else if (isAkn(c) && CONTAINERS.has(c.name)) {
        const heading = containerHeading(c, isProvisionsBlock(c));
        if (heading !== '') this.pending.push({ depth: current.depth, text: heading });
        open.push(frame(c, current.depth + 1));
      } else {
        this.addLoose(blockLines(c));
      }
    }
  }

  /** Adds lines of text outside elements. */
  private addLoose(lines: string[]): void {
    for (const line of lines) {
      this.loose.push(line);
      if (this.elements.length === 0) this.opening.push(line);
    }
  }

  /** Adds an element unless its text is empty; it takes the pending headings and its own. */
  private add(ref: string, label: string, lines: string[], ownHeading: string): void {
    const text = lines.join('\n');
    if (text === '') return;
    const headings = this.pending.map((p) => p.text);
    // A heading that is the whole text is no heading (ЗЗД: repealed articles repeat their note as heading).
    if (ownHeading !== '' && ownHeading !== squash(text)) headings.push(ownHeading);
    this.pending = [];
    const element: CorpusElement = { ref, label, text };
    if (headings.length > 0) element.heading = headings.join(' / ');
    this.elements.push(element);
  }

  /** An `<article>`: ref and label from its `<num>`; text without them and without its own heading. */
  private article(node: XmlElement): void {
    const num = child(node, 'num');
    const heading = child(node, 'heading');
    const numText = lineText(num);
    const m = ARTICLE_NUM.exec(numText);
    const ref = m ? m[1]! : numText.replace(/^(?:Чл\.|Член)\s*/u, '').replace(/\.$/, '');
    const label = m ? `Чл. ${m[1]!}.` : numText;
    const lines = textLines(node, new Set([num, heading].filter((x) => x !== undefined)));
    if (ref === '') {
      this.addLoose(lines);
      return;
    }
    this.add(ref, label, lines, lineText(heading));
  }

  /**
   * A § when `node` is one: an `hcontainer` or `paragraph` whose `<num>` is `§ N.`, or a `paragraph` without a number
   * whose text opens with `§ N.` (ЗЗД's transitional provisions). Returns false for anything else.
   */
  private paragraph(node: XmlElement): boolean {
    const num = child(node, 'num');
    const heading = child(node, 'heading');
    if (num !== undefined) {
      const m = PARAGRAPH_NUM.exec(lineText(num));
      if (!m) return false;
      const lines = textLines(node, new Set([num, heading].filter((x) => x !== undefined)));
      this.add(`§${m[1]!}`, `§ ${m[1]!}.`, lines, lineText(heading));
      return true;
    }
    if (!isAkn(node, 'paragraph')) return false;
    const lines = textLines(node);
    const m = PARAGRAPH_LEAD.exec(lines[0] ?? '');
    if (!m) return false;
    lines[0] = lines[0]!.slice(m[0].length);
    if (lines[0] === '') lines.shift();
    this.add(`§${m[1]!}`, `§ ${m[1]!}.`, lines, '');
    return true;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Dates

/**
 * The promulgation date of a consolidated text's preface note: `Обн. ДВ. бр.26 от 1 Април 1986г.` → `1986-04-01`.
 * Only that form (a capital `Обн.` opening the note, a full date): an amending act's note
 * `(обн., ДВ, бр. 86 от 1996 г.; …)` is about the act it amends.
 */
function promulgationDate(note: string): string | undefined {
  const m = /^Обн\.\s*ДВ\.?\s*бр\.\s*\d+\s+от\s+(\d{1,2}\s+\p{L}+\s+\d{4})\s*г/u.exec(note);
  return (m && parseBulgarianDate(m[1]!)) ?? undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Reading a file

/**
 * Reads one Akoma Ntoso act (`shared/corpus/README.md`, "akn/"): the file is gunzipped when it is gzip (by its first
 * bytes), decoded as UTF-8 and parsed with saxes; the act is built only from a file parsed whole.
 *
 * Elements (`document.elements`), in document order:
 * - each `<article>`: `ref` from its `<num>` (`Чл. 12а.` → `12а`), `label` that number with normalised spacing
 *   (`Чл.152.` → `Чл. 152.`), `text` the article without number and heading: one line per paragraph, point and `<p>`
 *   (lines joined by `\n`), each with its own number (`(1)`, `1.`, `а)`), white space normalised, amendment notes
 *   („(Изм. - ДВ, бр. 21 от 1990 г.)“) kept as in the text; a line break inside the text of a `<p>` is kept too (the
 *   Наказателен кодекс puts the points of some articles on the lines of one `<p>`), the file's indentation is not;
 * - each § of the provisions (an `hcontainer`/`paragraph` numbered `§ N.`, or a numberless `paragraph` of a provisions
 *   block opening with `§ N.`): `ref` `§12а`, `label` `§ 12а.`; anything quoted inside it (`quotedStructure`, nested
 *   articles) stays in its text;
 * - `heading`: the headings of the part, chapter, section or provisions block opened since the previous element
 *   (number and heading: `Глава първа. ОБЩИ ПОЛОЖЕНИЯ`; a provisions block's capitals lowered: `Заключителни
 *   разпоредби`) and the element's own heading, joined by ` / `; absent when there is none. A heading equal to the
 *   element's whole text is not used (repealed articles repeat their note).
 * Elements whose text is empty are left out; text outside elements goes to {@link AknAct.unstructured_text}, and when
 * the act has no article and no §, that text is its one element (`ref` and `label` empty). Soft hyphens, with the
 * white space after them, are removed from element texts and headings (the typesetter's word breaks).
 *
 * Only a regular file is read, at most 64 MiB of it, decompressed too ({@link INPUT_MAX_BYTES}); the reading is linear
 * in the file, to any depth of nesting.
 *
 * @param path an `.xml` or `.xml.gz` file.
 * @param signal optional: checked before each chunk read; when it aborts, rejects with an `AbortError`.
 * @returns the act, see {@link AknAct}.
 * @throws CorpusError (`Akoma Ntoso file PATH: …`) when the file is missing or unreadable, is not a regular file, is
 *   larger than the cap (or decompresses to more), is corrupt gzip, is not
 *   UTF-8, is not well-formed XML (`not well-formed XML: 97:314: disallowed character.`), is not an Akoma Ntoso
 *   document, or lacks the work's FRBR URI, the work's or the expression's FRBR date, or a title.
 */
export async function readAknFile(path: string, signal?: AbortSignal): Promise<AknAct> {
  const bytes = await readBytes(path, signal);
  let xml: string;
  try {
    xml = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (error) {
    throw new CorpusError(path, 'not UTF-8 text', undefined, { cause: error, what: WHAT });
  }
  const root = parseXml(path, xml);
  const fail = (message: string): CorpusError => new CorpusError(path, message, undefined, { what: WHAT });
  if (!isAkn(root, 'akomaNtoso')) {
    throw fail(`not an Akoma Ntoso document: the root element is <${root.name}> in namespace "${root.ns}"`);
  }
  const act = root.children.find((c): c is XmlElement => isElement(c) && isAkn(c));
  const meta = child(act, 'meta');
  const identification = child(meta, 'identification');
  const work = child(identification, 'FRBRWork');
  const expression = child(identification, 'FRBRExpression');
  const workUri = child(work, 'FRBRuri')?.attrs.get('value')?.trim() ?? '';
  if (workUri === '') throw fail('no FRBRWork/FRBRuri (the work\'s URI)');
  const workDate = dateAttr(child(work, 'FRBRdate'));
  if (workDate === undefined) throw fail('no FRBRWork/FRBRdate (YYYY-MM-DD)');
  const expressionDate = dateAttr(child(expression, 'FRBRdate'));
  if (expressionDate === undefined) throw fail('no FRBRExpression/FRBRdate (YYYY-MM-DD)');

  const publicationNode = child(meta, 'publication');
  let publication: AknAct['publication'];
  if (publicationNode !== undefined) {
    publication = {};
    const date = dateAttr(publicationNode);
    if (date !== undefined) publication.date = date;
    for (const key of ['number', 'name'] as const) {
      const value = publicationNode.attrs.get(key)?.trim();
      if (value) publication[key] = value;
    }
  }

  const preface = childrenNamed(child(act, 'preface'), 'p').map((p) => lineText(p));
  const body = child(act, 'body') ?? child(act, 'mainBody') ?? child(act, 'judgmentBody') ?? child(act, 'debateBody');
  const reader = new BodyReader();
  if (body !== undefined) reader.walk(body, 0);

  // The short alias, else another alias, else the preface's first paragraph: the first that is not blank.
  const aliases = childrenNamed(work, 'FRBRalias');
  const candidates = [
    ...aliases.filter((a) => a.attrs.get('name') === 'short').map((a) => a.attrs.get('value')),
    ...aliases.map((a) => a.attrs.get('value')),
    preface[0],
  ];
  const alias = candidates.find((v) => v !== undefined && squash(v) !== '');
  if (alias === undefined) throw fail('no title (no FRBRalias and no preface)');
  const title = actTitle(alias, preface[0] ?? '', reader.opening.join(' '));

  const promulgated = preface.slice(1).map(promulgationDate).find((d) => d !== undefined);
  const publicationDate = publication?.date;
  const date = promulgated ?? (publicationDate !== undefined && publicationDate < workDate ? publicationDate : workDate);
  const prefix = workUri.startsWith('/akn/bg/act/') ? '/akn/bg/act/' : '/akn/';
  const idPart = (workUri.startsWith(prefix) ? workUri.slice(prefix.length) : workUri).replace(/^\/+|\/+$/g, '');

  // A soft hyphen is where the typesetter broke a word over lines (`за\u00ad страховането`): the word is joined again,
  // so that it is found. An act without articles or §§ (ratification laws' „Член единствен“, decisions, tariffs) is
  // served as one element holding its text, so that it is searchable and readable like the others.
  const joinWords = (text: string): string => text.replace(/\u00ad\s*/gu, '');
  const loose = joinWords(reader.loose.join('\n')).trim();
  const elements: CorpusElement[] =
    reader.elements.length > 0
      ? reader.elements.map((e) => ({ ...e, text: joinWords(e.text), ...(e.heading !== undefined ? { heading: joinWords(e.heading) } : {}) }))
      : loose === ''
        ? []
        : [{ ref: '', label: '', text: loose }];
  const document: CorpusDocument = {
    document_id: `akn-${idPart.replace(/\//g, '-')}`,
    source_type: 'bulgarian_laws_regulations',
    type: actType(title),
    title,
    date,
    in_force_date: null,
    as_of: expressionDate,
    consolidated: expressionDate > date,
    elements,
  };
  const result: AknAct = {
    document,
    work_uri: workUri,
    expression_date: expressionDate,
    path,
    unstructured_text: reader.loose.join('\n'),
  };
  if (publication !== undefined) result.publication = publication;
  return result;
}

/**
 * The Akoma Ntoso files under `dir` (recursive): names ending in `.xml` or `.xml.gz`, as paths joined to `dir`,
 * sorted by code unit. Hidden entries (`.name`) are skipped.
 * @throws the file system's error when `dir` cannot be read.
 */
export function findAknFiles(dir: string): string[] {
  const out: string[] = [];
  const visit = (at: string): void => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const path = join(at, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (entry.name.endsWith('.xml') || entry.name.endsWith('.xml.gz')) out.push(path);
    }
  };
  visit(dir);
  return out.sort();
}
