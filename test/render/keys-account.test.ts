/**
 * The renderers of `pravo keys list` and `pravo account` (`src/render/keys.ts`, `src/render/account.ts`): widths, the
 * marker of the key in use, TSV shapes, and foreign text sanitized.
 */
import { describe, expect, it } from 'vitest';
import { describeKey, renderKeysTable, renderKeysTsv } from '../../src/render/keys.js';
import { formatPrice, renderAccountText, renderAccountTsv } from '../../src/render/account.js';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const keys = [
  { keyId: 'key_1', name: 'ci-deploy', prefix: 'sbx_live_Ab3d', plan: 'sandbox', status: 'active', createdAt: '2026-11-01T09:00:00.000Z', lastUsedAt: '2026-11-22T11:55:00.000Z' },
  { keyId: 'key_2', name: 'old laptop \u001b[31mred\u001b[0m', prefix: 'sbx_live_Zz99', plan: 'sandbox', status: 'revoked', createdAt: '2026-10-01T09:00:00.000Z', revokedAt: '2026-11-02T08:00:00.000Z' },
];
const widest = (text: string): number => Math.max(...text.split('\n').map((l) => [...l].length));

describe('renderKeysTable', () => {
  it('fits 80 columns, marks the key in use, dates its use, and sanitizes names', () => {
    const text = renderKeysTable({ keys, currentKeyId: 'key_1', currentSource: 'profile "default"' }, { width: 80, color: false, now: NOW });
    expect(widest(text)).toBeLessThanOrEqual(80);
    expect(text).toContain('2 keys: 1 active, 1 revoked. * marks the key of profile "default".');
    // At 80 columns the prefix goes under the key id; the creation date stays.
    expect(text).toMatch(/│ \* +│ key_1 +│ ci-deploy +│ active +│ 2026-11-01 +│ 5m ago/);
    expect(text).toMatch(/│ +│ sbx_live_Ab3d +│ +│ +│ +│ +│/);
    expect(text).toMatch(/│ +│ key_2 .*│ revoked +│ 2026-10-01 +│ never +│/);
    expect(text).toMatch(/│ +│ sbx_live_Zz99 +│ +│ 2026-11-02 +│/);
    expect(text).not.toContain('\u001b');
    const wide = renderKeysTable({ keys, currentKeyId: 'key_1' }, { width: 120, color: false, now: NOW });
    expect(widest(wide)).toBeLessThanOrEqual(120);
    expect(wide).toMatch(/│ \* +│ key_1 +│ ci-deploy +│ sbx_live_Ab3d +│ active +│ 2026-11-01 +│ 5m ago/);
  });

  it('fits 80 columns with the sandbox\'s 16-character ids, names wrapping rather than cut', () => {
    const real = [
      { keyId: 'key_90228770e174', name: 'sandbox serve 2026-11-22T09:21:06.089Z', prefix: 'sbx_live_q8Jd', status: 'active' },
      { keyId: 'key_bb771b2140ef', name: 'reporting', prefix: 'sbx_live_lJUr', status: 'active' },
      { keyId: 'key_a40d8ce62a6c', name: 'old', prefix: 'sbx_live_cm69', status: 'revoked', revokedAt: '2026-11-22T09:22:00.000Z', lastUsedAt: '2026-11-22T09:00:00.000Z' },
    ];
    const text = renderKeysTable({ keys: real, currentKeyId: 'key_90228770e174' }, { width: 80, color: false, now: NOW });
    expect(widest(text)).toBeLessThanOrEqual(80);
    expect(text).toMatch(/│ key_bb771b2140ef │ reporting +│/);
  });

  it('says when the key in use is not among them, and how to create the first key', () => {
    expect(renderKeysTable({ keys, currentSource: 'PRAVO_API_KEY' }, { width: 100, color: false, now: NOW })).toContain('The key of PRAVO_API_KEY is not among them.');
    expect(renderKeysTable({ keys: [] }, { width: 100, color: false, now: NOW })).toContain('pravo keys create --name NAME');
  });
});

describe('renderKeysTsv and describeKey', () => {
  it('one line per key: the documented nine fields, current true for the key in use', () => {
    const lines = renderKeysTsv({ keys, currentKeyId: 'key_2' }).trimEnd().split('\n');
    expect(lines[0]!.split('\t')).toEqual(['key_1', 'ci-deploy', 'sbx_live_Ab3d', 'sandbox', 'active', '2026-11-01T09:00:00.000Z', '2026-11-22T11:55:00.000Z', '', 'false']);
    expect(lines[1]!.split('\t').at(-1)).toBe('true');
  });
  it('names a key in one line', () => {
    expect(describeKey(keys[0]!)).toBe('key_1 "ci-deploy" (sbx_live_Ab3d…, active, created 2026-11-01)');
    expect(describeKey({ keyId: 'k' })).toBe('k');
  });
});

describe('account', () => {
  const facts = {
    accountId: 'acct_sandbox',
    plan: 'sandbox',
    overage: { allowed: true, monthlyLimit: 500 },
    prices: { currency: 'EUR', perUnit: { search: 0.02, answers: 0.25 } },
    createdAt: '2026-11-01T00:00:00.000Z',
  };
  it('text: the plan, the overage in words, the prices per unit', () => {
    const text = renderAccountText(facts);
    expect(text).toContain('Overage      allowed, up to 500 units a month beyond the quotas (all kinds together)');
    expect(text).toContain('Unit prices  search €0.02, answers €0.25 per unit beyond the quota (set by the server)');
  });
  it('TSV: the documented lines', () => {
    expect(renderAccountTsv(facts)).toBe(
      'account\tacct_sandbox\nplan\tsandbox\noverage\ttrue\t500\nunit_price\tsearch\t0.02\tEUR\nunit_price\tanswers\t0.25\tEUR\ncreated\t2026-11-01T00:00:00.000Z\n',
    );
  });
  it('prices: a known currency as a symbol, an unknown one written after the amount', () => {
    expect(formatPrice(0.005, 'EUR')).toBe('€0.005');
    expect(formatPrice(2, 'XQZ')).toMatch(/^(XQZ\s?2\.00|2\.00 XQZ)$/);
    expect(formatPrice(0.1, undefined)).toBe('0.10');
  });
});
