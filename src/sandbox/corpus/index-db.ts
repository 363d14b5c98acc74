/**
 * The sandbox's search index: one SQLite file (node:sqlite) per set of inputs (corpus files and courts file, see
 * `inputs.ts`) by content, analyzer version and layout version, built once from the inputs and reused on later starts.
 *
 * File: `<dataDir>/index-<key>.sqlite`, `key` = the inputs key (`inputsKeyOf` in `inputs.ts`: 16 hex digits of a
 * SHA-256 over the sorted SHA-256s of the corpus files, the courts file's SHA-256, `ANALYZER_VERSION` and
 * `INDEX_SCHEMA_VERSION`; the order in which the corpus files are given does not matter). A build writes a uniquely named temporary file
 * (`index-<key>.sqlite.tmp-<pid>-<random>`) in the same directory and renames it into place only when complete, so a
 * half-written index is never used; concurrent builders each write their own temporary file, and the atomic rename
 * makes the last one win with identical content. The build keeps SQLite's rollback journal in memory, so it writes
 * no other file. A failed or cancelled build removes its temporary file; one killed outright (kill -9, a crash, a
 * power cut) leaves it, and every later `openIndex` on the directory removes it (see {@link removeStaleTempFiles}).
 *
 * Tables:
 * - `meta(key, value)`: `complete` = `1` (written last), `inputs_key`, `corpus_sha256` (the corpus files' SHA-256s,
 *   sorted, joined by `,`), `courts_sha256` (empty without a courts file), `analyzer_version`, `schema_version`,
 *   `document_count`, `article_count`, `court_count`, `alias_count`, `skipped_inputs` (JSON: the inputs the build
 *   skipped, `[{path, message}]`), `built_at`.
 * - `documents`: the documents as served (`collect.ts`: every input read, National Assembly acts rebuilt in their
 *   structure, one document per act), every corpus field (`as_of`; `consolidated` as 1/0/null), the full ordered
 *   `elements` as JSON in their response shape (`excerpt_id`, `ref`, `label`, `text`, and `heading`, `amended_by`,
 *   `amends` when present: what `GET /v1/documents` sends, so it is sent without being parsed), the court fields
 *   when present (`judges` as `judges_json`, a JSON array, null when absent), the opaque `collection` (the corpus's
 *   own when a document sets one, else `collectionOf(source_type)`), and
 *   `title_stems` (the analyzed title, stems joined by spaces). Rows in build order: corpus files sorted by content
 *   hash, each in file order.
 * - `aliases(alias, doc)`: a `document_id` merged into another text of the same act → the documents rowid it is
 *   served under ("one act, one document"), so that ids served before keep resolving.
 * - `thesaurus(stem, senses)`: when the inputs hold a thesaurus, its senses by headword stem as JSON
 *   (`ThesaurusSense[]`), restricted to the stems the index holds (`search/thesaurus.ts`, `restrictToIndex`).
 * - `courts`: every court of the courts file, plus each court a decision names (`court_id`) that the file lacks, with
 *   the decision's `court` as its name (`Съд <court_id>` when it has none) and null type, ECLI code and parent.
 * - `articles`: `id` (= FTS rowid), `doc` (documents rowid), `ordinal` (0-based position in `elements`), `ref`,
 *   `label`, `text` (the element's text without the heading lines that belong to the next article, see
 *   `headings.ts`), `heading` (the heading lines moved here from the end of the previous article; `''` when none),
 *   `excerpt_id` (stable, unique: `<document_id>:<ref>`, `~2`, `~3`… appended when a ref repeats within the
 *   document), `stem_count` (number of indexed stems of `text`). Indexed by `(doc, ordinal)` and `(doc, ref)`.
 * - `fts`: contentless FTS5 table (`content=''`) with two columns, the pre-stemmed article text and the pre-stemmed
 *   heading (stems joined by spaces), rowid = `articles.id`; `bm25(fts, …)` works on it (column sizes are kept).
 * - `fts_vocab`: fts5vocab (`row`) over `fts`: how many articles hold each stem.
 *
 * Every SQL statement of the index is in this module; the rest of the sandbox reads it through the methods of
 * {@link SearchIndex}. Index files are 0600 and the data directory 0700 (see `files.ts`).
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { isCourtSourceType, KNOWN_SOURCE_TYPES, type DocumentElement, type DocumentResponse, type SourceTypeEntry } from '../../contract/types.js';
import { ensurePrivateDir, makePrivate } from '../files.js';
import { processIsRunning } from '../../shared/processes.js';
import { analyze, ANALYZER_VERSION } from '../search/analysis.js';
import { readThesaurus, restrictToIndex, type ThesaurusSense } from '../search/thesaurus.js';
import { linkAmendments, type AmendedByEntry, type AmendsEntry, type ElementLinks } from './amended-by.js';
import { collectCorpus, type SkippedInput } from './collect.js';
import { excerptIds } from './excerpts.js';
import { elementsWithHeadings } from './headings.js';
import { corpusFileKind, digestInputs, INDEX_SCHEMA_VERSION, type CorpusInputs, type InputsDigest } from './inputs.js';
import { cancelledError, countCorpusLines, readCourtsFile, type CorpusElement, type CourtRecord } from './reader.js';

/** Version of the table layout (defined in `inputs.ts`, which computes the key without loading SQLite). */
export { INDEX_SCHEMA_VERSION };
/** The excerpt ids of a document's elements (defined in `excerpts.ts`). */
export { excerptIds };

/**
 * Progress of `openIndex`. `done`/`total` are bytes for `hashing` (over all input files), documents for `indexing`
 * (over all corpus files), steps for `finishing`.
 */
export interface IndexProgress {
  phase: 'hashing' | 'indexing' | 'finishing';
  done: number;
  total: number;
}

/** Options of `openIndex`. */
export interface OpenIndexOptions {
  /** The corpus files and courts file (see `inputs.ts`). Give this or `corpusPath`. */
  inputs?: CorpusInputs;
  /** Shorthand for `inputs: {corpusFiles: [corpusPath]}`: one corpus file (JSON Lines, gzip or plain), no courts file. */
  corpusPath?: string;
  /** Directory holding index files; created when missing. */
  dataDir: string;
  /**
   * Progress callback: `hashing` (every MiB), then, only when the index must be built, `indexing` (about every 1% of
   * the documents, and at the end) and `finishing` (0/1 before the final optimize, 1/1 when the file is in place).
   */
  onProgress?: (progress: IndexProgress) => void;
  /**
   * Cancels the start (Ctrl-C): checked while hashing and counting (between chunks read), before each document of a
   * build and before each finishing step. When it aborts, `openIndex` removes the build's temporary file and rejects
   * with an `AbortError` (see `cancelledError`); an index already complete is kept.
   */
  signal?: AbortSignal;
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

/** One article (element) of a document, as stored. */
export interface ArticleRow {
  /** Article id (= FTS rowid), 1, 2, … in corpus order. */
  id: number;
  /** 0-based position in the document's `elements`. */
  ordinal: number;
  /** Label as in the source, e.g. `Чл. 405.`. */
  label: string;
  /** Text of the article (without heading lines that belong to the next one, see `headings.ts`). */
  text: string;
  /** Heading lines introducing the article (section and article headings), `''` when none. */
  heading: string;
  /** `<document_id>:<ref>`, unique in the index (see {@link excerptIds}). */
  excerpt_id: string;
}

/**
 * One court of the index (`GET /v1/catalog/courts`): from the courts file, or named by a decision and missing from it
 * (then `court_type`, `ecli_code` and `parent_court_id` are null).
 */
export type CourtRow = CourtRecord;

/**
 * One element of a stored document as `GET /v1/documents` sends it: the contract's `DocumentElement` with every field
 * present. `excerpt_id` is the same id as the search excerpts of this element (see {@link excerptIds}).
 */
export interface StoredElement extends DocumentElement {
  excerpt_id: string;
  ref: string;
  label: string;
  text: string;
  /** The headings above the element (`Глава първа. ОБЩИ ПОЛОЖЕНИЯ / Предмет`), when the input gives them. */
  heading?: string;
  /** An article changed by §§ of the corpus: those §§, newest first (see `amended-by.ts`). Absent: none. */
  amended_by?: AmendedByEntry[];
  /** A § that changes articles of acts: the acts and articles (see `amended-by.ts`). Absent: none read. */
  amends?: AmendsEntry[];
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
  elements: StoredElement[];
}

/** An open, complete index (read-only). */
export interface SearchIndex {
  /** The index file. */
  readonly path: string;
  /** The key of the inputs the index was built from (16 hex digits; see `inputsKeyOf`). */
  readonly inputsKey: string;
  readonly documentCount: number;
  readonly articleCount: number;
  /** Whether this `openIndex` call built the index (false when an existing complete index was reused). */
  readonly built: boolean;
  /** Inputs the build skipped (Akoma Ntoso files that are not well-formed, unreadable payloads), by path. */
  readonly skippedInputs: readonly SkippedInput[];
  /**
   * For a `document_id` merged into another act's document ("one act, one document", `collect.ts`), the `document_id`
   * it is served under; undefined for any other id. `readDocument` resolves aliases itself.
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
   * The thesaurus the index was built with, restricted to its stems (`search/thesaurus.ts`): senses by headword stem;
   * undefined when it was built without one. Read on each call (about 30 ms on the real thesaurus): call it once.
   */
  thesaurus(): Map<string, ThesaurusSense[]> | undefined;
  /** Every document's metadata row, in rowid order (one array; about 2,000 rows on the full corpus). */
  documentRows(): DocumentRow[];
  /** `[articleId, documentRowid, text length]` of every article, in article order, streamed. */
  articleDocumentPairs(): IterableIterator<[article: number, document: number, length: number]>;
  /** The largest article id (0 for an index without articles); ids run 1…this. */
  maxArticleId(): number;
  /**
   * The articles whose indexed stems (text or heading) contain `stem` (an exact FTS5 phrase match on one stem of
   * `analyze`), each as `[articleId, bm25]` with `bm25` as FTS5's `bm25(fts, 1, HEADING_WEIGHT)` returns it: negative,
   * lower is a better match; a match in the heading counts {@link HEADING_WEIGHT} times one in the text. Any order.
   * With `prefix`, every stem beginning with `stem` matches (an FTS5 prefix query; BM25 takes them as one term).
   */
  matchStem(stem: string, prefix?: boolean): [article: number, bm25: number][];
  /**
   * How many articles contain `stem` (text or heading), from the FTS5 vocabulary (`fts_vocab`) without reading the
   * postings; for bounding a query's work before matching (see `ranking.ts`). With `prefix`, the sum over the stems
   * beginning with `stem` (an upper bound of the articles holding any of them).
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
  /** Closes the database. Safe to call twice. */
  close(): void;
}

/** Bulgarian names of the known source types (`GET /v1/catalog/source-types`). */
export const SOURCE_TYPE_NAMES: Readonly<Record<string, string>> = {
  [KNOWN_SOURCE_TYPES.laws]: 'Закони и подзаконови нормативни актове',
  [KNOWN_SOURCE_TYPES.highCourts]: 'Съдебна практика на върховните съдилища',
};

/**
 * The opaque `collection` value of a source type: `c_` + the first 10 hex digits of sha256(source_type). Stable
 * across corpora and runs; deliberately not human-readable (spec: clients must not derive meaning from it).
 */
export function collectionOf(sourceType: string): string {
  return 'c_' + createHash('sha256').update(sourceType, 'utf8').digest('hex').slice(0, 10);
}

/** The index file name for an inputs key (`inputsKeyOf`): `index-<16 hex>.sqlite`. */
export function indexFileName(inputsKey: string): string {
  return `index-${inputsKey}.sqlite`;
}

/** Weight of a match in an article's heading relative to one in its text (`bm25` column weight; see `headings.ts`). */
export const HEADING_WEIGHT = 3;

const SCHEMA = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE documents (
  id INTEGER PRIMARY KEY,
  document_id TEXT NOT NULL UNIQUE,
  collection TEXT NOT NULL,
  source_type TEXT NOT NULL,
  type TEXT NOT NULL,
  title TEXT NOT NULL,
  date TEXT NOT NULL,
  in_force_date TEXT,
  as_of TEXT,
  consolidated INTEGER,
  author TEXT,
  url TEXT,
  signature TEXT,
  court_id INTEGER,
  court TEXT,
  decision_number TEXT,
  case_number TEXT,
  case_kind TEXT,
  department TEXT,
  reporting_judge TEXT,
  judges_json TEXT,
  elements_json TEXT NOT NULL,
  title_stems TEXT NOT NULL,
  article_count INTEGER NOT NULL
);
CREATE INDEX documents_source_type_date ON documents (source_type, date);
CREATE TABLE aliases (alias TEXT PRIMARY KEY, doc INTEGER NOT NULL REFERENCES documents (id)) WITHOUT ROWID;
CREATE TABLE articles (
  id INTEGER PRIMARY KEY,
  doc INTEGER NOT NULL REFERENCES documents (id),
  ordinal INTEGER NOT NULL,
  ref TEXT NOT NULL,
  label TEXT NOT NULL,
  text TEXT NOT NULL,
  excerpt_id TEXT NOT NULL UNIQUE,
  stem_count INTEGER NOT NULL,
  heading TEXT NOT NULL
);
CREATE INDEX articles_doc ON articles (doc, ordinal);
CREATE INDEX articles_ref ON articles (doc, ref);
CREATE VIRTUAL TABLE fts USING fts5 (stems, heading, content = '');
CREATE VIRTUAL TABLE fts_vocab USING fts5vocab (fts, 'row');
CREATE TABLE thesaurus (stem TEXT PRIMARY KEY, senses TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE courts (
  court_id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  court_type TEXT,
  ecli_code TEXT,
  parent_court_id INTEGER
);
`;

/**
 * One element in the form `GET /v1/documents` sends it (see {@link StoredElement}): `excerpt_id`, `ref`, `label`,
 * `text`, `heading` when the input gives one, and `amended_by` / `amends` when the element has such links.
 */
function storedElementOf(element: CorpusElement, excerptId: string, links: ElementLinks | undefined): StoredElement {
  const stored: StoredElement = { excerpt_id: excerptId, ref: element.ref, label: element.label, text: element.text };
  if (element.heading !== undefined && element.heading !== '') stored.heading = element.heading;
  if (links?.amended_by !== undefined) stored.amended_by = links.amended_by;
  if (links?.amends !== undefined) stored.amends = links.amends;
  return stored;
}

/**
 * The files of a build: the temporary index (`index-<key>.sqlite.tmp-<pid>-<random>`, `pid` = the builder's process
 * id) and the side files SQLite may create beside it (`-journal`, `-wal`, `-shm`; not with the in-memory journal the
 * build uses now, but left by older builds or a SQLite that refused it). Group 1 is the pid.
 */
const TEMP_PATTERN = /^index-[0-9a-f]{16}\.sqlite\.tmp-(\d+)-[0-9a-f]+(?:-journal|-wal|-shm)?$/;

/** The side files SQLite may create beside a database file. */
const SIDE_SUFFIXES = ['-journal', '-wal', '-shm'] as const;

/** Removes a build's temporary file and any SQLite side file beside it; missing files are fine. */
function removeTempFiles(tempPath: string): void {
  for (const file of [tempPath, ...SIDE_SUFFIXES.map((suffix) => tempPath + suffix)]) rmSync(file, { force: true });
}

/**
 * Removes the temporary files (see {@link TEMP_PATTERN}) of builds that no longer run: their process was killed, or
 * crashed, before it could clean up. Called by every `openIndex`, whether or not it builds, so such a file (as large
 * as an index) does not stay for ever once an index exists. Best effort: a file that cannot be removed is left.
 *
 * Why a pid in the name and not a lock: another process may be building in the same directory right now, and its
 * file must be kept. Node has no portable advisory file lock (`flock`), a lock file needs the same liveness check to
 * tell a stale lock, and SQLite's own POSIX locks are per process (closing any handle of the file in the same process
 * drops them), so probing a builder's file could break a concurrent build in this process. The builder's pid, checked
 * with `process.kill(pid, 0)`, needs nothing to be released on a crash. Temporary files of this process are never
 * removed here (a concurrent `openIndex` in this process may be building). Limits: when a dead builder's pid has been
 * reused by another process, its file is kept until that process ends (only late, never wrong); pids are only
 * meaningful on this machine, so a data directory shared with other machines or pid namespaces is not supported.
 */
function removeStaleTempFiles(dataDir: string): void {
  let names: string[];
  try {
    names = readdirSync(dataDir);
  } catch {
    return;
  }
  for (const name of names) {
    const m = TEMP_PATTERN.exec(name);
    if (!m) continue;
    const pid = Number(m[1]);
    if (pid === process.pid || processIsRunning(pid)) continue;
    try {
      rmSync(join(dataDir, name), { force: true });
    } catch {
      // Not ours to insist on (permissions): the next start tries again.
    }
  }
}

/**
 * Reads `meta` of an index file; undefined when the file is not a complete index of the expected versions (and, when
 * `inputsKey` is given, of those inputs).
 */
function readCompleteMeta(db: DatabaseSync, inputsKey: string | undefined): Map<string, string> | undefined {
  try {
    const rows = db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[];
    const meta = new Map(rows.map((r) => [r.key, r.value]));
    const ok =
      meta.get('complete') === '1' &&
      (inputsKey === undefined || meta.get('inputs_key') === inputsKey) &&
      meta.get('analyzer_version') === String(ANALYZER_VERSION) &&
      meta.get('schema_version') === String(INDEX_SCHEMA_VERSION);
    return ok ? meta : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Opens an existing complete index read-only (of the inputs `inputsKey`, when given); undefined when absent,
 * incomplete, of other inputs or versions, or unreadable.
 */
function tryOpenExisting(path: string, inputsKey: string | undefined): { db: DatabaseSync; meta: Map<string, string> } | undefined {
  if (!existsSync(path)) return undefined;
  let db: DatabaseSync | undefined;
  try {
    db = new DatabaseSync(path, { readOnly: true });
    const meta = readCompleteMeta(db, inputsKey);
    if (meta) return { db, meta };
  } catch {
    // Not a database, or unreadable: rebuilt below.
  }
  db?.close();
  return undefined;
}

/**
 * Builds the index of the inputs `digest` describes into `tempPath` (a new file), writing no other file. Corpus files
 * are read in the digest's order (by content hash), so any order of the same files builds the same index.
 * @throws CorpusError for an invalid corpus or courts file, or a `document_id` found in two corpus files (naming both);
 *   AbortError (see `cancelledError`) when `signal` aborts. The caller removes `tempPath`.
 */
async function buildIndex(
  digest: InputsDigest,
  tempPath: string,
  onProgress: ((progress: IndexProgress) => void) | undefined,
  signal: AbortSignal | undefined,
): Promise<void> {
  const checkCancelled = (): void => {
    if (signal?.aborted) throw cancelledError('The index build', signal);
  };
  // Read and check the courts file first: a mistake in it is reported before minutes of indexing.
  const courtsFromFile = digest.courts === undefined ? [] : await readCourtsFile(digest.courts.path);
  let total = 0;
  for (const file of digest.corpus) total += corpusFileKind(file.path) === 'jsonl' ? await countCorpusLines(file.path, signal) : 1;
  checkCancelled();
  onProgress?.({ phase: 'indexing', done: 0, total });
  // Reading is most of the work (parsing XML and rebuilding acts); inserting, the rest. Progress counts inputs read
  // up to 80 % of the total, then documents inserted.
  const readShare = 0.8;
  const step = Math.max(1, Math.floor(total / 100));
  let read = 0;
  const db = new DatabaseSync(tempPath);
  try {
    // node:sqlite opens databases in defensive mode, which refuses `journal_mode = OFF` (it stays DELETE and leaves a
    // `-journal` file when the process dies). MEMORY is accepted and writes no file; a crash mid-build can corrupt the
    // temporary file, which is never used (it is renamed only when complete) and is removed later.
    const mode = db.prepare('PRAGMA journal_mode = MEMORY').get() as { journal_mode: string } | undefined;
    if (mode?.journal_mode !== 'memory') throw new Error(`SQLite refused journal_mode = MEMORY for ${tempPath}`);
    db.exec('PRAGMA synchronous = OFF; PRAGMA temp_store = MEMORY;');
    db.exec(SCHEMA);
    // The temporary file exists from here on (a build is seen, and cleaned up, as such while it reads its inputs).
    const collected = await collectCorpus(
      digest.corpus.map((f) => f.path),
      {
        signal,
        onDocument: () => {
          read++;
          if (read % step === 0) onProgress?.({ phase: 'indexing', done: Math.floor(read * readShare), total: Math.max(total, read) });
        },
      },
    );
    const links = linkAmendments(collected.documents, (d) => d.collection ?? collectionOf(d.source_type));
    const insertDocument = db.prepare(
      `INSERT INTO documents (id, document_id, collection, source_type, type, title, date, in_force_date, as_of,
         consolidated, author, url, signature, court_id, court, decision_number, case_number, case_kind, department,
         reporting_judge, judges_json, elements_json, title_stems, article_count)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const insertArticle = db.prepare(
      'INSERT INTO articles (id, doc, ordinal, ref, label, text, excerpt_id, stem_count, heading) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    const insertFts = db.prepare('INSERT INTO fts (rowid, stems, heading) VALUES (?, ?, ?)');
    const collections = new Map<string, string>();
    /** Courts named by decisions: the first name a decision gives each (null while none has given one). */
    const namedCourts = new Map<number, string | null>();
    /** Documents rowid of each served document_id (for the aliases). */
    const rowOf = new Map<string, number>();
    let documents = 0;
    let articles = 0;
    const insertStep = Math.max(1, Math.floor(collected.documents.length / 20));
    db.exec('BEGIN');
    for (const d of collected.documents) {
      checkCancelled();
      const elementLinks = links.get(documents);
      documents++;
      rowOf.set(d.document_id, documents);
      let collection = d.collection ?? collections.get(d.source_type);
      if (collection === undefined) {
        collection = collectionOf(d.source_type);
        collections.set(d.source_type, collection);
      }
      if (d.court_id !== undefined && d.court_id !== null && !namedCourts.get(d.court_id)) {
        namedCourts.set(d.court_id, d.court ?? null);
      }
      const elementIds = excerptIds(d.document_id, d.elements);
      insertDocument.run(
        documents,
        d.document_id,
        collection,
        d.source_type,
        d.type,
        d.title,
        d.date,
        d.in_force_date ?? null,
        d.as_of ?? null,
        d.consolidated === undefined ? null : d.consolidated ? 1 : 0,
        d.author ?? null,
        d.url ?? null,
        d.signature ?? null,
        d.court_id ?? null,
        d.court ?? null,
        d.decision_number ?? null,
        d.case_number ?? null,
        d.case_kind ?? null,
        d.department ?? null,
        d.reporting_judge ?? null,
        d.judges === undefined || d.judges === null ? null : JSON.stringify(d.judges),
        JSON.stringify(d.elements.map((e, i) => storedElementOf(e, elementIds[i] ?? '', elementLinks?.get(i)))),
        analyze(d.title).join(' '),
        d.elements.length,
      );
      const texts = elementsWithHeadings(d.elements);
      d.elements.forEach((element, ordinal) => {
        articles++;
        const { body, heading: moved } = texts[ordinal]!;
        const heading = element.heading !== undefined && element.heading !== '' ? element.heading : moved;
        const stems = analyze(body);
        insertArticle.run(articles, documents, ordinal, element.ref, element.label, body, elementIds[ordinal] ?? '', stems.length, heading);
        insertFts.run(articles, stems.join(' '), analyze(heading).join(' '));
      });
      if (documents % insertStep === 0) {
        const done = Math.floor(total * readShare + (total * (1 - readShare) * documents) / collected.documents.length);
        onProgress?.({ phase: 'indexing', done, total });
      }
    }
    const insertAlias = db.prepare('INSERT INTO aliases (alias, doc) VALUES (?, ?)');
    for (const [alias, id] of collected.aliases) {
      const row = rowOf.get(id);
      if (row !== undefined && !rowOf.has(alias)) insertAlias.run(alias, row);
    }
    const insertCourt = db.prepare(
      'INSERT INTO courts (court_id, name, court_type, ecli_code, parent_court_id) VALUES (?, ?, ?, ?, ?)',
    );
    const listed = new Set<number>();
    for (const c of courtsFromFile) {
      insertCourt.run(c.court_id, c.name, c.court_type, c.ecli_code, c.parent_court_id);
      listed.add(c.court_id);
    }
    for (const [courtId, name] of namedCourts) {
      if (!listed.has(courtId)) insertCourt.run(courtId, name ?? `Съд ${courtId}`, null, null, null);
    }
    db.exec('COMMIT');
    onProgress?.({ phase: 'indexing', done: total, total });
    checkCancelled();
    onProgress?.({ phase: 'finishing', done: 0, total: 1 });
    db.exec("INSERT INTO fts (fts) VALUES ('optimize')");
    checkCancelled();
    db.exec('ANALYZE');
    checkCancelled();
    if (digest.thesaurus !== undefined) {
      // The thesaurus, restricted to the stems the index holds (a synonym the corpus lacks can find nothing).
      const held = new Set((db.prepare('SELECT term FROM fts_vocab').all() as { term: string }[]).map((r) => r.term));
      const senses = restrictToIndex(readThesaurus(digest.thesaurus.path), (s) => held.has(s));
      const insert = db.prepare('INSERT INTO thesaurus (stem, senses) VALUES (?, ?)');
      db.exec('BEGIN');
      for (const [stem, list] of senses) insert.run(stem, JSON.stringify(list));
      db.exec('COMMIT');
      checkCancelled();
    }
    const setMeta = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
    db.exec('BEGIN');
    setMeta.run('inputs_key', digest.key);
    setMeta.run('corpus_sha256', digest.corpus.map((f) => f.sha256).join(','));
    setMeta.run('courts_sha256', digest.courts?.sha256 ?? '');
    setMeta.run('analyzer_version', String(ANALYZER_VERSION));
    setMeta.run('schema_version', String(INDEX_SCHEMA_VERSION));
    setMeta.run('document_count', String(documents));
    setMeta.run('article_count', String(articles));
    setMeta.run('court_count', String(listed.size + [...namedCourts.keys()].filter((id) => !listed.has(id)).length));
    setMeta.run('skipped_inputs', JSON.stringify(collected.skipped));
    setMeta.run('alias_count', String(collected.aliases.size));
    setMeta.run('built_at', new Date().toISOString());
    setMeta.run('complete', '1');
    db.exec('COMMIT');
  } finally {
    db.close();
  }
}

/**
 * Opens the index of a set of inputs, building it first when no complete index of these inputs' content (and
 * analyzer/schema version) exists in `dataDir`.
 *
 * Every call first removes the temporary files of builds that no longer run (see {@link removeStaleTempFiles}).
 * Warm start (index present): hashes the input files and opens the index read-only; nothing is parsed.
 * Cold start: builds into a temporary file (unique name, same directory) and renames it into place when complete.
 *
 * @throws CorpusError when an input file is missing or invalid, or a `document_id` is in two corpus files; AbortError
 *   (a `DOMException`, see `cancelledError`) when `signal` aborts before the index is complete. No index or temporary
 *   file is left behind then. TypeError when neither `inputs` nor `corpusPath` names a corpus file.
 */
export async function openIndex(options: OpenIndexOptions): Promise<SearchIndex> {
  const { dataDir, onProgress, signal } = options;
  const inputs = options.inputs ?? (options.corpusPath === undefined ? undefined : { corpusFiles: [options.corpusPath] });
  if (inputs === undefined || inputs.corpusFiles.length === 0) throw new TypeError('openIndex needs a corpus file (inputs or corpusPath)');
  const digest = await digestInputs(inputs, (done, total) => onProgress?.({ phase: 'hashing', done, total }), signal);
  ensurePrivateDir(dataDir);
  removeStaleTempFiles(dataDir);
  const path = join(dataDir, indexFileName(digest.key));
  let opened = tryOpenExisting(path, digest.key);
  let built = false;
  if (!opened) {
    const tempPath = `${path}.tmp-${process.pid}-${randomBytes(6).toString('hex')}`;
    try {
      await buildIndex(digest, tempPath, onProgress, signal);
      makePrivate(tempPath);
      renameSync(tempPath, path);
    } catch (error) {
      removeTempFiles(tempPath);
      throw error;
    }
    built = true;
    opened = tryOpenExisting(path, digest.key);
    if (!opened) throw new Error(`index ${path} was built but cannot be opened`);
    onProgress?.({ phase: 'finishing', done: 1, total: 1 });
  }
  return createSearchIndex(path, digest.key, opened.db, opened.meta, built);
}

/** Options of {@link openIndexFile}. */
export interface OpenIndexFileOptions {
  /** The key of the inputs the index must have been built from (16 hex digits, see `inputsKeyOf`); default: any. */
  inputsKey?: string;
}

/**
 * Opens an index file that is already complete, read-only, with a connection of its own: for another thread (a search
 * worker, see `search/pool.ts`) searching the index `openIndex` opened or built. Hashes no input, builds nothing,
 * removes no file; checks the file as `openIndex` does (complete, this pravo's analyzer and layout versions, and the
 * inputs key when given). The index's `built` is false.
 * @param path the index file (`SearchIndex.path`).
 * @throws Error naming the file when it is missing, not a complete index of these versions (or of `inputsKey`), or
 *   unreadable.
 */
export function openIndexFile(path: string, options: OpenIndexFileOptions = {}): SearchIndex {
  const opened = tryOpenExisting(path, options.inputsKey);
  if (!opened) {
    const inputs = options.inputsKey === undefined ? '' : ` of inputs ${options.inputsKey}`;
    throw new Error(`${path} is not a complete search index${inputs} of this pravo (missing, unfinished, of other versions, or unreadable)`);
  }
  return createSearchIndex(path, opened.meta.get('inputs_key') ?? '', opened.db, opened.meta, false);
}

/** The court fields a decision's response keeps when null (see {@link StoredDocument}). */
const NULLABLE_COURT_FIELDS: readonly string[] = ['decision_number', 'case_number', 'case_kind', 'department', 'reporting_judge'];

/** A `documents` row as read by `readDocument`. */
type DocumentRecord = Record<string, string | number | null>;

/** The response form of a stored document row (see {@link StoredDocument}). */
/** The `documents` columns `readDocument` and `readDocumentJson` read besides `elements_json`. */
const DOCUMENT_FIELDS = `document_id, collection, source_type, type, title, date, in_force_date, as_of, consolidated, author,
  url, signature, court_id, court, decision_number, case_number, case_kind, department, reporting_judge, judges_json`;

/** A stored document's fields but its elements, as `GET /v1/documents` sends them (see {@link StoredDocument}). */
function documentFields(row: DocumentRecord): Record<string, unknown> {
  const { elements_json: _elements, judges_json, ...fields } = row;
  const decision = fields.court_id !== null;
  const document: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    // The nullable corpus fields keep their null; so do a decision's court fields. Other absent fields are omitted.
    const keep = value !== null || key === 'in_force_date' || key === 'signature' || (decision && NULLABLE_COURT_FIELDS.includes(key));
    if (key === 'consolidated') {
      if (value !== null) document[key] = value === 1;
    } else if (keep) {
      document[key] = value;
    }
  }
  if (judges_json !== null) document.judges = JSON.parse(String(judges_json)) as string[];
  else if (decision) document.judges = [];
  return document;
}

function storedDocument(row: DocumentRecord): StoredDocument {
  const document = documentFields(row);
  document.elements = JSON.parse(String(row.elements_json)) as StoredElement[];
  return document as unknown as StoredDocument;
}

/**
 * The UTF-8 JSON of {@link storedDocument} without parsing or even decoding the elements: they are stored in their
 * response shape and read as bytes, so the body is the fields' JSON with the stored elements' bytes spliced in as the
 * last member. A 900 KB statute costs a copy instead of a decode, a parse and a serialization (15–20 ms).
 */
function storedDocumentJson(row: DocumentRecord, elements: Uint8Array): Buffer {
  const fields = JSON.stringify(documentFields(row));
  const head = `${fields.slice(0, -1)}${fields === '{}' ? '' : ','}"elements":`;
  return Buffer.concat([Buffer.from(head, 'utf8'), elements, Buffer.from('}', 'utf8')]);
}

function createSearchIndex(
  path: string,
  inputsKey: string,
  db: DatabaseSync,
  meta: Map<string, string>,
  built: boolean,
): SearchIndex {
  let sourceTypes: SourceTypeEntry[] | undefined;
  let matchStatement: StatementSync | undefined;
  let articleStatement: StatementSync | undefined;
  let countStatement: StatementSync | undefined;
  let prefixCountStatement: StatementSync | undefined;
  let refStatement: StatementSync | undefined;
  let containingStatement: StatementSync | undefined;
  let firstStatement: StatementSync | undefined;
  let documentStatement: StatementSync | undefined;
  let documentBytesStatement: StatementSync | undefined;
  let aliasStatement: StatementSync | undefined;
  /** The document_id an alias is served under (see `collect.ts`, "one act, one document"); undefined when none. */
  const aliasOf = (alias: string): string | undefined => {
    aliasStatement ??= db.prepare('SELECT d.document_id AS id FROM aliases a JOIN documents d ON d.id = a.doc WHERE a.alias = ?');
    return (aliasStatement.get(alias) as { id: string } | undefined)?.id;
  };
  return {
    path,
    inputsKey,
    documentCount: Number(meta.get('document_count')),
    articleCount: Number(meta.get('article_count')),
    built,
    skippedInputs: JSON.parse(meta.get('skipped_inputs') ?? '[]') as SkippedInput[],
    servedId: (documentId: string): string | undefined => aliasOf(documentId),
    thesaurus(): Map<string, ThesaurusSense[]> | undefined {
      const rows = db.prepare('SELECT stem, senses FROM thesaurus').all() as { stem: string; senses: string }[];
      return rows.length === 0 ? undefined : new Map(rows.map((r) => [r.stem, JSON.parse(r.senses) as ThesaurusSense[]]));
    },
    sourceTypes(): SourceTypeEntry[] {
      sourceTypes ??= computeSourceTypes(db);
      return sourceTypes.map((entry) => ({ ...entry }));
    },
    documentRows(): DocumentRow[] {
      return db
        .prepare(
          `SELECT id, document_id, collection, source_type, type, title, date, as_of, consolidated, author, url, court_id, court,
             decision_number, case_number, case_kind, department, reporting_judge, judges_json, title_stems
           FROM documents`,
        )
        .all() as unknown as DocumentRow[];
    },
    articleDocumentPairs(): IterableIterator<[number, number, number]> {
      const statement = db.prepare('SELECT id, doc, length(text) FROM articles');
      statement.setReturnArrays(true);
      return statement.iterate() as unknown as IterableIterator<[number, number, number]>;
    },
    maxArticleId(): number {
      return (db.prepare('SELECT COALESCE(MAX(id), 0) AS n FROM articles').get() as { n: number }).n;
    },
    matchStem(stem: string, prefix = false): [number, number][] {
      if (!matchStatement) {
        matchStatement = db.prepare(`SELECT rowid, bm25(fts, 1.0, ${HEADING_WEIGHT.toFixed(1)}) FROM fts WHERE fts MATCH ?`);
        matchStatement.setReturnArrays(true);
      }
      return matchStatement.all(`"${stem.replaceAll('"', '""')}"${prefix ? '*' : ''}`) as unknown as [number, number][];
    },
    stemArticleCount(stem: string, prefix = false): number {
      if (prefix) {
        prefixCountStatement ??= db.prepare('SELECT COALESCE(SUM(doc), 0) AS n FROM fts_vocab WHERE term >= ? AND term < ?');
        return (prefixCountStatement.get(stem, `${stem}\u{10FFFF}`) as { n: number }).n;
      }
      countStatement ??= db.prepare('SELECT doc FROM fts_vocab WHERE term = ?');
      return (countStatement.get(stem) as { doc: number } | undefined)?.doc ?? 0;
    },
    articleByRef(document: number, ref: string): number | undefined {
      refStatement ??= db.prepare('SELECT id FROM articles WHERE doc = ? AND ref = ? ORDER BY ordinal LIMIT 1');
      return (refStatement.get(document, ref) as { id: number } | undefined)?.id;
    },
    articleContaining(document: number, needle: string): number | undefined {
      if (needle === '') {
        firstStatement ??= db.prepare('SELECT id FROM articles WHERE doc = ? ORDER BY ordinal LIMIT 1');
        return (firstStatement.get(document) as { id: number } | undefined)?.id;
      }
      containingStatement ??= db.prepare('SELECT id FROM articles WHERE doc = ? AND instr(text, ?) > 0 ORDER BY ordinal DESC LIMIT 1');
      return (containingStatement.get(document, needle) as { id: number } | undefined)?.id;
    },
    article(id: number): ArticleRow | undefined {
      articleStatement ??= db.prepare('SELECT id, ordinal, label, text, heading, excerpt_id FROM articles WHERE id = ?');
      return articleStatement.get(id) as ArticleRow | undefined;
    },
    readDocument(documentId: string, collection: string): StoredDocument | undefined {
      documentStatement ??= db.prepare(
        `SELECT ${DOCUMENT_FIELDS}, elements_json FROM documents WHERE document_id = ? AND collection = ?`,
      );
      const row = (documentStatement.get(documentId, collection) ?? documentStatement.get(aliasOf(documentId) ?? '', collection)) as
        | DocumentRecord
        | undefined;
      return row === undefined ? undefined : storedDocument(row);
    },
    readDocumentJson(documentId: string, collection: string): Buffer | undefined {
      documentBytesStatement ??= db.prepare(
        `SELECT ${DOCUMENT_FIELDS}, CAST(elements_json AS BLOB) AS elements_json FROM documents WHERE document_id = ? AND collection = ?`,
      );
      const row = (documentBytesStatement.get(documentId, collection) ?? documentBytesStatement.get(aliasOf(documentId) ?? '', collection)) as
        | DocumentRecord
        | undefined;
      return row === undefined ? undefined : storedDocumentJson(row, row.elements_json as unknown as Uint8Array);
    },
    courts(): CourtRow[] {
      return db
        .prepare('SELECT court_id, name, court_type, ecli_code, parent_court_id FROM courts ORDER BY court_id')
        .all()
        .map((row) => ({ ...(row as unknown as CourtRow) }));
    },
    decisionCounts(): Map<number, number> {
      const statement = db.prepare(
        'SELECT court_id, COUNT(*) FROM documents WHERE court_id IS NOT NULL GROUP BY court_id ORDER BY court_id',
      );
      statement.setReturnArrays(true);
      return new Map(statement.all() as unknown as [number, number][]);
    },
    close(): void {
      if (db.isOpen) db.close();
    },
  };
}

const SOURCE_TYPE_ORDER: readonly string[] = [KNOWN_SOURCE_TYPES.laws, KNOWN_SOURCE_TYPES.highCourts];

function computeSourceTypes(db: DatabaseSync): SourceTypeEntry[] {
  const rows = db
    .prepare(
      `SELECT source_type, COUNT(*) AS document_count, MAX(court_id IS NOT NULL) AS has_court
       FROM documents GROUP BY source_type`,
    )
    .all() as { source_type: string; document_count: number; has_court: number }[];
  const rank = (id: string): number => {
    const i = SOURCE_TYPE_ORDER.indexOf(id);
    return i === -1 ? SOURCE_TYPE_ORDER.length : i;
  };
  return rows
    .map((r) => ({
      id: r.source_type,
      name: SOURCE_TYPE_NAMES[r.source_type] ?? r.source_type,
      case_law: isCourtSourceType(r.source_type) ?? r.has_court === 1,
      document_count: r.document_count,
    }))
    .sort((a, b) => rank(a.id) - rank(b.id) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
