/**
 * The usage report (`src/render/usage.ts`) as a user sees it: a table that fits 80 and 120 columns, bars and colours
 * at the 80 % and 100 % thresholds, unlimited and unreported values, the period's days left counted from an injected
 * clock, the piped form, and text from the server that cannot drive the terminal.
 */
import { describe, expect, it } from 'vitest';
import { readUsage, type UsageFacts } from '../../src/api/usage.js';
import { hasControlSequences } from '../../src/shared/sanitize.js';
import { daysLeft } from '../../src/render/period.js';
import { overageText, periodText, renderUsageTable, renderUsageTsv } from '../../src/render/usage.js';

const ANSI = /\u001b\[[0-9;]*m/g;
const plain = (text: string): string => text.replace(ANSI, '');
const lines = (text: string): string[] => plain(text).replace(/\n$/, '').split('\n');
const widest = (text: string): number => Math.max(...lines(text).map((l) => [...l].length));
/** The table row of a kind, without colour. */
const row = (text: string, kind: string): string => lines(text).find((l) => l.startsWith(`│ ${kind} `)) ?? '';

const YELLOW = '\u001b[33m';
const RED = '\u001b[31m';

const START = '2026-11-01T00:00:00.000Z';
const END = '2026-12-01T00:00:00.000Z';
/** 18 November 2026, 10:00 UTC: 12 days and 14 hours before the end of November. */
const NOW = Date.parse('2026-11-18T10:00:00Z');

/** The sandbox's shape: 812 of 1000 searches, 3 of 500 retrievals, unlimited answers, overage off. */
function sandboxBody(quotas?: Record<string, unknown>): Record<string, unknown> {
  return {
    period: { start: START, end: END, month: '2026-11' },
    plan: 'sandbox',
    quotas: quotas ?? {
      search: { used: 812, limit: 1000, remaining: 188, overage_used: 0 },
      retrieval: { used: 3, limit: 500, remaining: 497, overage_used: 0 },
      answers: { used: 12, limit: null, remaining: null, overage_used: 0 },
    },
    overage: { allowed: false, limit: 0, used: 0 },
  };
}

const facts = (body: Record<string, unknown> = sandboxBody()): UsageFacts => readUsage(body);
const table = (f: UsageFacts, width = 80, color = false, now = NOW): string => renderUsageTable(f, { width, color, now });

describe('renderUsageTable', () => {
  it.each([80, 120])('fits %i columns, coloured or not, one row per kind in the contract order', (width) => {
    for (const color of [false, true]) {
      const out = table(facts(), width, color);
      expect(widest(out)).toBeLessThanOrEqual(width);
      const kinds = lines(out).map((l) => /^│ (\S+)/.exec(l)?.[1]).filter((k) => k !== undefined);
      expect(kinds).toEqual(['Kind', 'search', 'retrieval', 'answers']);
    }
  });

  it('shows a bar of the share used, used / limit, the percent and the remaining units; the bar grows with the width', () => {
    const at80 = row(table(facts(), 80), 'search');
    expect(at80).toMatch(/│ 812 \/ 1000 +│ +81% │ +188 │$/);
    const bar80 = /(█+)(░+)/.exec(at80)!;
    const bar120 = /(█+)(░+)/.exec(row(table(facts(), 120), 'search'))!;
    // 81.2 % of the bar, rounded down, whatever its length.
    for (const bar of [bar80, bar120]) {
      const cells = bar[1]!.length + bar[2]!.length;
      expect(bar[1]!.length).toBe(Math.floor(0.812 * cells));
    }
    expect(bar120[0]!.length).toBeGreaterThan(bar80[0]!.length);
    expect(row(table(facts(), 80), 'retrieval')).toMatch(/│ +3 \/ 500 +│ +0% │ +497 │$/);
  });

  it('an unlimited quota: `unlimited` instead of a bar and as the remainder, no percent', () => {
    const answers = row(table(facts()), 'answers');
    expect(answers).toMatch(/^│ answers +│ unlimited +│ +12 +│ +│ unlimited │$/);
    expect(answers).not.toMatch(/[█░]/);
  });

  it.each([
    [79, 100, '79%', 'none'],
    [80, 100, '80%', 'yellow'],
    [99, 100, '99%', 'yellow'],
    [100, 100, '100%', 'red'],
    [120, 100, '120%', 'red'],
    [799, 1000, '79%', 'none'],
    [800, 1000, '80%', 'yellow'],
    [0, 0, '100%', 'red'],
  ] as const)('%i of %i: %s, painted %s', (used, limit, percent, paint) => {
    const out = table(facts(sandboxBody({ search: { used, limit } })), 80, true);
    const line = out.split('\n').find((l) => plain(l).startsWith('│ search '))!;
    expect(plain(line)).toContain(` ${percent} │`);
    const painted = (code: string): boolean => line.includes(`${code}${percent}`);
    expect({ yellow: painted(YELLOW), red: painted(RED) }).toEqual({ yellow: paint === 'yellow', red: paint === 'red' });
    // The bar is full only from 100 %.
    expect(/░/.test(plain(line))).toBe(used < limit);
  });

  it('the same thresholds without colour: nothing painted', () => {
    const out = table(facts(sandboxBody({ search: { used: 100, limit: 100 } })), 80, false);
    expect(out).not.toMatch(ANSI);
  });

  it('shows values the server did not report as –, and never invents a bar or a percent for them', () => {
    const out = table(facts(sandboxBody({ search: { limit: 100 }, retrieval: { used: 12 }, answers: {} })));
    expect(row(out, 'search')).toMatch(/^│ search +│ – +│ +– \/ 100 +│ +– │ +– │$/);
    expect(row(out, 'retrieval')).toMatch(/^│ retrieval +│ – +│ 12 \/ – +│ +– │ +– │$/);
    expect(row(out, 'answers')).toMatch(/^│ answers +│ – +│ +– \/ – +│ +– │ +– │$/);
  });

  it('renders a live-service-like body: kinds at the top level, aliases, quota for limit, remaining computed', () => {
    const out = table(
      readUsage({
        searches: { used: 45, quota: 50 },
        documents: { used: 7, quota: 100 },
        exports: { used: 1, quota: 2 },
        period: { start: '2026-11-01', end: '2026-12-01' },
        overages: { enabled: true, monthly_limit: 200, used: 4 },
      }),
    );
    expect(row(out, 'search')).toMatch(/│ 45 \/ 50 +│ +90% │ +5 │$/);
    expect(row(out, 'retrieval')).toMatch(/│ +7 \/ 100 +│ +7% │ +93 │$/);
    expect(row(out, 'exports')).toMatch(/│ +1 \/ 2 +│ +50% │ +1 │$/);
    expect(plain(out)).toContain('Period   2026-11-01 – 2026-11-30 (UTC), 13 days left');
    expect(plain(out)).toContain('Overage  allowed up to 200 units a month, 4 used');
    expect(plain(out)).not.toContain('Plan');
  });

  it('below the table: the period with its days left, the overage and the plan', () => {
    expect(lines(table(facts())).slice(-3)).toEqual(['Period   2026-11-01 – 2026-11-30 (UTC), 13 days left', 'Overage  not allowed', 'Plan     sandbox']);
  });

  it('paints the overage line against its monthly limit', () => {
    const body = { ...sandboxBody(), overage: { allowed: true, limit: 100, used: 85 } };
    const overage = table(facts(body), 80, true).split('\n').find((l) => plain(l).startsWith('Overage'))!;
    expect(overage).toContain(`${YELLOW}allowed up to 100 units a month, 85 used`);
  });

  it('no kinds reported: one line saying so, then what is known', () => {
    expect(lines(table(readUsage({})))).toEqual(['The server reported no quotas.', 'Period   –', 'Overage  –']);
  });

  it('a long kind name from the server is trimmed and the table still fits', () => {
    const out = table(facts(sandboxBody({ 'a-very-long-quota-kind-name-that-a-server-might-send': { used: 1, limit: 10 } })), 80);
    expect(widest(out)).toBeLessThanOrEqual(80);
    expect(plain(out)).toContain('│ a-very-long-quota-k… │');
  });

  it('text from the server cannot drive the terminal: kind, plan and month are sanitized, in the table and in TSV', () => {
    const hostile = '\u001b[2J\u001b]0;pwned\u0007\u009b31m\u202e\r\nx';
    const body = {
      period: { month: `2026-11${hostile}` },
      plan: `pro${hostile}`,
      quotas: { [`exports${hostile}`]: { used: 1, limit: 2 } },
      overage: {},
    };
    const out = table(readUsage(body), 120, false);
    expect(hasControlSequences(out), JSON.stringify(out)).toBe(false);
    expect(out).toContain('pro x');
    const tsv = renderUsageTsv(readUsage(body), NOW);
    expect(hasControlSequences(tsv), JSON.stringify(tsv)).toBe(false);
    expect(tsv.split('\n').filter(Boolean).map((l) => l.split('\t').length)).toEqual([6, 5, 4, 2]);
  });
});

describe('the period: days left from an injected clock', () => {
  const november = { start: START, end: END, month: '2026-11' };
  it.each([
    ['the first instant of the period', START, 30, '2026-11-01 – 2026-11-30 (UTC), 30 days left'],
    ['a minute into it', '2026-11-01T00:01:00Z', 30, '2026-11-01 – 2026-11-30 (UTC), 30 days left'],
    ['a day before its end, exactly', '2026-11-30T00:00:00Z', 1, '2026-11-01 – 2026-11-30 (UTC), 1 day left'],
    ['its last millisecond', '2026-11-30T23:59:59.999Z', 1, '2026-11-01 – 2026-11-30 (UTC), 1 day left'],
    ['its (exclusive) end', END, 0, '2026-11-01 – 2026-11-30 (UTC), ended'],
    ['a day after its end', '2026-12-02T00:00:00Z', 0, '2026-11-01 – 2026-11-30 (UTC), ended'],
  ])('at %s: %i', (_when, now, left, text) => {
    expect(daysLeft(november, Date.parse(now))).toBe(left);
    expect(periodText(november, Date.parse(now))).toBe(text);
  });

  it('from the month alone: its calendar month in UTC (February 2028 has 29 days)', () => {
    expect(periodText({ month: '2028-02' }, Date.parse('2028-02-01T00:00:00Z'))).toBe('2028-02-01 – 2028-02-29 (UTC), 29 days left');
    expect(periodText({ month: '2026-12' }, Date.parse('2026-12-31T12:00:00Z'))).toBe('2026-12-01 – 2026-12-31 (UTC), 1 day left');
  });

  it('dates without a zone are UTC; what cannot be read is said as little as is known', () => {
    expect(periodText({ start: '2026-11-01 00:00:00', end: '2026-12-01 00:00:00' }, NOW)).toBe('2026-11-01 – 2026-11-30 (UTC), 13 days left');
    expect(periodText({ end: END }, NOW)).toBe('until 2026-11-30 (UTC), 13 days left');
    expect(periodText({ start: START }, NOW)).toBe('from 2026-11-01 (UTC)');
    expect(periodText({ month: 'November' }, NOW)).toBe('November');
    expect(periodText({ start: 'soon', end: 'later' }, NOW)).toBe('–');
    expect(daysLeft({}, NOW)).toBeUndefined();
  });
});

describe('overageText', () => {
  it.each([
    [{ allowed: false, limit: 0, used: 0 }, 'not allowed'],
    [{ allowed: true, limit: 500, used: 20 }, 'allowed up to 500 units a month, 20 used'],
    [{ allowed: true, limit: 1, used: 0 }, 'allowed up to 1 unit a month, 0 used'],
    [{ allowed: true, used: 3 }, 'allowed, 3 used'],
    [{ allowed: true }, 'allowed, – used'],
    [{}, '–'],
  ])('%j: %s', (overage, text) => {
    expect(overageText(overage)).toBe(text);
  });
});

describe('renderUsageTsv', () => {
  it('one line per kind (kind, used, limit, remaining, percent, overage_used), then period, overage and plan lines', () => {
    expect(renderUsageTsv(facts(), NOW)).toBe(
      [
        'search\t812\t1000\t188\t81\t0',
        'retrieval\t3\t500\t497\t0\t0',
        'answers\t12\tunlimited\tunlimited\t\t0',
        `period\t${START}\t${END}\t2026-11\t13`,
        'overage\tfalse\t0\t0',
        'plan\tsandbox',
        '',
      ].join('\n'),
    );
  });

  it('unknown values are empty fields; every line keeps its number of fields', () => {
    expect(renderUsageTsv(readUsage({ quotas: { search: { limit: 5 }, documents: { used: 2 } } }), NOW)).toBe(
      ['search\t\t5\t\t\t', 'retrieval\t2\t\t\t\t', 'period\t\t\t\t', 'overage\t\t\t', 'plan\t', ''].join('\n'),
    );
  });
});
