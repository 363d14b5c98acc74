/**
 * Help holds for every command of the tree (walked, so a new command is covered without editing this file): a usage
 * line; every option that takes a quantity says its unit or range; examples, in Bulgarian where the command takes a
 * query; `pravo help PATH` prints exactly `pravo PATH --help`. And the help topics (exit codes, environment, formats)
 * print their tables, which the README holds under the same headings.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildProgram, main } from '../../src/cli.js';
import { EXIT } from '../../src/errors/exit-codes.js';
import { HELP_TOPICS, renderTopic, topicMarkdown } from '../../src/help/topics.js';
import { testHost } from '../helpers/host.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Every command of the tree with its path, the root (`''`) first. */
function commands(command: Command, prefix = ''): [string, Command][] {
  return [[prefix, command], ...command.commands.flatMap((sub) => commands(sub, prefix ? `${prefix} ${sub.name()}` : sub.name()))];
}

/** Placeholders of options that take a quantity: their help must give a unit or a range. */
const QUANTITY = /^<(n|k|r|units|seconds|hours|duration|port|YYYY-MM-DD)>$/;

let tree: [string, Command][];

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const t = testHost();
  const code = await main(args, t.host);
  return { code, stdout: t.stdout(), stderr: t.stderr() };
}

beforeAll(async () => {
  tree = commands((await buildProgram(testHost().host)).program);
});

describe('every command has help a user can act on', () => {
  it('a usage line, and `pravo help PATH` is byte for byte `pravo PATH --help`', async () => {
    for (const [commandPath] of tree) {
      const words = commandPath ? commandPath.split(' ') : [];
      const viaOption = await run([...words, '--help']);
      expect(viaOption.code, commandPath).toBe(0);
      expect(viaOption.stdout, commandPath).toMatch(new RegExp(`^Usage: pravo${commandPath ? ` ${commandPath}` : ''} `));
      const viaCommand = await run(['help', ...words]);
      expect(viaCommand, `pravo help ${commandPath}`).toEqual(viaOption);
    }
  });

  it('every option that takes a quantity says its unit or range', () => {
    const missing: string[] = [];
    for (const [commandPath, command] of tree) {
      for (const option of command.options) {
        const placeholder = /<[^>]+>/.exec(option.flags)?.[0] ?? '';
        if (!QUANTITY.test(placeholder)) continue;
        const text = `${placeholder} ${option.description}`;
        if (!/\d|seconds|hours|units|date|YYYY|a month/.test(text)) missing.push(`pravo ${commandPath} ${option.flags}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('every command that runs something shows examples; those that take a query show one in Bulgarian', async () => {
    const problems: string[] = [];
    for (const [commandPath, command] of tree) {
      const isGroupOnly = command.commands.length > 0 && (command as unknown as { _actionHandler: unknown })._actionHandler === null;
      if (commandPath === '' || isGroupOnly) continue;
      const { stdout } = await run([...commandPath.split(' '), '--help']);
      const examples = stdout.split('\n').filter((line) => /^ {2}\$ pravo /.test(line));
      if (examples.length === 0) problems.push(`pravo ${commandPath}: no example`);
      const takesQuery = command.registeredArguments.some((a) => a.name() === 'query');
      if (takesQuery && !examples.some((line) => /\p{Script=Cyrillic}{3,}/u.test(line))) problems.push(`pravo ${commandPath}: no example in Bulgarian`);
    }
    expect(problems).toEqual([]);
  });
});

describe('help topics', () => {
  it.each(Object.keys(HELP_TOPICS))('pravo help %s prints the topic, and the root help lists it', async (name) => {
    const result = await run(['help', name]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(renderTopic(name));
    expect(result.stderr).toBe('');
    expect((await run(['--help'])).stdout).toContain(`  ${name}`);
  });

  it.each(Object.keys(HELP_TOPICS))('the README holds the %s table under its heading', (name) => {
    const readme = fs.readFileSync(path.join(repo, 'README.md'), 'utf8');
    const heading = `\n## ${HELP_TOPICS[name]!.readmeHeading}\n`;
    const at = readme.indexOf(heading);
    expect(at, heading).toBeGreaterThan(0);
    const section = readme.slice(at + heading.length, readme.indexOf('\n## ', at + heading.length));
    expect(section).toContain(topicMarkdown(name));
  });

  it('the topics cover every exit code pravo has and every variable the README and docs/ name', () => {
    const codes = HELP_TOPICS['exit-codes']!.rows.map((row) => Number(row[0]));
    expect(codes.sort((a, b) => a - b)).toEqual([...new Set(Object.values(EXIT))].sort((a, b) => a - b));
    const variables = HELP_TOPICS.environment!.rows.map((row) => row[0]).join(' ');
    const pages = fs.readdirSync(path.join(repo, 'docs'), { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.md'));
    const readme = ['README.md', ...pages.map((name) => path.join('docs', name))].map((file) => fs.readFileSync(path.join(repo, file), 'utf8')).join('\n');
    // PRAVO_BENCH_* are the benchmark's, not pravo's.
    for (const name of new Set(readme.match(/\bPRAVO_(?!BENCH_)[A-Z_]+\b/g))) expect(variables, name).toContain(`\`${name}\``);
  });

  it('formats names every command that prints data', () => {
    const commandsNamed = HELP_TOPICS.formats!.rows.map((row) => row[0]).join(' ');
    for (const [commandPath] of tree.filter(([p]) => p !== '' && !p.includes(' '))) {
      if (commandPath === 'help') continue;
      expect(commandsNamed, commandPath).toContain(`pravo ${commandPath}`);
    }
  });

  it('an unknown name is a usage error naming the topics', async () => {
    const result = await run(['help', 'nonsense']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain("unknown command or help topic 'nonsense'");
    expect(result.stderr).toContain('exit-codes, environment, formats');
  });
});
