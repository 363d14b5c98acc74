/**
 * `pravo account` and `pravo account overages` (spec: Key and account endpoints; Quota rules 4): the account's plan,
 * overage setting and unit prices (`GET /v1/account`), and the overage setting changed (`PATCH /v1/account/overages`)
 * after confirmation. Both authenticate with the user-session token (`pravo login`).
 */
import type { AccountFacts } from '../../api/account.js';
import { OVERAGE_LIMIT_MAX } from '../../contract/limits.js';
import type { OverageUpdateRequest } from '../../contract/types.js';
import { UsageError, UserCancelledError } from '../../errors/cli.js';
import { EXIT } from '../../errors/exit-codes.js';
import type { Factory } from '../../factory.js';
import { Printer } from '../../io/printer.js';
import { sanitizeLine } from '../../shared/sanitize.js';
import { fetchAccount } from '../../services/account.js';
import { waitWithSpinner } from '../../services/waiting.js';

/** Options of `pravo account`. */
export interface AccountOptions {
  json?: boolean;
}

/** Options of `pravo account overages`. */
export interface OveragesOptions {
  allow?: boolean;
  deny?: boolean;
  /** `--limit N`: units a month beyond the quotas, all kinds together. */
  limit?: string;
  yes?: boolean;
  json?: boolean;
}

/** `pravo account`: `GET /v1/account` as aligned lines, TSV, or the server's body (`--json`). Returns the exit code. */
export async function runAccount(factory: Factory, options: AccountOptions): Promise<number> {
  const printer = new Printer(factory.io, options.json === true);
  const { raw, account } = await fetchAccount(factory);
  await printer.response({ raw, data: account }, async () => (await import('../../render/account.js')).accountView);
  return EXIT.ok;
}

/**
 * The overage request of the command line: `--allow --limit N` (N a whole number from 1 to {@link OVERAGE_LIMIT_MAX})
 * or `--deny`.
 * @throws UsageError for anything else (nothing is sent).
 */
export function overageRequest(options: OveragesOptions): OverageUpdateRequest {
  if (options.allow === options.deny || (options.allow !== true && options.deny !== true)) {
    throw new UsageError('Give exactly one of --allow (with --limit N) and --deny.');
  }
  if (options.deny) {
    if (options.limit !== undefined) throw new UsageError('--limit goes with --allow: denied overage has no limit.');
    return { allowed: false };
  }
  if (options.limit === undefined) {
    throw new UsageError('--allow needs --limit N: how many units a month may be used beyond the quotas, all kinds together.');
  }
  const limit = /^\d+$/.test(options.limit.trim()) ? Number(options.limit.trim()) : Number.NaN;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > OVERAGE_LIMIT_MAX) {
    throw new UsageError(`--limit takes a whole number of units from 1 to ${OVERAGE_LIMIT_MAX}, not "${options.limit}". To stop overage, use --deny.`);
  }
  return { allowed: true, monthly_limit: limit };
}

/** Whether the account's setting is already `wanted`. */
function alreadySet(facts: AccountFacts, wanted: OverageUpdateRequest): boolean {
  if (facts.overage.allowed !== wanted.allowed) return false;
  return !wanted.allowed || facts.overage.monthlyLimit === wanted.monthly_limit;
}

/**
 * `pravo account overages --allow --limit N | --deny`: reads the account (current setting, prices), asks on a
 * terminal (saying what overage may cost at most), then `PATCH /v1/account/overages`; prints the account after. A
 * setting already in place is reported without the PATCH. Returns the exit code.
 * @throws UsageError before anything is sent: bad options; no terminal to confirm on and no `--yes`.
 *   UserCancelledError when the user declines. The requests' errors (400 `invalid_request` for a limit the server
 *   does not accept).
 */
export async function runOverages(factory: Factory, options: OveragesOptions): Promise<number> {
  const wanted = overageRequest(options);
  if (!options.yes && !factory.io.canPrompt) {
    throw new UsageError('Changing the overage setting affects billing, and there is no terminal to confirm on: add --yes.');
  }
  const printer = new Printer(factory.io, options.json === true);
  const client = await factory.client();
  const [{ readAccount, highestUnitPrice }, render] = await Promise.all([import('../../api/account.js'), import('../../render/account.js')]);
  const before = (await fetchAccount(factory)).account;
  if (alreadySet(before, wanted)) {
    printer.report({ changed: false, overage: { allowed: wanted.allowed, monthly_limit: wanted.allowed ? wanted.monthly_limit : 0 } }, `Nothing to change: overage is already ${render.describeOverage(before.overage)}.`);
    return EXIT.ok;
  }
  if (!options.yes) {
    const price = highestUnitPrice(before);
    const cost =
      wanted.allowed && price !== undefined
        ? ` Units beyond a quota are billed at the unit prices (${Object.entries(before.prices.perUnit)
            .map(([kind, p]) => `${sanitizeLine(kind)} ${render.formatPrice(p, before.prices.currency)}`)
            .join(', ')}): at most ${render.formatPrice(price * wanted.monthly_limit, before.prices.currency)} a month.`
        : '';
    const question = wanted.allowed
      ? `Allow overage of up to ${wanted.monthly_limit} units a month beyond the quotas (now: ${before.overage.allowed ? `allowed up to ${before.overage.monthlyLimit ?? '?'}` : 'not allowed'})?${cost}`
      : 'Stop overage? Past a quota, requests will fail with monthly_quota_exceeded until the next month.';
    const { confirm } = await import('@inquirer/prompts');
    const go = await confirm({ message: question, default: true }, { input: factory.io.stdin, output: factory.io.promptOutput, signal: factory.signal });
    if (!go) throw new UserCancelledError('The overage setting was not changed; nothing was sent.');
  }
  const response = await waitWithSpinner(factory, 'Changing the overage setting', () => client.account.updateOverages(wanted, { signal: factory.signal }));
  const after = response.raw.trim() === '' ? { ...before, overage: { allowed: wanted.allowed, monthlyLimit: wanted.allowed ? wanted.monthly_limit : 0 } } : readAccount(response.data);
  await printer.response({ raw: response.raw.trim() === '' ? JSON.stringify({ overage: wanted }) : response.raw, data: after }, render.accountView);
  if (printer.mode !== 'json') printer.note(`Overage is now ${render.describeOverage(after.overage)}.`);
  return EXIT.ok;
}
