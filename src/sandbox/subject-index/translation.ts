/**
 * The lay-to-legal translation model: which stems of the law a word of a question stands for („шеф“ → `работодател`,
 * „уволн“ → `прекратяван`, `предизвести`), learned when the index is built from pairs of texts that say the same thing
 * in two registers, and applied to every query before its first pass (`search/vocabulary.ts`, `withTranslations`), so
 * that acts without written questions gain too.
 *
 * The model is IBM Model 1 (Brown et al. 1993) as Berger & Lafferty (1999) and Xue, Jeon & Croft (2008) use it for
 * retrieval: t(a | q), the probability that a question word q is rendered by the word a of the text that answers it,
 * estimated by expectation–maximization over the pairs, with an empty word that takes the words of a text no question
 * word accounts for (the law's common words). A word's translation into itself is left out (the word is searched as
 * typed anyway).
 *
 * Pairs (`corpus/index-build.ts` gathers them; nothing derived is stored in the repository):
 * - the written subject index: each question, and an entry's keywords, → its article's heading and text (weight 1);
 * - the corpus: an article's own heading → its text; a term defined in „§ 1“ of the additional provisions → its
 *   definition (weight {@link CORPUS_PAIR_WEIGHT});
 * - the BulTreeBank WordNet (CC BY 3.0): each word of a synset → the other words of that synset and its definition;
 *   the thesaurus: a headword → its synonyms (candidates, weight {@link CANDIDATE_PAIR_WEIGHT}).
 */

/** One pair: the words of a question side and of the text side (stems, `analyze`), and how much it counts. */
export interface TranslationPair {
  source: readonly string[];
  target: readonly string[];
  /** Weight of the pair's expected counts (default 1). */
  weight?: number;
  /**
   * The evidence the pair belongs to (an article: its questions and heading say the same thing once); pairs of one
   * group count once toward a translation's support ({@link MIN_TRANSLATION_SUPPORT}). Default: a group of its own.
   */
  group?: number;
}

/** The learned table: per source stem, its translations best first, each `[target stem, probability]`. */
export type TranslationTable = Map<string, [target: string, probability: number][]>;

/** EM iterations. */
export const TRANSLATION_ITERATIONS = 3;
/** Translations kept per source stem. */
export const MAX_TRANSLATIONS = 4;
/** Least probability of a translation kept: a word whose renderings are spread thin (мога, трябва) gets none. */
export const MIN_TRANSLATION_PROBABILITY = 0.04;
/**
 * Least support of a translation kept: the summed weights of the distinct groups of pairs (articles, synsets) in which
 * the two words meet. One article's questions all share its words, so a word met once would "translate" into any of
 * them alike; two articles (or an article and a WordNet or thesaurus sense) agreeing is evidence.
 */
export const MIN_TRANSLATION_SUPPORT = 1.25;
/** Weight of a pair the corpus gives (heading → text, defined term → definition). */
export const CORPUS_PAIR_WEIGHT = 0.5;
/** Weight of a thesaurus or WordNet pair (a candidate: a synonym in some sense, not necessarily the law's). */
export const CANDIDATE_PAIR_WEIGHT = 0.3;
/** Most target stems of one pair (its rarest ones; see `corpus/translation-build.ts`). */
export const MAX_PAIR_TARGETS = 12;
/** Most source stems of one pair. */
export const MAX_PAIR_SOURCES = 12;

/**
 * Learns t(a | q) by {@link TRANSLATION_ITERATIONS} rounds of EM over `pairs` (IBM Model 1 with an empty source
 * word), keeping per source stem at most {@link MAX_TRANSLATIONS} translations other than itself of probability at
 * least {@link MIN_TRANSLATION_PROBABILITY} and support at least {@link MIN_TRANSLATION_SUPPORT}, and only targets `keepTarget` accepts (e.g. stems the index holds that are
 * not too common to tell anything).
 *
 * Cost: linear in Σ |source| × |target| over the pairs per iteration (typed arrays; about a second for 50,000 pairs).
 * @returns the table; sources without a kept translation are absent.
 */
export function learnTranslations(pairs: readonly TranslationPair[], keepTarget: (stem: string) => boolean = () => true): TranslationTable {
  const ids = new Map<string, number>();
  const words: string[] = ['']; // 0: the empty word
  const idOf = (w: string): number => {
    let id = ids.get(w);
    if (id === undefined) {
      id = words.length;
      ids.set(w, id);
      words.push(w);
    }
    return id;
  };
  // Per pair: its sources (0 first), its targets, and per (source, target) cell the slot of t(target | source); the
  // slots of a source by target id (small integer keys: a Map of them is far faster than one of composite keys).
  const slotsOf: Map<number, number>[] = [];
  const slotSource: number[] = [];
  const slotTarget: number[] = [];
  const prepared: { sources: Int32Array; targets: number; slots: Int32Array; weight: number }[] = [];
  const support: number[] = [];
  const lastGroup: number[] = [];
  let ownGroup = -1;
  for (const pair of pairs) {
    const group = pair.group ?? ownGroup--;
    const weight = pair.weight ?? 1;
    const sources = [0, ...new Set(pair.source.slice(0, MAX_PAIR_SOURCES).map(idOf))];
    const targets = [...new Set(pair.target)].slice(0, MAX_PAIR_TARGETS).map(idOf);
    if (sources.length < 2 || targets.length === 0) continue;
    const slots = new Int32Array(sources.length * targets.length);
    let k = 0;
    for (const a of targets) {
      for (const q of sources) {
        const of = (slotsOf[q] ??= new Map());
        let slot = of.get(a);
        if (slot === undefined) {
          slot = slotSource.length;
          of.set(a, slot);
          slotSource.push(q);
          slotTarget.push(a);
          support.push(0);
          lastGroup.push(Number.NaN);
        }
        if (lastGroup[slot] !== group) {
          lastGroup[slot] = group;
          support[slot]! += weight;
        }
        slots[k++] = slot;
      }
    }
    prepared.push({ sources: Int32Array.from(sources), targets: targets.length, slots, weight });
  }
  slotsOf.length = 0;
  const t = new Float64Array(slotSource.length).fill(1);
  const counts = new Float64Array(slotSource.length);
  const totals = new Float64Array(words.length);
  for (let iteration = 0; iteration < TRANSLATION_ITERATIONS; iteration++) {
    counts.fill(0);
    totals.fill(0);
    for (const { sources, targets, slots, weight } of prepared) {
      const n = sources.length;
      for (let j = 0; j < targets; j++) {
        let denominator = 0;
        for (let i = 0; i < n; i++) denominator += t[slots[j * n + i]!]!;
        if (denominator <= 0) continue;
        for (let i = 0; i < n; i++) {
          const slot = slots[j * n + i]!;
          const c = (weight * t[slot]!) / denominator;
          counts[slot] = counts[slot]! + c;
          totals[sources[i]!] = totals[sources[i]!]! + c;
        }
      }
    }
    for (let s = 0; s < t.length; s++) {
      const total = totals[slotSource[s]!]!;
      t[s] = total > 0 ? counts[s]! / total : 0;
    }
  }
  const table: TranslationTable = new Map();
  for (let s = 0; s < t.length; s++) {
    const q = slotSource[s]!;
    const a = slotTarget[s]!;
    if (q === 0 || q === a || t[s]! < MIN_TRANSLATION_PROBABILITY || support[s]! < MIN_TRANSLATION_SUPPORT) continue;
    const target = words[a]!;
    if (!keepTarget(target)) continue;
    const source = words[q]!;
    let list = table.get(source);
    if (list === undefined) table.set(source, (list = []));
    list.push([target, Math.round(t[s]! * 10_000) / 10_000]);
  }
  for (const [source, list] of table) {
    list.sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1));
    if (list.length > MAX_TRANSLATIONS) table.set(source, list.slice(0, MAX_TRANSLATIONS));
  }
  return table;
}

/**
 * The defined terms of a „§ 1“ text of additional provisions: lines such as `1. „Потребител“ е всяко физическо
 * лице, …` or `„Трудов стаж“ означава …`, as `[term, definition]`; [] when the text defines nothing.
 */
export function definitionsOf(text: string): [term: string, definition: string][] {
  const found: [string, string][] = [];
  for (const line of text.split('\n')) {
    const m = /^\s*(?:\d+[а-я]?\.\s*)?[„"]([^“”"]{2,80})[“”"]\s*(?:\([^)]*\)\s*)?(?:е|са|означава|означават|се разбира|включва)\s+(.{10,})$/u.exec(line);
    if (m !== null) found.push([m[1]!, m[2]!]);
  }
  return found;
}

/** One synset of a WordNet in the Open Multilingual Wordnet's tab format: its words and its definitions. */
export interface Synset {
  lemmas: string[];
  definitions: string[];
}

/**
 * Reads a WordNet in the Open Multilingual Wordnet's tab format (`<synset>\t<lang>:lemma\t<word>`,
 * `<synset>\t<lang>:def\t<n>\t<definition>`; other lines and the header are skipped): its synsets in file order.
 */
export function parseWordnet(text: string): Synset[] {
  const synsets = new Map<string, Synset>();
  for (const line of text.split('\n')) {
    const cells = line.split('\t');
    if (cells.length < 3 || line.startsWith('#')) continue;
    const [id, type] = cells as [string, string];
    const kind = type.endsWith(':lemma') ? 'lemma' : type.endsWith(':def') ? 'def' : undefined;
    if (kind === undefined) continue;
    let synset = synsets.get(id);
    if (synset === undefined) synsets.set(id, (synset = { lemmas: [], definitions: [] }));
    if (kind === 'lemma') synset.lemmas.push(cells[2]!.replaceAll('_', ' '));
    else synset.definitions.push(cells.at(-1)!);
  }
  return [...synsets.values()];
}
