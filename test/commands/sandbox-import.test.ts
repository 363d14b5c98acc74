/**
 * `pravo sandbox import` run in this process on test streams: from the directory of the ten real payloads
 * (`../shared/corpus/parliament-api`, read at run time) and from a loopback stand-in of the National Assembly's API;
 * the outcome on stderr (stdout empty) or `--json` on stdout; exit codes 0 (all imported), 1 (some skipped, or none:
 * no file), 6 (the API unreachable), 2 (usage, before anything is read or sent); the progress line only on a terminal;
 * a file that cannot be written fails before any request.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../src/shared/clock.js';
import { systemClock } from '../../src/shared/clock.js';
import type { ImportJson } from '../../src/commands/sandbox/import.js';
import { readCorpus } from '../../src/sandbox/corpus/reader.js';
import { runPravo } from '../helpers/host.js';
import { PAYLOADS, PAYLOAD_IDS, startFakeParliamentApi, type Behaviour, type FakeApi } from '../helpers/parliament-api.js';

let root: string;
let runs = 0;
beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'pravo-cmd-import-'));
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const servers: FakeApi[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function fakeApi(behaviours: Record<number, Behaviour> = {}): Promise<FakeApi> {
  const api = await startFakeParliamentApi(behaviours);
  servers.push(api);
  return api;
}

/** A fresh directory, and an environment whose pravo directories are in it. */
function scratch(): { dir: string; env: Record<string, string> } {
  const dir = path.join(root, `run-${++runs}`);
  fs.mkdirSync(dir);
  return { dir, env: { PRAVO_CONFIG_DIR: path.join(dir, '.config'), PRAVO_STATE_DIR: path.join(dir, '.state') } };
}

/** The system clock, except that retry waits are recorded and not slept. */
function instantClock(): Clock & { sleeps: number[] } {
  const sleeps: number[] = [];
  return {
    ...systemClock,
    sleeps,
    sleep: async (ms: number, signal?: AbortSignal) => {
      sleeps.push(ms);
      if (signal?.aborted) throw signal.reason;
    },
  };
}

async function ids(file: string): Promise<string[]> {
  const out: string[] = [];
  for await (const document of readCorpus(file)) out.push(document.document_id);
  return out;
}

describe('pravo sandbox import', () => {
  it('imports the directory of ten payloads: exit 0, "Wrote 10 acts to FILE." on stderr, stdout empty', async () => {
    const { dir, env } = scratch();
    const out = path.join(dir, 'my-acts.jsonl.gz');
    const result = await runPravo(['sandbox', 'import', PAYLOADS, '--out', out], { env });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`Wrote 10 acts to ${out}.\n`);
    expect(await ids(out)).toEqual(PAYLOAD_IDS.map((id) => `act-${id}`));
    expect(fs.readdirSync(dir).filter((name) => !name.startsWith('.'))).toEqual(['my-acts.jsonl.gz']);
  });

  it('--json prints {"out","imported","skipped"} on stdout and nothing on stderr', async () => {
    const { dir, env } = scratch();
    const out = path.join(dir, 'two.jsonl');
    const result = await runPravo(['sandbox', 'import', PAYLOADS, '--id', '166496', '--id', '165936', '-o', out, '--json'], { env });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('');
    const body = JSON.parse(result.stdout) as ImportJson;
    expect(Object.keys(body)).toEqual(['out', 'imported', 'skipped']);
    expect(body).toEqual({ out, imported: [166496, 165936], skipped: [] });
    expect(await ids(out)).toEqual(['act-166496', 'act-165936']);
  });

  it('from the API: retries 429 and 5xx on the clock, skips 500 for ever and 404 by id; exit 1, the file holds the rest', async () => {
    const api = await fakeApi({ 163477: { statuses: [429, 200], retryAfter: () => '1' }, 78098: { statuses: [500] }, 15565: { statuses: [404] } });
    const { dir, env } = scratch();
    const out = path.join(dir, 'acts.jsonl.gz');
    const clock = instantClock();
    const args = ['sandbox', 'import', api.baseUrl, '--out', out, ...PAYLOAD_IDS.flatMap((id) => ['--id', String(id)])];
    const result = await runPravo(args, { env, clock });
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`Skipped act 15565: HTTP 404: the API has no act with this id (${api.baseUrl}/api/v1/act/15565)\n`);
    expect(result.stderr).toContain('Skipped act 78098: HTTP 500 (server error) (5 tries)\n');
    expect(result.stderr).toContain(`Wrote 8 acts to ${out}; skipped 2 acts (above).\n`);
    expect(result.stderr).toContain(`to try them again: pravo sandbox import ${api.baseUrl} --id 78098 --out ${path.join(dir, 'acts-retry.jsonl.gz')}`);
    expect(clock.sleeps).toContain(1000);
    expect(clock.sleeps).toHaveLength(5);
    expect(api.hits.get(163477)).toBe(2);
    expect(api.requests.every((r) => r.userAgent === 'pravo/0.0.0-test')).toBe(true);
    expect(await ids(out)).toEqual(PAYLOAD_IDS.filter((id) => id !== 15565 && id !== 78098).map((id) => `act-${id}`));

    const json = await runPravo([...args, '--json'], { env, clock: instantClock() });
    expect(json.exitCode).toBe(1);
    expect(json.stderr).toBe('');
    const body = JSON.parse(json.stdout) as ImportJson;
    expect(body.out).toBe(out);
    expect(body.imported).toHaveLength(8);
    expect(body.skipped).toEqual([
      { id: 15565, reason: `HTTP 404: the API has no act with this id (${api.baseUrl}/api/v1/act/15565)` },
      { id: 78098, reason: 'HTTP 500 (server error) (5 tries)' },
    ]);
  });

  it('nothing imported: exit 1, no file written, and says what to check', async () => {
    const { dir, env } = scratch();
    const out = path.join(dir, 'none.jsonl');
    const result = await runPravo(['sandbox', 'import', PAYLOADS, '--id', '1', '--out', out], { env });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe(
      `Skipped act 1: no file 1.json in ${PAYLOADS}\nNothing imported: ${out} was not written. Check the ids and the files (one act payload per <id>.json).\n`,
    );
    const json = await runPravo(['sandbox', 'import', PAYLOADS, '--id', '1', '--out', out, '--json'], { env });
    expect(json.exitCode).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual({ out: null, imported: [], skipped: [{ id: 1, reason: `no file 1.json in ${PAYLOADS}` }] });
    expect(fs.readdirSync(dir).filter((name) => !name.startsWith('.'))).toEqual([]);
  });

  it('an API that cannot be reached: exit 6, no file', async () => {
    const api = await fakeApi();
    await api.close();
    const { dir, env } = scratch();
    const out = path.join(dir, 'acts.jsonl');
    const result = await runPravo(['sandbox', 'import', api.baseUrl, '--id', '166496', '--out', out], { env, clock: instantClock() });
    expect(result.exitCode).toBe(6);
    expect(result.stderr).toMatch(/^Skipped act 166496: could not get .*ECONNREFUSED.*\(5 tries\)\nNothing imported: .* was not written\. Check the URL and the network/);
    expect(fs.existsSync(out)).toBe(false);
  });

  it('an --out in a directory that does not exist: exit 1 before any request, nothing left behind', async () => {
    const api = await fakeApi();
    const { dir, env } = scratch();
    const out = path.join(dir, 'missing', 'acts.jsonl');
    const result = await runPravo(['sandbox', 'import', api.baseUrl, '--id', '166496', '--out', out], { env });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(`Cannot write ${out}: its directory does not exist. Nothing was written`);
    expect(api.requests).toEqual([]);
    expect(fs.readdirSync(dir).filter((name) => !name.startsWith('.'))).toEqual([]);
  });

  it.each([
    [['--out', 'acts.json', '--id', '1'], /--out must name a file ending in \.jsonl or \.jsonl\.gz/],
    [['--id', '1'], /--out FILE is required/],
    [['--out', 'acts.jsonl'], /an API URL needs the acts to fetch: give --id N/],
    [['--out', 'acts.jsonl', '--id', '0'], /--id takes the act's id .*not "0"/],
    [['--out', 'acts.jsonl', '--id', 'abc'], /not "abc"/],
    [['--out', 'acts.jsonl', '--id', '1', '--concurrency', '99'], /--concurrency takes a whole number from 1 to 16; not "99"/],
  ])('with a URL, %j is a usage error (exit 2) before any request', async (args, message) => {
    const api = await fakeApi();
    const { dir, env } = scratch();
    const result = await runPravo(['sandbox', 'import', api.baseUrl, ...args], { env });
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toContain('Nothing was read or sent. See `pravo sandbox import --help`.');
    expect(api.requests).toEqual([]);
    expect(fs.readdirSync(dir).filter((name) => !name.startsWith('.'))).toEqual([]);
  });

  it('a SOURCE that is neither a directory nor a URL: exit 2; with --json the error is one JSON line on stderr', async () => {
    const { env } = scratch();
    const result = await runPravo(['sandbox', 'import', path.join(root, 'nowhere'), '--out', 'x.jsonl', '--json'], { env });
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    const error = (JSON.parse(result.stderr) as { error: { kind: string; message: string; exit_code: number } }).error;
    expect(error).toMatchObject({ kind: 'usage', exit_code: 2 });
    expect(error.message).toMatch(/SOURCE .*nowhere does not exist; give a directory of saved payloads/);
  });

  it('shows "Importing N/10 acts…" on stderr only when it is a terminal', async () => {
    const { dir, env } = scratch();
    const onTerminal = await runPravo(['sandbox', 'import', PAYLOADS, '--out', path.join(dir, 'a.jsonl')], { env, stderrTTY: true });
    expect(onTerminal.exitCode).toBe(0);
    expect(onTerminal.stderr).toMatch(/Importing \d+\/10 acts…/);
    expect(onTerminal.stderr).toContain('Wrote 10 acts to');
    const piped = await runPravo(['sandbox', 'import', PAYLOADS, '--out', path.join(dir, 'b.jsonl')], { env });
    expect(piped.stderr).not.toMatch(/Importing/);
  });

  it('--help shows the examples, the directory and the URL forms, and the exit codes', async () => {
    const result = await runPravo(['sandbox', 'import', '--help']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^Usage: pravo sandbox import \[options\] <source>/);
    expect(result.stdout).toContain('$ pravo sandbox import ../shared/corpus/parliament-api --out my-acts.jsonl.gz');
    expect(result.stdout).toMatch(/pravo sandbox import https:\/\/www\.parliament\.bg --id 165936/);
    expect(result.stdout).toMatch(/Exit codes: 0 every act imported; 1 some skipped/);
  });
});
