/**
 * The files a user names for pravo to write (`--out` of `pravo search`, `doc`, `batch` and `sandbox import`), run in this process
 * against a loopback server over synthetic documents: created 0600 under any umask (the batch trusts its results file
 * to tell which lines are done), and never written through a symbolic link another user planted in a shared,
 * sticky directory (`ln -s ~victim/.bashrc /tmp/memo.md`). Links of another user are made with `lchown`, which needs
 * root (the tests run as root; elsewhere those tests are skipped and say so).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testStatute } from '../helpers/documents.js';
import { runPravo } from '../helpers/host.js';
import { PAYLOADS } from '../helpers/parliament-api.js';
import { recordingServer, type Recorded } from '../helpers/recording-server.js';

/** A made-up key of the live form; not a real credential. */
const KEY = 'sbx_live_TESTKEYabcdefghijklmnopqrstuvwx';
const asRoot = process.geteuid?.() === 0;
/** The owner of the planted links: another user. */
const ATTACKER = 4242;
const VICTIM_TEXT = 'export PATH=/usr/bin\n';

let root: string;
let env: NodeJS.ProcessEnv;
let savedUmask: number;
const servers: { close: () => Promise<void> }[] = [];

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'pravo-cmd-out-')));
  env = { PRAVO_CONFIG_DIR: path.join(root, 'config'), PRAVO_STATE_DIR: path.join(root, 'state'), PRAVO_CACHE_DIR: path.join(root, 'cache') };
  savedUmask = process.umask();
});

afterEach(async () => {
  process.umask(savedUmask);
  await Promise.all(servers.splice(0).map((s) => s.close()));
  fs.rmSync(root, { recursive: true, force: true });
});

const statute = testStatute();

/** A server with POST /v1/search (one result, the synthetic statute), GET /v1/documents and GET /v1/usage. */
async function serve() {
  const server = await recordingServer((request: Recorded) => {
    const url = new URL(request.url, 'http://localhost');
    if (url.pathname === '/v1/search') {
      const query = (JSON.parse(request.body) as { query: string }).query;
      return { status: 200, body: JSON.stringify({ query, result_count: 1, results: [{ document_id: statute.document_id, collection: statute.collection, type: 'Закон', title: statute.title, excerpts: [] }] }) };
    }
    if (url.pathname === '/v1/documents') return { status: 200, body: JSON.stringify(statute) };
    if (url.pathname === '/v1/usage') {
      return {
        status: 200,
        body: JSON.stringify({
          period: { start: '2026-11-01T00:00:00.000Z', end: '2026-12-01T00:00:00.000Z', month: '2026-11' },
          quotas: { search: { used: 10, limit: 1000, remaining: 990, overage_used: 0 } },
          overage: { allowed: false, limit: 0, used: 0 },
        }),
      };
    }
    return { status: 404, body: JSON.stringify({ error: { code: 'not_found', message: 'no route' } }) };
  });
  servers.push(server);
  env = { ...env, PRAVO_BASE_URL: server.url, PRAVO_API_KEY: KEY };
  return server;
}

const mode = (file: string): number => fs.statSync(file).mode & 0o777;

/** A shared directory like /tmp (sticky, writable by all) holding `name`, a link of another user to the victim's file. */
function plantLink(name: string): { link: string; victim: string } {
  const shared = path.join(root, 'tmp');
  fs.mkdirSync(shared, { recursive: true });
  fs.chmodSync(shared, 0o1777);
  const victim = path.join(root, 'home', '.bashrc');
  fs.mkdirSync(path.dirname(victim), { recursive: true });
  fs.writeFileSync(victim, VICTIM_TEXT);
  const link = path.join(shared, name);
  fs.symlinkSync(victim, link);
  fs.lchownSync(link, ATTACKER, ATTACKER);
  return { link, victim };
}

describe('files a user names are created 0600, whatever the umask', () => {
  it('search --format md --out, doc --out, and batch --out with its journal', async () => {
    await serve();
    process.umask(0);
    const memo = path.join(root, 'memo.md');
    expect((await runPravo(['search', '--format', 'md', '--out', memo, 'тестово търсене'], { env })).exitCode).toBe(0);
    expect(mode(memo)).toBe(0o600);
    const doc = path.join(root, 'doc.json');
    expect((await runPravo(['doc', statute.document_id!, '--collection', statute.collection!, '--out', doc], { env })).exitCode).toBe(0);
    expect(mode(doc)).toBe(0o600);
    const input = path.join(root, 'questions.txt');
    fs.writeFileSync(input, 'неустойка при забава\n');
    const results = path.join(root, 'results.jsonl');
    const batch = await runPravo(['batch', input, '--out', results, '--yes'], { env });
    expect(batch.exitCode, batch.stderr).toBe(0);
    expect(mode(results)).toBe(0o600);
    expect(mode(`${results}.journal`)).toBe(0o600);
  });

  it('an existing file keeps its mode', async () => {
    await serve();
    const memo = path.join(root, 'memo.md');
    fs.writeFileSync(memo, 'старо');
    fs.chmodSync(memo, 0o644);
    expect((await runPravo(['search', '--format', 'md', '--out', memo, 'тестово търсене'], { env })).exitCode).toBe(0);
    expect(mode(memo)).toBe(0o644);
    expect(fs.readFileSync(memo, 'utf8')).not.toBe('старо');
  });
});

describe.skipIf(!asRoot)('another user’s symbolic link in a shared directory is never written through (needs root for lchown)', () => {
  it('search --format md --out: refused before anything is sent, naming the link and what to do; the target is unchanged', async () => {
    const server = await serve();
    const { link, victim } = plantLink('memo.md');
    const result = await runPravo(['search', '--format', 'md', '--out', link, 'тестово търсене'], { env });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(`Cannot write --out ${link}: it is a symbolic link of another user (uid ${ATTACKER}) to ${victim}`);
    expect(result.stderr).toContain('remove the link, or name a file in a directory of your own. Nothing was sent.');
    expect(server.requests).toEqual([]);
    expect(fs.readFileSync(victim, 'utf8')).toBe(VICTIM_TEXT);
  });

  it('doc --out (the JSON) and batch --out: refused, the target unchanged', async () => {
    const server = await serve();
    const { link, victim } = plantLink('doc.json');
    const doc = await runPravo(['doc', statute.document_id!, '--collection', statute.collection!, '--out', link], { env });
    expect(doc.exitCode).toBe(1);
    expect(doc.stderr).toContain(`is a symbolic link of another user (uid ${ATTACKER})`);

    const input = path.join(root, 'questions.txt');
    fs.writeFileSync(input, 'неустойка при забава\n');
    const results = plantLink('results.jsonl').link;
    const batch = await runPravo(['batch', input, '--out', results, '--yes'], { env });
    expect(batch.exitCode).toBe(1);
    expect(batch.stderr).toContain(`Cannot write --out ${results}: it is a symbolic link of another user (uid ${ATTACKER})`);
    expect(server.requests).toEqual([]);
    expect(fs.readFileSync(victim, 'utf8')).toBe(VICTIM_TEXT);
  });

  it('batch: a link planted as the journal beside the results is refused too', async () => {
    const server = await serve();
    const { link, victim } = plantLink('results.jsonl.journal');
    const input = path.join(root, 'questions.txt');
    fs.writeFileSync(input, 'неустойка при забава\n');
    const batch = await runPravo(['batch', input, '--out', path.join(path.dirname(link), 'results.jsonl'), '--yes'], { env });
    expect(batch.exitCode).toBe(1);
    expect(batch.stderr).toContain(`Cannot write the journal ${link}: it is a symbolic link of another user (uid ${ATTACKER})`);
    expect(server.requests).toEqual([]);
    expect(fs.readFileSync(victim, 'utf8')).toBe(VICTIM_TEXT);
  });

  it('sandbox import --out: refused, nothing written, the target unchanged', async () => {
    const { link, victim } = plantLink('acts.jsonl');
    const result = await runPravo(['sandbox', 'import', PAYLOADS, '--id', '166496', '--out', link], { env });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(`Cannot write ${link}: it is a symbolic link of another user (uid ${ATTACKER}) to ${victim}`);
    expect(result.stderr).toContain('Nothing was written (an existing file is unchanged).');
    expect(fs.readFileSync(victim, 'utf8')).toBe(VICTIM_TEXT);
  });

  it('the user’s own link is written through, as before', async () => {
    await serve();
    const { link, victim } = plantLink('memo.md');
    fs.lchownSync(link, 0, 0);
    expect((await runPravo(['search', '--format', 'md', '--out', link, 'тестово търсене'], { env })).exitCode).toBe(0);
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(victim, 'utf8')).toContain('тестово търсене');
  });
});
