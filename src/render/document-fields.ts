/**
 * The fields of a document (spec: Document response) as pravo names them for people, and how an element's text
 * follows its label: shared by the terminal view (`document.ts`) and the Markdown view (`markdown.ts`). Values come
 * back raw (unsanitized): renderers sanitize or escape them. Pure functions.
 */
import type { DocumentElement, DocumentResponse } from '../contract/types.js';
import { decisionParts, type DecisionParagraph, type DecisionPart, type DecisionSection } from '../shared/decision-parts.js';
import { bulgarianCount, elementLabelOf, elementTextOf, linkNoteOf, textAsOf, textStatusOf } from './fields.js';

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

/**
 * `Решение № 116` (type and number), or `№ 116`; an act the document says has no number (`decision_number` null, as
 * for many Определения of the КС and the ВАС) `Определение (no number)` (`Определение без номер` in Bulgarian);
 * `undefined` when neither is known.
 */
export function decisionOf(document: DocumentResponse, language: Language = 'en'): string | undefined {
  const number = textValue(document.decision_number);
  const type = textValue(document.type);
  if (number === undefined) {
    if (type === undefined || document.decision_number !== null) return undefined;
    return language === 'bg' ? `${type} без номер` : `${type} (no number)`;
  }
  return type === undefined ? `№ ${number}` : `${type} № ${number}`;
}

/** `наказателно дело № 1164/2023` (case kind and number), or whichever is there. */
export function caseOf(document: DocumentResponse): string | undefined {
  const number = textValue(document.case_number);
  const kind = textValue(document.case_kind);
  if (number === undefined) return kind;
  return kind === undefined ? `№ ${number}` : `${kind} № ${number}`;
}

/**
 * What the header says of a panel or a rapporteur the document records none of (`judges` [], `reporting_judge` null):
 * the text may still name them where the source could not be read (the corpus's three acts without a readable panel).
 */
const NOT_RECORDED: Record<Language, string> = { en: '(not recorded: read the text)', bg: '(не е вписан: вижте текста)' };

/**
 * The panel, the chair first (as the document lists it), marked `(chair)` (`(председател)` in Bulgarian); for a panel
 * of more than three, how many sit on it (`5 judges`, as a ВАС five-member panel, `12 judges` of the КС). A document
 * whose `judges` is an empty list (none recorded): `(not recorded: read the text)`. `undefined` without the field.
 */
export function panelOf(document: DocumentResponse, language: Language = 'en'): string | undefined {
  if (Array.isArray(document.judges) && document.judges.length === 0) return NOT_RECORDED[language];
  const judges = Array.isArray(document.judges) ? document.judges.filter((j): j is string => typeof j === 'string' && j.trim() !== '') : [];
  if (judges.length === 0) return undefined;
  const chair = language === 'bg' ? 'председател' : 'chair';
  const listed = judges.map((judge, i) => (i === 0 && judges.length > 1 ? `${judge} (${chair})` : judge)).join(', ');
  return judges.length > 3 ? `${listed} — ${judges.length} ${language === 'bg' ? 'съдии' : 'judges'}` : listed;
}

/** The reporting judge; `(not recorded: read the text)` when the document records none (`null`) and has a panel field. */
function reportingJudgeOf(document: DocumentResponse, language: Language): string | undefined {
  const judge = textValue(document.reporting_judge);
  if (judge !== undefined) return judge;
  return document.reporting_judge === null && Array.isArray(document.judges) ? NOT_RECORDED[language] : undefined;
}

/**
 * Whether a decision's `department` names a kind of panel rather than a department: `Петчленен състав`, `Петчленен
 * състав – II колегия` (the ВАС's five-member panels), as against `Четвърто отделение`.
 */
function isPanelKind(department: string): boolean {
  return /състав/iu.test(department);
}

/** The field names of {@link documentFieldsOf} in each language, and how a date of entry into force is added. */
const FIELD_NAMES: Record<Language, Record<'type' | 'date' | 'text' | 'court' | 'case' | 'decision' | 'department' | 'formation' | 'panel' | 'judge' | 'author' | 'url' | 'page', string> & { inForce: string }> = {
  en: { type: 'Type', date: 'Date', text: 'Text', court: 'Court', case: 'Case', decision: 'Decision', department: 'Department', formation: 'Formation', panel: 'Panel', judge: 'Reporting judge', author: 'Author', url: 'URL', page: 'Page', inForce: 'in force' },
  bg: { type: 'Вид', date: 'Дата', text: 'Текст', court: 'Съд', case: 'Дело', decision: 'Акт', department: 'Отделение', formation: 'Вид състав', panel: 'Състав', judge: 'Докладчик', author: 'Автор', url: 'Адрес', page: 'Страница', inForce: 'в сила от' },
};

/** One field of a document's header: `key` names it whatever the language, `name` as shown, `value` raw. */
export type DocumentField = [name: string, value: string, key: keyof (typeof FIELD_NAMES)['en']];

/**
 * The header's fields of a document, in order, as `[name, value, key]`: `Type`, `Date` (with `(in force …)` when the
 * date of entry into force differs), `Text` (what date the text is current as of: `textStatusOf`), for a court decision
 * also `Court`, `Case`, `Decision` (`Определение (no number)` for an unnumbered act: `decisionOf`), `Department` (or
 * `Formation` when it names a kind of panel: `Петчленен състав – II колегия`), `Panel` (`panelOf`: the chair first,
 * the number of judges of a larger panel, `(not recorded: read the text)` for an empty one), `Reporting judge` (that
 * too when the document records none), then `Author`, `URL` and `Page` (what the page at the URL shows
 * when it is not this text: `linkNoteOf`); absent ones left out. In Bulgarian (`bg`, a memo's Markdown): `Вид`, `Дата`
 * (`(в сила от …)`), `Текст` (`към 10.02.2026`, `както е обнародван, …`: `textAsOf`), `Съд`, `Дело`, `Акт`,
 * `Отделение` or `Вид състав`, `Състав` (`(председател)`), `Докладчик`, `Автор`, `Адрес`, `Страница`. Values raw.
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
    const department = textValue(document.department);
    fields.push(
      ['court', textValue(document.court)],
      ['case', caseOf(document)],
      ['decision', decisionOf(document, language)],
      [department !== undefined && isPanelKind(department) ? 'formation' : 'department', department],
      ['panel', panelOf(document, language)],
      ['judge', reportingJudgeOf(document, language)],
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

/** The heading a renderer writes where a section of a decision starts (`DecisionParagraph.opens`), by language. */
export const SECTION_TITLES: Record<Language, Record<DecisionSection, string>> = {
  en: {
    operative: 'Operative part (диспозитив)',
    dissent: 'Dissenting opinion (особено мнение)',
    dissents: 'Dissenting opinions (особени мнения)',
    separate: 'Separate opinion (становище)',
    appended: 'Not part of the act (printed after it)',
  },
  bg: {
    operative: 'Диспозитив',
    dissent: 'Особено мнение',
    dissents: 'Особени мнения',
    separate: 'Становище',
    appended: 'Не е част от акта (отпечатано след него)',
  },
};

/** What a paragraph of each part is, for the view of one paragraph (`pravo doc … --paragraph`), by language. */
const PART_NAMES: Record<Language, Record<Exclude<DecisionPart, 'dissent'>, string>> = {
  en: { header: 'header (title and panel)', reasons: 'reasons (мотиви)', operative: 'operative part (диспозитив)', signatures: 'signatures', appended: 'not part of the act (printed after it)' },
  bg: { header: 'въведение (заглавие и състав)', reasons: 'мотиви', operative: 'диспозитив', signatures: 'подписи', appended: 'не е част от акта (отпечатано след него)' },
};

/** The parts of a decision's elements, in order (`decisionParts` over their texts, `shared/decision-parts.ts`). */
export function decisionPartsOf(elements: readonly DocumentElement[]): DecisionParagraph[] {
  return decisionParts(elements.map(elementTextOf));
}

/**
 * What element `index` of a decision is, in words: `operative part (диспозитив)`, `reasons (мотиви)`, for a paragraph
 * of an opinion the opinion (`dissenting opinion (особено мнение)`, `separate opinion (становище)`); in Bulgarian
 * (`bg`) `диспозитив`, `мотиви`, `особено мнение` …. `undefined` for an index out of range.
 */
export function partNameOf(parts: readonly DecisionParagraph[], index: number, language: Language = 'en'): string | undefined {
  const part = parts[index]?.part;
  if (part === undefined) return undefined;
  if (part !== 'dissent') return PART_NAMES[language][part];
  let opened: DecisionSection = 'dissent';
  for (let i = index; i >= 0; i--) {
    const opens = parts[i]?.opens;
    if (opens !== undefined) {
      opened = opens === 'dissents' ? 'dissent' : opens;
      break;
    }
  }
  const title = SECTION_TITLES[language][opened];
  return language === 'en' ? title.charAt(0).toLowerCase() + title.slice(1) : title.toLowerCase();
}
