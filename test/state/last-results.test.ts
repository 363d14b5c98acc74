/**
 * The last search's results (`src/state/last-results.ts`): stored as `last-results.json` in the state directory (not
 * the config directory), mode 0600, byte for byte, replaced whole.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lastResultsFile, loadLastResults, saveLastResults, type LastResults } from '../../src/state/last-results.js';

const mode = (file: string): number => fs.statSync(file).mode & 0o777;

let root: string;
let stateDir: string;
let configDir: string;
let env: NodeJS.ProcessEnv;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'pravo-last-results-test-'));
  stateDir = path.join(root, 'state', 'pravo');
  configDir = path.join(root, 'config', 'pravo');
  env = { PRAVO_STATE_DIR: stateDir, PRAVO_CONFIG_DIR: configDir };
});

afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

const last: LastResults = {
  saved_at: '2025-03-01T10:00:00.000Z',
  query: 'неустойка',
  profile: 'default',
  sandbox: false,
  results: [
    { rank: 1, document_id: 'act-1/2?x=1', collection: 'c/x?y=1&z', title: 'ТЕСТОВИ ДАННИ: Закон за примера' },
    { rank: 2, document_id: ' spaced id ', collection: '%2F..%00\\u0000 Ω\t', title: 'ТЕСТОВИ ДАННИ: Наредба' },
  ],
};

describe('saveLastResults / loadLastResults', () => {
  it('is undefined before any search was stored', async () => {
    expect(await loadLastResults(env)).toBeUndefined();
  });

  it('round-trips, keeping document_id and collection byte for byte', async () => {
    await saveLastResults(env, last);
    const loaded = await loadLastResults(env);
    expect(loaded).toEqual(last);
    expect(loaded?.results[0]?.collection).toBe('c/x?y=1&z');
    expect(loaded?.results[1]?.document_id).toBe(' spaced id ');
    expect(loaded?.results[1]?.collection).toBe('%2F..%00\\u0000 Ω\t');
  });

  it('keeps last-results.json in the state directory, not the config directory', async () => {
    await saveLastResults(env, last);
    expect(lastResultsFile(env)).toBe(path.join(stateDir, 'last-results.json'));
    expect(fs.existsSync(path.join(stateDir, 'last-results.json'))).toBe(true);
    expect(fs.existsSync(configDir)).toBe(false);
  });

  it('creates the missing state directory 0700 and writes the file 0600, leaving no temporary file', async () => {
    await saveLastResults(env, last);
    expect(mode(stateDir)).toBe(0o700);
    expect(mode(path.join(stateDir, 'last-results.json'))).toBe(0o600);
    expect(fs.readdirSync(stateDir)).toEqual(['last-results.json']);
  });

  it('replaces the previous results instead of merging', async () => {
    await saveLastResults(env, last);
    const next: LastResults = { ...last, query: 'друго', results: [last.results[1]!] };
    await saveLastResults(env, next);
    expect(await loadLastResults(env)).toEqual(next);
  });

  it('no longer reads a file left beside config.json', async () => {
    fs.mkdirSync(configDir, { recursive: true });
    fs.writeFileSync(path.join(configDir, 'last-results.json'), JSON.stringify(last));
    expect(await loadLastResults(env)).toBeUndefined();
  });

  it.each([
    ['not JSON', '{"results": ['],
    ['JSON without a results array', '{"query":"x","results":{}}'],
    ['JSON null', 'null'],
  ])('is undefined for a file that is %s, and the next save overwrites it', async (_what, content) => {
    fs.mkdirSync(stateDir, { recursive: true });
    fs.writeFileSync(path.join(stateDir, 'last-results.json'), content);
    expect(await loadLastResults(env)).toBeUndefined();
    await saveLastResults(env, last);
    expect(await loadLastResults(env)).toEqual(last);
  });
});
