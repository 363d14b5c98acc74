/**
 * Tolerant reading of the key endpoints' bodies (spec: Key and account endpoints: "Request and response bodies of these
 * five endpoints: not shown"; API key record: "a name, a prefix, a plan, a status and time data; never the secret").
 * The sandbox's names are those of {@link ApiKeyRecord} and {@link CreatedApiKey} in `types.ts`; this module reads
 * those first and accepts what a live service might send instead, so that `pravo keys` works against either. Pure
 * functions; never throws for an object. Strings come back raw (unsanitized): whoever prints them sanitizes them.
 *
 * | fact | read from |
 * |---|---|
 * | `keyId` | `key_id`, else `id` |
 * | `name`, `prefix`, `plan` | the same names (`plan` may be an object with `name` or `id`) |
 * | `status` | `status` as sent; else `revoked` when `revoked_at` is set or `revoked` is true, else `active` when `active` is true |
 * | `createdAt`, `lastUsedAt`, `revokedAt` | `created_at`/`created`, `last_used_at`/`last_used`, `revoked_at` |
 * | list | `keys`, else `data`, else the body itself when it is an array |
 * | the secret of a new key | `api_key`, else `secret`, else `key` (a string of printable ASCII without spaces) |
 */
import type { ApiKeyRecord, CreatedApiKey } from '../contract/types.js';

/** An API key record as read (see the module's table); every field but `keyId` may be missing. */
export interface KeyFacts {
  keyId: string;
  name?: string;
  prefix?: string;
  plan?: string;
  /** `active`, `revoked`, or another status as the server sent it. */
  status?: string;
  /** ISO 8601 as sent. */
  createdAt?: string;
  lastUsedAt?: string;
  revokedAt?: string;
}

type Fields = Record<string, unknown>;

const isObject = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const firstText = (fields: Fields, ...keys: string[]): string | undefined => {
  for (const key of keys) {
    const value = text(fields[key]);
    if (value !== undefined) return value;
  }
  return undefined;
};

/** A key record read from `value` (an {@link ApiKeyRecord} or a live service's record); undefined without an id. */
export function readKeyRecord(value: unknown): KeyFacts | undefined {
  if (!isObject(value)) return undefined;
  const keyId = firstText(value, 'key_id', 'id');
  if (keyId === undefined) return undefined;
  const plan = isObject(value.plan) ? firstText(value.plan, 'name', 'id') : text(value.plan);
  const revokedAt = text(value.revoked_at);
  const status =
    text(value.status) ??
    (revokedAt !== undefined || value.revoked === true ? 'revoked' : value.active === true ? 'active' : undefined);
  const facts: KeyFacts = { keyId };
  const set = <K extends keyof KeyFacts>(key: K, fact: KeyFacts[K] | undefined): void => {
    if (fact !== undefined) facts[key] = fact;
  };
  set('name', text(value.name));
  set('prefix', text(value.prefix));
  set('plan', plan);
  set('status', status);
  set('createdAt', firstText(value, 'created_at', 'created'));
  set('lastUsedAt', firstText(value, 'last_used_at', 'last_used'));
  set('revokedAt', revokedAt);
  return facts;
}

/**
 * The records of `GET /v1/keys` ({@link ApiKeyList}: `keys`; else `data`; else an array body), in the order sent;
 * entries without an id are skipped.
 */
export function readKeyList(body: unknown): KeyFacts[] {
  const list = Array.isArray(body) ? body : isObject(body) ? (Array.isArray(body.keys) ? body.keys : Array.isArray(body.data) ? body.data : []) : [];
  return list.map(readKeyRecord).filter((record): record is KeyFacts => record !== undefined);
}

/**
 * The response of `POST /v1/keys` ({@link CreatedApiKey}): the record (also when nested under `key` or `record` as an
 * object) and the full key (`api_key`, else a string `key`, else `secret`); undefined when either is missing.
 */
export function readCreatedKey(body: unknown): { record: KeyFacts; apiKey: string } | undefined {
  if (!isObject(body)) return undefined;
  const value = firstText(body, 'api_key', 'secret') ?? text(body.key);
  // A key is printable ASCII without spaces; anything else is not a key pravo would print or store.
  const apiKey = value !== undefined && /^[\x21-\x7e]+$/.test(value) ? value : undefined;
  const nested = isObject(body.key) ? body.key : isObject(body.record) ? body.record : undefined;
  const record = readKeyRecord(body) ?? (nested ? readKeyRecord(nested) : undefined);
  return apiKey !== undefined && record !== undefined ? { record, apiKey } : undefined;
}

/** Whether `apiKey` is the key a record describes, by its non-secret `prefix` (the key begins with it). */
export function keyHasPrefix(apiKey: string, record: KeyFacts): boolean {
  return record.prefix !== undefined && record.prefix.length >= 4 && apiKey.startsWith(record.prefix);
}

/**
 * The record of `apiKey` among `records`: the one with `knownKeyId` when given and present; else the only record
 * whose prefix `apiKey` begins with (an ambiguous prefix names none: never a guess).
 */
export function findKeyRecord(records: readonly KeyFacts[], apiKey: string | undefined, knownKeyId?: string): KeyFacts | undefined {
  if (knownKeyId !== undefined) {
    const known = records.find((record) => record.keyId === knownKeyId);
    if (known) return known;
  }
  if (apiKey === undefined) return undefined;
  const matching = records.filter((record) => keyHasPrefix(apiKey, record));
  return matching.length === 1 ? matching[0] : undefined;
}

export type { ApiKeyRecord, CreatedApiKey };
