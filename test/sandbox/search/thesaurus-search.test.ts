import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CorpusDocument } from '../../../src/sandbox/corpus/reader.js';
import { openIndex } from '../../../src/sandbox/corpus/index-db.js';
import type { SearchIndex } from '../../../src/sandbox/storage.js';
import { search } from '../../../src/sandbox/search/pipeline.js';
import { law, tempDir, writeCorpus } from '../fixtures.js';
import { SENSE_SUPPORT, termGroups, withThesaurus as addSynonyms, type FeedbackArticle } from '../../../src/sandbox/search/vocabulary.js';
import { analyze, analyzeQuery } from '../../../src/sandbox/text/analysis.js';
import { parseThesaurus } from '../../../src/sandbox/text/thesaurus.js';

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

describe('withThesaurus: which senses the rest of the query supports', () => {
  /** `n` best candidate articles matching the query groups `groups` and holding `words`. */
  const articles = (n: number, groups: number[], words: string): FeedbackArticle[] =>
    Array.from({ length: n }, () => ({ groups, stems: new Set(analyze(words)) }));
  /** The synonyms `withThesaurus` adds to the first word of `query`. */
  const added = (query: string, thesaurus: string, feedback: FeedbackArticle[]): string[] => {
    const groups = termGroups(analyzeQuery(query).terms);
    const [first] = addSynonyms(groups, parseThesaurus(`UTF-8\n${thesaurus}`), feedback);
    return first!.stems.flatMap((s) => (s.expansion === undefined ? [] : [s.expansion]));
  };
  const BEACON_KEEPER = 'пазач|1\n(същ.)|пазител|страж\n';

  it('adds a synonym that articles the other words found hold in place of the word', () => {
    expect(added('пазач маяк', BEACON_KEEPER, articles(SENSE_SUPPORT, [1], 'пазителят на маяка'))).toEqual(['пазител']);
    expect(added('пазач маяк', BEACON_KEEPER, articles(SENSE_SUPPORT - 1, [1], 'пазителят на маяка'))).toEqual([]);
  });

  it('does not count articles that hold the word beside the "synonym": there they are two things', () => {
    // As „присъда“ and the „наказание“ it imposes: every article on the one names the other.
    expect(added('пазач маяк', BEACON_KEEPER, articles(20, [0, 1], 'пазачът и пазителят на маяка'))).toEqual([]);
    expect(added('пазач маяк', BEACON_KEEPER, [...articles(20, [0, 1], 'пазачът и пазителят'), ...articles(SENSE_SUPPORT, [1], 'пазителят')])).toEqual(['пазител']);
  });

  it('never adds a term the law sets apart from the word (DISTINCT_LEGAL_TERMS), however supported', () => {
    // The thesaurus's sense of „присъда“ (test entry after bg-thesaurus.dat.gz): отсъждане | присъждане | наказание.
    const sentence = 'присъда|1\n(същ.)|отсъждане|присъждане|наказание\n';
    const feedback = articles(20, [1], 'отсъждане, присъждане и наказание по маяка');
    expect(added('присъда маяк', sentence, feedback)).toEqual(['отсъждане', 'присъждане']);
    expect(added('присъдата маяк', 'присъда|1\n(същ.)|решение|определение\n', articles(20, [1], 'решение и определение'))).toEqual([]);
  });
});
