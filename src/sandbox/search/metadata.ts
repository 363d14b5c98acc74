/**
 * The search's per-index memory: metadata of every document (with which acts only amend others, and which acts they
 * amend) and the document of every article. Loaded once per open index (about 0.1 s on the full corpus) and kept
 * while the index object lives.
 */
import type { SourceTypeEntry } from '../../contract/types.js';
import type { DocumentRow, SearchIndex } from '../storage.js';
import { AMENDING_TITLE, nominativeTitle } from '../../shared/act-titles.js';
import { analyze } from '../text/analysis.js';
import type { ThesaurusSense } from '../text/thesaurus.js';

/** A document as the search sees it: its stored row plus what ranking derives from the title. */
export interface DocumentMeta extends Omit<DocumentRow, 'title_stems' | 'judges_json'> {
  /** Every member of the panel, the chair first (`judges` of the corpus); `[]` for statutes and documents without one. */
  judges: string[];
  /** The analyzed title's stems. */
  titleStems: Set<string>;
  /** An act that only amends, supplements or repeals other acts (see `ranking.ts`, `documentPrior`). */
  amending: boolean;
  /** For an amending act: rowids of the corpus's documents it amends, recognised by title (see {@link AMENDING_TITLE}). */
  amends: number[];
  /**
   * For a law or code: rowids of the later laws or codes of the same title in the corpus (a new Закон за обществените
   * поръчки of 2016 after the one of 2004), latest first; `[]` when there is none (see `ranking.ts`, `documentPrior`).
   */
  supersededBy: number[];
  /** Number of articles (elements) of the document. */
  articleCount: number;
  /**
   * The document's in-degree in the corpus's amendment graph: how many acts of the corpus amend it (their titles name
   * it, {@link amends}); 0 for others. The authority prior of `ranking.ts` (`authorityPrior`) reads it.
   */
  amendedBy: number;
  /**
   * For an amending act of an act the index does not hold (no law or code of that title, see {@link holdsTitle}): that
   * act's title in the nominative („Закон за движението по пътищата“, „Търговски закон“, from the amending act's own
   * title by {@link nominativeTitle}); null otherwise. The corpus then holds only the act's amendments, and the search
   * says so (`SearchResult.absent_act`).
   */
  absentAct: string | null;
}

/** What `search` reads from memory. */
export interface SearchMetadata {
  /** By documents rowid (index 0 unused). */
  documents: (DocumentMeta | undefined)[];
  /** Document rowid of each article, by article id (0 for ids without an article). */
  articleDocument: Int32Array;
  /** Length of each article's text in characters, by article id (so passages are looked for without reading it). */
  articleLength: Int32Array;
  /** Articles in the index (the `total` of IDF). */
  articleCount: number;
  /** The largest `DocumentMeta.amendedBy` of the corpus (0 when nothing is amended). */
  maxAmendedBy: number;
  /** The index's catalog (`SearchIndex.sourceTypes()`). */
  sourceTypes: SourceTypeEntry[];
  /**
   * Articles per stem (`stem`) or per family prefix (`stem*`) looked up so far: the index does not change while open,
   * and a long query looks up hundreds. Bounded by `STEM_COUNTS_CACHED` (`ranking.ts`).
   */
  stemCounts: Map<string, number>;
  /**
   * Thesaurus senses by headword stem (`text/thesaurus.ts`): set by `search` on first use from the index
   * (`SearchIndex.thesaurus`, an empty map when it has none), not when this is loaded, so that starting stays fast.
   * Measurements replace it (`bench/expansions.js`).
   */
  thesaurus?: ReadonlyMap<string, readonly ThesaurusSense[]>;
  /**
   * Other light stems of the same Hunspell lexeme, by light stem (`morphology.ts`, `buildLexemes`); when set, they
   * replace the family prefix of a rare typed word (`ranking.ts`, `planQuery`). Undefined in the sandbox: measured
   * on the judged set, they lost citizen questions (docs/benchmarks.md, "Relevance"); `bench/expansions.js` measures
   * them.
   */
  lexemes?: ReadonlyMap<string, readonly string[]>;
  /**
   * True: re-rank the best acts' articles by relevance feedback (`ranking.ts`, `feedbackWithinDocument`). Off in the
   * sandbox; `bench/expansions.js` measures it.
   */
  feedback?: boolean;
}

const cache = new WeakMap<SearchIndex, SearchMetadata>();

/**
 * Whether the index holds an act of the analysed title `amended` (stems joined by spaces): a primary act's title of
 * the same stems, or one that starts with them (an act renamed by a longer title since: „Закон за търговския
 * регистър“ → „… и регистъра на юридическите лица с нестопанска цел“). Errs towards "held": saying wrongly that the
 * corpus lacks an act would send a user away from an answer it has.
 */
function holdsTitle(primaryTitles: readonly string[], amended: string): boolean {
  return primaryTitles.some((title) => title === amended || title.startsWith(`${amended} `));
}

/** A statute whose type is Закон or Кодекс (not a court decision). */
function isLawOrCode(meta: DocumentMeta): boolean {
  return meta.court_id === null && (meta.type === 'Закон' || meta.type === 'Кодекс');
}

/** The metadata of `index`, loaded on first use and cached per index object. @throws the index's SQLite errors. */
export function searchMetadata(index: SearchIndex): SearchMetadata {
  const cached = cache.get(index);
  if (cached) return cached;
  const documents: (DocumentMeta | undefined)[] = [];
  // Primary acts by their analyzed title, to find what an amending act amends: "… на Закона за обществените поръчки"
  // and "Закон за обществените поръчки" analyze to the same stems.
  const primaryByTitle = new Map<string, number[]>();
  // Per amending act: the amended act's title as written after „на“, and its stems.
  const amendedTitles = new Map<number, { written: string; stems: string }>();
  for (const { title_stems, judges_json, ...row } of index.documentRows()) {
    const amending = AMENDING_TITLE.exec(row.title);
    documents[row.id] = {
      ...row,
      judges: judges_json === null ? [] : (JSON.parse(judges_json) as string[]),
      titleStems: new Set(title_stems.split(' ').filter((s) => s !== '')),
      amending: amending !== null,
      amends: [],
      amendedBy: 0,
      supersededBy: [],
      articleCount: 0,
      absentAct: null,
    };
    if (amending === null) {
      const list = primaryByTitle.get(title_stems);
      if (list) list.push(row.id);
      else primaryByTitle.set(title_stems, [row.id]);
    } else if (amending[1] !== undefined) {
      amendedTitles.set(row.id, { written: amending[1], stems: analyze(amending[1]).join(' ') });
    }
  }
  const primaryTitles = [...primaryByTitle.keys()];
  for (const [id, { written, stems: amended }] of amendedTitles) {
    const meta = documents[id];
    if (!meta) continue;
    meta.amends = primaryByTitle.get(amended) ?? [];
    // An act repealed by an act of the corpus („Закон за отмяна на …“) is not an act whose amendments stand for it.
    const repeal = /^\s*\S+\s+за\s+(?:отмяна|отменяне)/iu.test(meta.title);
    if (meta.amends.length === 0 && amended !== '' && !repeal && !holdsTitle(primaryTitles, amended)) {
      // The nominative's stems too: „Семейния кодекс“ and „Семеен кодекс“ stem apart, and the corpus holds the code.
      const nominative = nominativeTitle(written);
      if (!holdsTitle(primaryTitles, analyze(nominative).join(' '))) meta.absentAct = nominative;
    }
  }
  for (const meta of documents) for (const id of meta?.amends ?? []) documents[id]!.amendedBy++;
  // Laws and codes of one title: each is followed by the later ones (the corpus holds acts as first published, among
  // them acts replaced since by a new act of the same name). Other kinds (decisions, tariffs) repeat titles freely.
  for (const ids of primaryByTitle.values()) {
    const acts = ids.filter((id) => isLawOrCode(documents[id]!));
    if (acts.length < 2) continue;
    for (const id of acts) {
      const meta = documents[id]!;
      meta.supersededBy = acts
        .filter((other) => documents[other]!.date > meta.date)
        .sort((a, b) => documents[b]!.date.localeCompare(documents[a]!.date));
    }
  }
  const articleDocument = new Int32Array(index.maxArticleId() + 1);
  const articleLength = new Int32Array(articleDocument.length);
  for (const [article, doc, length] of index.articleDocumentPairs()) {
    articleDocument[article] = doc;
    articleLength[article] = length;
    const meta = documents[doc];
    if (meta) meta.articleCount++;
  }
  const metadata: SearchMetadata = {
    documents,
    articleDocument,
    articleLength,
    articleCount: index.articleCount,
    maxAmendedBy: documents.reduce((max, m) => Math.max(max, m?.amendedBy ?? 0), 0),
    sourceTypes: index.sourceTypes(),
    stemCounts: new Map(),
  };
  cache.set(index, metadata);
  return metadata;
}
