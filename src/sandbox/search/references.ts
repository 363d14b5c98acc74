/**
 * Query understanding for `POST /v1/search`: references to provisions („чл. 344, ал. 1 от КТ“, „чл. 45 ЗЗД“,
 * „§ 1 от ДР на ЗДДС“) and act abbreviations („ЗОП обжалване“), resolved against the corpus's acts.
 *
 * The syntax is the shared citation parser's, typed reading (`shared/citations.ts`, `parseCitations(query, { typed:
 * true })`, and `findActAbbreviations` for an abbreviation alone): an article with its paragraph and point, a range
 * or a pair, a `§` of the supplementary or final provisions, and the act as written after `от`, `на`, `по` or
 * directly. What needs the corpus is here: the abbreviation table built from its titles, resolving the act as written
 * (an abbreviation, or a title in any grammatical form the stemmer reduces to a title's stems), and how the
 * references steer the ranking.
 *
 * A `§` paragraph of the supplementary or final provisions is an element of its own (ref `§N`, see
 * `corpus/structure.ts`); where an input still keeps §§ inside an article's text, a `§` reference falls back to the
 * element whose text holds `§ N.`, the last one first.
 */
import { analyze } from '../text/analysis.js';
import type { SearchIndex } from '../storage.js';
import { AMENDING_TITLE, initials, isConstitutionAlone, nominativeTitle } from '../../shared/act-titles.js';
import type { SearchMetadata } from './metadata.js';
import { CUSTOMARY_ABBREVIATIONS } from '../../shared/act-abbreviations.js';
import { findActAbbreviations, parseCitations } from '../../shared/citations.js';

/** An act named in a query, resolved against the corpus. */
export interface ActResolution {
  /** The act's title as the corpus or the abbreviation list writes it (nominative). */
  title: string;
  /** Documents rowids of the primary acts with that title (none when the corpus holds only acts amending it). */
  primary: number[];
  /** Documents rowids of the acts amending it. */
  amending: number[];
}

/** A reference found in a query. */
export interface LegalReference {
  /** The reference as typed, for the explanation. */
  text: string;
  /** Position in the query, UTF-16 code units (`start` inclusive, `end` exclusive). */
  start: number;
  end: number;
  /** Article ref as the corpus writes it (`344`, `2б`); absent for a `§` reference or a bare act. */
  article?: string;
  /** Last article of a range (`чл. 78 – 80`) or the second of a pair (`чл. 71 и 72`). */
  articleTo?: string;
  /** `§` number of the supplementary or final provisions. */
  section?: string;
  /** The act as typed (`КТ`, `Закона за обществените поръчки`); absent when the query names none. */
  act?: string;
  /** The act resolved, when the query names one the corpus knows (by abbreviation or title). */
  resolved?: ActResolution;
}

/** The abbreviation table of a corpus: abbreviation (and analysed title) → resolution. */
export interface AbbreviationTable {
  /** By abbreviation, exactly as written (capitals). */
  byAbbreviation: Map<string, ActResolution>;
  /** By analysed title (`analyze(title).join(' ')`). */
  byTitleStems: Map<string, ActResolution>;
}

const tables = new WeakMap<SearchMetadata, AbbreviationTable>();

/**
 * The abbreviation table of the index's corpus, built once per metadata: every primary act's title and every title an
 * amending act names („… на Кодекса на труда“), each under its initials and its analysed title, plus
 * {@link CUSTOMARY_ABBREVIATIONS} (which win over initials shared by several titles). An abbreviation that several
 * titles share and the list does not settle resolves to all of them.
 */
export function abbreviationTable(metadata: SearchMetadata): AbbreviationTable {
  const cached = tables.get(metadata);
  if (cached) return cached;
  const byTitleStems = new Map<string, ActResolution>();
  const entry = (title: string): ActResolution => {
    const key = analyze(title).join(' ');
    let e = byTitleStems.get(key);
    if (!e) {
      e = { title, primary: [], amending: [] };
      byTitleStems.set(key, e);
    }
    return e;
  };
  for (const meta of metadata.documents) {
    if (!meta || meta.source_type !== 'bulgarian_laws_regulations') continue;
    if (!meta.amending) {
      const e = entry(meta.title);
      e.title = meta.title.trim();
      e.primary.push(meta.id);
      continue;
    }
    const amended = AMENDING_TITLE.exec(meta.title)?.[1];
    if (amended !== undefined) {
      const e = entry(nominativeTitle(amended));
      e.amending.push(meta.id);
    }
  }
  const byAbbreviation = new Map<string, ActResolution>();
  const shared = new Map<string, ActResolution[]>();
  for (const e of byTitleStems.values()) {
    const key = initials(e.title);
    if (key.length < 2) continue;
    shared.set(key, [...(shared.get(key) ?? []), e]);
  }
  for (const [key, list] of shared) {
    byAbbreviation.set(
      key,
      list.length === 1
        ? list[0]!
        : { title: list.map((e) => e.title).join('; '), primary: list.flatMap((e) => e.primary), amending: list.flatMap((e) => e.amending) },
    );
  }
  for (const [abbreviation, title] of Object.entries(CUSTOMARY_ABBREVIATIONS)) {
    byAbbreviation.set(abbreviation, byTitleStems.get(analyze(title).join(' ')) ?? { title, primary: [], amending: [] });
  }
  const table = { byAbbreviation, byTitleStems };
  tables.set(metadata, table);
  return table;
}

/** Resolves a written-out title: the longest run of its first words whose stems are a title of the table. */
function resolveTitle(table: AbbreviationTable, written: string): { title: string; resolved: ActResolution } | undefined {
  const words = written.trim().split(/\s+/u);
  // „Конституцията“ alone is the Constitution of the Republic (КРБ), not another act whose title begins so.
  if (words.length === 1 && isConstitutionAlone(words[0]!)) {
    const resolved = table.byAbbreviation.get('КРБ');
    return resolved === undefined || resolved.primary.length === 0 ? undefined : { title: words[0]!, resolved };
  }
  for (let n = words.length; n >= 2; n--) {
    const candidate = nominativeTitle(words.slice(0, n).join(' '));
    const resolved = table.byTitleStems.get(analyze(candidate).join(' '));
    if (resolved) return { title: words.slice(0, n).join(' '), resolved };
  }
  return undefined;
}

/**
 * The references of a query (see the module comment), in query order, and the query without them (`rest`, what is
 * searched as words). An abbreviation is taken only when the table knows it and it is written in capitals (so a
 * Bulgarian word is never taken for an act); a bare abbreviation without an article is a reference to the act. A
 * written-out title is taken up to the longest run of words that is a known title; the words after it stay in
 * `rest`. A query that is a known title and nothing else (`Закон за обществените поръчки`) is a reference to the act,
 * as a bare abbreviation is. Fast: two regular expressions over the query (the shared parser's).
 */
export function parseReferences(query: string, table: AbbreviationTable): { references: LegalReference[]; rest: string } {
  const references: LegalReference[] = [];
  for (const citation of parseCitations(query, { typed: true })) {
    const { start, act } = citation;
    let end = act?.end ?? citation.part?.end ?? citation.end;
    const ref: LegalReference = { text: query.slice(start, end).trim(), start, end };
    if (citation.article !== undefined) ref.article = citation.article;
    if (citation.articleTo !== undefined) ref.articleTo = citation.articleTo;
    if (citation.section !== undefined) ref.section = citation.section;
    if (act?.kind === 'abbreviation') {
      const resolved = table.byAbbreviation.get(act.text) ?? table.byAbbreviation.get(act.text.toUpperCase());
      ref.act = act.text;
      if (resolved) ref.resolved = resolved;
    } else if (act !== undefined) {
      // A title as written runs over the words after it: keep the longest run of its first words that is a known
      // title; the words after it stay in `rest`.
      const found = resolveTitle(table, act.text);
      if (found) {
        ref.act = found.title;
        ref.resolved = found.resolved;
        end = act.start + act.text.indexOf(found.title) + found.title.length;
      } else {
        end = act.start;
      }
      ref.end = end;
      ref.text = query.slice(start, end).trim().replace(/[\s,]*(?:от|на|по)?\s*$/iu, '');
    }
    references.push(ref);
  }
  for (const mention of findActAbbreviations(query)) {
    if (references.some((r) => mention.start >= r.start && mention.start < r.end)) continue;
    const resolved = table.byAbbreviation.get(mention.text);
    if (!resolved) continue;
    references.push({ text: mention.text, start: mention.start, end: mention.end, act: mention.text, resolved });
  }
  if (references.length === 0) {
    // A query that is a title and nothing else („Закон за обществените поръчки“) names the act, as an abbreviation
    // alone does; a title followed by other words stays words (a question about the act's subject).
    const written = query.trim().replace(/[.\s]+$/u, '');
    const found = written.split(/\s+/u).length >= 2 ? resolveTitle(table, written) : undefined;
    if (found !== undefined && found.title === written) {
      const start = query.indexOf(written);
      references.push({ text: written, start, end: start + written.length, act: written, resolved: found.resolved });
    }
  }
  references.sort((a, b) => a.start - b.start);
  let rest = '';
  let at = 0;
  for (const r of references) {
    rest += `${query.slice(at, r.start)} `;
    at = r.end;
  }
  rest += query.slice(at);
  return { references, rest: rest.replace(/\s+/gu, ' ').trim() };
}

/** How the references of a query steer its ranking (see {@link planReferences}). */
export interface ReferencePlan {
  /** Per document rowid, a factor on its score: the acts the query names. */
  boost: Map<number, number>;
  /** Per document rowid, the articles the query points to, in query order: they come first, as its first excerpts. */
  pinned: Map<number, number[]>;
  /** Pinned documents that only stand for the act (amending acts not naming the provision): after the others. */
  followers: Set<number>;
  /** Article numbers to search as words (for acts the corpus holds only through acts amending them). */
  words: string[];
  /** One Bulgarian sentence per reference, saying what it was resolved to, for every result's explanation. */
  notes: string[];
  /**
   * Per document rowid, the first element of an act the query names (held by the corpus) whose provision was not
   * found or which was named alone („чл. 999 от ЗОП“, „ЗОП“, „Закон за обществените поръчки“): pinned only when the
   * query has no words to search besides its references, so that the act itself is the answer instead of nothing.
   */
  standIns: Map<number, number>;
}

/** Score factor of an act the query names with an article (`чл. 72 от ЗОП`) or alone (`ЗОП обжалване`). */
export const REFERENCED_ACT_BOOST = 4;
export const NAMED_ACT_BOOST = 2;

/**
 * What the references of a query do to its ranking: an act the corpus holds (and the filters allow) is boosted and
 * its referenced article (found by ref; a `§` by the last element holding `§ N.`) pinned first; an act the corpus
 * holds only through amending acts has those shown, first those whose text names the provision (`чл. 344`, at the
 * element that does), which the note says;
 * an unknown act is said to be unknown. A reference without an act searches its article number as a word.
 * @param allowed per document rowid, 1 when the document passes the filters.
 */
export function planReferences(
  references: readonly LegalReference[],
  allowed: Uint8Array,
  index: Pick<SearchIndex, 'articleByRef' | 'articleContaining'>,
): ReferencePlan {
  const plan: ReferencePlan = { boost: new Map(), pinned: new Map(), followers: new Set(), words: [], notes: [], standIns: new Map() };
  for (const ref of references) {
    const numbers = [ref.article, ref.articleTo, ref.section].filter((n): n is string => n !== undefined);
    const provision = ref.article !== undefined ? 'article' : ref.section !== undefined ? 'section' : undefined;
    const quoted = `„${ref.text}“`;
    if (ref.resolved === undefined) {
      plan.words.push(...numbers);
      if (ref.act !== undefined) plan.notes.push(`${quoted}: актът „${ref.act}“ не е разпознат; търсени са думите.`);
      continue;
    }
    const { title } = ref.resolved;
    const primary = ref.resolved.primary.filter((id) => allowed[id] === 1);
    const amending = ref.resolved.amending.filter((id) => allowed[id] === 1);
    if (primary.length > 0) {
      const found: string[] = [];
      for (const id of primary) {
        plan.boost.set(id, Math.max(plan.boost.get(id) ?? 1, provision === undefined ? NAMED_ACT_BOOST : REFERENCED_ACT_BOOST));
        const articles =
          provision === 'article'
            ? [ref.article, ref.articleTo].flatMap((n) => (n === undefined ? [] : [index.articleByRef(id, n)]))
            : provision === 'section'
              ? [index.articleByRef(id, `§${ref.section}`) ?? index.articleContaining(id, `§ ${ref.section}.`)]
              : [];
        const ids = articles.filter((a): a is number => a !== undefined);
        if (ids.length > 0) {
          plan.pinned.set(id, [...(plan.pinned.get(id) ?? []), ...ids]);
          found.push(String(id));
        } else {
          const first = index.articleContaining(id, '');
          if (first !== undefined) plan.standIns.set(id, first);
        }
      }
      if (provision === undefined) plan.notes.push(`${quoted} е ${title}.`);
      else if (found.length > 0) plan.notes.push(`${quoted} е в ${title}; показан е първо.`);
      else plan.notes.push(`${quoted}: ${title} е в корпуса, но ${provision === 'article' ? `чл. ${ref.article}` : `§ ${ref.section}`} не е намерен в текста му.`);
      continue;
    }
    if (amending.length > 0) {
      // The amending acts' texts name the provision as „чл. 344“ / „§ 1“: those that do come first, at the element
      // that names it; the others follow, newest first, at their first element. The number is not searched as a word
      // (in other acts it is some other provision, or an amount).
      const needle = provision === 'article' ? `чл. ${ref.article}` : provision === 'section' ? `§ ${ref.section}` : undefined;
      let naming = 0;
      for (const id of amending) {
        const article = needle === undefined ? undefined : index.articleContaining(id, needle);
        if (article !== undefined) naming++;
        const shown = article ?? index.articleContaining(id, '');
        if (shown !== undefined) plan.pinned.set(id, [...(plan.pinned.get(id) ?? []), shown]);
        if (article === undefined) plan.followers.add(id);
      }
      const which =
        needle === undefined
          ? 'показани са те'
          : naming > 0
            ? `първо са тези, които споменават ${needle}`
            : `никой от тях не споменава ${needle}; показани са те`;
      plan.notes.push(`${quoted}: ${title} не е в корпуса, а само закони за изменението му; ${which}.`);
      continue;
    }
    plan.words.push(...numbers);
    plan.notes.push(`${quoted}: ${title} не е в корпуса${allowed.length > 0 && ref.resolved.primary.length + ref.resolved.amending.length > 0 ? ' при тези филтри' : ''}.`);
  }
  return plan;
}
