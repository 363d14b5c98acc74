/**
 * Which document a command's `<N | document_id> [--collection C]` argument names, shared by `pravo doc` and `pravo
 * open`. A whole number N without `--collection` is result N of the last search (`document_id` and `collection`
 * exactly as stored by `pravo search`, spec: Search result, `collection`; also its `url` when the search stored one);
 * anything else is a `document_id`, which needs `--collection`. Pure functions; every error is a usage error found
 * before anything is sent, and names the command that asked (`pravo doc N`, `pravo open N`).
 */
import type { DocumentQuery } from '../api/resources/documents.js';
import { UsageError } from '../errors/cli.js';
import { sanitizeLine } from '../shared/sanitize.js';
import type { LastResults } from '../state/last-results.js';
import { flagsToReach, type RunTarget } from './targets.js';

/** What the argument names before the last results are read. */
export type DocumentArgument = { kind: 'rank'; rank: number } | { kind: 'id'; document_id: string; collection: string };

/**
 * Reads the argument: a whole number (digits only) without `--collection` is a rank; with `--collection` the argument
 * is always a `document_id` (so a numeric `document_id` can still be opened).
 * @throws UsageError for a `document_id` without `--collection`, an empty value, or rank 0.
 */
export function parseDocumentArgument(argument: string, collection: string | undefined): DocumentArgument {
  if (collection !== undefined) {
    if (argument === '') throw new UsageError('The document_id is empty.');
    if (collection === '') throw new UsageError('--collection is empty: give the collection of the search result, exactly as it was received.');
    return { kind: 'id', document_id: argument, collection };
  }
  if (/^\d+$/u.test(argument)) {
    const rank = Number(argument);
    if (!Number.isSafeInteger(rank) || rank < 1) throw new UsageError(`Results are numbered from 1, not ${argument}.`);
    return { kind: 'rank', rank };
  }
  throw new UsageError(
    `"${sanitizeLine(argument)}" is not a result number, so it is a document_id, and a document_id needs --collection C: ` +
      'the collection of the same search result (`pravo search ... | cut -f2,3` prints both).',
  );
}

/** The document of result N, with what the messages need. */
export interface RankedDocument extends DocumentQuery {
  rank: number;
  title: string;
  /**
   * The result's `url` exactly as the search received it (possibly empty), when the search stored one: searches of
   * pravo before `pravo open` stored none.
   */
  url?: string;
  /** The stored result's `as_of`, `consolidated` and `url_as_of`, when it has them (see `StoredResult`). */
  as_of?: string;
  consolidated?: boolean;
  url_as_of?: string;
}

/**
 * Result `rank` of the last search, for a run of `pravo <command>` against `current`. The result ids belong to the
 * target the search ran against, so a run against another one is refused with the exact command that opens the
 * result:
 * - the search ran with `--sandbox`, this run does not: `retry(' --sandbox')`;
 * - the search ran against the service, this run has `--sandbox`: `retry('')`, or `retry(' --profile P')` when the
 *   profile differs;
 * - both against the service with different profiles: `retry(' --profile P')`.
 * `retry` builds that command from the target flags to use; `command` (`doc`, `open`) is named in the message when
 * there are no stored results ("then `pravo open N` opens result N").
 * @returns `{rank, document_id, collection, title}`, and `url`, `as_of`, `consolidated`, `url_as_of` when the stored
 *   result has them (of their types).
 * @throws UsageError when there are no stored results, `rank` is out of range, the target differs, or the stored result
 *   is damaged.
 */
export function rankedDocument(
  last: LastResults | undefined,
  rank: number,
  current: RunTarget,
  retry: (targetFlags: string) => string,
  command: string,
): RankedDocument {
  if (last === undefined) {
    throw new UsageError(
      `There are no stored search results, so there is no result ${rank}: run \`pravo search "..."\` first, then \`pravo ${command} N\` opens result N (or give a document_id with --collection).`,
    );
  }
  const query = sanitizeLine(String(last.query ?? ''));
  const count = last.results.length;
  if (count === 0) throw new UsageError(`The last search, for "${query}", found nothing: there is no result ${rank}. Search again with other words.`);
  if (rank > count) {
    throw new UsageError(`The last search, for "${query}", had ${count} ${count === 1 ? 'result' : 'results'}: give a number from 1 to ${count}.`);
  }
  const searched: RunTarget = { sandbox: last.sandbox === true, profile: typeof last.profile === 'string' ? last.profile : 'default' };
  const flags = flagsToReach(searched, current);
  if (flags !== undefined) {
    const from = `Result ${rank} of the last search ("${query}") came from`;
    const why = searched.sandbox
      ? `${from} the sandbox (\`pravo search --sandbox\`), so it is opened there`
      : current.sandbox
        ? `${from} the service (profile "${sanitizeLine(searched.profile)}"), not the sandbox`
        : `${from} profile "${sanitizeLine(searched.profile)}", not "${sanitizeLine(current.profile)}"`;
    throw new UsageError(`${why}: run \`${retry(flags)}\`.`);
  }
  const result = last.results[rank - 1]!;
  if (typeof result.document_id !== 'string' || typeof result.collection !== 'string') {
    throw new UsageError(`The stored result ${rank} is damaged (no document_id or collection): run the search again.`);
  }
  return {
    rank,
    document_id: result.document_id,
    collection: result.collection,
    title: typeof result.title === 'string' ? result.title : '',
    ...(typeof result.url === 'string' ? { url: result.url } : {}),
    ...(typeof result.as_of === 'string' ? { as_of: result.as_of } : {}),
    ...(typeof result.consolidated === 'boolean' ? { consolidated: result.consolidated } : {}),
    ...(typeof result.url_as_of === 'string' ? { url_as_of: result.url_as_of } : {}),
  };
}
