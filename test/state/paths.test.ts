/**
 * Where pravo keeps things (`src/state/paths.ts`): environment overrides and their precedence over the env-paths
 * defaults, the per-platform state directory, memoization per env object, and private directory creation.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import envPaths from 'env-paths';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StateDirectoryError, defaultStateDir, ensurePrivateDir, pravoPaths } from '../../src/state/paths.js';

const isRoot = process.getuid?.() === 0;
const mode = (file: string): number => fs.statSync(file).mode & 0o777;
const system = envPaths('pravo', { suffix: '' });

let root: string;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'pravo-paths-test-'));
});

afterEach(() => {
  fs.chmodSync(root, 0o700);
  fs.rmSync(root, { recursive: true, force: true });
});

describe('pravoPaths', () => {
  it('defaults to the env-paths directories for "pravo" without a suffix', () => {
    const paths = pravoPaths({});
    expect(paths.config).toBe(system.config);
    expect(paths.cache).toBe(system.cache);
    expect(paths.data).toBe(system.data);
    expect(paths.state).toBe(defaultStateDir(process.platform, system));
    for (const dir of Object.values(paths)) {
      expect(path.isAbsolute(dir)).toBe(true);
      expect(dir).not.toContain('nodejs');
    }
  });

  it.runIf(process.platform === 'linux')('keeps state in the XDG state directory on Linux', () => {
    expect(pravoPaths({}).state).toBe(system.log);
    expect(pravoPaths({}).state).toMatch(/[/\\]pravo$/);
  });

  it('PRAVO_CONFIG_DIR, PRAVO_STATE_DIR and PRAVO_CACHE_DIR beat the defaults', () => {
    const env = {
      PRAVO_CONFIG_DIR: path.join(root, 'c'),
      PRAVO_STATE_DIR: path.join(root, 's'),
      PRAVO_CACHE_DIR: path.join(root, 'k'),
    };
    expect(pravoPaths(env)).toEqual({
      config: path.join(root, 'c'),
      state: path.join(root, 's'),
      cache: path.join(root, 'k'),
      data: system.data,
    });
  });

  it('each override moves only its own directory', () => {
    const env = { PRAVO_STATE_DIR: path.join(root, 's') };
    expect(pravoPaths(env)).toEqual({
      config: system.config,
      state: path.join(root, 's'),
      cache: system.cache,
      data: system.data,
    });
  });

  it('ignores XDG variables in the env object: env-paths reads the process environment once', () => {
    const env = { XDG_CONFIG_HOME: path.join(root, 'xdg'), XDG_STATE_HOME: path.join(root, 'xdg-state') };
    expect(pravoPaths(env).config).toBe(system.config);
    expect(pravoPaths(env).state).toBe(pravoPaths({}).state);
  });

  it('treats an empty override as unset', () => {
    const paths = pravoPaths({ PRAVO_CONFIG_DIR: '', PRAVO_STATE_DIR: '', PRAVO_CACHE_DIR: '' });
    expect(paths).toEqual(pravoPaths({}));
  });

  it('resolves relative overrides against the current directory', () => {
    const paths = pravoPaths({ PRAVO_CONFIG_DIR: 'rel/config', PRAVO_STATE_DIR: './state', PRAVO_CACHE_DIR: '../cache' });
    expect(paths.config).toBe(path.join(process.cwd(), 'rel', 'config'));
    expect(paths.state).toBe(path.join(process.cwd(), 'state'));
    expect(paths.cache).toBe(path.resolve(process.cwd(), '..', 'cache'));
  });

  it('is memoized per env object: the same object gives the same answer, even after it changes', () => {
    const env: NodeJS.ProcessEnv = { PRAVO_STATE_DIR: path.join(root, 'a') };
    const first = pravoPaths(env);
    expect(pravoPaths(env)).toBe(first);
    env.PRAVO_STATE_DIR = path.join(root, 'b');
    expect(pravoPaths(env).state).toBe(path.join(root, 'a'));
    expect(pravoPaths({ ...env }).state).toBe(path.join(root, 'b'));
  });

  it('creates nothing', () => {
    pravoPaths({ PRAVO_CONFIG_DIR: path.join(root, 'c'), PRAVO_STATE_DIR: path.join(root, 's') });
    expect(fs.readdirSync(root)).toEqual([]);
  });
});

describe('defaultStateDir', () => {
  it('Linux and other Unix systems: the XDG state directory (env-paths log)', () => {
    const dirs = { data: '/home/u/.local/share/pravo', log: '/home/u/.local/state/pravo' };
    expect(defaultStateDir('linux', dirs)).toBe('/home/u/.local/state/pravo');
    expect(defaultStateDir('freebsd', dirs)).toBe('/home/u/.local/state/pravo');
  });

  it('macOS: a state directory under Application Support, not ~/Library/Logs', () => {
    const dirs = { data: '/Users/u/Library/Application Support/pravo', log: '/Users/u/Library/Logs/pravo' };
    expect(defaultStateDir('darwin', dirs)).toBe('/Users/u/Library/Application Support/pravo/state');
  });

  it('Windows: State beside Data, Cache and Log under %LOCALAPPDATA%\\pravo', () => {
    const dirs = { data: 'C:\\Users\\u\\AppData\\Local\\pravo\\Data', log: 'C:\\Users\\u\\AppData\\Local\\pravo\\Log' };
    expect(defaultStateDir('win32', dirs)).toBe('C:\\Users\\u\\AppData\\Local\\pravo\\State');
  });
});

describe('ensurePrivateDir', () => {
  it('creates missing directories, parents included, with mode 0700 and returns the path', () => {
    const dir = path.join(root, 'a', 'b', 'c');
    expect(ensurePrivateDir(dir)).toBe(dir);
    expect(fs.statSync(dir).isDirectory()).toBe(true);
    expect(mode(dir)).toBe(0o700);
    expect(mode(path.join(root, 'a'))).toBe(0o700);
    expect(mode(path.join(root, 'a', 'b'))).toBe(0o700);
  });

  it('leaves an existing directory and its mode alone', () => {
    const dir = path.join(root, 'shared');
    fs.mkdirSync(dir, { mode: 0o755 });
    fs.chmodSync(dir, 0o755);
    fs.writeFileSync(path.join(dir, 'keep'), 'x');
    expect(ensurePrivateDir(dir)).toBe(dir);
    expect(mode(dir)).toBe(0o755);
    expect(fs.readFileSync(path.join(dir, 'keep'), 'utf8')).toBe('x');
  });

  it('accepts a symlink to a directory', () => {
    const target = path.join(root, 'target');
    fs.mkdirSync(target);
    const link = path.join(root, 'link');
    fs.symlinkSync(target, link);
    expect(ensurePrivateDir(link)).toBe(link);
  });

  it('throws StateDirectoryError naming the path for a path under a regular file', () => {
    const file = path.join(root, 'file');
    fs.writeFileSync(file, 'not a directory');
    const dir = path.join(file, 'sub');
    let error: unknown;
    try {
      ensurePrivateDir(dir);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(StateDirectoryError);
    const stateError = error as StateDirectoryError;
    expect(stateError.path).toBe(dir);
    expect(stateError.reason).toBe('ENOTDIR');
    expect(stateError.message).toContain(dir);
    expect(stateError.message).toMatch(/PRAVO_(CONFIG|STATE|CACHE)_DIR/);
  });

  it('throws StateDirectoryError for /etc/passwd/sub', () => {
    expect(() => ensurePrivateDir('/etc/passwd/sub')).toThrow(StateDirectoryError);
    expect(() => ensurePrivateDir('/etc/passwd/sub')).toThrow('/etc/passwd/sub');
  });

  it('throws StateDirectoryError (ENOTDIR) when the path itself is a regular file', () => {
    const file = path.join(root, 'file');
    fs.writeFileSync(file, 'x');
    expect(() => ensurePrivateDir(file)).toThrow(expect.objectContaining({ path: file, reason: 'ENOTDIR' }));
    expect(fs.readFileSync(file, 'utf8')).toBe('x');
  });

  it.skipIf(isRoot)('throws StateDirectoryError (EACCES) under a read-only directory', () => {
    const parent = path.join(root, 'ro');
    fs.mkdirSync(parent);
    fs.chmodSync(parent, 0o500);
    try {
      const dir = path.join(parent, 'sub');
      expect(() => ensurePrivateDir(dir)).toThrow(expect.objectContaining({ path: dir, reason: 'EACCES' }));
    } finally {
      fs.chmodSync(parent, 0o700);
    }
  });
});
