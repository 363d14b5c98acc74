/** Registration of `pravo open`: flags to options; the work is in `run.ts`, loaded when the command runs. */
import type { Command } from 'commander';
import { addTargetOptions, type RunAction } from '../shared.js';
import type { OpenOptions } from './run.js';

const EXAMPLES = `
Examples:
  $ pravo search -n 3 "изборен кодекс гласуване извън страната"
  $ pravo open 1
  $ pravo open 1 --print
  $ pravo open 2 --json | jq -r .url
  $ pravo open act-15520 --collection c_a30f6994b8 --sandbox --print

Which document: N is result N of the last \`pravo search\`, its link (the result's url) as the search stored it;
anything else is a document_id, which needs --collection from the same search result, and whose url is read from
the document (GET /v1/documents, through the cache: a retrieval unit unless cached; pravo says so on stderr). A
result of a search run with --sandbox (or with another profile) is opened there: pravo says which command to run.

Where it goes: when stdout is a terminal, the link is opened in the browser: BROWSER when set (browser commands
separated by ":", tried in order; %s in one stands for the link, else the link is added as the last argument;
split into words without a shell), else the system's opener (xdg-open, open on macOS, rundll32 url.dll on Windows,
wslview on WSL). When none can be started, or stdout is not a terminal, or with --print, the link is printed (one
line) and nothing is started. --json prints {"url", "opened", "document_id", "collection"}.

The link comes from the server, so only http: and https: links are opened or printed: a javascript:, file:, data:
or other link, a relative one, one with a user name or password, white space or control characters is refused
(exit 1; nothing is opened). A document without a url is exit 1 too: \`pravo doc N\` prints the document itself.`;

/** Registers `open` on the program. */
export function registerOpen(program: Command, run: RunAction): void {
  const command = program
    .command('open')
    .description("Open a document's link in the browser (result N of the last search, or a document_id), or print it")
    .argument('<N|document_id>', 'result number of the last search, or a document_id (then --collection is required)')
    .option('--collection <C>', 'the collection of the search result the document_id comes from, exactly as received')
    .option('--print', 'print the link instead of opening it (also when stdout is not a terminal)')
    .option('--json', 'print {"url", "opened", "document_id", "collection"} as JSON')
    .option('--timeout <seconds>', 'give up waiting for the document after this many seconds (default 30)');
  addTargetOptions(command)
    .addHelpText('after', EXAMPLES)
    .action(async (argument: string, options: OpenOptions, cmd: Command) => {
      await run(cmd, { command: 'open', json: options.json === true }, async (factory) => {
        const { runOpen } = await import('./run.js');
        return runOpen(factory, argument, options);
      });
    });
}
