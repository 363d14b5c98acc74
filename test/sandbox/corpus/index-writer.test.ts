/**
 * The index build's row writer (`src/sandbox/corpus/index-writer.ts`): rows written by the writer thread (the built
 * `dist/sandbox/corpus/index-writer-worker.js`) land in the file as the same statements run on the build's own
 * connection would leave them, a failing statement's SQLite error reaches the build, and a writer stopped without
 * committing leaves nothing written.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_PENDING_CHARS, startRowWriter, WRITER_WORKER_URL } from '../../../src/sandbox/corpus/index-writer.js';
import { tempDir } from '../fixtures.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** A new database file with two tables, one of them full-text, as a build's temporary file before its rows. */
function newFile(): { db: DatabaseSync; path: string } {
  const t = tempDir();
  cleanups.push(t.cleanup);
  const path = join(t.dir, 'index.sqlite');
  const db = new DatabaseSync(path);
  db.exec(`CREATE TABLE docs (id INTEGER PRIMARY KEY, title TEXT NOT NULL UNIQUE, body TEXT);
    CREATE VIRTUAL TABLE fts USING fts5 (stems, content = '');`);
  cleanups.push(() => db.isOpen && db.close());
  return { db, path };
}

/** Every row of both tables, the full-text ones by their terms and rows. */
function contents(db: DatabaseSync): unknown {
  db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.terms USING fts5vocab(main, fts, 'instance')");
  return {
    docs: db.prepare('SELECT * FROM docs ORDER BY id').all(),
    terms: db.prepare('SELECT term, doc, offset FROM temp.terms ORDER BY term, doc, offset').all(),
  };
}

/** The text of row `i` of {@link writeRows}: 20,000 characters or more, or null. */
const body = (i: number): string | null => (i % 7 === 0 ? null : `${'текст '.repeat(i % 50)}${'x'.repeat(20_000)}`);

/**
 * Runs the rows of a small build: more characters than the writer lets wait unwritten (so `ready` waits), and a
 * statement prepared after rows were run.
 */
async function writeRows(db: DatabaseSync, path: string, threads: boolean): Promise<void> {
  const writer = startRowWriter(db, path, threads);
  const doc = writer.prepare('INSERT INTO docs (id, title, body) VALUES (?, ?, ?)');
  for (let i = 1; i <= 3000; i++) {
    await writer.ready();
    doc.run(i, `ТЕСТОВИ ДАННИ ${i}`, body(i));
  }
  const fts = writer.prepare('INSERT INTO fts (rowid, stems) VALUES (?, ?)');
  for (let i = 1; i <= 3000; i++) fts.run(i, `договор${i % 13} неустойк срок${i % 5}`);
  await writer.finish();
  await writer.close();
}

describe('startRowWriter', () => {
  it('runs the writer thread from the built module', () => {
    expect(existsSync(fileURLToPath(WRITER_WORKER_URL))).toBe(true);
    let chars = 0;
    for (let i = 1; i <= 3000; i++) chars += body(i)?.length ?? 0;
    expect(chars).toBeGreaterThan(MAX_PENDING_CHARS);
  });

  it('leaves the same rows in the file from its thread as on the build’s connection', async () => {
    const threaded = newFile();
    await writeRows(threaded.db, threaded.path, true);
    const direct = newFile();
    await writeRows(direct.db, direct.path, false);
    const written = contents(threaded.db) as { docs: unknown[]; terms: unknown[] };
    expect(written.docs).toHaveLength(3000);
    expect(written.terms).toHaveLength(9000);
    expect(written).toEqual(contents(direct.db));
  });

  it('reports a failing statement with SQLite’s message, from ready and from finish', async () => {
    const { db, path } = newFile();
    const writer = startRowWriter(db, path, true);
    const doc = writer.prepare('INSERT INTO docs (id, title, body) VALUES (?, ?, ?)');
    doc.run(1, 'ТЕСТОВИ ДАННИ', 'a');
    doc.run(2, 'ТЕСТОВИ ДАННИ', 'b');
    const failed = await writer.finish().catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(Error);
    expect((failed as Error).message).toMatch(/UNIQUE constraint failed: docs\.title/);
    expect((failed as { code?: string }).code).toBe('ERR_SQLITE_ERROR');
    await writer.close();
    expect(db.prepare('SELECT COUNT(*) AS n FROM docs').get()).toEqual({ n: 0 });

    const again = startRowWriter(db, path, true);
    const row = again.prepare('INSERT INTO docs (id, title, body) VALUES (?, ?, ?)');
    row.run(1, 'ТЕСТОВИ ДАННИ', 'a');
    // Past a batch, so that the duplicate reaches the thread while the build is still running rows.
    for (let i = 2; i < 40; i++) row.run(i, i === 20 ? 'ТЕСТОВИ ДАННИ' : `ТЕСТОВИ ДАННИ ${i}`, 'x'.repeat(200_000));
    let error: unknown;
    for (let k = 0; k < 1000 && error === undefined; k++) {
      error = await again.ready().then(
        () => new Promise((resolve) => setTimeout(resolve, 10)).then(() => undefined),
        (e: unknown) => e,
      );
    }
    expect((error as Error).message).toMatch(/UNIQUE constraint failed: docs\.title/);
    await again.close();
  });

  it('leaves nothing written when stopped before it commits', async () => {
    const { db, path } = newFile();
    const writer = startRowWriter(db, path, true);
    const doc = writer.prepare('INSERT INTO docs (id, title, body) VALUES (?, ?, ?)');
    for (let i = 1; i <= 100; i++) doc.run(i, `ТЕСТОВИ ДАННИ ${i}`, 'x'.repeat(100_000));
    await writer.close();
    expect(db.prepare('SELECT COUNT(*) AS n FROM docs').get()).toEqual({ n: 0 });
  });
});
