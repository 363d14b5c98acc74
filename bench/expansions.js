// The query expansions measured against the light stemmer alone, on the tuning part and the held-out part of the judged
// set: thesaurus synonyms of the senses the query's best candidates support (shipped; the thesaurus the index was built
// with, src/sandbox/text/thesaurus.ts), Bulgarian word forms from the Hunspell dictionary in place of the family
// prefix (dictionary-bg read by hunspell-reader, src/sandbox/search/morphology.ts; not shipped), and relevance feedback
// within the best acts on top of the thesaurus (ranking.ts, feedbackWithinDocument; not shipped).
//
//   node bench/expansions.js      (needs `npm run build`; part of `npm run bench`)
//
// Corpus: $PRAVO_SANDBOX_CORPUS or ../shared/corpus; index in $PRAVO_BENCH_DATA_DIR or a temporary directory.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { evaluate, loadJudgedSet, PARTS } from './relevance.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Runs the comparison; returns rows `{ variant, part, metrics }` and prints them as a table. */
export async function measureExpansions({ corpus, dataDir, log = console.log }) {
  const dist = (m) => pathToFileURL(path.join(repo, 'dist', 'sandbox', m)).href;
  const [{ openIndex }, { resolveCorpusInputs }, { search }, { searchMetadata }, { buildLexemes }] = await Promise.all(
    ['corpus/index-db.js', 'corpus/inputs.js', 'search/pipeline.js', 'search/metadata.js', 'search/morphology.js'].map((m) => import(dist(m))),
  );
  const index = await openIndex({ inputs: resolveCorpusInputs(corpus), dataDir });
  try {
    const db = new DatabaseSync(index.path, { readOnly: true });
    const held = new Set(db.prepare('SELECT term FROM fts_vocab').all().map((r) => r.term));
    db.close();
    const metadata = searchMetadata(index);
    const none = new Map(); // an empty thesaurus: no synonyms (undefined would make the search read the index's)
    const started = performance.now();
    const lexemes = await buildLexemes((s) => held.has(s));
    const lexemesMs = performance.now() - started;
    const thesaurus = index.thesaurus();
    log(`  Hunspell lexemes: ${lexemes.size} stems with other forms in the index (${(lexemesMs / 1000).toFixed(1)} s); thesaurus: ${thesaurus === undefined ? 'none in the inputs' : `${thesaurus.size} headwords with synonyms in the index`}`);
    const questions = loadJudgedSet();
    const variants = [
      ['light stemmer alone', () => {}],
      ...(thesaurus === undefined ? [] : [['+ thesaurus senses (shipped)', () => (metadata.thesaurus = thesaurus)]]),
      ['+ Hunspell word forms', () => (metadata.lexemes = lexemes)],
      ['+ thesaurus, + feedback in best acts', () => {
        metadata.feedback = true;
        if (thesaurus !== undefined) metadata.thesaurus = thesaurus;
      }],
    ];
    const rows = [];
    for (const [variant, set] of variants) {
      delete metadata.lexemes;
      delete metadata.feedback;
      metadata.thesaurus = none;
      set();
      const result = await evaluate((query, k) => search(index, { query, max_results: k }), questions);
      for (const part of PARTS) rows.push({ variant, part, metrics: result.parts[part] });
    }
    // As shipped again: the search reads the index's thesaurus on its next query.
    delete metadata.lexemes;
    delete metadata.feedback;
    delete metadata.thesaurus;
    const fixed = (v) => (typeof v === 'number' ? v.toFixed(2) : '–');
    log(`  ${'variant'.padEnd(38)} ${'part'.padEnd(9)} art@3  citizen art@3  act@1`);
    for (const { variant, part, metrics } of rows) {
      log(`  ${variant.padEnd(38)} ${part.padEnd(9)} ${fixed(metrics.overall.article_s3).padStart(5)}  ${fixed(metrics.byKind.citizen.article_s3).padStart(13)}  ${fixed(metrics.overall.act_s1).padStart(5)}`);
    }
    return rows;
  } finally {
    index.close();
  }
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const fromEnv = (process.env.PRAVO_SANDBOX_CORPUS ?? '').split(path.delimiter).filter((e) => e.trim() !== '');
  const corpus = fromEnv.length > 0 ? fromEnv : [path.resolve(repo, '..', 'shared', 'corpus')];
  const given = process.env.PRAVO_BENCH_DATA_DIR;
  const dataDir = given ?? fs.mkdtempSync(path.join(os.tmpdir(), 'pravo-expansions-'));
  measureExpansions({ corpus, dataDir })
    .catch((error) => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    })
    .finally(() => {
      if (given === undefined) fs.rmSync(dataDir, { recursive: true, force: true });
    });
}
