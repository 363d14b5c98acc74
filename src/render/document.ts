/**
 * Renderers of a document (spec: GET /v1/documents, Document response): for terminals a header and the elements, each
 * in the form a lawyer reads it — a statute's articles with their bold label (`Чл. 45.`) running into the text, a
 * decision's paragraphs numbered in a margin (`¶ 3`) — or one element with the articles of the same act it refers to;
 * for pipes one tab-separated line per element. Pure functions of the data: they return strings and never write.
 * Every string of the document passes through the sanitizer: `sanitizeLine`, `tsvLines` (`sanitizeTsvField`), or
 * `wrapText`.
 */
import { Chalk } from 'chalk';
import type { DocumentElement, DocumentResponse } from '../contract/types.js';
import { elementLabelOf, elementTextOf } from './fields.js';
import type { View } from '../io/printer.js';
import { sanitizeLine, sanitizeText } from '../shared/sanitize.js';
import { elementEntries, elementRefOf, elementsOf, isCourtDecision } from '../legal/documents.js';
import type { ReferencedArticle } from '../shared/references.js';
import { describeRuling, rulingsOf } from '../legal/rulings.js';
import { afterLabel, caseOf, decisionOf, decisionPartsOf, documentFieldsOf as fieldsOf, elementCountOf as countOf, partNameOf, SECTION_TITLES, textValue as text, type DocumentField } from './document-fields.js';
import type { DecisionSection } from '../shared/decision-parts.js';
import { textStatusOf } from './fields.js';
import { renderDocumentMarkdown } from './markdown.js';
import { hang, labelledLines, plural, tsvLines, wrapText } from './text.js';

/** What the document view shows. */
export interface DocumentViewData {
  document: DocumentResponse;
  /** One element (`--article`, `--paragraph`): printed under a short header instead of the whole document. */
  selected?: {
    element: DocumentElement;
    /** The articles of the same act the element refers to (statutes only). */
    references?: ElementReferences;
    /**
     * The command that opens the newest § of the element's `amended_by` (sandbox: the §§ of the corpus that changed
     * this article), e.g. `pravo doc act-78179 --collection bg-laws --article §12`; absent when it has none.
     */
    amendedByOpen?: string;
    /**
     * The command that opens the paragraph of the newest decision of the element's `cited_by` (sandbox: the decisions of
     * the corpus that cite this article), e.g. `pravo doc ks-2016-12-13-2015 --collection c --paragraph 59`.
     */
    citedByOpen?: string;
    /** Per ruling of the element's `rulings` (in their order), the command that opens the decision; null when it is not served. */
    rulingOpens?: (string | null)[];
    /** The command that opens the first provision of a decision paragraph's `cites`, e.g. `pravo doc akn-1968-nk --collection c --article 79`. */
    citesOpen?: string;
  };
}

/** The references listed under one article. */
export interface ElementReferences {
  /** Articles of the same act, in the order first cited (see `referencedArticles`). */
  articles: ReferencedArticle[];
  /** How many citations of other acts the text holds (not listed). */
  external: number;
  /** The command that opens one of them, without the ref: `pravo doc 1 --article`. */
  openCommand: string;
}

/** Options of {@link renderDocumentText}. */
export interface DocumentTextOptions {
  /** Terminal width in columns; text is wrapped to it (minimum 40). */
  width: number;
  /** Whether to use ANSI colours and bold. */
  color: boolean;
}

const MIN_WIDTH = 40;
type Painter = InstanceType<typeof Chalk>;

/**
 * The document for a terminal. The whole document: the title (bold), its fields (type, date, author, url; for court
 * decisions also court, case, decision, department or formation, panel with the chair first, reporting judge), the
 * number of elements, then every element; a decision's operative part and each opinion printed with it start under a
 * heading line (`── Operative part (диспозитив) ───`, `── Dissenting opinion (особено мнение) ───`). One element: the
 * title and a one-line summary (for a decision's paragraph also the part it is in), the element, and for an article of
 * a statute the articles of the same act it cites ("Refers to …"), marking those the document does not have.
 */
export function renderDocumentText(data: DocumentViewData, options: DocumentTextOptions): string {
  const c = new Chalk({ level: options.color ? 1 : 0 });
  const width = Math.max(MIN_WIDTH, options.width);
  const document = data.document;
  const decision = isCourtDecision(document);
  const elements = elementsOf(document);
  const lines: string[] = [];
  if (data.selected) {
    lines.push(...wrapText(document.title ?? '', width).map((line) => c.bold(line)));
    lines.push(...wrapText(summaryOf(document, decision), width).map((line) => c.dim(line)));
    if (decision) lines.push(...selectedPartLine(elements, data.selected.element, width, c));
    lines.push(...renderRulings(data.selected.element, data.selected.rulingOpens ?? [], width, c));
    lines.push('', ...renderElement(data.selected.element, decision, width, gutterOf([data.selected.element]), c));
    if (data.selected.references) lines.push(...renderReferences(data.selected.references, width, c));
    lines.push(...renderCitedBy(data.selected.element, data.selected.citedByOpen, width, c));
    lines.push(...renderCites(data.selected.element, data.selected.citesOpen, width, c));
    lines.push(...renderAmendedBy(data.selected.element, data.selected.amendedByOpen, width, c));
    lines.push(...renderAmends(data.selected.element, width, c));
  } else {
    lines.push(...wrapText(document.title ?? '', width).map((line) => c.bold(line)));
    lines.push(...renderFields(fieldsOf(document, decision), width, c));
    lines.push(c.dim('─'.repeat(width)));
    lines.push(c.dim(elements.length === 0 ? 'No elements (no structured content): --json prints the whole response.' : countOf(elements, decision)));
    const gutter = gutterOf(elements);
    // A decision's operative part and opinions start under a heading (`decisionParts`, shared/decision-parts.ts).
    const parts = decision ? decisionPartsOf(elements) : [];
    elements.forEach((element, i) => {
      const opens = parts[i]?.opens;
      if (opens !== undefined) lines.push('', sectionHeading(opens, width, c));
      lines.push('', ...renderRulingMarks(element, width, c), ...renderElement(element, decision, width, gutter, c));
    });
  }
  return `${lines.join('\n')}\n`;
}

/** Field rows: the name dim in a column, the value wrapped beside it (a link whole on its line). */
function renderFields(fields: DocumentField[], width: number, c: Painter): string[] {
  return labelledLines(fields.map(([name, value]) => [name, value] as const), width, c.dim);
}

/** One line under a single element's title: `Закон · 2005-12-14` or `Решение № 116 · 2024-02-15 · ВКС · н. д. № …`. */
function summaryOf(document: DocumentResponse, decision: boolean): string {
  const parts = decision
    ? [decisionOf(document) ?? text(document.type), text(document.date), text(document.court), caseOf(document)]
    : [text(document.type), text(document.date), textStatusOf(document)];
  return parts.filter((part) => part !== undefined).join(' · ');
}

/**
 * The heading line where a section of a decision starts, across the width: `── Operative part (диспозитив) ───…`, the
 * title bold (`SECTION_TITLES`); readable without colour. The title alone where the width leaves no room for the rules.
 */
function sectionHeading(section: DecisionSection, width: number, c: Painter): string {
  const title = SECTION_TITLES.en[section];
  const rule = width - [...title].length - 4;
  return rule < 1 ? c.bold(title) : `${c.dim('──')} ${c.bold(title)} ${c.dim('─'.repeat(rule))}`;
}

/**
 * Under one paragraph's title, which part of the decision it is in (`Part of the decision: operative part
 * (диспозитив)`); nothing when the paragraph is not found among the document's elements.
 */
function selectedPartLine(elements: DocumentElement[], element: DocumentElement, width: number, c: Painter): string[] {
  let index = elements.indexOf(element);
  if (index < 0 && typeof element.excerpt_id === 'string') index = elements.findIndex((e) => e.excerpt_id === element.excerpt_id);
  const name = index < 0 ? undefined : partNameOf(decisionPartsOf(elements), index);
  return name === undefined ? [] : wrapText(`Part of the decision: ${name}`, width).map((line) => c.dim(line));
}

/** Width of the paragraph margin of a decision: the longest label and two spaces (at most 10). */
function gutterOf(elements: DocumentElement[]): number {
  return Math.min(10, Math.max(0, ...elements.map((e) => [...sanitizeLine(elementLabelOf(e))].length)) + 2);
}

/**
 * One element. A decision's paragraph: its label (`¶ 3`) in a margin of `gutter` columns, the text wrapped beside it.
 * A statute's article: the label bold, running into the text when the text starts with it (`Чл. 45. (1) …`), else on
 * a line of its own; each line of the text (алинеи, точки) starts a new line.
 */
function renderElement(element: DocumentElement, decision: boolean, width: number, gutter: number, c: Painter): string[] {
  const label = sanitizeLine(elementLabelOf(element));
  const body = sanitizeText(elementTextOf(element));
  if (decision) {
    const room = Math.max(20, width - gutter);
    const wrapped = body.split('\n').flatMap((line) => wrapText(line, room));
    if (wrapped.length === 0) return [c.dim(label)];
    return hang(c.dim(label.padEnd(gutter)), gutter, wrapped);
  }
  const heading = typeof element.heading === 'string' && element.heading.trim() !== '' ? wrapText(element.heading, width).map((line) => c.dim(line)) : [];
  const rest = label === '' ? undefined : afterLabel(body, label);
  if (rest !== undefined) {
    const [first = '', ...others] = rest.split('\n');
    const head = wrapText(`${label} ${first}`, width);
    if (head[0]?.startsWith(label)) head[0] = `${c.bold(label)}${head[0].slice(label.length)}`;
    return [...heading, ...head, ...others.flatMap((line) => wrapText(line, width))];
  }
  const lines = body.split('\n').flatMap((line) => wrapText(line, width));
  return [...heading, ...(label === '' ? lines : [c.bold(label), ...lines])];
}

/** How an element is named in a ruling's sentence: `чл. 79`, `§ 35`, else its label. */
function provisionName(element: DocumentElement): string {
  return sanitizeLine(elementLabelOf(element)).replace(/\.$/u, '').replace(/^Чл\./u, 'чл.') || 'this provision';
}

/**
 * The rulings above one element (sandbox: `rulings`, the Constitutional Court declared it or a part of it
 * unconstitutional): one sentence each, with the decision's date, where it was read, and the command that opens the
 * decision; nothing when there is none.
 */
function renderRulings(element: DocumentElement, opens: readonly (string | null)[], width: number, c: Painter): string[] {
  const rulings = rulingsOf(element);
  if (rulings.length === 0) return [];
  const lines: string[] = [''];
  rulings.forEach((ruling, i) => {
    const read = ruling.sources.length === 0 ? '' : ` Read from ${ruling.sources.map((s) => (s === 'note' ? "the act's note" : s === 'decision' ? "the decision's operative part" : sanitizeLine(s))).join(' and ')}.`;
    lines.push(...wrapText(`${sanitizeLine(describeRuling(ruling, provisionName(element)))}.${read}`, width).map((line) => c.red(line)));
    const open = opens[i];
    if (open) lines.push(...wrapText(`Open the decision with: ${open}`, width).map((line) => c.dim(line)));
    else if (ruling.documentId === null) lines.push(...wrapText('The decision is not in the corpus.', width).map((line) => c.dim(line)));
  });
  return lines;
}

/** In the whole document, one line above an element whose provision (or a part) was declared unconstitutional. */
function renderRulingMarks(element: DocumentElement, width: number, c: Painter): string[] {
  return rulingsOf(element).flatMap((ruling) => wrapText(`[${sanitizeLine(describeRuling(ruling, provisionName(element)))}]`, width).map((line) => c.red(line)));
}

/** How many decisions the "Cited by" block lists before saying how many more there are. */
export const CITED_BY_LISTED = 10;

/**
 * The "Cited by …" block under an article (sandbox: `cited_by`, the decisions of the corpus that cite it, newest
 * first): date, court, decision and case, the paragraph, how often; the first {@link CITED_BY_LISTED}, then how many
 * more; and the command that opens the newest. Nothing when there is none.
 */
function renderCitedBy(element: DocumentElement, open: string | undefined, width: number, c: Painter): string[] {
  const entries = elementEntries(element, 'cited_by');
  if (entries.length === 0) return [];
  const heading = entries.length === 1 ? 'Cited by this decision of the corpus:' : `Cited by ${entries.length} decisions of the corpus, newest first:`;
  const lines = ['', c.bold(heading)];
  for (const entry of entries.slice(0, CITED_BY_LISTED)) {
    const date = entryText(entry, 'date');
    const gutter = 2 + (date === '' ? 0 : date.length + 2);
    const count = typeof entry.count === 'number' && entry.count > 1 ? `, ${entry.count} times` : '';
    const what = `${entryText(entry, 'title')} (${entryText(entry, 'document_id')}), ${entryText(entry, 'label')}${count}`;
    lines.push(...hang(`  ${date === '' ? '' : `${c.dim(date)}  `}`, gutter, wrapText(what.replace(/\s+/g, ' ').trim(), width - gutter)));
  }
  if (entries.length > CITED_BY_LISTED) lines.push(c.dim(`  … and ${entries.length - CITED_BY_LISTED} more (--json lists them all).`));
  if (open !== undefined) lines.push(...wrapText(`Open the newest with: ${open}`, width).map((line) => c.dim(line)));
  return lines;
}

/**
 * The "Cites …" block under a decision's paragraph (sandbox: `cites`, the provisions of the corpus's acts it cites,
 * resolved): each citation as written, the act's title and `document_id`; and the command that opens the first.
 */
function renderCites(element: DocumentElement, open: string | undefined, width: number, c: Painter): string[] {
  const entries = elementEntries(element, 'cites');
  if (entries.length === 0) return [];
  const lines = ['', c.bold(entries.length === 1 ? 'Cites this provision of the corpus:' : `Cites these ${entries.length} provisions of the corpus:`)];
  for (const entry of entries) {
    lines.push(...hang('  ', 2, wrapText(`${entryText(entry, 'text')}: ${entryText(entry, 'title')} (${entryText(entry, 'document_id')})`, width - 2)));
  }
  if (open !== undefined) lines.push(...wrapText(`Open the first with: ${open}`, width).map((line) => c.dim(line)));
  return lines;
}

/** What a § did to an article, as the amendment lists say it. */
const ACTION_WORDS: Readonly<Record<string, string>> = { amends: 'amended', inserts: 'inserted', repeals: 'repealed' };

/** A string of an entry, sanitized for one line; `''` when absent. */
function entryText(entry: Record<string, unknown>, key: string): string {
  const value = entry[key];
  return typeof value === 'string' ? sanitizeLine(value) : '';
}

/**
 * The "Changed by …" block under an article (sandbox: `amended_by`, the §§ of the corpus that changed it, newest
 * first): one entry per §, its date, what it did, the § and the amending act's title; nothing when there is none.
 */
function renderAmendedBy(element: DocumentElement, open: string | undefined, width: number, c: Painter): string[] {
  const entries = elementEntries(element, 'amended_by');
  if (entries.length === 0) return [];
  const lines = ['', c.bold(`Changed by ${entries.length === 1 ? 'this § of the corpus' : `these ${entries.length} §§ of the corpus, newest first`}:`)];
  for (const entry of entries) {
    const action = ACTION_WORDS[entryText(entry, 'action')] ?? entryText(entry, 'action');
    const date = entryText(entry, 'date');
    const gutter = 2 + (date === '' ? 0 : date.length + 2);
    const what = `${action} by ${entryText(entry, 'label')} ${entryText(entry, 'title')} (${entryText(entry, 'document_id')})`;
    lines.push(...hang(`  ${date === '' ? '' : `${c.dim(date)}  `}`, gutter, wrapText(what.replace(/\s+/g, ' ').trim(), width - gutter)));
  }
  if (open !== undefined) lines.push(...wrapText(`Open the newest with: ${open}`, width).map((line) => c.dim(line)));
  return lines;
}

/**
 * The "Changes …" block under a § of an amending act (sandbox: `amends`): each act and article it changes, and
 * whether the corpus has that act; nothing when the element has none.
 */
function renderAmends(element: DocumentElement, width: number, c: Painter): string[] {
  const entries = elementEntries(element, 'amends');
  if (entries.length === 0) return [];
  const lines = ['', c.bold('Changes:')];
  for (const entry of entries) {
    const action = ACTION_WORDS[entryText(entry, 'action')] ?? entryText(entry, 'action');
    const id = entryText(entry, 'document_id');
    const where = id === '' ? '(act not in the corpus)' : `(${id})`;
    lines.push(...hang('  ', 2, wrapText(`чл. ${entryText(entry, 'article')} ${action}, ${entryText(entry, 'act')} ${where}`, width - 2)));
  }
  return lines;
}

/** The "Refers to …" block under one article; nothing when the text cites nothing. */
function renderReferences(references: ElementReferences, width: number, c: Painter): string[] {
  const lines: string[] = [];
  const { articles, external } = references;
  if (articles.length > 0) {
    const names = articles.map((a) => (a.through === undefined ? `чл. ${sanitizeLine(a.ref)}` : `чл. ${sanitizeLine(a.ref)} – ${sanitizeLine(a.through)}`));
    const column = Math.max(...names.map((name) => [...name].length)) + 3;
    lines.push('', c.bold('Refers to these articles of this act:'));
    articles.forEach((article, i) => {
      const what =
        article.through !== undefined
          ? c.dim(`(${article.count ?? 0} articles of this document)`)
          : article.exists
            ? article.details.map(sanitizeLine).join('; ')
            : c.dim('(not in this document)');
      const name = names[i]!;
      lines.push(`  ${name}${what === '' ? '' : `${' '.repeat(column - [...name].length)}${what}`}`.trimEnd());
    });
    const open = articles.find((a) => a.exists);
    if (open) lines.push(...wrapText(`Open one with: ${references.openCommand} ${open.ref}`, width).map((line) => c.dim(line)));
  }
  if (external > 0) {
    const what = `${external} ${external === 1 ? 'citation' : 'citations'} of other acts (… от Закона за …, НПК) ${external === 1 ? 'is' : 'are'} not listed.`;
    lines.push(...(articles.length > 0 ? [] : ['']), ...wrapText(what, width).map((line) => c.dim(line)));
  }
  return lines;
}

/**
 * One line per element, tab-separated, no colour, no header: `ref`, `label`, `text` (the whole text on one line).
 * Tabs, newlines and other white-space runs inside values become one space; control sequences are removed. With one
 * element selected, only its line. No elements: empty output.
 */
export function renderDocumentTsv(data: DocumentViewData): string {
  const elements = data.selected ? [data.selected.element] : elementsOf(data.document);
  return tsvLines(elements.map((element) => [elementRefOf(element), sanitizeLine(elementLabelOf(element)), sanitizeLine(elementTextOf(element))]));
}

/**
 * The document's view for the printer: the text (paged) on a terminal, TSV when piped, and with `--format md` the
 * Markdown of `renderDocumentMarkdown`.
 */
export const documentView: View<DocumentViewData> = {
  table: renderDocumentText,
  tsv: renderDocumentTsv,
  page: true,
  markdown: renderDocumentMarkdown,
  markdownSubject: ({ document, selected }) =>
    selected
      ? `${sanitizeLine(elementLabelOf(selected.element)) || 'the element'} (Markdown)`
      : `the document (${elementsOf(document).length === 0 ? 'no elements' : countOf(elementsOf(document), isCourtDecision(document))}, Markdown)`,
};
