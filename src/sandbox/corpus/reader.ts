/**
 * Reading the sandbox corpus: JSON Lines (optionally gzip-compressed), one document per line, in the format of
 * `shared/corpus/README.md` (`bg-statutes.jsonl.gz`, and `bg-decisions.jsonl.gz` with its court-decision fields), and
 * the courts file (`bg-courts.json`). Files are read through `../input-file.ts`: regular files only, at most
 * {@link INPUT_MAX_BYTES} (decompressed too), cancellable.
 */
import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { formatBytes } from '../../shared/bytes.js';
import { INPUT_MAX_BYTES, InputFileError, readDecompressedChunks, readRegularFile, readRegularFileChunks } from '../input-file.js';

/** One article (or paragraph) of a document, in document order. */
export interface CorpusElement {
  /** Reference within the document, e.g. `2б`; not necessarily unique within a document. */
  ref: string;
  /** Label as in the source, e.g. `Чл. 2б.` or `§ 12.`. */
  label: string;
  /** Full text of the article. */
  text: string;
  /**
   * The heading above the element, when the input gives one: the part, chapter or section headings opening before it
   * and the article's own title, joined by ` / ` (`Глава първа. ОБЩИ ПОЛОЖЕНИЯ / Предмет`); for the first § of the
   * additional, transitional or final provisions, that section's heading (`Допълнителни разпоредби`). Absent: none.
   */
  heading?: string;
}

/**
 * One document of the corpus (one JSON line). Required: `document_id`, `source_type`, `type`, `title`, `date`,
 * `elements`. Court decisions (e.g. `source_type` `high_courts_cases`) may carry the court fields.
 */
export interface CorpusDocument {
  /** Unique within the corpus, e.g. `act-15535`. */
  document_id: string;
  /** E.g. `bulgarian_laws_regulations`, `high_courts_cases`. */
  source_type: string;
  /** Document type, e.g. `Закон`, `Кодекс`. */
  type: string;
  title: string;
  /** Publication date, `YYYY-MM-DD`. */
  date: string;
  /** Entry into force, `YYYY-MM-DD`, or null/absent when unknown. */
  in_force_date?: string | null;
  /**
   * The date the text is current as of, `YYYY-MM-DD`: for a consolidated text, the date up to which amendments are
   * applied; for a text as first published, its publication. Null/absent: unknown (court decisions).
   */
  as_of?: string | null;
  /** True: the text is consolidated (amendments applied up to `as_of`); false/absent: the text as published. */
  consolidated?: boolean;
  author?: string;
  url?: string;
  /**
   * The date the text at `url` is current as of, `YYYY-MM-DD`, when that page shows another text than this one may be:
   * a lex.bg page shows the act's current text (amended up to this date), a text here may be as first published. Set
   * from the links file (`links.ts`); null/absent: the page shows this text, or its date is unknown.
   */
  url_as_of?: string | null;
  /** The issuer's file number, or null/absent. */
  signature?: string | null;
  /** Ordered articles. */
  elements: CorpusElement[];
  /**
   * The opaque `collection` value the sandbox gives the document, when the corpus sets one (for testing clients with
   * unusual values: `/`, `&`, `?`, `#`, spaces, Cyrillic); absent: derived from `source_type` (`collectionOf`).
   */
  collection?: string;
  /** Court decisions only: the court's identifier (the value of `court_ids` filters). */
  court_id?: number;
  /** Court decisions only: the court's name. */
  court?: string;
  /** Court decisions only: number of the act; null when the act has none. */
  decision_number?: string | null;
  /** Court decisions only: `<number>/<year>` of the case; null when there is none. */
  case_number?: string | null;
  /** Court decisions only: kind of case, e.g. `наказателно дело`, `касационно административно дело`; null when unknown. */
  case_kind?: string | null;
  /** Court decisions only: the court's department, e.g. `Първо наказателно отделение`; null when none. */
  department?: string | null;
  /** Court decisions only: the judge-rapporteur; null where the text names none. */
  reporting_judge?: string | null;
  /** Court decisions only: every member of the panel, the chair first (non-empty strings); null or absent: unknown. */
  judges?: string[] | null;
}

/**
 * One court of the courts file (`bg-courts.json`, see `shared/corpus/README.md`): a JSON array of these objects.
 * `court_type`, `ecli_code` and `parent_court_id` may be absent (read as null).
 */
export interface CourtRecord {
  /** The court's numeric code (0 is the Конституционен съд: mind that 0 is falsy); unique in the file. */
  court_id: number;
  /** Official name, e.g. `Окръжен съд – Благоевград`. */
  name: string;
  /** Type, e.g. `Районен съд`; null when unknown. */
  court_type: string | null;
  /** ECLI court code, e.g. `SC001`; null when unknown. */
  ecli_code: string | null;
  /** The court an appeal goes to; null for the supreme courts or when unknown. */
  parent_court_id: number | null;
}

/**
 * A problem with the sandbox's inputs: a corpus file missing, unreadable, or with a line that is not a valid document;
 * a courts file that is not a valid list of courts; a set of inputs that does not fit together (see `inputs.ts`).
 * The message starts with what and where: `corpus FILE, line N: …`, `courts file FILE, entry N: …`, `corpus FILE: …`.
 */
export class CorpusError extends Error {
  /** The file (or directory) at fault. */
  readonly file: string;
  /** 1-based line number of the offending line, when the problem is one line of a corpus file. */
  readonly line: number | undefined;
  /** 1-based position of the offending entry, when the problem is one court of a courts file. */
  readonly entry: number | undefined;

  /**
   * @param options.what what `file` is, first word(s) of the message: `corpus` (default), `courts file`, `directory`.
   * @param options.entry 1-based entry of a courts file (instead of `line`).
   */
  constructor(file: string, message: string, line?: number, options?: { cause?: unknown; what?: string; entry?: number }) {
    const what = options?.what ?? 'corpus';
    const where = line !== undefined ? `, line ${line}` : options?.entry !== undefined ? `, entry ${options.entry}` : '';
    super(`${what} ${file}${where}: ${message}`, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CorpusError';
    this.file = file;
    this.line = line;
    this.entry = options?.entry;
  }
}

/**
 * The error a corpus read or index build rejects with when its `signal` aborts: a `DOMException` named `AbortError`
 * (the platform's convention, as `fetch` and `fs` use), `cause` = the signal's reason (e.g. `SIGINT`).
 */
export function cancelledError(what: string, signal: AbortSignal): DOMException {
  return new DOMException(`${what} was cancelled`, { name: 'AbortError', cause: signal.reason });
}

/** Whether `error` is a cancellation (`AbortError`), which is passed on as is rather than wrapped as a `CorpusError`. */
export function isCancellation(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

/**
 * Wraps a file-system error of `path` as a `CorpusError` with a clear message (missing file, directory, …); `what` is
 * what the file is (`corpus`, `courts file`).
 */
function fileError(path: string, error: unknown, what = 'corpus'): CorpusError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const options = { cause: error, what };
  if (error instanceof InputFileError && code !== 'EISDIR') return new CorpusError(path, error.problem, undefined, options);
  if (code === 'ENOENT') return new CorpusError(path, 'file not found', undefined, options);
  if (code === 'EISDIR') return new CorpusError(path, `is a directory, not a ${what === 'corpus' ? 'corpus file' : what}`, undefined, options);
  if (code === 'EACCES') return new CorpusError(path, 'permission denied', undefined, options);
  const detail = error instanceof Error ? error.message : String(error);
  return new CorpusError(path, `cannot be read: ${detail}`, undefined, options);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const OPTIONAL_STRING_FIELDS = [
  'author',
  'url',
  'court',
  'decision_number',
  'case_number',
  'case_kind',
  'department',
  'reporting_judge',
] as const;
const NULLABLE_STRING_FIELDS = ['in_force_date', 'signature', 'as_of', 'url_as_of'] as const;

/** Checks one parsed line; returns the document, or a message saying what is wrong. */
function validateDocument(value: unknown): CorpusDocument | string {
  if (!isObject(value)) return 'a document must be a JSON object';
  for (const field of ['document_id', 'source_type', 'type', 'title', 'date'] as const) {
    if (typeof value[field] !== 'string' || value[field] === '') {
      return `missing or invalid required field "${field}" (a non-empty string)`;
    }
  }
  if (value.collection !== undefined && (typeof value.collection !== 'string' || value.collection.trim() === '')) {
    return 'field "collection" must be a non-empty string when present';
  }
  for (const field of OPTIONAL_STRING_FIELDS) {
    if (value[field] !== undefined && value[field] !== null && typeof value[field] !== 'string') {
      return `field "${field}" must be a string when present`;
    }
  }
  for (const field of NULLABLE_STRING_FIELDS) {
    if (value[field] !== undefined && value[field] !== null && typeof value[field] !== 'string') {
      return `field "${field}" must be a string or null`;
    }
  }
  if (value.court_id !== undefined && value.court_id !== null && !Number.isSafeInteger(value.court_id)) {
    return 'field "court_id" must be an integer when present';
  }
  const judges = value.judges;
  if (judges !== undefined && judges !== null) {
    if (!Array.isArray(judges)) return 'field "judges" must be an array of names when present';
    const bad = judges.findIndex((j) => typeof j !== 'string' || j.trim() === '');
    if (bad !== -1) return `judges[${bad}] must be a non-empty string`;
  }
  if (value.consolidated !== undefined && value.consolidated !== null && typeof value.consolidated !== 'boolean') {
    return 'field "consolidated" must be true or false when present';
  }
  for (const field of ['as_of', 'url_as_of'] as const) {
    const date = value[field];
    if (typeof date === 'string' && !/^\d{4}-\d{2}-\d{2}$/.test(date)) return `field "${field}" must be a date YYYY-MM-DD when present`;
  }
  const elements = value.elements;
  if (!Array.isArray(elements)) return 'missing or invalid required field "elements" (an array)';
  for (let i = 0; i < elements.length; i++) {
    const e: unknown = elements[i];
    if (!isObject(e) || typeof e.ref !== 'string' || typeof e.label !== 'string' || typeof e.text !== 'string') {
      return `elements[${i}] must be an object with string fields "ref", "label" and "text"`;
    }
    if (e.heading !== undefined && e.heading !== null && typeof e.heading !== 'string') {
      return `elements[${i}].heading must be a string when present`;
    }
  }
  return value as unknown as CorpusDocument;
}

/**
 * The lines of a corpus file, decompressed (see {@link readCorpus}), split at `\n` (a `\r` before it dropped), each
 * decoded as UTF-8; at most {@link INPUT_MAX_BYTES}`.jsonl` bytes read and decompressed, a line at most
 * {@link INPUT_MAX_BYTES}`.jsonlLine` bytes. Linear in the file: a line's pieces are joined once, at its end.
 * @throws CorpusError for a line too long (naming it and the cap); the errors of `readDecompressedChunks` otherwise
 *   (`InputFileError` for a file refused or too large, the file system's, zlib's, an `AbortError`).
 */
async function* corpusLines(path: string, signal: AbortSignal | undefined): AsyncGenerator<string> {
  const maxLine = INPUT_MAX_BYTES.jsonlLine;
  let pieces: Buffer[] = [];
  let pending = 0;
  let lineNumber = 0;
  const line = (last: Buffer): string => {
    lineNumber++;
    const bytes = pieces.length === 0 ? last : Buffer.concat([...pieces, last]);
    pieces = [];
    pending = 0;
    const end = bytes.length > 0 && bytes[bytes.length - 1] === 0x0d ? bytes.length - 1 : bytes.length;
    return bytes.toString('utf8', 0, end);
  };
  const tooLong = (): CorpusError =>
    new CorpusError(path, `is longer than ${formatBytes(maxLine)}, the most read of one document`, lineNumber + 1);
  for await (const chunk of readDecompressedChunks(path, { maxBytes: INPUT_MAX_BYTES.jsonl, signal })) {
    let start = 0;
    for (let newline = chunk.indexOf(0x0a); newline !== -1; newline = chunk.indexOf(0x0a, start)) {
      if (pending + newline - start > maxLine) throw tooLong();
      yield line(chunk.subarray(start, newline));
      start = newline + 1;
    }
    if (start < chunk.length) {
      pending += chunk.length - start;
      if (pending > maxLine) throw tooLong();
      pieces.push(chunk.subarray(start));
    }
  }
  if (pieces.length > 0) yield line(Buffer.alloc(0));
}

/**
 * Streams the documents of a corpus file, in file order, without loading the file whole.
 *
 * The file is JSON Lines, gzip-compressed when it starts with the gzip magic bytes `1f 8b` (whatever its name),
 * plain UTF-8 otherwise; lines end in `\n` or `\r\n`. Blank lines are skipped. Only a regular file is read (a FIFO or a
 * device is refused), at most 1 GiB of it, decompressed too, and a line (one document) of at most 64 MiB
 * ({@link INPUT_MAX_BYTES}).
 *
 * @param path the corpus file.
 * @param signal optional: checked before each chunk read; when it aborts, rejects with an `AbortError`.
 * @throws CorpusError when the file is missing, unreadable, not a regular file or too large, when a line is too long,
 *   is not valid JSON or lacks a required field (the message and `line` name the 1-based line number), when a
 *   `document_id` repeats, or when the gzip data is corrupt.
 */
export async function* readCorpus(path: string, signal?: AbortSignal): AsyncGenerator<CorpusDocument> {
  const seen = new Set<string>();
  let lineNumber = 0;
  try {
    for await (const line of corpusLines(path, signal)) {
      lineNumber++;
      if (line.trim() === '') continue;
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch (error) {
        const detail = error instanceof Error ? error.message : String(error);
        throw new CorpusError(path, `invalid JSON (${detail})`, lineNumber, { cause: error });
      }
      const document = validateDocument(parsed);
      if (typeof document === 'string') throw new CorpusError(path, document, lineNumber);
      if (seen.has(document.document_id)) {
        throw new CorpusError(path, `duplicate document_id "${document.document_id}"`, lineNumber);
      }
      seen.add(document.document_id);
      yield document;
    }
  } catch (error) {
    if (error instanceof CorpusError || isCancellation(error)) throw error;
    if (lineNumber === 0 || error instanceof InputFileError) throw fileError(path, error);
    const detail = error instanceof Error ? error.message : String(error);
    throw new CorpusError(path, `cannot be read after line ${lineNumber}: ${detail}`, undefined, { cause: error });
  }
}

/**
 * Counts the documents (non-blank lines) of a corpus file cheaply, without parsing JSON: the `total` of the indexing
 * progress. Same format rules and limits as `readCorpus`.
 *
 * @param signal optional: checked before each chunk read; when it aborts, rejects with an `AbortError`.
 * @throws CorpusError when the file is missing, unreadable, not a regular file or too large.
 */
export async function countCorpusLines(path: string, signal?: AbortSignal): Promise<number> {
  let count = 0;
  // Whether the current line so far holds a non-whitespace byte (a line of only spaces/CR/tabs is blank).
  let content = false;
  try {
    for await (const chunk of readDecompressedChunks(path, { maxBytes: INPUT_MAX_BYTES.jsonl, signal })) {
      for (let i = 0; i < chunk.length; i++) {
        const b = chunk[i];
        if (b === 0x0a) {
          if (content) count++;
          content = false;
        } else if (!content && b !== 0x20 && b !== 0x0d && b !== 0x09) {
          content = true;
        }
      }
    }
  } catch (error) {
    throw isCancellation(error) ? error : fileError(path, error);
  }
  if (content) count++;
  return count;
}

/**
 * SHA-256 of the corpus file's bytes (as stored, i.e. of the compressed bytes for a gzip file), streamed in 1 MiB
 * chunks. Only a regular file is read, at most `maxBytes` of it.
 *
 * @param onBytes optional progress callback: bytes hashed so far and the file size, in bytes.
 * @param signal optional: checked before each chunk; when it aborts, rejects with {@link cancelledError}.
 * @param what what the file is, for messages: `corpus` (default), `courts file` or `thesaurus`.
 * @param maxBytes the most bytes read: the cap of the file's reader ({@link INPUT_MAX_BYTES}); default that of a JSON
 *   Lines corpus file.
 * @returns lowercase hex digest (64 characters).
 * @throws CorpusError when the file is missing, unreadable, not a regular file or larger than `maxBytes`.
 */
export async function hashCorpusFile(
  path: string,
  onBytes?: (done: number, total: number) => void,
  signal?: AbortSignal,
  what = 'corpus',
  maxBytes: number = INPUT_MAX_BYTES.jsonl,
): Promise<string> {
  if (signal?.aborted) throw cancelledError('Hashing the corpus', signal);
  let size: number;
  try {
    size = (await stat(path)).size;
  } catch (error) {
    throw fileError(path, error, what);
  }
  const hash = createHash('sha256');
  let done = 0;
  try {
    for await (const chunk of readRegularFileChunks(path, { maxBytes, signal })) {
      hash.update(chunk);
      done += chunk.length;
      onBytes?.(done, Math.max(size, done));
    }
  } catch (error) {
    if (!isCancellation(error)) throw fileError(path, error, what);
    throw signal?.aborted ? cancelledError('Hashing the corpus', signal) : error;
  }
  return hash.digest('hex');
}

/** Checks one entry of a courts file; returns the court, or a message naming the field that is wrong. */
function validateCourt(value: unknown): CourtRecord | string {
  if (!isObject(value)) return 'a court must be a JSON object';
  if (!Number.isSafeInteger(value.court_id) || (value.court_id as number) < 0) {
    return 'missing or invalid required field "court_id" (a non-negative integer)';
  }
  if (typeof value.name !== 'string' || value.name.trim() === '') {
    return 'missing or invalid required field "name" (a non-empty string)';
  }
  for (const field of ['court_type', 'ecli_code'] as const) {
    if (value[field] !== undefined && value[field] !== null && typeof value[field] !== 'string') {
      return `field "${field}" must be a string or null`;
    }
  }
  const parent = value.parent_court_id;
  if (parent !== undefined && parent !== null && (!Number.isSafeInteger(parent) || (parent as number) < 0)) {
    return 'field "parent_court_id" must be a non-negative integer or null';
  }
  return {
    court_id: value.court_id as number,
    name: value.name,
    court_type: (value.court_type as string | null | undefined) ?? null,
    ecli_code: (value.ecli_code as string | null | undefined) ?? null,
    parent_court_id: (parent as number | null | undefined) ?? null,
  };
}

/**
 * Reads and checks a courts file in the format of `bg-courts.json` (`shared/corpus/README.md`): UTF-8 JSON, an array
 * of `{court_id, name, court_type, ecli_code, parent_court_id}` (see {@link CourtRecord}). Entries are returned in
 * file order. A `parent_court_id` need not name a court of the file (an appeal chain may lead out of it).
 *
 * @param path the courts file: a regular file of at most 16 MiB ({@link INPUT_MAX_BYTES}).
 * @throws CorpusError (`courts file FILE…`) when the file is missing, unreadable, not a regular file or too large, is not JSON or not an
 *   array, or an entry is not a court: the message and `entry` name the 1-based entry and the field; a repeated
 *   `court_id` names both entries.
 */
export async function readCourtsFile(path: string): Promise<CourtRecord[]> {
  const courts: CourtRecord[] = [];
  const seen = new Map<number, number>();
  await readJsonArrayInput(path, 'courts file', 'courts', (entry, number) => {
    const court = validateCourt(entry);
    if (typeof court === 'string') return court;
    const first = seen.get(court.court_id);
    if (first !== undefined) return `court_id ${court.court_id} repeats entry ${first}`;
    seen.set(court.court_id, number);
    courts.push(court);
    return undefined;
  });
  return courts;
}

/**
 * Reads an input that is a JSON array of records (the courts file, the links file): a regular file of at most
 * {@link INPUT_MAX_BYTES}`.courts` (16 MiB) actually read, UTF-8 JSON, an array; `take` is given each entry with its
 * 1-based number, in file order, and returns what is wrong with it (a message naming the field), or undefined.
 * @param what what the file is, for messages (`courts file`, `links file`); `records` the entries' plural (`courts`).
 * @throws CorpusError (`<what> FILE…`) when the file is missing, unreadable, not a regular file or too large, is not
 *   JSON or not an array, or `take` refuses an entry (`entry` names it).
 */
export async function readJsonArrayInput(path: string, what: string, records: string, take: (entry: unknown, number: number) => string | undefined): Promise<void> {
  const fail = (message: string, entry?: number, cause?: unknown): CorpusError =>
    new CorpusError(path, message, undefined, { what, ...(entry === undefined ? {} : { entry }), cause });
  let text: string;
  try {
    text = (await readRegularFile(path, { maxBytes: INPUT_MAX_BYTES.courts })).toString('utf8');
  } catch (error) {
    throw fileError(path, error, what);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw fail(`invalid JSON (${error instanceof Error ? error.message : String(error)})`, undefined, error);
  }
  if (!Array.isArray(parsed)) throw fail(`must be a JSON array of ${records}`);
  parsed.forEach((entry, i) => {
    const problem = take(entry, i + 1);
    if (problem !== undefined) throw fail(problem, i + 1);
  });
}
