/**
 * What every command registration shares: the target options of API commands (declared here once), example sections
 * for help, and the bridge from a commander action to the runner.
 */
import type { Command } from 'commander';
import type { CommandBody, RunSpec } from './runner.js';
import type { Factory } from '../factory.js';

/**
 * Runs a command body through the runner with the command line's global options. `main()` provides it; registrations
 * call it from their actions.
 */
export type RunAction = (command: Command, spec: Omit<RunSpec, 'globals'>, body: CommandBody) => Promise<void>;

/**
 * Adds the options every API command accepts, declared once: `--sandbox`, `--corpus PATH` (repeatable), `--data-dir
 * DIR`. They reach the factory through the command's options, and are resolved in the config layer
 * (`src/config/sandbox.ts`).
 */
export function addTargetOptions(command: Command): Command {
  return command
    .option('--sandbox', 'run against an in-process sandbox over the local corpus instead of the service (offline, no quota)')
    .option(
      '--corpus <path>',
      'with --sandbox: a corpus file, a courts file, or a directory of them; repeatable (default: PRAVO_SANDBOX_CORPUS, then `pravo config set sandbox-corpus`)',
      collect,
    )
    .option('--data-dir <dir>', 'with --sandbox: where the sandbox keeps its index and state (default: PRAVO_SANDBOX_DATA_DIR, then the user data directory)');
}

/** An "Examples:" help section: `$ pravo <command> <args>` per argument list, each optionally with a comment. */
export function examples(command: string, ...argLists: string[]): string {
  return `\nExamples:\n${argLists.map((args) => `  $ pravo ${command}${args ? ` ${args}` : ''}`).join('\n')}`;
}

/** Commander's collector for a repeatable option. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}
