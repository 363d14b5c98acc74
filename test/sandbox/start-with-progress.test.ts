/**
 * `startSandboxWithProgress` (`src/target.ts`), the sandbox start shared by `--sandbox` and `pravo sandbox serve`, on
 * test streams: the warning for a corpus without documents, and Ctrl-C during the index build (a cancellation, with
 * nothing left in the data directory); then the same through `pravo search --sandbox` run in this process.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { UserCancelledError } from '../../src/errors/cli.js';
import { testIOStreams } from '../../src/io/iostreams.js';
import type { RunningSandbox } from '../../src/sandbox/start.js';
import { startSandboxWithProgress } from '../../src/target.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { runPravo, testHost } from '../helpers/host.js';
import { generatedLaws, writeCorpusFile, writeSyntheticCorpus } from '../helpers/synthetic-corpus.js';
import { tempDir } from './fixtures.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function dir(): string {
  const t = tempDir();
  cleanups.push(t.cleanup);
  return t.dir;
}

function keep(sandbox: RunningSandbox): RunningSandbox {
  cleanups.push(() => sandbox.close());
  return sandbox;
}

const EMPTY_WARNING = /Warning: the sandbox corpus (\S+) has no documents, so every search will find nothing\. Point --corpus at a corpus file.*"Sandbox corpus format"/;

describe('startSandboxWithProgress', () => {
  it('warns on stderr, naming the corpus file and what to do, when the corpus has no documents (built or reused)', async () => {
    const d = dir();
    const corpus = path.join(d, 'empty.jsonl');
    fs.writeFileSync(corpus, '');
    const dataDir = path.join(d, 'data');
    const first = testIOStreams();
    const sandbox = keep(await startSandboxWithProgress(first.io, new FakeClock(), { corpusPath: corpus, dataDir }));
    expect(sandbox.documentCount).toBe(0);
    expect(first.stderr()).toMatch(EMPTY_WARNING);
    expect(EMPTY_WARNING.exec(first.stderr())?.[1]).toBe(corpus);
    expect(first.stdout()).toBe('');
    await sandbox.close();

    // The index is reused on the next start: no build lines, the warning still.
    const second = testIOStreams();
    keep(await startSandboxWithProgress(second.io, new FakeClock(), { corpusPath: corpus, dataDir }));
    expect(second.stderr()).not.toMatch(/Building/);
    expect(second.stderr()).toMatch(EMPTY_WARNING);
  });

  it('says the warning through `say` (the server log) for a corpus of blank lines', async () => {
    const d = dir();
    const corpus = path.join(d, 'blank.jsonl');
    fs.writeFileSync(corpus, '\n  \n\r\n\n');
    const t = testIOStreams();
    const said: string[] = [];
    keep(
      await startSandboxWithProgress(t.io, new FakeClock(), { corpusPath: corpus, dataDir: path.join(d, 'data') }, { bar: false, say: (line) => said.push(line) }),
    );
    expect(said.filter((line) => EMPTY_WARNING.test(line))).toHaveLength(1);
    expect(t.stderr()).toBe('');
  });

  it('does not warn when the corpus has documents', async () => {
    const d = dir();
    const t = testIOStreams();
    const sandbox = keep(
      await startSandboxWithProgress(t.io, new FakeClock(), { corpusPath: writeSyntheticCorpus(path.join(d, 'corpus')), dataDir: path.join(d, 'data') }),
    );
    expect(sandbox.documentCount).toBeGreaterThan(0);
    expect(t.stderr()).toMatch(/Search index ready/);
    expect(t.stderr()).not.toMatch(/Warning/);
  });

  it('stops the index build when the signal aborts: UserCancelledError (exit 130), no file left in the data directory', async () => {
    const d = dir();
    const corpus = writeCorpusFile(path.join(d, 'corpus.jsonl'), generatedLaws(300));
    const dataDir = path.join(d, 'data');
    const controller = new AbortController();
    const t = testIOStreams();
    // Ctrl-C as soon as the build is announced.
    const say = (line: string): void => {
      if (line.startsWith('Building the search index')) controller.abort('SIGINT');
    };
    const error = await startSandboxWithProgress(t.io, new FakeClock(), { corpusPath: corpus, dataDir, signal: controller.signal }, { bar: false, say }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UserCancelledError);
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });
});

describe('pravo search --sandbox (in process)', () => {
  function env(d: string): NodeJS.ProcessEnv {
    return { PRAVO_CONFIG_DIR: path.join(d, 'config'), PRAVO_STATE_DIR: path.join(d, 'state'), PRAVO_CACHE_DIR: path.join(d, 'cache') };
  }

  it('warns on stderr that an empty corpus has no documents', async () => {
    const d = dir();
    const corpus = path.join(d, 'empty.jsonl');
    fs.writeFileSync(corpus, '');
    const result = await runPravo(['search', '--sandbox', '--corpus', corpus, '--data-dir', path.join(d, 'data'), 'договор'], { env: env(d) });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toMatch(EMPTY_WARNING);
    expect(result.stdout).not.toMatch(/Warning/);
  });

  it('Ctrl-C during the index build: "Cancelled", exit 130, the build stopped by itself, no file left', async () => {
    const d = dir();
    const corpus = writeCorpusFile(path.join(d, 'corpus.jsonl'), generatedLaws(1_000));
    const dataDir = path.join(d, 'data');
    const t = testHost({ env: env(d) });
    // Ctrl-C once the build is announced on stderr.
    const onData = (): void => {
      if (t.stderr().includes('Building the search index')) {
        t.host.stderr.off('data', onData);
        t.signal('SIGINT');
      }
    };
    t.host.stderr.on('data', onData);
    const exitCode = await main(['search', '--sandbox', '--corpus', corpus, '--data-dir', dataDir, 'договор'], t.host);
    expect(exitCode).toBe(130);
    expect(t.stderr()).toMatch(/Cancelled/);
    expect(t.stderr()).not.toMatch(/Search index ready/);
    // The run did not need to be ended by force: the build stopped within the grace period.
    expect(t.exits).toEqual([]);
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });
});
