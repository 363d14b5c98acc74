/** Registration of `pravo cite`: flags to options; the work is in `run.ts`, loaded when the command runs. */
import type { Command } from 'commander';
import { addTargetOptions, type RunAction } from '../shared.js';
import type { CiteOptions } from './run.js';

const EXAMPLES = `
Examples:
  $ pravo cite --yes memo.md
  $ pravo cite --sandbox --yes memo.md                # offline, against the local corpus
  $ pravo cite --yes memo.md | cut -f1,3,4            # piped: line, citation, verdict
  $ pravo cite --yes --json memo.md | jq -r '.citations[] | "\\(.line):\\(.column) \\(.verdict) \\(.text)"'
  $ cat memo.md | pravo cite --yes -

On a terminal pravo asks before it sends anything (drop --yes to be asked). A .docx or .pdf is refused: make
text of it first (pandoc brief.docx -t plain -o brief.txt).

What is read: every citation of a Bulgarian legal provision in the text (UTF-8, .txt or .md): „чл. 45 ЗЗД“,
„чл. 344, ал. 1, т. 3 от КТ“, „чл. 45 – 47“, „чл. 3, 4 и 5 от ЗОП“, „§ 1, т. 5 от ДР на ЗДДС“, „чл. 25 от
Закона за …“, „чл. 7 от същия закон“. An act is named by its customary abbreviation (КТ, ГПК, ЗЗД, ЗОП …), by
the initials of its title, or by its title; a title in running text is read up to where the sentence goes on.

How each is checked: one search per act (statutes only) finds the document whose title is the act's (of several
acts of the same title, the newest; an act of which the service holds only amending acts is not found), then the
document (one retrieval per act, however often it is cited) is searched for the article or § and the ал. and т.
cited. Searches and documents go through the response cache (24 hours, PRAVO_CACHE_TTL): checking the memo again
spends nothing; --refresh asks again. Before anything is sent pravo says what it may spend and, on a terminal,
asks; --yes is needed without one.

Verdicts: found (the provision's label and first words), no_such_provision (the nearest refs), act_not_found,
ambiguous (the documents that fit), repealed (its text says „Отм.“), act_not_named (a bare „чл. 5“: write the act
after it). Texts are as current as the document says: its date is listed below the table.

Output: on a terminal the memo's lines that cite, each citation marked with its number, then a table of
verdicts and the documents with the date their text is current as of; piped, one citation per line, tab-separated
line, column, citation, verdict, document_id, ref, detail; --json {"citations": [{text, line, column, act,
document_id, collection, ref, verdict, detail, unchecked}], documents_retrieved, documents_from_cache, searches_sent,
searches_from_cache, documents}. Exit 0 when every citation is found, 8 otherwise.`;

/** Registers `pravo cite`. */
export function registerCite(program: Command, run: RunAction): void {
  const command = program
    .command('cite')
    .description("Check every citation of a memo: does the act exist, does it have the article, is it repealed")
    .argument('<file>', 'the memo: a UTF-8 text or Markdown file, or - for standard input')
    .option('--json', "print pravo's report as JSON")
    .option('-y, --yes', 'send the searches and retrievals without asking (scripts)')
    .option('--refresh', 'search and retrieve again even when cached (spends units)')
    .option('--timeout <seconds>', 'give up waiting for one request after this many seconds (default 60)');
  addTargetOptions(command)
    .addHelpText('after', EXAMPLES)
    .action(async (source: string, options: CiteOptions, cmd: Command) => {
      await run(cmd, { command: 'cite', json: options.json === true }, async (factory) => {
        const { runCite } = await import('./run.js');
        return runCite(factory, source, options);
      });
    });
}
