/**
 * Importing National Assembly act payloads into a corpus file (`src/sandbox/import.ts`), over the ten real payloads of
 * `../shared/corpus/parliament-api/` (read at run time, never copied into the repository): from the directory, and
 * from a loopback HTTP server that serves them at `/api/v1/act/N` with faults (429 then 200, 500 for ever, 404, a
 * connection refused, a response that never comes). Retries are asserted through the injected `sleep` (nothing
 * sleeps); the output is read back with the corpus reader; the write is atomic (no temporary file is ever left).
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readCorpus, type CorpusDocument } from '../../src/sandbox/corpus/reader.js';
import {
  backoffMs,
  importActs,
  ImportUsageError,
  ImportWriteError,
  parseActId,
  parseRetryAfter,
  planImport,
  type ImportDeps,
  type ImportPlan,
} from '../../src/sandbox/import.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { HAS_SPECIAL_FILES, linkToDevZero, makeFifo } from '../helpers/special-files.js';
import { PAYLOADS, PAYLOAD_IDS, startFakeParliamentApi, type Behaviour, type FakeApi } from '../helpers/parliament-api.js';

const IDS = PAYLOAD_IDS;

let root: string;
let runs = 0;
beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'pravo-import-'));
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** A fresh directory for one test. */
function scratch(): string {
  const dir = path.join(root, `run-${++runs}`);
  fs.mkdirSync(dir);
  return dir;
}

/** Every document of a corpus file, through the sandbox's own reader. */
async function readBack(file: string): Promise<CorpusDocument[]> {
  const documents: CorpusDocument[] = [];
  for await (const document of readCorpus(file)) documents.push(document);
  return documents;
}

/** Names in `dir` that look like temporary files of the import. */
function leftovers(dir: string): string[] {
  return fs.readdirSync(dir).filter((name) => name.endsWith('.tmp'));
}

/** Injected waits: recorded, never slept. */
function recordingSleep(): { sleeps: number[]; sleep: NonNullable<ImportDeps['sleep']> } {
  const sleeps: number[] = [];
  return {
    sleeps,
    sleep: async (ms, signal) => {
      sleeps.push(ms);
      if (signal?.aborted) throw signal.reason;
    },
  };
}

const servers: FakeApi[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

/** A fake API closed after the test. */
async function fakeApi(behaviours: Record<number, Behaviour> = {}, now?: () => number): Promise<FakeApi> {
  const api = await startFakeParliamentApi(behaviours, now);
  servers.push(api);
  return api;
}

/** A plan for the URL source. */
function urlPlan(baseUrl: string, ids: number[], out: string, concurrency = 4): ImportPlan {
  return { source: { kind: 'url', baseUrl }, ids, out, gzip: out.endsWith('.gz'), concurrency };
}

describe('planImport: checked before anything is read or sent', () => {
  it('without --id, a directory gives every <digits>.json in numeric order', async () => {
    const plan = await planImport(PAYLOADS, { out: 'acts.jsonl.gz' });
    expect(plan).toEqual({ source: { kind: 'directory', dir: PAYLOADS }, ids: IDS, out: 'acts.jsonl.gz', gzip: true, concurrency: 4 });
  });

  it('--id keeps the order given, without duplicates; a URL keeps its path prefix without the trailing slash', async () => {
    expect((await planImport(PAYLOADS, { out: 'a.jsonl', ids: ['166496', '15565', '166496'] })).ids).toEqual([166496, 15565]);
    const plan = await planImport('https://example.bg/mirror/', { out: 'a.JSONL', ids: ['7'], concurrency: '16' });
    expect(plan).toEqual({ source: { kind: 'url', baseUrl: 'https://example.bg/mirror' }, ids: [7], out: 'a.JSONL', gzip: false, concurrency: 16 });
  });

  it.each([
    [PAYLOADS, { out: 'acts.json' }, /--out must name a file ending in \.jsonl or \.jsonl\.gz .*not "acts\.json"/],
    [PAYLOADS, { out: 'acts.gz' }, /--out must name a file ending in \.jsonl or \.jsonl\.gz/],
    [PAYLOADS, { out: '.jsonl' }, /--out must name a file ending in/],
    [PAYLOADS, {}, /--out FILE is required/],
    ['http://127.0.0.1:9', { out: 'acts.jsonl' }, /an API URL needs the acts to fetch: give --id N/],
    [PAYLOADS, { out: 'a.jsonl', ids: ['0'] }, /--id takes the act's id .* at least 1 .*not "0"/],
    [PAYLOADS, { out: 'a.jsonl', ids: ['-5'] }, /not "-5"/],
    [PAYLOADS, { out: 'a.jsonl', ids: ['1.5'] }, /not "1\.5"/],
    [PAYLOADS, { out: 'a.jsonl', ids: ['act-165936'] }, /not "act-165936"/],
    [PAYLOADS, { out: 'a.jsonl', ids: ['99999999999999999999'] }, /not "99999999999999999999"/],
    [PAYLOADS, { out: 'a.jsonl', concurrency: '0' }, /--concurrency takes a whole number from 1 to 16; not "0"/],
    [PAYLOADS, { out: 'a.jsonl', concurrency: '17' }, /not "17"/],
    ['ftp://example.bg', { out: 'a.jsonl', ids: ['1'] }, /http:\/\/ or https:\/\/ URL, not ftp:/],
    ['https://www.parliament.bg/api/v1', { out: 'a.jsonl', ids: ['1'] }, /without \/api\/v1: .*give https:\/\/www\.parliament\.bg$/],
    ['https://www.parliament.bg/api/v1/act/', { out: 'a.jsonl', ids: ['1'] }, /without \/api\/v1\/act/],
    ['https://user:pw@example.bg', { out: 'a.jsonl', ids: ['1'] }, /credentials/],
    ['https://example.bg/?x=1', { out: 'a.jsonl', ids: ['1'] }, /query string/],
    ['/no/such/directory', { out: 'a.jsonl' }, /SOURCE \/no\/such\/directory does not exist/],
    [path.join(PAYLOADS, '165936.json'), { out: 'a.jsonl' }, /is a file; give the directory/],
    [fileURLToPath(new URL('.', import.meta.url)), { out: 'a.jsonl' }, /holds no payload files/],
  ])('%s %j: %s', async (source, options, message) => {
    const error = await planImport(source, options).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportUsageError);
    expect((error as Error).message).toMatch(message);
  });

  it('the output name is checked first, then the ids, before a URL without --id', async () => {
    await expect(planImport('http://127.0.0.1:9', { out: 'x.txt' })).rejects.toThrow(/--out must/);
    await expect(planImport('http://127.0.0.1:9', { out: 'x.jsonl', ids: ['x'] })).rejects.toThrow(/--id takes/);
    expect(parseActId(' 42 ')).toBe(42);
  });
});

describe('importing from a directory of saved payloads', () => {
  it('writes the ten acts in numeric order, readable by the corpus reader; act-165936 has 47 articles then 25 §§', async () => {
    const dir = scratch();
    const out = path.join(dir, 'acts.jsonl');
    const progress: [number, number][] = [];
    const result = await importActs(await planImport(PAYLOADS, { out }), { onProgress: (done, total) => progress.push([done, total]) });
    expect(result).toEqual({ out, written: true, imported: IDS, skipped: [] });
    const documents = await readBack(out);
    expect(documents.map((d) => d.document_id)).toEqual(IDS.map((id) => `act-${id}`));
    expect(fs.readFileSync(out, 'utf8').trim().split('\n')).toHaveLength(10);
    const act = documents.find((d) => d.document_id === 'act-165936')!;
    expect(act.title).toBe('Закон за пазарите на криптоактиви');
    const labels = act.elements.map((e) => e.label);
    expect(labels).toHaveLength(72);
    expect(labels.slice(0, 47).every((label) => label.startsWith('Чл.'))).toBe(true);
    expect(labels.slice(47).every((label) => label.startsWith('§'))).toBe(true);
    expect(progress[0]).toEqual([0, 10]);
    expect(progress.at(-1)).toEqual([10, 10]);
    expect(leftovers(dir)).toEqual([]);
  });

  it('.jsonl.gz is gzip-compressed; --id picks acts in the order given; a missing file is skipped by id', async () => {
    const dir = scratch();
    const out = path.join(dir, 'two.jsonl.gz');
    const plan = await planImport(PAYLOADS, { out, ids: ['166496', '424242', '15565'], concurrency: '1' });
    const result = await importActs(plan);
    expect(result.imported).toEqual([166496, 15565]);
    expect(result.skipped).toEqual([{ id: 424242, kind: 'missing', reason: `no file 424242.json in ${PAYLOADS}` }]);
    expect([...fs.readFileSync(out).subarray(0, 2)]).toEqual([0x1f, 0x8b]);
    expect((await readBack(out)).map((d) => d.document_id)).toEqual(['act-166496', 'act-15565']);
  });

  it('skips payloads that are not JSON, not act payloads, or of another act, and writes the rest', async () => {
    const src = scratch();
    fs.writeFileSync(path.join(src, '1.json'), '{"L_Act_id": 1, ');
    fs.writeFileSync(path.join(src, '2.json'), '[1, 2, 3]');
    // The real payload of act 166496, saved under another id (copied at run time into a scratch directory).
    fs.copyFileSync(path.join(PAYLOADS, '166496.json'), path.join(src, '3.json'));
    fs.copyFileSync(path.join(PAYLOADS, '15565.json'), path.join(src, '15565.json'));
    fs.writeFileSync(path.join(src, 'README.md'), 'not a payload');
    const out = path.join(scratch(), 'acts.jsonl');
    const plan = await planImport(src, { out });
    expect(plan.ids).toEqual([1, 2, 3, 15565]);
    const result = await importActs(plan);
    expect(result.imported).toEqual([15565]);
    expect(result.skipped.map((s) => [s.id, s.kind])).toEqual([
      [1, 'payload'],
      [2, 'payload'],
      [3, 'payload'],
    ]);
    expect(result.skipped[0]!.reason).toMatch(/^1\.json is not valid JSON/);
    expect(result.skipped[1]!.reason).toMatch(/^2\.json is not a readable act payload: ./);
    expect(result.skipped[2]!.reason).toBe('3.json holds act-166496, not act-3');
    expect((await readBack(out)).map((d) => d.document_id)).toEqual(['act-15565']);
  });

  it.skipIf(!HAS_SPECIAL_FILES)('skips a payload that is a FIFO or a link to /dev/zero at once, saying what it is, and writes the rest', async () => {
    const src = scratch();
    // One at a time, the FIFO first: a reader that opened it for a blocking read would wait here for ever.
    makeFifo(path.join(src, '2.json'));
    linkToDevZero(path.join(src, '3.json'));
    fs.copyFileSync(path.join(PAYLOADS, '15565.json'), path.join(src, '15565.json'));
    const out = path.join(scratch(), 'acts.jsonl');
    const plan = await planImport(src, { out, concurrency: '1' });
    expect(plan.ids).toEqual([2, 3, 15565]);
    const result = await importActs(plan);
    expect(result.imported).toEqual([15565]);
    expect(result.skipped).toEqual([
      { id: 2, kind: 'payload', reason: '2.json is a FIFO (named pipe), not a regular file; only regular files are read' },
      { id: 3, kind: 'payload', reason: '3.json is a character device, not a regular file; only regular files are read' },
    ]);
    expect((await readBack(out)).map((d) => d.document_id)).toEqual(['act-15565']);
  });

  it('skips a payload larger than 32 MiB, counting the bytes read', async () => {
    const src = scratch();
    fs.writeFileSync(path.join(src, '4.json'), Buffer.alloc(32 * 1024 * 1024 + 1, 0x20));
    const result = await importActs(await planImport(src, { out: path.join(scratch(), 'acts.jsonl') }));
    expect(result.skipped).toEqual([{ id: 4, kind: 'payload', reason: '4.json is larger than 32 MiB, the limit for this kind of file' }]);
  });

  it('when nothing can be imported, writes nothing: an existing file is untouched, no temporary file is left', async () => {
    const dir = scratch();
    const out = path.join(dir, 'acts.jsonl');
    fs.writeFileSync(out, 'previous content\n');
    const result = await importActs(await planImport(PAYLOADS, { out, ids: ['1', '2'] }));
    expect(result).toMatchObject({ written: false, imported: [], skipped: [{ id: 1 }, { id: 2 }] });
    expect(fs.readFileSync(out, 'utf8')).toBe('previous content\n');
    expect(leftovers(dir)).toEqual([]);
  });

  it('replaces an existing file whole, keeping its mode', async () => {
    const dir = scratch();
    const out = path.join(dir, 'acts.jsonl');
    fs.writeFileSync(out, 'previous content\n', { mode: 0o640 });
    fs.chmodSync(out, 0o640);
    await importActs(await planImport(PAYLOADS, { out, ids: ['166496'] }));
    expect((await readBack(out)).map((d) => d.document_id)).toEqual(['act-166496']);
    expect(fs.statSync(out).mode & 0o777).toBe(0o640);
    expect(leftovers(dir)).toEqual([]);
  });
});

describe('the output is a file the user names, perhaps in a shared directory', () => {
  it('a new file is 0600 under umask 000', async () => {
    const dir = scratch();
    const out = path.join(dir, 'acts.jsonl');
    const saved = process.umask(0);
    try {
      await importActs(await planImport(PAYLOADS, { out, ids: ['166496'] }));
    } finally {
      process.umask(saved);
    }
    expect(fs.statSync(out).mode & 0o777).toBe(0o600);
  });

  it.skipIf(process.geteuid?.() !== 0)("another user's link in a sticky directory is refused (ImportWriteError, its cause the RefusedLinkError); its target is unchanged (as root: the link lchown-ed)", async () => {
    const dir = scratch();
    fs.chmodSync(dir, 0o1777);
    const victim = path.join(root, `victim-${runs}.jsonl`);
    fs.writeFileSync(victim, 'the victim’s file\n');
    const out = path.join(dir, 'acts.jsonl');
    fs.symlinkSync(victim, out);
    fs.lchownSync(out, 4242, 4242);
    const error = await importActs(await planImport(PAYLOADS, { out, ids: ['166496'] })).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ImportWriteError', code: 'EREFUSEDLINK', file: out, cause: { name: 'RefusedLinkError', link: out, owner: 4242 } });
    expect(fs.readFileSync(victim, 'utf8')).toBe('the victim’s file\n');
    expect(fs.readlinkSync(out)).toBe(victim);
    expect(leftovers(dir)).toEqual([]);
  });

  it("the user's own link is written through to its target, and stays a link", async () => {
    const dir = scratch();
    const target = path.join(dir, 'real.jsonl');
    const out = path.join(dir, 'acts.jsonl');
    fs.symlinkSync(target, out);
    await importActs(await planImport(PAYLOADS, { out, ids: ['166496'] }));
    expect(fs.lstatSync(out).isSymbolicLink()).toBe(true);
    expect((await readBack(target)).map((d) => d.document_id)).toEqual(['act-166496']);
  });
});

describe('the write is atomic', () => {
  it('an output directory that does not exist fails at once (ImportWriteError ENOENT), nothing read, nothing left', async () => {
    const dir = scratch();
    const out = path.join(dir, 'missing', 'acts.jsonl');
    const progress: number[] = [];
    const error = await importActs(await planImport(PAYLOADS, { out }), { onProgress: (done) => progress.push(done) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportWriteError);
    expect(error).toMatchObject({ code: 'ENOENT', file: out });
    expect(progress.filter((n) => n > 0)).toEqual([]);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('an output that is a directory fails (EISDIR) and leaves it as it was, without a temporary file', async () => {
    const dir = scratch();
    const out = path.join(dir, 'acts.jsonl');
    fs.mkdirSync(out);
    fs.writeFileSync(path.join(out, 'keep'), 'x');
    await expect(importActs(await planImport(PAYLOADS, { out }))).rejects.toMatchObject({ name: 'ImportWriteError', code: 'EISDIR' });
    expect(fs.readdirSync(dir)).toEqual(['acts.jsonl']);
    expect(fs.readdirSync(out)).toEqual(['keep']);
  });

  it('a cancelled import (the signal aborts mid-way) rejects and leaves neither the output nor a temporary file', async () => {
    const api = await fakeApi({ 165936: 'hold' });
    const dir = scratch();
    const out = path.join(dir, 'acts.jsonl');
    const controller = new AbortController();
    const importing = importActs(urlPlan(api.baseUrl, [166496, 165936, 15565], out, 2), {
      signal: controller.signal,
      onProgress: (done) => {
        if (done === 1) setTimeout(() => controller.abort(new DOMException('stop', 'AbortError')), 50);
      },
    });
    await expect(importing).rejects.toMatchObject({ name: 'AbortError' });
    expect(fs.readdirSync(dir)).toEqual([]);
    expect(api.hits.get(165936)).toBe(1);
  });
});

describe('cancellation ends the import at once', () => {
  it('from a directory: nothing more is read once the signal aborts; it rejects and writes nothing', async () => {
    const dir = scratch();
    const controller = new AbortController();
    const done: number[] = [];
    const importing = importActs(await planImport(PAYLOADS, { out: path.join(dir, 'acts.jsonl'), concurrency: '1' }), {
      signal: controller.signal,
      onProgress: (n) => {
        done.push(n);
        if (n === 1) controller.abort('SIGTERM');
      },
    });
    await expect(importing).rejects.toMatchObject({ name: 'AbortError', cause: 'SIGTERM' });
    expect(done).toEqual([0, 1]);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('from the API: a response whose body never ends is given up when the signal aborts', async () => {
    const sent = Promise.withResolvers<void>();
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      // The start of a payload, then nothing more, for ever.
      res.write('{"L_Act_id": 1, "L_ActL_final_body": "', () => sent.resolve());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const dir = scratch();
      const controller = new AbortController();
      const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const importing = importActs(urlPlan(baseUrl, [1], path.join(dir, 'acts.jsonl')), { signal: controller.signal });
      await sent.promise;
      controller.abort('SIGINT');
      await expect(importing).rejects.toMatchObject({ name: 'AbortError' });
      expect(fs.readdirSync(dir)).toEqual([]);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('importing from the API (a loopback server)', () => {
  it('fetches each act at /api/v1/act/N, retries 429 (honouring Retry-After) and 5xx, skips 500 for ever and 404', async () => {
    const api = await fakeApi({
      163477: { statuses: [429, 200], retryAfter: () => '2' },
      78098: { statuses: [500] },
      15565: { statuses: [404] },
      164632: { statuses: [503, 502, 200] },
    });
    const dir = scratch();
    const out = path.join(dir, 'acts.jsonl.gz');
    const { sleeps, sleep } = recordingSleep();
    const result = await importActs(urlPlan(api.baseUrl, IDS, out), { sleep, random: () => 0.5, userAgent: 'pravo/9.9.9' });

    expect(result.imported).toEqual(IDS.filter((id) => id !== 78098 && id !== 15565));
    expect(result.skipped).toEqual([
      { id: 15565, kind: 'missing', reason: `HTTP 404: the API has no act with this id (${api.baseUrl}/api/v1/act/15565)` },
      { id: 78098, kind: 'server', reason: 'HTTP 500 (server error) (5 tries)' },
    ]);
    expect(api.hits.get(163477)).toBe(2);
    expect(api.hits.get(164632)).toBe(3);
    expect(api.hits.get(78098)).toBe(5);
    expect(api.hits.get(15565)).toBe(1);
    // Retry-After: 2 → 2000 ms; 503, 502 → backoff 1 and 2; 500 for ever → backoff 1 to 4 (jitter 0.5: 3/4 of the ceiling).
    expect([...sleeps].sort((a, b) => a - b)).toEqual([375, 375, 750, 750, 1500, 2000, 3000]);
    expect(new Set(api.requests.map((r) => r.userAgent))).toEqual(new Set(['pravo/9.9.9']));
    expect(api.requests.every((r) => /^\/api\/v1\/act\/\d+$/.test(r.path))).toBe(true);

    const documents = await readBack(out);
    expect(documents.map((d) => d.document_id)).toEqual(result.imported.map((id) => `act-${id}`));
    const act = documents.find((d) => d.document_id === 'act-165936')!;
    expect(act.elements.slice(0, 47).every((e) => e.label.startsWith('Чл.'))).toBe(true);
    expect(act.elements.slice(47).map((e) => e.label.startsWith('§'))).toEqual(Array(25).fill(true));
    expect(leftovers(dir)).toEqual([]);
  });

  it('the same documents as from the directory, byte for byte', async () => {
    const api = await fakeApi();
    const dir = scratch();
    await importActs(await planImport(PAYLOADS, { out: path.join(dir, 'a.jsonl') }));
    await importActs(urlPlan(api.baseUrl, IDS, path.join(dir, 'b.jsonl'), 16));
    expect(fs.readFileSync(path.join(dir, 'b.jsonl'), 'utf8')).toBe(fs.readFileSync(path.join(dir, 'a.jsonl'), 'utf8'));
  });

  it('honours a Retry-After given as an HTTP date, on the injected clock', async () => {
    const clock = new FakeClock(Date.UTC(2025, 5, 1, 12, 0, 0));
    const api = await fakeApi({ 166496: { statuses: [429, 200], retryAfter: (now) => new Date(now + 7_000).toUTCString() } }, () => clock.now());
    const { sleeps, sleep } = recordingSleep();
    const result = await importActs(urlPlan(api.baseUrl, [166496], path.join(scratch(), 'a.jsonl')), { clock, sleep });
    expect(result.imported).toEqual([166496]);
    expect(sleeps).toEqual([7_000]);
  });

  it('a Retry-After longer than 60 s is not waited for: the act is skipped at once', async () => {
    const api = await fakeApi({ 166496: { statuses: [429], retryAfter: () => '3600' } });
    const { sleeps, sleep } = recordingSleep();
    const result = await importActs(urlPlan(api.baseUrl, [166496, 15565], path.join(scratch(), 'a.jsonl')), { sleep });
    expect(result.imported).toEqual([15565]);
    expect(result.skipped).toEqual([
      { id: 166496, kind: 'server', reason: 'HTTP 429 (too many requests), and the server asked to wait 3600 s before another try (more than 60 s)' },
    ]);
    expect(sleeps).toEqual([]);
    expect(api.hits.get(166496)).toBe(1);
  });

  it('a server that cannot be reached: every act skipped after 5 tries each (network), nothing written', async () => {
    const api = await fakeApi();
    const baseUrl = api.baseUrl;
    await api.close();
    const dir = scratch();
    const { sleeps, sleep } = recordingSleep();
    const result = await importActs(urlPlan(baseUrl, [166496, 15565], path.join(dir, 'a.jsonl')), { sleep, random: () => 0 });
    expect(result.written).toBe(false);
    expect(result.skipped.map((s) => [s.id, s.kind])).toEqual([
      [166496, 'network'],
      [15565, 'network'],
    ]);
    expect(result.skipped[0]!.reason).toMatch(/^could not get http:\/\/127\.0\.0\.1:\d+\/api\/v1\/act\/166496: .*ECONNREFUSED.* \(5 tries\)$/);
    expect(sleeps.sort((a, b) => a - b)).toEqual([250, 250, 500, 500, 1000, 1000, 2000, 2000]);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('a response that does not come within the timeout is retried, then skipped', async () => {
    const api = await fakeApi({ 166496: 'hold' });
    const { sleeps, sleep } = recordingSleep();
    const result = await importActs(urlPlan(api.baseUrl, [166496, 15565], path.join(scratch(), 'a.jsonl')), { sleep, timeoutMs: 100, maxAttempts: 2 });
    expect(result.imported).toEqual([15565]);
    expect(result.skipped).toEqual([{ id: 166496, kind: 'network', reason: 'no complete response within 0.1 s (2 tries)' }]);
    expect(sleeps).toHaveLength(1);
    expect(api.hits.get(166496)).toBe(2);
  });
});

describe('retry arithmetic', () => {
  it('backoff doubles from 500 ms up to 8 s, with equal jitter', () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffMs(n, () => 0))).toEqual([250, 500, 1000, 2000, 4000, 4000]);
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffMs(n, () => 0.999_999))).toEqual([500, 1000, 2000, 4000, 8000, 8000]);
  });

  it('Retry-After: seconds, an HTTP date (a past one gives 0), anything else ignored', () => {
    const now = Date.UTC(2025, 0, 1);
    expect(parseRetryAfter('5', now)).toBe(5000);
    expect(parseRetryAfter(new Date(now + 2000).toUTCString(), now)).toBe(2000);
    expect(parseRetryAfter(new Date(now - 2000).toUTCString(), now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});
