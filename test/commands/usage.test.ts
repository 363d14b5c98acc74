/**
 * `pravo usage` run in this process (`main()` on test streams) against a loopback server answering `GET /v1/usage`:
 * the table on a terminal, the TSV when piped, `--json` the body exactly, usage asked every time, and the server's
 * errors with their exit codes and advice.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli.js';
import { recordingServer, type Recorded } from '../helpers/recording-server.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { runPravo, testHost } from '../helpers/host.js';

/** A made-up key of the live form; not a real credential. */
const KEY = 'sbx_live_TESTKEYabcdefghijklmnopqrstuvwx';

/** The sandbox's shape, as the server sends it (odd spacing kept: --json must not re-serialize). */
const BODY =
  '{"period":{"start":"2026-11-01T00:00:00.000Z","end":"2026-12-01T00:00:00.000Z","month":"2026-11"}, "plan":"sandbox",' +
  '"quotas":{"search":{"used":812,"limit":1000,"remaining":188,"overage_used":0},' +
  '"retrieval":{"used":3,"limit":500,"remaining":497,"overage_used":0},' +
  '"answers":{"used":12,"limit":null,"remaining":null,"overage_used":0}},' +
  '"overage":{"allowed":false,"limit":0,"used":0}}';

/** 18 November 2026, 10:00 UTC. */
const clock = (): FakeClock => new FakeClock(Date.parse('2026-11-18T10:00:00Z'));

let root: string;
let env: NodeJS.ProcessEnv;
const servers: { close: () => Promise<void> }[] = [];

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'pravo-cmd-usage-'));
  env = { PRAVO_CONFIG_DIR: path.join(root, 'config'), PRAVO_STATE_DIR: path.join(root, 'state'), PRAVO_CACHE_DIR: path.join(root, 'cache') };
});

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  fs.rmSync(root, { recursive: true, force: true });
});

async function serve(respond: (request: Recorded) => { status: number; body: string; headers?: Record<string, string> } = () => ({ status: 200, body: BODY })) {
  const server = await recordingServer(respond);
  servers.push(server);
  env = { ...env, PRAVO_BASE_URL: server.url, PRAVO_API_KEY: KEY };
  return server;
}

const ANSI = /\u001b\[[0-9;]*m/g;
const plain = (text: string): string => text.replace(ANSI, '');
const widest = (text: string): number => Math.max(...plain(text).split('\n').map((l) => [...l].length));

describe('pravo usage', () => {
  it('on a terminal: a table of the quota kinds, the period with its days left, the overage and the plan', async () => {
    const server = await serve();
    const result = await runPravo(['usage'], { env, clock: clock(), stdoutTTY: true, columns: 80 });
    expect(result.exitCode).toBe(0);
    expect(widest(result.stdout)).toBeLessThanOrEqual(80);
    const out = plain(result.stdout);
    expect(out).toMatch(/│ search +│ █+░+ │ 812 \/ 1000 +│ +81% │ +188 │/);
    expect(out).toMatch(/│ retrieval +│ ░+ │ +3 \/ 500 +│ +0% │ +497 │/);
    expect(out).toMatch(/│ answers +│ unlimited +│ +12 +│ +│ unlimited │/);
    expect(out).toContain('Period   2026-11-01 – 2026-11-30 (UTC), 13 days left\nOverage  not allowed\nPlan     sandbox\n');
    expect(result.stderr).toBe('');
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /v1/usage']);
    expect(server.requests[0]!.headers['x-api-key']).toBe(KEY);
  });

  it('search at 81 % is yellow on a colour terminal; NO_COLOR turns colour off', async () => {
    await serve();
    const coloured = await runPravo(['usage'], { env: { ...env, FORCE_COLOR: '1' }, clock: clock(), stdoutTTY: true });
    expect(coloured.stdout).toContain('\u001b[33m81%');
    const uncoloured = await runPravo(['usage'], { env: { ...env, NO_COLOR: '1' }, clock: clock(), stdoutTTY: true });
    expect(uncoloured.stdout).not.toMatch(ANSI);
  });

  it('piped: the documented TSV, one line per kind, then period, overage and plan', async () => {
    await serve();
    const result = await runPravo(['usage'], { env, clock: clock() });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(
      [
        'search\t812\t1000\t188\t81\t0',
        'retrieval\t3\t500\t497\t0\t0',
        'answers\t12\tunlimited\tunlimited\t\t0',
        'period\t2026-11-01T00:00:00.000Z\t2026-12-01T00:00:00.000Z\t2026-11\t13',
        'overage\tfalse\t0\t0',
        'plan\tsandbox',
        '',
      ].join('\n'),
    );
    expect(result.stderr).toBe('');
  });

  it('--json: the server\'s body exactly, on a terminal too', async () => {
    await serve();
    for (const stdoutTTY of [false, true]) {
      const result = await runPravo(['usage', '--json'], { env, clock: clock(), stdoutTTY });
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toBe(`${BODY}\n`);
    }
  });

  it('asks the server every time: usage is never cached', async () => {
    let used = 812;
    const server = await serve(() => ({ status: 200, body: BODY.replace('"used":812', `"used":${used}`) }));
    expect((await runPravo(['usage'], { env, clock: clock() })).stdout).toMatch(/^search\t812\t/);
    used = 1000;
    expect((await runPravo(['usage'], { env, clock: clock() })).stdout).toMatch(/^search\t1000\t1000\t188\t100\t0\n/);
    expect(server.requests).toHaveLength(2);
  });

  it('a live-service-like body renders too: kinds at the top level, aliases, quota for limit', async () => {
    await serve(() => ({ status: 200, body: JSON.stringify({ searches: { used: 40, quota: 50 }, documents: { used: 7, quota: 100 } }) }));
    const result = await runPravo(['usage'], { env, clock: clock() });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('search\t40\t50\t10\t80\t\nretrieval\t7\t100\t93\t7\t\nperiod\t\t\t\t\noverage\t\t\t\nplan\t\n');
  });

  it('a rejected key (401): exit 4, the server\'s code and what to do next on stderr, nothing on stdout', async () => {
    await serve(() => ({ status: 401, body: JSON.stringify({ error: { code: 'invalid_api_key', message: 'Unknown API key.' } }) }));
    const result = await runPravo(['usage'], { env, clock: clock() });
    expect(result.exitCode).toBe(4);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('Authentication failed (invalid_api_key): Unknown API key.');
    expect(result.stderr).toContain('The key came from PRAVO_API_KEY: correct or unset that variable');

    const json = await runPravo(['usage', '--json'], { env, clock: clock() });
    expect(json.exitCode).toBe(4);
    expect(json.stdout).toBe('');
    expect(JSON.parse(json.stderr)).toMatchObject({ error: { kind: 'auth', code: 'invalid_api_key', exit_code: 4 } });
  });

  it('no key configured: exit 4 and how to store one; nothing sent', async () => {
    const server = await serve();
    const { PRAVO_API_KEY: _unset, ...noKey } = env;
    const result = await runPravo(['usage'], { env: noKey, clock: clock() });
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain('pravo config set-key');
    expect(server.requests).toHaveLength(0);
  });

  it('a server error: exit 1 with the server\'s message and its request id; nothing on stdout', async () => {
    // 500 is not among the statuses the transport retries (429, 502, 503, 504): one request, one answer.
    await serve(() => ({
      status: 500,
      body: JSON.stringify({ error: { code: 'internal_error', message: 'usage store unavailable', request_id: 'req_usage1' } }),
      headers: { 'x-request-id': 'req_usage1' },
    }));
    const result = await runPravo(['usage'], { env, clock: clock() });
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('The server answered HTTP 500 (internal_error): usage store unavailable');
    expect(result.stderr).toContain('req_usage1');
  });

  it('a busy server (503, Retry-After: 59): says on stderr that it waits and how long, then answers', async () => {
    let busy = true;
    const server = await serve(() => {
      if (!busy) return { status: 200, body: BODY };
      busy = false;
      return { status: 503, body: JSON.stringify({ error: { code: 'service_unavailable', message: 'busy' } }), headers: { 'retry-after': '59' } };
    });
    const fake = clock();
    const t = testHost({ env, clock: fake });
    const running = main(['usage'], t.host);
    await vi.waitFor(() => expect(t.stderr()).toContain('Server busy (HTTP 503); retrying in 59s (try 2 of 3)…\n'), { timeout: 10_000, interval: 2 });
    expect(server.requests).toHaveLength(1);
    await fake.advance(59_000);
    expect(await running).toBe(0);
    expect(t.stdout()).toMatch(/^search\t812\t/);
    expect(server.requests).toHaveLength(2);
  });

  it('on a terminal the notice goes above the spinner, which goes on below it', async () => {
    let busy = true;
    await serve(() => {
      if (!busy) return { status: 200, body: BODY };
      busy = false;
      return { status: 503, body: '', headers: { 'retry-after': '5' } };
    });
    const fake = clock();
    const t = testHost({ env, clock: fake, stderrTTY: true, stdoutTTY: true });
    const running = main(['usage'], t.host);
    await vi.waitFor(() => expect(t.stderr()).toContain('Server busy (HTTP 503); retrying in 5s (try 2 of 3)…\n'), { timeout: 10_000, interval: 2 });
    await fake.advance(5_000);
    expect(await running).toBe(0);
    const err = plain(t.stderr());
    // The spinner's line was cleared before the notice and drawn again after it.
    expect(err.indexOf('Fetching usage…')).toBeLessThan(err.indexOf('Server busy'));
    expect(err.lastIndexOf('Fetching usage…')).toBeGreaterThan(err.indexOf('Server busy'));
  });

  it('a server that stays busy: the waits are bounded, and the error says when to try again', async () => {
    const server = await serve(() => ({ status: 503, body: JSON.stringify({ error: { code: 'service_unavailable', message: 'busy' } }), headers: { 'retry-after': '59' } }));
    const fake = clock();
    const t = testHost({ env, clock: fake });
    const running = main(['usage'], t.host);
    await vi.waitFor(() => expect(t.stderr()).toContain('retrying in 59s (try 2 of 3)'), { timeout: 10_000, interval: 2 });
    await fake.advance(59_000);
    expect(await running).toBe(1);
    // 59 s waited; another 59 s would pass the 90 s pravo waits in all: no third try.
    expect(server.requests).toHaveLength(2);
    expect(t.stderr()).not.toContain('try 3 of 3');
    expect(t.stderr()).toContain('The server answered HTTP 503 (service_unavailable): busy');
    expect(t.stderr()).toContain('The server asked to wait 59s: try again after that.');
  });

  it('a body that is not a JSON object: exit 1, the response named as not understood', async () => {
    await serve(() => ({ status: 200, body: '[1,2,3]' }));
    const result = await runPravo(['usage'], { env, clock: clock() });
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('The server sent a response pravo does not understand');
  });
});
