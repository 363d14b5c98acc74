/**
 * What a run of `pravo batch` reports, as data (rendered by `src/render/batch.ts`): the pre-flight shown before
 * anything is sent, the facts of the progress line, the closing summary, and what became of each item and why a run
 * stops (spec: Quota rules; Errors). Pure.
 */
import type { QuotaKind } from '../contract/types.js';
import type { UsageFacts } from '../api/usage.js';
import type { BatchMode } from './journal.js';
import type { BatchCounts, BatchPlan } from './plan.js';

/**
 * Why a batch stops starting items: the quota is used up (`monthly_quota_exceeded`), the key was refused or is
 * missing, the server asked to slow down (429), the server cannot be reached, Ctrl-C, or a local failure (the results
 * or the journal cannot be written).
 */
export type StopReason = 'quota' | 'auth' | 'rate_limited' | 'connection' | 'cancelled' | 'local';

/** What became of an item in this run. */
export type ItemOutcome =
  /** Its line is in the results without an error. */
  | 'succeeded'
  /** Its line is in the results with an error (the server refused it, or its answer job failed). */
  | 'failed'
  /** A request was in flight when it failed in a way that may have been counted: not sent again without `--retry-interrupted`. */
  | 'interrupted'
  /** Its request was not counted (refused, or it never reached the server): it is sent again by a rerun. */
  | 'unsent'
  /** Part of it is done and recorded (its answer job exists, its search is made); a rerun finishes it. */
  | 'unfinished';

/** The pre-flight as shown before sending (and as `--dry-run`'s outcome). */
export interface BatchPreflight {
  plan: BatchPlan;
  /** Line numbers (ascending) of the interrupted items this run does not send (no `--retry-interrupted`). */
  interrupted: number[];
  /** Line numbers (ascending) of the items marked done whose results are missing, not sent (no `--retry-interrupted`). */
  missing: number[];
  /** Why the plan is not checked against the quota (the usage could not be read), in words; undefined when it is. */
  usageProblem: string | undefined;
}

/** The facts of the progress line. */
export interface BatchProgress {
  /** Items finished in this run (whatever became of them), and the number this run works on. */
  finished: number;
  total: number;
  /** Items of this run by outcome so far. */
  tally: Record<ItemOutcome, number>;
  /** Items in flight now. */
  inFlight: number;
  /** Time since the run began sending, in ms. */
  elapsedMs: number;
  mode: BatchMode;
  /** Set while stopping. */
  stopping?: StopReason | undefined;
}

/** What became of a run, for the summary. Line numbers are the input's, ascending. */
export interface BatchSummary {
  /** Requests in the input. */
  total: number;
  /** Lines written in this run without / with an error. */
  succeeded: number;
  failed: number;
  /** Lines done by earlier runs (skipped), and how many of them hold an error. */
  skipped: number;
  skippedFailed: number;
  /** Interrupted lines (earlier and in this run): they may have been counted; sent again only with --retry-interrupted. */
  interrupted: number[];
  /** Lines marked done by an earlier run whose results line is missing: no success; sent again only with --retry-interrupted. */
  missing: number[];
  /** Lines part done (an answer job running, a search made, documents not all retrieved): a rerun finishes them. */
  unfinished: number[];
  /** Lines not sent in this run (or refused without being counted): a rerun sends them. */
  notSent: number[];
  /** Units spent in this run per kind (a failed answer job's unit is not counted). */
  units: Record<QuotaKind, number>;
  /** Why the run stopped early, if it did. */
  stop: StopReason | undefined;
  /** The error that stopped it, in words. */
  stopMessage: string | undefined;
  mode: BatchMode;
  /** The usage period, when the usage was read (rendered by `src/render/period.ts`). */
  period: UsageFacts['period'] | undefined;
}

/**
 * The summary of a run that sent nothing (everything done, or only interrupted lines left): what earlier runs did
 * (from `counts`), `interrupted` and `missing`; the base of every run's summary.
 */
export function emptySummary(
  counts: BatchCounts,
  lines: { interrupted: number[]; missing: number[] },
  mode: BatchMode,
  period: UsageFacts['period'] | undefined,
): BatchSummary {
  return {
    total: counts.total,
    succeeded: 0,
    failed: 0,
    skipped: counts.done,
    skippedFailed: counts.failed,
    interrupted: lines.interrupted,
    missing: lines.missing,
    unfinished: [],
    notSent: [],
    units: { search: 0, retrieval: 0, answers: 0 },
    stop: undefined,
    stopMessage: undefined,
    mode,
    period,
  };
}

/**
 * Whether every line of the input has succeeded, in this run or before (README: exit code 0, "Every line succeeded"):
 * the lines written without an error now and before make up the whole input. A line marked done whose result is
 * missing, interrupted, unfinished or not sent is not among them.
 */
export function everyLineSucceeded(summary: BatchSummary): boolean {
  const leftOver = [summary.interrupted, summary.missing, summary.unfinished, summary.notSent].some((lines) => lines.length > 0);
  return !leftOver && summary.failed + summary.skippedFailed === 0 && summary.succeeded + summary.skipped === summary.total;
}
