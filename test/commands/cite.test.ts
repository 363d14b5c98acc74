/**
 * `pravo cite` run in this process against a loopback server with synthetic acts (every title says it is a test act:
 * „тестов“; no legal content): every verdict, one search per act and one retrieval per document, the cache that makes a
 * second check free, what is refused before anything is sent, and the output forms.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DocumentResponse } from '../../src/contract/types.js';
import { hasControlSequences } from '../../src/shared/sanitize.js';
import { runPravo } from '../helpers/host.js';
import { recordingServer, type Recorded } from '../helpers/recording-server.js';

/** A made-up key of the live form; not a real credential. */
const KEY = 'sbx_live_TESTKEYabcdefghijklmnopqrstuvwx';

let root: string;
let env: NodeJS.ProcessEnv;
const servers: { close: () => Promise<void> }[] = [];

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'pravo-cmd-cite-'));
  env = { PRAVO_CONFIG_DIR: path.join(root, 'config'), PRAVO_STATE_DIR: path.join(root, 'state'), PRAVO_CACHE_DIR: path.join(root, 'cache') };
});

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  fs.rmSync(root, { recursive: true, force: true });
});

/** A synthetic act: its articles given as [ref, text without the label]. */
function act(document_id: string, title: string, date: string, articles: Array<[string, string]>): DocumentResponse {
  return {
    document_id,
    collection: 'c_test',
    source_type: 'bulgarian_laws_regulations',
    type: 'Закон',
    title,
    date,
    as_of: date,
    consolidated: false,
    url: `https://example.invalid/${document_id}`,
    elements: articles.map(([ref, text]) => ({ excerpt_id: `${document_id}:${ref}`, ref, label: `Чл. ${ref}.`, text: `Чл. ${ref}. ${text}` })),
  };
}

const ACTS: DocumentResponse[] = [
  act('test-a', 'Закон за тестовите уведомления', '2020-05-01', [
    ['1', 'Тестов текст на първия член.'],
    ['2', '(Отм. – ДВ, бр. 1 от 2021 г.)'],
    ['3', 'Тестов текст с \u001b[31mуправляващ\u001b[0m знак.'],
    // Paragraphs left unnumbered and run together, as an older act's text may give them.
    ['4', 'Тестова първа алинея. Тестова втора алинея.'],
  ]),
  act('test-b-old', 'Закон за тестовите срокове', '2004-04-06', [['99', 'Тестов член на стария закон.']]),
  act('test-b-new', 'Закон за тестовите срокове', '2015-08-12', [['10', 'Тестов член на новия закон.']]),
  act('test-n1', 'Закон за изменение на Закона за тестовите нотариуси', '2012-07-20', [['1', 'Тестово изменение.']]),
  act('test-r1', 'Закон за тестовите регистри', '2019-01-01', [['3', 'Тестов регистър.']]),
  act('test-r2', 'Закон за тестовите разходи', '2019-02-01', [['3', 'Тестови разходи.']]),
];

/**
 * A server whose every search finds all {@link ACTS} and whose GET /v1/documents serves them; `refuse` answers first
 * when it returns something.
 */
async function serve(refuse?: (request: Recorded) => { status: number; body: string } | undefined): Promise<{ requests: Recorded[] }> {
  const server = await recordingServer((request) => {
    const refused = refuse?.(request);
    if (refused) return refused;
    const url = new URL(request.url, 'http://localhost');
    if (request.method === 'POST' && url.pathname === '/v1/search') {
      const results = ACTS.map((d, i) => ({ document_id: d.document_id, collection: d.collection, type: d.type, title: d.title, date: d.date, url: d.url, score: 1 - i / 10, excerpts: [] }));
      return { status: 200, body: JSON.stringify({ query: JSON.parse(request.body).query, result_count: results.length, results }) };
    }
    if (request.method === 'GET' && url.pathname === '/v1/documents') {
      const document = ACTS.find((d) => d.document_id === url.searchParams.get('document_id') && d.collection === url.searchParams.get('collection'));
      if (document) return { status: 200, body: JSON.stringify(document) };
    }
    return { status: 404, body: JSON.stringify({ error: { code: 'not_found', message: 'no such thing' } }) };
  });
  servers.push(server);
  env = { ...env, PRAVO_BASE_URL: server.url, PRAVO_API_KEY: KEY };
  return server;
}

const MEMO = [
  'Тестова бележка (синтетична, за тестовете на pravo).',
  'Съгласно чл. 1 от Закона за тестовите уведомления срокът тече, а чл. 2 от същия закон е отменен.',
  'Чл. 10 и чл. 99 от Закона за тестовите срокове.',
  'По чл. 25 от Закона за тестовите нотариуси нотариусът удостоверява.',
  'Вж. чл. 3 ЗТР и чл. 5 без акт.',
  '',
].join('\n');

/** Writes a memo under the test's directory; returns its path. */
function memo(text = MEMO, name = 'memo.md'): string {
  const file = path.join(root, name);
  fs.writeFileSync(file, text);
  return file;
}

const searches = (server: { requests: Recorded[] }) => server.requests.filter((r) => r.url === '/v1/search');
const retrievals = (server: { requests: Recorded[] }) => server.requests.filter((r) => r.url.startsWith('/v1/documents')).map((r) => new URL(r.url, 'http://x').searchParams.get('document_id'));

describe('pravo cite: verdicts', () => {
  it('gives every verdict, searching each act once and retrieving each document once; exit 8', async () => {
    const server = await serve();
    const result = await runPravo(['cite', '--yes', memo()], { env });
    expect(result.exitCode, result.stderr).toBe(8);
    const rows = result.stdout.trimEnd().split('\n').map((line) => line.split('\t'));
    expect(rows.map((r) => [r[0], r[1], r[2], r[3], r[4], r[5]])).toEqual([
      ['2', '10', 'чл. 1', 'found', 'test-a', '1'],
      ['2', '66', 'чл. 2', 'repealed', 'test-a', '2'],
      ['3', '1', 'Чл. 10', 'found', 'test-b-new', '10'],
      ['3', '10', 'чл. 99', 'no_such_provision', 'test-b-new', '99'],
      ['4', '4', 'чл. 25', 'act_not_found', '', ''],
      ['5', '5', 'чл. 3', 'ambiguous', '', ''],
      ['5', '17', 'чл. 5', 'act_not_named', '', ''],
    ]);
    expect(rows[2]![6]).toContain('also test-b-old (2004-04-06)');
    expect(rows[4]![6]).toContain('only acts amending „Закон за тестовите нотариуси“');
    expect(rows[5]![6]).toContain('test-r1 (2019-01-01) „Закон за тестовите регистри“, test-r2');
    // One search per act (4), statutes only; one retrieval per document found (2).
    // (Sent a few at a time: compared in order of their queries.)
    const bodies = searches(server).map((r) => JSON.parse(r.body) as { query: string });
    expect(bodies.sort((a, b) => a.query.localeCompare(b.query))).toEqual([
      { query: 'Закон за тестовите нотариуси', source_types: ['bulgarian_laws_regulations'], max_results: 10 },
      { query: 'Закон за тестовите срокове', source_types: ['bulgarian_laws_regulations'], max_results: 10 },
      { query: 'Закон за тестовите уведомления', source_types: ['bulgarian_laws_regulations'], max_results: 10 },
      { query: 'ЗТР', source_types: ['bulgarian_laws_regulations'], max_results: 10 },
    ]);
    expect(retrievals(server).sort()).toEqual(['test-a', 'test-b-new']);
    expect(result.stderr).toContain('7 citations of 4 acts');
  });

  it('a second check is answered from the cache: nothing sent, no --yes needed; --json has the documented shape', async () => {
    const server = await serve();
    await runPravo(['cite', '--yes', memo()], { env });
    const sent = server.requests.length;
    const again = await runPravo(['cite', '--json', memo()], { env });
    expect(again.exitCode, again.stderr).toBe(8);
    expect(server.requests.length).toBe(sent);
    expect(again.stderr).toContain('nothing is sent');
    const report = JSON.parse(again.stdout);
    expect(Object.keys(report)).toEqual(['citations', 'documents_retrieved', 'documents_from_cache', 'searches_sent', 'searches_from_cache', 'documents']);
    expect(report).toMatchObject({ documents_retrieved: 0, documents_from_cache: 2, searches_sent: 0, searches_from_cache: 4 });
    expect(Object.keys(report.citations[0])).toEqual(['text', 'line', 'column', 'act', 'document_id', 'collection', 'ref', 'verdict', 'detail', 'unchecked', 'warning']);
    expect(report.citations[0].unchecked).toBeNull();
    expect(report.citations[0]).toMatchObject({ text: 'чл. 1', act: 'Закон за тестовите уведомления', document_id: 'test-a', collection: 'c_test', ref: '1', verdict: 'found' });
    expect(report.documents[0]).toEqual({ document_id: 'test-a', collection: 'c_test', title: 'Закон за тестовите уведомления', date: '2020-05-01', as_of: '2020-05-01', consolidated: false });

    const refreshed = await runPravo(['cite', '--json', '--yes', '--refresh', memo()], { env });
    expect(JSON.parse(refreshed.stdout)).toMatchObject({ documents_retrieved: 2, searches_sent: 4 });
  });

  it('an abbreviation of an act held only through amendments is named by the title they give it', async () => {
    await serve();
    const result = await runPravo(['cite', '--yes', '-'], { env, input: 'Тестово: чл. 4 от ЗТН.\n' });
    expect(result.exitCode).toBe(8);
    expect(result.stdout.split('\t')[3]).toBe('act_not_found');
    expect(result.stdout).toContain('only acts amending „Закон за тестовите нотариуси“ (1 act, e.g. test-n1 (2012-07-20))');
  });

  it('exit 0 when every citation is found; a memo read from standard input', async () => {
    const server = await serve();
    const result = await runPravo(['cite', '--yes', '-'], { env, input: 'Тестово: чл. 1 и чл. 3 от Закона за тестовите уведомления.\n' });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout.split('\n').filter(Boolean).map((l) => l.split('\t')[3])).toEqual(['found', 'found']);
    expect(result.stderr).toContain('standard input: 2 citations of 1 act');
    expect(retrievals(server)).toEqual(['test-a']);
  });

  it('an ал. the text cannot show is found as far as the article, and the report says it was not checked', async () => {
    await serve();
    const text = 'Тестово: чл. 4, ал. 2 от Закона за тестовите уведомления.\n';
    const json = await runPravo(['cite', '--yes', '--json', memo(text)], { env });
    expect(json.exitCode, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout).citations[0]).toMatchObject({
      verdict: 'found',
      ref: '4',
      detail: expect.stringContaining('Чл. 4 (ал. 2 not checked: this text does not number its paragraphs)'),
      unchecked: 'ал. 2',
    });
    const shown = await runPravo(['cite', memo(text)], { env: { ...env, NO_COLOR: '1' }, stdoutTTY: true, columns: 120 });
    expect(shown.stdout.replace(/\s+/gu, ' ')).toContain(
      'The citation was found. 1 found only as far as the article: its text numbers no paragraphs, so the ал. cited was not checked.',
    );
  });

  it('a memo without citations: said, exit 0, nothing sent', async () => {
    const server = await serve();
    const result = await runPravo(['cite', memo('Тестов текст без препратки.\n')], { env });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain('No citations of Bulgarian legal provisions found');
    expect(server.requests).toEqual([]);
  });
});

describe('pravo cite: an error halfway', () => {
  it('stops with its exit code, and the next check does not spend again what was searched and retrieved', async () => {
    let quotaLeft = true;
    const server = await serve((request) => {
      if (quotaLeft && request.url.includes('document_id=test-b-new')) {
        quotaLeft = false;
        return { status: 429, body: JSON.stringify({ error: { code: 'monthly_quota_exceeded', message: 'The monthly retrieval quota is used up.' } }) };
      }
      return undefined;
    });
    const failed = await runPravo(['cite', '--yes', memo()], { env });
    expect(failed.exitCode).toBe(5);
    expect(failed.stderr).toContain('Monthly quota exceeded');
    expect(failed.stderr).toContain('checking the memo again does not spend it twice');
    const before = server.requests.length;
    const again = await runPravo(['cite', '--yes', '--json', memo()], { env });
    expect(again.exitCode, again.stderr).toBe(8);
    // Only the document refused before is asked for: the 4 searches and the other document come from the cache.
    expect(server.requests.slice(before).map((r) => r.url)).toEqual(['/v1/documents?document_id=test-b-new&collection=c_test']);
    expect(JSON.parse(again.stdout)).toMatchObject({ searches_sent: 0, searches_from_cache: 4, documents_retrieved: 1, documents_from_cache: 1 });
  });
});

describe('pravo cite: refused before anything is sent (exit 2)', () => {
  it('without a terminal to ask on and without --yes', async () => {
    const server = await serve();
    const result = await runPravo(['cite', memo()], { env });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('add --yes');
    expect(server.requests).toEqual([]);
  });

  it('a word-processor file, bytes that are not UTF-8, NUL bytes, standard input on a terminal', async () => {
    const server = await serve();
    const docx = memo('PK\u0003\u0004', 'memo.docx');
    expect((await runPravo(['cite', '--yes', docx], { env })).stderr).toContain('pandoc');
    const cp1251 = path.join(root, 'cp1251.txt');
    fs.writeFileSync(cp1251, Buffer.from([0xf7, 0xeb, 0x2e, 0x20, 0x31]));
    const notUtf8 = await runPravo(['cite', '--yes', cp1251], { env });
    expect(notUtf8.exitCode).toBe(2);
    expect(notUtf8.stderr).toContain('not UTF-8 text');
    const nul = path.join(root, 'nul.txt');
    fs.writeFileSync(nul, 'чл. 1\u0000');
    expect((await runPravo(['cite', '--yes', nul], { env })).exitCode).toBe(2);
    const tty = await runPravo(['cite', '--yes', '-'], { env, stdinTTY: true });
    expect(tty.exitCode).toBe(2);
    expect(tty.stderr).toContain('pravo cite - < memo.txt');
    const missing = await runPravo(['cite', '--yes', path.join(root, 'none.md')], { env });
    expect(missing.stderr).toContain('there is no such file');
    expect(server.requests).toEqual([]);
  });
});

describe('pravo cite on a terminal', () => {
  it("marks each citation in the memo's lines, lists the verdicts and the texts' dates, never a control sequence from the server", async () => {
    await serve();
    const text = 'Тестово: чл. 3 от Закона за тестовите уведомления и чл. 99 от Закона за тестовите срокове.\n';
    const result = await runPravo(['cite', '--yes', memo(text)], { env: { ...env, NO_COLOR: '1' }, stdoutTTY: true, columns: 120 });
    const coloured = await runPravo(['cite', memo(text)], { env: { ...env, FORCE_COLOR: '1' }, stdoutTTY: true, columns: 80 });
    expect(coloured.stdout).toContain('\u001b[32m[чл. 3]¹\u001b[39m');
    expect(coloured.stdout).not.toContain('\u001b[31mуправляващ');
    expect(result.exitCode).toBe(8);
    expect(result.stdout).toContain('[чл. 3]¹');
    expect(result.stdout).toContain('[чл. 99]²');
    expect(result.stdout).toMatch(/│ 1:10 +│ чл\. 3/u);
    expect(result.stdout).toContain('no_such_provision');
    expect(result.stdout).toContain('Checked in:');
    expect(result.stdout).toContain('Закон за тестовите срокове (test-b-new): текст както е обнародван, 12.08.2015');
    expect(result.stdout).toContain('1 of 2 citations found; 1 no_such_provision.');
    expect(hasControlSequences(result.stdout)).toBe(false);
    expect(result.stdout).toContain('управляващ');
  });
});
