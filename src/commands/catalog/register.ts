/** Registration of `pravo catalog`: flags to options; the work is in `run.ts`, loaded when a subcommand runs. */
import type { Command } from 'commander';
import { JUDGES_LIMIT } from '../../contract/limits.js';
import { addTargetOptions, examples, type RunAction } from '../shared.js';
import type { CatalogName, CatalogOptions } from './run.js';

const EXAMPLES = `
Examples:
  $ pravo catalog source-types
  $ pravo catalog courts
  $ pravo catalog courts | grep Пловдив             # piped: code, name, type, ECLI code, parent, decisions
  $ pravo catalog judges --court ВКС --search михова
  $ pravo catalog judges --court "Върховен административен съд" --limit 5 --json

Output: a table on a terminal (long output goes through the pager); when piped, one entry per line with
tab-separated fields:
  source-types  id, name, case_law (true/false), document_count
  courts        court_id, name, court_type, ecli_code, parent_court_id, decision_count
  judges        name, decision_count, latest_date, court_ids (joined by ",")
--json prints the server's response exactly (also when it comes from the cache).

Catalogs are cached for 24 hours (PRAVO_CACHE_TTL, in hours; 0 always asks); --refresh asks the server again.
On a terminal a line on stderr says when the answer came from the cache. \`pravo search --type\` and
\`pravo search --court NAME\` look their values up in the same cached catalogs.`;

const JSON_HELP = "print the server's response exactly, as JSON";
const REFRESH_HELP = 'ask the server even when a cached copy (24 h) is fresh';

/** Registers the `catalog` command group: `source-types`, `courts`, `judges`. */
export function registerCatalog(program: Command, run: RunAction): void {
  const catalog = program
    .command('catalog')
    .description('The values search filters take: source types, courts and judges (cached for 24 h)')
    .addHelpText('after', EXAMPLES);

  const action = (name: CatalogName) => async (options: CatalogOptions, cmd: Command) => {
    await run(cmd, { command: `catalog ${name}`, json: options.json === true }, async (factory) => {
      const { runCatalog } = await import('./run.js');
      return runCatalog(factory, name, options);
    });
  };

  addTargetOptions(
    catalog
      .command('source-types')
      .description('Source types for `pravo search --type`, with their number of documents')
      .option('--refresh', REFRESH_HELP)
      .option('--json', JSON_HELP),
  )
    .addHelpText('after', examples('catalog source-types', '', "--json | jq -r '.source_types[].id'"))
    .action(action('source-types'));

  addTargetOptions(
    catalog
      .command('courts')
      .description('Courts with their codes for `pravo search --court`, type, parent court and number of decisions')
      .option('--refresh', REFRESH_HELP)
      .option('--json', JSON_HELP),
  )
    .addHelpText('after', examples('catalog courts', '', '| cut -f1,2 | grep Варна', '--refresh --json > courts.json'))
    .action(action('courts'));

  addTargetOptions(
    catalog
      .command('judges')
      .description('Judges seen in the decisions of a court, with their number of decisions and the latest date')
      .option('--court <name>', 'the court: a name (approximate), an abbreviation such as ВКС, ВАС, КС, СГС, or a code; resolved by the server')
      .option('--search <text>', 'only judges whose name contains this text (the server matches it)')
      .option('--limit <n>', `at most this many judges, ${JUDGES_LIMIT.min} to ${JUDGES_LIMIT.max} (server default ${JUDGES_LIMIT.default})`)
      .option('--refresh', REFRESH_HELP)
      .option('--json', JSON_HELP),
  )
    .addHelpText('after', examples('catalog judges', '--court ВКС', '--court ВКС --search михова', '--court "Върховен административен съд" --limit 5'))
    .action(action('judges'));
}
