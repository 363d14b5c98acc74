/**
 * `pravo answer --verify`: every cited source checked against its full document (spec: GET /v1/documents; Answer job,
 * "each citation marker in `answer` points to an `excerpt_id` or a `document_id`" of `sources`). The documents come
 * through the document cache shared with `pravo doc`, so one already retrieved spends nothing. Before retrieving,
 * pravo says how many retrieval units it may spend and, on a terminal, asks (`--yes` skips the question).
 * The matching itself is `legal/verify.ts`; this module plans, asks, retrieves and counts.
 */
import { AuthenticationError, CancelledError, QuotaExceededError } from '../../api/errors.js';
import type { AnswerJob } from '../../contract/types.js';
import { describeError } from '../../errors/advice.js';
import type { Factory } from '../../factory.js';
import type { Printer } from '../../io/printer.js';
import type { RetrievedDocument, Verification } from '../../legal/verify.js';
import { plural } from '../../render/text.js';
import { isDocumentCached, retrieveDocument } from '../../services/documents.js';
import { waitWithSpinner } from '../../services/waiting.js';

/**
 * Resolves the job's markers, works out which documents the resolved citations need and how many of them are cached,
 * says so on stderr, asks on a terminal when a retrieval would spend units (unless `yes`), retrieves the documents one
 * by one, and checks every citation. A document that cannot be retrieved is a verdict (`document_not_retrievable`),
 * not an error; after a rejected key or an exhausted quota the remaining documents are not asked for (each would fail
 * the same way) and get the same verdict.
 * @returns the verification, or `undefined` when the user declined at the prompt (nothing was retrieved).
 * @throws CancelledError / UserCancelledError on Ctrl-C; the prompt's cancellation; ConfigError for a bad
 *   `PRAVO_CACHE_TTL`.
 */
export async function verifyCitations(
  factory: Factory,
  printer: Printer,
  job: AnswerJob,
  options: { yes: boolean },
): Promise<Verification | undefined> {
  const [{ resolvedAnswerOf }, { checkCitations, documentKey, documentsToRetrieve, verificationReport }] = await Promise.all([
    import('../../legal/answer-markers.js'),
    import('../../legal/verify.js'),
  ]);
  const sources = job.sources ?? [];
  // The same resolution the answer is printed with, so that the checks' numbers are the printed ones.
  const resolved = resolvedAnswerOf(job);
  const wanted = documentsToRetrieve(resolved, sources);
  const cachedFlags = await Promise.all(wanted.map((query) => isDocumentCached(factory, query)));
  const toRetrieve = cachedFlags.filter((cached) => !cached).length;
  if (resolved.citations.length > 0) {
    printer.note(
      `Verifying ${plural(resolved.citations.length, 'citation')} needs ${plural(wanted.length, 'document')}: ` +
        `${wanted.length - toRetrieve} cached, ${toRetrieve} to retrieve (up to ${plural(toRetrieve, 'retrieval unit')}).`,
    );
  }
  if (toRetrieve > 0 && !options.yes) {
    const { confirm } = await import('@inquirer/prompts');
    const go = await confirm(
      { message: `Retrieve ${plural(toRetrieve, 'document')}, spending up to ${plural(toRetrieve, 'retrieval unit')}?`, default: true },
      { input: factory.io.stdin, output: factory.io.promptOutput, signal: factory.signal },
    );
    if (!go) {
      printer.note('Verification skipped; nothing was retrieved.');
      return undefined;
    }
  }

  const documents = new Map<string, RetrievedDocument>();
  let spent = 0;
  let fromCache = 0;
  let stop: string | undefined;
  let done = 0;
  await waitWithSpinner(
    factory,
    () => `Verifying citations: document ${Math.min(done + 1, wanted.length)} of ${wanted.length}`,
    async () => {
      for (const query of wanted) {
        const key = documentKey(query.document_id, query.collection);
        if (stop !== undefined) {
          documents.set(key, { error: stop });
          continue;
        }
        try {
          const result = await retrieveDocument(factory, query);
          documents.set(key, result.response.data);
          if (result.fromCache) fromCache++;
          else spent++;
        } catch (error) {
          if (error instanceof CancelledError || factory.signal.aborted) throw error;
          const summary = describeError(error, factory.errorContext('answer'));
          const detail = summary.code ? `${summary.code}: ${summary.message}` : summary.message;
          documents.set(key, { error: detail });
          if (error instanceof AuthenticationError || error instanceof QuotaExceededError) stop = `not asked for after: ${detail}`;
        }
        done++;
      }
    },
  );
  const checks = checkCitations(resolved, sources, documents);
  return { report: verificationReport(checks, { retrieval_units_spent: spent, documents_from_cache: fromCache }), resolved };
}
