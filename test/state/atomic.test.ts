/**
 * Atomic writes and forgiving JSON reads (`src/state/atomic.ts`): modes, parent creation, no temporary files left,
 * and the old content kept intact when a write fails.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StateWriteError, readJsonFile, writeFileAtomic } from '../../src/state/atomic.js';
import { StateDirectoryError } from '../../src/state/paths.js';

const isRoot = process.getuid?.() === 0;
const mode = (file: string): number => fs.statSync(file).mode & 0o777;

let root: string;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'pravo-atomic-test-'));
});

afterEach(() => {
  vi.restoreAllMocks();
  fs.chmodSync(root, 0o700);
  for (const entry of fs.readdirSync(root)) fs.chmodSync(path.join(root, entry), 0o700);
  fs.rmSync(root, { recursive: true, force: true });
});

describe('writeFileAtomic', () => {
  it('writes a string as UTF-8 with mode 0600 by default', async () => {
    const file = path.join(root, 'a.json');
    await writeFileAtomic(file, '{"q":"неустойка"}');
    expect(fs.readFileSync(file, 'utf8')).toBe('{"q":"неустойка"}');
    expect(mode(file)).toBe(0o600);
  });

  it('applies the given mode', async () => {
    const file = path.join(root, 'public.txt');
    await writeFileAtomic(file, 'x', { mode: 0o644 });
    expect(mode(file)).toBe(0o644);
  });

  it('sets the mode even when replacing a file that had another one', async () => {
    const file = path.join(root, 'was-open.json');
    fs.writeFileSync(file, 'old', { mode: 0o644 });
    fs.chmodSync(file, 0o644);
    await writeFileAtomic(file, 'new');
    expect(mode(file)).toBe(0o600);
    expect(fs.readFileSync(file, 'utf8')).toBe('new');
  });

  it('writes bytes, honouring a Uint8Array view offset', async () => {
    const file = path.join(root, 'bytes.bin');
    const backing = new Uint8Array([0, 1, 2, 3, 4, 5, 6, 7]);
    await writeFileAtomic(file, backing.subarray(2, 5));
    expect([...fs.readFileSync(file)]).toEqual([2, 3, 4]);
  });

  it('creates missing parent directories with mode 0700', async () => {
    const dir = path.join(root, 'state', 'pravo');
    const file = path.join(dir, 'last-results.json');
    await writeFileAtomic(file, '{}');
    expect(mode(dir)).toBe(0o700);
    expect(mode(path.join(root, 'state'))).toBe(0o700);
    expect(mode(file)).toBe(0o600);
  });

  it('replaces the content and leaves no temporary file behind', async () => {
    const file = path.join(root, 'f.json');
    await writeFileAtomic(file, 'first');
    await writeFileAtomic(file, 'second');
    expect(fs.readFileSync(file, 'utf8')).toBe('second');
    expect(fs.readdirSync(root)).toEqual(['f.json']);
  });

  it('serializes concurrent writes to one file: the last one wins, whole', async () => {
    const file = path.join(root, 'f.json');
    const bodies = Array.from({ length: 20 }, (_, i) => JSON.stringify({ i, pad: 'ж'.repeat(10_000) }));
    await Promise.all(bodies.map((body) => writeFileAtomic(file, body)));
    expect(fs.readFileSync(file, 'utf8')).toBe(bodies.at(-1));
    expect(fs.readdirSync(root)).toEqual(['f.json']);
  });

  it('throws StateDirectoryError when the parent cannot be created', async () => {
    const blocker = path.join(root, 'blocker');
    fs.writeFileSync(blocker, 'x');
    await expect(writeFileAtomic(path.join(blocker, 'sub', 'f.json'), 'x')).rejects.toBeInstanceOf(StateDirectoryError);
  });

  it('throws StateWriteError with path and reason when the target is a directory, leaving no temporary file', async () => {
    const target = path.join(root, 'is-a-dir');
    fs.mkdirSync(target);
    const error = await writeFileAtomic(target, 'x').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StateWriteError);
    expect(error).toMatchObject({ path: target, reason: expect.stringMatching(/^E[A-Z]+$/) });
    expect((error as Error).message).toContain(target);
    expect(fs.readdirSync(root)).toEqual(['is-a-dir']);
    expect(fs.readdirSync(target)).toEqual([]);
  });

  it('keeps the old content intact, and no temporary file, when the final rename fails', async () => {
    const file = path.join(root, 'config.json');
    fs.writeFileSync(file, 'old content');
    // write-file-atomic (CommonJS) calls fs.rename from node:fs at write time: make that one step fail.
    vi.spyOn(fs, 'rename').mockImplementation(((_from: string, _to: string, callback: (error: Error) => void) => {
      callback(Object.assign(new Error('EIO: i/o error, rename'), { code: 'EIO' }));
    }) as unknown as typeof fs.rename);
    const error = await writeFileAtomic(file, 'new content that never lands').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StateWriteError);
    expect(error).toMatchObject({ path: file, reason: 'EIO' });
    expect(fs.readFileSync(file, 'utf8')).toBe('old content');
    expect(fs.readdirSync(root)).toEqual(['config.json']);
  });

  it.skipIf(isRoot)('keeps the old content intact when the directory is read-only', async () => {
    const dir = path.join(root, 'ro');
    fs.mkdirSync(dir);
    const file = path.join(dir, 'f.json');
    fs.writeFileSync(file, 'old content');
    fs.chmodSync(dir, 0o500);
    try {
      const error = await writeFileAtomic(file, 'new content').catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(StateWriteError);
      expect(error).toMatchObject({ path: file, reason: 'EACCES' });
      expect(fs.readFileSync(file, 'utf8')).toBe('old content');
      expect(fs.readdirSync(dir)).toEqual(['f.json']);
    } finally {
      fs.chmodSync(dir, 0o700);
    }
  });
});

describe('readJsonFile', () => {
  it('parses a JSON file', async () => {
    const file = path.join(root, 'a.json');
    fs.writeFileSync(file, '{"a":[1,"б"]}');
    expect(await readJsonFile<{ a: unknown[] }>(file)).toEqual({ a: [1, 'б'] });
  });

  it('is undefined for a missing file', async () => {
    expect(await readJsonFile(path.join(root, 'missing.json'))).toBeUndefined();
  });

  it.each([
    ['not JSON', '{ not json'],
    ['truncated', '{"a": [1, 2'],
    ['empty', ''],
  ])('is undefined for a file that is %s, and the file can then be overwritten', async (_what, content) => {
    const file = path.join(root, 'bad.json');
    fs.writeFileSync(file, content);
    expect(await readJsonFile(file)).toBeUndefined();
    await writeFileAtomic(file, '{"ok":true}');
    expect(await readJsonFile(file)).toEqual({ ok: true });
  });

  it('ignores a leading byte order mark', async () => {
    const file = path.join(root, 'bom.json');
    fs.writeFileSync(file, '\ufeff{"a":1}');
    expect(await readJsonFile(file)).toEqual({ a: 1 });
  });

  it('throws the fs error for a path that cannot be read as a file', async () => {
    await expect(readJsonFile(root)).rejects.toMatchObject({ code: 'EISDIR' });
  });
});
