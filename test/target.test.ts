/**
 * `explainStartFailure` (src/target.ts): a sandbox that cannot start because of the user's environment says what is
 * wrong with which directory or option and what to do, instead of "Unexpected error". The failures are built as
 * node:sqlite and node:fs raise them (a full disk cannot be made in a test).
 */
import { describe, expect, it } from 'vitest';
import { EnvironmentError, UsageError } from '../src/errors/cli.js';
import { describeError } from '../src/errors/advice.js';
import { exitCodeOf } from '../src/errors/exit.js';
import { explainStartFailure } from '../src/target.js';

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
