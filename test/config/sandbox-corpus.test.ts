/**
 * Where the sandbox takes its inputs (`resolveCorpus` in `src/config/sandbox.ts`): `--corpus` (repeatable), else
 * `PRAVO_SANDBOX_CORPUS` (a path list), else the `sandbox-corpus` setting; files and directories; errors that name the
 * path and where it came from.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { corpusPathsFromEnv, resolveCorpus } from '../../src/config/sandbox.js';
import { ConfigError, UsageError } from '../../src/errors/cli.js';
import { SYNTHETIC_DOCUMENTS } from '../helpers/synthetic-corpus.js';

let root: string;
/** A directory with a corpus file, a courts file and a README (every document made-up test data). */
let dir: string;
let statutes: string;
let decisions: string;
let courts: string;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'pravo-corpus-config-'));
  dir = path.join(root, 'corpus');
  fs.mkdirSync(dir);
  const line = (i: number) => `${JSON.stringify(SYNTHETIC_DOCUMENTS[i])}\n`;
  statutes = path.join(dir, 'laws.jsonl');
  fs.writeFileSync(statutes, line(0) + line(1));
  decisions = path.join(root, 'decisions.jsonl');
  fs.writeFileSync(decisions, line(2) + line(3));
  courts = path.join(dir, 'bg-courts.json');
  fs.writeFileSync(courts, JSON.stringify([{ court_id: 7, name: 'ТЕСТОВИ ДАННИ: Върховен съд' }]));
  fs.writeFileSync(path.join(dir, 'README.md'), 'test data\n');
});

afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

function configError(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('resolveCorpus', () => {
  it('takes every --corpus, each a file or a directory, before the environment and the setting', () => {
    expect(resolveCorpus([dir, decisions], { PRAVO_SANDBOX_CORPUS: decisions }, statutes)).toEqual({
      corpusFiles: [statutes, decisions],
      courtsFile: courts,
    });
  });

  it('takes PRAVO_SANDBOX_CORPUS as a list separated by the path delimiter, ignoring empty entries', () => {
    const env = { PRAVO_SANDBOX_CORPUS: ['', decisions, dir, ''].join(path.delimiter) };
    expect(resolveCorpus(undefined, env, statutes)).toEqual({ corpusFiles: [decisions, statutes], courtsFile: courts });
    expect(corpusPathsFromEnv(`a${path.delimiter}${path.delimiter}b`)).toEqual(['a', 'b']);
    // An empty variable is no source: the setting applies.
    expect(resolveCorpus(undefined, { PRAVO_SANDBOX_CORPUS: '' }, dir)).toEqual({ corpusFiles: [statutes], courtsFile: courts });
  });

  it('takes the setting, a file or a directory, and returns absolute paths', () => {
    expect(resolveCorpus(undefined, {}, dir)).toEqual({ corpusFiles: [statutes], courtsFile: courts });
    const cwd = process.cwd();
    process.chdir(root);
    try {
      expect(resolveCorpus(['decisions.jsonl', 'corpus/bg-courts.json'], {}, undefined)).toEqual({ corpusFiles: [decisions], courtsFile: courts });
    } finally {
      process.chdir(cwd);
    }
  });

  it('names the bad path and the source that gave it', () => {
    const missing = path.join(root, 'missing.jsonl.gz');
    expect(configError(() => resolveCorpus([statutes, missing], {}, undefined))).toBe(
      `Cannot use the sandbox corpus from --corpus: corpus ${missing}: no such file or directory.`,
    );
    const empty = path.join(root, 'empty');
    fs.mkdirSync(empty);
    expect(configError(() => resolveCorpus(undefined, { PRAVO_SANDBOX_CORPUS: empty }, undefined))).toMatch(
      new RegExp(`^Cannot use the sandbox corpus from PRAVO_SANDBOX_CORPUS: directory ${empty}: holds no corpus file`),
    );
    expect(configError(() => resolveCorpus(undefined, {}, missing))).toMatch(/from the sandbox-corpus setting: corpus .*missing\.jsonl\.gz/);
    const second = path.join(root, 'other-courts.json');
    fs.copyFileSync(courts, second);
    const two = configError(() => resolveCorpus([dir, second], {}, undefined));
    expect(two).toContain(courts);
    expect(two).toContain(second);
  });

  it('says how to give a corpus when none is given; an empty --corpus is a usage error', () => {
    expect(configError(() => resolveCorpus(undefined, {}, undefined))).toMatch(/No sandbox corpus given\. Pass --corpus PATH .*PRAVO_SANDBOX_CORPUS.*sandbox-corpus/);
    expect(() => resolveCorpus([''], {}, undefined)).toThrow(UsageError);
  });
});
