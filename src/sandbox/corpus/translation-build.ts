/**
 * The index build's last step: learning the lay-to-legal translation table (`subject-index/translation.ts`) from the
 * pairs the index and its inputs hold, and writing it to the index's `translations` table. Nothing learned is written
 * anywhere else: what comes from the thesaurus (GPL-2) stays in the index file built from `../shared`.
 */
import type { DatabaseSync } from 'node:sqlite';
import { gunzipSyncWithin, INPUT_MAX_BYTES, isGzipData, readRegularFileSync } from '../input-file.js';
import {
  CANDIDATE_PAIR_WEIGHT,
  CORPUS_PAIR_WEIGHT,
  definitionsOf,
  learnTranslations,
  MAX_PAIR_TARGETS,
  parseWordnet,
  type TranslationPair,
} from '../subject-index/translation.js';
import { isQuestionStem } from '../subject-index/entries.js';
import { isIndexable, stem, tokenSpans } from '../text/analysis.js';
import type { ThesaurusSense } from '../text/thesaurus.js';

/** A target stem counts when at most this share of the articles hold it (the law's common words tell nothing). */
export const MAX_TARGET_SHARE = 0.03;
/** Stems of an article's text kept for its pairs (its opening says what it is about). */
const PAIR_TEXT_STEMS = 150;
/** Characters of an article's text whose words give the written forms of its stems. */
const SURFACE_TEXT_CHARS = 2000;
/** A stem with a digit (a year, a number) translates nothing. */
const HAS_DIGIT = /\p{N}/u;

/**
 * Every stem the index holds → the number of its articles holding it (`fts_vocab`: reading it decodes the whole
 * full-text index, so a build reads it once).
 */
export function articleFrequencies(db: DatabaseSync): Map<string, number> {
  const df = new Map<string, number>();
  const vocab = db.prepare('SELECT term, doc FROM fts_vocab');
  vocab.setReturnArrays(true);
  for (const [term, n] of vocab.iterate() as unknown as Iterable<[string, number]>) df.set(term, n);
  return df;
}

/** What {@link TranslationPairs.learn} learned from, and what it wrote. */
export interface TranslationBuildReport {
  /** Pairs by origin. */
  pairs: { subject: number; headings: number; definitions: number; wordnet: number; thesaurus: number };
  /** Source stems with at least one translation (rows of `translations`). */
  sources: number;
}

/** One article's pairs as gathered during the build, before the targets can be chosen. */
interface GatheredArticle {
  subject: string[][];
  heading: string[] | undefined;
  definitions: [term: string[], definition: string[]][];
  stems: string[];
  /** The opening of its text, where the written forms of the table's stems are looked for once it is learned. */
  opening: string;
}

/**
 * The translation pairs of an index being built, gathered article by article while the articles are inserted (their
 * stems are at hand then), and learned into the index's `translations(stem, targets)` table (targets as JSON
 * `[[stem, probability, word], …]`, best first, `word` a form of the stem as the law writes it) once its
 * `fts_vocab` is complete:
 * - each line (question or keyword) of an article's subject → the article's own heading and the start of its text;
 * - an article's own heading (`ownHeading`: its title, not a division's) → the start of its text;
 * - each term a „§ 1“ defines (`definitionsOf`) → its definition;
 * - with a WordNet file: each word of a synset → the other words and the definitions of the synset;
 * - with a thesaurus: a headword → the synonyms of each of its senses.
 * Targets are the stems without digits the index holds in at most {@link MAX_TARGET_SHARE} of its articles, the
 * rarest {@link MAX_PAIR_TARGETS} of a pair.
 */
export class TranslationPairs {
  readonly #articles: GatheredArticle[] = [];
  /** A word as written for each stem met in a pair's text (its first form seen, lowercase), for the explanation. */
  readonly #surfaces = new Map<string, string>();

  /** `analyze` (its tokens, `tokenSpans`), noting each stem's first form in {@link #surfaces}. */
  #analyze(text: string): string[] {
    const stems: string[] = [];
    for (const { lower } of tokenSpans(text)) {
      if (!isIndexable(lower)) continue;
      const s = stem(lower);
      if (!this.#surfaces.has(s)) this.#surfaces.set(s, lower);
      stems.push(s);
    }
    return stems;
  }

  /**
   * Gathers an article's pairs, if it has any.
   * @param own its own heading (`ownHeading`; `''` when none).
   * @param stems the analysed stems of its text (`analyze`).
   * @param subject its written questions and keywords, one a line (`''` when none).
   */
  addArticle(ref: string, own: string, text: string, stems: readonly string[], subject: string): void {
    const isOwn = own !== '';
    const definitions = ref === '§1' && text.includes('„') ? definitionsOf(text) : [];
    if (subject === '' && !isOwn && definitions.length === 0) return;
    const ownStems = isOwn ? this.#analyze(own) : undefined;
    this.#articles.push({
      opening: text.slice(0, SURFACE_TEXT_CHARS),
      subject: subject === '' ? [] : subject.split('\n').map((line) => this.#analyze(line).filter((s) => !isQuestionStem(s))).filter((l) => l.length > 0),
      heading: ownStems !== undefined && ownStems.length > 0 ? ownStems : undefined,
      definitions: definitions.map(([term, definition]) => [this.#analyze(term), this.#analyze(definition)]),
      stems: [...(ownStems ?? []), ...stems.slice(0, PAIR_TEXT_STEMS)],
    });
  }

  /**
   * Learns the table from the gathered pairs and those of the WordNet and the thesaurus, and writes it into `db`.
   * @param wordnetPath a WordNet in the Open Multilingual Wordnet's tab format, gzip or plain; read with the
   *   thesaurus's size cap.
   * @param df the index's {@link articleFrequencies}, when the caller has read them already.
   * @throws the SQLite errors of a failed write; an `InputFileError` or zlib error for an unreadable WordNet.
   */
  learn(
    db: DatabaseSync,
    wordnetPath: string | undefined,
    thesaurus: ReadonlyMap<string, readonly ThesaurusSense[]> | undefined,
    df: ReadonlyMap<string, number> = articleFrequencies(db),
  ): TranslationBuildReport {
    const articleCount = (db.prepare('SELECT COUNT(*) AS n FROM articles').get() as { n: number }).n;
    const limit = Math.max(1, MAX_TARGET_SHARE * articleCount);
    /** The informative stems (held by at most `limit` articles, no digit) → their article counts. */
    const kept = new Map<string, number>();
    for (const [s, n] of df) if (n <= limit && !HAS_DIGIT.test(s)) kept.set(s, n);
    const informative = (s: string): boolean => kept.has(s);
    /** The rarest informative distinct stems, at most MAX_PAIR_TARGETS. */
    const targetsOf = (stems: readonly string[]): string[] =>
      [...new Set(stems)]
        .filter(informative)
        .sort((a, b) => kept.get(a)! - kept.get(b)! || (a < b ? -1 : 1))
        .slice(0, MAX_PAIR_TARGETS);
    const pairs: TranslationPair[] = [];
    const report: TranslationBuildReport = { pairs: { subject: 0, headings: 0, definitions: 0, wordnet: 0, thesaurus: 0 }, sources: 0 };
    const sourceOf = (stems: readonly string[]): string[] => stems.filter((s) => !HAS_DIGIT.test(s));
    let group = 0;
    for (const article of this.#articles) {
      group++;
      const target = targetsOf(article.stems);
      if (target.length > 0) {
        for (const source of article.subject) pairs.push({ source: sourceOf(source), target, group });
        report.pairs.subject += article.subject.length;
        if (article.heading !== undefined) {
          const heading = new Set(article.heading);
          pairs.push({ source: sourceOf(article.heading), target: target.filter((t) => !heading.has(t)), weight: CORPUS_PAIR_WEIGHT, group });
          report.pairs.headings++;
        }
      }
      for (const [term, definition] of article.definitions) {
        if (term.length === 0) continue;
        pairs.push({ source: sourceOf(term), target: targetsOf(definition), weight: CORPUS_PAIR_WEIGHT });
        report.pairs.definitions++;
      }
    }
    if (wordnetPath !== undefined) {
      let bytes = readRegularFileSync(wordnetPath, INPUT_MAX_BYTES.thesaurus);
      if (isGzipData(bytes)) bytes = gunzipSyncWithin(wordnetPath, bytes, INPUT_MAX_BYTES.thesaurus);
      for (const synset of parseWordnet(bytes.toString('utf8'))) {
        const definition = this.#analyze(synset.definitions.join(' '));
        const lemmas = synset.lemmas.map((l) => this.#analyze(l));
        lemmas.forEach((source, i) => {
          const target = targetsOf([...lemmas.filter((_, j) => j !== i).flat(), ...definition]);
          if (source.length === 0 || target.length === 0) return;
          pairs.push({ source, target, weight: CANDIDATE_PAIR_WEIGHT });
          report.pairs.wordnet++;
        });
      }
    }
    if (thesaurus !== undefined) {
      for (const [headword, senses] of thesaurus) {
        const target = targetsOf(senses.flatMap((s) => s.synonyms.flatMap((y) => y.stems)));
        if (target.length === 0) continue;
        pairs.push({ source: [headword], target, weight: CANDIDATE_PAIR_WEIGHT });
        report.pairs.thesaurus++;
      }
    }
    const table = learnTranslations(pairs, informative);
    // Written forms of the targets that short texts (questions, headings, synsets) did not give: each from the
    // opening of the first article whose stems hold it (one article read per target at most).
    const missing = new Set([...table.values()].flatMap((list) => list.map(([t]) => t)).filter((t) => !this.#surfaces.has(t)));
    const readFrom = new Set<GatheredArticle>();
    for (const article of this.#articles) {
      if (missing.size === 0) break;
      for (const s of article.stems) {
        if (missing.delete(s)) readFrom.add(article);
      }
    }
    for (const article of readFrom) this.#analyze(article.opening);
    const insert = db.prepare('INSERT INTO translations (stem, targets) VALUES (?, ?)');
    db.exec('BEGIN');
    for (const [source, targets] of table) {
      insert.run(source, JSON.stringify(targets.map(([t, p]) => [t, p, this.#surfaces.get(t) ?? t])));
    }
    db.exec('COMMIT');
    report.sources = table.size;
    return report;
  }
}
