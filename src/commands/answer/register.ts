/**
 * Registration of `pravo answer` (spec: POST /v1/answers, GET /v1/answers/{job_id}): asking creates an answer job and
 * follows it to the end; `wait`, `show` and `list` come back to jobs pravo recorded. The work is in `run.ts`, loaded
 * when a command runs.
 */
import type { Command } from 'commander';
import { LIMITS } from '../../contract/limits.js';
import { addTargetOptions, collect, type RunAction } from '../shared.js';
import type { Factory } from '../../factory.js';
import type { AnswerOptions, FollowOptions, ListOptions } from './run.js';

const EXAMPLES = `
Examples:
  $ pravo answer "Кога работодателят може да прекрати трудовия договор без предизвестие?"
  $ pravo answer --verify --yes "Какъв е срокът за обжалване на решение по обществена поръчка?"
  $ pravo answer --type high_courts_cases --court ВКС "Кога се отменя присъда при съществено процесуално нарушение?"
  $ pravo answer --no-wait "Какви са правата на потребителя при несъответствие на стоката?"
  $ pravo answer wait                      # the latest unfinished job
  $ pravo answer list
  $ pravo answer --sandbox --verify --yes "обезщетение при застраховка" > answer.txt
  $ pravo answer --sandbox --format md "Кога работодателят може да прекрати трудовия договор без предизвестие?" > answer.md

The service writes the answer in Bulgarian (usually in 30 to 90 s) with citation markers; pravo numbers them [1],
[2] ... and lists the sources under the answer. A marker that names no source stays visible, flagged "unresolved".
--verify retrieves each cited document (through the document cache; each retrieval spends a unit of the retrieval
quota, and pravo asks first on a terminal: --yes for scripts) and checks that the cited text is in it, word for
word: the wording, not whether it answers the question.
--format md prints the answer as Markdown for a memo, on a terminal too: each marker a footnote [^n] (n as in [n]),
one footnote per cited source with its title, article or paragraph, date, court and case, and link; --out FILE
writes it to FILE atomically. With --format md, --verify reports its checks on stderr.

Every job is recorded before pravo waits for it: Ctrl-C stops waiting, not the job (\`pravo answer wait\` resumes),
and --no-wait prints the job id at once. Polling follows the contract: first check after 2 s, then 4, 8, 10, 10 s.

Exit codes: 0 answered (with --verify: every cited passage found in its document), 7 the job failed (timed_out: its
quota unit was restored, ask again), 8 a cited passage not found or not checkable, 130 stopped waiting (the job goes
on); see \`pravo --help\` for the others.`;

const WAIT_EXAMPLES = `
Examples:
  $ pravo answer --no-wait "Какъв е срокът на давност за вземане по запис на заповед?" && pravo answer wait
  $ pravo answer wait "$(pravo answer --no-wait "неустойка при забава")" --verify --yes
  $ pravo answer wait "$(pravo answer --no-wait "обезщетение при застраховка")" --json | jq -r .answer
  $ pravo answer wait "$(pravo answer --no-wait "неустойка при забава")" --format md --out answer.md

Without a job id: the latest job recorded for this profile (or for --sandbox) whose last known status is queued
or running. The first check is at once when the job is older than 2 s.`;

const SHOW_EXAMPLES = `
Examples:
  $ pravo answer show "$(pravo answer list --json | jq -r '.[0].job_id')"          # the newest recorded job
  $ pravo answer show "$(pravo answer list --json | jq -r '.[0].job_id')" --json | jq -r .status`;

/** The options `wait` and `show` share with asking: output and verification. */
function addFollowOptions(command: Command): Command {
  return command
    .option('--verify', 'check every cited passage against its full document (retrieves documents; see --yes)')
    .option('-y, --yes', 'with --verify: retrieve the documents without asking (scripts)')
    .option('--json', "print the final job exactly as the server sent it (with --verify: {job, verification})")
    .option('--format <format>', 'md: print the answer as Markdown, its citations as footnotes (on a terminal too)')
    .option('--out <file>', 'with --format md: write the Markdown to FILE, atomically, instead of stdout');
}

/** Registers `answer` and its subcommands on the program. */
export function registerAnswer(program: Command, run: RunAction): void {
  const answer = program
    .command('answer')
    .description('Ask a question: a written answer in Bulgarian with cited, checkable sources')
    .argument('<query...>', `the question, in Bulgarian for best results (${LIMITS.queryMinLength} to ${LIMITS.queryMaxLength} characters)`)
    .option('-t, --type <source_type>', 'source type from the catalog, e.g. bulgarian_laws_regulations (repeatable)', collect)
    .option('-c, --court <court>', 'court: its code from the catalog, a name or an abbreviation such as ВКС; case law only (repeatable)', collect)
    .option('-j, --judge <name>', 'reporting judge, approximate and case-insensitive')
    .option('--from <YYYY-MM-DD>', 'sources published on or after this date')
    .option('--to <YYYY-MM-DD>', 'sources published on or before this date')
    .option('-n, --max-results <n>', `sources to draw on, ${LIMITS.maxResultsMin} to ${LIMITS.maxResultsMax} (server default ${LIMITS.maxResultsDefault})`)
    .option('--no-wait', 'create the job, print its id and how to resume, and exit')
    .option('--timeout <seconds>', `give up creating the job after this many seconds (default ${LIMITS.searchTimeoutMs / 1000}); waiting has no limit`);
  addTargetOptions(addFollowOptions(answer))
    .addHelpText('after', EXAMPLES)
    .action(async (words: string[], _options: AnswerOptions, cmd: Command) => {
      const options = cmd.opts<AnswerOptions>();
      await run(cmd, { command: 'answer', json: options.json === true }, async (factory) => {
        const { runAnswer } = await import('./run.js');
        return runAnswer(factory, words.join(' '), options);
      });
    });

  // The parent's options (--json, --verify, --yes, --sandbox ...) are also read after a subcommand's name
  // (`pravo answer wait --json`), where commander gives them to the parent: the actions read optsWithGlobals().
  registerFollow(answer, run, {
    name: 'wait',
    argument: ['[job_id]', 'the job to wait for (see `pravo answer list`)'],
    description: 'Wait for a recorded answer job to finish and print it (default: the latest unfinished job)',
    examples: WAIT_EXAMPLES,
    body: async (factory, jobId, options) => (await import('./run.js')).runWait(factory, jobId, options),
  });
  registerFollow(answer, run, {
    name: 'show',
    argument: ['<job_id>', 'the job (see `pravo answer list`)'],
    description: 'Fetch an answer job again and print it (a status check: spends nothing)',
    examples: SHOW_EXAMPLES,
    body: async (factory, jobId, options) => (await import('./run.js')).runShow(factory, jobId!, options),
  });

  answer
    .command('list')
    .description('List the answer jobs pravo has recorded, newest first, with their last known status (local: sends nothing)')
    .option('-n, --limit <n>', 'how many jobs to list (default 20; 0 lists all)')
    .option('--json', "print the records as a JSON array (pravo's own objects)")
    .addHelpText(
      'after',
      `
Examples:
  $ pravo answer list
  $ pravo answer list -n 0 | awk -F'\\t' '$2 == "running"'
  $ pravo answer list --json | jq -r '.[0].job_id'

Piped: one job per line, tab-separated: job_id, last_status, created_at, checked_at, profile, sandbox, error_code,
query.`,
    )
    .action(async (_options: ListOptions, cmd: Command) => {
      const options = cmd.optsWithGlobals<ListOptions>();
      await run(cmd, { command: 'answer list', json: options.json === true, local: true }, async (factory) => {
        const { runList } = await import('./run.js');
        return runList(factory, options);
      });
    });
}

/** A subcommand that comes back to a recorded job (`wait`, `show`): its id argument, the follow and target options. */
function registerFollow(
  parent: Command,
  run: RunAction,
  spec: {
    name: 'wait' | 'show';
    argument: [string, string];
    description: string;
    examples: string;
    body: (factory: Factory, jobId: string | undefined, options: FollowOptions & Record<string, unknown>) => Promise<number>;
  },
): void {
  const command = parent.command(spec.name).description(spec.description).argument(...spec.argument);
  addTargetOptions(addFollowOptions(command))
    .addHelpText('after', spec.examples)
    .action(async (jobId: string | undefined, _options: FollowOptions, cmd: Command) => {
      const options = cmd.optsWithGlobals<FollowOptions & Record<string, unknown>>();
      await run(cmd, { command: `answer ${spec.name}`, json: options.json === true }, (factory) => spec.body(factory, jobId, options));
    });
}
