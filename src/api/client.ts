/**
 * Client of the Legal Research API (spec: the whole contract), in the manner of openai-node: one {@link Transport}
 * for every endpoint and a typed resource per endpoint family (`client.search.create(…)`, `client.answers.poll(…)`).
 * Errors are the classes of `errors.ts`; the client never prints and never touches `process`.
 *
 *     const client = new LegalResearchClient({ baseUrl, credentials: { api_key: { kind: 'api_key', apiKey, header: 'x-api-key' } } });
 *     try { const { data, raw } = await client.search.create({ query: 'неустойка' }); } finally { await client.close(); }
 */
import { Account } from './resources/account.js';
import { Answers } from './resources/answers.js';
import { Catalog } from './resources/catalog.js';
import { Documents } from './resources/documents.js';
import { Keys } from './resources/keys.js';
import { Search } from './resources/search.js';
import { Usage } from './resources/usage.js';
import { Transport, type TransportOptions } from './transport.js';

export type { CallOptions } from './resources/resource.js';
export type { ApiResponse, RetryNotice, TransportOptions } from './transport.js';
export type { AuthHeader, Credentials, ApiKeyCredential, SessionCredential, Credential } from './credentials.js';

/** The API client. Create one per command; call {@link LegalResearchClient.close} when done. */
export class LegalResearchClient {
  /** The normalized base URL, without a trailing slash. */
  readonly baseUrl: string;
  /** `POST /v1/search` (API key). */
  readonly search: Search;
  /** `GET /v1/catalog/…` (API key). */
  readonly catalog: Catalog;
  /** `GET /v1/documents` (API key; counts retrieval quota). */
  readonly documents: Documents;
  /** `POST /v1/answers`, `GET /v1/answers/{job_id}`, polling (API key). */
  readonly answers: Answers;
  /** `GET /v1/usage` (API key). */
  readonly usage: Usage;
  /** `/v1/keys…` (user-session token). */
  readonly keys: Keys;
  /** `/v1/account…` (user-session token). */
  readonly account: Account;
  readonly #transport: Transport;

  /** @throws InvalidBaseUrlError when the base URL is unacceptable (see `normalizeBaseUrl`). */
  constructor(options: TransportOptions) {
    this.#transport = new Transport(options);
    this.baseUrl = this.#transport.baseUrl;
    this.search = new Search(this.#transport);
    this.catalog = new Catalog(this.#transport);
    this.documents = new Documents(this.#transport);
    this.answers = new Answers(this.#transport);
    this.usage = new Usage(this.#transport);
    this.keys = new Keys(this.#transport);
    this.account = new Account(this.#transport);
  }

  /** Closes the connections of the client's own dispatcher. */
  close(): Promise<void> {
    return this.#transport.close();
  }
}
