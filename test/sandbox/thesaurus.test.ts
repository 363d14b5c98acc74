/**
 * The MyThes thesaurus reader of the sandbox search (`src/sandbox/text/thesaurus.ts`): senses and phrases, headword
 * keys by stem and merged headwords, the restriction to an index's stems, the errors (encoding, malformed lines, with
 * their line numbers), gzip and plain files.
 *
 * Every thesaurus text below is SYNTHETIC TEST DATA: invented words („бримбал“, „фрошка“, „кламбур“ …) in invented
 * entries, nothing taken from the real (GPL-2) LibreOffice thesaurus. Only the last test reads the real file, from
 * `../shared/corpus`, when it is there.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { constants, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { analyze, stem } from '../../src/sandbox/text/analysis.js';
import {
  MAX_SYNONYM_STEMS,
  parseThesaurus,
  readThesaurus,
  restrictToIndex,
  THESAURUS_VERSION,
  ThesaurusError,
  type ThesaurusSense,
} from '../../src/sandbox/text/thesaurus.js';
import { HAS_SPECIAL_FILES, linkToDevZero, makeFifo } from '../helpers/special-files.js';
import { tempDirsPerTest } from './fixtures.js';

const REAL_THESAURUS = fileURLToPath(new URL('../../../shared/corpus/bg-thesaurus.dat.gz', import.meta.url));

/** A temporary directory, removed after the test. */
const dir = tempDirsPerTest();

/** Synthetic thesaurus text (invented words): the lines joined with `\n`, after the encoding line. */
function thesaurus(...lines: string[]): string {
  return ['UTF-8', ...lines].join('\n') + '\n';
}

/** SYNTHETIC TEST DATA: invented headwords and synonyms. */
const SYNTHETIC = thesaurus(
  'бримбал|2',
  '(същ.)|фрошка|кламбур|дълга фрошка на брега',
  '(прил.)|глорбав',
  'зъбълвам|1',
  '(гл.)|зъбълвам се|тракалям|шмуцел',
);

/** The synonyms of a sense as terms. */
function terms(sense: ThesaurusSense | undefined): string[] {
  return sense?.synonyms.map((s) => s.term) ?? [];
}

/** The message of the error `fn` throws (fails the test if it does not throw a ThesaurusError). */
function errorOf(fn: () => unknown): ThesaurusError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ThesaurusError);
    return err as ThesaurusError;
  }
  throw new Error('expected a ThesaurusError');
}

describe('parseThesaurus', () => {
  it('reads senses with their part of speech without parentheses, and phrases as their stems', () => {
    const senses = parseThesaurus(SYNTHETIC);
    expect([...senses.keys()]).toEqual([stem('бримбал'), stem('зъбълвам')]);
    const brimbal = senses.get(stem('бримбал'));
    expect(brimbal?.map((s) => s.pos)).toEqual(['същ.', 'прил.']);
    expect(brimbal?.[0]?.synonyms).toEqual([
      { term: 'фрошка', stems: [stem('фрошка')] },
      { term: 'кламбур', stems: [stem('кламбур')] },
      // „на“ is a stopword: three stems remain.
      { term: 'дълга фрошка на брега', stems: analyze('дълга фрошка брега') },
    ]);
    // The reflexive particle „се“ is a stopword: the phrase has one stem, that of the verb.
    expect(senses.get(stem('зъбълвам'))?.[0]?.synonyms[0]).toEqual({ term: 'зъбълвам се', stems: [stem('зъбълвам')] });
    expect(THESAURUS_VERSION).toBeGreaterThanOrEqual(1);
  });

  it('drops synonyms of more than 3 stems, of stopwords only, and repeats, then senses left empty', () => {
    expect(MAX_SYNONYM_STEMS).toBe(3);
    const senses = parseThesaurus(
      thesaurus(
        'кламбур|3',
        '(същ.)|дълга зелена мокра фрошка|фрошка|фрошки|и',
        '(същ.)|и|на',
        '(нар.)| глорбаво |',
      ),
    );
    const kept = senses.get(stem('кламбур'));
    // „фрошки“ has the stem of „фрошка“: a repeat; „и“ and „на“ are stopwords; the 4-stem phrase is too long.
    expect(kept?.map(terms)).toEqual([['фрошка'], ['глорбаво']]);
    expect(kept?.map((s) => s.pos)).toEqual(['същ.', 'нар.']);
  });

  it('keys headwords by stem, merges those with one stem and drops repeated senses, skips phrases and stopwords', () => {
    const senses = parseThesaurus(
      thesaurus(
        'Бримбалът|1',
        '(същ.)|фрошка|кламбур',
        'бримбал|2',
        '(същ.)|кламбур|фрошки', // the same stems as the sense above, in another order: a repeat
        '(същ.)|шмуцел',
        'бримбал се|1', // a reflexive headword: the stem of its verb
        '(гл.)|тракалям',
        'зелен бримбал|1', // a phrase: skipped
        '(същ.)|пурдел',
        'бримбал-фрошка|1', // hyphenated: two words, skipped
        '(същ.)|пурдел',
        'ама|1', // a one-word conjunction that is not a stopword: kept
        '(съюз)|мърхуля',
        'и|1', // a stopword: skipped
        '(съюз)|пурдел',
      ),
    );
    expect([...senses.keys()]).toEqual([stem('бримбал'), stem('ама')]);
    expect(senses.get(stem('бримбал'))?.map(terms)).toEqual([['фрошка', 'кламбур'], ['шмуцел'], ['тракалям']]);
    expect([...senses.values()].flat().flatMap(terms)).not.toContain('пурдел');
  });

  it('accepts CRLF line ends, a byte order mark, a lowercase encoding and blank lines at the end', () => {
    const text = '\uFEFFutf-8\r\nбримбал|1\r\n(същ.)|фрошка|кламбур\r\n\r\n\r\n';
    const senses = parseThesaurus(text);
    expect(senses.get(stem('бримбал'))).toEqual([
      { pos: 'същ.', synonyms: [{ term: 'фрошка', stems: [stem('фрошка')] }, { term: 'кламбур', stems: [stem('кламбур')] }] },
    ]);
  });

  it('rejects an encoding other than UTF-8, naming line 1', () => {
    const err = errorOf(() => parseThesaurus('KOI8-R\nбримбал|1\n(същ.)|фрошка\n', 'synthetic.dat'));
    expect(err.line).toBe(1);
    expect(err.message).toBe('thesaurus synthetic.dat, line 1: the first line names the encoding "KOI8-R"; only UTF-8 thesauri are supported');
    expect(errorOf(() => parseThesaurus('')).message).toMatch(/line 1: the first line is empty/);
  });

  it('rejects a count that does not match the sense lines, naming the line', () => {
    // Too small: the second sense line comes where the next headword was expected.
    const tooSmall = errorOf(() => parseThesaurus(thesaurus('бримбал|1', '(същ.)|фрошка', '(същ.)|кламбур', 'кламбур|1', '(същ.)|шмуцел')));
    expect(tooSmall.line).toBe(4);
    expect(tooSmall.message).toMatch(/line 4: a sense line where a headword line `word\|N` was expected: headword "бримбал" \(line 2\) announces 1 sense/);
    // Too large: the next headword comes where a sense line was expected.
    const tooLarge = errorOf(() => parseThesaurus(thesaurus('бримбал|3', '(същ.)|фрошка', '(същ.)|кламбур', 'кламбур|1', '(същ.)|шмуцел')));
    expect(tooLarge.line).toBe(5);
    expect(tooLarge.message).toMatch(/line 5: expected sense 3 of 3 of headword "бримбал" \(line 2\).*the count 3 does not match/);
    // Too large at the end of the file.
    const atEnd = errorOf(() => parseThesaurus(thesaurus('бримбал|2', '(същ.)|фрошка')));
    expect(atEnd.message).toMatch(/line 4: headword "бримбал" \(line 2\) announces 2 sense\(s\) but the file ends after 1/);
  });

  it('rejects a line without "|" and a headword line without a count, naming the line', () => {
    expect(errorOf(() => parseThesaurus(thesaurus('бримбал|1', '(същ.)|фрошка', 'кламбур'))).message).toMatch(/line 4: a line without "\|"/);
    expect(errorOf(() => parseThesaurus(thesaurus('бримбал|2', '(същ.)|фрошка', '', '(същ.)|кламбур'))).line).toBe(4);
    expect(errorOf(() => parseThesaurus(thesaurus('бримбал|много', '(същ.)|фрошка'))).message).toMatch(/line 2: expected a headword line `word\|N`/);
    expect(errorOf(() => parseThesaurus(thesaurus('(същ.)|фрошка'))).line).toBe(2);
  });
});

describe('restrictToIndex', () => {
  it('keeps the synonyms whose stems are all held, minus the headword itself, and drops what is left empty', () => {
    const senses = parseThesaurus(
      thesaurus(
        'бримбал|3',
        '(същ.)|фрошка|бримбала|кламбур|дълга фрошка на брега',
        '(същ.)|пурдел',
        '(прил.)|глорбав|кламбурът',
        'шмуцел|1',
        '(същ.)|мърхуля',
      ),
    );
    const before = JSON.stringify([...senses]);
    const index = new Set([stem('фрошка'), stem('кламбур'), stem('бримбал'), stem('дълга'), stem('брега')]);
    const asked: string[] = [];
    const restricted = restrictToIndex(senses, (s) => {
      asked.push(s);
      return index.has(s);
    });
    // „бримбала“ is the headword itself; „пурдел“, „глорбав“ and „мърхуля“ are not in the index, so the second sense
    // and the headword „шмуцел“ are left empty; the (прил.) sense keeps „кламбурът“ (a different set from the first's).
    expect([...restricted.keys()]).toEqual([stem('бримбал')]);
    expect(restricted.get(stem('бримбал'))?.map(terms)).toEqual([['фрошка', 'кламбур', 'дълга фрошка на брега'], ['кламбурът']]);
    // A phrase is kept only when every one of its stems is held.
    const withoutBrega = restrictToIndex(senses, (s) => index.has(s) && s !== stem('брега'));
    expect(withoutBrega.get(stem('бримбал'))?.[0]?.synonyms.map((s) => s.term)).toEqual(['фрошка', 'кламбур']);
    // held is asked once per distinct stem; the input is not modified.
    expect(new Set(asked).size).toBe(asked.length);
    expect(JSON.stringify([...senses])).toBe(before);
  });

  it('drops a sense that becomes the same as an earlier one of its headword', () => {
    const senses = parseThesaurus(thesaurus('бримбал|2', '(същ.)|фрошка|пурдел', '(същ.)|фрошка|мърхуля'));
    expect(senses.get(stem('бримбал'))).toHaveLength(2);
    const restricted = restrictToIndex(senses, (s) => s === stem('фрошка'));
    expect(restricted.get(stem('бримбал'))?.map(terms)).toEqual([['фрошка']]);
  });
});

describe('readThesaurus', () => {
  it('reads a gzip file by its name and by its content, and a plain file', () => {
    const gz = join(dir(), 'synthetic.dat.gz');
    writeFileSync(gz, gzipSync(SYNTHETIC));
    const gzNoSuffix = join(dir(), 'synthetic-gzip.dat');
    writeFileSync(gzNoSuffix, gzipSync(SYNTHETIC));
    const plain = join(dir(), 'synthetic.dat');
    writeFileSync(plain, SYNTHETIC);
    const expected = parseThesaurus(SYNTHETIC);
    expect(readThesaurus(gz)).toEqual(expected);
    expect(readThesaurus(gzNoSuffix)).toEqual(expected);
    expect(readThesaurus(plain)).toEqual(expected);
  });

  it('names the path in its errors: missing file, not gzip, another encoding, invalid UTF-8, malformed line', () => {
    const base = dir();
    expect(errorOf(() => readThesaurus(join(base, 'missing.dat'))).message).toMatch(/^thesaurus .*missing\.dat: cannot read the file/);
    const notGzip = join(base, 'not-gzip.dat.gz');
    writeFileSync(notGzip, SYNTHETIC);
    expect(errorOf(() => readThesaurus(notGzip)).message).toMatch(/not-gzip\.dat\.gz: not a valid gzip file/);
    const cyrillic = join(base, 'iso.dat');
    // ISO-8859-5 bytes of an invented word, after an encoding line naming it.
    writeFileSync(cyrillic, Buffer.concat([Buffer.from('ISO8859-5\n'), Buffer.from([0xb1, 0xe0, 0xd8, 0x7c, 0x31, 0x0a])]));
    const encoding = errorOf(() => readThesaurus(cyrillic));
    expect(encoding.message).toBe(`thesaurus ${cyrillic}, line 1: the first line names the encoding "ISO8859-5"; only UTF-8 thesauri are supported`);
    const invalid = join(base, 'invalid.dat');
    writeFileSync(invalid, Buffer.concat([Buffer.from('UTF-8\n'), Buffer.from([0xb1, 0xe0, 0xd8, 0x7c, 0x31, 0x0a])]));
    expect(errorOf(() => readThesaurus(invalid)).message).toMatch(/invalid\.dat: the first line says UTF-8 but the content is not valid UTF-8/);
    const malformed = join(base, 'malformed.dat.gz');
    writeFileSync(malformed, gzipSync(thesaurus('бримбал|2', '(същ.)|фрошка')));
    const err = errorOf(() => readThesaurus(malformed));
    expect(err.file).toBe(malformed);
    expect(err.line).toBe(4);
  });

  it.skipIf(!HAS_SPECIAL_FILES)('refuses a FIFO and a link to /dev/zero at once, naming them, without reading them', () => {
    const base = dir();
    // A blocking read of the FIFO would stop the whole process here (the thesaurus is read synchronously).
    const fifo = makeFifo(join(base, 'pipe-thesaurus.dat'));
    expect(errorOf(() => readThesaurus(fifo)).message).toBe(`thesaurus ${fifo}: is a FIFO (named pipe), not a regular file; only regular files are read`);
    const zero = linkToDevZero(join(base, 'zero-thesaurus.dat.gz'));
    expect(errorOf(() => readThesaurus(zero)).message).toBe(`thesaurus ${zero}: is a character device, not a regular file; only regular files are read`);
  });

  it('refuses a file that decompresses to more than 64 MiB (a gzip bomb), naming the cap', () => {
    const bomb = join(dir(), 'bomb-thesaurus.dat.gz');
    writeFileSync(bomb, gzipSync(Buffer.concat([Buffer.from('UTF-8\n'), Buffer.alloc(64 * 1024 * 1024, 0x0a)]), { level: constants.Z_BEST_SPEED }));
    expect(errorOf(() => readThesaurus(bomb)).message).toBe(`thesaurus ${bomb}: decompresses to more than 64 MiB, the limit for this kind of file`);
  });

  it.skipIf(!existsSync(REAL_THESAURUS))('reads the LibreOffice thesaurus: „фалит“ has a sense with „несъстоятелност“', () => {
    const senses = readThesaurus(REAL_THESAURUS);
    expect(senses.size).toBeGreaterThan(15_000);
    // An everyday word with the term the statutes use, as a user searching for „фалит“ would hope.
    const falit = senses.get(stem('фалит')) ?? [];
    expect(falit.some((sense) => sense.synonyms.some((s) => s.stems.includes(stem('несъстоятелност'))))).toBe(true);
    // Inflected forms find the same entry.
    expect(senses.get(stem('фалитите'))).toBe(senses.get(stem('фалит')));
    // Restricted to an index holding that term only, the sense survives with it alone.
    const restricted = restrictToIndex(senses, (s) => s === stem('несъстоятелност'));
    expect(restricted.get(stem('фалит'))?.flatMap(terms)).toEqual(['несъстоятелност']);
  });
});
