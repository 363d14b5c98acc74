/**
 * Opening a link a server sent in the user's browser, for `pravo open`. The link comes from a server (spec: Search
 * result, `url`: "Link to the document"; the document response's fields are not shown in the spec, the sandbox sends
 * the same `url`), so it is checked before anything is started ({@link checkOpenableUrl}: only `http:` and `https:`
 * links, no credentials, no white space or control characters), and it is only ever passed to a program as one
 * argument of its own, never through a shell.
 *
 * Which program opens it: `BROWSER` when set (the conventional format: commands separated by `:`, `;` on Windows,
 * tried in order; see {@link browserCommands}), else the platform's opener ({@link platformOpeners}). Starting a
 * program is behind a {@link Launcher}, so that tests never start one.
 */
import os from 'node:os';
import path from 'node:path';
import { domainToUnicode } from 'node:url';
import { RefusedDataError } from '../errors/cli.js';
import { systemClock, type Clock } from '../shared/clock.js';
import { childEnvironment } from '../shared/processes.js';
import { sanitizeLine } from '../shared/sanitize.js';

/** The longest link pravo opens, in characters (a document's link is far shorter; a command line is not endless). */
export const MAX_URL_LENGTH = 8192;

/** The outcome of {@link checkOpenableUrl}: the link, unchanged, or why it is refused. */
export type UrlCheck = { ok: true; url: string } | { ok: false; reason: string };

/**
 * White space of any kind, and control and format characters: C0 and C1 controls, DEL, the bidi controls, zero-width
 * characters, U+2028/U+2029. None belongs in a link, and each can hide what the link is.
 */
const UNSAFE_CHARACTER = /[\s\p{Cc}\p{Cf}\p{Z}]/u;
/** Characters a link never holds unencoded (RFC 3986), which shells and markup give meaning to. */
const NEVER_RAW = /["<>\\`]/;

/**
 * Whether `url`, a link a server sent, may be handed to a browser. Accepted: an absolute `http:` or `https:` URL
 * written `http://host…` or `https://host…` (the scheme in any case), of at most {@link MAX_URL_LENGTH} characters.
 * Refused, with the reason in words:
 * - white space, control or format characters anywhere (`"https://a.example/ x"`, a line break, U+202E);
 * - `"`, `<`, `>`, `\` or a backtick;
 * - not an absolute URL: no scheme (`example.bg/x`), a relative path (`/v1/x`, `../x`);
 * - any other scheme: `javascript:`, `JavaScript:`, `data:`, `file:`, `vbscript:`, `ftp:`, `mailto:`, …;
 * - `http:` or `https:` without `//` and a host right after it (`https:example.bg`, `https:///x`, which URL parsers
 *   would read as a host of their choosing);
 * - a user name or password (`https://user:pass@host/`, also an empty `https://@host/`), which can disguise the host.
 * Pure; the accepted link is returned exactly as given (never normalized), so what is opened is what the server sent.
 */
export function checkOpenableUrl(url: string): UrlCheck {
  const refuse = (reason: string): UrlCheck => ({ ok: false, reason });
  if (url === '') return refuse('it is empty');
  if (url.length > MAX_URL_LENGTH) return refuse(`it is ${url.length} characters long; pravo opens links of up to ${MAX_URL_LENGTH}`);
  if (UNSAFE_CHARACTER.test(url)) return refuse('it contains white space or control characters');
  if (NEVER_RAW.test(url)) return refuse('it contains characters a link never holds unencoded (" < > \\ `)');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return refuse('it is not an absolute link (no scheme such as https:)');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return refuse(`it is a ${sanitizeLine(parsed.protocol)} link, not an http: or https: one`);
  const authority = /^https?:\/\/([^/?#]*)/i.exec(url)?.[1];
  if (authority === undefined || authority === '') return refuse('it does not name a host right after http:// or https://');
  if (parsed.username !== '' || parsed.password !== '' || authority.includes('@')) return refuse('it carries a user name or password (user:password@host)');
  return { ok: true, url };
}

/**
 * A link as pravo shows it (prints it, opens it, names it in its notes), for a link whose host is internationalized:
 * letters beyond ASCII, which the browser goes to in their ASCII form (punycode, `xn--…`).
 */
export interface ShownLink {
  /**
   * The link to print and open: as the server sent it, except that a host one of whose labels mixes scripts
   * (`lеx.bg` with a Cyrillic `е` among Latin letters, made to look like `lex.bg`) is written in its ASCII form
   * (`xn--lx-nlc.bg`), which shows that it is not the name its letters imitate. The same site either way.
   */
  url: string;
  /** The host in ASCII (`xn--80aegeo8aeim4g.xn--90ae`); present only for an internationalized host. */
  asciiHost?: string;
  /** The host as its letters read (`правосъдие.бг`); present only for an internationalized host. */
  unicodeHost?: string;
  /** The scripts a label of the host mixes, in order of appearance (`['Latin', 'Cyrillic']`); present only then. */
  mixedScripts?: string[];
}

/**
 * Scripts told apart in a host's labels; letters of none of them count as "another script". Han, kana and Hangul are
 * one group: Japanese and Korean names mix them by design.
 */
const SCRIPTS: readonly (readonly [string, RegExp])[] = [
  ['Latin', /\p{Script=Latin}/u],
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Greek', /\p{Script=Greek}/u],
  ['Armenian', /\p{Script=Armenian}/u],
  ['Georgian', /\p{Script=Georgian}/u],
  ['Hebrew', /\p{Script=Hebrew}/u],
  ['Arabic', /\p{Script=Arabic}/u],
  ['CJK', /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Bopomofo}]/u],
];

/** The scripts of the letters of one host label, in order of appearance. */
function scriptsOf(label: string): string[] {
  const found = new Set<string>();
  for (const char of label) {
    if (!/\p{L}/u.test(char)) continue;
    found.add(SCRIPTS.find(([, pattern]) => pattern.test(char))?.[0] ?? 'another script');
  }
  return [...found];
}

/**
 * How pravo shows `url`, a link {@link checkOpenableUrl} accepted: see {@link ShownLink}. An ASCII host: the link
 * unchanged, nothing more. An internationalized host (a label `xn--…` in its ASCII form, whether the server wrote it
 * in Unicode, percent-encoded or punycode): its ASCII and Unicode forms, and when a label mixes scripts, the link with
 * the ASCII host in place of the host as written (scheme, port, path, query and fragment kept as sent). Pure.
 */
export function shownLink(url: string): ShownLink {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { url };
  }
  const asciiHost = parsed.hostname;
  if (!asciiHost.split('.').some((label) => label.startsWith('xn--'))) return { url };
  const unicodeHost = domainToUnicode(asciiHost) || asciiHost;
  const mixed = unicodeHost.split('.').map(scriptsOf).find((scripts) => scripts.length > 1);
  if (mixed === undefined) return { url, asciiHost, unicodeHost };
  const parts = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)(.*)$/isu.exec(url);
  const port = parts?.[2]!.match(/:\d*$/u)?.[0] ?? '';
  const rewritten = parts === null ? parsed.href : `${parts[1]}${asciiHost}${port}${parts[3]}`;
  return { url: rewritten, asciiHost, unicodeHost, mixedScripts: mixed };
}

/**
 * The note `pravo open` gives before it opens or prints a link whose host mixes scripts: which scripts, the host as
 * its letters read (sanitized) and the ASCII form it is shown in. `undefined` for any other link.
 */
export function mixedScriptNote(shown: ShownLink): string | undefined {
  if (shown.mixedScripts === undefined) return undefined;
  const scripts = shown.mixedScripts.join(' and ');
  return `The link's host "${sanitizeLine(shown.unicodeHost ?? '')}" mixes ${scripts} letters, as names made to look like another site do: it is shown and opened in its ASCII form, ${shown.asciiHost}.`;
}

/** `url` for an error message: sanitized, on one line, cut to 200 characters. */
export function shownUrl(url: string): string {
  const line = sanitizeLine(url);
  return line.length <= 200 ? line : `${line.slice(0, 199)}…`;
}

/**
 * The link `url`, checked ({@link checkOpenableUrl}) before it is opened or printed.
 * @param what what the link belongs to, for the message: `result 1 ("Изборен кодекс")`, `act-1 in c_x`.
 * @param instead what to do instead, appended to the message (e.g. that `pravo doc 1` prints the document).
 * @returns `url` unchanged.
 * @throws RefusedDataError (exit 1) naming the refused link (sanitized) and why: nothing is opened or printed on stdout.
 */
export function openableUrl(url: string, what: string, instead = ''): string {
  const check = checkOpenableUrl(url);
  if (check.ok) return check.url;
  throw new RefusedDataError(
    `The server's url for ${what} was refused, and nothing was opened: "${shownUrl(url)}": ${check.reason}. pravo opens only http: and https: links.${instead ? ` ${instead}` : ''}`,
  );
}

/** A program to start: its argument vector, the program first, the link one whole argument among the others. */
export type Argv = readonly string[];

/** The commands of `BROWSER` for one link, or why an entry could not be used. */
export interface BrowserCommands {
  commands: Argv[];
  /** Entries that could not be split into words (an unbalanced quote), as the messages show them. */
  invalid: string[];
}

/**
 * The commands that `BROWSER` names for `url`, in order, by the variable's convention (catb.org/~esr/BROWSER, as
 * Python's `webbrowser` reads it): entries separated by `delimiter` (`:`; `;` on Windows, where `:` is in paths),
 * empty ones skipped; each entry split into words at white space, without a shell (no variables, no globbing, no
 * `;`, `|` or `&`); `'…'` or `"…"` keeps white space inside one word (a program path with spaces), a backslash is
 * an ordinary character. In each word `%s` becomes `url` and `%%` a `%`; an entry without `%s` gets `url` appended as
 * its last argument. The link is always inside one argument, unchanged.
 */
export function browserCommands(value: string, url: string, delimiter: string = path.delimiter): BrowserCommands {
  const commands: Argv[] = [];
  const invalid: string[] = [];
  for (const entry of value.split(delimiter)) {
    if (entry.trim() === '') continue;
    const words = splitWords(entry);
    if (words === undefined || words.length === 0) {
      invalid.push(entry.trim());
      continue;
    }
    let substituted = false;
    const argv = words.map((word) =>
      word.replace(/%([s%])/g, (_match, which: string) => {
        if (which === '%') return '%';
        substituted = true;
        return url;
      }),
    );
    commands.push(substituted ? argv : [...argv, url]);
  }
  return { commands, invalid };
}

/** Words of a command at white space, `'…'` and `"…"` grouping; `undefined` for an unbalanced quote. */
function splitWords(entry: string): string[] | undefined {
  const words: string[] = [];
  let word: string | undefined;
  let quote: string | undefined;
  for (const char of entry) {
    if (quote !== undefined) {
      if (char === quote) quote = undefined;
      else word += char;
    } else if (char === '"' || char === "'") {
      quote = char;
      word ??= '';
    } else if (/\s/.test(char)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else {
      word = (word ?? '') + char;
    }
  }
  if (quote !== undefined) return undefined;
  if (word !== undefined) words.push(word);
  return words;
}

/** The platform facts the opener depends on. */
export interface PlatformFacts {
  /** `os.platform()`: `linux`, `darwin`, `win32`, `freebsd`, … */
  platform: string;
  /** `os.release()`: a WSL kernel's names Microsoft. */
  release: string;
  env: NodeJS.ProcessEnv;
}

/**
 * The platform's openers for `url`, in the order they are tried, none through a shell:
 * - macOS: `open URL`;
 * - Windows: `rundll32 url.dll,FileProtocolHandler URL` (the shell's URL handler; `cmd /c start` is not used, since
 *   cmd would read `&` in a link as the end of the command);
 * - Linux under WSL (`WSL_DISTRO_NAME`, or a kernel release naming Microsoft): `wslview URL` (the Windows browser),
 *   then `xdg-open URL`;
 * - Linux and the BSDs: `xdg-open URL` (the desktop's default browser), then `x-www-browser URL` (Debian's).
 */
export function platformOpeners(url: string, facts: PlatformFacts): Argv[] {
  if (facts.platform === 'darwin') return [['open', url]];
  if (facts.platform === 'win32') return [['rundll32', 'url.dll,FileProtocolHandler', url]];
  const wsl = (facts.env.WSL_DISTRO_NAME ?? '') !== '' || /microsoft/i.test(facts.release);
  return wsl ? [['wslview', url], ['xdg-open', url]] : [['xdg-open', url], ['x-www-browser', url]];
}

/** Whether a program was started, or why not (`not found`, `exited with code 3`). */
export type LaunchOutcome = { started: true } | { started: false; reason: string };

/**
 * Starts one program with the environment `env` and reports whether it started. The real one is
 * {@link spawnLauncher}; tests give one that records what it was asked.
 */
export type Launcher = (argv: Argv, env: NodeJS.ProcessEnv) => Promise<LaunchOutcome>;

/** How long a started opener may take to fail before it is taken to have opened the link, in ms. */
export const LAUNCH_GRACE_MS = 2000;

/**
 * The launcher of a real run: `spawn` without a shell, with `env` less pravo's credentials (`childEnvironment`: a
 * browser and its extensions never see `PRAVO_API_KEY` or `PRAVO_SESSION_TOKEN`), detached (its own process group: Ctrl-C in pravo's terminal
 * does not reach the browser), stdio ignored, the window hidden on Windows. The program has started when it is still
 * running after `graceMs` or has exited with code 0 within it (openers such as `xdg-open` and `open` hand the link to
 * the browser and exit); it has not when it cannot be started (ENOENT: not found, EACCES) or exits otherwise within
 * `graceMs`. Either way it is not waited for beyond that (unref'd), and it outlives pravo. A terminal browser
 * (`w3m`, `lynx`) has no terminal to run in, and so fails.
 */
export function spawnLauncher(graceMs: number = LAUNCH_GRACE_MS, clock: Clock = systemClock): Launcher {
  return async (argv, env) => {
    const { spawn } = await import('node:child_process');
    return new Promise<LaunchOutcome>((resolve) => {
      let settled = false;
      let timer: unknown;
      let child: import('node:child_process').ChildProcess | undefined;
      const settle = (outcome: LaunchOutcome): void => {
        if (settled) return;
        settled = true;
        if (timer !== undefined) clock.clearTimeout(timer);
        child?.unref();
        resolve(outcome);
      };
      try {
        child = spawn(argv[0]!, argv.slice(1), { env: childEnvironment(env), shell: false, detached: true, stdio: 'ignore', windowsHide: true });
      } catch (error) {
        settle({ started: false, reason: (error as Error).message });
        return;
      }
      child.on('error', (error: NodeJS.ErrnoException) =>
        settle({ started: false, reason: error.code === 'ENOENT' ? 'not found' : error.code === 'EACCES' ? 'not executable' : error.message }),
      );
      child.once('exit', (code, signal) =>
        settle(code === 0 ? { started: true } : { started: false, reason: code !== null ? `exited with code ${code}` : `ended by ${signal}` }),
      );
      timer = clock.setTimeout(() => settle({ started: true }), graceMs);
    });
  };
}

/** One program tried, and why it did not open the link. */
export interface FailedLaunch {
  /** The program, as the user would name it (`xdg-open`, a `BROWSER` entry's first word). */
  program: string;
  reason: string;
}

/** What {@link openInBrowser} did. */
export type BrowserOutcome =
  | { opened: true; program: string }
  | { opened: false; fromBrowserVariable: boolean; failures: FailedLaunch[] };

/**
 * Opens `url` (checked by the caller: {@link openableUrl}) with the first program that starts: the commands of
 * `BROWSER` when it holds any (then only those: the user chose them), else the platform's openers.
 * @param options.env the run's environment (`BROWSER`, `PATH`, the display); `launch` starts a program (default
 *   {@link spawnLauncher}); `platform`, `release` default to `os.platform()` and `os.release()`.
 * @returns `{opened: true, program}`, or `{opened: false, …}` with what was tried and why each failed. Never throws.
 */
export async function openInBrowser(
  url: string,
  options: { env: NodeJS.ProcessEnv; launch?: Launcher; platform?: string; release?: string },
): Promise<BrowserOutcome> {
  const launch = options.launch ?? spawnLauncher();
  const platform = options.platform ?? os.platform();
  const variable = options.env.BROWSER ?? '';
  const fromVariable = browserCommands(variable, url, platform === 'win32' ? ';' : ':');
  const fromBrowserVariable = fromVariable.commands.length > 0 || fromVariable.invalid.length > 0;
  const failures: FailedLaunch[] = fromVariable.invalid.map((entry) => ({ program: entry, reason: 'an unbalanced quote' }));
  const commands = fromBrowserVariable
    ? fromVariable.commands
    : platformOpeners(url, { platform, release: options.release ?? os.release(), env: options.env });
  for (const argv of commands) {
    let outcome: LaunchOutcome;
    try {
      outcome = await launch(argv, options.env);
    } catch (error) {
      outcome = { started: false, reason: error instanceof Error ? error.message : String(error) };
    }
    if (outcome.started) return { opened: true, program: argv[0]! };
    failures.push({ program: argv[0]!, reason: outcome.reason });
  }
  return { opened: false, fromBrowserVariable, failures };
}

/**
 * The note after {@link openInBrowser} failed: which programs were tried and why each failed, that the link is printed
 * instead, and how to choose a browser. One line.
 */
export function noBrowserNote(outcome: Extract<BrowserOutcome, { opened: false }>): string {
  const tried = outcome.failures.map((f) => `${sanitizeLine(f.program)}: ${sanitizeLine(f.reason)}`).join('; ');
  const how = outcome.fromBrowserVariable
    ? "Correct BROWSER (browser commands separated by \":\", %s standing for the link), or unset it to use the system's opener"
    : 'Set BROWSER to a browser command (e.g. `export BROWSER=firefox`)';
  return `No browser could be started${tried ? ` (${tried})` : ''}, so the link is printed instead. ${how}; --print prints the link without trying.`;
}
