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
  answers: JudgedAnswer[];
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

export interface RelevanceResult {
  overall: GroupMetrics;
  byKind: { lawyer: GroupMetrics; citizen: GroupMetrics; keywords: GroupMetrics; caselaw: GroupMetrics };
  perQuestion: QuestionRanks[];
  k: number;
}

/** The part of a search response that is scored. */
export interface ScoredResponse {
  results?: Array<{ document_id: string; excerpts?: Array<{ excerpt_id: string }> }>;
}

export const JUDGED_DIR: string;
export const BASELINE_FILE: string;
export const KINDS: readonly JudgedKind[];
export const GROUPS: readonly string[];
export const WORDING_RUN: number;

export function loadJudgedSet(dir?: string): JudgedQuestion[];
export function isCaseLaw(question: JudgedQuestion): boolean;
export function rankHits(question: JudgedQuestion, response: ScoredResponse, k: number): { articleRank: number; actRank: number };
export function evaluate(
  searchFn: (query: string, maxResults: number) => ScoredResponse | Promise<ScoredResponse>,
  questions: JudgedQuestion[],
  options?: { k?: number },
): Promise<RelevanceResult>;
export function formatRelevance(
  result: Pick<RelevanceResult, 'overall' | 'byKind'>,
  baseline?: Pick<RelevanceResult, 'overall' | 'byKind'> & { commit?: string; measured_at?: string },
): string[];
export function checkWording(questions: JudgedQuestion[], corpus: string | string[]): Promise<string[]>;
