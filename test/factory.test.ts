/**
 * `Factory.cacheScope()` for `--sandbox`: the response cache's scope is the key of the sandbox's inputs by content
 * (`sandbox:<16 hex>`), the same whatever order the corpus files are given in, and computed without starting anything.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../src/shared/clock.js';
import { Factory, type GlobalOptions } from '../src/factory.js';
import { IOStreams } from '../src/io/iostreams.js';
import { corpusInputsKey } from '../src/sandbox/corpus/inputs.js';
import { SYNTHETIC_DOCUMENTS } from './helpers/synthetic-corpus.js';
import { testHost } from './helpers/host.js';

let root: string;
let laws: string;
let cases: string;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'pravo-factory-'));
  laws = path.join(root, 'laws.jsonl');
  cases = path.join(root, 'cases.jsonl');
  fs.writeFileSync(laws, SYNTHETIC_DOCUMENTS.slice(0, 2).map((d) => JSON.stringify(d)).join('\n'));
  fs.writeFileSync(cases, SYNTHETIC_DOCUMENTS.slice(2).map((d) => JSON.stringify(d)).join('\n'));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

function factory(globals: GlobalOptions): Factory {
  const { host } = testHost({ env: { PRAVO_CONFIG_DIR: path.join(root, 'config') } });
  return new Factory({ io: new IOStreams(host), globals, clock: systemClock, signal: new AbortController().signal, version: '0.0.0-test' });
}

describe('Factory.cacheScope with --sandbox', () => {
  it('is sandbox:<inputs key>, whatever the order of --corpus, and leaves the data directory untouched', async () => {
    const dataDir = path.join(root, 'data');
    const scope = await factory({ sandbox: true, corpus: [laws, cases], dataDir }).cacheScope();
    expect(scope).toBe(`sandbox:${await corpusInputsKey({ corpusFiles: [laws, cases] })}`);
    expect(scope).toMatch(/^sandbox:[0-9a-f]{16}$/);
    expect(await factory({ sandbox: true, corpus: [cases, laws] }).cacheScope()).toBe(scope);
    expect(fs.existsSync(dataDir)).toBe(false);
  });

  it('changes with the content of the corpus', async () => {
    const before = await factory({ sandbox: true, corpus: [laws, cases] }).cacheScope();
    fs.appendFileSync(cases, `\n${JSON.stringify({ ...SYNTHETIC_DOCUMENTS[2], document_id: 'test-case-3' })}\n`);
    expect(await factory({ sandbox: true, corpus: [laws, cases] }).cacheScope()).not.toBe(before);
  });
});
