/**
 * The results of the last search, kept so that a later `pravo doc N` or `pravo open N` can open result N. `document_id`,
 * `collection` and `url` are stored exactly as the server sent them (spec: Search result, `collection`). The file is
 * `last-results.json` in the state directory (`pravoPaths(env).state`), mode 0600, written atomically. (Before, it
 * lived beside config.json; a file left there is no longer read.)
 */
import path from 'node:path';
import { readJsonFile, writeFileAtomic } from './atomic.js';
import { pravoPaths } from './paths.js';

/** One stored result: its rank (1-based), the pair that identifies the document, and its title and link. */
export interface StoredResult {
  rank: number;
  document_id: string;
  collection: string;
  title: string;
  /**
   * The result's `url` exactly as the server sent it, for `pravo open N`; only when it sent a string (possibly empty).
   * Results stored by pravo before `pravo open` have none. Not checked here: `pravo open` checks it before use.
   */
  url?: string;
  /**
   * What `pravo open N` says of the link, when the result carried them (sandbox): the date its text is current as of,
   * whether it is consolidated, and the date of the text the page at `url` shows (`url_as_of`, see `linkNoteOf`).
   */
  as_of?: string;
  consolidated?: boolean;
  url_as_of?: string;
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

/** The file that holds the last results: `<state dir>/last-results.json`. */
export function lastResultsFile(env: NodeJS.ProcessEnv): string {
  return path.join(pravoPaths(env).state, 'last-results.json');
}

/**
 * Replaces the stored last results (atomically, mode 0600; the state directory is created 0700 when missing).
 * @throws StateDirectoryError when the state directory cannot be created.
 * @throws StateWriteError when the file cannot be written (the previous results are then kept).
 */
export async function saveLastResults(env: NodeJS.ProcessEnv, last: LastResults): Promise<void> {
  await writeFileAtomic(lastResultsFile(env), `${JSON.stringify(last, null, 2)}\n`, { mode: 0o600 });
}

/**
 * The stored last results, or `undefined` when none are stored, or the file is not valid JSON or has no `results`
 * array (a damaged file is overwritten by the next search).
 * @throws the fs error when the file exists but cannot be read (`EACCES`, `EISDIR`, …).
 */
export async function loadLastResults(env: NodeJS.ProcessEnv): Promise<LastResults | undefined> {
  const last = await readJsonFile<LastResults>(lastResultsFile(env));
  return typeof last === 'object' && last !== null && Array.isArray(last.results) ? last : undefined;
}
