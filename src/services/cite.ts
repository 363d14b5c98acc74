/**
 * `pravo cite`: checking every citation of a memo against the service (spec: POST /v1/search finds the act; GET
 * /v1/documents, `elements`, holds the provision). One search per act the memo names and one retrieval per document,
 * both through the response cache: a memo citing one act 40 times searches and retrieves it once, and running the
 * check again spends nothing while the cache is fresh (24 h, `PRAVO_CACHE_TTL`; `--refresh` asks again). Before
 * anything is sent, the units it may spend are said and, on a terminal, asked about (`--yes` for scripts).
 * The reading and the verdicts are `legal/cite.ts`; this module plans, asks, sends and counts.
 */
import { PATHS } from '../contract/paths.js';
import { KNOWN_SOURCE_TYPES, type DocumentResponse, type SearchRequest, type SearchResponse } from '../contract/types.js';
import { UsageError } from '../errors/cli.js';
import type { Factory } from '../factory.js';
import type { Printer } from '../io/printer.js';
import {
  checkProvision,
  findMemoCitations,
  matchAct,
  resultRefsOf,
  type ActMatch,
  type CitedDocument,
  type CiteEntry,
  type CiteReport,
  type MemoCitation,
  type NamedAct,
} from '../legal/cite.js';
import { booleanField, stringField } from '../render/fields.js';
import { AMENDING_TITLE, nominativeTitle } from '../shared/act-titles.js';
import { plural } from '../render/text.js';
import { cachedBody, cachedGet } from './cached-get.js';
import { retrieveDocument, isDocumentCached } from './documents.js';
import { runPool } from '../shared/pool.js';
import { waitWithSpinner } from './waiting.js';

/** Results asked for per act: enough for the act, its namesakes and the acts amending it. */
export const ACT_SEARCH_RESULTS = 10;
/** Searches (or retrievals) in flight at once. */
export const CITE_CONCURRENCY = 4;

/** The search that finds a named act: its title (or abbreviation), statutes only. */
function actSearch(act: NamedAct): SearchRequest {
  return { query: act.query, source_types: [KNOWN_SOURCE_TYPES.laws], max_results: ACT_SEARCH_RESULTS };
}

/** The cache's view of an act's search: the search path and its request fields. */
function searchKey(request: SearchRequest): { path: string; query: Record<string, string | number> } {
  return {
    path: PATHS.search,
    query: { query: request.query, source_types: (request.source_types ?? []).join(','), max_results: request.max_results ?? '' },
  };
}

/**
 * The search for an act, from the response cache when a fresh copy is there (the search is then not sent), else sent
 * and cached. The cache keeps searches only for `pravo cite`: `pravo search` always asks.
 * @throws the errors of `client.search.create`; ConfigError for a bad `PRAVO_CACHE_TTL`.
 */
async function searchAct(factory: Factory, act: NamedAct, options: { refresh: boolean; timeoutMs?: number }) {
  const { parseSearchResponse } = await import('../api/shapes.js');
  const request = actSearch(act);
  return cachedGet<SearchResponse>(factory, {
    ...searchKey(request),
    refresh: options.refresh,
    parse: parseSearchResponse,
    fetch: async () => {
      const client = await factory.client();
      return client.search.create(request, { signal: factory.signal, ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}) });
    },
  });
}

/** Options of {@link checkMemo}. */
export interface CheckOptions {
  /** Send without asking (scripts). */
  yes: boolean;
  /** Search and retrieve again even when cached. */
  refresh: boolean;
  /** Timeout of each request, in ms (default: the transport's). */
  timeoutMs?: number;
  /** The memo's name in messages (`memo.md`, `stdin`). */
  name: string;
}

/**
 * Checks every citation of `text` (see the module comment): finds them, says on stderr how many searches and
 * retrievals that may spend, asks on a terminal when any is not cached (unless `yes`), finds each act, retrieves each
 * document found, and gives every citation its verdict.
 * @returns the report, or `undefined` when the user declined at the prompt (nothing was sent).
 * @throws UsageError (nothing sent) when something would be spent, there is no terminal to ask on and no `yes`; the
 *   errors of the search and the retrieval (a rejected key, an exhausted quota, a timeout: what was searched and
 *   retrieved before is cached, so running again does not spend it twice); CancelledError / UserCancelledError on
 *   Ctrl-C; ConfigError for a bad `PRAVO_CACHE_TTL`.
 */
export async function checkMemo(factory: Factory, printer: Printer, text: string, options: CheckOptions): Promise<CiteReport | undefined> {
  const { citations, acts } = findMemoCitations(text);
  const report: CiteReport = { citations: [], documents_retrieved: 0, documents_from_cache: 0, searches_sent: 0, searches_from_cache: 0, documents: [] };
  if (citations.length === 0) {
    printer.note(`No citations of Bulgarian legal provisions found in ${options.name} (e.g. „чл. 45 от ЗЗД“, „§ 1, т. 5 от ДР на ЗДДС“).`);
    return report;
  }

  // What may be spent, from what the cache holds (read once, nothing sent): a search per act not cached, then a
  // retrieval per act found (documents cached spend nothing).
  const { parseSearchResponse } = await import('../api/shapes.js');
  const cachedResults = options.refresh
    ? acts.map(() => undefined)
    : await Promise.all(acts.map((act) => cachedBody(factory, { ...searchKey(actSearch(act)), parse: parseSearchResponse })));
  const searches = cachedResults.filter((results) => results === undefined).length;
  const nothingSent = acts.length === 0 || (searches === 0 && (await foundDocumentsCached(factory, acts, cachedResults)));
  printer.note(
    `${options.name}: ${plural(citations.length, 'citation')}${acts.length > 0 ? ` of ${plural(acts.length, 'act')}` : ', none naming an act'}. ` +
      (nothingSent
        ? 'Everything they need is cached: nothing is sent.'
        : `Checking them needs ${plural(acts.length, 'search', 'searches')} (${acts.length - searches} cached, ${searches} to send) and up to ` +
          `${plural(acts.length, 'document retrieval')} (a retrieval unit each, unless cached).`),
  );
  if (!nothingSent && !options.yes) {
    if (!factory.io.canPrompt) {
      throw new UsageError(
        'Checking the citations sends searches and retrieves documents, which spend search and retrieval units (cached ones spend nothing), and there is no terminal to ask on: add --yes to allow it.',
      );
    }
    const { confirm } = await import('@inquirer/prompts');
    const go = await confirm(
      { message: `Send up to ${plural(searches, 'search', 'searches')} and ${plural(acts.length, 'document retrieval')}?`, default: true },
      { input: factory.io.stdin, output: factory.io.promptOutput, signal: factory.signal },
    );
    if (!go) {
      printer.note('Nothing was sent; the citations were not checked.');
      return undefined;
    }
  }

  try {
    return await checkAll(factory, citations, acts, cachedResults, report, options);
  } catch (error) {
    const kept = report.searches_sent + report.documents_retrieved;
    if (kept > 0) {
      printer.note(
        `The check stopped. What it had sent is cached (${plural(report.searches_sent, 'search', 'searches')}, ${plural(report.documents_retrieved, 'document')}): ` +
          'checking the memo again does not spend it twice.',
      );
    }
    throw error;
  }
}

/**
 * The searches and retrievals of {@link checkMemo}, counted in `report`, and the verdicts. `cachedResults[i]`: the
 * search results of `acts[i]` already read from the cache (that search is not asked for again).
 */
async function checkAll(
  factory: Factory,
  citations: readonly MemoCitation[],
  acts: readonly NamedAct[],
  cachedResults: ReadonlyArray<SearchResponse | undefined>,
  report: CiteReport,
  options: CheckOptions,
): Promise<CiteReport> {
  // The acts, one search each, a few at a time (a search of the service takes 10 to 40 s).
  const matches = new Map<string, ActMatch>();
  let done = 0;
  await waitWithSpinner(
    factory,
    () => `Finding the acts: ${done} of ${acts.length} done`,
    () =>
      runPool([...acts.keys()], CITE_CONCURRENCY, async (i) => {
        const act = acts[i]!;
        let results = cachedResults[i];
        if (results !== undefined) report.searches_from_cache++;
        else {
          const result = await searchAct(factory, act, options);
          if (result.fromCache) report.searches_from_cache++;
          else report.searches_sent++;
          results = result.response.data;
        }
        matches.set(act.key, matchAct(act, resultRefsOf(results.results)));
        done++;
      }, () => factory.signal.aborted),
  );

  // The documents found, one retrieval each.
  const wanted = distinctDocuments(acts, matches);
  const documents = new Map<string, DocumentResponse>();
  done = 0;
  await waitWithSpinner(
    factory,
    () => `Retrieving the acts' texts: ${done} of ${wanted.length} done`,
    () =>
      runPool(wanted, CITE_CONCURRENCY, async (query) => {
        const result = await retrieveDocument(factory, query, { refresh: options.refresh, ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}) });
        if (result.fromCache) report.documents_from_cache++;
        else report.documents_retrieved++;
        documents.set(pairKey(query.document_id, query.collection), result.response.data);
        done++;
      }, () => factory.signal.aborted),
  );
  report.documents = wanted.map((query) => citedDocument(query, documents.get(pairKey(query.document_id, query.collection))!));

  report.citations = citations.map((citation) => entryOf(citation, citation.act ? matches.get(citation.act.key) : undefined, documents));
  return report;
}

/** Whether the document of every act found in its cached search results is cached too. Reads the cache only. */
async function foundDocumentsCached(factory: Factory, acts: readonly NamedAct[], cachedResults: ReadonlyArray<SearchResponse | undefined>): Promise<boolean> {
  for (const [i, act] of acts.entries()) {
    const match = matchAct(act, resultRefsOf(cachedResults[i]?.results));
    if (match.kind === 'found' && !(await isDocumentCached(factory, match.document))) return false;
  }
  return true;
}

/** Key of a document: `document_id` and `collection` joined by U+0000. */
function pairKey(document_id: string, collection: string): string {
  return `${document_id}\u0000${collection}`;
}

/** The documents the acts were found to be, each once, in the order the acts were first named. */
function distinctDocuments(acts: readonly NamedAct[], matches: ReadonlyMap<string, ActMatch>): Array<{ document_id: string; collection: string }> {
  const seen = new Set<string>();
  const wanted: Array<{ document_id: string; collection: string }> = [];
  for (const act of acts) {
    const match = matches.get(act.key);
    if (match?.kind !== 'found') continue;
    const key = pairKey(match.document.document_id, match.document.collection);
    if (seen.has(key)) continue;
    seen.add(key);
    wanted.push({ document_id: match.document.document_id, collection: match.document.collection });
  }
  return wanted;
}

/** What the report says of a retrieved document. */
function citedDocument(query: { document_id: string; collection: string }, document: DocumentResponse): CitedDocument {
  return {
    document_id: query.document_id,
    collection: query.collection,
    title: stringField(document, ['title']) ?? '',
    date: stringField(document, ['date']) ?? null,
    as_of: stringField(document, ['as_of', 'current_as_of']) ?? null,
    consolidated: booleanField(document, ['consolidated']) ?? null,
  };
}

/** „act-1 (2015-08-12)“ for a list of candidates. */
function describeResults(results: ReadonlyArray<{ document_id: string; date: string; title: string }>, withTitle: boolean): string {
  return results.map((r) => `${r.document_id}${r.date ? ` (${r.date})` : ''}${withTitle ? ` „${r.title}“` : ''}`).join(', ');
}

/** One citation's entry of the report. */
function entryOf(memo: MemoCitation, match: ActMatch | undefined, documents: ReadonlyMap<string, DocumentResponse>): CiteEntry {
  const { unchecked, warning, ...entry } = verdictOf(memo, match, documents);
  return { ...entry, unchecked: unchecked ?? null, warning: warning ?? null };
}

/** One citation's entry of the report, `unchecked` only when there is something that was not checked. */
function verdictOf(
  memo: MemoCitation,
  match: ActMatch | undefined,
  documents: ReadonlyMap<string, DocumentResponse>,
): Omit<CiteEntry, 'unchecked' | 'warning'> & { unchecked?: string; warning?: string } {
  const base = { text: memo.text, line: memo.line, column: memo.column };
  const act = memo.act;
  if (act === undefined) {
    const previous = memo.citation.act?.kind === 'previous';
    return {
      ...base,
      act: null,
      document_id: null,
      collection: null,
      ref: null,
      verdict: 'act_not_named',
      detail: previous
        ? `„${memo.citation.act!.text}“, but no act is named before it`
        : `names no act: write the act after it (e.g. „${memo.text} от ЗЗД“) to check it`,
    };
  }
  if (match === undefined || match.kind === 'not_found') {
    const amendedBy = match?.amendedBy ?? [];
    // An abbreviation the memo wrote („ЗННД“) is named by the title its amending acts give it.
    const amendedTitle = amendedBy.length > 0 ? AMENDING_TITLE.exec(amendedBy[0]!.title)?.[1] : undefined;
    const name = act.title ?? (amendedTitle !== undefined ? nominativeTitle(amendedTitle) : act.written);
    const detail =
      amendedBy.length > 0
        ? `the service holds only acts amending „${name}“ (${plural(amendedBy.length, 'act')}, e.g. ${describeResults(amendedBy.slice(0, 2), false)}), not the act itself`
        : match?.nearest
          ? `no document of the service is „${name}“ (the nearest title found: „${match.nearest.title}“, ${match.nearest.document_id})`
          : `no document of the service is „${name}“`;
    return { ...base, act: act.written, document_id: null, collection: null, ref: null, verdict: 'act_not_found', detail };
  }
  if (match.kind === 'ambiguous') {
    return {
      ...base,
      act: act.written,
      document_id: null,
      collection: null,
      ref: null,
      verdict: 'ambiguous',
      detail: `„${act.written}“ fits ${plural(match.candidates.length, 'document')}: ${describeResults(match.candidates, true)}`,
    };
  }
  const { document_id, collection, title } = match.document;
  const document = documents.get(pairKey(document_id, collection));
  const name = title || act.written;
  if (document === undefined) {
    return { ...base, act: name, document_id, collection, ref: null, verdict: 'act_not_found', detail: 'the document could not be read' };
  }
  const check = checkProvision(memo.citation, document, name);
  const others = match.others.length > 0 && check.verdict === 'found' ? ` (checked in the newest act of this title; also ${describeResults(match.others, false)})` : '';
  return {
    ...base,
    act: name,
    document_id,
    collection,
    ref: check.ref,
    verdict: check.verdict,
    detail: `${check.detail}${others}`,
    ...(check.unchecked !== undefined ? { unchecked: check.unchecked } : {}),
    ...(check.warning !== undefined ? { warning: check.warning } : {}),
  };
}
