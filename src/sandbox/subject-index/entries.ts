/**
 * The written subject index (`data/subject-index/*.json`): for articles of the corpus's consolidated acts, questions a
 * person who does not know the law would ask that the article answers, and everyday keywords. Written by the team by
 * reading each article (never from the judged set of `bench/judged/`); indexed as a search field of its own
 * (`corpus/index-build.ts`) and read by the lay-to-legal translation model (`translation.ts`).
 *
 * One file per act (schema 1):
 * ```json
 * { "schema": 1, "act": "Кодекс на труда", "document_id": "akn-1986-dv-26-86-1", "text_as_of": "2026-02-10",
 *   "entries": [ { "ref": "330", "questions": ["…", "…"], "keywords": ["…"] } ] }
 * ```
 * - `document_id`: the document of the corpus the entries describe; `text_as_of`: the `as_of` of the text read.
 * - `ref`: an element `ref` of that document naming exactly one element (an article „330“, a § „§1“).
 * - `questions`: {@link MIN_QUESTIONS}–{@link MAX_QUESTIONS} questions; `keywords`: 1–{@link MAX_KEYWORDS} everyday
 *   words or short phrases (at most {@link MAX_KEYWORD_WORDS} words), lower case.
 *
 * The rules a file must keep are {@link checkSubjectIndex}'s.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyze, stem } from '../text/analysis.js';

/** Version of the file format. */
export const SUBJECT_INDEX_SCHEMA = 1;
/** Fewest questions of an entry. */
export const MIN_QUESTIONS = 2;
/** Most questions of an entry. */
export const MAX_QUESTIONS = 5;
/** Most keywords of an entry. */
export const MAX_KEYWORDS = 6;
/** Most words of one keyword (words of three letters or more: „съд по адреса на ответника“ has three). */
export const MAX_KEYWORD_WORDS = 4;
/**
 * Length of the run of consecutive words an entry may not share with its article's text or heading: an entry may
 * repeat up to four words of the law in a row ("a few words"), never a whole phrase of it.
 */
export const COPIED_RUN = 5;

/**
 * Words of asking, not of the matter asked about („какво“, „мога ли“, „трябва ли“, „колко“, „става“): every written
 * question has some, so as indexed words they would draw any question put in everyday words to the acts that have
 * written questions. Left out of the indexed subject field (`subjectStems`) and of the translation model's pairs.
 */
export const QUESTION_WORDS: readonly string[] = [
  'какво', 'каква', 'какъв', 'какви', 'кой', 'коя', 'кое', 'кои', 'кого', 'кому', 'кога', 'колко', 'как', 'къде',
  'защо', 'чий', 'чия', 'става', 'стане', 'имам', 'имаш', 'има', 'имат', 'мога', 'можеш', 'може', 'можем', 'могат',
  'трябва', 'нужно', 'поискам', 'поиска', 'направя', 'направи', 'получа', 'значи', 'означава', 'ли', 'ми', 'ме', 'моя',
  'моят', 'мой', 'моите', 'случва', 'случай', 'ако',
];

/** The stems of {@link QUESTION_WORDS}. */
const questionStems: ReadonlySet<string> = new Set(QUESTION_WORDS.map((w) => stem(w)));

/** Whether a stem is one of {@link QUESTION_WORDS}'s. */
export function isQuestionStem(s: string): boolean {
  return questionStems.has(s);
}

/** The indexed stems of a subject text (questions and keywords): `analyze` less the {@link QUESTION_WORDS}. */
export function subjectStems(text: string): string[] {
  return analyze(text).filter((s) => !questionStems.has(s));
}

/** One article's entry. */
export interface SubjectEntry {
  ref: string;
  questions: string[];
  keywords: string[];
}

/** One act's file. */
export interface SubjectIndexFile {
  schema: number;
  act: string;
  document_id: string;
  text_as_of: string | null;
  entries: SubjectEntry[];
  /** The file it was read from (set by {@link readSubjectIndex}), for messages. */
  file?: string;
}

/** The directory of the shipped subject index: `data/subject-index/` at the package's root. */
export function subjectIndexDir(): string {
  return fileURLToPath(new URL('../../../data/subject-index/', import.meta.url));
}

/**
 * Reads every `*.json` file of `dir` (default {@link subjectIndexDir}), in name order. A directory without them gives
 * []; a missing directory too (a package built without its data).
 *
 * A file may also be a directory of parts, as it is written: `act.json` (the header, without `entries`) and
 * `batch-*.json` files, each a JSON array of entries, concatenated in name order.
 * @throws Error naming the file when one is not valid JSON or not of this shape (`subjectIndexProblems`).
 */
export function readSubjectIndex(dir: string = subjectIndexDir()): SubjectIndexFile[] {
  if (!fs.existsSync(dir)) return [];
  if (fs.existsSync(path.join(dir, 'act.json'))) return [readParts(dir)];
  const names = fs.readdirSync(dir).filter((name) => name.endsWith('.json')).sort();
  return names.map((name) => {
    const file = path.join(dir, name);
    const data = parseJson(file);
    const problems = shapeProblems(data);
    if (problems.length > 0) throw new Error(`${file}: ${problems.join('; ')}`);
    return { ...(data as SubjectIndexFile), file };
  });
}

/** A directory of parts: `act.json` and `batch-*.json`. */
function readParts(dir: string): SubjectIndexFile {
  const header = parseJson(path.join(dir, 'act.json')) as Omit<SubjectIndexFile, 'entries'>;
  const entries: unknown[] = [];
  for (const name of fs.readdirSync(dir).filter((n) => /^batch-.*\.json$/.test(n)).sort()) {
    const part = parseJson(path.join(dir, name));
    if (!Array.isArray(part)) throw new Error(`${path.join(dir, name)}: not a JSON array of entries`);
    entries.push(...part);
  }
  const data = { ...header, entries };
  const problems = shapeProblems(data);
  if (problems.length > 0) throw new Error(`${dir}: ${problems.join('; ')}`);
  return { ...(data as SubjectIndexFile), file: dir };
}

function parseJson(file: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`${file}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

const isText = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

/** What is wrong with the shape of a file's data (types; the counts are {@link checkSubjectIndex}'s); [] when nothing. */
function shapeProblems(data: unknown): string[] {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return ['not a JSON object'];
  const d = data as Record<string, unknown>;
  const problems: string[] = [];
  if (d.schema !== SUBJECT_INDEX_SCHEMA) problems.push(`schema is not ${SUBJECT_INDEX_SCHEMA}`);
  if (!isText(d.act)) problems.push('act is missing');
  if (!isText(d.document_id)) problems.push('document_id is missing');
  if (!Array.isArray(d.entries)) return [...problems, 'entries is not an array'];
  d.entries.forEach((e: unknown, i) => {
    const where = `entry ${i + 1}`;
    if (typeof e !== 'object' || e === null) return problems.push(`${where} is not an object`);
    const entry = e as Record<string, unknown>;
    const name = isText(entry.ref) ? `${where} (ref ${entry.ref})` : where;
    if (!isText(entry.ref)) problems.push(`${where}: ref is missing`);
    if (!Array.isArray(entry.questions) || !entry.questions.every(isText)) problems.push(`${name}: questions is not a list of texts`);
    if (!Array.isArray(entry.keywords) || !entry.keywords.every(isText)) problems.push(`${name}: keywords is not a list of texts`);
    return undefined;
  });
  return problems;
}

/** Lowercased words (letters and digits), punctuation dropped: the unit of the copying rule. */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** The elements of a document with a given ref: their text and heading (`[]` when none; the document unknown: undefined). */
export type ElementLookup = (documentId: string, ref: string) => { text: string; heading: string }[] | undefined;

/**
 * Checks subject-index files against the corpus: every entry names exactly one existing element of its document
 * (`lookup`); no ref has two entries in a file; no question repeats another question of the same file (compared as
 * {@link words}); no question or keyword shares a run of {@link COPIED_RUN} consecutive words with its element's text
 * or heading.
 * @returns the problems, one a line naming the file and the ref; [] when all is well.
 */
export function checkSubjectIndex(files: readonly SubjectIndexFile[], lookup: ElementLookup): string[] {
  const problems: string[] = [];
  for (const file of files) {
    const where = file.file ?? file.document_id;
    const refs = new Set<string>();
    const questions = new Map<string, string>();
    for (const entry of file.entries) {
      const at = `${where}: ref ${entry.ref}`;
      if (entry.questions.length < MIN_QUESTIONS || entry.questions.length > MAX_QUESTIONS) {
        problems.push(`${at}: ${entry.questions.length} questions (${MIN_QUESTIONS}–${MAX_QUESTIONS} expected)`);
      }
      if (entry.keywords.length < 1 || entry.keywords.length > MAX_KEYWORDS) {
        problems.push(`${at}: ${entry.keywords.length} keywords (1–${MAX_KEYWORDS} expected)`);
      }
      for (const k of entry.keywords) {
        if (words(k).filter((w) => w.length > 2).length > MAX_KEYWORD_WORDS) problems.push(`${at}: keyword „${k}“ has more than ${MAX_KEYWORD_WORDS} words`);
      }
      if (refs.has(entry.ref)) problems.push(`${at}: a second entry for this ref`);
      refs.add(entry.ref);
      const elements = lookup(file.document_id, entry.ref);
      if (elements === undefined) {
        problems.push(`${where}: document ${file.document_id} is not in the corpus`);
        break;
      }
      if (elements.length === 0) problems.push(`${at}: no element of ${file.document_id} has this ref`);
      else if (elements.length > 1) problems.push(`${at}: ${elements.length} elements of ${file.document_id} have this ref`);
      for (const q of entry.questions) {
        const key = words(q).join(' ');
        const first = questions.get(key);
        if (first !== undefined) problems.push(`${at}: question „${q}“ repeats one of ref ${first}`);
        else questions.set(key, entry.ref);
      }
      if (elements.length !== 1) continue;
      const source = words(`${elements[0]!.heading} ${elements[0]!.text}`);
      const runs = new Set<string>();
      for (let i = 0; i + COPIED_RUN <= source.length; i++) runs.add(source.slice(i, i + COPIED_RUN).join(' '));
      for (const text of [...entry.questions, ...entry.keywords]) {
        const w = words(text);
        for (let i = 0; i + COPIED_RUN <= w.length; i++) {
          const run = w.slice(i, i + COPIED_RUN).join(' ');
          if (runs.has(run)) {
            problems.push(`${at}: „${text}“ copies „${run}“ from the article`);
            break;
          }
        }
      }
    }
  }
  return problems;
}

/** Totals of a subject index, for the README and the index build's report. */
export interface SubjectIndexCoverage {
  acts: number;
  entries: number;
  questions: number;
  keywords: number;
}

/** Counts acts, entries, questions and keywords. */
export function subjectIndexCoverage(files: readonly SubjectIndexFile[]): SubjectIndexCoverage {
  let entries = 0;
  let questions = 0;
  let keywords = 0;
  for (const f of files) {
    entries += f.entries.length;
    for (const e of f.entries) {
      questions += e.questions.length;
      keywords += e.keywords.length;
    }
  }
  return { acts: files.length, entries, questions, keywords };
}

/** The subject index's files as an input of the index build: their directory and one SHA-256 over them. */
export interface SubjectIndexDigest {
  dir: string;
  /** SHA-256 over each `*.json` file's name and bytes, in name order (lowercase hex). */
  sha256: string;
}

/**
 * Hashes the subject index's files (`*.json` of `dir`, default {@link subjectIndexDir}), so that a change of any of
 * them rebuilds the corpus index; undefined when there are none (a package built without its data).
 */
export function subjectIndexDigest(dir: string = subjectIndexDir()): SubjectIndexDigest | undefined {
  if (!fs.existsSync(dir)) return undefined;
  const names = fs.readdirSync(dir).filter((name) => name.endsWith('.json')).sort();
  if (names.length === 0) return undefined;
  const hash = createHash('sha256');
  for (const name of names) hash.update(`${name}\0`).update(fs.readFileSync(path.join(dir, name))).update('\0');
  return { dir, sha256: hash.digest('hex') };
}

/**
 * The written text of each entry, by served `document_id` and element `ref`: its questions and keywords, one a line
 * (what the index build analyses into the article's `subject` field). Entries of documents `served` does not know are
 * left out (an index of other inputs).
 * @param served maps a `document_id` (or an alias of one) to the `document_id` it is served under; undefined when unknown.
 */
export function subjectTexts(
  files: readonly SubjectIndexFile[],
  served: (documentId: string) => string | undefined,
): Map<string, Map<string, string>> {
  const texts = new Map<string, Map<string, string>>();
  for (const file of files) {
    const id = served(file.document_id);
    if (id === undefined) continue;
    let byRef = texts.get(id);
    if (byRef === undefined) texts.set(id, (byRef = new Map()));
    for (const e of file.entries) byRef.set(e.ref, [...e.questions, ...e.keywords].join('\n'));
  }
  return texts;
}
