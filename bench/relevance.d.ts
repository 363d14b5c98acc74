// Types of bench/relevance.js (plain JavaScript, run by node), for the TypeScript tests that import it.

export interface JudgedAnswer {
  document_id: string;
  refs: string[];
}

export type JudgedKind = 'lawyer' | 'citizen' | 'keywords';

export interface JudgedQuestion {
  id: string;
  kind: JudgedKind;
  query: string;
  /** Empty for a question on an absent act. */
  answers: JudgedAnswer[];
  /** For a question governed by an act the corpus lacks (it holds only its amendments): that act's title. */
  absent_act?: string;
  note?: string;
  /** The file the question was loaded from (set by loadJudgedSet). */
  file?: string;
}

/** Fractions 0–1 over the group's n questions; null when n is 0. */
export interface GroupMetrics {
  n: number;
  article_s1: number | null;
  article_s3: number | null;
  article_mrr: number | null;
  act_s1: number | null;
  act_s3: number | null;
}

/** 1-based ranks within the first k results; Infinity when none. */
export interface QuestionRanks {
  id: string;
  kind: string;
  articleRank: number;
  actRank: number;
}

export type Part = 'tuning' | 'held_out';

/** Metrics of a set of answered questions, overall and by group. */
export interface PartMetrics {
  overall: GroupMetrics;
  byKind: { lawyer: GroupMetrics; citizen: GroupMetrics; keywords: GroupMetrics; caselaw: GroupMetrics };
}

/** Over the answered questions (those on absent acts are counted in `absent` and `parts[…].absent`). */
export interface RelevanceResult extends PartMetrics {
  parts: Record<Part, PartMetrics & { absent: { n: number; noted: number } }>;
  /** Each question on an absent act: whether the first result noted the act. */
  absent: Array<{ id: string; part: Part; noted: boolean }>;
  perQuestion: Array<QuestionRanks & { part: Part }>;
  k: number;
}

/** The part of a search response that is scored. */
export interface ScoredResponse {
  results?: Array<{ document_id: string; excerpts?: Array<{ excerpt_id: string }>; absent_act?: string }>;
}

export const JUDGED_DIR: string;
export const BASELINE_FILE: string;
export const KINDS: readonly JudgedKind[];
export const GROUPS: readonly string[];
export const WORDING_RUN: number;
export const TUNING_FILES: readonly string[];
export const PARTS: readonly Part[];
export function partOf(question: JudgedQuestion): Part;
export function notesAbsentAct(question: JudgedQuestion & { absent_act: string }, response: { results?: Array<{ absent_act?: string }> }): boolean;

export function loadJudgedSet(dir?: string): JudgedQuestion[];
export function isCaseLaw(question: JudgedQuestion): boolean;
export function rankHits(question: JudgedQuestion, response: ScoredResponse, k: number): { articleRank: number; actRank: number };
export function evaluate(
  searchFn: (query: string, maxResults: number) => ScoredResponse | Promise<ScoredResponse>,
  questions: JudgedQuestion[],
  options?: { k?: number },
): Promise<RelevanceResult>;
export function formatRelevance(
  result: Pick<RelevanceResult, 'overall' | 'byKind'> & Partial<Pick<RelevanceResult, 'parts'>>,
  baseline?: Pick<RelevanceResult, 'overall' | 'byKind'> & Partial<Pick<RelevanceResult, 'parts'>> & { commit?: string; measured_at?: string },
): string[];
export function checkWording(questions: JudgedQuestion[], corpus: string | string[]): Promise<string[]>;
