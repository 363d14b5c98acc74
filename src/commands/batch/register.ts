/**
 * Registration of `pravo batch` (spec: POST /v1/search, GET /v1/documents, POST /v1/answers, GET /v1/usage, Quota
 * rules): flags to options; the command is in `run.ts` and the batch's work in `src/batch/runner.ts`, both loaded when
 * the command runs.
 */
import type { Command } from 'commander';
import { LIMITS } from '../../contract/limits.js';
import { addTargetOptions, type RunAction } from '../shared.js';
import type { BatchOptions } from './run.js';

const EXAMPLES = `
Examples:
  $ pravo batch questions.txt --out results.jsonl --yes
  $ pravo batch questions.txt --out results.jsonl --dry-run
  $ pravo batch questions.jsonl --out documents.jsonl --fetch-docs 3 --concurrency 4 --yes
  $ pravo batch questions.txt --out answers.jsonl --answers --yes
  $ printf '%s\\n' "неустойка при забава" "давност на вземане" | pravo batch - --yes > piped.jsonl
  $ jq -c 'select(.error) | .request' results.jsonl > retry.jsonl     # the lines that failed, as a new input

Input: one query per line, or one JSON object per line with the search fields: query, source_types, court_ids,
judge_name, date_from, date_to, max_results, e.g. {"query": "отмяна на присъда", "court_ids": [1], "max_results": 5}.
Blank lines and lines starting with # are ignored. Every line is checked first; bad lines are listed by number and
nothing is sent.

Before sending, pravo reads the usage (GET /v1/usage) and counts the units the batch needs: it refuses a batch that
would pass what the period has left (quota plus allowed overage) unless --allow-overage, asks on a terminal, and
needs --yes in scripts. --dry-run prints that plan and sends nothing.

Results: one JSON line per input line, in the order they finish: {"line", "request", "response"} or {"line",
"request", "error": {"code", "status", "message"}}; --answers adds "job_id" (the response is the final job);
--fetch-docs adds "documents": [{"document_id", "collection", "from_cache", "response" | "error"}].

Safe to kill and rerun: a journal beside --out (FILE.journal) records each request before it is sent and each line
once it is written. Rerunning the same command skips what is done and collects answer jobs already created. A
request in flight at the interruption may have been counted by the server, so it is listed and sent again only with
--retry-interrupted; so are the lines an unreadable journal record may concern, and lines marked done whose result is
missing from FILE (neither counts as succeeded). Ctrl-C or monthly_quota_exceeded stop cleanly: nothing new is sent,
what is in flight finishes.

Exit codes: 0 every line succeeded, 9 some lines failed, were interrupted or are left (the summary lists them),
5 stopped or refused for the quota, 4 key refused, 6 server unreachable, 130 Ctrl-C; see \`pravo --help\`.`;

/** Registers `batch` on the program. */
export function registerBatch(program: Command, run: RunAction): void {
  const command = program
    .command('batch')
    .description('Run many searches or questions from a file, within the quota, safe to kill and rerun')
    .argument('<file>', 'the queries, one per line or one JSON object per line; - reads standard input')
    .option('-o, --out <file>', 'append the results here as JSON Lines, with a journal beside it (FILE.journal) for resuming; required when stdout is a terminal')
    .option('--fetch-docs <k>', 'also retrieve the top K documents of each result, through the document cache (1 to 50)')
    .option('--answers', 'create an answer job per line and wait for each (instead of searching)')
    .option('--concurrency <n>', 'requests (or answer jobs) in flight at once, 1 to 16 (default 2)')
    .option('--allow-overage', 'send even when the plan needs more than the period has left; the batch stops cleanly when the server refuses')
    .option('-y, --yes', 'go ahead without asking (scripts)')
    .option('--dry-run', 'print the plan (what is done, what would be sent, the units against the usage) and send nothing')
    .option('--retry-interrupted', 'send again the lines that were in flight when an earlier run stopped (the server may have counted them), or whose result is missing')
    .option('--restart', 'begin anew although a journal of another input or mode is there; the old results and journal are kept aside')
    .option('--timeout <seconds>', `give up a request after this many seconds (default ${LIMITS.searchTimeoutMs / 1000}); it is then reported interrupted`)
    .option('--json', 'print the summary (and the --dry-run plan) as one JSON object on stdout; needs --out');
  addTargetOptions(command)
    .addHelpText('after', EXAMPLES)
    .action(async (file: string, options: BatchOptions, cmd: Command) => {
      await run(cmd, { command: 'batch', json: options.json === true, ownsSignal: true }, async (factory) => {
        const { runBatch } = await import('./run.js');
        return runBatch(factory, file, options);
      });
    });
}
