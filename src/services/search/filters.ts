/**
 * Search filter values checked against the catalogs (spec: POST /v1/search `source_types`, `court_ids`, rule 1;
 * GET /v1/catalog/source-types, /courts): what to tell a user whose `--court` name fits several courts or none, or
 * whose `--type` is not in the catalog (with a did-you-mean). Pure; the catalogs are fetched by `lookups.ts`.
 * Every string from a catalog, and the user's own text, passes through `sanitizeLine`.
 */
import { editDistance, type CourtMatch, type NamedCourt } from '../../shared/courts.js';
import { isCourtSourceType, type SearchRequest, type SourceTypesResponse } from '../../contract/types.js';
import { sanitizeLine } from '../../shared/sanitize.js';
import { booleanField, stringField } from '../../render/fields.js';
import { COURT_NEEDS_CASE_LAW } from './request.js';

/** At most this many candidate courts are named in a message; the rest are counted. */
const MAX_CANDIDATES_SHOWN = 8;

/** `--court Пловдив`, `--court "РС Пловдив"`: the option as the user could retype it. */
function option(name: string, value: string): string {
  const text = sanitizeLine(value);
  return /\s/.test(text) || text === '' ? `${name} "${text}"` : `${name} ${text}`;
}

/** `500 Апелативен съд – Пловдив, 530 Окръжен съд – Пловдив`, at most `max` and then `… and 3 more`. */
function listCourts(courts: readonly NamedCourt[], max = MAX_CANDIDATES_SHOWN): string {
  const shown = courts.slice(0, max).map((c) => `${c.court_id} ${sanitizeLine(c.name)}`);
  return courts.length > max ? `${shown.join(', ')} … and ${courts.length - max} more` : shown.join(', ');
}

/**
 * The usage problem of a `--court` name that did not resolve to one court, or `undefined` when it did:
 * - ambiguous: `--court Пловдив fits 5 courts: 500 Апелативен съд – Пловдив, ...; give one of the codes or a fuller
 *   name.`
 * - none, with suggestions: `--court "Районен съд Марс" fits no court of the catalog; the closest: 533 Районен съд –
 *   Пловдив, ...; see \`pravo catalog courts\`.`; without: `--court X fits no court of the catalog; see ...`.
 */
export function courtMatchProblem(typed: string, match: CourtMatch<NamedCourt>): string | undefined {
  if (match.kind === 'found') return undefined;
  if (match.kind === 'ambiguous') {
    return `${option('--court', typed)} fits ${match.candidates.length} courts: ${listCourts(match.candidates)}; give one of the codes or a fuller name.`;
  }
  const closest = match.suggestions.length > 0 ? `; the closest: ${listCourts(match.suggestions)}` : '';
  return `${option('--court', typed)} fits no court of the catalog${closest}; see \`pravo catalog courts\` for the codes and names.`;
}

/** One source type of the catalog as the checks need it. */
interface TypeEntry {
  id: string;
  name: string | undefined;
  caseLaw: boolean | undefined;
}

function typeEntries(catalog: SourceTypesResponse): TypeEntry[] {
  return catalog.source_types.map((e) => ({
    id: e.id,
    name: stringField(e, ['name', 'label', 'title']),
    caseLaw: booleanField(e, ['case_law', 'is_case_law']) ?? isCourtSourceType(e.id),
  }));
}

/**
 * The catalog's source type a mistyped `typed` most likely meant, or `undefined`: one whose id differs from it only
 * in case, or whose name equals it (case-insensitively), or the id nearest by edit distance when that distance is at
 * most a quarter of the typed length (at least 2): `high_court_cases` → `high_courts_cases`.
 */
export function suggestSourceType(typed: string, catalog: SourceTypesResponse): string | undefined {
  const text = typed.trim().toLowerCase();
  const entries = typeEntries(catalog);
  const exact = entries.find((e) => e.id.toLowerCase() === text || e.name?.trim().toLowerCase() === text);
  if (exact) return exact.id;
  const limit = Math.max(2, Math.floor([...text].length / 4));
  let best: { id: string; distance: number } | undefined;
  for (const e of entries) {
    const distance = editDistance(text, e.id.toLowerCase(), limit);
    if (distance <= limit && (best === undefined || distance < best.distance)) best = { id: e.id, distance };
  }
  return best?.id;
}

/**
 * The usage problems of `source_types` the catalog does not list, one per type: `--type high_court_cases is not a
 * source type of the catalog; did you mean high_courts_cases?`, or without a close one `--type foo is not a source
 * type of the catalog, which lists bulgarian_laws_regulations and high_courts_cases.` Empty when every type is
 * listed, and when the catalog lists none (then it cannot tell).
 */
export function sourceTypeProblems(types: readonly string[], catalog: SourceTypesResponse): string[] {
  const entries = typeEntries(catalog);
  if (entries.length === 0) return [];
  const known = new Set(entries.map((e) => e.id));
  return types
    .filter((t) => !known.has(t))
    .map((t) => {
      const suggestion = suggestSourceType(t, catalog);
      if (suggestion !== undefined) return `${option('--type', t)} is not a source type of the catalog; did you mean ${sanitizeLine(suggestion)}?`;
      const ids = entries.map((e) => sanitizeLine(e.id));
      const listed = ids.length <= 8 ? `, which lists ${ids.length === 1 ? ids[0] : `${ids.slice(0, -1).join(', ')} and ${ids.at(-1)}`}` : '';
      return `${option('--type', t)} is not a source type of the catalog${listed}; see \`pravo catalog source-types\`.`;
    });
}

/**
 * Rule 1 (spec: POST /v1/search, `court_ids` with only non-court sources is `invalid_request`) decided by the catalog
 * for types the contract does not name: a problem when the request filters by court and every selected type is
 * listed with `case_law: false`; `undefined` otherwise (also when some type is unknown or its `case_law` missing).
 */
export function caseLawProblem(request: SearchRequest, catalog: SourceTypesResponse): string | undefined {
  const types = request.source_types ?? [];
  if ((request.court_ids?.length ?? 0) === 0 || types.length === 0) return undefined;
  const entries = new Map(typeEntries(catalog).map((e) => [e.id, e]));
  if (!types.every((t) => entries.get(t)?.caseLaw === false)) return undefined;
  const caseLaw = [...entries.values()].filter((e) => e.caseLaw === true).map((e) => `--type ${sanitizeLine(e.id)}`);
  const add = caseLaw.length > 0 ? `add ${caseLaw.join(' or ')} or drop --court` : 'drop --court';
  return `${COURT_NEEDS_CASE_LAW}, but --type selects only ${types.map(sanitizeLine).join(', ')}, which hold none; ${add}.`;
}
