/**
 * The National Assembly's act payload (`GET /api/v1/act/{id}` of its public API, as in `shared/corpus/parliament-api/`)
 * as a corpus document of the statutes file's form (`act-<id>`), its promulgated text in its real structure.
 *
 * The payload is a JSON object with metadata fields `L_Act_*` and the text as published in `L_ActL_final_body`:
 * MS-Word HTML (`<p>`/`<div>` paragraphs, `<br>` line breaks, `<span>`/`<b>` runs, tables of annexes, MSO conditional
 * comments and `<style>`/`<xml>` blocks). The HTML is tokenized with htmlparser2 into lines ({@link htmlToLines}) and
 * the lines are structured by `structureActLines` (`structure.ts`).
 */
import { Tokenizer, type TokenizerCallbacks } from 'htmlparser2';
import type { CorpusDocument } from './reader.js';
import { publishedAsOf, structureActLines } from './structure.js';

/**
 * A payload that cannot be read as an act: not an object, or a required field missing or of the wrong type, or a text
 * with no provision. The message names the field (`field "L_ActL_final_body" …`).
 */
export class PayloadError extends Error {
  /** The payload field at fault, when one is. */
  readonly field: string | undefined;

  constructor(message: string, field?: string) {
    super(message);
    this.name = 'PayloadError';
    this.field = field;
  }
}

/** Elements whose start and end break a line (paragraphs, blocks, table rows, list items, headings, `<br>`). */
const BLOCK_ELEMENTS = new Set([
  'p',
  'div',
  'br',
  'tr',
  'table',
  'thead',
  'tbody',
  'tfoot',
  'li',
  'ul',
  'ol',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'blockquote',
  'pre',
  'hr',
  'section',
  'article',
  'center',
]);
/** Elements whose content is not text: dropped with everything inside. */
const HIDDEN_ELEMENTS = new Set(['style', 'script', 'xml', 'head', 'title', 'template', 'noscript']);
/** Table cells: their texts are separated by a space within the row's line. */
const CELL_ELEMENTS = new Set(['td', 'th']);

/** Elements that have no content and no end tag (HTML's void elements, as htmlparser2's `Parser` knows them). */
const VOID_ELEMENTS = new Set([
  'area', 'base', 'basefont', 'br', 'col', 'command', 'embed', 'frame', 'hr', 'img', 'input', 'isindex', 'keygen',
  'link', 'meta', 'param', 'source', 'track', 'wbr',
]);

/**
 * The open elements a start tag ends when one of them is the innermost (HTML's implied end tags, as htmlparser2's
 * `Parser` applies them: `<p>` ends an open `<p>`, `<td>` an open cell, `<body>` an open `<head>`).
 */
const IMPLIED_ENDS: ReadonlyMap<string, ReadonlySet<string>> = (() => {
  const p = new Set(['p']);
  const headings = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p']);
  const form = new Set(['input', 'option', 'optgroup', 'select', 'button', 'datalist', 'textarea']);
  const sections = new Set(['thead', 'tbody']);
  const definitions = new Set(['dd', 'dt']);
  const ruby = new Set(['rt', 'rp']);
  return new Map<string, ReadonlySet<string>>([
    ['tr', new Set(['tr', 'th', 'td'])], ['th', new Set(['th'])], ['td', new Set(['thead', 'th', 'td'])],
    ['body', new Set(['head', 'link', 'script'])], ['a', new Set(['a'])], ['li', new Set(['li'])], ['p', p],
    ['h1', headings], ['h2', headings], ['h3', headings], ['h4', headings], ['h5', headings], ['h6', headings],
    ['select', form], ['input', form], ['output', form], ['button', form], ['datalist', form], ['textarea', form],
    ['option', new Set(['option'])], ['optgroup', new Set(['optgroup', 'option'])], ['dd', definitions], ['dt', definitions],
    ...['address', 'article', 'aside', 'blockquote', 'details', 'div', 'dl', 'fieldset', 'figcaption', 'figure', 'footer',
      'form', 'header', 'hr', 'main', 'nav', 'ol', 'pre', 'section', 'table', 'ul'].map((name): [string, ReadonlySet<string>] => [name, p]),
    ['rt', ruby], ['rp', ruby], ['tbody', sections], ['tfoot', sections],
  ]);
})();

/**
 * The lines of an HTML text, from htmlparser2's tokens. The open elements are kept here, as a stack with a count of
 * each name, rather than by htmlparser2's `Parser`, whose stack costs time in proportion to its depth at every start
 * and unmatched end tag (quadratic in the nesting: 160,000 nested `<div>` took 40 s): every step here takes constant
 * time, so the whole is linear in the text. The elements open and close as the `Parser` has them (implied end tags,
 * void elements, `</p>` and `</br>` without a start tag).
 */
class HtmlLines implements TokenizerCallbacks {
  readonly lines: string[] = [];
  private current = '';
  /** Open elements whose content is dropped ({@link HIDDEN_ELEMENTS}). */
  private hidden = 0;
  /** The open elements, the innermost last, and how many of each name are open. */
  private readonly open: string[] = [];
  private readonly openCount = new Map<string, number>();
  /** The name of the start tag being read. */
  private tag = '';

  constructor(private readonly html: string) {}

  /** Ends the current line: soft hyphens and zero-width characters removed, white space collapsed, trimmed. */
  flush(): void {
    const line = this.current
      .replace(/[\u00ad\u200b\u200c\u200d\ufeff]/gu, '')
      .replace(/[\s\u00a0\u2000-\u200a\u202f\u205f\u3000]+/gu, ' ')
      .trim();
    if (line !== '') this.lines.push(line);
    this.current = '';
  }

  /** An element starts. */
  private started(name: string): void {
    if (HIDDEN_ELEMENTS.has(name)) this.hidden++;
    else if (BLOCK_ELEMENTS.has(name)) this.flush();
    else if (CELL_ELEMENTS.has(name)) this.current += ' ';
  }

  /** An element ends; `implied`: by another tag or the end of the text, not by its own end tag. */
  private ended(name: string, implied: boolean): void {
    if (HIDDEN_ELEMENTS.has(name)) this.hidden = Math.max(0, this.hidden - 1);
    else if (BLOCK_ELEMENTS.has(name) && !(name === 'br' && implied)) this.flush();
    else if (CELL_ELEMENTS.has(name)) this.current += ' ';
  }

  /** Ends the innermost open element. */
  private pop(implied: boolean): void {
    const name = this.open.pop()!;
    this.openCount.set(name, this.openCount.get(name)! - 1);
    this.ended(name, implied);
  }

  private name(start: number, end: number): string {
    return this.html.slice(start, end).toLowerCase();
  }

  onopentagname(start: number, end: number): void {
    const name = this.name(start, end);
    const ends = IMPLIED_ENDS.get(name);
    if (ends) while (this.open.length > 0 && ends.has(this.open.at(-1)!)) this.pop(true);
    if (!VOID_ELEMENTS.has(name)) {
      this.open.push(name);
      this.openCount.set(name, (this.openCount.get(name) ?? 0) + 1);
    }
    this.tag = name;
  }

  onopentagend(): void {
    this.started(this.tag);
    if (VOID_ELEMENTS.has(this.tag)) this.ended(this.tag, true);
    this.tag = '';
  }

  /** `<div/>`: in HTML a start tag like any other. */
  onselfclosingtag(): void {
    this.onopentagend();
  }

  onclosetag(start: number, end: number): void {
    const name = this.name(start, end);
    if (VOID_ELEMENTS.has(name)) {
      // `</br>` is a line break; any other void element's end tag is nothing.
      if (name === 'br') {
        this.started('br');
        this.ended('br', false);
      }
    } else if ((this.openCount.get(name) ?? 0) > 0) {
      while (this.open.at(-1) !== name) this.pop(true);
      this.pop(false);
    } else if (name === 'p') {
      // `</p>` without an open `<p>` is an empty paragraph.
      this.started('p');
      this.ended('p', false);
    }
  }

  ontext(start: number, end: number): void {
    if (this.hidden === 0) this.current += this.html.slice(start, end);
  }

  ontextentity(codePoint: number): void {
    if (this.hidden === 0) this.current += String.fromCodePoint(codePoint);
  }

  onend(): void {
    while (this.open.length > 0) this.pop(true);
    this.flush();
  }

  // Comments (MSO conditional comments included), CDATA, declarations and attributes hold no text of the act.
  onattribdata(): void {}
  onattribentity(): void {}
  onattribend(): void {}
  onattribname(): void {}
  oncdata(): void {}
  oncomment(): void {}
  ondeclaration(): void {}
  onprocessinginstruction(): void {}
}

/**
 * The text of an HTML fragment as lines: a block element (paragraph, division, table row, `<br>`, …) breaks the line,
 * table cells are separated by a space, entities are decoded, comments (MSO conditional comments included),
 * `<style>`, `<script>` and `<xml>` dropped; within a line white space (no-break spaces included) is collapsed, soft
 * hyphens are removed, and the line trimmed. Empty lines are left out. Linear in the text, at any depth of nesting.
 * @returns the lines in document order.
 */
export function htmlToLines(html: string): string[] {
  const collector = new HtmlLines(html);
  const tokenizer = new Tokenizer({ decodeEntities: true }, collector);
  tokenizer.write(html);
  tokenizer.end();
  return collector.lines;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A date field `YYYY-MM-DD hh:mm:ss` (or `YYYY-MM-DD`) as `YYYY-MM-DD`; null when absent, zero or not a date. */
function dateField(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T]\d{2}:\d{2}(?::\d{2})?)?$/.exec(value.trim());
  if (!m || m[1] === '0000') return null;
  const iso = `${m[1]}-${m[2]}-${m[3]}`;
  const d = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== iso ? null : iso;
}

/** Whitespace collapsed and trimmed (no-break spaces, soft hyphens). */
function normaliseTitle(title: string): string {
  return title
    .replace(/[\u00ad\u200b\ufeff]/gu, '')
    .replace(/[\s\u00a0]+/gu, ' ')
    .trim();
}

/**
 * The document type from an act's title, as the statutes file gives it: `Закон` for a title whose first word starts
 * with `Закон` (the source's typos `Законо`, `Закона` and `Законопроект` included), `Кодекс` for a code (`Кодекс за
 * застраховането`, `Изборен кодекс`), else the first word with a capital (`Решение`, `Декларация`).
 */
export function actType(title: string): string {
  const words = title.split(' ');
  const first = (words[0] ?? '').replace(/[^\p{L}-]/gu, '');
  if (/^закон/iu.test(first)) return 'Закон';
  if (words.slice(0, 2).some((w) => /^кодекс/iu.test(w))) return 'Кодекс';
  return first.charAt(0).toUpperCase() + first.slice(1).toLowerCase();
}

/**
 * A National Assembly act payload as a corpus document, in the statutes file's form for the same act:
 * - `document_id` `act-<L_Act_id>`; `title` `L_ActL_final` (white space normalised); `type` by {@link actType};
 *   `source_type` `bulgarian_laws_regulations`; `author` `Народно събрание на Република България`;
 *   `url` `https://www.parliament.bg/bg/laws/ID/<L_Act_id>`; `signature` `L_Act_sign` (null when empty);
 * - `date` `L_Act_date` and `in_force_date` `L_Act_date2` (`YYYY-MM-DD`), as the statutes file has them (the source's
 *   dates: `L_Act_date` is the act's date in the source, `L_Act_date2` its final adoption; neither is the State
 *   Gazette's issue date, which the payload gives only as issue `L_Act_dv_iss` of year `L_Act_dv_year`);
 * - `as_of`: the publication as close as the text tells it (`publishedAsOf` of `structure.ts`: the decree's date
 *   „Издаден в София на …“, else the adoption note's, else `L_Act_date2`); `consolidated` false;
 * - `elements`: `L_ActL_final_body` as lines ({@link htmlToLines}) structured by `structureActLines`: articles, then
 *   §§ (`§1`, label `§ 1.`), then annexes; no decree or title.
 * @param payload the parsed JSON of one payload.
 * @throws PayloadError when the payload is not an object, `L_Act_id` is not a positive integer (or digit string),
 *   `L_ActL_final` or `L_ActL_final_body` is not a non-empty string, `L_Act_date` is not a date, or the text has no
 *   element; the message names the field.
 */
export function readActPayload(payload: unknown): CorpusDocument {
  if (!isObject(payload)) throw new PayloadError('an act payload must be a JSON object');
  const rawId = payload.L_Act_id;
  const id =
    typeof rawId === 'number' && Number.isSafeInteger(rawId) && rawId > 0
      ? String(rawId)
      : typeof rawId === 'string' && /^\d+$/.test(rawId.trim()) && Number(rawId) > 0
        ? String(Number(rawId))
        : undefined;
  if (id === undefined) throw new PayloadError('missing or invalid field "L_Act_id" (a positive integer)', 'L_Act_id');
  const rawTitle = payload.L_ActL_final;
  if (typeof rawTitle !== 'string' || normaliseTitle(rawTitle) === '') {
    throw new PayloadError('missing or invalid field "L_ActL_final" (the title, a non-empty string)', 'L_ActL_final');
  }
  const body = payload.L_ActL_final_body;
  if (typeof body !== 'string' || body.trim() === '') {
    throw new PayloadError('missing or invalid field "L_ActL_final_body" (the text as HTML, a non-empty string)', 'L_ActL_final_body');
  }
  const date = dateField(payload.L_Act_date);
  if (date === null) throw new PayloadError('missing or invalid field "L_Act_date" (a date YYYY-MM-DD hh:mm:ss)', 'L_Act_date');
  const adopted = dateField(payload.L_Act_date2);
  const sign = payload.L_Act_sign;
  if (sign !== undefined && sign !== null && typeof sign !== 'string') {
    throw new PayloadError('field "L_Act_sign" must be a string or null', 'L_Act_sign');
  }
  const lines = htmlToLines(body);
  const elements = structureActLines(lines);
  if (elements.length === 0) {
    throw new PayloadError('field "L_ActL_final_body" holds no text of the act (only a decree and a title, or nothing)', 'L_ActL_final_body');
  }
  const title = normaliseTitle(rawTitle);
  return {
    document_id: `act-${id}`,
    source_type: 'bulgarian_laws_regulations',
    type: actType(title),
    title,
    date,
    in_force_date: adopted,
    as_of: publishedAsOf(lines.join('\n'), adopted) ?? date,
    consolidated: false,
    author: 'Народно събрание на Република България',
    url: `https://www.parliament.bg/bg/laws/ID/${id}`,
    signature: typeof sign === 'string' && sign.trim() !== '' ? sign.trim() : null,
    elements,
  };
}
