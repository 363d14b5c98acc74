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
 *
 * A record is written whole and synced before the next, so the only damage a crash leaves is a torn LAST line (no
 * newline after it): it is not read (and `AppendFile` cuts it off when the journal is opened again), which is safe, as
 * the request it would have announced was not yet sent. Any other record that cannot be read (not JSON, not a record
 * of a known type with its fields; an edited or damaged file) is not skipped silently: what it said is unknown, so the
 * line it names, or every line not done when it names none, is uncertain and reported interrupted (see
 * {@link itemStatus}); nothing is sent twice without `--retry-interrupted`.
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
  /** A record of the journal that cannot be read may concern it: what was sent for it is not known. */
  uncertain?: true;
  /** Marked done, but its line is not in the results file (set by `reconcileWithResults` in `store.ts`). */
  resultMissing?: true;
}

/** Where an item stands: see {@link itemStatus}. */
export type ItemStatus = 'done' | 'interrupted' | 'job' | 'searched' | 'pending';

/**
 * - `done`: its line is in the results; skipped.
 * - `interrupted`: a request was in flight when the batch stopped (it may have been counted); or an unreadable record
 *   of the journal may concern it (`uncertain`); or it was marked done and its results line is missing
 *   (`resultMissing`): sent again only with `--retry-interrupted`.
 * - `job`: its answer job exists and is not collected yet; a rerun polls it.
 * - `searched`: searched, documents still to retrieve (`--fetch-docs`).
 * - `pending`: nothing was sent, or what was sent was not counted.
 */
export function itemStatus(progress: ItemProgress | undefined): ItemStatus {
  if (!progress) return 'pending';
  if (progress.done) return 'done';
  if (progress.inFlight || progress.uncertain || progress.resultMissing) return 'interrupted';
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

/** A complete line of the journal that is not a record pravo writes. */
export interface UnreadableRecord {
  /** Its position in the journal file (1 for the first line). */
  record: number;
  /** The input line it names, when that can still be read from it; undefined: it may concern any line. */
  line: number | undefined;
}

/** What a journal file holds. */
export interface JournalContent {
  /** The first record, when it is a readable header. */
  header: JournalHeader | undefined;
  progress: Map<number, ItemProgress>;
  /** The complete lines that could not be read, in file order (a torn last line is not among them). */
  unreadable: UnreadableRecord[];
}

/**
 * Reads a journal: its header and each item's progress. A torn last line (no newline after it: a crash in the middle
 * of an append) is not read. Any other line that is not a readable record is listed in `unreadable`, and the item it
 * names is marked `uncertain` (one that names none is left to {@link markUncertain}, which knows the input's lines).
 * A missing file reads as empty.
 * @throws the file-system error other than `ENOENT`.
 */
export async function readJournal(file: string): Promise<JournalContent> {
  let header: JournalHeader | undefined;
  const progress = new Map<number, ItemProgress>();
  const unreadable: UnreadableRecord[] = [];
  let position = 0;
  for await (const text of readLines(file)) {
    position++;
    const record = parseRecord(text);
    if (record === undefined) {
      const named = [...text.matchAll(/"line"\s*:\s*(\d+)/g)];
      const line = named.length === 1 ? Number(named[0]![1]) : undefined;
      unreadable.push({ record: position, line });
      if (line !== undefined) itemOf(progress, line).uncertain = true;
      continue;
    }
    if (record.type === 'batch') {
      if (position === 1) header = record;
      continue;
    }
    applyEvent(progress, record);
  }
  return { header, progress, unreadable };
}

/**
 * Marks uncertain every line of `lines` that is not done when the journal holds an unreadable record that names no
 * line: that record may have announced a request for any of them.
 */
export function markUncertain(content: JournalContent, lines: Iterable<number>): void {
  if (!content.unreadable.some((r) => r.line === undefined)) return;
  for (const line of lines) {
    const item = itemOf(content.progress, line);
    if (!item.done) item.uncertain = true;
  }
}

const SENT_WHAT: ReadonlySet<unknown> = new Set<SentWhat>(['search', 'answer', 'document']);
const isText = (value: unknown): value is string => typeof value === 'string';

/** A line of the journal as the record pravo wrote, or undefined when it is not one (see {@link readJournal}). */
function parseRecord(text: string): JournalHeader | JournalEvent | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const r = value as Record<string, unknown>;
  if (r.type === 'batch') {
    const target = r.target as Record<string, unknown> | null | undefined;
    const ok =
      r.version === 1 &&
      isText(r.digest) &&
      (r.mode === 'search' || r.mode === 'answers') &&
      Number.isInteger(r.fetch_docs) &&
      Number.isInteger(r.items) &&
      typeof target === 'object' &&
      target !== null &&
      typeof target.sandbox === 'boolean' &&
      isText(target.profile) &&
      isText(target.base_url);
    return ok ? (r as unknown as JournalHeader) : undefined;
  }
  if (!Number.isInteger(r.line) || (r.line as number) < 1) return undefined;
  const ok = (() => {
    switch (r.type) {
      case 'sent':
        return SENT_WHAT.has(r.what) && (r.what !== 'document' || (isText(r.document_id) && isText(r.collection)));
      case 'unsent':
        return SENT_WHAT.has(r.what);
      case 'job':
        return isText(r.job_id);
      case 'searched':
        return isText(r.response);
      case 'retrieved':
        return isText(r.document_id) && isText(r.collection);
      case 'done':
        return typeof r.ok === 'boolean';
      default:
        return false;
    }
  })();
  return ok ? (r as unknown as JournalEvent) : undefined;
}

/** The item's progress in `progress`, created empty when there is none. */
function itemOf(progress: Map<number, ItemProgress>, line: number): ItemProgress {
  let item = progress.get(line);
  if (!item) {
    item = { line, retrieved: new Set() };
    progress.set(line, item);
  }
  return item;
}

/** Applies one event to the items' progress (the same fold for reading a journal and for recording in a run). */
export function applyEvent(progress: Map<number, ItemProgress>, event: JournalEvent): void {
  const item = itemOf(progress, event.line);
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
    return itemOf(this.progress, line);
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
