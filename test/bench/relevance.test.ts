/**
 * The relevance evaluator of bench/relevance.js: what counts as a hit, how the figures are grouped, and how a broken
 * judged set is reported. Runs on fake search responses and a synthetic corpus (test data), never on the real corpus.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  checkWording,
  evaluate,
  formatRelevance,
  loadJudgedSet,
  type JudgedQuestion,
  type ScoredResponse,
} from '../../bench/relevance.js';
import { writeSyntheticCorpus } from '../helpers/synthetic-corpus.js';

/** A response whose results are given as [document_id, ...excerpt ids], best first. */
function response(...results: string[][]): ScoredResponse {
  return { results: results.map(([document_id, ...ids]) => ({ document_id: document_id!, excerpts: ids.map((excerpt_id) => ({ excerpt_id })) })) };
}

function question(id: string, answers: JudgedQuestion['answers'], kind: JudgedQuestion['kind'] = 'lawyer'): JudgedQuestion {
  return { id, kind, query: `въпрос ${id}`, answers };
}

/** A search that answers each question's query with the response given for it. */
function fakeSearch(responses: Record<string, ScoredResponse>) {
  return (query: string) => responses[query] ?? { results: [] };
}

describe('evaluate', () => {
  it('counts an article hit at rank 2 for success at 3 but not at 1, with reciprocal rank 1/2', async () => {
    const q = question('q1', [{ document_id: 'act-1', refs: ['5'] }]);
    const result = await evaluate(fakeSearch({ [q.query]: response(['act-9', 'act-9:5'], ['act-1', 'act-1:4', 'act-1:5']) }), [q]);
    expect(result.perQuestion).toEqual([{ id: 'q1', kind: 'lawyer', part: 'held_out', articleRank: 2, actRank: 2 }]);
    expect(result.overall).toMatchObject({ n: 1, article_s1: 0, article_s3: 1, article_mrr: 0.5, act_s1: 0, act_s3: 1 });
  });

  it('matches an excerpt id that carries a repeat marker ~2', async () => {
    const q = question('q1', [{ document_id: 'act-1', refs: ['29'] }]);
    const result = await evaluate(fakeSearch({ [q.query]: response(['act-1', 'act-1:29~2']) }), [q]);
    expect(result.perQuestion[0]).toMatchObject({ articleRank: 1, actRank: 1 });
  });

  it('does not count the right ref in the wrong act, nor the right act with another ref, as an article hit', async () => {
    const q = question('q1', [{ document_id: 'act-1', refs: ['5'] }]);
    const result = await evaluate(fakeSearch({ [q.query]: response(['act-2', 'act-2:5'], ['act-1', 'act-1:6']) }), [q]);
    expect(result.perQuestion[0]).toMatchObject({ articleRank: Infinity, actRank: 2 });
    expect(result.overall).toMatchObject({ article_s3: 0, article_mrr: 0, act_s1: 0, act_s3: 1 });
  });

  it('accepts any listed document with any of its own refs', async () => {
    const q = question('q1', [
      { document_id: 'act-new', refs: ['37'] },
      { document_id: 'act-old', refs: ['176', '177'] },
    ]);
    const result = await evaluate(fakeSearch({ [q.query]: response(['act-new', 'act-new:176'], ['act-old', 'act-old:177']) }), [q]);
    expect(result.perQuestion[0]).toMatchObject({ articleRank: 2, actRank: 1 });
  });

  it('asks for k results and scores only the first k, however many come back', async () => {
    const q = question('q1', [{ document_id: 'act-1', refs: ['5'] }]);
    const asked: number[] = [];
    const search = async (_query: string, maxResults: number) => {
      asked.push(maxResults);
      return response(['act-2', 'act-2:1'], ['act-3', 'act-3:1'], ['act-1', 'act-1:5']);
    };
    const result = await evaluate(search, [q], { k: 2 });
    expect(asked).toEqual([2]);
    expect(result.perQuestion[0]).toMatchObject({ articleRank: Infinity, actRank: Infinity });
    expect(result.overall.article_mrr).toBe(0);
  });

  it('groups by wording kind, and puts questions answered by court decisions in caselaw as well', async () => {
    const questions = [
      question('law', [{ document_id: 'act-1', refs: ['1'] }], 'citizen'),
      question('case', [{ document_id: 'vks-2020-1-100-2019', refs: ['4'] }], 'citizen'),
      question('words', [{ document_id: 'act-2', refs: ['3'] }], 'keywords'),
    ];
    const result = await evaluate(
      fakeSearch({
        [questions[0]!.query]: response(['act-1', 'act-1:1']),
        [questions[1]!.query]: response(['act-1', 'act-1:4'], ['vks-2020-1-100-2019', 'vks-2020-1-100-2019:4']),
        [questions[2]!.query]: response(),
      }),
      questions,
    );
    expect(result.overall).toMatchObject({ n: 3, article_s1: 1 / 3, article_s3: 2 / 3 });
    expect(result.byKind.citizen).toMatchObject({ n: 2, article_s1: 0.5, article_mrr: 0.75 });
    expect(result.byKind.keywords).toMatchObject({ n: 1, article_s3: 0, act_s3: 0 });
    expect(result.byKind.caselaw).toMatchObject({ n: 1, article_s1: 0, article_s3: 1, act_s1: 0 });
    expect(result.byKind.lawyer).toEqual({ n: 0, article_s1: null, article_s3: null, article_mrr: null, act_s1: null, act_s3: null });
  });
});

describe('tuning and held-out parts', () => {
  it('reports the tuning files apart from the held-out ones, and counts absent acts noted per part', async () => {
    const tuned = { ...question('t1', [{ document_id: 'act-1', refs: ['5'] }]), file: 'set-a.json' };
    const held = { ...question('h1', [{ document_id: 'act-1', refs: ['5'] }]), file: 'set-g.json' };
    const absent: JudgedQuestion = { id: 'h2', kind: 'citizen', query: 'absent', answers: [], absent_act: 'Закон за движението по пътищата', file: 'set-g.json' };
    const missed: JudgedQuestion = { ...absent, id: 'h3', query: 'missed' };
    const result = await evaluate(
      fakeSearch({
        [tuned.query]: response(['act-1', 'act-1:5']),
        [held.query]: response(['act-1', 'act-1:6']),
        absent: { results: [{ document_id: 'act-9', absent_act: '„Закон за движението по пътищата“' }] },
        missed: { results: [{ document_id: 'act-8', absent_act: 'Търговски закон' }] },
      }),
      [tuned, held, absent, missed],
    );
    expect(result.overall.n).toBe(2);
    expect(result.parts.tuning.overall).toMatchObject({ n: 1, article_s1: 1 });
    expect(result.parts.held_out.overall).toMatchObject({ n: 1, article_s1: 0, act_s1: 1 });
    expect(result.parts.held_out.absent).toEqual({ n: 2, noted: 1 });
    expect(result.absent.filter((a) => !a.noted).map((a) => a.id)).toEqual(['h3']);
    const lines = formatRelevance(result);
    expect(lines.some((line) => line.startsWith('tuning part (set-a.json, set-f.json'))).toBe(true);
    expect(lines).toContain('absent acts noted: 1/2');
  });
});

describe('formatRelevance', () => {
  it('prints one row per group, and the baseline value before each current one', async () => {
    const q = question('q1', [{ document_id: 'act-1', refs: ['5'] }]);
    const now = await evaluate(fakeSearch({ [q.query]: response(['act-1', 'act-1:5']) }), [q]);
    const before = await evaluate(fakeSearch({ [q.query]: response(['act-2'], ['act-1', 'act-1:5']) }), [q]);
    const plain = formatRelevance(now);
    expect(plain[0]).toMatch(/n\s+art@1\s+art@3\s+MRR\s+act@1\s+act@3/);
    expect(plain.slice(1, 6).map((line) => line.split(/\s+/)[0])).toEqual(['overall', 'lawyer', 'citizen', 'keywords', 'caselaw']);
    expect(plain[1]).toMatch(/^overall\s+1\s+1\.00\s+1\.00\s+1\.00\s+1\.00\s+1\.00$/);
    expect(plain[5]).toMatch(/^caselaw\s+0\s+–/);
    const compared = formatRelevance(now, { ...JSON.parse(JSON.stringify(before)), commit: 'abcdef1234567890' });
    expect(compared[0]).toContain('abcdef123456');
    expect(compared.find((line) => line.startsWith('overall'))).toMatch(/0\.00 → 1\.00\s+1\.00 → 1\.00\s+0\.50 → 1\.00/);
  });
});

describe('loadJudgedSet', () => {
  let dir: string;
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  function writeSet(files: Record<string, unknown>): string {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pravo-judged-'));
    for (const [name, content] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), JSON.stringify(content));
    return dir;
  }
  const valid = (id: string) => ({ id, kind: 'keywords', query: 'неустойка забава', answers: [{ document_id: 'act-1', refs: ['3'] }] });

  it('loads every question file of the directory, and leaves the baseline out', () => {
    writeSet({ 'set-a.json': [valid('a01')], 'set-b.json': [valid('b01'), valid('b02')], 'baseline.json': { overall: {} } });
    expect(loadJudgedSet(dir).map((q) => [q.id, q.file])).toEqual([
      ['a01', 'set-a.json'],
      ['b01', 'set-b.json'],
      ['b02', 'set-b.json'],
    ]);
  });

  it('names both files when an id is used twice', () => {
    writeSet({ 'set-a.json': [valid('x1')], 'set-b.json': [valid('x1')] });
    expect(() => loadJudgedSet(dir)).toThrow(/set-b\.json: question x1: id already used in set-a\.json/);
  });

  it('names the file and id of a question with an unknown kind or without answers, listing every problem', () => {
    writeSet({ 'set-a.json': [{ ...valid('a1'), kind: 'lawyers' }, { ...valid('a2'), answers: [] }, { ...valid('a3'), answers: [{ document_id: 'act-1', refs: [] }] }] });
    let message = '';
    try {
      loadJudgedSet(dir);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('set-a.json: question a1: kind "lawyers" is not one of lawyer, citizen, keywords');
    expect(message).toContain('set-a.json: question a2: needs a non-empty answers array');
    expect(message).toContain('set-a.json: question a3: answer 1 needs a non-empty refs array');
  });

  it('names a question without an id by its position, and a file that is not an array', () => {
    writeSet({ 'set-a.json': [valid('a1'), { kind: 'citizen', query: 'q', answers: [{ document_id: 'act-1', refs: ['1'] }] }], 'set-b.json': { id: 'b1' } });
    expect(() => loadJudgedSet(dir)).toThrow(/set-a\.json: question #2 \(no id\): needs a non-empty string id[\s\S]*set-b\.json: must hold a JSON array/);
  });
});

describe('checkWording', () => {
  let dir: string;
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('reports a query that copies four words in a row from its answer, and a ref the corpus lacks', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pravo-wording-'));
    writeSyntheticCorpus(dir);
    const questions: JudgedQuestion[] = [
      // test-law-1, Чл. 2: "Страните по договора определят свободно неговото съдържание."
      { id: 'copied', kind: 'lawyer', query: 'Страните по договора определят ли цената?', answers: [{ document_id: 'test-law-1', refs: ['2'] }] },
      { id: 'own-words', kind: 'citizen', query: 'Свободни ли сме да решим какво пише в договора?', answers: [{ document_id: 'test-law-1', refs: ['2'] }] },
      { id: 'no-ref', kind: 'keywords', query: 'неустойка забава', answers: [{ document_id: 'test-law-1', refs: ['99'] }] },
      { id: 'no-doc', kind: 'keywords', query: 'неустойка забава', answers: [{ document_id: 'act-0', refs: ['1'] }] },
    ];
    const problems = await checkWording(questions, dir);
    expect(problems).toEqual([
      'question copied: query shares "страните по договора определят" with test-law-1:2',
      'question no-ref: test-law-1 has no element with ref "99"',
      'question no-doc: document act-0 is not in the corpus',
    ]);
  });
});
