/**
 * Registration of `pravo sandbox`: flags to options; the work is in `serve.ts`, `token.ts` and `import.ts`, loaded
 * when the command runs.
 */
import type { Command } from 'commander';
import { collect, type RunAction } from '../shared.js';
import type { ServeOptions } from './serve.js';
import type { TokenOptions } from './token.js';
import type { ImportOptions } from './import.js';

const EXAMPLES = `
Examples:
  $ pravo sandbox serve --corpus ../shared/corpus
  $ pravo sandbox serve --corpus ../shared/corpus/bg-statutes.jsonl.gz --corpus ../shared/corpus/bg-courts.json
  $ pravo sandbox serve --port 8787 --quota search=100,retrieval=20,answers=10
  $ pravo sandbox serve --quota answers=unlimited --overage 500 --data-dir ./sandbox-data
  $ pravo sandbox serve --answer-delay 0.5                         # answer jobs finish in half a second
  $ pravo sandbox serve --answer-failure-rate 0.3                  # 3 answer jobs in 10 fail answer_failed
  $ pravo sandbox serve --json 2> sandbox.log.jsonl                # logs as JSON lines
  $ pravo sandbox serve --auth-cache-ttl 0                         # keys revoked by other processes refused at once
  $ pravo sandbox serve --search-workers 2                         # two searches at a time, off the event loop

A profile that follows the sandbox across restarts (the two commands in two terminals):
  $ pravo sandbox serve --save-to-profile local
  $ pravo --profile local search "обществени поръчки обжалване"

In a script, the key and the session token kept in a profile (0600), not a file:
  $ rm -f ready.json; pravo sandbox serve --save-to-profile local > ready.json &
  $ until [ -s ready.json ]; do sleep 0.2; done
  $ pravo --profile local search "трудов договор прекратяване"
  $ pravo --profile local keys list
  $ kill %1

A script that needs the key itself reads the ready line from a pipe:
  $ coproc pravo sandbox serve
  $ read -r ready <&"\${COPROC[0]}"
  $ curl -s -H "x-api-key: $(printf '%s' "$ready" | jq -r .api_key)" "$(printf '%s' "$ready" | jq -r .base_url)/v1/usage"
  $ kill "$COPROC_PID"

When ready, prints exactly one line of JSON to stdout,
{"base_url":"http://127.0.0.1:PORT","api_key":"sbx_live_...","session_token":"sbx_sess_..."}, then logs to stderr
only. The key is new for each start and stays valid afterwards. The session token is a user-session token of the
account acct_sandbox for the key and account endpoints (/v1/keys, /v1/account: Authorization: Bearer), valid for 24
hours; \`pravo sandbox token\` mints more. The corpus index is built on first use of a set of inputs (with a progress
bar) and reused on later starts. Ctrl-C or SIGTERM stops it.

--save-to-profile NAME writes this start's base URL, key and session token into profile NAME of the config file
(creating it; its other settings are kept) once the server listens, and the ready line becomes
{"base_url":"...","profile":"NAME"}: the key and the token are printed nowhere, they are only in the profile.
PRAVO_BASE_URL, PRAVO_API_KEY and PRAVO_SESSION_TOKEN, when set, still override the profile's values.

--auth-cache-ttl SECONDS (0 to 3600, decimals allowed, default 60): a key this server accepted is accepted again
without reading state.sqlite for that long. A key revoked through this server (POST /v1/keys/{key_id}/revoke) is
refused at once; one revoked through another process on the same data directory, within that time (the spec's "up to
60 seconds elsewhere"). 0 reads the database at every request.

--search-workers N (0 to 64; default: the CPUs this process may use, at most 4): searches (POST /v1/search and those
of answer jobs) run on N worker threads, each with its own read-only connection to the index, so that a long search
does not hold up other requests; searches beyond N wait their turn, first come first served. The workers start with
the server, without delaying its ready line (a search that arrives first waits for them). 0 runs every search on the
server's event loop, in turn with every other request.

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

Data (index, keys, sessions, accounts, usage): --data-dir DIR, else PRAVO_SANDBOX_DATA_DIR, else the user data
directory.`;

const TOKEN_EXAMPLES = `
Examples:
  $ pravo sandbox token
  $ pravo sandbox token --expires-in 7d --json
  $ pravo sandbox token --data-dir ./sandbox-data --expires-in 30m
  $ pravo sandbox token --save-to-profile local

With a server running on the same data directory (the token works at once; no restart):
  $ rm -f sandbox.json; pravo sandbox serve > sandbox.json &
  $ until [ -s sandbox.json ]; do sleep 0.2; done
  $ curl -s -H "Authorization: Bearer $(pravo sandbox token --expires-in 30m)" "$(jq -r .base_url sandbox.json)/v1/account"
  $ kill %1

Mints a user-session token (sbx_sess_ and 32 characters) of the sandbox's account acct_sandbox, for the key and
account endpoints of the sandbox (/v1/keys, /v1/account; Authorization: Bearer), by writing it into the data
directory's state.sqlite: no server is needed, and a server on that directory accepts it at once. Only its SHA-256
is stored. It expires after --expires-in (a whole number and s, m, h or d: 30m, 12h, 7d; default 24h, at most 30d);
an expired token is refused with expired_session_token.

Prints the token alone on stdout (so that \`pravo sandbox token | pravo login --stdin\` stores it) and its expiry on
stderr. --json prints {"session_token","expires_at","account_id"} instead. --save-to-profile NAME stores it
as the session_token of profile NAME (creating it; its other settings are kept) and prints it nowhere: with --json,
{"profile","expires_at"}.

Data directory: --data-dir DIR, else PRAVO_SANDBOX_DATA_DIR, else the user data directory (as for serve).`;

const IMPORT_EXAMPLES = `
Examples:
  $ pravo sandbox import ../shared/corpus/parliament-api --out my-acts.jsonl.gz
  $ pravo sandbox import ../shared/corpus/parliament-api --id 165936 --id 166496 --out two-acts.jsonl
  $ pravo sandbox import ../shared/corpus/parliament-api --out my-acts.jsonl.gz --json | jq -c .skipped

From the National Assembly's API (over the network; each act is GET URL/api/v1/act/ID):
    pravo sandbox import https://www.parliament.bg --id 165936 --id 166496 --out new-acts.jsonl.gz

SOURCE is either a directory of saved act payloads, one <id>.json per act as the API returns it (with --id, only
those acts; without, every <digits>.json in it, in numeric order), or the http:// or https:// base URL of the
National Assembly's API, which needs --id for each act to fetch. Each payload (metadata L_Act_* and the promulgated
text as HTML in L_ActL_final_body) becomes one document of the corpus format: act-<id>, its articles, then the §§ of
the additional, transitional and final provisions.

Requests: at most --concurrency at a time (default 4); a request that fails on the network, times out (30 s) or is
answered 429 or 5xx is tried again after a growing wait (honouring Retry-After up to 60 s), at most 5 tries.

--out FILE, ending in .jsonl or .jsonl.gz (gzip-compressed): the documents in the order of the ids (as given with
--id), one JSON per line; a corpus file that \`pravo sandbox serve --corpus FILE\` and --corpus read. It is written
whole or not at all (a temporary file beside it, renamed when complete); an existing FILE is replaced.

An act whose payload cannot be had or read (no such file, HTTP 404, tries used up, not JSON, not an act payload; a
file that is not a regular file, such as a FIFO or a device, or more than 32 MiB read) is skipped and listed with
the reason; the others are written. --json prints {"out","imported","skipped"} on stdout
(skipped: [{"id","reason"}]; out null when nothing was written). A progress line shows on stderr when it is a
terminal.

Exit codes: 0 every act imported; 1 some skipped (FILE holds the others), or none could be imported (FILE not
written); 6 none imported because the API could not be reached; 2 bad arguments, before anything is read or sent.`;

/** Registers the `sandbox` command group. */
export function registerSandbox(program: Command, run: RunAction): void {
  const sandbox = program
    .command('sandbox')
    .description('Run a local Legal Research API over the local corpus: statutes, court decisions and courts (offline, no quota)');
  sandbox
    .command('serve')
    .description('Start the sandbox server and print its base URL, a new API key and a session token as one JSON line (or save them to a profile)')
    .option('--host <host>', 'interface to listen on (loopback by default)', '127.0.0.1')
    .option('--port <port>', 'TCP port; 0 picks a free one', '0')
    .option('--corpus <path>', 'corpus file (JSON Lines, gzipped or not), courts file, or a directory of them; repeatable', collect)
    .option('--data-dir <dir>', 'where to keep the index, keys, sessions, accounts and usage')
    .option(
      '--quota <kind=n,...>',
      'monthly quotas of this process, e.g. search=100,retrieval=20,answers=unlimited (kinds search, retrieval, answers; default the plan\'s: 10000, 10000, 1000); repeatable',
      collect,
    )
    .option('--search-quota <n>', 'alias of --quota search=N: searches a month, a whole number or unlimited')
    .option('--retrieval-quota <n>', 'alias of --quota retrieval=N: document retrievals a month, a whole number or unlimited')
    .option('--answers-quota <n>', 'alias of --quota answers=N: answer jobs a month, a whole number or unlimited')
    .option('--overage <off|n>', 'store acct_sandbox\'s overage: off, or allowed up to N units a month beyond the quotas (default: the stored setting, off at first)')
    .option('--answer-delay <seconds>', 'seconds from an answer job\'s creation to its answer, 0 to 3600, decimals allowed (default: PRAVO_SANDBOX_ANSWER_DELAY, else 3)')
    .option('--answer-failure-rate <r>', 'probability, 0 to 1, that an answer job fails with answer_failed (no unit consumed)', '0')
    .option('--auth-cache-ttl <seconds>', 'seconds an accepted API key is accepted without reading the database again (how long a key revoked by another process stays accepted here), 0 to 3600, decimals allowed', '60')
    .option(
      '--search-workers <n>',
      'worker threads that run the searches, each with its own read-only connection to the index, 0 to 64; 0 runs them on the event loop (default: the number of CPUs, at most 4)',
    )
    .option('--save-to-profile <name>', "save this start's base URL, key and session token into this profile (instead of printing them)")
    .option('--json', 'log to stderr as JSON lines {"time","message"}, and report errors as JSON (the ready line is always JSON)')
    .addHelpText('after', EXAMPLES)
    .action(async (options: ServeOptions, cmd: Command) => {
      await run(cmd, { command: 'sandbox serve', json: options.json === true, ownsSignal: true, local: true }, async (f) => (await import('./serve.js')).runServe(f, options));
    });
  sandbox
    .command('token')
    .description('Mint a user-session token of acct_sandbox for the key and account endpoints (/v1/keys, /v1/account), in the data directory; no server needed')
    .option('--data-dir <dir>', 'the sandbox data directory whose state.sqlite receives the session (as for serve)')
    .option('--expires-in <duration>', 'lifetime: a whole number and s, m, h or d, e.g. 30m, 12h, 7d; at most 30d', '24h')
    .option('--save-to-profile <name>', 'store the token as the session_token of this profile (instead of printing it)')
    .option('--json', 'print {"session_token","expires_at","account_id"} (with --save-to-profile: {"profile","expires_at"}), and report errors as JSON')
    .addHelpText('after', TOKEN_EXAMPLES)
    .action(async (options: TokenOptions, cmd: Command) => {
      await run(cmd, { command: 'sandbox token', json: options.json === true, local: true }, async (f) => (await import('./token.js')).runToken(f, options));
    });
  sandbox
    .command('import')
    .description("Write acts of the National Assembly, saved payloads or fetched from its API, as a corpus file for the sandbox")
    .argument('<source>', 'a directory of saved act payloads (<id>.json), or the base URL of the National Assembly\'s API (http:// or https://)')
    .option('-o, --out <file>', 'the corpus file to write, ending in .jsonl or .jsonl.gz (gzip); required')
    .option('--id <n>', 'an act to import, by its id in the API (a whole number of at least 1); repeatable; required with a URL', collect)
    .option('--concurrency <k>', 'payloads read or fetched at once, 1 to 16 (default 4)')
    .option('--json', 'print {"out","imported","skipped"} on stdout, and report errors as JSON')
    .addHelpText('after', IMPORT_EXAMPLES)
    .action(async (source: string, options: ImportOptions, cmd: Command) => {
      await run(cmd, { command: 'sandbox import', json: options.json === true, local: true }, async (f) => (await import('./import.js')).runImport(f, source, options));
    });
}
