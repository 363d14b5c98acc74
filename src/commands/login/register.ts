/** Registration of `pravo login` and `pravo logout`: flags to options; the work is in `run.ts`, loaded when they run. */
import type { Command } from 'commander';
import type { RunAction } from '../shared.js';
import type { LoginOptions } from './run.js';

const LOGIN_HELP = `
Examples:
  $ pravo login                                       # hidden prompt
  $ pass show legal-research/session | pravo login --stdin --profile work
  $ pravo sandbox token | pravo login --stdin --profile local
  $ pravo login --status
  $ pravo login --status --json | jq .valid

Key and account commands (pravo keys, pravo account) authenticate with a user-session token issued by your
identity provider, not with the API key. pravo reads it from a hidden prompt or from stdin, never from the command
line; checks it with GET /v1/account (--no-verify skips that), and stores it in the profile, in the config file
(mode 0600). PRAVO_SESSION_TOKEN, when set, overrides the stored token.

--status says whether a token is configured and where it comes from, and asks the server whether it is valid:
exit 0 when it is, 4 when there is none or it is refused.`;

const LOGOUT_HELP = `
Examples:
  $ pravo logout
  $ pravo logout --profile work --json

Removes the profile's stored session token. The server is not told (the API has no sign-out endpoint): the token
stays valid until it expires. PRAVO_SESSION_TOKEN, when set, still applies.`;

/** Registers `pravo login` and `pravo logout`. */
export function registerLogin(program: Command, run: RunAction): void {
  const load = () => import('./run.js');
  program
    .command('login')
    .description('Store the user-session token of the key and account commands, read from a hidden prompt or stdin')
    .argument('[refused]', 'not accepted: a token given as an argument would land in shell history and process lists')
    .option('--stdin', 'read the token from standard input instead of prompting')
    .option('--no-verify', 'store the token without checking it with GET /v1/account')
    .option('--status', 'say whether a token is configured, where it comes from, and whether the server accepts it')
    .option('--json', 'print the result as one JSON object on stdout')
    .addHelpText('after', LOGIN_HELP)
    .action(async (refused: string | undefined, options: LoginOptions, cmd: Command) => {
      await run(cmd, { command: 'login', json: options.json === true }, async (f) => (await load()).runLogin(f, refused, options));
    });
  program
    .command('logout')
    .description("Forget the profile's stored user-session token")
    .option('--json', 'print the result as one JSON object on stdout')
    .addHelpText('after', LOGOUT_HELP)
    .action(async (options: { json?: boolean }, cmd: Command) => {
      await run(cmd, { command: 'logout', json: options.json === true, local: true }, async (f) => (await load()).runLogout(f, options));
    });
}
