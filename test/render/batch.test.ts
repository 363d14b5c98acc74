/**
 * Texts of `pravo batch` (`src/render/batch.ts`) as a user reads them: the bad lines of an input, the plan against the
 * usage, the refusal, the question before spending, the progress line, the closing summary, and the JSON a script
 * reads. Plans are made by the pre-flight itself (`planBatch`) from sandbox-shaped usage.
 */
import { describe, expect, it } from 'vitest';
import { batchSummary as summary } from '../helpers/batch.js';
import { readUsage } from '../../src/api/usage.js';
import { planBatch, unitsNeeded, type BatchCounts, type BatchPlan } from '../../src/batch/plan.js';
import type { BatchMode } from '../../src/batch/journal.js';
import {
  confirmQuestion,
  lineList,
  lineProblemsText,
  missingResultsText,
  planJson,
  planText,
  progressText,
  refusalText,
  summaryJson,
  summaryText,
  unreadableRecordsText,
} from '../../src/render/batch.js';
import type { BatchProgress, BatchSummary } from '../../src/batch/summary.js';
import { duration } from '../../src/render/text.js';

const ANSI = /\x1b\[[0-9;]*m/g;
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const strip = (text: string): string => text.replace(ANSI, '');

function counts(extra: Partial<BatchCounts> = {}): BatchCounts {
  return { total: 10, done: 0, failed: 0, interrupted: 0, missing: 0, toSend: 10, jobsToCollect: 0, searchedToFinish: 0, ...extra };
}

interface UsageShape {
  quotas?: Record<string, { used: number; limit: number | null }>;
  overage?: { allowed: boolean; limit: number; used: number };
  periodEnd?: string;
}

/** A plan as the pre-flight makes it, against usage shaped as the sandbox sends it (or none). */
function plan(mode: BatchMode, fetchDocs: number, c: BatchCounts, usage: UsageShape | undefined, documentsToRetrieve = 0): BatchPlan {
  const facts =
    usage &&
    readUsage({
      period: { start: '2025-03-01T00:00:00Z', end: usage.periodEnd ?? '2025-04-01T00:00:00Z', month: '2025-03' },
      quotas: Object.fromEntries(
        Object.entries(usage.quotas ?? {}).map(([kind, q]) => [kind, { ...q, remaining: q.limit === null ? null : Math.max(0, q.limit - q.used), overage_used: 0 }]),
      ),
      overage: usage.overage ?? { allowed: false, limit: 0, used: 0 },
    });
  return planBatch(mode, fetchDocs, c, unitsNeeded(mode, fetchDocs, c, documentsToRetrieve), facts);
}

/** 120 queries, some done, two interrupted, ten searched before; 78 to send with their top 3 documents. */
const RESUMED = counts({ total: 120, done: 30, failed: 2, interrupted: 2, searchedToFinish: 10, toSend: 78 });
const RESUMED_USAGE: UsageShape = {
  quotas: { search: { used: 900, limit: 1000 }, retrieval: { used: 800, limit: 1000 } },
  overage: { allowed: true, limit: 50, used: 10 },
};
const NAMES = { input: 'questions.txt', out: 'results.jsonl' };

describe('lineList', () => {
  it('lists up to 12 line numbers or ranges of consecutive ones, and counts the rest', () => {
    expect(lineList([3, 17, 45])).toBe('3, 17, 45');
    expect(lineList(Array.from({ length: 15 }, (_, i) => i + 1))).toBe('1–15');
    expect(lineList([1, 2, 3, 7, 9, 10])).toBe('1–3, 7, 9–10');
    const odd = Array.from({ length: 15 }, (_, i) => 2 * i + 1);
    expect(lineList(odd)).toBe('1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23 … and 3 more');
  });
});

describe('lineProblemsText', () => {
  it('lists each bad line by number with what is wrong, and how to fix them', () => {
    const text = lineProblemsText(
      [
        { line: 2, message: 'query must be 3 to 2000 characters long (got 2)' },
        { line: 5, message: 'unknown field "querry"' },
      ],
      'questions.txt',
    );
    expect(text).toBe(
      [
        'questions.txt has 2 lines that cannot be sent:',
        '  line 2: query must be 3 to 2000 characters long (got 2)',
        '  line 5: unknown field "querry"',
        'Fix them and run the command again (a JSON line takes the search fields query, source_types, court_ids, judge_name, date_from, date_to, max_results).',
      ].join('\n'),
    );
  });

  it('speaks of one line in the singular', () => {
    const text = lineProblemsText([{ line: 1, message: 'bad' }], 'standard input');
    expect(text.split('\n')[0]).toBe('standard input has 1 line that cannot be sent:');
    expect(text).toContain('Fix it and run the command again');
  });

  it('shows at most 20 bad lines and counts the rest', () => {
    const problems = Array.from({ length: 25 }, (_, i) => ({ line: i + 1, message: 'bad' }));
    const lines = lineProblemsText(problems, 'q.txt').split('\n');
    expect(lines.filter((l) => l.startsWith('  line '))).toHaveLength(20);
    expect(lines).toContain('  … and 5 more');
  });

  it('removes control characters from the file name and the messages', () => {
    const text = lineProblemsText([{ line: 1, message: 'unknown field "\u001b[31mred\u001b[0m"\r\nfake line' }], 'evil\u001b]0;title\u0007.txt');
    expect(text).not.toMatch(CONTROL);
    expect(text).toContain('evil.txt has 1 line');
    expect(text).toContain('  line 1: unknown field "red" fake line');
  });
});

describe('planText', () => {
  it('shows the counts, a table of the units needed against those remaining, and the overage', () => {
    const text = planText(plan('search', 3, RESUMED, RESUMED_USAGE), NAMES, { color: false, interrupted: [7, 9] });
    expect(text).toBe(
      [
        'Batch: 120 queries from questions.txt → results.jsonl (a search per line and its top 3 documents)',
        '  30 done before (2 with an error) · 2 interrupted (lines 7, 9: they may have been counted, so they are not sent again without --retry-interrupted) · 10 searched before, documents to retrieve · 78 to send',
        '  quota       needs   remaining     after',
        '  search         78         100        22',
        '  retrieval   ≤ 234         200   34 over',
        '  overage: allowed, 40 units left this period; this batch would use 34 · the period ends 2025-03-31 (UTC)',
        '',
      ].join('\n'),
    );
  });

  it('marks an upper bound with ≤ and an exact count without', () => {
    const upTo = planText(plan('search', 2, counts({ toSend: 4 }), RESUMED_USAGE), NAMES, { color: false, interrupted: [] });
    expect(upTo).toMatch(/^ {2}retrieval +≤ 8 +200 +192$/m);
    const exact = planText(plan('search', 2, counts({ toSend: 0, searchedToFinish: 3 }), RESUMED_USAGE, 5), NAMES, { color: false, interrupted: [] });
    expect(exact).toMatch(/^ {2}retrieval +5 +200 +195$/m);
    expect(exact).not.toContain('≤');
  });

  it('says where the results go, and what each mode does per line', () => {
    const answers = planText(plan('answers', 0, counts(), { quotas: { answers: { used: 0, limit: 20 } } }), { input: 'standard input', out: undefined }, { color: false, interrupted: [] });
    expect(answers.split('\n')[0]).toBe('Batch: 10 queries from standard input → standard output (an answer job per line)');
    expect(answers).toMatch(/^ {2}answers +10 +20 +10$/m);
    const one = planText(plan('search', 1, counts({ total: 1, toSend: 1 }), RESUMED_USAGE), NAMES, { color: false, interrupted: [] });
    expect(one.split('\n')[0]).toBe('Batch: 1 query from questions.txt → results.jsonl (a search per line and its top 1 document)');
    const plain = planText(plan('search', 0, counts(), RESUMED_USAGE), NAMES, { color: false, interrupted: [] });
    expect(plain.split('\n')[0]).toContain('(a search per line)');
  });

  it('says how many units a kind would go over its quota, and that overage is not allowed', () => {
    const text = planText(plan('search', 0, counts({ toSend: 150 }), { quotas: { search: { used: 900, limit: 1000 } } }), NAMES, { color: false, interrupted: [] });
    expect(text).toMatch(/^ {2}search +150 +100 +50 over$/m);
    expect(text).toContain('  overage: not allowed · the period ends 2025-03-31 (UTC)');
  });

  it('shows an over-quota row in yellow with colour, and the header in bold', () => {
    const text = planText(plan('search', 0, counts({ toSend: 150 }), { quotas: { search: { used: 900, limit: 1000 } } }), NAMES, { color: true, interrupted: [] });
    expect(text).toContain('  \u001b[33msearch');
    expect(text).toContain('\u001b[1mquota');
    expect(strip(text)).toMatch(/^ {2}search +150 +100 +50 over$/m);
  });

  it('shows an unlimited quota, and says when the overage or its limit is not reported', () => {
    const unlimited = planText(plan('search', 0, counts(), { quotas: { search: { used: 5, limit: null } } }), NAMES, { color: false, interrupted: [] });
    expect(unlimited).toMatch(/^ {2}search +10 +unlimited +unlimited$/m);

    const facts = readUsage({ quotas: { search: { used: 0, limit: 100 } } });
    const noOverage = planBatch('search', 0, counts(), unitsNeeded('search', 0, counts(), 0), facts);
    const text = planText(noOverage, NAMES, { color: false, interrupted: [] });
    expect(text).toContain('  overage: not reported\n');
    expect(text).not.toContain('the period ends');

    const noLimit = planBatch('search', 0, counts(), unitsNeeded('search', 0, counts(), 0), readUsage({ quotas: { search: { used: 0, limit: 100 } }, overage: { allowed: true } }));
    expect(planText(noLimit, NAMES, { color: false, interrupted: [] })).toContain('  overage: allowed, its limit not reported\n');
  });

  it('says which kinds it could not check when the server did not report what remains of them', () => {
    const text = planText(plan('search', 2, counts(), { quotas: { search: { used: 0, limit: 100 } } }), NAMES, { color: false, interrupted: [] });
    expect(text).toMatch(/^ {2}retrieval +≤ 20 +unknown +unknown$/m);
    expect(text).toContain('  The server did not report what remains of retrieval: not checked.\n');
  });

  it('says why nothing was checked when the usage could not be read', () => {
    const text = planText(plan('search', 0, counts(), undefined), NAMES, { color: false, interrupted: [], usageProblem: 'the usage could not be read (HTTP 404)' });
    expect(text).toContain('  Not checked against the quota: the usage could not be read (HTTP 404).\n');
    expect(text).not.toContain('The server did not report');
  });

  it('shows no table when the run spends nothing: everything done, or only answer jobs to collect', () => {
    const done = planText(plan('search', 0, counts({ done: 10, toSend: 0 }), RESUMED_USAGE), NAMES, { color: false, interrupted: [] });
    expect(done).toBe('Batch: 10 queries from questions.txt → results.jsonl (a search per line)\n  10 done before · 0 to send\n');
    const jobs = planText(plan('answers', 0, counts({ done: 7, jobsToCollect: 3, toSend: 0 }), undefined), NAMES, { color: false, interrupted: [] });
    expect(jobs).toContain('3 answer jobs to collect (created before: nothing spent) · 0 to send');
    expect(jobs).not.toContain('quota');
    expect(jobs).not.toContain('overage');
  });

  it('removes control characters from the file names and the period end', () => {
    const p = plan('search', 0, counts(), { quotas: { search: { used: 0, limit: 100 } }, periodEnd: '2025\u001b[2J-04-01' });
    const text = planText(p, { input: 'q\u001b]8;;http://x\u0007.txt', out: 'out\r\u001b[31m.jsonl' }, { color: false, interrupted: [] });
    expect(text).not.toMatch(CONTROL);
    expect(text.split('\n')[0]).toContain('q.txt → out.jsonl');
  });
});

describe('refusalText', () => {
  it('names each kind over its quota, says nothing was sent and when the next period starts, and what to do', () => {
    const text = refusalText(plan('search', 0, counts({ toSend: 150 }), { quotas: { search: { used: 900, limit: 1000 } } }));
    expect(text).toBe(
      'Refused: the batch needs more than the period has left (search 150 units against 100 remaining). Nothing was sent. The period ends 2025-03-31 (UTC); the next begins 2025-04-01 (UTC).\n' +
        'Send fewer lines, raise the quota or allow overage for the account, or add --allow-overage to send anyway: the batch then stops cleanly when the server refuses with monthly_quota_exceeded, keeping what is done, and a rerun continues.\n',
    );
  });

  it('counts the overage still allowed, and lists every kind over its quota', () => {
    const p = plan('search', 3, counts({ toSend: 50 }), {
      quotas: { search: { used: 980, limit: 1000 }, retrieval: { used: 990, limit: 1000 } },
      overage: { allowed: true, limit: 20, used: 15 },
    });
    expect(p.exceeds).toBe(true);
    expect(refusalText(p).split('\n')[0]).toBe(
      'Refused: the batch needs more than the period has left (search 50 units against 20 remaining; retrieval up to 150 units against 10 remaining plus 5 overage units). Nothing was sent. The period ends 2025-03-31 (UTC); the next begins 2025-04-01 (UTC).',
    );
  });

  it('leaves out the next period when the usage did not say', () => {
    const p = planBatch('search', 0, counts({ toSend: 5 }), unitsNeeded('search', 0, counts({ toSend: 5 }), 0), readUsage({ quotas: { search: { used: 10, limit: 10 } } }));
    expect(refusalText(p).split('\n')[0]).toBe('Refused: the batch needs more than the period has left (search 5 units against 0 remaining). Nothing was sent.');
  });
});

describe('confirmQuestion', () => {
  it('asks about the lines to send and the units of each kind, an upper bound as "up to"', () => {
    expect(confirmQuestion(plan('search', 3, RESUMED, RESUMED_USAGE))).toBe('Send 88 lines, spending 78 search units, up to 234 retrieval units (34 in overage)?');
  });

  it('says how many units of a kind would go beyond its quota, in overage', () => {
    const usage = { quotas: { search: { used: 40, limit: 50 } }, overage: { allowed: true, limit: 20, used: 0 } };
    expect(confirmQuestion(plan('search', 0, counts({ toSend: 15 }), usage))).toBe('Send 15 lines, spending 15 search units (5 in overage)?');
  });

  it('speaks of one line and one unit in the singular', () => {
    expect(confirmQuestion(plan('answers', 0, counts({ total: 1, toSend: 1 }), undefined))).toBe('Send 1 line, spending 1 answers unit?');
  });

  it('leaves out a kind the batch does not spend', () => {
    expect(confirmQuestion(plan('search', 2, counts({ toSend: 0, searchedToFinish: 2 }), undefined, 3))).toBe('Send 2 lines, spending 3 retrieval units?');
  });
});

describe('progressText', () => {
  const base: BatchProgress = {
    finished: 0,
    total: 200,
    tally: { succeeded: 0, failed: 0, interrupted: 0, unsent: 0, unfinished: 0 },
    inFlight: 0,
    elapsedMs: 0,
    mode: 'search',
  };

  it('shows the bar and the counts, the rate since the start and the time left at that rate', () => {
    const text = progressText({ ...base, finished: 60, elapsedMs: 25_000, tally: { ...base.tally, succeeded: 58, failed: 2 } });
    expect(text).toBe('Batch [██████░░░░░░░░░░░░░░]  30% 60/200 lines · 2 failed · 2.4/s · ETA 58s');
  });

  it('shows no rate and no ETA before the first line has finished', () => {
    const text = progressText({ ...base, inFlight: 2, elapsedMs: 30_000 });
    expect(text).toBe('Batch [░░░░░░░░░░░░░░░░░░░░]   0% 0/200 lines');
  });

  it('rounds a rate of 10 or more per second to whole lines', () => {
    expect(progressText({ ...base, finished: 150, elapsedMs: 12_000 })).toContain(' · 13/s · ETA 4s');
  });

  it('shows interrupted lines, answer jobs running, and minutes and hours in the ETA', () => {
    const text = progressText({ ...base, mode: 'answers', finished: 10, inFlight: 3, elapsedMs: 60_000, tally: { ...base.tally, succeeded: 9, interrupted: 1 } });
    expect(text).toBe('Batch [█░░░░░░░░░░░░░░░░░░░]   5% 10/200 lines · 1 interrupted · 3 jobs running · 10/min · ETA 19m00s');
    expect(progressText({ ...base, finished: 1, elapsedMs: 60_000 })).toContain(' · 1.0/min · ETA 3h19m');
  });

  it('fits the width it is given: a narrower bar, then without the jobs running, then without the rate', () => {
    const p: BatchProgress = { ...base, mode: 'answers', finished: 60, inFlight: 3, elapsedMs: 25_000, tally: { ...base.tally, succeeded: 58, failed: 2 } };
    const full = 'Batch [██████░░░░░░░░░░░░░░]  30% 60/200 lines · 2 failed · 3 jobs running · 2.4/s · ETA 58s';
    expect(progressText(p)).toBe(full);
    expect(progressText(p, [...full].length)).toBe(full);
    expect(progressText(p, 82)).toBe('Batch [███░░░░░░░]  30% 60/200 lines · 2 failed · 3 jobs running · 2.4/s · ETA 58s');
    expect(progressText(p, 81)).toBe('Batch [███░░░░░░░]  30% 60/200 lines · 2 failed · 2.4/s · ETA 58s');
    expect(progressText(p, 64)).toBe('Batch [███░░░░░░░]  30% 60/200 lines · 2 failed · ETA 58s');
    expect([...progressText(p, 40)].length).toBeLessThanOrEqual(40);
  });

  it('shows no ETA once every line has finished, nor while stopping, and says why it stops', () => {
    expect(progressText({ ...base, finished: 200, elapsedMs: 100_000 })).toBe('Batch [████████████████████] 100% 200/200 lines · 2.0/s');
    expect(progressText({ ...base, finished: 50, elapsedMs: 10_000, stopping: 'quota' })).toBe(
      'Batch [█████░░░░░░░░░░░░░░░]  25% 50/200 lines · 5.0/s · stopping (quota)',
    );
  });
});

describe('duration', () => {
  it('writes seconds, minutes and seconds, hours and minutes', () => {
    expect(duration(0)).toBe('0s');
    expect(duration(45_400)).toBe('45s');
    expect(duration(59_600)).toBe('1m00s');
    expect(duration(185_000)).toBe('3m05s');
    expect(duration(3_720_000)).toBe('1h02m');
    expect(duration(-5)).toBe('0s');
  });
});


const RERUN = 'pravo batch questions.txt --out results.jsonl --yes';
const SUMMARY_OPTIONS = { ...NAMES, rerun: RERUN, color: false };

describe('summaryText', () => {
  it('says every line succeeded when it did', () => {
    expect(summaryText(summary(), SUMMARY_OPTIONS)).toBe(
      [
        'Batch of 10 queries from questions.txt → results.jsonl:',
        '  done         10 this run',
        '  units spent  search 10, retrieval 0, answers 0',
        'Every line succeeded.',
        '',
      ].join('\n'),
    );
  });

  it('counts failures of this run and of earlier runs, and then does not say every line succeeded', () => {
    const text = summaryText(summary({ succeeded: 5, failed: 2, skipped: 3, skippedFailed: 1 }), SUMMARY_OPTIONS);
    expect(text).toContain('  done         7 this run (2 failed: their lines hold the error)\n');
    expect(text).toContain('  skipped      3 done before (1 with an error)\n');
    expect(text).not.toContain('Every line succeeded');
    expect(summaryText(summary({ succeeded: 7, skipped: 3, skippedFailed: 1 }), SUMMARY_OPTIONS)).not.toContain('Every line succeeded');
  });

  it('lists the interrupted lines and says a rerun with --retry-interrupted sends them again', () => {
    const text = summaryText(summary({ succeeded: 8, interrupted: [4, 9], }), SUMMARY_OPTIONS);
    expect(text).toContain(
      '  interrupted  2 (lines 4, 9): in flight at an interruption, they may have been counted; a rerun with --retry-interrupted sends them again\n',
    );
    expect(text).not.toContain('Every line succeeded');
  });

  it('lists unfinished lines in the words of the mode, and lines not sent', () => {
    const answers = summaryText(summary({ mode: 'answers', succeeded: 7, unfinished: [2, 5], notSent: [10] }), SUMMARY_OPTIONS);
    expect(answers).toContain('  unfinished   2 (lines 2, 5): answer jobs created and recorded, not yet collected; a rerun finishes them without spending again\n');
    expect(answers).toContain('  not sent     1 (lines 10): a rerun sends them\n');
    const search = summaryText(summary({ succeeded: 9, unfinished: [3] }), SUMMARY_OPTIONS);
    expect(search).toContain('  unfinished   1 (lines 3): searched, documents still to retrieve; a rerun finishes them without spending again\n');
  });

  it('lists the lines marked done whose results are missing, and does not call the batch a success', () => {
    const text = summaryText(summary({ succeeded: 0, skipped: 8, missing: [4, 9] }), SUMMARY_OPTIONS);
    expect(text).toContain(
      '  missing      2 (lines 4, 9): marked done, but their results are not in the file; a rerun with --retry-interrupted sends them again\n',
    );
    expect(text).not.toContain('Every line succeeded');
  });

  it('warns of unreadable journal records and of results missing from the file, naming the lines', () => {
    expect(unreadableRecordsText('r.jsonl.journal', [{ record: 7, line: 3 }, { record: 9, line: 4 }])).toBe(
      'Warning: 2 records of r.jsonl.journal cannot be read (lines 7, 9 of the file; was it edited or damaged?). ' +
        'What they recorded is unknown, so lines 3–4 (unless done) may have been sent and counted: reported interrupted, and sent again only with --retry-interrupted.\n',
    );
    expect(unreadableRecordsText('r\u001b[2J.journal', [{ record: 7, line: undefined }])).toBe(
      'Warning: 1 record of r.journal cannot be read (line 7 of the file; was it edited or damaged?). ' +
        'What it recorded is unknown, so every line not done (a record that names no line may concern any of them) may have been sent and counted: reported interrupted, and sent again only with --retry-interrupted.\n',
    );
    expect(missingResultsText('r.jsonl.journal', 'r.jsonl', [3, 5])).toBe(
      'Warning: 2 lines marked done in r.jsonl.journal are missing from r.jsonl (was it edited?): lines 3, 5. They do not count as succeeded; --retry-interrupted sends them again, --restart begins anew.\n',
    );
  });

  it('says why the batch stopped and gives the command that continues it', () => {
    const quota = summaryText(
      summary({ succeeded: 4, notSent: [5, 6, 7, 8, 9, 10], stop: 'quota', stopMessage: 'monthly_quota_exceeded: Search quota reached', period: { end: '2025-04-01T00:00:00Z' } }),
      SUMMARY_OPTIONS,
    );
    expect(quota).toContain(
      `Stopped: the monthly quota is used up (monthly_quota_exceeded: Search quota reached). What is done is kept. Continue in the next period, which begins 2025-04-01 (UTC), or once the quota is raised, with \`${RERUN}\`.\n`,
    );
    expect(quota).not.toContain('Every line succeeded');

    const stops: Array<[BatchSummary['stop'], string | undefined, string]> = [
      ['auth', 'invalid_api_key: The key is not valid', `Stopped: the key was refused (invalid_api_key: The key is not valid). Fix the key (\`pravo config set-key\`) and continue with \`${RERUN}\`.`],
      ['connection', 'Could not connect to http://127.0.0.1:9: refused.', `Stopped: the server could not be reached (Could not connect to http://127.0.0.1:9: refused.). Continue with \`${RERUN}\` once it can.`],
      ['rate_limited', 'HTTP 429', `Stopped: the server asked to slow down (HTTP 429). Continue later with \`${RERUN}\`, perhaps with --concurrency 1.`],
      ['cancelled', undefined, `Stopped by Ctrl-C. What is done is kept; continue with \`${RERUN}\`.`],
    ];
    for (const [stop, stopMessage, expected] of stops) {
      expect(summaryText(summary({ succeeded: 4, notSent: [5], stop, stopMessage }), SUMMARY_OPTIONS)).toContain(`${expected}\n`);
    }
  });

  it('says the quota is used up even without a message from the server', () => {
    expect(summaryText(summary({ stop: 'quota' }), SUMMARY_OPTIONS)).toContain('(monthly_quota_exceeded). What is done is kept.');
  });

  it('colours failures red, interruptions and stops yellow, success green, with colour on', () => {
    expect(summaryText(summary(), { ...SUMMARY_OPTIONS, color: true })).toContain('\u001b[32mEvery line succeeded.');
    const text = summaryText(summary({ succeeded: 3, failed: 1, interrupted: [2], stop: 'cancelled' }), { ...SUMMARY_OPTIONS, color: true });
    expect(text).toContain('\u001b[31m (1 failed');
    expect(text).toContain('\u001b[33m  interrupted  1');
    expect(text).toContain('\u001b[33mStopped by Ctrl-C.');
  });

  it('removes control characters from the file names, the stop message and the period end', () => {
    const text = summaryText(
      summary({ stop: 'quota', stopMessage: 'monthly_quota_exceeded: \u001b]0;owned\u0007quota\r\nreached', period: { end: '2025-04\u009b2J-01' } }),
      { input: 'in\u001b[1m.txt', out: 'out\u202e.jsonl', rerun: RERUN, color: false },
    );
    expect(text).not.toMatch(CONTROL);
    expect(text).toContain('from in.txt → out.jsonl:');
    expect(text).toContain('(monthly_quota_exceeded: quota reached)');
  });

  it('says the results went to standard output without --out', () => {
    expect(summaryText(summary(), { ...SUMMARY_OPTIONS, out: undefined }).split('\n')[0]).toBe('Batch of 10 queries from questions.txt → standard output:');
  });
});

describe('summaryJson', () => {
  it('gives the counts, the line numbers left, the units spent, why it stopped and the exit code', () => {
    const json = summaryJson(
      summary({ succeeded: 4, failed: 1, skipped: 1, skippedFailed: 1, interrupted: [3], missing: [6], unfinished: [7], notSent: [8, 9], units: { search: 5, retrieval: 12, answers: 0 }, stop: 'quota' }),
      NAMES,
      5,
    );
    expect(json).toEqual({
      input: 'questions.txt',
      out: 'results.jsonl',
      total: 10,
      succeeded: 4,
      failed: 1,
      skipped: 1,
      skipped_failed: 1,
      interrupted: [3],
      missing: [6],
      unfinished: [7],
      not_sent: [8, 9],
      units_spent: { search: 5, retrieval: 12, answers: 0 },
      stopped: 'quota',
      exit_code: 5,
    });
  });

  it('gives null for no results file and for a run that did not stop early', () => {
    const json = summaryJson(summary(), { input: 'standard input', out: undefined }, 0);
    expect(json).toMatchObject({ out: null, stopped: null, exit_code: 0 });
    expect(JSON.parse(JSON.stringify(json))).toEqual(json);
  });
});

describe('planJson', () => {
  it('gives the counts, the needs per kind, the overage and the verdict', () => {
    const json = planJson(plan('search', 3, RESUMED, RESUMED_USAGE), { interrupted: [7, 9], missing: [12] });
    expect(json).toEqual({
      mode: 'search',
      fetch_docs: 3,
      total: 120,
      done: 30,
      interrupted: [7, 9],
      missing: [12],
      to_send: 78,
      jobs_to_collect: 0,
      searched_to_finish: 10,
      needs: {
        search: { units: 78, up_to: false, remaining: 100, beyond_quota: 0 },
        retrieval: { units: 234, up_to: true, remaining: 200, beyond_quota: 34 },
      },
      overage: { allowed: true, available: 40, needed: 34 },
      exceeds: false,
      unknown: [],
      period_end: '2025-04-01T00:00:00Z',
    });
  });

  it('tells a quota the server did not report from an unlimited one', () => {
    const json = planJson(plan('search', 2, counts(), { quotas: { search: { used: 0, limit: null } } }), { interrupted: [], missing: [] });
    expect(json.needs).toEqual({
      search: { units: 10, up_to: false, remaining: null, beyond_quota: 0 },
      retrieval: { units: 20, up_to: true, remaining: null, beyond_quota: 0 },
    });
    expect(json.unknown).toEqual(['retrieval']);
  });

  it('gives null for what the usage did not say, and lists every kind as unknown without usage', () => {
    const json = planJson(plan('answers', 0, counts(), undefined), { interrupted: [], missing: [] });
    expect(json).toMatchObject({
      needs: { answers: { units: 10, up_to: false, remaining: null, beyond_quota: 0 } },
      overage: { allowed: null, available: null, needed: 0 },
      exceeds: false,
      unknown: ['answers'],
      period_end: null,
    });
  });
});
