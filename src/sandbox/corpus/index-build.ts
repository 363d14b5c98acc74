/**
 * Building the search index of a set of inputs (`inputs.ts`) into one SQLite file (node:sqlite): every input read
 * (`collect.ts`), analyzed (`text/analysis.ts`) and written with the tables below, into a temporary file renamed into
 * place only when complete (`index-files.ts`). Opening and querying the file is `index-db.ts`.
 *
 * The build keeps SQLite's rollback journal in memory, so it writes no other file than its temporary one. Rows are in
 * build order: corpus files sorted by content hash, each in file order; so any order of the same files builds the same
 * index.
 *
 * Tables:
 * - `meta(key, value)`: `complete` = `1` (written last), `inputs_key`, `corpus_sha256` (the corpus files' SHA-256s,
 *   sorted, joined by `,`), `courts_sha256` (empty without a courts file), `links_sha256` (empty without a links
 *   file), `linked_documents` (JSON `{filled, dated}`: documents given a page's url and its date, `links.ts`),
 *   `analyzer_version`, `schema_version`,
 *   `document_count`, `article_count`, `court_count`, `alias_count`, `skipped_inputs` (JSON: the inputs the build
 *   skipped, `[{path, message}]`), `translation` (JSON: the translation table's pairs by origin and its size,
 *   `TranslationBuildReport`), `built_at`.
 * - `documents`: the documents as served (`collect.ts`: every input read, National Assembly acts rebuilt in their
 *   structure, one document per act), every corpus field (`as_of`; `consolidated` as 1/0/null; `url` and `url_as_of`
 *   from the links file when the document matches a page, `links.ts`), the full ordered
 *   `elements` as JSON in their response shape (`excerpt_id`, `ref`, `label`, `text`, and `heading`, `amended_by`,
 *   `amends` when present: what `GET /v1/documents` sends, so it is sent without being parsed; a statute's texts one
 *   paragraph, point and letter a line, `provision-lines.ts`), the court fields
 *   when present (`judges` as `judges_json`, a JSON array, null when absent), the opaque `collection` (the corpus's
 *   own when a document sets one, else `collectionOf(source_type)`, `catalog-rules.ts`), and
 *   `title_stems` (the analyzed title, stems joined by spaces).
 * - `aliases(alias, doc)`: a `document_id` merged into another text of the same act → the documents rowid it is
 *   served under ("one act, one document"), so that ids served before keep resolving.
 * - `thesaurus(stem, senses)`: when the inputs hold a thesaurus, its senses by headword stem as JSON
 *   (`ThesaurusSense[]`), restricted to the stems the index holds (`text/thesaurus.ts`, `restrictToIndex`).
 * - `article_rulings(article, sentence)`: per article declared unconstitutional, whole or in part (its element's
 *   `rulings`, `case-law.ts`), the Bulgarian sentence a search result's explanation says of it (`rulingSentences`).
 * - `translations(stem, targets)`: the lay-to-legal translation table (`subject-index/translation.ts`, learned by
 *   `translation-build.ts`): per source stem, its translations as JSON `[[stem, probability, word], …]`, best first.
 * - `courts`: every court of the courts file, plus each court a decision names (`court_id`) that the file lacks, with
 *   the decision's `court` as its name (`Съд <court_id>` when it has none) and null type, ECLI code and parent.
 * - `articles`: `id` (= FTS rowid), `doc` (documents rowid), `ordinal` (0-based position in `elements`), `ref`,
 *   `label`, `text` (the element's text without the heading lines that belong to the next article, see
 *   `headings.ts`), `heading` (the heading lines moved here from the end of the previous article; `''` when none),
 *   `excerpt_id` (stable, unique: `<document_id>:<ref>`, `~2`, `~3`… appended when a ref repeats within the
 *   document), `stem_count` (number of indexed stems of `text`), `subject` (the article's questions and keywords
 *   of the written subject index, one a line, `subject-index/entries.ts`; `''` when it has none; indexed without
 *   the words its text or own heading holds). Indexed by
 *   `(doc, ordinal)` and `(doc, ref)`.
 * - `fts`: contentless FTS5 table (`content=''`) with three columns, the pre-stemmed article text, own heading
 *   (`ownHeading`: the article's title, not its chapter's) and subject (stems joined by spaces), rowid = `articles.id`; `bm25(fts, …)` works on it (column sizes are kept).
 * - `fts_vocab`: fts5vocab (`row`) over `fts`: how many articles hold each stem.
 *
 * Changing the tables, or the texts the build stores (`provision-lines.ts`), must bump `INDEX_SCHEMA_VERSION`
 * (`inputs.ts`); changing the analysis, `ANALYZER_VERSION`.
 */
import { renameSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { collectionOf } from '../catalog-rules.js';
import type { StoredElement } from '../storage.js';
import { analyze, ANALYZER_VERSION } from '../text/analysis.js';
import { readThesaurus, restrictToIndex, type ThesaurusSense } from '../text/thesaurus.js';
import { linkAmendments, type ElementLinks } from './amended-by.js';
import { mapLinks, mergeElementLinks, rulingSentences, type CaseLawLinks, type CaseLawReport } from './case-law.js';
import { defaultActResolver, linkRulings } from './rulings.js';
import { actResolver } from './act-resolver.js';
import { linkDecisionCitations } from './decision-citations.js';
import { matchActLinks, readActLinks } from './links.js';
import { collectCorpus } from './collect.js';
import { excerptIds } from './excerpts.js';
import { elementsWithHeadings, ownHeading } from './headings.js';
import { createTempIndexFile, removeTempFiles } from './index-files.js';
import { startRowWriter, type RowWriter } from './index-writer.js';
import { corpusFileKind, INDEX_SCHEMA_VERSION, type InputsDigest } from './inputs.js';
import { readSubjectIndex, subjectStems, subjectTexts } from '../subject-index/entries.js';
import { splitProvisionLines } from './provision-lines.js';
import { articleFrequencies, TranslationPairs } from './translation-build.js';
import { cancelledError, countCorpusLines, readCourtsFile, type CorpusDocument, type CorpusElement } from './reader.js';

/**
 * Progress of `openIndex` (`index-db.ts`) and of a build. `done`/`total` are bytes for `hashing` (over all input files;
 * reported by `openIndex`), documents for `indexing` (over all corpus files), steps for `finishing`.
 */
export interface IndexProgress {
  phase: 'hashing' | 'indexing' | 'finishing';
  done: number;
  total: number;
}

/** The tables of an index (see the module's doc), created on the new temporary file before anything is read. */
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
  url_as_of TEXT,
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
  heading TEXT NOT NULL,
  subject TEXT NOT NULL
);
CREATE INDEX articles_doc ON articles (doc, ordinal);
CREATE INDEX articles_ref ON articles (doc, ref);
CREATE VIRTUAL TABLE fts USING fts5 (stems, heading, subject, content = '');
CREATE VIRTUAL TABLE fts_vocab USING fts5vocab (fts, 'row');
CREATE TABLE thesaurus (stem TEXT PRIMARY KEY, senses TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE translations (stem TEXT PRIMARY KEY, targets TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE article_rulings (article INTEGER PRIMARY KEY, sentence TEXT NOT NULL);
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
function storedElementOf(element: CorpusElement, excerptId: string, links: Partial<ElementLinks & CaseLawLinks> | undefined): StoredElement {
  const stored: StoredElement = { excerpt_id: excerptId, ref: element.ref, label: element.label, text: element.text };
  if (element.heading !== undefined && element.heading !== '') stored.heading = element.heading;
  if (links?.amended_by !== undefined) stored.amended_by = links.amended_by;
  if (links?.amends !== undefined) stored.amends = links.amends;
  if (links?.rulings !== undefined) stored.rulings = links.rulings;
  if (links?.cited_by !== undefined) stored.cited_by = links.cited_by;
  if (links?.cites !== undefined) stored.cites = links.cites;
  return stored;
}

/** An element with its text one paragraph, point and letter a line (`provision-lines.ts`); the same when it is so. */
function withProvisionLines(element: CorpusElement): CorpusElement {
  const text = splitProvisionLines(element.text);
  return text === element.text ? element : { ...element, text };
}

/**
 * Builds the index of the inputs `digest` describes and puts it at `indexPath` (`<dataDir>/index-<key>.sqlite`, see
 * `indexFileName`): into a new temporary file beside it, created 0600 (`createTempIndexFile`), renamed into place
 * only when complete, replacing any file there. Reports `indexing` and then `finishing` 0/1 progress (the caller
 * reports `finishing` 1/1 once it has opened the file).
 * @throws CorpusError for an invalid corpus or courts file, or a `document_id` found in two corpus files (naming both);
 *   AbortError (a `DOMException`, see `cancelledError`) when `signal` aborts; the SQLite or file-system error of a
 *   failed write. The temporary file is removed then, and nothing is put at `indexPath`.
 */
export async function buildIndexFile(
  digest: InputsDigest,
  indexPath: string,
  onProgress: ((progress: IndexProgress) => void) | undefined,
  signal: AbortSignal | undefined,
): Promise<void> {
  const tempPath = createTempIndexFile(indexPath);
  try {
    await buildIndex(digest, tempPath, onProgress, signal);
    renameSync(tempPath, indexPath);
  } catch (error) {
    removeTempFiles(tempPath);
    throw error;
  }
}

/**
 * Builds the index of the inputs `digest` describes into `tempPath` (a new, empty file), writing no other file. Corpus files
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
  // Read and check the courts and links files first: a mistake in them is reported before minutes of indexing.
  const courtsFromFile = digest.courts === undefined ? [] : await readCourtsFile(digest.courts.path);
  const links = digest.links === undefined ? [] : await readActLinks(digest.links.path);
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
  let writer: RowWriter | undefined;
  try {
    // node:sqlite opens databases in defensive mode, which refuses `journal_mode = OFF` (it stays DELETE and leaves a
    // `-journal` file when the process dies). MEMORY is accepted and writes no file; a crash mid-build can corrupt the
    // temporary file, which is never used (it is renamed only when complete) and is removed later.
    const mode = db.prepare('PRAGMA journal_mode = MEMORY').get() as { journal_mode: string } | undefined;
    if (mode?.journal_mode !== 'memory') throw new Error(`SQLite refused journal_mode = MEMORY for ${tempPath}`);
    db.exec('PRAGMA synchronous = OFF; PRAGMA temp_store = MEMORY;');
    db.exec(SCHEMA);
    // The rows below are written by `writer`, on a thread of its own when it can (`index-writer.ts`).
    writer = startRowWriter(db, tempPath);
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
    // Every statute's provisions one paragraph, point and letter a line, whatever the input printed inline.
    for (const d of collected.documents) if (d.court_id == null) d.elements = d.elements.map(withProvisionLines);
    // The acts' public pages: a url for the acts read without one, the date of the text a page shows.
    const linked = matchActLinks(collected.documents, links);
    const servedCollection = (d: CorpusDocument): string => d.collection ?? collectionOf(d.source_type);
    // Per element: the §§ that changed it, and the case law (the decisions citing it, its rulings, a ¶'s citations).
    // The case law: the acts decisions name resolved by pravo cite's rules (`act-resolver.ts`); a ruling on a § of an
    // amending act, which that resolver leaves to its title, falls back on the ДВ issue the decision gives.
    const resolver = actResolver(collected.documents);
    const byGazette = defaultActResolver(collected.documents);
    const rulings = linkRulings(collected.documents, servedCollection, (name, date, gazette) => resolver.resolveAct(name, date) ?? byGazette(name, date, gazette));
    const citations = linkDecisionCitations(collected.documents, servedCollection, { resolver });
    const amendmentLinks = mergeElementLinks<ElementLinks & CaseLawLinks>(
      linkAmendments(collected.documents, servedCollection),
      mapLinks(rulings.rulings, (list) => ({ rulings: list })),
      mapLinks(citations.cited_by, (list) => ({ cited_by: list })),
      mapLinks(citations.cites, (list) => ({ cites: list })),
    );
    const caseLaw: CaseLawReport = { citations: citations.report, rulings: rulings.report };
    const insertDocument = writer.prepare(
      `INSERT INTO documents (id, document_id, collection, source_type, type, title, date, in_force_date, as_of,
         consolidated, author, url, url_as_of, signature, court_id, court, decision_number, case_number, case_kind,
         department, reporting_judge, judges_json, elements_json, title_stems, article_count)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const insertArticle = writer.prepare(
      'INSERT INTO articles (id, doc, ordinal, ref, label, text, excerpt_id, stem_count, heading, subject) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    const insertFts = writer.prepare('INSERT INTO fts (rowid, stems, heading, subject) VALUES (?, ?, ?, ?)');
    // The written subject index: questions and keywords per article of the acts it covers (by served document_id).
    const translationPairs = new TranslationPairs();
    const servedIds = new Set(collected.documents.map((d) => d.document_id));
    const subjects = subjectTexts(digest.subjectIndex === undefined ? [] : readSubjectIndex(digest.subjectIndex.dir), (id) => {
      const served = servedIds.has(id) ? id : collected.aliases.get(id);
      return served !== undefined && servedIds.has(served) ? served : undefined;
    });
    const collections = new Map<string, string>();
    /** Courts named by decisions: the first name a decision gives each (null while none has given one). */
    const namedCourts = new Map<number, string | null>();
    /** Documents rowid of each served document_id (for the aliases). */
    const rowOf = new Map<string, number>();
    /** `[article id, sentence]` of the articles declared unconstitutional, whole or in part. */
    const articleRulings: [number, string][] = [];
    let documents = 0;
    let articles = 0;
    const insertStep = Math.max(1, Math.floor(collected.documents.length / 20));
    for (const d of collected.documents) {
      checkCancelled();
      await writer.ready();
      const elementLinks = amendmentLinks.get(documents);
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
        d.url_as_of ?? null,
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
      const written = subjects.get(d.document_id);
      // A ref the document repeats (§§ of several amending acts) names no one element: its entry is not used.
      const refCounts = new Map<string, number>();
      if (written !== undefined) for (const e of d.elements) refCounts.set(e.ref, (refCounts.get(e.ref) ?? 0) + 1);
      d.elements.forEach((element, ordinal) => {
        articles++;
        const { body, heading: moved } = texts[ordinal]!;
        const heading = element.heading !== undefined && element.heading !== '' ? element.heading : moved;
        const stems = analyze(body);
        const subject = refCounts.get(element.ref) === 1 ? (written?.get(element.ref) ?? '') : '';
        insertArticle.run(articles, documents, ordinal, element.ref, element.label, body, elementIds[ordinal] ?? '', stems.length, heading, subject);
        const rulings = elementLinks?.get(ordinal)?.rulings;
        if (rulings !== undefined) articleRulings.push([articles, rulingSentences(element.label, rulings)]);
        // The heading column holds the article's own title only: a chapter's heading is not this article's.
        const own = ownHeading(heading);
        const ownStems = own === '' ? [] : analyze(own);
        // The subject column holds the words people use that the article does not: the law's own words in its
        // questions would count twice, and draw to the articles that have questions what their text already says.
        let subjectColumn = '';
        if (subject !== '') {
          const held = new Set([...stems, ...ownStems]);
          subjectColumn = subjectStems(subject).filter((s) => !held.has(s)).join(' ');
        }
        insertFts.run(articles, stems.join(' '), ownStems.join(' '), subjectColumn);
        if (d.court_id == null) translationPairs.addArticle(element.ref, own, body, stems, subject);
      });
      if (documents % insertStep === 0) {
        const done = Math.floor(total * readShare + (total * (1 - readShare) * documents) / collected.documents.length);
        onProgress?.({ phase: 'indexing', done, total });
      }
    }
    const insertAlias = writer.prepare('INSERT INTO aliases (alias, doc) VALUES (?, ?)');
    for (const [alias, id] of collected.aliases) {
      const row = rowOf.get(id);
      if (row !== undefined && !rowOf.has(alias)) insertAlias.run(alias, row);
    }
    const insertCourt = writer.prepare(
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
    const insertRuling = writer.prepare('INSERT INTO article_rulings (article, sentence) VALUES (?, ?)');
    for (const [article, sentence] of articleRulings) insertRuling.run(article, sentence);
    await writer.finish();
    onProgress?.({ phase: 'indexing', done: total, total });
    checkCancelled();
    onProgress?.({ phase: 'finishing', done: 0, total: 1 });
    db.exec("INSERT INTO fts (fts) VALUES ('optimize')");
    checkCancelled();
    db.exec('ANALYZE');
    checkCancelled();
    let senses: Map<string, ThesaurusSense[]> | undefined;
    const df = articleFrequencies(db);
    if (digest.thesaurus !== undefined) {
      // The thesaurus, restricted to the stems the index holds (a synonym the corpus lacks can find nothing).
      senses = restrictToIndex(readThesaurus(digest.thesaurus.path), (s) => df.has(s));
      const insert = db.prepare('INSERT INTO thesaurus (stem, senses) VALUES (?, ?)');
      db.exec('BEGIN');
      for (const [stem, list] of senses) insert.run(stem, JSON.stringify(list));
      db.exec('COMMIT');
      checkCancelled();
    }
    // The lay-to-legal translation table, learned from the subject index, the corpus, the WordNet and the thesaurus.
    const translation = translationPairs.learn(db, digest.wordnet?.path, senses, df);
    checkCancelled();
    const setMeta = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
    db.exec('BEGIN');
    setMeta.run('inputs_key', digest.key);
    setMeta.run('corpus_sha256', digest.corpus.map((f) => f.sha256).join(','));
    setMeta.run('courts_sha256', digest.courts?.sha256 ?? '');
    setMeta.run('links_sha256', digest.links?.sha256 ?? '');
    setMeta.run('linked_documents', JSON.stringify(linked));
    setMeta.run('analyzer_version', String(ANALYZER_VERSION));
    setMeta.run('schema_version', String(INDEX_SCHEMA_VERSION));
    setMeta.run('document_count', String(documents));
    setMeta.run('article_count', String(articles));
    setMeta.run('court_count', String(listed.size + [...namedCourts.keys()].filter((id) => !listed.has(id)).length));
    setMeta.run('skipped_inputs', JSON.stringify(collected.skipped));
    setMeta.run('alias_count', String(collected.aliases.size));
    setMeta.run('translation', JSON.stringify(translation));
    setMeta.run('case_law', JSON.stringify(caseLaw));
    setMeta.run('built_at', new Date().toISOString());
    setMeta.run('complete', '1');
    db.exec('COMMIT');
  } finally {
    await writer?.close();
    db.close();
  }
}
