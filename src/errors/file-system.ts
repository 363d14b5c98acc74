/**
 * The words of file-system error codes, for every message about a path pravo needs (its own directories, the config
 * file, an output file, the sandbox's data directory). Below io/, state/ and config/, which all use it.
 */

/**
 * What an errno code means for a path pravo needs (a directory it creates, a file it writes), in words (`EACCES` →
 * "permission denied (…)"), for messages of the form "Cannot use DIR: <this>." or "Cannot write FILE: <this>.".
 * The one wording of these codes for every such message.
 */
export function describeFileSystemProblem(code: string): string {
  return FILE_SYSTEM_PROBLEMS[code] ?? `it cannot be created (${code})`;
}

/** Errno codes that say the user's environment is at fault (not pravo), with their words. */
const FILE_SYSTEM_PROBLEMS: Readonly<Record<string, string>> = {
  EACCES: 'permission denied (make it or its parent writable by you)',
  EPERM: 'permission denied (make it or its parent writable by you)',
  EROFS: 'the file system is read-only',
  ENOTDIR: 'it, or a part of its path, is a file, not a directory',
  EISDIR: 'it is a directory',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  ENOENT: 'the file system there does not allow creating it',
};
