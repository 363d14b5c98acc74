/**
 * The catalog lookups a search makes before it is sent (spec: POST /v1/search `court_ids`, `source_types`;
 * GET /v1/catalog/courts, /source-types), through the response cache (`../catalogs.ts`, 24 h), so that a
 * repeated search sends nothing but itself:
 * - `--court` names (`ВКС`, `РС Пловдив`, an approximate name) resolved to codes with `resolveCourt`;
 * - `--type` values checked against the source types, with a did-you-mean.
 * A copy from the cache that does not know a value is asked for again once (`refresh`), since the catalog may have
 * grown. Shared by every command that sends the search fields.
 */
import { AuthenticationError, MissingCredentialError, QuotaExceededError } from '../../api/errors.js';
import type { SearchRequest, SourceTypesResponse } from '../../contract/types.js';
import { CliError, UsageError } from '../../errors/cli.js';
import type { Factory } from '../../factory.js';
import { sanitizeLine } from '../../shared/sanitize.js';
import { CATALOG_LOOKUP_TIMEOUT_MS, cachedCourts, cachedSourceTypes } from '../catalogs.js';
import { caseLawProblem, courtMatchProblem, sourceTypeProblems } from './filters.js';

/** What {@link resolveCourtNames} found: the code of each name that resolved, and a usage problem for each other. */
export interface CourtNameLookup {
  ids: Map<string, number>;
  problems: string[];
}

/**
 * Resolves `--court` names (from `courtNamesOf`) against the courts catalog: each to the code of the one court it
 * names, or to a problem (several courts fit: the candidates with their codes; none: the closest). Makes at most
 * two `GET /v1/catalog/courts` (none on a fresh cache hit that resolves every name).
 * @throws UsageError when the catalog cannot be fetched, saying that `--court` then needs a code, and why;
 *   the request's error itself for a missing or rejected key (exit 4) or an exhausted quota (exit 5), which the search
 *   would meet too; ConfigError (no base URL, a bad `PRAVO_CACHE_TTL`); CancelledError on Ctrl-C.
 */
export async function resolveCourtNames(factory: Factory, names: readonly string[]): Promise<CourtNameLookup> {
  const { resolveCourt } = await import('../../shared/courts.js');
  const lookup = async (refresh: boolean): Promise<{ fromCache: boolean; found: CourtNameLookup }> => {
    let result;
    try {
      result = await cachedCourts(factory, { refresh, timeoutMs: CATALOG_LOOKUP_TIMEOUT_MS });
    } catch (error) {
      throw await catalogUnavailable(factory, names, error);
    }
    const found: CourtNameLookup = { ids: new Map(), problems: [] };
    let unknown = false;
    for (const name of names) {
      const match = resolveCourt(name, result.response.data.courts);
      if (match.kind === 'found') found.ids.set(name, match.court.court_id);
      else {
        unknown ||= match.kind === 'none';
        found.problems.push(courtMatchProblem(name, match)!);
      }
    }
    return { fromCache: result.fromCache && unknown, found };
  };
  const first = await lookup(false);
  return first.fromCache ? (await lookup(true)).found : first.found;
}

/** The error to show when the courts catalog could not be fetched for `names`. */
async function catalogUnavailable(factory: Factory, names: readonly string[], error: unknown): Promise<unknown> {
  if (factory.signal.aborted || error instanceof CliError) return error;
  if (error instanceof MissingCredentialError || error instanceof AuthenticationError || error instanceof QuotaExceededError) return error;
  const { describeError } = await import('../../errors/advice.js');
  const cause = describeError(error, factory.errorContext('search')).message;
  const typed = names.map((n) => `"${sanitizeLine(n)}"`).join(', ');
  return new UsageError(
    `--court ${typed} names a court, and the courts catalog to look ${names.length === 1 ? 'it' : 'them'} up in could not be fetched: ${cause}\n` +
      "Give the court's code instead (a whole number; `pravo catalog courts` lists them once the catalog answers).",
  );
}

/**
 * Checks the request's `source_types` against the source-types catalog: each must be listed (a did-you-mean for one
 * that is not), and a court filter needs a type that holds court decisions (rule 1, for types the contract does not
 * name). Returns the usage problems, empty when all is well. Only asks when the request names types. A catalog that
 * cannot be fetched blocks nothing: the server decides (returns no problems).
 * @throws CancelledError on Ctrl-C.
 */
export async function sourceTypeLookupProblems(factory: Factory, request: SearchRequest): Promise<string[]> {
  const types = request.source_types ?? [];
  if (types.length === 0) return [];
  const fetch = async (refresh: boolean): Promise<{ catalog: SourceTypesResponse; fromCache: boolean } | undefined> => {
    try {
      const result = await cachedSourceTypes(factory, { refresh, timeoutMs: CATALOG_LOOKUP_TIMEOUT_MS });
      return { catalog: result.response.data, fromCache: result.fromCache };
    } catch (error) {
      if (factory.signal.aborted) throw error;
      return undefined;
    }
  };
  let found = await fetch(false);
  if (found?.fromCache && sourceTypeProblems(types, found.catalog).length > 0) found = await fetch(true);
  if (found === undefined) return [];
  const problems = sourceTypeProblems(types, found.catalog);
  if (problems.length > 0) return problems;
  const caseLaw = caseLawProblem(request, found.catalog);
  return caseLaw === undefined ? [] : [caseLaw];
}
