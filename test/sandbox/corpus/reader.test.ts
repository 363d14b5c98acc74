/**
 * Reading corpus files (`src/sandbox/corpus/reader.ts`): plain and gzip JSON Lines with the decisions' court fields,
 * the courts file, and the errors they name.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { constants, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { CorpusError, countCorpusLines, hashCorpusFile, readCorpus, readCourtsFile, type CorpusDocument } from '../../../src/sandbox/corpus/reader.js';
import { HAS_SPECIAL_FILES, linkToDevZero, makeFifo } from '../../helpers/special-files.js';
import { CASES, LAWS, law, tempDirsPerTest, toJsonl, writeCorpus } from '../fixtures.js';

const SHARED = fileURLToPath(new URL('../../../../shared/corpus/', import.meta.url));

/** A temporary directory, removed after the test. */
const dir = tempDirsPerTest();

async function collect(path: string): Promise<CorpusDocument[]> {
  const documents: CorpusDocument[] = [];
  for await (const d of readCorpus(path)) documents.push(d);
  return documents;
}

describe('readCorpus', () => {
  it('reads plain and gzip JSON Lines alike, detecting gzip by content, not by name', async () => {
    const d = dir();
    const plain = writeCorpus(join(d, 'corpus.jsonl'), LAWS);
    const gzipNamedPlain = writeCorpus(join(d, 'corpus-without-gz-suffix.jsonl'), LAWS, true);
    const a = await collect(plain);
    const b = await collect(gzipNamedPlain);
    expect(a.map((x) => x.document_id)).toEqual(LAWS.map((x) => x.document_id));
    expect(b).toEqual(a);
  });

  it('skips blank lines', async () => {
    const d = dir();
    const path = join(d, 'c.jsonl');
    writeFileSync(path, '\n' + toJsonl(LAWS.slice(0, 2)).replace('\n', '\n\n   \n') + '\n\n');
    expect((await collect(path)).length).toBe(2);
  });

  it('names the file and line of invalid JSON', async () => {
    const d = dir();
    const path = join(d, 'c.jsonl.gz');
    const lines = toJsonl(LAWS).split('\n');
    lines.splice(2, 0, '{"document_id": "broken", ');
    writeFileSync(path, gzipSync(lines.join('\n')));
    const error = await collect(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CorpusError);
    expect((error as CorpusError).line).toBe(3);
    expect((error as CorpusError).message).toContain('line 3');
    expect((error as CorpusError).message).toContain(path);
  });

  it('rejects a document missing a required field, and a malformed element', async () => {
    const d = dir();
    const { title: _title, ...noTitle } = LAWS[0]!;
    const path = join(d, 'c.jsonl');
    writeFileSync(path, toJsonl([LAWS[1]!]) + JSON.stringify(noTitle) + '\n');
    await expect(collect(path)).rejects.toThrow(/line 2: .*"title"/);
    writeFileSync(path, JSON.stringify({ ...LAWS[0]!, elements: [{ ref: '1', label: 'Чл. 1.' }] }) + '\n');
    await expect(collect(path)).rejects.toThrow(/line 1: elements\[0\]/);
  });

  it('rejects a repeated document_id', async () => {
    const d = dir();
    const path = writeCorpus(join(d, 'c.jsonl'), [LAWS[0]!, LAWS[1]!, LAWS[0]!]);
    await expect(collect(path)).rejects.toThrow(/line 3: duplicate document_id "test-lighthouse"/);
  });

  it('reports a missing file clearly', async () => {
    const path = join(dir(), 'nope.jsonl.gz');
    await expect(collect(path)).rejects.toThrow(CorpusError);
    await expect(collect(path)).rejects.toThrow(/not found/);
    await expect(hashCorpusFile(path)).rejects.toThrow(/nope\.jsonl\.gz: file not found/);
  });
});

describe('readCorpus: only regular files, within the caps, linear, cancellable', () => {
  it.skipIf(!HAS_SPECIAL_FILES)('refuses a FIFO and a link to /dev/zero at once, naming them, without reading them', async () => {
    const d = dir();
    const fifo = makeFifo(join(d, 'pipe.jsonl'));
    const zero = linkToDevZero(join(d, 'zero.jsonl'));
    // A reader that opened the FIFO for a blocking read would wait here for ever; /dev/zero would never end.
    await expect(collect(fifo)).rejects.toThrow(`corpus ${fifo}: is a FIFO (named pipe), not a regular file; only regular files are read`);
    await expect(countCorpusLines(fifo)).rejects.toThrow(`corpus ${fifo}: is a FIFO (named pipe)`);
    await expect(hashCorpusFile(fifo)).rejects.toThrow(`corpus ${fifo}: is a FIFO (named pipe)`);
    await expect(readCourtsFile(fifo)).rejects.toThrow(`courts file ${fifo}: is a FIFO (named pipe)`);
    await expect(collect(zero)).rejects.toThrow(`corpus ${zero}: is a character device, not a regular file`);
    await expect(countCorpusLines(zero)).rejects.toThrow(`corpus ${zero}: is a character device`);
    await expect(hashCorpusFile(zero)).rejects.toThrow(`corpus ${zero}: is a character device`);
    await expect(readCourtsFile(zero)).rejects.toThrow(`courts file ${zero}: is a character device`);
  });

  it('refuses a line longer than 64 MiB (a gzip bomb of one line), naming the line and the cap', async () => {
    const path = join(dir(), 'bomb.jsonl.gz');
    writeFileSync(path, gzipSync(Buffer.concat([Buffer.from(toJsonl([LAWS[0]!])), Buffer.alloc(64 * 1024 * 1024 + 1, 0x20)]), { level: constants.Z_BEST_SPEED }));
    const error = await collect(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CorpusError);
    expect((error as CorpusError).message).toBe(`corpus ${path}, line 2: is longer than 64 MiB, the most read of one document`);
  });

  it('reads a document of one 12 MB line (many chunks), and 50,000 short lines, whole', async () => {
    const d = dir();
    const long = law('test-long', 'Тестов закон с дълъг член', '2020-01-01', [['1', 'тестов текст '.repeat(500_000)]]);
    const longPath = writeCorpus(join(d, 'long.jsonl'), [long]);
    expect(await collect(longPath)).toEqual([long]);
    const many = Array.from({ length: 50_000 }, (_, i) => law(`test-${i}`, `Тестов закон ${i}`, '2020-01-01', [['1', 'тестов текст']]));
    const manyPath = writeCorpus(join(d, 'many.jsonl.gz'), many, true);
    const read = await collect(manyPath);
    expect(read).toHaveLength(50_000);
    expect(read.at(-1)).toEqual(many.at(-1));
    expect(await countCorpusLines(manyPath)).toBe(50_000);
  });

  it('stops at the next chunk read when the signal aborts, with an AbortError', async () => {
    const many = Array.from({ length: 20_000 }, (_, i) => law(`test-${i}`, `Тестов закон ${i}`, '2020-01-01', [['1', 'тестов текст']]));
    const path = writeCorpus(join(dir(), 'many.jsonl'), many);
    const controller = new AbortController();
    let read = 0;
    const reading = (async () => {
      for await (const _ of readCorpus(path, controller.signal)) {
        if (++read === 1) controller.abort('SIGINT');
      }
    })();
    await expect(reading).rejects.toMatchObject({ name: 'AbortError', cause: 'SIGINT' });
    expect(read).toBeLessThan(many.length);
    await expect(countCorpusLines(path, controller.signal)).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('readCorpus, court decisions', () => {
  /** A made-up decision with every court field of `bg-decisions.jsonl.gz`. */
  const decision: CorpusDocument = {
    ...CASES[0]!,
    case_kind: 'ТЕСТОВИ ДАННИ: измислено дело',
    department: 'ТЕСТОВИ ДАННИ: Първо измислено отделение',
    judges: ['Мария Иванова Петрова', 'Георги Стоянов'],
  };

  it('reads case_kind, department and the panel, and accepts null numbers and rapporteur', async () => {
    const d = dir();
    const nulls = { ...decision, document_id: 'test-case-nulls', decision_number: null, case_number: null, reporting_judge: null, case_kind: null, department: null };
    const path = writeCorpus(join(d, 'c.jsonl'), [decision, nulls]);
    expect(await collect(path)).toEqual([decision, nulls]);
  });

  it.each([
    [{ judges: 'Георги Стоянов' }, /line 1: field "judges" must be an array of names/],
    [{ judges: ['Георги Стоянов', ''] }, /line 1: judges\[1\] must be a non-empty string/],
    [{ judges: [7] }, /line 1: judges\[0\] must be a non-empty string/],
    [{ case_kind: 3 }, /line 1: field "case_kind" must be a string/],
    [{ department: ['x'] }, /line 1: field "department" must be a string/],
    [{ court_id: '1' }, /line 1: field "court_id" must be an integer/],
    [{ collection: '' }, /line 1: field "collection" must be a non-empty string/],
  ])('rejects a decision with %j', async (change, message) => {
    const path = join(dir(), 'c.jsonl');
    writeFileSync(path, JSON.stringify({ ...decision, ...change }) + '\n');
    await expect(collect(path)).rejects.toThrow(message);
  });

  it.skipIf(!existsSync(SHARED))('reads the 35 real decisions', async () => {
    const decisions = await collect(join(SHARED, 'bg-decisions.jsonl.gz'));
    expect(decisions).toHaveLength(35);
    expect(decisions.every((x) => x.source_type === 'high_courts_cases' && Array.isArray(x.judges) && x.judges.length > 0)).toBe(true);
  });
});

describe('readCourtsFile', () => {
  it.skipIf(!existsSync(SHARED))('reads the 185 real courts, КС with court_id 0', async () => {
    const courts = await readCourtsFile(join(SHARED, 'bg-courts.json'));
    expect(courts).toHaveLength(185);
    expect(courts[0]).toEqual({ court_id: 0, name: 'Конституционен съд', court_type: 'Конституционен съд', ecli_code: 'CC000', parent_court_id: null });
    expect(courts.find((c) => c.court_id === 1)?.name).toBe('Върховен касационен съд');
  });

  /** A made-up court. */
  const court = { court_id: 10, name: 'ТЕСТОВИ ДАННИ: Първи измислен съд', court_type: 'Районен съд', ecli_code: 'RC010', parent_court_id: 20 };

  it('reads absent type, ECLI code and parent as null', async () => {
    const path = join(dir(), 'bg-courts.json');
    writeFileSync(path, JSON.stringify([court, { court_id: 20, name: 'ТЕСТОВИ ДАННИ: Втори измислен съд' }]));
    expect(await readCourtsFile(path)).toEqual([court, { court_id: 20, name: 'ТЕСТОВИ ДАННИ: Втори измислен съд', court_type: null, ecli_code: null, parent_court_id: null }]);
  });

  it.each([
    ['[1, {"court_id": 2, "name": "x"}]', 'entry 1: a court must be a JSON object'],
    [JSON.stringify([court, { ...court, court_id: 11, name: '' }]), 'entry 2: missing or invalid required field "name"'],
    [JSON.stringify([{ ...court, court_id: -1 }]), 'entry 1: missing or invalid required field "court_id"'],
    [JSON.stringify([{ ...court, court_id: 1.5 }]), 'entry 1: missing or invalid required field "court_id"'],
    [JSON.stringify([{ ...court, court_type: 4 }]), 'entry 1: field "court_type" must be a string or null'],
    [JSON.stringify([{ ...court, ecli_code: {} }]), 'entry 1: field "ecli_code" must be a string or null'],
    [JSON.stringify([{ ...court, parent_court_id: '20' }]), 'entry 1: field "parent_court_id" must be a non-negative integer or null'],
    [JSON.stringify([court, { ...court, name: 'ТЕСТОВИ ДАННИ: пак' }]), 'entry 2: court_id 10 repeats entry 1'],
    [JSON.stringify({ courts: [court] }), ': must be a JSON array of courts'],
    ['[{"court_id": 1,', ': invalid JSON'],
  ])('names the file, the entry and the field: %s', async (text, message) => {
    const path = join(dir(), 'bg-courts.json');
    writeFileSync(path, text);
    const error = await readCourtsFile(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CorpusError);
    expect((error as CorpusError).message).toContain(`courts file ${path}`);
    expect((error as CorpusError).message).toContain(message);
    const entry = /entry (\d+):/.exec(message)?.[1];
    expect((error as CorpusError).entry).toBe(entry === undefined ? undefined : Number(entry));
  });

  it('reports a missing courts file as such', async () => {
    const path = join(dir(), 'bg-courts.json');
    await expect(readCourtsFile(path)).rejects.toThrow(`courts file ${path}: file not found`);
  });
});
