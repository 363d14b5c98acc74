/**
 * Matching the `judge_name` filter of `POST /v1/search` (spec: "case-insensitive, approximate match") against the
 * reporting judge of court decisions.
 */

/** Lowercased letter runs of a name, `ѝ` read as `и` ("Иван П. Иванов" → иван, п, иванов). */
export function nameTokens(name: string): string[] {
  return (name.toLowerCase().match(/\p{L}+/gu) ?? []).map((t) => t.replace(/ѝ/g, 'и'));
}

/** Levenshtein distance of `a` and `b`, stopping early (returning `limit + 1`) once it exceeds `limit`. */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length] ?? limit + 1;
}

/**
 * Whether a reporting judge's name matches the requested `judge_name` (spec: POST /v1/search, `judge_name`).
 * Every name token of the request must match some token of the judge's name: equal or a prefix of it (so initials
 * and shortened names match: "И. Петров" ↔ "Иван Петров Петров"), or, for tokens of 4+ letters, within edit distance 1
 * (2 from 8 letters), so "Иванова" ↔ "Иванов" and small typos match. Case and punctuation are ignored.
 */
export function judgeNameMatches(requested: string, reportingJudge: string): boolean {
  return judgeTokensMatch(nameTokens(requested), nameTokens(reportingJudge));
}

/** {@link judgeNameMatches} on names already split by {@link nameTokens}; false when `wanted` is empty. */
export function judgeTokensMatch(wanted: readonly string[], judge: readonly string[]): boolean {
  if (wanted.length === 0) return false;
  return wanted.every((w) =>
    judge.some((j) => j.startsWith(w) || (w.length >= 4 && editDistance(w, j, w.length >= 8 ? 2 : 1) <= (w.length >= 8 ? 2 : 1))),
  );
}
