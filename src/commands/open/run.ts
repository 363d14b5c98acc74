/**
 * `pravo open` (spec: Search result, `url`; GET /v1/documents): the link of result N of the last search, or of a
 * `document_id` with its `collection`, opened in the browser when stdout is a terminal, else printed. The link comes
 * from a server, so it is checked first (`services/browser.ts`: only `http:` and `https:` links) and never passed
 * through a shell. Result N's link is the one its search stored (an empty one: the server has none); when none was
 * stored (results stored by an older pravo, or a result without a `url` field), and for a `document_id`, the document
 * is read through the response cache for its `url` (a retrieval unit unless cached).
 */
import type { DocumentQuery } from '../../api/resources/documents.js';
import { RefusedDataError } from '../../errors/cli.js';
import type { Factory } from '../../factory.js';
import { Printer, type View } from '../../io/printer.js';
import { mixedScriptNote, noBrowserNote, openableUrl, openInBrowser, shownLink, type Launcher } from '../../services/browser.js';
import { parseDocumentArgument, rankedDocument } from '../../services/results.js';
import { parseTimeout } from '../../services/timeout.js';
import { currentRunTarget, shellQuote, targetFlagWords } from '../../services/targets.js';
import { linkNoteOf } from '../../render/fields.js';
import { sanitizeLine } from '../../shared/sanitize.js';

/** Options of `pravo open` as commander parses them. */
export interface OpenOptions {
  collection?: string;
  print?: boolean;
  json?: boolean;
  timeout?: string;
}

/** Default timeout of the one retrieval `pravo open` may need, in ms (as `pravo doc`'s). */
export const OPEN_TIMEOUT_MS = 30_000;

/** What `pravo open --json` prints: the link, whether a browser was started with it, and the document it belongs to. */
export interface OpenResult {
  url: string;
  opened: boolean;
  document_id: string;
  collection: string;
}

/** The link alone, one line, on a terminal (no browser could be started) and piped. */
const LINK_VIEW: View<OpenResult> = { table: (result) => `${result.url}\n`, tsv: (result) => `${result.url}\n` };

/** The document whose link is opened, and how the messages name it. */
interface LinkSource extends DocumentQuery {
  /** The link as the server sent it; `undefined` when it must be read from the document. */
  url: string | undefined;
  /** `result 1 of the last search ("Изборен кодекс")`, `act-1 in collection c_x`. */
  what: string;
  /** The `pravo doc` command that prints the document instead, with the run's target flags. */
  docCommand: string;
  /** Why the document is retrieved (result N stored no link), said before the note on the retrieval. */
  why?: string;
  /** What the page shows when it is not the text the service serves (`linkNoteOf`), raw. */
  page?: string;
}

/**
 * Runs `pravo open`; returns the exit code (0 when the link was opened or printed).
 * - The link as the server sent it, except a host that mixes scripts, printed and opened in its ASCII form (punycode)
 *   after a note that says so (`shownLink`); an opened link with another internationalized host is named in the note
 *   with its ASCII host too.
 * - `--print`, or stdout not a terminal: prints the link (one line), starts nothing.
 * - Otherwise: starts the browser (`BROWSER`, else the platform's opener) with the link and prints nothing on stdout;
 *   when none can be started, prints the link and says why on stderr.
 * - `--json`: `{url, opened, document_id, collection}` on stdout instead of the link.
 * - When the page shows another text than the service's (`url_as_of`: lex.bg's current text of an act served as first
 *   published), stderr says which date each has and the `pravo doc` command that prints the service's.
 * @param launch starts a program (default: the real one, `spawnLauncher`); tests give a recording one.
 * @throws UsageError before sending (bad argument or options, no such result, a result of another target).
 *   RefusedDataError (exit 1) when the server's link is not an `http:`/`https:` link pravo accepts, or there is none:
 *   nothing is opened or printed on stdout. API errors of the retrieval (404 `not_found`, …).
 */
export async function runOpen(factory: Factory, argument: string, options: OpenOptions, launch?: Launcher): Promise<number> {
  const timeoutMs = parseTimeout(options.timeout, OPEN_TIMEOUT_MS);
  const parsed = parseDocumentArgument(argument, options.collection);
  const printer = new Printer(factory.io, options.json === true);
  const targetFlags = targetFlagWords(factory.globals);
  let source: LinkSource;
  if (parsed.kind === 'rank') {
    const { loadLastResults } = await import('../../state/last-results.js');
    const last = await loadLastResults(factory.env);
    const ranked = rankedDocument(last, parsed.rank, await currentRunTarget(factory), (flags) => `pravo open ${parsed.rank}${flags}${keptFlags(options)}`, 'open');
    const title = sanitizeLine(ranked.title);
    const shownTitle = title.length > 80 ? `${title.slice(0, 79)}…` : title;
    const why = `The last search stored no url for result ${parsed.rank} (the server sent none, or the search ran with an older pravo)`;
    source = {
      document_id: ranked.document_id,
      collection: ranked.collection,
      url: ranked.url,
      what: `result ${parsed.rank} of the last search${shownTitle ? ` ("${shownTitle}")` : ''}`,
      docCommand: ['pravo', 'doc', String(parsed.rank), ...targetFlags].join(' '),
      ...(ranked.url === undefined ? { why } : {}),
    };
    const page = linkNoteOf(ranked);
    if (page !== undefined) source.page = page;
  } else {
    source = {
      document_id: parsed.document_id,
      collection: parsed.collection,
      url: undefined,
      what: `${sanitizeLine(parsed.document_id)} in collection ${sanitizeLine(parsed.collection)}`,
      docCommand: ['pravo', 'doc', shellQuote(parsed.document_id), '--collection', shellQuote(parsed.collection), ...targetFlags].join(' '),
    };
  }

  const instead = `\`${source.docCommand}\` prints the document itself.`;
  const sent = source.url ?? (await documentUrl(factory, source, printer, timeoutMs));
  // A page that shows another text than the service's (lex.bg's current text of an act served as first published).
  const pageNote =
    source.page === undefined ? undefined : `${sanitizeLine(source.page.charAt(0).toUpperCase() + source.page.slice(1))}: \`${source.docCommand}\` prints that text.`;
  if (sent === '') throw new RefusedDataError(`The server sent no url for ${source.what}, so there is nothing to open. ${instead}`);
  // A host that mixes scripts is printed and opened in its ASCII form; any other link as the server sent it.
  const shown = shownLink(openableUrl(sent, source.what, instead));
  const url = shown.url;
  const warning = mixedScriptNote(shown);
  if (warning !== undefined) printer.note(warning);

  let opened = false;
  if (options.print !== true && factory.io.stdoutIsTTY) {
    const outcome = await openInBrowser(url, { env: factory.env, ...(launch ? { launch } : {}) });
    opened = outcome.opened;
    const host = shown.asciiHost !== undefined && warning === undefined ? ` (host ${shown.asciiHost})` : '';
    printer.note(outcome.opened ? `Opened ${url}${host} in the browser (${sanitizeLine(outcome.program)}).` : noBrowserNote(outcome));
  }
  if (pageNote !== undefined) printer.note(pageNote);
  const result: OpenResult = { url, opened, document_id: source.document_id, collection: source.collection };
  if (opened) printer.localIfJson(result);
  else await printer.local(result, LINK_VIEW);
  return 0;
}

/**
 * The document's `url`, read through the response cache (a retrieval unit unless a fresh copy is cached, which the
 * note on stderr says first); `''` when the document has none. The document response's fields other than `elements`
 * are not shown in the spec: `url` is read tolerantly, anything but a string counting as none. Sets `source.page`
 * when the page shows another text than the document's (`linkNoteOf`).
 * @throws as `retrieveDocument`.
 */
async function documentUrl(factory: Factory, source: LinkSource, printer: Printer, timeoutMs: number): Promise<string> {
  const { isDocumentCached, retrieveDocument } = await import('../../services/documents.js');
  const query: DocumentQuery = { document_id: source.document_id, collection: source.collection };
  if (!(await isDocumentCached(factory, query))) {
    const spends = factory.globals.sandbox ? '' : ', which spends a retrieval unit';
    printer.note(source.why ? `${source.why}: retrieving the document for it${spends}.` : `Retrieving the document for its url${spends}.`);
  }
  const { response } = await retrieveDocument(factory, query, { timeoutMs, spinner: 'Retrieving the document' });
  const url = (response.data as Record<string, unknown>).url;
  const page = linkNoteOf(response.data);
  if (page !== undefined) source.page = page;
  return typeof url === 'string' ? url : '';
}

/** The run's own options, for a suggested command: ` --print --json`. */
function keptFlags(options: OpenOptions): string {
  const flags: string[] = [];
  if (options.print) flags.push('--print');
  if (options.json) flags.push('--json');
  if (options.timeout !== undefined) flags.push('--timeout', shellQuote(options.timeout));
  return flags.length === 0 ? '' : ` ${flags.join(' ')}`;
}
