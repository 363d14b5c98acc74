/**
 * Help without commander: `npm run build` renders every command's help once (`./prerender.ts`, the same commander
 * tree and text as `pravo COMMAND --help`) into `dist/help/help.json`, and a plain help request (`pravo --help`,
 * `pravo search --help`, `pravo help config set`) is answered from that file without loading commander or any command
 * module, at the cost of one small file read. Anything else (an option beside `--help`, an unknown command, a checkout
 * whose `dist/help/help.json` is missing) goes through commander as before. The pages are stored unwrapped
 * (`./layout.ts`: one line per paragraph) and laid out to the terminal's width when printed, as commander's output is,
 * so both paths print the same bytes at any width.
 */
import fs from 'node:fs';

/** The form of the pages the file holds: unwrapped, laid out when printed (`./layout.ts`). A file of another form is not used. */
export const HELP_FORMAT = 'unwrapped';

/** The file `npm run build` writes beside this module's compiled form: `dist/help/help.json`. */
export const PRERENDERED_HELP_FILE = 'help.json';

/**
 * What the file holds: the help page of each command path (`''` for pravo itself, `config set`), as commander prints it
 * at no width (`layoutHelp(page, Infinity)`), to be laid out at the terminal's.
 */
export interface PrerenderedHelp {
  /** {@link HELP_FORMAT}. */
  format: string;
  pages: Record<string, string>;
}

/**
 * The command path a plain help request asks about, or `undefined` when `args` is anything else: `[...path, '--help']`
 * or `-h`, and `['help', ...path]`, where the path's words are not options (`pravo --profile x search --help` is left
 * to commander).
 */
export function helpRequestPath(args: readonly string[]): string | undefined {
  const isWord = (word: string): boolean => word !== '' && !word.startsWith('-');
  const last = args.at(-1);
  if ((last === '--help' || last === '-h') && args.slice(0, -1).every(isWord)) return args.slice(0, -1).join(' ');
  if (args[0] === 'help' && args.slice(1).every(isWord)) return args.slice(1).join(' ');
  return undefined;
}

/**
 * The pre-rendered help page for `args`, unwrapped (lay it out with `layoutHelp`), or `undefined` when `args` is not a
 * plain help request, the page is not in the file, or the file is missing, unreadable or of another form (then
 * commander renders it).
 */
export function prerenderedHelp(args: readonly string[]): string | undefined {
  const path = helpRequestPath(args);
  if (path === undefined) return undefined;
  let file: PrerenderedHelp;
  try {
    file = JSON.parse(fs.readFileSync(new URL(PRERENDERED_HELP_FILE, import.meta.url), 'utf8')) as PrerenderedHelp;
  } catch {
    return undefined;
  }
  if (file.format !== HELP_FORMAT || typeof file.pages !== 'object' || file.pages === null) return undefined;
  const page = file.pages[path];
  return typeof page === 'string' ? page : undefined;
}
