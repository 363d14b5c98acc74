/**
 * `pravo search` run in this process (`main()` on test streams) against a loopback server: its output forms, its
 * errors and exit codes, what reaches a terminal from a hostile server, and Ctrl-C. The end-to-end tests in test/e2e
 * drive the built CLI against a real sandbox.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hasControlSequences } from '../../src/shared/sanitize.js';
import { recordingServer, type Recorded } from '../helpers/recording-server.js';
import { runPravo, testHost } from '../helpers/host.js';
import { main } from '../../src/cli.js';

/** A made-up key of the live form; not a real credential. */
const KEY = 'sbx_live_TESTKEYabcdefghijklmnopqrstuvwx';
const QUERY = 'застрахователят отказва да изплати обезщетение';

/** A source-types catalog as the sandbox reports it (counts made up). */
const SOURCE_TYPES = JSON.stringify({
  source_types: [
    { id: 'bulgarian_laws_regulations', name: 'Закони и подзаконови нормативни актове', case_law: false, document_count: 1997 },
    { id: 'high_courts_cases', name: 'Съдебна практика на върховните съдилища', case_law: true, document_count: 35 },
  ],
});

/** A search response of two synthetic results (test data, not legal content). */
function response(overrides: Record<string, unknown> = {}): string {
  return JSON.stringify({
    query: QUERY,
    result_count: 2,
    results: [
      {
        document_id: 'doc-1',
        collection: 'c_test',
        type: 'Закон',
        title: 'Тестов закон за застраховането (синтетичен тестов документ)',
        date: '2020-01-01',
        author: 'Тест',
        url: 'https://example.invalid/1',
        score: 1,
        explanation: 'Съвпадение с „застрахователят“ в Чл. 1.',
        excerpts: [{ excerpt_id: 'doc-1:1', label: 'Чл. 1.', score: 1, text: 'Застрахователят плаща обезщетение (тестов текст).' }],
      },
      {
        document_id: 'doc-2',
        collection: 'c_test',
        type: 'Наредба',
        title: 'Тестова наредба (синтетичен тестов документ)',
        date: '2021-02-03',
        author: 'Тест',
        url: 'https://example.invalid/2',
        score: 0.5,
        excerpts: [],
      },
    ],
    ...overrides,
  });
}

let root: string;
let env: NodeJS.ProcessEnv;
const servers: { close: () => Promise<void> }[] = [];

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'pravo-cmd-search-'));
  env = { PRAVO_CONFIG_DIR: path.join(root, 'config'), PRAVO_STATE_DIR: path.join(root, 'state'), PRAVO_CACHE_DIR: path.join(root, 'cache') };
});

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  fs.rmSync(root, { recursive: true, force: true });
});

async function serve(respond: (r: Recorded) => { status: number; body: string; headers?: Record<string, string> }) {
  const server = await recordingServer(respond);
  servers.push(server);
  env = { ...env, PRAVO_BASE_URL: server.url, PRAVO_API_KEY: KEY };
  return server;
}

describe('pravo search: an act the service holds only through its amendments', () => {
  it('says so in one line on stderr above the results, naming the act, and keeps stdout data', async () => {
    const first = { ...JSON.parse(response()).results[0], absent_act: 'Тестов закон за облаците (синтетичен)\u001b[2J' };
    await serve(() => ({ status: 200, body: response({ results: [first], result_count: 1 }) }));
    const result = await runPravo(['search', QUERY], { env });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain('The service holds only amendments of „Тестов закон за облаците (синтетичен)');
    expect(hasControlSequences(result.stderr)).toBe(false);
    expect(result.stdout.split('\n')[0]!.split('\t')[1]).toBe('doc-1');
  });

  it('says nothing when the first result carries no absent act', async () => {
    await serve(() => ({ status: 200, body: response() }));
    const result = await runPravo(['search', QUERY], { env });
    expect(result.stderr).toBe('');
  });
});

describe('pravo search: output forms', () => {
  it('piped: one tab-separated line of 10 fields per result, no colour, no spinner, the request as the contract says', async () => {
    const server = await serve((r) => (r.url === '/v1/catalog/source-types' ? { status: 200, body: SOURCE_TYPES } : { status: 200, body: response() }));
    const result = await runPravo(['search', '-n', '5', '--type', 'bulgarian_laws_regulations', QUERY], { env });
    expect(result.exitCode).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]!.split('\t')).toEqual([
      '1', 'doc-1', 'c_test', '1.0000', '2020-01-01', 'Закон', 'Тестов закон за застраховането (синтетичен тестов документ)', 'Чл. 1.', '', '',
    ]);
    expect(result.stdout).not.toMatch(/\u001b/);
    expect(result.stderr).toBe('');
    // --type is checked against the source-types catalog first (then cached), then the search is sent.
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /v1/catalog/source-types', 'POST /v1/search']);
    const sent = server.requests[1]!;
    expect(sent.method).toBe('POST');
    expect(sent.url).toBe('/v1/search');
    expect(sent.headers['x-api-key']).toBe(KEY);
    expect(sent.headers.authorization).toBeUndefined();
    expect(JSON.parse(sent.body)).toEqual({ query: QUERY, source_types: ['bulgarian_laws_regulations'], max_results: 5 });
  });

  it('piped: results scoring under half of the first are named on stderr as weak matches; the lines keep their 10 fields', async () => {
    const three = JSON.parse(response()) as { results: Record<string, unknown>[] };
    three.results.push({ ...three.results[1]!, document_id: 'doc-3', score: 0.49 });
    three.results[1]!.score = 0.5;
    await serve(() => ({ status: 200, body: JSON.stringify({ ...three, result_count: 3 }) }));
    const result = await runPravo(['search', QUERY], { env });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe("Result 3 is a weak match: it scores under half of the first result's 1.00.\n");
    expect(result.stdout.split('\n').filter((line) => line !== '').map((line) => line.split('\t').length)).toEqual([10, 10, 10]);
  });

  it('on a terminal: a ranked table with excerpts and the explanation, and a spinner on stderr', async () => {
    await serve(() => ({ status: 200, body: response() }));
    const result = await runPravo(['search', QUERY], { env, stdoutTTY: true, stderrTTY: true, columns: 100 });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('2 results for „застрахователят отказва да изплати обезщетение“');
    expect(result.stdout).toContain('Тестов закон за застраховането');
    expect(result.stdout).toContain('Чл. 1.');
    expect(result.stdout).toContain('Съвпадение с „застрахователят“ в Чл. 1.');
    expect(result.stderr).toContain('Searching…');
  });

  it('output to a file or with --json, stderr a terminal: the spinner still shows on stderr, stdout stays data', async () => {
    await serve(() => ({ status: 200, body: response() }));
    const piped = await runPravo(['search', QUERY], { env, stdoutTTY: false, stderrTTY: true });
    expect(piped.exitCode).toBe(0);
    expect(piped.stderr).toContain('Searching…');
    expect(piped.stdout.split('\n')[0]!.split('\t')).toHaveLength(10);
    const json = await runPravo(['search', '--json', QUERY], { env, stdoutTTY: false, stderrTTY: true });
    expect(json.stderr).toContain('Searching…');
    expect(JSON.parse(json.stdout).result_count).toBe(2);
  });

  it('on a terminal a table longer than the screen goes through the pager (PRAVO_PAGER); one that fits, or --no-pager, prints directly', async () => {
    await serve(() => ({ status: 200, body: response() }));
    const paged = path.join(root, 'paged.txt');
    const pager = path.join(root, 'test-pager.sh');
    fs.writeFileSync(pager, `#!/bin/sh\ncat > '${paged}'\n`, { mode: 0o755 });
    const terminal = { env: { ...env, PRAVO_PAGER: pager }, stdoutTTY: true, stderrTTY: true };
    const viaPager = await runPravo(['search', QUERY], { ...terminal, rows: 8 });
    expect(viaPager.exitCode).toBe(0);
    expect(viaPager.stdout).not.toContain('Тестов закон за застраховането');
    expect(fs.readFileSync(paged, 'utf8')).toContain('Тестов закон за застраховането');
    fs.rmSync(paged);
    const fits = await runPravo(['search', QUERY], { ...terminal, rows: 60 });
    expect(fits.stdout).toContain('Тестов закон за застраховането');
    expect(fs.existsSync(paged)).toBe(false);
    const direct = await runPravo(['--no-pager', 'search', QUERY], { ...terminal, rows: 8 });
    expect(direct.stdout).toContain('Тестов закон за застраховането');
    expect(fs.existsSync(paged)).toBe(false);
  });

  it('--json prints the server body byte for byte', async () => {
    const body = `{ "query":"${QUERY}",\n  "result_count": 0, "results": [] , "extra": {"b":1,"a":2} }`;
    await serve(() => ({ status: 200, body }));
    const result = await runPravo(['search', '--json', QUERY], { env });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(`${body}\n`);
  });

  it('stores the last results in the state directory, 0600', async () => {
    await serve(() => ({ status: 200, body: response() }));
    await runPravo(['search', QUERY], { env });
    const file = path.join(root, 'state', 'last-results.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(stored.results.map((r: { document_id: string }) => r.document_id)).toEqual(['doc-1', 'doc-2']);
  });
});

describe('pravo search: a search that cannot match', () => {
  const EMPTY = JSON.stringify({ query: QUERY, result_count: 0, results: [] });
  /** A catalog of a collection with laws only (counts as the sandbox reports them). */
  const LAWS_ONLY = JSON.stringify({
    source_types: [
      { id: 'bulgarian_laws_regulations', name: 'Закони и подзаконови нормативни актове', case_law: false, document_count: 1997 },
      { id: 'high_courts_cases', name: 'Съдебна практика на върховните съдилища', case_law: true, document_count: 0 },
    ],
  });
  const NOTE = 'The corpus has no documents of type high_courts_cases (Съдебна практика на върховните съдилища); nothing could match.';

  /** Answers the search with `search` and the catalog with `catalog`. */
  const answer = (search: string, catalog: { status: number; body: string }) => (r: Recorded) =>
    r.url === '/v1/catalog/source-types' ? catalog : { status: 200, body: search };

  it('--type of a type without documents: says so on stderr, exit 0, from the one catalog request (cached)', async () => {
    const server = await serve(answer(EMPTY, { status: 200, body: LAWS_ONLY }));
    const result = await runPravo(['search', '--type', 'high_courts_cases', QUERY], { env });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`No results for „${QUERY}“. ${NOTE}\n`);
    // The catalog checked --type before the search; the note reads the same copy from the cache.
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /v1/catalog/source-types', 'POST /v1/search']);
    expect(server.requests[0]!.headers['x-api-key']).toBe(KEY);

    // On a terminal too: the message on stderr says it all (broken at spaces to the terminal's width), and no empty
    // table follows.
    const terminal = await runPravo(['search', '--type', 'high_courts_cases', QUERY], { env, stdoutTTY: true, stderrTTY: true });
    expect(terminal.exitCode).toBe(0);
    expect(terminal.stdout).toBe('');
    expect(terminal.stderr.replace(/\n/g, ' ')).toContain(`No results for „${QUERY}“. ${NOTE}`);
  });

  it('--json: stdout is still the server body exactly, the note goes to stderr', async () => {
    await serve(answer(EMPTY, { status: 200, body: LAWS_ONLY }));
    const result = await runPravo(['search', '--json', '-t', 'high_courts_cases', QUERY], { env });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(`${EMPTY}\n`);
    expect(result.stderr).toBe(`No results for „${QUERY}“. ${NOTE}\n`);
  });

  it('--judge or --court without --type, on a collection without court decisions: says the filter selects none', async () => {
    await serve(answer(EMPTY, { status: 200, body: LAWS_ONLY }));
    const judge = await runPravo(['search', '--judge', 'Иванова', QUERY], { env });
    expect(judge.exitCode).toBe(0);
    expect(judge.stderr).toBe(
      `No results for „${QUERY}“. --judge selects court decisions, and the corpus has no documents of type high_courts_cases ` +
        '(Съдебна практика на върховните съдилища); nothing could match.\n',
    );
    const both = await runPravo(['search', '-c', '7', '-j', 'Иванова', QUERY], { env });
    expect(both.exitCode).toBe(0);
    expect(both.stderr).toMatch(/^No results for „[^“]+“\. --court and --judge select court decisions, and the corpus has no documents of type high_courts_cases/);
  });

  it('names only the empty ones when some requested types have documents', async () => {
    await serve(answer(EMPTY, { status: 200, body: LAWS_ONLY }));
    const result = await runPravo(['search', '-t', 'bulgarian_laws_regulations', '-t', 'high_courts_cases', QUERY], { env });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe(`No results for „${QUERY}“. The corpus has no documents of type high_courts_cases (Съдебна практика на върховните съдилища).\n`);
  });

  it('makes no catalog request when there are results, or when only dates limited the search (and says which)', async () => {
    const withResults = await serve(answer(response(), { status: 200, body: LAWS_ONLY }));
    const found = await runPravo(['search', '--judge', 'Иванова', QUERY], { env });
    expect(found.exitCode).toBe(0);
    expect(found.stderr).toBe('');
    expect(withResults.requests.map((r) => r.url)).toEqual(['/v1/search']);

    const unlimited = await serve(answer(EMPTY, { status: 200, body: LAWS_ONLY }));
    const nothing = await runPravo(['search', '--from', '2020-01-01', QUERY], { env });
    expect(nothing.exitCode).toBe(0);
    expect(nothing.stdout).toBe('');
    expect(nothing.stderr).toBe(`No results for „${QUERY}“. Filters applied: --from 2020-01-01; widen or drop them to search more.\n`);
    expect(unlimited.requests.map((r) => r.url)).toEqual(['/v1/search']);
  });

  it('names the filters applied, and no empty type, when the catalog fails, answers in another shape, or has documents of the type', async () => {
    const catalogs = [
      { status: 500, body: JSON.stringify({ error: { code: 'internal_error', message: 'catalog down' } }) },
      { status: 404, body: 'not here' },
      { status: 200, body: '{"source_types": "none"}' },
      { status: 200, body: 'not json' },
      // The spec does not show document_count: without it, the catalog cannot tell.
      { status: 200, body: JSON.stringify({ source_types: [{ id: 'high_courts_cases', name: 'Практика' }] }) },
      { status: 200, body: JSON.stringify({ source_types: [{ id: 'high_courts_cases', document_count: 3 }] }) },
      // A catalog that lists no types cannot tell anything.
      { status: 200, body: JSON.stringify({ source_types: [] }) },
    ];
    for (const catalog of catalogs) {
      fs.rmSync(path.join(root, 'cache'), { recursive: true, force: true });
      const server = await serve(answer(EMPTY, catalog));
      for (const json of [false, true]) {
        const result = await runPravo(['search', ...(json ? ['--json'] : []), '--judge', 'Иванова', '--type', 'high_courts_cases', QUERY], { env });
        expect(result.exitCode, catalog.body).toBe(0);
        expect(result.stderr, catalog.body).toMatch(new RegExp(`^No results for „${QUERY}“\\. Filters applied: --type high_courts_cases( \\(3 documents in the catalog\\))?; --judge Иванова; widen or drop them to search more\\.\\n$`));
        expect(result.stdout).toBe(json ? `${EMPTY}\n` : '');
      }
      // A catalog that failed is asked again (nothing was cached); one that answered is read from the cache.
      const asked = server.requests.filter((r) => r.url === '/v1/catalog/source-types').length;
      const parses = catalog.status === 200 && catalog.body.startsWith('{"source_types":[');
      expect(asked, catalog.body).toBe(parses ? 1 : 4);
      expect(server.requests.filter((r) => r.url === '/v1/search'), catalog.body).toHaveLength(2);
    }
  });

  it('piped, a search that finds nothing says so on stderr even when nothing limited it; stdout stays empty', async () => {
    const server = await serve(answer(EMPTY, { status: 200, body: LAWS_ONLY }));
    const result = await runPravo(['search', QUERY], { env });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`No results for „${QUERY}“.\n`);
    expect(server.requests.map((r) => r.url)).toEqual(['/v1/search']);
  });

  it('--court: names the court and the decisions the cached courts catalog lists of it; with a code and no cached catalog, the code', async () => {
    const courts = JSON.stringify({ courts: [{ court_id: 1, name: 'Върховен касационен съд', decision_count: 12 }] });
    const server = await serve((r) =>
      r.url === '/v1/catalog/courts' ? { status: 200, body: courts } : r.url === '/v1/catalog/source-types' ? { status: 200, body: SOURCE_TYPES } : { status: 200, body: EMPTY },
    );
    const applied = (court: string) =>
      `No results for „${QUERY}“. Filters applied: --court ${court}; --from 2025-01-01; widen or drop them to search more.\n`;
    // A code needs no catalog, and the note asks for none.
    const byCode = await runPravo(['search', '--court', '1', '--from', '2025-01-01', QUERY], { env });
    expect(byCode.exitCode).toBe(0);
    expect(byCode.stderr).toBe(applied('1'));
    expect(server.requests.filter((r) => r.url === '/v1/catalog/courts')).toHaveLength(0);
    // A name is looked up in the catalog, which is then cached: the note reads it from there.
    const byName = await runPravo(['search', '--court', 'ВКС', '--from', '2025-01-01', QUERY], { env });
    expect(byName.stderr).toBe(applied('Върховен касационен съд (the catalog lists 12 decisions of it)'));
    expect(server.requests.filter((r) => r.url === '/v1/catalog/courts')).toHaveLength(1);
  });

  it("with the server's account (no_results_reason): says which filter left how many documents, and asks no catalog", async () => {
    const reason = {
      kind: 'no_match',
      filters: [
        { filter: 'source_types', documents: 475 },
        { filter: 'court_ids', documents: 12 },
      ],
      left: {
        documents: 12,
        source_types: [{ value: 'high_courts_cases', documents: 12 }],
        courts: [{ value: 'Върховен касационен съд', documents: 12 }],
        years: { from: 2015, to: 2024 },
        case_kinds: [{ value: 'наказателно дело', documents: 12 }],
        departments: [
          { value: 'Първо наказателно отделение', documents: 7 },
          { value: 'Второ наказателно отделение\u001b[31m', documents: 5 },
        ],
      },
    };
    const server = await serve(answer(JSON.stringify({ query: QUERY, result_count: 0, results: [], no_results_reason: reason }), { status: 200, body: LAWS_ONLY }));
    const result = await runPravo(['search', '--court', '1', QUERY], { env });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `No results for „${QUERY}“: of 475 documents, --court leaves 12 (Върховен касационен съд; 2015–2024; Първо наказателно отделение 7, ` +
        "Второ наказателно отделение 5), and none of them holds the query's words. Widen or drop --court to search more.\n",
    );
    expect(hasControlSequences(result.stderr)).toBe(false);
    expect(server.requests.map((r) => r.url)).toEqual(['/v1/search']);
  });

  it('sanitizes the type name from the catalog', async () => {
    const hostile = '\u001b]0;pwned\u0007\u009b31m\u202eПрактика\r\nвтори ред';
    await serve(answer(EMPTY, { status: 200, body: JSON.stringify({ source_types: [{ id: 'high_courts_cases', name: hostile, document_count: 0 }] }) }));
    const result = await runPravo(['search', '--type', 'high_courts_cases', QUERY], { env });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain('high_courts_cases (Практика втори ред); nothing could match.');
    expect(hasControlSequences(result.stderr), JSON.stringify(result.stderr)).toBe(false);
  });
});

describe('pravo search: errors and exit codes', () => {
  it('bad options: exit 2, every problem named by its option, nothing sent', async () => {
    const server = await serve(() => ({ status: 200, body: response() }));
    const result = await runPravo(['search', '-n', '99', '--from', '2024-02-30', 'ab'], { env });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/The query must be 3 to 2000 characters long; it has 2\./);
    expect(result.stderr).toMatch(/--max-results takes a whole number from 1 to 50, not "99"/);
    expect(result.stderr).toMatch(/--from takes a real calendar date written YYYY-MM-DD, e.g. 2024-06-01, not "2024-02-30"/);
    expect(result.stderr).toMatch(/Nothing was sent/);
    expect(server.requests).toHaveLength(0);
  });

  it('problems are told in the options typed, never in API field names or type words', async () => {
    const server = await serve(() => ({ status: 200, body: response() }));
    const cases: Array<[string[], RegExp]> = [
      [['--from', '2024-06-01', '--to', '2024-01-01'], /--from 2024-06-01 is after --to 2024-01-01/],
      [['--type', ''], /--type needs a source type/],
      [['--court', '12345678901234567890'], /--court takes a court's code from the catalog \(a whole number\), a name or an abbreviation; "12345678901234567890" is too large for a code/],
      [['--court', ' '], /--court needs a court: its code from the catalog, a name or an abbreviation such as ВКС; it was given an empty value/],
      [['--court', '12', '--type', 'bulgarian_laws_regulations'], /--court applies to court decisions only, but --type selects only bulgarian_laws_regulations/],
      [['--judge', ' '], /--judge needs a name/],
      [['-n', '0'], /--max-results takes a whole number from 1 to 50, not "0"/],
    ];
    for (const [args, message] of cases) {
      const result = await runPravo(['search', ...args, QUERY], { env });
      expect(result.exitCode, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toMatch(message);
      expect(result.stderr, args.join(' ')).not.toMatch(/date_to|date_from|court_ids|source_types|max_results|judge_name|array|integer|\.\./);
    }
    expect(server.requests).toHaveLength(0);
  });

  it('a bad --timeout is refused before sending, the value repeated without its control sequences', async () => {
    const server = await serve(() => ({ status: 200, body: response() }));
    const result = await runPravo(['search', '--timeout', '9\u001b]0;pwned\u0007', QUERY], { env });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/--timeout takes a number of seconds from 1 to 3600, not "9"/);
    expect(hasControlSequences(result.stderr), JSON.stringify(result.stderr)).toBe(false);
    expect(server.requests).toHaveLength(0);
  });

  it('--corpus without --sandbox is a usage error', async () => {
    const result = await runPravo(['search', '--corpus', 'x.jsonl', QUERY], { env });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/--corpus and --data-dir apply only with --sandbox/);
  });

  it('no base URL: exit 2 saying how to set one; no key: exit 4, nothing sent', async () => {
    const noUrl = await runPravo(['search', QUERY], { env });
    expect(noUrl.exitCode).toBe(2);
    expect(noUrl.stderr).toMatch(/pravo config set base-url/);
    const server = await recordingServer();
    servers.push(server);
    const noKey = await runPravo(['search', QUERY], { env: { ...env, PRAVO_BASE_URL: server.url } });
    expect(noKey.exitCode).toBe(4);
    expect(noKey.stderr).toMatch(/No API key is configured for profile "default"/);
    expect(noKey.stderr).toMatch(/pravo config set-key/);
    expect(server.requests).toHaveLength(0);
  });

  it('a rejected key from PRAVO_API_KEY is not "fixed" by config set-key; one from the profile is', async () => {
    await serve(() => ({ status: 401, body: JSON.stringify({ error: { code: 'invalid_api_key', message: 'unknown key' } }) }));
    const fromEnv = await runPravo(['search', QUERY], { env });
    expect(fromEnv.exitCode).toBe(4);
    expect(fromEnv.stderr).toMatch(/PRAVO_API_KEY/);
    expect(fromEnv.stderr).not.toMatch(/config set-key/);
    expect(fromEnv.stderr).not.toContain(KEY);

    const { PRAVO_API_KEY: _, ...withoutKey } = env;
    expect((await runPravo(['config', 'set-key', '--stdin'], { env: withoutKey, input: KEY })).exitCode).toBe(0);
    const fromProfile = await runPravo(['search', QUERY], { env: withoutKey });
    expect(fromProfile.exitCode).toBe(4);
    expect(fromProfile.stderr).toMatch(/pravo config set-key/);
  });

  it('monthly_quota_exceeded: exit 5', async () => {
    await serve(() => ({ status: 429, body: JSON.stringify({ error: { code: 'monthly_quota_exceeded', message: 'used up' } }) }));
    const result = await runPravo(['search', QUERY], { env });
    expect(result.exitCode).toBe(5);
    expect(result.stderr).toMatch(/Monthly quota exceeded: used up/);
  });

  it('invalid_request from the server: exit 1 with the server message', async () => {
    await serve(() => ({ status: 400, body: JSON.stringify({ error: { code: 'invalid_request', message: 'court_ids with laws only' } }) }));
    const result = await runPravo(['search', QUERY], { env });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/The server rejected the request: court_ids with laws only/);
  });

  it('a 500 on a search: exit 1, says it may have been counted, not retried', async () => {
    const server = await serve(() => ({ status: 500, body: 'boom', headers: { 'x-request-id': 'req_500' } }));
    const result = await runPravo(['search', '--json', QUERY], { env });
    expect(result.exitCode).toBe(1);
    expect(server.requests).toHaveLength(1);
    expect(result.stdout).toBe('');
    const error = JSON.parse(result.stderr).error;
    expect(error).toMatchObject({ kind: 'server', exit_code: 1, may_have_been_counted: true, request_id: 'req_500' });
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('a response whose result is null or whose title is a number: exit 1, what was wrong and the request id, nothing stored', async () => {
    for (const results of [[null], [{ document_id: 'd', collection: 'c', title: 42, excerpts: [] }], [{ document_id: 'd', collection: 'c', excerpts: 'x' }]]) {
      await serve(() => ({ status: 200, body: JSON.stringify({ query: QUERY, result_count: 1, results }), headers: { 'x-request-id': 'req_shape' } }));
      const result = await runPravo(['search', QUERY], { env });
      expect(result.exitCode).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/results\[0\]/);
      expect(result.stderr).toMatch(/Request id: req_shape/);
      expect(result.stderr).not.toMatch(/bug in pravo/);
    }
    expect(fs.existsSync(path.join(root, 'state', 'last-results.json'))).toBe(false);
  });

  it('a server that cannot be reached: exit 6, nothing reached it', async () => {
    const server = await recordingServer();
    await server.close();
    const result = await runPravo(['search', QUERY], { env: { ...env, PRAVO_BASE_URL: server.url, PRAVO_API_KEY: KEY } });
    expect(result.exitCode).toBe(6);
    expect(result.stderr).toMatch(/Nothing reached the server/);
  });

  it('a base URL with credentials is refused (exit 2) and never echoed', async () => {
    const result = await runPravo(['search', QUERY], { env: { ...env, PRAVO_BASE_URL: `http://user:${KEY}@127.0.0.1:9`, PRAVO_API_KEY: KEY } });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).not.toContain(KEY);
  });
});

describe('pravo search: text from the server never controls the terminal', () => {
  const hostile = '\u001b[2J\u001b]0;pwned\u0007\u001b]8;;https://evil.invalid\u001b\\link\u001b]8;;\u001b\\\u009b31m\u202e\u0008\r';

  it('in the table, the TSV lines and an error message and request id', async () => {
    const body = response({
      query: `${QUERY}${hostile}`,
      results: [
        {
          document_id: `doc${hostile}`,
          collection: 'c_test',
          type: `Закон${hostile}`,
          title: `Заглавие${hostile} (синтетичен тестов документ)`,
          date: `2020-01-01${hostile}`,
          author: 'Тест',
          url: 'https://example.invalid/1',
          score: 1,
          explanation: `Обяснение${hostile}`,
          excerpts: [{ excerpt_id: `e${hostile}`, label: `Чл. 1.${hostile}`, score: 1, text: `Текст${hostile}` }],
        },
      ],
    });
    await serve(() => ({ status: 200, body }));
    for (const terminal of [true, false]) {
      const result = await runPravo(['search', QUERY], { env: { ...env, NO_COLOR: '1' }, stdoutTTY: terminal, columns: 120 });
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toContain('Заглавие');
      expect(hasControlSequences(result.stdout), JSON.stringify(result.stdout)).toBe(false);
    }
    // --json on a terminal: same JSON value, no raw C1 or bidi control.
    const json = await runPravo(['search', '--json', QUERY], { env, stdoutTTY: true });
    expect(JSON.parse(json.stdout)).toEqual(JSON.parse(body));
    expect(json.stdout).not.toMatch(/[\u0080-\u009f\u202a-\u202e\u2066-\u2069]/);

    servers.splice(0).forEach((s) => void s.close());
    await serve(() => ({
      status: 403,
      body: JSON.stringify({ error: { code: `forbidden${hostile}`, message: `Забранено${hostile}` } }),
      headers: { 'x-request-id': `req_1\u009b2J` },
    }));
    for (const json of [false, true]) {
      const args = json ? ['search', '--json', QUERY] : ['search', QUERY];
      // The spinner (our own escape sequences) comes first on a terminal; the error follows it.
      const errorPart = (stderr: string): string => stderr.slice(stderr.lastIndexOf('\u001b[?25h') + 1 + '[?25h'.length);
      const plain = await runPravo(args, { env: { ...env, NO_COLOR: '1' }, stderrTTY: true });
      expect(plain.exitCode).toBe(1);
      expect(errorPart(plain.stderr)).toContain('Забранено');
      expect(hasControlSequences(errorPart(plain.stderr)), JSON.stringify(plain.stderr)).toBe(false);
      // With colour on, our own colours are the only escape sequences: without them the text is the same.
      const coloured = await runPravo(args, { env, stderrTTY: true });
      expect(errorPart(coloured.stderr.replace(/\u001b\[[0-9;]*m/g, ''))).toBe(errorPart(plain.stderr));
    }
  });
});

describe('pravo search: Ctrl-C', () => {
  it('cancels a request under way: exit 130, says it may have been counted, and does not hang', async () => {
    const pending: http.ServerResponse[] = [];
    let arrived!: () => void;
    const received = new Promise<void>((resolve) => (arrived = resolve));
    const server = http.createServer((req, res) => {
      req.resume();
      pending.push(res);
      arrived();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push({
      close: () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    });
    const t = testHost({ env: { ...env, PRAVO_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, PRAVO_API_KEY: KEY } });
    const run = main(['search', QUERY], t.host);
    await received;
    t.signal('SIGINT');
    expect(await run).toBe(130);
    expect(t.stderr()).toMatch(/Cancelled/);
    expect(t.stderr()).toMatch(/may already have run it/);
    expect(t.exits).toEqual([]);
  });
});
