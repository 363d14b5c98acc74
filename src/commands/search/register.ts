/** Registration of `pravo search`: flags to options; the work is in `run.ts`, loaded when the command runs. */
import type { Command } from 'commander';
import { LIMITS } from '../../contract/limits.js';
import { addTargetOptions, collect, type RunAction } from '../shared.js';
import type { SearchOptions } from './run.js';

const EXAMPLES = `
Examples:
  $ pravo search "застрахователят отказва да изплати обезщетение"
  $ pravo search --type bulgarian_laws_regulations --from 2020-01-01 -n 5 "обществени поръчки обжалване"
  $ pravo search --json "трудов договор прекратяване" | jq '.results[0].excerpts'
  $ pravo search "изборен кодекс гласуване" | cut -f1,2,7      # piped: rank, document_id, ..., title
  $ pravo search --sandbox "застрахователят отказва да изплати обезщетение"   # offline, no quota
  $ pravo search --type high_courts_cases --court ВКС "отмяна на присъдата"
  $ pravo search --sandbox --format md -n 5 "застрахователят отказва да изплати обезщетение" > results.md

Output: a ranked table on a terminal (long output goes through the pager; --no-pager prints it directly); when
piped, one result per line with tab-separated fields rank, document_id, collection, score, date, type, title,
excerpt labels, court, case_number (the last two empty for statutes); --json prints the server's response exactly.
--format md prints Markdown for a memo, on a terminal too: a numbered list of the results (title, type, publication
date, score, court and case, link) with their excerpts as quotes; --out FILE writes it to FILE atomically.
The last results are kept, so \`pravo doc 3\` can open result 3.

--court takes a court's code or its name: ВКС, ВАС, КС, СГС, "РС Пловдив", "Окръжен съд – Варна", or an
approximate name, in Cyrillic or Latin letters (VKS, "RS Plovdiv"); a name that fits several courts is refused
with their codes. Names and --type values are looked up in the catalogs (\`pravo catalog courts\`,
\`pravo catalog source-types\`), cached for 24 hours.

Searches on the live service take 10 to 40 s. A search is never retried automatically: after a timeout or a
dropped connection the server may already have run and counted it.`;

/** Registers `search` on the program. */
export function registerSearch(program: Command, run: RunAction): void {
  const command = program
    .command('search')
    .description('Search Bulgarian legal sources: ranked documents with their most relevant articles')
    .argument('<query...>', `what to look for, in Bulgarian for best results (${LIMITS.queryMinLength} to ${LIMITS.queryMaxLength} characters)`)
    .option('-t, --type <source_type>', 'source type from the catalog, e.g. bulgarian_laws_regulations (repeatable)', collect)
    .option('-c, --court <court>', 'court: its code from the catalog, a name or an abbreviation such as ВКС; case law only (repeatable)', collect)
    .option('-j, --judge <name>', 'reporting judge, approximate and case-insensitive')
    .option('--from <YYYY-MM-DD>', 'published on or after this date')
    .option('--to <YYYY-MM-DD>', 'published on or before this date')
    .option('-n, --max-results <n>', `number of results, ${LIMITS.maxResultsMin} to ${LIMITS.maxResultsMax} (server default ${LIMITS.maxResultsDefault})`)
    .option('--timeout <seconds>', `give up waiting after this many seconds (default ${LIMITS.searchTimeoutMs / 1000})`)
    .option('--json', "print the server's response exactly, as JSON")
    .option('--format <format>', 'md: print the results as Markdown, a numbered list for a memo (on a terminal too)')
    .option('--out <file>', 'with --format md: write the Markdown to FILE, atomically, instead of stdout');
  addTargetOptions(command)
    .addHelpText('after', EXAMPLES)
    .action(async (words: string[], options: SearchOptions, cmd: Command) => {
      await run(cmd, { command: 'search', json: options.json === true }, async (factory) => {
        const { runSearch } = await import('./run.js');
        return runSearch(factory, words.join(' '), options);
      });
    });
}
