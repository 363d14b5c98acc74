/**
 * The results of the last search, kept so that a later `pravo doc N` can open result N. `document_id` and
 * `collection` are stored exactly as the server sent them (spec: Search result, `collection`). The file is
 * `last-results.json` beside the config file, written atomically by `conf`.
 */
import { openConf } from './store.js';

/** One stored result: its rank (1-based) and the pair that identifies the document. */
export interface StoredResult {
  rank: number;
  document_id: string;
  collection: string;
  title: string;
}

/** What is stored of the last search. */
export interface LastResults extends Record<string, unknown> {
  /** When the search completed, ISO 8601. */
  saved_at: string;
  query: string;
  /** Profile the search ran with, or `sandbox` for `pravo search --sandbox`. */
  profile: string;
  /** Whether the results came from an in-process sandbox, which is gone once the command ends. */
  sandbox: boolean;
  results: StoredResult[];
}

/** Replaces the stored last results. */
export async function saveLastResults(env: NodeJS.ProcessEnv, last: LastResults): Promise<void> {
  const conf = await openConf<LastResults>(env, 'last-results');
  conf.store = last;
}

/** The stored last results, or `undefined` when no search has been stored yet. */
export async function loadLastResults(env: NodeJS.ProcessEnv): Promise<LastResults | undefined> {
  const conf = await openConf<LastResults>(env, 'last-results');
  const last = conf.store;
  return Array.isArray(last.results) ? last : undefined;
}
