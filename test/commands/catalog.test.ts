/**
 * `pravo catalog source-types | courts | judges` run in this process (`main()` on test streams) against a loopback
 * server serving the real courts (`../shared/corpus/bg-courts.json`) and judges of the real decisions: the three output
 * forms, the response cache (a hit sends nothing, `--refresh` and expiry ask again), the options checked before
 * sending, and the server's errors.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hasControlSequences } from '../../src/shared/sanitize.js';
import { catalogServer, realCourts, SOURCE_TYPES_BODY } from '../helpers/catalog-server.js';
import { recordingServer } from '../helpers/recording-server.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { runPravo } from '../helpers/host.js';

/** A made-up key of the live form; not a real credential. */
const KEY = 'sbx_live_TESTKEYabcdefghijklmnopqrstuvwx';

let root: string;
let env: NodeJS.ProcessEnv;
const servers: { close: () => Promise<void> }[] = [];

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'pravo-cmd-catalog-'));
  env = { PRAVO_CONFIG_DIR: path.join(root, 'config'), PRAVO_STATE_DIR: path.join(root, 'state'), PRAVO_CACHE_DIR: path.join(root, 'cache') };
});

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  fs.rmSync(root, { recursive: true, force: true });
});

async function serve(...args: Parameters<typeof catalogServer>) {
  const server = await catalogServer(...args);
  servers.push(server);
  env = { ...env, PRAVO_BASE_URL: server.url, PRAVO_API_KEY: KEY };
  return server;
}

const ANSI = /\u001b\[[0-9;]*m/g;
const plain = (text: string): string => text.replace(ANSI, '');
const widest = (text: string): number => Math.max(...plain(text).split('\n').map((l) => [...l].length));

describe('pravo catalog source-types', () => {
  it('a table on a terminal, TSV when piped (id, name, case_law, document_count), --json the body exactly', async () => {
    const server = await serve();
    const table = await runPravo(['catalog', 'source-types', '--refresh'], { env, stdoutTTY: true, columns: 100 });
    expect(table.exitCode).toBe(0);
    for (const text of ['Source type', 'Case law', 'Documents', 'high_courts_cases', 'Съдебна практика на върховните съдилища', '1997']) {
      expect(table.stdout).toContain(text);
    }
    expect(plain(table.stdout)).toMatch(/high_courts_cases\s+│.*│\s+yes\s+│\s+35 │/);

    const tsv = await runPravo(['catalog', 'source-types', '--refresh'], { env });
    expect(tsv.stdout).toBe(
      'bulgarian_laws_regulations\tЗакони и подзаконови нормативни актове\tfalse\t1997\n' +
        'high_courts_cases\tСъдебна практика на върховните съдилища\ttrue\t35\n',
    );
    expect(tsv.stderr).toBe('');

    const json = await runPravo(['catalog', 'source-types', '--refresh', '--json'], { env });
    expect(json.stdout).toBe(`${SOURCE_TYPES_BODY}\n`);
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual(Array(3).fill('GET /v1/catalog/source-types'));
    expect(server.requests[0]!.headers['x-api-key']).toBe(KEY);
  });
});

describe('pravo catalog courts', () => {
  it('TSV: the 185 real courts, one per line: court_id, name, court_type, ecli_code, parent_court_id, decision_count', async () => {
    await serve();
    const result = await runPravo(['catalog', 'courts'], { env });
    expect(result.exitCode).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(185);
    expect(lines.every((l) => l.split('\t').length === 6)).toBe(true);
    expect(lines).toContain('1\tВърховен касационен съд\tВърховен касационен съд\tSC001\t\t12');
    expect(lines).toContain('0\tКонституционен съд\tКонституционен съд\tCC000\t\t12');
    expect(lines).toContain('533\tРайонен съд – Пловдив\tРайонен съд\tRC533\t530\t0');
  });

  it.each([80, 120])('a table within %i columns: code, name, type, parent, decisions', async (columns) => {
    await serve();
    const result = await runPravo(['catalog', 'courts'], { env, stdoutTTY: true, columns });
    expect(result.exitCode).toBe(0);
    expect(widest(result.stdout)).toBeLessThanOrEqual(columns);
    for (const head of ['Code', 'Name', 'Type', 'Parent', 'Decisions']) expect(result.stdout).toContain(head);
    expect(plain(result.stdout)).toMatch(/^185 courts; 35 decisions in the collection, from 3 of them/);
    const vks = plain(result.stdout).split('\n').find((l) => /│\s+1 │/.test(l));
    expect(vks).toContain('Върховен касационен съд');
    expect(vks).toMatch(/12 │$/);
    // Районен съд – Пловдив (533) appeals to Окръжен съд – Пловдив (530): named from 120 columns on.
    const plovdiv = plain(result.stdout).split('\n').find((l) => /│\s+533 │/.test(l));
    expect(plovdiv).toContain('530');
    if (columns >= 120) expect(plovdiv).toContain('530 Окръжен съд – Пловдив');
  });

  it('--json prints the body exactly, also when it comes from the cache', async () => {
    const server = await serve();
    const first = await runPravo(['catalog', 'courts', '--json'], { env });
    const second = await runPravo(['catalog', 'courts', '--json'], { env, stderrTTY: true });
    expect(first.stdout).toBe(`${server.courtsBody}\n`);
    expect(second.stdout).toBe(`${server.courtsBody}\n`);
    expect(server.requests).toHaveLength(1);
  });
});

describe('pravo catalog judges', () => {
  it('--court ВКС --search михова: the options sent as typed, the judge of the real decisions in every form', async () => {
    const server = await serve();
    const tsv = await runPravo(['catalog', 'judges', '--court', 'ВКС', '--search', 'михова'], { env });
    expect(tsv.exitCode).toBe(0);
    const url = new URL(server.requests[0]!.url, 'http://x');
    expect(url.pathname).toBe('/v1/catalog/judges');
    expect(Object.fromEntries(url.searchParams)).toEqual({ court: 'ВКС', search: 'михова' });
    const [line, ...rest] = tsv.stdout.trimEnd().split('\n');
    expect(rest).toEqual([]);
    const [name, count, latest, courts] = line!.split('\t');
    expect(name).toBe('Христина Михова');
    expect(Number(count)).toBeGreaterThan(0);
    expect(latest).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(courts).toBe('1');

    const table = await runPravo(['catalog', 'judges', '--court', 'ВКС', '--search', 'михова', '--refresh'], { env, stdoutTTY: true, columns: 80 });
    expect(plain(table.stdout)).toContain('1 judge in the decisions of Върховен касационен съд (ВКС) matching „михова“');
    for (const head of ['Judge', 'Decisions', 'Latest', 'Courts']) expect(table.stdout).toContain(head);
    expect(table.stdout).toContain('Христина Михова');
    expect(widest(table.stdout)).toBeLessThanOrEqual(80);

    const json = await runPravo(['catalog', 'judges', '--court', 'ВКС', '--search', 'михова', '--json'], { env });
    expect(JSON.parse(json.stdout)).toMatchObject({ court: { court_id: 1, name: 'Върховен касационен съд' }, judges: [{ name: 'Христина Михова' }] });
  });

  it('--limit 1 to 100 is sent; outside, or not a whole number: exit 2 and nothing sent', async () => {
    const server = await serve();
    for (const bad of ['0', '101', '-1', '2.5', 'ten', '']) {
      const result = await runPravo(['catalog', 'judges', '--limit', bad], { env });
      expect(result.exitCode, bad).toBe(2);
      expect(result.stderr).toContain(`--limit takes a whole number from 1 to 100, not "${bad}"`);
      expect(result.stderr).toContain('Nothing was sent');
    }
    expect(server.requests).toHaveLength(0);
    for (const good of ['1', '100']) {
      const result = await runPravo(['catalog', 'judges', '--limit', good], { env });
      expect(result.exitCode, good).toBe(0);
      expect(result.stdout.trimEnd().split('\n').length).toBeLessThanOrEqual(Number(good));
    }
    expect(server.requests.map((r) => new URL(r.url, 'http://x').searchParams.get('limit'))).toEqual(['1', '100']);
  });

  it('an empty --court or --search is a usage error; nothing sent', async () => {
    const server = await serve();
    const court = await runPravo(['catalog', 'judges', '--court', ' '], { env });
    expect(court.exitCode).toBe(2);
    expect(court.stderr).toMatch(/--court needs a court: a name, an abbreviation such as ВКС, or a code/);
    const search = await runPravo(['catalog', 'judges', '--search', ''], { env });
    expect(search.exitCode).toBe(2);
    expect(search.stderr).toMatch(/--search needs some text/);
    expect(server.requests).toHaveLength(0);
  });

  it('an ambiguous court: the server\'s invalid_request with its candidates, exit 1', async () => {
    await serve();
    const result = await runPravo(['catalog', 'judges', '--court', 'Пловдив'], { env });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/The server rejected the request: court "Пловдив" is ambiguous: 500 Апелативен съд – Пловдив, .*530 Окръжен съд – Пловдив/);
    expect(result.stdout).toBe('');
  });

  it('no judges: one line on a terminal, nothing when piped', async () => {
    await serve();
    const table = await runPravo(['catalog', 'judges', '--court', 'СГС'], { env, stdoutTTY: true });
    expect(table.exitCode).toBe(0);
    expect(table.stdout).toBe('No judges in the decisions of Софийски градски съд (СГС).\n');
    const tsv = await runPravo(['catalog', 'judges', '--court', 'СГС'], { env });
    expect(tsv.stdout).toBe('');
  });
});

describe('pravo catalog: the cache', () => {
  it('a fresh copy answers without a request (said on a terminal only); --refresh asks; after 24 h it asks again', async () => {
    const server = await serve();
    const clock = new FakeClock();
    const run = (args: string[], stderrTTY = false) => runPravo(['catalog', ...args], { env, clock, stderrTTY });
    const first = await run(['courts']);
    expect(server.requests).toHaveLength(1);

    await clock.advance(3 * 60 * 60 * 1000);
    const piped = await run(['courts']);
    expect(piped.stdout).toBe(first.stdout);
    expect(piped.stderr).toBe('');
    const terminal = await run(['courts'], true);
    expect(terminal.stdout).toBe(first.stdout);
    expect(terminal.stderr).toBe('From the cache, stored 3 h ago (--refresh asks the server).\n');
    expect(server.requests).toHaveLength(1);

    const refreshed = await run(['courts', '--refresh'], true);
    expect(refreshed.stderr).not.toContain('From the cache');
    expect(server.requests).toHaveLength(2);

    await clock.advance(24 * 60 * 60 * 1000);
    await run(['courts']);
    expect(server.requests).toHaveLength(3);
  });

  it('each catalog and each judges query is cached apart; PRAVO_CACHE_TTL=0 always asks', async () => {
    const server = await serve();
    for (const args of [['source-types'], ['courts'], ['judges', '--court', 'ВКС'], ['judges', '--court', 'ВАС'], ['judges', '--court', 'ВКС']]) {
      expect((await runPravo(['catalog', ...args], { env })).exitCode).toBe(0);
    }
    expect(server.requests.map((r) => decodeURIComponent(r.url))).toEqual([
      '/v1/catalog/source-types',
      '/v1/catalog/courts',
      '/v1/catalog/judges?court=ВКС',
      '/v1/catalog/judges?court=ВАС',
    ]);
    await runPravo(['catalog', 'courts'], { env: { ...env, PRAVO_CACHE_TTL: '0' } });
    expect(server.requests).toHaveLength(5);
  });

  it('a failed request is not cached: the next run asks again', async () => {
    let fail = true;
    const server = await recordingServer(() =>
      fail ? { status: 500, body: JSON.stringify({ error: { code: 'internal_error', message: 'down for a moment' } }) } : { status: 200, body: SOURCE_TYPES_BODY },
    );
    servers.push(server);
    env = { ...env, PRAVO_BASE_URL: server.url, PRAVO_API_KEY: KEY };
    const failed = await runPravo(['catalog', 'source-types'], { env });
    expect(failed.exitCode).toBe(1);
    expect(failed.stderr).toContain('down for a moment');
    fail = false;
    const ok = await runPravo(['catalog', 'source-types'], { env });
    expect(ok.exitCode).toBe(0);
    expect(ok.stdout).toContain('high_courts_cases');
  });
});

describe('pravo catalog: text from the server never controls the terminal', () => {
  it('in the tables and the TSV lines of all three catalogs', async () => {
    const hostile = '\u001b[2J\u001b]0;pwned\u0007\u009b31m\u202e\r\nx';
    const courts = realCourts().slice(0, 3).map((c) => ({ ...c, name: `${c.name}${hostile}`, court_type: `Тип${hostile}` }));
    const server = await recordingServer((r) => {
      if (r.url.startsWith('/v1/catalog/courts')) return { status: 200, body: JSON.stringify({ courts }) };
      if (r.url.startsWith('/v1/catalog/judges')) {
        return { status: 200, body: JSON.stringify({ court: { court_id: 1, name: `ВКС${hostile}` }, judges: [{ name: `Съдия${hostile}`, decision_count: 1, latest_date: `2024${hostile}`, court_ids: [1] }] }) };
      }
      return { status: 200, body: JSON.stringify({ source_types: [{ id: `t${hostile}`, name: `Име${hostile}`, case_law: true, document_count: 1 }] }) };
    });
    servers.push(server);
    env = { ...env, PRAVO_BASE_URL: server.url, PRAVO_API_KEY: KEY, NO_COLOR: '1' };
    for (const name of ['source-types', 'courts', 'judges']) {
      for (const stdoutTTY of [true, false]) {
        const result = await runPravo(['catalog', name], { env, stdoutTTY, columns: 120 });
        expect(result.exitCode, name).toBe(0);
        expect(hasControlSequences(result.stdout), `${name} ${JSON.stringify(result.stdout)}`).toBe(false);
        if (!stdoutTTY) expect(result.stdout.trimEnd().split('\n').every((l) => l.split('\t').length >= 4), name).toBe(true);
      }
    }
  });
});

describe('pravo catalog: tolerant of other field names', () => {
  it('renders courts and judges whose fields a live service names differently', async () => {
    const server = await recordingServer((r) =>
      r.url.startsWith('/v1/catalog/courts')
        ? { status: 200, body: JSON.stringify({ courts: [{ court_id: 1, name: 'Върховен касационен съд', type: 'Върховен съд', parent: null, count: 4 }, { court_id: 100, name: 'Софийски апелативен съд', parent: { id: 1 } }] }) }
        : { status: 200, body: JSON.stringify({ court: null, judges: [{ name: 'ТЕСТОВИ ДАННИ: Съдия', count: 2, last_date: '2024-01-02', courts: [{ id: 1 }, 2] }] }) },
    );
    servers.push(server);
    env = { ...env, PRAVO_BASE_URL: server.url, PRAVO_API_KEY: KEY };
    expect((await runPravo(['catalog', 'courts'], { env })).stdout).toBe('1\tВърховен касационен съд\tВърховен съд\t\t\t4\n100\tСофийски апелативен съд\t\t\t1\t\n');
    expect((await runPravo(['catalog', 'judges'], { env })).stdout).toBe('ТЕСТОВИ ДАННИ: Съдия\t2\t2024-01-02\t1,2\n');
  });
});
