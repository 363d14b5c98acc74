/**
 * The table of every endpoint of the spec (spec: Endpoints; 13 routes), the built ones and those answered 501.
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
 * | GET, POST | /v1/keys | session | | 501 |
 * | POST | /v1/keys/:key_id/revoke | session | | 501 |
 * | GET | /v1/account | session | | 501 |
 * | PATCH | /v1/account/overages | session | | 501 |
 */
import { PATHS } from '../../api/types.js';
import type { Route } from '../http/router.js';
import { ANSWER_ROUTES } from './answers.js';
import { CATALOG_ROUTES } from './catalog.js';
import { DOCUMENT_ROUTES } from './documents.js';
import { JUDGES_ROUTES } from './judges.js';
import { notImplemented } from './not-implemented.js';
import { SEARCH_ROUTES } from './search.js';
import { USAGE_ROUTES } from './usage.js';

/** Key management (spec: Key and account endpoints), user-session auth. */
const KEY_ROUTES: readonly Route[] = [
  notImplemented({ method: 'GET', pattern: PATHS.keys, auth: 'session' }),
  notImplemented({ method: 'POST', pattern: PATHS.keys, auth: 'session' }),
  notImplemented({ method: 'POST', pattern: `${PATHS.keys}/:key_id/revoke`, auth: 'session' }),
];

/** Account management (spec: Key and account endpoints), user-session auth. */
const ACCOUNT_ROUTES: readonly Route[] = [
  notImplemented({ method: 'GET', pattern: PATHS.account, auth: 'session' }),
  notImplemented({ method: 'PATCH', pattern: PATHS.accountOverages, auth: 'session' }),
];

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
