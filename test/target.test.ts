/**
 * `explainStartFailure` (src/target.ts): a sandbox that cannot start because of the user's environment says what is
 * wrong with which directory or option and what to do, instead of "Unexpected error". The failures are built as
 * node:sqlite and node:fs raise them (a full disk cannot be made in a test). `sandboxTarget`: the in-process sandbox's
 * credentials, an API key and a user-session token.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../src/shared/clock.js';
import { authHeaders } from '../src/api/credentials.js';
import { EnvironmentError, UsageError } from '../src/errors/cli.js';
import { describeError } from '../src/errors/advice.js';
import { exitCodeOf } from '../src/errors/exit.js';
import { IOStreams } from '../src/io/iostreams.js';
import { SandboxState } from '../src/sandbox/state/store.js';
import { explainStartFailure, sandboxTarget } from '../src/target.js';
import { testHost } from './helpers/host.js';
import { writeSyntheticCorpus } from './helpers/synthetic-corpus.js';

const options = { corpusPath: '/c/corpus.jsonl', dataDir: '/d/sandbox', port: 0, host: '127.0.0.1' };

/** An error shaped as node:sqlite throws it: `code` ERR_SQLITE_ERROR, `errcode` the SQLite result code. */
function sqliteError(message: string, errcode: number): Error {
  return Object.assign(new Error(message), { code: 'ERR_SQLITE_ERROR', errcode, errstr: message });
}

describe('explainStartFailure', () => {
  it.each([
    ['database or disk is full', 13, /the disk is full/],
    ['unable to open database file', 14, /cannot be opened there/],
    ['attempt to write a readonly database', 8, /read-only/],
    ['database disk image is malformed', 11, /damaged/],
    ['disk I/O error', 10 | (3 << 8), /disk I\/O error/],
  ])('SQLite "%s": an environment error (exit 1) naming the data directory', (message, errcode, said) => {
    const explained = explainStartFailure(sqliteError(message, errcode), options);
    expect(explained).toBeInstanceOf(EnvironmentError);
    expect((explained as Error).message).toContain('/d/sandbox');
    expect((explained as Error).message).toMatch(said);
    expect(exitCodeOf(explained)).toBe(1);
  });

  it.each(['ENOSPC', 'EROFS', 'EACCES'])('a file-system %s: an environment error naming the data directory', (code) => {
    const explained = explainStartFailure(Object.assign(new Error(code), { code, syscall: 'open' }), options);
    expect(explained).toBeInstanceOf(EnvironmentError);
    expect((explained as Error).message).toContain('/d/sandbox');
  });

  it('a listen address that is not this machine\'s: a usage error naming --host', () => {
    const explained = explainStartFailure(Object.assign(new Error('listen EADDRNOTAVAIL'), { code: 'EADDRNOTAVAIL', syscall: 'listen' }), { ...options, host: '192.0.2.1' });
    expect(explained).toBeInstanceOf(UsageError);
    expect((explained as Error).message).toContain('--host 192.0.2.1');
  });

  it('a port in use names --port; anything else is left as it is', () => {
    expect((explainStartFailure(Object.assign(new Error('in use'), { code: 'EADDRINUSE', syscall: 'listen' }), options) as Error).message).toMatch(/--port/);
    const other = new TypeError('a bug');
    expect(explainStartFailure(other, options)).toBe(other);
  });
});

describe('describeError: a file-system error that reached the runner', () => {
  it.each(['ENOSPC', 'EROFS', 'EACCES'])('%s is the environment (exit 1), naming the path, not a bug in pravo', (code) => {
    const error = Object.assign(new Error(`${code}: open '/home/u/.local/state/pravo/x.json'`), { code, syscall: 'open', path: '/home/u/.local/state/pravo/x.json' });
    const summary = describeError(error, { command: 'search' });
    expect(summary.kind).toBe('environment');
    expect(summary.exitCode).toBe(1);
    expect(summary.message).toContain('/home/u/.local/state/pravo/x.json');
    expect(`${summary.message} ${summary.hint}`).not.toMatch(/bug in pravo/);
  });
});

describe('sandboxTarget', () => {
  it('holds an API key and a user-session token of the in-process sandbox, both deleted when it closes', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'pravo-target-'));
    try {
      const t = testHost();
      const io = new IOStreams(t.host);
      const dataDir = path.join(root, 'data');
      const target = await sandboxTarget(io, systemClock, { inputs: { corpusFiles: [writeSyntheticCorpus(path.join(root, 'corpus'))] }, dataDir });
      const { api_key: apiKey, session } = target.credentials;
      expect(apiKey?.apiKey).toMatch(/^sbx_live_/);
      expect(session).toEqual({ kind: 'session', token: expect.stringMatching(/^sbx_sess_[0-9A-Za-z]{32}$/) });
      const keys = await fetch(`${target.baseUrl}/v1/keys`, { headers: authHeaders(session!) });
      expect(keys.status).toBe(200);
      expect(((await keys.json()) as { keys: { name: string }[] }).keys.map((k) => k.name)).toEqual(['pravo --sandbox']);
      await target.close();
      const state = SandboxState.open(dataDir);
      try {
        expect(state.authenticateSession(session!.token)).toEqual({ ok: false, code: 'invalid_session_token' });
        expect(state.authenticate(apiKey!.apiKey)).toEqual({ ok: false, code: 'invalid_api_key' });
      } finally {
        state.close();
      }
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
