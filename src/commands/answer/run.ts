/**
 * `pravo answer` (spec: POST /v1/answers, GET /v1/answers/{job_id}, States and transitions: Answer job): asks a
 * question by creating an answer job, records the job locally before waiting for it (`state/answer-jobs.ts`: no job
 * is ever forgotten), polls it on the contract's schedule behind a spinner, and prints the answer with its citation
 * markers resolved (`render/answer.ts`), optionally verified against the cited documents (`verify.ts`).
 * `wait`, `show` and `list` come back to recorded jobs.
 *
 * Ctrl-C while waiting stops waiting, not the job: pravo says so and how to resume (exit 130). A `failed` job exits
 * {@link EXIT.answerFailed}; a citation that fails `--verify` exits {@link EXIT.verificationFailed}.
 */
import { CancelledError } from '../../api/errors.js';
import type { ApiResponse } from '../../api/transport.js';
import { ERROR_CODES } from '../../contract/errors.js';
import { LIMITS } from '../../contract/limits.js';
import { isFinalAnswerJobStatus, type AnswerJob, type AnswerJobStatus } from '../../contract/types.js';
import { UsageError, UserCancelledError } from '../../errors/cli.js';
import { EXIT } from '../../errors/exit-codes.js';
import type { Factory } from '../../factory.js';
import { Printer, type PrinterOptions } from '../../io/printer.js';
import { readOutputFormat } from '../../io/output-format.js';
import { absentActLine } from '../../render/fields.js';
import { sanitizeLine } from '../../shared/sanitize.js';
import type { AnswerJobRecord } from '../../state/answer-jobs.js';
import {
  answerWaitCommand,
  checkRecordTarget,
  latestUnfinishedJob,
  loadAnswerJobRecord,
  newAnswerJobRecord,
  pruneAnswerJobRecords,
  recordAnswerJob,
  updateAnswerJobRecord,
} from '../../services/answer-jobs.js';
import { checkedRequest } from '../../services/search/checked.js';
import type { SearchFieldOptions } from '../../services/search/request.js';
import { waitWithSpinner } from '../../services/waiting.js';
import type { AnswerOutput } from '../../render/answer.js';

/** Options of `pravo answer wait` and `pravo answer show` (and of asking): output and verification. */
export interface FollowOptions {
  /** `--verify`: check every cited passage against its document. */
  verify?: boolean;
  /** `--yes`: retrieve documents for `--verify` without asking. */
  yes?: boolean;
  json?: boolean;
  /** `--format md`: the answer as Markdown (`render/markdown.ts`). */
  format?: string;
  /** `--out FILE`, with `--format md`: the Markdown written to FILE atomically. */
  out?: string;
}

/** Options of `pravo answer <query...>` as commander parses them. */
export interface AnswerOptions extends SearchFieldOptions, FollowOptions {
  /** `--no-wait` sets false. */
  wait?: boolean;
  timeout?: string;
}

/** Options of `pravo answer list`. */
export interface ListOptions {
  limit?: string;
  /** `-n` after `list` reaches the parent command as its `--max-results`; read as the limit. */
  maxResults?: string;
  json?: boolean;
  /** The parent's `--format`, `--out`, `--verify`: meaningless for a list of records, refused rather than ignored. */
  format?: string;
  out?: string;
  verify?: boolean;
}

/** Jobs `pravo answer list` shows by default. */
const DEFAULT_LIST_LIMIT = 20;

/** Longest job id accepted on the command line, in characters (longer is surely not an id). */
const MAX_JOB_ID_LENGTH = 256;

/**
 * Asks: checks the request as `pravo search` does, creates the job (never retried: the job may exist and its unit be
 * counted), records it, and follows it to its end, or, with `--no-wait`, prints its id and how to resume.
 * @returns the exit code: 0, {@link EXIT.answerFailed} or {@link EXIT.verificationFailed}.
 * @throws UsageError before anything is sent (bad options, `--no-wait` on an in-process sandbox, `--verify` with no
 *   terminal to ask on and no `--yes`, `--format md` with `--no-wait`); EnvironmentError when `--out` cannot be
 *   written (before sending; after the answer when writing fails); the client's errors; UserCancelledError when
 *   Ctrl-C stops the waiting.
 */
export async function runAnswer(factory: Factory, query: string, options: AnswerOptions): Promise<number> {
  await refuseMistypedSubcommand(query);
  const format = readOutputFormat(options, 'pravo answer');
  if (options.wait === false && format.markdown === true) {
    throw new UsageError(
      '--format md writes the finished answer, which --no-wait does not wait for: drop --no-wait, or get the Markdown later with `pravo answer wait JOB_ID --format md`.',
    );
  }
  if (options.wait === false && factory.globals.sandbox) {
    throw new UsageError(
      'The in-process sandbox of --sandbox stops when this command ends, and its answer job with it, so --no-wait would leave a job that never finishes. ' +
        'Drop --no-wait, or start a lasting sandbox with `pravo sandbox serve --save-to-profile sandbox` and ask with `--profile sandbox --no-wait`.',
    );
  }
  if (options.wait === false && options.verify) {
    throw new UsageError('--verify checks the finished answer, which --no-wait does not wait for: drop one of them, and verify later with `pravo answer wait JOB_ID --verify`.');
  }
  checkVerifyConsent(factory, options);
  await checkOut(format);
  const { request, timeoutMs } = await checkedRequest(factory, query, options, 'The answer job was not created.');
  const printer = new Printer(factory.io, options.json === true, format);
  const client = await factory.client();
  const target = await factory.target();
  const created = await waitWithSpinner(factory, 'Creating the answer job', () =>
    client.answers.create(request, { signal: factory.signal, timeoutMs }),
  );
  const createdAt = factory.clock.now();
  const jobId = created.data.job_id;
  await recordJob(factory, printer, newAnswerJobRecord(jobId, request, target, createdAt));

  if (options.wait === false) {
    const resume = answerWaitCommand(factory, jobId);
    if (printer.mode === 'json') printer.responseIfJson(created);
    else factory.io.stdout.write(`${sanitizeLine(jobId)}\n`);
    printer.note(`Answer job ${sanitizeLine(jobId)} created (queued). Wait for it with \`${resume}\`; \`pravo answer list\` shows your jobs.`);
    return EXIT.ok;
  }
  return follow(factory, printer, { jobId, createdAt, inProcessSandbox: target.kind === 'sandbox' }, options);
}

/**
 * `pravo answer wait [job_id]`: follows a job to its end and prints it; without an id, the latest unfinished job
 * recorded for this profile (or the sandbox). A job recorded for another target is refused with the command that
 * reaches it.
 * @throws UsageError for a bad id, no unfinished job, a job of another target, asking options (`--type` ...).
 */
export async function runWait(factory: Factory, jobId: string | undefined, options: FollowOptions & Record<string, unknown>): Promise<number> {
  rejectAskingOptions(options, 'answer wait');
  const format = readOutputFormat(options, 'pravo answer wait');
  if (jobId !== undefined) checkJobId(jobId);
  checkVerifyConsent(factory, options);
  await checkOut(format);
  const record = jobId === undefined ? await latestUnfinishedJob(factory) : await loadAnswerJobRecord(factory, jobId);
  const id = jobId ?? record!.job_id;
  if (record) await checkRecordTarget(factory, record, 'wait');
  const printer = new Printer(factory.io, options.json === true, format);
  if (record?.sandbox && !isFinalAnswerJobStatus(record.last_status)) {
    const at = new Date(Date.parse(record.created_at) + LIMITS.answerJobTimeoutMs);
    printer.note(
      `Answer job ${sanitizeLine(id)} ran in the in-process sandbox of the command that created it, which has stopped: unless it finished before that, ` +
        `the sandbox reports it timed_out from ${at.toISOString().slice(11, 16)} UTC (15 minutes after its creation) and restores its quota unit.`,
    );
  }
  const createdAt = record ? Date.parse(record.created_at) : Number.NEGATIVE_INFINITY;
  return follow(factory, printer, { jobId: id, createdAt, inProcessSandbox: factory.globals.sandbox === true }, options);
}

/**
 * `pravo answer show <job_id>`: one status check (spends nothing); a final job is printed as after waiting, an
 * unfinished one is reported with the command that waits for it.
 * @throws UsageError for a bad id, a job of another target, asking options; the client's errors.
 */
export async function runShow(factory: Factory, jobId: string, options: FollowOptions & Record<string, unknown>): Promise<number> {
  rejectAskingOptions(options, 'answer show');
  const format = readOutputFormat(options, 'pravo answer show');
  checkJobId(jobId);
  checkVerifyConsent(factory, options);
  await checkOut(format);
  const record = await loadAnswerJobRecord(factory, jobId);
  if (record) await checkRecordTarget(factory, record, 'show');
  const printer = new Printer(factory.io, options.json === true, format);
  const client = await factory.client();
  const response = await waitWithSpinner(factory, 'Fetching the answer job', () => client.answers.retrieve(jobId, { signal: factory.signal }));
  await updateAnswerJobRecord(factory, response.data);
  if (isFinalAnswerJobStatus(response.data.status)) return printFinal(factory, printer, response, options);
  if (printer.mode === 'json') printer.responseIfJson(response);
  // Markdown output (stdout or --out's file) holds an answer or nothing.
  else if (printer.mode !== 'markdown') factory.io.stdout.write(`${sanitizeLine(jobId)}\t${response.data.status}\n`);
  printer.note(`Answer job ${sanitizeLine(jobId)} is ${response.data.status}; wait for it with \`${answerWaitCommand(factory, jobId)}\`.${unwritten(printer)}`);
  return EXIT.ok;
}

/** `pravo answer list`: the recorded jobs, newest first, with their last known status. Local: sends nothing. */
export async function runList(factory: Factory, options: ListOptions): Promise<number> {
  const stray = options.format !== undefined ? '--format' : options.out !== undefined ? '--out' : options.verify ? '--verify' : undefined;
  if (stray) {
    throw new UsageError(
      `\`pravo answer list\` lists job records (a table, TSV when piped, or --json); ${stray} is for an answer: \`pravo answer show JOB_ID ${stray}${stray === '--verify' ? '' : ' …'}\`.`,
    );
  }
  const raw = options.limit ?? options.maxResults;
  let limit = DEFAULT_LIST_LIMIT;
  if (raw !== undefined) {
    if (!/^\d+$/.test(raw.trim())) throw new UsageError(`--limit takes a whole number of jobs (0: all), not "${sanitizeLine(raw)}".`);
    limit = Number(raw);
  }
  const { listAnswerJobs } = await import('../../state/answer-jobs.js');
  const all = await listAnswerJobs(factory.env);
  const records = limit === 0 ? all : all.slice(0, limit);
  const printer = new Printer(factory.io, options.json === true);
  const { answerJobsView } = await import('../../render/answer-jobs.js');
  await printer.local(records, answerJobsView(factory.clock.now(), all.length));
  return EXIT.ok;
}

/** What {@link follow} needs of the job. */
interface FollowedJob {
  jobId: string;
  /** When it was created, ms since the epoch (`-Infinity` when unknown: the first check is then immediate). */
  createdAt: number;
  /** The job runs in this command's in-process sandbox (`--sandbox`), which stops when the command ends. */
  inProcessSandbox: boolean;
}

/**
 * Polls the job to a final status (first check 2 s after creation, then 4, 8, 10, 10 s …; a resumed job is checked at
 * once), with a spinner showing its status and the time since creation, keeping its record's status current; then
 * prints it. Ctrl-C: UserCancelledError saying that the job goes on and how to resume (for an in-process sandbox:
 * that the job cannot finish and will time out).
 */
async function follow(factory: Factory, printer: Printer, job: FollowedJob, options: FollowOptions): Promise<number> {
  const { answerPollDelayMs } = await import('../../api/polling.js');
  const client = await factory.client();
  const id = sanitizeLine(job.jobId);
  let status: AnswerJobStatus | 'unknown' = 'unknown';
  let trouble: string | undefined;
  const schedule = (attempt: number): number =>
    attempt === 1 ? Math.max(0, job.createdAt + answerPollDelayMs(1) - factory.clock.now()) : answerPollDelayMs(attempt);
  const label = (): string => `Answer job ${id}: ${trouble ?? (status === 'unknown' ? 'checking' : status)}`;
  // Record updates run in order, and are awaited before pravo reports anything (the record is what `wait` resumes).
  let recorded: Promise<void> = Promise.resolve();
  let response: ApiResponse<AnswerJob>;
  try {
    response = await waitWithSpinner(
      factory,
      label,
      () =>
        client.answers.poll(job.jobId, {
          signal: factory.signal,
          schedule,
          onUpdate: (current) => {
            trouble = undefined;
            if (current.status !== status) recorded = recorded.then(() => updateAnswerJobRecord(factory, current));
            status = current.status;
          },
          onTransientError: (_error, failures) => {
            trouble = `no answer from the server, trying again (${failures})`;
          },
        }),
      Number.isFinite(job.createdAt) ? { startedAt: job.createdAt } : {},
    );
  } catch (error) {
    await recorded;
    const resume = answerWaitCommand(factory, job.jobId);
    if (error instanceof CancelledError || factory.signal.aborted) {
      const seen = status === 'unknown' ? '' : ` (last seen ${status})`;
      if (job.inProcessSandbox) {
        throw new UserCancelledError(
          `Stopped waiting for answer job ${id}${seen}. It ran in this command's in-process sandbox, which stops now, so it will not finish.`,
          `The sandbox reports it timed_out 15 minutes after its creation and restores its quota unit (\`${resume}\` then shows that); a new job may be created at once.`,
        );
      }
      throw new UserCancelledError(
        `Stopped waiting for answer job ${id}${seen}; the job was not cancelled and goes on on the server.`,
        `Resume with \`${resume}\` (\`pravo answer list\` shows your jobs).`,
      );
    }
    printer.note(`Answer job ${id} was not cancelled by this error; resume waiting with \`${resume}\`.`);
    throw error;
  }
  await recorded;
  await updateAnswerJobRecord(factory, response.data);
  return printFinal(factory, printer, response, options);
}

/**
 * Prints a final job. `failed`: its `error_code` and `error_message` on stderr (with `--json`, also the body on stdout)
 * and what it means for the quota; exit {@link EXIT.answerFailed}. `succeeded`: the answer with its markers resolved
 * and its sources, after `--verify`'s checks when asked (with `--json`: the body exactly, or `{job, verification}`).
 */
async function printFinal(factory: Factory, printer: Printer, response: ApiResponse<AnswerJob>, options: FollowOptions): Promise<number> {
  const job = response.data;
  const { answerOutputView } = await import('../../render/answer.js');
  if (job.status === 'failed') {
    printer.responseIfJson(response);
    printer.note(`${failedMessage(job)}${unwritten(printer)}`);
    return EXIT.answerFailed;
  }
  const absent = absentActLine(Array.isArray(job.sources) ? job.sources[0] : undefined);
  if (absent !== undefined) printer.note(absent);
  let output: AnswerOutput = { job };
  if (options.verify) {
    const { verifyCitations } = await import('./verify.js');
    const verification = await verifyCitations(factory, printer, job, { yes: options.yes === true });
    if (verification) output = { job, verification };
  }
  if (output.verification) {
    await printer.local({ job, verification: output.verification.report }, answerOutputView, output);
    if (printer.mode === 'markdown') {
      // The Markdown holds the answer; the verification is for the person running the command, as in the terminal.
      const { renderVerification } = await import('../../render/answer.js');
      printer.note(renderVerification(output.verification.report, output.verification.resolved, job.sources));
    }
    return output.verification.report.verified ? EXIT.ok : EXIT.verificationFailed;
  }
  await printer.response({ raw: response.raw, data: output }, answerOutputView);
  return EXIT.ok;
}

/**
 * `--out FILE` of a Markdown run checked before anything is sent (see `checkOutputFile`); nothing without `--out`.
 * @throws EnvironmentError when FILE cannot be written.
 */
async function checkOut(format: PrinterOptions): Promise<void> {
  if (format.out === undefined) return;
  const { checkOutputFile } = await import('../../io/output-file.js');
  await checkOutputFile(format.out, '--out');
}

/** For a run with `--out FILE` that ends without an answer to write, a line to add to its note: `FILE was not written.` */
function unwritten(printer: Printer): string {
  return printer.out === undefined ? '' : `\n${printer.out} was not written.`;
}

/** The message of a failed job, with what it means: a timed-out job's unit is restored, a failed one consumed none. */
export function failedMessage(job: AnswerJob): string {
  const code = sanitizeLine(job.error_code ?? 'unknown');
  const message = sanitizeLine(job.error_message ?? '');
  const head = `Answer job ${sanitizeLine(job.job_id)} failed: ${code}${message ? `: ${message}` : ''}`;
  if (job.error_code === ERROR_CODES.timedOut) {
    return `${head}\nIt stayed unfinished for 15 minutes. Its answers-quota unit was restored, so a new job may safely be created: ask again.`;
  }
  return `${head}\nA failed job consumes no answers-quota unit; a new job may be created.`;
}

/**
 * `--verify` may spend retrieval units, which pravo asks about on a terminal; without one, `--yes` must say so.
 * @throws UsageError (before anything is sent) when `--verify` has neither a terminal to ask on nor `--yes`.
 */
function checkVerifyConsent(factory: Factory, options: FollowOptions): void {
  if (options.verify && !options.yes && !factory.io.canPrompt) {
    throw new UsageError(
      '--verify retrieves the cited documents, each retrieval spending a unit of the retrieval quota (cached ones spend nothing), and there is no terminal to ask on: add --yes to allow it.',
    );
  }
}

/** Options of asking that mean nothing to `wait`/`show` (commander hands them to the parent command). */
const ASKING_OPTIONS: ReadonlyArray<[string, string]> = [
  ['type', '--type'],
  ['court', '--court'],
  ['judge', '--judge'],
  ['from', '--from'],
  ['to', '--to'],
  ['maxResults', '--max-results'],
  ['timeout', '--timeout'],
];

/** @throws UsageError when an option of asking was given to `wait` or `show`. */
function rejectAskingOptions(options: Record<string, unknown>, command: string): void {
  const given = ASKING_OPTIONS.filter(([key]) => options[key] !== undefined).map(([, flag]) => flag);
  if (options.wait === false) given.push('--no-wait');
  if (given.length > 0) {
    throw new UsageError(`${given.join(', ')} ${given.length === 1 ? 'applies' : 'apply'} to asking a question, not to \`pravo ${command}\`.`);
  }
}

/** The subcommands of `pravo answer`, which a mistyped one (`lsit`) would otherwise send as a question. */
const SUBCOMMANDS = ['wait', 'show', 'list'] as const;

/**
 * A question of one Latin word within two edits of a subcommand (`lsit`, `wiat`) is surely a mistyped subcommand:
 * sending it would spend an answers unit on nothing.
 * @throws UsageError naming the subcommand meant.
 */
async function refuseMistypedSubcommand(query: string): Promise<void> {
  const word = query.trim().toLowerCase();
  if (!/^[a-z]+$/.test(word)) return;
  const { editDistance } = await import('../../shared/courts.js');
  // The nearest; of equally near ones, one with the same first letter (`lsit`: list and wait are both 2 edits away).
  const ranked = SUBCOMMANDS.map((name) => ({ name, distance: editDistance(word, name, 2) + (name[0] === word[0] ? 0 : 0.5) }))
    .filter((c) => c.distance <= 2.5)
    .sort((a, b) => a.distance - b.distance);
  const meant = ranked[0]?.name;
  if (meant !== undefined) {
    throw new UsageError(`"${word}" looks like a mistyped \`pravo answer ${meant}\`, not a question; ask a question of more words, or run \`pravo answer ${meant}\`.`);
  }
}

/** @throws UsageError unless `jobId` could be a job id: 1 to 256 characters, no white space or control characters. */
function checkJobId(jobId: string): void {
  if (jobId === '' || jobId.length > MAX_JOB_ID_LENGTH || /[\s\p{Cc}\p{Cf}]/u.test(jobId)) {
    throw new UsageError(`"${sanitizeLine(jobId).slice(0, 80)}" is not an answer job id; \`pravo answer list\` shows the recorded jobs.`);
  }
}

/** Writes the new job's record; when it cannot be written, says so with the id, which is then the only way back. */
async function recordJob(factory: Factory, printer: Printer, record: AnswerJobRecord): Promise<void> {
  try {
    await recordAnswerJob(factory, record);
  } catch (error) {
    printer.note(
      `Warning: could not record answer job ${sanitizeLine(record.job_id)} (${(error as Error).message}). Keep its id: \`${answerWaitCommand(factory, record.job_id)}\` comes back to it.`,
    );
    return;
  }
  await pruneAnswerJobRecords(factory);
}
