/**
 * The fields of a document (spec: Document response) as pravo names them for people, and how an element's text
 * follows its label: shared by the terminal view (`document.ts`) and the Markdown view (`markdown.ts`). Values come
 * back raw (unsanitized): renderers sanitize or escape them. Pure functions.
 */
import type { DocumentElement, DocumentResponse } from '../contract/types.js';
import { elementLabelOf, linkNoteOf, textStatusOf } from './fields.js';

/**
 * `303 articles`, `47 articles and 25 §§`, `122 §§`, `22 paragraphs`, `3 elements` (articles and §§ when every label
 * is `Чл. …` or `§ …`).
 */
export function elementCountOf(elements: DocumentElement[], decision: boolean): string {
  const plural = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;
  if (decision) return plural(elements.length, 'paragraph');
  const articles = elements.filter((e) => /^чл\./iu.test(elementLabelOf(e))).length;
  const sections = elements.filter((e) => /^§/u.test(elementLabelOf(e))).length;
  if (articles + sections !== elements.length) return plural(elements.length, 'element');
  const parts = [articles > 0 ? plural(articles, 'article') : '', sections > 0 ? `${sections} ${sections === 1 ? '§' : '§§'}` : ''];
  return parts.filter((p) => p !== '').join(' and ');
}

/** A string field when present and not blank, else `undefined`. */
export function textValue(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** `Решение № 116` (type and number), or whichever is there. */
export function decisionOf(document: DocumentResponse): string | undefined {
  const number = textValue(document.decision_number);
  const type = textValue(document.type);
  if (number === undefined) return undefined;
  return type === undefined ? `№ ${number}` : `${type} № ${number}`;
}

/** `наказателно дело № 1164/2023` (case kind and number), or whichever is there. */
export function caseOf(document: DocumentResponse): string | undefined {
  const number = textValue(document.case_number);
  const kind = textValue(document.case_kind);
  if (number === undefined) return kind;
  return kind === undefined ? `№ ${number}` : `${kind} № ${number}`;
}

/** The panel, the chair first (as the document lists it), marked. */
export function panelOf(document: DocumentResponse): string | undefined {
  const judges = Array.isArray(document.judges) ? document.judges.filter((j): j is string => typeof j === 'string' && j.trim() !== '') : [];
  if (judges.length === 0) return undefined;
  return judges.map((judge, i) => (i === 0 && judges.length > 1 ? `${judge} (chair)` : judge)).join(', ');
}

/**
 * The header's fields of a document, in order, as `[name, value]` pairs: `Type`, `Date` (with `(in force …)` when the
 * date of entry into force differs), `Text` (what date the text is current as of: `textStatusOf`), for a court decision
 * also `Court`, `Case`, `Decision`, `Department`, `Panel`, `Reporting judge`, then `Author`, `URL` and `Page` (what the
 * page at the URL shows when it is not this text: `linkNoteOf`); absent ones left out. Values raw.
 */
export function documentFieldsOf(document: DocumentResponse, decision: boolean): [string, string][] {
  const date = textValue(document.date);
  const inForce = textValue(document.in_force_date);
  const fields: [string, string | undefined][] = [
    ['Type', textValue(document.type)],
    ['Date', date !== undefined && inForce !== undefined && inForce !== date ? `${date} (in force ${inForce})` : date],
    ['Text', textStatusOf(document)],
  ];
  if (decision) {
    fields.push(
      ['Court', textValue(document.court)],
      ['Case', caseOf(document)],
      ['Decision', decisionOf(document)],
      ['Department', textValue(document.department)],
      ['Panel', panelOf(document)],
      ['Reporting judge', textValue(document.reporting_judge)],
    );
  }
  const url = textValue(document.url);
  fields.push(['Author', textValue(document.author)], ['URL', url], ['Page', url === undefined ? undefined : linkNoteOf(document)]);
  return fields.filter((field): field is [string, string] => field[1] !== undefined);
}

/**
 * `body` after the `label` it starts with (white space in `body` matching each space of `label`, leading white space
 * skipped); `undefined` when it does not start with it.
 */
export function afterLabel(body: string, label: string): string | undefined {
  const blank = (char: string | undefined): boolean => char !== undefined && /\s/u.test(char);
  let i = 0;
  while (blank(body[i])) i++;
  for (const char of label) {
    if (char === ' ') {
      if (!blank(body[i])) return undefined;
      while (blank(body[i])) i++;
    } else if (body.startsWith(char, i)) {
      i += char.length;
    } else {
      return undefined;
    }
  }
  return body.slice(i);
}
