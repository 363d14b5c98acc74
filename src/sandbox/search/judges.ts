/**
 * Judges' names as the sandbox matches them: the `judge_name` filter of `POST /v1/search` (spec: POST /v1/search,
 * `judge_name`: "Case-insensitive, approximate match") against the reporting judge and every judge of a decision's
 * panel, and the `search` text of `GET /v1/catalog/judges` against the judges of the catalog.
 *
 * Both sides are compared in one Latin form (see {@link judgeNameKey}), so a Cyrillic name, its official Bulgarian
 * transliteration ("Hristina Mihova"), an English-style one ("Khristina Mikhova") and typos of any of them meet.
 * The matching rule is {@link judgeKeyMatches}.
 */
import { editDistance } from '../../shared/courts.js';
import { latinWords } from '../../shared/latin.js';

/**
 * The comparable form of a judge's name (or of what a user typed for one): its words in one Latin form
 * (`latinWords`, `shared/latin.ts`: lower-cased, transliterated by the Streamlined System, English- and Russian-style
 * spellings folded, punctuation dropped).
 * Examples: "Христина Михова" → [hristina, mihova]; "Khristina MIKHOVA" → [hristina, mihova]; "Х. Михова" →
 * [h, mihova]; "Петрова-Иванова" → [petrova, ivanova]; "" → [].
 */
export function judgeNameKey(name: string): string[] {
  return latinWords(name);
}

/**
 * How many edits a typed word may be from a word of the name: 2 from 8 letters, 1 from 4, else none (counted on the
 * Latin form of {@link judgeNameKey}).
 */
function typoBudget(word: string): number {
  return word.length >= 8 ? 2 : word.length >= 4 ? 1 : 0;
}

/**
 * Whether a typed word fits a word of a judge's name (both of {@link judgeNameKey}): equal; a prefix of it (an
 * initial, "h" ↔ "hristina", or a shortened name); or, with `typos` (the default), within the typo budget (1 edit from
 * 4 letters, 2 from 8: "mihva" ↔ "mihova", "ivanov" ↔ "ivanova").
 */
export function judgeWordFits(typed: string, word: string, typos = true): boolean {
  if (word.startsWith(typed)) return true;
  const budget = typos ? typoBudget(typed) : 0;
  return budget > 0 && editDistance(typed, word, budget) <= budget;
}

/**
 * Whether the typed words `wanted` fit the words `name` of one judge's name, in this order (both of
 * {@link judgeNameKey}). Bulgarian names are written given name, then any middle (father's) names, then surname.
 * - Each typed word either fits a word of the name ({@link judgeWordFits}), each word of the name used at most once
 *   and in the order of the name, or is an extra word.
 * - At least one typed word fits; an extra word is allowed only between two fitting words (it can only stand for a
 *   middle name the record lacks, such as a father's name).
 * - Words of the name may be left unmatched (a missing given, middle or surname).
 * Examples against "Христина Михова": "Михова", "Христина", "Х. Михова", "Христина Иванова Михова", "Hristina Mihova"
 * fit; "Иван Михова" (extra word before the first fitting one), "Христина Иванова" (extra word after the last) and
 * "Мария Михова" do not. Empty `wanted` fits nothing. Without `typos`, a typed word fits only a word it equals or
 * begins. Cost: O(|wanted| × |name|²) word comparisons.
 */
export function judgeWordsFit(wanted: readonly string[], name: readonly string[], typos = true): boolean {
  if (wanted.length === 0) return false;
  // state: 0 = nothing fitted yet, 1 = the last typed word fitted, 2 = an extra word since the last fitting one.
  const memo = new Map<number, boolean>();
  const fits = (i: number, next: number, state: 0 | 1 | 2): boolean => {
    if (i === wanted.length) return state === 1;
    const key = (i * (name.length + 1) + next) * 3 + state;
    const known = memo.get(key);
    if (known !== undefined) return known;
    const typed = wanted[i]!;
    let result = false;
    for (let j = next; j < name.length && !result; j++) {
      if (judgeWordFits(typed, name[j]!, typos)) result = fits(i + 1, j + 1, 1);
    }
    if (!result && state !== 0) result = fits(i + 1, next, 2);
    memo.set(key, result);
    return result;
  };
  return fits(0, 0, 0);
}

/**
 * The matching rule of `judge_name` and of the judges catalog's `search` for one judge's name: {@link judgeWordsFit}
 * with the typed words as given, or, for two or more words, with the first moved to the end (the surname written
 * first, as in lists: "Михова Христина" → "Христина Михова"). `typos` as for {@link judgeWordsFit}.
 */
export function judgeKeyMatches(wanted: readonly string[], name: readonly string[], typos = true): boolean {
  if (judgeWordsFit(wanted, name, typos)) return true;
  return wanted.length >= 2 && judgeWordsFit([...wanted.slice(1), wanted[0]!], name, typos);
}

/**
 * Whether typed words may fit a name through a typo: only when no name of `names` (keys of {@link judgeNameKey}) fits
 * them without one (equal words or prefixes). When one does, a typo could only add other judges: „Константинов“
 * would also find Константин Пенчев, 2 edits from the given name, beside Йордан Константинов.
 */
export function typosAllowed(wanted: readonly string[], names: Iterable<readonly string[]>): boolean {
  for (const name of names) if (judgeKeyMatches(wanted, name, false)) return false;
  return true;
}

/** {@link judgeKeyMatches} on names as written (e.g. `judgeNameMatches('Mihova', 'Христина Михова')` is true). */
export function judgeNameMatches(requested: string, judgeName: string): boolean {
  return judgeKeyMatches(judgeNameKey(requested), judgeNameKey(judgeName));
}

/** A court decision's judges as the corpus records them. */
export interface DecisionJudges {
  /** The judge-rapporteur (докладчик), or null. */
  reporting_judge: string | null;
  /** Every member of the panel, chair first; [] when none are recorded. */
  judges: readonly string[];
}

/**
 * A decision's distinct judges: the panel (`judges`) in order, then the reporting judge when the panel lacks them
 * (a corpus may record only the rapporteur, as the synthetic ones do); names trimmed, inner whitespace collapsed,
 * empty names dropped.
 */
export function decisionJudgeNames(decision: DecisionJudges): string[] {
  const names: string[] = [];
  for (const raw of [...decision.judges, decision.reporting_judge]) {
    const name = raw?.trim().replace(/\s+/g, ' ');
    if (name && !names.includes(name)) names.push(name);
  }
  return names;
}

/** A decision's judges and their {@link judgeNameKey}s, computed on first use and kept per decision object. */
const decisionKeys = new WeakMap<DecisionJudges, { names: string[]; keys: string[][] }>();

function keyedJudges(decision: DecisionJudges): { names: string[]; keys: string[][] } {
  let keyed = decisionKeys.get(decision);
  if (!keyed) {
    const names = decisionJudgeNames(decision);
    keyed = { names, keys: names.map(judgeNameKey) };
    decisionKeys.set(decision, keyed);
  }
  return keyed;
}

/**
 * The `judge_name` filter of one request: a test of whether the typed name matches a decision's reporting judge or
 * any judge of its panel, each name on its own ({@link judgeKeyMatches}; words of different judges never combine).
 * The names' keys are cached per decision object (the search's `DocumentMeta`), so an index pays for them once, and
 * each distinct name is compared once per request (panels repeat: the КС sits as one panel of 12).
 * @param judgeName the request's `judge_name` as typed; one without letters matches no decision.
 * @param corpus the decisions whose judges' names decide whether a typo may fit ({@link typosAllowed}: not when a name
 *   fits without one); every name may fit with a typo when omitted.
 */
export function decisionJudgeMatcher(judgeName: string, corpus?: Iterable<DecisionJudges | undefined>): (decision: DecisionJudges) => boolean {
  const wanted = judgeNameKey(judgeName);
  let typos = true;
  if (corpus !== undefined) {
    const keys = new Map<string, string[]>();
    for (const decision of corpus) {
      if (decision === undefined) continue;
      const keyed = keyedJudges(decision);
      keyed.names.forEach((name, i) => keys.set(name, keyed.keys[i]!));
    }
    typos = typosAllowed(wanted, keys.values());
  }
  const byName = new Map<string, boolean>();
  return (decision) => {
    const { names, keys } = keyedJudges(decision);
    return names.some((name, i) => {
      let matches = byName.get(name);
      if (matches === undefined) {
        matches = judgeKeyMatches(wanted, keys[i]!, typos);
        byName.set(name, matches);
      }
      return matches;
    });
  };
}
