/**
 * Where `pravo batch` keeps its work. With `--out`, the store: the results (JSON Lines, appended and synced), the
 * journal beside them (`FILE.journal`, see `journal.ts`) and the lock (`FILE.lock`, `src/state/lock.ts`), and the
 * checks made before a rerun continues them: the journal must be of the same input, mode and target, and a results
 * file pravo did not begin is not touched. Without `--out`, a sink that writes each results line to standard output
 * and keeps the journal's events in memory. Also the results line's JSON form (`resultJson`).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { AppendFile, readLines } from './append-file.js';
import { applyEvent, Journal, journalPathFor, readJournal, type ItemProgress, type JournalContent, type JournalHeader, type NewJournalEvent } from './journal.js';
import { EnvironmentError, UsageError } from '../errors/cli.js';
import type { Factory } from '../factory.js';
import { sanitizeLine } from '../shared/sanitize.js';
import { RefusedLinkError } from '../shared/user-files.js';
import { outputFileProblemOf } from '../io/output-file.js';
import { flagsToReach } from '../services/targets.js';
import { RawJson, type ResultLine } from './items.js';

/** What `--restart` and `--dry-run` change when the store is opened, and where its messages go. */
export interface StoreOptions {
  restart?: boolean;
  dryRun?: boolean;
  /** A message for people (stderr), ending with a newline: the files `--restart` kept aside. */
  note(text: string): void;
}

/** Where a run records its journal events and writes its results lines. */
export interface BatchSink {
  /**
   * Records `event` (the journal adds its time) and applies it to the items' progress.
   * @throws EnvironmentError when the journal cannot be written.
   */
  record(event: NewJournalEvent): Promise<void>;
  /**
   * Appends one results line, whole.
   * @throws EnvironmentError when the results file cannot be written.
   */
  writeResult(line: ResultLine): Promise<void>;
}

/** The results file, its journal and its lock, for a batch with `--out`. */
export interface BatchStore extends BatchSink {
  /** The results file (`--out`) and the journal beside it. */
  out: string;
  journalPath: string;
  /** What the journal held when the store was opened (empty for a new batch or after `--restart`). */
  content: JournalContent;
  /**
   * Opens the journal (writing `header` first when it is new) and the results file for appending; before it,
   * {@link record} and {@link writeResult} must not be called.
   * @throws EnvironmentError when either cannot be opened.
   */
  openForWriting(header: JournalHeader): Promise<void>;
  /** Waits for pending writes, closes the files and releases the lock. */
  close(): Promise<void>;
}

/**
 * Checks `--out`, takes its lock (not for `--dry-run`), reads its journal, and refuses a journal of another batch
 * (another input, mode or target) unless `--restart`, which moves the old results and journal aside.
 * @throws UsageError (another batch's journal; a results file without a journal; another run holds the lock);
 *   EnvironmentError when the file cannot be written.
 */
export async function openBatchStore(factory: Factory, out: string, header: JournalHeader, options: StoreOptions): Promise<BatchStore> {
  const [{ checkOutputFile }, { acquireBatchLock }] = await Promise.all([import('../io/output-file.js'), import('../state/lock.js')]);
  await checkOutputFile(out, '--out');
  const journalPath = journalPathFor(out);
  // The journal is read before anything is sent, and tells which lines are done: never another user's link either.
  await checkOutputFile(journalPath, 'the journal');
  const lock = options.dryRun ? undefined : await acquireBatchLock(out, () => factory.clock.now());
  let journal: Journal | undefined;
  let results: AppendFile | undefined;
  try {
    let content = await readJournal(journalPath);
    const problem = content.header
      ? journalMismatch(content.header, header, out)
      : content.unreadable.length > 0 || content.progress.size > 0
        ? headerless(journalPath)
        : await strayResults(out, journalPath);
    if (problem !== undefined && !options.restart) throw new UsageError(problem);
    // --restart begins anew over a journal (of this batch or another) or a results file pravo did not begin.
    if (options.restart && (problem !== undefined || content.header)) {
      if (!options.dryRun) {
        const moved = await moveAside(factory, [out, journalPath]);
        options.note(`--restart: ${moved.map(sanitizeLine).join(' and ')} kept; the batch begins anew.\n`);
      }
      content = { header: undefined, progress: new Map(), unreadable: [] };
    }
    if (content.unreadable.length > 0) {
      const { unreadableRecordsText } = await import('../render/batch.js');
      options.note(unreadableRecordsText(journalPath, content.unreadable));
    }
    const store: BatchStore = {
      out,
      journalPath,
      content,
      async openForWriting(first) {
        try {
          journal = await Journal.open(journalPath, content, first, () => factory.clock.now());
          results = await AppendFile.open(out);
        } catch (error) {
          throw writeFailure(out, error);
        }
      },
      async record(event) {
        try {
          await journal!.record(event);
        } catch (error) {
          throw writeFailure(journalPath, error);
        }
      },
      async writeResult(line) {
        try {
          await results!.append(resultJson(line));
        } catch (error) {
          throw writeFailure(out, error);
        }
      },
      async close() {
        await journal?.close();
        await results?.close();
        await lock?.release().catch(() => {});
      },
    };
    return store;
  } catch (error) {
    await lock?.release().catch(() => {});
    throw error;
  }
}

/**
 * The sink of a batch without `--out`: each results line written whole, as one line of JSON, to `write` (standard
 * output); journal events applied to `progress` in memory only (there is no journal, so nothing to resume from).
 */
export function streamSink(progress: Map<number, ItemProgress>, write: (text: string) => void): BatchSink {
  return {
    async record(event) {
      applyEvent(progress, { ...event, at: '' });
    },
    async writeResult(line) {
      write(`${resultJson(line)}\n`);
    },
  };
}

/**
 * A results line as one line of JSON (no newline). A response kept as the server's raw body (`RawJson`) is spliced in as it is when
 * it holds no line break, saving a parse and a serialization of every response; else it is parsed and written compact.
 */
export function resultJson(line: ResultLine): string {
  const raws: string[] = [];
  const marker = `__pravo_raw_${Math.random().toString(36).slice(2)}_`;
  const text = JSON.stringify(line, (_key, value: unknown) => {
    if (!(value instanceof RawJson)) return value;
    if (/[\n\r]/.test(value.text)) return value.value();
    raws.push(value.text.trim());
    return `${marker}${raws.length - 1}`;
  });
  return raws.length === 0 ? text : text.replace(new RegExp(`"${marker}(\\d+)"`, 'g'), (_match, n: string) => raws[Number(n)]!);
}

/** Why a journal does not belong to this batch, or undefined when it does. */
function journalMismatch(found: JournalHeader, wanted: JournalHeader, out: string): string | undefined {
  const file = sanitizeLine(out);
  if (found.mode !== wanted.mode || found.fetch_docs !== wanted.fetch_docs) {
    const was = found.mode === 'answers' ? '--answers' : found.fetch_docs > 0 ? `--fetch-docs ${found.fetch_docs}` : 'search only';
    return `The batch writing ${file} began as ${was}; run it with the same options to continue, or add --restart to begin anew (the old results are kept aside).`;
  }
  if (found.digest !== wanted.digest) {
    return `The input has changed since the batch writing ${file} began (its queries or their line numbers differ). Rerun with the input it began with to continue, or add --restart to begin anew (the old results are kept aside; lines already done are sent again).`;
  }
  const flags = flagsToReach(found.target, wanted.target);
  if (flags !== undefined) {
    const where = found.target.sandbox ? 'the in-process sandbox (--sandbox)' : `profile "${sanitizeLine(found.target.profile)}"`;
    return `The batch writing ${file} began against ${where}; continue it there by adding${flags === '' ? ' nothing but dropping --sandbox' : flags}, or add --restart to begin anew.`;
  }
  return undefined;
}

/** A journal whose first record is not a readable header: which batch it records cannot be told. */
function headerless(journalPath: string): string {
  return `The first record of ${sanitizeLine(journalPath)} cannot be read (was it edited or damaged?), so pravo cannot tell which batch it records and sends nothing. Add --restart to begin anew (the old results and journal are kept aside; lines already done are sent again).`;
}

/** A results file that exists, is not empty and has no journal: not one pravo is writing. */
async function strayResults(out: string, journalPath: string): Promise<string | undefined> {
  const stat = await fs.stat(out).catch(() => undefined);
  if (!stat || stat.size === 0) return undefined;
  return `${sanitizeLine(out)} already exists and has no journal beside it (${sanitizeLine(path.basename(journalPath))}), so pravo did not begin it. Give another --out, or add --restart to move it aside and begin.`;
}

/** Renames each existing file to `<file>.before-restart-<UTC time>`; returns the new names. */
async function moveAside(factory: Factory, files: string[]): Promise<string[]> {
  const stamp = new Date(factory.clock.now()).toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  const moved: string[] = [];
  for (const file of files) {
    const to = `${file}.before-restart-${stamp}`;
    try {
      await fs.rename(file, to);
      moved.push(to);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw writeFailure(file, error);
    }
  }
  return moved;
}

function writeFailure(file: string, error: unknown): EnvironmentError {
  if (error instanceof EnvironmentError) return error;
  if (error instanceof RefusedLinkError) return new EnvironmentError(`Cannot write ${sanitizeLine(file)}: ${outputFileProblemOf(error)}.`, { cause: error });
  const code = (error as NodeJS.ErrnoException).code ?? 'EIO';
  return new EnvironmentError(`Cannot write ${sanitizeLine(file)} (${code}). What is done is kept; free space or fix permissions and rerun the same command.`, { cause: error });
}

/** A line found in the results file but not marked done in the journal (see {@link reconcileWithResults}). */
export interface RecoveredLine {
  line: number;
  /** Whether its results line holds no error. */
  ok: boolean;
}

/**
 * Brings the journal in line with the results file: a line that is in the results but not marked done (the run was
 * killed between the two writes) counts as done, so it is neither sent nor written again. A line marked done but
 * missing from the results is no success: it is marked `resultMissing` instead of done (reported interrupted, sent
 * again only with `--retry-interrupted`), and said through `note` (stderr).
 * @returns the lines found, marked done in `store.content` and still to be written to the journal once it is open.
 * @throws the file-system error of reading the results file (other than its absence).
 */
export async function reconcileWithResults(factory: Factory, store: BatchStore, note: (text: string) => void): Promise<RecoveredLine[]> {
  const { content } = store;
  const recovered: RecoveredLine[] = [];
  if (!content.header) return recovered;
  const present = new Map<number, boolean>();
  for await (const text of readLines(store.out)) {
    const match = /^\{"line":(\d+),/.exec(text);
    if (!match) continue;
    const line = Number(match[1]);
    if (content.progress.get(line)?.done) {
      present.set(line, true);
      continue;
    }
    let ok = true;
    try {
      ok = (JSON.parse(text) as { error?: unknown }).error === undefined;
    } catch {
      continue;
    }
    present.set(line, true);
    applyEvent(content.progress, { type: 'done', line, ok, at: new Date(factory.clock.now()).toISOString() });
    recovered.push({ line, ok });
  }
  const missing = [...content.progress.values()].filter((p) => p.done && !present.has(p.line)).sort((a, b) => a.line - b.line);
  for (const item of missing) {
    delete item.done;
    item.resultMissing = true;
  }
  if (missing.length > 0) {
    const { missingResultsText } = await import('../render/batch.js');
    note(missingResultsText(store.journalPath, store.out, missing.map((p) => p.line)));
  }
  return recovered;
}
