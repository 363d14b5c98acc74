/** The catalogs (spec: GET /v1/catalog/source-types, GET /v1/catalog/courts, GET /v1/catalog/judges). */
import { isCourtSourceType, KNOWN_SOURCE_TYPES, PATHS, type SourceTypeEntry, type SourceTypesResponse } from '../../api/types.js';
import { SOURCE_TYPE_NAMES } from '../corpus/index-db.js';
import type { Route } from '../http/router.js';
import { notImplemented } from './not-implemented.js';

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
 * `GET /v1/catalog/source-types`: HTTP 200 `{"source_types": [{id, name, case_law, document_count}]}`, the corpus's
 * source types and the spec's named ones it lacks, with 0 documents (see {@link catalogSourceTypes}). Courts and judges
 * are not served yet (501).
 */
export const CATALOG_ROUTES: readonly Route[] = [
  {
    method: 'GET',
    pattern: PATHS.sourceTypes,
    auth: 'api-key',
    status: 200,
    handler: ({ deps }): SourceTypesResponse => ({ source_types: catalogSourceTypes(deps.index.sourceTypes()) }),
  },
  notImplemented({ method: 'GET', pattern: PATHS.courts, auth: 'api-key' }),
  notImplemented({ method: 'GET', pattern: PATHS.judges, auth: 'api-key' }),
];
