/**
 * Which document of the corpus an act is, as a court decision writes it (docs/sandbox.md, "Case law under the
 * articles"): an abbreviation („АПК“, „ЗЗД“, the initials of a title: „ЗНА“), or a title in any form
 * („Наказателно-процесуалния кодекс“, „Закона за държавния бюджет на Република България за 2003 г.“, „Кодекса на
 * труда“), „Конституцията“ (the Constitution of the Republic, not the ITU's). The title and abbreviation rules are
 * those of `pravo cite` (`shared/act-match.ts`: `namedAct`, `matchAct` and its `fits`), run over the few served
 * documents a lookup built once per corpus picks (down the first letters of a title's words, and by initials; the
 * acts amending others apart, indexed only when a title written may be one), so that each act costs little and each
 * written form is matched once (memoized).
 *
 * Beyond `pravo cite`, read in court decisions: „Основния закон“ is the Constitution; „РБ“ in a title is „Република
 * България“; an abbreviation that is not a customary one may spell a title beyond its initials ({@link
 * abbreviationFits}: „ЗДвП“, Закон за Движението по Пътищата; „ЗРВиКУ“, its „и“ a conjunction; „ЗИНЗС“, „под“ left
 * out) when nothing else fits. A document whose title is in the oblique form („Закона за …“, a slip of the source) is
 * no act a citation names.
 *
 * Which of several served documents of the same title (an act and a later act of the same name, or texts of one act):
 * only those dated on or before the decision can be the one it cites; of these the consolidated text (the latest
 * `as_of`), else the newest. An act that only amends another („Закон за изменение и допълнение на …“) is the act only
 * when cited by its own title, and only when one such act of that title is dated on or before the decision.
 */
import { matchAct, namedAct, nominativeOf, titleWords, type NamedAct, type ResultRef } from '../../shared/act-match.js';
import { AMENDING_TITLE, initials } from '../../shared/act-titles.js';
import type { ActAsWritten, Citation } from '../../shared/citations.js';
import type { CorpusDocument } from './reader.js';

/**
 * Why an act as written is not a served document:
 * - `act_not_identified`: named by its kind alone („Наредбата“, „Правилника“, „Закона“): which one, the text says
 *   elsewhere;
 * - `eu_or_international`: an act of the European Union or an international treaty („Регламент (ЕС) № 1234/2013“,
 *   „ДФЕС“, „Конвенцията за защита на правата на човека …“), which the corpus does not serve;
 * - `amending_act`: an act amending another, by abbreviation („ЗИД“, „ЗИДЗСВ“) or by a title that several served
 *   amending acts (dated on or before the decision) share;
 * - `ambiguous_act`: several served acts fit (an abbreviation that is the initials of several titles, two acts of the
 *   same title and date);
 * - `act_not_in_corpus`: no served document is the act (a by-law, an act the corpus lacks, or only later acts of its
 *   title).
 */
export type UnresolvedActReason = 'act_not_identified' | 'eu_or_international' | 'amending_act' | 'ambiguous_act' | 'act_not_in_corpus';

/** The outcome of {@link ActResolver.resolveActDetailed}. */
export type ActResolution =
  /**
   * `document`: the index into the documents the resolver was built of; `written`: the act as written, cut to the words
   * its title takes (a title read in running text may run on: „Конституцията на Република България във фазата …“ →
   * „Конституцията на Република България“); an abbreviation whole.
   */
  | { kind: 'resolved'; document: number; written: string }
  /** `candidates`: the documents that fit but could not be told apart (`ambiguous_act`, `amending_act`), else `[]`. */
  | { kind: 'unresolved'; reason: UnresolvedActReason; candidates: number[] };

/** Resolves acts as decisions write them, against one corpus (see {@link actResolver}). */
export interface ActResolver {
  /**
   * The served document an act is (its index into the documents), as a decision of `decisionDate` writes it
   * (`written`: an abbreviation or a title, as `parseCitations` reads it: „АПК“, „Закона за съдебната власт“);
   * undefined when it is none, or cannot be told. `decisionDate` `YYYY-MM-DD`; `''` when unknown (no date rule).
   */
  resolveAct(written: string, decisionDate: string): number | undefined;
  /** As {@link resolveAct}, with the reason when unresolved. */
  resolveActDetailed(written: string, decisionDate: string): ActResolution;
}

/** A served document as the lookup holds it. */
interface Candidate {
  index: number;
  ref: ResultRef;
  /** Its title's key (`titleKey`): the same act's texts share it. */
  key: string;
  /** How many words its title has (as `fits` counts them). */
  words: number;
  amending: boolean;
  date: string;
  consolidated: boolean;
  asOf: string;
}

/** What a written act matched, before the decision's date picks one document. */
type Matched =
  /** Documents of one title, one act, which the date rule picks from; `written`: the act as written, cut to its title. */
  | { kind: 'title'; candidates: Candidate[]; amending: boolean; written: string }
  | { kind: 'unresolved'; reason: UnresolvedActReason; candidates: Candidate[] };

/** The citation `namedAct` is given: it reads its text only for the search of a two-letter abbreviation (none here). */
const NO_CITATION = { text: '' } as Citation;

/** An abbreviation as the parser reads one (`citations.ts`, ABBREVIATION_WRITTEN). */
const ABBREVIATION = /^[А-Я]{2}[А-Яа-я]{0,6}$/u;

/** Words that name an act of the European Union or an international treaty (first word of the title as written). */
const INTERNATIONAL_WORD =
  /^(?:регламент|директив|решение(?:то)?$|договор|конвенци|харт|протокол|пакт|споразумени|всеобщ|европейск|международн|устав|декларация|спогодба)/iu;
/**
 * Abbreviations of treaties and acts of the European Union that decisions cite (ДФЕС, ДЕС; the Convention for the
 * Protection of Human Rights, КЗПЧОС / ЕКПЧ; the International Covenants, МПГПП / МПИСКП; the Charter, ХОПЕС; the
 * General Data Protection Regulation, ОРЗД …).
 */
const INTERNATIONAL_ABBREVIATIONS = new Set([
  'ДФЕС', 'ДЕС', 'ДЕО', 'ЕКПЧ', 'КЗПЧОС', 'ЕКЗПЧОС', 'МПГПП', 'МПИСКП', 'ХОПЕС', 'ХОП', 'ВДПЧ', 'КПД', 'ЕСХ', 'КПХУ', 'ОРЗД',
]);
/**
 * Abbreviations court decisions use in a sense their initials do not give among the served acts: ЗКС is the Закон за
 * Конституционен съд (not served), not the served Закон за Камарата на строителите. Read as customary abbreviations.
 */
const DECISION_ABBREVIATIONS: Readonly<Record<string, string>> = {
  ЗКС: 'Закон за Конституционен съд',
};
/** Titles of the Constitution beside its own: „Основния закон“ (the Basic Law). */
const BASIC_LAW = /^основни(?:я|ят)?\s+закон(?!\p{L})/iu;
/** „РБ“ in a title: „Република България“. */
const RB = /(?<!\p{L})РБ(?!\p{L})/gu;

/**
 * One word's step in the lookup of titles: its first two letters, lower case. A title fits words written only when
 * each of its words is the same word as the one written at its place (`sameTitleWord`: equal, or the same but for the
 * last letters of words of four letters or more), so each of its words begins as the one written there: a title is
 * found down the path of its words' steps, as far as the words written go.
 */
function stepOf(word: string): string {
  return word.slice(0, 3).toLowerCase().normalize('NFC').slice(0, 2);
}

/** A node of the lookup of titles: the titles whose words' steps lead here, and the steps further. */
interface TitleNode {
  titles: Candidate[];
  next: Map<string, TitleNode>;
}

/** Puts a title (its words in the nominative) in a lookup. */
function insert(root: TitleNode, words: readonly string[], candidate: Candidate): void {
  let node = root;
  for (const word of words) {
    const step = stepOf(word);
    let next = node.next.get(step);
    if (next === undefined) node.next.set(step, (next = { titles: [], next: new Map() }));
    node = next;
  }
  node.titles.push(candidate);
}

/** The steps of the third word of an amending act's title („изменение“, „допълнение“, „отмяна“, „отменяне“). */
const AMENDING_STEPS = new Set(['из', 'до', 'от']);

/** A title that begins with its head noun in the oblique form: a slip of the source (see {@link actResolver}). */
const OBLIQUE_TITLE = /^\s*(?:Закона|Кодекса)\s/u;

/**
 * Prepositions that `initials` keeps but abbreviations in use leave out („Закон за изпълнение на наказанията и
 * задържането под стража“: ЗИНЗС).
 */
const MORE_PREPOSITIONS = new Set(['под', 'над', 'пред', 'без', 'след', 'между', 'през', 'из', 'у', 'спрямо']);

/** The words of a title an abbreviation takes a letter of, as `initials` reads them (no preposition or conjunction). */
function letteredWords(title: string): string[] {
  return (title.match(/\p{L}+/gu) ?? []).filter((w) => {
    let lettered = LETTERED.get(w);
    if (lettered === undefined) LETTERED.set(w, (lettered = initials(w) !== ''));
    return lettered;
  });
}
/** Whether `initials` takes a letter of a word, by word (the titles of a corpus share most of their words). */
const LETTERED = new Map<string, boolean>();

/**
 * The parts of an abbreviation, one per word of the title: a capital and the lower-case letters after it („ЗДвП“ →
 * З, Дв, П); an „и“ between two capitals is the conjunction and stands for no word („ЗРВиКУ“). Undefined when it does
 * not begin with a capital.
 */
function segmentsOf(abbreviation: string): string[] | undefined {
  const letters = abbreviation.replace(/(?<=\p{Lu})и(?=\p{Lu})/gu, '');
  const segments = letters.match(/\p{Lu}\p{Ll}*/gu) ?? [];
  return segments.length > 0 && segments.join('') === letters ? segments : undefined;
}

/**
 * Whether an abbreviation spells a title: each of its parts ({@link segmentsOf}) begins a word of the title, in order,
 * one part per word that is not a preposition or a conjunction („ЗДвП“: Закон за движението по пътищата; „ЗЗО“:
 * Закона за здравното осигуряване, in any form), the prepositions `initials` keeps („под“) left out or not.
 */
export function abbreviationFits(abbreviation: string, title: string): boolean {
  const segments = segmentsOf(abbreviation);
  if (segments === undefined) return false;
  const words = letteredWords(title);
  for (const list of [words, words.filter((w) => !MORE_PREPOSITIONS.has(w.toLowerCase()))]) {
    if (list.length === segments.length && segments.every((s, i) => list[i]!.toLowerCase().startsWith(s.toLowerCase()))) return true;
  }
  return false;
}

/**
 * The first `count` words of a title as written (words as `titleWords` counts them: a quotation mark or a bracket alone
 * is none; „РБ“ counts as the two words it stands for), without the punctuation after the last.
 */
function leadingWords(text: string, count: number): string {
  let taken = 0;
  let end = 0;
  for (const token of text.matchAll(/[^\s„“”"«»()]+/gu)) {
    if (taken >= count) break;
    if (token[0].replace(/[.,;:]+$/u, '') === '') continue;
    taken += token[0] === 'РБ' ? 2 : 1;
    end = token.index + token[0].length;
  }
  return text.slice(0, end).replace(/[,;:]+$/u, '');
}

/** A match with its candidates in the order the date rule reads them: consolidated (latest `as_of` first), newest. */
function ordered(matched: Matched): Matched {
  if (matched.kind !== 'title') return matched;
  const candidates = [...matched.candidates].sort(
    (a, b) => Number(b.consolidated) - Number(a.consolidated) || (a.consolidated ? b.asOf.localeCompare(a.asOf) : 0) || b.date.localeCompare(a.date),
  );
  return { ...matched, candidates };
}

/**
 * The resolver of the acts `documents` serve (court decisions are never an act cited): builds the lookup once (O(n) in
 * the documents), then each written form is matched once (memoized) and each call picks by date.
 */
export function actResolver(documents: readonly CorpusDocument[]): ActResolver {
  // Acts that amend another are looked up apart, and only when needed: a title fits one only when its third word is
  // „изменение“, „допълнение“ or „отмяна“ (so its step is one of AMENDING_STEPS), and no abbreviation is one.
  const titles: TitleNode = { titles: [], next: new Map() };
  const amendingTitles: TitleNode = { titles: [], next: new Map() };
  const all: Candidate[] = [];
  const amending: Candidate[] = [];
  const byInitials = new Map<string, Candidate[]>();
  const push = (map: Map<string, Candidate[]>, key: string, candidate: Candidate): void => {
    const list = map.get(key);
    if (list) list.push(candidate);
    else map.set(key, [candidate]);
  };
  documents.forEach((document, index) => {
    // A title in the oblique form („Закона за здравното осигуряване“) is a slip of the source, cut from an amending
    // act's title: it does not say which act the document is.
    if (document.court_id != null || OBLIQUE_TITLE.test(document.title)) return;
    const title = document.title.trim();
    // The words `fits` compares a written title with: the title's, in the nominative (its key, `titleKey`, joins them).
    const words = titleWords(nominativeOf(titleWords(title)));
    if (words.length === 0) return;
    const candidate: Candidate = {
      index,
      ref: { document_id: document.document_id, collection: '', title, date: document.date },
      key: words.join(' ').toLowerCase().normalize('NFC'),
      words: words.length,
      amending: AMENDING_TITLE.test(title),
      date: document.date,
      consolidated: document.consolidated === true,
      asOf: document.as_of ?? document.date,
    };
    if (candidate.amending) {
      amending.push(candidate);
      return;
    }
    insert(titles, words, candidate);
    all.push(candidate);
    push(byInitials, initials(title), candidate);
  });
  let amendingIndexed = false;
  /** The amending acts in their lookup, and by their initials: built when first needed. */
  const byAmendingInitials = new Map<string, Candidate[]>();
  const indexAmending = (): void => {
    if (amendingIndexed) return;
    amendingIndexed = true;
    for (const candidate of amending) {
      insert(amendingTitles, titleWords(nominativeOf(titleWords(candidate.ref.title))), candidate);
      push(byAmendingInitials, initials(candidate.ref.title), candidate);
    }
  };
  /** By the initials of the words that are not prepositions of any kind: built when first needed (rarely). */
  let byLooseInitials: Map<string, Candidate[]> | undefined;
  const looseInitials = (): Map<string, Candidate[]> => {
    if (byLooseInitials) return byLooseInitials;
    byLooseInitials = new Map();
    for (const candidate of all) {
      const loose = letteredWords(candidate.ref.title).filter((w) => !MORE_PREPOSITIONS.has(w.toLowerCase()));
      if (loose.length > 0) push(byLooseInitials, loose.map((w) => w[0]!.toUpperCase()).join(''), candidate);
    }
    return byLooseInitials;
  };

  const byId = new Map([...all, ...amending].map((candidate) => [candidate.ref.document_id, candidate]));

  /** The served documents whose titles may fit words written: each of their words begins as the one written there. */
  const titleCandidates = (words: readonly string[]): Candidate[] => {
    const found: Candidate[] = [];
    const amendingToo = words.length >= 3 && AMENDING_STEPS.has(stepOf(words[2]!));
    if (amendingToo) indexAmending();
    for (const root of amendingToo ? [titles, amendingTitles] : [titles]) {
      let node: TitleNode | undefined = root;
      for (let n = 0; n < words.length && node !== undefined; n++) {
        node = node.next.get(stepOf(words[n]!));
        if (node) found.push(...node.titles);
      }
    }
    return found;
  };

  const matchOf = (named: NamedAct, candidates: readonly Candidate[], written: string): Matched | undefined => {
    const outcome = matchAct(named, candidates.map((c) => c.ref));
    if (outcome.kind === 'not_found') return undefined;
    const matched = outcome.kind === 'found' ? [outcome.document, ...outcome.others] : outcome.candidates;
    const found = matched.map((ref) => byId.get(ref.document_id)!);
    const keys = new Set(found.map((c) => c.key));
    if (keys.size > 1) return { kind: 'unresolved', reason: 'ambiguous_act', candidates: found };
    const taken = named.kind === 'title' ? leadingWords(written, found[0]!.words) : written;
    return { kind: 'title', candidates: found, amending: found.every((c) => c.amending), written: taken };
  };

  /** An abbreviation that spells a title beyond its initials ({@link abbreviationFits}: „ЗДвП“, „ЗРВиКУ“, „ЗИНЗС“). */
  const spelledOut = (abbreviation: string): Matched | undefined => {
    const segments = segmentsOf(abbreviation);
    if (segments === undefined) return undefined;
    const capitals = segments.map((s) => s[0]!).join('');
    const found = [...new Set([...(byInitials.get(capitals) ?? []), ...(looseInitials().get(capitals) ?? [])])].filter(
      (candidate) => !candidate.amending && abbreviationFits(abbreviation, candidate.ref.title),
    );
    if (found.length === 0) return undefined;
    if (new Set(found.map((c) => c.key)).size > 1) return { kind: 'unresolved', reason: 'ambiguous_act', candidates: found };
    return { kind: 'title', candidates: found, amending: false, written: abbreviation };
  };

  const match = (written: string): Matched => {
    const text = written.trim().replace(/\s+/gu, ' ');
    const customary = DECISION_ABBREVIATIONS[text];
    if (customary !== undefined) {
      const matched = match(customary);
      return matched.kind === 'title' ? { ...matched, written: text } : matched;
    }
    if (ABBREVIATION.test(text)) {
      if (INTERNATIONAL_ABBREVIATIONS.has(text)) return { kind: 'unresolved', reason: 'eu_or_international', candidates: [] };
      const act: ActAsWritten = { kind: 'abbreviation', text, start: 0, end: text.length };
      const named = namedAct(act, NO_CITATION);
      const candidates = named.title !== undefined ? titleCandidates(titleWords(named.title)) : (byInitials.get(text) ?? []);
      // A customary abbreviation means its title; another may be spelled out beyond the initials („ЗДвП“, „ЗИНЗС“).
      const matched = matchOf(named, candidates, text) ?? (named.title === undefined ? spelledOut(text) : undefined);
      if (matched) return matched;
      // Only acts amending another have these initials („ЗИДЗСВ“), or the abbreviation says so („ЗИД“).
      if (/^[ЗК][ИДО]/u.test(text)) indexAmending();
      const amendingAct = (!byInitials.has(text) && byAmendingInitials.has(text)) || /^З(?:И|Д|ИД)$/u.test(text);
      return { kind: 'unresolved', reason: amendingAct ? 'amending_act' : 'act_not_in_corpus', candidates: [] };
    }
    const basicLaw = BASIC_LAW.exec(text);
    const title = basicLaw ? 'Конституцията на Република България' : text.replace(RB, 'Република България');
    // The act as written, cut to the words of a title that fits (`title` may have more words than `text`).
    const writtenOf = (matched: Matched | undefined): Matched | undefined =>
      matched?.kind === 'title' ? { ...matched, written: basicLaw ? basicLaw[0] : leadingWords(text, (matched.written.match(/\S+/gu) ?? []).length) } : matched;
    const words = titleWords(title);
    if (words.length === 0) return { kind: 'unresolved', reason: 'act_not_identified', candidates: [] };
    if (INTERNATIONAL_WORD.test(words[0]!)) {
      // A ratified treaty may be served under its own title; otherwise it is not in the corpus.
      const named = namedAct({ kind: 'title', text: title, start: 0, end: title.length }, NO_CITATION);
      return writtenOf(matchOf(named, titleCandidates(named.words), title)) ?? { kind: 'unresolved', reason: 'eu_or_international', candidates: [] };
    }
    const named = namedAct({ kind: 'title', text: title, start: 0, end: title.length }, NO_CITATION);
    // One word (other than the Constitution, which `namedAct` reads whole) names a kind of act, not an act.
    if (named.words.length < 2) return { kind: 'unresolved', reason: 'act_not_identified', candidates: [] };
    return writtenOf(matchOf(named, titleCandidates(named.words), title)) ?? { kind: 'unresolved', reason: 'act_not_in_corpus', candidates: [] };
  };

  const memo = new Map<string, Matched>();
  const resolveActDetailed = (written: string, decisionDate: string): ActResolution => {
    let matched = memo.get(written);
    if (matched === undefined) memo.set(written, (matched = ordered(match(written))));
    if (matched.kind === 'unresolved') return { kind: 'unresolved', reason: matched.reason, candidates: matched.candidates.map((c) => c.index) };
    const dated = (c: Candidate): boolean => decisionDate === '' || c.date <= decisionDate;
    // Candidates are ordered: consolidated texts first (latest `as_of` first), then the others, newest first. The
    // first dated on or before the decision is the one, unless the next such one leaves a doubt.
    const candidates = matched.candidates;
    let first = 0;
    while (first < candidates.length && !dated(candidates[first]!)) first++;
    if (first === candidates.length) return { kind: 'unresolved', reason: 'act_not_in_corpus', candidates: [] };
    const chosen = candidates[first]!;
    let second = first + 1;
    while (second < candidates.length && !dated(candidates[second]!)) second++;
    const next = candidates[second];
    if (matched.amending && next !== undefined) {
      return { kind: 'unresolved', reason: 'amending_act', candidates: matched.candidates.filter(dated).map((c) => c.index) };
    }
    if (!chosen.consolidated && next !== undefined && next.date === chosen.date) {
      return { kind: 'unresolved', reason: 'ambiguous_act', candidates: matched.candidates.filter(dated).map((c) => c.index) };
    }
    return { kind: 'resolved', document: chosen.index, written: matched.written };
  };
  return {
    resolveActDetailed,
    resolveAct: (written, decisionDate) => {
      const resolution = resolveActDetailed(written, decisionDate);
      return resolution.kind === 'resolved' ? resolution.document : undefined;
    },
  };
}
