/**
 * Other processes: those sharing a data directory (several sandboxes, a `sandbox serve` and `search --sandbox` runs,
 * may use one directory, and what a process leaves there, an index build's temporary file or an ephemeral key, is
 * cleaned up by a later start only once that process is gone), and the environment of a program pravo starts.
 */

/**
 * Whether a process with this id runs on this host: signal 0 checks without sending anything. EPERM means it runs
 * under another user; ESRCH that there is none. An id that is not a positive integer runs nowhere.
 */
export function processIsRunning(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The variables that hold pravo's credentials (see README: Environment): the API key and the user-session token. A
 * program pravo starts never sees them.
 */
export const CREDENTIAL_VARIABLES: readonly string[] = ['PRAVO_API_KEY', 'PRAVO_SESSION_TOKEN'];

/**
 * The environment of a program pravo starts (the browser of `pravo open`, the pager): `env` without
 * {@link CREDENTIAL_VARIABLES} (matched in any case, as Windows names variables), with `extra` set over it. The one
 * place every spawn of pravo builds a child's environment, so that a browser, its extensions or a pager never inherit
 * the key or the session token. A new object; `env` is not changed.
 */
export function childEnvironment(env: NodeJS.ProcessEnv, extra: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  const secret = new Set(CREDENTIAL_VARIABLES.map((name) => name.toUpperCase()));
  const child: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && !secret.has(name.toUpperCase())) child[name] = value;
  }
  return Object.assign(child, extra);
}
