/**
 * `pravo batch` run in this process (`main()` on test streams) against a loopback server that plays the contract's
 * search and usage endpoints and can hold responses back: what is sent (and what is not) for bad input and missing
 * consent, results to stdout without `--out`, a line the server refuses, a request that may have been counted, Ctrl-C
 * with requests in flight, and the journal's refusals (another input, another target, a file pravo did not begin).
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { batchDigest, parseBatchInput } from '../../src/batch/input.js';
import { main } from '../../src/cli.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { testHost, type TestHostOptions } from '../helpers/host.js';

/** A made-up key of the live form; not a real credential. */
const KEY = 'sbx_live_TESTKEYabcdefghijklmnopqrstuvwx';

let root: string;
let env: NodeJS.ProcessEnv;
const servers: Array<() => Promise<void>> = [];

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'pravo-cmd-batch-'));
  env = { PRAVO_CONFIG_DIR: path.join(root, 'config'), PRAVO_STATE_DIR: path.join(root, 'state'), PRAVO_CACHE_DIR: path.join(root, 'cache') };
});

afterEach(async () => {
  await Promise.all(servers.splice(0).map((close) => close()));
  fs.rmSync(root, { recursive: true, force: true });
});

/** A request the server received. */
interface Received {
  method: string;
  url: string;
  query?: string;
}

/** An answer the server gives to a search: a status and body, or `hold` (answered when the test releases it). */
type SearchAnswer = { status: number; body?: unknown } | 'hold';

/**
 * A loopback server with `GET /v1/usage` (search quota 1000, 10 used) and `POST /v1/search` answered by `answer`
 * (default: 200 with one synthetic result). Held searches wait until `release()`.
 */
async function fakeService(answer: (query: string, n: number) => SearchAnswer = () => ({ status: 200 })) {
  const received: Received[] = [];
  const held: Array<() => void> = [];
  let searches = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.url === '/v1/usage') {
        received.push({ method: req.method ?? '', url: req.url });
        send(200, {
          period: { start: '2026-11-01T00:00:00.000Z', end: '2026-12-01T00:00:00.000Z', month: '2026-11' },
          quotas: { search: { used: 10, limit: 1000, remaining: 990, overage_used: 0 } },
          overage: { allowed: false, limit: 0, used: 0 },
        });
        return;
      }
      if (req.url?.startsWith('/v1/documents')) {
        received.push({ method: req.method ?? '', url: req.url });
        send(200, { document_id: 'test-act-1', collection: 'test', title: 'Закон за примерите (ТЕСТОВИ ДАННИ)', elements: [] });
        return;
      }
      const query = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { query: string }).query;
      received.push({ method: req.method ?? '', url: req.url ?? '', query });
      const reply = answer(query, ++searches);
      const ok = () =>
        send(200, {
          query,
          result_count: 1,
          results: [{ document_id: 'test-act-1', collection: 'test', title: 'Закон за примерите (ТЕСТОВИ ДАННИ)', excerpts: [] }],
        });
      if (reply === 'hold') held.push(ok);
      else if (reply.status === 200 && reply.body === undefined) ok();
      else send(reply.status, reply.body ?? {});
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  servers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return {
    url,
    received,
    searches: () => received.filter((r) => r.url === '/v1/search').map((r) => r.query),
    /** Resolves once `n` searches are held. */
    async heldCount(n: number) {
      while (held.length < n) await new Promise((resolve) => setImmediate(resolve));
    },
    release: () => held.splice(0).forEach((reply) => reply()),
  };
}

/** Runs `pravo <args>` in process against `url`. */
async function run(url: string, args: string[], options: TestHostOptions = {}) {
  const t = testHost({ ...options, env: { ...env, PRAVO_BASE_URL: url, PRAVO_API_KEY: KEY, ...options.env } });
  const code = await main(args, t.host);
  return { code, stdout: t.stdout(), stderr: t.stderr(), t };
}

/** Writes a batch input and returns its path. */
function input(lines: string[], name = 'questions.txt'): string {
  const file = path.join(root, name);
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/** The results file's line numbers, in file order. */
function resultLines(file: string): number[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => (JSON.parse(l) as { line: number }).line);
}

const QUERIES = ['неустойка при забава', 'давност на вземане', 'обезщетение при застраховка', 'обществени поръчки обжалване'];

describe('pravo batch: nothing is sent until every line is good and spending is agreed', () => {
  it('lists every bad line by number and sends nothing', async () => {
    const service = await fakeService();
    const file = input(['# comment', 'неустойка', '{"query": "ab"}', '', '{"querry": "давност"}']);
    const r = await run(service.url, ['batch', file, '--out', path.join(root, 'out.jsonl'), '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/2 lines that cannot be sent/);
    expect(r.stderr).toMatch(/line 3: query must be 3 to 2000 characters long/);
    expect(r.stderr).toMatch(/line 5: unknown field "querry"/);
    expect(service.received).toEqual([]);
    expect(fs.existsSync(path.join(root, 'out.jsonl'))).toBe(false);
  });

  it('needs --out when stdout is a terminal, and --yes when there is no terminal to ask on', async () => {
    const service = await fakeService();
    const file = input(QUERIES);
    const tty = await run(service.url, ['batch', file, '--yes'], { stdoutTTY: true });
    expect(tty.code).toBe(2);
    expect(tty.stderr).toMatch(/Give --out FILE/);
    const noYes = await run(service.url, ['batch', file, '--out', path.join(root, 'out.jsonl')]);
    expect(noYes.code).toBe(2);
    expect(noYes.stderr).toMatch(/add --yes/);
    expect(service.received).toEqual([]);
  });

  it('--dry-run reads the usage, prints the plan on stdout and sends no search', async () => {
    const service = await fakeService();
    const r = await run(service.url, ['batch', input(QUERIES), '--out', path.join(root, 'out.jsonl'), '--dry-run']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/4 to send/);
    expect(r.stdout).toMatch(/search\s+4\s+990\s+986/);
    expect(service.searches()).toEqual([]);
    expect(fs.existsSync(path.join(root, 'out.jsonl.journal'))).toBe(false);
  });
});

describe('pravo batch: results', () => {
  it('without --out, piped, writes one JSON line per query to stdout and the summary to stderr', async () => {
    const service = await fakeService();
    const r = await run(service.url, ['batch', '-', '--yes'], { input: `${QUERIES.join('\n')}\n` });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { line: number; request: { query: string }; response: { results: unknown[] } });
    expect(lines.map((l) => l.line).sort()).toEqual([1, 2, 3, 4]);
    expect(lines.find((l) => l.line === 2)!.request.query).toBe('давност на вземане');
    expect(lines[0]!.response.results).toHaveLength(1);
    expect(r.stderr).toMatch(/Every line succeeded/);
  });

  it('a line the server refuses holds the error, is not sent again by a rerun, and the exit code says not every line succeeded', async () => {
    const service = await fakeService((query) =>
      query.startsWith('давност') ? { status: 400, body: { error: { code: 'invalid_request', message: 'test refusal' } } } : { status: 200 },
    );
    const out = path.join(root, 'out.jsonl');
    const file = input(QUERIES);
    const first = await run(service.url, ['batch', file, '--out', out, '--yes', '--json']);
    expect(first.code, first.stderr).toBe(9);
    const failed = fs.readFileSync(out, 'utf8').split('\n').find((l) => l.includes('"line":2'))!;
    expect(JSON.parse(failed)).toMatchObject({ line: 2, error: { code: 'invalid_request', status: 400, message: 'test refusal' } });
    expect(JSON.parse(first.stdout)).toMatchObject({ total: 4, succeeded: 3, failed: 1, exit_code: 9 });

    const rerun = await run(service.url, ['batch', file, '--out', out, '--yes']);
    expect(rerun.code).toBe(9);
    expect(rerun.stderr).toMatch(/skipped\s+4 done before \(1 with an error\)/);
    expect(service.searches()).toHaveLength(4);
  });

  it('a search that may have been counted (a 500 after sending) is reported interrupted and sent again only with --retry-interrupted', async () => {
    let failOnce = true;
    const service = await fakeService((query) => {
      if (query.startsWith('обезщетение') && failOnce) {
        failOnce = false;
        return { status: 500, body: { error: { code: 'internal', message: 'test failure' } } };
      }
      return { status: 200 };
    });
    const out = path.join(root, 'out.jsonl');
    const file = input(QUERIES);
    const first = await run(service.url, ['batch', file, '--out', out, '--yes']);
    expect(first.code).toBe(9);
    expect(first.stderr).toMatch(/interrupted +1 \(lines 3\)/);
    expect(resultLines(out).sort()).toEqual([1, 2, 4]);

    const rerun = await run(service.url, ['batch', file, '--out', out, '--yes']);
    expect(rerun.code).toBe(9);
    expect(service.searches()).toHaveLength(4);
    expect(rerun.stderr).toMatch(/--retry-interrupted/);

    const retried = await run(service.url, ['batch', file, '--out', out, '--yes', '--retry-interrupted']);
    expect(retried.code, retried.stderr).toBe(0);
    expect(service.searches()).toHaveLength(5);
    expect(resultLines(out).sort()).toEqual([1, 2, 3, 4]);
  });
});

describe('pravo batch: stopping and resuming', () => {
  it('Ctrl-C sends nothing new, lets the searches in flight finish and keeps them; a rerun sends the rest', async () => {
    const service = await fakeService((_query, n) => (n <= 2 ? 'hold' : { status: 200 }));
    const out = path.join(root, 'out.jsonl');
    const file = input(QUERIES);
    const t = testHost({ env: { ...env, PRAVO_BASE_URL: service.url, PRAVO_API_KEY: KEY } });
    const running = main(['batch', file, '--out', out, '--yes'], t.host);
    await service.heldCount(2);
    t.signal('SIGINT');
    await new Promise((resolve) => setImmediate(resolve));
    service.release();
    expect(await running).toBe(130);
    expect(t.stderr()).toMatch(/Stopping: no new requests; 2 in flight finish first/);
    expect(service.searches()).toHaveLength(2);
    expect(resultLines(out).sort()).toEqual([1, 2]);
    expect(t.exits).toEqual([]);

    const rerun = await run(service.url, ['batch', file, '--out', out, '--yes']);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(service.searches()).toEqual(QUERIES);
    expect(resultLines(out).sort()).toEqual([1, 2, 3, 4]);
  });

  it('refuses to continue a journal of another input unless --restart, which keeps the old files aside', async () => {
    const service = await fakeService();
    const out = path.join(root, 'out.jsonl');
    expect((await run(service.url, ['batch', input(QUERIES), '--out', out, '--yes'])).code).toBe(0);
    const changed = input([...QUERIES, 'нова заявка за търсене']);
    const refused = await run(service.url, ['batch', changed, '--out', out, '--yes']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/The input has changed since the batch writing .* began/);
    expect(service.searches()).toHaveLength(4);

    const restarted = await run(service.url, ['batch', changed, '--out', out, '--yes', '--restart']);
    expect(restarted.code, restarted.stderr).toBe(0);
    expect(resultLines(out)).toHaveLength(5);
    const kept = fs.readdirSync(root).filter((name) => name.includes('.before-restart-'));
    expect(kept).toHaveLength(2);
  });

  it('refuses to append to a file it did not begin, and to continue a batch of another profile', async () => {
    const service = await fakeService();
    const out = path.join(root, 'out.jsonl');
    fs.writeFileSync(out, 'my own notes\n');
    const stray = await run(service.url, ['batch', input(QUERIES), '--out', out, '--yes']);
    expect(stray.code).toBe(2);
    expect(stray.stderr).toMatch(/already exists and has no journal beside it/);
    expect(fs.readFileSync(out, 'utf8')).toBe('my own notes\n');

    const other = path.join(root, 'other.jsonl');
    expect((await run(service.url, ['batch', input(QUERIES), '--out', other, '--yes'])).code).toBe(0);
    const elsewhere = await run(service.url, ['--profile', 'work', 'batch', input(QUERIES), '--out', other, '--yes']);
    expect(elsewhere.code).toBe(2);
    expect(elsewhere.stderr).toMatch(/began against profile "default"; continue it there by adding --profile default/);
    expect(service.searches()).toHaveLength(4);
  });
});

describe('pravo batch --fetch-docs', () => {
  it('retrieves each line\'s top documents once, from the cache after that, and never again one an earlier run retrieved', async () => {
    const service = await fakeService();
    const out = path.join(root, 'docs.jsonl');
    const file = input(QUERIES.slice(0, 2));
    const first = await run(service.url, ['batch', file, '--out', out, '--fetch-docs', '1', '--yes']);
    expect(first.code, first.stderr).toBe(0);
    // Both searches found the same synthetic document: retrieved once, then taken from the cache.
    expect(service.received.filter((r) => r.url.startsWith('/v1/documents'))).toHaveLength(1);
    expect(first.stderr).toMatch(/units spent +search 2, retrieval 1/);
    const lines = fs.readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { documents: Array<{ from_cache: boolean; response: { title: string } }> });
    expect(lines.map((l) => l.documents[0]!.from_cache).sort()).toEqual([false, true]);
    expect(lines[0]!.documents[0]!.response.title).toBe('Закон за примерите (ТЕСТОВИ ДАННИ)');
  });

  it('a line killed after its search and its document retrieval, with the cache emptied since, is finished without spending again', async () => {
    const service = await fakeService();
    const out = path.join(root, 'resumed.jsonl');
    const file = input(QUERIES.slice(0, 1));
    const items = parseBatchInput(fs.readFileSync(file, 'utf8')).items;
    const at = '2026-11-22T00:00:00.000Z';
    const searched = JSON.stringify({
      query: QUERIES[0],
      result_count: 1,
      results: [{ document_id: 'test-act-1', collection: 'test', title: 'Закон за примерите (ТЕСТОВИ ДАННИ)', excerpts: [] }],
    });
    const journal = [
      { type: 'batch', version: 1, digest: batchDigest(items), mode: 'search', fetch_docs: 1, items: 1, target: { sandbox: false, profile: 'default', base_url: service.url }, created_at: at },
      { type: 'sent', line: 1, what: 'search', at },
      { type: 'searched', line: 1, response: searched, at },
      { type: 'sent', line: 1, what: 'document', document_id: 'test-act-1', collection: 'test', at },
      { type: 'retrieved', line: 1, document_id: 'test-act-1', collection: 'test', at },
    ];
    fs.writeFileSync(`${out}.journal`, journal.map((r) => `${JSON.stringify(r)}\n`).join(''));
    const r = await run(service.url, ['batch', file, '--out', out, '--fetch-docs', '1', '--yes']);
    expect(r.stderr).toMatch(/1 searched before, documents to retrieve/);
    expect(service.received.filter((q) => q.url !== '/v1/usage')).toEqual([]);
    const line = JSON.parse(fs.readFileSync(out, 'utf8')) as { line: number; response: unknown; documents: Array<{ error?: { code: string } }> };
    expect(line.response).toEqual(JSON.parse(searched));
    expect(line.documents[0]!.error?.code).toBe('not_in_cache');
    expect(r.code).toBe(9);
  });
});


describe('pravo batch: a damaged journal or results file spends nothing twice and is no success', () => {
  /** The journal of a search batch over `file` against `service`, with `records` after the header, one per line. */
  function writeJournal(out: string, file: string, url: string, records: Array<Record<string, unknown> | string>): void {
    const items = parseBatchInput(fs.readFileSync(file, 'utf8')).items;
    const header = { type: 'batch', version: 1, digest: batchDigest(items), mode: 'search', fetch_docs: 0, items: items.length, target: { sandbox: false, profile: 'default', base_url: url }, created_at: AT };
    fs.writeFileSync(`${out}.journal`, [header, ...records].map((r) => `${typeof r === 'string' ? r : JSON.stringify(r)}\n`).join(''));
  }
  const AT = '2026-11-22T00:00:00.000Z';
  const searched = (line: number) => [
    { type: 'sent', line, what: 'search', at: AT },
    { type: 'done', line, ok: true, at: AT },
  ];
  const resultLine = (line: number) => `${JSON.stringify({ line, request: { query: QUERIES[line - 1] }, response: { query: QUERIES[line - 1], result_count: 0, results: [] } })}\n`;

  it('a record in the middle that cannot be read makes the lines it may concern interrupted: listed, sent only with --retry-interrupted', async () => {
    const service = await fakeService();
    const out = path.join(root, 'damaged.jsonl');
    const file = input(QUERIES);
    // Lines 1 and 2 done; then a record damaged beyond reading its line (it may have been the search of line 3 or 4).
    writeJournal(out, file, service.url, [...searched(1), ...searched(2), '\u0000\u0000\u0000{"type":"se', { type: 'unsent', line: 4, what: 'search', reason: 'monthly_quota_exceeded', at: AT }]);
    fs.writeFileSync(out, resultLine(1) + resultLine(2));

    const rerun = await run(service.url, ['batch', file, '--out', out, '--yes']);
    expect(rerun.stderr).toMatch(/Warning: 1 record of .*damaged\.jsonl\.journal cannot be read \(line 6 of the file; was it edited or damaged\?\)/);
    expect(rerun.stderr).toMatch(/every line not done .* reported interrupted, and sent again only with --retry-interrupted/);
    expect(rerun.stderr).toMatch(/interrupted +2 \(lines 3–4\)/);
    expect(rerun.stderr).not.toContain('Every line succeeded');
    expect(rerun.code).toBe(9);
    expect(service.searches()).toEqual([]);

    const retried = await run(service.url, ['batch', file, '--out', out, '--yes', '--retry-interrupted']);
    expect(retried.code, retried.stderr).toBe(0);
    expect(service.searches()).toEqual(QUERIES.slice(2));
    expect(resultLines(out).sort()).toEqual([1, 2, 3, 4]);
  });

  it('a journal whose first record cannot be read is refused: which batch it records is unknown', async () => {
    const service = await fakeService();
    const out = path.join(root, 'headless.jsonl');
    const file = input(QUERIES);
    fs.writeFileSync(`${out}.journal`, `{"type":"batch","vers\u0000\n${searched(1).map((r) => JSON.stringify(r)).join('\n')}\n`);
    const refused = await run(service.url, ['batch', file, '--out', out, '--yes']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/The first record of .*headless\.jsonl\.journal cannot be read .* Add --restart to begin anew/);
    expect(service.received).toEqual([]);
  });

  it('a line marked done whose result is missing from the results file is no success: listed, exit 9, sent again only when asked', async () => {
    const service = await fakeService();
    const out = path.join(root, 'edited.jsonl');
    const file = input(QUERIES);
    writeJournal(out, file, service.url, [1, 2, 3, 4].flatMap(searched));
    // Line 3's result was removed from the results file (edited by hand).
    fs.writeFileSync(out, resultLine(1) + resultLine(2) + resultLine(4));

    const rerun = await run(service.url, ['batch', file, '--out', out, '--yes']);
    expect(rerun.stderr).toMatch(/Warning: 1 line marked done in .*edited\.jsonl\.journal is missing from .*edited\.jsonl \(was it edited\?\): line 3\. They do not count as succeeded/);
    expect(rerun.stderr).toMatch(/missing +1 \(lines 3\): marked done, but their results are not in the file; a rerun with --retry-interrupted sends them again/);
    expect(rerun.stderr).not.toContain('Every line succeeded');
    expect(rerun.code).toBe(9);
    expect(service.searches()).toEqual([]);

    const json = await run(service.url, ['batch', file, '--out', out, '--yes', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ missing: [3], skipped: 3, exit_code: 9 });

    const retried = await run(service.url, ['batch', file, '--out', out, '--yes', '--retry-interrupted']);
    expect(retried.code, retried.stderr).toBe(0);
    expect(retried.stderr).toContain('Every line succeeded');
    expect(service.searches()).toEqual([QUERIES[2]]);
    expect(resultLines(out).sort()).toEqual([1, 2, 3, 4]);
  });
});

describe('pravo batch: progress on a terminal', () => {
  const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

  it('shows done / total, the rate and the time left on stderr when it is a terminal, and clears it at the end', async () => {
    const service = await fakeService();
    const out = path.join(root, 'progress.jsonl');
    const r = await run(service.url, ['batch', input(QUERIES), '--out', out, '--yes'], { stderrTTY: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/Batch \[█+\] 100% 4\/4 lines/);
    // Cleared before the summary: the line is erased, and the summary starts on a clean line.
    const uncoloured = r.stderr.replace(/\u001b\[[0-9;]*m/g, '');
    const beforeSummary = uncoloured.slice(0, uncoloured.indexOf('Batch of 4 queries'));
    expect(beforeSummary).toMatch(/\u001b\[0?K(\u001b\[\?25h)?$/);
  });

  it('shows nothing of it when stderr is not a terminal', async () => {
    const service = await fakeService();
    const r = await run(service.url, ['batch', input(QUERIES), '--out', path.join(root, 'piped.jsonl'), '--yes']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('Batch [');
    expect(r.stderr).not.toMatch(ANSI);
  });

  it('moves the rate and the time left with the clock while a line is in flight, and clears it on Ctrl-C', async () => {
    const service = await fakeService((_query, n) => (n === 2 ? 'hold' : { status: 200 }));
    const clock = new FakeClock(Date.parse('2026-11-22T10:00:00Z'));
    const t = testHost({ env: { ...env, PRAVO_BASE_URL: service.url, PRAVO_API_KEY: KEY }, stderrTTY: true, clock });
    const running = main(['batch', input(QUERIES.slice(0, 2)), '--out', path.join(root, 'ticking.jsonl'), '--yes', '--concurrency', '1'], t.host);
    await service.heldCount(1);
    await vi.waitFor(() => expect(t.stderr()).toContain('1/2 lines'), { timeout: 10_000, interval: 2 });
    await clock.advance(10_000);
    // One line in 10 s: 6 a minute, 10 s left for the other.
    expect(t.stderr().replace(ANSI, '')).toContain('Batch [██████████░░░░░░░░░░]  50% 1/2 lines · 6.0/min · ETA 10s');
    t.signal('SIGINT');
    await vi.waitFor(() => expect(t.stderr()).toContain('Stopping: no new requests'), { timeout: 10_000, interval: 2 });
    const beforeStopping = t.stderr().slice(0, t.stderr().indexOf('Stopping:'));
    expect(beforeStopping).toMatch(/\u001b\[0?K(\u001b\[\?25h)?$/);
    service.release();
    expect(await running).toBe(130);
    expect(clock.pendingTimers()).toBe(0);
  });
});
