/**
 * Files a user names for pravo to write: `--out` of `pravo search`, `doc` and `answer`, the results of `pravo batch`
 * (and the journal beside them), the corpus file of `pravo sandbox import`. Unlike pravo's own files, which live in its
 * private directories, these may be in a directory other users write to (`/tmp`), where anyone can plant a symbolic
 * link under the name the user is about to give: `ln -s ~victim/.bashrc /tmp/memo.md`. Writing through that link would
 * overwrite the file it points to with the victim's own rights.
 *
 * The rule ({@link mayFollowLink}) is the kernel's `fs.protected_symlinks`, made strict for the file itself:
 * - the file named may be a symbolic link only when the user owns that link (anyone else's link is refused, wherever
 *   it is);
 * - a directory on the way may be a link of another user only when that link is not in a sticky, world-writable
 *   directory, or belongs to that directory's owner (so `/tmp` → `/private/tmp` on macOS, owned by root in `/`, is
 *   followed).
 * Links are followed in user space ({@link resolveUserFile}) to the file's real path, and the writes go there without
 * following a link again: a new file is created exclusively (`O_EXCL`) and renamed over the target (`rename` replaces
 * a link, never its target), an appended file is opened with `O_NOFOLLOW`. So a link planted after the check is
 * replaced or refused, not written through.
 *
 * New files are created 0600 (owner only, whatever the umask): memos, results and corpora hold what the user asked
 * and what the service answered. An existing file keeps its mode. A leaf module (Node's `fs` and `path` only), so
 * that the sandbox's importer uses it too. Without POSIX owners (Windows: no `process.geteuid`), no owner is checked.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';

/** Mode of a new file a user asked for (owner read and write). */
export const USER_FILE_MODE = 0o600;

/** The sticky bit (`S_ISVTX`) and the others' write bit (`S_IWOTH`) of a mode. */
const STICKY = 0o1000;
const WRITABLE_BY_OTHERS = 0o002;

/** Links followed on the way to one file before giving up with ELOOP (Linux's limit). */
const MAX_LINKS = 40;

/** The owner facts {@link mayFollowLink} decides on: a link's owner, and its directory's owner and mode. */
export interface LinkFacts {
  /** The owner (uid) of the symbolic link itself (`lstat`). */
  linkUid: number;
  /** The owner and the mode (with its sticky bit) of the directory that holds the link. */
  dirUid: number;
  dirMode: number;
  /** Whether the link is the last component of the path: the file itself, not a directory on the way. */
  last: boolean;
}

/**
 * Whether pravo, running as `uid`, follows a symbolic link: its own links always; another user's link never as the
 * file itself, and as a directory on the way only when it is not in a sticky, world-writable directory or belongs to
 * that directory's owner (the kernel's `fs.protected_symlinks` rule). Pure.
 */
export function mayFollowLink(facts: LinkFacts, uid: number): boolean {
  if (facts.linkUid === uid) return true;
  if (facts.last) return false;
  const stickyShared = (facts.dirMode & STICKY) !== 0 && (facts.dirMode & WRITABLE_BY_OTHERS) !== 0;
  return !stickyShared || facts.linkUid === facts.dirUid;
}

/**
 * A symbolic link pravo refuses to write through (see {@link mayFollowLink}). `file` is the path as the user gave it,
 * `link` the refused link (the file itself, or a directory on the way), `owner` its owner's uid, `target` what it
 * points to (as `readlink` gives it: foreign text, to be sanitized before it is shown). Nothing was written.
 */
export class RefusedLinkError extends Error {
  readonly code = 'EREFUSEDLINK';
  readonly file: string;
  readonly link: string;
  readonly owner: number;
  readonly target: string;
  constructor(file: string, link: string, owner: number, target: string) {
    super(`${link} is a symbolic link of another user (uid ${owner}) to ${target}: pravo does not write through it`);
    this.name = 'RefusedLinkError';
    this.file = file;
    this.link = link;
    this.owner = owner;
    this.target = target;
  }
}

/** Options of the functions below; `uid` is the user pravo writes for (default: the effective uid; tests give another). */
export interface UserFileOptions {
  uid?: number | undefined;
}

/** The effective uid of this process; `undefined` where there are no POSIX owners. */
function currentUid(): number | undefined {
  return process.geteuid?.();
}

/**
 * The real path `file` names, its symbolic links followed the way the kernel follows them (`..` after a link goes up
 * from the link's target), each checked by {@link mayFollowLink} before it is followed. A path whose rest does not
 * exist (a new file, a missing directory) is returned with that rest as given: writing it fails later if a directory
 * is missing. Without an owner to check (`uid` undefined), the absolute path unchanged.
 * @throws RefusedLinkError for a link pravo does not follow; the file-system error of an `lstat` or `readlink` (other
 *   than ENOENT/ENOTDIR), or ELOOP after {@link MAX_LINKS} links.
 */
export async function resolveUserFile(file: string, options: UserFileOptions = {}): Promise<string> {
  const uid = 'uid' in options ? options.uid : currentUid();
  const absolute = path.isAbsolute(file) ? file : `${process.cwd()}${path.sep}${file}`;
  if (uid === undefined) return path.resolve(absolute);
  let done = path.parse(absolute).root;
  const pending = components(absolute.slice(done.length));
  let links = 0;
  while (pending.length > 0) {
    const name = pending.shift()!;
    if (name === '.') continue;
    if (name === '..') {
      done = path.dirname(done);
      continue;
    }
    const current = path.join(done, name);
    const stat = await lstatOrUndefined(current);
    if (stat === undefined) return path.join(current, ...pending);
    if (!stat.isSymbolicLink()) {
      done = current;
      continue;
    }
    const target = await fsp.readlink(current);
    const dir = await fsp.stat(done);
    if (!mayFollowLink({ linkUid: stat.uid, dirUid: dir.uid, dirMode: dir.mode, last: pending.length === 0 }, uid)) {
      throw new RefusedLinkError(file, current, stat.uid, target);
    }
    if (++links > MAX_LINKS) throw Object.assign(new Error(`ELOOP: too many symbolic links, ${file}`), { code: 'ELOOP', path: file });
    pending.unshift(...components(target));
    if (path.isAbsolute(target)) done = path.parse(target).root;
  }
  return done;
}

/** The non-empty components of a path. */
function components(text: string): string[] {
  return text.split(path.sep === '\\' ? /[\\/]/ : '/').filter((part) => part !== '');
}

/** `lstat`, or `undefined` when nothing is there (ENOENT, or a component that is a file: ENOTDIR). */
async function lstatOrUndefined(file: string): Promise<fs.Stats | undefined> {
  try {
    return await fsp.lstat(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/**
 * Writes `data` (a string as UTF-8) to `file` atomically, never through another user's link: the real path checked
 * ({@link resolveUserFile}), a temporary file `.<name>.<random>.tmp` created exclusively beside it (mode 0600),
 * written and flushed to disk, then renamed over the target. A new file is 0600; an existing one keeps its mode (and,
 * when pravo may set it, its owner). On failure the target is unchanged and the temporary file removed.
 * @throws RefusedLinkError; the file-system error (`EISDIR` when the target is a directory, `ENOENT`, `EACCES`,
 *   `ENOSPC`, …).
 */
export async function writeUserFile(file: string, data: string | Uint8Array, options: UserFileOptions = {}): Promise<void> {
  const target = await resolveUserFile(file, options);
  const existing = await lstatOrUndefined(target);
  if (existing?.isDirectory()) throw Object.assign(new Error(`EISDIR: illegal operation on a directory, ${file}`), { code: 'EISDIR', path: file });
  const temp = temporaryBeside(target);
  const handle = await fsp.open(temp, 'wx', USER_FILE_MODE);
  try {
    try {
      await handle.writeFile(data);
      await handle.sync();
      if (existing?.isFile()) {
        await handle.chmod(existing.mode & 0o7777);
        await handle.chown(existing.uid, existing.gid).catch(() => {});
      }
    } finally {
      await handle.close();
    }
    await fsp.rename(temp, target);
  } catch (error) {
    await fsp.unlink(temp).catch(() => {});
    throw error;
  }
}

/**
 * A new name for a temporary file beside `target` (same directory, so that the rename is atomic):
 * `.<name>.<12 random hex digits>.tmp`.
 */
export function temporaryBeside(target: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
}

/**
 * Opens `file` for reading and appending (`a+`), creating it with `mode` (default 0600, subject to the umask) when
 * missing, never through another user's link: the real path checked ({@link resolveUserFile}), then opened with
 * `O_NOFOLLOW`, so a link put there meanwhile is refused (ELOOP) rather than followed.
 * @throws RefusedLinkError; the file-system error (`EISDIR`, `EACCES`, `ENOSPC`, `ELOOP`, …).
 */
export async function openUserFileForAppend(file: string, mode: number = USER_FILE_MODE, options: UserFileOptions = {}): Promise<fsp.FileHandle> {
  const target = await resolveUserFile(file, options);
  const { O_RDWR, O_CREAT, O_APPEND, O_NOFOLLOW } = fs.constants;
  return fsp.open(target, O_RDWR | O_CREAT | O_APPEND | (O_NOFOLLOW ?? 0), mode);
}
