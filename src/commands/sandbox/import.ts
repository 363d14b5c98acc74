/**
 * `pravo sandbox import SOURCE --out FILE`: acts of the National Assembly, as saved payloads in a directory or fetched
 * from its API, written as a corpus file the sandbox reads (the work is in `src/sandbox/import.ts`).
 *
 * Output: with `--json`, `{"out","imported","skipped"}` on stdout (`out` null when nothing was written); otherwise the
 * skipped acts and the outcome on stderr, stdout empty. A progress line on stderr only when it is a terminal.
 * Exit codes: 0 every act imported; 1 some skipped (the file holds the others), or none imported (no file written);
 * 6 none imported because the API could not be reached; 2 usage, before anything is read or sent.
 */
import { EnvironmentError, UsageError } from '../../errors/cli.js';
import { EXIT } from '../../errors/exit-codes.js';
import type { Factory } from '../../factory.js';
import type { Indicator } from '../../io/iostreams.js';
import { outputFileProblemOf } from '../../io/output-file.js';
import { RefusedLinkError } from '../../shared/user-files.js';
import { Printer } from '../../io/printer.js';
import { sanitizeLine } from '../../shared/sanitize.js';
import { plural } from '../../render/text.js';
import type { ImportPlan, ImportResult, SkippedAct } from '../../sandbox/index.js';
import { shellQuote } from '../../services/targets.js';

/** Options of `pravo sandbox import` as commander parses them. */
export interface ImportOptions {
  out?: string;
  /** `--id N`, repeatable. */
  id?: string[];
  concurrency?: string;
  json?: boolean;
}

/** What `pravo sandbox import --json` prints. */
export interface ImportJson {
  /** The file written; null when nothing could be imported (no file written). */
  out: string | null;
  imported: number[];
  skipped: { id: number; reason: string }[];
}

/**
 * Runs the import and reports it; returns the exit code (see the module comment).
 * @throws UsageError for a bad SOURCE, `--out`, `--id` or `--concurrency` (nothing read or sent); EnvironmentError when
 *   the output cannot be written (nothing written, no temporary file left).
 */
export async function runImport(factory: Factory, source: string, options: ImportOptions): Promise<number> {
  const { ImportUsageError, ImportWriteError, importActs, planImport } = await (await import('../../sandbox/index.js')).loadImporter();
  let plan: ImportPlan;
  try {
    plan = await planImport(source, { out: options.out, ids: options.id, concurrency: options.concurrency });
  } catch (error) {
    if (error instanceof ImportUsageError) throw new UsageError(sanitizeLine(error.message), { unsent: 'Nothing was read or sent.' });
    throw error;
  }

  let spinner: Indicator | undefined;
  let result: ImportResult;
  try {
    if (factory.io.showsProgress) spinner = await factory.io.startSpinner(progressText(0, plan.ids.length));
    result = await importActs(plan, {
      signal: factory.signal,
      clock: factory.clock,
      userAgent: `pravo/${factory.version}`,
      onProgress: (done, total) => spinner?.update(progressText(done, total)),
    });
  } catch (error) {
    if (error instanceof ImportWriteError) {
      const advice = error.cause instanceof RefusedLinkError ? '' : '; give --out a file in a writable directory';
      throw new EnvironmentError(
        `Cannot write ${sanitizeLine(plan.out)}: ${outputFileProblemOf(error.cause ?? error)}. Nothing was written (an existing file is unchanged)${advice}.`,
        { cause: error },
      );
    }
    throw error;
  } finally {
    spinner?.stop();
  }
  return report(factory, plan, result, source, options.json === true);
}

/** `Importing 3/10 acts…`. */
export function progressText(done: number, total: number): string {
  return `Importing ${done}/${total} ${total === 1 ? 'act' : 'acts'}…`;
}

/** Prints the outcome (see the module comment) and returns the exit code. */
function report(factory: Factory, plan: ImportPlan, result: ImportResult, source: string, json: boolean): number {
  const printer = new Printer(factory.io, json);
  const skipped = result.skipped.map((s) => ({ id: s.id, reason: sanitizeLine(s.reason) }));
  const exitCode = importExitCode(result);
  if (json) {
    const body: ImportJson = { out: result.written ? plan.out : null, imported: result.imported, skipped };
    factory.io.stdout.write(`${JSON.stringify(body)}\n`);
    return exitCode;
  }
  for (const s of skipped) printer.note(`Skipped act ${s.id}: ${s.reason}`);
  const out = sanitizeLine(plan.out);
  if (!result.written) {
    const advice = exitCode === EXIT.network
      ? 'Check the URL and the network, then run the same command again.'
      : plan.source.kind === 'url'
        ? 'Check the ids and the URL (the acts are at URL/api/v1/act/ID).'
        : 'Check the ids and the files (one act payload per <id>.json).';
    printer.note(`Nothing imported: ${out} was not written. ${advice}`);
    return exitCode;
  }
  const skippedNote = skipped.length === 0 ? '' : `; skipped ${plural(skipped.length, 'act')} (above)`;
  printer.note(`Wrote ${plural(result.imported.length, 'act')} to ${out}${skippedNote}.`);
  const again = retryable(result.skipped);
  if (again.length > 0) {
    const ids = again.map((s) => `--id ${s.id}`).join(' ');
    printer.note(`The server or the network failed for ${plural(again.length, 'act')}; to try them again: pravo sandbox import ${shellQuote(source)} ${ids} --out ${shellQuote(otherName(plan.out))}`);
  }
  return exitCode;
}

/** Acts skipped for a cause that may pass (the network, a server error or rate limit). */
function retryable(skipped: readonly SkippedAct[]): SkippedAct[] {
  return skipped.filter((s) => s.kind === 'network' || s.kind === 'server');
}

/** A name beside `out` for the retried acts: `acts.jsonl.gz` → `acts-retry.jsonl.gz`. */
function otherName(out: string): string {
  return out.replace(/(\.jsonl(\.gz)?)$/i, '-retry$1');
}

/**
 * The exit code of a finished import: 0 when every act was imported; 6 when none was and every one failed on the
 * network (the API could not be reached); otherwise 1 (some or all skipped).
 */
export function importExitCode(result: Pick<ImportResult, 'imported' | 'skipped'>): number {
  if (result.skipped.length === 0) return EXIT.ok;
  if (result.imported.length === 0 && result.skipped.every((s) => s.kind === 'network')) return EXIT.network;
  return EXIT.error;
}
