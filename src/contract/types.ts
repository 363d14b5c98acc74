/**
 * The Legal Research API contract (`shared/spec/legal-research-api.md`) as TypeScript: the one place where the
 * contract's field names, limits and request rules live. Both sides import it: the CLI (`src/api`, `src/commands`,
 * `src/render`) and the sandbox server (`src/sandbox`), which must import nothing else from the CLI side.
 *
 * Where the spec says "not shown", the names below are the sandbox's documented choices (docs/sandbox.md,
 * "Response fields the spec leaves open"); renderers read them through the tolerant accessors of `src/render/fields.ts`
 * so that a live service using other names still renders. Beside it: `paths.ts` (endpoints), `limits.ts`, `errors.ts`
 * (error codes) and `requests.ts` (the request rules both sides check).
 */


/** Source types the spec names (spec: POST /v1/search, `source_types`). Others come from the catalog. */
export const KNOWN_SOURCE_TYPES = {
  laws: 'bulgarian_laws_regulations',
  highCourts: 'high_courts_cases',
} as const;

/**
 * Whether a source type holds court decisions (case law), for the rule "`court_ids` with only non-court sources is
 * `invalid_request`" (spec: POST /v1/search, rule 1). Known types are decided by name; for an unknown type the answer
 * is `undefined`, and only the server can decide.
 */
export function isCourtSourceType(sourceType: string): boolean | undefined {
  if (sourceType === KNOWN_SOURCE_TYPES.highCourts) return true;
  if (sourceType === KNOWN_SOURCE_TYPES.laws) return false;
  return undefined;
}

/** Request body of `POST /v1/search` (spec: POST /v1/search). `include_content` is deprecated and never sent. */
export interface SearchRequest {
  /** 3 to 2000 characters. */
  query: string;
  /** Source types from the catalog; omitted = the service chooses by the question. */
  source_types?: string[];
  /** Court identifiers from the catalog; applies to case-law sources only. */
  court_ids?: number[];
  /** Case-insensitive, approximate match on the reporting judge. */
  judge_name?: string;
  /** Inclusive lower bound of the publication date, `YYYY-MM-DD`. */
  date_from?: string;
  /** Inclusive upper bound of the publication date, `YYYY-MM-DD`. */
  date_to?: string;
  /** 1 to 50; server default 20. */
  max_results?: number;
}

/**
 * One excerpt of a search result: a relevant article or paragraph (spec: Search result, `excerpts`).
 * `excerpt_id` is the contract's; `label`, `score` and `text` are the sandbox's names for what the spec leaves open.
 */
export interface Excerpt {
  /** Identifier of the excerpt; answer citations point to it. */
  excerpt_id: string;
  /** Article or paragraph label as in the source, e.g. `Чл. 405.` or `§ 12.`. */
  label?: string;
  /** Relevance score of the excerpt, 0 to 1 (sandbox: relative to the best excerpt of the response). */
  score?: number;
  /** The relevant passage of the article, never the whole document. */
  text?: string;
}

/** One ranked search result (spec: Search result). Never carries the document's full text. */
export interface SearchResult {
  /** With `collection`, identifies the document for `GET /v1/documents`. */
  document_id: string;
  /** Opaque; store unchanged with `document_id`, never derive meaning from it. */
  collection: string;
  /** Document type, e.g. `Закон`, `Кодекс`. */
  type: string;
  title: string;
  /** Publication date, `YYYY-MM-DD`. */
  date: string;
  author: string;
  url: string;
  excerpts: Excerpt[];
  /** Relevance score, 0 to 1 (sandbox: on one scale for all queries, see `absoluteScore` in src/sandbox/search/ranking.ts). */
  score?: number;
  /** Why the result is relevant, in Bulgarian; `null` when not available. */
  explanation?: string | null;
  /** Source type the result came from (sandbox addition). */
  source_type?: string;
  /**
   * The date the document's text is current as of, `YYYY-MM-DD` (sandbox addition; statutes): the date up to which
   * amendments are applied when `consolidated`, else the text's publication. Absent when unknown.
   */
  as_of?: string;
  /** True: a consolidated text (amendments applied up to `as_of`); false: the text as published (sandbox addition). */
  consolidated?: boolean;
  /**
   * The date the text at `url` is current as of, `YYYY-MM-DD`, when that page shows the act's current text rather than
   * the text served (sandbox addition: a lex.bg page, whose text may be newer than a text here as first published).
   * Absent when the page shows the text served, or its date is unknown.
   */
  url_as_of?: string;
  /**
   * For an act that amends another act the service does not hold: that act's title, in the nominative (sandbox
   * addition), e.g. `Закон за движението по пътищата`. When the first result carries it, the best evidence found for
   * the question is the amendments of an act the service lacks, and `pravo search` / `pravo answer` say so.
   */
  absent_act?: string;
  /**
   * True when the result's `score` is under half of the first result's (sandbox addition; the rule is `isWeakMatch`,
   * `src/shared/weak-match.ts`): a weak match, shown apart by `pravo search`.
   */
  weak_match?: boolean;
  /** Court-decision data, present for court decisions only. */
  decision_number?: string;
  case_number?: string;
  reporting_judge?: string;
  court_id?: number;
  court?: string;
}

/** Response of `POST /v1/search` (spec: Search response). */
export interface SearchResponse {
  /** Echo of the query. */
  query: string;
  /** Number of results; 0 when nothing matches. */
  result_count: number;
  /** Ranked results; empty when nothing matches. */
  results: SearchResult[];
  /** Why nothing matched (sandbox addition, only when `results` is empty): see {@link NoResultsReason}. */
  no_results_reason?: NoResultsReason;
}

/** The search filters the sandbox reports on, in the order it applies them (see {@link NoResultsReason}). */
export const SEARCH_FILTERS = ['source_types', 'court_ids', 'judge_name', 'date_from', 'date_to'] as const;

/** A request field that filters the documents searched. */
export type SearchFilter = (typeof SEARCH_FILTERS)[number];

/** A value among the documents a search's filters left, with how many of them have it. */
export interface FilterCount {
  value: string;
  documents: number;
  /** For a court: the years of its documents' dates (sandbox, `no_results_reason.left.courts`). */
  years?: { from: number; to: number };
}

/**
 * Why a search found nothing (sandbox addition to a search response without results; docs/sandbox.md, "Why nothing
 * was found"): which filter left how many documents, and what the documents left are.
 */
export interface NoResultsReason {
  /**
   * `no_words`: the query has no word that is searched (only common words or single characters); `no_documents`: the
   * filters leave no document; `no_match`: documents were left and none holds the query's words.
   */
  kind: 'no_words' | 'no_documents' | 'no_match';
  /**
   * The source types searched (`source_types` as given, or as the service chose them), then each other filter the
   * request gave, in the order of {@link SEARCH_FILTERS}, each with the documents left after it and those before it.
   */
  filters: { filter: SearchFilter; documents: number }[];
  /**
   * The documents every filter left, or, when none is left, those left before the filter that left none: how many, by
   * source type, by court, by case kind and by department (most documents first, at most 5 of each), and the years of
   * their dates (`null` when there are none).
   */
  left: {
    documents: number;
    source_types: FilterCount[];
    /** Each court with the years of its documents. */
    courts: FilterCount[];
    years: { from: number; to: number } | null;
    /** The first and the last date (`YYYY-MM-DD`) of the documents left; `null` when there are none. */
    dates?: { from: string; to: string } | null;
    case_kinds: FilterCount[];
    departments: FilterCount[];
    /**
     * With `judge_name`: the judges of the decisions left (those of the filters before it when it left none): how many
     * distinct names their panels give, how many of them record no panel (no judge can find them), and the names
     * nearest to the one asked for (a word of it fits a word of theirs; most fitting words, then most decisions, at
     * most 5), each with its decisions.
     */
    judges?: { named: number; without_panel: number; nearest: FilterCount[] };
  };
  /**
   * When the request gave filters (source types or others) and the query had words to search: the documents of the
   * whole corpus, whatever the filters, that hold a word of the query (as the search matches it), with how many are of
   * each source type and court (at most 5 of each): what widening the filters would find. Absent otherwise.
   */
  elsewhere?: { documents: number; source_types: FilterCount[]; courts: FilterCount[] };
}

/** One entry of `GET /v1/catalog/source-types` (sandbox's shape; the spec does not show the fields). */
export interface SourceTypeEntry {
  /** The value to send in `source_types`. */
  id: string;
  /** Human-readable name, in Bulgarian. */
  name: string;
  /** Whether the type holds court decisions (so `court_ids` applies). */
  case_law: boolean;
  /** Documents of this type in the collection. */
  document_count: number;
}

/** Response of `GET /v1/catalog/source-types` in the sandbox. */
export interface SourceTypesResponse {
  source_types: SourceTypeEntry[];
}

/** States of an answer job (spec: States and transitions, Answer job); the last two are final. */
export const ANSWER_JOB_STATES = ['queued', 'running', 'succeeded', 'failed'] as const;

/** State of an answer job. */
export type AnswerJobStatus = (typeof ANSWER_JOB_STATES)[number];

/** Whether an answer job's status is final (`succeeded` or `failed`). */
export function isFinalAnswerJobStatus(status: AnswerJobStatus): boolean {
  return status === 'succeeded' || status === 'failed';
}

/** Response of `POST /v1/answers`, HTTP 202 (spec: POST /v1/answers). */
export interface AnswerJobCreated {
  job_id: string;
  /** `queued` on creation. */
  status: string;
  /** Relative address `/v1/answers/<job_id>`. */
  poll_url: string;
  [key: string]: unknown;
}

/** An answer job as `GET /v1/answers/{job_id}` returns it, HTTP 200 in every status (spec: Answer job). */
export interface AnswerJob {
  job_id: string;
  status: AnswerJobStatus;
  /** Present when `succeeded`: the query. */
  query?: string;
  /** Present when `succeeded`: answer text in Bulgarian with citation markers in square brackets. */
  answer?: string;
  /** Present when `succeeded`: the sources; each citation marker points to an `excerpt_id` or `document_id` here. */
  sources?: Array<Partial<SearchResult> & Record<string, unknown>>;
  /** Present when `failed`, e.g. `timed_out`. */
  error_code?: string;
  /** Present when `failed`: human-readable message. */
  error_message?: string;
  [key: string]: unknown;
}

/**
 * One element of a document's structured content (spec: Document response, `elements`; fields not shown there, these
 * are the sandbox's names). An excerpt of a search result or an answer source points at the element with the same
 * `excerpt_id`. Renderers read the fields tolerantly (`elementLabelOf`, `elementTextOf`): a live service may differ.
 */
export interface DocumentElement {
  /** `<document_id>:<ref>`, unique within the document (a repeated ref gets `~2`, `~3`… in document order). */
  excerpt_id?: string;
  /** Reference within the document: an article number such as `45а` (statutes), a paragraph number (decisions). */
  ref?: string;
  /** Label as in the source: `Чл. 45а.` (statutes), `¶ 3` (decisions). */
  label?: string;
  /** The element's full text. */
  text?: string;
  [key: string]: unknown;
}

/**
 * Response of `GET /v1/documents` (spec: Document response; fields other than `elements` are not shown there). The
 * sandbox sends every field of the corpus document: the search-result fields (`document_id`, `collection`,
 * `source_type`, `type`, `title`, `date`, `author`, `url`), `in_force_date` and `signature` (string or null), for court
 * decisions the court fields (`court_id`, `court`, `decision_number`, `case_number`, `case_kind`, `department`,
 * `reporting_judge`, `judges`), and the ordered `elements`.
 */
export interface DocumentResponse {
  document_id?: string;
  collection?: string;
  source_type?: string;
  type?: string;
  title?: string;
  date?: string;
  author?: string;
  url?: string;
  in_force_date?: string | null;
  signature?: string | null;
  /** The date the text is current as of, `YYYY-MM-DD` (sandbox addition; see `SearchResult.as_of`). */
  as_of?: string;
  /** True: consolidated up to `as_of`; false: the text as published (sandbox addition). */
  consolidated?: boolean;
  /** The date the text at `url` is current as of (sandbox addition; see `SearchResult.url_as_of`). */
  url_as_of?: string;
  court_id?: number;
  court?: string;
  decision_number?: string | null;
  case_number?: string | null;
  /** E.g. `наказателно дело`, `касационно административно дело`. */
  case_kind?: string | null;
  /** E.g. `Първо наказателно отделение`. */
  department?: string | null;
  reporting_judge?: string | null;
  /** Every member of the panel, the chair first. */
  judges?: string[];
  /** Ordered, present when the document has structured content; for display by article or paragraph. */
  elements?: DocumentElement[];
  [key: string]: unknown;
}

/**
 * One court of `GET /v1/catalog/courts` (spec: "court identifiers (integers, usable in `court_ids`)"; the other field
 * names are the sandbox's, after `shared/corpus/README.md`, `bg-courts.json`).
 */
export interface CourtEntry {
  /** The court's numeric code (the 3-digit number of its ECLI code; 0 is the Конституционен съд: mind that 0 is falsy). */
  court_id: number;
  /** Official name, e.g. `Окръжен съд – Благоевград`. */
  name: string;
  /** E.g. `Районен съд`, `Административен съд`; null when unknown. */
  court_type?: string | null;
  /** ECLI court code, e.g. `SC001`; null when unknown. */
  ecli_code?: string | null;
  /** The court an appeal goes to (ordinary instance chain); null for the supreme courts or when unknown. */
  parent_court_id?: number | null;
  /** Decisions of this court in the collection. */
  decision_count?: number;
  [key: string]: unknown;
}

/** Response of `GET /v1/catalog/courts` in the sandbox. */
export interface CourtsResponse {
  courts: CourtEntry[];
}

/** One judge of `GET /v1/catalog/judges` (sandbox's names; the spec does not show the fields). */
export interface JudgeEntry {
  /** The judge's name as printed in the decisions (title case). */
  name: string;
  /** Decisions of the court(s) asked about whose panel includes the judge. */
  decision_count: number;
  /** Date (`YYYY-MM-DD`) of the latest of those decisions. */
  latest_date: string;
  /** The courts of those decisions. */
  court_ids: number[];
  [key: string]: unknown;
}

/** Response of `GET /v1/catalog/judges` in the sandbox: the court asked about (null when none was) and its judges. */
export interface JudgesResponse {
  court: { court_id: number; name: string } | null;
  judges: JudgeEntry[];
}

/**
 * The quota kinds (spec: Quota rules): searches, document retrievals (the spec's "retrieval quota") and answer jobs,
 * each with its own monthly quota. The names are those of `GET /v1/usage`, of `sandbox serve --quota` and of
 * `pravo batch`'s plan.
 */
export const QUOTA_KINDS = ['search', 'retrieval', 'answers'] as const;

/** One of {@link QUOTA_KINDS}. */
export type QuotaKind = (typeof QUOTA_KINDS)[number];

/**
 * One kind's consumption in `GET /v1/usage` (spec: "Usage includes consumption against a monthly quota"; field names
 * are the sandbox's, documented in docs/sandbox.md, "Sandbox: usage"). All counts are quota units of this kind in the
 * period.
 */
export interface QuotaUsage {
  /** Units consumed in the period, overage included. */
  used: number;
  /** The monthly quota; null when unlimited. */
  limit: number | null;
  /** Units left within the quota, `max(0, limit - used)`; null when unlimited. Overage is not included. */
  remaining: number | null;
  /** Units of this kind consumed beyond its quota (part of `used`, counted against `overage.limit`). */
  overage_used: number;
  [key: string]: unknown;
}

/**
 * The account's overage in `GET /v1/usage` (spec: "the account holds whether extra consumption (overage) is allowed
 * and a monthly limit for it"). Units beyond the quotas, every kind together, in the period.
 */
export interface OverageUsage {
  /** Whether consumption beyond a quota is allowed. */
  allowed: boolean;
  /** Overage units allowed per month, all kinds together (0 when not allowed). */
  limit: number;
  /** Overage units consumed in the period, all kinds together. */
  used: number;
  [key: string]: unknown;
}

/**
 * Response of `GET /v1/usage` (spec: GET /v1/usage; fields "not shown", these are the sandbox's): the billing period,
 * the plan, each quota kind's consumption and the overage. A client reads it tolerantly: the live service may name
 * things otherwise (see `readUsage` in `usage.ts`).
 */
export interface UsageResponse {
  /** The period counted: a calendar month in UTC. `start` inclusive, `end` exclusive, ISO 8601 UTC; `month` `YYYY-MM`. */
  period: { start: string; end: string; month: string };
  /** The account's plan, e.g. `sandbox`. */
  plan?: string;
  /** Consumption per quota kind. */
  quotas: Partial<Record<QuotaKind, QuotaUsage>> & Record<string, unknown>;
  overage: OverageUsage;
  [key: string]: unknown;
}

/** The states of an API key (spec: States and transitions, API key): active, or revoked (rejected with `revoked_api_key`). */
export const API_KEY_STATUSES = ['active', 'revoked'] as const;

/** One of {@link API_KEY_STATUSES}. */
export type ApiKeyStatus = (typeof API_KEY_STATUSES)[number];

/**
 * An API key record (spec: Records whose fields are only partly given: "a name, a prefix, a plan, a status and time
 * data; never the secret value"; the field names are the sandbox's, docs/sandbox.md, "Sandbox: keys and account").
 * Times are ISO 8601 UTC. A client reads a live service's records tolerantly (`readKeyRecord` in `keys.ts`).
 */
export interface ApiKeyRecord {
  /** The key's id, e.g. `key_3f9a…`; the path parameter of `POST /v1/keys/{key_id}/revoke`. */
  key_id: string;
  /** The name given at creation. */
  name: string;
  /** The non-secret start of the key, e.g. `sbx_live_Ab3d`: the key itself begins with it. */
  prefix: string;
  /** The plan of the key's account at creation, e.g. `sandbox`. */
  plan: string;
  status: ApiKeyStatus;
  created_at: string;
  /** When a request last authenticated with it (to the minute); null when never. */
  last_used_at: string | null;
  /** When it was revoked; null while active. */
  revoked_at: string | null;
  [key: string]: unknown;
}

/**
 * Response of `POST /v1/keys` (HTTP 201): the new key's record and, in `api_key`, the full key, shown this once and
 * never again (spec: API key facts).
 */
export interface CreatedApiKey extends ApiKeyRecord {
  api_key: string;
}

/** Body of `POST /v1/keys`: the key's name (1 to {@link KEY_NAME_MAX_LENGTH} characters, no control characters). */
export interface KeyCreateRequest {
  name: string;
}

/** Response of `GET /v1/keys`: the account's keys, oldest first, never their secrets. */
export interface ApiKeyList {
  keys: ApiKeyRecord[];
  [key: string]: unknown;
}

/**
 * The account's overage setting (spec: "the account holds whether extra consumption (overage) is allowed and a
 * monthly limit for it"; Quota rules 4): units beyond the quotas per calendar month, every kind together.
 */
export interface AccountOverage {
  allowed: boolean;
  /** Overage units allowed per month, all kinds together; 0 when not allowed. */
  monthly_limit: number;
  [key: string]: unknown;
}

/**
 * The price of one unit consumed beyond the quota, per kind (spec: "Unit prices are set by the server and cannot be
 * changed by the client"): decimal amounts in `currency` (ISO 4217, e.g. `EUR`).
 */
export interface UnitPrices {
  currency: string;
  search: number;
  retrieval: number;
  answers: number;
  [key: string]: unknown;
}

/**
 * Response of `GET /v1/account` and of `PATCH /v1/account/overages` (spec: Key and account endpoints; fields "not
 * shown", these are the sandbox's, docs/sandbox.md, "Sandbox: keys and account").
 */
export interface AccountResponse {
  account_id: string;
  /** The plan whose monthly quotas apply, e.g. `sandbox`. */
  plan: string;
  overage: AccountOverage;
  /** Read-only: set by the server. */
  unit_prices: UnitPrices;
  created_at: string;
  [key: string]: unknown;
}

/**
 * Body of `PATCH /v1/account/overages`: `{"allowed": true, "monthly_limit": N}` (N a whole number from 1 to
 * {@link OVERAGE_LIMIT_MAX}) or `{"allowed": false}` (`monthly_limit` absent or 0). Anything else, a price among it,
 * is refused with 400 `invalid_request`.
 */
export type OverageUpdateRequest = { allowed: true; monthly_limit: number } | { allowed: false; monthly_limit?: 0 };

/** Live keys carry a fixed prefix ending in `_live_` (spec: API key facts). */
export const LIVE_KEY_PATTERN = /^[a-z0-9]+_live_[A-Za-z0-9_-]{16,}$/;
