/**
 * `pravo sandbox serve` run in this process on test streams: the ready line (key and session token), a request
 * served, the stop on SIGTERM with exit 0, `--save-to-profile`, answer jobs with `--answer-delay`, quotas with
 * `--quota` and its aliases, the overage setting with `--overage` (stored across starts), `--auth-cache-ttl`,
 * `--search-workers`, and start-up errors (bad option values among them).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UsageResponse } from '../../src/contract/types.js';
import { main } from '../../src/cli.js';
import { parseOverageOption, parseQuotaOptions, parseSearchWorkers } from '../../src/commands/sandbox/serve.js';
import { UsageError } from '../../src/errors/cli.js';
import { defaultSearchWorkers } from '../../src/sandbox/search/pool.js';
import { DEFAULT_ACCOUNT_ID, SandboxState } from '../../src/sandbox/state/store.js';
import { runPravo, testHost } from '../helpers/host.js';
import { SYNTHETIC_DOCUMENTS, writeSyntheticCorpus } from '../helpers/synthetic-corpus.js';

let root: string;
let corpus: string;

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'pravo-cmd-serve-'));
  corpus = writeSyntheticCorpus(path.join(root, 'corpus'));
});

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** Resolves with the first line written to a captured stream, polling the capture (no timers: each write wakes it). */
async function firstLine(read: () => string, stream: NodeJS.EventEmitter): Promise<string> {
  while (!read().includes('\n')) await new Promise((resolve) => stream.once('data', resolve));
  return read().split('\n')[0]!;
}

describe('pravo sandbox serve (in process)', () => {
  it('prints one JSON ready line, serves the contract, and stops on SIGTERM with exit 0', async () => {
    const env = { PRAVO_CONFIG_DIR: path.join(root, 'config'), PRAVO_STATE_DIR: path.join(root, 'state') };
    const t = testHost({ env });
    const run = main(['sandbox', 'serve', '--corpus', corpus, '--data-dir', path.join(root, 'data')], t.host);
    const ready = JSON.parse(await firstLine(t.stdout, t.host.stdout)) as { base_url: string; api_key: string; session_token: string };
    expect(Object.keys(ready)).toEqual(['base_url', 'api_key', 'session_token']);
    expect(ready.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(ready.api_key).toMatch(/^sbx_live_/);
    expect(ready.session_token).toMatch(/^sbx_sess_[0-9A-Za-z]{32}$/);
    const account = await fetch(`${ready.base_url}/v1/account`, { headers: { authorization: `Bearer ${ready.session_token}` } });
    expect(account.status).toBe(200);

    const search = await runPravo(['search', '--json', 'неустойка договор'], {
      env: { ...env, PRAVO_BASE_URL: ready.base_url, PRAVO_API_KEY: ready.api_key },
    });
    expect(search.exitCode).toBe(0);
    expect(JSON.parse(search.stdout).result_count).toBeGreaterThan(0);

    t.signal('SIGTERM');
    expect(await run).toBe(0);
    expect(t.stdout().trim().split('\n')).toHaveLength(1);
    expect(t.stderr()).toMatch(/SIGTERM: stopping/);
    expect(t.stderr()).toMatch(/stopped/);
    expect(t.stderr()).toMatch(/key key_[0-9a-f]{12} issued; session sess_[0-9a-f]{16} valid until \d{4}-\d\d-\d\dT[\d:.]+Z; keys revoked elsewhere are refused here within 60 s/);
    expect(t.stderr()).toMatch(/GET \/v1\/account 200 \d+ms session=sess_/);
    expect(t.stderr()).not.toContain(ready.api_key);
    expect(t.stderr()).not.toContain(ready.session_token);
  });

  it('with --save-to-profile, saves the base URL, key and session token to that profile and prints the profile instead', async () => {
    const configDir = path.join(root, 'config-save');
    const env = { PRAVO_CONFIG_DIR: configDir, PRAVO_STATE_DIR: path.join(root, 'state-save') };
    const bearer = await runPravo(['config', 'set', 'auth-header', 'bearer', '--profile', 'proxy'], { env });
    expect(bearer.exitCode).toBe(0);
    const t = testHost({ env });
    const run = main(['sandbox', 'serve', '--corpus', corpus, '--data-dir', path.join(root, 'data'), '--save-to-profile', 'local'], t.host);
    const ready = JSON.parse(await firstLine(t.stdout, t.host.stdout)) as Record<string, string>;
    expect(Object.keys(ready).sort()).toEqual(['base_url', 'profile']);
    expect(ready.profile).toBe('local');

    const config = JSON.parse(fs.readFileSync(path.join(configDir, 'config.json'), 'utf8')) as {
      profiles: Record<string, Record<string, string>>;
    };
    expect(config.profiles.local).toEqual({
      base_url: ready.base_url,
      api_key: expect.stringMatching(/^sbx_live_/),
      api_key_id: expect.stringMatching(/^key_/),
      session_token: expect.stringMatching(/^sbx_sess_/),
      auth_header: 'x-api-key',
    });
    expect(config.profiles.proxy).toEqual({ auth_header: 'bearer' });
    const search = await runPravo(['--profile', 'local', 'search', '--json', 'неустойка договор'], { env });
    expect(search.exitCode).toBe(0);
    expect(JSON.parse(search.stdout).result_count).toBeGreaterThan(0);

    const keys = await fetch(`${ready.base_url}/v1/keys`, { headers: { authorization: `Bearer ${config.profiles.local!.session_token}` } });
    expect(keys.status).toBe(200);

    t.signal('SIGTERM');
    expect(await run).toBe(0);
    expect(t.stderr()).toMatch(/saved base URL, key and session token to profile local/);
    for (const secret of [config.profiles.local!.api_key!, config.profiles.local!.session_token!]) {
      expect(t.stdout()).not.toContain(secret);
      expect(t.stderr()).not.toContain(secret);
    }
  });

  it('an invalid --save-to-profile name is a usage error (exit 2) before anything starts', async () => {
    const env = { PRAVO_CONFIG_DIR: path.join(root, 'config-bad-name') };
    const dataDir = path.join(root, 'data-bad-name');
    const result = await runPravo(['sandbox', 'serve', '--corpus', corpus, '--data-dir', dataDir, '--save-to-profile', '../evil'], { env });
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/--save-to-profile/);
    expect(result.stderr).toMatch(/not a valid profile name/);
    expect(fs.existsSync(dataDir)).toBe(false);
    expect(fs.existsSync(path.join(root, 'config-bad-name', 'config.json'))).toBe(false);
  });

  it('serves several --corpus inputs and counts document retrievals against --quota retrieval=1', async () => {
    const env = { PRAVO_CONFIG_DIR: path.join(root, 'config-retrieval'), PRAVO_STATE_DIR: path.join(root, 'state-retrieval') };
    const courts = path.join(root, 'test-courts.json');
    fs.writeFileSync(courts, JSON.stringify([{ court_id: 7, name: 'ТЕСТОВИ ДАННИ: Върховен съд (по файла)' }]));
    const extra = path.join(root, 'extra.jsonl');
    fs.writeFileSync(extra, `${JSON.stringify({ ...SYNTHETIC_DOCUMENTS[0], document_id: 'test-law-extra' })}\n`);
    const t = testHost({ env });
    const args = ['sandbox', 'serve', '--corpus', corpus, '--corpus', extra, '--corpus', courts, '--data-dir', path.join(root, 'data-retrieval')];
    const run = main([...args, '--quota', 'retrieval=1'], t.host);
    const ready = JSON.parse(await firstLine(t.stdout, t.host.stdout)) as { base_url: string; api_key: string };
    const get = (url: string) => fetch(`${ready.base_url}${url}`, { headers: { 'x-api-key': ready.api_key } });

    const courtsReply = (await (await get('/v1/catalog/courts')).json()) as { courts: { court_id: number; name: string; decision_count: number }[] };
    expect(courtsReply.courts.map((c) => [c.court_id, c.name, c.decision_count])).toEqual([
      [7, 'ТЕСТОВИ ДАННИ: Върховен съд (по файла)', 1],
      [8, 'ТЕСТОВИ ДАННИ: Друг съд', 1],
    ]);
    const search = (await (await fetch(`${ready.base_url}/v1/search`, {
      method: 'POST',
      headers: { 'x-api-key': ready.api_key, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'примерните договори неустойка', source_types: ['bulgarian_laws_regulations'] }),
    })).json()) as { results: { document_id: string; collection: string }[] };
    const found = search.results.find((r) => r.document_id === 'test-law-extra')!;
    const query = `/v1/documents?${new URLSearchParams({ document_id: found.document_id, collection: found.collection })}`;
    expect((await get(query)).status).toBe(200);
    expect((await get(query)).status).toBe(429);

    t.signal('SIGTERM');
    expect(await run).toBe(0);
    expect(t.stderr()).toMatch(/GET \/v1\/documents 429/);
    expect(t.stderr()).toMatch(/account acct_sandbox: plan sandbox; monthly quotas search 10000, retrieval 1, answers 1000; overage off/);
  });

  it('bad options and a missing corpus are exit 2; a malformed corpus is exit 1 naming its line', async () => {
    const env = { PRAVO_CONFIG_DIR: path.join(root, 'config2') };
    expect((await runPravo(['sandbox', 'serve', '--port', '70000'], { env })).exitCode).toBe(2);
    const none = await runPravo(['sandbox', 'serve'], { env });
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toMatch(/No sandbox corpus given/);
    const bad = path.join(root, 'bad.jsonl');
    fs.writeFileSync(bad, '{"document_id": 1}\n');
    const malformed = await runPravo(['sandbox', 'serve', '--corpus', bad, '--data-dir', path.join(root, 'data-bad')], { env });
    expect(malformed.exitCode).toBe(1);
    expect(malformed.stderr).toMatch(/line 1/);
    expect(malformed.stderr).not.toMatch(/bug in pravo/);
  });

  it.each([
    ['0', /searches run on the event loop;/, undefined],
    ['1', /searches run on 1 worker thread\(s\);/, /1 search worker\(s\) ready in \d+ ms/],
  ])('--search-workers %s: says where the searches run, and serves them', async (workers, where, ready) => {
    const env = { PRAVO_CONFIG_DIR: path.join(root, 'config'), PRAVO_STATE_DIR: path.join(root, 'state') };
    const t = testHost({ env });
    const run = main(['sandbox', 'serve', '--corpus', corpus, '--data-dir', path.join(root, 'data'), '--search-workers', workers], t.host);
    const { base_url, api_key } = JSON.parse(await firstLine(t.stdout, t.host.stdout)) as { base_url: string; api_key: string };
    const search = await fetch(`${base_url}/v1/search`, {
      method: 'POST',
      headers: { 'x-api-key': api_key, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'неустойка договор' }),
    });
    expect(search.status).toBe(200);
    expect(((await search.json()) as { result_count: number }).result_count).toBeGreaterThan(0);
    t.signal('SIGTERM');
    expect(await run).toBe(0);
    expect(t.stderr()).toMatch(where);
    if (ready) expect(t.stderr()).toMatch(ready);
    else expect(t.stderr()).not.toMatch(/search worker/);
  });

  it.each(['-1', '65', '1.5', 'two', ''])('--search-workers %j is a usage error (exit 2) naming the range', async (value) => {
    const result = await runPravo(['sandbox', 'serve', '--corpus', corpus, '--search-workers', value], { env: { PRAVO_CONFIG_DIR: path.join(root, 'config2') } });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('--search-workers takes a whole number from 0 to 64');
  });

  it('runs answer jobs with --answer-delay 0 and counts them against --answers-quota', async () => {
    const env = { PRAVO_CONFIG_DIR: path.join(root, 'config-answers'), PRAVO_STATE_DIR: path.join(root, 'state-answers') };
    const t = testHost({ env });
    // Searches in process (--search-workers 0): the job then finishes within a few turns of the event loop, which this
    // test counts; with workers it would wait for one to start, a time no turn count bounds (the pool has its tests).
    const args = ['sandbox', 'serve', '--corpus', corpus, '--data-dir', path.join(root, 'data-answers'), '--answer-delay', '0', '--answers-quota', '1', '--search-workers', '0'];
    const run = main(args, t.host);
    const ready = JSON.parse(await firstLine(t.stdout, t.host.stdout)) as { base_url: string; api_key: string };
    const headers = { 'x-api-key': ready.api_key, 'content-type': 'application/json' };
    const post = () => fetch(`${ready.base_url}/v1/answers`, { method: 'POST', headers, body: JSON.stringify({ query: 'неустойка по договор' }) });
    const created = await post();
    expect(created.status).toBe(202);
    const { poll_url } = (await created.json()) as { poll_url: string };
    // A delay of 0: the job's timers fire at the next turn of the server's event loop; each check is one more turn.
    let job: { status: string; answer?: string; sources?: unknown[] } = { status: 'queued' };
    for (let i = 0; i < 100 && (job.status === 'queued' || job.status === 'running'); i++) {
      job = (await (await fetch(`${ready.base_url}${poll_url}`, { headers })).json()) as typeof job;
    }
    expect(job.status).toBe('succeeded');
    expect(job.sources?.length).toBeGreaterThan(0);
    expect((await post()).status).toBe(429);

    t.signal('SIGTERM');
    expect(await run).toBe(0);
    expect(t.stderr()).toMatch(/POST \/v1\/answers 202/);
    expect(t.stderr()).toMatch(/answer job ans_[0-9a-f]{24} succeeded/);
    expect(t.stderr()).toMatch(/POST \/v1\/answers 429/);
  });

  it.each([
    [['--answer-delay', 'soon'], /--answer-delay takes a number of seconds from 0 to 3600, not "soon"/],
    [['--answer-delay', '3600.5'], /--answer-delay takes a number of seconds from 0 to 3600, not "3600.5"/],
    [['--answer-delay', '-1'], /--answer-delay takes a number of seconds from 0 to 3600, not "-1"/],
    [['--answer-delay', '1e3'], /--answer-delay takes a number of seconds from 0 to 3600, not "1e3"/],
    [['--answer-failure-rate', '1.5'], /--answer-failure-rate takes a probability from 0 to 1, not "1.5"/],
    [['--answer-failure-rate', 'half'], /--answer-failure-rate takes a probability from 0 to 1, not "half"/],
    [['--answers-quota', 'many'], /--answers-quota takes a whole number or "unlimited", not "many"/],
    [['--answers-quota', '2.5'], /--answers-quota takes a whole number or "unlimited", not "2.5"/],
    [['--quota', 'documents=5'], /--quota: unknown kind "documents"; the kinds are search, retrieval, answers/],
    [['--quota', 'search=5,search=6'], /--quota: the search quota is given twice/],
    [['--quota', 'search=5', '--quota', 'answers=1,search=2'], /--quota: the search quota is given twice/],
    [['--quota', 'search=-1'], /--quota: search takes a whole number or "unlimited", not "-1"/],
    [['--quota', 'search'], /--quota takes KIND=N\[,KIND=N\.\.\.\], KIND one of search, retrieval, answers/],
    [['--quota', 'retrieval=3', '--retrieval-quota', '4'], /--retrieval-quota and --quota retrieval=\.\.\. both set the retrieval quota; give it once/],
    [['--overage', 'on'], /--overage takes "off" or a whole number of units a month \(all kinds together\), not "on"/],
    [['--overage', '1.5'], /--overage takes "off" or a whole number/],
    [['--auth-cache-ttl', 'soon'], /--auth-cache-ttl takes a number of seconds from 0 to 3600, not "soon"/],
    [['--auth-cache-ttl', '3601'], /--auth-cache-ttl takes a number of seconds from 0 to 3600, not "3601"/],
    [['--auth-cache-ttl', '-1'], /--auth-cache-ttl takes a number of seconds from 0 to 3600, not "-1"/],
  ])('%j is a usage error (exit 2) naming the option, before anything starts', async (option, message) => {
    const env = { PRAVO_CONFIG_DIR: path.join(root, 'config-bad-options') };
    const dataDir = path.join(root, 'data-bad-options');
    const result = await runPravo(['sandbox', 'serve', '--corpus', corpus, '--data-dir', dataDir, ...option], { env });
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
    expect(fs.existsSync(dataDir)).toBe(false);
  });
});

describe('pravo sandbox serve --auth-cache-ttl', () => {
  /** Starts serve with `args`, uses its key once, revokes it through another handle on the data directory, uses it again. */
  async function statusAfterRevokedElsewhere(dataDir: string, args: string[]): Promise<[number, number]> {
    const env = { PRAVO_CONFIG_DIR: path.join(root, 'config-cache'), PRAVO_STATE_DIR: path.join(root, 'state-cache') };
    const t = testHost({ env });
    const run = main(['sandbox', 'serve', '--corpus', corpus, '--data-dir', dataDir, ...args], t.host);
    const ready = JSON.parse(await firstLine(t.stdout, t.host.stdout)) as { base_url: string; api_key: string };
    const usage = async () => (await fetch(`${ready.base_url}/v1/usage`, { headers: { 'x-api-key': ready.api_key } })).status;
    const before = await usage();
    const other = SandboxState.open(dataDir);
    const [record] = other.listKeys(DEFAULT_ACCOUNT_ID).filter((k) => ready.api_key.startsWith(k.prefix) && k.status === 'active');
    other.revokeKey(DEFAULT_ACCOUNT_ID, record!.key_id);
    other.close();
    const after = await usage();
    t.signal('SIGTERM');
    expect(await run).toBe(0);
    return [before, after];
  }

  it('by default (60 s), a key revoked by another process stays accepted by the server that had accepted it', async () => {
    expect(await statusAfterRevokedElsewhere(path.join(root, 'data-cache-default'), [])).toEqual([200, 200]);
  });

  it('0: a key revoked by another process is refused at once', async () => {
    expect(await statusAfterRevokedElsewhere(path.join(root, 'data-cache-0'), ['--auth-cache-ttl', '0'])).toEqual([200, 401]);
  });
});

describe('pravo sandbox serve --overage and --quota', () => {
  /** Starts `sandbox serve` with `args` on `dataDir`; returns its ready line, a GET/POST helper and its stop. */
  async function start(dataDir: string, args: string[]) {
    const env = { PRAVO_CONFIG_DIR: path.join(root, 'config-overage'), PRAVO_STATE_DIR: path.join(root, 'state-overage') };
    const t = testHost({ env });
    const run = main(['sandbox', 'serve', '--corpus', corpus, '--data-dir', dataDir, ...args], t.host);
    const ready = JSON.parse(await firstLine(t.stdout, t.host.stdout)) as { base_url: string; api_key: string };
    const headers = { 'x-api-key': ready.api_key, 'content-type': 'application/json' };
    return {
      search: async () => (await fetch(`${ready.base_url}/v1/search`, { method: 'POST', headers, body: JSON.stringify({ query: 'неустойка договор' }) })).status,
      usage: async () => (await (await fetch(`${ready.base_url}/v1/usage`, { headers })).json()) as UsageResponse,
      stderr: t.stderr,
      stop: async () => {
        t.signal('SIGTERM');
        expect(await run).toBe(0);
      },
    };
  }

  it('--overage N allows N units beyond the quotas; the setting is stored for later starts until --overage off', async () => {
    const dataDir = path.join(root, 'data-overage');
    const first = await start(dataDir, ['--quota', 'search=1', '--overage', '2']);
    expect([await first.search(), await first.search(), await first.search(), await first.search()]).toEqual([200, 200, 200, 429]);
    const used = await first.usage();
    expect(used.quotas.search).toEqual({ used: 3, limit: 1, remaining: 0, overage_used: 2 });
    expect(used.overage).toEqual({ allowed: true, limit: 2, used: 2 });
    await first.stop();
    expect(first.stderr()).toMatch(/monthly quotas search 1, retrieval 10000, answers 1000; overage allowed up to 2 units a month/);

    // Without --overage the stored setting stands; without --quota the plan's quotas apply.
    const second = await start(dataDir, []);
    const again = await second.usage();
    expect(again.overage).toEqual({ allowed: true, limit: 2, used: 0 });
    expect(again.quotas.search).toEqual({ used: 3, limit: 10_000, remaining: 9_997, overage_used: 0 });
    await second.stop();

    const third = await start(dataDir, ['--quota', 'search=3', '--overage', 'off']);
    expect(await third.search()).toBe(429);
    expect((await third.usage()).overage).toEqual({ allowed: false, limit: 0, used: 0 });
    await third.stop();
  });

  it('--quota search=unlimited lifts the search quota of this process only', async () => {
    const dataDir = path.join(root, 'data-unlimited');
    const server = await start(dataDir, ['--quota', 'search=unlimited', '--answers-quota', '0']);
    expect(await server.search()).toBe(200);
    const used = await server.usage();
    expect(used.quotas.search).toEqual({ used: 1, limit: null, remaining: null, overage_used: 0 });
    expect(used.quotas.answers).toEqual({ used: 0, limit: 0, remaining: 0, overage_used: 0 });
    await server.stop();
  });
});

describe('parseSearchWorkers', () => {
  it('reads a whole number from 0 to 64; without one, the default by CPUs', () => {
    expect(parseSearchWorkers('0')).toBe(0);
    expect(parseSearchWorkers(' 3 ')).toBe(3);
    expect(parseSearchWorkers('64')).toBe(64);
    expect(parseSearchWorkers(undefined)).toBe(defaultSearchWorkers());
    expect(() => parseSearchWorkers('1e1')).toThrow(UsageError);
  });
});

describe('parseQuotaOptions and parseOverageOption', () => {
  it('reads kinds from several --quota values and the aliases, with unlimited as null', () => {
    expect(parseQuotaOptions(['search=100, retrieval = 20', 'answers=unlimited'])).toEqual({ search: 100, retrieval: 20, answers: null });
    expect(parseQuotaOptions(['answers=0'], { search: '5', retrieval: 'unlimited' })).toEqual({ answers: 0, search: 5, retrieval: null });
    expect(parseQuotaOptions([])).toEqual({});
  });

  it.each([
    [['search=1,'], /"" is not KIND=N/],
    [['search=9007199254740992'], /search takes a whole number or "unlimited", not "9007199254740992"/],
    [['Search=1'], /unknown kind "Search"; the kinds are search, retrieval, answers/],
  ])('%j is a UsageError', (values, message) => {
    expect(() => parseQuotaOptions(values)).toThrow(UsageError);
    expect(() => parseQuotaOptions(values)).toThrow(message);
  });

  it('--overage: off, a whole number, or nothing', () => {
    expect(parseOverageOption('off')).toEqual({ allowed: false, limit: 0 });
    expect(parseOverageOption('0')).toEqual({ allowed: true, limit: 0 });
    expect(parseOverageOption('500')).toEqual({ allowed: true, limit: 500 });
    expect(parseOverageOption(undefined)).toBeUndefined();
    expect(() => parseOverageOption('-5')).toThrow(UsageError);
  });
});
