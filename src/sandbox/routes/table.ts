/**
 * The table of every endpoint of the spec (spec: Endpoints; 13 routes), all served.
 *
 * | method | pattern | auth | quota | served |
 * |---|---|---|---|---|
 * | POST | /v1/search | api-key | search | yes (`search.ts`) |
 * | GET | /v1/catalog/source-types | api-key | | yes (`catalog.ts`) |
 * | GET | /v1/catalog/courts | api-key | | yes (`catalog.ts`) |
 * | GET | /v1/catalog/judges | api-key | | yes (`judges.ts`) |
 * | GET | /v1/documents | api-key | retrieval | yes (`documents.ts`) |
 * | GET | /v1/usage | api-key | | yes (`usage.ts`) |
 * | POST | /v1/answers | api-key | answers | yes, 202 (`answers.ts`) |
 * | GET | /v1/answers/:job_id | api-key | | yes (`answers.ts`) |
 * | GET | /v1/keys | session | | yes (`keys.ts`) |
 * | POST | /v1/keys | session | | yes, 201 (`keys.ts`) |
 * | POST | /v1/keys/:key_id/revoke | session | | yes (`keys.ts`) |
 * | GET | /v1/account | session | | yes (`account.ts`) |
 * | PATCH | /v1/account/overages | session | | yes (`account.ts`) |
 *
 * An endpoint of the spec not built yet would be a route made by `notImplemented` (answered 501 `not_implemented`).
 */
import type { Route } from '../http/router.js';
import { ACCOUNT_ROUTES } from './account.js';
import { ANSWER_ROUTES } from './answers.js';
import { CATALOG_ROUTES } from './catalog.js';
import { DOCUMENT_ROUTES } from './documents.js';
import { JUDGES_ROUTES } from './judges.js';
import { KEY_ROUTES } from './keys.js';
import { SEARCH_ROUTES } from './search.js';
import { USAGE_ROUTES } from './usage.js';

/** Every route of the sandbox, in matching order. */
export const ROUTES: readonly Route[] = [
  ...SEARCH_ROUTES,
  ...CATALOG_ROUTES,
  ...JUDGES_ROUTES,
  ...DOCUMENT_ROUTES,
  ...USAGE_ROUTES,
  ...ANSWER_ROUTES,
  ...KEY_ROUTES,
  ...ACCOUNT_ROUTES,
];
