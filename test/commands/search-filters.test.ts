/**
 * `pravo search --court NAME` and `--type` looked up in the catalogs before the search is sent, run in this process
 * against a loopback server that serves the real courts (`../shared/corpus/bg-courts.json`): which `court_ids` the
 * server receives, what is refused (exit 2, the search never sent), the cache, and what happens when a catalog cannot
 * be fetched. Also: decision rows of a search as a user sees them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { catalogServer, realCourts, type OtherAnswer } from '../helpers/catalog-server.js';
import { recordingServer, type Recorded } from '../helpers/recording-server.js';
import { runPravo } from '../helpers/host.js';
import { courtMatchProblem, sourceTypeProblems, suggestSourceType } from '../../src/services/search/filters.js';
import { resolveCourt } from '../../src/shared/courts.js';

/** A made-up key of the live form; not a real credential. */
const KEY = 'sbx_live_TESTKEYabcdefghijklmnopqrstuvwx';
const QUERY = 'отмяна на присъдата';
const EMPTY = JSON.stringify({ query: QUERY, result_count: 0, results: [] });

let root: string;
let env: NodeJS.ProcessEnv;
const servers: { close: () => Promise<void> }[] = [];

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'pravo-cmd-search-filters-'));
  env = { PRAVO_CONFIG_DIR: path.join(root, 'config'), PRAVO_STATE_DIR: path.join(root, 'state'), PRAVO_CACHE_DIR: path.join(root, 'cache') };
});

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  fs.rmSync(root, { recursive: true, force: true });
});

async function serve(other?: OtherAnswer) {
  const server = await catalogServer(other);
  servers.push(server);
  env = { ...env, PRAVO_BASE_URL: server.url, PRAVO_API_KEY: KEY };
  return server;
}

async function serveRaw(respond: (r: Recorded) => { status: number; body: string }) {
  const server = await recordingServer(respond);
  servers.push(server);
  env = { ...env, PRAVO_BASE_URL: server.url, PRAVO_API_KEY: KEY };
  return server;
}

const searches = (server: { requests: Recorded[] }): Recorded[] => server.requests.filter((r) => r.url === '/v1/search');
const sentCourtIds = (server: { requests: Recorded[] }): unknown => JSON.parse(searches(server)[0]!.body).court_ids;

describe('pravo search --court: a code, a name or an abbreviation', () => {
  it('ВКС becomes court_ids [1]; the catalog is asked once, then read from the cache', async () => {
    const server = await serve();
    const first = await runPravo(['search', '--type', 'high_courts_cases', '--court', 'ВКС', QUERY], { env });
    expect(first.exitCode).toBe(0);
    expect(sentCourtIds(server)).toEqual([1]);
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET /v1/catalog/courts',
      'GET /v1/catalog/source-types',
      'POST /v1/search',
    ]);
    const second = await runPravo(['search', '--type', 'high_courts_cases', '--court', 'ВКС', QUERY], { env });
    expect(second.exitCode).toBe(0);
    expect(server.requests.slice(3).map((r) => r.url)).toEqual(['/v1/search']);
  });

  it.each([
    [['РС Пловдив'], [533]],
    [['Върховен административен съд'], [2]],
    [['кс', 'в.а.с.'], [0, 2]],
    [['ВКС', '1'], [1]],
    [['СГС', '7'], [110, 7]],
    [['окръжен съд пловдв'], [530]],
    // Latin letters, as a Latin keyboard types them.
    [['VKS', 'vas'], [1, 2]],
    [['RS Plovdiv'], [533]],
  ])('%j → court_ids %j', async (courts, ids) => {
    const server = await serve();
    const result = await runPravo(['search', ...courts.flatMap((c) => ['--court', c]), QUERY], { env });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(sentCourtIds(server)).toEqual(ids);
  });

  it('codes alone go through as they are, without asking the catalog', async () => {
    const server = await serve();
    const result = await runPravo(['search', '--court', '1', '--court', '999', QUERY], { env });
    expect(result.exitCode).toBe(0);
    expect(server.requests.filter((r) => r.url === '/v1/catalog/courts')).toHaveLength(0);
    expect(sentCourtIds(server)).toEqual([1, 999]);
  });

  it('a name that fits several courts: exit 2, the candidates with their codes, the search never sent', async () => {
    const server = await serve();
    const result = await runPravo(['search', '--court', 'Пловдив', QUERY], { env });
    expect(result.exitCode).toBe(2);
    const candidates = realCourts().filter((c) => c.name.includes('Пловдив'));
    expect(result.stderr).toContain(
      `--court Пловдив fits ${candidates.length} courts: 500 Апелативен съд – Пловдив, 530 Окръжен съд – Пловдив`,
    );
    expect(result.stderr).toContain('give one of the codes or a fuller name.');
    expect(searches(server)).toHaveLength(0);

    const json = await runPravo(['search', '--json', '--court', 'Върховен съд', QUERY], { env });
    expect(json.exitCode).toBe(2);
    expect(JSON.parse(json.stderr).error).toMatchObject({
      kind: 'usage',
      exit_code: 2,
      message: '--court "Върховен съд" fits 2 courts: 1 Върховен касационен съд, 2 Върховен административен съд; give one of the codes or a fuller name.',
    });
    expect(searches(server)).toHaveLength(0);
  });

  it('a name that fits none: exit 2 with the closest courts, after asking the catalog again once', async () => {
    const server = await serve();
    await runPravo(['search', '--court', 'ВКС', QUERY], { env });
    const result = await runPravo(['search', '--court', 'Районен съд Марс', QUERY], { env });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/--court "Районен съд Марс" fits no court of the catalog; the closest: \d+ [^,]*районен съд, \d+ Районен съд – /i);
    expect(result.stderr).toContain('pravo catalog courts');
    // The cached copy did not know it: asked again (it may be a new court), then refused.
    expect(server.requests.map((r) => r.url).filter((u) => u !== '/v1/catalog/source-types')).toEqual(['/v1/catalog/courts', '/v1/search', '/v1/catalog/courts']);
  });

  it('every problem at once: a bad name and a mistyped --type', async () => {
    const server = await serve();
    const result = await runPravo(['search', '--court', 'Пловдив', '--type', 'high_court_cases', QUERY], { env });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('--court Пловдив fits');
    expect(result.stderr).toContain('--type high_court_cases is not a source type of the catalog; did you mean high_courts_cases?');
    expect(searches(server)).toHaveLength(0);
  });

  it('a local problem is reported before any catalog is asked', async () => {
    const server = await serve();
    const rule1 = await runPravo(['search', '--court', 'ВКС', '--type', 'bulgarian_laws_regulations', QUERY], { env });
    expect(rule1.exitCode).toBe(2);
    expect(rule1.stderr).toMatch(/--court applies to court decisions only, but --type selects only bulgarian_laws_regulations/);
    const json = await runPravo(['search', '--json', '--court', 'ВКС', '--type', 'bulgarian_laws_regulations', QUERY], { env });
    expect(json.exitCode).toBe(2);
    // The contract's code for rule 1, though the request never left: the service would refuse it the same way.
    expect(JSON.parse(json.stderr).error).toMatchObject({ kind: 'usage', code: 'invalid_request', exit_code: 2 });
    const date = await runPravo(['search', '--court', 'ВКС', '--from', '2024-13-01', QUERY], { env });
    expect(JSON.parse((await runPravo(['search', '--json', '--from', '2024-13-01', QUERY], { env })).stderr).error.code).toBeNull();
    expect(date.exitCode).toBe(2);
    expect(server.requests).toHaveLength(0);
  });

  it('a catalog that cannot be fetched: exit 2 saying --court then needs a code, and why; the search never sent', async () => {
    const server = await serveRaw((r) =>
      r.url === '/v1/catalog/courts'
        ? { status: 501, body: JSON.stringify({ error: { code: 'not_implemented', message: 'GET /v1/catalog/courts is not implemented' } }) }
        : { status: 200, body: EMPTY },
    );
    const result = await runPravo(['search', '--court', 'ВКС', QUERY], { env });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('--court "ВКС" names a court, and the courts catalog to look it up in could not be fetched');
    expect(result.stderr).toContain('GET /v1/catalog/courts is not implemented');
    expect(result.stderr).toContain("Give the court's code instead");
    expect(searches(server)).toHaveLength(0);
    // With the code, no catalog is needed.
    expect((await runPravo(['search', '--court', '1', QUERY], { env })).exitCode).toBe(0);
  });

  it('a rejected key is reported as such (exit 4), not as a --court problem', async () => {
    await serveRaw(() => ({ status: 401, body: JSON.stringify({ error: { code: 'invalid_api_key', message: 'unknown key' } }) }));
    const result = await runPravo(['search', '--court', 'ВКС', QUERY], { env });
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toMatch(/Authentication failed/);
  });
});

describe('pravo search --type: checked against the source-types catalog', () => {
  it('a mistyped type: did you mean, exit 2, the search never sent', async () => {
    const server = await serve();
    const result = await runPravo(['search', '--type', 'high_court_cases', QUERY], { env });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('--type high_court_cases is not a source type of the catalog; did you mean high_courts_cases?');
    // The catalog was asked, so the advice says what was not sent rather than "Nothing was sent".
    expect(result.stderr).toMatch(/^The search was not sent. See `pravo search --help`.$/m);
    expect(result.stderr).not.toMatch(/Nothing was sent/);
    expect(searches(server)).toHaveLength(0);
  });

  it('a type nothing like the catalog: the types it lists', async () => {
    await serve();
    const result = await runPravo(['search', '--type', 'eu_law', QUERY], { env });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(
      '--type eu_law is not a source type of the catalog, which lists bulgarian_laws_regulations and high_courts_cases; see `pravo catalog source-types`.',
    );
  });

  it('a known type is sent; a catalog that cannot be fetched blocks nothing (the server decides)', async () => {
    const ok = await serve();
    expect((await runPravo(['search', '--type', 'high_courts_cases', QUERY], { env })).exitCode).toBe(0);
    expect(JSON.parse(searches(ok)[0]!.body).source_types).toEqual(['high_courts_cases']);

    fs.rmSync(path.join(root, 'cache'), { recursive: true, force: true });
    const down = await serveRaw((r) => (r.url === '/v1/catalog/source-types' ? { status: 500, body: 'down' } : { status: 200, body: EMPTY }));
    const result = await runPravo(['search', '--type', 'high_court_cases', QUERY], { env });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(searches(down)[0]!.body).source_types).toEqual(['high_court_cases']);
  });

  it('a type the cached copy does not list is asked for again once: a new type is then accepted', async () => {
    let types = [{ id: 'bulgarian_laws_regulations', case_law: false }];
    const server = await serveRaw((r) =>
      r.url === '/v1/catalog/source-types' ? { status: 200, body: JSON.stringify({ source_types: types }) } : { status: 200, body: EMPTY },
    );
    expect((await runPravo(['search', '--type', 'bulgarian_laws_regulations', QUERY], { env })).exitCode).toBe(0);
    types = [...types, { id: 'eu_law', case_law: false }];
    const result = await runPravo(['search', '--type', 'eu_law', QUERY], { env });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(server.requests.map((r) => r.url)).toEqual(['/v1/catalog/source-types', '/v1/search', '/v1/catalog/source-types', '/v1/search']);
  });

  it('rule 1 for a type the contract does not name: --court with only types the catalog marks as not case law', async () => {
    const server = await serveRaw((r) => {
      if (r.url === '/v1/catalog/source-types') return { status: 200, body: JSON.stringify({ source_types: [{ id: 'eu_law', case_law: false }, { id: 'high_courts_cases', case_law: true }] }) };
      return { status: 200, body: EMPTY };
    });
    const result = await runPravo(['search', '--type', 'eu_law', '--court', '1', QUERY], { env });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('--court applies to court decisions only, but --type selects only eu_law, which hold none; add --type high_courts_cases or drop --court.');
    expect(searches(server)).toHaveLength(0);
    const json = await runPravo(['search', '--json', '--type', 'eu_law', '--court', '1', QUERY], { env });
    expect(JSON.parse(json.stderr).error.code).toBe('invalid_request');
  });
});

describe('pravo search: decision rows', () => {
  /** A decision result shaped as the sandbox returns them; synthetic, its title says it is test data. */
  const DECISION = JSON.stringify({
    query: QUERY,
    result_count: 1,
    results: [
      {
        document_id: 'test-vks-1',
        collection: 'c_test',
        source_type: 'high_courts_cases',
        type: 'Решение',
        title: 'Решение № 116 по н. д. № 1164/2023 г. (ТЕСТОВИ ДАННИ)',
        date: '2024-03-01',
        author: 'Върховен касационен съд',
        url: 'https://example.invalid/vks',
        score: 1,
        court_id: 1,
        court: 'Върховен касационен съд',
        decision_number: '116',
        case_number: '1164/2023',
        reporting_judge: 'Христина Михова',
        excerpts: [{ excerpt_id: 'test-vks-1:4', label: '¶ 4', score: 1, text: 'Тестов параграф (ТЕСТОВИ ДАННИ).' }],
      },
    ],
  });

  it('on a terminal the court, act, case and rapporteur under the title; piped, court and case_number as fields 9 and 10', async () => {
    await serve(() => ({ status: 200, body: DECISION }));
    const table = await runPravo(['search', '--court', 'ВКС', QUERY], { env: { ...env, NO_COLOR: '1' }, stdoutTTY: true, columns: 120 });
    expect(table.exitCode).toBe(0);
    expect(table.stdout).toContain('Върховен касационен съд · Решение № 116 · дело № 1164/2023 · докладчик Христина Михова');
    const tsv = await runPravo(['search', '--court', 'ВКС', QUERY], { env });
    const fields = tsv.stdout.trimEnd().split('\t');
    expect(fields).toHaveLength(10);
    expect(fields.slice(8)).toEqual(['Върховен касационен съд', '1164/2023']);
    expect(fields[1]).toBe('test-vks-1');
  });
});

describe('filter messages (pure)', () => {
  const courts = realCourts();

  it('suggests the nearest source type by edit distance, case or name', () => {
    const catalog = { source_types: [{ id: 'bulgarian_laws_regulations', name: 'Закони и подзаконови нормативни актове', case_law: false, document_count: 1 }, { id: 'high_courts_cases', name: 'Съдебна практика', case_law: true, document_count: 1 }] };
    expect(suggestSourceType('high_court_cases', catalog)).toBe('high_courts_cases');
    expect(suggestSourceType('HIGH_COURTS_CASES', catalog)).toBe('high_courts_cases');
    expect(suggestSourceType('bulgarian_law_regulation', catalog)).toBe('bulgarian_laws_regulations');
    expect(suggestSourceType('съдебна практика', catalog)).toBe('high_courts_cases');
    expect(suggestSourceType('decisions', catalog)).toBeUndefined();
    expect(sourceTypeProblems(['high_courts_cases'], catalog)).toEqual([]);
    expect(sourceTypeProblems(['x'], { source_types: [] })).toEqual([]);
  });

  it('lists at most 8 candidate courts, then how many more', () => {
    const match = resolveCourt('районен', courts);
    const message = courtMatchProblem('районен', match)!;
    expect(message).toMatch(/^--court районен fits 113 courts: .* … and 105 more; give one of the codes or a fuller name\.$/);
    const listed = message.slice(message.indexOf(': ') + 2, message.indexOf(' … and')).split(', ');
    expect(listed).toHaveLength(8);
    for (const entry of listed) expect(entry).toMatch(/^\d+ .*[Рр]айонен съд/);
    expect(courtMatchProblem('ВКС', resolveCourt('ВКС', courts))).toBeUndefined();
  });
});
