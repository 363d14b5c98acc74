/**
 * Start-up: what the built CLI loads for commands answered from local state. `config show` reads the config file
 * without `conf`; a catalog or a document served from the response cache loads neither the HTTP client nor `conf`, nor
 * the sandbox (node:sqlite, the corpus reader), nor the atomic writer; and none of them changes the config file. The
 * service behind the profile is a closed port: nothing may be sent. (The times are in `npm run bench`, not here.)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheKey } from '../../src/state/cache-key.js';
import { modulesLoadedBy, packagesAmong } from '../helpers/loaded-modules.js';

const BASE_URL = 'http://127.0.0.1:9';
let tmp: string;
let env: NodeJS.ProcessEnv;
let configFile: string;

function cache(apiPath: string, query: Record<string, string> | undefined, body: unknown): void {
  const key = cacheKey({ baseUrl: BASE_URL, path: apiPath, ...(query ? { query } : {}) });
  const entry = { key, stored_at: Date.now(), status: 200, raw: JSON.stringify(body) };
  fs.writeFileSync(path.join(tmp, 'cache', 'responses', `${key}.json`), JSON.stringify(entry));
}

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pravo-startup-'));
  for (const dir of ['config', 'state', 'cache/responses']) fs.mkdirSync(path.join(tmp, dir), { recursive: true });
  configFile = path.join(tmp, 'config', 'config.json');
  fs.writeFileSync(configFile, JSON.stringify({ profiles: { default: { base_url: BASE_URL, api_key: 'sbx_live_EXAMPLEexampleEXAMPLEexample12' } } }), { mode: 0o600 });
  env = { PATH: process.env.PATH, PRAVO_CONFIG_DIR: path.join(tmp, 'config'), PRAVO_STATE_DIR: path.join(tmp, 'state'), PRAVO_CACHE_DIR: path.join(tmp, 'cache') };
  cache('/v1/catalog/courts', undefined, { courts: [{ court_id: 1, name: 'Synthetic test court', court_type: 'test', ecli_code: 'XX001', parent_court_id: null, decision_count: 0 }] });
  const document = { document_id: 'd1', collection: 'c', title: 'Synthetic test act', elements: [{ ref: '1', label: 'Чл. 1', text: 'Synthetic test text.' }] };
  cache('/v1/documents', { collection: 'c', document_id: 'd1' }, document);
  fs.writeFileSync(
    path.join(tmp, 'state', 'last-results.json'),
    JSON.stringify({ saved_at: new Date().toISOString(), query: 'q', profile: 'default', sandbox: false, results: [{ rank: 1, document_id: 'd1', collection: 'c', title: 'Synthetic test act' }] }),
  );
});

afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('commands answered from local state', () => {
  it.each([
    ['config show', ['config', 'show'], 'Config file'],
    ['catalog from the cache', ['catalog', 'courts'], 'Synthetic test court'],
    ['doc N from the cache', ['doc', '1'], 'Synthetic test text.'],
  ])('%s loads no HTTP client, no conf, no sandbox and no writer, and leaves the config file as it was', (_name, args, shown) => {
    const before = fs.readFileSync(configFile, 'utf8');
    const { code, stdout, loaded } = modulesLoadedBy(args, env);
    expect(code).toBe(0);
    expect(stdout).toContain(shown);
    const packages = packagesAmong(loaded);
    for (const heavy of ['undici', 'conf', 'write-file-atomic', '@orama/stemmers', 'ora', '@inquirer/prompts']) expect(packages).not.toContain(heavy);
    expect(loaded.filter((url) => url === 'node:sqlite' || url.includes('/dist/sandbox/'))).toEqual([]);
    expect(fs.readFileSync(configFile, 'utf8')).toBe(before);
  });
});
