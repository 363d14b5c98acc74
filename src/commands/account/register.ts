/** Registration of `pravo account` (spec: Key and account endpoints): flags to options; the work is in `run.ts`. */
import type { Command } from 'commander';
import { addTargetOptions, type RunAction } from '../shared.js';
import type { AccountOptions, OveragesOptions } from './run.js';

const ACCOUNT_HELP = `
Examples:
  $ pravo account
  $ pravo account --json | jq .overage
  $ pravo account overages --allow --limit 500 --yes
  $ pravo account overages --deny --yes

Shows the account's plan, whether overage (consumption beyond the monthly quotas) is allowed and up to how many
units a month, and the unit prices the server sets (read-only). Piped, tab-separated, no header:
  account   account_id
  plan      name
  overage   allowed (true/false), monthly_limit
  unit_price  kind, price, currency       (one line per kind)
  created   created_at
--json prints the server's response exactly. Authenticates with the user-session token of \`pravo login\`.`;

const OVERAGES_HELP = `
Examples:
  $ pravo account overages --allow --limit 500 --yes
  $ pravo account overages --deny --yes --json

--allow --limit N lets requests past a monthly quota go on, up to N units a month beyond the quotas (all kinds
together), each billed at the account's unit prices; --deny makes them fail with monthly_quota_exceeded. Asks on a
terminal, saying what overage may cost at most; --yes skips the question (scripts must give it). Prints the
account as it is afterwards.`;

/** Registers the `account` command and its `overages` subcommand. */
export function registerAccount(program: Command, run: RunAction): void {
  const load = () => import('./run.js');
  const account = addTargetOptions(
    program
      .command('account')
      .description('The account: plan, overage setting and unit prices (with the user-session token of `pravo login`)')
      .option('--json', "print the server's response exactly"),
  )
    .addHelpText('after', ACCOUNT_HELP)
    .action(async (options: AccountOptions, cmd: Command) => {
      await run(cmd, { command: 'account', json: options.json === true }, async (f) => (await load()).runAccount(f, options));
    });

  addTargetOptions(
    account
      .command('overages')
      .description('Allow overage up to a monthly limit, or deny it (asks first on a terminal)')
      .option('--allow', 'allow consumption beyond the quotas (with --limit)')
      .option('--limit <units>', 'overage units allowed per month, all kinds together (1 to 1000000)')
      .option('--deny', 'deny consumption beyond the quotas: requests past a quota fail with monthly_quota_exceeded')
      .option('-y, --yes', 'change it without asking (required without a terminal)')
      .option('--json', "print the server's response"),
  )
    .addHelpText('after', OVERAGES_HELP)
    .action(async (_own: OveragesOptions, cmd: Command) => {
      // `--json` is also an option of `account`, which commander gives it when both declare it: read both levels (as
      // `pravo answer wait` does).
      const options = cmd.optsWithGlobals<OveragesOptions>();
      await run(cmd, { command: 'account overages', json: options.json === true }, async (f) => (await load()).runOverages(f, options));
    });
}
