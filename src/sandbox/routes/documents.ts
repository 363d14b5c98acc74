/** `GET /v1/documents` (spec: GET /v1/documents, Quota rules 1). */
import { ERROR_CODES } from '../../contract/errors.js';
import { PATHS } from '../../contract/paths.js';
import { HttpError } from '../http/errors.js';
import { RawJson, type Route, type RouteContext } from '../http/router.js';
import { quotaExceeded } from './quota.js';

/** The query parameters of `GET /v1/documents`, both required (spec: "both required in use"). */
const REQUIRED = ['document_id', 'collection'] as const;

/**
 * The value of each required parameter, or 400 `invalid_request` naming every one that is missing, empty (or only
 * white space) or given more than once. Values are compared exactly as decoded from the query string (percent
 * escapes, `+` for a space), so ids with `/`, `&`, `?`, `#`, spaces or Cyrillic round-trip when the client
 * URL-encodes them.
 * @throws HttpError 400 `invalid_request`.
 */
function requiredParameters(query: URLSearchParams): Record<(typeof REQUIRED)[number], string> {
  const problems: string[] = [];
  const values: Partial<Record<(typeof REQUIRED)[number], string>> = {};
  for (const name of REQUIRED) {
    const given = query.getAll(name);
    if (given.length === 0) problems.push(`the query parameter "${name}" is required`);
    else if (given.length > 1) problems.push(`the query parameter "${name}" is given ${given.length} times; give it once`);
    else if (given[0]!.trim() === '') problems.push(`the query parameter "${name}" is empty`);
    else values[name] = given[0]!;
  }
  if (problems.length > 0) {
    const message = problems.join('; ');
    throw new HttpError(400, ERROR_CODES.invalidRequest, `${message[0]!.toUpperCase()}${message.slice(1)}. Both come from a search result.`);
  }
  return values as Record<(typeof REQUIRED)[number], string>;
}

/**
 * `GET /v1/documents?document_id=…&collection=…`: the full document (see `StoredDocument`: every corpus field, court
 * fields for decisions, ordered `elements` of `{excerpt_id, ref, label, text}` whose `excerpt_id`s are those of the
 * search excerpts).
 *
 * Order: parameters checked (400, nothing consumed), document looked up (404 `not_found` for an unknown pair, nothing
 * consumed), then one unit of the key's account's `retrieval` quota consumed (or of its overage; 429
 * `monthly_quota_exceeded` when refused, see `quotaExceeded`). The document's JSON text is read in full before the
 * unit is consumed (`readDocumentJson`: the stored elements spliced in unparsed), so a failure to read it costs
 * nothing and nothing of the handler can fail after the consumption (there is nothing to give back).
 * `HEAD` answers as `GET` would (including 429 when a unit would be refused: `SandboxStore.allows`) but consumes
 * nothing: it transfers no document.
 * @throws HttpError 400/404/429 as above; the state store's error (busy/full → 503, see `http/errors.ts`).
 */
function handleDocument({ query, deps, request, accountId }: RouteContext): RawJson {
  const { document_id, collection } = requiredParameters(query);
  const text = deps.index.readDocumentJson(document_id, collection);
  if (text === undefined) {
    throw new HttpError(404, 'not_found', 'No document has this document_id in this collection. Take both from the same search result.');
  }
  if (request.method === 'HEAD') {
    if (!deps.state.allows(accountId, 'retrieval')) throw quotaExceeded(deps.state.preview(accountId, 'retrieval'));
    return new RawJson(text);
  }
  const consumption = deps.state.consume(accountId, 'retrieval');
  if (!consumption.allowed) throw quotaExceeded(consumption);
  return new RawJson(text);
}

/** The document route. */
export const DOCUMENT_ROUTES: readonly Route[] = [
  { method: 'GET', pattern: PATHS.documents, auth: 'api-key', quota: 'retrieval', status: 200, handler: handleDocument },
];
