/**
 * The command tree as the shell completion scripts need it: for every command path, its subcommands, its options
 * (with whether each takes a value and how that value completes) and its positional arguments. Read from the same
 * commander tree that runs (`buildProgram` in `src/cli.ts`), so the scripts in `completions/` cannot drift from the
 * commands. How a value completes is said here, once, in {@link OPTION_VALUES} and {@link ARGUMENT_VALUES}; a test
 * fails when an option or argument that takes a value is in neither.
 */
import type { Command } from 'commander';
import { SETTINGS } from '../commands/config/settings.js';

/**
 * The local state a dynamic value comes from, answered by `pravo __complete <kind>` (`./dynamic.ts`) without the
 * network:
 * - `profiles`: profile names of the config file;
 * - `source-types`, `courts`: the cached catalogs (`pravo catalog …`), courts with their usual abbreviations;
 * - `jobs`, `unfinished-jobs`: recorded answer jobs (all, or queued/running first);
 * - `keys`: key ids of the last `pravo keys list` (active keys);
 * - `results`: result numbers of the last search;
 * - `setting-values`: the values of the setting named before it (`config set auth-header …`).
 */
export type DynamicKind = 'profiles' | 'source-types' | 'courts' | 'jobs' | 'unfinished-jobs' | 'keys' | 'results' | 'setting-values';

/** Every {@link DynamicKind}, for the fast path's argument check. */
export const DYNAMIC_KINDS: readonly DynamicKind[] = ['profiles', 'source-types', 'courts', 'jobs', 'unfinished-jobs', 'keys', 'results', 'setting-values'];

/**
 * How a value completes: free text (nothing offered), a file or directory path, one of fixed choices, or values from
 * local state.
 */
export type ValueSource =
  | { kind: 'text' }
  | { kind: 'file' }
  | { kind: 'directory' }
  | { kind: 'choices'; values: readonly string[] }
  | { kind: 'dynamic'; from: DynamicKind };

const text: ValueSource = { kind: 'text' };
const file: ValueSource = { kind: 'file' };
const directory: ValueSource = { kind: 'directory' };
const dynamic = (from: DynamicKind): ValueSource => ({ kind: 'dynamic', from });

/** The fixed values of the `auth-header` setting (`pravo config set auth-header …`). */
export const AUTH_HEADER_VALUES = ['x-api-key', 'bearer'] as const;

/** The shells `pravo completion` writes a script for. */
export const SHELLS = ['bash', 'zsh', 'fish'] as const;
/** A shell of {@link SHELLS}. */
export type Shell = (typeof SHELLS)[number];

/**
 * How the value of each value-taking option completes, by its long flag, whatever the command. Options with
 * commander `choices` complete those and need no entry.
 */
export const OPTION_VALUES: Readonly<Record<string, ValueSource>> = {
  '--profile': dynamic('profiles'),
  '--save-to-profile': dynamic('profiles'),
  '--type': dynamic('source-types'),
  '--court': dynamic('courts'),
  '--corpus': file,
  '--data-dir': directory,
  '--out': file,
  '--format': { kind: 'choices', values: ['md', 'markdown'] },
  '--collection': text,
  '--article': text,
  '--paragraph': text,
  '--judge': text,
  '--search': text,
  '--from': text,
  '--to': text,
  '--max-results': text,
  '--limit': text,
  '--timeout': text,
  '--name': text,
  '--host': text,
  '--port': text,
  '--quota': text,
  '--search-quota': text,
  '--retrieval-quota': text,
  '--answers-quota': text,
  '--overage': { kind: 'choices', values: ['off'] },
  '--answer-delay': text,
  '--answer-failure-rate': text,
  '--auth-cache-ttl': text,
  '--search-workers': text,
  '--expires-in': text,
  '--concurrency': text,
  '--id': text,
  '--fetch-docs': text,
};

/**
 * How each positional argument completes, by `<command path>/<argument name>` (e.g. `doc/N|document_id`). Arguments
 * with commander `choices` complete those and need no entry.
 */
export const ARGUMENT_VALUES: Readonly<Record<string, ValueSource>> = {
  'search/query': text,
  'answer/query': text,
  'answer wait/job_id': dynamic('unfinished-jobs'),
  'answer show/job_id': dynamic('jobs'),
  'doc/N|document_id': dynamic('results'),
  'open/N|document_id': dynamic('results'),
  'batch/file': file,
  'cite/file': file,
  'sandbox import/source': directory,
  'config set-key/refused': text,
  'login/refused': text,
  'keys revoke/key_id': dynamic('keys'),
  'config set/name': { kind: 'choices', values: Object.keys(SETTINGS) },
  'config set/value': dynamic('setting-values'),
  'config unset/name': { kind: 'choices', values: [...Object.keys(SETTINGS), 'api-key'] },
};

/** One option of a command, as completion sees it. */
export interface CompletionOption {
  /** Its flags, short first: `['-t', '--type']`, `['--no-color']`. */
  flags: string[];
  description: string;
  /** How its value completes; `undefined` when it takes none (a switch). */
  value: ValueSource | undefined;
}

/** One positional argument. */
export interface CompletionArgument {
  name: string;
  /** Takes every remaining word (`<query...>`). */
  variadic: boolean;
  value: ValueSource;
}

/** One command of the tree, with its path from the root (`''` for `pravo` itself, `catalog courts`). */
export interface CompletionNode {
  path: string;
  name: string;
  description: string;
  options: CompletionOption[];
  arguments: CompletionArgument[];
  commands: CompletionNode[];
}

/**
 * The completion tree of `program`: every visible command (commander's help command included, completing command
 * names), with the root's options offered at every level (commander reads them after a subcommand too).
 * @throws Error naming the option or argument when one that takes a value has no {@link ValueSource} (a new option
 *   must say how it completes).
 */
export function completionTree(program: Command): CompletionNode {
  const globals = program.options.filter((option) => !option.hidden && option.long !== '--version');
  return node(program, '', globals);
}

function node(command: Command, path: string, globals: readonly import('commander').Option[]): CompletionNode {
  const help = command.createHelp();
  const own = help.visibleOptions(command);
  const options = [...own, ...(path === '' ? [] : globals.filter((g) => !own.some((o) => o.long === g.long)))].map((option) => describeOption(option, path));
  const args = help.visibleArguments(command).map((argument) => describeArgument(argument, path));
  const commands = help
    .visibleCommands(command)
    .map((sub) => (command.commands.includes(sub) ? node(sub, join(path, sub.name()), globals) : helpNode(command, path)));
  return { path, name: command.name(), description: help.commandDescription(command) || command.summary(), options, arguments: args, commands };
}

/** Commander's implicit `help [command]`: completes the names of its siblings. */
function helpNode(parent: Command, path: string): CompletionNode {
  const names = parent.commands.filter((c) => !(c as unknown as { _hidden?: boolean })._hidden).map((c) => c.name());
  return {
    path: join(path, 'help'),
    name: 'help',
    description: 'show help for a command',
    options: [],
    arguments: [{ name: 'command', variadic: false, value: { kind: 'choices', values: names } }],
    commands: [],
  };
}

function describeOption(option: import('commander').Option, path: string): CompletionOption {
  const flags = [option.short, option.long].filter((flag): flag is string => typeof flag === 'string');
  const takesValue = option.required || option.optional;
  let value: ValueSource | undefined;
  if (takesValue) {
    value = option.argChoices ? { kind: 'choices', values: option.argChoices } : OPTION_VALUES[option.long ?? ''];
    if (value === undefined) throw new Error(`completion: option ${option.flags} of "pravo ${path}" has no entry in OPTION_VALUES`);
  }
  return { flags, description: option.description, value };
}

function describeArgument(argument: import('commander').Argument, path: string): CompletionArgument {
  const value = argument.argChoices ? { kind: 'choices' as const, values: argument.argChoices } : ARGUMENT_VALUES[`${path}/${argument.name()}`];
  if (value === undefined) throw new Error(`completion: argument <${argument.name()}> of "pravo ${path}" has no entry in ARGUMENT_VALUES`);
  return { name: argument.name(), variadic: argument.variadic, value };
}

function join(path: string, name: string): string {
  return path === '' ? name : `${path} ${name}`;
}

/** Every node of the tree, root first (depth first, in the tree's order). */
export function allNodes(root: CompletionNode): CompletionNode[] {
  return [root, ...root.commands.flatMap(allNodes)];
}
