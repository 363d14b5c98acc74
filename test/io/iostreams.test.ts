/** IOStreams and the printer (`src/io/iostreams.ts`, `src/io/printer.ts`): the terminal facts and the output forms. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { colorEnabled, fitsScreen, pagerCommand, testIOStreams } from '../../src/io/iostreams.js';
import { Printer, type View } from '../../src/io/printer.js';

describe('colour', () => {
  it('follows --no-color, NO_COLOR, TERM=dumb and FORCE_COLOR, else the terminal', () => {
    const tty = { isTTY: true };
    const pipe = { isTTY: false };
    expect(colorEnabled(tty, {}, undefined)).toBe(true);
    expect(colorEnabled(pipe, {}, undefined)).toBe(false);
    expect(colorEnabled(tty, {}, false)).toBe(false);
    expect(colorEnabled(tty, { NO_COLOR: '1' }, undefined)).toBe(false);
    expect(colorEnabled(tty, { NO_COLOR: '' }, undefined)).toBe(true);
    expect(colorEnabled(tty, { TERM: 'dumb' }, undefined)).toBe(false);
    expect(colorEnabled(pipe, { FORCE_COLOR: '1' }, undefined)).toBe(true);
    expect(colorEnabled(pipe, { FORCE_COLOR: '0' }, undefined)).toBe(false);
    expect(colorEnabled(tty, { FORCE_COLOR: '1' }, false)).toBe(false);
  });
});

describe('IOStreams', () => {
  it('breaks a message for people at spaces to the width of a terminal stderr, never inside a word; piped, leaves it whole', () => {
    const text = 'Not signed in: profile "default" has no session token, and PRAVO_SESSION_TOKEN is not set. Sign in with `pravo login`.';
    const terminal = testIOStreams({ stderrTTY: true, columns: 80 });
    terminal.io.message(text);
    const lines = terminal.stderr().split('\n');
    expect(lines.every((line) => line.length <= 80)).toBe(true);
    expect(lines.join(' ').replace(/ +/g, ' ').trim()).toBe(text);
    expect(terminal.stderr()).toContain('PRAVO_SESSION_TOKEN');
    const piped = testIOStreams({ columns: 80 });
    piped.io.message(text);
    expect(piped.stderr()).toBe(`${text}\n`);
  });

  it('knows the terminal facts once: width, prompting, progress', () => {
    const terminal = testIOStreams({ stdoutTTY: true, stderrTTY: true, stdinTTY: true, columns: 80 }).io;
    expect(terminal.width).toBe(80);
    expect(terminal.canPrompt).toBe(true);
    expect(terminal.showsProgress).toBe(true);
    const piped = testIOStreams({ env: { COLUMNS: '132' } }).io;
    expect(piped.width).toBe(132);
    expect(piped.canPrompt).toBe(false);
    expect(piped.showsProgress).toBe(false);
    expect(testIOStreams().io.width).toBe(100);
  });

  it('shows a spinner only on a terminal', async () => {
    const piped = testIOStreams();
    (await piped.io.startSpinner('Searching… 0s')).stop();
    expect(piped.stderr()).toBe('');
    const terminal = testIOStreams({ stderrTTY: true });
    const spinner = await terminal.io.startSpinner('Searching… 0s');
    spinner.update('Searching… 1s');
    terminal.io.stopIndicators();
    expect(terminal.stderr()).toContain('Searching… 1s');
  });

  it('writes a notice on stderr, piped or not, clearing a running spinner first and drawing it again below', async () => {
    const piped = testIOStreams();
    piped.io.notice('Server busy (HTTP 503); retrying in 59s (try 2 of 3)…');
    expect(piped.stderr()).toBe('Server busy (HTTP 503); retrying in 59s (try 2 of 3)…\n');
    const terminal = testIOStreams({ stderrTTY: true });
    await terminal.io.startSpinner('Fetching usage… 3s');
    const before = terminal.stderr().length;
    terminal.io.notice('Server busy (HTTP 503); retrying in 59s (try 2 of 3)…');
    const written = terminal.stderr().slice(before);
    terminal.io.stopIndicators();
    // Cleared (to column 1, line erased), the notice on its own line, then the spinner again.
    expect(written).toMatch(/^(\u001b\[\d*[GK])*\u001b\[0?K(\u001b\[\d*G)*Server busy \(HTTP 503\); retrying in 59s \(try 2 of 3\)…\n[^]*Fetching usage… 3s/);
  });

  it('shows no spinner on a terminal that reports 0 columns (ora would loop for ever clearing lines)', async () => {
    const zero = testIOStreams({ stderrTTY: true, columns: 0 });
    expect(zero.io.showsProgress).toBe(false);
    (await zero.io.startSpinner('Searching… 0s')).stop();
    expect(zero.stderr()).toBe('');
  });

  it('picks the pager from PRAVO_PAGER, then PAGER, then less; empty or cat means none', () => {
    expect(pagerCommand({})).toEqual(['less']);
    expect(pagerCommand({ PAGER: 'more -s' })).toEqual(['more', '-s']);
    expect(pagerCommand({ PAGER: 'more', PRAVO_PAGER: 'most' })).toEqual(['most']);
    expect(pagerCommand({ PRAVO_PAGER: '' })).toBeUndefined();
    expect(pagerCommand({ PAGER: 'cat' })).toBeUndefined();
  });

  it("starts the pager without pravo's credentials in its environment", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pravo-pager-'));
    try {
      const pager = path.join(dir, 'pager.cjs');
      const seen = path.join(dir, 'seen.json');
      // A pager that reads its input and writes what it saw: its input, and which of the variables it was given.
      fs.writeFileSync(
        pager,
        `let input = ''; process.stdin.on('data', (d) => (input += d)).on('end', () => require('fs').writeFileSync(process.argv[2], JSON.stringify({ input, key: process.env.PRAVO_API_KEY ?? null, token: process.env.PRAVO_SESSION_TOKEN ?? null, less: process.env.LESS, kept: process.env.PRAVO_TEST_KEPT })));`,
      );
      const env = { PATH: process.env.PATH, PRAVO_PAGER: `${process.execPath} ${pager} ${seen}`, PRAVO_API_KEY: 'sbx_live_EXAMPLEexampleEXAMPLEexample12', PRAVO_SESSION_TOKEN: 'sbx_sess_EXAMPLE', PRAVO_TEST_KEPT: 'yes' };
      const terminal = testIOStreams({ env, pager: true, stdoutTTY: true });
      await terminal.io.startPager();
      terminal.io.stdout.write('page\n');
      await terminal.io.stopPager();
      expect(JSON.parse(fs.readFileSync(seen, 'utf8'))).toEqual({ input: 'page\n', key: null, token: null, less: 'FRX', kept: 'yes' });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('counts the rows output takes on the screen: wide lines wrap, colour takes none, one row is left for the prompt', () => {
    const lines = (n: number, text = 'x'): string => `${Array.from({ length: n }, () => text).join('\n')}\n`;
    expect(fitsScreen(lines(23), 80, 24)).toBe(true);
    expect(fitsScreen(lines(24), 80, 24)).toBe(false);
    // 12 lines of 81 columns wrap to 24 rows at 80 columns; at 81 they take 12.
    expect(fitsScreen(lines(12, 'ж'.repeat(81)), 80, 24)).toBe(false);
    expect(fitsScreen(lines(12, 'ж'.repeat(81)), 81, 24)).toBe(true);
    expect(fitsScreen(lines(23, `\u001b[1m${'x'.repeat(80)}\u001b[22m`), 80, 24)).toBe(true);
    expect(fitsScreen(lines(1), undefined, 24)).toBe(false);
  });

  it('prints output that fits the screen directly, and pages output that does not', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pravo-pager-'));
    try {
      const mark = path.join(dir, 'paged.txt');
      const pager = path.join(dir, 'pager.sh');
      fs.writeFileSync(pager, `#!/bin/sh\ncat > '${mark}'\n`, { mode: 0o755 });
      const env = { PRAVO_PAGER: pager, PATH: process.env.PATH };
      const short = 'one\ntwo\n';
      const fits = testIOStreams({ stdoutTTY: true, columns: 80, rows: 24, env, pager: true });
      await fits.io.startPager(short);
      fits.io.stdout.write(short);
      await fits.io.stopPager();
      expect(fits.stdout()).toBe(short);
      expect(fs.existsSync(mark)).toBe(false);

      const long = `${Array.from({ length: 30 }, (_, i) => `line ${i}`).join('\n')}\n`;
      const pages = testIOStreams({ stdoutTTY: true, columns: 80, rows: 24, env, pager: true });
      await pages.io.startPager(long);
      pages.io.stdout.write(long);
      await pages.io.stopPager();
      expect(pages.stdout()).toBe('');
      expect(fs.readFileSync(mark, 'utf8')).toBe(long);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('starts no pager when stdout is not a terminal', async () => {
    const piped = testIOStreams({ env: { PRAVO_PAGER: 'less' }, pager: true });
    await piped.io.startPager();
    piped.io.stdout.write('x\n');
    await piped.io.stopPager();
    expect(piped.stdout()).toBe('x\n');
  });
});

describe('Printer', () => {
  const view: View<{ n: number }> = {
    table: (data, { width, color }) => `table ${data.n} ${width} ${color}\n`,
    tsv: (data) => `${data.n}\tx\n`,
  };

  it('prints the table on a terminal, TSV when piped, the server body exactly with --json', async () => {
    const terminal = testIOStreams({ stdoutTTY: true, columns: 90, color: false });
    await new Printer(terminal.io, false).response({ raw: '{"n":1}', data: { n: 1 } }, view);
    expect(terminal.stdout()).toBe('table 1 90 false\n');

    const piped = testIOStreams();
    await new Printer(piped.io, false).response({ raw: '{"n":1}', data: { n: 1 } }, view);
    expect(piped.stdout()).toBe('1\tx\n');

    const json = testIOStreams();
    await new Printer(json.io, true).response({ raw: '{ "n" : 1 }', data: { n: 1 } }, view);
    expect(json.stdout()).toBe('{ "n" : 1 }\n');
  });

  it('prints a local object as one JSON line with --json, and reports changes on stderr otherwise', async () => {
    const json = testIOStreams();
    const printer = new Printer(json.io, true);
    await printer.local({ a: 1, b: [1, 2] }, view, { n: 0 });
    printer.report({ changed: true }, 'Changed.');
    expect(json.stdout()).toBe('{"a":1,"b":[1,2]}\n{"changed":true}\n');
    const text = testIOStreams();
    new Printer(text.io, false).report({ changed: true }, 'Changed.');
    expect(text.stdout()).toBe('');
    expect(text.stderr()).toBe('Changed.\n');
  });
});
