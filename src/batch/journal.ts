/**
 * The journal of a `pravo batch` run: a JSON Lines file beside the results (`<out>.journal`, mode 0600) that records,
 * durably and in order, what was sent and what is done, so that a batch killed at any moment can be rerun without
 * spending a unit twice (spec: "do not auto-retry search after an interruption, because the server may already have
 * run the request and counted the consumption"; Answer job: a job runs on whether or not anyone waits for it).
 *
 * Records, one JSON object per line (`at`: ISO 8601 UTC):
 * - `{"type":"batch","version":1,"digest","mode","fetch_docs","items","target","created_at"}`: the first line; what
 *   the batch is (see {@link JournalHeader}).
 * - `{"type":"sent","line","what","document_id"?,"collection"?,"at"}`: written before a request that may spend a unit
 *   (`what`: `search`, `answer` (job creation) or `document`).
 * - `{"type":"unsent","line","what","reason","at"}`: that request was refused without being counted
 *   (`monthly_quota_exceeded`, a rejected key) or never reached the server (no connection).
 * - `{"type":"job","line","job_id","at"}`: the answer job's id, the moment it is known; a rerun polls this job.
 * - `{"type":"searched","line","response","at"}`: with `--fetch-docs`, the search's response (its raw body), so a
 *   rerun retrieves its documents without searching again.
 * - `{"type":"retrieved","line","document_id","collection","at"}`: a document retrieved (and cached).
 * - `{"type":"done","line","ok","at"}`: the item's line is durable in the results; `ok` false when that line holds an
 *   error.
 *
 * An item whose last request is `sent` without an outcome was in flight when the batch stopped: the server may have
 * counted it, so it is reported as interrupted and sent again only with `--retry-interrupted`.
 */
import { AppendFile, readLines } from './append-file.js';

/** What a batch does with each line. */
export type BatchMode = 'search' | 'answers';

/** What may spend a unit: a search, an answer job's creation, a document retrieval. */
export type SentWhat = 'search' | 'answer' | 'document';

/** Where the batch sends its requests (compared on resume: job ids and counts belong to one target). */
export interface JournalTarget {
  /** `--sandbox`: the in-process sandbox. */
  sandbox: boolean;
  /** The profile the run resolved to. */
  profile: string;
  /** The base URL at the start (an in-process sandbox's changes with every run). */
  base_url: string;
}

/** The first record: what the batch is. */
export interface JournalHeader {
  type: 'batch';
  version: 1;
  /** `batchDigest` of the input's requests. */
  digest: string;
  mode: BatchMode;
  /** `--fetch-docs K`; 0 without. */
  fetch_docs: number;
  /** Number of requests in the input. */
  items: number;
  target: JournalTarget;
  created_at: string;
}

/** A record after the header. */
export type JournalEvent =
  | { type: 'sent'; line: number; what: SentWhat; document_id?: string; collection?: string; at: string }
  | { type: 'unsent'; line: number; what: SentWhat; reason: string; at: string }
  | { type: 'job'; line: number; job_id: string; at: string }
  | { type: 'searched'; line: number; response: string; at: string }
  | { type: 'retrieved'; line: number; document_id: string; collection: string; at: string }
  | { type: 'done'; line: number; ok: boolean; at: string };

/** An event as a run records it: the journal adds its time (`at`). */
export type NewJournalEvent = JournalEvent extends infer E ? (E extends unknown ? Omit<E, 'at'> : never) : never;

/** What the journal says of one item. */
export interface ItemProgress {
  line: number;
  /** Set once its results line is durable. */
  done?: { ok: boolean };
  /** The request sent without a recorded outcome: in flight when the batch stopped. */
  inFlight?: { what: SentWhat; document_id?: string };
  /** The answer job created for it. */
  jobId?: string;
  /** With `--fetch-docs`: the search's raw response. */
  searched?: string;
  /** With `--fetch-docs`: `document_id` + TAB + `collection` of each document retrieved. */
  retrieved: Set<string>;
}

/** Where an item stands: see {@link itemStatus}. */
export type ItemStatus = 'done' | 'interrupted' | 'job' | 'searched' | 'pending';

/**
 * - `done`: its line is in the results; skipped.
 * - `interrupted`: a request was in flight when the batch stopped (it may have been counted).
 * - `job`: its answer job exists and is not collected yet; a rerun polls it.
 * - `searched`: searched, documents still to retrieve (`--fetch-docs`).
 * - `pending`: nothing was sent, or what was sent was not counted.
 */
export function itemStatus(progress: ItemProgress | undefined): ItemStatus {
  if (!progress) return 'pending';
  if (progress.done) return 'done';
  if (progress.inFlight) return 'interrupted';
  if (progress.jobId !== undefined) return 'job';
  if (progress.searched !== undefined) return 'searched';
  return 'pending';
}

/** The key of a document in {@link ItemProgress.retrieved}. */
export function documentKey(documentId: string, collection: string): string {
  return `${documentId}\t${collection}`;
}

/**
 * The documents `--fetch-docs K` retrieves for a search: the first `k` distinct (`document_id`, `collection`) pairs of
 * its results, in rank order.
 */
export function topDocuments<T extends { document_id: string; collection: string }>(results: readonly T[], k: number): T[] {
  const seen = new Set<string>();
  const top: T[] = [];
  for (const result of results) {
    if (top.length >= k) break;
    const key = documentKey(result.document_id, result.collection);
    if (seen.has(key)) continue;
    seen.add(key);
    top.push(result);
  }
  return top;
}

/** The journal's file name for a results file. */
export function journalPathFor(outPath: string): string {
  return `${outPath}.journal`;
}

/** What a journal file holds. */
export interface JournalContent {
  header: JournalHeader | undefined;
  progress: Map<number, ItemProgress>;
}

/**
 * Reads a journal: its header and each item's progress. Lines that do not parse (none should: every record is written
 * whole and synced; an incomplete last line is skipped) are ignored. A missing file reads as empty.
 * @throws the file-system error other than `ENOENT`.
 */
export async function readJournal(file: string): Promise<JournalContent> {
  let header: JournalHeader | undefined;
  const progress = new Map<number, ItemProgress>();
  for await (const text of readLines(file)) {
    let record: JournalHeader | JournalEvent;
    try {
      record = JSON.parse(text) as JournalHeader | JournalEvent;
    } catch {
      continue;
    }
    if (typeof record !== 'object' || record === null) continue;
    if (record.type === 'batch') {
      header ??= record;
      continue;
    }
    if (typeof record.line !== 'number') continue;
    applyEvent(progress, record);
  }
  return { header, progress };
}

/** Applies one event to the items' progress (the same fold for reading a journal and for recording in a run). */
export function applyEvent(progress: Map<number, ItemProgress>, event: JournalEvent): void {
  let item = progress.get(event.line);
  if (!item) {
    item = { line: event.line, retrieved: new Set() };
    progress.set(event.line, item);
  }
  switch (event.type) {
    case 'sent':
      item.inFlight = { what: event.what, ...(event.document_id !== undefined ? { document_id: event.document_id } : {}) };
      break;
    case 'unsent':
      delete item.inFlight;
      break;
    case 'job':
      delete item.inFlight;
      item.jobId = event.job_id;
      break;
    case 'searched':
      delete item.inFlight;
      item.searched = event.response;
      break;
    case 'retrieved':
      delete item.inFlight;
      item.retrieved.add(documentKey(event.document_id, event.collection));
      break;
    case 'done':
      delete item.inFlight;
      item.done = { ok: event.ok };
      break;
  }
}

/** A journal open for recording: each event is durable before {@link Journal.record} resolves. */
export class Journal {
  readonly path: string;
  readonly progress: Map<number, ItemProgress>;
  readonly #file: AppendFile;
  readonly #now: () => number;

  private constructor(file: AppendFile, progress: Map<number, ItemProgress>, now: () => number) {
    this.path = file.path;
    this.#file = file;
    this.progress = progress;
    this.#now = now;
  }

  /**
   * Opens the journal at `file` (mode 0600) for appending, with the progress already read from it; writes `header`
   * first when the journal is new (`progress` empty and no header read).
   * @throws the file-system error.
   */
  static async open(file: string, content: JournalContent, header: JournalHeader, now: () => number): Promise<Journal> {
    const appendFile = await AppendFile.open(file, 0o600);
    const journal = new Journal(appendFile, content.progress, now);
    if (!content.header) await appendFile.append(JSON.stringify(header));
    return journal;
  }

  /** The item's progress (created empty when the journal has none). */
  item(line: number): ItemProgress {
    let item = this.progress.get(line);
    if (!item) {
      item = { line, retrieved: new Set() };
      this.progress.set(line, item);
    }
    return item;
  }

  /**
   * Records `event` durably (a `done` only written: see below), then applies it to {@link progress}.
   * @throws the file-system error (`ENOSPC`, `EIO`): the event is then not recorded.
   */
  async record(event: NewJournalEvent): Promise<void> {
    const full: JournalEvent = { ...event, at: new Date(this.#now()).toISOString() };
    // `done` follows a results line already on disk, from which a rerun rebuilds it (see `reconcileWithResults` in
    // `store.ts`): it need not wait for its own sync, which would add one to every item.
    await this.#file.append(JSON.stringify(full), { sync: full.type !== 'done' });
    applyEvent(this.progress, full);
  }

  /** Waits for pending records and closes the file. */
  close(): Promise<void> {
    return this.#file.close();
  }
}
