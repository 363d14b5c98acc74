/**
 * Pure request builders of `pravo search` (spec: POST /v1/search): command-line options to a checked request body.
 * Shared by every command that sends the search fields (search, and later answer and batch).
 */
import { LIMITS, searchRequestProblems, type SearchRequest } from '../../api/types.js';
import { UsageError } from '../../errors/cli.js';

/** The search fields as commander parses them (strings, before checking). */
export interface SearchFieldOptions {
  type?: string[];
  court?: string[];
  judge?: string;
  from?: string;
  to?: string;
  maxResults?: string;
}

const OPTION_NAMES: Record<string, string> = {
  query: 'the query',
  max_results: '--max-results',
  date_from: '--from',
  date_to: '--to',
  court_ids: '--court',
  judge_name: '--judge',
  source_types: '--type',
};

/**
 * Builds the `POST /v1/search` body from the command line and checks it against the contract
 * (`searchRequestProblems`). `include_content` is deprecated and never sent.
 * @throws UsageError listing every problem, named by option; nothing has been sent.
 */
export function buildSearchRequest(query: string, options: SearchFieldOptions): SearchRequest {
  const problems: string[] = [];
  const request: SearchRequest = { query: query.trim() };
  if (options.type?.length) request.source_types = [...new Set(options.type.map((t) => t.trim()))];
  if (options.court?.length) {
    const ids = options.court.map((c) => c.trim());
    const bad = ids.filter((c) => !/^\d+$/.test(c));
    if (bad.length > 0) problems.push(`--court takes integer court identifiers from the catalog, not ${bad.map((b) => `"${b}"`).join(', ')}`);
    else request.court_ids = [...new Set(ids.map(Number))];
  }
  if (options.judge !== undefined) request.judge_name = options.judge.trim();
  if (options.from !== undefined) request.date_from = options.from.trim();
  if (options.to !== undefined) request.date_to = options.to.trim();
  if (options.maxResults !== undefined) {
    const n = options.maxResults.trim();
    if (!/^\d+$/.test(n)) problems.push(`--max-results takes a whole number from ${LIMITS.maxResultsMin} to ${LIMITS.maxResultsMax}, not "${n}"`);
    else request.max_results = Number(n);
  }
  for (const problem of searchRequestProblems(request)) {
    problems.push(problem.message.replace(/^(query|max_results|date_from|date_to|court_ids|judge_name|source_types)\b/, (f) => OPTION_NAMES[f] ?? f));
  }
  if (problems.length > 0) throw new UsageError(problems.join('\n'));
  return request;
}

/**
 * Parses `--timeout` seconds into milliseconds (default 60 s, the spec's reference timeout for search).
 * @throws UsageError unless it is a number of seconds from 1 to 3600.
 */
export function parseTimeout(value: string | undefined): number {
  if (value === undefined) return LIMITS.searchTimeoutMs;
  const seconds = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value.trim()) || seconds < 1 || seconds > 3600) {
    throw new UsageError(`--timeout takes a number of seconds from 1 to 3600, not "${value}"`);
  }
  return Math.round(seconds * 1000);
}
