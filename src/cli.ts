/**
 * The `pravo` program: global options and the commands. Start-up pays only for what a command runs: `--version` is
 * answered before commander loads, command modules are light (commander only), and each command imports its heavy
 * modules (HTTP client, config store, renderers, sandbox) when it runs.
 */
import fs from 'node:fs';
import { EXIT } from './exit-codes.js';
import { systemClock } from './api/clock.js';
import type { Context, GlobalOptions } from './context.js';

/** The package version, read from package.json. */
export function version(): string {
  const pkg = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

const EXIT_CODES_HELP = `
Exit codes:
  0    success
  1    error: server error, unexpected response, request rejected by the server
  2    usage: bad arguments, options or configuration; nothing was sent
  4    authentication: no key configured, or missing/invalid/revoked key
  5    monthly quota exceeded
  6    network or timeout: the server could not be reached, or the request may have reached it
  130  cancelled (Ctrl-C)

Environment: PRAVO_PROFILE, PRAVO_BASE_URL, PRAVO_API_KEY, PRAVO_CONFIG_DIR, PRAVO_SANDBOX_CORPUS,
PRAVO_SANDBOX_DATA_DIR, NO_COLOR.`;

/**
 * Runs pravo with the given arguments (without `node` and the script) and sets `process.exitCode`.
 * `io` defaults to the process's streams.
 */
export async function main(args: string[], io: Context['io'] = defaultIo()): Promise<void> {
  // A reader that stops early (`pravo search ... | head -1`) closes the pipe: end quietly, as other tools do, instead
  // of crashing on EPIPE. By then the command's work (request, stored results) is done; only output is cut short.
  io.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(process.exitCode ?? 0);
  });
  if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
    io.stdout.write(`${version()}\n`);
    return;
  }
  const { Command, CommanderError } = await import('commander');
  const [{ registerSearch }, { registerConfig }, { registerSandbox }] = await Promise.all([
    import('./commands/search.js'),
    import('./commands/config.js'),
    import('./commands/sandbox.js'),
  ]);

  const pravoVersion = version();
  const program = new Command('pravo');
  program
    .description('Research Bulgarian legal sources with the Legal Research API, or offline with its sandbox.')
    .version(pravoVersion, '-V, --version', 'print the version')
    .option('--profile <name>', 'configuration profile (default: PRAVO_PROFILE, else "default")')
    .option('--no-color', 'no colours (also: NO_COLOR=1)')
    .helpOption('-h, --help', 'show help')
    .addHelpCommand(false)
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    })
    .addHelpText(
      'after',
      `
Examples:
  $ pravo search --sandbox "застрахователят отказва да изплати обезщетение"
  $ pravo config set-key && pravo config set base-url https://api.example.bg
  $ pravo search -n 5 "обществени поръчки обжалване"
  $ pravo sandbox serve --corpus ../shared/corpus/bg-statutes.jsonl.gz
${EXIT_CODES_HELP}`,
    );

  const context = (): Context => ({
    io,
    globals: program.opts<GlobalOptions>(),
    clock: systemClock,
    now: () => performance.now(),
    onInterrupt: (handler) => {
      process.on('SIGINT', handler);
      return () => process.off('SIGINT', handler);
    },
    version: pravoVersion,
  });
  registerSearch(program, context);
  registerConfig(program, context);
  registerSandbox(program, context);

  try {
    await program.parseAsync(args, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version succeed; anything else commander rejects (unknown option, missing argument, a command
      // group without its subcommand) is a usage error, reported before anything was sent.
      const ok = error.code === 'commander.helpDisplayed' || error.code === 'commander.version';
      process.exitCode = ok ? EXIT.ok : EXIT.usage;
      return;
    }
    throw error;
  }
}

function defaultIo(): Context['io'] {
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env };
}
