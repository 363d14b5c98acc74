/**
 * `pravo config`: profiles and settings. Keys are read from a hidden prompt or from stdin, never from argv; shown
 * masked (prefix and last four characters); stored only in the 0600 config file.
 */
import fs from 'node:fs';
import type { Command } from 'commander';
import { CancelledError, ConfigError, UsageError } from '../api/errors.js';
import type { Context } from '../context.js';
import { runAction } from './action.js';

/** Settings `pravo config set` and `unset` accept, and what each is. */
export const SETTINGS = {
  'base-url': 'base URL of the service, without /v1 (per profile)',
  'auth-header': 'x-api-key (default) or bearer, for proxies that drop custom headers (per profile)',
  'sandbox-corpus': 'corpus file used by the sandbox when --corpus and PRAVO_SANDBOX_CORPUS are not given (global)',
} as const;

type Setting = keyof typeof SETTINGS;

const EXAMPLES = `
Examples:
  $ pravo config set-key                              # hidden prompt
  $ pass show legal-research/key | pravo config set-key --stdin --profile work
  $ pravo config set base-url https://api.example.bg
  $ pravo config set auth-header bearer --profile proxy
  $ pravo config set sandbox-corpus ../shared/corpus/bg-statutes.jsonl.gz
  $ pravo config show --json
  $ pravo config path

Profiles: --profile NAME, else PRAVO_PROFILE, else "default". PRAVO_BASE_URL and PRAVO_API_KEY override the
profile's values. PRAVO_CONFIG_DIR relocates the config file.`;

/** Registers the `config` command group. */
export function registerConfig(program: Command, context: () => Context): void {
  const config = program.command('config').description('Profiles, API keys and settings').addHelpText('after', EXAMPLES);

  const jsonOption = ['--json', 'print the result as one JSON object on stdout'] as const;
  config
    .command('set-key')
    .description('Store the API key of a profile, read from a hidden prompt or from stdin (never from arguments)')
    .argument('[refused]', 'not accepted: a key given as an argument would land in shell history and process lists')
    .option('--stdin', 'read the key from standard input instead of prompting')
    .option(...jsonOption)
    .addHelpText('after', examples('config set-key', '--profile work', '--stdin --json < key.txt'))
    .action(async (refused: string | undefined, options: { stdin?: boolean; json?: boolean }) => {
      await runAction(context(), { command: 'config set-key', json: options.json === true }, (c) => runSetKey(refused, options, c));
    });

  config
    .command('show')
    .description('Show the active profile with the key masked, and where each value comes from')
    .option(...jsonOption)
    .addHelpText('after', examples('config show', '--profile work', '--json'))
    .action(async (options: { json?: boolean }) => {
      await runAction(context(), { command: 'config show', json: options.json === true }, (c) => runShow(options, c));
    });

  config
    .command('set')
    .description(`Set a setting: ${Object.keys(SETTINGS).join(', ')}`)
    .argument('<name>', Object.entries(SETTINGS).map(([k, v]) => `${k}: ${v}`).join('; '))
    .argument('<value>', 'the value')
    .option(...jsonOption)
    .addHelpText(
      'after',
      examples('config set', 'base-url https://api.example.bg', 'auth-header bearer --profile proxy', 'sandbox-corpus ../shared/corpus/bg-statutes.jsonl.gz'),
    )
    .action(async (name: string, value: string, options: { json?: boolean }) => {
      await runAction(context(), { command: 'config set', json: options.json === true }, (c) => runSet(name, value, options, c));
    });

  config
    .command('unset')
    .description(`Remove a setting (${Object.keys(SETTINGS).join(', ')}) or the stored api-key`)
    .argument('<name>', `${Object.keys(SETTINGS).join(', ')} or api-key`)
    .option(...jsonOption)
    .addHelpText('after', examples('config unset', 'api-key', 'base-url --profile work'))
    .action(async (name: string, options: { json?: boolean }) => {
      await runAction(context(), { command: 'config unset', json: options.json === true }, (c) => runUnset(name, options, c));
    });

  config
    .command('path')
    .description('Print the path of the config file')
    .option(...jsonOption)
    .addHelpText('after', examples('config path', '', '--json'))
    .action(async (options: { json?: boolean }) => {
      await runAction(context(), { command: 'config path', json: options.json === true }, async (ctx) => {
        const { ConfigStore } = await import('../config/store.js');
        const file = (await ConfigStore.open(ctx.io.env)).path;
        if (options.json) ctx.io.stdout.write(`${JSON.stringify({ config_path: file })}\n`);
        else ctx.io.stdout.write(`${file}\n`);
        return 0;
      });
    });
}

/** An "Examples:" help section: `pravo <command> <args>` per argument list. */
function examples(command: string, ...argLists: string[]): string {
  return `\nExamples:\n${argLists.map((args) => `  $ pravo ${command}${args ? ` ${args}` : ''}`).join('\n')}`;
}

/** Reports a change: one JSON object on stdout with --json, else a line for people on stderr. */
function report(ctx: Context, json: boolean | undefined, message: string, data: Record<string, unknown>): void {
  if (json) ctx.io.stdout.write(`${JSON.stringify(data)}\n`);
  else ctx.io.stderr.write(`${message}\n`);
}

async function openProfile(ctx: Context) {
  const [{ ConfigStore }, { resolveProfile }] = await Promise.all([
    import('../config/store.js'),
    import('../config/profile.js'),
  ]);
  const store = await ConfigStore.open(ctx.io.env);
  return { store, profile: resolveProfile(store.data(), ctx.io.env, ctx.globals.profile) };
}

/** `pravo config set-key`: returns the exit code. */
export async function runSetKey(
  refused: string | undefined,
  options: { stdin?: boolean; json?: boolean },
  ctx: Context,
): Promise<number> {
  const { io } = ctx;
  if (refused !== undefined) {
    throw new UsageError(
      'pravo never takes a key as an argument: it would stay in your shell history and be visible in process lists. ' +
        'Run `pravo config set-key` to type it at a hidden prompt, or pipe it in with --stdin. ' +
        'If that was a real key, consider it exposed: clear it from your shell history, or rotate it.',
    );
  }
  const { store, profile } = await openProfile(ctx);
  let key: string;
  if (options.stdin) {
    key = (await readAll(io.stdin)).trim();
  } else if (io.stdin.isTTY) {
    const { password } = await import('@inquirer/prompts');
    try {
      key = (
        await password(
          { message: `API key for profile "${profile.name}":`, mask: '*' },
          { input: io.stdin, output: io.stderr },
        )
      ).trim();
    } catch (error) {
      if (error instanceof Error && (error.name === 'ExitPromptError' || error.name === 'AbortPromptError')) {
        throw new CancelledError(false);
      }
      throw error;
    }
  } else {
    throw new UsageError('Standard input is not a terminal, so there is no prompt to type the key at. Pipe the key in with --stdin.');
  }
  if (key === '') throw new UsageError('No key was given; nothing was stored.');
  if (/\s/.test(key)) throw new UsageError('The key contains white space, which no API key has; nothing was stored.');

  const { maskKey, looksLikeLiveKey } = await import('../config/profile.js');
  store.setProfileField(profile.name, 'api_key', key);
  if (!looksLikeLiveKey(key)) {
    io.stderr.write(
      'Warning: this does not look like a live key (a prefix ending in "_live_" followed by the secret); the service issues only live keys. Stored anyway.\n',
    );
  }
  report(ctx, options.json, `Stored API key ${maskKey(key)} for profile "${profile.name}" in ${store.path}`, {
    profile: profile.name,
    api_key: maskKey(key),
    looks_live: looksLikeLiveKey(key),
    config_path: store.path,
  });
  if (io.env.PRAVO_API_KEY) {
    io.stderr.write('Note: PRAVO_API_KEY is set in this environment and overrides the stored key.\n');
  }
  return 0;
}

/** `pravo config show`: returns the exit code. */
export async function runShow(options: { json?: boolean }, ctx: Context): Promise<number> {
  const { store, profile } = await openProfile(ctx);
  const { maskKey } = await import('../config/profile.js');
  const env = ctx.io.env;
  const shown = {
    profile: profile.name,
    base_url: profile.base_url ?? null,
    base_url_source: sourceName(profile.sources.base_url, 'PRAVO_BASE_URL'),
    api_key: profile.api_key ? maskKey(profile.api_key) : null,
    api_key_source: sourceName(profile.sources.api_key, 'PRAVO_API_KEY'),
    auth_header: profile.auth_header,
    config_path: store.path,
    sandbox_corpus: env.PRAVO_SANDBOX_CORPUS || store.sandboxCorpus() || null,
  };
  if (options.json) {
    ctx.io.stdout.write(`${JSON.stringify(shown, null, 2)}\n`);
    return 0;
  }
  const rows: [string, string][] = [
    ['Profile', shown.profile],
    ['Base URL', shown.base_url ? `${shown.base_url}  (${shown.base_url_source})` : 'not set: `pravo config set base-url URL`'],
    ['API key', shown.api_key ? `${shown.api_key}  (${shown.api_key_source})` : 'not set: `pravo config set-key`'],
    ['Auth header', shown.auth_header === 'bearer' ? 'Authorization: Bearer' : 'X-API-Key'],
    ['Config file', shown.config_path],
    ['Sandbox corpus', shown.sandbox_corpus ?? 'not set: `pravo config set sandbox-corpus FILE`'],
  ];
  ctx.io.stdout.write(rows.map(([k, v]) => `${k.padEnd(15)}${v}`).join('\n') + '\n');
  return 0;
}

function sourceName(source: 'env' | 'profile' | 'unset', variable: string): string {
  return source === 'env' ? `from ${variable}` : source === 'profile' ? 'from profile' : 'unset';
}

/** `pravo config set NAME VALUE`: returns the exit code. */
export async function runSet(name: string, value: string, options: { json?: boolean }, ctx: Context): Promise<number> {
  const setting = checkSetting(name);
  const { store, profile } = await openProfile(ctx);
  const { io } = ctx;
  switch (setting) {
    case 'base-url': {
      const { normalizeBaseUrl, isLoopbackUrl } = await import('../api/base-url.js');
      const url = normalizeBaseUrl(value);
      store.setProfileField(profile.name, 'base_url', url);
      report(ctx, options.json, `Base URL of profile "${profile.name}" set to ${url}`, { profile: profile.name, setting, value: url });
      if (url.startsWith('http:') && !isLoopbackUrl(url)) {
        io.stderr.write('Warning: plain http:// sends the API key unencrypted over the network; use https:// unless this is a trusted local service.\n');
      }
      if (io.env.PRAVO_BASE_URL) io.stderr.write('Note: PRAVO_BASE_URL is set in this environment and overrides it.\n');
      return 0;
    }
    case 'auth-header': {
      const header = value.trim().toLowerCase();
      if (header !== 'x-api-key' && header !== 'bearer') {
        throw new UsageError(`auth-header is "x-api-key" (the default) or "bearer", not "${value}"`);
      }
      store.setProfileField(profile.name, 'auth_header', header);
      report(
        ctx,
        options.json,
        `Profile "${profile.name}" now sends the key in ${header === 'bearer' ? 'Authorization: Bearer' : 'X-API-Key'} (only that header).`,
        { profile: profile.name, setting, value: header },
      );
      return 0;
    }
    case 'sandbox-corpus': {
      if (!fs.existsSync(value) || !fs.statSync(value).isFile()) {
        throw new ConfigError(`${value} does not exist or is not a file; give the path of a corpus file (JSON Lines, gzipped or not).`);
      }
      store.setSandboxCorpus(value);
      report(ctx, options.json, `Sandbox corpus set to ${store.sandboxCorpus()}`, { profile: null, setting, value: store.sandboxCorpus() });
      return 0;
    }
  }
}

/** `pravo config unset NAME`: returns the exit code. */
export async function runUnset(name: string, options: { json?: boolean }, ctx: Context): Promise<number> {
  const setting = name === 'api-key' ? 'api-key' : checkSetting(name);
  const { store, profile } = await openProfile(ctx);
  if (setting === 'sandbox-corpus') store.setSandboxCorpus(undefined);
  else {
    const field = ({ 'api-key': 'api_key', 'base-url': 'base_url', 'auth-header': 'auth_header' } as const)[setting];
    store.setProfileField(profile.name, field, undefined);
  }
  const global = setting === 'sandbox-corpus';
  report(ctx, options.json, `Removed ${setting}${global ? '' : ` from profile "${profile.name}"`}.`, {
    profile: global ? null : profile.name,
    setting,
    removed: true,
  });
  return 0;
}

function checkSetting(name: string): Setting {
  if (name in SETTINGS) return name as Setting;
  throw new UsageError(`Unknown setting "${name}". Settings: ${Object.keys(SETTINGS).join(', ')}.`);
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
