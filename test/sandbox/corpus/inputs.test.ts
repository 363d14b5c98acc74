/**
 * The sandbox's inputs (`src/sandbox/corpus/inputs.ts`): which files a path names (the directory rule), the errors that
 * name the path at fault, and the key of a set of inputs (order-free, content-bound).
 */
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  corpusFileKind,
  corpusInputsKey,
  describeInputs,
  digestInputs,
  inputsKeyOf,
  resolveCorpusInputs,
} from '../../../src/sandbox/corpus/inputs.js';
import { CorpusError } from '../../../src/sandbox/corpus/reader.js';
import { HAS_SPECIAL_FILES, linkToDevZero, makeFifo } from '../../helpers/special-files.js';
import { CASES, LAWS, tempDirsPerTest, writeCorpus } from '../fixtures.js';

const SHARED_CORPUS = fileURLToPath(new URL('../../../../shared/corpus', import.meta.url));

/** A temporary directory, removed after the test. */
const dir = tempDirsPerTest();

/** A test courts file (made-up courts). */
function writeCourts(path: string): string {
  writeFileSync(path, JSON.stringify([{ court_id: 10, name: 'ТЕСТОВИ ДАННИ: Първи измислен съд', court_type: null, ecli_code: null, parent_court_id: null }]));
  return path;
}

function thrown(run: () => unknown): CorpusError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(CorpusError);
    return error as CorpusError;
  }
  throw new Error('expected a CorpusError');
}

describe('resolveCorpusInputs', () => {
  it('takes from a directory and its sub-directories the corpus inputs and the courts file, nothing else', () => {
    const d = dir();
    const a = writeCorpus(join(d, 'a.jsonl'), LAWS);
    const b = writeCorpus(join(d, 'b.jsonl.gz'), CASES, true);
    const courts = writeCourts(join(d, 'test-courts.json'));
    writeFileSync(join(d, 'README.md'), '# not a corpus\n');
    writeFileSync(join(d, 'notes.json'), '[]');
    writeFileSync(join(d, 'c.jsonl.bak'), '');
    mkdirSync(join(d, 'sub'));
    const nested = writeCorpus(join(d, 'sub', 'nested.jsonl'), LAWS);
    mkdirSync(join(d, 'sub', 'akn', 'zakon'), { recursive: true });
    const act = join(d, 'sub', 'akn', 'zakon', '2020.bul.xml');
    writeFileSync(act, '<akomaNtoso/>');
    const payload = join(d, 'sub', '12345.json');
    writeFileSync(payload, '{}');
    mkdirSync(join(d, '.hidden'));
    writeCorpus(join(d, '.hidden', 'ignored.jsonl'), LAWS);
    mkdirSync(join(d, 'dir-named.jsonl'));
    expect(resolveCorpusInputs([d])).toEqual({ corpusFiles: [a, b, payload, nested, act], courtsFile: courts });
    expect([a, act, payload].map(corpusFileKind)).toEqual(['jsonl', 'akn', 'payload']);
  });

  it('takes a thesaurus (*thesaurus*.dat or .dat.gz) from a directory or by name, and its content changes the key', async () => {
    const d = dir();
    const a = writeCorpus(join(d, 'a.jsonl'), LAWS);
    mkdirSync(join(d, 'sub'));
    // Synthetic MyThes text (test data, not from any real thesaurus).
    const thesaurus = join(d, 'sub', 'test-thesaurus.dat');
    writeFileSync(thesaurus, 'UTF-8\nпазач|1\n(същ.)|пазител\n');
    expect(resolveCorpusInputs([d])).toEqual({ corpusFiles: [a], thesaurusFile: thesaurus });
    expect(resolveCorpusInputs([a, thesaurus])).toEqual({ corpusFiles: [a], thesaurusFile: thesaurus });
    const without = await corpusInputsKey({ corpusFiles: [a] });
    const withIt = await corpusInputsKey({ corpusFiles: [a], thesaurusFile: thesaurus });
    expect(withIt).not.toBe(without);
    writeFileSync(thesaurus, 'UTF-8\nпазач|1\n(същ.)|страж\n');
    expect(await corpusInputsKey({ corpusFiles: [a], thesaurusFile: thesaurus })).not.toBe(withIt);
  });

  it('takes the links file (*act-links.json) from a directory or by name; it changes the key; two are refused', async () => {
    const d = dir();
    const a = writeCorpus(join(d, 'a.jsonl'), LAWS);
    mkdirSync(join(d, 'links'));
    // A made-up page of a made-up act (test data).
    const links = join(d, 'links', 'test-act-links.json');
    writeFileSync(links, JSON.stringify([{ title: 'Закон за тестовите уведомления', url: 'https://example.invalid/1', lex_id: '1', published: null, updated: null }]));
    expect(resolveCorpusInputs([d])).toEqual({ corpusFiles: [a], linksFile: links });
    expect(resolveCorpusInputs([a, links])).toEqual({ corpusFiles: [a], linksFile: links });
    const without = await corpusInputsKey({ corpusFiles: [a] });
    const withIt = await corpusInputsKey({ corpusFiles: [a], linksFile: links });
    expect(withIt).not.toBe(without);
    expect((await digestInputs({ corpusFiles: [a], linksFile: links })).links?.path).toBe(links);
    writeFileSync(links, '[]');
    expect(await corpusInputsKey({ corpusFiles: [a], linksFile: links })).not.toBe(withIt);
    const second = join(dir(), 'other-act-links.json');
    writeFileSync(second, '[]');
    expect(thrown(() => resolveCorpusInputs([d, second])).message).toContain(`${second}: is a second links file beside ${links}`);
    expect(thrown(() => resolveCorpusInputs([links])).message).toMatch(/only the links of acts; give a corpus file/);
    expect(describeInputs({ corpusFiles: ['/a.jsonl'], linksFile: '/l/bg-act-links.json' })).toBe('/a.jsonl and the links file /l/bg-act-links.json');
  });

  it.skipIf(!existsSync(SHARED_CORPUS))('finds in ../shared/corpus the statutes, the decisions, the consolidated acts, the Akoma Ntoso acts, the payloads, the courts and the links', () => {
    const inputs = resolveCorpusInputs([SHARED_CORPUS]);
    expect(inputs.courtsFile).toBe(join(SHARED_CORPUS, 'bg-courts.json'));
    expect(inputs.thesaurusFile).toBe(join(SHARED_CORPUS, 'bg-thesaurus.dat.gz'));
    expect(inputs.linksFile).toBe(join(SHARED_CORPUS, 'links', 'bg-act-links.json'));
    const kinds = { jsonl: 0, akn: 0, payload: 0 };
    for (const file of inputs.corpusFiles) kinds[corpusFileKind(file)]++;
    expect(kinds).toEqual({ jsonl: 4, akn: 603, payload: 10 });
    expect(inputs.corpusFiles).toContain(join(SHARED_CORPUS, 'gazette-decisions.jsonl.gz'));
    expect(inputs.corpusFiles).toContain(join(SHARED_CORPUS, 'consolidated', 'bg-consolidated.jsonl.gz'));
    expect(describeInputs(inputs)).toContain(`603 Akoma Ntoso acts in ${join(SHARED_CORPUS, 'akn')}`);
  });

  it('takes a file named explicitly as a corpus file whatever its name, unless the name ends in courts.json', () => {
    const d = dir();
    const corpus = writeCorpus(join(d, 'decisions.txt'), CASES);
    const courts = writeCourts(join(d, 'courts.json'));
    expect(resolveCorpusInputs([courts, corpus])).toEqual({ corpusFiles: [corpus], courtsFile: courts });
    expect(resolveCorpusInputs([corpus])).toEqual({ corpusFiles: [corpus] });
  });

  it('resolves relative paths and counts a path named twice once', () => {
    const d = dir();
    const corpus = writeCorpus(join(d, 'a.jsonl'), LAWS);
    const courts = writeCourts(join(d, 'bg-courts.json'));
    expect(resolveCorpusInputs([d, corpus, courts, join(d, '.', 'a.jsonl')])).toEqual({ corpusFiles: [corpus], courtsFile: courts });
  });

  it('refuses a directory without a corpus file, naming it', () => {
    const d = dir();
    writeFileSync(join(d, 'README.md'), 'nothing here');
    writeCourts(join(d, 'bg-courts.json'));
    const error = thrown(() => resolveCorpusInputs([d]));
    expect(error.file).toBe(d);
    expect(error.message).toMatch(new RegExp(`^directory ${d}: holds no corpus file .*\\.jsonl, \\.jsonl\\.gz, \\.xml, \\.xml\\.gz`));
  });

  it('refuses two courts files, naming both', () => {
    const d = dir();
    const corpus = writeCorpus(join(d, 'a.jsonl'), LAWS);
    const first = writeCourts(join(d, 'a-courts.json'));
    const second = writeCourts(join(d, 'b-courts.json'));
    expect(thrown(() => resolveCorpusInputs([d])).message).toContain(`${second}: is a second courts file beside ${first}`);
    const other = join(dir(), 'bg-courts.json');
    writeCourts(other);
    const error = thrown(() => resolveCorpusInputs([corpus, first, other]));
    expect(error.message).toContain(first);
    expect(error.message).toContain(other);
  });

  it('refuses a courts file alone, a missing path and an empty list', () => {
    const d = dir();
    const courts = writeCourts(join(d, 'bg-courts.json'));
    expect(thrown(() => resolveCorpusInputs([courts])).message).toMatch(/only the list of courts; give a corpus file/);
    const missing = join(d, 'missing.jsonl.gz');
    const error = thrown(() => resolveCorpusInputs([courts, missing]));
    expect(error.file).toBe(missing);
    expect(error.message).toBe(`corpus ${missing}: no such file or directory`);
    expect(thrown(() => resolveCorpusInputs([])).message).toMatch(/no corpus file given/);
  });
});

describe('the inputs key', () => {
  it('does not depend on the order of the corpus files', async () => {
    const d = dir();
    const a = writeCorpus(join(d, 'a.jsonl'), LAWS);
    const b = writeCorpus(join(d, 'b.jsonl.gz'), CASES, true);
    const courts = writeCourts(join(d, 'bg-courts.json'));
    const forward = await digestInputs({ corpusFiles: [a, b], courtsFile: courts });
    const backward = await digestInputs({ corpusFiles: [b, a], courtsFile: courts });
    expect(backward.key).toBe(forward.key);
    expect(backward.corpus).toEqual(forward.corpus);
    expect(forward.key).toMatch(/^[0-9a-f]{16}$/);
    expect(await corpusInputsKey({ corpusFiles: [b, a], courtsFile: courts })).toBe(forward.key);
    expect(inputsKeyOf(['x', 'y'], undefined)).toBe(inputsKeyOf(['y', 'x'], undefined));
  });

  it('changes with the content of any input, with the courts file, and not with a file name', async () => {
    const d = dir();
    const a = writeCorpus(join(d, 'a.jsonl'), LAWS);
    const courts = writeCourts(join(d, 'bg-courts.json'));
    const base = await corpusInputsKey({ corpusFiles: [a] });
    expect(await corpusInputsKey({ corpusFiles: [a], courtsFile: courts })).not.toBe(base);
    expect(await corpusInputsKey({ corpusFiles: [writeCorpus(join(d, 'renamed.jsonl'), LAWS)] })).toBe(base);
    writeCorpus(a, LAWS.slice(1));
    expect(await corpusInputsKey({ corpusFiles: [a] })).not.toBe(base);
  });

  it('reports hashing progress in bytes over all the files', async () => {
    const d = dir();
    const a = writeCorpus(join(d, 'a.jsonl'), LAWS);
    const b = writeCorpus(join(d, 'b.jsonl'), CASES);
    const courts = writeCourts(join(d, 'bg-courts.json'));
    const seen: [number, number][] = [];
    await digestInputs({ corpusFiles: [a, b], courtsFile: courts }, (done, total) => seen.push([done, total]));
    const total = [a, b, courts].reduce((n, f) => n + statSync(f).size, 0);
    expect(seen.at(-1)).toEqual([total, total]);
    expect(seen.every(([, t]) => t === total)).toBe(true);
    expect(seen.map(([done]) => done)).toEqual([...seen.map(([done]) => done)].sort((x, y) => x - y));
  });

  it('names a missing courts file as a courts file', async () => {
    const d = dir();
    const a = writeCorpus(join(d, 'a.jsonl'), LAWS);
    const courts = join(d, 'gone-courts.json');
    await expect(digestInputs({ corpusFiles: [a], courtsFile: courts })).rejects.toThrow(`courts file ${courts}: file not found`);
  });

  it.skipIf(!HAS_SPECIAL_FILES)('refuses an input that is a FIFO or a device at once, naming it, before any build', async () => {
    const d = dir();
    const a = writeCorpus(join(d, 'a.jsonl'), LAWS);
    const fifo = makeFifo(join(d, '12345.json'));
    await expect(digestInputs({ corpusFiles: [a, fifo] })).rejects.toThrow(`corpus ${fifo}: is a FIFO (named pipe), not a regular file`);
    const zero = linkToDevZero(join(d, 'zero-courts.json'));
    await expect(digestInputs({ corpusFiles: [a], courtsFile: zero })).rejects.toThrow(`courts file ${zero}: is a character device, not a regular file`);
    // In a directory, such files are not inputs at all.
    expect(resolveCorpusInputs([d])).toEqual({ corpusFiles: [a] });
  });

  it('refuses an input larger than its reader reads, before any build: a payload over 32 MiB', async () => {
    const d = dir();
    const a = writeCorpus(join(d, 'a.jsonl'), LAWS);
    const payload = join(d, '12345.json');
    writeFileSync(payload, Buffer.alloc(32 * 1024 * 1024 + 1, 0x20));
    await expect(digestInputs({ corpusFiles: [a, payload] })).rejects.toThrow(`corpus ${payload}: is larger than 32 MiB, the limit for this kind of file`);
  });
});

describe('describeInputs', () => {
  it('lists the files for messages', () => {
    expect(describeInputs({ corpusFiles: ['/a.jsonl'] })).toBe('/a.jsonl');
    expect(describeInputs({ corpusFiles: ['/a.jsonl', '/b.jsonl'] })).toBe('/a.jsonl and /b.jsonl');
    expect(describeInputs({ corpusFiles: ['/a.jsonl', '/b.jsonl'], courtsFile: '/c-courts.json' })).toBe(
      '/a.jsonl, /b.jsonl and the courts file /c-courts.json',
    );
  });
});
