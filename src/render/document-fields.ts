/**
 * The fields of a document (spec: Document response) as pravo names them for people, and how an element's text
 * follows its label: shared by the terminal view (`document.ts`) and the Markdown view (`markdown.ts`). Values come
 * back raw (unsanitized): renderers sanitize or escape them. Pure functions.
 */
import type { DocumentElement, DocumentResponse } from '../contract/types.js';
import { bulgarianCount, elementLabelOf, linkNoteOf, textAsOf, textStatusOf } from './fields.js';

/** The words a document's header is written in: English for the terminal, Bulgarian for a memo's Markdown. */
export type Language = 'en' | 'bg';

/** The nouns of {@link elementCountOf}, singular and plural, and the word joining two counts. */
const COUNT_WORDS: Record<Language, { paragraph: [string, string]; element: [string, string]; article: [string, string]; and: string }> = {
  en: { paragraph: ['paragraph', 'paragraphs'], element: ['element', 'elements'], article: ['article', 'articles'], and: 'and' },
  bg: { paragraph: ['абзац', 'абзаца'], element: ['елемент', 'елемента'], article: ['член', 'члена'], and: 'и' },
};

/**
 * `303 articles`, `47 articles and 25 §§`, `122 §§`, `22 paragraphs`, `3 elements` (articles and §§ when every label
 * is `Чл. …` or `§ …`); in Bulgarian (`bg`) `303 члена`, `47 члена и 25 §§`, `22 абзаца`, `3 елемента`.
 */
export function elementCountOf(elements: DocumentElement[], decision: boolean, language: Language = 'en'): string {
  const words = COUNT_WORDS[language];
  const count = (n: number, [one, many]: [string, string]): string => (language === 'bg' ? bulgarianCount(n, one, many) : `${n} ${n === 1 ? one : many}`);
  if (decision) return count(elements.length, words.paragraph);
  const articles = elements.filter((e) => /^чл\./iu.test(elementLabelOf(e))).length;
  const sections = elements.filter((e) => /^§/u.test(elementLabelOf(e))).length;
  if (articles + sections !== elements.length) return count(elements.length, words.element);
  const parts = [articles > 0 ? count(articles, words.article) : '', sections > 0 ? `${sections} ${sections === 1 ? '§' : '§§'}` : ''];
  return parts.filter((p) => p !== '').join(` ${words.and} `);
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

/** The panel, the chair first (as the document lists it), marked `(chair)` (`(председател)` in Bulgarian). */
export function panelOf(document: DocumentResponse, language: Language = 'en'): string | undefined {
  const judges = Array.isArray(document.judges) ? document.judges.filter((j): j is string => typeof j === 'string' && j.trim() !== '') : [];
  if (judges.length === 0) return undefined;
  const chair = language === 'bg' ? 'председател' : 'chair';
  return judges.map((judge, i) => (i === 0 && judges.length > 1 ? `${judge} (${chair})` : judge)).join(', ');
}

/** The field names of {@link documentFieldsOf} in each language, and how a date of entry into force is added. */
const FIELD_NAMES: Record<Language, Record<'type' | 'date' | 'text' | 'court' | 'case' | 'decision' | 'department' | 'panel' | 'judge' | 'author' | 'url' | 'page', string> & { inForce: string }> = {
  en: { type: 'Type', date: 'Date', text: 'Text', court: 'Court', case: 'Case', decision: 'Decision', department: 'Department', panel: 'Panel', judge: 'Reporting judge', author: 'Author', url: 'URL', page: 'Page', inForce: 'in force' },
  bg: { type: 'Вид', date: 'Дата', text: 'Текст', court: 'Съд', case: 'Дело', decision: 'Акт', department: 'Отделение', panel: 'Състав', judge: 'Докладчик', author: 'Автор', url: 'Адрес', page: 'Страница', inForce: 'в сила от' },
};

/** One field of a document's header: `key` names it whatever the language, `name` as shown, `value` raw. */
export type DocumentField = [name: string, value: string, key: keyof (typeof FIELD_NAMES)['en']];

/**
 * The header's fields of a document, in order, as `[name, value, key]`: `Type`, `Date` (with `(in force …)` when the
 * date of entry into force differs), `Text` (what date the text is current as of: `textStatusOf`), for a court decision
 * also `Court`, `Case`, `Decision`, `Department`, `Panel`, `Reporting judge`, then `Author`, `URL` and `Page` (what the
 * page at the URL shows when it is not this text: `linkNoteOf`); absent ones left out. In Bulgarian (`bg`, a memo's
 * Markdown): `Вид`, `Дата` (`(в сила от …)`), `Текст` (`към 10.02.2026`, `както е обнародван, …`: `textAsOf`), `Съд`,
 * `Дело`, `Акт`, `Отделение`, `Състав` (`(председател)`), `Докладчик`, `Автор`, `Адрес`, `Страница`. Values raw.
 */
export function documentFieldsOf(document: DocumentResponse, decision: boolean, language: Language = 'en'): DocumentField[] {
  const names = FIELD_NAMES[language];
  const date = textValue(document.date);
  const inForce = textValue(document.in_force_date);
  const fields: [DocumentField[2], string | undefined][] = [
    ['type', textValue(document.type)],
    ['date', date !== undefined && inForce !== undefined && inForce !== date ? `${date} (${names.inForce} ${inForce})` : date],
    ['text', language === 'bg' ? textAsOf(document) : textStatusOf(document)],
  ];
  if (decision) {
    fields.push(
      ['court', textValue(document.court)],
      ['case', caseOf(document)],
      ['decision', decisionOf(document)],
      ['department', textValue(document.department)],
      ['panel', panelOf(document, language)],
      ['judge', textValue(document.reporting_judge)],
    );
  }
  const url = textValue(document.url);
  fields.push(['author', textValue(document.author)], ['url', url], ['page', url === undefined ? undefined : linkNoteOf(document, language)]);
  return fields.flatMap(([key, value]): DocumentField[] => (value === undefined ? [] : [[names[key], value, key]]));
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
