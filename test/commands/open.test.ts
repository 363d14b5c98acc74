/**
 * `pravo open` run in this process (`main()` on test streams, or `runOpen` with a fake launcher) against a loopback
 * server playing a hostile or a well-behaved service: synthetic search results and documents (titles say they are test
 * data) whose `url` is an https link, `javascript:alert(1)` or `file:///etc/passwd`. What is refused (exit 1, nothing
 * started, nothing on stdout), what is printed when piped (exactly the link), what a browser receives on a terminal
 * (the link as one argument, unchanged), when the document is retrieved for its link, and results of another target.
 * No real browser is ever started: either a fake launcher, or BROWSER naming a small node script that records its argv.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runOpen } from '../../src/commands/open/run.js';
import type { DocumentResponse } from '../../src/contract/types.js';
import { Factory } from '../../src/factory.js';
import { testIOStreams } from '../../src/io/iostreams.js';
import type { Argv, Launcher } from '../../src/services/browser.js';
import { RefusedDataError } from '../../src/errors/cli.js';
import { hasControlSequences } from '../../src/shared/sanitize.js';
import { saveLastResults } from '../../src/state/last-results.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { runPravo } from '../helpers/host.js';
import { recordingServer, type Recorded } from '../helpers/recording-server.js';

/** A made-up key of the live form; not a real credential. */
const KEY = 'sbx_live_TESTKEYabcdefghijklmnopqrstuvwx';
/** A link with everything a shell would act on (`&`, `;`, `$( )`, quotes, `#`), all legal in a URL. */
const AWKWARD_URL = "https://example.invalid/тест?a=1&b=$(touch%20pwned);c='q'#част";

let root: string;
let env: NodeJS.ProcessEnv;
const servers: { close: () => Promise<void> }[] = [];

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'pravo-cmd-open-'));
  env = { PRAVO_CONFIG_DIR: path.join(root, 'config'), PRAVO_STATE_DIR: path.join(root, 'state'), PRAVO_CACHE_DIR: path.join(root, 'cache') };
});

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  fs.rmSync(root, { recursive: true, force: true });
});

/** A synthetic document (test data) with `url` as given (`undefined`: no `url` field at all). */
function testDocument(documentId: string, url: string | undefined): DocumentResponse {
  return {
    document_id: documentId,
    collection: 'c_test',
    type: 'Закон',
    title: `Закон за тестовите връзки ${documentId} (ТЕСТОВИ ДАННИ)`,
    date: '2020-01-01',
    ...(url === undefined ? {} : { url }),
    elements: [{ excerpt_id: `${documentId}:1`, ref: '1', label: 'Чл. 1.', text: 'Чл. 1. Тестов текст.' }],
  };
}

/** The documents of the hostile server, in search order: results 1 to 5. */
const DOCUMENTS = [
  testDocument('test-js', 'javascript:alert(1)'),
  testDocument('test-file', 'file:///etc/passwd'),
  testDocument('test-good', AWKWARD_URL),
  testDocument('test-none', undefined),
  testDocument('test-empty', ''),
];

/**
 * A server with POST /v1/search naming `documents` as results 1, 2, … (each with its `url`) and the contract's GET
 * /v1/documents over them (404 `not_found` otherwise).
 */
async function serve(documents: DocumentResponse[] = DOCUMENTS) {
  const server = await recordingServer((request: Recorded) => {
    const url = new URL(request.url, 'http://localhost');
    if (request.method === 'POST' && url.pathname === '/v1/search') {
      const results = documents.map((d, i) => ({ ...d, elements: undefined, score: 1 - i / 10, excerpts: [] }));
      return { status: 200, body: JSON.stringify({ query: 'тестови връзки', result_count: results.length, results }) };
    }
    const document = documents.find((d) => d.document_id === url.searchParams.get('document_id') && d.collection === url.searchParams.get('collection'));
    if (request.method === 'GET' && url.pathname === '/v1/documents' && document) return { status: 200, body: JSON.stringify(document) };
    return { status: 404, body: JSON.stringify({ error: { code: 'not_found', message: 'No document with this document_id in this collection.' } }) };
  });
  servers.push(server);
  env = { ...env, PRAVO_BASE_URL: server.url, PRAVO_API_KEY: KEY };
  return server;
}

/** The GET /v1/documents requests a server received. */
const retrievals = (server: { requests: Recorded[] }): Recorded[] => server.requests.filter((r) => r.url.startsWith('/v1/documents'));

/**
 * BROWSER naming a node script that records the arguments it was started with (a JSON array) in `<root>/browser-N`,
 * one file per start; `recorded()` reads them.
 */
function recordingBrowser(): { browser: string; recorded: () => string[][] } {
  const script = path.join(root, 'record-argv.mjs');
  fs.writeFileSync(
    script,
    "import fs from 'node:fs';\nconst [dir, ...rest] = process.argv.slice(2);\nfs.writeFileSync(`${dir}/browser-${process.pid}`, JSON.stringify(rest));\n",
  );
  const dir = path.join(root, 'recorded');
  fs.mkdirSync(dir);
  return {
    browser: `"${process.execPath}" "${script}" "${dir}" --new-tab %s`,
    recorded: () => fs.readdirSync(dir).map((name) => JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as string[]),
  };
}

/** A launcher that records what it was asked to start, and starts it or not as told. */
function fakeLauncher(started = true): { launch: Launcher; calls: Argv[] } {
  const calls: Argv[] = [];
  return { calls, launch: async (argv) => (calls.push(argv), started ? { started: true } : { started: false, reason: 'not found' }) };
}

/** `runOpen` on test streams (stdout a terminal when `terminal`), with `launch`; the exit code and the output. */
async function openWith(args: { argument: string; options?: Parameters<typeof runOpen>[2]; terminal: boolean; launch: Launcher; env?: NodeJS.ProcessEnv }) {
  const streams = testIOStreams({ env: args.env ?? env, stdoutTTY: args.terminal, stderrTTY: false });
  const factory = new Factory({ io: streams.io, globals: {}, clock: new FakeClock(), signal: new AbortController().signal, version: 'test' });
  try {
    const code = await runOpen(factory, args.argument, args.options ?? {}, args.launch);
    return { code, stdout: streams.stdout(), stderr: streams.stderr() };
  } finally {
    await factory.close();
  }
}

describe('pravo open: a hostile server', () => {
  it('javascript: and file: links of search results are refused: exit 1, nothing started, nothing on stdout', async () => {
    const server = await serve();
    const { browser, recorded } = recordingBrowser();
    expect((await runPravo(['search', 'тестови връзки'], { env })).exitCode).toBe(0);
    for (const [rank, link] of [
      ['1', 'javascript:alert(1)'],
      ['2', 'file:///etc/passwd'],
    ] as const) {
      // On a terminal, with a browser ready to start: still nothing is started.
      const result = await runPravo(['open', rank], { env: { ...env, BROWSER: browser }, stdoutTTY: true });
      expect(result.exitCode, result.stderr).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(`The server's url for result ${rank} of the last search`);
      expect(result.stderr).toContain(`was refused, and nothing was opened: "${link}"`);
      expect(result.stderr).toContain('pravo opens only http: and https: links.');
      expect(result.stderr).toContain(`\`pravo doc ${rank}\` prints the document itself.`);
    }
    expect(recorded()).toEqual([]);
    // The links came with the search: nothing was retrieved.
    expect(retrievals(server)).toEqual([]);
  });

  it('--json: the refusal is one JSON line on stderr, kind "refused", exit 1', async () => {
    await serve();
    await runPravo(['search', 'тестови връзки'], { env });
    const result = await runPravo(['open', '1', '--json'], { env });
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
    expect(JSON.parse(result.stderr)).toMatchObject({ error: { kind: 'refused', exit_code: 1, may_have_been_counted: false } });
  });

  it("a document's javascript: or file: link is refused the same way, after the one retrieval", async () => {
    const server = await serve();
    const fake = fakeLauncher();
    await expect(openWith({ argument: 'test-js', options: { collection: 'c_test' }, terminal: true, launch: fake.launch })).rejects.toThrow(
      RefusedDataError,
    );
    const viaMain = await runPravo(['open', 'test-file', '--collection', 'c_test'], { env });
    expect(viaMain.exitCode).toBe(1);
    expect(viaMain.stdout).toBe('');
    expect(viaMain.stderr).toContain('The server\'s url for test-file in collection c_test was refused, and nothing was opened: "file:///etc/passwd": it is a file: link');
    expect(viaMain.stderr).toContain('`pravo doc test-file --collection c_test` prints the document itself.');
    expect(fake.calls).toEqual([]);
    expect(retrievals(server)).toHaveLength(2);
  });

  it('a link with control sequences is refused and shown sanitized', async () => {
    await serve([testDocument('test-esc', 'https://example.invalid/\u001b]8;;javascript:alert(1)\u0007x\u001b[31m')]);
    const result = await runPravo(['open', 'test-esc', '--collection', 'c_test'], { env });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('nothing was opened: "https://example.invalid/x": it contains white space or control characters');
    expect(hasControlSequences(result.stderr)).toBe(false);
  });

  it('a result or document without a url: exit 1, naming the doc command instead', async () => {
    const server = await serve();
    await runPravo(['search', 'тестови връзки'], { env });
    // An empty url in the search result: said at once, nothing retrieved.
    const empty = await runPravo(['open', '5'], { env });
    expect(empty.exitCode).toBe(1);
    expect(empty.stdout).toBe('');
    expect(empty.stderr).toContain('The server sent no url for result 5 of the last search');
    expect(empty.stderr).toContain('so there is nothing to open. `pravo doc 5` prints the document itself.');
    expect(retrievals(server)).toEqual([]);
    // No url field in the search result: the document is read for one (it has none either).
    const absent = await runPravo(['open', '4'], { env });
    expect(absent.exitCode).toBe(1);
    expect(absent.stderr).toContain('The last search stored no url for result 4 (the server sent none, or the search ran with an older pravo)');
    expect(absent.stderr).toContain('The server sent no url for result 4 of the last search');
    expect(retrievals(server)).toHaveLength(1);
  });
});

describe('pravo open: the link printed or opened', () => {
  it('piped: exactly the link and a newline, as the server sent it; nothing started, nothing retrieved', async () => {
    const server = await serve();
    const { browser, recorded } = recordingBrowser();
    await runPravo(['search', 'тестови връзки'], { env });
    const result = await runPravo(['open', '3'], { env: { ...env, BROWSER: browser } });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe(`${AWKWARD_URL}\n`);
    expect(result.stderr).toBe('');
    expect(recorded()).toEqual([]);
    expect(retrievals(server)).toEqual([]);

    const json = await runPravo(['open', '3', '--json'], { env });
    expect(JSON.parse(json.stdout)).toEqual({ url: AWKWARD_URL, opened: false, document_id: 'test-good', collection: 'c_test' });
  });

  it('on a terminal: BROWSER is started with the link as one argument, unchanged, and stdout stays empty', async () => {
    await serve();
    const { browser, recorded } = recordingBrowser();
    await runPravo(['search', 'тестови връзки'], { env });
    const result = await runPravo(['open', '3'], { env: { ...env, BROWSER: browser }, stdoutTTY: true });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`Opened ${AWKWARD_URL} in the browser`);
    expect(recorded()).toEqual([['--new-tab', AWKWARD_URL]]);
    // No shell ran the link.
    expect(fs.existsSync(path.join(process.cwd(), 'pwned'))).toBe(false);
  });

  it('on a terminal with a fake launcher: the platform opener (no BROWSER) gets the link as its last argument', async () => {
    await serve();
    await runPravo(['search', 'тестови връзки'], { env });
    const fake = fakeLauncher();
    const result = await openWith({ argument: '3', terminal: true, launch: fake.launch });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(fake.calls).toHaveLength(1);
    expect(fake.calls[0]!.at(-1)).toBe(AWKWARD_URL);
    expect(fake.calls[0]!.filter((word) => word.includes('example.invalid'))).toEqual([AWKWARD_URL]);

    const json = await openWith({ argument: '3', options: { json: true }, terminal: true, launch: fakeLauncher().launch });
    expect(JSON.parse(json.stdout)).toEqual({ url: AWKWARD_URL, opened: true, document_id: 'test-good', collection: 'c_test' });
  });

  it('--print on a terminal prints the link and starts nothing', async () => {
    await serve();
    await runPravo(['search', 'тестови връзки'], { env });
    const fake = fakeLauncher();
    const result = await openWith({ argument: '3', options: { print: true }, terminal: true, launch: fake.launch });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${AWKWARD_URL}\n`);
    expect(fake.calls).toEqual([]);
  });

  it('no browser can be started: the link is printed, stderr says what was tried and how to set BROWSER; exit 0', async () => {
    await serve();
    await runPravo(['search', 'тестови връзки'], { env });
    const fake = fakeLauncher(false);
    const result = await openWith({ argument: '3', terminal: true, launch: fake.launch, env: { ...env, BROWSER: 'no-such-browser:other-browser %s' } });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${AWKWARD_URL}\n`);
    expect(fake.calls).toEqual([
      ['no-such-browser', AWKWARD_URL],
      ['other-browser', AWKWARD_URL],
    ]);
    expect(result.stderr).toContain('No browser could be started (no-such-browser: not found; other-browser: not found), so the link is printed instead.');
    expect(result.stderr).toContain('Correct BROWSER');

    // A real start that fails: a program that is not there.
    const real = await runPravo(['open', '3'], { env: { ...env, BROWSER: path.join(root, 'no-such-browser') }, stdoutTTY: true });
    expect(real.exitCode).toBe(0);
    expect(real.stdout).toBe(`${AWKWARD_URL}\n`);
    expect(real.stderr).toContain('no-such-browser: not found');
  });
});

describe('pravo open: an internationalized host', () => {
  /** "lеx.bg" with a Cyrillic е, made to look like lex.bg. */
  const LOOKALIKE = 'https://l\u0435x.bg/bg/laws/1';
  const IDN = 'https://правосъдие.бг/закон/1';

  it('a host that mixes scripts is printed, opened and given in --json in its ASCII form, after a note that says so', async () => {
    await serve([testDocument('test-lookalike', LOOKALIKE), testDocument('test-idn', IDN)]);
    await runPravo(['search', 'тестови връзки'], { env });
    const printed = await runPravo(['open', '1'], { env });
    expect(printed.exitCode, printed.stderr).toBe(0);
    expect(printed.stdout).toBe('https://xn--lx-nlc.bg/bg/laws/1\n');
    expect(printed.stderr).toContain('mixes Latin and Cyrillic letters');
    expect(printed.stderr).toContain('in its ASCII form, xn--lx-nlc.bg.');

    const fake = fakeLauncher();
    const opened = await openWith({ argument: '1', terminal: true, launch: fake.launch });
    expect(fake.calls.map((argv) => argv.at(-1))).toEqual(['https://xn--lx-nlc.bg/bg/laws/1']);
    expect(opened.stderr).toContain('Opened https://xn--lx-nlc.bg/bg/laws/1 in the browser');
    const json = await runPravo(['open', '1', '--json'], { env });
    expect(JSON.parse(json.stdout)).toMatchObject({ url: 'https://xn--lx-nlc.bg/bg/laws/1' });
  });

  it('an all-Cyrillic host is printed as sent; opening it names its ASCII host too', async () => {
    await serve([testDocument('test-lookalike', LOOKALIKE), testDocument('test-idn', IDN)]);
    await runPravo(['search', 'тестови връзки'], { env });
    const printed = await runPravo(['open', '2'], { env });
    expect(printed.stdout).toBe(`${IDN}\n`);
    expect(printed.stderr).toBe('');
    const fake = fakeLauncher();
    const opened = await openWith({ argument: '2', terminal: true, launch: fake.launch });
    expect(fake.calls.map((argv) => argv.at(-1))).toEqual([IDN]);
    expect(opened.stderr).toContain(`Opened ${IDN} (host xn--80aegeo8aeim4g.xn--90ae) in the browser`);
  });
});

describe('pravo open: which document', () => {
  it('a document_id with --collection: the document is retrieved once for its url, with a note; then from the cache', async () => {
    const server = await serve();
    const first = await runPravo(['open', 'test-good', '--collection', 'c_test'], { env });
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.stdout).toBe(`${AWKWARD_URL}\n`);
    expect(first.stderr).toBe('Retrieving the document for its url, which spends a retrieval unit.\n');
    const second = await runPravo(['open', 'test-good', '--collection', 'c_test'], { env });
    expect(second.stdout).toBe(`${AWKWARD_URL}\n`);
    expect(second.stderr).toBe('');
    expect(retrievals(server)).toHaveLength(1);
  });

  it('a page that shows the act\'s current text, not the text served: stderr says which date each has', async () => {
    const page = { ...testDocument('test-page', 'https://example.invalid/ldoc/7'), as_of: '2006-08-04', consolidated: false, url_as_of: '2026-07-31' };
    const server = await serve([page]);
    const note = "The page shows the act's current text, amended up to 31.07.2026; the text here is as first published, 04.08.2006";
    // From the search's stored result: nothing retrieved.
    await runPravo(['search', 'тестови връзки'], { env });
    const ranked = await runPravo(['open', '1'], { env });
    expect(ranked.exitCode, ranked.stderr).toBe(0);
    expect(ranked.stdout).toBe('https://example.invalid/ldoc/7\n');
    expect(ranked.stderr).toBe(`${note}: \`pravo doc 1\` prints that text.\n`);
    expect(retrievals(server)).toEqual([]);
    // From the document.
    const byId = await runPravo(['open', 'test-page', '--collection', 'c_test'], { env });
    expect(byId.stderr).toContain(`${note}: \`pravo doc test-page --collection c_test\` prints that text.`);
    // On a terminal, after the browser's note.
    const { launch } = fakeLauncher();
    const opened = await openWith({ argument: '1', terminal: true, launch });
    expect(opened.stderr.split('\n').slice(0, 2)).toEqual([expect.stringMatching(/^Opened https:\/\/example\.invalid\/ldoc\/7 in the browser/u), `${note}: \`pravo doc 1\` prints that text.`]);
  });

  it('results stored by an older pravo (no url): the document is retrieved for it, and stderr says why', async () => {
    const server = await serve();
    await saveLastResults(env, {
      saved_at: '2025-01-01T00:00:00.000Z',
      query: 'тестови връзки',
      profile: 'default',
      sandbox: false,
      results: [{ rank: 1, document_id: 'test-good', collection: 'c_test', title: 'Т (ТЕСТОВИ ДАННИ)' }],
    });
    const result = await runPravo(['open', '1'], { env });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe(`${AWKWARD_URL}\n`);
    expect(result.stderr).toContain(
      'The last search stored no url for result 1 (the server sent none, or the search ran with an older pravo): retrieving the document for it, which spends a retrieval unit.',
    );
    expect(retrievals(server)).toHaveLength(1);
  });

  it('a result of a search run with --sandbox is refused like pravo doc, with the command that opens it; nothing is sent', async () => {
    const server = await serve();
    await saveLastResults(env, {
      saved_at: '2025-01-01T00:00:00.000Z',
      query: 'тестови връзки',
      profile: 'sandbox',
      sandbox: true,
      results: [{ rank: 1, document_id: 'test-good', collection: 'c_test', title: 'Т', url: 'https://example.invalid/1' }],
    });
    const result = await runPravo(['open', '1', '--print'], { env });
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('came from the sandbox (`pravo search --sandbox`), so it is opened there: run `pravo open 1 --sandbox --print`.');
    expect(server.requests).toEqual([]);
  });

  it('usage errors: no stored results names pravo open; a document_id without --collection; N out of range', async () => {
    await serve();
    const none = await runPravo(['open', '1'], { env });
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain('then `pravo open N` opens result N');
    const noCollection = await runPravo(['open', 'test-good'], { env });
    expect(noCollection.exitCode).toBe(2);
    expect(noCollection.stderr).toContain('needs --collection C');
    await runPravo(['search', 'тестови връзки'], { env });
    const outOfRange = await runPravo(['open', '6'], { env });
    expect(outOfRange.exitCode).toBe(2);
    expect(outOfRange.stderr).toContain('had 5 results: give a number from 1 to 5.');
  });
});
