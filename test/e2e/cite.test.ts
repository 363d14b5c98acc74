/**
 * `pravo cite` end to end: the built CLI with an in-process sandbox over `../shared/corpus` (the real statutes), on a
 * memo written for the tests (its title says so; it quotes no legal text, it only cites). What issue 25 promises: the
 * four citations it names get found, no_such_provision, act_not_found and found, each document retrieved once, and a
 * second check costs nothing; and the ЗЗД as lawyers cite it (an ал. its text does not number, a „вр.“ chain, a title
 * followed by the sentence's subject).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { linkedDataDir, pravo, tempDir, unitsCounted } from './helpers.js';
import { CORPUS } from './paths.js';

const shared = inject('sandbox');
const home = tempDir('cite');
afterAll(() => home.cleanup());

const MEMO = [
  '# Тестова бележка (написана за тестовете на pravo)',
  '',
  'Съгласно чл. 72 от ЗОП възложителят изисква обосновка, а чл. 999 от Закона за обществените поръчки не съществува.',
  'По чл. 25 от Закона за нотариусите и нотариалната дейност нотариусът удостоверява.',
  'Забраната в чл. 3 от Закона за ограничаване на плащанията в брой важи; чл. 2 от същия закон също.',
  'Виж и чл. 45 ЗЗД, чл. 344, ал. 1, т. 3 от КТ и чл. 9 от Кодекса на труда.',
  'Нищожността е по чл. 26, ал. 1, пр. 1 вр. чл. 45 ЗЗД; по чл. 49 от Закона за задълженията и договорите вредите се поправят.',
  '',
].join('\n');

describe('pravo cite --sandbox over the real corpus', () => {
  it('gives each citation its verdict, retrieving each document once; the second check spends nothing', async () => {
    const file = path.join(home.dir, 'memo.md');
    fs.writeFileSync(file, MEMO);
    const dataDir = linkedDataDir(home.dir, shared.dataDir);
    const env = { PRAVO_CONFIG_DIR: path.join(home.dir, 'config'), PRAVO_SANDBOX_CORPUS: CORPUS, PRAVO_SANDBOX_DATA_DIR: dataDir };
    const result = await pravo(['cite', '--sandbox', '--json', '--yes', file], { env });
    expect(result.exitCode, result.stderr).toBe(8);
    const report = JSON.parse(result.stdout);
    const verdicts = report.citations.map((c: { text: string; line: number; verdict: string; document_id: string | null; ref: string | null }) => [
      c.line,
      c.text,
      c.verdict,
      c.document_id,
      c.ref,
    ]);
    expect(verdicts).toEqual([
      [3, 'чл. 72', 'found', 'act-15520', '72'],
      [3, 'чл. 999', 'no_such_provision', 'act-15520', '999'],
      [4, 'чл. 25', 'act_not_found', null, null],
      [5, 'чл. 3', 'found', 'act-10068', '3'],
      [5, 'чл. 2', 'found', 'act-10068', '2'],
      [6, 'чл. 45', 'found', 'akn-1950-zzd', '45'],
      [6, 'чл. 344, ал. 1, т. 3', 'found', 'akn-1986-dv-26-86-1', '344'],
      [6, 'чл. 9', 'repealed', 'akn-1986-dv-26-86-1', '9'],
      // The ЗЗД's text numbers no paragraphs: ал. 1 is not checked, and not called missing. „вр.“ gives чл. 26 the act
      // after чл. 45; the title ends before the sentence's subject („вредите“).
      [7, 'чл. 26, ал. 1, пр. 1', 'found', 'akn-1950-zzd', '26'],
      [7, 'чл. 45', 'found', 'akn-1950-zzd', '45'],
      [7, 'чл. 49', 'found', 'akn-1950-zzd', '49'],
    ]);
    expect(report.citations[8].unchecked).toBe('ал. 1, пр. 1');
    expect(report.citations[9].unchecked).toBeNull();
    // The Закон за обществените поръчки of 2015, not its namesake of 2004; the notaries' act only through amendments.
    expect(report.citations[0].detail).toContain('akn-2004-dv-28-04-1');
    expect(report.citations[2].detail).toContain('only acts amending „Закон за нотариусите и нотариалната дейност“');
    // Each of the four documents retrieved once (ЗОП cited twice, the КТ twice), and counted once by the sandbox.
    expect(report).toMatchObject({ documents_retrieved: 4, documents_from_cache: 0, searches_sent: 5 });
    expect(unitsCounted(dataDir, 'retrieval')).toBe(4);
    expect(report.documents.find((d: { document_id: string }) => d.document_id === 'akn-1986-dv-26-86-1')).toMatchObject({ consolidated: true });

    const again = await pravo(['cite', '--sandbox', '--json', file], { env });
    expect(again.exitCode, again.stderr).toBe(8);
    expect(JSON.parse(again.stdout)).toMatchObject({ documents_retrieved: 0, documents_from_cache: 4, searches_sent: 0, searches_from_cache: 5 });
    expect(unitsCounted(dataDir, 'retrieval')).toBe(4);
  });

  it('reads a title wrapped or hyphenated at a line end as on one line, pointing at where each citation starts', async () => {
    const file = path.join(home.dir, 'wrapped.md');
    fs.writeFileSync(
      file,
      [
        '# Тестова бележка, пренесена на 80 колони (написана за тестовете на pravo)',
        '',
        'Възложителят твърди, че съгласно чл. 999 от Закона за обществените',
        'поръчки има право на това, а по чл. 998 от Закона за обществе-',
        'ните поръчки – също.',
        '',
      ].join('\n'),
    );
    const dataDir = linkedDataDir(home.dir, shared.dataDir);
    const env = { PRAVO_CONFIG_DIR: path.join(home.dir, 'config-wrapped'), PRAVO_SANDBOX_CORPUS: CORPUS, PRAVO_SANDBOX_DATA_DIR: dataDir };
    const result = await pravo(['cite', '--sandbox', '--json', '--yes', file], { env });
    const report = JSON.parse(result.stdout);
    expect(report.citations.map((c: { line: number; column: number; text: string; verdict: string; document_id: string | null }) => [c.line, c.column, c.text, c.verdict, c.document_id])).toEqual([
      [3, 34, 'чл. 999', 'no_such_provision', 'act-15520'],
      [4, 33, 'чл. 998', 'no_such_provision', 'act-15520'],
    ]);
  });
});
