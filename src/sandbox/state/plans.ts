/**
 * The sandbox's plans and their monthly quotas (spec: Quota rules; "Numeric size of quotas per plan: not shown", so
 * these numbers are the sandbox's, documented in docs/commands/sandbox.md, "pravo sandbox serve").
 *
 * An account's quotas are those of its plan (`accounts.plan`), except for the kinds a server process overrides
 * (`pravo sandbox serve --quota search=N,...`): see {@link effectiveQuotas}. Overrides are not stored; each process
 * counts against its own, on the same stored usage.
 */
import { QUOTA_KINDS, type QuotaKind } from '../../contract/types.js';

/** A monthly quota in units of one kind; `null` means unlimited. */
export type Quota = number | null;

/** The monthly quota of every kind, in units; `null` means unlimited. */
export type PlanQuotas = Readonly<Record<QuotaKind, Quota>>;

/**
 * Per-process overrides of the plan's quotas: a kind given here replaces the plan's quota (`null`: unlimited); a kind
 * left out keeps the plan's.
 */
export type Quotas = Partial<Record<QuotaKind, Quota>>;

/** A plan: its name and monthly quotas. */
export interface Plan {
  name: string;
  quotas: PlanQuotas;
}

/** The plan of every account the sandbox creates (`accounts.plan` defaults to it). */
export const DEFAULT_PLAN = 'sandbox';

/**
 * The plans the sandbox knows: `sandbox`, 10 000 searches, 10 000 document retrievals and 1 000 answer jobs a month.
 */
export const PLANS: Readonly<Record<string, Plan>> = {
  sandbox: { name: 'sandbox', quotas: { search: 10_000, retrieval: 10_000, answers: 1_000 } },
};

/**
 * The plan named `name`; an unknown name (no account is given one: the sandbox stores only `sandbox`) gets the quotas
 * of {@link DEFAULT_PLAN} under its own name.
 */
export function planOf(name: string): Plan {
  return PLANS[name] ?? { name, quotas: PLANS[DEFAULT_PLAN]!.quotas };
}

/**
 * The quotas an account of `plan` counts against in a process with `overrides`: per kind, the override when given
 * (`null` = unlimited), else the plan's.
 * @returns every kind of {@link QUOTA_KINDS}, in units per month, `null` for unlimited.
 */
export function effectiveQuotas(plan: string, overrides: Quotas = {}): PlanQuotas {
  const base = planOf(plan).quotas;
  const quotas = {} as Record<QuotaKind, Quota>;
  for (const kind of QUOTA_KINDS) quotas[kind] = overrides[kind] !== undefined ? overrides[kind] : base[kind];
  return quotas;
}
