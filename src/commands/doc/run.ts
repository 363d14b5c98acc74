/**
 * `pravo doc` (spec: GET /v1/documents): the document named by a result number of the last search or by a
 * `document_id` and its `collection`, from the response cache when a fresh copy is there (each retrieval spends a unit
 * of the retrieval quota: a cached document is never retrieved again unless `--refresh`), then printed whole or one
 * element of it, as JSON, or written to a file.
 */
import type { DocumentQuery } from '../../api/resources/documents.js';
import type { DocumentElement, DocumentResponse } from '../../contract/types.js';
import { elementLabelOf, elementTextOf } from '../../render/fields.js';
import type { Factory } from '../../factory.js';
import { Printer } from '../../io/printer.js';
import { readOutputFormat } from '../../io/output-format.js';
import { sanitizeLine } from '../../shared/sanitize.js';
import { elementEntries, elementRefOf, elementsOf, isCourtDecision } from '../../legal/documents.js';
import { rulingsOf } from '../../legal/rulings.js';
import { findArticleCitations, referencedArticles } from '../../shared/references.js';
import type { DocumentViewData, ElementReferences } from '../../render/document.js';
import { parseTimeout } from '../../services/timeout.js';
import { currentRunTarget, shellQuote, targetFlagWords } from '../../services/targets.js';
import { parseDocumentArgument, rankedDocument, type DocumentArgument } from '../../services/results.js';
import { otherOccurrences, parseElementRequest, selectElement, type SelectedElement } from './select.js';
import { plural, timeAgo } from '../../render/text.js';

/** Options of `pravo doc` as commander parses them. */
export interface DocOptions {
  collection?: string;
  article?: string;
  paragraph?: string;
  json?: boolean;
  /** `--format md`: Markdown (`render/markdown.ts`); with `--out`, written to that file instead of the JSON. */
  format?: string;
  out?: string;
  refresh?: boolean;
  timeout?: string;
}

/** Default timeout of one retrieval, in ms (the transport's default; a document is one GET). */
export const DOC_TIMEOUT_MS = 30_000;

/**
 * Runs `pravo doc`; returns the exit code.
 * @throws UsageError before sending (bad argument or options, no such result, a result of another target); after the
 *   retrieval when the document has no such article or paragraph. EnvironmentError when `--out` cannot be written
 *   (checked before sending too). API errors from the client (404 `not_found`, 400 `invalid_request`, …).
 *   `--format md` (see `readOutputFormat`) prints Markdown, or with `--out` writes it instead of the JSON.
 */
export async function runDoc(factory: Factory, argument: string, options: DocOptions): Promise<number> {
  const format = readOutputFormat(options, 'pravo doc', true);
  const request = parseElementRequest(options);
  const timeoutMs = parseTimeout(options.timeout, DOC_TIMEOUT_MS);
  const parsed = parseDocumentArgument(argument, options.collection);
  const query: DocumentQuery = parsed.kind === 'id' ? parsed : await documentOfRank(factory, parsed.rank, options);
  if (options.out !== undefined) {
    const { checkOutputFile } = await import('../../io/output-file.js');
    await checkOutputFile(options.out, '--out');
  }
  const printer = new Printer(factory.io, options.json === true, format);

  const [{ cacheTtlMs }, { retrieveDocument }] = await Promise.all([import('../../services/cached-get.js'), import('../../services/documents.js')]);
  const { response, fromCache, storedAt } = await retrieveDocument(factory, query, {
    refresh: options.refresh === true,
    timeoutMs,
    spinner: 'Retrieving the document',
  });
  // Notes go first: on a terminal the output may go through the pager, and a note written while it runs lands
  // anywhere on the screen.
  if (fromCache) printer.note(cacheNote(storedAt, factory.clock.now()));

  const document = response.data;
  let selected: SelectedElement | undefined;
  if (request) {
    const cachedNote = cacheTtlMs(factory.env) > 0 ? 'The document is cached now: another --article or --paragraph spends nothing.' : '';
    selected = selectElement(document, request, cachedNote);
    const others = otherOccurrences(selected);
    if (others.length > 0) printer.note(duplicateNote(selected, others));
  }

  const raw = selected ? JSON.stringify(selected.element) : response.raw;
  // With --format md the printer writes the Markdown to --out's file.
  if (options.out !== undefined && format.markdown !== true) {
    const { writeOutputFile } = await import('../../io/output-file.js');
    await writeOutputFile(options.out, selected ? `${raw}\n` : raw);
    const what = selected
      ? `${sanitizeLine(elementLabelOf(selected.element)) || `element ${selected.index + 1}`} (JSON)`
      : `the document (${plural(elementsOf(document).length, 'element')}, JSON as the server sent it)`;
    printer.note(`Wrote ${what} to ${options.out}.`);
    return 0;
  }

  const data: DocumentViewData = { document };
  if (selected) {
    const references = isCourtDecision(document) ? undefined : referencesOf(selected, document, openCommand(factory, parsed));
    const newest = amendedByOf(selected.element)[0];
    const amendedByOpen = newest ? `${openCommand(factory, { kind: 'id', ...newest })} ${shellQuote(newest.ref)}` : undefined;
    const citing = citedByOf(selected.element)[0];
    const citedByOpen = citing ? openParagraphCommand(factory, citing.document_id, citing.collection, citing.excerpt_id) : undefined;
    const rulingOpens = rulingsOf(selected.element).map((ruling) =>
      ruling.documentId !== null && ruling.collection !== null ? openParagraphCommand(factory, ruling.documentId, ruling.collection, ruling.excerptId) : null,
    );
    const cited = citesOf(selected.element)[0];
    const citesOpen = cited ? `${openCommand(factory, { kind: 'id', document_id: cited.document_id, collection: cited.collection })} ${shellQuote(cited.ref)}` : undefined;
    data.selected = {
      element: selected.element,
      ...(citesOpen ? { citesOpen } : {}),
      ...(references ? { references } : {}),
      ...(amendedByOpen ? { amendedByOpen } : {}),
      ...(citedByOpen ? { citedByOpen } : {}),
      ...(rulingOpens.length > 0 ? { rulingOpens } : {}),
    };
  }
  await printer.response({ raw, data }, async () => (await import('../../render/document.js')).documentView);
  return 0;
}

/**
 * The document of result `rank` of the last search, refused when that search ran against another target (the ids
 * belong to it): see `rankedDocument`.
 */
async function documentOfRank(factory: Factory, rank: number, options: DocOptions): Promise<DocumentQuery> {
  const { loadLastResults } = await import('../../state/last-results.js');
  const last = await loadLastResults(factory.env);
  const kept = keptFlags(options);
  return rankedDocument(last, rank, await currentRunTarget(factory), (flags) => `pravo doc ${rank}${flags}${kept}`, 'doc');
}

/** The run's own options, for a suggested command: ` --article 45 --json`. */
function keptFlags(options: DocOptions): string {
  const flags: string[] = [];
  if (options.article !== undefined) flags.push('--article', shellQuote(options.article));
  if (options.paragraph !== undefined) flags.push('--paragraph', shellQuote(options.paragraph));
  if (options.json) flags.push('--json');
  if (options.format !== undefined) flags.push('--format', shellQuote(options.format));
  if (options.out !== undefined) flags.push('--out', shellQuote(options.out));
  if (options.refresh) flags.push('--refresh');
  if (options.timeout !== undefined) flags.push('--timeout', shellQuote(options.timeout));
  return flags.length === 0 ? '' : ` ${flags.join(' ')}`;
}

/** `pravo doc 1 --article` (with the run's target options), to which a ref is appended. */
function openCommand(factory: Factory, parsed: DocumentArgument): string {
  const words = ['pravo', 'doc'];
  if (parsed.kind === 'rank') words.push(String(parsed.rank));
  else words.push(shellQuote(parsed.document_id), '--collection', shellQuote(parsed.collection));
  return [...words, ...targetFlagWords(factory.globals), '--article'].join(' ');
}

/**
 * `pravo doc <id> --collection C --paragraph N` (with the run's target options): opens a decision at the paragraph of
 * `excerptId` (`ks-2016-12-13-2015:59` → 59), or the whole decision when the excerpt id names no paragraph number.
 */
function openParagraphCommand(factory: Factory, documentId: string, collection: string, excerptId: string | null): string {
  const words = ['pravo', 'doc', shellQuote(documentId), '--collection', shellQuote(collection), ...targetFlagWords(factory.globals)];
  const paragraph = excerptId === null ? undefined : /:(\d+)$/u.exec(excerptId)?.[1];
  return (paragraph === undefined ? words : [...words, '--paragraph', paragraph]).join(' ');
}

/** The provisions a decision paragraph's `cites` lists (sandbox), as what opens each; malformed entries are left out. */
function citesOf(element: DocumentElement): { document_id: string; collection: string; ref: string }[] {
  return elementEntries(element, 'cites').flatMap((entry) => {
    const { document_id, collection, ref } = entry;
    return typeof document_id === 'string' && typeof collection === 'string' && typeof ref === 'string' && ref !== '' ? [{ document_id, collection, ref }] : [];
  });
}

/** The decisions an element's `cited_by` lists (sandbox: newest first), as what opens each; malformed entries are left out. */
function citedByOf(element: DocumentElement): { document_id: string; collection: string; excerpt_id: string | null }[] {
  return elementEntries(element, 'cited_by').flatMap((entry) => {
    const { document_id, collection, excerpt_id } = entry;
    if (typeof document_id !== 'string' || typeof collection !== 'string') return [];
    return [{ document_id, collection, excerpt_id: typeof excerpt_id === 'string' ? excerpt_id : null }];
  });
}

/**
 * The §§ an element's `amended_by` lists (sandbox: the §§ of the corpus that changed the article, newest first), as
 * what opens each: `document_id`, `collection` and the § ref (from the excerpt id `act-78179:§12`). Entries without
 * those fields are left out.
 */
function amendedByOf(element: DocumentElement): { document_id: string; collection: string; ref: string }[] {
  return elementEntries(element, 'amended_by').flatMap((entry) => {
    const { document_id, collection, excerpt_id } = entry;
    if (typeof document_id !== 'string' || typeof collection !== 'string' || typeof excerpt_id !== 'string') return [];
    const ref = excerpt_id.slice(excerpt_id.lastIndexOf(':') + 1);
    return ref === '' ? [] : [{ document_id, collection, ref }];
  });
}

/**
 * The articles of the same act that a statute's element cites (its own label left out of the text), or `undefined`
 * when it cites none, of this act or another.
 */
function referencesOf(selected: SelectedElement, document: DocumentResponse, command: string): ElementReferences | undefined {
  const label = elementLabelOf(selected.element);
  const full = elementTextOf(selected.element);
  const body = label !== '' && full.trimStart().startsWith(label) ? full.trimStart().slice(label.length) : full;
  const citations = findArticleCitations(body);
  if (citations.length === 0) return undefined;
  // A § that changes another act cites that act's articles (sandbox: `amends`): they are listed under "Changes", not
  // taken for articles of this act.
  const changed = new Set(
    elementEntries(selected.element, 'amends').flatMap((entry) => (typeof entry.article === 'string' ? [entry.article] : [])),
  );
  const articles = referencedArticles(citations, elementsOf(document).map(elementRefOf), { self: selected.ref }).filter((a) => !changed.has(a.ref));
  const external = citations.filter((c) => c.scope === 'external').length;
  if (articles.length === 0 && external === 0) return undefined;
  return { articles, external, openCommand: command };
}

/**
 * The note of a document read from the cache: when it was retrieved (local time and age) and that `--refresh`
 * retrieves it again, spending a unit. One line.
 */
export function cacheNote(storedAt: number, now: number): string {
  const when = new Date(storedAt);
  const pad = (n: number): string => String(n).padStart(2, '0');
  const stamp = `${when.getFullYear()}-${pad(when.getMonth() + 1)}-${pad(when.getDate())} ${pad(when.getHours())}:${pad(when.getMinutes())}`;
  return `From the cache: retrieved ${stamp} (${timeAgo(now - storedAt)}); --refresh retrieves it again, which spends a retrieval unit.`;
}

/** The note when the printed element's ref is not unique in the document. */
function duplicateNote(selected: SelectedElement, others: string[]): string {
  const ref = sanitizeLine(selected.ref);
  const how = others.map((value) => `--article ${value}`).join(', ');
  return (
    `${selected.sameRef} elements of this document are numbered ${ref} (an act can quote an article of another act); ` +
    `this is number ${selected.occurrence} of them. ${others.length === 1 ? 'The other' : 'The others'}: ${how}.`
  );
}
