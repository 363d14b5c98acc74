/** Registration of `pravo config`: flags to options; the work is in `run.ts`, loaded when a subcommand runs. */
import type { Command } from 'commander';
import { examples, type RunAction } from '../shared.js';
import { SETTINGS } from './settings.js';

const EXAMPLES = `
Examples:
  $ pravo config set-key                              # hidden prompt
  $ pass show legal-research/key | pravo config set-key --stdin --profile work
  $ pravo config set base-url https://api.example.bg
  $ pravo config set auth-header bearer --profile proxy
  $ pravo config set sandbox-corpus ../shared/corpus
  $ pravo config set sandbox on --profile offline     # its API commands run against the sandbox
  $ pravo config show --json
  $ pravo config path

Profiles: --profile NAME, else PRAVO_PROFILE, else "default". PRAVO_BASE_URL and PRAVO_API_KEY override the
profile's values. PRAVO_CONFIG_DIR relocates the config file.`;

const JSON_HELP = 'print the result as one JSON object on stdout';

/** Registers the `config` command group. */
export function registerConfig(program: Command, run: RunAction): void {
  const config = program.command('config').description('Profiles, API keys and settings').addHelpText('after', EXAMPLES);
  const load = () => import('./run.js');

  config
    .command('set-key')
    .description('Store the API key of a profile, read from a hidden prompt or from stdin (never from arguments)')
    .argument('[refused]', 'not accepted: a key given as an argument would land in shell history and process lists')
    .option('--stdin', 'read the key from standard input instead of prompting')
    .option('--json', JSON_HELP)
    .addHelpText('after', examples('config set-key', '--profile work', '--stdin --json < key.txt'))
    .action(async (refused: string | undefined, options: { stdin?: boolean; json?: boolean }, cmd: Command) => {
      await run(cmd, { command: 'config set-key', json: options.json === true, local: true }, async (f) => (await load()).runSetKey(f, refused, options));
    });

  config
    .command('show')
    .description('Show the active profile with the key masked, and where each value comes from')
    .option('--json', JSON_HELP)
    .addHelpText('after', examples('config show', '--profile work', '--json'))
    .action(async (options: { json?: boolean }, cmd: Command) => {
      await run(cmd, { command: 'config show', json: options.json === true, local: true }, async (f) => (await load()).runShow(f, options));
    });

  config
    .command('set')
    .description(`Set a setting: ${Object.keys(SETTINGS).join(', ')}`)
    .argument('<name>', Object.entries(SETTINGS).map(([k, v]) => `${k}: ${v}`).join('; '))
    .argument('<value>', 'the value')
    .option('--json', JSON_HELP)
    .addHelpText(
      'after',
      examples('config set', 'base-url https://api.example.bg', 'auth-header bearer --profile proxy', 'sandbox-corpus ../shared/corpus', 'sandbox on --profile offline'),
    )
    .action(async (name: string, value: string, options: { json?: boolean }, cmd: Command) => {
      await run(cmd, { command: 'config set', json: options.json === true, local: true }, async (f) => (await load()).runSet(f, name, value, options));
    });

  config
    .command('unset')
    .description(`Remove a setting (${Object.keys(SETTINGS).join(', ')}) or the stored api-key`)
    .argument('<name>', `${Object.keys(SETTINGS).join(', ')} or api-key`)
    .option('--json', JSON_HELP)
    .addHelpText('after', examples('config unset', 'api-key', 'base-url --profile work', 'sandbox --profile offline'))
    .action(async (name: string, options: { json?: boolean }, cmd: Command) => {
      await run(cmd, { command: 'config unset', json: options.json === true, local: true }, async (f) => (await load()).runUnset(f, name, options));
    });

  config
    .command('path')
    .description('Print the path of the config file')
    .option('--json', JSON_HELP)
    .addHelpText('after', examples('config path', '', '--json'))
    .action(async (options: { json?: boolean }, cmd: Command) => {
      await run(cmd, { command: 'config path', json: options.json === true, local: true }, async (f) => (await load()).runPath(f, options));
    });
}
