/**
 * `state.sqlite` locked by another process: the sandbox answers a quota-consuming request with 503
 * `service_unavailable` (after the 250 ms busy timeout, not a 5 s stall) and serves again once the lock is gone.
 * The lock holder is a child `node` process that opens the same database with node:sqlite and holds `BEGIN EXCLUSIVE`
 * (in WAL mode: the write lock) until its stdin closes.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SearchIndex } from '../../../src/sandbox/storage.js';
import { BUSY_TIMEOUT_MS, DEFAULT_ACCOUNT_ID } from '../../../src/sandbox/state/store.js';
import { expectError, openSyntheticIndex, request, startTestServer, type Reply, type TestServer } from './harness.js';

/** Opens the database, takes the write lock, says "locked", holds it until stdin ends, then releases and exits. */
const LOCK_HOLDER = `
const { DatabaseSync } = require('node:sqlite');
const db = new DatabaseSync(process.env.STATE_DB);
db.exec('BEGIN EXCLUSIVE');
db.exec("INSERT INTO account_usage (account_id, month, kind, used) VALUES ('acct_lock_test', '1999-01', 'search', 1)");
process.stdout.write('locked\\n');
process.stdin.resume();
process.stdin.on('end', () => {
  db.exec('ROLLBACK');
  db.close();
  process.stdout.write('released\\n');
});
`;

/** A child process holding the lock; resolves once it printed "locked". */
async function holdLock(stateDb: string): Promise<{ child: ChildProcessWithoutNullStreams; release: () => Promise<number | null> }> {
  const child = spawn(process.execPath, ['-e', LOCK_HOLDER], {
    env: { ...process.env, STATE_DB: stateDb, NODE_NO_WARNINGS: '1' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const lines = readline.createInterface({ input: child.stdout });
  await new Promise<void>((resolve, reject) => {
    lines.once('line', (line) => (line === 'locked' ? resolve() : reject(new Error(`lock holder said ${line}`))));
    void exited.then((code) => reject(new Error(`lock holder exited (${code}) before locking: ${stderr}`)));
  });
  return {
    child,
    release: async () => {
      child.stdin.end();
      return exited;
    },
  };
}

let root: string;
let index: SearchIndex;
let closeIndex: () => void;
let sandbox: TestServer;

beforeAll(async () => {
  ({ root, index, close: closeIndex } = await openSyntheticIndex('pravo-lock-test-'));
});
afterAll(() => closeIndex?.());
beforeEach(async () => {
  sandbox = await startTestServer(root, index);
});
afterEach(async () => {
  await sandbox.close();
});

const search = (): Promise<Reply> =>
  request(sandbox.baseUrl, 'POST', '/v1/search', {
    headers: { 'x-api-key': sandbox.key, 'content-type': 'application/json' },
    body: JSON.stringify({ query: 'неустойка по договор', source_types: ['bulgarian_laws_regulations'] }),
  });

describe('state.sqlite locked by another process', () => {
  it('a search gets 503 service_unavailable with Retry-After, then 200 once the lock is released', async () => {
    expect(BUSY_TIMEOUT_MS).toBeLessThanOrEqual(250);
    expect((await search()).status).toBe(200);
    const lock = await holdLock(path.join(sandbox.stateDir, 'state.sqlite'));
    let released = false;
    try {
      const reply = await search();
      const message = expectError(reply, 503, 'service_unavailable');
      expect(reply.headers.get('retry-after')).toBe('1');
      expect(message).toMatch(/state database.*busy/i);
      expect(message).toMatch(/retry/i);
      // The catalog needs no write: it is still served during the lock.
      const catalog = await request(sandbox.baseUrl, 'GET', '/v1/catalog/source-types', { headers: { 'x-api-key': sandbox.key } });
      expect(catalog.status).toBe(200);
      expect(await lock.release()).toBe(0);
      released = true;
    } finally {
      if (!released) lock.child.kill();
    }
    const after = await search();
    expect(after.status).toBe(200);
    expect(after.json.result_count).toBeGreaterThan(0);
    expect(sandbox.state.used(DEFAULT_ACCOUNT_ID, 'search')).toBe(2);
    expect(sandbox.logs.some((line) => line.includes('POST /v1/search 503'))).toBe(true);
  });

  it('authentication of a key whose last use must be recorded still succeeds while the database is locked', async () => {
    const lock = await holdLock(path.join(sandbox.stateDir, 'state.sqlite'));
    try {
      // The key has never been used: recording its last use is skipped, not fatal, and the search fails only on quota.
      const catalog = await request(sandbox.baseUrl, 'GET', '/v1/catalog/source-types', { headers: { 'x-api-key': sandbox.key } });
      expect(catalog.status).toBe(200);
      expectError(await search(), 503, 'service_unavailable');
    } finally {
      expect(await lock.release()).toBe(0);
    }
    expect((await search()).status).toBe(200);
  });
});
