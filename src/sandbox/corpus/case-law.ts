/**
 * The case law tied to the law (docs/sandbox.md, "Case law under the articles"): the shapes the index stores on
 * document elements and `GET /v1/documents` sends (sandbox extensions of the Document response's `elements`, spec:
 * GET /v1/documents), shared by the readers that find them (`decision-citations.ts`, `rulings.ts`), the index build
 * and the CLI's renderers.
 *
 * - On an element of a statute: `cited_by`, the court decisions of the corpus that cite it, newest first; `rulings`,
 *   the rulings of the Constitutional Court that declared it (or a part of it) unconstitutional.
 * - On a paragraph (¶) of a court decision: `cites`, the provisions of the corpus's acts that it cites, resolved.
 */
import { provisionOfLabel, rulingSentence, type RulingPart } from '../../shared/ruling-sentence.js';
import type { DecisionCitationsReport } from './decision-citations.js';
import type { RulingsReport } from './rulings.js';

/**
 * What the index build found of the case law (meta `case_law`; `SearchIndex.caseLaw()`): the decisions' citations read
 * and resolved, and the rulings of both sources with where they agree.
 */
export interface CaseLawReport {
  citations: DecisionCitationsReport;
  rulings: RulingsReport;
}

/** A court decision that cites an element (an entry of a statute element's `cited_by`). */
export interface CitedByEntry {
  /** The decision's `document_id` (`ks-2016-12-13-2015`). */
  document_id: string;
  /** The decision's `collection` (what `GET /v1/documents` takes with the `document_id`). */
  collection: string;
  /** The decision's title (`Решение № 12 от 13.10.2016 г. по к. д. № 13/2015 г., КС`). */
  title: string;
  /** The court's name (`Конституционен съд`). */
  court: string;
  /** `Решение`, `Определение`, … */
  type: string;
  /** The decision's number; null when it has none (an unnumbered Определение). */
  decision_number: string | null;
  /** The decision's date, `YYYY-MM-DD`. */
  date: string;
  /** The case (`13/2015`); null when the input gives none. */
  case_number: string | null;
  /** The excerpt id of the first paragraph (¶) that cites the element: `pravo doc` opens it with `--paragraph`. */
  excerpt_id: string;
  /** That paragraph's label (`¶ 12`). */
  label: string;
  /** How many citations of the element the decision holds (at least 1). */
  count: number;
}

/** A provision a decision's paragraph cites, resolved (an entry of a decision paragraph's `cites`). */
export interface CitesEntry {
  /** The citation as written, act included („чл. 4, ал. 1 от Конституцията“). */
  text: string;
  /** The act's `document_id` and `collection`. */
  document_id: string;
  collection: string;
  /** The act's title. */
  title: string;
  /** The element cited: its ref (`4`, `§1`) and excerpt id. */
  ref: string;
  excerpt_id: string;
}

/** The part of a provision a ruling struck down (shared with the CLI, `shared/ruling-sentence.ts`). */
export type { RulingPart };

/** Where a ruling was read. */
export type RulingSource = 'note' | 'decision';

/**
 * A ruling of the Constitutional Court on an element (an entry of a statute element's `rulings`): the provision, or a
 * part of it, was declared unconstitutional. Read from the editorial notes of the act's text („обявена за
 * противоконституционна с РКС № 12 от 2016 г.“) and from the operative part of the decision („ОБЯВЯВА за
 * противоконституционна разпоредбата на чл. …“); `sources` says which found it.
 */
export interface RulingEntry {
  /** Always `declared_unconstitutional` (the only kind of ruling read). */
  ruling: 'declared_unconstitutional';
  /** `whole`: the element named without a part; `part`: only {@link part}. */
  scope: 'whole' | 'part';
  /** The part struck down; null for the whole element. */
  part: RulingPart | null;
  /** The decision as the source names it: `Решение № 12 от 2016 г.` (number and year). */
  decision_number: string;
  decision_year: string;
  /** The decision in the corpus, when it is there; null otherwise (a ruling older than the corpus's КС acts). */
  document_id: string | null;
  collection: string | null;
  /** Its title and date (`YYYY-MM-DD`) when in the corpus. */
  title: string | null;
  date: string | null;
  /** The excerpt id of the operative paragraph that names the element, when read from the decision. */
  excerpt_id: string | null;
  /** Where the ruling was read: the act's note, the decision's operative part, or both. */
  sources: RulingSource[];
  /** The editorial note as the act's text prints it, when read from one. */
  note: string | null;
  /**
   * True when the act's text says the provision was enacted or amended again after the ruling („…, нова – ДВ, бр. 32 от
   * 2026 г.“, „изм. – …“ after the ruling's note): the text shown is not the one struck down.
   */
  later_amended: boolean;
}

/** The case-law fields of one element (only those it has). */
export interface CaseLawLinks {
  cited_by?: CitedByEntry[];
  cites?: CitesEntry[];
  rulings?: RulingEntry[];
}

/** Per document (index into the corpus's documents), per element (index into its `elements`), links of one kind. */
export type LinksByElement<T> = Map<number, Map<number, T>>;

/** Each element's value of `map` turned into links by `of` (`list` → `{ rulings: list }`). */
export function mapLinks<V, T>(map: LinksByElement<V>, of: (value: V) => T): LinksByElement<T> {
  return new Map([...map].map(([doc, byElement]) => [doc, new Map([...byElement].map(([element, value]) => [element, of(value)]))]));
}

/**
 * Merges links of several kinds into one map, per document and element: the fields of each kind side by side (no kind
 * sets a field another sets).
 */
export function mergeElementLinks<T extends object>(...maps: LinksByElement<Partial<T>>[]): LinksByElement<Partial<T>> {
  const merged: LinksByElement<Partial<T>> = new Map();
  for (const map of maps) {
    for (const [doc, byElement] of map) {
      let target = merged.get(doc);
      if (target === undefined) merged.set(doc, (target = new Map()));
      for (const [element, links] of byElement) target.set(element, { ...target.get(element), ...links });
    }
  }
  return merged;
}

/**
 * What a search result's explanation says of an article with rulings (in Bulgarian, the Court's own wording, see
 * `shared/ruling-sentence.ts`): one sentence per ruling, joined by a space.
 * @param label the article's label (`Чл. 79.`, `§ 35.`).
 */
export function rulingSentences(label: string, rulings: readonly RulingEntry[]): string {
  const provision = provisionOfLabel(label);
  return rulings
    .map((r) => rulingSentence(provision, { number: r.decision_number, year: r.decision_year, ...(r.part ? { part: r.part.text } : {}), laterAmended: r.later_amended }))
    .join(' ');
}
