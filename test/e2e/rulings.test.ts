/**
 * Case law tied to the law, end to end (issue 33's "Done when"): the built CLI with the sandbox over `../shared/corpus`
 * (the consolidated НК, НПК and Constitution, and the 440 acts of the КС and the ВАС printed in the State Gazette).
 * - `pravo doc --article 79` of the Наказателен кодекс says above the text that КС Решение № 12 of 2016 struck down its
 *   ал. 2, т. 2, and gives the command that opens the decision at its operative paragraph, which does;
 * - `pravo cite` warns on „чл. 64, ал. 2 НПК“ (its second sentence was struck down) and gives
 *   `declared_unconstitutional` for „чл. 79, ал. 2, т. 2 от НК“, with exit 8;
 * - the Constitution's most cited articles list the КС decisions that apply them;
 * - a search result's explanation names the ruling.
 * The memo is written for the tests (its title says so); it quotes no legal text, it only cites.
 */
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { linkedDataDir, pravo, tempDir } from './helpers.js';
import { CLI, CORPUS } from './paths.js';

const shared = inject('sandbox');
const home = tempDir('rulings');
afterAll(() => home.cleanup());
const dataDir = linkedDataDir(home.dir, shared.dataDir);
const env = { PRAVO_CONFIG_DIR: path.join(home.dir, 'config'), PRAVO_SANDBOX_CORPUS: CORPUS, PRAVO_SANDBOX_DATA_DIR: dataDir, PRAVO_CACHE_DIR: path.join(home.dir, 'cache') };

/** The CLI at a pseudo-terminal of 100 columns (util-linux `script`), as a lawyer sees it; what the terminal showed. */
async function atTerminal(args: string[]): Promise<string> {
  const quoted = args.map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
  const result = await execa('script', ['-qec', `stty cols 100 rows 50; node ${CLI} ${quoted}`, '/dev/null'], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TERM: 'xterm', NO_COLOR: '1', PAGER: 'cat', PRAVO_STATE_DIR: path.join(home.dir, 'state'), ...env },
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
    timeout: 120_000,
  });
  return result.stdout.replaceAll('\r', '');
}

/** The `collection` of a document, from a search that finds it. */
async function collectionOf(query: string, documentId: string): Promise<string> {
  const result = await pravo(['search', '--sandbox', '--json', '-n', '10', query], { env });
  expect(result.exitCode, result.stderr).toBe(0);
  const hit = (JSON.parse(result.stdout) as { results: { document_id: string; collection: string }[] }).results.find((r) => r.document_id === documentId);
  expect(hit, `${documentId} among the results of „${query}“`).toBeDefined();
  return hit!.collection;
}

describe('case law tied to the law, over the real corpus', () => {
  it('pravo doc --article 79 of the НК says КС Решение № 12 of 2016 struck down ал. 2, т. 2, and the decision is one command away', async () => {
    const collection = await collectionOf('чл. 79 НК давност', 'akn-1968-nk');
    const shown = (await atTerminal(['doc', '--sandbox', 'akn-1968-nk', '--collection', collection, '--article', '79'])).replace(/\n(?!\n)/gu, ' ');
    expect(shown).toContain('чл. 79, ал. 2, т. 2 declared unconstitutional by Решение № 12 от 2016 г. на Конституционния съд (2016-10-13)');
    expect(shown).toContain("Read from the act's note and the decision's operative part.");
    const open = /Open the decision with: (pravo doc ks-2016-12-13-2015 --collection \S+ --sandbox --paragraph \d+)/u.exec(shown);
    expect(open, shown).not.toBeNull();
    // The ruling stands above the article's text.
    expect(shown.indexOf('declared unconstitutional')).toBeLessThan(shown.indexOf('Наказателното преследване'));
    const decision = await pravo([...open![1]!.split(' ').slice(1), '--json'], { env });
    expect(decision.exitCode, decision.stderr).toBe(0);
    expect((JSON.parse(decision.stdout) as { text: string }).text).toMatch(/^Обявява за противоконституционни чл\. 79, ал\. 2, т\. 2 от Наказателния кодекс/u);
  });

  it('pravo cite warns that the second sentence of чл. 64, ал. 2 НПК was declared unconstitutional, and exits 8', async () => {
    const file = path.join(home.dir, 'memo.md');
    fs.writeFileSync(file, '# Тестова бележка (написана за тестовете на pravo)\n\nПо чл. 64, ал. 2 НПК; виж и чл. 79, ал. 2, т. 2 от НК и чл. 79, ал. 1 НК.\n');
    const result = await pravo(['cite', '--sandbox', '--json', '--yes', file], { env });
    expect(result.exitCode, result.stderr).toBe(8);
    const { citations } = JSON.parse(result.stdout) as { citations: Record<string, unknown>[] };
    expect(citations).toHaveLength(3);
    expect(citations[0]).toMatchObject({ text: 'чл. 64, ал. 2', verdict: 'found', warning: expect.stringMatching(/^чл\. 64, ал\. 2, изречение второ declared unconstitutional by Решение № 13 от 2021 г\./u) });
    expect(citations[1]).toMatchObject({ text: 'чл. 79, ал. 2, т. 2', verdict: 'declared_unconstitutional', detail: expect.stringContaining('(ks-2016-12-13-2015, 2016-10-13)') });
    expect(citations[2]).toMatchObject({ text: 'чл. 79, ал. 1', verdict: 'found', warning: null });
  });

  it("the Constitution's most cited articles list the КС decisions that apply them, newest first", async () => {
    const collection = await collectionOf('чл. 4 от Конституцията', 'ldoc-521957377');
    const result = await pravo(['doc', '--sandbox', 'ldoc-521957377', '--collection', collection, '--json'], { env });
    expect(result.exitCode, result.stderr).toBe(0);
    type Cited = { court: string; date: string; document_id: string };
    const { elements } = JSON.parse(result.stdout) as { elements: { ref: string; cited_by?: Cited[] }[] };
    const cited = elements.filter((e) => e.cited_by !== undefined).sort((a, b) => b.cited_by!.length - a.cited_by!.length);
    const top = cited.slice(0, 5);
    // Measured on ../shared/corpus: чл. 149 (the Court's powers) and чл. 4 (the rule of law) lead, cited by over 100 decisions each.
    expect(top.map((e) => e.ref).slice(0, 2)).toEqual(['149', '4']);
    for (const element of top) {
      const ks = element.cited_by!.filter((d) => d.court === 'Конституционен съд');
      expect(ks.length, `чл. ${element.ref}`).toBeGreaterThanOrEqual(Math.ceil(element.cited_by!.length / 3));
      const dates = element.cited_by!.map((d) => d.date);
      expect(dates).toEqual([...dates].sort().reverse());
    }
  });

  it("a search result's explanation names the ruling on the article it excerpts", async () => {
    const result = await pravo(['search', '--sandbox', '--json', '-n', '3', 'чл. 79 НК давност'], { env });
    expect(result.exitCode, result.stderr).toBe(0);
    const first = (JSON.parse(result.stdout) as { results: { document_id: string; explanation: string }[] }).results[0]!;
    expect(first.document_id).toBe('akn-1968-nk');
    expect(first.explanation).toContain('Решение № 12 от 2016 г. на Конституционния съд обявява за противоконституционна разпоредбата на чл. 79, ал. 2, т. 2.');
  });
});
