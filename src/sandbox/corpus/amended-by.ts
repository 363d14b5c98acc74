/**
 * What each § of the corpus changes, linked both ways (docs/sandbox.md, "What each § amends"): the §§ of amending acts
 * (and the §§ of ordinary acts' final provisions that change other acts) are read by `amendments.ts`; here each change
 * is tied to the act it changes, when the corpus serves that act, so that
 * - an article of the act changed carries `amended_by`: the §§ in the corpus that changed it, newest first;
 * - the § carries `amends`: the acts and articles it changes, with the `document_id` of the act when it is served.
 *
 * An act is found by its title ({@link actKey}, nominative or oblique form alike). When several served acts have the
 * title (an act replaced by a new one of the same name), the change goes to the latest of them dated on or before the
 * amending act; a change older than every act of the title is not linked (its act is not in the corpus).
 */
import { actKey, amendmentsOf, type AmendmentAction } from './amendments.js';
import { excerptIds } from './excerpts.js';
import type { CorpusDocument } from './reader.js';

/** One § that changed an article (an entry of an element's `amended_by`). */
export interface AmendedByEntry {
  /** The amending act's `document_id`. */
  document_id: string;
  /** The amending act's `collection` (what `GET /v1/documents` takes with the `document_id`). */
  collection: string;
  /** The §'s excerpt id (`act-78179:§12`): `pravo doc` opens it with `--article §12`. */
  excerpt_id: string;
  /** The §'s label as in the source, `§ 12.`. */
  label: string;
  /** The amending act's title. */
  title: string;
  /** The date of the amending act's text (its `as_of`, else its `date`), `YYYY-MM-DD`. */
  date: string;
  /** What the § does to the article: `amends` (changes or supplements it), `inserts` (creates it), `repeals` it. */
  action: AmendmentAction;
}

/** One change a § makes (an entry of a § element's `amends`). */
export interface AmendsEntry {
  /** The act changed, as the § names it (`Закона за здравето`), or the act of the amending act's title. */
  act: string;
  /** The `document_id` of the act changed when the corpus serves it; null when it does not. */
  document_id: string | null;
  /** The article changed (`12а`). */
  article: string;
  action: AmendmentAction;
}

/** The links of one element (see {@link linkAmendments}). */
export interface ElementLinks {
  amended_by?: AmendedByEntry[];
  amends?: AmendsEntry[];
}

/**
 * A lookup of the elements of a ref in a document: `(document index, ref)` → the indexes of the document's elements with
 * that ref (as written, case kept), in document order; `[]` when none. Each document's refs are indexed on first use.
 */
export function elementsOfRefIn(documents: readonly CorpusDocument[]): (doc: number, ref: string) => number[] {
  const refIndex = new Map<number, Map<string, number[]>>();
  return (doc, ref) => {
    let byRef = refIndex.get(doc);
    if (byRef === undefined) {
      byRef = new Map();
      documents[doc]!.elements.forEach((e, i) => {
        const list = byRef!.get(e.ref);
        if (list) list.push(i);
        else byRef!.set(e.ref, [i]);
      });
      refIndex.set(doc, byRef);
    }
    return byRef.get(ref) ?? [];
  };
}

/**
 * Links every change read from the §§ of `documents` (statutes only; court decisions are not read) to the served act
 * and article it changes.
 * @param collectionOf the `collection` a document is served under.
 * @returns per document (index into `documents`), per element (index into its `elements`), the element's links; only
 *   elements with links appear. `amended_by` lists are newest first (then by `document_id` and § order).
 */
export function linkAmendments(
  documents: readonly CorpusDocument[],
  collectionOf: (document: CorpusDocument) => string,
): Map<number, Map<number, ElementLinks>> {
  const statutes = (d: CorpusDocument): boolean => d.court_id == null && d.source_type === 'bulgarian_laws_regulations';
  /** act key → the served acts of that title, oldest first. */
  const actsByKey = new Map<string, number[]>();
  documents.forEach((d, i) => {
    if (!statutes(d)) return;
    const key = actKey(d.title);
    const list = actsByKey.get(key);
    if (list) list.push(i);
    else actsByKey.set(key, [i]);
  });
  for (const list of actsByKey.values()) list.sort((a, b) => documents[a]!.date.localeCompare(documents[b]!.date));
  const elementsOfRef = elementsOfRefIn(documents);
  const links = new Map<number, Map<number, ElementLinks>>();
  const linksOf = (doc: number, element: number): ElementLinks => {
    let byElement = links.get(doc);
    if (byElement === undefined) links.set(doc, (byElement = new Map()));
    let entry = byElement.get(element);
    if (entry === undefined) byElement.set(element, (entry = {}));
    return entry;
  };
  documents.forEach((amending, a) => {
    if (!statutes(amending) || !amending.elements.some((e) => e.ref.startsWith('§'))) return;
    const changes = amendmentsOf(amending.title, amending.elements);
    if (changes.length === 0) return;
    const date = amending.as_of ?? amending.date;
    const ids = excerptIds(amending.document_id, amending.elements);
    const sectionIndex = new Map<string, number>();
    amending.elements.forEach((e, i) => {
      if (!sectionIndex.has(e.ref)) sectionIndex.set(e.ref, i);
    });
    for (const change of changes) {
      const section = sectionIndex.get(change.section);
      if (section === undefined) continue;
      const candidates = (actsByKey.get(change.act_key) ?? []).filter((t) => t !== a && documents[t]!.date <= date);
      const target = candidates.at(-1);
      const sectionLinks = linksOf(a, section);
      (sectionLinks.amends ??= []).push({
        act: change.act,
        document_id: target === undefined ? null : documents[target]!.document_id,
        article: change.article,
        action: change.action,
      });
      if (target === undefined) continue;
      for (const element of elementsOfRef(target, change.article)) {
        const label = amending.elements[section]!.label;
        (linksOf(target, element).amended_by ??= []).push({
          document_id: amending.document_id,
          collection: collectionOf(amending),
          excerpt_id: ids[section]!,
          label,
          title: amending.title,
          date,
          action: change.action,
        });
      }
    }
  });
  for (const byElement of links.values()) {
    for (const entry of byElement.values()) {
      entry.amended_by?.sort((x, y) => y.date.localeCompare(x.date) || x.document_id.localeCompare(y.document_id));
    }
  }
  return links;
}
