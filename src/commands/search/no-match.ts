/**
 * Why a search found nothing, when the catalog can tell (spec: POST /v1/search rule 2, a valid query with no matches is
 * HTTP 200 with 0 results; GET /v1/catalog/source-types): a search limited to source types that hold no documents, or
 * filtered by court or judge on a collection without court decisions, can never match, and an empty result alone does
 * not say so. Pure; the request for the catalog is made by `run.ts`.
 */
import { isCourtSourceType, type SearchRequest, type SourceTypesResponse } from '../../contract/types.js';
import { sanitizeLine } from '../../shared/sanitize.js';

/**
 * Whether an empty result of `request` may be explained by the catalog: the request names source types, court
 * identifiers or a judge (a request without them searches whatever the service chooses, and the catalog cannot say
 * why nothing matched).
 */
export function mayExplainNoMatch(request: SearchRequest): boolean {
  return (request.source_types?.length ?? 0) > 0 || (request.court_ids?.length ?? 0) > 0 || request.judge_name !== undefined;
}

/** One catalog entry as read here: `document_count` only when the service reports it as a whole number ≥ 0. */
interface Entry {
  id: string;
  name: string | undefined;
  caseLaw: boolean | undefined;
  count: number | undefined;
}

function entriesOf(catalog: SourceTypesResponse): Map<string, Entry> {
  const entries = new Map<string, Entry>();
  for (const raw of catalog.source_types as unknown as Record<string, unknown>[]) {
    const id = raw.id as string;
    const count = raw.document_count;
    entries.set(id, {
      id,
      name: typeof raw.name === 'string' && raw.name.trim() !== '' ? raw.name : undefined,
      caseLaw: typeof raw.case_law === 'boolean' ? raw.case_law : isCourtSourceType(id),
      count: typeof count === 'number' && Number.isInteger(count) && count >= 0 ? count : undefined,
    });
  }
  return entries;
}

/** `high_courts_cases (Съдебна практика …)`, sanitized for a terminal. */
function describe(id: string, entry: Entry | undefined): string {
  const name = entry?.name === undefined || entry.name === id ? '' : ` (${sanitizeLine(entry.name)})`;
  return `${sanitizeLine(id)}${name}`;
}

/** "a", "a and b", "a, b and c". */
function enumerate(items: readonly string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/**
 * A one-line note for stderr when the catalog shows that the collection holds no documents the request could match,
 * else `undefined`. Only types the catalog lists with `document_count` 0 count as empty; a type it does not list, or
 * lists without a count (the spec does not show the field), is never called empty.
 *
 * - `source_types` given: the empty ones among them, e.g. `The corpus has no documents of type high_courts_cases
 *   (Съдебна практика на върховните съдилища); nothing could match.` (with "; nothing could match" only when every
 *   requested type is empty).
 * - Otherwise, with `court_ids` or `judge_name`, which select court decisions: when the catalog lists case-law types
 *   (`case_law`, else by the spec's names) and every one of them is empty, e.g. `--judge selects court decisions, and
 *   the corpus has no documents of type high_courts_cases (…); nothing could match.`
 *
 * Names from the catalog pass through `sanitizeLine`.
 */
export function noMatchNote(request: SearchRequest, catalog: SourceTypesResponse): string | undefined {
  const entries = entriesOf(catalog);
  const requested = request.source_types ?? [];
  if (requested.length > 0) {
    const empty = requested.filter((id) => entries.get(id)?.count === 0);
    if (empty.length === 0) return undefined;
    const types = `type${empty.length > 1 ? 's' : ''} ${enumerate(empty.map((id) => describe(id, entries.get(id))))}`;
    return `The corpus has no documents of ${types}${empty.length === requested.length ? '; nothing could match' : ''}.`;
  }
  const flags = [...((request.court_ids?.length ?? 0) > 0 ? ['--court'] : []), ...(request.judge_name !== undefined ? ['--judge'] : [])];
  if (flags.length === 0) return undefined;
  const caseLaw = [...entries.values()].filter((e) => e.caseLaw === true);
  if (caseLaw.length === 0 || caseLaw.some((e) => e.count !== 0)) return undefined;
  const types = `type${caseLaw.length > 1 ? 's' : ''} ${enumerate(caseLaw.map((e) => describe(e.id, e)))}`;
  return `${flags.join(' and ')} select${flags.length > 1 ? '' : 's'} court decisions, and the corpus has no documents of ${types}; nothing could match.`;
}
