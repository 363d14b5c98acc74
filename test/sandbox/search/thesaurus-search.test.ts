import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CorpusDocument } from '../../../src/sandbox/corpus/reader.js';
import { openIndex } from '../../../src/sandbox/corpus/index-db.js';
import type { SearchIndex } from '../../../src/sandbox/storage.js';
import { search } from '../../../src/sandbox/search/pipeline.js';
import { law, tempDir, writeCorpus } from '../fixtures.js';

/** An invented act (its title says it is test data): keepers of beacons, called „пазител“ in its articles. */
const BEACONS: CorpusDocument = law(
  'test-beacons',
  'Закон за измислените маяци',
  '2020-01-01',
  [
    'Маякът има пазител, назначен от общината.',
    'Пазителят на маяка пали светлината на маяка всяка вечер.',
    'Пазителят получава възнаграждение за работата на маяка.',
    'Пазителят води дневник на маяка.',
    'Отпускът на пазителя на маяка е двадесет дни.',
    'Маякът се боядисва веднъж на пет години.',
  ].map((text, i): [string, string] => [String(i + 1), text]),
);

let withThesaurus: SearchIndex;
let withoutThesaurus: SearchIndex;
let cleanup: () => void;

beforeAll(async () => {
  const t = tempDir();
  cleanup = t.cleanup;
  const corpus = writeCorpus(join(t.dir, 'beacons.jsonl'), [BEACONS]);
  // Synthetic MyThes entries (test data): „пазач“ has a sense the articles the query finds support (пазител, in five of
  // them) and one they do not (светлина: one article holds it, fewer than SENSE_SUPPORT).
  const thesaurus = join(t.dir, 'test-thesaurus.dat');
  writeFileSync(thesaurus, 'UTF-8\nпазач|2\n(същ.)|пазител|страж\n(същ.)|светлина\n');
  withThesaurus = await openIndex({ inputs: { corpusFiles: [corpus], thesaurusFile: thesaurus }, dataDir: join(t.dir, 'd') });
  withoutThesaurus = await openIndex({ inputs: { corpusFiles: [corpus] }, dataDir: join(t.dir, 'd') });
});

afterAll(() => {
  withThesaurus.close();
  withoutThesaurus.close();
  cleanup();
});

describe('thesaurus synonyms', () => {
  it('finds the article on a word the law writes otherwise, and names the synonym used', () => {
    const query = 'отпуск на пазача на маяка';
    const plain = search(withoutThesaurus, { query }).results[0]!;
    const expanded = search(withThesaurus, { query }).results[0]!;
    expect(expanded.excerpts[0]!.excerpt_id).toBe('test-beacons:5');
    expect(expanded.explanation).toContain('Търсен е и синонимът „пазител“.');
    expect(plain.explanation).not.toContain('пазител');
  });

  it('leaves out a sense the rest of the query does not support', () => {
    const expanded = search(withThesaurus, { query: 'отпуск на пазача на маяка' }).results[0]!;
    expect(expanded.explanation).not.toContain('светлина');
  });
});
