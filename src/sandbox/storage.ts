/**
 * The sandbox's storage as the rest of the sandbox sees it: interfaces and record shapes only, no code and no storage
 * engine. Two stores:
 * - {@link SandboxStore}: the account state (keys, sessions, accounts, usage), implemented by `SandboxState`
 *   (`state/store.ts`);
 * - {@link SearchIndex}: the corpus index (documents, articles, courts, the catalog, the thesaurus), implemented by
 *   `openIndex` / `openIndexFile` (`corpus/index-db.ts`), with the rows it returns ({@link DocumentRow},
 *   {@link ArticleRow}, {@link CourtRow}, {@link StoredDocument}).
 *
 * The HTTP layer (`http/`, `routes/`) and the search (`search/`) import these types (`import type`), never the
 * implementations: which engine stores the data is the server assembly's business (`start.ts` opens both stores and
 * hands them to `createSandboxServer`). A store's methods throw its own errors; {@link SandboxStore.unavailable} tells
 * which of them mean that the store is unavailable for a moment (busy or full), which the server answers with 503
 * `service_unavailable` and `Retry-After: 1` (`http/errors.ts`, `knownHttpError`) without knowing what they are.
 */
import type { AccountResponse, ApiKeyRecord, CreatedApiKey, DocumentElement, DocumentResponse, QuotaKind, SourceTypeEntry, UsageResponse } from '../contract/types.js';
import type { AmendedByEntry, AmendsEntry } from './corpus/amended-by.js';
import type { CaseLawReport, CitedByEntry, CitesEntry, RulingEntry } from './corpus/case-law.js';
import type { SkippedInput } from './corpus/collect.js';
import type { CourtRecord } from './corpus/reader.js';
import type { Account, OverageSetting } from './state/accounts.js';
import type { KeyCheck } from './state/keys.js';
import type { SessionCheck } from './state/sessions.js';
import type { Consumption } from './state/usage.js';
import type { ThesaurusSense } from './text/thesaurus.js';

/**
 * Why the state store cannot serve a request just now, though nothing is wrong with the request: the server answers
 * it with 503 `service_unavailable`, `Retry-After: 1` and `message` (spec: Errors; the body is the sandbox's).
 */
export interface StorageUnavailable {
  /** `busy`: another process holds a lock on the store past the wait allowed; `full`: the store or its disk is full. */
  reason: 'busy' | 'full';
  /** The response's `error.message`: what is unavailable and what to do about it. Never holds a key. */
  message: string;
}

/**
 * The account state as the HTTP layer uses it (spec: Authentication; Key and account endpoints; Quota rules; GET
 * /v1/usage): one handle per process, shared by every request. Implemented by `SandboxState` (`state/store.ts`),
 * whose docs give each method's full contract. Every method may throw the store's own error (a lock held by another
 * process, a full disk, a broken file); {@link SandboxStore.unavailable} says which of those are a moment's
 * unavailability.
 */
export interface SandboxStore {
  /**
   * Checks a presented API key (spec: Authentication, rule 3): `{ok: true, key_id, account_id}`, or `{ok: false,
   * code}` with `invalid_api_key` (malformed or unknown) or `revoked_api_key`. May answer from a cache of keys
   * accepted within the handle's authentication cache TTL (spec: Authentication rule 4).
   */
  authenticate(apiKey: string): KeyCheck;
  /**
   * Checks a presented user-session token (spec: Authentication, User-session token): `{ok: true, session_id,
   * account_id}`, or `{ok: false, code}` with `invalid_session_token` or `expired_session_token`.
   */
  authenticateSession(token: string): SessionCheck;
  /** The keys of `accountId` for `GET /v1/keys`, oldest first; never a secret. */
  listKeys(accountId: string): ApiKeyRecord[];
  /**
   * Creates an active key of `accountId` named `name` for `POST /v1/keys`: its record and, in `api_key`, the full key
   * (shown this once). Nothing is stored when it throws.
   */
  createKey(accountId: string, name: string): CreatedApiKey;
  /**
   * Revokes the key `keyId` of `accountId` (`POST /v1/keys/{key_id}/revoke`; idempotent): its record after the
   * revocation; undefined when `accountId` has no key with this id (nothing is changed).
   */
  revokeKey(accountId: string, keyId: string): ApiKeyRecord | undefined;
  /** The body of `GET /v1/account` for `accountId`; undefined when the account has no row. */
  accountResponse(accountId: string): AccountResponse | undefined;
  /**
   * Stores the account's overage setting (spec: Quota rules 4; `PATCH /v1/account/overages`): allowed or not and its
   * monthly limit in units. Returns the account as stored now; undefined when it has no row (nothing is stored).
   * @throws RangeError when `setting.limit` is not a whole number from 0 to `Number.MAX_SAFE_INTEGER`.
   */
  setOverage(accountId: string, setting: OverageSetting): Account | undefined;
  /**
   * Consumes one unit of `kind` for `accountId` in the current month (UTC), within the quota or as overage, or refuses
   * it with nothing counted (spec: Quota rules): see `Consumption`. Nothing is consumed when it throws.
   */
  consume(accountId: string, kind: QuotaKind): Consumption;
  /** What {@link SandboxStore.consume} would do now, consuming nothing. */
  preview(accountId: string, kind: QuotaKind): Consumption;
  /** Whether one more unit of `kind` could be consumed now by `accountId`, consuming nothing. */
  allows(accountId: string, kind: QuotaKind): boolean;
  /**
   * Gives back one unit of `kind` to `accountId`'s `month` (`YYYY-MM`, UTC; default the current month), never below
   * zero; true when a unit was given back.
   */
  release(accountId: string, kind: QuotaKind, month?: string): boolean;
  /** The body of `GET /v1/usage` for `accountId` (spec: GET /v1/usage): the current month (UTC), per kind. */
  usage(accountId: string): UsageResponse;
  /**
   * Whether `error` (thrown by any method of this store, or by anything else using the same storage during a request)
   * means that the store is unavailable for a moment: why, and the message to answer with (see
   * {@link StorageUnavailable}); undefined for any other error, which the server answers with 500. Never throws.
   */
  unavailable(error: unknown): StorageUnavailable | undefined;
}

/**
 * One row of `documents` without the article texts: what the search keeps in memory per document.
 * `id` is the documents rowid (1, 2, … in corpus order); court fields are null for documents without them.
 */
export interface DocumentRow {
  id: number;
  document_id: string;
  collection: string;
  source_type: string;
  type: string;
  title: string;
  /** Publication date, `YYYY-MM-DD`. */
  date: string;
  /** The date the text is current as of, `YYYY-MM-DD`; null when unknown (court decisions). */
  as_of: string | null;
  /** 1: consolidated text; 0: the text as published; null: not said (court decisions). */
  consolidated: number | null;
  author: string | null;
  url: string | null;
  /** The date of the text the page at `url` shows, when it is the act's current text (`corpus/links.ts`); else null. */
  url_as_of: string | null;
  court_id: number | null;
  court: string | null;
  decision_number: string | null;
  case_number: string | null;
  case_kind: string | null;
  department: string | null;
  reporting_judge: string | null;
  /** The panel as a JSON array of names (`judges` of the corpus), null when the document has none (statutes). */
  judges_json: string | null;
  /** The analyzed title: stems joined by single spaces (`analyze(title).join(' ')`). */
  title_stems: string;
}

/** One translation of a query stem: the law's stem, t(stem | query stem), and a form of it as the law writes it. */
export type Translation = [stem: string, probability: number, word: string];

/** One article (element) of a document, as stored. */
export interface ArticleRow {
  /** Article id (= FTS rowid), 1, 2, … in corpus order. */
  id: number;
  /** 0-based position in the document's `elements`. */
  ordinal: number;
  /** Label as in the source, e.g. `Чл. 405.`. */
  label: string;
  /** Text of the article (without heading lines that belong to the next one, see `corpus/headings.ts`). */
  text: string;
  /** Heading lines introducing the article (section and article headings), `''` when none. */
  heading: string;
  /** The article's questions and keywords of the written subject index, one a line; `''` when it has none. */
  subject: string;
  /** `<document_id>:<ref>`, unique in the index (see `excerptIds`, `corpus/excerpts.ts`). */
  excerpt_id: string;
}

/**
 * One court of the index (`GET /v1/catalog/courts`): from the courts file, or named by a decision and missing from it
 * (then `court_type`, `ecli_code` and `parent_court_id` are null).
 */
export type CourtRow = CourtRecord;

/**
 * One element of a stored document as `GET /v1/documents` sends it: the contract's `DocumentElement` with every field
 * present. `excerpt_id` is the same id as the search excerpts of this element (see `excerptIds`,
 * `corpus/excerpts.ts`).
 */
export interface StoredElement extends DocumentElement {
  excerpt_id: string;
  ref: string;
  label: string;
  text: string;
  /** The headings above the element (`Глава първа. ОБЩИ ПОЛОЖЕНИЯ / Предмет`), when the input gives them. */
  heading?: string;
  /** An article changed by §§ of the corpus: those §§, newest first (see `corpus/amended-by.ts`). Absent: none. */
  amended_by?: AmendedByEntry[];
  /** A § that changes articles of acts: the acts and articles (see `corpus/amended-by.ts`). Absent: none read. */
  amends?: AmendsEntry[];
  /** A statute's element cited by decisions of the corpus: those decisions, newest first (`corpus/case-law.ts`). */
  cited_by?: CitedByEntry[];
  /** A decision's paragraph: the provisions of the corpus's acts it cites (`corpus/case-law.ts`). */
  cites?: CitesEntry[];
  /** A statute's element declared unconstitutional, whole or in part (`corpus/case-law.ts`). */
  rulings?: RulingEntry[];
}

/**
 * A full stored document as `GET /v1/documents` sends it: the contract's `DocumentResponse` (its field names live in
 * `src/contract/types.ts`) with the fields every stored document has made required. Statutes: the corpus fields, `author`
 * and `url` omitted when the corpus lacks them, `in_force_date` and `signature` string or null. Court decisions (a
 * document with a `court_id`): also `court_id`, `court` (omitted when the corpus lacks it), `decision_number`,
 * `case_number`, `case_kind`, `department`, `reporting_judge` (each string or null) and `judges` (`[]` when the corpus
 * gives none). Other documents carry those court fields the corpus gives them.
 */
export interface StoredDocument extends DocumentResponse {
  document_id: string;
  collection: string;
  source_type: string;
  type: string;
  title: string;
  date: string;
  in_force_date: string | null;
  signature: string | null;
  /** The date the text is current as of (absent for court decisions and documents whose input does not say). */
  as_of?: string;
  /** True: consolidated up to `as_of`; false: the text as published (absent when the input does not say). */
  consolidated?: boolean;
  /** The date of the text the page at `url` shows, when it is the act's current text (`corpus/links.ts`). */
  url_as_of?: string;
  elements: StoredElement[];
}

/**
 * An open, complete corpus index (read-only; see `corpus/index-db.ts` for the file and its tables): what the routes
 * (documents, catalogs) and the search read. Built once per set of inputs; it does not change while open.
 */
export interface SearchIndex {
  /** The index file. */
  readonly path: string;
  /** The key of the inputs the index was built from (16 hex digits; see `inputsKeyOf`, `corpus/inputs.ts`). */
  readonly inputsKey: string;
  readonly documentCount: number;
  readonly articleCount: number;
  /** Whether this `openIndex` call built the index (false when an existing complete index was reused). */
  readonly built: boolean;
  /** Inputs the build skipped (Akoma Ntoso files that are not well-formed, unreadable payloads), by path. */
  readonly skippedInputs: readonly SkippedInput[];
  /**
   * For a `document_id` merged into another act's document ("one act, one document", `corpus/collect.ts`), the
   * `document_id` it is served under; undefined for any other id. `readDocument` resolves aliases itself.
   */
  servedId(documentId: string): string | undefined;
  /**
   * Source types of the corpus, for `GET /v1/catalog/source-types`, ordered `bulgarian_laws_regulations`,
   * `high_courts_cases`, then the others by id. `case_law` rule: a known type by `isCourtSourceType`
   * (`high_courts_cases` yes, `bulgarian_laws_regulations` no); an unknown type is case law when at least one of its
   * documents carries a `court_id`. `name`: Bulgarian names for the known types, the id itself for others.
   * Computed once; each call returns fresh copies.
   */
  sourceTypes(): SourceTypeEntry[];
  /**
   * The thesaurus the index was built with, restricted to its stems (`text/thesaurus.ts`): senses by headword stem;
   * undefined when it was built without one. Read on each call (about 30 ms on the real thesaurus): call it once.
   */
  thesaurus(): Map<string, ThesaurusSense[]> | undefined;
  /**
   * The lay-to-legal translations of a stem (`subject-index/translation.ts`, learned when the index was built): best
   * first; [] when it has none. One indexed lookup.
   */
  translations(stem: string): Translation[];
  /**
   * What the explanation says of an article declared unconstitutional, whole or in part (`corpus/case-law.ts`,
   * `rulingSentences`); `''` when it has no ruling. One indexed lookup.
   */
  ruling(articleId: number): string;
  /** What the build found of the case law (`corpus/case-law.ts`); undefined for an index built without the report. */
  caseLaw(): CaseLawReport | undefined;
  /** Every document's metadata row, in rowid order (one array; about 2,000 rows on the full corpus). */
  documentRows(): DocumentRow[];
  /** `[articleId, documentRowid, text length]` of every article, in article order, streamed. */
  articleDocumentPairs(): IterableIterator<[article: number, document: number, length: number]>;
  /** The largest article id (0 for an index without articles); ids run 1…this. */
  maxArticleId(): number;
  /**
   * The articles whose indexed stems (text, heading or subject) contain `stem` (an exact FTS5 phrase match on one stem of
   * `analyze`), each as `[articleId, bm25]` with `bm25` as FTS5's `bm25(fts, 1, HEADING_WEIGHT, SUBJECT_WEIGHT)` returns it: negative,
   * lower is a better match; a match in the heading counts `HEADING_WEIGHT` (`corpus/index-db.ts`) times one in the
   * text, one in the written questions and keywords (`ArticleRow.subject`) `SUBJECT_WEIGHT` times. Any order.
   * With `prefix`, every stem beginning with `stem` matches (an FTS5 prefix query; BM25 takes them as one term).
   */
  matchStem(stem: string, prefix?: boolean): [article: number, bm25: number][];
  /**
   * How many articles contain `stem` (text or heading), from the FTS5 vocabulary (`fts_vocab`) without reading the
   * postings; for bounding a query's work before matching (see `search/ranking.ts`). With `prefix`, the sum over the
   * stems beginning with `stem` (an upper bound of the articles holding any of them).
   */
  stemArticleCount(stem: string, prefix?: boolean): number;
  /** The id of a document's article by its `ref` (as the corpus writes it: `344`, `2б`…); undefined when none. */
  articleByRef(document: number, ref: string): number | undefined;
  /**
   * The id of a document's last article whose text contains `needle` (e.g. `§ 1.`); with `needle` `''`, its first
   * article. Undefined when none.
   */
  articleContaining(document: number, needle: string): number | undefined;
  /** One article by id, or undefined when no article has it. */
  article(id: number): ArticleRow | undefined;
  /**
   * A document's articles in their order (`ordinal`), as `[articleId, text]` (the text as {@link ArticleRow.text});
   * `[]` for a document without any. One statement: for reading a decision's paragraphs whole
   * (`search/decision-parts.ts`).
   */
  articleTexts(document: number): [article: number, text: string][];
  /**
   * The full stored document (see {@link StoredDocument}), or undefined when no document has this `document_id` in
   * this `collection` (both compared exactly). An alias (a `document_id` served before, now merged into another text of
   * the same act) gives the document it is served under, with that document's own `document_id`. For
   * `GET /v1/documents`.
   */
  readDocument(document_id: string, collection: string): StoredDocument | undefined;
  /**
   * The same document as {@link readDocument}, as the UTF-8 JSON `GET /v1/documents` sends (same members, same
   * order), built without decoding or parsing its elements; undefined when there is none.
   */
  readDocumentJson(document_id: string, collection: string): Buffer | undefined;
  /** Every court (see {@link CourtRow}), ordered by `court_id`. Fresh objects on each call. */
  courts(): CourtRow[];
  /** Number of documents per `court_id`, for the courts that have any (documents without a court are not counted). */
  decisionCounts(): Map<number, number>;
  /** Closes the index. Safe to call twice. */
  close(): void;
}
