/**
 * The `pravo` program: global options and the command groups. Start-up pays only for what a command runs:
 * `--version` is answered before commander loads, registrations are light (commander only), and each command imports
 * its heavy modules (HTTP client, config store, renderers, sandbox) when it runs. This is the only module that touches
 * `process`: it hands the process's streams, environment and signals to the runner as a {@link Host}.
 */
import fs from 'node:fs';
import { systemClock } from './shared/clock.js';
import { EXIT } from './errors/exit-codes.js';
import { helpWidth, layoutHelp } from './help/layout.js';
import { prerenderedHelp } from './help/prerendered.js';
import { HELP_TOPICS, renderTopic, topicList } from './help/topics.js';
import type { Host } from './commands/runner.js';
import type { RunAction } from './commands/shared.js';

/** The package version, read from package.json. */
export function version(): string {
  const pkg = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

/** The end of the root help: the help topics (`./help/topics.ts`). */
const HELP_TOPICS_TEXT = `
Help topics (pravo help TOPIC):
${topicList()}`;

/** The host of a real run: the process's streams, environment and signals. */
export function processHost(): Host {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    onSignal: processSignals(),
    exit: (code) => process.exit(code),
    clock: systemClock,
    version: version(),
  };
}

const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/**
 * SIGINT and SIGTERM of the process, for the runner. pravo's listeners stay installed for the life of the process,
 * because another listener may re-raise a signal it sees: `when-exit` (loaded by `conf` through `atomically`) listens
 * once to each signal and then sends the same signal to the process again. That echo must neither count as the user's
 * second Ctrl-C nor, arriving after a run has stopped listening, kill the process with the default action. So when a
 * signal arrives while another listener is installed for it, its next arrival is taken as the echo and ignored. A
 * signal that arrives while no run listens ends the process (exit 130), as it would without pravo's listener.
 */
function processSignals(): Host['onSignal'] {
  const subscribers = new Set<(signal: (typeof STOP_SIGNALS)[number]) => void>();
  const echoes = new Set<string>();
  let installed = false;
  const install = (): void => {
    for (const signal of STOP_SIGNALS) {
      const listener = (): void => {
        if (echoes.delete(signal)) return;
        if (process.listenerCount(signal) > 1) echoes.add(signal);
        if (subscribers.size === 0) process.exit(EXIT.cancelled);
        for (const subscriber of [...subscribers]) subscriber(signal);
      };
      process.on(signal, listener);
    }
    installed = true;
  };
  return (handler) => {
    if (!installed) install();
    subscribers.add(handler);
    return () => subscribers.delete(handler);
  };
}

/**
 * Makes an unknown command at any level (`pravo serach`, `pravo config frobnicate`) a usage error that points at the
 * help listing that level's commands, instead of commander's plain message. Uses commander's `command:*` event, which
 * it emits instead of its own error when a listener is present.
 */
function pointUnknownCommandsAtHelp(
  command: import('commander').Command,
  host: Host,
  CommanderError: typeof import('commander').CommanderError,
): void {
  if (command.commands.length === 0) return;
  const path = commandPath(command);
  command.on('command:*', (operands: string[]) => {
    const name = operands[0] ?? '';
    host.stderr.write(`error: unknown command '${name}'\nRun \`${path} --help\` to see the commands.\n`);
    throw new CommanderError(EXIT.usage, 'commander.unknownCommand', `unknown command '${name}'`);
  });
  for (const sub of command.commands) pointUnknownCommandsAtHelp(sub, host, CommanderError);
}

/** `pravo config` for the config group: the names from the root down. */
function commandPath(command: import('commander').Command): string {
  const names: string[] = [];
  for (let c: import('commander').Command | null = command; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/**
 * `pravo help A B` as `pravo A B --help`, so that help of a command at any depth is the same page whichever way it is
 * asked (commander's help command reads only its first word): the arguments to parse instead, `undefined` when `args`
 * is not such a request (or is `pravo help` alone, which commander answers), `'unknown'` when its first word names
 * neither a command nor a topic.
 */
function helpCommandPath(program: import('commander').Command, args: readonly string[]): string[] | 'unknown' | undefined {
  if (args[0] !== 'help' || args.length < 2 || args.slice(1).some((word) => word.startsWith('-'))) return undefined;
  const path = args.slice(1);
  let command = program;
  for (const name of path) {
    const sub = command.commands.find((c) => c.name() === name || c.aliases().includes(name));
    if (!sub) return command === program ? 'unknown' : [...path, '--help'];
    command = sub;
  }
  return [...path, '--help'];
}

/** How help is printed, for the help pre-rendering. */
export interface ProgramOptions {
  /** The width help is laid out at (`Infinity`: unwrapped); default the terminal's (`helpWidth`). */
  helpWidth?: number;
}

/** The program with every command registered, and commander's error class (to tell its errors from pravo's). */
export interface Program {
  program: import('commander').Command;
  CommanderError: typeof import('commander').CommanderError;
}

/**
 * Builds the `pravo` command tree on `host`: every command group and command registered, output and errors going to
 * the host's streams, commander's exits turned into exceptions. Commands' actions call `run` (default: do nothing),
 * which `main()` uses to run them. The completion scripts, the pre-rendered help and the tests that walk every command
 * are built from this same tree.
 */
export async function buildProgram(host: Host, run: RunAction = async () => {}, options: ProgramOptions = {}): Promise<Program> {
  const [
    { Command, CommanderError },
    { registerSearch },
    { registerDoc },
    { registerOpen },
    { registerCite },
    { registerAnswer },
    { registerCatalog },
    { registerUsage },
    { registerConfig },
    { registerSandbox },
    { registerBatch },
    { registerLogin },
    { registerKeys },
    { registerAccount },
    { registerCompletion },
  ] = await Promise.all([
    import('commander'),
    import('./commands/search/register.js'),
    import('./commands/doc/register.js'),
    import('./commands/open/register.js'),
    import('./commands/cite/register.js'),
    import('./commands/answer/register.js'),
    import('./commands/catalog/register.js'),
    import('./commands/usage/register.js'),
    import('./commands/config/register.js'),
    import('./commands/sandbox/register.js'),
    import('./commands/batch/register.js'),
    import('./commands/login/register.js'),
    import('./commands/keys/register.js'),
    import('./commands/account/register.js'),
    import('./commands/completion/register.js'),
  ]);
  const program = new Command('pravo');
  program
    .description('Research Bulgarian legal sources with the Legal Research API, or offline with its sandbox.')
    .version(host.version, '-V, --version', 'print the version')
    .option('--profile <name>', 'configuration profile (default: PRAVO_PROFILE, else "default")')
    .option('--no-color', 'no colours (also: NO_COLOR=1)')
    .option('--no-pager', 'print long output directly instead of through the pager (PRAVO_PAGER, PAGER, else less)')
    .helpOption('-h, --help', 'show help')
    .helpCommand('help [command]', 'show help for a command (the same as pravo COMMAND --help)')
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      // Commander renders help unwrapped (width Infinity) and pravo lays it out to the terminal's width as it is
      // written (help/layout.ts), as it does the pre-rendered pages (help/prerendered.ts): both print the same bytes.
      // Only help and the version go through writeOut and writeErr; errors are written as they are.
      writeOut: (text) => host.stdout.write(layoutHelp(text, options.helpWidth ?? helpWidth(host.stdout, host.env))),
      writeErr: (text) => host.stderr.write(layoutHelp(text, options.helpWidth ?? helpWidth(host.stderr, host.env))),
      outputError: (text) => host.stderr.write(text),
      getOutHelpWidth: () => Infinity,
      getErrHelpWidth: () => Infinity,
      getOutHasColors: () => false,
      getErrHasColors: () => false,
    })
    .addHelpText(
      'after',
      `
Examples:
  $ pravo search --sandbox "застрахователят отказва да изплати обезщетение"
  $ pravo config set-key && pravo config set base-url https://api.example.bg
  $ pravo search -n 5 "обществени поръчки обжалване"
  $ pravo doc 1 --article 45
  $ pravo answer --verify --yes "Кога работодателят може да прекрати трудовия договор без предизвестие?"
  $ pravo cite --yes memo.md
  $ pravo search --court ВКС --judge Mihova "отмяна на присъдата"
  $ pravo catalog courts | grep Пловдив
  $ pravo usage
  $ pravo batch questions.txt --out results.jsonl --yes
  $ pravo login --status && pravo keys list
  $ pravo sandbox serve --corpus ../shared/corpus
${HELP_TOPICS_TEXT}`,
    );

  registerSearch(program, run);
  registerDoc(program, run);
  registerOpen(program, run);
  registerCite(program, run);
  registerAnswer(program, run);
  registerCatalog(program, run);
  registerUsage(program, run);
  registerConfig(program, run);
  registerBatch(program, run);
  registerLogin(program, run);
  registerKeys(program, run);
  registerAccount(program, run);
  registerSandbox(program, run);
  registerCompletion(program, run);
  // Subcommands inherited the suggestions above (`--jsno` → `--json`); at the top level, commands are few and differ
  // (a suggestion of "search" for "batch" misleads), so an unknown command points at the list instead.
  program.showSuggestionAfterError(false);
  pointUnknownCommandsAtHelp(program, host, CommanderError);

  return { program, CommanderError };
}

/**
 * Runs pravo with the given arguments (without `node` and the script) and returns the exit code. `host` defaults to
 * the process's.
 */
export async function main(args: string[], host: Host = processHost()): Promise<number> {
  let exitCode: number = EXIT.ok;
  // A reader that stops early (`pravo search ... | head -1`) closes the pipe: end quietly, as other tools do, instead
  // of crashing on EPIPE. By then the command's work (request, stored results) is done; only output is cut short.
  host.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    host.exit(exitCode);
  });
  // Shell completion asks for values from local state at every <TAB>: answered without commander or any client.
  if (args[0] === '__complete') {
    const { complete } = await import('./completion/dynamic.js');
    return complete(args.slice(1), host.env, host.stdout);
  }
  if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
    host.stdout.write(`${host.version}\n`);
    return EXIT.ok;
  }
  // A help topic (pravo help exit-codes) is text of its own, not a command.
  if (args[0] === 'help' && args.length === 2 && Object.hasOwn(HELP_TOPICS, args[1]!)) {
    host.stdout.write(renderTopic(args[1]!, helpWidth(host.stdout, host.env))!);
    return EXIT.ok;
  }
  // A plain help request is answered from the pages rendered at build time, without loading commander.
  const page = prerenderedHelp(args);
  if (page !== undefined) {
    host.stdout.write(layoutHelp(page, helpWidth(host.stdout, host.env)));
    return EXIT.ok;
  }
  return runProgram(args, host, (code) => (exitCode = code));
}

/**
 * Runs `args` through commander and the command's action, and returns the exit code: `main()` without its fast paths
 * (completion values, version, pre-rendered help). Used by `main()`, and by the help pre-rendering, which must render
 * with commander what the fast path will print (unwrapped: `options.helpWidth` Infinity). `onExitCode` learns the
 * command's exit code as soon as it is known (`main()`'s EPIPE handler exits with it).
 */
export async function runProgram(
  args: string[],
  host: Host,
  onExitCode: (code: number) => void = () => {},
  options: ProgramOptions = {},
): Promise<number> {
  let exitCode: number = EXIT.ok;
  const runner = import('./commands/runner.js');
  const run: RunAction = async (command, spec, body) => {
    const { runCommand } = await runner;
    // An API command (one that takes --sandbox) may run against the sandbox by the profile's `sandbox` setting.
    const targetable = command.options.some((option) => option.long === '--sandbox');
    const result = await runCommand(host, { ...spec, globals: command.optsWithGlobals(), ...(targetable ? { targetable } : {}) }, body);
    exitCode = result.exitCode;
    onExitCode(exitCode);
    // A cancelled command whose work does not stop by itself (an index build, say) must not keep the process alive.
    if (result.stuck) host.exit(exitCode);
  };
  const { program, CommanderError } = await buildProgram(host, run, options);
  const helpPath = helpCommandPath(program, args);
  if (helpPath === 'unknown') {
    host.stderr.write(
      `error: unknown command or help topic '${args[1]}'\nRun \`pravo --help\` to see the commands and the help topics (${Object.keys(HELP_TOPICS).join(', ')}).\n`,
    );
    return EXIT.usage;
  }

  try {
    await program.parseAsync(helpPath ?? args, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version succeed; anything else commander rejects (unknown option, missing argument, a command
      // group without its subcommand) is a usage error, reported before anything was sent.
      const ok =
        error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || (error.code === 'commander.help' && error.exitCode === 0);
      return ok ? EXIT.ok : EXIT.usage;
    }
    throw error;
  }
  return exitCode;
}
