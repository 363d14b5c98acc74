/**
 * The sandbox's `POST /v1/search` (spec: POST /v1/search, Search result, Search response): multi-stage ranking over the
 * corpus index (`SearchIndex`, `../storage.ts`; over the file of `corpus/index-db.ts`).
 *
 * 1. Analysis (`text/analysis.ts`): the query's distinct stems with the words typed for them; none left → 0 results.
 *    Source types chosen (`source-types.ts`) and documents filtered (`filters.ts`). Each word becomes a term group
 *    with the legal terms the vocabulary gives for it (`vocabulary.ts`).
 * 2. Plan and candidates (`ranking.ts`, `planQuery`, `scoreArticles`): groups matched rarest first within the
 *    query's postings budget; per stem, the BM25 score of every matching article of an allowed document; the best
 *    `MAX_CANDIDATE_ARTICLES` remain.
 * 3. Documents (`ranking.ts`, `scoreDocuments`): candidates grouped by document and scored from their articles, with
 *    act-level length normalization and the amending-act prior.
 * 4. Excerpts (`excerpts.ts`): up to 3 of the document's best articles (only those close to its best one; of a court
 *    decision, paragraphs of its reasons and operative part: `decision-parts.ts`), each cut to a passage of at most
 *    `EXCERPT_MAX_CHARS` opening on the densest run of matched words.
 * 5. Explanation (`explanation.ts`): short Bulgarian sentences naming every word of the query as typed, once: matched
 *    in the excerpted articles (named), in the title, elsewhere in the document, not found, searched also as legal
 *    terms, skipped as too frequent for the query's budget, or skipped as too common or too short.
 */
import { LIMITS } from '../../contract/limits.js';
import type { SearchRequest, SearchResponse, SearchResult } from '../../contract/types.js';
import type { ArticleRow, SearchIndex } from '../storage.js';
import { analyze, analyzeQuery, createStemMatcher, stem, type StemMatch } from '../text/analysis.js';
import { ownHeading } from '../corpus/headings.js';
import { excerptArticles, excerptsOf } from './excerpts.js';
import { decisionPartOf, excerptPartsNote, type ParagraphPart } from './decision-parts.js';
import { explain } from './explanation.js';
import { allowedDocuments, documentsHolding, noResultsReason } from './filters.js';
import { isWeakMatch } from '../../shared/weak-match.js';
import { searchMetadata, type DocumentMeta, type SearchMetadata } from './metadata.js';
import { FEEDBACK_DOCUMENTS, feedbackWithinDocument, idf, MAX_QUERY_TERMS, orderWithinDocument, resultScore, type ArticleHit, type DocumentHit, pinReferencedArticles, planQuery, queryPhrases, rescoreByPassage, scoreArticles, scoreDocuments } from './ranking.js';
import { abbreviationTable, parseReferences, planReferences } from './references.js';
import { SENSE_FEEDBACK_ARTICLES, termGroups, withThesaurus, withTranslations, type FeedbackArticle } from './vocabulary.js';
import { chooseSourceTypes, isCaseLawType } from './source-types.js';

/**
 * Loads the per-index metadata `search` keeps in memory (document metadata, article → document map; about 0.1 s on
 * the full corpus), so that the first search is as fast as the others. Optional: `search` does it on first use.
 * @throws the index's SQLite errors.
 */
export function prepareSearch(index: SearchIndex): void {
  searchMetadata(index);
}

/**
 * Checks what the search itself rejects as invalid, without searching: the source-type choice (`chooseSourceTypes`,
 * the same call `search` makes): an unknown source type, or `court_ids` with only non-court types (spec: POST
 * /v1/search, rule 1). For requests that must be refused before anything is consumed or queued
 * (`POST /v1/answers`). Fast: no article is read.
 * @param request a request `searchRequestProblems` found nothing wrong with.
 * @throws SearchRequestError (`invalid_request`) as `search` would; the index's SQLite errors.
 */
export function checkSearchRequest(index: SearchIndex, request: SearchRequest): void {
  chooseSourceTypes(request, searchMetadata(index).sourceTypes);
}

/**
 * Runs `POST /v1/search` on the index (spec: POST /v1/search; result shape: Search result, Search response).
 *
 * The request must already be valid (`searchRequestProblems` found nothing); this applies the semantics:
 * source-type selection (`chooseSourceTypes`), inclusive `date_from`/`date_to` on the publication `date`,
 * `court_ids` and `judge_name` (`decisionJudgeMatcher`: the reporting judge or any judge of the panel) on documents
 * of case-law types (documents of explicitly selected non-court types are not affected by them), `max_results`
 * (default 20).
 *
 * Results: ranked by score, ties by `document_id`; `score` on one scale for all queries (`absoluteScore`: 0 to 1,
 * 4 decimals, > 0);
 * each result's `excerpts` (≤ 3; `score` relative to the best excerpt of the first 50 ranked, whatever `max_results`; `text` ≤ 400 characters) and a
 * Bulgarian `explanation`; court fields only for documents of case-law types. Never the full document or `elements`.
 * A query with no indexable words (only stopwords) or no matches gives `result_count` 0 and `results` [], with
 * `no_results_reason` (`filters.ts`, `noResultsReason`: what each filter left). A result scoring under half of the
 * first one's is marked `weak_match` (`shared/weak-match.ts`).
 *
 * @throws SearchRequestError (`invalid_request`) for an unknown source type or `court_ids` with only non-court types.
 */
export function search(index: SearchIndex, request: SearchRequest): SearchResponse {
  const metadata = searchMetadata(index);
  const selected = new Set(chooseSourceTypes(request, metadata.sourceTypes));
  const caseLaw = new Set([...selected].filter((t) => isCaseLawType(t, metadata.sourceTypes)));
  // No results, and why (the sandbox's `no_results_reason`: what the filters left).
  const empty = (kind: 'no_words' | 'searched', holding?: () => ReadonlySet<number>): SearchResponse => ({
    query: request.query,
    result_count: 0,
    results: [],
    no_results_reason: noResultsReason(request, metadata, selected, caseLaw, kind, holding),
  });
  if (selected.size === 0) return empty('searched');
  const allowed = allowedDocuments(request, metadata, selected, caseLaw);
  /** The index as this search reads it: each article and each stem's matches read once (see `readOnce`). */
  const reader = readOnce(index);

  // Stage 1: references and abbreviations out of the query, the rest analysed.
  const { references, rest } = parseReferences(request.query, abbreviationTable(metadata));
  const referencePlan = planReferences(references, allowed, index);
  const analyzed = analyzeQuery(rest);
  const terms = [...analyzed.terms];
  for (const word of referencePlan.words) {
    const s = stem(word);
    if (!terms.some((t) => t.stem === s)) terms.push({ stem: s, surfaces: [] });
  }
  if (terms.length === 0) {
    // Nothing to search but the acts named: an act whose provision was not found (or named alone) is the answer.
    for (const [id, first] of referencePlan.standIns) if (!referencePlan.pinned.has(id)) referencePlan.pinned.set(id, [first]);
    if (referencePlan.pinned.size === 0) return empty('no_words');
  }

  // Stages 2 and 3.
  // The translation model first (`withTranslations`): the law's words for the words typed, before the first pass; not
  // for a query of more words than one query searches (a list of words, not a question), as for the thesaurus.
  let groups = termGroups(terms);
  if (groups.length <= MAX_QUERY_TERMS) groups = [...withTranslations(groups, (s) => index.translations(s))];
  let plan = planQuery(reader, metadata, groups);
  let hits = scoreArticles(reader, metadata, plan, allowed);
  // The index's thesaurus, read on the first search that needs it (not at start); an empty map when it has none.
  const thesaurus = (metadata.thesaurus ??= index.thesaurus() ?? new Map());
  // Thesaurus senses the rest of the query supports: synonyms the best candidates that lack the word hold (see
  // `withThesaurus`). Not for a
  // query of more words than one query searches (a list of words, not a question): a second pass would double its cost.
  if (thesaurus.size > 0 && groups.length <= MAX_QUERY_TERMS) {
    const expanded = withThesaurus(groups, thesaurus, feedbackArticles(reader, hits));
    if (expanded !== groups) {
      groups = [...expanded];
      plan = planQuery(reader, metadata, groups);
      hits = scoreArticles(reader, metadata, plan, allowed);
    }
  }
  const searched = plan.stems.flat();
  const matchText = createStemMatcher(
    searched.filter((s) => s.family !== true).map((s) => s.stem),
    searched.filter((s) => s.family === true).map((s) => s.stem),
  );
  // Each text matched once: the passages, the excerpts and the explanation read the same articles.
  const matchedTexts = new Map<string, StemMatch[]>();
  const matcher = (text: string): StemMatch[] => {
    let matches = matchedTexts.get(text);
    if (matches === undefined) {
      matches = matchText(text);
      matchedTexts.set(text, matches);
    }
    return matches;
  };
  const groupOf = new Map(plan.stems.flatMap((list, g) => list.map((s): [string, number] => [s.stem, g])));
  rescoreByPassage(reader, metadata.articleLength, hits, plan.weights, matcher, groupOf, queryPhrases(rest));
  const maxResults = request.max_results ?? LIMITS.maxResultsDefault;
  const scored = leadWithAbsentAct(scoreDocuments(hits, metadata, groups, plan.weights, allowed, referencePlan.boost));
  // Every request ranks the same first RANKED_WINDOW documents and returns its first `max_results` of them, so that
  // the first k results for k are the first k for any larger k (nothing below depends on `max_results`).
  for (const doc of scored.slice(0, RANKED_WINDOW)) orderWithinDocument(doc, groups.length);
  if (metadata.feedback === true) {
    // Relevance feedback within the best acts (measured in bench/expansions.js; off unless asked).
    const searchedStems = new Set(plan.stems.flat().map((s) => s.stem));
    const stemsOf = (article: number): string[] => articleStems(reader, article);
    const idfOf = (s: string): number => idf(index.stemArticleCount(s), metadata.articleCount);
    for (const doc of scored.slice(0, FEEDBACK_DOCUMENTS)) feedbackWithinDocument(doc, stemsOf, searchedStems, idfOf);
  }
  const window = pinReferencedArticles(scored, referencePlan.pinned, metadata, plan.weights, referencePlan.followers).slice(0, RANKED_WINDOW);
  // The part of each paragraph of a court decision (`decision-parts.ts`): a decision that matched only in text printed
  // after it (the next State Gazette items a few acts of the corpus carry) is no result.
  const partOf = (doc: DocumentHit): ((article: number) => ParagraphPart | undefined) | undefined =>
    doc.meta.court_id === null ? undefined : (article) => decisionPartOf(index, doc.meta.id, article);
  for (let i = window.length - 1; i >= 0; i--) {
    const parts = partOf(window[i]!);
    if (parts !== undefined && window[i]!.articles.every((a) => parts(a.article)?.part === 'appended')) window.splice(i, 1);
  }
  // Nothing found: with the documents of the whole corpus that hold the query's words (what widening would find).
  if (window.length === 0) return empty('searched', () => documentsHolding(index, metadata, plan.stems));

  // Scores on the absolute scale, with the key-term ceiling; a result the ceiling lowers moves below the results
  // that kept a higher score (stable otherwise), so that results stay ordered by the score they show. Sorted over the
  // whole window, then cut: a lowered result is not replaced by one from past the cut.
  const scores = new Map(
    window.map((doc) => [doc, resultScore(doc.score, plan.weights, doc.articles[0], referencePlan.pinned.has(doc.meta.id))]),
  );
  window.sort((a, b) => scores.get(b)! - scores.get(a)!);
  const ranked = window.slice(0, maxResults);
  const firstScore = scores.get(ranked[0]!);

  // Stages 4 and 5. Excerpt scores are relative to the best excerpt of the whole window, so that a result reads the
  // same whatever `max_results` cut the list.
  // A decision's excerpts come from its reasons and operative part (`excerptArticles`).
  const picked = window.map((doc) => {
    const parts = partOf(doc);
    return excerptArticles(doc, parts && ((article) => parts(article)?.part));
  });
  const bestExcerpt = Math.max(...picked.flat().map((a) => a.score));
  const results = ranked.map((doc, i): SearchResult => {
    const articles = picked[i] ?? [];
    const { excerpts, headings, rows, matched } = excerptsOf(reader, doc, articles, bestExcerpt, matcher);
    const parts = partOf(doc);
    const m = doc.meta;
    const result: SearchResult = {
      document_id: m.document_id,
      collection: m.collection,
      type: m.type,
      title: m.title,
      date: m.date,
      author: m.author ?? '',
      url: m.url ?? '',
      excerpts,
      score: scores.get(doc)!,
      weak_match: isWeakMatch(scores.get(doc), firstScore),
      explanation: [
        ...referencePlan.notes,
        absentActNote(m),
        explain(doc, articles, excerpts.map((e) => e.label ?? ''), analyzed, plan, headings, questionsOnly(rows, matched, matcher, groupOf)),
        parts === undefined ? '' : excerptPartsNote(articles.map((a, k) => ({ label: excerpts[k]?.label ?? '', part: parts(a.article) }))),
        ...rows.map((row) => index.ruling(row.id)),
        supersededNote(m, metadata),
      ]
        .filter((p) => p !== '')
        .join(' '),
      source_type: m.source_type,
    };
    if (m.as_of !== null) result.as_of = m.as_of;
    if (m.consolidated !== null) result.consolidated = m.consolidated === 1;
    if (m.url_as_of !== null) result.url_as_of = m.url_as_of;
    if (m.absentAct !== null) result.absent_act = m.absentAct;
    if (isCaseLawType(m.source_type, metadata.sourceTypes)) {
      if (m.decision_number !== null) result.decision_number = m.decision_number;
      if (m.case_number !== null) result.case_number = m.case_number;
      if (m.reporting_judge !== null) result.reporting_judge = m.reporting_judge;
      if (m.court_id !== null) result.court_id = m.court_id;
      if (m.court !== null) result.court = m.court;
    }
    return result;
  });
  return { query: request.query, result_count: results.length, results };
}

/**
 * The query groups that `rows` (a result's excerpted articles) hold only in their written questions and keywords
 * (`ArticleRow.subject`), not in the text or own heading of any of them: the explanation says so rather than
 * „Съвпадение … в Чл. N“. `inText`: per row, the searched stems its text holds (`excerptsOf`).
 */
function questionsOnly(
  rows: readonly ArticleRow[],
  inText: readonly ReadonlySet<string>[],
  matcher: (text: string) => StemMatch[],
  groupOf: ReadonlyMap<string, number>,
): Set<number> {
  const inQuestions = new Set<number>();
  for (const row of rows) if (row.subject !== '') for (const m of matcher(row.subject)) inQuestions.add(groupOf.get(m.stem) ?? -1);
  inQuestions.delete(-1);
  if (inQuestions.size === 0) return inQuestions;
  rows.forEach((row, k) => {
    for (const s of inText[k] ?? []) inQuestions.delete(groupOf.get(s) ?? -1);
    for (const m of matcher(ownHeading(row.heading))) inQuestions.delete(groupOf.get(m.stem) ?? -1);
  });
  return inQuestions;
}

/**
 * `index` as one search reads it: an article row (`article`) and a stem's matches (`matchStem`) are read from the
 * index once and then given again, the same objects, for the rest of the search (the passages, the feedback and the
 * excerpts read the same best articles; a second pass with thesaurus senses matches the first pass's stems again).
 * Nothing the search reads is modified, so the results are those of reading each time.
 */
function readOnce(index: SearchIndex): SearchIndex {
  const articles = new Map<number, ArticleRow | undefined>();
  const matches = new Map<string, [number, number][]>();
  // Everything else is `index`'s own (the prototype), whatever kind of object it is.
  return Object.assign(Object.create(index) as SearchIndex, {
    article(id: number): ArticleRow | undefined {
      if (!articles.has(id)) articles.set(id, index.article(id));
      return articles.get(id);
    },
    matchStem(stem: string, prefix = false): [number, number][] {
      const key = `${prefix ? '*' : ' '}${stem}`;
      let found = matches.get(key);
      if (found === undefined) {
        found = index.matchStem(stem, prefix);
        matches.set(key, found);
      }
      return found;
    },
  });
}

/**
 * Documents every search ranks in full (articles ordered, key-term ceiling applied), whatever its `max_results`: the
 * largest `max_results` the contract allows, so that a request's results are the first of the same ranking.
 */
const RANKED_WINDOW = LIMITS.maxResultsMax;

/** Most characters of one article read for feedback (the start of a very long article is enough). */
const FEEDBACK_ARTICLE_CHARS = 4000;

/** The analysed stems of an article's heading and the first {@link FEEDBACK_ARTICLE_CHARS} of its text, for feedback. */
function articleStems(index: SearchIndex, article: number): string[] {
  const row = index.article(article);
  return row === undefined ? [] : analyze(`${row.heading} ${row.text.slice(0, FEEDBACK_ARTICLE_CHARS)}`);
}

/**
 * For the thesaurus's sense check (`withThesaurus`): the best {@link SENSE_FEEDBACK_ARTICLES} candidate articles (by
 * article score), each with the query groups it matched and its stems, reading at most {@link FEEDBACK_ARTICLE_CHARS}
 * of each. `hits` is not reordered.
 */
function feedbackArticles(index: SearchIndex, hits: readonly ArticleHit[]): FeedbackArticle[] {
  const best = [...hits].sort((a, b) => b.score - a.score || a.article - b.article).slice(0, SENSE_FEEDBACK_ARTICLES);
  return best.map((hit) => ({ groups: hit.terms, stems: new Set(articleStems(index, hit.article)) }));
}

/** Share of the next amending act's score an absent act's evidence adds (1, ½, ¼, … of its acts, best first). */
const ABSENT_EVIDENCE_DECAY = 0.5;

/**
 * Puts first the best amending act of an act the index does not hold (`DocumentMeta.absentAct`) when the amending
 * acts of that act, together, are better evidence than the first document: their scores summed with weights 1, ½, ¼,
 * … (best first; {@link ABSENT_EVIDENCE_DECAY}) exceed its score. Many acts amending the Закон за движението по
 * пътищата that match a question about a speeding fine say more than one weak match elsewhere: the law that answers
 * is that one, and the corpus lacks it, which the first result then says; that result's score becomes the summed
 * evidence (it stands for the absent act). Otherwise the order is kept.
 * @param documents ranked best first (`scoreDocuments`); returned reordered (a new array) or as is.
 */
export function leadWithAbsentAct(documents: DocumentHit[]): DocumentHit[] {
  const first = documents[0];
  if (first === undefined || first.meta.absentAct !== null) return documents;
  const evidence = new Map<string, { score: number; factor: number; best: DocumentHit }>();
  for (const doc of documents) {
    const act = doc.meta.absentAct;
    if (act === null) continue;
    const group = evidence.get(act) ?? { score: 0, factor: 1, best: doc };
    group.score += group.factor * doc.score;
    group.factor *= ABSENT_EVIDENCE_DECAY;
    evidence.set(act, group);
  }
  let lead: DocumentHit | undefined;
  let best = first.score;
  for (const group of evidence.values()) {
    if (group.score > best) {
      best = group.score;
      lead = group.best;
    }
  }
  if (lead === undefined) return documents;
  // It stands for the absent act: its score is that act's evidence, so that the order holds on the shown scale.
  lead.score = best;
  return [lead, ...documents.filter((d) => d !== lead)];
}

/**
 * For an amending act of an act the index does not hold (`DocumentMeta.absentAct`), the sentence that says so:
 * `Корпусът съдържа само изменения на „Закон за движението по пътищата“, не самия акт; този резултат е акт за изменението му.`;
 * `''` otherwise.
 */
function absentActNote(meta: DocumentMeta): string {
  if (meta.absentAct === null) return '';
  return `Корпусът съдържа само изменения на „${meta.absentAct}“, не самия акт; този резултат е акт за изменението му.`;
}

/**
 * For a law or code the corpus follows with a later act of the same title (`DocumentMeta.supersededBy`), the note that
 * says so, naming the latest: `По-късен акт със същото заглавие: act-14715 от 2013-12-12.`; `''` otherwise.
 */
function supersededNote(meta: DocumentMeta, metadata: SearchMetadata): string {
  const latest = meta.supersededBy[0] === undefined ? undefined : metadata.documents[meta.supersededBy[0]];
  return latest === undefined ? '' : `По-късен акт със същото заглавие: ${latest.document_id} от ${latest.date}.`;
}
