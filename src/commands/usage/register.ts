/** Registration of `pravo usage` (spec: GET /v1/usage): flags to options; the work is in `run.ts`, loaded when it runs. */
import type { Command } from 'commander';
import { addTargetOptions, type RunAction } from '../shared.js';
import type { UsageOptions } from './run.js';

const EXAMPLES = `
Examples:
  $ pravo usage
  $ pravo usage | awk -F'\\t' '$1 == "search" { print $4 }'       # searches left within the quota this month
  $ pravo usage --json | jq '.quotas'
  $ pravo usage --sandbox

Output: on a terminal, one row per quota kind (search, retrieval, answers): a bar of the share used, used / limit,
percent and the units remaining within the quota ("unlimited" when there is no quota, "–" when the server does not
say); yellow from 80 %, red from 100 %. Below: the period (dates in UTC, days left), whether overage (consumption
beyond a quota) is allowed and how much of it was used, and the plan.
Piped, tab-separated, no header, an unknown value an empty field:
  <kind>   used, limit, remaining, percent, overage_used    (limit, remaining: "unlimited" when unlimited)
  period   start, end (exclusive), month, days_left
  overage  allowed (true/false), limit, used
  plan     name
--json prints the server's response exactly. All counts are quota units. Usage is asked every time (never cached)
and spends no quota unit; check it before batch work to avoid monthly_quota_exceeded.`;

/** Registers `pravo usage`. */
export function registerUsage(program: Command, run: RunAction): void {
  addTargetOptions(
    program
      .command('usage')
      .description('Consumption against the monthly quotas (searches, retrievals, answers), the period and the overage')
      .option('--json', "print the server's response exactly, as JSON"),
  )
    .addHelpText('after', EXAMPLES)
    .action(async (options: UsageOptions, cmd: Command) => {
      await run(cmd, { command: 'usage', json: options.json === true }, async (factory) => {
        const { runUsage } = await import('./run.js');
        return runUsage(factory, options);
      });
    });
}
