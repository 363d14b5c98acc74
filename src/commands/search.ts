/**
 * `pravo search <query...>`: `POST /v1/search` (spec: POST /v1/search) with every request field as an option, checked
 * before anything is sent; a spinner while waiting on a terminal; a ranked table on a terminal, tab-separated lines
 * when piped, the server's response exactly with `--json`. The last results are stored for `pravo doc N`.
 * `--sandbox` runs the same path against an in-process sandbox on a loopback port.
 */
import type { Command } from 'commander';
import { LIMITS, searchRequestProblems, type SearchRequest, type SearchResponse } from '../api/types.js';
import { ConfigError, MissingKeyError, UsageError } from '../api/errors.js';
import { useColor, type Context } from '../context.js';
import { runAction } from './action.js';

/** Options of `pravo search` as commander parses them (strings, before checking). */
export interface SearchOptions {
  type?: string[];
  court?: string[];
  judge?: string;
  from?: string;
  to?: string;
  maxResults?: string;
  timeout?: string;
  json?: boolean;
  sandbox?: boolean;
  corpus?: string;
  dataDir?: string;
}

const EXAMPLES = `
Examples:
  $ pravo search "застрахователят отказва да изплати обезщетение"
  $ pravo search --type bulgarian_laws_regulations --from 2020-01-01 -n 5 "обществени поръчки обжалване"
  $ pravo search --json "трудов договор прекратяване" | jq '.results[0].excerpts'
  $ pravo search "изборен кодекс гласуване" | cut -f1,2,7      # piped: rank, document_id, ..., title
  $ pravo search --sandbox "застрахователят отказва да изплати обезщетение"   # offline, no quota

Output: a ranked table on a terminal; when piped, one result per line with tab-separated fields
rank, document_id, collection, score, date, type, title, excerpt labels; --json prints the server's
response exactly. The last results are kept, so \`pravo doc 3\` can open result 3.

Searches on the live service take 10 to 40 s. A search is never retried automatically: after a
timeout or a dropped connection the server may already have run and counted it.`;

/** Registers `search` on the program. */
export function registerSearch(program: Command, context: () => Context): void {
  program
    .command('search')
    .description('Search Bulgarian legal sources: ranked documents with their most relevant articles')
    .argument('<query...>', `what to look for, in Bulgarian for best results (${LIMITS.queryMinLength} to ${LIMITS.queryMaxLength} characters)`)
    .option('-t, --type <source_type>', 'source type from the catalog, e.g. bulgarian_laws_regulations (repeatable)', collect)
    .option('-c, --court <id>', 'court identifier from the catalog; case law only (repeatable)', collect)
    .option('-j, --judge <name>', 'reporting judge, approximate and case-insensitive')
    .option('--from <YYYY-MM-DD>', 'published on or after this date')
    .option('--to <YYYY-MM-DD>', 'published on or before this date')
    .option('-n, --max-results <n>', `number of results, ${LIMITS.maxResultsMin} to ${LIMITS.maxResultsMax} (server default ${LIMITS.maxResultsDefault})`)
    .option('--timeout <seconds>', `give up waiting after this many seconds (default ${LIMITS.searchTimeoutMs / 1000})`)
    .option('--json', "print the server's response exactly, as JSON")
    .option('--sandbox', 'search an in-process sandbox over the local corpus instead of the service')
    .option('--corpus <file>', 'with --sandbox: the corpus file (default: PRAVO_SANDBOX_CORPUS, then `pravo config set sandbox-corpus`)')
    .option('--data-dir <dir>', 'with --sandbox: where the sandbox keeps its index and state')
    .addHelpText('after', EXAMPLES)
    .action(async (words: string[], options: SearchOptions) => {
      await runAction(context(), { command: 'search', json: options.json === true }, (ctx) =>
        runSearch(words.join(' '), options, ctx),
      );
    });
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/**
 * Builds the `POST /v1/search` body from the command line and checks it against the contract
 * (`searchRequestProblems`). `include_content` is deprecated and never sent.
 * @throws UsageError listing every problem; nothing has been sent.
 */
export function buildSearchRequest(query: string, options: SearchOptions): SearchRequest {
  const problems: string[] = [];
  const request: SearchRequest = { query: query.trim() };
  if (options.type?.length) request.source_types = [...new Set(options.type.map((t) => t.trim()))];
  if (options.court?.length) {
    const ids = options.court.map((c) => c.trim());
    const bad = ids.filter((c) => !/^\d+$/.test(c));
    if (bad.length > 0) problems.push(`--court takes integer court identifiers from the catalog, not ${bad.map((b) => `"${b}"`).join(', ')}`);
    else request.court_ids = [...new Set(ids.map(Number))];
  }
  if (options.judge !== undefined) request.judge_name = options.judge.trim();
  if (options.from !== undefined) request.date_from = options.from.trim();
  if (options.to !== undefined) request.date_to = options.to.trim();
  if (options.maxResults !== undefined) {
    const n = options.maxResults.trim();
    if (!/^\d+$/.test(n)) problems.push(`--max-results takes a whole number from ${LIMITS.maxResultsMin} to ${LIMITS.maxResultsMax}, not "${n}"`);
    else request.max_results = Number(n);
  }
  for (const problem of searchRequestProblems(request)) {
    problems.push(problem.message.replace(/^(query|max_results|date_from|date_to|court_ids|judge_name|source_types)\b/, (f) => OPTION_NAMES[f] ?? f));
  }
  if (problems.length > 0) throw new UsageError(problems.join('\n'));
  return request;
}

const OPTION_NAMES: Record<string, string> = {
  query: 'the query',
  max_results: '--max-results',
  date_from: '--from',
  date_to: '--to',
  court_ids: '--court',
  judge_name: '--judge',
  source_types: '--type',
};

/**
 * Parses `--timeout` seconds into milliseconds (default 60 s).
 * @throws UsageError unless it is a number of seconds from 1 to 3600.
 */
export function parseTimeout(value: string | undefined): number {
  if (value === undefined) return LIMITS.searchTimeoutMs;
  const seconds = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value.trim()) || seconds < 1 || seconds > 3600) {
    throw new UsageError(`--timeout takes a number of seconds from 1 to 3600, not "${value}"`);
  }
  return Math.round(seconds * 1000);
}

/** Runs the search; returns the exit code. */
export async function runSearch(query: string, options: SearchOptions, ctx: Context): Promise<number> {
  const { io } = ctx;
  const request = buildSearchRequest(query, options);
  const timeoutMs = parseTimeout(options.timeout);
  if (!options.sandbox && (options.corpus !== undefined || options.dataDir !== undefined)) {
    throw new UsageError('--corpus and --data-dir apply only with --sandbox');
  }

  const { ConfigStore } = await import('../config/store.js');
  const config = await ConfigStore.open(io.env);
  const target = options.sandbox
    ? await startInProcessSandbox(options, config, ctx)
    : await profileTarget(config, ctx);

  let response: { data: SearchResponse; raw: string };
  try {
    const { ApiClient } = await import('../api/client.js');
    const client = new ApiClient({
      baseUrl: target.baseUrl,
      apiKey: target.apiKey,
      authHeader: target.authHeader,
      searchTimeoutMs: timeoutMs,
      clock: ctx.clock,
      userAgent: `pravo/${ctx.version}`,
    });
    const interactive = !options.json && io.stdout.isTTY === true && io.stderr.isTTY === true;
    const controller = new AbortController();
    const removeInterrupt = ctx.onInterrupt(() => controller.abort());
    const spinner = interactive ? await startWaitingSpinner(ctx, 'Searching') : undefined;
    try {
      response = await client.search(request, { signal: controller.signal });
    } finally {
      spinner?.stop();
      removeInterrupt();
      await client.close();
    }
  } finally {
    // An in-process sandbox must stop whatever happened, or its server would keep the process alive.
    await target.close();
  }

  // Stored before printing, so that a reader closing the pipe early cannot lose them; a failure to store them costs
  // the user `pravo doc N`, not the search they paid for.
  try {
    const { saveLastResults } = await import('../config/last-results.js');
    await saveLastResults(io.env, {
      saved_at: new Date().toISOString(),
      query: request.query,
      profile: target.profile,
      sandbox: options.sandbox === true,
      results: response.data.results.map((r, i) => ({
        rank: i + 1,
        document_id: r.document_id,
        collection: r.collection,
        title: r.title,
      })),
    });
  } catch (error) {
    io.stderr.write(`Warning: could not store these results for \`pravo doc N\`: ${(error as Error).message}\n`);
  }

  if (options.json) {
    io.stdout.write(response.raw.endsWith('\n') ? response.raw : `${response.raw}\n`);
  } else if (io.stdout.isTTY) {
    const { renderSearchTable } = await import('../render/search.js');
    io.stdout.write(
      renderSearchTable(response.data, {
        width: io.stdout.columns ?? 100,
        color: useColor(io.stdout, io.env, ctx.globals),
      }),
    );
  } else {
    const { renderSearchTsv } = await import('../render/search.js');
    io.stdout.write(renderSearchTsv(response.data));
  }
  return 0;
}

/** Where a search goes and with what key. */
interface Target {
  baseUrl: string;
  apiKey: string;
  authHeader: 'x-api-key' | 'bearer';
  profile: string;
  close(): Promise<void>;
}

async function profileTarget(config: import('../config/store.js').ConfigStore, ctx: Context): Promise<Target> {
  const { resolveProfile } = await import('../config/profile.js');
  const profile = resolveProfile(config.data(), ctx.io.env, ctx.globals.profile);
  if (!profile.base_url) {
    throw new ConfigError(
      `No base URL is configured for profile "${profile.name}". Set it with \`pravo config set base-url URL\` (or PRAVO_BASE_URL), or search offline with --sandbox.`,
    );
  }
  if (!profile.api_key) throw new MissingKeyError(profile.name);
  return {
    baseUrl: profile.base_url,
    apiKey: profile.api_key,
    authHeader: profile.auth_header,
    profile: profile.name,
    close: async () => {},
  };
}

async function startInProcessSandbox(
  options: SearchOptions,
  config: import('../config/store.js').ConfigStore,
  ctx: Context,
): Promise<Target> {
  const { resolveCorpus, resolveDataDir, startSandboxWithProgress } = await import('./sandbox.js');
  const corpusPath = resolveCorpus(options.corpus, ctx.io.env, config.sandboxCorpus());
  const dataDir = await resolveDataDir(options.dataDir, ctx.io.env);
  const sandbox = await startSandboxWithProgress(ctx, {
    corpusPath,
    dataDir,
    ephemeralKey: true,
    keyName: 'pravo search --sandbox',
  });
  return {
    baseUrl: sandbox.baseUrl,
    apiKey: sandbox.apiKey,
    authHeader: 'x-api-key',
    profile: 'sandbox',
    close: () => sandbox.close(),
  };
}

/** Starts an ora spinner on stderr whose text shows the seconds elapsed; returns it with a `stop()`. */
async function startWaitingSpinner(ctx: Context, label: string): Promise<{ stop(): void }> {
  const [{ default: ora }, { waitingText }] = await Promise.all([import('ora'), import('../render/progress.js')]);
  const started = ctx.now();
  const spinner = ora({ text: waitingText(label, 0), stream: ctx.io.stderr, discardStdin: false }).start();
  const ticker = setInterval(() => {
    spinner.text = waitingText(label, ctx.now() - started);
  }, 1000);
  return {
    stop() {
      clearInterval(ticker);
      spinner.stop();
    },
  };
}
