/**
 * Bulgarian morphology for the sandbox search: the Hunspell dictionary of `dictionary-bg`, read by `hunspell-reader`.
 *
 * The light stemmer of `text/analysis.ts` strips inflections but keeps apart forms of one word that are written
 * differently: the verb forms a citizen types („уволних“, „уволни“) and the participle the statute writes („уволнен“)
 * get different light stems. The dictionary knows that all of them are forms of one entry („уволня“), so grouping the
 * light stems of the forms of each entry gives, for a light stem, the other light stems of the same word: its "mates"
 * (see `buildLexemes`), which a query can be expanded with.
 *
 * Not used by the search as shipped: measured on the judged set in place of the word family (`ranking.ts`,
 * `SearchMetadata.lexemes`), it lost citizen questions (docs/sandbox.md, "Search", stage 1). `bench/expansions.js`
 * measures it again; `dictionary-bg` and `hunspell-reader` are development dependencies, so nothing the CLI or the
 * sandbox loads imports this module.
 *
 * Changing anything here that changes the output of `buildLexemes` must bump `MORPHOLOGY_VERSION`.
 */
import { fileURLToPath } from 'node:url';
import { IterableHunspellReader } from 'hunspell-reader';
import { isIndexable, stem } from '../text/analysis.js';
import { memoized } from '../text/memo.js';

/** Version of the lexeme table (dictionary, form filtering, grouping); bump when `buildLexemes`' output changes. */
export const MORPHOLOGY_VERSION = 1;

/** Paths of a Hunspell dictionary: its affix file (`.aff`) and its word list (`.dic`). */
export interface HunspellDictionaryFiles {
  /** Path of the `.aff` file. */
  aff: string;
  /** Path of the `.dic` file. */
  dic: string;
}

/** Options of `buildLexemes`. */
export interface BuildLexemesOptions {
  /** The dictionary to read, as file paths; default: `index.aff` and `index.dic` of the `dictionary-bg` package. */
  dictionary?: HunspellDictionaryFiles;
}

/**
 * The files of the `dictionary-bg` package. Its `exports` only expose `index.js` (which reads both files into memory at
 * import time, so it is not imported); the `.aff` and `.dic` files are beside it.
 */
function defaultDictionaryFiles(): HunspellDictionaryFiles {
  const main = import.meta.resolve('dictionary-bg');
  return { aff: fileURLToPath(new URL('index.aff', main)), dic: fileURLToPath(new URL('index.dic', main)) };
}

/**
 * Lexemes of the Hunspell dictionary, as light stems: for a light stem, the other light stems of the forms of the same
 * dictionary entries (its "mates").
 *
 * For each entry of the `.dic` file (a lemma with its affix flags), hunspell-reader expands all its word forms; they
 * are lowercased, those that `isIndexable` keeps (2+ characters, not a stopword) are mapped through `stem`, and S is
 * the set of their distinct light stems. When S has 2 or more stems, every s in S gets as mates every other t in S that
 * `held(t)` accepts. An entry whose forms share one light stem adds nothing. Forms Hunspell marks forbidden or
 * compound-only are not words on their own and are skipped (dictionary-bg has neither).
 *
 * Result: a map from light stem to its mates, sorted (by UTF-16 code units) and without duplicates, never containing
 * the key itself; only keys with at least one mate are present. Keys are NOT filtered by `held`: a stem absent from the
 * index (typically a verb form a citizen types, „уволних“) is a key precisely so that a query can be mapped to the
 * held stems of the same word (the participle „уволнен“ the law writes). Stems of several entries (homographs, or a
 * participle that is also an adjective entry) merge the mates of all those entries.
 *
 * Large lexemes: a verb's forms (aorist, imperfect, imperative, and its participles — active past, passive, present —
 * each with gender, number and definiteness) can have many distinct light stems, so each of them has many mates. Any
 * size is kept whole, as the dictionary gives it; none is cut. With dictionary-bg no entry exceeds 40 stems: the
 * largest has 27 („наближа“), then 24 („реша“, „разреша“, „ям“); verbs typically have 10–20. A stem shared by several
 * entries can exceed 40 mates, though: the light stemmer conflates short forms of different verbs (помета, помота,
 * помята → `пом`), so with every stem held 28 keys have over 40 mates (at most 67, `разм`); with the stems of the
 * sandbox's index the largest mate list has 10.
 *
 * What the dictionary does not link: derivations are separate entries (the verbal noun „уволнение“, the imperfective
 * „уволнявам“ are not forms of „уволня“), and some irregular forms are listed as separate entries without affixes
 * („взел“, „взела“, … are not forms of „взема“).
 *
 * `held` is called at most once per distinct stem (results are memoized for the duration of the call), so it may be
 * moderately expensive (e.g. a lookup in the index); if it throws, the build rejects with that error. Pass `() => true`
 * for the full table.
 *
 * Cost, with dictionary-bg (78k entries expanded to 891k forms, 229k distinct light stems) on a 2-CPU machine: 2.4–3 s
 * and about 400 MB peak RSS. About 1.1 s and 95 MB are hunspell-reader's affix expansion (forms are streamed one entry
 * at a time, never held all at once); most of the rest is `stem` with its shared cache (`text/analysis.ts`, bounded at
 * 500k words): the 867k distinct forms fill it, it is cleared once on the way, and afterwards it keeps holding ~370k
 * dictionary forms (~40 MB of heap) until it next fills up. The result: 199k keys and 2.1M mates with every stem held
 * (~45 MB of heap); 52k keys and 109k mates with the 150k stems of the sandbox's index (a few MB).
 *
 * Errors: rejects when a dictionary file cannot be read (e.g. `ENOENT`) or cannot be parsed by hunspell-reader; rejects
 * with whatever `held` throws.
 */
export async function buildLexemes(
  held: (stem: string) => boolean,
  options: BuildLexemesOptions = {},
): Promise<Map<string, string[]>> {
  const files = options.dictionary ?? defaultDictionaryFiles();
  const reader = await IterableHunspellReader.createFromFiles(files.aff, files.dic);

  const isHeld = memoized(held);

  // Per stem, the held stems (sorted) of each lexeme it belongs to; most stems belong to one lexeme only, whose
  // array is then shared by all its stems until the end, instead of a set of mates per stem.
  const lexemesOf = new Map<string, string[][]>();
  const stems = new Set<string>();
  for (const forms of reader.seqTransformDictionaryEntries()) {
    stems.clear();
    for (const form of forms) {
      if (form.flags.isForbiddenWord || form.flags.isOnlyAllowedInCompound) continue;
      const lower = form.word.toLowerCase();
      if (isIndexable(lower)) stems.add(stem(lower));
    }
    if (stems.size < 2) continue;
    const heldStems = [...stems].filter(isHeld);
    // No stem of the entry gets a mate unless some stem is held, and a single held stem is nobody's mate but others'.
    if (heldStems.length === 0) continue;
    heldStems.sort(compareCodeUnits);
    for (const s of stems) {
      if (heldStems.length === 1 && heldStems[0] === s) continue;
      const list = lexemesOf.get(s);
      if (list) list.push(heldStems);
      else lexemesOf.set(s, [heldStems]);
    }
  }

  const lexemes = new Map<string, string[]>();
  for (const [s, lists] of lexemesOf) {
    let mates: string[];
    if (lists.length === 1) {
      mates = lists[0]!.filter((t) => t !== s);
    } else {
      const set = new Set<string>();
      for (const list of lists) for (const t of list) if (t !== s) set.add(t);
      mates = [...set].sort(compareCodeUnits);
    }
    lexemes.set(s, mates);
  }
  return lexemes;
}

/** Orders strings by UTF-16 code units (plain `<`), independent of the locale. */
function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
