/**
 * `pravo sandbox serve`: a local server implementing the Legal Research API contract over a corpus of real statutes,
 * so that pravo, its tests and users' scripts run offline and spend no quota. Also the corpus and data-directory
 * resolution and the progress display that `pravo search --sandbox` shares.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { ConfigError, PravoError, UsageError } from '../api/errors.js';
import { EXIT } from '../exit-codes.js';
import type { Context } from '../context.js';
import type { RunningSandbox, StartSandboxOptions } from '../sandbox/run.js';
import { runAction } from './action.js';

const EXAMPLES = `
Examples:
  $ pravo sandbox serve --corpus ../shared/corpus/bg-statutes.jsonl.gz
  $ pravo sandbox serve --port 8787 --search-quota 100
  $ pravo sandbox serve --json 2> sandbox.log.jsonl                # logs as JSON lines
  $ eval "$(pravo sandbox serve --port 0 | jq -r '"export PRAVO_BASE_URL=\\(.base_url) PRAVO_API_KEY=\\(.api_key)"')"   # in a script, with the server in the background

When ready, prints exactly one line of JSON to stdout, {"base_url":"http://127.0.0.1:PORT","api_key":"sbx_live_..."},
then logs to stderr only. The key is new for each start and stays valid afterwards. The corpus index is built
on first use of a corpus (with a progress bar) and reused on later starts. Ctrl-C or SIGTERM stops it.

Corpus: --corpus FILE, else PRAVO_SANDBOX_CORPUS, else \`pravo config set sandbox-corpus FILE\`.
Data (index, keys, usage): --data-dir DIR, else PRAVO_SANDBOX_DATA_DIR, else the user data directory.`;

/** Options of `pravo sandbox serve` as commander parses them. */
export interface ServeOptions {
  host: string;
  port: string;
  corpus?: string;
  dataDir?: string;
  searchQuota?: string;
  json?: boolean;
}

/** Registers the `sandbox` command group. */
export function registerSandbox(program: Command, context: () => Context): void {
  const sandbox = program
    .command('sandbox')
    .description('Run a local Legal Research API over the corpus of real statutes (offline, no quota)');
  sandbox
    .command('serve')
    .description('Start the sandbox server and print its base URL and a new API key as one JSON line')
    .option('--host <host>', 'interface to listen on (loopback by default)', '127.0.0.1')
    .option('--port <port>', 'TCP port; 0 picks a free one', '0')
    .option('--corpus <file>', 'corpus file, JSON Lines, gzipped or not')
    .option('--data-dir <dir>', 'where to keep the index, keys and usage')
    .option('--search-quota <n>', 'monthly search quota; searches beyond it get monthly_quota_exceeded (default: unlimited)')
    .option('--json', 'log to stderr as JSON lines {"time","message"}, and report errors as JSON (the ready line is always JSON)')
    .addHelpText('after', EXAMPLES)
    .action(async (options: ServeOptions) => {
      await runAction(context(), { command: 'sandbox serve', json: options.json === true }, (ctx) => runServe(options, ctx));
    });
}

/**
 * The corpus file: `--corpus`, else `PRAVO_SANDBOX_CORPUS`, else the `sandbox_corpus` setting.
 * @throws ConfigError when none is given (saying how to give one) or the file does not exist.
 */
export function resolveCorpus(flag: string | undefined, env: NodeJS.ProcessEnv, setting: string | undefined): string {
  const given = flag ?? (env.PRAVO_SANDBOX_CORPUS || undefined) ?? setting;
  if (!given) {
    throw new ConfigError(
      'No sandbox corpus given. Pass --corpus FILE, set PRAVO_SANDBOX_CORPUS=FILE, or store one with `pravo config set sandbox-corpus FILE`. ' +
        'The corpus is JSON Lines (gzipped or not), one act per line; beside a pravo checkout it is ../shared/corpus/bg-statutes.jsonl.gz.',
    );
  }
  const file = path.resolve(given);
  if (!fs.existsSync(file) || !fs.statSync(file).isFile()) {
    const source = flag ? '--corpus' : env.PRAVO_SANDBOX_CORPUS ? 'PRAVO_SANDBOX_CORPUS' : 'the sandbox-corpus setting';
    throw new ConfigError(`The sandbox corpus ${file} (from ${source}) does not exist or is not a file.`);
  }
  return file;
}

/** The sandbox data directory: `--data-dir`, else `PRAVO_SANDBOX_DATA_DIR`, else `<user data dir>/pravo/sandbox`. */
export async function resolveDataDir(flag: string | undefined, env: NodeJS.ProcessEnv): Promise<string> {
  const given = flag ?? (env.PRAVO_SANDBOX_DATA_DIR || undefined);
  if (given) return path.resolve(given);
  const { default: envPaths } = await import('env-paths');
  return path.join(envPaths('pravo', { suffix: '' }).data, 'sandbox');
}

/** How {@link startSandboxWithProgress} shows an index build. */
export interface ProgressDisplay {
  /** Draw a progress bar on stderr (a terminal only). */
  bar: boolean;
  /** Where the start and end lines go when there is no bar. */
  say: (line: string) => void;
}

/**
 * Starts a sandbox, showing the index build's progress: a progress bar on stderr, or two lines (start, end) through
 * `display.say`. Nothing is shown when an existing index is reused. Start failures become errors that say what to do.
 */
export async function startSandboxWithProgress(
  ctx: Context,
  options: Omit<StartSandboxOptions, 'onProgress'>,
  display: ProgressDisplay = { bar: ctx.io.stderr.isTTY === true, say: (line) => ctx.io.stderr.write(`${line}\n`) },
): Promise<RunningSandbox> {
  const [{ startSandbox }, { progressBar }] = await Promise.all([
    import('../sandbox/run.js'),
    import('../render/progress.js'),
  ]);
  const { stderr } = ctx.io;
  const started = ctx.now();
  let spinner: { text: string; render(): unknown; stop(): unknown } | undefined;
  let announced = false;
  const { default: ora } = display.bar ? await import('ora') : { default: undefined };
  let sandbox: RunningSandbox;
  try {
    sandbox = await startSandbox({
      ...options,
      onProgress: (progress) => {
        if (progress.phase !== 'indexing') return;
        const text = progressBar('Building search index', progress.done, progress.total, 'documents');
        if (!announced) {
          announced = true;
          if (ora) spinner = ora({ text, stream: stderr, discardStdin: false }).start();
          else display.say(`Building the search index of ${options.corpusPath} (once per corpus)…`);
        }
        if (spinner) {
          spinner.text = text;
          spinner.render();
        }
      },
    });
  } catch (error) {
    spinner?.stop();
    throw explainStartFailure(error, options);
  }
  if (announced) {
    spinner?.stop();
    const seconds = ((ctx.now() - started) / 1000).toFixed(1);
    display.say(`Search index ready: ${sandbox.documentCount} documents, ${sandbox.articleCount} articles, in ${seconds} s.`);
  }
  return sandbox;
}

/** A start failure as an error that says what to do: a malformed corpus names its line; a taken port suggests another. */
function explainStartFailure(error: unknown, options: { corpusPath: string; port?: number }): unknown {
  if (error instanceof Error && error.name === 'CorpusError') {
    return new PravoError(`${error.message}\nFix the corpus file, or point --corpus at another one (format: README, "Sandbox corpus").`, EXIT.error);
  }
  const code = (error as { code?: unknown } | undefined)?.code;
  if (code === 'EADDRINUSE' || code === 'EACCES') {
    return new PravoError(`Cannot listen on port ${options.port}: ${code === 'EADDRINUSE' ? 'it is in use' : 'permission denied'}. Choose another --port, or 0 for a free one.`, EXIT.error);
  }
  return error;
}

/** Runs `pravo sandbox serve` until SIGINT or SIGTERM; returns the exit code. */
export async function runServe(options: ServeOptions, ctx: Context): Promise<number> {
  const { io } = ctx;
  const port = Number(options.port);
  if (!/^\d+$/.test(options.port) || port > 65535) throw new UsageError(`--port takes a number from 0 to 65535, not "${options.port}"`);
  let searchQuota: number | undefined;
  if (options.searchQuota !== undefined) {
    if (!/^\d+$/.test(options.searchQuota)) throw new UsageError(`--search-quota takes a whole number, not "${options.searchQuota}"`);
    searchQuota = Number(options.searchQuota);
  }
  const { ConfigStore } = await import('../config/store.js');
  const config = await ConfigStore.open(io.env);
  const corpusPath = resolveCorpus(options.corpus, io.env, config.sandboxCorpus());
  const dataDir = await resolveDataDir(options.dataDir, io.env);
  const log = (line: string) => {
    const time = new Date().toISOString();
    io.stderr.write(options.json ? `${JSON.stringify({ time, message: line })}\n` : `${time} ${line}\n`);
  };
  if (!['127.0.0.1', 'localhost', '::1'].includes(options.host)) {
    log(`warning: listening on ${options.host}: the sandbox is reachable from other machines`);
  }

  const sandbox = await startSandboxWithProgress(
    ctx,
    {
      corpusPath,
      dataDir,
      host: options.host,
      port,
      quotas: searchQuota === undefined ? {} : { search: searchQuota },
      keyName: `sandbox serve ${new Date().toISOString()}`,
      log,
    },
    { bar: io.stderr.isTTY === true && !options.json, say: log },
  );
  io.stdout.write(`${JSON.stringify({ base_url: sandbox.baseUrl, api_key: sandbox.apiKey })}\n`);
  log(
    `pravo sandbox listening on ${sandbox.baseUrl} (${sandbox.documentCount} documents, data in ${dataDir}); key ${sandbox.keyId} issued; Ctrl-C stops it`,
  );

  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      log(`${signal}: stopping`);
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      resolve();
    };
    const onInt = () => stop('SIGINT');
    const onTerm = () => stop('SIGTERM');
    process.on('SIGINT', onInt);
    process.on('SIGTERM', onTerm);
  });
  await sandbox.close();
  log('stopped');
  return 0;
}
