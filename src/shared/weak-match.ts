/**
 * Weak matches among search results: a result whose score is under half of the first result's. The sandbox marks
 * them (`weak_match`, `sandbox/search/pipeline.ts`) and `pravo search` shows them apart (`render/search.ts`), by this
 * one rule. Scores are the spec's relevance scores (spec: Search result, "a relevance score"); on the sandbox's scale
 * (docs/sandbox.md, "The score scale") half of the first is where a result stops holding what made the first one
 * match.
 */

/** A result scoring under this share of the first result's score is a weak match. */
export const WEAK_MATCH_RATIO = 0.5;

/**
 * Whether a result of score `score` is a weak match beside a first result of score `first`: `score < first ×
 * WEAK_MATCH_RATIO`. Never when either score is unknown or the first is not positive.
 */
export function isWeakMatch(score: number | undefined, first: number | undefined): boolean {
  return score !== undefined && first !== undefined && first > 0 && score < first * WEAK_MATCH_RATIO;
}
