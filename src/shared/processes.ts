/**
 * Other processes sharing a data directory: several sandboxes (a `sandbox serve`, `search --sandbox` runs) may use one
 * directory, and what a process leaves there (an index build's temporary file, an ephemeral key) is cleaned up by a
 * later start only once that process is gone.
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
