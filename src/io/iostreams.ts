/**
 * The streams of a run and the terminal facts that follow from them, decided once (in the manner of the GitHub CLI's
 * `iostreams`): whether stdout and stderr are terminals, colour, width, whether a prompt can be shown, a spinner and a
 * progress bar that appear only on a terminal, and a pager for long output. `testIOStreams()` gives in-memory streams
 * for tests. Nothing here reads `process`: `main()` hands the process's streams in.
 */
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { PassThrough, Writable, type Readable } from 'node:stream';
import type { ChildProcess } from 'node:child_process';
import { childEnvironment } from '../shared/processes.js';
import { displayWidth, wrapLines } from '../render/text.js';

/** An output stream with the terminal facts renderers need. */
export type OutputStream = Writable & { isTTY?: boolean; columns?: number; rows?: number };
/** An input stream; `isTTY` when it is a terminal. */
export type InputStream = Readable & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };

/** Options decided by global flags. */
export interface IOOptions {
  /** `--no-color` sets false. */
  color?: boolean;
  /** `--no-pager` sets false. */
  pager?: boolean;
}

/** A spinner or progress bar on stderr; every method is a no-op when stderr is not a terminal. */
export interface Indicator {
  /** Replaces the text shown beside the spinner. */
  update(text: string): void;
  /** Removes the indicator from the screen. Safe to call twice. */
  stop(): void;
}

const NO_INDICATOR: Indicator = { update() {}, stop() {} };
const DEFAULT_WIDTH = 100;

/** The whole of `stream` (standard input, a pipe) as UTF-8 text, read to its end. */
export async function readAllText(stream: NodeJS.ReadableStream): Promise<string> {
  return (await readAllBytes(stream)).toString('utf8');
}

/** Everything a readable stream gives until its end, as bytes. */
export async function readAllBytes(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks);
}

/**
 * Whether colour is on for a stream: off with `--no-color`, `NO_COLOR` (non-empty) or `TERM=dumb`; on with
 * `FORCE_COLOR` (other than `0`, and unless `--no-color`); otherwise on exactly when the stream is a terminal.
 */
export function colorEnabled(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv, flag: boolean | undefined): boolean {
  if (flag === false) return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.TERM === 'dumb') return false;
  return stream.isTTY === true;
}

/**
 * The pager command: `PRAVO_PAGER`, else `PAGER`, else `less`; `undefined` when it is empty or `cat` (no pager).
 * Split on white space into program and arguments (no shell).
 */
export function pagerCommand(env: NodeJS.ProcessEnv): string[] | undefined {
  const value = env.PRAVO_PAGER ?? env.PAGER ?? 'less';
  const argv = value.trim().split(/\s+/).filter((part) => part !== '');
  if (argv.length === 0 || argv[0] === 'cat') return undefined;
  return argv;
}

/**
 * Whether `text` fits a screen of `columns` × `rows` without scrolling: its lines, each taking as many rows as it wraps
 * to at `columns` (colour codes take none), fill at most `rows - 1` rows, the last row being left for the prompt that
 * follows. `false` when the screen's size is unknown.
 */
export function fitsScreen(text: string, columns: number | undefined, rows: number | undefined): boolean {
  if (!columns || !rows) return false;
  const lines = text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n');
  let used = 0;
  for (const line of lines) {
    used += Math.max(1, Math.ceil(displayWidth(line) / columns));
    if (used > rows - 1) return false;
  }
  return true;
}

/** Finds a program on `PATH` (or as given, when it contains a slash); `undefined` when it is not there. */
function findProgram(program: string, env: NodeJS.ProcessEnv): string | undefined {
  const isExecutable = (file: string): boolean => {
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return fs.statSync(file).isFile();
    } catch {
      return false;
    }
  };
  if (program.includes('/')) return isExecutable(program) ? program : undefined;
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (dir !== '' && isExecutable(path.join(dir, program))) return path.join(dir, program);
  }
  return undefined;
}

/** The streams of one run of pravo, with the terminal facts decided once. */
export class IOStreams {
  readonly stdin: InputStream;
  readonly stderr: OutputStream;
  readonly env: NodeJS.ProcessEnv;
  /** Whether stdout, stderr and stdin are terminals (before any pager starts). */
  readonly stdoutIsTTY: boolean;
  readonly stderrIsTTY: boolean;
  readonly stdinIsTTY: boolean;
  /** Whether colours are on for stdout and for stderr. */
  readonly colorStdout: boolean;
  readonly colorStderr: boolean;
  readonly #stdout: OutputStream;
  readonly #pagerAllowed: boolean;
  #pager: { process: ChildProcess; input: Writable; exited: Promise<void> } | undefined;
  /** The spinners running, each with what clears it from the screen and draws it again (see {@link notice}). */
  readonly #indicators = new Map<Indicator, { clear(): void; render(): void }>();

  constructor(streams: { stdout: OutputStream; stderr: OutputStream; stdin: InputStream; env: NodeJS.ProcessEnv }, options: IOOptions = {}) {
    this.#stdout = streams.stdout;
    this.stderr = streams.stderr;
    this.stdin = streams.stdin;
    this.env = streams.env;
    this.stdoutIsTTY = streams.stdout.isTTY === true;
    this.stderrIsTTY = streams.stderr.isTTY === true;
    this.stdinIsTTY = streams.stdin.isTTY === true;
    this.colorStdout = colorEnabled(streams.stdout, streams.env, options.color);
    this.colorStderr = colorEnabled(streams.stderr, streams.env, options.color);
    this.#pagerAllowed = options.pager !== false;
  }

  /** Where data goes: the pager's input while a pager runs, else stdout. */
  get stdout(): OutputStream {
    return (this.#pager?.input as OutputStream | undefined) ?? this.#stdout;
  }

  /** Width of the terminal in columns: stdout's, else `COLUMNS`, else 100. */
  get width(): number {
    const columns = this.#stdout.columns ?? Number(this.env.COLUMNS);
    return Number.isInteger(columns) && columns > 0 ? columns : DEFAULT_WIDTH;
  }

  /** Whether a prompt can be shown: stdin and stderr are terminals. */
  get canPrompt(): boolean {
    return this.stdinIsTTY && this.stderrIsTTY;
  }

  /**
   * Where a prompt writes: stderr behind a proxy that the prompt library cannot end. `@inquirer/core` pipes its output
   * into the stream it is given and ends that pipe when the prompt closes; Node spares `process.stderr` from that, but
   * not any other stream (a host's, a test's), after which every later message would fail with "write after end".
   */
  get promptOutput(): OutputStream {
    const target = this.stderr;
    const proxy = new Writable({
      write: (chunk: Buffer, _encoding, callback) => void target.write(chunk, callback),
      final: (callback) => callback(),
    }) as OutputStream & { rows?: number };
    Object.defineProperties(proxy, {
      isTTY: { get: () => target.isTTY },
      columns: { get: () => target.columns },
      rows: { get: () => (target as { rows?: number }).rows },
    });
    return proxy;
  }

  /**
   * Whether progress indicators appear: stderr is a terminal of a known, non-zero width. A terminal that reports 0
   * columns (a pseudo-terminal never given a size, e.g. `script` in a container) gets none: ora divides by the width
   * to count the lines it must clear, and would loop for ever.
   */
  get showsProgress(): boolean {
    return this.stderrIsTTY && this.stderr.columns !== 0;
  }

  /**
   * Starts a spinner on stderr with `text`, only on a terminal (ora, loaded on first use). The runner stops every
   * indicator still running when the command ends, whatever happened.
   */
  async startSpinner(text: string): Promise<Indicator> {
    if (!this.showsProgress) return NO_INDICATOR;
    const { default: ora } = await import('ora');
    const spinner = ora({ text, stream: this.stderr, discardStdin: false, color: this.colorStderr ? 'cyan' : false, isEnabled: true }).start();
    const indicator: Indicator = {
      update: (next) => {
        spinner.text = next;
        spinner.render();
      },
      stop: () => {
        spinner.stop();
        this.#indicators.delete(indicator);
      },
    };
    this.#indicators.set(indicator, { clear: () => void spinner.clear(), render: () => void spinner.render() });
    return indicator;
  }

  /** Stops every spinner still running (the runner calls it on every path). */
  stopIndicators(): void {
    for (const indicator of [...this.#indicators.keys()]) indicator.stop();
  }

  /**
   * Writes a message for people on stderr (`line`, a newline added when it has none) without tearing a spinner or
   * progress bar that is running: it is cleared first and drawn again below the message.
   */
  notice(line: string): void {
    const running = [...this.#indicators.values()];
    for (const spinner of running) spinner.clear();
    this.message(line);
    for (const spinner of running) spinner.render();
  }

  /**
   * Writes a message for people on stderr, a newline added when it has none: on a terminal, its lines broken at spaces
   * to the terminal's width (`wrapLines`), so that the terminal never breaks a word; elsewhere (a pipe, a file, a
   * log) as it is.
   */
  message(text: string): void {
    const whole = text.endsWith('\n') ? text : `${text}\n`;
    const columns = this.stderrIsTTY ? this.stderr.columns : undefined;
    this.stderr.write(columns !== undefined && columns > 0 ? `${wrapLines(whole.slice(0, -1), columns)}\n` : whole);
  }

  /**
   * Sends stdout through a pager from here on: only when stdout is a terminal, paging is allowed (no `--no-pager`),
   * the pager program exists, and `text` (what is about to be written, when known) does not fit the screen
   * ({@link fitsScreen}): output that fits is printed directly, whatever the pager. `less` gets `LESS=FRX` when `LESS`
   * is unset. The pager never sees pravo's credentials (`childEnvironment`). Call {@link stopPager} (the runner does)
   * to wait for the user to leave it.
   */
  async startPager(text?: string): Promise<void> {
    if (this.#pager || !this.#pagerAllowed || !this.stdoutIsTTY) return;
    if (text !== undefined && fitsScreen(text, this.#stdout.columns, this.#stdout.rows)) return;
    const argv = pagerCommand(this.env);
    const program = argv && findProgram(argv[0]!, this.env);
    if (!argv || !program) return;
    const { spawn } = await import('node:child_process');
    const env = childEnvironment(this.env, { LESS: this.env.LESS ?? 'FRX', LV: this.env.LV ?? '-c' });
    const child = spawn(program, argv.slice(1), { stdio: ['pipe', 'inherit', 'inherit'], env });
    const input = child.stdin!;
    // The user may quit the pager before reading everything: that ends the output, not pravo.
    input.on('error', () => {});
    const exited = new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.once('error', () => resolve());
    });
    this.#pager = { process: child, input, exited };
  }

  /** Ends the pager's input and waits until the user leaves it. No-op without a pager. */
  async stopPager(): Promise<void> {
    const pager = this.#pager;
    if (!pager) return;
    pager.input.end();
    await pager.exited;
    this.#pager = undefined;
  }
}

/** In-memory streams for tests, with the captured output. */
export interface TestStreams {
  io: IOStreams;
  /** Everything written to stdout so far. */
  stdout(): string;
  /** Everything written to stderr so far. */
  stderr(): string;
}

/**
 * IOStreams over in-memory streams: stdout and stderr are captured; stdin holds `input` (then ends). Terminal facts
 * are as given (default: nothing is a terminal).
 */
export function testIOStreams(
  options: {
    stdoutTTY?: boolean;
    stderrTTY?: boolean;
    stdinTTY?: boolean;
    input?: string;
    columns?: number;
    rows?: number;
    env?: NodeJS.ProcessEnv;
    color?: boolean;
    pager?: boolean;
  } = {},
): TestStreams {
  const terminal = { columns: options.columns ?? 100, ...(options.rows !== undefined ? { rows: options.rows } : {}) };
  const out = captureStream(options.stdoutTTY ? terminal : undefined);
  const err = captureStream(options.stderrTTY ? terminal : undefined);
  const stdin = inputStream(options.input ?? '', options.stdinTTY === true);
  const io = new IOStreams(
    { stdout: out.stream, stderr: err.stream, stdin, env: options.env ?? {} },
    { ...(options.color === undefined ? {} : { color: options.color }), pager: options.pager ?? false },
  );
  return { io, stdout: out.text, stderr: err.text };
}

/**
 * An in-memory output stream that keeps everything written to it; a fake terminal of `terminal.columns` (and
 * `terminal.rows`, default 24) when `terminal` is given (see {@link makeFakeTerminal}). For tests.
 */
export function captureStream(terminal?: { columns: number; rows?: number }): { stream: OutputStream; text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  if (terminal) makeFakeTerminal(stream, terminal.columns, terminal.rows);
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

/**
 * An in-memory input stream: a terminal that stays open when `terminal` is true (nothing is typed), else a pipe
 * holding `input`, then ended. For tests.
 */
export function inputStream(input: string, terminal: boolean): InputStream {
  const stream = new PassThrough() as PassThrough & { isTTY?: boolean };
  if (terminal) stream.isTTY = true;
  else stream.end(input);
  return stream;
}

/**
 * Gives an in-memory stream what a terminal's write stream has (`isTTY`, `columns`, `rows`, and the cursor methods
 * spinners call, which write the same ANSI sequences a `tty.WriteStream` would), for tests of terminal output.
 */
export function makeFakeTerminal(stream: Writable, columns: number, rows = 24): void {
  const terminal = stream as Writable & Record<string, unknown>;
  terminal.isTTY = true;
  terminal.columns = columns;
  terminal.rows = rows;
  terminal.cursorTo = (x: number, y?: number | (() => void), callback?: () => void) =>
    typeof y === 'number' ? readline.cursorTo(stream, x, y, callback) : readline.cursorTo(stream, x, undefined, y ?? callback);
  terminal.moveCursor = (dx: number, dy: number, callback?: () => void) => readline.moveCursor(stream, dx, dy, callback);
  terminal.clearLine = (direction: -1 | 0 | 1, callback?: () => void) => readline.clearLine(stream, direction, callback);
  terminal.getColorDepth = () => 8;
  terminal.hasColors = () => true;
}
