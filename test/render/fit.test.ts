/**
 * Every table and text pravo prints for people on a terminal, at 80 and at 120 columns, over realistic data (test data,
 * said so in its titles): no line wider than the terminal, no word broken or cut, no heading cut (`fitProblems`); and
 * the column widths follow the content (`fitColumns`).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CourtsResponse, JudgesResponse, SearchResponse, SourceTypesResponse } from '../../src/contract/types.js';
import type { CiteReport } from '../../src/legal/cite.js';
import type { AnswerJobRecord } from '../../src/state/answer-jobs.js';
import type { BatchSummary } from '../../src/batch/summary.js';
import { readUsage } from '../../src/api/usage.js';
import { renderAccountText } from '../../src/render/account.js';
import { renderAnswerJobsTable } from '../../src/render/answer-jobs.js';
import { renderAnswerText } from '../../src/render/answer.js';
import { summaryText } from '../../src/render/batch.js';
import { renderCourtsTable, renderJudgesTable, renderSourceTypesTable } from '../../src/render/catalog.js';
import { renderCiteText } from '../../src/render/cite.js';
import { renderDocumentText } from '../../src/render/document.js';
import { renderKeysTable } from '../../src/render/keys.js';
import { renderSearchTable } from '../../src/render/search.js';
import { fitColumns } from '../../src/render/table.js';
import { renderUsageTable } from '../../src/render/usage.js';
import { fitProblems } from '../helpers/fit.js';
import { runPravo } from '../helpers/host.js';

const NOW = Date.parse('2026-11-27T12:00:00Z');
const WIDTHS = [80, 120] as const;
const ANSI = /\u001b\[[0-9;]*m/g;

const search: SearchResponse = {
  query: 'отмяна на присъдата',
  result_count: 2,
  results: [
    {
      document_id: 'test-vks-2015-145',
      collection: 'c_test',
      type: 'Решение',
      title: 'Решение № 145 от 11.05.2015 г. по н. д. № 210/2015 г., ВКС, II н. о. (тестови данни)',
      date: '2015-05-11',
      author: 'Върховен касационен съд',
      url: 'https://example.test/decisions/145',
      excerpts: [{ excerpt_id: 'p6', label: '¶ 6', score: 0.98, text: 'Тестов абзац за отмяна на присъдата.' }],
      score: 0.94,
      court: 'Върховен касационен съд',
      case_number: '210/2015',
      decision_number: '145',
      reporting_judge: 'Тестов Съдия',
      explanation: 'Съвпадение с „отмяна“ и „присъдата“ в ¶ 6 (тестово обяснение).',
    },
    {
      document_id: 'test-act-1',
      collection: 'c_test',
      type: 'Тълкувателно решение',
      title: 'Тестов закон за административното производство и обжалването на индивидуалните административни актове',
      date: '2006-04-12',
      author: 'Народно събрание',
      url: 'https://example.test/laws/1',
      excerpts: [],
      score: 0.5,
    },
  ],
};

const sourceTypes: SourceTypesResponse = {
  source_types: [
    { id: 'bulgarian_laws_regulations', name: 'Закони и подзаконови нормативни актове', case_law: false, document_count: 2421 },
    { id: 'high_courts_cases', name: 'Съдебна практика на върховните съдилища', case_law: true, document_count: 475 },
  ],
};

const courts: CourtsResponse = {
  courts: [
    { court_id: 0, name: 'Конституционен съд', court_type: 'Конституционен съд', ecli_code: 'CC000', decision_count: 149 },
    { court_id: 1, name: 'Върховен касационен съд', court_type: 'Върховен касационен съд', ecli_code: 'SC001', decision_count: 12 },
    { court_id: 2, name: 'Върховен административен съд', court_type: 'Върховен административен съд', ecli_code: 'SA002', decision_count: 314 },
    { court_id: 101, name: 'Апелативен специализиран наказателен съд', court_type: 'Апелативен специализиран наказателен съд', parent_court_id: 1, decision_count: 0 },
    { court_id: 141, name: 'Районен съд – Бяла Слатина', court_type: 'Районен съд', parent_court_id: 140, decision_count: 0 },
    { court_id: 140, name: 'Окръжен съд – Враца', court_type: 'Окръжен съд', parent_court_id: 100, decision_count: 0 },
    { court_id: 100, name: 'Софийски апелативен съд', court_type: 'Апелативен съд', parent_court_id: 1, decision_count: 0 },
  ],
};

const judges: JudgesResponse = {
  court: { court_id: 1, name: 'Върховен касационен съд' },
  judges: Array.from({ length: 20 }, (_, i) => ({ name: `Тестов Съдия-Дългофамилен ${i + 1}`, decision_count: 3, latest_date: '2024-02-15', court_ids: [1] })),
};

const keys = [
  { keyId: 'key_c487816c5701', name: 'sandbox 2026-11-27', prefix: 'sbx_live_wWsI', plan: 'sandbox', status: 'active', createdAt: '2026-11-27T09:45:57.449Z' },
  {
    keyId: 'key_fe5be2d61212',
    name: 'a rather long key name for the nightly batch job of the firm',
    prefix: 'sbx_live_NvGY',
    status: 'revoked',
    createdAt: '2026-11-20T09:00:00.000Z',
    revokedAt: '2026-11-26T08:00:00.000Z',
    lastUsedAt: '2026-11-26T07:00:00.000Z',
  },
  { keyId: 'key_2c7b6bab2419', name: 'ci-deploy (rotated 2026-11-27)', prefix: 'sbx_live_96Cj', status: 'active', createdAt: '2026-11-27T10:00:00.000Z', lastUsedAt: '2026-11-27T11:55:00.000Z' },
];

const account = {
  accountId: 'acct_sandbox',
  plan: 'sandbox',
  overage: { allowed: false },
  prices: { currency: 'EUR', perUnit: { search: 0.02, retrieval: 0.01, answers: 0.25 } },
  createdAt: '2026-11-27T11:26:40.523Z',
};

const jobs: AnswerJobRecord[] = [
  {
    job_id: 'ans_18a2bcfb9d4db5c3eb5b304b',
    query: 'Кога работодателят може да прекрати трудовия договор без предизвестие? (тестов въпрос)',
    request: { query: 'Кога работодателят може да прекрати трудовия договор без предизвестие? (тестов въпрос)' },
    profile: 'default',
    sandbox: false,
    base_url: 'https://api.example.test',
    created_at: '2026-11-27T11:00:00.000Z',
    last_status: 'succeeded',
    checked_at: '2026-11-27T11:01:00.000Z',
  },
  {
    job_id: 'ans_0000aaaa1111bbbb2222cccc',
    query: 'обезщетение при застраховка',
    request: { query: 'обезщетение при застраховка' },
    profile: 'sandbox',
    sandbox: true,
    base_url: 'http://127.0.0.1:1',
    created_at: '2026-11-27T10:00:00.000Z',
    last_status: 'failed',
    error_code: 'timed_out',
    checked_at: '2026-11-27T10:20:00.000Z',
  },
];

const memo = '# Тестова бележка\n\nСъгласно чл. 72 от ЗОП и чл. 3 от Закона за ограничаване на плащанията в брой; вж. чл. 344, ал. 1, т. 3 от КТ и чл. 999 от ГПК.\n';
const cite: CiteReport = {
  citations: [
    {
      text: 'чл. 72',
      line: 3,
      column: 10,
      act: 'Закон за обществените поръчки',
      document_id: 'test-zop',
      collection: 'c_test',
      ref: '72',
      verdict: 'found',
      detail: 'Чл. 72: (1) Тестов текст на члена (checked in the newest act of this title; also test-zop-2004 (2004-04-06))',
      unchecked: null, warning: null,
    },
    {
      text: 'чл. 3',
      line: 3,
      column: 26,
      act: 'Закон за ограничаване на плащанията в брой',
      document_id: 'test-zopvb',
      collection: 'c_test',
      ref: '3',
      verdict: 'found',
      detail: 'Чл. 3: (1) Тестов текст за плащанията',
      unchecked: null, warning: null,
    },
    {
      text: 'чл. 344, ал. 1, т. 3',
      line: 3,
      column: 86,
      act: 'Кодекс на труда',
      document_id: 'test-kt',
      collection: 'c_test',
      ref: '344',
      verdict: 'found',
      detail: 'Чл. 344, ал. 1, т. 3: тестов текст',
      unchecked: null, warning: null,
    },
    {
      text: 'чл. 999',
      line: 3,
      column: 115,
      act: 'Граждански процесуален кодекс',
      document_id: 'test-gpk',
      collection: 'c_test',
      ref: '999',
      verdict: 'no_such_provision',
      detail: 'Граждански процесуален кодекс has no чл. 999; nearest: 639, 640; it has 719 articles, 1 – 640',
      unchecked: null, warning: null,
    },
  ],
  documents_retrieved: 4,
  documents_from_cache: 0,
  searches_sent: 4,
  searches_from_cache: 0,
  documents: [],
};

const batch: BatchSummary = {
  total: 200,
  succeeded: 150,
  failed: 2,
  skipped: 30,
  skippedFailed: 1,
  interrupted: [7, 9],
  unfinished: [12, 13],
  notSent: [180, 181, 182],
  units: { search: 152, retrieval: 0, answers: 0 },
  stop: 'quota',
  stopMessage: 'monthly_quota_exceeded: Search quota reached',
  mode: 'search',
  missing: [20],
  period: { start: '2026-11-01T00:00:00Z', end: '2026-12-01T00:00:00Z', month: '2026-11' },
};

/** Each text for people, rendered at a width, with the words it must keep whole. */
const RENDERED: ReadonlyArray<[name: string, render: (width: number) => string, words: readonly string[]]> = [
  ['search results', (width) => renderSearchTable(search, { width, color: true }), [search.results[0]!.title!, search.results[1]!.title!, 'Тълкувателно решение']],
  [
    'doc',
    (width) =>
      renderDocumentText(
        {
          document: {
            document_id: 'test-act-1',
            title: 'Тестов закон за административното производство (ТЕСТОВИ ДАННИ)',
            type: 'Закон',
            date: '2006-04-12',
            author: 'Народно събрание на Република България',
            url: 'https://example.test/laws/ID/77752',
            elements: [{ ref: '1', label: 'Чл. 1.', text: 'Чл. 1. Този тестов закон урежда реда за издаване и обжалване на индивидуалните административни актове.' }],
          },
        },
        { width, color: true },
      ),
    ['Тестов закон за административното производство (ТЕСТОВИ ДАННИ)', 'https://example.test/laws/ID/77752', 'урежда реда за издаване и обжалване на индивидуалните административни актове.'],
  ],
  ['catalog source-types', (width) => renderSourceTypesTable(sourceTypes, { width, color: true }), sourceTypes.source_types.flatMap((t) => [t.id, String(t.name)])],
  ['catalog courts', (width) => renderCourtsTable(courts, { width, color: true }), [...courts.courts.map((c) => c.name), 'give a code or a name to `pravo search --court`']],
  [
    'catalog judges',
    (width) => renderJudgesTable({ body: judges }, { width, color: true }),
    ['20 judges in the decisions of Върховен касационен съд (ВКС) (the first 20; --limit 100 shows more)', ...judges.judges.map((j) => j.name)],
  ],
  [
    'usage',
    (width) =>
      renderUsageTable(
        readUsage({
          period: { start: '2026-11-01T00:00:00.000Z', end: '2026-12-01T00:00:00.000Z', month: '2026-11' },
          plan: 'sandbox',
          quotas: { search: { used: 812, limit: 1000, remaining: 188 }, retrieval: { used: 3, limit: 500, remaining: 497 }, answers: { used: 12, limit: null, remaining: null } },
          overage: { allowed: true, limit: 500, used: 20 },
        }),
        { width, color: true, now: NOW },
      ),
    ['search', 'retrieval', 'answers', 'allowed up to 500 units a month, 20 used'],
  ],
  ['keys list', (width) => renderKeysTable({ keys, currentKeyId: 'key_c487816c5701', currentSource: 'profile "default"' }, { width, color: true, now: NOW }), [
    ...keys.flatMap((k) => [k.keyId, k.name, k.prefix, k.status, k.createdAt.slice(0, 10)]),
    '3 keys: 2 active, 1 revoked. * marks the key of profile "default".',
  ]],
  ['account', (width) => renderAccountText(account, width), ['not allowed: past a quota, requests fail with monthly_quota_exceeded', 'search €0.02, retrieval €0.01, answers €0.25 per unit beyond the quota (set by the server)']],
  ['answer list', (width) => renderAnswerJobsTable(jobs, { width, color: true, now: NOW, total: 12 }), [...jobs.flatMap((j) => [j.job_id, j.query]), '2 of 12 recorded answer jobs, newest first; -n 0 lists all.']],
  ['cite', (width) => renderCiteText(cite, memo, { width, color: true }), cite.citations.flatMap((c) => [c.text, c.act!, c.verdict, c.detail])],
  [
    'batch summary',
    (width) => summaryText(batch, { input: 'questions.txt', out: 'results.jsonl', rerun: 'pravo batch questions.txt --out results.jsonl --yes', color: true, width }),
    ['in flight at an interruption, they may have been counted; a rerun with --retry-interrupted sends them again', '`pravo batch questions.txt --out results.jsonl --yes`.'],
  ],
  [
    'answer sources',
    (width) =>
      renderAnswerText(
        {
          job_id: 'ans_1',
          status: 'succeeded',
          query: 'тестов въпрос',
          answer: 'Тестов отговор за обезщетението по застраховката [test-act-1] и за сроковете [test-vks-2015-145].',
          sources: search.results as unknown as Array<Record<string, unknown>>,
        },
        { width, color: true },
      ),
    ['Тестов отговор за обезщетението по застраховката', search.results[0]!.title!],
  ],
];

describe('every table and text for people fits the terminal and keeps its words whole', () => {
  for (const width of WIDTHS) {
    it.each(RENDERED.map(([name, render, words]) => [name, render, words] as const))(`%s at ${width} columns`, (_name, render, words) => {
      expect(fitProblems(render(width), width, words)).toEqual([]);
    });
  }

  it.each(WIDTHS)('config show at %i columns, its long corpus path whole', async (width) => {
    const corpus = '/home/someone/legal/research/corpora/bulgarian-statutes-and-decisions-2026/bg-statutes.jsonl.gz';
    const config = fs.mkdtempSync(path.join(os.tmpdir(), 'pravo-fit-'));
    const result = await runPravo(['config', 'show'], { env: { PRAVO_CONFIG_DIR: config, PRAVO_SANDBOX_CORPUS: corpus }, stdoutTTY: true, columns: width });
    fs.rmSync(config, { recursive: true, force: true });
    expect(result.exitCode, result.stderr).toBe(0);
    const overlong = result.stdout.split('\n').filter((line) => [...line].length > width && !line.includes(corpus));
    expect(overlong).toEqual([]);
    expect(fitProblems(result.stdout, Infinity, [corpus, 'not set: `pravo login` (needed by keys and account)'])).toEqual([]);
  });
});

describe('column widths follow the content', () => {
  it('every column its longest line when all fit', () => {
    expect(fitColumns([{ header: 'Verdict', cells: ['found'] }, { header: 'Detail', cells: ['a short detail'] }], 80)).toEqual([9, 16]);
  });

  it('otherwise no column narrower than its longest word, the short ones whole and the long ones sharing the rest', () => {
    const detail = 'Граждански процесуален кодекс has no чл. 999; nearest: 639, 640; it has 719 articles, 1 – 640 '.repeat(2);
    const widths = fitColumns(
      [
        { header: 'Citation', cells: ['чл. 344, ал. 1, т. 3\nКодекс на труда'] },
        { header: 'Verdict', cells: ['no_such_provision', 'found'] },
        { header: 'Detail', cells: [detail] },
      ],
      80,
    );
    expect(widths[1]).toBe('no_such_provision'.length + 2);
    expect(widths[0]).toBe('чл. 344, ал. 1, т. 3'.length + 2);
    expect(widths.reduce((a, b) => a + b, 0) + 4).toBe(80);
  });

  it('gives the verdict column only what its verdicts need, and the citation room for itself', () => {
    const table = renderCiteText({ ...cite, citations: cite.citations.filter((c) => c.verdict === 'found') }, memo, { width: 120, color: false });
    const header = table.split('\n').find((line) => line.includes('Verdict'))!.replace(ANSI, '');
    const cells = header.split('│').slice(1, -1);
    expect(cells.find((cell) => cell.trim() === 'Verdict')).toBe(' Verdict ');
    expect(cells.find((cell) => cell.trim() === 'Citation')!.length).toBeGreaterThanOrEqual('чл. 344, ал. 1, т. 3'.length + 2);
  });

  it('a weight lets a column grow faster than its neighbours', () => {
    const names = ['Апелативен специализиран наказателен съд', 'Районен съд – Бяла Слатина'];
    const types = ['Военно-апелативен съд', 'Административен съд'];
    const [name, type] = fitColumns([{ header: 'Name', cells: names, weight: 2 }, { header: 'Type', cells: types }], 50);
    expect(name).toBeGreaterThan(type!);
    expect(name! + type! + 3).toBe(50);
  });

  it('the courts table leaves the type blank where it is the name, and the judges summary names the court as users do', () => {
    const text = renderCourtsTable(courts, { width: 120, color: false });
    expect(text).toMatch(/│ +1 │ Върховен касационен съд +│ +│/);
    expect(text).toMatch(/│ +141 │ Районен съд – Бяла Слатина +│ Районен съд +│/);
    expect(renderJudgesTable({ body: judges }, { width: 120, color: false }).split('\n')[0]).toBe(
      '20 judges in the decisions of Върховен касационен съд (ВКС) (the first 20; --limit 100 shows more)',
    );
  });

  it('the keys table shows the creation date at 80 columns, with the prefix under the key id', () => {
    const lines = renderKeysTable({ keys }, { width: 80, color: false, now: NOW }).split('\n');
    expect(lines[2]).toMatch(/│ Key ID +│ Name +│ Status +│ Created +│ Last used │/);
    const row = lines.findIndex((line) => line.includes('key_c487816c5701'));
    expect(lines[row]).toMatch(/│ active +│ 2026-11-27 +│ never +│$/);
    expect(lines[row + 1]).toMatch(/^│ +│ sbx_live_wWsI +│/);
    const wide = renderKeysTable({ keys }, { width: 120, color: false, now: NOW });
    expect(wide).toMatch(/│ +│ key_c487816c5701 +│ sandbox 2026-11-27 +│ sbx_live_wWsI +│ active +│ 2026-11-27 +│ never +│/);
  });
});
