/**
 * `pravo search` end to end: the built CLI against the sandbox over the real statutes, decisions and courts (started by
 * the global setup), and against a recording server where the point is what is (not) sent.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CLI } from './paths.js';
import { hasAnsi, pravo, tempDir } from './helpers.js';
import { recordingServer } from '../helpers/recording-server.js';

const INSURANCE_QUERY = 'застрахователят отказва да изплати обезщетение';
const sandbox = inject('sandbox');

describe('pravo search against the sandbox', () => {
  const config = tempDir('search-config');
  const env = () => ({ PRAVO_CONFIG_DIR: config.dir, PRAVO_BASE_URL: sandbox.baseUrl, PRAVO_API_KEY: sandbox.apiKey });
  afterAll(() => config.cleanup());

  it('ranks Кодекс за застраховането first for an insurer refusing to pay, with its articles', async () => {
    const result = await pravo(['search', INSURANCE_QUERY], { env: env() });
    expect(result.exitCode).toBe(0);
    const lines = result.stdout.trim().split('\n');
    const first = lines[0]!.split('\t');
    expect(first[0]).toBe('1');
    expect(first[6]).toBe('Кодекс за застраховането');
    expect(first[7]).toMatch(/^Чл\. \d+/);
  });

  it('takes the act a lawyer names, by its adjective or its title alone: the act first, at the article', async () => {
    for (const [query, title, label] of [
      ['чл. 49 от Семейния кодекс', 'Семеен кодекс', 'Чл. 49.'],
      ['чл. 124 от гражданския процесуален кодекс', 'Граждански процесуален кодекс', 'Чл. 124.'],
      ['Закон за ограничаване на плащанията в брой', 'Закон за ограничаване на плащанията в брой', 'Чл. 1.'],
    ]) {
      const first = (await pravo(['search', '-n', '3', query!], { env: env() })).stdout.split('\n')[0]!.split('\t');
      expect([first[6], first[7]!.split('; ')[0]], query).toEqual([title, label]);
    }
  });

  it('prints one tab-separated line per result when piped, with no colour and no spinner', async () => {
    const result = await pravo(['search', '-n', '5', 'обществени поръчки обжалване'], { env: env() });
    expect(result.exitCode).toBe(0);
    // Not trim(): a statute's line ends in the two empty court fields; a decision's (the corpus holds ВАС decisions
    // on public procurement) names its court and its case.
    const lines = result.stdout.replace(/\n$/, '').split('\n');
    expect(lines).toHaveLength(5);
    for (const [i, line] of lines.entries()) {
      const fields = line.split('\t');
      expect(fields).toHaveLength(10);
      if (!['Решение', 'Определение'].includes(fields[5]!)) expect(fields.slice(8), line).toEqual(['', '']);
      else expect([fields[8], fields[9]], line).toEqual([expect.stringMatching(/съд$/), expect.stringMatching(/^\d+\/\d{4}$/)]);
      expect(fields[0]).toBe(String(i + 1));
      expect(fields[4]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
    expect(hasAnsi(result.stdout + result.stderr)).toBe(false);
    expect(result.stderr).not.toMatch(/Searching/);
  });

  it('--json prints the server response exactly, with every field the spec names', async () => {
    const result = await pravo(['search', '--json', '-n', '7', INSURANCE_QUERY], { env: env() });
    expect(result.exitCode).toBe(0);
    const direct = await fetch(`${sandbox.baseUrl}/v1/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': sandbox.apiKey },
      body: JSON.stringify({ query: INSURANCE_QUERY, max_results: 7 }),
    });
    expect(result.stdout).toBe(await direct.text());

    const response = JSON.parse(result.stdout);
    expect(response.query).toBe(INSURANCE_QUERY);
    expect(response.result_count).toBe(7);
    expect(response.results).toHaveLength(7);
    for (const r of response.results) {
      for (const field of ['document_id', 'collection', 'type', 'title', 'date', 'author', 'url', 'excerpts', 'score', 'explanation']) {
        expect(r, field).toHaveProperty(field);
      }
      expect(r).not.toHaveProperty('elements');
      expect(r.excerpts.length).toBeGreaterThan(0);
      for (const e of r.excerpts) {
        expect(typeof e.excerpt_id).toBe('string');
        expect(typeof e.score).toBe('number');
        expect(typeof e.text).toBe('string');
      }
    }
    expect(response.results[0].document_id).toBe('act-15535');
    expect(response.results[0].explanation).toMatch(/обезщетение/);
  });

  it('answers a valid query with no matches with zero results and exit 0', async () => {
    const result = await pravo(['search', '--json', 'ксилофонзюмбюлщъркел'], { env: env() });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ result_count: 0, results: [] });
  });

  it('finds real court decisions with --type high_courts_cases, each with its court and case number', async () => {
    const result = await pravo(['search', '--json', '--type', 'high_courts_cases', 'касационна жалба срещу присъдата наказание'], { env: env() });
    expect(result.exitCode, result.stderr).toBe(0);
    const response = JSON.parse(result.stdout) as { results: Record<string, unknown>[] };
    expect(response.results.length).toBeGreaterThan(0);
    expect(response.results.every((r) => r.source_type === 'high_courts_cases')).toBe(true);
    const vks = response.results.filter((r) => r.court_id === 1);
    expect(vks.length).toBeGreaterThan(0);
    for (const r of vks) expect(r).toMatchObject({ court: 'Върховен касационен съд', case_number: expect.stringMatching(/^\d+\/\d{4}$/) });
  });

  it('says on stderr why a search limited to court decisions finds nothing in a corpus of statutes only (exit 0)', async () => {
    // A corpus without decisions: made-up acts, each titled as test data.
    const statutesOnly = tempDir('statutes-only');
    const corpus = path.join(statutesOnly.dir, 'laws.jsonl');
    const act = (n: number) => ({
      document_id: `test-${n}`,
      source_type: 'bulgarian_laws_regulations',
      type: 'Закон',
      title: `ТЕСТОВИ ДАННИ: Закон за застрахователите на облаци ${n}`,
      date: '2020-01-01',
      elements: [{ ref: '1', label: 'Чл. 1.', text: 'Застрахователят отказва да изплати обезщетение, когато облакът се разсее.' }],
    });
    fs.writeFileSync(corpus, `${JSON.stringify(act(1))}\n${JSON.stringify(act(2))}\n`);
    const sandboxEnv = { PRAVO_CONFIG_DIR: config.dir, PRAVO_SANDBOX_CORPUS: corpus, PRAVO_SANDBOX_DATA_DIR: path.join(statutesOnly.dir, 'data') };
    const note = new RegExp(
      `^No results for „${INSURANCE_QUERY}“: (the service holds no documents of type high_courts_cases|--judge selects court decisions, and the service holds none); nothing could match\\.$`,
      'mu',
    );
    for (const args of [['--type', 'high_courts_cases'], ['--judge', 'Иванова']]) {
      const result = await pravo(['search', '--sandbox', ...args, INSURANCE_QUERY], { env: sandboxEnv });
      expect(result.exitCode, args.join(' ')).toBe(0);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(note);
    }
    const json = await pravo(['search', '--sandbox', '--json', '-t', 'high_courts_cases', INSURANCE_QUERY], { env: sandboxEnv });
    statutesOnly.cleanup();
    expect(json.exitCode).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ query: INSURANCE_QUERY, result_count: 0, results: [], no_results_reason: { kind: 'no_documents' } });
    expect(json.stderr).toMatch(note);
  });

  it("piped, a ВКС search that finds nothing says why on stderr (the court's 12 decisions, all criminal; the statutes and other courts' decisions that hold the words), stdout empty", async () => {
    const result = await pravo(['search', '--court', 'ВКС', 'неустойка договор'], { env: env() });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^No results for „неустойка договор“: of 475 documents, --court leaves 12 \(Върховен касационен съд; 2015–2024; [^)]*наказателно отделение[^)]*\), and none of them holds the query's words\. Outside this filter, \d+ documents hold words of the query \(bulgarian_laws_regulations \d+, high_courts_cases \d+; Върховен административен съд \d+, Конституционен съд \d+\): widen or drop --court to see them\.$/m);
  });

  it('keeps the last results so that result N can be opened later, document_id and collection unchanged', async () => {
    const result = await pravo(['search', '--json', '-n', '3', INSURANCE_QUERY], { env: env() });
    const response = JSON.parse(result.stdout);
    // In the state directory (PRAVO_STATE_DIR), private to the user, not beside the config file.
    const file = path.join(config.dir, 'state', 'last-results.json');
    const stored = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.existsSync(path.join(config.dir, 'last-results.json'))).toBe(false);
    expect(stored.query).toBe(INSURANCE_QUERY);
    expect(stored.results).toHaveLength(3);
    expect(stored.results[2]).toMatchObject({
      rank: 3,
      document_id: response.results[2].document_id,
      collection: response.results[2].collection,
    });
  });

  it('filters by date: every result lies inside --from/--to', async () => {
    const result = await pravo(['search', '--json', '--from', '2020-01-01', '--to', '2021-12-31', 'данък добавена стойност'], { env: env() });
    expect(result.exitCode).toBe(0);
    const response = JSON.parse(result.stdout);
    expect(response.results.length).toBeGreaterThan(0);
    for (const r of response.results) {
      expect(r.date >= '2020-01-01' && r.date <= '2021-12-31').toBe(true);
    }
  });

  it('reports a wrong key as an authentication failure (exit 4) that retrying will not fix', async () => {
    const result = await pravo(['search', INSURANCE_QUERY], { env: { ...env(), PRAVO_API_KEY: 'sbx_live_0000000000000000000000000000dead' } });
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toMatch(/invalid_api_key/);
    expect(result.stderr).toMatch(/Retrying will not help/);
    expect(result.stderr).not.toContain('0000dead');
  });

  it('with --json, reports errors as one JSON line on stderr', async () => {
    const result = await pravo(['search', '--json', INSURANCE_QUERY], { env: { ...env(), PRAVO_API_KEY: 'sbx_live_0000000000000000000000000000dead' } });
    expect(result.exitCode).toBe(4);
    expect(result.stdout).toBe('');
    expect(JSON.parse(result.stderr)).toMatchObject({ error: { kind: 'auth', code: 'invalid_api_key', exit_code: 4 } });
  });

  it('ends quietly when the reader closes the pipe early', async () => {
    const result = await execa('bash', ['-c', `set -o pipefail; node "${CLI}" search --json -n 50 "${INSURANCE_QUERY}" | head -c 10`], {
      env: env(),
      reject: false,
    });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toHaveLength(10);
    expect(result.stderr).toBe('');
  });

  it('works with Authorization: Bearer when the profile asks for it', async () => {
    const set = await pravo(['config', 'set', 'auth-header', 'bearer', '--profile', 'proxy'], { env: { PRAVO_CONFIG_DIR: config.dir } });
    expect(set.exitCode).toBe(0);
    const result = await pravo(['search', '--profile', 'proxy', '-n', '1', INSURANCE_QUERY], { env: env() });
    expect(result.exitCode).toBe(0);
    expect(result.stdout.split('\t')[1]).toBe('act-15535');
  });
});

describe('pravo search --sandbox', () => {
  const config = tempDir('sandbox-search-config');
  afterAll(() => config.cleanup());

  it('runs the whole path in one process and prints the ranked results', async () => {
    const result = await pravo(['search', '--sandbox', '-n', '3', INSURANCE_QUERY], {
      env: { PRAVO_CONFIG_DIR: config.dir, PRAVO_SANDBOX_CORPUS: sandbox.corpus, PRAVO_SANDBOX_DATA_DIR: sandbox.dataDir },
    });
    expect(result.exitCode).toBe(0);
    expect(result.stdout.split('\n')[0]!.split('\t').slice(0, 2)).toEqual(['1', 'act-15535']);
    // The index built by the global setup is reused: no build, no progress.
    expect(result.stderr).not.toMatch(/Building/);
  });

  it('uses the corpus stored with `pravo config set sandbox-corpus`', async () => {
    const set = await pravo(['config', 'set', 'sandbox-corpus', sandbox.corpus], { env: { PRAVO_CONFIG_DIR: config.dir } });
    expect(set.exitCode).toBe(0);
    const result = await pravo(['search', '--sandbox', '-n', '1', INSURANCE_QUERY], {
      env: { PRAVO_CONFIG_DIR: config.dir, PRAVO_SANDBOX_DATA_DIR: sandbox.dataDir },
    });
    expect(result.exitCode).toBe(0);
    expect(result.stdout.split('\t')[1]).toBe('act-15535');
  });

  it('Ctrl-C while the index is being built stops at once: "Cancelled.", exit 130, no index left half-built', async () => {
    const data = tempDir('cancel-build');
    const child = execa('node', [CLI, 'search', '--sandbox', INSURANCE_QUERY], {
      env: { PRAVO_CONFIG_DIR: config.dir, PRAVO_SANDBOX_CORPUS: sandbox.corpus, PRAVO_SANDBOX_DATA_DIR: data.dir },
      reject: false,
    });
    // Interrupt as soon as the build announces itself (the full corpus takes seconds to index).
    await new Promise<void>((resolve) => {
      let seen = '';
      child.stderr!.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        if (seen.includes('Building the search index')) resolve();
      });
    });
    child.kill('SIGINT');
    const result = await child;
    const left = fs.readdirSync(data.dir).filter((f) => f.startsWith('index-') && f.endsWith('.sqlite'));
    data.cleanup();
    expect(result.exitCode).toBe(130);
    expect(String(result.stderr)).toMatch(/Cancelled\./);
    expect(String(result.stderr)).not.toMatch(/bug in pravo/);
    expect(result.stdout).toBe('');
    expect(left).toEqual([]);
  });

  it('without any corpus, says how to give one (exit 2)', async () => {
    const empty = tempDir('no-corpus');
    const result = await pravo(['search', '--sandbox', INSURANCE_QUERY], { env: { PRAVO_CONFIG_DIR: empty.dir } });
    empty.cleanup();
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/--corpus PATH/);
    expect(result.stderr).toMatch(/PRAVO_SANDBOX_CORPUS/);
    expect(result.stderr).toMatch(/pravo config set sandbox-corpus/);
  });
});

describe('what pravo search sends', () => {
  let server: Awaited<ReturnType<typeof recordingServer>>;
  const config = tempDir('send-config');
  const KEY = 'sbx_live_recordingrecordingrecording1234';
  const env = () => ({ PRAVO_CONFIG_DIR: config.dir, PRAVO_BASE_URL: server.url, PRAVO_API_KEY: KEY });
  beforeAll(async () => {
    server = await recordingServer();
  });
  afterAll(async () => {
    await server.close();
    config.cleanup();
  });

  it.each([
    [['ab'], /3 to 2000 characters/],
    [['-n', '51', 'трудов договор'], /--max-results takes a whole number from 1 to 50, not "51"/],
    [['-n', 'five', 'трудов договор'], /--max-results takes a whole number/],
    [['--from', '2025-02-29', 'трудов договор'], /--from takes a real calendar date written YYYY-MM-DD, e.g. 2024-06-01, not "2025-02-29"/],
    [['--from', '2025-03-01', '--to', '2025-01-01', 'трудов договор'], /--from 2025-03-01 is after --to 2025-01-01/],
    [['--court', ' ', 'трудов договор'], /--court needs a court: its code from the catalog, a name or an abbreviation/],
    [['--court', 'ВКС', '--type', 'bulgarian_laws_regulations', 'трудов договор'], /--court applies to court decisions only/],
    [['--type', 'bulgarian_laws_regulations', '--court', '5', 'трудов договор'], /--court applies to court decisions only/],
    [['--timeout', '0', 'трудов договор'], /--timeout takes a number of seconds/],
    [['--no-such-option', 'трудов договор'], /unknown option/],
  ])('refuses %j before sending anything (exit 2)', async (args, message) => {
    const before = server.requests.length;
    const result = await pravo(['search', ...args], { env: env() });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(server.requests.length).toBe(before);
  });

  it('without a configured key, sends nothing and says how to store one (exit 4)', async () => {
    const before = server.requests.length;
    const result = await pravo(['search', 'трудов договор'], { env: { PRAVO_CONFIG_DIR: config.dir, PRAVO_BASE_URL: server.url } });
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toMatch(/pravo config set-key/);
    expect(server.requests.length).toBe(before);
  });

  it('sends every request field, the key in X-API-Key only, never in the URL, and never include_content', async () => {
    const before = server.requests.length;
    const result = await pravo(
      ['search', '-t', 'high_courts_cases', '-c', '12', '-c', '7', '-j', 'Иванова', '--from', '2020-01-01', '--to', '2020-12-31', '-n', '5', 'неустойка', 'прекомерна'],
      { env: env() },
    );
    expect(result.exitCode).toBe(0);
    // The source-types catalog (to check --type; this server's answer is no catalog, so the type is sent as typed),
    // the search, then (it found nothing and was limited by type) the catalog again, which may explain why (the
    // failed answer was not cached).
    const [catalog, sent, again, ...more] = server.requests.slice(before);
    expect(more).toEqual([]);
    for (const request of [catalog, again]) {
      expect(request).toMatchObject({ method: 'GET', url: '/v1/catalog/source-types' });
      expect(request!.headers['x-api-key']).toBe(KEY);
    }
    expect(sent!.method).toBe('POST');
    expect(sent!.url).toBe('/v1/search');
    expect(sent!.headers['x-api-key']).toBe(KEY);
    expect(sent!.headers.authorization).toBeUndefined();
    expect(JSON.parse(sent!.body)).toEqual({
      query: 'неустойка прекомерна',
      source_types: ['high_courts_cases'],
      court_ids: [12, 7],
      judge_name: 'Иванова',
      date_from: '2020-01-01',
      date_to: '2020-12-31',
      max_results: 5,
    });
  });

  it('refuses a base URL that carries credentials or a query string (exit 2), sending nothing', async () => {
    const before = server.requests.length;
    for (const bad of [server.url.replace('http://', 'http://user:hunter2pw@'), `${server.url}/?api_key=${KEY}`]) {
      const result = await pravo(['search', 'трудов договор'], { env: { ...env(), PRAVO_BASE_URL: bad } });
      expect(result.exitCode).toBe(2);
      expect(result.stderr).not.toContain('hunter2pw');
      expect(result.stderr).not.toContain(KEY);
    }
    expect(server.requests.length).toBe(before);
  });

  it('reports an unreachable server as a network error that sent nothing (exit 6)', async () => {
    const gone = await recordingServer();
    await gone.close();
    const result = await pravo(['search', 'трудов договор'], { env: { ...env(), PRAVO_BASE_URL: gone.url } });
    expect(result.exitCode).toBe(6);
    expect(result.stderr).toMatch(/Nothing reached the server/);
  });
});

describe('errors the server reports', () => {
  it.each([
    [429, { error: { code: 'monthly_quota_exceeded', message: 'used up' } }, 5, /quota/i],
    [401, { code: 'revoked_api_key', message: 'revoked' }, 4, /revoked/],
    [400, { error: 'invalid_request' }, 1, /rejected the request/],
    [502, '<html>Bad gateway</html>', 1, /HTTP 502/],
  ])('HTTP %i %j → exit %i', async (status, body, exitCode, message) => {
    const server = await recordingServer(() => ({ status, body: typeof body === 'string' ? body : JSON.stringify(body) }));
    const config = tempDir('server-errors');
    const result = await pravo(['search', 'трудов договор'], {
      env: { PRAVO_CONFIG_DIR: config.dir, PRAVO_BASE_URL: server.url, PRAVO_API_KEY: 'sbx_live_errorserrorserrorserrors1234' },
    });
    await server.close();
    config.cleanup();
    expect(result.exitCode).toBe(exitCode);
    expect(result.stderr).toMatch(message);
    expect(server.requests).toHaveLength(1);
  });
});

describe('Ctrl-C while waiting', () => {
  it('cancels with exit 130 and says the search may already have been counted', async () => {
    let received!: () => void;
    const arrived = new Promise<void>((resolve) => (received = resolve));
    const server = http.createServer(() => received()); // never answers
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const config = tempDir('interrupt');
    try {
      const child = execa('node', [CLI, 'search', 'трудов договор'], {
        env: {
          PRAVO_CONFIG_DIR: config.dir,
          PRAVO_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
          PRAVO_API_KEY: 'sbx_live_interruptinterruptinterrupt12',
        },
        reject: false,
      });
      await arrived;
      child.kill('SIGINT');
      const result = await child;
      expect(result.exitCode).toBe(130);
      expect(result.stderr).toMatch(/Cancelled/);
      expect(result.stderr).toMatch(/may already have run/);
    } finally {
      server.closeAllConnections();
      server.close();
      config.cleanup();
    }
  });
});
