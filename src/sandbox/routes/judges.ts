/**
 * `GET /v1/catalog/judges?court=&search=&limit=` (spec: GET /v1/catalog/judges): the judges seen in a court's
 * decisions, with how many of its decisions each sat on and the latest date. The response shape is the sandbox's
 * (`JudgesResponse` in `src/contract/types.ts`; the spec does not show it).
 */
import { ERROR_CODES } from '../../contract/errors.js';
import { JUDGES_LIMIT } from '../../contract/limits.js';
import { PATHS } from '../../contract/paths.js';
import type { JudgeEntry, JudgesResponse } from '../../contract/types.js';
import { resolveCourt, type NamedCourt } from '../../shared/courts.js';
import { HttpError } from '../http/errors.js';
import type { Route, RouteContext } from '../http/router.js';
import { decisionJudgeNames, judgeKeyMatches, judgeNameKey, typosAllowed, type DecisionJudges } from '../search/judges.js';
import { searchMetadata } from '../search/metadata.js';

/** A decision as the judges catalog reads it (the search's `DocumentMeta` is one). */
export interface CatalogDecision extends DecisionJudges {
  /** The court; documents without one (statutes) are not decisions and are skipped. */
  court_id: number | null;
  /** Date of the decision, `YYYY-MM-DD`. */
  date: string;
}

/** The query of `GET /v1/catalog/judges` once checked. */
export interface JudgesQuery {
  /** The court asked about, or undefined for every court. */
  court: NamedCourt | undefined;
  /** The `search` text, or undefined when absent or blank. */
  search: string | undefined;
  /** 1 to 100 ({@link JUDGES_LIMIT}). */
  limit: number;
}

/** Court candidates named in an `invalid_request` message, at most. */
const LISTED_COURTS = 10;

const bulgarian = new Intl.Collator('bg');

/** A query value as quoted in an error message: JSON-quoted, cut to 60 characters. */
function quoted(value: string): string {
  return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
}

/** Courts as listed in an error message: `Name (court_id)`, at most {@link LISTED_COURTS}, then how many more. */
function listCourts(courts: readonly NamedCourt[]): string {
  const listed = courts.slice(0, LISTED_COURTS).map((c) => `${c.name} (${c.court_id})`);
  const more = courts.length - listed.length;
  return listed.join(', ') + (more > 0 ? ` and ${more} more` : '');
}

function invalid(message: string): HttpError {
  return new HttpError(400, ERROR_CODES.invalidRequest, message);
}

/** The one value of a query parameter, or undefined. @throws HttpError 400 when it is given more than once. */
function single(query: URLSearchParams, name: string): string | undefined {
  const values = query.getAll(name);
  if (values.length > 1) throw invalid(`The query parameter "${name}" is given ${values.length} times; give it once.`);
  return values[0];
}

/**
 * Checks the query of `GET /v1/catalog/judges` against the index's courts.
 * - `court` (optional): resolved by `resolveCourt` (a code such as `1`, an abbreviation such as ВКС, ВАС, КС, СГС, or
 *   a name, approximately); omitted → every court.
 * - `search` (optional): kept as given; empty or blank → no filter.
 * - `limit` (optional): decimal digits only, 1 to 100; default 20 ({@link JUDGES_LIMIT}).
 * - Other parameters are ignored.
 * @throws HttpError 400 `invalid_request`: `court` blank, naming no court (with the closest names when some are
 *   close), or naming several (listing them with their codes); `limit` not an integer from 1 to 100; `court`,
 *   `search` or `limit` given more than once.
 */
export function parseJudgesQuery(query: URLSearchParams, courts: readonly NamedCourt[]): JudgesQuery {
  const courtText = single(query, 'court');
  const searchText = single(query, 'search');
  const limitText = single(query, 'limit');

  let limit: number = JUDGES_LIMIT.default;
  if (limitText !== undefined) {
    limit = /^[0-9]+$/.test(limitText) ? Number(limitText) : Number.NaN;
    if (!(limit >= JUDGES_LIMIT.min && limit <= JUDGES_LIMIT.max)) {
      throw invalid(
        `limit must be an integer from ${JUDGES_LIMIT.min} to ${JUDGES_LIMIT.max} (default ${JUDGES_LIMIT.default}); got ${quoted(limitText)}.`,
      );
    }
  }

  let court: NamedCourt | undefined;
  if (courtText !== undefined) {
    if (courtText.trim() === '') {
      throw invalid(
        'court is empty: give a court code, an abbreviation (ВКС, ВАС, КС, СГС) or a name, or omit it for the judges of every court.',
      );
    }
    const match = resolveCourt(courtText, courts);
    if (match.kind === 'ambiguous') {
      throw invalid(
        `court ${quoted(courtText)} fits ${match.candidates.length} courts: ${listCourts(match.candidates)}. ` +
          'Give the code of one of them or more of its name.',
      );
    }
    if (match.kind === 'none') {
      const suggestions = match.suggestions.length > 0 ? ` Did you mean ${listCourts(match.suggestions)}?` : '';
      throw invalid(`No court matches ${quoted(courtText)}.${suggestions} GET ${PATHS.courts} lists the courts.`);
    }
    court = { court_id: match.court.court_id, name: match.court.name };
  }

  return { court, search: searchText === undefined || searchText.trim() === '' ? undefined : searchText, limit };
}

/**
 * The judges of `decisions` for a checked query.
 * - Decisions: the documents with a `court_id` (of `query.court` when given).
 * - Judges: every name in a decision's `judges` and `reporting_judge` (see `decisionJudgeNames`: trimmed, inner
 *   whitespace collapsed), one entry per distinct name, exactly as written.
 * - `decision_count`: the decisions whose panel or reporting judge is that name; `latest_date` the latest of their
 *   dates; `court_ids` their courts, ascending.
 * - `query.search`: keeps the judges whose name it matches by the rule of `judge_name` (`judgeKeyMatches`: case,
 *   script and small typos do not matter, "mihova" finds Христина Михова; a text without letters matches none); a
 *   typo only when no judge of the court fits the text without one (`typosAllowed`).
 * - Order: most decisions first, then the latest `latest_date`, then the name in Bulgarian collation
 *   (`Intl.Collator('bg')`); the first `query.limit` entries.
 */
export function judgeCatalog(decisions: Iterable<CatalogDecision | undefined>, query: JudgesQuery): JudgeEntry[] {
  const entries = new Map<string, { name: string; decision_count: number; latest_date: string; courts: Set<number> }>();
  for (const decision of decisions) {
    if (!decision || decision.court_id === null) continue;
    if (query.court && decision.court_id !== query.court.court_id) continue;
    for (const name of decisionJudgeNames(decision)) {
      const entry = entries.get(name);
      if (entry) {
        entry.decision_count++;
        if (decision.date > entry.latest_date) entry.latest_date = decision.date;
        entry.courts.add(decision.court_id);
      } else {
        entries.set(name, { name, decision_count: 1, latest_date: decision.date, courts: new Set([decision.court_id]) });
      }
    }
  }
  let judges = [...entries.values()];
  if (query.search !== undefined) {
    const wanted = judgeNameKey(query.search);
    const keys = new Map(judges.map((j) => [j, judgeNameKey(j.name)]));
    const typos = typosAllowed(wanted, keys.values());
    judges = judges.filter((j) => judgeKeyMatches(wanted, keys.get(j)!, typos));
  }
  return judges
    .sort(
      (a, b) =>
        b.decision_count - a.decision_count ||
        (a.latest_date < b.latest_date ? 1 : a.latest_date > b.latest_date ? -1 : 0) ||
        bulgarian.compare(a.name, b.name),
    )
    .slice(0, query.limit)
    .map(({ name, decision_count, latest_date, courts }) => ({
      name,
      decision_count,
      latest_date,
      court_ids: [...courts].sort((a, b) => a - b),
    }));
}

/**
 * The whole answer of `GET /v1/catalog/judges` for a query string, `courts` (the index's `SearchIndex.courts()`) and
 * the index's documents: `{court: {court_id, name} | null, judges}` (see {@link parseJudgesQuery} and
 * {@link judgeCatalog}). A court of the catalog without decisions in the corpus has no judges (`judges: []`).
 * @throws HttpError 400 `invalid_request` as {@link parseJudgesQuery} says.
 */
export function judgesResponse(
  query: URLSearchParams,
  courts: readonly NamedCourt[],
  decisions: Iterable<CatalogDecision | undefined>,
): JudgesResponse {
  const checked = parseJudgesQuery(query, courts);
  return { court: checked.court ?? null, judges: judgeCatalog(decisions, checked) };
}

/** `GET /v1/catalog/judges`: HTTP 200 with {@link judgesResponse} over the index; API key, no quota. */
function handleJudges({ query, deps }: RouteContext): JudgesResponse {
  return judgesResponse(query, deps.index.courts(), searchMetadata(deps.index).documents);
}

/** The judges catalog route. */
export const JUDGES_ROUTES: readonly Route[] = [
  { method: 'GET', pattern: PATHS.judges, auth: 'api-key', status: 200, handler: handleJudges },
];
