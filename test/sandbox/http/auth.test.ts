/**
 * Keeping keys out of URLs and logs (`src/sandbox/http/auth.ts`): `redactKeys` finds what the old regular expression
 * found, also percent-encoded, in time linear in its input (counted, not timed); `rejectKeyInUrl` refuses a key
 * anywhere in a request target, encoded or not, and never throws on malformed escapes.
 */
import { describe, expect, it } from 'vitest';
import { redactKeys, rejectKeyInUrl, type ScanWork } from '../../../src/sandbox/http/auth.js';
import { HttpError } from '../../../src/sandbox/http/errors.js';

/** The expression redaction used to run (quadratic on long alphanumeric runs); the reference for plain text. */
const OLD_KEY_PATTERN = /[A-Za-z0-9]+_live_[A-Za-z0-9_-]+/g;

/** A small deterministic generator (mulberry32), so that a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SECRET = 'Q7dZk2LmX9wPq4RtYb8NcV1sHj6GfEa3';
const KEY = `sbx_live_${SECRET}`;

describe('redactKeys', () => {
  it('redacts exactly what the old expression did, on random plain text rich in near-keys', () => {
    const pieces = ['a', 'Z', '7', '_', '-', '_live_', 'live', '!', ' ', '/', 'sbx', '_live', 'ж'];
    const next = random(20251122);
    for (let i = 0; i < 3000; i++) {
      let text = '';
      const length = Math.floor(next() * 14);
      for (let j = 0; j < length; j++) text += pieces[Math.floor(next() * pieces.length)];
      expect(redactKeys(text), JSON.stringify(text)).toBe(text.replace(OLD_KEY_PATTERN, '[redacted]'));
    }
  });

  it('redacts a key in text, keeping what surrounds it', () => {
    expect(redactKeys(`failed for ${KEY}: boom`)).toBe('failed for [redacted]: boom');
    expect(redactKeys(`/v1/x/${KEY}/y?q=${KEY}&z=1`)).toBe('/v1/x/[redacted]/y?q=[redacted]&z=1');
  });

  it.each([
    ['%5F for _', `sbx%5Flive%5F${SECRET}`],
    ['lower-case escapes', `sbx%5flive%5f${SECRET}`],
    ['every character escaped', [...KEY].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).join('')],
    ['escapes encoded twice', `sbx%255Flive%255F${SECRET}`],
    ['escapes encoded three times', `sbx%25255Flive%25255F${SECRET}`],
  ])('redacts a percent-encoded key (%s)', (_name, encoded) => {
    const redacted = redactKeys(`/v1/search/${encoded}?a=1`);
    expect(redacted).toBe('/v1/search/[redacted]?a=1');
  });

  it('leaves malformed escapes and non-ASCII text as they are', () => {
    for (const text of ['%', '%%', '%E0%A4%A', '%ZZ', '%_live_x', '100%', 'жк%D0%B6_live_', '%2', '%25', '%252']) {
      expect(redactKeys(text)).toBe(text);
    }
  });

  const SIZE = 64 * 1024;
  it.each([
    ['one long alphanumeric run', 'a'.repeat(SIZE)],
    ['separators without prefixes', '_live_-'.repeat(SIZE / 7)],
    ['prefixes without secrets', 'a_live_!'.repeat(SIZE / 8)],
    ['overlapping separators', '_live'.repeat(SIZE / 5)],
    ['alphanumeric runs ending in a bare separator', `${'a'.repeat(1000)}_live_!`.repeat(SIZE / 1007)],
    ['one long key', `a_live_${'b'.repeat(SIZE)}`],
    ['encoded alphanumerics', '%61'.repeat(SIZE / 3)],
    ['broken escapes', '%2%25%'.repeat(SIZE / 6)],
  ])('visits at most a few characters per character of input: %s (64 KiB)', (_name, text) => {
    const work: ScanWork = { steps: 0 };
    redactKeys(text, work);
    expect(work.steps).toBeGreaterThanOrEqual(text.length);
    expect(work.steps).toBeLessThanOrEqual(4 * text.length);
  });

  it('redacts adversarial inputs like the old expression did (on small copies, where it is still fast)', () => {
    for (const text of ['a'.repeat(2000), '_live_-'.repeat(300), 'a_live_!'.repeat(250), '_live'.repeat(400), 'a_live_'.repeat(300)]) {
      expect(redactKeys(text)).toBe(text.replace(OLD_KEY_PATTERN, '[redacted]'));
    }
  });
});

describe('rejectKeyInUrl', () => {
  const rejects = (target: string): boolean => {
    try {
      rejectKeyInUrl(target);
      return false;
    } catch (error) {
      expect(error).toBeInstanceOf(HttpError);
      expect(error).toMatchObject({ status: 400, code: 'invalid_request' });
      expect((error as HttpError).message).not.toContain(SECRET.slice(0, 8));
      return true;
    }
  };

  it.each([
    ['a key as a query value', `/v1/search?x=${KEY}`],
    ['a percent-encoded key as a query value', `/v1/search?x=sbx%5Flive%5F${SECRET}`],
    ['a key as a query name', `/v1/search?${KEY}=1`],
    ['a key in the path', `/v1/answers/${KEY}`],
    ['a percent-encoded key in the path', `/v1/search/sbx%5Flive%5F${SECRET}`],
    ['a doubly encoded key in the path', `/v1/search/sbx%255Flive%255F${SECRET}`],
    ['a parameter named api_key', '/v1/search?api_key=anything'],
    ['a parameter named KEY, without a value', '/v1/search?a=1&KEY'],
    ['a parameter named access_token, encoded', '/v1/search?access%5Ftoken=x'],
    ['a parameter named token, encoded twice', '/v1/search?%2574oken=x'],
  ])('refuses %s', (_name, target) => {
    expect(rejects(target)).toBe(true);
  });

  it.each([
    ['a plain path', '/v1/catalog/source-types'],
    ['ordinary parameters', '/v1/documents?document_id=x&collection=y&monkey=1&tokens=2'],
    ['malformed escapes', '/v1/search/%E0%A4%A?x=%ZZ&y=%&%=%'],
    ['a word with _live_ but no prefix', '/v1/x/_live_abc'],
  ])('accepts %s', (_name, target) => {
    expect(rejects(target)).toBe(false);
  });
});
