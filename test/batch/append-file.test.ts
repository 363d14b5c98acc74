/**
 * The append-only line files of `pravo batch` (`src/batch/append-file.ts`): the results and the journal. What a rerun
 * after a kill relies on: every line whose append resolved is in the file, whole and in order; a line cut short by a
 * kill (no final newline) is dropped, both when reading and when the file is opened again.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppendFile, readLines } from '../../src/batch/append-file.js';

let root: string;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'pravo-append-file-test-'));
});

afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

async function collect(file: string): Promise<string[]> {
  const lines: string[] = [];
  for await (const line of readLines(file)) lines.push(line);
  return lines;
}

describe('AppendFile.append', () => {
  it('keeps every line whole and in call order when many appends are started without waiting', async () => {
    const file = path.join(root, 'results.jsonl');
    const out = await AppendFile.open(file);
    const lines = Array.from({ length: 300 }, (_, i) => JSON.stringify({ line: i + 1, query: `въпрос ${i + 1} ${'я'.repeat(i % 50)}` }));
    await Promise.all(lines.map((line) => out.append(line)));
    await out.close();
    expect(fs.readFileSync(file, 'utf8')).toBe(lines.map((l) => `${l}\n`).join(''));
    expect(await collect(file)).toEqual(lines);
  });

  it('has the line in the file by the time its append resolves, with the lines before it', async () => {
    const file = path.join(root, 'results.jsonl');
    const out = await AppendFile.open(file);
    const seen: string[] = [];
    await Promise.all(['a', 'b', 'c', 'd'].map((line) => out.append(line).then(() => seen.push(fs.readFileSync(file, 'utf8')))));
    await out.close();
    expect(seen).toEqual(['a\n', 'a\nb\n', 'a\nb\nc\n', 'a\nb\nc\nd\n']);
  });

  it('appends after what the file already holds', async () => {
    const file = path.join(root, 'results.jsonl');
    fs.writeFileSync(file, 'first\nsecond\n');
    const out = await AppendFile.open(file);
    await out.append('third');
    await out.close();
    expect(fs.readFileSync(file, 'utf8')).toBe('first\nsecond\nthird\n');
  });

  it('creates a missing file with the mode asked for', async () => {
    const file = path.join(root, 'results.jsonl.journal');
    const out = await AppendFile.open(file, 0o600);
    await out.append('{"type":"batch"}');
    await out.close();
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(file, 'utf8')).toBe('{"type":"batch"}\n');
  });

  it('waits for pending appends on close, and may be closed twice', async () => {
    const file = path.join(root, 'results.jsonl');
    const out = await AppendFile.open(file);
    void out.append('one');
    void out.append('two');
    await out.close();
    await out.close();
    expect(fs.readFileSync(file, 'utf8')).toBe('one\ntwo\n');
  });

  it('refuses to open a directory', async () => {
    await expect(AppendFile.open(root)).rejects.toMatchObject({ code: 'EISDIR' });
  });
});

describe('AppendFile.open: a line cut short by a kill', () => {
  it('cuts off the incomplete last line, so the next line starts on its own', async () => {
    const file = path.join(root, 'results.jsonl');
    fs.writeFileSync(file, '{"line":1}\n{"line":2}\n{"line":3,"respo');
    const out = await AppendFile.open(file);
    expect(fs.readFileSync(file, 'utf8')).toBe('{"line":1}\n{"line":2}\n');
    await out.append('{"line":3}');
    await out.close();
    expect(await collect(file)).toEqual(['{"line":1}', '{"line":2}', '{"line":3}']);
  });

  it('empties a file whose only content is a partial line', async () => {
    const file = path.join(root, 'results.jsonl');
    fs.writeFileSync(file, '{"type":"batch","vers');
    const out = await AppendFile.open(file);
    expect(fs.statSync(file).size).toBe(0);
    await out.append('{"type":"batch"}');
    await out.close();
    expect(fs.readFileSync(file, 'utf8')).toBe('{"type":"batch"}\n');
  });

  it('leaves an empty file and a file ending with a newline as they are', async () => {
    const empty = path.join(root, 'empty.jsonl');
    fs.writeFileSync(empty, '');
    await (await AppendFile.open(empty)).close();
    expect(fs.statSync(empty).size).toBe(0);

    const whole = path.join(root, 'whole.jsonl');
    fs.writeFileSync(whole, 'a\n\nb\n');
    await (await AppendFile.open(whole)).close();
    expect(fs.readFileSync(whole, 'utf8')).toBe('a\n\nb\n');
  });

  it('finds the last newline before a torn line longer than 64 KiB', async () => {
    const file = path.join(root, 'results.jsonl');
    const kept = `{"line":1}\n${'x'.repeat(100_000)}\n`;
    fs.writeFileSync(file, `${kept}${'y'.repeat(200_000)}`);
    await (await AppendFile.open(file)).close();
    expect(fs.readFileSync(file, 'utf8')).toBe(kept);
  });

  it('keeps a whole last line longer than 64 KiB, and cuts a short torn line after it', async () => {
    const file = path.join(root, 'results.jsonl');
    const long = `{"line":1,"response":"${'я'.repeat(70_000)}"}\n`;
    fs.writeFileSync(file, long);
    await (await AppendFile.open(file)).close();
    expect(fs.readFileSync(file, 'utf8')).toBe(long);

    fs.appendFileSync(file, '{"line":2,');
    await (await AppendFile.open(file)).close();
    expect(fs.readFileSync(file, 'utf8')).toBe(long);
  });

  it('empties a file that is one torn line longer than 64 KiB', async () => {
    const file = path.join(root, 'results.jsonl');
    fs.writeFileSync(file, 'z'.repeat(3 * 64 * 1024 + 17));
    await (await AppendFile.open(file)).close();
    expect(fs.statSync(file).size).toBe(0);
  });

  it('cuts at a byte boundary even when the torn line ends inside a multi-byte character', async () => {
    const file = path.join(root, 'results.jsonl');
    const whole = Buffer.from('{"q":"неустойка"}\n', 'utf8');
    const torn = Buffer.from('{"q":"давност"}', 'utf8').subarray(0, 9); // ends in the middle of "а"
    fs.writeFileSync(file, Buffer.concat([whole, torn]));
    await (await AppendFile.open(file)).close();
    expect(fs.readFileSync(file)).toEqual(whole);
  });
});

describe('readLines', () => {
  it('yields the lines without their newlines, blank lines included', async () => {
    const file = path.join(root, 'results.jsonl');
    fs.writeFileSync(file, 'a\n\nнеустойка\n');
    expect(await collect(file)).toEqual(['a', '', 'неустойка']);
  });

  it('does not yield a torn last line (no final newline)', async () => {
    const file = path.join(root, 'results.jsonl');
    fs.writeFileSync(file, '{"line":1}\n{"line":2}\n{"line":3,"respo');
    expect(await collect(file)).toEqual(['{"line":1}', '{"line":2}']);
  });

  it('yields nothing for a file that is only a partial line', async () => {
    const file = path.join(root, 'results.jsonl');
    fs.writeFileSync(file, '{"type":"batch"');
    expect(await collect(file)).toEqual([]);
  });

  it('yields nothing for an empty file and for a missing one', async () => {
    const empty = path.join(root, 'empty.jsonl');
    fs.writeFileSync(empty, '');
    expect(await collect(empty)).toEqual([]);
    expect(await collect(path.join(root, 'missing.jsonl'))).toEqual([]);
  });

  it('streams lines longer than 64 KiB whole, Cyrillic across chunk boundaries included', async () => {
    const file = path.join(root, 'results.jsonl');
    const long = `{"response":"${'неустойка '.repeat(20_000)}"}`;
    fs.writeFileSync(file, `${long}\nкратък\n`);
    expect(await collect(file)).toEqual([long, 'кратък']);
  });

  it('reports a file-system error other than a missing file', async () => {
    await expect(collect(root)).rejects.toMatchObject({ code: 'EISDIR' });
  });
});
