/**
 * Help fits the terminal it is shown on: every page of the command tree (walked, so a new command is covered), laid
 * out at 80 and at 120 columns, keeps every word whole and in order, has no line wider than the terminal but a word or
 * quoted phrase that is itself wider, and every example still runs as the same command when copied (bash parses the
 * broken lines as it parses the example on one line). And the rules of `src/help/layout.ts` one by one.
 */
import { spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildProgram, main, runProgram } from '../../src/cli.js';
import { allNodes, completionTree } from '../../src/completion/tree.js';
import { columnsOf, helpWidth, layoutHelp, shellUnits, units } from '../../src/help/layout.js';
import { HELP_TOPICS } from '../../src/help/topics.js';
import { testHost } from '../helpers/host.js';

let paths: string[];

beforeAll(async () => {
  paths = allNodes(completionTree((await buildProgram(testHost().host)).program))
    .map((node) => node.path)
    .filter((path) => path !== 'help' && !path.endsWith(' help'));
});

/** `pravo PATH --help` on a terminal of `columns` (`Infinity`: the unwrapped page, as pre-rendered). */
async function helpPage(path: string, columns: number): Promise<string> {
  const t = testHost({ stdoutTTY: true, columns: Number.isFinite(columns) ? columns : 80 });
  const args = [...(path === '' ? [] : path.split(' ')), '--help'];
  const code = Number.isFinite(columns) ? await main(args, t.host) : await runProgram(args, t.host, undefined, { helpWidth: Infinity });
  expect(code, path).toBe(0);
  return t.stdout();
}

/** The words of a text, in order, without the ` \` that continues a command line. */
function words(text: string): string[] {
  return text.split(/\s+/).filter((word) => word !== '' && word !== '\\');
}

/** The examples of a help page: each `  $ ` line with the lines that continue it (after a trailing ` \`), as written. */
function examplesOf(page: string): string[] {
  const out: string[] = [];
  const lines = page.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const match = /^\s*\$ (.*)$/.exec(lines[i]!);
    if (!match) continue;
    let example = match[1]!;
    while (example.endsWith(' \\') && i + 1 < lines.length) example += `\n${lines[++i]!}`;
    out.push(example);
  }
  return out;
}

/** How bash reads each command (its own rendering of a function holding it): equal when the commands are the same. */
function parsedByBash(commands: readonly string[]): string[] {
  const script = commands.map((command, i) => `f${i}() {\n${command}\n}\ndeclare -f f${i} | tail -n +2\necho @@@`).join('\n');
  const run = spawnSync('bash', ['-c', script], { encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout.split('@@@\n').slice(0, commands.length);
}

/** Whether a line wider than the terminal is one unit that may not be broken: a word, a quoted phrase, a shell word. */
function unbreakable(line: string): boolean {
  const body = line.trim().replace(/^\$ /, '').replace(/ \\$/, '');
  return units(body).length === 1 || shellUnits(body).length === 1;
}

describe('every help page at 80 and 120 columns', () => {
  it.each([80, 120])('at %i columns: no word broken or lost, no line too wide, every example the same command', async (columns) => {
    const problems: string[] = [];
    for (const path of paths) {
      const [page, unwrapped] = [await helpPage(path, columns), await helpPage(path, Infinity)];
      expect(words(page), `pravo ${path} --help`).toEqual(words(unwrapped));
      for (const line of page.split('\n')) {
        if (columnsOf(line) > columns && !unbreakable(line)) problems.push(`pravo ${path} --help: ${columnsOf(line)} columns: ${line}`);
      }
      const examples = examplesOf(page);
      const originals = examplesOf(unwrapped);
      expect(examples.length, `examples of pravo ${path}`).toBe(originals.length);
      expect(parsedByBash(examples), `examples of pravo ${path} as bash reads them`).toEqual(parsedByBash(originals));
    }
    expect(problems).toEqual([]);
  });

  it.each(Object.keys(HELP_TOPICS))('pravo help %s at 80 and 120 columns', async (name) => {
    for (const columns of [80, 120]) {
      const t = testHost({ stdoutTTY: true, columns });
      expect(await main(['help', name], t.host)).toBe(0);
      const wide = testHost({ stdoutTTY: true, columns: 10_000 });
      await main(['help', name], wide.host);
      expect(words(t.stdout())).toEqual(words(wide.stdout()));
      expect(t.stdout().split('\n').filter((line) => columnsOf(line) > columns && !unbreakable(line))).toEqual([]);
    }
  });

  it('a long example is broken at 80 columns, and its first line ends in a continuation', async () => {
    const page = await helpPage('search', 80);
    expect(page).toContain('  $ pravo search --sandbox --format md -n 5 \\\n      "застрахователят отказва да изплати обезщетение" > results.md\n');
  });
});

describe('the width help is laid out at', () => {
  it("is the terminal's, else COLUMNS, else 80", () => {
    expect(helpWidth({ isTTY: true, columns: 132 }, { COLUMNS: '100' })).toBe(132);
    expect(helpWidth({}, { COLUMNS: '100' })).toBe(100);
    expect(helpWidth({}, { COLUMNS: 'wide' })).toBe(80);
    expect(helpWidth({ isTTY: true, columns: 0 }, {})).toBe(80);
  });

  it('follows the terminal: the same page is wider at 120 columns than at 80', async () => {
    const longest = (page: string): number => Math.max(...page.split('\n').filter((l) => !l.includes('$ ')).map(columnsOf));
    const [narrow, wide] = [await helpPage('search', 80), await helpPage('search', 120)];
    expect(longest(narrow)).toBeLessThanOrEqual(80);
    expect(longest(wide)).toBeGreaterThan(80);
    expect(longest(wide)).toBeLessThanOrEqual(120);
  });
});

describe('layoutHelp', () => {
  it('joins the lines of a paragraph and wraps them at spaces; a blank line ends the paragraph', () => {
    const text = 'Output: a ranked table\non a terminal (long output goes through the pager; --no-pager prints it directly).\n\nNext.';
    expect(layoutHelp(text, 40)).toBe(
      'Output: a ranked table on a terminal\n(long output goes through the pager;\n--no-pager prints it directly).\n\nNext.',
    );
    expect(layoutHelp(text, Infinity)).toBe(
      'Output: a ranked table on a terminal (long output goes through the pager; --no-pager prints it directly).\n\nNext.',
    );
  });

  it('keeps a quoted phrase and a code span whole', () => {
    const text = '--court takes a code or a name: ВКС, "РС Пловдив", "Окръжен съд – Варна", or `pravo catalog courts`.';
    const lines = layoutHelp(text, 40).split('\n');
    expect(lines).toEqual(['--court takes a code or a name: ВКС,', '"РС Пловдив", "Окръжен съд – Варна", or', '`pravo catalog courts`.']);
  });

  it('wraps an item under its description, and prints a line that fits as written', () => {
    const text = '  -c, --court <court>  court: its code from the catalog, a name or an abbreviation such as ВКС\n  --json     exactly';
    expect(layoutHelp(text, 60)).toBe(
      '  -c, --court <court>  court: its code from the catalog, a\n                       name or an abbreviation such as ВКС\n  --json     exactly',
    );
  });

  it('breaks a command line only outside quotes and $(…), with a trailing backslash', () => {
    const text = '  $ pravo answer wait "$(pravo answer --no-wait "неустойка при забава")" --verify --yes   # resumes';
    expect(layoutHelp(text, 60)).toBe(
      '  $ pravo answer wait \\\n      "$(pravo answer --no-wait "неустойка при забава")" \\\n      --verify --yes # resumes',
    );
    // A comment that does not fit moves whole to a line of its own, after the continuation.
    expect(layoutHelp('  $ pravo search "изборен кодекс гласуване" | cut -f1,2,7      # piped: rank, document_id, ..., title', 80)).toBe(
      '  $ pravo search "изборен кодекс гласуване" | cut -f1,2,7 \\\n      # piped: rank, document_id, ..., title',
    );
  });

  it('shellUnits splits at spaces outside quotes and keeps the comment last', () => {
    expect(shellUnits(`pravo keys list | awk -F'\\t' '$5 == "active" { print $1 }'   # ids`)).toEqual([
      'pravo',
      'keys',
      'list',
      '|',
      'awk',
      "-F'\\t'",
      `'$5 == "active" { print $1 }'`,
      '# ids',
    ]);
  });
});
