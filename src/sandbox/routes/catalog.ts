/** The catalogs (spec: GET /v1/catalog/source-types, GET /v1/catalog/courts, GET /v1/catalog/judges). */
import { PATHS, type SourceTypesResponse } from '../../api/types.js';
import type { Route } from '../http/router.js';
import { notImplemented } from './not-implemented.js';

/**
 * `GET /v1/catalog/source-types`: HTTP 200 `{"source_types": [{id, name, case_law, document_count}]}`, the corpus's
 * source types (see `SearchIndex.sourceTypes`). Courts and judges are not served yet (501).
 */
export const CATALOG_ROUTES: readonly Route[] = [
  {
    method: 'GET',
    pattern: PATHS.sourceTypes,
    auth: 'api-key',
    status: 200,
    handler: ({ deps }): SourceTypesResponse => ({ source_types: deps.index.sourceTypes() }),
  },
  notImplemented({ method: 'GET', pattern: PATHS.courts, auth: 'api-key' }),
  notImplemented({ method: 'GET', pattern: PATHS.judges, auth: 'api-key' }),
];
