/** The catalogs (spec: GET /v1/catalog/source-types, GET /v1/catalog/courts, GET /v1/catalog/judges, in `judges.ts`). */
import { PATHS } from '../../contract/paths.js';
import { isCourtSourceType, KNOWN_SOURCE_TYPES, type CourtEntry, type CourtsResponse, type SourceTypeEntry, type SourceTypesResponse } from '../../contract/types.js';
import { SOURCE_TYPE_NAMES } from '../catalog-rules.js';
import type { Route } from '../http/router.js';
import type { SearchIndex } from '../storage.js';

/**
 * The catalog's source types: the corpus's (see `SearchIndex.sourceTypes`), then each type the spec names that the
 * corpus lacks, with `document_count` 0. The sandbox accepts those in `source_types` (they match nothing; see
 * `chooseSourceTypes`), so the catalog lists them too, and a client can tell that a search for them cannot match.
 */
export function catalogSourceTypes(present: readonly SourceTypeEntry[]): SourceTypeEntry[] {
  const missing = Object.values(KNOWN_SOURCE_TYPES)
    .filter((id) => !present.some((e) => e.id === id))
    .map((id): SourceTypeEntry => ({ id, name: SOURCE_TYPE_NAMES[id] ?? id, case_law: isCourtSourceType(id) === true, document_count: 0 }));
  return [...present, ...missing];
}

/**
 * The catalog's courts: every court of the index (the courts file's, and any a decision names that the file lacks; see
 * `SearchIndex.courts`), ordered by `court_id`, each with `decision_count`, its documents in the corpus (0 for most).
 */
export function catalogCourts(index: SearchIndex): CourtEntry[] {
  const counts = index.decisionCounts();
  return index.courts().map((court) => ({ ...court, decision_count: counts.get(court.court_id) ?? 0 }));
}

/**
 * `GET /v1/catalog/source-types`: HTTP 200 `{"source_types": [{id, name, case_law, document_count}]}`, the corpus's
 * source types and the spec's named ones it lacks, with 0 documents (see {@link catalogSourceTypes}).
 * `GET /v1/catalog/courts` (no parameters): HTTP 200 `{"courts": [{court_id, name, court_type, ecli_code,
 * parent_court_id, decision_count}]}` (see {@link catalogCourts}); `[]` when the sandbox has neither a courts file nor
 * decisions. The judges catalog is `judges.ts`.
 */
export const CATALOG_ROUTES: readonly Route[] = [
  {
    method: 'GET',
    pattern: PATHS.sourceTypes,
    auth: 'api-key',
    status: 200,
    handler: ({ deps }): SourceTypesResponse => ({ source_types: catalogSourceTypes(deps.index.sourceTypes()) }),
  },
  {
    method: 'GET',
    pattern: PATHS.courts,
    auth: 'api-key',
    status: 200,
    handler: ({ deps }): CourtsResponse => ({ courts: catalogCourts(deps.index) }),
  },
];
