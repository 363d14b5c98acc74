/**
 * Importing acts of the National Assembly into a corpus file (`pravo sandbox import`): act payloads as the Assembly's
 * public API returns them (`GET <base>/api/v1/act/<id>`, see `shared/corpus/README.md`, "parliament-api"), read from a
 * directory of saved payloads (`<id>.json`) or fetched from the API, turned into corpus documents by
 * `corpus/payload.ts`, and written as one JSON Lines file (gzip-compressed for `.jsonl.gz`) that the sandbox reads.
 *
 * - Plan first ({@link planImport}): the output name, the ids, the concurrency and the source are checked before any
 *   file is read or request sent ({@link ImportUsageError}).
 * - Fetching: at most `concurrency` payloads at a time; a try that fails on the network, times out, or is answered 429
 *   or 5xx is retried with exponential backoff and equal jitter, honouring `Retry-After` (up to
 *   {@link RETRY_AFTER_MAX_MS}), at most {@link IMPORT_MAX_ATTEMPTS} tries. Waits run on the injected `sleep` (tests
 *   never sleep) and end at once when the signal aborts.
 * - A payload that cannot be had or read (no such file, 404, retries exhausted, not a regular file — a FIFO or a
 *   device is never opened for a blocking read —, larger than {@link MAX_PAYLOAD_BYTES}, not JSON, a `PayloadError`,
 *   a payload of another act) is skipped and reported by id with the reason; the others are written.
 * - Cancellation (the signal) ends the import promptly: every read checks it before each chunk, every request and wait
 *   ends with it, and nothing new starts.
 * - Writing is atomic: the documents go, in the order of the ids, into a temporary file beside the output, which is
 *   renamed over it once complete. On any failure (and when nothing could be imported) the temporary file is removed
 *   and the output is untouched: never a half-written file.
 *
 * Like the rest of the sandbox, this module knows nothing of the CLI (no exit codes, no printing): the command
 * (`src/commands/sandbox/import.ts`) turns its errors and result into messages and an exit code.
 */
import { chmod, lstat, open, readdir, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { Dispatcher } from 'undici';
import { formatBytes } from '../shared/bytes.js';
import { systemClock, type Clock } from '../shared/clock.js';
import { runPool } from '../shared/pool.js';
import { resolveUserFile, temporaryBeside, USER_FILE_MODE } from '../shared/user-files.js';
import { PayloadError, readActPayload } from './corpus/payload.js';
import type { CorpusDocument } from './corpus/reader.js';
import { INPUT_MAX_BYTES, InputFileError, readRegularFile } from './input-file.js';

/** Payloads read or fetched at once by default. */
export const IMPORT_CONCURRENCY_DEFAULT = 4;
/** Most payloads read or fetched at once (`--concurrency`). */
export const IMPORT_CONCURRENCY_MAX = 16;
/** Most tries of one request, the first included. */
export const IMPORT_MAX_ATTEMPTS = 5;
/** Backoff before retry n (1-based) is up to `RETRY_BASE_MS × 2^(n-1)`, capped at {@link RETRY_MAX_DELAY_MS}. */
export const RETRY_BASE_MS = 500;
export const RETRY_MAX_DELAY_MS = 8_000;
/** Longest `Retry-After` honoured, in ms; a server asking for a longer wait gets the act skipped instead. */
export const RETRY_AFTER_MAX_MS = 60_000;
/** Total timeout of one try (connect, headers and body), in ms. */
export const IMPORT_TIMEOUT_MS = 30_000;
/**
 * Largest payload read or fetched, in bytes (the largest saved payload is about 0.6 MB): counted as the bytes come,
 * whatever the file's size or the response's `Content-Length` says.
 */
export const MAX_PAYLOAD_BYTES = INPUT_MAX_BYTES.payload;

/** The API path of an act, appended to the base URL. */
export const ACT_PATH = '/api/v1/act/';

/** A payload file name of a directory source: the act's id and `.json`. */
const PAYLOAD_FILE = /^(\d+)\.json$/;

/**
 * A problem with what the import was asked to do, found before anything was read or sent: the output name, an id,
 * the concurrency, the source. The message says what is wrong and what is expected.
 */
export class ImportUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImportUsageError';
  }
}

/**
 * The output file could not be written (its directory missing or read-only, a full disk, a directory in its place,
 * another user's symbolic link in its place: then `cause` is the `RefusedLinkError`). Nothing was written: the output
 * is as it was and no temporary file is left.
 */
export class ImportWriteError extends Error {
  /** The errno code, e.g. `ENOENT`, `EACCES`, `ENOSPC`, `EISDIR`; `EREFUSEDLINK` for a refused link. */
  readonly code: string;
  readonly file: string;
  constructor(file: string, code: string, cause: unknown) {
    super(`cannot write ${file} (${code})`, { cause });
    this.name = 'ImportWriteError';
    this.file = file;
    this.code = code;
  }
}

/** Where the payloads come from. */
export type ImportSource = { kind: 'directory'; dir: string } | { kind: 'url'; baseUrl: string };

/** What an import does, checked: see {@link planImport}. */
export interface ImportPlan {
  source: ImportSource;
  /** The acts, in the order their documents are written; no duplicates. */
  ids: number[];
  /** The output file as given. */
  out: string;
  /** Whether the output is gzip-compressed (`.jsonl.gz`). */
  gzip: boolean;
  concurrency: number;
}

/** An act that was not imported, and why (one line, in English; it may quote a payload or a server, unsanitized). */
export interface SkippedAct {
  id: number;
  reason: string;
  /**
   * Why it failed: `network` (no complete answer: connection, timeout), `server` (429 or 5xx to the end), `missing`
   * (no such file, 404), `payload` (unreadable: not JSON, not an act payload, another act, too large), `http` (any other
   * HTTP status).
   */
  kind: 'network' | 'server' | 'missing' | 'payload' | 'http';
}

/** The outcome of {@link importActs}. */
export interface ImportResult {
  /** The output file as given. */
  out: string;
  /** Whether it was written (false when nothing could be imported: the file is then untouched). */
  written: boolean;
  /** The ids imported, in the order written. */
  imported: number[];
  /** The ids skipped, in the order of the ids. */
  skipped: SkippedAct[];
}

/** What {@link importActs} runs with; every field has a default. */
export interface ImportDeps {
  /** Aborts reads, requests and waits; the import then rejects and writes nothing. */
  signal?: AbortSignal;
  /** Time of request timeouts and of an HTTP-date `Retry-After`; default the system clock. */
  clock?: Clock;
  /** The wait between tries; default `clock.sleep`. Must reject when `signal` aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Jitter source in [0, 1); default `Math.random`. */
  random?: () => number;
  /** `User-Agent` of requests; default `pravo`. */
  userAgent?: string;
  /** Total timeout of one try, in ms; default {@link IMPORT_TIMEOUT_MS}. */
  timeoutMs?: number;
  /** Most tries of a request; default {@link IMPORT_MAX_ATTEMPTS}. */
  maxAttempts?: number;
  /** undici dispatcher of the requests; default a private Agent (connect timeout 10 s), closed at the end. */
  dispatcher?: Dispatcher;
  /** Called with the number of acts done (imported or skipped) and the total: at the start, then after each act. */
  onProgress?: (done: number, total: number) => void;
}

/**
 * An act id as given to `--id`: a whole number of at least 1 (digits only; surrounding white space ignored).
 * @throws ImportUsageError naming the value.
 */
export function parseActId(value: string): number {
  const trimmed = value.trim();
  const id = /^\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN;
  if (!(Number.isSafeInteger(id) && id >= 1)) {
    throw new ImportUsageError(`--id takes the act's id in the National Assembly's API, a whole number of at least 1 (e.g. --id 165936); not "${value}"`);
  }
  return id;
}

/**
 * `--concurrency`: a whole number from 1 to {@link IMPORT_CONCURRENCY_MAX}; undefined gives the default.
 * @throws ImportUsageError naming the value.
 */
export function parseConcurrency(value: string | undefined): number {
  if (value === undefined) return IMPORT_CONCURRENCY_DEFAULT;
  const trimmed = value.trim();
  const n = /^\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN;
  if (!(Number.isInteger(n) && n >= 1 && n <= IMPORT_CONCURRENCY_MAX)) {
    throw new ImportUsageError(`--concurrency takes a whole number from 1 to ${IMPORT_CONCURRENCY_MAX}; not "${value}"`);
  }
  return n;
}

/**
 * Whether the output is gzip-compressed, from its name: `.jsonl.gz` yes, `.jsonl` no.
 * @throws ImportUsageError for a missing or empty name or any other ending (the sandbox reads only those two).
 */
export function outputFormat(out: string | undefined): { gzip: boolean } {
  if (out === undefined || out.trim() === '') {
    throw new ImportUsageError('--out FILE is required: the corpus file to write, ending in .jsonl or .jsonl.gz (e.g. --out my-acts.jsonl.gz)');
  }
  const name = path.basename(out);
  if (/^.+\.jsonl\.gz$/i.test(name)) return { gzip: true };
  if (/^.+\.jsonl$/i.test(name)) return { gzip: false };
  throw new ImportUsageError(
    `--out must name a file ending in .jsonl or .jsonl.gz (gzip-compressed), the corpus files the sandbox reads; not "${out}"`,
  );
}

/**
 * The source: an `http://` or `https://` base URL of the National Assembly's API (no credentials, query or fragment;
 * the path prefix kept, without a trailing slash), or else a directory path. Only the form is checked here.
 * @throws ImportUsageError for a URL of another scheme or with credentials, a query, a fragment, or `/api/v1` already
 *   in it.
 */
export function parseSource(source: string): ImportSource {
  if (source.trim() === '') throw new ImportUsageError('SOURCE is empty: give a directory of saved payloads (<id>.json) or the base URL of the API (https://...)');
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(source.trim())) return { kind: 'directory', dir: source };
  let url: URL;
  try {
    url = new URL(source.trim());
  } catch {
    throw new ImportUsageError(`SOURCE "${source}" is not a valid URL; give the API's base URL like https://www.parliament.bg`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ImportUsageError(`SOURCE must be a directory or an http:// or https:// URL, not ${url.protocol}//`);
  }
  if (url.username !== '' || url.password !== '') throw new ImportUsageError('SOURCE carries credentials (user:password@); the API needs none: remove them');
  if (url.search !== '' || url.hash !== '' || source.includes('?')) {
    throw new ImportUsageError('SOURCE carries a query string or a fragment; give the base URL alone, e.g. https://www.parliament.bg');
  }
  const prefix = url.pathname.replace(/\/+$/, '');
  const api = /\/api\/v1(\/act)?$/i.exec(prefix);
  if (api) {
    throw new ImportUsageError(
      `SOURCE is the base URL, without ${api[0]}: pravo adds ${ACT_PATH}<id> itself; give ${url.origin}${prefix.slice(0, -api[0].length)}`,
    );
  }
  return { kind: 'url', baseUrl: `${url.origin}${prefix}` };
}

/**
 * Checks what an import is asked to do, before anything is read or sent, in this order: the output name, the ids,
 * the concurrency, the source's form (a URL needs ids), then a directory source: it must exist, and without ids its
 * payload files (`<digits>.json`, in numeric order) give the ids.
 * @throws ImportUsageError saying what is wrong.
 */
export async function planImport(source: string, options: { out?: string | undefined; ids?: readonly string[] | undefined; concurrency?: string | undefined }): Promise<ImportPlan> {
  const { gzip } = outputFormat(options.out);
  const given = (options.ids ?? []).map(parseActId);
  const ids = [...new Set(given)];
  const concurrency = parseConcurrency(options.concurrency);
  const parsed = parseSource(source);
  const out = options.out!;
  if (parsed.kind === 'url') {
    if (ids.length === 0) {
      throw new ImportUsageError(`an API URL needs the acts to fetch: give --id N for each (e.g. --id 165936 --id 166496); nothing is listed from ${parsed.baseUrl}`);
    }
    return { source: parsed, ids, out, gzip, concurrency };
  }
  const dir = parsed.dir;
  let names: string[];
  try {
    const info = await stat(dir);
    if (!info.isDirectory()) {
      throw new ImportUsageError(`SOURCE ${dir} is a file; give the directory that holds the payloads (<id>.json), with --id to choose among them`);
    }
    names = ids.length === 0 ? await readdir(dir) : [];
  } catch (error) {
    if (error instanceof ImportUsageError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    const problem = code === 'ENOENT' ? 'does not exist' : code === 'EACCES' ? 'cannot be read (permission denied)' : `cannot be read (${code ?? 'error'})`;
    throw new ImportUsageError(`SOURCE ${dir} ${problem}; give a directory of saved payloads (<id>.json) or the API's base URL (https://...)`);
  }
  if (ids.length > 0) return { source: parsed, ids, out, gzip, concurrency };
  const found = names
    .map((name) => PAYLOAD_FILE.exec(name)?.[1])
    .filter((digits): digits is string => digits !== undefined)
    .map(Number)
    .filter((id) => Number.isSafeInteger(id) && id >= 1);
  if (found.length === 0) throw new ImportUsageError(`SOURCE ${dir} holds no payload files (<id>.json, e.g. 165936.json)`);
  return { source: parsed, ids: [...new Set(found)].sort((a, b) => a - b), out, gzip, concurrency };
}

/** One act's outcome. */
type Outcome = { ok: true; document: CorpusDocument } | { ok: false; skipped: SkippedAct };

/** What one try of a request gave: the body, or why not and whether another try may help. */
type TryResult = { ok: true; body: string } | { ok: false; kind: SkippedAct['kind']; reason: string; retryable: boolean; retryAfterMs?: number };

/**
 * Reads or fetches every act of the plan, converts it, and writes the documents (in the order of `plan.ids`) to
 * `plan.out` atomically; see the module comment. Skipped acts are in the result; when none could be imported the
 * output is not written (`written: false`).
 * @throws ImportWriteError when the output cannot be written (nothing written, no temporary file left); the signal's
 *   reason (or an `AbortError`) when it aborts; any error of the payload reader other than `PayloadError` (a bug).
 */
export async function importActs(plan: ImportPlan, deps: ImportDeps = {}): Promise<ImportResult> {
  const total = plan.ids.length;
  const inner = new AbortController();
  const signal = deps.signal ? AbortSignal.any([deps.signal, inner.signal]) : inner.signal;
  // The temporary file first: an output that cannot be written fails before anything is read or sent.
  const temp = await TempFile.create(plan.out);
  let ownDispatcher: Dispatcher | undefined;
  let getter: (id: number) => Promise<Outcome>;
  if (plan.source.kind === 'directory') {
    const dir = plan.source.dir;
    getter = (id) => readSaved(dir, id, signal);
  } else {
    const undici = await import('undici').catch(async (error: unknown) => {
      await temp.discard();
      throw error;
    });
    const dispatcher = deps.dispatcher ?? (ownDispatcher = new undici.Agent({ connect: { timeout: 10_000 } }));
    const baseUrl = plan.source.baseUrl;
    getter = (id) => fetchAct(baseUrl, id, { ...deps, dispatcher, signal });
  }

  deps.onProgress?.(0, total);
  const slots = plan.ids.map(() => Promise.withResolvers<Outcome>());
  // Every slot is awaited by the writer, in order; one it never reaches (it failed first) must not be reported unhandled.
  for (const slot of slots) slot.promise.catch(() => {});
  let done = 0;
  // Nothing new starts once the signal has aborted: a pool that ends with acts not done rejects with its reason.
  const fetching = runPool(
    [...plan.ids.keys()],
    plan.concurrency,
    async (index) => {
      const outcome = await getter(plan.ids[index]!);
      slots[index]!.resolve(outcome);
      done++;
      deps.onProgress?.(done, total);
    },
    () => signal.aborted,
  )
    .then(() => {
      if (done < total) throw abortReason(signal);
    })
    .catch((error: unknown) => {
      for (const slot of slots) slot.reject(error);
      throw error;
    });
  fetching.catch(() => {});

  const imported: number[] = [];
  const skipped: SkippedAct[] = [];
  async function* lines(): AsyncGenerator<string> {
    for (const [index, slot] of slots.entries()) {
      const outcome = await slot.promise;
      if (outcome.ok) {
        imported.push(plan.ids[index]!);
        yield `${JSON.stringify(outcome.document)}\n`;
      } else {
        skipped.push(outcome.skipped);
      }
    }
  }

  try {
    await temp.write(lines(), plan.gzip);
    await fetching;
    const written = imported.length > 0;
    if (written) await temp.commit();
    else await temp.discard();
    return { out: plan.out, written, imported, skipped };
  } catch (error) {
    inner.abort(error);
    await temp.discard();
    await fetching.catch(() => {});
    throw error;
  } finally {
    await ownDispatcher?.destroy().catch(() => {});
  }
}

/** What a cancellation rejects with: the signal's reason when it is an error, else an `AbortError`. */
function abortReason(signal: AbortSignal): unknown {
  return signal.reason instanceof Error ? signal.reason : new DOMException('The import was cancelled', { name: 'AbortError', cause: signal.reason });
}

/**
 * A temporary file beside the output's real path (same directory, so that the rename is atomic), created exclusively
 * and 0600: written once, flushed to disk, then renamed over the output ({@link TempFile.commit}) or removed
 * ({@link TempFile.discard}). The output is a file the user names, perhaps in a shared directory: its path is resolved
 * as `resolveUserFile` does, never through another user's symbolic link (`RefusedLinkError`), and the rename replaces
 * whatever is at the real path, never following a link put there meanwhile. The file-system's failures are
 * {@link ImportWriteError}s naming the output.
 */
class TempFile {
  readonly #file: string;
  /** The output's real path: where the temporary file is renamed to. */
  readonly #target: string;
  readonly #temp: string;
  #handle: FileHandle | undefined;

  private constructor(file: string, target: string, temp: string, handle: FileHandle) {
    this.#file = file;
    this.#target = target;
    this.#temp = temp;
    this.#handle = handle;
  }

  /** Creates `.<name>.<random>.tmp` (0600) beside the real path of `file`. @throws ImportWriteError (nothing created). */
  static async create(file: string): Promise<TempFile> {
    try {
      const target = await resolveUserFile(file);
      const existing = await stat(target).catch(() => undefined);
      if (existing?.isDirectory()) throw Object.assign(new Error(`${file} is a directory`), { code: 'EISDIR' });
      const temp = temporaryBeside(target);
      return new TempFile(file, target, temp, await open(temp, 'wx', USER_FILE_MODE));
    } catch (error) {
      throw writeError(file, error);
    }
  }

  /**
   * Writes `lines` (gzip-compressed when `gzip`) and closes the file, flushed.
   * @throws the error of `lines` as is; ImportWriteError for a failure of the file system.
   */
  async write(lines: AsyncIterable<string>, gzip: boolean): Promise<void> {
    const handle = this.#handle!;
    this.#handle = undefined;
    let sourceError: { error: unknown } | undefined;
    async function* source(): AsyncGenerator<string> {
      try {
        yield* lines;
      } catch (error) {
        sourceError = { error };
        throw error;
      }
    }
    try {
      const output = handle.createWriteStream({ flush: true });
      const input = Readable.from(source(), { objectMode: false });
      await (gzip ? pipeline(input, createGzip(), output) : pipeline(input, output));
    } catch (error) {
      await handle.close().catch(() => {});
      if (sourceError !== undefined) throw sourceError.error;
      throw writeError(this.#file, error);
    }
  }

  /** Renames the written file over the output; an existing output keeps its mode, a new one is 0600. @throws ImportWriteError. */
  async commit(): Promise<void> {
    try {
      const existing = await lstat(this.#target).catch(() => undefined);
      if (existing?.isFile()) await chmod(this.#temp, existing.mode & 0o7777);
      await rename(this.#temp, this.#target);
    } catch (error) {
      await this.discard();
      throw writeError(this.#file, error);
    }
  }

  /** Closes (when still open) and removes the temporary file, ignoring any error. */
  async discard(): Promise<void> {
    const handle = this.#handle;
    this.#handle = undefined;
    await handle?.close().catch(() => {});
    await unlink(this.#temp).catch(() => {});
  }
}

/** An {@link ImportWriteError} of `file` for a file-system error. */
function writeError(file: string, error: unknown): ImportWriteError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return new ImportWriteError(file, typeof code === 'string' ? code : 'EIO', error);
}

/**
 * The act `id` from `<dir>/<id>.json`: a regular file only (a FIFO, a device or a socket is skipped, never opened for
 * a blocking read), at most {@link MAX_PAYLOAD_BYTES} read (counted as read), the signal checked before each chunk.
 * @throws the signal's reason (see {@link abortReason}) when it aborts.
 */
async function readSaved(dir: string, id: number, signal: AbortSignal): Promise<Outcome> {
  const name = `${id}.json`;
  let text: string;
  try {
    text = (await readRegularFile(path.join(dir, name), { maxBytes: MAX_PAYLOAD_BYTES, signal })).toString('utf8');
  } catch (error) {
    if (signal.aborted) throw abortReason(signal);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return skip(id, 'missing', `no file ${name} in ${dir}`);
    if (code === 'EISDIR') return skip(id, 'missing', `${name} in ${dir} is a directory`);
    if (code === 'EACCES') return skip(id, 'payload', `${name} cannot be read (permission denied)`);
    if (error instanceof InputFileError) return skip(id, 'payload', `${name} ${error.problem}`);
    return skip(id, 'payload', `${name} cannot be read (${code ?? (error instanceof Error ? error.message : String(error))})`);
  }
  if (signal.aborted) throw abortReason(signal);
  return convert(id, text, name);
}

/** Parses and converts one payload's text; `what` names it in reasons (`165936.json`, `the response`). */
function convert(id: number, text: string, what: string): Outcome {
  let payload: unknown;
  try {
    payload = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return skip(id, 'payload', `${what} is not valid JSON (${detail})`);
  }
  let document: CorpusDocument;
  try {
    document = readActPayload(payload);
  } catch (error) {
    if (error instanceof PayloadError) return skip(id, 'payload', `${what} is not a readable act payload: ${error.message}`);
    throw error;
  }
  if (document.document_id !== `act-${id}`) {
    return skip(id, 'payload', `${what} holds ${document.document_id}, not act-${id}`);
  }
  return { ok: true, document };
}

function skip(id: number, kind: SkippedAct['kind'], reason: string): Outcome {
  return { ok: false, skipped: { id, kind, reason } };
}

/** The request context of {@link fetchAct}. */
interface FetchContext extends ImportDeps {
  dispatcher: Dispatcher;
  signal: AbortSignal;
}

/** `GET <base>/api/v1/act/<id>` with retries (see the module comment), converted. */
async function fetchAct(baseUrl: string, id: number, context: FetchContext): Promise<Outcome> {
  const url = `${baseUrl}${ACT_PATH}${id}`;
  const clock = context.clock ?? systemClock;
  const sleep = context.sleep ?? ((ms: number, signal?: AbortSignal) => clock.sleep(ms, signal));
  const random = context.random ?? Math.random;
  const maxAttempts = Math.max(1, context.maxAttempts ?? IMPORT_MAX_ATTEMPTS);
  for (let attempt = 1; ; attempt++) {
    const result = await tryOnce(url, context, clock);
    if (result.ok) return convert(id, result.body, 'the response');
    const tries = attempt === 1 ? '' : ` (${attempt} tries)`;
    if (!result.retryable || attempt >= maxAttempts) return skip(id, result.kind, `${result.reason}${tries}`);
    if (result.retryAfterMs !== undefined && result.retryAfterMs > RETRY_AFTER_MAX_MS) {
      return skip(id, result.kind, `${result.reason}, and the server asked to wait ${Math.ceil(result.retryAfterMs / 1000)} s before another try (more than ${RETRY_AFTER_MAX_MS / 1000} s)${tries}`);
    }
    const delay = result.retryAfterMs ?? backoffMs(attempt, random);
    try {
      await sleep(delay, context.signal);
    } catch {
      throw abortReason(context.signal);
    }
    if (context.signal.aborted) throw abortReason(context.signal);
  }
}

/** The wait before retry `attempt` (1-based) without `Retry-After`: equal jitter within the exponential ceiling. */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(RETRY_MAX_DELAY_MS, RETRY_BASE_MS * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** One try of `GET url`: a total timeout on `clock`, the body read up to {@link MAX_PAYLOAD_BYTES}. */
async function tryOnce(url: string, context: FetchContext, clock: Clock): Promise<TryResult> {
  const { request } = await import('undici');
  const timeoutMs = context.timeoutMs ?? IMPORT_TIMEOUT_MS;
  if (context.signal.aborted) throw abortReason(context.signal);
  const controller = new AbortController();
  let timedOut = false;
  const onAbort = (): void => controller.abort(context.signal.reason);
  context.signal.addEventListener('abort', onAbort, { once: true });
  const timer = clock.setTimeout(() => {
    timedOut = true;
    controller.abort(new Error('timeout'));
  }, timeoutMs);
  try {
    const response = await request(url, {
      method: 'GET',
      dispatcher: context.dispatcher,
      signal: controller.signal,
      headers: { accept: 'application/json', 'user-agent': context.userAgent ?? 'pravo' },
      // The total timeout above governs; undici's per-phase timers are off so that a long one is honoured.
      headersTimeout: 0,
      bodyTimeout: 0,
    });
    const status = response.statusCode;
    if (status >= 200 && status <= 299) {
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of response.body as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > MAX_PAYLOAD_BYTES) {
          response.body.destroy();
          return { ok: false, kind: 'payload', reason: `the response is larger than ${formatBytes(MAX_PAYLOAD_BYTES)}`, retryable: false };
        }
        chunks.push(chunk);
      }
      return { ok: true, body: Buffer.concat(chunks).toString('utf8') };
    }
    await response.body.dump().catch(() => {});
    const header = (name: string): string | undefined => {
      const value = response.headers[name];
      return Array.isArray(value) ? value[0] : value;
    };
    if (status === 429 || status >= 500) {
      const retryAfterMs = parseRetryAfter(header('retry-after'), clock.now());
      const what = status === 429 ? 'HTTP 429 (too many requests)' : `HTTP ${status} (server error)`;
      return { ok: false, kind: 'server', reason: what, retryable: true, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
    }
    if (status === 404) return { ok: false, kind: 'missing', reason: `HTTP 404: the API has no act with this id (${url})`, retryable: false };
    if (status >= 300 && status <= 399) {
      const location = header('location');
      return {
        ok: false,
        kind: 'http',
        reason: `HTTP ${status}: a redirect${location ? ` to ${location}` : ''}, which is not followed; give the base URL it points to`,
        retryable: false,
      };
    }
    return { ok: false, kind: 'http', reason: `HTTP ${status} from ${url}`, retryable: false };
  } catch (error) {
    if (context.signal.aborted) throw abortReason(context.signal);
    if (timedOut) return { ok: false, kind: 'network', reason: `no complete response within ${timeoutMs / 1000} s`, retryable: true };
    return { ok: false, kind: 'network', reason: `could not get ${url}: ${describeNetworkError(error)}`, retryable: !isCertificateProblem(error) };
  } finally {
    clock.clearTimeout(timer);
    context.signal.removeEventListener('abort', onAbort);
  }
}

/**
 * `Retry-After` in milliseconds: delay-seconds (`120`) or an HTTP date relative to `nowMs` (a past date gives 0);
 * undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  const v = value?.trim();
  if (v === undefined || v === '') return undefined;
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const date = Date.parse(v);
  if (Number.isNaN(date) || !/[a-z]/i.test(v)) return undefined;
  return Math.max(0, date - nowMs);
}

/** The errors of a cause chain, the error itself first. */
function causes(error: unknown): Error[] {
  const out: Error[] = [];
  for (let e: unknown = error; e instanceof Error && out.length < 8 && !out.includes(e); e = e.cause) {
    out.push(e);
    if (e instanceof AggregateError) out.push(...e.errors.filter((inner): inner is Error => inner instanceof Error));
  }
  return out;
}

/** A network failure in words: its errno code (`ECONNREFUSED`) and message, from the deepest cause that has one. */
function describeNetworkError(error: unknown): string {
  for (const e of causes(error)) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && !code.startsWith('UND_ERR_SOCKET')) return e.message.includes(code) ? e.message : `${e.message || 'failed'} (${code})`;
  }
  const first = causes(error)[0];
  return first?.message || String(error);
}

/** Whether the failure is a TLS certificate problem (retrying will not help). */
function isCertificateProblem(error: unknown): boolean {
  return causes(error).some((e) => {
    const code = (e as { code?: unknown }).code;
    return typeof code === 'string' && (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ALTNAME|HOSTNAME_MISMATCH/.test(code));
  });
}
