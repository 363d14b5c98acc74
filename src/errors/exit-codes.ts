/**
 * Exit codes of `pravo`, documented in the README ("Exit codes"). Scripts may rely on them; never renumber.
 */
export const EXIT = {
  /** The command did what was asked. */
  ok: 0,
  /** Any other failure: a server error, an unexpected response, a request the server rejected (`invalid_request`). */
  error: 1,
  /** Bad arguments, options or configuration, found before anything was sent. */
  usage: 2,
  /** Authentication: no key configured, or `missing_api_key`, `invalid_api_key`, `revoked_api_key`. */
  auth: 4,
  /** `monthly_quota_exceeded`. */
  quota: 5,
  /** Network failure or timeout: the server could not be reached, or the request may have reached it. */
  network: 6,
  /** The answer job ended `failed` (its `error_code`, e.g. `timed_out`, is printed; spec: Answer job). */
  answerFailed: 7,
  /** `pravo answer --verify`: at least one cited passage was not found in its document, or could not be checked. */
  verificationFailed: 8,
  /**
   * `pravo batch` ran to its end but not every line of its input succeeded: some failed (their results lines hold the
   * error), were interrupted (they may have been counted; `--retry-interrupted`), or are unfinished or not sent.
   */
  batchIncomplete: 9,
  /** Cancelled by the user (Ctrl-C). */
  cancelled: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
