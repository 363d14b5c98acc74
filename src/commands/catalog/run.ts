/**
 * `pravo catalog source-types | courts | judges` (spec: GET /v1/catalog/source-types, /courts, /judges): the options
 * checked before anything is sent, the catalog from the response cache when a fresh copy is there (24 h,
 * `--refresh` asks again), printed in the run's output form: a table on a terminal, TSV when piped, `--json` the
 * server's body exactly (the cached body is the body as received).
 */
import { JUDGES_LIMIT } from '../../contract/limits.js';
import type { JudgesQuery } from '../../api/resources/catalog.js';
import { UsageError } from '../../errors/cli.js';
import type { Factory } from '../../factory.js';
import { Printer } from '../../io/printer.js';
import { waitWithSpinner } from '../../services/waiting.js';
import { cachedCourts, cachedJudges, cachedSourceTypes, type CatalogFetchOptions } from '../../services/catalogs.js';

/** The catalogs `pravo catalog` prints. */
export type CatalogName = 'source-types' | 'courts' | 'judges';

/** Options of `pravo catalog ...` as commander parses them (`court`, `search`, `limit`: judges only). */
export interface CatalogOptions {
  court?: string;
  search?: string;
  limit?: string;
  refresh?: boolean;
  json?: boolean;
}

/**
 * The query of `GET /v1/catalog/judges` from the options: `--court` and `--search` as typed (the server resolves
 * court names), `--limit` an integer from 1 to 100 (`JUDGES_LIMIT`). Pure.
 * @throws UsageError listing every problem (an empty `--court` or `--search`, a bad `--limit`); nothing was sent.
 */
export function judgesQuery(options: Pick<CatalogOptions, 'court' | 'search' | 'limit'>): JudgesQuery {
  const problems: string[] = [];
  const query: JudgesQuery = {};
  if (options.court !== undefined) {
    if (options.court.trim() === '') problems.push('--court needs a court: a name, an abbreviation such as ВКС, or a code; it was given an empty value.');
    else query.court = options.court;
  }
  if (options.search !== undefined) {
    if (options.search.trim() === '') problems.push('--search needs some text of a judge\'s name; it was given an empty value.');
    else query.search = options.search;
  }
  if (options.limit !== undefined) {
    const n = options.limit.trim();
    if (!/^\d+$/.test(n) || Number(n) < JUDGES_LIMIT.min || Number(n) > JUDGES_LIMIT.max) {
      problems.push(`--limit takes a whole number from ${JUDGES_LIMIT.min} to ${JUDGES_LIMIT.max}, not "${options.limit}".`);
    } else query.limit = Number(n);
  }
  if (problems.length > 0) throw new UsageError(problems.join('\n'));
  return query;
}

/** `5 min`, `3 h`, `2 days`: how long ago, for the cache note. */
export function ageText(ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  if (minutes < 1) return 'less than a minute';
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h`;
  return `${Math.floor(hours / 24)} days`;
}

/**
 * Prints one catalog; returns the exit code (0).
 * @throws UsageError for bad judges options (nothing sent); API errors of the request (e.g. `invalid_request` for an
 *   ambiguous `--court`, with the server's message listing the candidates); ConfigError for a bad `PRAVO_CACHE_TTL`.
 */
export async function runCatalog(factory: Factory, name: CatalogName, options: CatalogOptions): Promise<number> {
  const query = name === 'judges' ? judgesQuery(options) : undefined;
  const printer = new Printer(factory.io, options.json === true);
  const fetch: CatalogFetchOptions = {
    refresh: options.refresh === true,
    around: (send) => waitWithSpinner(factory, 'Fetching the catalog', send),
  };
  const views = () => import('../../render/catalog.js');

  if (name === 'source-types') {
    const result = await cachedSourceTypes(factory, fetch);
    noteCache(factory, printer, result);
    await printer.response(result.response, async () => (await views()).sourceTypesView);
  } else if (name === 'courts') {
    const result = await cachedCourts(factory, fetch);
    noteCache(factory, printer, result);
    await printer.response(result.response, async () => (await views()).courtsView);
  } else {
    const result = await cachedJudges(factory, query!, fetch);
    noteCache(factory, printer, result);
    const { raw, data } = result.response;
    await printer.response({ raw, data: { body: data, ...(query!.search !== undefined ? { search: query!.search } : {}), ...(query!.limit !== undefined ? { limit: query!.limit } : {}) } }, async () => (await views()).judgesView);
  }
  return 0;
}

/**
 * On a terminal (stderr), one line saying the answer came from the cache and how old it is; nothing for scripts.
 * Written before the output, which may go through the pager.
 */
function noteCache(factory: Factory, printer: Printer, result: { fromCache: boolean; storedAt: number }): void {
  if (!result.fromCache || !factory.io.stderrIsTTY) return;
  printer.note(`From the cache, stored ${ageText(factory.clock.now() - result.storedAt)} ago (--refresh asks the server).`);
}
