/** Registration of `pravo doc`: flags to options; the work is in `run.ts`, loaded when the command runs. */
import type { Command } from 'commander';
import { addTargetOptions, type RunAction } from '../shared.js';
import type { DocOptions } from './run.js';

const EXAMPLES = `
Examples:
  $ pravo search -n 3 "изборен кодекс гласуване извън страната"
  $ pravo doc 1
  $ pravo doc 1 --article 45
  $ pravo doc 1 --article "Чл. 12" --json | jq -r .text
  $ pravo doc 1 --article "§ 3"  # a § of the additional, transitional or final provisions
  $ pravo doc 1 | cut -f1,2      # piped: ref, label, text
  $ pravo doc 1 --out document.json
  $ pravo doc 1 --article 45 --format md --out article-45.md
  $ pravo doc act-14715 --collection c_a30f6994b8 --sandbox --json | jq '.elements | length'

Which document: N is result N of the last \`pravo search\` (its document_id and collection exactly as received);
anything else is a document_id, which needs --collection from the same search result. A result of a search run
with --sandbox (or with another profile) is opened there: pravo says which command to run.

Output: on a terminal the title, the document's fields (for court decisions also court, case, decision, panel
and reporting judge) and every article or paragraph, through the pager; --article 45 (also 45а, "Чл. 45", "§ 3",
4~2 for the second element numbered 4) or --paragraph N prints one, and under an article the articles of the same
act it cites, to open with --article; in the sandbox also the §§ of the corpus that changed it, newest first, and
under a § of an amending act the acts and articles it changes. Statutes say the date their text is current as of
("текст към 10.02.2026"), or that it is the text as published. Piped: one element per line, tab-separated ref, label, text. --json prints
the server's response exactly (with --article or --paragraph, that element's object); --out FILE writes it to
FILE atomically and prints nothing on stdout. --format md prints Markdown for a memo, on a terminal too: a # title,
the fields, and each element after its label in bold (with --article or --paragraph, that element); with --out FILE
the Markdown goes to FILE instead of the JSON.

Each retrieval spends a unit of the retrieval quota. Retrieved documents are cached for 24 hours (PRAVO_CACHE_TTL,
in hours), so opening the same document again spends nothing; --refresh asks the server again.`;

/** Registers `doc` on the program. */
export function registerDoc(program: Command, run: RunAction): void {
  const command = program
    .command('doc')
    .description('Print a full document: result N of the last search, or a document_id with its collection')
    .argument('<N|document_id>', 'result number of the last search, or a document_id (then --collection is required)')
    .option('--collection <C>', 'the collection of the search result the document_id comes from, exactly as received')
    .option('--article <ref>', 'print one article: 45, 45а, "Чл. 45", "§ 3", 4~2 (the second element numbered 4)')
    .option('--paragraph <n>', 'print one paragraph: ¶ N of a court decision (else the N-th element), a whole number from 1')
    .option('--json', "print the server's response exactly, as JSON (with --article/--paragraph: that element)")
    .option('--format <format>', 'md: print the document (or the one element) as Markdown for a memo (on a terminal too)')
    .option('--out <file>', "write the server's response (with --article/--paragraph: that element; with --format md: the Markdown) to FILE, atomically")
    .option('--refresh', 'retrieve the document again even when it is cached (spends a retrieval unit)')
    .option('--timeout <seconds>', 'give up waiting after this many seconds (default 30)');
  addTargetOptions(command)
    .addHelpText('after', EXAMPLES)
    .action(async (argument: string, options: DocOptions, cmd: Command) => {
      await run(cmd, { command: 'doc', json: options.json === true }, async (factory) => {
        const { runDoc } = await import('./run.js');
        return runDoc(factory, argument, options);
      });
    });
}
