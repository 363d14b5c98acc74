/**
 * `--format md` and `--out` of `pravo search`, `pravo doc` and `pravo answer`, run in this process (`main()` on test
 * streams, an injected clock for answer jobs) against a loopback server over synthetic documents (titles say they are
 * test data): Markdown on stdout (a terminal too) or written to a file atomically, and the usage errors that stop a run
 * before anything is sent.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli.js';
import type { AnswerJob, DocumentResponse } from '../../src/contract/types.js';
import { testDecision, testStatute } from '../helpers/documents.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { runPravo, testHost } from '../helpers/host.js';
import { footnotesOf } from '../helpers/markdown.js';
import { recordingServer, type Recorded } from '../helpers/recording-server.js';

/** A made-up key of the live form; not a real credential. */
const KEY = 'sbx_live_TESTKEYabcdefghijklmnopqrstuvwx';
const QUESTION = 'Какъв е срокът за тестовото уведомление?';

let root: string;
let env: NodeJS.ProcessEnv;
const servers: { close: () => Promise<void> }[] = [];

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'pravo-cmd-markdown-'));
  env = { PRAVO_CONFIG_DIR: path.join(root, 'config'), PRAVO_STATE_DIR: path.join(root, 'state'), PRAVO_CACHE_DIR: path.join(root, 'cache') };
});

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  fs.rmSync(root, { recursive: true, force: true });
});

const statute: DocumentResponse = { ...testStatute(), as_of: '2024-02-01', consolidated: true };
const decision = testDecision();

/** A search response naming the synthetic statute and decision, with excerpts. */
function searchBody(query: string): string {
  return JSON.stringify({
    query,
    result_count: 2,
    results: [statute, decision].map((d, i) => ({
      document_id: d.document_id,
      collection: d.collection,
      type: d.type,
      title: d.title,
      date: d.date,
      url: d.url,
      score: 0.9 - i / 2,
      excerpts: [{ excerpt_id: `${d.document_id}:2`, label: d.elements![1]!.label, score: 0.8, text: d.elements![1]!.text }],
      ...(i === 1 ? { court: decision.court, case_number: decision.case_number, decision_number: decision.decision_number } : {}),
    })),
  });
}

/** A succeeded job over the synthetic statute and decision: excerpt markers, a document marker, an unknown one. */
function succeededJob(jobId: string): AnswerJob {
  return {
    job_id: jobId,
    status: 'succeeded',
    query: QUESTION,
    answer:
      'Относими са Закон за примерните уведомления (ТЕСТОВИ ДАННИ) [test-act-1] и тестово решение [test-case-1:2].\n\n' +
      'Срокът за уведомяване е седем дни. [test-act-1:4] Още нещо. [act-999:1]',
    sources: [
      {
        document_id: statute.document_id,
        collection: statute.collection,
        type: statute.type,
        title: statute.title,
        date: statute.date,
        url: statute.url,
        excerpts: [{ excerpt_id: 'test-act-1:4', label: 'Чл. 4.', text: 'Срокът за уведомяване е седем дни (тестов текст).' }],
      },
      {
        document_id: decision.document_id,
        collection: decision.collection,
        type: decision.type,
        title: decision.title,
        date: decision.date,
        url: decision.url,
        court: decision.court,
        case_number: decision.case_number ?? undefined,
        excerpts: [{ excerpt_id: 'test-case-1:2', label: '¶ 2', text: 'Жалбата е допустима.' }],
      },
    ],
  };
}

/**
 * A server with POST /v1/search, GET /v1/documents over the synthetic statute and decision, POST /v1/answers (202,
 * `ans_1`, `ans_2` …) and GET /v1/answers/{id} answering `jobs[n - 1]` for `ans_n`.
 */
async function serve(jobs: AnswerJob[] = []) {
  let created = 0;
  const server = await recordingServer((request: Recorded) => {
    const url = new URL(request.url, 'http://localhost');
    if (request.method === 'POST' && url.pathname === '/v1/search') {
      return { status: 200, body: searchBody((JSON.parse(request.body) as { query: string }).query) };
    }
    if (request.method === 'GET' && url.pathname === '/v1/documents') {
      const doc = [statute, decision].find((d) => d.document_id === url.searchParams.get('document_id') && d.collection === url.searchParams.get('collection'));
      if (doc) return { status: 200, body: JSON.stringify(doc) };
      return { status: 404, body: JSON.stringify({ error: { code: 'not_found', message: 'No such document.' } }) };
    }
    if (request.method === 'POST' && url.pathname === '/v1/answers') {
      created++;
      return { status: 202, body: JSON.stringify({ job_id: `ans_${created}`, status: 'queued', poll_url: `/v1/answers/ans_${created}` }) };
    }
    const match = /^\/v1\/answers\/ans_(\d+)$/.exec(url.pathname);
    if (request.method === 'GET' && match) {
      const job = jobs[Number(match[1]) - 1];
      if (job) return { status: 200, body: JSON.stringify({ ...job, job_id: `ans_${match[1]}` }) };
    }
    return { status: 404, body: JSON.stringify({ error: { code: 'not_found', message: 'no route' } }) };
  });
  servers.push(server);
  env = { ...env, PRAVO_BASE_URL: server.url, PRAVO_API_KEY: KEY };
  return server;
}

/** Runs `pravo ...args` with a fake clock, advancing it through each wait as soon as pravo starts it (no real waiting). */
async function drive(args: string[], options: { stdoutTTY?: boolean } = {}) {
  const clock = new FakeClock();
  const t = testHost({ env, clock, ...options });
  let finished = false;
  const run = main(args, t.host).finally(() => (finished = true));
  for (let n = 1; !finished; n++) {
    await vi.waitFor(() => expect(finished || clock.sleeps.length >= n).toBe(true), { timeout: 5_000, interval: 2 });
    if (finished) break;
    await clock.advance(clock.sleeps[n - 1]!);
  }
  return { exitCode: await run, stdout: t.stdout(), stderr: t.stderr() };
}

/** Whether `text` holds ANSI escape sequences. */
const hasAnsi = (text: string): boolean => /\x1b\[/.test(text);

/** The files of a directory, to show that an atomic write leaves no temporary file behind. */
const filesIn = (dir: string): string[] => fs.readdirSync(dir).sort();

describe('pravo search --format md', () => {
  it('prints a numbered list of the results as Markdown, piped and on a terminal alike (no colour, no table)', async () => {
    await serve();
    const piped = await runPravo(['search', '--format', 'md', 'тестово търсене'], { env });
    expect(piped.exitCode, piped.stderr).toBe(0);
    expect(piped.stdout.split('\n')[0]).toBe('# Търсене: тестово търсене');
    expect(piped.stdout).toContain('1. **Закон за примерните уведомления (ТЕСТОВИ ДАННИ)**');
    expect(piped.stdout).toContain('2. **Решение № 7 по тестово дело (ТЕСТОВИ ДАННИ)**');
    expect(piped.stdout).toContain('дата 2020-05-01 · оценка 0.90');
    expect(piped.stdout).toContain('   > **Чл. 2.** (оценка 0.80) (1) Уведомлението по чл. 5, ал. 2 се подава писмено.\\');
    const terminal = await runPravo(['search', '--format', 'markdown', 'тестово търсене'], { env: { ...env, FORCE_COLOR: '1' }, stdoutTTY: true });
    expect(terminal.exitCode).toBe(0);
    expect(hasAnsi(terminal.stdout)).toBe(false);
    expect(terminal.stdout).toBe(piped.stdout);
    // The results are kept for `pravo doc N` as after any search.
    const doc = await runPravo(['doc', '1', '--format', 'md', '--article', '4'], { env });
    expect(doc.stdout).toContain('**Чл. 4.** Срокът за уведомяване е седем дни (тестов текст).');
  });

  it('--out FILE writes the Markdown to FILE atomically, says so on stderr, prints nothing on stdout', async () => {
    await serve();
    const out = path.join(root, 'results.md');
    fs.writeFileSync(out, 'старо съдържание');
    const result = await runPravo(['search', '--format', 'md', '--out', out, 'тестово търсене'], { env });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`Wrote 2 results (Markdown) to ${out}.`);
    expect(fs.readFileSync(out, 'utf8')).toMatch(/^# Търсене: тестово търсене\n\n2 резултата, най-подходящите първи\./);
    expect(filesIn(root).filter((name) => name.startsWith('results.md'))).toEqual(['results.md']);
  });

  it('is refused before anything is sent: another --format, --format md with --json, --out without --format md, an unwritable --out', async () => {
    const server = await serve();
    const html = await runPravo(['search', '--format', 'html', 'тестово търсене'], { env });
    expect(html.exitCode).toBe(2);
    expect(html.stderr).toContain('--format takes md (Markdown; also written markdown), not "html"');
    const both = await runPravo(['search', '--format', 'md', '--json', 'тестово търсене'], { env });
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toContain('--format md and --json are two output forms');
    const outAlone = await runPravo(['search', '--out', 'results.md', 'тестово търсене'], { env });
    expect(outAlone.exitCode).toBe(2);
    expect(outAlone.stderr).toContain('--out writes Markdown for `pravo search`: give it with --format md');
    const missing = await runPravo(['search', '--format', 'md', '--out', path.join(root, 'no-such-dir', 'r.md'), 'тестово търсене'], { env });
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain('its directory does not exist. Nothing was sent.');
    expect(server.requests).toEqual([]);
  });
});

describe('pravo doc --format md', () => {
  it('prints the whole document as Markdown: # title, fields, each element after its bold label', async () => {
    await serve();
    const result = await runPravo(['doc', 'test-act-1', '--collection', 'c_test', '--format', 'md'], { env });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout.split('\n')[0]).toBe('# Закон за примерните уведомления (ТЕСТОВИ ДАННИ)');
    expect(result.stdout).toContain('- Текст: към 01.02.2024');
    expect(result.stdout).toContain('\n**Чл. 5.** (1) Агенцията води регистъра.\\\n(2) Вписването е безплатно (тестов текст).\n');
  });

  it('--article with --out writes that element as Markdown (not JSON) atomically; --out alone still writes the JSON', async () => {
    const server = await serve();
    const out = path.join(root, 'article.md');
    const result = await runPravo(['doc', 'test-case-1', '--collection', 'c_cases', '--format', 'md', '--paragraph', '2', '--out', out], { env });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`Wrote ¶ 2 (Markdown) to ${out}.`);
    const md = fs.readFileSync(out, 'utf8');
    expect(md.split('\n')[0]).toBe('# Решение № 7 по тестово дело (ТЕСТОВИ ДАННИ)');
    expect(md).toContain('- Съд: Тестов касационен съд');
    expect(md).toContain('**¶ 2** Производството е по чл. 346 от НПК (тестов текст). Жалбата е допустима.');
    expect(md).not.toContain('¶ 3');

    const json = path.join(root, 'article.json');
    expect((await runPravo(['doc', 'test-case-1', '--collection', 'c_cases', '--paragraph', '2', '--out', json], { env })).exitCode).toBe(0);
    expect(JSON.parse(fs.readFileSync(json, 'utf8'))).toMatchObject({ label: '¶ 2' });
    expect(server.requests.filter((r) => r.url.startsWith('/v1/documents'))).toHaveLength(1);
    const both = await runPravo(['doc', 'test-case-1', '--collection', 'c_cases', '--format', 'md', '--json'], { env });
    expect(both.exitCode).toBe(2);
  });
});

describe('pravo answer --format md', () => {
  it('prints the answer with footnotes, every reference defined once, numbered as on the terminal', async () => {
    await serve([succeededJob('ans_1'), succeededJob('ans_2')]);
    const result = await drive(['answer', '--format', 'md', QUESTION]);
    expect(result.exitCode, result.stderr).toBe(0);
    const md = result.stdout;
    expect(md.split('\n')[0]).toBe(`# ${QUESTION}`);
    expect(md).toContain('Относими са Закон за примерните уведомления (ТЕСТОВИ ДАННИ) [^1] и тестово решение [^2].');
    expect(md).toContain('Срокът за уведомяване е седем дни. [^3] Още нещо. \\[?act-999:1\\]');
    const { references, definitions } = footnotesOf(md);
    expect([...references.keys()].sort()).toEqual(['1', '2', '3']);
    expect([...definitions.entries()].sort()).toEqual([
      ['1', 1],
      ['2', 1],
      ['3', 1],
    ]);
    expect(md).toContain('[^3]: Закон за примерните уведомления (ТЕСТОВИ ДАННИ), Чл. 4, 2020-05-01, <https://example.invalid/test-act-1>');
    expect(md).toContain('[^2]: Решение № 7 по тестово дело (ТЕСТОВИ ДАННИ), ¶ 2, 2024-03-01, Тестов касационен съд, дело № 12/2024');

    const terminal = await drive(['answer', QUESTION]);
    expect(terminal.stdout).toContain('Закон за примерните уведомления (ТЕСТОВИ ДАННИ) [1] и тестово решение [2]');
    expect(terminal.stdout).toContain('седем дни. [3] Още нещо. [?act-999:1]');
  });

  it('--out writes the Markdown atomically; with --verify the checks go to stderr and set the exit code', async () => {
    const server = await serve([succeededJob('ans_1')]);
    const out = path.join(root, 'memo.md');
    const result = await drive(['answer', '--verify', '--yes', '--format', 'md', '--out', out, QUESTION]);
    // The unknown marker fails verification: exit 8, as without --format md.
    expect(result.exitCode).toBe(8);
    expect(result.stdout).toBe('');
    // Three footnotes (the statute is cited twice: as a whole and at Чл. 4), from two sources, all cited.
    expect(result.stderr).toContain(`Wrote the answer with 3 footnotes (Markdown) to ${out}.`);
    expect(result.stderr).toContain('[3] found in its document');
    expect(result.stderr).toContain('[4] unresolved marker "act-999:1"');
    expect(fs.readFileSync(out, 'utf8')).toContain('[^3]: Закон за примерните уведомления (ТЕСТОВИ ДАННИ), Чл. 4');
    expect(server.requests.filter((r) => r.url.startsWith('/v1/documents'))).toHaveLength(2);
  });

  it('a failed job writes nothing: the file is left as it was', async () => {
    await serve([{ job_id: '', status: 'failed', error_code: 'answer_failed', error_message: 'Synthetic execution error.' }]);
    const out = path.join(root, 'memo.md');
    fs.writeFileSync(out, 'предишна бележка');
    const result = await drive(['answer', '--format', 'md', '--out', out, QUESTION]);
    expect(result.exitCode).toBe(7);
    expect(result.stderr).toContain(`${out} was not written.`);
    expect(fs.readFileSync(out, 'utf8')).toBe('предишна бележка');
  });

  it('`answer wait` and `answer show` take --format md too', async () => {
    await serve([succeededJob('ans_1')]);
    const created = await drive(['answer', '--no-wait', QUESTION]);
    expect(created.exitCode, created.stderr).toBe(0);
    const waited = await drive(['answer', 'wait', 'ans_1', '--format', 'md']);
    expect(waited.exitCode, waited.stderr).toBe(0);
    expect(waited.stdout).toContain('[^3]: Закон за примерните уведомления');
    const shown = await drive(['answer', 'show', 'ans_1', '--format', 'md']);
    expect(shown.stdout).toBe(waited.stdout);
  });

  it('is refused before the job is created: with --no-wait, with --json, another --format, --out without --format md', async () => {
    const server = await serve([succeededJob('ans_1')]);
    const noWait = await drive(['answer', '--no-wait', '--format', 'md', QUESTION]);
    expect(noWait.exitCode).toBe(2);
    expect(noWait.stderr).toContain('`pravo answer wait JOB_ID --format md`');
    for (const args of [
      ['answer', '--format', 'md', '--json', QUESTION],
      ['answer', '--format', 'docx', QUESTION],
      ['answer', '--out', path.join(root, 'memo.md'), QUESTION],
    ]) {
      expect((await drive(args)).exitCode, args.join(' ')).toBe(2);
    }
    expect(server.requests).toEqual([]);
  });
});
