/**
 * pravo's configuration: named profiles `{base_url, api_key, auth_header}` and global settings, kept with `conf` in
 * one JSON file of mode 0600 (the only file that ever holds a key). `PRAVO_CONFIG_DIR` relocates it; tests always set
 * it. Reading is a plain read of the JSON file; `conf` (about 50 ms to load, with its schema validator) is loaded only
 * when something is written, so that commands that only read the configuration (`config show`, every API command
 * resolving its profile) do not pay for it.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type Conf from 'conf';
import type { AuthHeader } from '../api/client.js';
import { ConfigError, EnvironmentError, UsageError } from '../errors/cli.js';
import { describeFileSystemProblem } from '../errors/file-system.js';
import { ensurePrivateDir, pravoPaths } from '../state/paths.js';

/** One profile: where the service is and how to authenticate. Every field is optional until set. */
export interface Profile {
  /** Base URL without `/v1`, checked by `normalizeBaseUrl`. */
  base_url?: string;
  /** The API key (secret). */
  api_key?: string;
  /**
   * The `key_id` of `api_key`, when pravo stored the key itself and knows it (`keys create --save-to-profile`,
   * `keys rotate`, `sandbox serve --save-to-profile`): marks the key in `keys list` and names the old key of a
   * rotation. Removed whenever `api_key` is stored without it (`config set-key`).
   */
  api_key_id?: string;
  /** Header that carries the key; default `x-api-key`. */
  auth_header?: AuthHeader;
  /** The user-session token of the key and account endpoints (secret; `pravo login`). */
  session_token?: string;
  /**
   * An unfinished `pravo keys rotate` of this profile: its journal, kept here because it may hold the new key before
   * the rotation makes it `api_key` (the config file is the only file that ever holds a secret). Its shape is checked
   * by `commands/keys/rotation.ts`.
   */
  rotation?: Record<string, unknown>;
  /**
   * `pravo config set sandbox on`: the API commands of this profile run against an in-process sandbox over the sandbox
   * corpus, as with `--sandbox`, so that someone who has only the sandbox types no flag. Absent or false: the service.
   */
  sandbox?: boolean;
}

/** Shape of the config file. */
export interface ConfigData extends Record<string, unknown> {
  profiles?: Record<string, Profile>;
  /**
   * Absolute path of the sandbox corpus used when neither `--corpus` nor `PRAVO_SANDBOX_CORPUS` is given: a corpus file
   * or a directory (naming rule: `src/sandbox/corpus/inputs.ts`).
   */
  sandbox_corpus?: string;
  /**
   * The key each sandbox data directory issued to `--sandbox` runs (secret), by the directory's absolute path: taken
   * up again by the next run on that directory (`SandboxKey`), so that one key, whose last use moves, stands for them.
   */
  sandbox_keys?: Record<string, SandboxKey>;
}

/** A key a sandbox data directory issued to `--sandbox` runs: the secret and its `key_id`. */
export interface SandboxKey {
  api_key: string;
  key_id: string;
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

/**
 * Checks the profile name of a `--save-to-profile` option (`sandbox serve`, `sandbox token`, `keys create`) with the
 * rules of {@link checkProfileName}; a bad name is a usage error of that option.
 * @throws UsageError `--save-to-profile: …`.
 */
export function checkSaveToProfile(name: string): string {
  try {
    return checkProfileName(name);
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(`--save-to-profile: ${error.message}`);
    throw error;
  }
}

/** The configuration file: read directly, written through `conf`. */
export class ConfigStore {
  /** The file as read at open, until the first write opens it with `conf`; `undefined` when it did not exist. */
  readonly #read: ConfigData | undefined;
  /** The file opened with `conf`, from the first write on. */
  #conf: Conf<ConfigData> | undefined;
  readonly #create: () => Conf<ConfigData>;
  readonly #path: string;

  private constructor(file: string, create: () => Conf<ConfigData>, read: ConfigData | undefined) {
    this.#path = file;
    this.#create = create;
    this.#read = read;
  }

  /** The configuration now: what `conf` holds once a write opened it, else what was read. */
  #current(): ConfigData {
    return this.#conf?.store ?? this.#read ?? {};
  }

  /**
   * Opens the config file: `$PRAVO_CONFIG_DIR/config.json` when the variable is set, else the system's user config
   * directory for `pravo` (e.g. `~/.config/pravo/config.json`). The file is read as it is; `conf` opens it at the first
   * write. When the file does not exist, nothing is created until a setter is called: reading (`config show`, resolving
   * a profile) leaves no directory behind.
   * @throws ConfigError when the file exists but is not valid JSON, or is not a JSON object.
   * @throws EnvironmentError when the file exists but cannot be read.
   */
  static async open(env: NodeJS.ProcessEnv = process.env): Promise<ConfigStore> {
    const dir = await configDir(env);
    const file = path.join(dir, `${CONFIG_NAME}.json`);
    const store = new ConfigStore(file, () => openConfFile<ConfigData>(dir, CONFIG_NAME), readConfigFile(file));
    return store;
  }

  /** Absolute path of the config file (which may not exist yet). */
  get path(): string {
    return this.#path;
  }

  /** A copy of the whole configuration (empty when the file does not exist). */
  data(): ConfigData {
    return structuredClone(this.#current());
  }

  /**
   * The named profile's stored fields (empty when the profile does not exist), checked: `base_url` and `api_key`
   * are strings, `auth_header` is `x-api-key` or `bearer`.
   * @throws ConfigError naming the file, the profile and the field when a field has another type or value (a file
   *   edited by hand), saying how to store it again.
   */
  profile(name: string): Profile {
    return checkStoredProfile(this.data().profiles?.[name], name, this.#path);
  }

  /**
   * Sets (or, with `undefined`, removes) one field of a profile, creating the profile when needed. Setting `api_key`
   * also removes `api_key_id`, which named the key it replaces.
   */
  setProfileField<K extends keyof Profile>(name: string, field: K, value: Profile[K] | undefined): void {
    this.updateProfile(name, (profile) => {
      if (value === undefined) delete profile[field];
      else profile[field] = value;
      if (field === 'api_key') delete profile.api_key_id;
    });
  }

  /**
   * Points a profile at a service in one write of the config file (mode 0600): sets its `base_url`, `api_key` and
   * `api_key_id`, and its `session_token` when one is given; sets `auth_header` to `x-api-key` only when the profile
   * has none; turns its `sandbox` setting off (its commands go to that server); keeps its other fields and the other profiles. Creates the profile when missing. Used by `pravo sandbox
   * serve --save-to-profile NAME` at each start.
   * @param endpoint `base_url` already checked by `normalizeBaseUrl`.
   * @throws ConfigError for an invalid profile name (nothing is written); the file-system error of the write.
   */
  saveEndpoint(name: string, endpoint: { base_url: string; api_key: string; api_key_id?: string; session_token?: string }): void {
    this.updateProfile(name, (profile) => {
      profile.base_url = endpoint.base_url;
      profile.api_key = endpoint.api_key;
      if (endpoint.api_key_id === undefined) delete profile.api_key_id;
      else profile.api_key_id = endpoint.api_key_id;
      if (endpoint.session_token !== undefined) profile.session_token = endpoint.session_token;
      profile.auth_header ??= 'x-api-key';
      // The profile now names a served sandbox: its commands go there, not to an in-process one.
      delete profile.sandbox;
    });
  }

  /**
   * Changes one profile (created when missing) in one atomic write of the file, keeping the other profiles: `change`
   * receives a copy of the stored profile (unchecked fields included) and edits it in place. The steps of `keys
   * rotate` are such writes, so each one is all or nothing.
   * @throws ConfigError for an invalid profile name (nothing is written); EnvironmentError when the write fails
   *   (nothing is changed).
   */
  updateProfile(name: string, change: (profile: Profile) => void): void {
    checkProfileName(name);
    const conf = this.#writable();
    const profiles = { ...conf.get('profiles') };
    const profile: Profile = { ...profiles[name] };
    change(profile);
    profiles[name] = profile;
    this.#write(() => conf.set('profiles', profiles));
  }

  /** The sandbox corpus setting (a file or a directory), when set. @throws ConfigError when it is not a string. */
  sandboxCorpus(): string | undefined {
    const value = this.#current().sandbox_corpus as unknown;
    if (value !== undefined && typeof value !== 'string') {
      throw new ConfigError(`In ${this.#path}, sandbox_corpus is a ${jsonType(value)}, not a path. Set it again with \`pravo config set sandbox-corpus PATH\`, or fix the file.`);
    }
    return value;
  }

  /** Sets (or, with `undefined`, removes) the sandbox corpus setting (a file or a directory); stores an absolute path. */
  setSandboxCorpus(file: string | undefined): void {
    if (file === undefined) {
      if (this.#current().sandbox_corpus === undefined) return;
      const conf = this.#writable();
      this.#write(() => conf.delete('sandbox_corpus'));
    } else {
      const conf = this.#writable();
      this.#write(() => conf.set('sandbox_corpus', path.resolve(file)));
    }
  }

  /**
   * The key stored for `--sandbox` runs on the data directory `dataDir` (absolute), when one is stored and well-formed;
   * `undefined` otherwise (a hand-edited entry of another shape is ignored, and replaced at the next run).
   */
  sandboxKey(dataDir: string): SandboxKey | undefined {
    const entry = (this.#current().sandbox_keys as Record<string, unknown> | undefined)?.[dataDir] as Record<string, unknown> | undefined;
    if (typeof entry?.api_key !== 'string' || typeof entry.key_id !== 'string') return undefined;
    return { api_key: entry.api_key, key_id: entry.key_id };
  }

  /** Stores (in one atomic write, mode 0600) the key `--sandbox` runs on `dataDir` use from now on. */
  setSandboxKey(dataDir: string, key: SandboxKey): void {
    const conf = this.#writable();
    const current = conf.get('sandbox_keys');
    const keys = typeof current === 'object' && current !== null && !Array.isArray(current) ? { ...current } : {};
    keys[dataDir] = { api_key: key.api_key, key_id: key.key_id };
    this.#write(() => conf.set('sandbox_keys', keys));
  }

  /**
   * Runs one write of the file; a file-system failure (a full disk, a read-only file system) becomes an
   * EnvironmentError naming the config file. The file is written atomically by conf, so it is never left half-written.
   */
  #write(change: () => void): void {
    try {
      change();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (typeof code !== 'string' || code.startsWith('ERR_')) throw error;
      throw new EnvironmentError(`Cannot write the config file ${this.#path}: ${describeFileSystemProblem(code)}. Nothing was changed.`, { cause: error });
    }
  }

  /** The open file, creating its directory (0700) and opening it first when it did not exist. */
  #writable(): Conf<ConfigData> {
    this.#conf ??= this.#create();
    return this.#conf;
  }
}

/** Base name of the config file. */
const CONFIG_NAME = 'config';

/** The setting a profile field is stored with, for "store it again with ..." advice. */
const FIELD_FIX: Record<Exclude<keyof Profile, 'rotation'>, string> = {
  base_url: '`pravo config set base-url URL`',
  api_key: '`pravo config set-key`',
  api_key_id: '`pravo config set-key`',
  auth_header: '`pravo config set auth-header x-api-key|bearer`',
  session_token: '`pravo login`',
  sandbox: '`pravo config set sandbox on|off`',
};

/**
 * A stored profile, its fields' types checked (see {@link ConfigStore.profile}); `file` names the config file in
 * messages. @throws ConfigError as `ConfigStore.profile` does.
 */
export function checkStoredProfile(stored: unknown, name: string, file: string): Profile {
  if (stored === undefined) return {};
  const profileFlag = name === DEFAULT_PROFILE ? '' : ` --profile ${name}`;
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) {
    throw new ConfigError(`In ${file}, profile "${name}" is a ${jsonType(stored)}, not an object of settings. Fix or remove it.`);
  }
  const profile = stored as Record<string, unknown>;
  if (profile.rotation !== undefined && (typeof profile.rotation !== 'object' || profile.rotation === null || Array.isArray(profile.rotation))) {
    throw new ConfigError(
      `In ${file}, rotation of profile "${name}" (the journal of an unfinished \`pravo keys rotate\`) is a ${jsonType(profile.rotation)}, not an object. Fix or remove it, then check the keys with \`pravo keys list${profileFlag}\`.`,
    );
  }
  for (const field of ['base_url', 'api_key', 'api_key_id', 'auth_header', 'session_token'] as const) {
    const value = profile[field];
    if (value === undefined) continue;
    const ok = field === 'auth_header' ? value === 'x-api-key' || value === 'bearer' : typeof value === 'string';
    if (!ok) {
      // The value itself is never shown: it may be a key.
      const what = field === 'auth_header' && typeof value === 'string' ? 'neither "x-api-key" nor "bearer"' : `a ${jsonType(value)}, not a string`;
      throw new ConfigError(
        `In ${file}, ${field} of profile "${name}" is ${what}. Store it again with ${FIELD_FIX[field].replace(/`$/, `${profileFlag}\``)}, or fix the file.`,
      );
    }
  }
  if (profile.sandbox !== undefined && typeof profile.sandbox !== 'boolean') {
    throw new ConfigError(
      `In ${file}, sandbox of profile "${name}" is a ${jsonType(profile.sandbox)}, not true or false. Store it again with ${FIELD_FIX.sandbox.replace(/`$/, `${profileFlag}\``)}, or fix the file.`,
    );
  }
  return { ...(profile as Profile) };
}

/** The JSON type of a value, in words: `number`, `array`, `null`, … */
function jsonType(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

/**
 * The config file's content, read directly (no `conf`), or `undefined` when the file does not exist.
 * @throws ConfigError when it is not valid JSON, or not a JSON object.
 * @throws EnvironmentError when it exists but cannot be read (a directory, no permission).
 */
function readConfigFile(file: string): ConfigData | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    throw new EnvironmentError(`Cannot read the config file ${file}: ${describeFileSystemProblem(code ?? 'unknown')}.`, { cause: error });
  }
  let data: unknown;
  try {
    // An empty file is not valid JSON either, as conf, which writes the file, also says.
    data = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`Cannot read the pravo file ${file}: ${(error as Error).message}. Fix or remove it.`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new ConfigError(`The config file ${file} does not hold a JSON object. Fix or remove it.`);
  }
  return data as ConfigData;
}

/**
 * Opens `<dir>/<configName>.json` with `conf` (mode 0600, no dot-notation), creating `dir` 0700 when missing. `conf`
 * is an ES module loaded here, synchronously (Node's `require` of ES modules), at the first write of a run.
 * @throws ConfigError when the file exists but cannot be read as JSON.
 * @throws StateDirectoryError when the directory cannot be created.
 */
function openConfFile<T extends Record<string, unknown>>(dir: string, configName: string): Conf<T> {
  // conf creates a missing directory with the default mode (and with Node's recursive mkdir); create it first, private
  // to the user and in bounded steps.
  ensurePrivateDir(dir);
  const { default: ConfClass } = createRequire(import.meta.url)('conf') as { default: typeof Conf };
  try {
    return new ConfClass<T>({ cwd: dir, configName, configFileMode: 0o600, accessPropertiesByDotNotation: false });
  } catch (error) {
    throw new ConfigError(`Cannot read the pravo file ${path.join(dir, `${configName}.json`)}: ${(error as Error).message}. Fix or remove it.`);
  }
}

/**
 * The config directory, `pravoPaths(env).config`: `$PRAVO_CONFIG_DIR` when set, else the system's user config
 * directory for `pravo`.
 */
export async function configDir(env: NodeJS.ProcessEnv): Promise<string> {
  return pravoPaths(env).config;
}
