/**
 * One act, one document (`src/sandbox/corpus/collect.ts`): which documents of the inputs are the same act, which text
 * is served, and under which `document_id`. Synthetic documents only (titles say they are test data).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chooseText, collectCorpus, mergeActs, sameAct, sameTitle, titleKey, type SourceDocument } from '../../../src/sandbox/corpus/collect.js';
import type { CorpusDocument } from '../../../src/sandbox/corpus/reader.js';
import { HAS_SPECIAL_FILES, linkToDevZero, makeFifo } from '../../helpers/special-files.js';
import { LAWS, tempDirsPerTest, writeCorpus } from '../fixtures.js';

/** A temporary directory, removed after the test. */
const dir = tempDirsPerTest();

const TITLE = 'Закон за тестовите данни (тестови данни)';

function doc(id: string, fields: Partial<CorpusDocument> = {}): CorpusDocument {
  return {
    document_id: id,
    source_type: 'bulgarian_laws_regulations',
    type: 'Закон',
    title: TITLE,
    date: '2015-12-01',
    elements: [{ ref: '1', label: 'Чл. 1.', text: 'Чл. 1. Тестов текст.' }],
    ...fields,
  };
}

function source(origin: SourceDocument['origin'], document: CorpusDocument, workUri?: string): SourceDocument {
  return { origin, document, file: `${origin}.input`, workUri };
}

describe('titleKey', () => {
  it('compares titles without case, quotation marks, soft hyphens or repeated spaces', () => {
    expect(titleKey('Закон  за Държавна агенция „Разузнаване“')).toBe(titleKey('ЗАКОН ЗА ДЪРЖАВНА АГЕНЦИЯ "РАЗУЗНАВАНЕ"'));
    expect(titleKey('Кодекс за безопасен превоз на паке\u00adти')).toBe('кодекс за безопасен превоз на пакети');
  });
});

describe('sameAct', () => {
  it('takes the National Assembly text and the State Gazette text of one act, days apart, as one act', () => {
    const assembly = source('statutes', doc('act-1', { as_of: '2015-12-20' }));
    const gazette = source('akn', doc('akn-2015-dv-102-15-1', { date: '2015-12-29', as_of: '2015-12-29' }), '/akn/bg/act/2015/dv-102-15-1');
    expect(sameAct(assembly, gazette)).toBe(true);
  });

  it('keeps apart two acts of one title years apart (an act replaced by a new one of the same name)', () => {
    const old = source('akn', doc('akn-2004-dv-28-04-1', { date: '2004-04-06' }), '/akn/bg/act/2004/dv-28-04-1');
    const replacement = source('statutes', doc('act-2', { as_of: '2016-02-10' }));
    expect(sameAct(old, replacement)).toBe(false);
  });

  it('keeps apart two amending acts of one law in one year, months apart', () => {
    const spring = source('statutes', doc('act-3', { as_of: '2010-03-10' }));
    const autumn = source('akn', doc('akn-2010-dv-90-10-1', { date: '2010-11-16' }), '/akn/bg/act/2010/dv-90-10-1');
    expect(sameAct(spring, autumn)).toBe(false);
  });

  it('takes two Akoma Ntoso works of one title and year as one act (the source files one code twice)', () => {
    const original = source('akn', doc('akn-2005-dv-86-05-1', { date: '2005-10-28' }), '/akn/bg/act/2005/dv-86-05-1');
    const consolidated = source('akn', doc('akn-2005-npk', { date: '2006-04-29', consolidated: true, as_of: '2026-04-01' }), '/akn/bg/act/2005/npk');
    expect(sameAct(original, consolidated)).toBe(true);
  });

  it('never merges court decisions or documents of different titles', () => {
    expect(sameAct(source('statutes', doc('act-4')), source('akn', doc('akn-x', { title: 'Друг закон (тестови данни)' }), '/akn/bg/act/2015/x'))).toBe(false);
    const decision = doc('vks-1', { court_id: 1, source_type: 'high_courts_cases' });
    expect(sameAct(source('jsonl', decision), source('jsonl', { ...decision, document_id: 'vks-2' }))).toBe(false);
  });
});

describe('chooseText', () => {
  it('serves the consolidated text current as of the latest date', () => {
    const group = [
      source('statutes', doc('act-5', { as_of: '2009-06-15', consolidated: false })),
      source('jsonl', doc('ldoc-5', { as_of: '2025-12-30', consolidated: true })),
      source('akn', doc('akn-5', { as_of: '2021-04-27', consolidated: true }), '/akn/bg/act/2009/x'),
    ];
    expect(chooseText(group)).toBe(1);
  });

  it('of texts as published (the same text), serves the National Assembly text, the official payload first', () => {
    const akn = source('akn', doc('akn-6', { as_of: '2015-12-29', consolidated: false }), '/akn/bg/act/2015/y');
    const statutes = source('statutes', doc('act-6', { as_of: '2015-12-20', consolidated: false }));
    const payload = source('payload', doc('act-6', { as_of: '2015-12-20', consolidated: false }));
    expect(chooseText([akn, statutes])).toBe(1);
    expect(chooseText([akn, statutes, payload])).toBe(2);
  });
});

describe('mergeActs', () => {
  it('serves one document per act under the id served before, the others resolving to it', () => {
    const { documents, aliases } = mergeActs([
      source('statutes', doc('act-7', { as_of: '2009-06-15', consolidated: false, url: 'https://example.invalid/act-7' })),
      source('jsonl', doc('ldoc-7', { date: '2009-06-23', as_of: '2025-12-30', consolidated: true, elements: [] })),
      source('statutes', doc('act-8', { title: 'Друг закон (тестови данни)' })),
    ]);
    expect(documents.map((d) => d.document_id)).toEqual(['act-7', 'act-8']);
    const served = documents[0]!;
    expect(served.as_of).toBe('2025-12-30');
    expect(served.consolidated).toBe(true);
    expect(served.url).toBe('https://example.invalid/act-7');
    expect([...aliases]).toEqual([['ldoc-7', 'act-7']]);
  });

  it('leaves documents of one title but different acts apart, in input order', () => {
    const { documents, aliases } = mergeActs([
      source('akn', doc('akn-2004-a', { date: '2004-04-06' }), '/akn/bg/act/2004/a'),
      source('statutes', doc('act-9', { as_of: '2016-02-10' })),
    ]);
    expect(documents.map((d) => d.document_id)).toEqual(['akn-2004-a', 'act-9']);
    expect(aliases.size).toBe(0);
  });
});

describe('titles cut short by their source', () => {
  const WHOLE = 'Закон за защита на лицата, подаващи сигнали за тестови данни (тестови данни)';
  const CUT = 'Закон за защита на лицата, подаващи сигнали…';

  it('takes a cut title as the act whose whole title it starts, and serves the whole title', () => {
    expect(sameTitle(CUT, WHOLE)).toBe(true);
    expect(sameTitle(WHOLE, CUT)).toBe(true);
    expect(sameTitle('Закон за…', WHOLE)).toBe(false); // too little is left to tell acts apart
    const assembly = source('statutes', doc('act-5', { title: WHOLE, as_of: '2023-02-02' }));
    const gazette = source('akn', doc('akn-2023-dv-11-23-8', { title: CUT, date: '2023-02-02', as_of: '2023-02-02' }), '/akn/bg/act/2023/dv-11-23-8');
    const { documents, aliases } = mergeActs([assembly, gazette]);
    expect(documents.map((d) => [d.document_id, d.title])).toEqual([['act-5', WHOLE]]);
    expect(aliases.get('akn-2023-dv-11-23-8')).toBe('act-5');
  });

  it('takes an Akoma Ntoso title that stops at a word of the whole title as that act, under its whole title', () => {
    const whole = 'Закон за резерва на тестовите сили на Република България (тестови данни)';
    const short = 'Закон за резерва на тестовите сили на Република';
    expect(sameTitle(short, whole)).toBe(false);
    expect(sameTitle(short, whole, true)).toBe(true);
    expect(sameTitle('Закон за резерва на тестовите сили на Репу', whole, true)).toBe(false); // not at a word's end
    const assembly = source('statutes', doc('act-7', { title: whole, as_of: '2012-03-01' }));
    const gazette = source('akn', doc('akn-2012-dv-20-12-6', { title: short, date: '2012-03-09' }), '/akn/bg/act/2012/dv-20-12-6');
    expect(mergeActs([gazette, assembly]).documents.map((d) => [d.document_id, d.title])).toEqual([['act-7', whole]]);
    // Two texts of the National Assembly never match by a prefix: only Akoma Ntoso cuts titles.
    const other = source('statutes', doc('act-8', { title: short, as_of: '2012-03-01' }));
    expect(mergeActs([other, assembly]).documents).toHaveLength(2);
  });

  it('keeps a cut title of another date apart', () => {
    const assembly = source('statutes', doc('act-6', { title: WHOLE, as_of: '2023-02-02' }));
    const older = source('akn', doc('akn-2012-dv-1-12-1', { title: CUT, date: '2012-01-03' }), '/akn/bg/act/2012/dv-1-12-1');
    expect(mergeActs([assembly, older]).documents.map((d) => d.document_id)).toEqual(['act-6', 'akn-2012-dv-1-12-1']);
  });
});

describe('the id of an act known only from Akoma Ntoso works', () => {
  it('is the id of the text served, in whichever order the works were read', () => {
    const original = source('akn', doc('akn-2005-dv-86-05-1', { date: '2005-10-28' }), '/akn/bg/act/2005/dv-86-05-1');
    const consolidated = source('akn', doc('akn-2005-npk', { date: '2006-04-29', consolidated: true, as_of: '2026-04-01' }), '/akn/bg/act/2005/npk');
    for (const order of [[original, consolidated], [consolidated, original]]) {
      const { documents, aliases } = mergeActs(order);
      expect(documents.map((d) => [d.document_id, d.as_of])).toEqual([['akn-2005-npk', '2026-04-01']]);
      expect(aliases.get('akn-2005-dv-86-05-1')).toBe('akn-2005-npk');
    }
  });
});

describe('collectCorpus: inputs that are not regular files', () => {
  it.skipIf(!HAS_SPECIAL_FILES)('skips a payload or an Akoma Ntoso act that is a FIFO or /dev/zero at once, naming it, and reads the rest', async () => {
    const d = dir();
    const laws = writeCorpus(join(d, 'laws.jsonl'), LAWS);
    const fifo = makeFifo(join(d, '7.json'));
    const zero = linkToDevZero(join(d, '8.json'));
    const act = makeFifo(join(d, 'act.xml'));
    const collected = await collectCorpus([laws, fifo, zero, act]);
    expect(collected.documents.map((x) => x.document_id)).toEqual(LAWS.map((x) => x.document_id));
    expect(collected.skipped).toEqual([
      { path: fifo, message: `act payload ${fifo}: is a FIFO (named pipe), not a regular file; only regular files are read` },
      { path: zero, message: `act payload ${zero}: is a character device, not a regular file; only regular files are read` },
      { path: act, message: `Akoma Ntoso file ${act}: is a FIFO (named pipe), not a regular file; only regular files are read` },
    ]);
  });
});
