/**
 * The provisions court decisions cite, linked both ways (docs/sandbox.md, "Case law under the articles"): every
 * paragraph (¶) of every court decision of the corpus is read for citations of acts („чл. 4, ал. 1 от Конституцията“,
 * „чл. 185 – 196 от АПК“, „§ 2 от ПЗР на …“, „чл. 27 от същия закон“) with the project's parser (`parseCitations`,
 * running text), each act is resolved to a served document (`act-resolver.ts`) and each article or § to its element,
 * so that
 * - an element of a statute carries `cited_by`: the decisions that cite it, one entry each with the number of its
 *   citations and the first paragraph citing it, newest first;
 * - a decision's paragraph carries `cites`: the provisions it cites, resolved, in the order written.
 *
 * How a citation is read:
 * - its act: the one written after it or after its group („чл. 3, 4 и 5 от ЗОП“), an aside in brackets after a
 *   citation skipped („чл. 17 (право на собственост) и чл. 32 … от Конституцията“); in a chain „чл. 49 вр. чл. 45
 *   ЗЗД“ the act of the last citation is every one's (`withConnectedActs`, as `pravo cite` reads a memo); „от същия
 *   закон“ the act the decision named last in a citation before it; an abbreviation the decision defines („Закона за
 *   администрацията (ЗА)“) the act it defines, a customary one (`CUSTOMARY_ABBREVIATIONS`) its title; a budget law's
 *   year after its title („… за 2003 г.“) is part of the title, and so is a by-law's number („Наредба № 4“);
 * - its element: the first element of the act with the article's ref (Latin lookalike letters read as Cyrillic:
 *   `articleRefCandidates`), or the §'s (`§2`: the act's own §, which a consolidated text prints before the §§ of the
 *   amending acts it reprints); a range („чл. 185 – 196“) each article the act has in it (at most
 *   {@link RANGE_CAP}), a list („чл. 3, 4 и 5“) each article listed. A paragraph (ал.) or point (т.) cited is part of
 *   the text shown, not of the element.
 * - A citation inside a quotation of another act's text counts as any other. The decision's header (its first
 *   paragraph, the title, and a paragraph naming the panel, „… в състав: …“, among the first three) is not read.
 *
 * Pure over the documents in memory: the parser runs once per paragraph that holds „чл“ or „§“.
 */
import { CUSTOMARY_ABBREVIATIONS } from '../../shared/act-abbreviations.js';
import { withConnectedActs } from '../../shared/act-match.js';
import { nominativeTitle } from '../../shared/act-titles.js';
import { articleRefCandidates, compareArticleRefs, splitArticleRef } from '../../shared/article-ref.js';
import { parseCitations, type ActAsWritten, type Citation } from '../../shared/citations.js';
import { abbreviationFits, actResolver, type ActResolution, type ActResolver, type UnresolvedActReason } from './act-resolver.js';
import type { CitedByEntry, CitesEntry } from './case-law.js';
import { excerptIds } from './excerpts.js';
import type { CorpusDocument } from './reader.js';

/** The most articles a range („чл. 1 – 400“) links: the first this many the act has in it. */
export const RANGE_CAP = 50;

/**
 * Why a citation was not linked: the reasons an act is not resolved ({@link UnresolvedActReason}), and
 * - `no_act_named`: the citation names no act („чл. 5“ alone, „от този закон“, „от закона“, „от същия закон“ with no
 *   act named before it);
 * - `no_such_provision`: the act is served, but has no such article or § (or none in the range).
 */
export type UnresolvedCitationReason = 'no_act_named' | UnresolvedActReason | 'no_such_provision';

/** The reasons, in the order a report lists them. */
export const UNRESOLVED_CITATION_REASONS: readonly UnresolvedCitationReason[] = [
  'no_act_named',
  'act_not_identified',
  'eu_or_international',
  'amending_act',
  'ambiguous_act',
  'act_not_in_corpus',
  'no_such_provision',
];

/** What the linking read and found (for the index build's log and to judge the resolver). */
export interface DecisionCitationsReport {
  /** Court decisions read. */
  decisions: number;
  /** Their paragraphs read for citations (those holding „чл“ or „§“, headers left out). */
  paragraphs: number;
  /** Citations found: one per article or § cited („чл. 3, 4 и 5“ is three, „чл. 185 – 196“ one). */
  citations: number;
  /** Citations linked to at least one element. */
  resolved: number;
  /** Links made: (citation, element) pairs („чл. 185 – 196 от АПК“ makes up to 12). */
  links: number;
  /** Citations not linked, by reason (every reason present, 0 when none). */
  unresolved: Record<UnresolvedCitationReason, number>;
  /**
   * The 20 acts cited most often that were not resolved, as written (`act`; an abbreviation the decision defines, as
   * the title it stands for), with the reason and how many citations name them; most frequent first, then by `act`.
   * `no_act_named` and `no_such_provision` are not among them.
   */
  top_unresolved_acts: { act: string; reason: UnresolvedActReason; count: number }[];
}

/** One citation not linked, for diagnostics ({@link LinkDecisionCitationsOptions.onUnresolved}). */
export interface UnresolvedCitation {
  /** The decision and the paragraph's excerpt id. */
  document_id: string;
  excerpt_id: string;
  /** The citation as written, its act included when it names one. */
  text: string;
  /**
   * The act as written (for „същия закон“, the act it points back to; for an abbreviation the decision defines, the
   * title it stands for); null when none.
   */
  act: string | null;
  reason: UnresolvedCitationReason;
}

/** Options of {@link linkDecisionCitations}. */
export interface LinkDecisionCitationsOptions {
  /** The resolver to use (built of `documents` when absent: `actResolver(documents)`). */
  resolver?: ActResolver;
  /** Called for each citation not linked, in reading order. */
  onUnresolved?: (citation: UnresolvedCitation) => void;
}

/** The links of {@link linkDecisionCitations}: per document (index into `documents`), per element index. */
export interface DecisionCitationLinks {
  /** Statutes: the decisions citing each element, newest first (then by `document_id`). */
  cited_by: Map<number, Map<number, CitedByEntry[]>>;
  /** Decisions: the provisions each paragraph cites, in the order written (one entry per element and text). */
  cites: Map<number, Map<number, CitesEntry[]>>;
  report: DecisionCitationsReport;
}

/** A paragraph worth parsing: it names an article or a §. */
const MAY_CITE = /чл|§/iu;
/** A paragraph naming the panel („… в състав: …“, „В СЪСТАВ:“). */
const PANEL = /в\s+състав\s*:/iu;
/** A title read up to a year („… за“ before „2003 г.“): the parser stops at digits. */
const YEAR_AFTER = /^[ \u00a0]*(\d{4})[ \u00a0]*(?:г\.|година)/u;
const ENDS_WITH_PREPOSITION = /[ \u00a0](?:за|през)$/u;

/**
 * An aside in brackets right after a citation's number or letter that cites nothing (no „чл“, no „§“), on one line
 * („чл. 17 (право на собственост)“). Brackets after a title (its abbreviation, its promulgation) stay: they end it.
 */
const ASIDE = /\((?<=(?:\d[а-яѝ]{0,2}|[“"”»])[ \u00a0]*\()(?![^()\n]*(?:чл|§))[^()\n]{1,200}\)/giu;
/** A by-law named by its kind and number („Наредба № 4 от …“): the parser reads its kind alone. */
const NUMBERED = /^[ \u00a0]*№[ \u00a0]*(\d+)/u;
const BY_LAW_KIND = /^(?:Наредба(?:та)?|Постановление(?:то)?|Указ(?:ът|а)?|Тарифа(?:та)?|Инструкция(?:та)?|Правилник(?:ът|а)?|Решение(?:то)?|Заповед(?:та)?)$/u;
/**
 * What may come before an abbreviation a decision defines: a bracket or a slash, a dash after a space or a comma, with
 * or without „наричан по-нататък“ and a quotation mark (`(ЗА)`, `/АПК/`, `(наричан по-нататък „ЗЛЗ“)`, `Закона за
 * държавния служител – ЗДС`, `(чл. 21 от Закона за пътищата, ЗП)`); matched at the end of the text before it.
 */
const DEFINITION_INTRO =
  /(?:[(/,]|[ \u00a0][–—-])[ \u00a0]*(?:наричан\p{L}*[ \u00a0]+(?:по-нататък|накратко|за краткост)[ \u00a0]+(?:само[ \u00a0]+)?)?[„"“]?$/u;
/** What may follow an abbreviation a decision defines: a closing mark, a separator, a space. */
const DEFINITION_END = /^[“"”]?(?:[ \u00a0]*[)/,;.(]|[ \u00a0])/u;
/** A promulgation note at the end of a text: „ (обн., ДВ, бр. 26 от 2012 г.)“, „ – обн., ДВ, бр. 130 …)“. */
const PROMULGATION_AT_END = /[ \u00a0]*(?:\([ \u00a0]*(?:обн|ДВ)[^()]*\)|[–—-][ \u00a0]*(?:обн|ДВ)[^()]*\)?)[ \u00a0]*$/u;
/** Where a title may begin before a definition: its head noun, or a code or law named by its adjective. */
const TITLE_HEAD = /(?:Закона?|Кодекса?|Конституцията|Правилника?|Наредба(?:та)?|\p{Lu}\p{Ll}+(?:-\p{Ll}+)?(?:[ \u00a0]+\p{Ll}+)?[ \u00a0]+(?:кодекс|закон)а?)(?!\p{L})/gu;

/**
 * The title a decision defines an abbreviation as, where it first does: a title before the abbreviation in brackets
 * (see {@link DEFINITION_INTRO}; a promulgation note may come between), taken from the first head noun whose title the
 * abbreviation spells ({@link abbreviationFits}), so that „Закона за изменение и допълнение на Закона за здравното
 * осигуряване (ЗИДЗЗО)“ is the amending act and a bracket after other words defines nothing. Undefined when none does.
 */
function definitionOf(decision: CorpusDocument, abbreviation: string): string | undefined {
  for (const { text } of decision.elements) {
    for (let at = text.indexOf(abbreviation); at >= 0; at = text.indexOf(abbreviation, at + 1)) {
      const previous = text[at - 1] ?? ' ';
      if (previous.toLowerCase() !== previous.toUpperCase()) continue;
      // Cheaply first: the mark before it (past a quotation mark and spaces) is one a definition has, or a word.
      let mark = at - 1;
      while (mark >= 0 && ' \u00a0„"“'.includes(text[mark]!)) mark--;
      const before = text[mark] ?? '';
      if (!'(/,–—-'.includes(before) && before.toLowerCase() === before.toUpperCase()) continue;
      if (!DEFINITION_END.test(text.slice(at + abbreviation.length, at + abbreviation.length + 3))) continue;
      const intro = DEFINITION_INTRO.exec(text.slice(Math.max(0, at - 40), at));
      if (!intro) continue;
      const introStart = at - intro[0].length;
      const preceding = text.slice(Math.max(0, introStart - 300), introStart).replace(PROMULGATION_AT_END, '');
      for (const head of preceding.matchAll(TITLE_HEAD)) {
        if (/\p{L}/u.test(preceding[head.index - 1] ?? '')) continue;
        const title = preceding.slice(head.index).replace(/[\s,;:„“"]+$/u, '');
        if (abbreviationFits(abbreviation, nominativeTitle(title))) return title;
      }
    }
  }
  return undefined;
}

/** An act's elements by ref, built when a citation first reaches the act. */
interface ActElements {
  /** ref (lower case) → index of the first element with it. */
  byRef: Map<string, number>;
  /** The articles, and the §§ (their refs without `§`), first element of each ref, in element order; for ranges. */
  articles?: { ref: string; index: number }[];
  sections?: { ref: string; index: number }[];
  excerptIds: string[];
}

/** A decision's citations of one element, as they add up. */
interface Tally {
  count: number;
  paragraph: number;
}

/**
 * Reads every court decision of `documents` (those with a `court_id`) and links its citations (see the module
 * comment). `collectionOf` gives the `collection` a document is served under: a function of its `collection` and
 * `source_type` (asked once per pair). Never throws on odd text: what cannot be read is counted in the report.
 */
export function linkDecisionCitations(
  documents: readonly CorpusDocument[],
  collectionOf: (document: CorpusDocument) => string,
  options: LinkDecisionCitationsOptions = {},
): DecisionCitationLinks {
  const resolver = options.resolver ?? actResolver(documents);
  const unresolved = Object.fromEntries(UNRESOLVED_CITATION_REASONS.map((r) => [r, 0])) as Record<UnresolvedCitationReason, number>;
  const report: DecisionCitationsReport = { decisions: 0, paragraphs: 0, citations: 0, resolved: 0, links: 0, unresolved, top_unresolved_acts: [] };
  /** reason → act → how many citations. */
  const unresolvedActs = new Map<UnresolvedActReason, Map<string, number>>();
  const citedBy = new Map<number, Map<number, CitedByEntry[]>>();
  const cites = new Map<number, Map<number, CitesEntry[]>>();

  const acts = new Map<number, ActElements>();
  const elementsOfAct = (index: number): ActElements => {
    let found = acts.get(index);
    if (found) return found;
    const document = documents[index]!;
    found = { byRef: new Map(), excerptIds: excerptIds(document.document_id, document.elements) };
    document.elements.forEach((element, i) => {
      const ref = element.ref.toLowerCase();
      if (ref !== '' && !found!.byRef.has(ref)) found!.byRef.set(ref, i);
    });
    acts.set(index, found);
    return found;
  };
  /** The articles (`section` false) or §§ of an act in element order, for ranges: built at the first range. */
  const numbered = (act: ActElements, section: boolean): { ref: string; index: number }[] => {
    if (act.articles === undefined) {
      act.articles = [];
      act.sections = [];
      for (const [ref, index] of act.byRef) {
        if (splitArticleRef(ref)) act.articles.push({ ref, index });
        else if (ref.startsWith('§') && splitArticleRef(ref.slice(1))) act.sections.push({ ref: ref.slice(1), index });
      }
    }
    return section ? act.sections! : act.articles;
  };
  /** The elements of act `index` a citation names (see the module comment); `[]` when it has none of them. */
  const elementsCited = (index: number, citation: Citation): number[] => {
    const act = elementsOfAct(index);
    const section = citation.article === undefined;
    const from = section ? citation.section : citation.article;
    if (from === undefined) return [];
    const to = section ? citation.sectionTo : citation.articleTo;
    if (to === undefined || to === from) {
      const direct = act.byRef.get(section ? `§${from}` : from);
      if (direct !== undefined) return [direct];
      for (const candidate of articleRefCandidates(from)) {
        const element = act.byRef.get(section ? `§${candidate}` : candidate);
        if (element !== undefined) return [element];
      }
      return [];
    }
    const [low, high] = compareArticleRefs(from, to) <= 0 ? [from, to] : [to, from];
    const inRange: number[] = [];
    for (const { ref, index: element } of numbered(act, section)) {
      if (compareArticleRefs(ref, low) >= 0 && compareArticleRefs(ref, high) <= 0) inRange.push(element);
      if (inRange.length === RANGE_CAP) break;
    }
    return inRange;
  };

  /**
   * The `collection` of a document, asked once per `collection` and `source_type` of the documents (what the served
   * collection derives from; `collectionOf` may hash).
   */
  const collections = new Map<string, string>();
  const collectionAt = (index: number): string => {
    const document = documents[index]!;
    const key = `${document.collection ?? ''}\u0000${document.source_type}`;
    let collection = collections.get(key);
    if (collection === undefined) collections.set(key, (collection = collectionOf(document)));
    return collection;
  };
  const fail = (reason: UnresolvedCitationReason, act: string | null): void => {
    report.unresolved[reason]++;
    if (act === null || reason === 'no_act_named' || reason === 'no_such_provision') return;
    let counts = unresolvedActs.get(reason);
    if (counts === undefined) unresolvedActs.set(reason, (counts = new Map()));
    counts.set(act, (counts.get(act) ?? 0) + 1);
  };

  for (let d = 0; d < documents.length; d++) {
    const decision = documents[d]!;
    if (decision.court_id == null) continue;
    report.decisions++;
    let paragraphIds: string[] | undefined;
    let definitions: Map<string, string> | undefined;
    const paragraphIdOf = (p: number): string => (paragraphIds ??= excerptIds(decision.document_id, decision.elements))[p]!;
    const tallies = new Map<number, Map<number, Tally>>();
    /** The act the decision named last in a citation (what „същия закон“ points back to). */
    let previous: string | undefined;
    for (let p = 1; p < decision.elements.length; p++) {
      const text = decision.elements[p]!.text;
      if ((p < 3 && PANEL.test(text)) || !MAY_CITE.test(text)) continue;
      report.paragraphs++;
      // Asides in brackets („чл. 17 (право на собственост) и чл. 32 … от Конституцията“) read as blanks.
      const read = text.includes('(') ? text.replace(ASIDE, (aside) => ' '.repeat(aside.length)) : text;
      const parsed = withConnectedActs(read, parseCitations(read));
      /** The paragraph's `cites`, once it has one. */
      let list: CitesEntry[] | undefined;
      for (let c = 0; c < parsed.length; c++) {
        const citation = parsed[c]!;
        report.citations++;
        const act = citation.act;
        let written: string | undefined;
        if (act?.kind === 'previous') written = previous;
        else if (act?.kind === 'abbreviation') {
          // An abbreviation the decision defines („Закона за администрацията (ЗА)“) is that act.
          // (A customary abbreviation means its title whatever the decision writes.)
          definitions ??= new Map();
          let defined = definitions.get(act.text);
          if (defined === undefined) {
            defined = CUSTOMARY_ABBREVIATIONS[act.text] !== undefined ? act.text : (definitionOf(decision, act.text) ?? act.text);
            definitions.set(act.text, defined);
          }
          previous = written = defined;
        } else if (act !== undefined) previous = written = actWritten(text, act);
        const resolution = written === undefined ? undefined : resolver.resolveActDetailed(written, decision.date);
        const elements = resolution?.kind === 'resolved' ? elementsCited(resolution.document, citation) : [];
        if (elements.length === 0) {
          const reason = resolution === undefined ? 'no_act_named' : resolution.kind === 'unresolved' ? resolution.reason : 'no_such_provision';
          fail(reason, written ?? null);
          if (options.onUnresolved) {
            const shown = act === undefined ? undefined : act.kind === 'title' ? written : text.slice(act.start, act.end);
            options.onUnresolved({
              document_id: decision.document_id,
              excerpt_id: paragraphIdOf(p),
              text: citationText(text, parsed, c, shown),
              act: written ?? null,
              reason,
            });
          }
          continue;
        }
        report.resolved++;
        report.links += elements.length;
        const target = (resolution as Extract<ActResolution, { kind: 'resolved' }>).document;
        const statute = documents[target]!;
        const actElements = elementsOfAct(target);
        // The act as the decision writes it: an abbreviation (even one it defines) as is, a title cut to its words.
        const actShown = act!.kind === 'title' ? (resolution as Extract<ActResolution, { kind: 'resolved' }>).written : text.slice(act!.start, act!.end);
        const shown = citationText(text, parsed, c, actShown);
        let byElement = tallies.get(target);
        if (byElement === undefined) tallies.set(target, (byElement = new Map()));
        for (const element of elements) {
          const tally = byElement.get(element);
          if (tally) tally.count++;
          else byElement.set(element, { count: 1, paragraph: p });
          const excerptId = actElements.excerptIds[element]!;
          // One entry per element and text in a paragraph (a paragraph cites a handful).
          if (list?.some((entry) => entry.excerpt_id === excerptId && entry.text === shown)) continue;
          if (list === undefined) {
            let byParagraph = cites.get(d);
            if (byParagraph === undefined) cites.set(d, (byParagraph = new Map()));
            byParagraph.set(p, (list = []));
          }
          list.push({
            text: shown,
            document_id: statute.document_id,
            collection: collectionAt(target),
            title: statute.title,
            ref: statute.elements[element]!.ref,
            excerpt_id: excerptId,
          });
        }
      }
    }
    if (tallies.size === 0) continue;
    const collection = collectionAt(d);
    for (const [statute, byElement] of tallies) {
      let links = citedBy.get(statute);
      if (links === undefined) citedBy.set(statute, (links = new Map()));
      for (const [element, tally] of byElement) {
        let list = links.get(element);
        if (list === undefined) links.set(element, (list = []));
        list.push({
          document_id: decision.document_id,
          collection,
          title: decision.title,
          court: decision.court ?? '',
          type: decision.type,
          decision_number: decision.decision_number ?? null,
          date: decision.date,
          case_number: decision.case_number ?? null,
          excerpt_id: paragraphIdOf(tally.paragraph),
          label: decision.elements[tally.paragraph]!.label,
          count: tally.count,
        });
      }
    }
  }
  for (const links of citedBy.values()) {
    for (const list of links.values()) list.sort((a, b) => b.date.localeCompare(a.date) || a.document_id.localeCompare(b.document_id));
  }
  report.top_unresolved_acts = [...unresolvedActs]
    .flatMap(([reason, counts]) => [...counts].map(([act, count]) => ({ act, reason, count })))
    .sort((a, b) => b.count - a.count || a.act.localeCompare(b.act))
    .slice(0, 20);
  return { cited_by: citedBy, cites, report };
}

/**
 * The act a citation names as written: a title with the year the parser stops before („… за“ + „2003 г.“); a by-law's
 * kind with its number („Наредба“ + „№ 4“), which names an act (none the corpus serves) rather than a kind.
 */
function actWritten(text: string, act: ActAsWritten): string {
  const written = act.text.replace(/\s+/gu, ' ');
  if (act.kind === 'title' && BY_LAW_KIND.test(written)) {
    const number = NUMBERED.exec(text.slice(act.end, act.end + 12));
    return number ? `${written} № ${number[1]}` : written;
  }
  if (act.kind !== 'title' || !ENDS_WITH_PREPOSITION.test(written)) return written;
  const year = YEAR_AFTER.exec(text.slice(act.end, act.end + 20));
  return year ? `${written} ${year[1]} г.` : written;
}

/**
 * A citation as written with its act: „чл. 4, ал. 1“ and „от Конституцията“; a later item of a list („4“ of „чл. 3, 4
 * и 5 от ЗОП“) with its keyword („чл. 4 от ЗОП“), a citation of a chain with the act of the chain („чл. 49 ЗЗД“).
 * `at` is the citation's index in `parsed`; `actText` the act as shown (cut to its title), undefined for none. White
 * space collapsed.
 */
function citationText(text: string, parsed: readonly Citation[], at: number, actText: string | undefined): string {
  const citation = parsed[at]!;
  let head = citation.text;
  if (/^\d/u.test(head)) head = `${citation.article !== undefined ? 'чл.' : '§'} ${head}`;
  const act = citation.act;
  if (act === undefined || actText === undefined) return head.replace(/\s+/gu, ' ');
  // What the text writes between the last citation before the act and the act („ от “, „ от ПЗР на “, „ “).
  let last = at;
  while (last + 1 < parsed.length && parsed[last + 1]!.end <= act.start) last++;
  const between = parsed[last]!.end <= act.start ? text.slice(parsed[last]!.end, act.start) : '';
  const joiner = between !== '' && between.length <= 80 && !/[\n;]/u.test(between) ? between : ' от ';
  return `${head}${joiner}${actText}`.replace(/\s+/gu, ' ').trim();
}
