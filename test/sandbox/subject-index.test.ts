/**
 * The written subject index (`data/subject-index/`) and the lay-to-legal translation model: the checker's rules on
 * synthetic entries (titles say ТЕСТОВИ ДАННИ), the shipped files against the real corpus (every entry names one
 * element, nothing copied), and the model learned from pairs.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SearchIndex } from '../../src/sandbox/storage.js';
import {
  checkSubjectIndex,
  readSubjectIndex,
  subjectIndexCoverage,
  subjectIndexDigest,
  subjectStems,
  type SubjectIndexFile,
} from '../../src/sandbox/subject-index/entries.js';
import { definitionsOf, learnTranslations, parseWordnet } from '../../src/sandbox/subject-index/translation.js';
import { tempDir } from '../e2e/helpers.js';
import { haveSharedCorpus, useRealIndex } from './real-index.js';

const TEXT = 'Работодателят може да прекрати трудовия договор писмено, без да отправи предизвестие, в изброените случаи.';
const lookup = (id: string, ref: string) =>
  id !== 'тестов-акт' ? undefined : ref === '1' ? [{ text: TEXT, heading: 'Уволнение (ТЕСТОВИ ДАННИ)' }] : ref === '2' ? [{ text: 'а', heading: '' }, { text: 'б', heading: '' }] : [];
const file = (entries: SubjectIndexFile['entries']): SubjectIndexFile => ({
  schema: 1,
  act: 'Тестов акт (ТЕСТОВИ ДАННИ)',
  document_id: 'тестов-акт',
  text_as_of: null,
  entries,
});

describe('the subject index checker', () => {
  it('accepts questions in a person’s words that name one existing article', () => {
    const problems = checkSubjectIndex(
      [file([{ ref: '1', questions: ['Може ли шефът да ме освободи веднага?', 'Кога губя работата си без срок?'], keywords: ['уволнение веднага'] }])],
      lookup,
    );
    expect(problems).toEqual([]);
  });

  it('names each broken rule with the file and the ref', () => {
    const problems = checkSubjectIndex(
      [
        file([
          { ref: '1', questions: ['Може ли да прекрати трудовия договор писмено?'], keywords: [] },
          { ref: '2', questions: ['Кой?', 'Кой'], keywords: ['а'] },
          { ref: '9', questions: ['Едно?', 'Друго?'], keywords: ['б'] },
          { ref: '1', questions: ['Трето?', 'Четвърто?'], keywords: ['в'] },
        ]),
      ],
      lookup,
    );
    expect(problems).toEqual([
      'тестов-акт: ref 1: 1 questions (2–5 expected)',
      'тестов-акт: ref 1: 0 keywords (1–6 expected)',
      'тестов-акт: ref 1: „Може ли да прекрати трудовия договор писмено?“ copies „да прекрати трудовия договор писмено“ from the article',
      'тестов-акт: ref 2: 2 elements of тестов-акт have this ref',
      'тестов-акт: ref 2: question „Кой“ repeats one of ref 2',
      'тестов-акт: ref 9: no element of тестов-акт has this ref',
      'тестов-акт: ref 1: a second entry for this ref',
    ]);
  });

  it('reads an act written in parts (act.json and batch files) as one file, and hashes the shipped files', () => {
    const t = tempDir('pravo-subject-');
    try {
      const dir = path.join(t.dir, 'act');
      mkdirSync(dir);
      writeFileSync(path.join(dir, 'act.json'), JSON.stringify({ schema: 1, act: 'Тестов акт (ТЕСТОВИ ДАННИ)', document_id: 'тестов-акт', text_as_of: null }));
      writeFileSync(path.join(dir, 'batch-01.json'), JSON.stringify([{ ref: '1', questions: ['а?', 'б?'], keywords: ['в'] }]));
      writeFileSync(path.join(dir, 'batch-02.json'), JSON.stringify([{ ref: '3', questions: ['г?', 'д?'], keywords: ['е'] }]));
      const [read] = readSubjectIndex(dir);
      expect(read!.entries.map((e) => e.ref)).toEqual(['1', '3']);
      expect(subjectIndexDigest(t.dir)).toBeUndefined(); // only a directory of parts: nothing shipped there
      writeFileSync(path.join(t.dir, 'x.json'), '{"schema": 2}');
      expect(() => readSubjectIndex(t.dir)).toThrow(/x\.json: schema is not 1; act is missing/u);
    } finally {
      t.cleanup();
    }
  });

  it('indexes the words of the matter asked about, not the words of asking', () => {
    expect(subjectStems('Какво мога да направя, ако шефа ме уволни?')).toEqual(['шеф', 'уволн']);
  });
});

describe('the translation model', () => {
  it('learns which word of the law a word of a question stands for, from pairs that agree', () => {
    const pairs = [
      { source: ['шеф', 'уволн'], target: ['работодател', 'прекрат', 'договор'], group: 1 },
      { source: ['шеф', 'заплат'], target: ['работодател', 'възнаграждени'], group: 2 },
      { source: ['заплат', 'забав'], target: ['възнаграждени', 'лихв'], group: 3 },
      { source: ['уволн'], target: ['прекрат', 'предизвести'], group: 4 },
    ];
    const table = learnTranslations(pairs);
    expect(table.get('шеф')?.[0]?.[0]).toBe('работодател');
    expect(table.get('заплат')?.[0]?.[0]).toBe('възнаграждени');
    expect(table.get('уволн')?.[0]?.[0]).toBe('прекрат');
    // A word met in one article only would "translate" into any of its words: it gets nothing.
    expect(table.get('забав')).toBeUndefined();
  });

  it('reads the terms a „§ 1“ defines and the synsets of a WordNet', () => {
    expect(definitionsOf('1. „Потребител“ е всяко физическо лице, което придобива стоки (ТЕСТОВИ ДАННИ).\n2. Друго.')).toEqual([
      ['Потребител', 'всяко физическо лице, което придобива стоки (ТЕСТОВИ ДАННИ).'],
    ]);
    const synsets = parseWordnet('# header\n1-n\tbul:lemma\tшеф\n1-n\tbul:lemma\tначалник\n1-n\tbul:def\t0\tЧовек, който ръководи.\n1-n\tbul:exe\t0\tпример\n');
    expect(synsets).toEqual([{ lemmas: ['шеф', 'началник'], definitions: ['Човек, който ръководи.'] }]);
  });
});

describe.skipIf(!haveSharedCorpus)('the shipped subject index over the real corpus', () => {
  const realIndex = useRealIndex('pravo-subject-real-');

  it('names only existing articles, copies no phrase of them and repeats no question, over the thirteen consolidated acts and more', () => {
    const files = readSubjectIndex();
    const index = realIndex();
    const collections = new Map(index.documentRows().map((d) => [d.document_id, d.collection]));
    const documents = new Map<string, ReturnType<SearchIndex['readDocument']>>();
    const problems = checkSubjectIndex(files, (id, ref) => {
      const collection = collections.get(id);
      if (collection === undefined) return undefined;
      if (!documents.has(id)) documents.set(id, index.readDocument(id, collection));
      return documents.get(id)?.elements?.filter((e) => e.ref === ref).map((e) => ({ text: e.text, heading: e.heading ?? '' }));
    });
    expect(problems).toEqual([]);
    const coverage = subjectIndexCoverage(files);
    expect(coverage.acts).toBeGreaterThanOrEqual(13);
    expect(coverage.questions).toBeGreaterThan(10_000);
    for (const act of ['Кодекс на труда', 'Наказателен кодекс', 'Конституция на Република България', 'Закон за наследството']) {
      expect(files.map((f) => f.act)).toContain(act);
    }
  });

  it('learned a translation table the explanation can name', () => {
    const [best] = realIndex().translations('шеф');
    expect(best?.[2]).toMatch(/^работодател/u);
  });
});
