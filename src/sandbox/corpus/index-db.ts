/**
 * Opening and reading the sandbox's search index: one SQLite file (node:sqlite) per set of inputs (corpus files and
 * courts file, see `inputs.ts`) by content, analyzer version and layout version, built once from the inputs
 * (`index-build.ts`) and reused on later starts. This module implements the {@link SearchIndex} interface of
 * `../storage.ts` over that file; every query of the index is here, every statement that writes it in
 * `index-build.ts`.
 *
 * File: `<dataDir>/index-<key>.sqlite` (`indexFileName`, `index-files.ts`), `key` = the inputs key (`inputsKeyOf` in
 * `inputs.ts`: 16 hex digits of a SHA-256 over the sorted SHA-256s of the corpus files, the courts file's SHA-256,
 * `ANALYZER_VERSION` and `INDEX_SCHEMA_VERSION`; the order in which the corpus files are given does not matter). A file
 * is used only when complete (`meta.complete` = 1) and of this pravo's analyzer and layout versions; otherwise it is
 * rebuilt. Tables: see `index-build.ts`. Index files are 0600 and the data directory 0700 (see `files.ts`).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import type { SourceTypeEntry } from '../../contract/types.js';
import { sourceTypeEntries } from '../catalog-rules.js';
import { ensurePrivateDir } from '../files.js';
import type { CaseLawReport } from './case-law.js';
import type { ArticleRow, CourtRow, DocumentRow, SearchIndex, StoredDocument, StoredElement, Translation } from '../storage.js';
import { ANALYZER_VERSION } from '../text/analysis.js';
import type { ThesaurusSense } from '../text/thesaurus.js';
import type { SkippedInput } from './collect.js';
import { buildIndexFile, type IndexProgress } from './index-build.js';
import { indexFileName, removeStaleTempFiles } from './index-files.js';
import { digestInputs, INDEX_SCHEMA_VERSION, type CorpusInputs } from './inputs.js';

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

/** Weight of a match in an article's heading relative to one in its text (`bm25` column weight; see `headings.ts`). */
export const HEADING_WEIGHT = 3;
/**
 * Weight of a match in an article's written questions and keywords (the subject index, `subject-index/entries.ts`)
 * relative to one in its text. Chosen on the tuning part of the judged set only (docs/benchmarks.md): 1, 0.5 and 0.25
 * scored 0.70, 0.68 and 0.68 article success@3 overall, but 0.59, 0.64 and 0.64 on the questions answered in acts
 * without written questions (citizen wording 0.29, 0.43, 0.43), whose answers a heavier field draws to the acts that
 * have them: 0.5 keeps most of the gain where questions are written and loses least elsewhere.
 */
export const SUBJECT_WEIGHT = 0.5;

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
 * Opens the index of a set of inputs, building it first when no complete index of these inputs' content (and
 * analyzer/schema version) exists in `dataDir`.
 *
 * Every call first removes the temporary files of builds that no longer run (see {@link removeStaleTempFiles}).
 * Warm start (index present): hashes the input files and opens the index read-only; nothing is parsed.
 * Cold start: builds into a temporary file (unique name, same directory) and renames it into place when complete (see
 * {@link buildIndexFile}).
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
    await buildIndexFile(digest, path, onProgress, signal);
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

/** The `documents` columns `readDocument` and `readDocumentJson` read besides `elements_json`. */
const DOCUMENT_FIELDS = `document_id, collection, source_type, type, title, date, in_force_date, as_of, consolidated, author,
  url, url_as_of, signature, court_id, court, decision_number, case_number, case_kind, department, reporting_judge, judges_json`;

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

/** The response form of a stored document row (see {@link StoredDocument}). */
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

/**
 * The {@link SearchIndex} over `db`, an open read-only connection to the complete index file `path` whose `meta` is
 * `meta`: the statements are prepared on first use and kept while the index is open; `close` closes `db`.
 */
function createSearchIndex(
  path: string,
  inputsKey: string,
  db: DatabaseSync,
  meta: Map<string, string>,
  built: boolean,
): SearchIndex {
  let sourceTypes: SourceTypeEntry[] | undefined;
  let matchStatement: StatementSync | undefined;
  let translationStatement: StatementSync | undefined;
  let rulingStatement: StatementSync | undefined;
  let articleStatement: StatementSync | undefined;
  let articleTextsStatement: StatementSync | undefined;
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
    caseLaw(): CaseLawReport | undefined {
      const row = db.prepare("SELECT value FROM meta WHERE key = 'case_law'").get() as { value: string } | undefined;
      return row === undefined ? undefined : (JSON.parse(row.value) as CaseLawReport);
    },
    ruling(articleId: number): string {
      rulingStatement ??= db.prepare('SELECT sentence FROM article_rulings WHERE article = ?');
      return (rulingStatement.get(articleId) as { sentence: string } | undefined)?.sentence ?? '';
    },
    translations(stem: string): Translation[] {
      translationStatement ??= db.prepare('SELECT targets FROM translations WHERE stem = ?');
      const row = translationStatement.get(stem) as { targets: string } | undefined;
      return row === undefined ? [] : (JSON.parse(row.targets) as Translation[]);
    },
    sourceTypes(): SourceTypeEntry[] {
      sourceTypes ??= computeSourceTypes(db);
      return sourceTypes.map((entry) => ({ ...entry }));
    },
    documentRows(): DocumentRow[] {
      return db
        .prepare(
          `SELECT id, document_id, collection, source_type, type, title, date, as_of, consolidated, author, url, url_as_of, court_id, court,
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
        matchStatement = db.prepare(`SELECT rowid, bm25(fts, 1.0, ${HEADING_WEIGHT.toFixed(2)}, ${SUBJECT_WEIGHT.toFixed(2)}) FROM fts WHERE fts MATCH ?`);
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
      articleStatement ??= db.prepare('SELECT id, ordinal, label, text, heading, subject, excerpt_id FROM articles WHERE id = ?');
      return articleStatement.get(id) as ArticleRow | undefined;
    },
    articleTexts(document: number): [number, string][] {
      if (!articleTextsStatement) {
        articleTextsStatement = db.prepare('SELECT id, text FROM articles WHERE doc = ? ORDER BY ordinal');
        articleTextsStatement.setReturnArrays(true);
      }
      return articleTextsStatement.all(document) as unknown as [number, string][];
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

/**
 * The `SearchIndex.sourceTypes` entries of the index: its documents counted per source type, named, classified and
 * ordered by {@link sourceTypeEntries}.
 */
function computeSourceTypes(db: DatabaseSync): SourceTypeEntry[] {
  const rows = db
    .prepare(
      `SELECT source_type, COUNT(*) AS document_count, MAX(court_id IS NOT NULL) AS has_court
       FROM documents GROUP BY source_type`,
    )
    .all() as { source_type: string; document_count: number; has_court: number }[];
  return sourceTypeEntries(rows.map((r) => ({ source_type: r.source_type, document_count: r.document_count, has_court: r.has_court === 1 })));
}
