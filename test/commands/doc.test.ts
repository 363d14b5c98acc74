/**
 * `pravo doc` run in this process (`main()` on test streams) against a loopback server serving synthetic documents
 * (titles say they are test data): which document it asks for, the response cache (a cached document sends nothing),
 * its output forms, `--out`, and its errors and exit codes. The sandbox's own GET /v1/documents is tested with it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DocumentResponse } from '../../src/contract/types.js';
import { Factory } from '../../src/factory.js';
import { hasControlSequences } from '../../src/shared/sanitize.js';
import { testIOStreams } from '../../src/io/iostreams.js';
import { cacheKey, ResponseCache } from '../../src/state/cache.js';
import { saveLastResults } from '../../src/state/last-results.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { runPravo } from '../helpers/host.js';
import { testDecision, testStatute } from '../helpers/documents.js';
import { recordingServer, type Recorded } from '../helpers/recording-server.js';

/** A made-up key of the live form; not a real credential. */
const KEY = 'sbx_live_TESTKEYabcdefghijklmnopqrstuvwx';
/** A document_id and collection with every character that must be URL-encoded (synthetic). */
const AWKWARD_ID = 'тест/1 & 2?x=y#z';
const AWKWARD_COLLECTION = 'c/ш & ?# 1';

let root: string;
let env: NodeJS.ProcessEnv;
const servers: { close: () => Promise<void> }[] = [];

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'pravo-cmd-doc-'));
  env = { PRAVO_CONFIG_DIR: path.join(root, 'config'), PRAVO_STATE_DIR: path.join(root, 'state'), PRAVO_CACHE_DIR: path.join(root, 'cache') };
});

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  fs.rmSync(root, { recursive: true, force: true });
});

/** The documents the test server holds, by `document_id` and `collection`. */
type Library = Map<string, string>;
const keyOf = (documentId: string, collection: string): string => JSON.stringify([documentId, collection]);

function library(...documents: (DocumentResponse | [DocumentResponse, string])[]): Library {
  const map: Library = new Map();
  for (const entry of documents) {
    const [document, body] = Array.isArray(entry) ? entry : [entry, JSON.stringify(entry)];
    map.set(keyOf(document.document_id!, document.collection!), body);
  }
  return map;
}

/** A search response naming `documents` as results 1, 2, … (test data). */
function searchBody(documents: DocumentResponse[]): string {
  return JSON.stringify({
    query: 'тестово търсене',
    result_count: documents.length,
    results: documents.map((d, i) => ({
      document_id: d.document_id,
      collection: d.collection,
      type: d.type,
      title: d.title,
      date: d.date,
      author: d.author,
      url: d.url,
      score: 1 - i / 10,
      excerpts: [],
    })),
  });
}

/**
 * A server with the contract's GET /v1/documents over `documents` (404 `not_found` otherwise) and POST /v1/search
 * naming them; `override` answers first when it returns something.
 */
async function serve(documents: Library, override?: (r: Recorded) => { status: number; body: string } | undefined) {
  const server = await recordingServer((request) => {
    const answer = override?.(request);
    if (answer) return answer;
    const url = new URL(request.url, 'http://localhost');
    if (request.method === 'POST' && url.pathname === '/v1/search') {
      return { status: 200, body: searchBody([...documents.values()].map((body) => JSON.parse(body) as DocumentResponse)) };
    }
    if (request.method === 'GET' && url.pathname === '/v1/documents') {
      const body = documents.get(keyOf(url.searchParams.get('document_id') ?? '', url.searchParams.get('collection') ?? ''));
      if (body !== undefined) return { status: 200, body };
      return { status: 404, body: JSON.stringify({ error: { code: 'not_found', message: 'No document with this document_id in this collection.' } }) };
    }
    return { status: 404, body: JSON.stringify({ error: { code: 'not_found', message: 'no route' } }) };
  });
  servers.push(server);
  env = { ...env, PRAVO_BASE_URL: server.url, PRAVO_API_KEY: KEY };
  return server;
}

/** The GET /v1/documents requests a server received, as [document_id, collection]. */
function retrievals(server: { requests: Recorded[] }): [string | null, string | null][] {
  return server.requests
    .filter((r) => r.url.startsWith('/v1/documents'))
    .map((r) => {
      const params = new URL(r.url, 'http://localhost').searchParams;
      return [params.get('document_id'), params.get('collection')];
    });
}

describe('pravo doc: which document', () => {
  it('N is result N of the last search, sent exactly as stored (/ & ? # space Cyrillic intact)', async () => {
    const awkward = testStatute(AWKWARD_ID, AWKWARD_COLLECTION);
    const server = await serve(library(testDecision(), awkward));
    expect((await runPravo(['search', 'тестово търсене'], { env })).exitCode).toBe(0);
    const result = await runPravo(['doc', '2'], { env });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(retrievals(server)).toEqual([[AWKWARD_ID, AWKWARD_COLLECTION]]);
    const sent = server.requests.at(-1)!;
    expect(sent.url).toBe(`/v1/documents?document_id=${encodeURIComponent(AWKWARD_ID)}&collection=${encodeURIComponent(AWKWARD_COLLECTION)}`);
    expect(sent.headers['x-api-key']).toBe(KEY);
    expect(result.stdout.split('\n')[0]).toBe('1\tЧл. 1.\tЧл. 1. Този закон урежда примерните уведомления (тестов текст).');
  });

  it('a document_id with --collection is sent exactly as typed', async () => {
    const server = await serve(library(testStatute(AWKWARD_ID, AWKWARD_COLLECTION)));
    const result = await runPravo(['doc', AWKWARD_ID, '--collection', AWKWARD_COLLECTION, '--article', '3'], { env });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(retrievals(server)).toEqual([[AWKWARD_ID, AWKWARD_COLLECTION]]);
    expect(result.stdout).toBe('3\tЧл. 3.\tЧл. 3. Уведомлението съдържа име и адрес (тестов текст).\n');
  });

  it('usage errors send nothing and exit 2: no --collection, no stored results, N out of range', async () => {
    const server = await serve(library(testStatute(), testDecision()));
    const noCollection = await runPravo(['doc', 'test-act-1'], { env });
    expect(noCollection.exitCode).toBe(2);
    expect(noCollection.stderr).toContain('needs --collection C');
    expect(noCollection.stderr).toContain('Nothing was sent.');

    const noResults = await runPravo(['doc', '1'], { env });
    expect(noResults.exitCode).toBe(2);
    expect(noResults.stderr).toContain('There are no stored search results');

    await runPravo(['search', 'тестово търсене'], { env });
    const outOfRange = await runPravo(['doc', '3'], { env });
    expect(outOfRange.exitCode).toBe(2);
    expect(outOfRange.stderr).toContain('The last search, for "тестово търсене", had 2 results: give a number from 1 to 2.');

    const both = await runPravo(['doc', '1', '--article', '1', '--paragraph', '1'], { env });
    expect(both.exitCode).toBe(2);
    expect(retrievals(server)).toEqual([]);
  });

  it('a result of a search run with --sandbox is refused with the command that opens it; nothing is sent', async () => {
    const server = await serve(library(testStatute()));
    await saveLastResults(env, {
      saved_at: '2025-01-01T00:00:00.000Z',
      query: 'тестово търсене',
      profile: 'sandbox',
      sandbox: true,
      results: [{ rank: 1, document_id: 'test-act-1', collection: 'c_test', title: 'Т' }],
    });
    const result = await runPravo(['doc', '1', '--article', '4а'], { env });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('came from the sandbox (`pravo search --sandbox`), so it is opened there: run `pravo doc 1 --sandbox --article 4а`.');
    expect(server.requests).toEqual([]);
  });

  it('a result of another profile is refused with --profile; the run with it goes through', async () => {
    await serve(library(testStatute()));
    await saveLastResults(env, {
      saved_at: '2025-01-01T00:00:00.000Z',
      query: 'тестово търсене',
      profile: 'work',
      sandbox: false,
      results: [{ rank: 1, document_id: 'test-act-1', collection: 'c_test', title: 'Т' }],
    });
    const refused = await runPravo(['doc', '1'], { env });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('run `pravo doc 1 --profile work`');
    const accepted = await runPravo(['doc', '1', '--profile', 'work'], { env });
    expect(accepted.exitCode, accepted.stderr).toBe(0);
  });
});

describe('pravo doc: the cache (a retrieval spends a unit)', () => {
  it('the second doc of the same document sends nothing and says so on stderr; --refresh asks again', async () => {
    const server = await serve(library(testStatute()));
    const start = Date.UTC(2025, 0, 1, 9, 0);
    const first = await runPravo(['doc', 'test-act-1', '--collection', 'c_test'], { env, clock: new FakeClock(start) });
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.stderr).toBe('');
    expect(retrievals(server)).toHaveLength(1);

    const second = await runPravo(['doc', 'test-act-1', '--collection', 'c_test', '--article', '5'], { env, clock: new FakeClock(start + 3 * 3600_000) });
    expect(second.exitCode, second.stderr).toBe(0);
    expect(retrievals(server)).toHaveLength(1);
    expect(second.stderr).toMatch(/^From the cache: retrieved \d{4}-\d\d-\d\d \d\d:\d\d \(3 hours ago\); --refresh retrieves it again, which spends a retrieval unit\.\n$/);
    expect(second.stdout).toContain('Агенцията води регистъра');

    const refreshed = await runPravo(['doc', 'test-act-1', '--collection', 'c_test', '--refresh'], { env, clock: new FakeClock(start + 4 * 3600_000) });
    expect(refreshed.exitCode).toBe(0);
    expect(refreshed.stderr).toBe('');
    expect(retrievals(server)).toHaveLength(2);
  });

  it('after 24 hours (or PRAVO_CACHE_TTL) the cached copy is stale and the document is retrieved again', async () => {
    const server = await serve(library(testStatute()));
    const start = Date.UTC(2025, 0, 1);
    await runPravo(['doc', 'test-act-1', '--collection', 'c_test'], { env, clock: new FakeClock(start) });
    await runPravo(['doc', 'test-act-1', '--collection', 'c_test'], { env, clock: new FakeClock(start + 23 * 3600_000) });
    expect(retrievals(server)).toHaveLength(1);
    await runPravo(['doc', 'test-act-1', '--collection', 'c_test'], { env, clock: new FakeClock(start + 25 * 3600_000) });
    expect(retrievals(server)).toHaveLength(2);
    await runPravo(['doc', 'test-act-1', '--collection', 'c_test'], { env: { ...env, PRAVO_CACHE_TTL: '0' }, clock: new FakeClock(start + 26 * 3600_000) });
    expect(retrievals(server)).toHaveLength(3);
  });

  it('a cached document opened with --sandbox starts no sandbox', async () => {
    // A corpus that is not one: starting a sandbox over it would fail.
    const corpus = path.join(root, 'not-a-corpus.jsonl');
    fs.writeFileSync(corpus, 'not json\n');
    const dataDir = path.join(root, 'sandbox-data');
    const globals = { sandbox: true, corpus: [corpus] };
    const factory = new Factory({ io: testIOStreams({ env }).io, globals, clock: new FakeClock(), signal: new AbortController().signal, version: 'test' });
    const scope = await factory.cacheScope();
    const statute = testStatute();
    const cache = new ResponseCache({ dir: path.join(root, 'cache', 'responses'), now: () => Date.now() });
    await cache.set(cacheKey({ baseUrl: scope, path: '/v1/documents', query: { document_id: 'test-act-1', collection: 'c_test' } }), {
      status: 200,
      raw: JSON.stringify(statute),
    });
    const result = await runPravo(['doc', 'test-act-1', '--collection', 'c_test', '--sandbox', '--corpus', corpus, '--data-dir', dataDir, '--article', '1'], { env });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toContain('Този закон урежда примерните уведомления');
    expect(result.stderr).toContain('From the cache');
    expect(fs.existsSync(dataDir)).toBe(false);
  });
});

describe('pravo doc: output forms', () => {
  it('on a terminal: the document through the pager; a spinner on stderr while it is retrieved', async () => {
    await serve(library(testStatute()));
    const paged = path.join(root, 'paged.txt');
    const pager = path.join(root, 'test-pager.sh');
    fs.writeFileSync(pager, `#!/bin/sh\ncat > '${paged}'\n`, { mode: 0o755 });
    const result = await runPravo(['doc', 'test-act-1', '--collection', 'c_test'], { env: { ...env, PRAVO_PAGER: pager }, stdoutTTY: true, stderrTTY: true });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('Retrieving the document…');
    const text = fs.readFileSync(paged, 'utf8');
    expect(text).toContain('Закон за примерните уведомления (ТЕСТОВИ ДАННИ)');
    expect(text).toContain('8 articles');
    expect(text).toContain('Чл. 4а.');
  });

  it('--article: the article and the articles of the same act it cites, to open with --article', async () => {
    await serve(library(testStatute()));
    await runPravo(['search', 'тестово търсене'], { env });
    const result = await runPravo(['doc', '1', '--article', 'чл.2'], { env: { ...env, NO_COLOR: '1' }, stdoutTTY: true, columns: 100 });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toContain('Чл. 2. (1) Уведомлението по чл. 5, ал. 2 се подава писмено.');
    expect(result.stdout).toContain(
      [
        'Refers to these articles of this act:',
        '  чл. 5     ал. 2',
        '  чл. 3',
        '  чл. 4',
        '  чл. 4а',
        '  чл. 44а   (not in this document)',
        'Open one with: pravo doc 1 --article 5',
        '1 citation of other acts (… от Закона за …, НПК) is not listed.',
      ].join('\n'),
    );
    // чл. 12 от Закона за измислените срокове is another act's.
    expect(result.stdout).not.toMatch(/^ {2}чл\. 12/mu);
  });

  it('a ref that repeats: the first, and on stderr how to print the other', async () => {
    await serve(library(testStatute()));
    const first = await runPravo(['doc', 'test-act-1', '--collection', 'c_test', '--article', '4'], { env });
    expect(first.stdout).toBe('4\tЧл. 4.\tЧл. 4. Срокът за уведомяване е седем дни (тестов текст).\n');
    expect(first.stderr).toContain('2 elements of this document are numbered 4');
    expect(first.stderr).toContain('The other: --article 4~2.');
    const second = await runPravo(['doc', 'test-act-1', '--collection', 'c_test', '--article', '4~2'], { env });
    expect(second.stdout).toContain('Това е член на друг закон');
  });

  it('--article that is not there: exit 2, the nearest refs, and no "Nothing was sent"', async () => {
    await serve(library(testStatute()));
    const result = await runPravo(['doc', 'test-act-1', '--collection', 'c_test', '--article', '45'], { env });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('There is no article 45 in this document. Nearby: 4а, 5, 6. It has 8 articles, 1 – 6.');
    expect(result.stderr).toContain('another --article or --paragraph spends nothing');
    expect(result.stderr).not.toContain('Nothing was sent');
  });

  it('--paragraph N of a decision; a decision prints no references', async () => {
    await serve(library(testDecision()));
    const result = await runPravo(['doc', 'test-case-1', '--collection', 'c_cases', '--paragraph', '2'], { env: { ...env, NO_COLOR: '1' }, stdoutTTY: true, columns: 100 });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toContain('¶ 2  Производството е по чл. 346 от НПК');
    expect(result.stdout).not.toContain('Refers to');
    expect(result.stdout).not.toContain('¶ 1');
  });

  it('piped: one line per element, tab-separated ref, label, text', async () => {
    await serve(library(testStatute()));
    const result = await runPravo(['doc', 'test-act-1', '--collection', 'c_test'], { env });
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(8);
    for (const line of lines) expect(line.split('\t')).toHaveLength(3);
    expect(lines.map((line) => line.split('\t')[0])).toEqual(['1', '2', '3', '4', '4а', '5', '4', '6']);
  });

  it('--json prints the server body byte for byte, also from the cache; with --article that element', async () => {
    const statute = testStatute();
    const body = `{ "zeta": 1,\n  "document_id":"test-act-1", "collection": "c_test", "elements": ${JSON.stringify(statute.elements)} }`;
    await serve(library([statute, body]));
    const fresh = await runPravo(['doc', 'test-act-1', '--collection', 'c_test', '--json'], { env });
    expect(fresh.stdout).toBe(`${body}\n`);
    const cached = await runPravo(['doc', 'test-act-1', '--collection', 'c_test', '--json'], { env });
    expect(cached.stdout).toBe(`${body}\n`);
    expect(cached.stderr).toContain('From the cache');
    const element = await runPravo(['doc', 'test-act-1', '--collection', 'c_test', '--json', '--article', '4а'], { env });
    expect(JSON.parse(element.stdout)).toEqual(statute.elements![4]);
    expect(element.stdout.trimEnd().split('\n')).toHaveLength(1);
  });

  it('--out writes the body atomically and says where on stderr; stdout stays empty', async () => {
    const statute = testStatute();
    const body = `{"document_id":"test-act-1","collection":"c_test","elements":${JSON.stringify(statute.elements)}}`;
    await serve(library([statute, body]));
    const file = path.join(root, 'out', 'doc.json');
    fs.mkdirSync(path.dirname(file));
    const result = await runPravo(['doc', 'test-act-1', '--collection', 'c_test', '--out', file], { env, stdoutTTY: true });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`Wrote the document (8 elements, JSON as the server sent it) to ${file}.\n`);
    expect(fs.readFileSync(file, 'utf8')).toBe(body);
    expect(fs.readdirSync(path.dirname(file))).toEqual(['doc.json']);

    const article = await runPravo(['doc', 'test-act-1', '--collection', 'c_test', '--article', '3', '--out', file], { env });
    expect(article.stderr).toContain(`Wrote Чл. 3. (JSON) to ${file}.`);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual(statute.elements![2]);
  });

  it('--out on a failed retrieval leaves no file; to a missing directory it sends nothing', async () => {
    const server = await serve(library(), () => ({ status: 500, body: JSON.stringify({ error: { code: 'internal_error', message: 'boom' } }) }));
    const dir = path.join(root, 'out');
    fs.mkdirSync(dir);
    const file = path.join(dir, 'doc.json');
    const failed = await runPravo(['doc', 'test-act-1', '--collection', 'c_test', '--out', file], { env });
    expect(failed.exitCode).toBe(1);
    expect(fs.readdirSync(dir)).toEqual([]);
    expect(failed.stderr).toContain('may already have run this request and counted it');

    const before = server.requests.length;
    const missing = await runPravo(['doc', 'test-act-1', '--collection', 'c_test', '--out', path.join(root, 'nowhere', 'doc.json')], { env });
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain('its directory does not exist. Nothing was sent.');
    expect(server.requests.length).toBe(before);
  });

  it('hostile text from the server reaches neither the terminal nor the TSV', async () => {
    const hostile = '\u001b]0;pwned\u0007\u001b[2J\u009b31m\u202eобърнат\r\tтаб';
    const document: DocumentResponse = {
      ...testStatute(),
      title: `Закон ${hostile} (ТЕСТОВИ ДАННИ)`,
      elements: [{ ref: '1', label: `Чл. 1.${hostile}`, text: `Чл. 1. ${hostile}\n${hostile}` }],
    };
    await serve(library(document));
    const terminal = await runPravo(['doc', 'test-act-1', '--collection', 'c_test'], { env: { ...env, NO_COLOR: '1' }, stdoutTTY: true });
    expect(terminal.exitCode).toBe(0);
    expect(hasControlSequences(terminal.stdout), JSON.stringify(terminal.stdout)).toBe(false);
    expect(terminal.stdout).toContain('обърнат');
    const piped = await runPravo(['doc', 'test-act-1', '--collection', 'c_test'], { env });
    expect(hasControlSequences(piped.stdout)).toBe(false);
    expect(piped.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(piped.stdout.split('\t')).toHaveLength(3);
  });
});

describe('pravo doc: errors from the server', () => {
  it('404 not_found: the document is not on this server, exit 1', async () => {
    await serve(library());
    const result = await runPravo(['doc', 'act-0', '--collection', 'c_test'], { env });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('The document is not on this server: No document with this document_id in this collection.');
    expect(result.stderr).toContain('the result came from another target');
    const json = await runPravo(['doc', 'act-0', '--collection', 'c_test', '--json'], { env });
    expect(json.exitCode).toBe(1);
    expect(json.stdout).toBe('');
    expect(JSON.parse(json.stderr)).toMatchObject({ error: { kind: 'not_found', code: 'not_found' } });
  });

  it('400 invalid_request: the server\'s message, exit 1; nothing is cached', async () => {
    const server = await serve(library(), () => ({ status: 400, body: JSON.stringify({ error: { code: 'invalid_request', message: 'collection is required' } }) }));
    const result = await runPravo(['doc', 'act-0', '--collection', 'c_test'], { env });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('The server rejected the request: collection is required');
    await runPravo(['doc', 'act-0', '--collection', 'c_test'], { env });
    expect(retrievals(server)).toHaveLength(2);
  });

  it('a retrieval is not retried after a 502: the service may have spent the unit', async () => {
    const server = await serve(library(), () => ({ status: 502, body: JSON.stringify({ error: { code: 'bad_gateway', message: 'upstream' } }) }));
    const result = await runPravo(['doc', 'act-0', '--collection', 'c_test'], { env });
    expect(result.exitCode).toBe(1);
    expect(retrievals(server)).toHaveLength(1);
    expect(result.stderr).toContain('may already have run this request and counted it');
  });
});
