/**
 * The search's vocabulary bridge: everyday Bulgarian words people type for things the law names otherwise
 * („уволнение“ for „прекратяване на трудовото правоотношение“, „фалит“ for „несъстоятелност“). Maintained here by
 * hand, from common usage, not from the corpus or the judged set: each entry says what a word means in the language
 * of the statutes. A query word with an entry is searched both as typed and as the entry's legal terms (see
 * `ranking.ts`, `TermGroup`), the legal terms with a lower weight (`EXPANSION_WEIGHT`), and the explanation names
 * the terms used.
 *
 * To add an entry: a few forms of the everyday word (they are stemmed, so one form per stem is enough) and the legal
 * terms (phrases are fine; their stopwords are dropped). Keep entries to real equivalents: a term that is only
 * related widens every query with the word.
 */
import { analyze, isIndexable, stem } from '../text/analysis.js';
import type { QueryTerm } from '../text/analysis.js';
import { EXPANSION_WEIGHT, type GroupStem, type TermGroup } from './ranking.js';
import type { ThesaurusSense } from '../text/thesaurus.js';

/** One entry: everyday words and the legal terms they stand for. */
export interface VocabularyEntry {
  words: readonly string[];
  law: readonly string[];
}

/** The maintained list (see the module comment). */
export const VOCABULARY: readonly VocabularyEntry[] = [
  // Work
  { words: ['уволнение', 'уволнен', 'уволни', 'уволняване', 'уволнят'], law: ['прекратяване', 'трудово правоотношение'] },
  { words: ['заплата', 'заплати', 'заплащане'], law: ['трудово възнаграждение'] },
  { words: ['шеф', 'шефа', 'началник'], law: ['работодател'] },
  { words: ['отпуска'], law: ['отпуск'] },
  { words: ['болничен', 'болнични'], law: ['временна неработоспособност'] },
  { words: ['майчинство'], law: ['бременност', 'раждане', 'отглеждане на дете'] },
  { words: ['осигуровки', 'осигуровките'], law: ['осигурителни вноски'] },
  { words: ['чужденец', 'чужденци'], law: ['гражданин на трета държава'] },
  { words: ['напусна', 'напускам', 'напуснах', 'напусне'], law: ['прекратяване', 'трудов договор'] },
  { words: ['отработвам', 'отработя', 'отработване'], law: ['предизвестие'] },
  // Money, debt, business
  { words: ['фалит', 'фалира', 'фалирал', 'фалирала', 'фалирали'], law: ['несъстоятелност'] },
  { words: ['заем', 'заема', 'назаем'], law: ['кредит'] },
  { words: ['ипотека', 'ипотечен'], law: ['кредит за недвижим имот'] },
  { words: ['фирма', 'фирмата', 'фирми'], law: ['търговец', 'дружество'] },
  { words: ['ООД', 'ЕООД'], law: ['дружество с ограничена отговорност'] },
  { words: ['капаро', 'капарото'], law: ['задатък'] },
  { words: ['дълг', 'дългове', 'дълговете'], law: ['задължение'] },
  { words: ['спестявания', 'депозит', 'депозити'], law: ['влог'] },
  { words: ['биткойн', 'крипто', 'криптовалута', 'криптовалути'], law: ['криптоактив'] },
  { words: ['счетоводител', 'счетоводни'], law: ['счетоводство', 'финансов отчет'] },
  { words: ['реклама', 'рекламата'], law: ['търговско съобщение'] },
  // Penalties, courts, authorities
  { words: ['глоба', 'глоби', 'глобата', 'глобен', 'глобят'], law: ['наказание', 'имуществена санкция'] },
  { words: ['жалба', 'оплакване', 'обжалвам', 'оспоря', 'оспорвам'], law: ['обжалване'] },
  { words: ['подкуп', 'рушвет', 'рушвети'], law: ['корупция'] },
  { words: ['затвор', 'затвора', 'затворът'], law: ['лишаване от свобода'] },
  { words: ['крал', 'краде', 'открадна', 'откраднаха', 'открадне', 'крадец'], law: ['кражба'] },
  { words: ['удари', 'ударил', 'побой', 'пребит', 'пребиха'], law: ['телесна повреда'] },
  { words: ['лъжа', 'лъжи', 'оклевети', 'набеди'], law: ['клевета'] },
  { words: ['пиян', 'пияно', 'пийнал', 'промил', 'промила', 'дрегер'], law: ['алкохол', 'концентрация на алкохол в кръвта'] },
  { words: ['книжка', 'книжката'], law: ['свидетелство за управление'] },
  { words: ['полиция', 'полицията', 'полицай', 'полицаи'], law: ['полицейски орган', 'Министерството на вътрешните работи'] },
  { words: ['доносник', 'сигнализиране'], law: ['лице, подаващо сигнал'] },
  { words: ['вот', 'гласувам', 'гласува'], law: ['гласуване'] },
  // Insurance, consumers
  { words: ['франшиза', 'франшизата'], law: ['самоучастие'] },
  { words: ['застраховка', 'застраховката', 'застраховки'], law: ['застраховане', 'застрахователен договор'] },
  { words: ['катастрофа', 'катастрофата'], law: ['пътнотранспортно произшествие'] },
  { words: ['кола', 'колата', 'автомобил', 'коли'], law: ['моторно превозно средство'] },
  { words: ['шофьор', 'шофьорът'], law: ['водач'] },
  { words: ['почивка', 'екскурзия', 'екскурзии'], law: ['туристически пакет', 'туристическо пътуване'] },
  { words: ['онлайн', 'интернет'], law: ['договор от разстояние', 'цифрово съдържание'] },
  { words: ['кеш'], law: ['плащане в брой'] },
  { words: ['апликация'], law: ['цифрова услуга'] },
  { words: ['турагенция', 'турагент'], law: ['туроператор', 'туристически агент'] },
  { words: ['хакер', 'хакерска', 'кибератака'], law: ['инцидент', 'киберсигурност'] },
  // Family, property
  { words: ['развод', 'развода'], law: ['прекратяване на брака'] },
  { words: ['оженим', 'оженя', 'женитба', 'сватба'], law: ['брак', 'сключване на брак'] },
  { words: ['пълнолетна', 'пълнолетен', 'непълнолетна', 'непълнолетен'], law: ['пълнолетие', 'осемнадесет години'] },
  { words: ['почина', 'починал', 'починала', 'умря', 'почине'], law: ['смърт', 'наследодател'] },
  { words: ['пенсия', 'пенсионирам', 'пенсиониране'], law: ['пенсия за осигурителен стаж и възраст'] },
  { words: ['наследство', 'наследството'], law: ['наследяване', 'наследник'] },
  { words: ['апартамент', 'апартамента', 'къща'], law: ['жилище', 'недвижим имот'] },
  { words: ['инвалид', 'инвалиди', 'инвалидност'], law: ['хора с увреждания', 'увреждане'] },
  // Health, food, environment, energy
  { words: ['лекар', 'доктор'], law: ['медицински специалист'] },
  { words: ['болница', 'болницата'], law: ['лечебно заведение'] },
  { words: ['етикет', 'етикета'], law: ['етикетиране'] },
  { words: ['пестициди', 'пестицид', 'препарати'], law: ['продукти за растителна защита'] },
  { words: ['боклук', 'боклука', 'сметище'], law: ['отпадъци', 'депо'] },
  { words: ['дърва', 'дървата'], law: ['дървесина', 'сеч'] },
  { words: ['ракия', 'ракията'], law: ['спиртни напитки', 'дестилат'] },
  { words: ['ток', 'тока', 'електричество'], law: ['електрическа енергия'] },
  { words: ['соларни', 'соларен', 'фотоволтаици'], law: ['възобновяеми източници'] },
  { words: ['саниране', 'изолация'], law: ['енергийна ефективност'] },
  // Gambling, weapons, security
  { words: ['залагания', 'залагане', 'казино', 'тото'], law: ['хазартни игри', 'организатор на хазартни игри'] },
  { words: ['пистолет', 'пушка'], law: ['огнестрелно оръжие'] },
  { words: ['охранител', 'охранители'], law: ['охранителна дейност'] },
];

/** An expansion of one everyday word: the legal term's stems and the term as written. */
interface Expansion {
  stems: string[];
  term: string;
}

let byStem: Map<string, Expansion[]> | undefined;

/** The vocabulary by the stems of its everyday words; built on first use. */
function expansions(): Map<string, Expansion[]> {
  if (byStem) return byStem;
  byStem = new Map();
  for (const entry of VOCABULARY) {
    const law = entry.law.map((term) => ({ term, stems: [...new Set(analyze(term))] }));
    for (const word of entry.words) {
      const lower = word.toLowerCase();
      if (!isIndexable(lower)) continue;
      const s = stem(lower);
      const list = byStem.get(s) ?? [];
      for (const e of law) if (!list.some((x) => x.term === e.term)) list.push(e);
      byStem.set(s, list);
    }
  }
  return byStem;
}

/**
 * The query's words as term groups: each word's stem, plus the stems of the legal terms the vocabulary gives for it
 * (weight `EXPANSION_WEIGHT`, `expansion` = the term as written). A legal stem the query already holds as a word of
 * its own, or that another group already has, is not added twice.
 */
export function termGroups(terms: readonly QueryTerm[]): TermGroup[] {
  const typed = new Set(terms.map((t) => t.stem));
  const added = new Set<string>();
  return terms.map((term) => {
    const group: TermGroup = { term, stems: [{ stem: term.stem, weight: 1 }] };
    for (const e of expansions().get(term.stem) ?? []) {
      for (const s of e.stems) {
        if (typed.has(s) || added.has(s)) continue;
        added.add(s);
        group.stems.push({ stem: s, weight: EXPANSION_WEIGHT, expansion: e.term });
      }
    }
    return group;
  });
}

/**
 * Terms the law defines apart, which the general thesaurus lists as synonyms of one another (it gives „наказание“ as a
 * sense of „присъда“ and „присъда“ as one of „осъждане“: in everyday speech a sentence is its punishment). No two
 * words of one list are ever searched or named as synonyms of each other (see {@link withThesaurus}), whatever the
 * articles found. Written by reading the law, each list with the provision that sets its terms apart; keep it to
 * such provisions. Words are stemmed, so one form of each is enough.
 */
export const DISTINCT_LEGAL_TERMS: readonly { terms: readonly string[]; law: string }[] = [
  // The acts of a court and what a присъда decides: „(1) Съдът постановява: 1. присъда, … 2. решение, … 3. определение
  // … (2) Председателят на съда … постановяват разпореждания.“ (чл. 32); „При постановяване на присъдата съдът обсъжда
  // и решава …: 3. подлежи ли подсъдимият на наказание, какво наказание да се определи …; 5. … какъв да бъде
  // изпитателният срок при условно осъждане“ (чл. 301, ал. 1).
  { terms: ['присъда', 'решение', 'определение', 'разпореждане', 'наказание', 'осъждане'], law: 'НПК, чл. 32 и чл. 301, ал. 1' },
];

let apart: Map<string, Set<string>> | undefined;

/** Per stem of a word of {@link DISTINCT_LEGAL_TERMS}, the stems of the words the law sets apart from it. */
function distinctTerms(): Map<string, Set<string>> {
  if (apart) return apart;
  apart = new Map();
  for (const { terms } of DISTINCT_LEGAL_TERMS) {
    const stems = terms.map((t) => stem(t.toLowerCase()));
    for (const s of stems) {
      const others = apart.get(s) ?? new Set<string>();
      for (const o of stems) if (o !== s) others.add(o);
      apart.set(s, others);
    }
  }
  return apart;
}

/** Weight of a thesaurus synonym relative to the typed word (below the hand-kept vocabulary's {@link EXPANSION_WEIGHT}). */
export const THESAURUS_WEIGHT = 0.4;
/** Best candidate articles whose words decide which thesaurus senses the rest of the query supports. */
export const SENSE_FEEDBACK_ARTICLES = 20;
/** A synonym is used when at least this many of the feedback articles that lack the word hold it. */
export const SENSE_SUPPORT = 4;

/** One of the best candidate articles, as the thesaurus's sense check reads it (see {@link withThesaurus}). */
export interface FeedbackArticle {
  /** Indexes of the query's term groups the article matched (`ArticleHit.terms`). */
  groups: readonly number[];
  /** The analysed stems of the article (its heading and the start of its text). */
  stems: ReadonlySet<string>;
}

/**
 * Adds thesaurus synonyms to the query's term groups, only for the senses the rest of the query supports: a synonym
 * is added (weight {@link THESAURUS_WEIGHT}, `expansion` = the synonym as the thesaurus writes it) when it is a single
 * stem that at least {@link SENSE_SUPPORT} of the query's best candidate articles (`feedback`: the best
 * {@link SENSE_FEEDBACK_ARTICLES} by score, see `search`) hold *in place of the word*: articles that the other words
 * of the question found and that do not hold the word itself. So a word reaches a synonym the law writes for it when
 * the articles the rest of the question found speak of it by that name, and a sense of the word that nothing else in
 * the question is about stays out.
 *
 * Why only articles without the word: an article that holds the word and the "synonym" side by side uses them as two
 * things. Counted in every best article, „наказание“ passed for a synonym of „присъда“ (the thesaurus lists it among
 * the senses of „присъда“) because nearly every article on a присъда also names the наказание it imposes: the
 * check measured that the two words go together, not that one stands for the other. A word the law writes is thus
 * searched as the law writes it, and its synonyms are used where the law says the same thing otherwise (everyday words
 * absent from the statutes are where they help). Pairs the law sets apart that still meet there (a question about a
 * присъда finds articles on the наказание without the word присъда) are kept out by {@link DISTINCT_LEGAL_TERMS}.
 *
 * Stems the query already searches are not added twice, and a word the vocabulary ({@link VOCABULARY}) knows gets
 * none: its legal terms say what it means in the law better than a general synonym.
 * @param thesaurus senses by headword stem (`text/thesaurus.ts`, restricted to the index's stems).
 * @returns new groups (the given ones are not changed); the same array when nothing was added.
 */
export function withThesaurus(
  groups: readonly TermGroup[],
  thesaurus: ReadonlyMap<string, readonly ThesaurusSense[]>,
  feedback: readonly FeedbackArticle[],
): readonly TermGroup[] {
  const searched = new Set(groups.flatMap((g) => g.stems.map((s) => s.stem)));
  let changed = false;
  const result = groups.map((group, g) => {
    const senses = thesaurus.get(group.term.stem);
    // A word the hand-kept vocabulary knows is searched by the law's terms for it, not by general synonyms.
    if (senses === undefined || group.term.surfaces.length === 0 || group.stems.some((s) => s.expansion !== undefined)) return group;
    const without = feedback.filter((a) => !a.groups.includes(g));
    const setApart = distinctTerms().get(group.term.stem);
    const added: GroupStem[] = [];
    for (const sense of senses) {
      for (const synonym of sense.synonyms) {
        const [only, ...rest] = synonym.stems;
        if (only === undefined || rest.length > 0 || searched.has(only) || setApart?.has(only) === true) continue;
        if (without.filter((a) => a.stems.has(only)).length < SENSE_SUPPORT) continue;
        searched.add(only);
        added.push({ stem: only, weight: THESAURUS_WEIGHT, expansion: synonym.term, source: 'thesaurus' });
      }
    }
    if (added.length === 0) return group;
    changed = true;
    return { term: group.term, stems: [...group.stems, ...added] };
  });
  return changed ? result : groups;
}

/**
 * Weight of the best translation of a query word (`withTranslations`) relative to the word itself. Chosen on the tuning
 * part of the judged set only: 0, 0.25 and 0.5 scored 0.67, 0.71 and 0.68 article success@3.
 */
export const TRANSLATION_WEIGHT = 0.25;

/** Translations searched per word of a query (its best ones): each adds postings to read. */
export const TRANSLATIONS_SEARCHED = 2;

/**
 * The lay-to-legal translation model applied to a query (`subject-index/translation.ts`): each typed word's best
 * {@link TRANSLATIONS_SEARCHED} translations (`translations`, best first) are searched with it, the best with weight {@link TRANSLATION_WEIGHT} and
 * each other in proportion to its probability (`expansion` = the law's word, `from` = the word typed). Stems the
 * query already searches are not added twice; pairs the law sets apart ({@link DISTINCT_LEGAL_TERMS}) are not
 * translations of each other.
 * @param translations a stem's translations, `[stem, probability, word]` best first (`SearchIndex.translations`).
 * @returns new groups (the given ones are not changed); the same array when nothing was added.
 */
export function withTranslations(
  groups: readonly TermGroup[],
  translations: (stem: string) => readonly [string, number, string][],
): readonly TermGroup[] {
  const searched = new Set(groups.flatMap((g) => g.stems.map((s) => s.stem)));
  let changed = false;
  const result = groups.map((group) => {
    const typed = group.term.surfaces[0];
    if (typed === undefined) return group;
    const list = translations(group.term.stem);
    const best = list[0]?.[1] ?? 0;
    const setApart = distinctTerms().get(group.term.stem);
    const added: GroupStem[] = [];
    for (const [target, p, word] of list.slice(0, TRANSLATIONS_SEARCHED)) {
      if (searched.has(target) || setApart?.has(target) === true) continue;
      searched.add(target);
      added.push({ stem: target, weight: (TRANSLATION_WEIGHT * p) / best, expansion: word, source: 'translation', from: typed });
    }
    if (added.length === 0) return group;
    changed = true;
    return { term: group.term, stems: [...group.stems, ...added] };
  });
  return changed ? result : groups;
}
