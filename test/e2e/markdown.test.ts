/**
 * `--format md` end to end: the built CLI over the real corpus in `../shared/corpus`, through an in-process sandbox
 * (`--sandbox`, on a data directory holding the index the global setup built) and through the shared test sandbox.
 * What the issue promises: an answer whose every footnote reference has exactly one definition and every definition a
 * reference; one article written to a file atomically; search results as a numbered list.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { hasAnsi, linkedDataDir, pravo, tempDir } from './helpers.js';
import { CORPUS } from './paths.js';
import { TEST_ANSWER_DELAY_SECONDS } from './global-setup.js';
import { blockStarts, footnotesOf } from '../helpers/markdown.js';

const shared = inject('sandbox');
const home = tempDir('markdown');
afterAll(() => home.cleanup());

/** Kodeks na truda in the shared corpus, as its search results name it. */
const LABOUR_CODE = { document_id: 'akn-1986-dv-26-86-1', collection: 'c_a30f6994b8' };

/** An in-process sandbox's environment: the corpus, a data directory with (a link to) the shared index, a quick answer. */
function sandboxEnv(name: string): Record<string, string> {
  return {
    PRAVO_CONFIG_DIR: path.join(home.dir, name),
    PRAVO_SANDBOX_CORPUS: CORPUS,
    PRAVO_SANDBOX_DATA_DIR: linkedDataDir(home.dir, shared.dataDir),
    PRAVO_SANDBOX_ANSWER_DELAY: String(TEST_ANSWER_DELAY_SECONDS),
  };
}

/** The shared test sandbox's environment. */
function serviceEnv(name: string): Record<string, string> {
  return { PRAVO_CONFIG_DIR: path.join(home.dir, name), PRAVO_BASE_URL: shared.baseUrl, PRAVO_API_KEY: shared.apiKey };
}

describe('pravo answer --sandbox --format md', () => {
  it('renders the answer with footnotes: every [^n] used has exactly one [^n]: definition, and every definition is used', async () => {
    const result = await pravo(['answer', '--sandbox', '--format', 'md', 'Кога работодателят може да прекрати трудовия договор без предизвестие?'], {
      env: sandboxEnv('answer'),
      timeout: 60_000,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    const md = result.stdout;
    expect(md.split('\n')[0]).toBe('# Кога работодателят може да прекрати трудовия договор без предизвестие?');
    const { references, definitions } = footnotesOf(md);
    expect(references.size).toBeGreaterThanOrEqual(2);
    for (const label of references.keys()) expect(definitions.get(label), `[^${label}] has one definition`).toBe(1);
    for (const [label, count] of definitions) {
      expect(count, `[^${label}] is defined once`).toBe(1);
      expect(references.has(label), `[^${label}] is used`).toBe(true);
    }
    // Each definition names its source: the labour code is among them, with the article cited.
    expect(md).toMatch(/^\[\^\d+\]: Кодекс на труда, Чл\. \d+[а-я]*, 1986-04-01, текст към \d\d\.\d\d\.\d{4}, <https:\/\/lex\.bg\/laws\/ldoc\/1594373121>( \(страницата показва действащия текст [^)]*\))?$/m);
    expect(hasAnsi(md)).toBe(false);
    expect(blockStarts(md, (line) => /^(# |\[\^\d+\]: |## |- )/.test(line))).toEqual([]);
  }, 90_000);
});

describe('pravo doc --format md --article --out', () => {
  it('writes the article as Markdown to the file atomically, stdout empty; a failed run leaves the file as it was', async () => {
    const env = serviceEnv('doc');
    const dir = path.join(home.dir, 'memos');
    fs.mkdirSync(dir);
    const out = path.join(dir, 'chl-72.md');
    fs.writeFileSync(out, 'предишна бележка\n');
    const args = ['doc', LABOUR_CODE.document_id, '--collection', LABOUR_CODE.collection, '--format', 'md'];
    const result = await pravo([...args, '--article', '72', '--out', out], { env });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`Wrote Чл. 72. (Markdown) to ${out}.`);
    const md = fs.readFileSync(out, 'utf8');
    expect(md.split('\n')[0]).toBe('# Кодекс на труда');
    expect(md).toContain('- Дата: 1986-04-01');
    expect(md).toMatch(/^- Текст: към \d\d\.\d\d\.\d{4}$/m);
    expect(md).toMatch(/^\*\*Чл\. 72\.\*\* \S/m);
    expect(md).not.toContain('**Чл. 73.**');
    expect(fs.readdirSync(dir)).toEqual(['chl-72.md']);

    const missing = await pravo([...args, '--article', '9999', '--out', out], { env });
    expect(missing.exitCode).toBe(2);
    expect(fs.readFileSync(out, 'utf8')).toBe(md);
    expect(fs.readdirSync(dir)).toEqual(['chl-72.md']);
  });
});

describe('pravo search --sandbox --format md', () => {
  it('gives a numbered list of the results, each with its publication date, score and excerpts as quotes', async () => {
    const result = await pravo(['search', '--sandbox', '--format', 'md', '-n', '5', 'застрахователят отказва да изплати обезщетение'], { env: sandboxEnv('search') });
    expect(result.exitCode, result.stderr).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toBe('# Търсене: застрахователят отказва да изплати обезщетение');
    const items = lines.filter((line) => /^\d+\. /.test(line));
    expect(items.map((line) => line.split('.')[0])).toEqual(['1', '2', '3', '4', '5']);
    expect(items[0]).toBe('1. **Кодекс за застраховането**\\');
    expect(result.stdout).toMatch(/^ {3}Кодекс · дата \d{4}-\d\d-\d\d · оценка \d\.\d\d/m);
    expect(result.stdout).toMatch(/^ {3}> \*\*Чл\. \d+[а-я]*\.\*\* \(оценка \d\.\d\d\) /m);
  });
});
