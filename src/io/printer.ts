/**
 * One printer per command run: it picks the output form once and keeps the `--json` rule everywhere.
 *
 * - `--json`: a command that shows an API response prints the server's body exactly (on a terminal, raw C1 and
 *   bidirectional control characters inside it are written as JSON escapes, which parse to the same value); a local
 *   command prints pravo's own documented object as one line of JSON.
 * - Otherwise, on a terminal: the view's table (through the pager when the view asks for it and the table does not
 *   fit the screen), coloured when colour is on.
 * - Otherwise (piped): the view's tab-separated lines, no colour.
 * - `--format md` (`pravo search`, `doc`, `answer`): the view's Markdown, on a terminal or not, never paged or coloured;
 *   with `--out FILE` written to FILE atomically instead (`output-file.ts`), and a note on stderr says so.
 *
 * Views are pure renderers (`src/render/`), which pass every foreign string through the sanitizer.
 */
import { escapeJsonForTerminal } from '../shared/sanitize.js';
import type { IOStreams } from './iostreams.js';

/** The form output takes in this run. */
export type OutputMode = 'json' | 'table' | 'tsv' | 'markdown';

/** How a run that does not print JSON prints (see `output-format.ts`, which reads `--format` and `--out`). */
export interface PrinterOptions {
  /** `--format md`: the view's Markdown instead of its table or TSV. */
  markdown?: boolean;
  /** With `markdown`: the file the Markdown is written to (atomically) instead of stdout. */
  out?: string;
}

/** How a command's data looks for people and for pipes. */
export interface View<T> {
  /** The terminal form: a table or text, fitted to `width` columns. */
  table(data: T, options: { width: number; color: boolean }): string;
  /** The piped form: tab-separated lines, each ending in a newline. */
  tsv(data: T): string;
  /** Whether long terminal output goes through the pager. */
  page?: boolean;
  /**
   * The Markdown form (`--format md`): a document a memo can take as is, every foreign string escaped
   * (`render/markdown.ts`), ending in a newline. Views without it are never printed in a Markdown run.
   */
  markdown?(data: T): string;
  /** What the Markdown holds, counted as written, for the note after `--out FILE`: `the answer with 8 footnotes (Markdown)`. */
  markdownSubject?(data: T): string;
}

/** A view, or a loader of one: a view module is imported only when the run prints for people or pipes. */
export type ViewSource<T> = View<T> | (() => Promise<View<T>>);

/** Writes a command's result in the form of the run. */
export class Printer {
  readonly mode: OutputMode;
  /** With `--format md --out FILE`: FILE, where the Markdown goes instead of stdout. */
  readonly out: string | undefined;
  readonly #io: IOStreams;

  /** `json`: whether `--json` was given (it wins over `options.markdown`, which the commands refuse beside it). */
  constructor(io: IOStreams, json: boolean, options: PrinterOptions = {}) {
    this.#io = io;
    this.mode = json ? 'json' : options.markdown === true ? 'markdown' : io.stdoutIsTTY ? 'table' : 'tsv';
    this.out = this.mode === 'markdown' ? options.out : undefined;
  }

  /**
   * An API response: with `--json` the body exactly as the server sent it (the view is not loaded); else the view.
   */
  async response<T>(response: { raw: string; data: T }, view: ViewSource<T>): Promise<void> {
    if (this.mode === 'json') {
      this.responseIfJson(response);
      return;
    }
    await this.#view(response.data, view);
  }

  /**
   * With `--json`, the server's body exactly, as {@link response} prints it; otherwise nothing, for a response the
   * command reports in words on stderr (a job created with `--no-wait`, a failed or unfinished answer job).
   */
  responseIfJson(response: { raw: string }): void {
    if (this.mode !== 'json') return;
    const raw = this.#io.stdoutIsTTY ? escapeJsonForTerminal(response.raw) : response.raw;
    this.#write(raw.endsWith('\n') ? raw : `${raw}\n`);
  }

  /** pravo's own result: with `--json` `object` as one line of JSON; else the view of `data` (default `object`). */
  async local<T>(object: unknown, view: ViewSource<T>, data?: T): Promise<void> {
    if (this.mode === 'json') {
      this.localIfJson(object);
      return;
    }
    await this.#view((data ?? object) as T, view);
  }

  /**
   * With `--json`, pravo's own `object` as one line of JSON, as {@link local} prints it; otherwise nothing, for an
   * outcome the command reports in words on stderr (a batch's summary, its refused plan).
   */
  localIfJson(object: unknown): void {
    if (this.mode === 'json') this.#write(`${JSON.stringify(object)}\n`);
  }

  /**
   * The outcome of a local change (a setting stored, a key removed): with `--json` `object` as one line of JSON on
   * stdout; otherwise `message` for people on stderr, leaving stdout empty.
   */
  report(object: unknown, message: string): void {
    if (this.mode === 'json') this.localIfJson(object);
    else this.note(message);
  }

  /** A message for people, on stderr (never mixed with data), fitted to a terminal's width (`IOStreams.message`). */
  note(line: string): void {
    this.#io.message(line);
  }

  async #view<T>(data: T, source: ViewSource<T>): Promise<void> {
    const view = typeof source === 'function' ? await source() : source;
    if (this.mode === 'markdown') {
      await this.#markdown(data, view);
      return;
    }
    if (this.mode === 'table') {
      const text = view.table(data, { width: this.#io.width, color: this.#io.colorStdout });
      if (view.page) await this.#io.startPager(text);
      this.#write(text);
    } else {
      this.#write(view.tsv(data));
    }
  }

  /**
   * The view's Markdown on stdout, or with `out` written to that file atomically and a note on stderr saying what the file
   * holds (the view's `markdownSubject`): `Wrote the answer with 8 footnotes (Markdown) to memo.md.`
   * @throws Error for a view without a Markdown form (a programming error: only views that have one get a Markdown
   *   run); EnvironmentError when the file cannot be written (it is then unchanged).
   */
  async #markdown<T>(data: T, view: View<T>): Promise<void> {
    if (view.markdown === undefined) throw new Error('This output has no Markdown form.');
    const text = view.markdown(data);
    if (this.out === undefined) {
      this.#write(text);
      return;
    }
    const { writeOutputFile } = await import('./output-file.js');
    await writeOutputFile(this.out, text);
    this.note(`Wrote ${view.markdownSubject?.(data) ?? 'the Markdown'} to ${this.out}.`);
  }

  #write(text: string): void {
    this.#io.stdout.write(text);
  }
}
