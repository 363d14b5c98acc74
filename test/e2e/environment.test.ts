/**
 * The user's environment, as the built CLI meets it: data directories that are files, under files or on file systems
 * that refuse them, listen addresses that are not this machine's. Each is a clear error naming the path or value
 * (exit 2 for a bad option, 1 for the environment), never "This is a bug in pravo", and never a hang.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pravo, tempDir } from './helpers.js';

const tmp = tempDir('environment');
afterAll(() => tmp.cleanup());
/** A corpus file that is never read: every run below fails before the index is opened. */
const corpus = path.join(tmp.dir, 'unused-corpus.jsonl');
fs.writeFileSync(corpus, '');
const env = { PRAVO_CONFIG_DIR: path.join(tmp.dir, 'config') };

describe('a sandbox data directory that cannot be used', () => {
  it.each([
    ['/etc/passwd', 2, /Cannot use \/etc\/passwd as the sandbox data directory \(from --data-dir\): it, or a part of its path, is a file/],
    ['/etc/passwd/sub', 2, /Cannot use \/etc\/passwd\/sub as the sandbox data directory/],
    ['', 2, /--data-dir needs a directory/],
  ])('search --sandbox --data-dir %j: exit %i, the path named', async (dir, code, message) => {
    const result = await pravo(['search', '--sandbox', '--corpus', corpus, '--data-dir', dir, 'трудов договор'], { env });
    expect(result.exitCode).toBe(code);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(/Unexpected error|bug in pravo/);
  });

  it.runIf(fs.existsSync('/proc/self'))('under /proc, where Node\'s recursive mkdir loops for ever: exit 1 at once, for search and serve', async () => {
    for (const args of [['search', '--sandbox', 'трудов договор'], ['sandbox', 'serve']]) {
      const result = await pravo([...args, '--corpus', corpus, '--data-dir', '/proc/pravo-nope'], { env, timeout: 20_000 });
      expect(result.timedOut, args[0]).toBe(false);
      expect(result.exitCode, args[0]).toBe(1);
      expect(result.stderr).toMatch(/Cannot use \/proc\/pravo-nope as the sandbox data directory/);
    }
  });

  // Root may write anywhere, so a read-only directory can only be made for another user (CI runs as root: skipped there;
  // a read-only file system is told the same way, by the same check).
  it.skipIf(process.getuid?.() === 0)('read-only: exit 1 naming the directory and what to do, before any index is built', async () => {
    const readOnly = path.join(tmp.dir, 'read-only');
    fs.mkdirSync(readOnly, { mode: 0o500 });
    const result = await pravo(['search', '--sandbox', '--corpus', corpus, '--data-dir', readOnly, 'трудов договор'], { env });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/Cannot use .*read-only as the sandbox data directory \(from --data-dir\): permission denied/);
    expect(result.stderr).not.toMatch(/Building/);
  });

  it('from PRAVO_SANDBOX_DATA_DIR: a configuration error (exit 2) naming the variable', async () => {
    const result = await pravo(['search', '--sandbox', '--corpus', corpus, 'трудов договор'], {
      env: { ...env, PRAVO_SANDBOX_DATA_DIR: '/etc/passwd' },
    });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/\(from PRAVO_SANDBOX_DATA_DIR\)/);
  });
});

describe('sandbox serve --host', () => {
  it.each(['999.1.1.1', 'nohost.invalid', '192.0.2.1'])('--host %s: exit 2 naming --host, before any index is built', async (host) => {
    const dataDir = path.join(tmp.dir, `data-${host}`);
    const result = await pravo(['sandbox', 'serve', '--corpus', corpus, '--data-dir', dataDir, '--host', host], { env });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(`--host ${host}`);
    expect(result.stderr).not.toMatch(/Building|reachable from other machines|bug in pravo|Nothing was sent/);
    expect(result.stdout).toBe('');
  });
});
