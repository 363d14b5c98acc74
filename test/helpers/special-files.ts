/**
 * Files that are not regular files, for the tests of the readers that must refuse them: a FIFO (named pipe), which
 * blocks a reader that opens it without `O_NONBLOCK` until a writer comes, and a symbolic link to `/dev/zero`, which
 * never ends. POSIX only (`mkfifo`); the tests that use them are skipped on Windows.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { afterEach } from 'vitest';

/** Whether FIFOs and `/dev/zero` are there (not on Windows). */
export const HAS_SPECIAL_FILES = process.platform !== 'win32' && fs.existsSync('/dev/zero');

/** FIFOs made by {@link makeFifo}, released after each test. */
const fifos: string[] = [];
afterEach(() => {
  for (const fifo of fifos.splice(0)) releaseFifo(fifo);
});

/**
 * Makes a FIFO at `file`. After the test, a reader still blocked opening it (a reader that does not refuse it) is
 * released: the FIFO is opened for writing and closed, so the reader reads an empty file and the process can end.
 */
export function makeFifo(file: string): string {
  execFileSync('mkfifo', [file]);
  fifos.push(file);
  return file;
}

/** Opens `fifo` for writing without blocking and closes it, which ends the wait of any reader opening it. */
function releaseFifo(fifo: string): void {
  try {
    fs.closeSync(fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK));
  } catch {
    // ENXIO: no reader waits.
  }
}

/** A symbolic link at `file` to `/dev/zero`, a character device that reads zeros for ever. */
export function linkToDevZero(file: string): string {
  fs.symlinkSync('/dev/zero', file);
  return file;
}
