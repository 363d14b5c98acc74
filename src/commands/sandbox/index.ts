/** Registration of `pravo sandbox`: flags to options; the work is in `serve.ts`, loaded when the command runs. */
import type { Command } from 'commander';
import { collect, type RunAction } from '../shared.js';
import type { ServeOptions } from './serve.js';

const EXAMPLES = `
Examples:
  $ pravo sandbox serve --corpus ../shared/corpus
  $ pravo sandbox serve --corpus ../shared/corpus/bg-statutes.jsonl.gz --corpus ../shared/corpus/bg-courts.json
  $ pravo sandbox serve --port 8787 --quota search=100,retrieval=20,answers=10
  $ pravo sandbox serve --quota answers=unlimited --overage 500 --data-dir ./sandbox-data
  $ pravo sandbox serve --answer-delay 0.5                         # answer jobs finish in half a second
  $ pravo sandbox serve --answer-failure-rate 0.3                  # 3 answer jobs in 10 fail answer_failed
  $ pravo sandbox serve --json 2> sandbox.log.jsonl                # logs as JSON lines

A profile that follows the sandbox across restarts (the two commands in two terminals):
  $ pravo sandbox serve --save-to-profile local
  $ pravo --profile local search "обществени поръчки обжалване"

In a script, with the server in the background:
  $ rm -f sandbox.json; pravo sandbox serve > sandbox.json &
  $ until [ -s sandbox.json ]; do sleep 0.2; done
  $ export PRAVO_BASE_URL=$(jq -r .base_url sandbox.json) PRAVO_API_KEY=$(jq -r .api_key sandbox.json)
  $ pravo search "трудов договор прекратяване"
  $ kill %1

When ready, prints exactly one line of JSON to stdout, {"base_url":"http://127.0.0.1:PORT","api_key":"sbx_live_..."},
then logs to stderr only. The key is new for each start and stays valid afterwards. The corpus index is built
on first use of a set of inputs (with a progress bar) and reused on later starts. Ctrl-C or SIGTERM stops it.

--save-to-profile NAME writes this start's base URL and key into profile NAME of the config file (creating it;
its other settings are kept) once the server listens, and the ready line becomes {"base_url":"...","profile":"NAME"}:
the key is printed nowhere, it is only in the profile. PRAVO_BASE_URL and PRAVO_API_KEY, when set, still override
the profile's values.

Answer jobs (POST /v1/answers) run in this process: running after a quarter of --answer-delay (default 3 s),
succeeded after all of it, with an answer quoted from the excerpts of the search, each sentence cited. A job still
queued or running 15 minutes after its creation (e.g. left by a stopped sandbox) fails timed_out at its next check,
and its answers unit is restored.

Quotas: every key belongs to the account acct_sandbox, of plan sandbox: 10000 searches, 10000 document retrievals
and 1000 answer jobs a month (UTC). --quota KIND=N[,KIND=N...] (KIND search, retrieval or answers; N a whole number
or "unlimited") replaces them for this process; --search-quota N, --retrieval-quota N and --answers-quota N are
aliases. Past a quota, 429 monthly_quota_exceeded, unless the account allows overage: --overage N stores "allowed,
up to N units a month beyond the quotas, all kinds together", --overage off stores "not allowed" (the default);
without --overage the stored setting stands. GET /v1/usage shows the month's consumption.

Corpus: --corpus PATH (repeatable), else PRAVO_SANDBOX_CORPUS (paths separated by ":", ";" on Windows), else
\`pravo config set sandbox-corpus PATH\`. A PATH is a corpus file (JSON Lines, gzipped or not), the courts file (a name
ending in courts.json), or a directory: its files ending in .jsonl or .jsonl.gz are corpus files, one ending in
courts.json is the courts file, anything else (README.md, sub-directories) is ignored.
Data (index, keys, accounts, usage): --data-dir DIR, else PRAVO_SANDBOX_DATA_DIR, else the user data directory.`;

/** Registers the `sandbox` command group. */
export function registerSandbox(program: Command, run: RunAction): void {
  const sandbox = program
    .command('sandbox')
    .description('Run a local Legal Research API over the local corpus: statutes, court decisions and courts (offline, no quota)');
  sandbox
    .command('serve')
    .description('Start the sandbox server and print its base URL and a new API key as one JSON line (or save them to a profile)')
    .option('--host <host>', 'interface to listen on (loopback by default)', '127.0.0.1')
    .option('--port <port>', 'TCP port; 0 picks a free one', '0')
    .option('--corpus <path>', 'corpus file (JSON Lines, gzipped or not), courts file, or a directory of them; repeatable', collect)
    .option('--data-dir <dir>', 'where to keep the index, keys, accounts and usage')
    .option(
      '--quota <kind=n,...>',
      'monthly quotas of this process, e.g. search=100,retrieval=20,answers=unlimited (kinds search, retrieval, answers; default the plan\'s: 10000, 10000, 1000); repeatable',
      collect,
    )
    .option('--search-quota <n>', 'alias of --quota search=N')
    .option('--retrieval-quota <n>', 'alias of --quota retrieval=N')
    .option('--answers-quota <n>', 'alias of --quota answers=N')
    .option('--overage <off|n>', 'store acct_sandbox\'s overage: off, or allowed up to N units a month beyond the quotas (default: the stored setting, off at first)')
    .option('--answer-delay <seconds>', 'seconds from an answer job\'s creation to its answer, 0 to 3600, decimals allowed', '3')
    .option('--answer-failure-rate <r>', 'probability, 0 to 1, that an answer job fails with answer_failed (no unit consumed)', '0')
    .option('--save-to-profile <name>', "save this start's base URL and key into this profile (instead of printing the key)")
    .option('--json', 'log to stderr as JSON lines {"time","message"}, and report errors as JSON (the ready line is always JSON)')
    .addHelpText('after', EXAMPLES)
    .action(async (options: ServeOptions, cmd: Command) => {
      await run(cmd, { command: 'sandbox serve', json: options.json === true, ownsSignal: true, local: true }, async (f) => (await import('./serve.js')).runServe(f, options));
    });
}
