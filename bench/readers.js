// The corpus readers at depth (issue 31): official payload HTML and Akoma Ntoso XML nested 150,000 and 1,500,000 deep,
// each read in-process through the built modules. Linear readers take about ten times as long for ten times the depth;
// a reader quadratic in the depth (htmlparser2's Parser stack, saxes' namespace lookup) a hundred times. Synthetic
// test data only („тестов“), written to the bench's temporary directory. Alone: `node bench/readers.js`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The two depths; the goal is on the ratio of their times. */
const SHALLOW = 150_000;
const DEEP = 1_500_000;
/** Most the time may grow from SHALLOW to DEEP (×10 deeper): linear is about ×10, quadratic ×100. */
export const READER_RATIO_GOAL = 20;

/** A synthetic Akoma Ntoso act whose one article sits inside `depth` nested chapters. */
function deepAkn(depth) {
  return `<?xml version="1.0" encoding="UTF-8"?><akomaNtoso xmlns="http://docs.oasis-open.org/legaldocml/ns/akn/3.0"><act contains="originalVersion"><meta><identification source="#bench"><FRBRWork><FRBRthis value="/akn/bg/act/2020/bench/main"/><FRBRuri value="/akn/bg/act/2020/bench"/><FRBRalias name="short" value="Тестов закон (тестови данни)"/><FRBRdate date="2020-01-01" name="Generation"/></FRBRWork><FRBRExpression><FRBRdate date="2020-01-01" name="Generation"/></FRBRExpression></identification></meta><body>${'<chapter>'.repeat(depth)}<article><num>Чл. 1.</num><content><p>Тестов текст.</p></content></article>${'</chapter>'.repeat(depth)}</body></act></akomaNtoso>`;
}

/**
 * Times each reader at both depths and reports `SHALLOW ms → DEEP ms (×ratio)` with the goal on the ratio.
 * @param report `(name, value, goal, met)` of bench/run.js.
 * @param work a temporary directory for the Akoma Ntoso files.
 */
export async function runReaders(report, work) {
  const { htmlToLines } = await import(path.join(repo, 'dist', 'sandbox', 'corpus', 'payload.js'));
  const { readAknFile } = await import(path.join(repo, 'dist', 'sandbox', 'corpus', 'akn.js'));
  const readers = [
    ['payload HTML, nested <div>', async (depth) => htmlToLines(`${'<div>'.repeat(depth)}Тестов текст.${'</div>'.repeat(depth)}`)],
    [
      'Akoma Ntoso XML, nested <chapter>',
      async (depth) => {
        const file = path.join(work, `deep-${depth}.xml`);
        fs.writeFileSync(file, deepAkn(depth));
        try {
          return await readAknFile(file);
        } finally {
          fs.rmSync(file, { force: true });
        }
      },
    ],
  ];
  for (const [name, read] of readers) {
    const times = [];
    for (const depth of [SHALLOW, DEEP]) {
      const started = performance.now();
      await read(depth);
      times.push(performance.now() - started);
    }
    const ratio = times[1] / times[0];
    report(
      `reader at depth: ${name}`,
      `${times[0].toFixed(0)} ms at ${SHALLOW.toLocaleString('en')} → ${(times[1] / 1000).toFixed(1)} s at ${DEEP.toLocaleString('en')} (×${ratio.toFixed(1)})`,
      `× < ${READER_RATIO_GOAL} (linear: ×10)`,
      ratio < READER_RATIO_GOAL,
    );
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'pravo-bench-readers-'));
  try {
    await runReaders((name, value, goal, met) => console.log(`${name.padEnd(46)} ${value.padEnd(30)} goal: ${goal}${met ? '  ✓' : '  ✗ not met'}`), work);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
