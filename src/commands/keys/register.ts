/**
 * Registration of `pravo keys` (spec: Key and account endpoints): flags to options; the work is in `run.ts` and
 * `rotate.ts`, loaded when a subcommand runs.
 */
import type { Command } from 'commander';
import { addTargetOptions, type RunAction } from '../shared.js';
import type { CreateOptions, ListOptions, RevokeOptions } from './run.js';
import type { RotateOptions } from './rotate.js';

const KEYS_HELP = `
Examples:
  $ pravo keys list
  $ pravo keys list --sandbox

Subcommands: create --name N [--save-to-profile P], list, revoke KEY_ID, rotate [--profile P]. Key management
authenticates with your user-session token (\`pravo login\`), never with an API key. A key's full value is shown
once, when it is created; listings show its prefix only. A revoked key is refused at once by the server that
revoked it, and by other instances of the service within 60 s.`;

const CREATE_HELP = `
Examples:
  $ pravo keys create --name ci-deploy > ci-key.txt
  $ pravo keys create --name nightly-batch --json | jq -r .key_id
  $ pravo keys create --name staging --save-to-profile staging

The full key goes to stdout once (the server's response with --json), with a warning on stderr that it will not
be shown again. With --save-to-profile NAME it is stored in that profile (created when missing, with this
service's base URL) and printed nowhere; a profile that already holds a key is refused: \`pravo keys rotate\`
replaces a key and revokes the old one.`;

const LIST_HELP = `
Examples:
  $ pravo keys list
  $ pravo keys list | awk -F'\\t' '$5 == "active" { print $1 }'     # ids of the active keys
  $ pravo keys list --json | jq '.keys[] | {key_id, status}'

On a terminal, a table; * marks the key of the profile in use. Piped, tab-separated, no header, one key per line:
  key_id, name, prefix, plan, status, created_at, last_used_at, revoked_at, current (true/false)
--json prints the server's response exactly. Never a key's secret.`;

const REVOKE_HELP = `
Examples:
  $ pravo keys list | awk -F'\\t' '$2 == "ci-deploy" && $5 == "active" { print $1 }' | xargs -r -n1 pravo keys revoke --yes

\`pravo keys revoke KEY_ID\` asks on a terminal, naming the key and warning when it is the key of the profile in
use; the default answer is no. --yes skips the question (scripts must give it). Revoking cannot be undone and is
idempotent. The server that
revokes it refuses the key at once (revoked_api_key); other instances of the service may accept it for up to 60 s.`;

const ROTATE_HELP = `
Examples:
  $ pravo keys rotate --profile staging --yes
  $ pravo keys rotate --profile staging --yes --name "staging 2026-12" --json

The recommended rotation, as one command: create a new key, store it in the profile, confirm a successful request
with it (GET /v1/usage, which spends no unit), then, after you confirm on a terminal (or with --yes), revoke the
old key. Each step is journaled in the profile: if a step fails or the command is interrupted, the profile still
holds a working key, pravo says which keys exist in which state, and running the command again continues from
where it stopped. If the new key fails its confirmation, the old key goes back into the profile and the new one is
revoked. Other instances of the service may accept the old key for up to 60 s after it is revoked.
A rotation acts on the key stored in a profile (PRAVO_API_KEY, when set, still overrides it); for a sandbox, run
\`pravo sandbox serve --save-to-profile local\` and rotate with --profile local.`;

/** Registers the `keys` command group. */
export function registerKeys(program: Command, run: RunAction): void {
  const keys = program
    .command('keys')
    .description('API keys of the account: create, list, revoke, rotate (with the user-session token of `pravo login`)')
    .addHelpText('after', KEYS_HELP);
  const load = () => import('./run.js');

  addTargetOptions(
    keys
      .command('create')
      .description('Create an API key; its full value is shown once (or stored in a profile with --save-to-profile)')
      .requiredOption('--name <name>', 'what the key is for, 1 to 100 characters, e.g. ci-deploy')
      .option('--save-to-profile <profile>', 'store the new key in this profile instead of printing it')
      .option('--json', "print the server's response (with the key, unless --save-to-profile)"),
  )
    .addHelpText('after', CREATE_HELP)
    .action(async (options: CreateOptions, cmd: Command) => {
      await run(cmd, { command: 'keys create', json: options.json === true }, async (f) => (await load()).runCreate(f, options));
    });

  addTargetOptions(
    keys
      .command('list')
      .description("List the account's API keys (never their secrets); * marks the key in use")
      .option('--json', "print the server's response exactly"),
  )
    .addHelpText('after', LIST_HELP)
    .action(async (options: ListOptions, cmd: Command) => {
      await run(cmd, { command: 'keys list', json: options.json === true }, async (f) => (await load()).runList(f, options));
    });

  addTargetOptions(
    keys
      .command('revoke')
      .description('Revoke an API key (asks first on a terminal)')
      .argument('<key_id>', 'the id of the key, from `pravo keys list`')
      .option('-y, --yes', 'revoke without asking (required without a terminal)')
      .option('--json', "print the server's response"),
  )
    .addHelpText('after', REVOKE_HELP)
    .action(async (keyId: string, options: RevokeOptions, cmd: Command) => {
      await run(cmd, { command: 'keys revoke', json: options.json === true }, async (f) => (await load()).runRevoke(f, keyId, options));
    });

  keys
    .command('rotate')
    .description("Replace the profile's key: create, store, confirm the new key, then revoke the old one (resumable)")
    .option('--name <name>', 'name of the new key (default: the old name with the date of rotation)')
    .option('-y, --yes', 'revoke the old key without asking, once the new one works (required without a terminal)')
    .option('--json', 'print the outcome as one JSON object on stdout')
    .addHelpText('after', ROTATE_HELP)
    .action(async (options: RotateOptions, cmd: Command) => {
      await run(cmd, { command: 'keys rotate', json: options.json === true }, async (f) => (await import('./rotate.js')).runRotate(f, options));
    });
}
