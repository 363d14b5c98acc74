/**
 * `pravo config`: profiles and settings. Keys are read from a hidden prompt or from stdin, never from argv; shown
 * masked (prefix and last four characters); stored only in the 0600 config file.
 */
import { normalizeBaseUrl, isLoopbackUrl } from '../../api/base-url.js';
import { activeProfileName } from '../../config/profile.js';
import { ConfigError, UsageError } from '../../errors/cli.js';
import type { Factory } from '../../factory.js';
import { Printer, type View } from '../../io/printer.js';
import { labelledLines } from '../../render/text.js';
import { readSecret, secretArgumentError } from '../secret.js';
import { SETTINGS, type Setting } from './settings.js';

/** `pravo config set-key`: returns the exit code. */
export async function runSetKey(factory: Factory, refused: string | undefined, options: { stdin?: boolean; json?: boolean }): Promise<number> {
  const { io } = factory;
  if (refused !== undefined) {
    throw secretArgumentError(
      'a key',
      'Run `pravo config set-key` to type it at a hidden prompt, or pipe it in with --stdin.',
      'rotate it (`pravo keys rotate` replaces the key of a profile)',
    );
  }
  const [store, profile] = [await factory.config(), { name: activeProfileName(factory.env, factory.globals.profile) }];
  const key = await readSecret(factory, { what: 'key', message: `API key for profile "${profile.name}":`, stdin: options.stdin === true });

  const { maskKey, looksLikeLiveKey } = await import('../../config/profile.js');
  store.setProfileField(profile.name, 'api_key', key);
  const printer = new Printer(io, options.json === true);
  if (!looksLikeLiveKey(key)) {
    printer.note(
      'Warning: this does not look like a live key (a prefix ending in "_live_" followed by the secret); the service issues only live keys. Stored anyway.',
    );
  }
  printer.report(
    { profile: profile.name, api_key: maskKey(key), looks_live: looksLikeLiveKey(key), config_path: store.path },
    `Stored API key ${maskKey(key)} for profile "${profile.name}" in ${store.path}`,
  );
  if (io.env.PRAVO_API_KEY) printer.note('Note: PRAVO_API_KEY is set in this environment and overrides the stored key.');
  return 0;
}

/** What `pravo config show` shows (also its `--json` object). */
interface ShownConfig {
  profile: string;
  base_url: string | null;
  base_url_source: string;
  api_key: string | null;
  api_key_source: string;
  auth_header: string;
  session_token: string | null;
  session_token_source: string;
  config_path: string;
  sandbox_corpus: string | null;
  /** The profile's `sandbox` setting: API commands run against the in-process sandbox. */
  sandbox: boolean;
}

const showView: View<ShownConfig> = {
  table: (shown, { width }) => showLines(shown, width),
  tsv: (shown) => showLines(shown, Infinity),
};

/** The settings as aligned lines of label and value, the values wrapped to `width` (a path whole on its line). */
function showLines(shown: ShownConfig, width: number): string {
  const rows: [string, string][] = [
    ['Profile', shown.profile],
    ['Base URL', shown.base_url ? `${shown.base_url} (${shown.base_url_source})` : 'not set: `pravo config set base-url URL`'],
    ['API key', shown.api_key ? `${shown.api_key} (${shown.api_key_source})` : 'not set: `pravo config set-key`'],
    ['Auth header', shown.auth_header === 'bearer' ? 'Authorization: Bearer' : 'X-API-Key'],
    ['Session token', shown.session_token ? `${shown.session_token} (${shown.session_token_source})` : 'not set: `pravo login` (needed by keys and account)'],
    ['Config file', shown.config_path],
    ['Sandbox', shown.sandbox ? 'on: API commands run against the in-process sandbox' : 'off: API commands go to the base URL (`pravo config set sandbox on` for the sandbox)'],
    ['Sandbox corpus', shown.sandbox_corpus ?? 'not set: `pravo config set sandbox-corpus PATH`'],
  ];
  return `${labelledLines(rows, width).join('\n')}\n`;
}

/**
 * `pravo config show`: returns the exit code. A base URL from the environment is checked before it is shown, so that
 * one carrying credentials is refused, never echoed.
 * @throws InvalidBaseUrlError for an unacceptable base URL.
 */
export async function runShow(factory: Factory, options: { json?: boolean }): Promise<number> {
  const [store, profile] = [await factory.config(), await factory.profile()];
  const { maskKey } = await import('../../config/profile.js');
  const shown: ShownConfig = {
    profile: profile.name,
    base_url: profile.base_url ? normalizeBaseUrl(profile.base_url) : null,
    base_url_source: sourceName(profile.sources.base_url, 'PRAVO_BASE_URL'),
    api_key: profile.api_key ? maskKey(profile.api_key) : null,
    api_key_source: sourceName(profile.sources.api_key, 'PRAVO_API_KEY'),
    auth_header: profile.auth_header,
    session_token: profile.session_token ? maskKey(profile.session_token) : null,
    session_token_source: sourceName(profile.sources.session_token, 'PRAVO_SESSION_TOKEN'),
    config_path: store.path,
    sandbox_corpus: factory.env.PRAVO_SANDBOX_CORPUS || store.sandboxCorpus() || null,
    sandbox: profile.sandbox,
  };
  await new Printer(factory.io, options.json === true).local(shown, showView);
  return 0;
}

function sourceName(source: 'env' | 'profile' | 'unset', variable: string): string {
  return source === 'env' ? `from ${variable}` : source === 'profile' ? 'from profile' : 'unset';
}

/** `pravo config set NAME VALUE`: returns the exit code. */
export async function runSet(factory: Factory, name: string, value: string, options: { json?: boolean }): Promise<number> {
  if (name === 'api-key' || name === 'api_key' || name === 'key') {
    // The value is never echoed: it may be a real key.
    throw new UsageError(
      'The API key is not set with `config set`: a key given as an argument stays in your shell history and process lists. ' +
        'Run `pravo config set-key` to type it at a hidden prompt, or pipe it in with `pravo config set-key --stdin`. ' +
        'If that was a real key, consider it exposed: clear it from your shell history, or rotate it.',
    );
  }
  const setting = checkSetting(name);
  const [store, profile] = [await factory.config(), { name: activeProfileName(factory.env, factory.globals.profile) }];
  const printer = new Printer(factory.io, options.json === true);
  switch (setting) {
    case 'base-url': {
      const url = normalizeBaseUrl(value);
      store.setProfileField(profile.name, 'base_url', url);
      printer.report({ profile: profile.name, setting, value: url }, `Base URL of profile "${profile.name}" set to ${url}`);
      if (url.startsWith('http:') && !isLoopbackUrl(url)) {
        printer.note('Warning: plain http:// sends the API key unencrypted over the network; use https:// unless this is a trusted local service.');
      }
      if (factory.env.PRAVO_BASE_URL) printer.note('Note: PRAVO_BASE_URL is set in this environment and overrides it.');
      return 0;
    }
    case 'auth-header': {
      const header = value.trim().toLowerCase();
      if (header !== 'x-api-key' && header !== 'bearer') {
        throw new UsageError(`auth-header is "x-api-key" (the default) or "bearer", not "${value}"`);
      }
      store.setProfileField(profile.name, 'auth_header', header);
      printer.report(
        { profile: profile.name, setting, value: header },
        `Profile "${profile.name}" now sends the key in ${header === 'bearer' ? 'Authorization: Bearer' : 'X-API-Key'} (only that header).`,
      );
      return 0;
    }
    case 'sandbox': {
      const on = parseOnOff(value);
      store.setProfileField(profile.name, 'sandbox', on ? true : undefined);
      const stored = store.profile(profile.name);
      printer.report(
        { profile: profile.name, setting, value: on },
        on
          ? `Profile "${profile.name}" now runs API commands against the in-process sandbox, as with --sandbox.`
          : `Profile "${profile.name}" now runs API commands against the service${stored.base_url ? ` at ${stored.base_url}` : ''}.`,
      );
      if (on && !store.sandboxCorpus() && !factory.env.PRAVO_SANDBOX_CORPUS) {
        printer.note('Note: no sandbox corpus is stored yet: run `pravo config set sandbox-corpus PATH` (such as ../shared/corpus).');
      }
      if (on && stored.base_url) printer.note(`Note: the profile's base URL ${stored.base_url} is not used while sandbox is on; \`pravo config set sandbox off\` goes back to it.`);
      return 0;
    }
    case 'sandbox-corpus': {
      // Checked now by the rule the sandbox applies (a file, or a directory holding a corpus file), not at first use.
      const { resolveCorpusInputs } = await import('../../sandbox/index.js');
      try {
        resolveCorpusInputs([value]);
      } catch (error) {
        if (!(error instanceof Error && error.name === 'CorpusError')) throw error;
        throw new ConfigError(
          `${error.message}. Give a corpus file (JSON Lines, gzipped or not) or a directory holding one (such as ../shared/corpus).`,
          { cause: error },
        );
      }
      store.setSandboxCorpus(value);
      printer.report({ profile: null, setting, value: store.sandboxCorpus() }, `Sandbox corpus set to ${store.sandboxCorpus()}`);
      return 0;
    }
  }
}

/** `pravo config unset NAME`: returns the exit code. */
export async function runUnset(factory: Factory, name: string, options: { json?: boolean }): Promise<number> {
  const setting = name === 'api-key' ? 'api-key' : checkSetting(name);
  const [store, profile] = [await factory.config(), { name: activeProfileName(factory.env, factory.globals.profile) }];
  const global = setting === 'sandbox-corpus';
  let removed: boolean;
  if (global) {
    removed = store.sandboxCorpus() !== undefined;
    if (removed) store.setSandboxCorpus(undefined);
  } else {
    const field = ({ 'api-key': 'api_key', 'base-url': 'base_url', 'auth-header': 'auth_header', sandbox: 'sandbox' } as const)[setting];
    // Read raw, not through the checked `store.profile`: unsetting is how a mistyped field (a number) is removed.
    removed = store.data().profiles?.[profile.name]?.[field] !== undefined;
    if (removed) store.setProfileField(profile.name, field, undefined);
  }
  const where = global ? '' : ` from profile "${profile.name}"`;
  const printer = new Printer(factory.io, options.json === true);
  printer.report(
    { profile: global ? null : profile.name, setting, removed },
    removed ? `Removed ${setting}${where}.` : `Nothing to remove: ${setting} is not stored${global ? '' : ` in profile "${profile.name}"`}.`,
  );
  const variable = ({ 'api-key': 'PRAVO_API_KEY', 'base-url': 'PRAVO_BASE_URL', 'sandbox-corpus': 'PRAVO_SANDBOX_CORPUS' } as Record<string, string>)[setting];
  if (variable && factory.env[variable]) printer.note(`Note: ${variable} is set in this environment and still applies.`);
  return 0;
}

/** `pravo config path`: returns the exit code. */
export async function runPath(factory: Factory, options: { json?: boolean }): Promise<number> {
  const file = (await factory.config()).path;
  await new Printer(factory.io, options.json === true).local({ config_path: file }, { table: () => `${file}\n`, tsv: () => `${file}\n` });
  return 0;
}

/**
 * The value of an on/off setting: `on`, `true`, `yes`, `1` or `off`, `false`, `no`, `0` (any case).
 * @throws UsageError for anything else.
 */
function parseOnOff(value: string): boolean {
  const word = value.trim().toLowerCase();
  if (['on', 'true', 'yes', '1'].includes(word)) return true;
  if (['off', 'false', 'no', '0'].includes(word)) return false;
  throw new UsageError(`sandbox is "on" or "off", not "${value}".`);
}

function checkSetting(name: string): Setting {
  if (name in SETTINGS) return name as Setting;
  throw new UsageError(`Unknown setting "${name}". Settings: ${Object.keys(SETTINGS).join(', ')}.`);
}
