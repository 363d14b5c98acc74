/**
 * Files a user names for pravo to write (`src/shared/user-files.ts`): never written through another user's symbolic
 * link (the link planted in a shared directory to make the user overwrite its target), links followed as the kernel
 * follows them, and new files created 0600 whatever the umask. Real links in a temporary directory; the user's uid is
 * given where the test cannot create another user's link, and links are handed to another owner (`lchown`) when the
 * tests run as root.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mayFollowLink, openUserFileForAppend, RefusedLinkError, resolveUserFile, writeUserFile } from '../../src/shared/user-files.js';

const me = process.geteuid!();
/** Someone else: the uid the refused links belong to, or the user pravo runs for when the link is the test's own. */
const other = me + 4242;
const asRoot = me === 0;

let root: string;
let savedUmask: number;

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'pravo-user-files-')));
  savedUmask = process.umask();
});

afterEach(() => {
  process.umask(savedUmask);
  fs.rmSync(root, { recursive: true, force: true });
});

/** A file of the "victim" with its content, and a link to it at `name` in `dir`. */
function plant(dir: string, name: string): { target: string; link: string } {
  const target = path.join(root, 'victim-bashrc');
  fs.writeFileSync(target, 'export PATH=/usr/bin\n');
  const link = path.join(dir, name);
  fs.symlinkSync(target, link);
  return { target, link };
}

const mode = (file: string): number => fs.statSync(file).mode & 0o7777;

describe('mayFollowLink (the kernel’s protected_symlinks, strict for the file itself)', () => {
  const sticky = 0o41777;
  const plain = 0o40755;
  it.each<[string, Parameters<typeof mayFollowLink>[0], boolean]>([
    ['the user’s own link, as the file', { linkUid: 1000, dirUid: 0, dirMode: sticky, last: true }, true],
    ['another user’s link, as the file, in /tmp', { linkUid: 1001, dirUid: 0, dirMode: sticky, last: true }, false],
    ['another user’s link, as the file, in a private directory', { linkUid: 1001, dirUid: 1001, dirMode: plain, last: true }, false],
    ['another user’s link, as a directory on the way, in /tmp', { linkUid: 1001, dirUid: 0, dirMode: sticky, last: false }, false],
    ['the directory owner’s link, on the way, in a sticky directory', { linkUid: 0, dirUid: 0, dirMode: sticky, last: false }, true],
    ['root’s link on the way in a directory that is not sticky (macOS /tmp → /private/tmp)', { linkUid: 0, dirUid: 0, dirMode: plain, last: false }, true],
    ['another user’s link on the way in a sticky directory only its owner writes', { linkUid: 1001, dirUid: 0, dirMode: 0o41755, last: false }, true],
  ])('%s: %s', (_name, facts, expected) => {
    expect(mayFollowLink(facts, 1000)).toBe(expected);
  });
});

describe('resolveUserFile', () => {
  it('follows the user’s own link to its target, and gives a missing file its real directory', async () => {
    const { target, link } = plant(root, 'memo.md');
    expect(await resolveUserFile(link, { uid: me })).toBe(target);
    fs.mkdirSync(path.join(root, 'real'));
    fs.symlinkSync(path.join(root, 'real'), path.join(root, 'dir-link'));
    expect(await resolveUserFile(path.join(root, 'dir-link', 'new.md'), { uid: me })).toBe(path.join(root, 'real', 'new.md'));
  });

  it('goes up from a link’s target for `..` after it, as the kernel does', async () => {
    fs.mkdirSync(path.join(root, 'a', 'b'), { recursive: true });
    fs.symlinkSync(path.join(root, 'a', 'b'), path.join(root, 'b-link'));
    // Written as a string: path.join would drop `b-link/..` before pravo sees it.
    expect(await resolveUserFile(`${root}/b-link/../x.md`, { uid: me })).toBe(path.join(root, 'a', 'x.md'));
  });

  it('refuses a link of another user as the file, naming the link, its owner and its target', async () => {
    const { target, link } = plant(root, 'memo.md');
    const refused = await resolveUserFile(link, { uid: other }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RefusedLinkError);
    expect(refused).toMatchObject({ file: link, link, owner: me, target });
  });

  it.skipIf(!asRoot)('refuses another user’s link to a directory in a sticky, world-writable directory (as root: the link lchown-ed)', async () => {
    const shared = path.join(root, 'tmp');
    fs.mkdirSync(shared);
    fs.chmodSync(shared, 0o1777);
    fs.mkdirSync(path.join(root, 'victim-home'));
    const link = path.join(shared, 'notes');
    fs.symlinkSync(path.join(root, 'victim-home'), link);
    fs.lchownSync(link, other, other);
    await expect(resolveUserFile(path.join(link, '.bashrc'), { uid: me })).rejects.toMatchObject({ link, owner: other });
    // The same link in a directory that is not sticky is followed (the kernel's rule for directories on the way).
    fs.chmodSync(shared, 0o777);
    expect(await resolveUserFile(path.join(link, '.bashrc'), { uid: me })).toBe(path.join(root, 'victim-home', '.bashrc'));
  });
});

describe('writeUserFile', () => {
  it('creates a new file 0600 under umask 000, and leaves no temporary file', async () => {
    process.umask(0);
    const file = path.join(root, 'memo.md');
    await writeUserFile(file, 'бележка\n');
    expect(fs.readFileSync(file, 'utf8')).toBe('бележка\n');
    expect(mode(file)).toBe(0o600);
    expect(fs.readdirSync(root)).toEqual(['memo.md']);
  });

  it('keeps the mode of an existing file', async () => {
    const file = path.join(root, 'memo.md');
    fs.writeFileSync(file, 'old');
    fs.chmodSync(file, 0o644);
    await writeUserFile(file, 'new');
    expect(fs.readFileSync(file, 'utf8')).toBe('new');
    expect(mode(file)).toBe(0o644);
  });

  it('writes through the user’s own link to its target, keeping the link', async () => {
    const { target, link } = plant(root, 'memo.md');
    await writeUserFile(link, 'new', { uid: me });
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(target, 'utf8')).toBe('new');
  });

  it('never writes through another user’s link: the target and the link stay as they were, no temporary file is left', async () => {
    const { target, link } = plant(root, 'memo.md');
    await expect(writeUserFile(link, 'pwned', { uid: other })).rejects.toBeInstanceOf(RefusedLinkError);
    expect(fs.readFileSync(target, 'utf8')).toBe('export PATH=/usr/bin\n');
    expect(fs.readlinkSync(link)).toBe(target);
    expect(fs.readdirSync(root).sort()).toEqual(['memo.md', 'victim-bashrc']);
  });

  it('refuses another user’s dangling link too (it would create its target)', async () => {
    const link = path.join(root, 'memo.md');
    fs.symlinkSync(path.join(root, 'victim-new-file'), link);
    await expect(writeUserFile(link, 'pwned', { uid: other })).rejects.toBeInstanceOf(RefusedLinkError);
    expect(fs.existsSync(path.join(root, 'victim-new-file'))).toBe(false);
  });

  it('refuses a directory in the file’s place', async () => {
    fs.mkdirSync(path.join(root, 'memo.md'));
    await expect(writeUserFile(path.join(root, 'memo.md'), 'x')).rejects.toMatchObject({ code: 'EISDIR' });
  });
});

describe('openUserFileForAppend', () => {
  it('creates a new file 0600 under umask 000', async () => {
    process.umask(0);
    const file = path.join(root, 'results.jsonl');
    const handle = await openUserFileForAppend(file);
    await handle.close();
    expect(mode(file)).toBe(0o600);
  });

  it('never appends through another user’s link', async () => {
    const { target, link } = plant(root, 'results.jsonl');
    await expect(openUserFileForAppend(link, undefined, { uid: other })).rejects.toBeInstanceOf(RefusedLinkError);
    expect(fs.readFileSync(target, 'utf8')).toBe('export PATH=/usr/bin\n');
  });
});
