/** The contract's limits (spec: Limits; POST /v1/search; Catalog endpoints; Key and account endpoints). */

/** Limits of `POST /v1/search` and `POST /v1/answers` (spec: POST /v1/search, Limits). */
export const LIMITS = {
  /** `query` length in characters (Unicode code points), inclusive. */
  queryMinLength: 3,
  queryMaxLength: 2000,
  /** `max_results`, inclusive; the server's default when omitted. */
  maxResultsMin: 1,
  maxResultsMax: 50,
  maxResultsDefault: 20,
  /** Timeout the spec's reference example uses for search, in milliseconds. */
  searchTimeoutMs: 60_000,
  /**
   * An answer job still `queued` or `running` this long after its creation becomes `failed` with `timed_out` at the
   * next status check, its unit restored (spec: Limits, "Answer job timeout": 15 minutes), in milliseconds.
   */
  answerJobTimeoutMs: 15 * 60 * 1000,
} as const;

/**
 * `limit` of `GET /v1/catalog/judges` (spec: "Bounds and default: not shown"; the sandbox's): an integer 1 to 100,
 * default 20.
 */
export const JUDGES_LIMIT = { min: 1, max: 100, default: 20 } as const;

/** Longest key name accepted by `POST /v1/keys`, in characters (the sandbox's bound). */
export const KEY_NAME_MAX_LENGTH = 100;

/** Largest `monthly_limit` of overage accepted, in units per month (the sandbox's bound; spec: "not shown"). */
export const OVERAGE_LIMIT_MAX = 1_000_000;
