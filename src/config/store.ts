/**
 * pravo's configuration: named profiles `{base_url, api_key, auth_header}` and global settings, kept with `conf` in
 * one JSON file of mode 0600 (the only file that ever holds a key). `PRAVO_CONFIG_DIR` relocates it; tests always set
 * it. `conf` is imported lazily so that commands that need no configuration do not pay for loading it.
 */
import path from 'node:path';
import type Conf from 'conf';
import type { AuthHeader } from '../api/client.js';
import { ConfigError } from '../errors/cli.js';
import { ensurePrivateDir, pravoPaths } from '../state/paths.js';

/** One profile: where the service is and how to authenticate. Every field is optional until set. */
export interface Profile {
  /** Base URL without `/v1`, checked by `normalizeBaseUrl`. */
  base_url?: string;
  /** The API key (secret). */
  api_key?: string;
  /** Header that carries the key; default `x-api-key`. */
  auth_header?: AuthHeader;
}

/** Shape of the config file. */
export interface ConfigData extends Record<string, unknown> {
  profiles?: Record<string, Profile>;
  /** Absolute path of the sandbox corpus used when neither `--corpus` nor `PRAVO_SANDBOX_CORPUS` is given. */
  sandbox_corpus?: string;
}

/** The profile used when neither `--profile` nor `PRAVO_PROFILE` names one. */
export const DEFAULT_PROFILE = 'default';

const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/**
 * Checks a profile name: letters, digits, `_`, `.`, `-`, starting with a letter or digit, at most 64 characters.
 * @throws ConfigError
 */
export function checkProfileName(name: string): string {
  if (!PROFILE_NAME.test(name)) {
    throw new ConfigError(
      `"${name}" is not a valid profile name: use letters, digits, "_", "." and "-", starting with a letter or digit.`,
    );
  }
  return name;
}

/** The configuration file, read and written through `conf`. */
export class ConfigStore {
  readonly #conf: Conf<ConfigData>;

  private constructor(conf: Conf<ConfigData>) {
    this.#conf = conf;
  }

  /**
   * Opens the config file: `$PRAVO_CONFIG_DIR/config.json` when the variable is set, else the system's user config
   * directory for `pravo` (e.g. `~/.config/pravo/config.json`). Nothing is written until a setter is called.
   * @throws ConfigError when the file exists but is not valid JSON.
   */
  static async open(env: NodeJS.ProcessEnv = process.env): Promise<ConfigStore> {
    return new ConfigStore(await openConf<ConfigData>(env, 'config'));
  }

  /** Absolute path of the config file. */
  get path(): string {
    return this.#conf.path;
  }

  /** A copy of the whole configuration. */
  data(): ConfigData {
    return structuredClone(this.#conf.store);
  }

  /** The named profile's stored fields (empty when the profile does not exist). */
  profile(name: string): Profile {
    return { ...this.#conf.get('profiles')?.[name] };
  }

  /** Sets (or, with `undefined`, removes) one field of a profile, creating the profile when needed. */
  setProfileField<K extends keyof Profile>(name: string, field: K, value: Profile[K] | undefined): void {
    checkProfileName(name);
    const profiles = { ...this.#conf.get('profiles') };
    const profile = { ...profiles[name] };
    if (value === undefined) delete profile[field];
    else profile[field] = value;
    profiles[name] = profile;
    this.#conf.set('profiles', profiles);
  }

  /**
   * Points a profile at a service in one write of the config file (mode 0600): sets its `base_url` and `api_key`,
   * sets `auth_header` to `x-api-key` only when the profile has none, and keeps its other fields and the other
   * profiles. Creates the profile when missing. Used by `pravo sandbox serve --save-to-profile NAME` at each start.
   * @param baseUrl a base URL already checked by `normalizeBaseUrl`.
   * @throws ConfigError for an invalid profile name (nothing is written); the file-system error of the write.
   */
  saveEndpoint(name: string, baseUrl: string, apiKey: string): void {
    checkProfileName(name);
    const profiles = { ...this.#conf.get('profiles') };
    const profile: Profile = { ...profiles[name], base_url: baseUrl, api_key: apiKey };
    profile.auth_header ??= 'x-api-key';
    profiles[name] = profile;
    this.#conf.set('profiles', profiles);
  }

  /** The sandbox corpus setting, when set. */
  sandboxCorpus(): string | undefined {
    return this.#conf.get('sandbox_corpus');
  }

  /** Sets (or, with `undefined`, removes) the sandbox corpus setting; stores an absolute path. */
  setSandboxCorpus(file: string | undefined): void {
    if (file === undefined) this.#conf.delete('sandbox_corpus');
    else this.#conf.set('sandbox_corpus', path.resolve(file));
  }
}

/**
 * Opens `<config dir>/<configName>.json` with `conf` (mode 0600, no dot-notation): the config dir is
 * `$PRAVO_CONFIG_DIR` when set, else the system's user config directory for `pravo`; it is created 0700 when missing.
 * @throws ConfigError when the file exists but cannot be read as JSON.
 * @throws StateDirectoryError when the config directory cannot be created.
 */
export async function openConf<T extends Record<string, unknown>>(
  env: NodeJS.ProcessEnv,
  configName: string,
): Promise<Conf<T>> {
  const [{ default: ConfClass }, dir] = await Promise.all([import('conf'), configDir(env)]);
  // conf creates a missing directory with the default mode; create it first, private to the user.
  ensurePrivateDir(dir);
  try {
    return new ConfClass<T>({ cwd: dir, configName, configFileMode: 0o600, accessPropertiesByDotNotation: false });
  } catch (error) {
    throw new ConfigError(
      `Cannot read the pravo file ${path.join(dir, `${configName}.json`)}: ${(error as Error).message}. Fix or remove it.`,
    );
  }
}

/**
 * The config directory, `pravoPaths(env).config`: `$PRAVO_CONFIG_DIR` when set, else the system's user config
 * directory for `pravo`.
 */
export async function configDir(env: NodeJS.ProcessEnv): Promise<string> {
  return pravoPaths(env).config;
}

