/**
 * The pre-flight of `pravo batch` (spec: GET /v1/usage, "Clients should check it before batch work to avoid reaching
 * `monthly_quota_exceeded`"; Quota rules): how many units of each quota kind the batch still needs, against what the
 * period has left, within the quotas and in overage. Pure.
 */
import { QUOTA_KINDS, type QuotaKind } from '../contract/types.js';
import type { UsageFacts } from '../api/usage.js';
import type { BatchMode } from './journal.js';

/** Where the batch's items stand before this run sends anything. */
export interface BatchCounts {
  /** Requests in the input. */
  total: number;
  /** Items whose line is already in the results (from earlier runs): skipped. */
  done: number;
  /** Of `done`, those whose line holds an error. */
  failed: number;
  /**
   * Items that were in flight when an earlier run stopped, or that an unreadable journal record may concern, and are
   * not sent again (no `--retry-interrupted`).
   */
  interrupted: number;
  /** Items marked done whose results line is missing, not sent again (no `--retry-interrupted`). */
  missing: number;
  /** Items this run sends from the start (never sent, or sent and not counted; with `--retry-interrupted`, also the interrupted). */
  toSend: number;
  /** Answer jobs created by an earlier run that this run collects (polling spends nothing). */
  jobsToCollect: number;
  /** `--fetch-docs`: items searched by an earlier run whose documents this run retrieves. */
  searchedToFinish: number;
}

/** The units of one kind the batch needs. */
export interface KindNeed {
  kind: QuotaKind;
  /** Units this run may spend. */
  units: number;
  /** The count is an upper bound (documents of searches not yet made: some may be cached, or fewer found). */
  upTo: boolean;
  /** Units left in the period within the quota; null: unlimited; undefined: the server did not say. */
  remaining: number | null | undefined;
  /** Units this kind would take beyond its remaining quota (0 when it fits or the remaining is unknown). */
  beyondQuota: number;
}

/** The pre-flight's verdict. */
export interface BatchPlan {
  mode: BatchMode;
  /** `--fetch-docs K`, 0 without. */
  fetchDocs: number;
  counts: BatchCounts;
  /** One entry per kind the batch may spend, in {@link QUOTA_KINDS} order. */
  needs: KindNeed[];
  /** The account's overage: whether allowed, the units it still allows this period (undefined when unknown). */
  overage: { allowed: boolean | undefined; available: number | undefined };
  /** Units beyond the quotas, every kind together. */
  beyondQuota: number;
  /**
   * The batch needs more than the remaining quotas plus the overage still allowed (false when that cannot be told:
   * a remaining or an overage limit the server did not report).
   */
  exceeds: boolean;
  /** Kinds whose remaining quota the server did not report (the check could not be made for them). */
  unknown: QuotaKind[];
  /** The usage period as the server sent it (rendered by `src/render/period.ts`); undefined without the usage. */
  period: UsageFacts['period'] | undefined;
}

/**
 * Units the batch needs per kind, given where its items stand:
 * - `search`: one per item to send (search mode);
 * - `answers`: one per item to send (answers mode; jobs to collect spend nothing);
 * - `retrieval` (`--fetch-docs K`): up to K per item to send, plus `documentsToRetrieve` exactly for the items
 *   already searched (their documents are known, and cached ones subtracted).
 */
export function unitsNeeded(
  mode: BatchMode,
  fetchDocs: number,
  counts: BatchCounts,
  documentsToRetrieve: number,
): Array<{ kind: QuotaKind; units: number; upTo: boolean }> {
  if (mode === 'answers') return [{ kind: 'answers', units: counts.toSend, upTo: false }];
  const needs: Array<{ kind: QuotaKind; units: number; upTo: boolean }> = [{ kind: 'search', units: counts.toSend, upTo: false }];
  if (fetchDocs > 0) needs.push({ kind: 'retrieval', units: counts.toSend * fetchDocs + documentsToRetrieve, upTo: counts.toSend > 0 });
  return needs;
}

/**
 * Checks the needs against the usage: each kind's units beyond its remaining quota, summed over kinds, must fit in
 * the overage the account still allows this period (none when overage is not allowed). A kind whose remaining the
 * server did not report is listed in `unknown` and not counted against (the server will refuse with
 * `monthly_quota_exceeded` if it must, and the batch then stops cleanly).
 */
export function planBatch(
  mode: BatchMode,
  fetchDocs: number,
  counts: BatchCounts,
  needs: ReadonlyArray<{ kind: QuotaKind; units: number; upTo: boolean }>,
  usage: UsageFacts | undefined,
): BatchPlan {
  const unknown: QuotaKind[] = [];
  const kindNeeds: KindNeed[] = QUOTA_KINDS.flatMap((kind) => {
    const need = needs.find((n) => n.kind === kind);
    if (!need) return [];
    const remaining = usage?.kinds.find((k) => k.kind === kind)?.remaining;
    if (remaining === undefined && need.units > 0) unknown.push(kind);
    const beyondQuota = typeof remaining === 'number' ? Math.max(0, need.units - remaining) : 0;
    return [{ kind, units: need.units, upTo: need.upTo, remaining, beyondQuota }];
  });
  const allowed = usage?.overage.allowed;
  const limit = usage?.overage.limit;
  const used = usage?.overage.used ?? 0;
  const available = allowed === false ? 0 : allowed === true && limit !== undefined ? Math.max(0, limit - used) : undefined;
  const beyondQuota = kindNeeds.reduce((sum, need) => sum + need.beyondQuota, 0);
  return {
    mode,
    fetchDocs,
    counts,
    needs: kindNeeds,
    overage: { allowed, available },
    beyondQuota,
    // Overage allowed up to a limit the server did not report: not checked, as an unreported remaining is not.
    exceeds: allowed === true && available === undefined ? false : beyondQuota > (available ?? 0),
    unknown,
    period: usage?.period,
  };
}

/** Units the plan may spend in all (0: this run only collects, or has nothing to do). */
export function plannedUnits(plan: BatchPlan): number {
  return plan.needs.reduce((sum, need) => sum + need.units, 0);
}
