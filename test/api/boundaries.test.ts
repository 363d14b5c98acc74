/**
 * What the API client layer must not do, checked on its source: print, touch `process`, know exit codes or CLI
 * errors, or use undici's retry machinery (its retries would not run on the injected clock and could replay a POST).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../src/api');
const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
/** Source without comments, so that doc comments may name what the code must not do. */
const code = (file: string): string =>
  readFileSync(path.join(root, file), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');

describe('src/api boundaries', () => {
  it('has the files of the client layer', () => {
    expect(files).toEqual(expect.arrayContaining(['client.ts', 'transport.ts', 'errors.ts', 'shapes.ts', 'polling.ts']));
  });

  it.each(files)('%s never prints, never touches process, knows no exit codes and no undici retries', (file) => {
    const source = code(file);
    expect(source).not.toMatch(/\bconsole\./);
    expect(source).not.toMatch(/\bprocess\./);
    expect(source).not.toMatch(/exit-?codes?|exitCode/i);
    expect(source).not.toMatch(/\.\.\/(commands|render|config|errors|io|state|sandbox)\//);
    expect(source).not.toMatch(/RetryAgent|RetryHandler|interceptors\.retry/);
  });
});
