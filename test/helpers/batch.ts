/** Fixtures of `pravo batch` tests. */
import type { BatchSummary } from '../../src/batch/summary.js';

/** A run's summary: 10 lines, all succeeded in this run, 10 search units spent; `extra` replaces fields. */
export function batchSummary(extra: Partial<BatchSummary> = {}): BatchSummary {
  return {
    total: 10,
    succeeded: 10,
    failed: 0,
    skipped: 0,
    skippedFailed: 0,
    interrupted: [],
    missing: [],
    unfinished: [],
    notSent: [],
    units: { search: 10, retrieval: 0, answers: 0 },
    stop: undefined,
    stopMessage: undefined,
    mode: 'search',
    period: undefined,
    ...extra,
  };
}
