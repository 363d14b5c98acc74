/**
 * Tolerant reading of the key and account bodies (`src/api/keys.ts`, `src/api/account.ts`): the sandbox's shapes, and
 * the names a live service might use instead (the spec does not show them); finding the key in use among the records
 * by id, else by a prefix only when exactly one record has it.
 */
import { describe, expect, it } from 'vitest';
import { highestUnitPrice, readAccount } from '../../src/api/account.js';
import { findKeyRecord, readCreatedKey, readKeyList, readKeyRecord } from '../../src/api/keys.js';

const SANDBOX_RECORD = {
  key_id: 'key_1',
  name: 'ci',
  prefix: 'sbx_live_Ab3d',
  plan: 'sandbox',
  status: 'active',
  created_at: '2026-11-01T00:00:00.000Z',
  last_used_at: null,
  revoked_at: null,
};

describe('readKeyRecord and readKeyList', () => {
  it('reads the sandbox\'s record; a null time is absent', () => {
    expect(readKeyRecord(SANDBOX_RECORD)).toEqual({
      keyId: 'key_1',
      name: 'ci',
      prefix: 'sbx_live_Ab3d',
      plan: 'sandbox',
      status: 'active',
      createdAt: '2026-11-01T00:00:00.000Z',
    });
  });

  it('reads other names: id, created, last_used, a plan object, a status implied by revoked_at or active', () => {
    expect(readKeyRecord({ id: 'k', created: 'c', last_used: 'u', plan: { name: 'pro' }, revoked_at: 'r' })).toEqual({
      keyId: 'k',
      plan: 'pro',
      status: 'revoked',
      createdAt: 'c',
      lastUsedAt: 'u',
      revokedAt: 'r',
    });
    expect(readKeyRecord({ id: 'k', active: true })?.status).toBe('active');
    expect(readKeyRecord({ name: 'no id' })).toBeUndefined();
  });

  it('lists from keys, data or an array body, skipping entries without an id', () => {
    expect(readKeyList({ keys: [SANDBOX_RECORD, { name: 'x' }] }).map((k) => k.keyId)).toEqual(['key_1']);
    expect(readKeyList({ data: [{ id: 'a' }] }).map((k) => k.keyId)).toEqual(['a']);
    expect(readKeyList([{ id: 'b' }]).map((k) => k.keyId)).toEqual(['b']);
    expect(readKeyList('nonsense')).toEqual([]);
  });
});

describe('readCreatedKey', () => {
  it('reads the record and the full key, flat or nested', () => {
    expect(readCreatedKey({ ...SANDBOX_RECORD, api_key: 'sbx_live_Ab3dSECRET' })).toMatchObject({ apiKey: 'sbx_live_Ab3dSECRET', record: { keyId: 'key_1' } });
    expect(readCreatedKey({ key: { id: 'k2', prefix: 'p' }, secret: 's' })).toMatchObject({ apiKey: 's', record: { keyId: 'k2' } });
    expect(readCreatedKey({ key: 'the-key', id: 'k3' })).toMatchObject({ apiKey: 'the-key', record: { keyId: 'k3' } });
  });

  it('is undefined without a key value or without an id, or with a key value no key has (control characters, spaces)', () => {
    expect(readCreatedKey(SANDBOX_RECORD)).toBeUndefined();
    expect(readCreatedKey({ ...SANDBOX_RECORD, api_key: 'sbx_live_\u001b[2Jwiped' })).toBeUndefined();
    expect(readCreatedKey({ ...SANDBOX_RECORD, api_key: 'two words' })).toBeUndefined();
    expect(readCreatedKey({ api_key: 'x' })).toBeUndefined();
  });
});

describe('findKeyRecord', () => {
  const records = [
    { keyId: 'a', prefix: 'sbx_live_AAAA' },
    { keyId: 'b', prefix: 'sbx_live_BBBB' },
    { keyId: 'c', prefix: 'sbx_live_BBBB' },
  ];
  it('prefers the known id, else the one record whose prefix the key begins with', () => {
    expect(findKeyRecord(records, 'sbx_live_BBBBxyz', 'c')?.keyId).toBe('c');
    expect(findKeyRecord(records, 'sbx_live_AAAAxyz')?.keyId).toBe('a');
    expect(findKeyRecord(records, 'sbx_live_AAAAxyz', 'gone')?.keyId).toBe('a');
  });
  it('never guesses: an ambiguous or missing prefix names none', () => {
    expect(findKeyRecord(records, 'sbx_live_BBBBxyz')).toBeUndefined();
    expect(findKeyRecord(records, 'sbx_live_CCCCxyz')).toBeUndefined();
    expect(findKeyRecord([{ keyId: 'x' }], 'anything')).toBeUndefined();
    expect(findKeyRecord(records, undefined)).toBeUndefined();
  });
});

describe('readAccount', () => {
  it('reads the sandbox\'s account', () => {
    const facts = readAccount({
      account_id: 'acct_sandbox',
      plan: 'sandbox',
      overage: { allowed: true, monthly_limit: 500 },
      unit_prices: { currency: 'EUR', search: 0.02, retrieval: 0.01, answers: 0.25 },
      created_at: '2026-11-01T00:00:00.000Z',
    });
    expect(facts).toEqual({
      accountId: 'acct_sandbox',
      plan: 'sandbox',
      overage: { allowed: true, monthlyLimit: 500 },
      prices: { currency: 'EUR', perUnit: { search: 0.02, retrieval: 0.01, answers: 0.25 } },
      createdAt: '2026-11-01T00:00:00.000Z',
    });
    expect(highestUnitPrice(facts)).toBe(0.25);
  });

  it('reads other names and ignores what is not a price', () => {
    expect(readAccount({ id: 'a', plan: { id: 'pro' }, overages: { enabled: false, limit: 0 }, prices: { currency: 'BGN', search: -1, answers: '3' } })).toEqual({
      accountId: 'a',
      plan: 'pro',
      overage: { allowed: false, monthlyLimit: 0 },
      prices: { currency: 'BGN', perUnit: {} },
    });
    expect(highestUnitPrice(readAccount(null))).toBeUndefined();
  });
});
