/**
 * The active profile as a command sees it: the stored profile with the environment's overrides applied, and where
 * each value came from (for `pravo config show` and for error messages).
 *
 * Precedence: profile name from `--profile`, else `PRAVO_PROFILE`, else `default`; `PRAVO_BASE_URL`,
 * `PRAVO_API_KEY` and `PRAVO_SESSION_TOKEN` override the profile's `base_url`, `api_key` and `session_token`.
 */
import type { AuthHeader } from '../api/client.js';
import { LIVE_KEY_PATTERN } from '../contract/types.js';
import { DEFAULT_PROFILE, checkProfileName, checkStoredProfile, type ConfigData } from './store.js';

/** Where a resolved value came from. */
export type ValueSource = 'env' | 'profile' | 'unset';

/** The profile a command runs with. */
export interface ResolvedProfile {
  name: string;
  base_url: string | undefined;
  api_key: string | undefined;
  /** The profile's `api_key_id` (see `Profile`); undefined when the key came from `PRAVO_API_KEY`. */
  api_key_id: string | undefined;
  auth_header: AuthHeader;
  /** The user-session token of the key and account endpoints. */
  session_token: string | undefined;
  /** The profile's `sandbox` setting: its API commands run against an in-process sandbox (as with `--sandbox`). */
  sandbox: boolean;
  sources: { base_url: ValueSource; api_key: ValueSource; session_token: ValueSource };
}

/**
 * Resolves the active profile from the config data, the environment and the `--profile` flag.
 * @param file the config file's path, for messages.
 * @throws ConfigError when the profile name is invalid, or a stored field has the wrong type (see
 *   `checkStoredProfile`).
 */
export function resolveProfile(
  data: ConfigData,
  env: NodeJS.ProcessEnv,
  flagProfile: string | undefined,
  file = 'the config file',
): ResolvedProfile {
  const name = activeProfileName(env, flagProfile);
  const stored = checkStoredProfile(data.profiles?.[name], name, file);
  const pick = (envValue: string | undefined, storedValue: string | undefined) =>
    envValue ? { value: envValue, source: 'env' as const } : storedValue ? { value: storedValue, source: 'profile' as const } : { value: undefined, source: 'unset' as const };
  const baseUrl = pick(env.PRAVO_BASE_URL, stored.base_url);
  const apiKey = pick(env.PRAVO_API_KEY, stored.api_key);
  const session = pick(env.PRAVO_SESSION_TOKEN, stored.session_token);
  return {
    name,
    base_url: baseUrl.value,
    api_key: apiKey.value,
    api_key_id: apiKey.source === 'profile' ? stored.api_key_id : undefined,
    auth_header: stored.auth_header ?? 'x-api-key',
    session_token: session.value,
    sandbox: stored.sandbox === true,
    sources: { base_url: baseUrl.source, api_key: apiKey.source, session_token: session.source },
  };
}

/**
 * The name of the active profile: `--profile`, else `PRAVO_PROFILE`, else `default`; without reading the stored profile,
 * so that a command that rewrites a broken field (`config set-key` over an `api_key` that is a number) can still run.
 * @throws ConfigError when the name is invalid.
 */
export function activeProfileName(env: NodeJS.ProcessEnv, flagProfile: string | undefined): string {
  return checkProfileName(flagProfile ?? (env.PRAVO_PROFILE || DEFAULT_PROFILE));
}

/**
 * A key masked for display: its prefix up to and including `_live_` and its last four characters, e.g.
 * `sbx_live_…9f3a`. A key of another form shows only its last four characters, and one shorter than 16 characters
 * none, so that a masked key never gives away a useful part of a secret.
 */
export function maskKey(key: string): string {
  const live = key.indexOf('_live_');
  const secretLength = live >= 0 ? key.length - (live + 6) : 0;
  if (live > 0 && secretLength >= 16) return `${key.slice(0, live + 6)}…${key.slice(-4)}`;
  return key.length >= 16 ? `…${key.slice(-4)}` : '…';
}

/** Whether a key has the form of a live key (a prefix ending in `_live_`; spec: API key facts). */
export function looksLikeLiveKey(key: string): boolean {
  return LIVE_KEY_PATTERN.test(key);
}
