/**
 * An interactive shell on a pseudo-terminal, typed into as a user types: for the completion tests, which must see what
 * readline (bash) or zle (zsh) lists and inserts, quoting included. `script` (util-linux) gives the shell its terminal.
 * Keys are written only once the output shows that the shell is waiting for them (a prompt, a listing), so that the
 * line editor reads every key in raw mode: no sleeps, only a time limit per step.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';

/** Escape sequences and carriage returns: what a terminal acts on, not text. */
const CONTROL = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b[()][0-9A-Za-z]|\u001b[=>]|\r|\u0007/g;

/** Whether `script` can give a shell a terminal here. */
export function terminalAvailable(): boolean {
  return spawnSync('script', ['--version'], { encoding: 'utf8' }).error === undefined;
}

/** A shell started on a pseudo-terminal; {@link type} keys, read the screen's text. */
export class TerminalSession {
  readonly #child: ChildProcessWithoutNullStreams;
  #output = '';
  #waiters: (() => void)[] = [];

  /** Starts `command` (a shell command line, e.g. `bash --norc -i`) on a terminal, with `env`. */
  constructor(command: string, env: NodeJS.ProcessEnv) {
    this.#child = spawn('script', ['-qfec', command, '/dev/null'], { env });
    const take = (chunk: Buffer): void => {
      this.#output += chunk.toString('utf8').replace(CONTROL, '');
      for (const wake of this.#waiters.splice(0)) wake();
    };
    this.#child.stdout.on('data', take);
    this.#child.stderr.on('data', take);
  }

  /** Everything the terminal showed so far, without escape sequences and carriage returns. */
  get text(): string {
    return this.#output;
  }

  /**
   * Waits until the text shown after position `from` matches `until`; returns that text.
   * @throws Error after `timeoutMs` (naming what was awaited and showing what came), or when the shell exits first.
   */
  async waitFor(until: RegExp, from = 0, timeoutMs = 20_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const seen = this.#output.slice(from);
      if (until.test(seen)) return seen;
      if (this.#child.exitCode !== null) throw new Error(`the shell exited while waiting for ${until}; it showed:\n${seen}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${until} within ${timeoutMs} ms; the terminal showed:\n${seen}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Types `keys` (control characters included: `\t`, `\u0015`), then waits until what follows matches `until`. */
  async type(keys: string, until: RegExp, timeoutMs?: number): Promise<string> {
    const from = this.#output.length;
    this.#child.stdin.write(keys);
    return this.waitFor(until, from, timeoutMs);
  }

  /** Ends the shell (and `script`). */
  close(): void {
    this.#child.stdin.end();
    this.#child.kill();
  }
}
