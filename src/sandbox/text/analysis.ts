/**
 * Bulgarian-aware text analysis of the sandbox search engine: tokenizing, stopword removal and light stemming.
 *
 * The same analysis runs at index time (article text and titles, `analyze`) and at query time (`analyzeQuery`), so an
 * inflected form in the query matches the other inflected forms with the same stem in the corpus
 * (застраховател / застрахователя / застрахователят → `застраховател`).
 *
 * It lives in `text/`, the leaf below the index build (`corpus/`) and the search (`search/`), which must analyze alike.
 *
 * Changing anything here that changes the stems produced must bump `ANALYZER_VERSION`: the index file name includes it,
 * so existing indexes are then rebuilt instead of silently mismatching the query analysis.
 */
import { stemmer as bulgarianStemmer } from '@orama/stemmers/bulgarian';
import { stopwords as bulgarianStopwords } from '@orama/stopwords/bulgarian';

/** Version of the analysis (tokenizer, stopwords, stemmer); part of the index key (see `corpus/inputs.ts`). */
export const ANALYZER_VERSION = 2;

/** Stopwords dropped from indexed text and queries: the list of `@orama/stopwords/bulgarian` (259 words). */
export const STOPWORDS: ReadonlySet<string> = new Set(bulgarianStopwords);

/** A token: maximal run of Unicode letters and digits. */
const TOKEN_PATTERN = /[\p{L}\p{N}]+/gu;

/** A token of a text with its position, in UTF-16 code units (`start` inclusive, `end` exclusive). */
export interface TokenSpan {
  /** The token as written in the text (original case). */
  surface: string;
  /** Lowercased token. */
  lower: string;
  start: number;
  end: number;
}

/**
 * Every token of `text` (maximal runs of `\p{L}\p{N}`), lowercased, stopwords and 1-character tokens included, with
 * their positions. The building block of `analyze`, `analyzeQuery` and of excerpt selection.
 */
export function tokenSpans(text: string): TokenSpan[] {
  const spans: TokenSpan[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const first = wordUnitsAt(text, i);
    if (first === 0) {
      i++;
      continue;
    }
    const start = i;
    i += first;
    for (let k = wordUnitsAt(text, i); k !== 0; k = wordUnitsAt(text, i)) i += k;
    const surface = text.slice(start, i);
    spans.push({ surface, lower: surface.toLowerCase(), start, end: i });
  }
  return spans;
}

/**
 * Per UTF-16 code unit: 1 for a letter or digit of the Basic Multilingual Plane (`\p{L}` or `\p{N}`), 2 for a high
 * surrogate (its pair decides, see {@link wordUnitsAt}), 0 otherwise. Built on first use from {@link TOKEN_PATTERN}
 * itself, so the scanner's tokens are the pattern's.
 */
let wordUnitTable: Uint8Array | undefined;

function wordUnits(): Uint8Array {
  if (wordUnitTable !== undefined) return wordUnitTable;
  const table = new Uint8Array(0x10000);
  let bmp = '';
  for (let c = 0; c < 0x10000; c++) bmp += c >= 0xd800 && c <= 0xdfff ? ' ' : String.fromCharCode(c);
  for (const m of bmp.matchAll(TOKEN_PATTERN)) table.fill(1, m.index, m.index + m[0].length);
  table.fill(2, 0xd800, 0xdc00);
  wordUnitTable = table;
  return table;
}

/** A letter or digit outside the Basic Multilingual Plane (one code point, a surrogate pair). */
const ASTRAL_WORD_CHARACTER = /^[\p{L}\p{N}]$/u;

/**
 * The code units of the letter or digit (`\p{L}` or `\p{N}`) at `text[i]`: 1 in the Basic Multilingual Plane, 2 for a
 * surrogate pair encoding one; 0 when there is none (or `i` is past the end). What {@link TOKEN_PATTERN} matches, one
 * character at a time, without a regular expression for the common case.
 */
function wordUnitsAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c !== c) return 0; // NaN: past the end.
  const kind = (wordUnitTable ?? wordUnits())[c]!;
  if (kind !== 2) return kind;
  const next = text.charCodeAt(i + 1);
  return next >= 0xdc00 && next <= 0xdfff && ASTRAL_WORD_CHARACTER.test(text.slice(i, i + 2)) ? 2 : 0;
}

/** Whether a lowercased token is kept for indexing and search: at least 2 characters and not a stopword. */
export function isIndexable(lower: string): boolean {
  return lower.length >= 2 && !STOPWORDS.has(lower);
}

/** Stems computed so far: the corpus vocabulary is small relative to its token count, so this saves most work. */
const stemCache = new Map<string, string>();
/**
 * The plural of a verbal noun in „-ние“ (6 or more letters ending in „-ания“, „-ения“ or „-иния“): Lucene's stemmer
 * reads a final „-ия“ as the short definite article of a masculine word („трудовия“, „наказателния“) and cuts it
 * whole, which gave „нарушения“ the stem `нарушн` while „нарушение“ and „нарушенията“ have `нарушени`: the singular
 * and the bare plural of the law's verbal nouns (нарушения, решения, обезщетения, основания) met nowhere. Such a word
 * loses only its „я“, as its definite plural does. Adjectives, whose „-ния“ follows a consonant („съдебния“,
 * „наказателния“), keep Lucene's rule; a participle in „-ен“ or „-ан“ is read as the noun („определения“, as in
 * „определения от съда срок“, meets „определение“, no longer „определен“).
 */
const VERBAL_NOUN_PLURAL = /^[\p{L}\p{N}]{2,}[аеи]ния$/u;

/** Bound on the cache, so that a long-running server fed arbitrary queries cannot grow it without limit. */
const STEM_CACHE_LIMIT = 500_000;

/**
 * The Bulgarian light stem (Lucene's BulgarianStemmer, as ported by `@orama/stemmers/bulgarian`) of a lowercased
 * token; cached.
 *
 * Work-around for a bug of that port: Lucene's stemmer works on a `char[]` and rewrites characters in place (e.g.
 * `-ен` → `-н`, `-ци` → `-к`), and the port does the same on its argument (`word[i] = ...`). On a JS string in strict
 * mode that assignment throws `TypeError: Cannot assign to read only property` (e.g. for "съдебен"); in sloppy mode
 * it would silently be lost. Passing a mutable array of the characters that also has the `substring(start, end)`
 * method the port calls at the end makes it behave exactly like Lucene (съдебен → съдебн,
 * застрахователи → застраховатял). The port only indexes, compares and calls `substring`, so the array is a faithful
 * stand-in for the string. One rule of Lucene's is replaced, for the plural of verbal nouns
 * ({@link VERBAL_NOUN_PLURAL}).
 */
export function stem(lower: string): string {
  const cached = stemCache.get(lower);
  if (cached !== undefined) return cached;
  const result = VERBAL_NOUN_PLURAL.test(lower) ? lower.slice(0, -1) : lightStem(lower);
  if (stemCache.size >= STEM_CACHE_LIMIT) stemCache.clear();
  stemCache.set(lower, result);
  return result;
}

/** Lucene's light stem of `lower`, through a mutable stand-in for the string (see {@link stem}). */
function lightStem(lower: string): string {
  const chars = Object.assign([...lower], {
    substring(this: string[], start: number, end: number): string {
      return this.slice(start, end).join('');
    },
  });
  return bulgarianStemmer(chars as unknown as string);
}

/**
 * Index-time analysis: the stems of `text`, in order, one per kept token (duplicates kept, so term frequencies
 * survive). Tokens are lowercased maximal runs of letters/digits; stopwords and 1-character tokens are dropped.
 */
export function analyze(text: string): string[] {
  const units = wordUnitTable ?? wordUnits();
  const stems: string[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    let c = text.charCodeAt(i);
    let kind = units[c]!;
    if (kind === 0 || (kind === 2 && wordUnitsAt(text, i) === 0)) {
      i++;
      continue;
    }
    // A token: its code units hashed as they are read (FNV-1a), so that a word met before costs no string.
    const start = i;
    let hash = FNV_OFFSET;
    for (;;) {
      hash = Math.imul(hash ^ c, FNV_PRIME);
      i++;
      if (kind === 2) {
        hash = Math.imul(hash ^ text.charCodeAt(i), FNV_PRIME);
        i++;
      }
      if (i >= n) break;
      c = text.charCodeAt(i);
      kind = units[c]!;
      if (kind === 0 || (kind === 2 && wordUnitsAt(text, i) === 0)) break;
    }
    const kept = surfaces.stemOf(text, start, i, hash);
    if (kept !== null) stems.push(kept);
  }
  return stems;
}

/**
 * The stem `analyze` keeps of one token as written (a run of letters and digits, any case), or null when it keeps
 * none ({@link isIndexable}); from the same cache.
 */
export function tokenStem(token: string): string | null {
  let hash = FNV_OFFSET;
  for (let i = 0; i < token.length; i++) hash = Math.imul(hash ^ token.charCodeAt(i), FNV_PRIME);
  return surfaces.stemOf(token, 0, token.length, hash);
}

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

/**
 * What `analyze` keeps of each token as written (any case): its stem, or null when it is not indexable
 * ({@link isIndexable}). An open-addressing hash table keyed by the token's code units, looked up without cutting
 * the token out of its text; bounded like the stem cache (emptied when full).
 */
class SurfaceTable {
  #keys: (string | undefined)[] = [];
  #values: (string | null)[] = [];
  #hashes = new Int32Array(0);
  #size = 0;
  #mask = 0;

  constructor() {
    this.#reset(1 << 16);
  }

  #reset(capacity: number): void {
    this.#keys = new Array<string | undefined>(capacity).fill(undefined);
    this.#values = new Array<string | null>(capacity).fill(null);
    this.#hashes = new Int32Array(capacity);
    this.#size = 0;
    this.#mask = capacity - 1;
  }

  /** The stem of `text.slice(start, end)`, whose FNV-1a hash over its code units is `hash`. */
  stemOf(text: string, start: number, end: number, hash: number): string | null {
    const length = end - start;
    let slot = (hash ^ (hash >>> 15)) & this.#mask;
    for (;;) {
      const key = this.#keys[slot];
      if (key === undefined) break;
      if (this.#hashes[slot] === hash && key.length === length) {
        let j = 0;
        while (j < length && key.charCodeAt(j) === text.charCodeAt(start + j)) j++;
        if (j === length) return this.#values[slot]!;
      }
      slot = (slot + 1) & this.#mask;
    }
    // A copy, not a slice that would keep the whole text alive.
    const surface = `${text.slice(start, end)} `.slice(0, -1);
    const lower = surface.toLowerCase();
    const value = isIndexable(lower) ? stem(lower) : null;
    if (this.#size >= STEM_CACHE_LIMIT) this.#reset(1 << 16);
    else if (2 * (this.#size + 1) > this.#keys.length) this.#grow();
    this.#insert(surface, value, hash);
    return value;
  }

  #insert(key: string, value: string | null, hash: number): void {
    let slot = (hash ^ (hash >>> 15)) & this.#mask;
    while (this.#keys[slot] !== undefined) slot = (slot + 1) & this.#mask;
    this.#keys[slot] = key;
    this.#values[slot] = value;
    this.#hashes[slot] = hash;
    this.#size++;
  }

  #grow(): void {
    const keys = this.#keys;
    const values = this.#values;
    const hashes = this.#hashes;
    this.#reset(keys.length * 2);
    for (let k = 0; k < keys.length; k++) if (keys[k] !== undefined) this.#insert(keys[k]!, values[k]!, hashes[k]!);
  }
}

const surfaces = new SurfaceTable();

/** One distinct stem of a query with the word(s) the user typed for it. */
export interface QueryTerm {
  stem: string;
  /**
   * The query's words with this stem, as typed (original case), in order of first appearance, without duplicates
   * (words differing only in case count once, as first typed).
   */
  surfaces: string[];
}

/** Result of `analyzeQuery`. */
export interface AnalyzedQuery {
  /** Distinct stems in order of first appearance; empty when the query holds only stopwords or 1-letter tokens. */
  terms: QueryTerm[];
  /** Every token of the query as typed (original case), stopwords included; for vocabulary rules such as "ВАС". */
  tokens: string[];
}

/** Query-time analysis: the distinct stems of `query`, each with the surface words that produced it. */
export function analyzeQuery(query: string): AnalyzedQuery {
  const byStem = new Map<string, QueryTerm>();
  const tokens: string[] = [];
  for (const span of tokenSpans(query)) {
    tokens.push(span.surface);
    if (!isIndexable(span.lower)) continue;
    const s = stem(span.lower);
    let term = byStem.get(s);
    if (!term) {
      term = { stem: s, surfaces: [] };
      byStem.set(s, term);
    }
    if (!term.surfaces.some((w) => w.toLowerCase() === span.lower)) term.surfaces.push(span.surface);
  }
  return { terms: [...byStem.values()], tokens };
}

/** An occurrence in a text of a word whose stem is one of a set of stems (see `createStemMatcher`). */
export interface StemMatch {
  stem: string;
  /** Position of the word, in UTF-16 code units (`start` inclusive, `end` exclusive). */
  start: number;
  end: number;
}

/** Escapes a string for use inside a regular expression. */
function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A function finding, in a text, the words whose stem (same analysis as `analyze`) is one of `stems`, in text order;
 * for excerpts. Equivalent to filtering `tokenSpans(text)` by stem, but much faster on long articles: a word can only
 * have a stem starting with the first 3 letters of that stem, because the light stemmer only truncates a word and
 * rewrites characters at positions ≥ 3 (so `stem.slice(0, 3)` is always a prefix of the word; verified on the whole
 * corpus vocabulary), and a regular expression over those prefixes skips every other word natively. A word whose stem
 * begins with one of `familyPrefixes` also matches, reported with that prefix as its stem (see `search/ranking.ts`,
 * word families).
 */
export function createStemMatcher(stems: Iterable<string>, familyPrefixes: Iterable<string> = []): (text: string) => StemMatch[] {
  const wanted = new Set(stems);
  const prefixStems = [...new Set(familyPrefixes)];
  for (const p of prefixStems) wanted.add(p);
  const prefixes = [...new Set([...wanted].map((s) => s.slice(0, 3)))].filter((p) => p !== '');
  if (prefixes.length === 0) return () => [];
  // Longest first, so the alternation never stops at a shorter prefix where a longer one applies (any prefix works
  // for matching, since the rest of the word is consumed by the trailing class, but this keeps it obvious).
  prefixes.sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${prefixes.map(escapeRegExp).join('|')})[\\p{L}\\p{N}]*`, 'giu');
  /** The stem each word's stem is reported as (itself, or its family prefix), null when none; by stem. */
  const reported = new Map<string, string | null>();
  return (text: string): StemMatch[] => {
    const matches: StemMatch[] = [];
    for (const m of text.matchAll(pattern)) {
      const s = tokenStem(m[0]);
      if (s === null) continue;
      let p = reported.get(s);
      if (p === undefined) {
        p = wanted.has(s) ? s : (prefixStems.find((prefix) => s.startsWith(prefix)) ?? null);
        reported.set(s, p);
      }
      if (p !== null) matches.push({ stem: p, start: m.index, end: m.index + m[0].length });
    }
    return matches;
  };
}
