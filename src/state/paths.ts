/**
 * Where pravo keeps things, and how its own directories are created (mode 0700). Each directory, with the variable
 * that overrides it, and its default on Linux, macOS and Windows:
 *
 * - config (`PRAVO_CONFIG_DIR`): `~/.config/pravo`, `~/Library/Preferences/pravo`, `%APPDATA%\pravo\Config`.
 * - state (`PRAVO_STATE_DIR`): `~/.local/state/pravo`, `~/Library/Application Support/pravo/state`,
 *   `%LOCALAPPDATA%\pravo\State`.
 * - cache (`PRAVO_CACHE_DIR`): `~/.cache/pravo`, `~/Library/Caches/pravo`, `%LOCALAPPDATA%\pravo\Cache`.
 * - data (no override here): `~/.local/share/pravo`, `~/Library/Application Support/pravo`,
 *   `%LOCALAPPDATA%\pravo\Data`.
 *
 * Defaults come from `env-paths` (no `-nodejs` suffix); on Linux they follow `$XDG_CONFIG_HOME`, `$XDG_STATE_HOME`,
 * `$XDG_CACHE_HOME` and `$XDG_DATA_HOME`, read by env-paths from the process environment when it is loaded. The state
 * directory is env-paths' `log` directory on Linux only (there it is the XDG state directory); on macOS `log` is
 * `~/Library/Logs`, meant for logs that the user or Console may clear, and on Windows it is named `Log`, so there
 * pravo keeps its state beside its data instead (see {@link defaultStateDir}).
 */
import os from 'node:os';
import path from 'node:path';
import envPaths from 'env-paths';
import { EnvironmentError } from '../errors/cli.js';
import { describeFileSystemProblem } from '../errors/file-system.js';
import { makePrivateDir } from '../shared/private-files.js';

/**
 * Where pravo keeps things; all absolute paths.
 * - `config`: `config.json` (profiles, keys).
 * - `state`: last results (`last-results.json`), answer jobs, batch journals.
 * - `cache`: the response cache (`<cache>/responses`).
 * - `data`: parent of the sandbox's default data directory (`<data>/sandbox`; `PRAVO_SANDBOX_DATA_DIR` overrides
 *   that where the sandbox resolves it).
 */
export interface PravoPaths {
  config: string;
  state: string;
  cache: string;
  data: string;
}

/** env-paths' answer for `pravo`, computed on first use, once per process. */
let systemPaths: ReturnType<typeof envPaths> | undefined;

/** Resolved paths per env object. */
const resolved = new WeakMap<NodeJS.ProcessEnv, PravoPaths>();

/**
 * The default state directory for a platform, given env-paths' `data` and `log` directories:
 * - Linux and other Unix systems: `log`, i.e. `$XDG_STATE_HOME/pravo` (default `~/.local/state/pravo`).
 * - macOS (`darwin`): `<data>/state`, i.e. `~/Library/Application Support/pravo/state`.
 * - Windows (`win32`): `State` beside env-paths' `Data`, `Cache` and `Log`, i.e. `%LOCALAPPDATA%\pravo\State`.
 */
export function defaultStateDir(platform: NodeJS.Platform, system: { data: string; log: string }): string {
  if (platform === 'darwin') return path.posix.join(system.data, 'state');
  if (platform === 'win32') return path.win32.join(path.win32.dirname(system.data), 'State');
  return system.log;
}

/**
 * Resolves pravo's directories for an environment: `PRAVO_CONFIG_DIR`, `PRAVO_STATE_DIR` and `PRAVO_CACHE_DIR`
 * override the defaults one by one (an empty value counts as unset; a relative value is resolved against the
 * current directory). Memoized per env object (a WeakMap keyed by the object itself), so a later change to the same
 * object is not seen. Creates nothing.
 */
export function pravoPaths(env: NodeJS.ProcessEnv): PravoPaths {
  const known = resolved.get(env);
  if (known) return known;
  systemPaths ??= envPaths('pravo', { suffix: '' });
  const override = (value: string | undefined): string | undefined => (value ? path.resolve(value) : undefined);
  const paths: PravoPaths = {
    config: override(env.PRAVO_CONFIG_DIR) ?? systemPaths.config,
    state: override(env.PRAVO_STATE_DIR) ?? defaultStateDir(os.platform(), systemPaths),
    cache: override(env.PRAVO_CACHE_DIR) ?? systemPaths.cache,
    data: systemPaths.data,
  };
  resolved.set(env, paths);
  return paths;
}

/**
 * A directory of pravo's that cannot be used: it cannot be created, or the path exists and is not a directory.
 * `path` is the directory asked for; `reason` the errno code (`EACCES`, `EPERM`, `EROFS`, `ENOTDIR`, `ENOSPC`,
 * `EEXIST`…; `ENOTDIR` also when the path itself is a file). The message names the path and what to do. An
 * `EnvironmentError` (exit 1).
 */
export class StateDirectoryError extends EnvironmentError {
  readonly path: string;
  readonly reason: string;
  constructor(dir: string, reason: string, options?: ErrorOptions) {
    super(`Cannot use the directory ${dir}: ${describeFileSystemProblem(reason)}. ${WHAT_TO_DO}`, options);
    this.path = dir;
    this.reason = reason;
  }
}

const WHAT_TO_DO =
  'Fix that, or point pravo elsewhere with PRAVO_CONFIG_DIR, PRAVO_STATE_DIR or PRAVO_CACHE_DIR ' +
  '(whichever holds this directory).';

/**
 * Creates `dir` and any missing parents with mode 0700 (private to the user), for pravo's own directories, in a
 * bounded number of steps (see `makePrivateDir`: never the endless loop of Node's recursive mkdir under `/proc`). A
 * directory that already exists is used as it is, its mode untouched. Returns `dir` unchanged.
 * @throws StateDirectoryError naming the directory when the path exists but is not a directory (reason `ENOTDIR`), or
 *   it cannot be created (`EACCES`, `EROFS`, `ENOTDIR`, `ENOSPC`, `ENOENT` from a file system that refuses it, …).
 */
export function ensurePrivateDir(dir: string): string {
  try {
    makePrivateDir(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'EIO';
    throw new StateDirectoryError(dir, code === 'EEXIST' ? 'ENOTDIR' : code, { cause: error });
  }
  return dir;
}
