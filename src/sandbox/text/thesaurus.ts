/**
 * A synonym thesaurus for the sandbox search: the LibreOffice Bulgarian thesaurus (MyThes format, version 2), read at
 * run time from `../shared/corpus/bg-thesaurus.dat.gz` (see `../shared/corpus/README.md`, section
 * "bg-thesaurus.dat.gz"; licence GPL-2, so the file is data read where it lies, never copied into this repository).
 * It complements the hand-written vocabulary of `search/vocabulary.ts` (docs/sandbox.md, "Search"): that one maps a
 * few dozen everyday words to the terms of the statutes with care; this one gives, for some 20,000 words, their
 * synonyms sense by sense, without knowing which of them the law uses or which sense a query means.
 *
 * The file: a first line naming the encoding (`UTF-8`), then for each headword a line `word|N` followed by N sense
 * lines `(part of speech)|synonym|synonym|…`; a synonym may be a phrase („отказвам се“, „местен жител“).
 *
 * Everything is keyed and compared by the stems of `analysis.ts` (the search's own analysis), so that a headword
 * entry is found from the forms of a query word with the same light stem (фалит, фалитът, фалити; not фалита) and a
 * synonym can be looked up in the index as is:
 * - a headword's key is `stem(word)` when the headword is one indexable word, optionally followed by the reflexive
 *   particle „се“ or „си“ (`бавя се` → `stem('бавя')`, like the index, which drops „се“ as a stopword); every other
 *   multi-word headword (`атомна бомба`, `най-голям`, `е-поща`: hyphens split words) and every headword that is
 *   a stopword or one letter (`а`, `ако`) is skipped. Headwords with the same key (`бавя`, `бавя се`) are merged.
 * - a synonym's stems are `[...new Set(analyze(term))]` (stopwords dropped, repeats removed); a synonym with no stems
 *   or with more than `MAX_SYNONYM_STEMS` stems is dropped.
 *
 * Changing anything here that changes the output of `parseThesaurus`, `readThesaurus` or `restrictToIndex` must bump
 * `THESAURUS_VERSION`.
 */
import { gunzipSyncWithin, INPUT_MAX_BYTES, InputFileError, isGzipData, readRegularFileSync } from '../input-file.js';
import { analyze, isIndexable, stem, tokenSpans } from './analysis.js';
import { memoized } from './memo.js';

/** Version of the thesaurus reading (headword keys, synonym analysis, merging, restriction); bump when output changes. */
export const THESAURUS_VERSION = 1;

/** Synonyms with more stems than this (after dropping stopwords) are dropped: long phrases are descriptions, not terms. */
export const MAX_SYNONYM_STEMS = 3;

/** Reflexive particles allowed after a one-word headword (`отказвам се`); they are stopwords, so the index drops them too. */
const REFLEXIVE_PARTICLES: ReadonlySet<string> = new Set(['се', 'си']);

/**
 * One synonym of a sense. The objects returned by `parseThesaurus` / `readThesaurus` are frozen (with their `stems`)
 * and shared by every sense that lists the same text; `restrictToIndex` keeps sharing them.
 */
export interface ThesaurusSynonym {
  /** The synonym as the file writes it (a word or a phrase), trimmed. */
  term: string;
  /** Its distinct stems, in order (`[...new Set(analyze(term))]`): 1 to `MAX_SYNONYM_STEMS` of them. */
  stems: string[];
}

/** One sense of a headword: the part of speech as the file writes it and its synonyms as analysed stems. */
export interface ThesaurusSense {
  /** Part of speech as written, without the parentheses: `същ.`, `гл.`, `прил.`, `нар.`, `словосъч.`, … */
  pos: string;
  /** The sense's synonyms in file order, at least one; no two with the same stems. */
  synonyms: ThesaurusSynonym[];
}

/**
 * A thesaurus file that cannot be read: unreadable, not gzip although named `.gz`, an encoding other than UTF-8, or a
 * malformed line. The message starts with where: `thesaurus FILE, line N: …` or `thesaurus FILE: …`.
 */
export class ThesaurusError extends Error {
  /** The file (or, for `parseThesaurus` without a source, the text's label) at fault. */
  readonly file: string;
  /** 1-based number of the offending line, when the problem is one line. */
  readonly line: number | undefined;

  constructor(file: string, message: string, line?: number, options?: { cause?: unknown }) {
    super(`thesaurus ${file}${line !== undefined ? `, line ${line}` : ''}: ${message}`, options);
    this.name = 'ThesaurusError';
    this.file = file;
    this.line = line;
  }
}

/**
 * Reads a MyThes file (gzip or plain, by content or by `.gz` name) into senses by headword stem (see `parseThesaurus`
 * for the shape and rules). The whole file is read and decoded at once (the Bulgarian thesaurus: 1 MB gzip, 4.8 MB
 * of text: 0.2–0.35 s in a fresh process on a small shared machine, about a third of it the first stemming of its
 * ~30,000 distinct words; about 23 MB of heap retained).
 *
 * Only a regular file is read, at most 64 MiB of it, decompressed too (`INPUT_MAX_BYTES`).
 *
 * @param path the thesaurus file, e.g. `../shared/corpus/bg-thesaurus.dat.gz`.
 * @throws ThesaurusError naming `path`: the file cannot be read, is not a regular file or is too large; it is gzip (by its first bytes or its `.gz` name) but
 *   does not decompress; its first line names an encoding other than UTF-8; its bytes are not valid UTF-8; or any
 *   error of `parseThesaurus` (with the line number).
 */
export function readThesaurus(path: string): Map<string, ThesaurusSense[]> {
  let bytes: Buffer;
  try {
    bytes = readRegularFileSync(path, INPUT_MAX_BYTES.thesaurus);
  } catch (err) {
    const problem = err instanceof InputFileError ? err.problem : `cannot read the file: ${(err as Error).message}`;
    throw new ThesaurusError(path, problem, undefined, { cause: err });
  }
  if (isGzipData(bytes) || path.endsWith('.gz')) {
    try {
      bytes = gunzipSyncWithin(path, bytes, INPUT_MAX_BYTES.thesaurus);
    } catch (err) {
      const problem = err instanceof InputFileError ? err.problem : `not a valid gzip file: ${(err as Error).message}`;
      throw new ThesaurusError(path, problem, undefined, { cause: err });
    }
  }
  // The encoding line first, so that a file in another encoding gets that message rather than a decoding error.
  const newline = bytes.indexOf(0x0a);
  checkEncodingLine(bytes.subarray(0, newline < 0 ? bytes.length : newline).toString('latin1'), path);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (err) {
    throw new ThesaurusError(path, 'the first line says UTF-8 but the content is not valid UTF-8', undefined, { cause: err });
  }
  return parseThesaurus(text, path);
}

/**
 * Parses MyThes text (for tests and readThesaurus) into the senses of each headword, keyed by the headword's stem.
 *
 * Rules (module comment for the details): the first line must name the encoding `UTF-8` (any case; a leading BOM and
 * surrounding spaces are ignored); headword keys are `stem(headword.toLowerCase())` for one-word headwords (a trailing
 * „се“/„си“ allowed), other headwords are skipped; a sense line is `(pos)|synonym|…` with the part of speech kept
 * without its parentheses; synonyms are analysed into stems, those with no stems or more than `MAX_SYNONYM_STEMS`
 * dropped, and within a sense a synonym with the same stems as an earlier one is dropped; senses left without
 * synonyms are dropped; the senses of headwords sharing a key are concatenated in file order, a sense whose set of
 * synonym stems equals an earlier one's (whatever its part of speech) dropped. Lines may end in CRLF; blank lines at
 * the end are ignored.
 *
 * @param text the whole file as text.
 * @param source what to call the text in error messages (readThesaurus passes the path).
 * @returns senses by headword key, keys in file order; every key has at least one sense.
 * @throws ThesaurusError with the 1-based line number: an encoding line other than UTF-8 (or an empty text); a line
 *   without `|` (blank lines inside the file included); a headword line that is not `word|N` with N a whole number; a
 *   count N that does not match the sense lines that follow (fewer sense lines before the next headword or the end,
 *   or more sense lines than announced).
 */
export function parseThesaurus(text: string, source = '(text)'): Map<string, ThesaurusSense[]> {
  const lines = text.split('\n');
  checkEncodingLine(lines[0] ?? '', source);
  let end = lines.length;
  while (end > 1 && (lines[end - 1] ?? '').trim() === '') end--;

  const result = new Map<string, ThesaurusSense[]>();
  /** Analysis of each distinct synonym text seen (null: dropped). */
  const analysedSynonyms = new Map<string, ThesaurusSynonym | null>();
  let previous: { headword: string; line: number; count: number } | undefined;

  let i = 1;
  while (i < end) {
    const lineNo = i + 1;
    const line = withoutCR(lines[i] ?? '');
    const bar = line.indexOf('|');
    if (bar < 0) throw new ThesaurusError(source, `a line without "|" (expected a headword line \`word|N\`): ${quote(line)}`, lineNo);
    if (isSenseLine(line, bar)) {
      const after = previous
        ? `: headword "${previous.headword}" (line ${previous.line}) announces ${previous.count} sense(s) but more sense lines follow`
        : '';
      throw new ThesaurusError(source, `a sense line where a headword line \`word|N\` was expected${after}`, lineNo);
    }
    const headword = line.slice(0, bar).trim();
    const countText = line.slice(bar + 1).trim();
    if (headword === '' || !/^\d+$/.test(countText)) {
      throw new ThesaurusError(source, `expected a headword line \`word|N\` (N a whole number): ${quote(line)}`, lineNo);
    }
    const count = Number(countText);
    const key = headwordKey(headword);
    let kept = key === undefined ? undefined : result.get(key);
    for (let k = 1; k <= count; k++) {
      const j = i + k;
      if (j >= end) {
        const message = `headword "${headword}" (line ${lineNo}) announces ${count} sense(s) but the file ends after ${k - 1}`;
        throw new ThesaurusError(source, message, j + 1);
      }
      const senseLine = withoutCR(lines[j] ?? '');
      const senseBar = senseLine.indexOf('|');
      if (senseBar < 0) {
        const message = `a line without "|" (expected sense ${k} of ${count} of "${headword}", line ${lineNo}): ${quote(senseLine)}`;
        throw new ThesaurusError(source, message, j + 1);
      }
      if (!isSenseLine(senseLine, senseBar)) {
        const message =
          `expected sense ${k} of ${count} of headword "${headword}" (line ${lineNo}), \`(part of speech)|synonym|…\`; ` +
          `the count ${count} does not match the sense lines: ${quote(senseLine)}`;
        throw new ThesaurusError(source, message, j + 1);
      }
      if (key === undefined) continue;
      const sense = parseSense(senseLine, senseBar, analysedSynonyms);
      if (sense === undefined) continue;
      if (kept === undefined) {
        kept = [sense];
        result.set(key, kept);
      } else if (!hasSense(kept, sense.synonyms)) {
        kept.push(sense);
      }
    }
    previous = { headword, line: lineNo, count };
    i += count + 1;
  }
  return result;
}

/**
 * Keeps only the synonyms whose stems the index holds (held(stem)), drops synonyms equal to the headword's stem,
 * drops empty senses and headwords.
 *
 * A synonym is kept when every one of its stems is held (a phrase is kept only if all its words can match) and it is
 * not the single stem of the headword itself (a synonym that is only another form of the headword adds nothing). A
 * sense left without synonyms is dropped, and so is a sense whose set of synonym stems has become equal to an
 * earlier sense's of the same headword; a headword left without senses is dropped. The headword itself need not be
 * held: an everyday word absent from the statutes is exactly where its synonyms help.
 *
 * @param senses as returned by `parseThesaurus` / `readThesaurus`; not modified.
 * @param held whether the index holds a stem (e.g. a lookup in the index's vocabulary); called at most once per
 *   distinct stem.
 * @returns a new map of new sense objects (their synonym objects are those of `senses`), keys in the order of `senses`.
 */
export function restrictToIndex(senses: Map<string, ThesaurusSense[]>, held: (stem: string) => boolean): Map<string, ThesaurusSense[]> {
  const isHeld = memoized(held);
  const result = new Map<string, ThesaurusSense[]>();
  for (const [key, list] of senses) {
    const kept: ThesaurusSense[] = [];
    for (const sense of list) {
      const synonyms: ThesaurusSynonym[] = [];
      for (const synonym of sense.synonyms) {
        if (synonym.stems.length === 1 && synonym.stems[0] === key) continue;
        if (!synonym.stems.every(isHeld)) continue;
        synonyms.push(synonym);
      }
      if (synonyms.length === 0 || hasSense(kept, synonyms)) continue;
      kept.push({ pos: sense.pos, synonyms });
    }
    if (kept.length > 0) result.set(key, kept);
  }
  return result;
}

/** A text that is one token of `analysis.ts` (a run of letters and digits): most headwords and synonyms. */
const ONE_WORD = /^[\p{L}\p{N}]+$/u;

/** `[...new Set(analyze(text))]`, skipping the tokenizer for a text of one word (most of them). */
function distinctStems(text: string): string[] {
  if (ONE_WORD.test(text)) {
    const lower = text.toLowerCase();
    return isIndexable(lower) ? [stem(lower)] : [];
  }
  return [...new Set(analyze(text))];
}

/**
 * The key of a headword: the stem of its one word, when it is one indexable word optionally followed by a reflexive
 * particle („се“, „си“); undefined for other headwords (phrases, hyphenated words, stopwords, one letter).
 */
function headwordKey(headword: string): string | undefined {
  if (ONE_WORD.test(headword)) {
    const lower = headword.toLowerCase();
    return isIndexable(lower) ? stem(lower) : undefined;
  }
  const tokens = tokenSpans(headword);
  const first = tokens[0];
  if (first === undefined) return undefined;
  if (tokens.length > 2 || (tokens.length === 2 && !REFLEXIVE_PARTICLES.has(tokens[1]?.lower ?? ''))) return undefined;
  // The words must be separated by spaces only: `е-поща` is two tokens but one compound, not a verb and a particle.
  if (tokens.length === 2 && headword.slice(first.end, tokens[1]?.start).trim() !== '') return undefined;
  return isIndexable(first.lower) ? stem(first.lower) : undefined;
}

/**
 * One sense line (`(pos)|synonym|…`, `bar` the index of its first `|`) as a sense, or undefined when none of its
 * synonyms is kept. Synonym analyses are memoized in `cache` (null: dropped); the synonym objects are frozen and
 * shared by every sense that lists the same text.
 */
function parseSense(line: string, bar: number, cache: Map<string, ThesaurusSynonym | null>): ThesaurusSense | undefined {
  const synonyms: ThesaurusSynonym[] = [];
  let start = bar + 1;
  while (start <= line.length) {
    let stop = line.indexOf('|', start);
    if (stop < 0) stop = line.length;
    const term = line.slice(start, stop).trim();
    start = stop + 1;
    if (term === '') continue;
    let synonym = cache.get(term);
    if (synonym === undefined) {
      const stems = distinctStems(term);
      synonym =
        stems.length === 0 || stems.length > MAX_SYNONYM_STEMS ? null : Object.freeze({ term, stems: Object.freeze(stems) as string[] });
      cache.set(term, synonym);
    }
    if (synonym === null || hasStems(synonyms, synonym.stems)) continue;
    synonyms.push(synonym);
  }
  if (synonyms.length === 0) return undefined;
  const first = line.charCodeAt(0) === 0x28 && line.charCodeAt(bar - 1) === 0x29 ? line.slice(0, bar) : line.slice(0, bar).trim();
  return { pos: first.slice(1, -1).trim(), synonyms };
}

/** Whether one of `synonyms` has exactly the stems `stems` (same stems in the same order). */
function hasStems(synonyms: readonly ThesaurusSynonym[], stems: readonly string[]): boolean {
  outer: for (const synonym of synonyms) {
    if (synonym.stems.length !== stems.length) continue;
    for (let i = 0; i < stems.length; i++) if (synonym.stems[i] !== stems[i]) continue outer;
    return true;
  }
  return false;
}

/** Whether a line (first `|` at `bar`) is a sense line: its first field is a part of speech in parentheses. */
function isSenseLine(line: string, bar: number): boolean {
  if (line.charCodeAt(0) === 0x28 && line.charCodeAt(bar - 1) === 0x29) return true; // "(" … ")|": no need to trim
  const first = line.slice(0, bar).trim();
  return first.startsWith('(') && first.endsWith(')');
}

/**
 * Whether one of `senses` has the same synonym stems as `synonyms`, as a set (order-free, part of speech ignored).
 * Synonyms within a sense have distinct stems, so equal counts and one included in the other mean equal sets.
 * (Compared in place rather than through a string key per sense: that key was a fifth of the parsing time.)
 */
function hasSense(senses: readonly ThesaurusSense[], synonyms: readonly ThesaurusSynonym[]): boolean {
  outer: for (const sense of senses) {
    if (sense.synonyms.length !== synonyms.length) continue;
    for (const synonym of synonyms) if (!hasStems(sense.synonyms, synonym.stems)) continue outer;
    return true;
  }
  return false;
}

/** Throws unless the first line of a thesaurus names the encoding UTF-8 (any case, BOM and spaces ignored). */
function checkEncodingLine(firstLine: string, source: string): void {
  const encoding = withoutCR(firstLine).replace(/^(\uFEFF|\u00EF\u00BB\u00BF)/, '').trim();
  if (encoding.toLowerCase() === 'utf-8') return;
  const what = encoding === '' ? 'is empty' : `names the encoding ${quote(encoding)}`;
  throw new ThesaurusError(source, `the first line ${what}; only UTF-8 thesauri are supported`, 1);
}

/** A line without its trailing carriage return (CRLF files). */
function withoutCR(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}

/** A line for an error message: quoted and cut to 80 characters. */
function quote(line: string): string {
  return JSON.stringify(line.length > 80 ? `${line.slice(0, 80)}…` : line);
}
