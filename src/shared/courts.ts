/**
 * What a user types for a court (a numeric code, an abbreviation such as ВКС, or a name, approximately) resolved to
 * one court of the catalog, or to the candidates when it names several. A leaf module shared by the CLI
 * (`pravo search --court`, `pravo catalog judges --court`) and the sandbox (`GET /v1/catalog/judges?court=`), which
 * must agree on what a name means. Like CourtListener's lookup, a name resolves only when exactly one court remains:
 * never a guess. Names and abbreviations are compared in Latin letters (`latin.ts`), so `VKS`, `RS Plovdiv` and
 * `okrazhen sad plovdiv` resolve as their Cyrillic forms do.
 */
import { COURT_ABBREVIATIONS } from './court-abbreviations.js';
import { latinWords } from './latin.js';

/** A court as the resolver needs it (a `CourtEntry` of the catalog, or the sandbox's own row). */
export interface NamedCourt {
  /** The court's numeric code (`court_ids`); 0 is the Конституционен съд. */
  court_id: number;
  /** Official name, e.g. `Окръжен съд – Пловдив`. */
  name: string;
}

/** Outcome of {@link resolveCourt}. */
export type CourtMatch<C extends NamedCourt> =
  /** Exactly one court. */
  | { kind: 'found'; court: C }
  /** Several courts fit; `candidates` in catalog order. */
  | { kind: 'ambiguous'; candidates: C[] }
  /** None fits; `suggestions` are the closest names (at most 3, best first), possibly none. */
  | { kind: 'none'; suggestions: C[] };

/**
 * Abbreviations of a court type written before a town (`РС Пловдив`, `ОС-Варна`, `АдмС Бургас`), to the type's word
 * in the official names. `АС` is the апелативен съд, as in the courts' own usage.
 */
const TYPE_ABBREVIATIONS: Readonly<Record<string, string>> = {
  РС: 'районен',
  ОС: 'окръжен',
  АС: 'апелативен',
  АПС: 'апелативен',
  АДМС: 'административен',
  АДС: 'административен',
  ВС: 'военен',
};

/** Levenshtein distance of `a` and `b`, stopping early (returning `limit + 1`) once it exceeds `limit`. */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length] ?? limit + 1;
}

/**
 * The words of a court's name, or of what a user typed for one, in one Latin form (`latinWords`): `Окръжен съд –
 * Пловдив` → okrazhen, sad, plovdiv.
 */
export function courtNameTokens(name: string): string[] {
  return latinWords(name);
}

/** The abbreviation form of a text: its letters in Latin, upper-cased (`в.к.с.` → `VKS`, `Адм. С` → `ADMS`, `vks` → `VKS`). */
function abbreviationKey(text: string): string {
  return latinWords(text).join('').toUpperCase();
}

/** {@link COURT_ABBREVIATIONS} and the type abbreviations by {@link abbreviationKey} (Cyrillic and Latin alike). */
let keyed: { courts: Map<string, string>; types: Map<string, string> } | undefined;

function abbreviations(): { courts: Map<string, string>; types: Map<string, string> } {
  keyed ??= {
    courts: new Map(Object.entries(COURT_ABBREVIATIONS).map(([abbreviation, name]) => [abbreviationKey(abbreviation), name])),
    types: new Map(Object.entries(TYPE_ABBREVIATIONS).map(([abbreviation, word]) => [abbreviationKey(abbreviation), word])),
  };
  return keyed;
}

/**
 * Whether a typed word fits a word of a court's name (both in Latin, {@link courtNameTokens}): equal; a prefix of it of
 * at least 3 letters (`okr` ↔ `okrazhen`, `апел` ↔ `апелативен`); or, from 5 letters, within edit distance 1
 * (`пловдв` ↔ `пловдив`).
 */
function wordFits(typed: string, word: string): boolean {
  if (typed === word) return true;
  if (typed.length >= 3 && word.startsWith(typed)) return true;
  return typed.length >= 5 && editDistance(typed, word, 1) <= 1;
}

/** Whether every typed word fits a different word of the name. */
function tokensFit(typed: readonly string[], name: readonly string[]): boolean {
  const free = [...name];
  for (const t of typed) {
    const i = free.findIndex((w) => wordFits(t, w));
    if (i === -1) return false;
    free.splice(i, 1);
  }
  return true;
}

/** `съд` in the Latin form of {@link courtNameTokens}: a word every name has, which says nothing of which court. */
const COURT_WORD = courtNameTokens('съд')[0]!;

/**
 * Resolves what a user typed for a court against `courts` (the catalog).
 *
 * Rules, in order (the first that decides wins); names and abbreviations are compared in Latin letters, so each rule
 * takes the Cyrillic text and its transliteration alike (`VKS`, `RS Plovdiv`, `okrazhen sad plovdiv`):
 * 1. Digits only: the court with that `court_id` (`1` → ВКС), else none.
 * 2. An abbreviation of {@link COURT_ABBREVIATIONS} (case, dots, spaces and dashes ignored: `вкс`, `В.К.С.`, `VKS`):
 *    that court, when the catalog has it.
 * 3. A type abbreviation before a town (`РС Пловдив`, `ОС-Варна`, `АдмС Бургас`, `ВС Сливен`, `RS Plovdiv`; `АС` is
 *    апелативен): read as the type's word followed by the town, then matched as a name (rule 4).
 * 4. A name, approximately: the words of the text (case and punctuation ignored, `–` and `-` separate words) each
 *    fit a different word of the court's name (equal, a prefix of 3+ letters, or one edit from 5 letters). A court
 *    whose name has exactly the typed words wins outright; otherwise one remaining court is found, several are
 *    ambiguous.
 * When nothing fits, `suggestions` holds up to 3 courts sharing the most words with the text (`съд` not counted).
 *
 * @param typed the user's text; an empty or blank text fits nothing.
 */
export function resolveCourt<C extends NamedCourt>(typed: string, courts: readonly C[]): CourtMatch<C> {
  const text = typed.trim();
  if (text === '') return { kind: 'none', suggestions: [] };
  if (/^\d+$/.test(text)) {
    const court = courts.find((c) => c.court_id === Number(text));
    return court ? { kind: 'found', court } : { kind: 'none', suggestions: [] };
  }
  const abbreviated = abbreviations().courts.get(abbreviationKey(text));
  if (abbreviated !== undefined) {
    const court = courts.find((c) => c.name === abbreviated);
    if (court) return { kind: 'found', court };
  }
  let words = courtNameTokens(text);
  const typeWord = abbreviations().types.get(abbreviationKey(text.match(/^\s*([\p{L}.]+)[\s–-]/u)?.[1] ?? ''));
  if (typeWord !== undefined && words.length > 1) words = [...courtNameTokens(typeWord), ...courtNameTokens(text.replace(/^\s*[\p{L}.]+[\s–-]+/u, ''))];

  const named = courts.map((court) => ({ court, tokens: courtNameTokens(court.name) }));
  const exact = named.filter(({ tokens }) => tokens.length === words.length && tokensFit(words, tokens) && words.every((w) => tokens.includes(w)));
  if (exact.length === 1) return { kind: 'found', court: exact[0]!.court };
  const fitting = named.filter(({ tokens }) => tokensFit(words, tokens)).map(({ court }) => court);
  if (fitting.length === 1) return { kind: 'found', court: fitting[0]! };
  if (fitting.length > 1) return { kind: 'ambiguous', candidates: fitting };
  const scored = named
    .map(({ court, tokens }) => ({ court, shared: words.filter((w) => w !== COURT_WORD && tokens.some((t) => wordFits(w, t))).length }))
    .filter((s) => s.shared > 0)
    .sort((a, b) => b.shared - a.shared);
  return { kind: 'none', suggestions: scored.slice(0, 3).map((s) => s.court) };
}
