/**
 * Statutes and case law side by side, end to end: the built CLI against the sandbox the global setup serves over
 * `../shared/corpus` (the real statutes, the 35 real decisions of the ВКС, the ВАС and the КС, and the 185 courts).
 * What issue 7 promises a lawyer: decisions filtered by court and judge (also typed in Latin letters), rule 1 refused,
 * a search result opened whole and article by article with its references, awkward ids intact, a document paid for
 * once, and catalogs that print and are cached.
 */
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { linkedDataDir, pravo, tempDir, unitsCounted } from './helpers.js';
import { CLI } from './paths.js';

const sandbox = inject('sandbox');
/** The ВКС decision whose panel includes Христина Михова (she is its reporting judge). */
const MIHOVA_DECISION = 'vks-2024-116-1164-2023';

/**
 * Runs the built CLI at a pseudo-terminal of 120 columns (util-linux `script`), as a lawyer sees it, with only the
 * given PRAVO_* variables; returns what the terminal showed.
 */
async function atTerminal(args: string[], env: Record<string, string>): Promise<string> {
  const quoted = args.map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
  const result = await execa('script', ['-qec', `stty cols 120 rows 50; node ${CLI} ${quoted}`, '/dev/null'], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TERM: 'xterm', NO_COLOR: '1', PRAVO_STATE_DIR: path.join(env.PRAVO_CONFIG_DIR!, 'state'), PRAVO_CACHE_DIR: path.join(env.PRAVO_CONFIG_DIR!, 'cache'), ...env },
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
    timeout: 60_000,
  });
  return result.stdout.replaceAll('\r', '');
}

describe('case law in the sandbox', () => {
  const home = tempDir('caselaw');
  const env = (extra: Record<string, string> = {}) => ({
    PRAVO_CONFIG_DIR: home.dir,
    PRAVO_BASE_URL: sandbox.baseUrl,
    PRAVO_API_KEY: sandbox.apiKey,
    ...extra,
  });
  afterAll(() => home.cleanup());

  it('--type high_courts_cases --court ВКС returns only decisions of the Върховен касационен съд, with case numbers', async () => {
    const result = await pravo(['search', '--json', '--type', 'high_courts_cases', '--court', 'ВКС', 'отмяна на присъдата'], { env: env() });
    expect(result.exitCode, result.stderr).toBe(0);
    const { results } = JSON.parse(result.stdout) as { results: Record<string, unknown>[] };
    expect(results.length).toBeGreaterThanOrEqual(5);
    for (const r of results) {
      expect(r).toMatchObject({ court_id: 1, court: 'Върховен касационен съд', case_number: expect.stringMatching(/^\d+\/\d{4}$/) });
    }
    // The table shows each decision's court and case number on the line under its title; piped, they are the last fields.
    const piped = await pravo(['search', '--type', 'high_courts_cases', '--court', 'ВКС', 'отмяна на присъдата'], { env: env() });
    for (const line of piped.stdout.trim().split('\n')) {
      expect(line.split('\t').slice(8)).toEqual(['Върховен касационен съд', expect.stringMatching(/^\d+\/\d{4}$/)]);
    }
  });

  it.each(['михова', 'Mihova', 'Христина Михова', 'Hristina Mihova'])('--judge "%s" finds the decisions whose panel includes Христина Михова', async (judge) => {
    const result = await pravo(['search', '--json', '--judge', judge, 'наказание лишаване от свобода'], { env: env() });
    expect(result.exitCode, result.stderr).toBe(0);
    const ids = (JSON.parse(result.stdout) as { results: { document_id: string }[] }).results.map((r) => r.document_id);
    expect(ids).toEqual([MIHOVA_DECISION]);
  });

  it('--judge of a panel member who did not report finds the decision too', async () => {
    // Лада Паунова chaired the panel of the Михова decision; Христина Михова reported it.
    const result = await pravo(['search', '--json', '--judge', 'Paunova', 'наказание'], { env: env() });
    const ids = (JSON.parse(result.stdout) as { results: { document_id: string }[] }).results.map((r) => r.document_id);
    expect(ids).toContain(MIHOVA_DECISION);
  });

  it('--court ВКС with only statutes is refused before sending, as the service would refuse it: invalid_request', async () => {
    const result = await pravo(['search', '--json', '--court', 'ВКС', '--type', 'bulgarian_laws_regulations', 'отмяна'], { env: env() });
    expect(result.exitCode).toBe(2);
    expect(JSON.parse(result.stderr).error).toMatchObject({ code: 'invalid_request', exit_code: 2 });
    // The sandbox refuses the same request with the contract's code.
    const direct = await fetch(`${sandbox.baseUrl}/v1/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': sandbox.apiKey },
      body: JSON.stringify({ query: 'отмяна', court_ids: [1], source_types: ['bulgarian_laws_regulations'] }),
    });
    expect(direct.status).toBe(400);
    expect(((await direct.json()) as { error: { code: string } }).error.code).toBe('invalid_request');
  });

  it('search, then doc 1 prints the document, and doc 1 --article N one article with the articles it refers to', async () => {
    const search = await pravo(['search', '--json', '-n', '3', 'изборен кодекс гласуване извън страната'], { env: env() });
    const first = (JSON.parse(search.stdout) as { results: { title: string }[] }).results[0]!;
    expect(first.title).toBe('Изборен кодекс');

    const whole = await pravo(['doc', '1'], { env: env() });
    expect(whole.exitCode, whole.stderr).toBe(0);
    const lines = whole.stdout.trim().split('\n').map((l) => l.split('\t'));
    const elements = (JSON.parse((await pravo(['doc', '1', '--json'], { env: env() })).stdout) as { elements: unknown[] }).elements;
    expect(elements.length).toBeGreaterThan(200);
    expect(lines).toHaveLength(elements.length);
    expect(lines[0]!.slice(0, 2)).toEqual(['1', 'Чл. 1.']);

    // The Изборен кодекс in force (2014) is first: the one of 2011 it replaced is behind it. Its чл. 12 refers to
    // чл. 14 and чл. 58 of the same act: on a terminal they are listed under it, with the command that opens them.
    const terminal = await atTerminal(['doc', '1', '--article', 'Чл. 12', '--no-pager'], env());
    expect(terminal).toMatch(/^Изборен кодекс\nКодекс · 2013-12-12 · текст както е обнародван, 04\.03\.2014$/m);
    expect(terminal).toMatch(/^Чл\. 12\. Централната избирателна комисия/m);
    expect(terminal).toMatch(/Refers to these articles of this act:\n\s+чл\. 14\n\s+чл\. 58\n/);
    // The article's heading (its title in the act) is above it.
    expect(terminal).toMatch(/^Определяне на местата за гласуване\nЧл\. 12\./m);
    expect(terminal).toContain('Open one with: pravo doc 1 --article 14');
    expect(terminal).not.toMatch(/^Чл\. 13\./m);
    // Piped, the one element is one line; the articles it refers to open the same way.
    const piped = await pravo(['doc', '1', '--article', '12'], { env: env() });
    expect(piped.stdout.trim().split('\n')).toHaveLength(1);
    expect(piped.stdout.split('\t').slice(0, 2)).toEqual(['12', 'Чл. 12.']);
    for (const ref of ['14', '58']) {
      const other = await pravo(['doc', '1', '--article', ref], { env: env() });
      expect(other.exitCode, other.stderr).toBe(0);
      expect(other.stdout.split('\t')[0]).toBe(ref);
    }
  });

  it('a decision opens with its court, case, panel and paragraphs', async () => {
    const search = await pravo(['search', '--json', '--judge', 'Mihova', 'наказание'], { env: env() });
    expect((JSON.parse(search.stdout) as { results: { document_id: string }[] }).results[0]!.document_id).toBe(MIHOVA_DECISION);
    const json = await pravo(['doc', '1', '--json'], { env: env() });
    const document = JSON.parse(json.stdout) as Record<string, unknown> & { elements: { excerpt_id: string; ref: string; label: string }[] };
    expect(document).toMatchObject({
      document_id: MIHOVA_DECISION,
      court_id: 1,
      case_number: '1164/2023',
      decision_number: '116',
      reporting_judge: 'Христина Михова',
      judges: ['Лада Паунова', 'Румен Петров', 'Христина Михова'],
    });
    expect(document.elements[2]).toMatchObject({ excerpt_id: `${MIHOVA_DECISION}:3`, ref: '3', label: '¶ 3' });
    const paragraph = await pravo(['doc', '1', '--paragraph', '19'], { env: env() });
    expect(paragraph.stdout).toMatch(/^19\t¶ 19\tР Е Ш И:/);
  });

  it('the second pravo doc of a document spends no quota: the sandbox counts one retrieval', async () => {
    // A sandbox of its own (in process, its own state beside the shared index): the shared one's counts move with
    // every other test file that retrieves a document at the same time.
    const cache = tempDir('caselaw-quota');
    const dataDir = linkedDataDir(cache.dir, sandbox.dataDir);
    const quotaEnv = { PRAVO_CONFIG_DIR: cache.dir, PRAVO_SANDBOX_CORPUS: sandbox.corpus, PRAVO_SANDBOX_DATA_DIR: dataDir };
    const search = await pravo(['search', '--sandbox', '--json', '--type', 'high_courts_cases', '--court', 'ВАС', 'касационна жалба'], { env: quotaEnv });
    expect(search.exitCode, search.stderr).toBe(0);
    const first = await pravo(['doc', '1', '--sandbox'], { env: quotaEnv });
    expect(first.exitCode, first.stderr).toBe(0);
    expect(unitsCounted(dataDir, 'retrieval')).toBe(1);
    const second = await pravo(['doc', '1', '--sandbox', '--article', '1'], { env: quotaEnv });
    expect(second.exitCode, second.stderr).toBe(0);
    expect(second.stderr).toMatch(/^From the cache: retrieved /m);
    expect(unitsCounted(dataDir, 'retrieval')).toBe(1);
    const refreshed = await pravo(['doc', '1', '--sandbox', '--refresh'], { env: quotaEnv });
    expect(refreshed.exitCode).toBe(0);
    expect(unitsCounted(dataDir, 'retrieval')).toBe(2);
    cache.cleanup();
  });

  it('catalogs print and are cached: 185 courts, the judges of the ВКС', async () => {
    const courts = await pravo(['catalog', 'courts'], { env: env() });
    expect(courts.exitCode, courts.stderr).toBe(0);
    const rows = courts.stdout.trim().split('\n').map((l) => l.split('\t'));
    expect(rows).toHaveLength(185);
    expect(rows.find((r) => r[0] === '1')).toEqual(['1', 'Върховен касационен съд', 'Върховен касационен съд', 'SC001', '', '12']);
    const judges = await pravo(['catalog', 'judges', '--court', 'ВКС', '--search', 'mihova'], { env: env() });
    expect(judges.stdout.trim()).toBe('Христина Михова\t1\t2024-02-15\t1');
    // Cached: a rejected key is never shown to the server until --refresh.
    const rejected = env({ PRAVO_API_KEY: 'sbx_live_NOTAKEYnotakeyNOTAKEYnotakey' });
    const cached = await pravo(['catalog', 'courts'], { env: rejected });
    expect(cached.exitCode).toBe(0);
    expect(cached.stdout).toBe(courts.stdout);
    expect((await pravo(['catalog', 'judges', '--court', 'ВКС', '--search', 'mihova'], { env: rejected })).exitCode).toBe(0);
    expect((await pravo(['catalog', 'courts', '--refresh'], { env: rejected })).exitCode).toBe(4);
  });
});

describe('document ids and collections with /, &, ?, #, spaces and Cyrillic round-trip intact', () => {
  const home = tempDir('caselaw-ids');
  afterAll(() => home.cleanup());
  const DOCUMENT_ID = 'тест/1?а=б&в#г д';
  const COLLECTION = 'колекция/x?y=z&w#q v';

  it('search, then doc 1 and doc <id> --collection <c> reach the same document', async () => {
    // A made-up act, titled as test data, with its own awkward collection (the corpus format allows one).
    const corpus = path.join(home.dir, 'awkward.jsonl');
    fs.writeFileSync(
      corpus,
      `${JSON.stringify({
        document_id: DOCUMENT_ID,
        collection: COLLECTION,
        source_type: 'bulgarian_laws_regulations',
        type: 'Закон',
        title: 'ТЕСТОВИ ДАННИ: Закон за странните идентификатори',
        date: '2020-01-01',
        elements: [
          { ref: '1', label: 'Чл. 1.', text: 'Чл. 1. Пазителят на фара пази фара (ТЕСТОВИ ДАННИ).' },
          { ref: '2', label: 'Чл. 2.', text: 'Чл. 2. Пазителят по чл. 1 води дневник (ТЕСТОВИ ДАННИ).' },
        ],
      })}\n`,
    );
    const env = { PRAVO_CONFIG_DIR: home.dir, PRAVO_SANDBOX_CORPUS: corpus, PRAVO_SANDBOX_DATA_DIR: path.join(home.dir, 'data') };
    const search = await pravo(['search', '--sandbox', '--json', 'пазителят на фара'], { env });
    expect(search.exitCode, search.stderr).toBe(0);
    expect((JSON.parse(search.stdout) as { results: { document_id: string; collection: string }[] }).results[0]).toMatchObject({
      document_id: DOCUMENT_ID,
      collection: COLLECTION,
    });
    const byRank = await pravo(['doc', '1', '--sandbox', '--json', '--refresh'], { env });
    expect(byRank.exitCode, byRank.stderr).toBe(0);
    expect(JSON.parse(byRank.stdout)).toMatchObject({ document_id: DOCUMENT_ID, collection: COLLECTION });
    const byId = await pravo(['doc', DOCUMENT_ID, '--collection', COLLECTION, '--sandbox', '--article', '2', '--refresh'], { env });
    expect(byId.exitCode, byId.stderr).toBe(0);
    expect(byId.stdout).toMatch(/^2\tЧл\. 2\.\t/);
  });
});
