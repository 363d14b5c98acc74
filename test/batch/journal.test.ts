/**
 * The journal of `pravo batch` (`src/batch/journal.ts`): where each item stands after a run is killed at any moment
 * (what a rerun skips, collects, finishes, or lists as interrupted instead of spending a unit twice), read back from
 * the file after a kill, and written with its header once.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  topDocuments,
  Journal,
  applyEvent,
  documentKey,
  itemStatus,
  journalPathFor,
  markUncertain,
  readJournal,
  type ItemProgress,
  type JournalEvent,
  type JournalHeader,
} from '../../src/batch/journal.js';

const AT = '2025-03-15T12:00:00.000Z';
const NOW = Date.parse(AT);

const HEADER: JournalHeader = {
  type: 'batch',
  version: 1,
  digest: 'a'.repeat(64),
  mode: 'search',
  fetch_docs: 2,
  items: 3,
  target: { sandbox: false, profile: 'default', base_url: 'https://api.example.invalid' },
  created_at: AT,
};

let root: string;
let file: string;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'pravo-journal-test-'));
  file = journalPathFor(path.join(root, 'results.jsonl'));
});

afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

/** The progress after `events`, folded in order. */
function fold(...events: JournalEvent[]): Map<number, ItemProgress> {
  const progress = new Map<number, ItemProgress>();
  for (const event of events) applyEvent(progress, event);
  return progress;
}

const sent = (line: number, what: 'search' | 'answer' | 'document', doc?: { document_id: string; collection: string }): JournalEvent => ({
  type: 'sent',
  line,
  what,
  ...doc,
  at: AT,
});

const lines = (): string[] => fs.readFileSync(file, 'utf8').split('\n').filter((l) => l !== '');

describe('journalPathFor', () => {
  it('puts the journal beside the results, named after them', () => {
    expect(journalPathFor('/data/results.jsonl')).toBe('/data/results.jsonl.journal');
  });
});

describe('itemStatus after the journal fold', () => {
  it('says pending for an item the journal does not mention', () => {
    expect(itemStatus(undefined)).toBe('pending');
    expect(itemStatus(fold(sent(1, 'search')).get(2))).toBe('pending');
  });

  it('says interrupted for a request sent without a recorded outcome, and names what was in flight', () => {
    const item = fold(sent(4, 'search')).get(4)!;
    expect(itemStatus(item)).toBe('interrupted');
    expect(item.inFlight).toEqual({ what: 'search' });
  });

  it('says pending again when the request was refused without being counted (unsent)', () => {
    const item = fold(sent(4, 'answer'), { type: 'unsent', line: 4, what: 'answer', reason: 'monthly_quota_exceeded', at: AT }).get(4)!;
    expect(itemStatus(item)).toBe('pending');
    expect(item.inFlight).toBeUndefined();
  });

  it('says job once the answer job is created, keeping its id for the rerun to poll', () => {
    const item = fold(sent(2, 'answer'), { type: 'job', line: 2, job_id: 'ans_123', at: AT }).get(2)!;
    expect(itemStatus(item)).toBe('job');
    expect(item.jobId).toBe('ans_123');
  });

  it('says searched once the search response is journaled, keeping it for the rerun', () => {
    const item = fold(sent(3, 'search'), { type: 'searched', line: 3, response: '{"results":[]}', at: AT }).get(3)!;
    expect(itemStatus(item)).toBe('searched');
    expect(item.searched).toBe('{"results":[]}');
  });

  it('says interrupted while a document retrieval is in flight after the search, naming the document', () => {
    const item = fold(
      sent(3, 'search'),
      { type: 'searched', line: 3, response: '{}', at: AT },
      sent(3, 'document', { document_id: 'doc-1', collection: 'laws' }),
    ).get(3)!;
    expect(itemStatus(item)).toBe('interrupted');
    expect(item.inFlight).toEqual({ what: 'document', document_id: 'doc-1' });
  });

  it('goes back to searched once the document is retrieved, and remembers each document retrieved', () => {
    const item = fold(
      sent(3, 'search'),
      { type: 'searched', line: 3, response: '{}', at: AT },
      sent(3, 'document', { document_id: 'doc-1', collection: 'laws' }),
      { type: 'retrieved', line: 3, document_id: 'doc-1', collection: 'laws', at: AT },
      { type: 'retrieved', line: 3, document_id: 'doc-2', collection: 'cases', at: AT },
    ).get(3)!;
    expect(itemStatus(item)).toBe('searched');
    expect(item.retrieved).toEqual(new Set([documentKey('doc-1', 'laws'), documentKey('doc-2', 'cases')]));
  });

  it('tells the same document id in two collections apart', () => {
    expect(documentKey('42', 'laws')).not.toBe(documentKey('42', 'cases'));
  });

  it('says done once the results line is durable, with or without an error', () => {
    expect(itemStatus(fold(sent(1, 'search'), { type: 'done', line: 1, ok: true, at: AT }).get(1))).toBe('done');
    const failed = fold(sent(1, 'search'), { type: 'done', line: 1, ok: false, at: AT }).get(1)!;
    expect(itemStatus(failed)).toBe('done');
    expect(failed.done).toEqual({ ok: false });
  });

  it('says done rather than job for an answer job collected', () => {
    const item = fold(sent(1, 'answer'), { type: 'job', line: 1, job_id: 'ans_1', at: AT }, { type: 'done', line: 1, ok: true, at: AT }).get(1)!;
    expect(itemStatus(item)).toBe('done');
  });

  it('says interrupted again when an interrupted request is retried and interrupted once more', () => {
    const item = fold(sent(5, 'answer'), sent(5, 'answer')).get(5)!;
    expect(itemStatus(item)).toBe('interrupted');
  });

  it('keeps each item to its own line', () => {
    const progress = fold(sent(1, 'search'), sent(2, 'search'), { type: 'done', line: 2, ok: true, at: AT });
    expect(itemStatus(progress.get(1))).toBe('interrupted');
    expect(itemStatus(progress.get(2))).toBe('done');
  });
});

describe('readJournal', () => {
  it('reads an empty journal for a missing file', async () => {
    const content = await readJournal(path.join(root, 'missing.journal'));
    expect(content.header).toBeUndefined();
    expect(content.progress.size).toBe(0);
  });

  it('reads the header and each item, ignoring a torn last line', async () => {
    fs.writeFileSync(
      file,
      [
        JSON.stringify(HEADER),
        JSON.stringify(sent(1, 'search')),
        JSON.stringify({ type: 'done', line: 1, ok: true, at: AT }),
        JSON.stringify(sent(2, 'search')),
        '{"type":"done","line":2,"o',
      ].join('\n'),
    );
    const content = await readJournal(file);
    expect(content.header).toEqual(HEADER);
    expect(itemStatus(content.progress.get(1))).toBe('done');
    // The kill came before "done" of line 2 was whole: its search stays in flight, so it is not sent again silently.
    expect(itemStatus(content.progress.get(2))).toBe('interrupted');
  });

  it('lists every complete line that is not a record pravo writes as unreadable, with the line it names if any', async () => {
    fs.writeFileSync(
      file,
      [
        JSON.stringify(HEADER),
        'not json',
        'null',
        '42',
        '"text"',
        '[]',
        '{}',
        '{"type":"done","line":"1","ok":true}',
        '{"type":"job","line":5}',
        '{"type":"sent","line":6,"what":"fax","at":"x"}',
        JSON.stringify(sent(3, 'search')),
        '',
      ].join('\n'),
    );
    const content = await readJournal(file);
    expect(content.header).toEqual(HEADER);
    expect(content.unreadable).toEqual([
      ...[2, 3, 4, 5, 6, 7, 8].map((record) => ({ record, line: undefined })),
      { record: 9, line: 5 },
      { record: 10, line: 6 },
    ]);
    expect(itemStatus(content.progress.get(3))).toBe('interrupted');
    // A record that names its line, unreadable: what was sent for that line is unknown.
    expect(itemStatus(content.progress.get(5))).toBe('interrupted');
    expect(itemStatus(content.progress.get(6))).toBe('interrupted');
  });

  it('a damaged record in the middle makes its line interrupted, not pending: it may have announced a request', async () => {
    fs.writeFileSync(
      file,
      [
        JSON.stringify(HEADER),
        JSON.stringify(sent(1, 'search')),
        JSON.stringify({ type: 'done', line: 1, ok: true, at: AT }),
        // The sent record of line 2, damaged after it was written: without it line 2 would look never sent.
        '{"type":"sent","line":2,"what":"sea\u0000\u0000\u0000',
        JSON.stringify(sent(3, 'search')),
        JSON.stringify({ type: 'done', line: 3, ok: true, at: AT }),
        '',
      ].join('\n'),
    );
    const content = await readJournal(file);
    expect(content.unreadable).toEqual([{ record: 4, line: 2 }]);
    expect([1, 2, 3].map((line) => itemStatus(content.progress.get(line)))).toEqual(['done', 'interrupted', 'done']);
  });

  it('a damaged record that names no line makes every line not done interrupted, once the input lines are known', async () => {
    fs.writeFileSync(
      file,
      [JSON.stringify(HEADER), JSON.stringify(sent(1, 'search')), JSON.stringify({ type: 'done', line: 1, ok: true, at: AT }), '\u0000\u0000{"ty', ''].join('\n'),
    );
    const content = await readJournal(file);
    expect(content.unreadable).toEqual([{ record: 4, line: undefined }]);
    expect(itemStatus(content.progress.get(2))).toBe('pending');
    markUncertain(content, [1, 2, 3]);
    expect([1, 2, 3].map((line) => itemStatus(content.progress.get(line)))).toEqual(['done', 'interrupted', 'interrupted']);
  });

  it('leaves the lines alone when every complete line reads (markUncertain does nothing)', async () => {
    fs.writeFileSync(file, `${JSON.stringify(HEADER)}\n${JSON.stringify(sent(1, 'search'))}\n{"type":"done","li`);
    const content = await readJournal(file);
    expect(content.unreadable).toEqual([]);
    markUncertain(content, [1, 2]);
    expect([1, 2].map((line) => itemStatus(content.progress.get(line)))).toEqual(['interrupted', 'pending']);
  });

  it('takes the header from the first record only', async () => {
    fs.writeFileSync(file, `not a header\n${JSON.stringify(HEADER)}\n`);
    const content = await readJournal(file);
    expect(content.header).toBeUndefined();
    expect(content.unreadable).toEqual([{ record: 1, line: undefined }]);
  });

  it('keeps the first header when a second one follows', async () => {
    fs.writeFileSync(file, `${JSON.stringify(HEADER)}\n${JSON.stringify({ ...HEADER, digest: 'b'.repeat(64) })}\n`);
    expect((await readJournal(file)).header?.digest).toBe('a'.repeat(64));
  });
});

describe('Journal', () => {
  it('writes the header first in a new journal, with mode 0600, and each event after it with its time', async () => {
    const journal = await Journal.open(file, await readJournal(file), HEADER, () => NOW);
    await journal.record({ type: 'sent', line: 1, what: 'search' });
    await journal.close();
    expect(lines().map((l) => JSON.parse(l) as unknown)).toEqual([HEADER, { type: 'sent', line: 1, what: 'search', at: AT }]);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it('does not write the header again when a journal is reopened', async () => {
    const first = await Journal.open(file, await readJournal(file), HEADER, () => NOW);
    await first.record({ type: 'sent', line: 1, what: 'search' });
    await first.close();

    const second = await Journal.open(file, await readJournal(file), { ...HEADER, created_at: '2025-04-01T00:00:00.000Z' }, () => NOW);
    await second.record({ type: 'unsent', line: 1, what: 'search', reason: 'monthly_quota_exceeded' });
    await second.close();

    const types = lines().map((l) => (JSON.parse(l) as { type: string }).type);
    expect(types).toEqual(['batch', 'sent', 'unsent']);
    expect((await readJournal(file)).header).toEqual(HEADER);
  });

  it('writes the header whole when the first run was killed while writing it', async () => {
    fs.writeFileSync(file, JSON.stringify(HEADER).slice(0, 30));
    const content = await readJournal(file);
    expect(content.header).toBeUndefined();
    const journal = await Journal.open(file, content, HEADER, () => NOW);
    await journal.close();
    expect(lines()).toEqual([JSON.stringify(HEADER)]);
  });

  it('keeps the progress across a reopen, and goes on from it', async () => {
    const first = await Journal.open(file, await readJournal(file), HEADER, () => NOW);
    await first.record({ type: 'sent', line: 1, what: 'search' });
    await first.record({ type: 'done', line: 1, ok: true });
    await first.record({ type: 'sent', line: 2, what: 'search' });
    await first.record({ type: 'searched', line: 2, response: '{"results":[]}' });
    await first.record({ type: 'sent', line: 3, what: 'search' });
    await first.close();

    const read = await readJournal(file);
    expect(itemStatus(read.progress.get(1))).toBe('done');
    expect(itemStatus(read.progress.get(2))).toBe('searched');
    expect(itemStatus(read.progress.get(3))).toBe('interrupted');

    const second = await Journal.open(file, read, HEADER, () => NOW);
    expect(second.progress).toBe(read.progress);
    await second.record({ type: 'retrieved', line: 2, document_id: 'doc-1', collection: 'laws' });
    await second.record({ type: 'done', line: 2, ok: true });
    await second.close();

    const again = await readJournal(file);
    expect([1, 2, 3].map((line) => itemStatus(again.progress.get(line)))).toEqual(['done', 'done', 'interrupted']);
    expect(again.progress.get(2)!.retrieved).toEqual(new Set([documentKey('doc-1', 'laws')]));
  });

  it('applies each event to its progress once it is recorded', async () => {
    const journal = await Journal.open(file, await readJournal(file), HEADER, () => NOW);
    await journal.record({ type: 'sent', line: 7, what: 'answer' });
    expect(itemStatus(journal.progress.get(7))).toBe('interrupted');
    await journal.record({ type: 'job', line: 7, job_id: 'ans_7' });
    expect(itemStatus(journal.progress.get(7))).toBe('job');
    await journal.close();
  });

  it('gives an empty progress for an item it has not seen, and keeps it', async () => {
    const journal = await Journal.open(file, await readJournal(file), HEADER, () => NOW);
    const item = journal.item(9);
    expect(item).toEqual({ line: 9, retrieved: new Set() });
    expect(journal.item(9)).toBe(item);
    expect(itemStatus(item)).toBe('pending');
    await journal.close();
  });

  it('has every recorded event in the file once record resolves, also when records are started together', async () => {
    const journal = await Journal.open(file, await readJournal(file), HEADER, () => NOW);
    await Promise.all([1, 2, 3, 4, 5].map((line) => journal.record({ type: 'sent', line, what: 'search' })));
    expect(lines()).toHaveLength(6);
    await journal.close();
    const read = await readJournal(file);
    expect([...read.progress.keys()]).toEqual([1, 2, 3, 4, 5]);
  });
});

describe('topDocuments', () => {
  it('takes the first K distinct documents in rank order, a document ranked twice once', () => {
    const results = [
      { document_id: 'test-a', collection: 'c1' },
      { document_id: 'test-a', collection: 'c1' },
      { document_id: 'test-a', collection: 'c2' },
      { document_id: 'test-b', collection: 'c1' },
      { document_id: 'test-c', collection: 'c1' },
    ];
    expect(topDocuments(results, 3)).toEqual([results[0], results[2], results[3]]);
    expect(topDocuments(results, 10)).toHaveLength(4);
    expect(topDocuments(results, 0)).toEqual([]);
  });
});
