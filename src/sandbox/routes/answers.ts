/** `POST /v1/answers` and `GET /v1/answers/{job_id}` (spec: POST /v1/answers, GET /v1/answers/{job_id}, Answer job). */
import { ERROR_CODES } from '../../contract/errors.js';
import { PATHS } from '../../contract/paths.js';
import { searchRequestProblems } from '../../contract/requests.js';
import type { AnswerJob, AnswerJobCreated, SearchRequest } from '../../contract/types.js';
import type { AnswerRunner } from '../answers/jobs.js';
import { HttpError } from '../http/errors.js';
import type { Route, RouteContext, ServerDeps } from '../http/router.js';
import { checkSearchRequest } from '../search/pipeline.js';
import { SearchRequestError } from '../search/source-types.js';
import { quotaExceeded } from './quota.js';

/** The server's answer runner. @throws HttpError 501 `not_implemented` when the server was created without one. */
function runnerOf(deps: ServerDeps, method: string, pattern: string): AnswerRunner {
  if (!deps.answers) throw new HttpError(501, 'not_implemented', `The sandbox does not serve ${method} ${pattern} yet.`);
  return deps.answers;
}

/**
 * `POST /v1/answers`: the body rules of search (`searchRequestProblems`: 400 `invalid_request` listing every
 * problem), then what the search itself rejects (`checkSearchRequest`: an unknown source type, `court_ids` with only
 * non-court types: 400 `invalid_request`), both before anything is consumed; `include_content` is ignored. Then one
 * unit of the key's account's `answers` quota (or of its overage) is consumed and the job stored `queued` (429
 * `monthly_quota_exceeded`, nothing stored, when refused: see `quotaExceeded`), and its execution scheduled in this process (see `AnswerRunner`).
 * @returns HTTP 202 `{"job_id":"ans_…","status":"queued","poll_url":"/v1/answers/ans_…"}`.
 * @throws HttpError 400/413/429 as above, 501 without a runner; the state store's error (busy/full → 503).
 */
async function handleCreate({ body, deps, keyId, accountId }: RouteContext): Promise<AnswerJobCreated> {
  const runner = runnerOf(deps, 'POST', PATHS.answers);
  const request = await body();
  const problems = searchRequestProblems(request);
  if (problems.length > 0) {
    throw new HttpError(400, ERROR_CODES.invalidRequest, problems.map((p) => p.message).join('; '));
  }
  try {
    checkSearchRequest(deps.index, request as SearchRequest);
  } catch (error) {
    if (error instanceof SearchRequestError) throw new HttpError(400, error.code, error.message);
    throw error;
  }
  const creation = runner.create(request as SearchRequest, { keyId, accountId });
  if (!creation.created) throw quotaExceeded(creation.consumption);
  return creation.job;
}

/**
 * `GET /v1/answers/{job_id}`: the job in every status with HTTP 200 (see `AnswerRunner.check` and `jobBody`), after
 * the 15-minute rule; `HEAD` is a status check too. A job of another account, or no job with this id: 404
 * `not_found`.
 * @throws HttpError 404 as above, 501 without a runner; the state store's error (busy/full → 503).
 */
function handleCheck({ params, deps, accountId }: RouteContext): AnswerJob {
  const job = runnerOf(deps, 'GET', PATHS.answer).check(params.job_id ?? '', accountId);
  if (!job) {
    throw new HttpError(404, 'not_found', "No answer job has this job_id for this API key's account. Take it from the response of POST /v1/answers.");
  }
  return job;
}

/** The answer routes. */
export const ANSWER_ROUTES: readonly Route[] = [
  { method: 'POST', pattern: PATHS.answers, auth: 'api-key', quota: 'answers', status: 202, handler: handleCreate },
  { method: 'GET', pattern: PATHS.answer, auth: 'api-key', status: 200, handler: handleCheck },
];
