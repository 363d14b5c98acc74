/**
 * The help topics beside the commands: `pravo help exit-codes`, `pravo help environment`, `pravo help formats`. Each is
 * a table kept here once; the topic prints it as text, and the README shows the same rows as a Markdown table under the
 * topic's heading (test/help/topics.test.ts compares them cell by cell).
 */
import { DEFAULT_HELP_WIDTH, layoutHelp } from './layout.js';

/** A topic: a table with a line before it. */
export interface HelpTopic {
  /** One line for the list of topics. */
  summary: string;
  /** The README heading (`## …`) whose first table holds the same rows. */
  readmeHeading: string;
  /** The README table's column headings. */
  columns: readonly string[];
  /** Rows of cells, as the README shows them (Markdown code spans in backticks). */
  rows: readonly (readonly string[])[];
  /** A paragraph after the table, in the topic only. */
  after?: string;
}

const EXIT_CODES: readonly (readonly string[])[] = [
  ['0', 'success'],
  ['1', 'error: server error, unexpected response, request rejected by the server (`invalid_request`), local environment (malformed corpus, port in use, unusable directory)'],
  ['2', 'usage: bad arguments, options or configuration; nothing was sent'],
  [
    '4',
    'authentication: no key configured, or `missing_api_key`, `invalid_api_key`, `revoked_api_key`; for the key and account commands, no session token configured, or the token refused (`missing_session_token`, `invalid_session_token`, `expired_session_token`, `api_key_not_accepted`); `pravo login --status` when not signed in',
  ],
  ['5', '`monthly_quota_exceeded`'],
  ['6', 'network or timeout: the server could not be reached, or the request may have reached it and been counted'],
  ['7', 'the answer job failed (`pravo answer`: its `error_code`, e.g. `timed_out`, and `error_message` are printed)'],
  ['8', '`pravo answer --verify`: a cited passage was not found in its document (or could not be checked); `pravo cite`: a citation of the memo is not `found`'],
  ['9', '`pravo batch`: not every line of the input succeeded (some failed, were interrupted or are left); the summary lists them'],
  ['130', 'cancelled (Ctrl-C); for `pravo answer`, waiting stopped, not the job'],
];

const ENVIRONMENT: readonly (readonly string[])[] = [
  ['`PRAVO_PROFILE`', 'the profile used when `--profile` is not given (default `default`)'],
  ['`PRAVO_BASE_URL`', "the service's base URL, without `/v1`; overrides the profile's `base-url`"],
  ['`PRAVO_API_KEY`', "the API key; overrides the profile's stored key (a key is never taken from arguments)"],
  ['`PRAVO_SESSION_TOKEN`', "the user-session token of `pravo keys` and `pravo account`; overrides the profile's"],
  ['`PRAVO_CONFIG_DIR`', 'directory of `config.json`, the profiles and keys (default `~/.config/pravo` on Linux, the user config directory elsewhere)'],
  ['`PRAVO_STATE_DIR`', 'the last results, recorded answer jobs, batch journals and listed key ids (default `~/.local/state/pravo` on Linux)'],
  ['`PRAVO_CACHE_DIR`', 'the response cache of documents and catalogs (default `~/.cache/pravo` on Linux)'],
  ['`PRAVO_CACHE_TTL`', 'hours a cached document or catalog stays fresh, e.g. `24` or `0.5`; `0` always asks the server (default 24)'],
  ['`PRAVO_SANDBOX_CORPUS`', 'corpus files or directories of `--sandbox` and `pravo sandbox serve`, separated by `:` (`;` on Windows); default `pravo config set sandbox-corpus`'],
  ['`PRAVO_SANDBOX_DATA_DIR`', "the sandbox's index and state (default `sandbox` in the user data directory, `~/.local/share/pravo/sandbox` on Linux)"],
  ['`PRAVO_SANDBOX_ANSWER_DELAY`', "seconds from an answer job's creation to its answer on a sandbox (`--sandbox`, and `pravo sandbox serve` without `--answer-delay`), 0 to 3600 (default 3)"],
  ['`PRAVO_PAGER`', 'the pager of long output on a terminal (default `PAGER`, else `less`)'],
  ['`PAGER`', 'the pager when `PRAVO_PAGER` is not set; `less` gets `LESS=FRX` and `lv` gets `LV=-c` unless they are set'],
  ['`BROWSER`', 'the browser `pravo open` starts: commands separated by `:` (`;` on Windows), tried in order, `%s` standing for the link (default: `xdg-open`, `open` on macOS, `rundll32 url.dll` on Windows)'],
  ['`NO_COLOR`', 'any non-empty value turns colours off, as `--no-color` does (no-color.org)'],
  ['`FORCE_COLOR`', 'any value but `0` turns colours on even when output is not a terminal, unless `--no-color` (force-color.org)'],
  ['`TERM`', '`dumb` turns colours off'],
  ['`COLUMNS`', 'the width of tables and help when the terminal does not say it, and of help piped (default: 100 columns for tables, 80 for help)'],
  ['`XDG_CONFIG_HOME`, `XDG_STATE_HOME`, `XDG_CACHE_HOME`, `XDG_DATA_HOME`', 'on Linux, where the default directories above are'],
];

const FORMATS: readonly (readonly string[])[] = [
  [
    '`pravo search`',
    "the server's response, exactly",
    'one result per line: `rank`, `document_id`, `collection`, `score`, `date`, `type`, `title`, excerpt labels, `court`, `case_number`',
  ],
  [
    '`pravo doc`',
    "the server's response, exactly (with `--article`/`--paragraph`: that element's object, one line)",
    'one element per line: `ref`, `label`, `text`',
  ],
  ['`pravo open`', '`{url, opened, document_id, collection}`', 'the link alone, one line (no browser is started)'],
  [
    '`pravo cite`',
    "pravo's report: `{citations: [{text, line, column, act, document_id, collection, ref, verdict, detail, unchecked}], documents_retrieved, documents_from_cache, searches_sent, searches_from_cache, documents}`",
    'one citation per line: `line`, `column`, `citation`, `verdict`, `document_id`, `ref`, `detail`',
  ],
  [
    '`pravo answer`, `answer wait`, `answer show`',
    'the final job as the server sent it (with `--verify`: `{job, verification}`; with `--no-wait`: the 202 body)',
    'the answer text, then its numbered sources, without colour or wrapping',
  ],
  [
    '`pravo search`, `doc`, `answer` (and `wait`, `show`) with `--format md`',
    '(refused with `--format md`)',
    'Markdown instead, on a terminal too (`--out FILE` writes it to FILE): search a numbered list with excerpts as quotes; doc a `#` title, its fields, each element after its label in bold; answer the text with footnotes `[^n]`, one per cited source',
  ],
  [
    '`pravo answer list`',
    "pravo's records, a JSON array",
    'one job per line: `job_id`, `last_status`, `created_at`, `checked_at`, `profile`, `sandbox`, `error_code`, `query`',
  ],
  ['`pravo catalog source-types`', "the server's response, exactly", 'one type per line: `id`, `name`, `case_law`, `document_count`'],
  [
    '`pravo catalog courts`',
    "the server's response, exactly",
    'one court per line: `court_id`, `name`, `court_type`, `ecli_code`, `parent_court_id`, `decision_count`',
  ],
  ['`pravo catalog judges`', "the server's response, exactly", 'one judge per line: `name`, `decision_count`, `latest_date`, `court_ids` (joined by `,`)'],
  [
    '`pravo usage`',
    "the server's response, exactly",
    'a line per kind `<kind>` `used`, `limit`, `remaining`, `percent`, `overage_used`; `period` `start`, `end`, `month`, `days_left`; `overage` `allowed`, `limit`, `used`',
  ],
  [
    '`pravo batch`',
    'the summary `{input, out, total, succeeded, failed, skipped, interrupted, unfinished, not_sent, units_spent, stopped, exit_code}`',
    'without `--out`: the results, one JSON line per input line',
  ],
  ['`pravo keys list`', "the server's response, exactly", 'one key per line: `key_id`, `name`, `prefix`, `plan`, `status`, `created_at`, `last_used_at`, `revoked_at`, `current`'],
  ['`pravo keys create`', "the server's response, key included", 'the key alone'],
  ['`pravo keys revoke`, `keys rotate`', "the server's response, or pravo's report object", 'nothing: messages on stderr'],
  [
    '`pravo account`, `account overages`',
    "the server's response, exactly",
    'lines `account` `<id>`, `plan` `<name>`, `overage` `<allowed>` `<monthly_limit>`, `unit_price` `<kind>` `<price>` `<currency>`, `created` `<created_at>`',
  ],
  ['`pravo login`, `pravo logout`', '`login --status`: `{profile, signed_in, source, session_token, base_url, valid, code, account_id, plan}`; `logout`: `{profile, removed}`', 'nothing: messages on stderr'],
  ['`pravo config`', "pravo's result object, one line, keys masked", '`config path`: the path; `config show`: aligned lines'],
  ['`pravo sandbox serve`', 'logs as JSON lines on stderr; the ready line is always JSON', 'the ready line `{base_url, api_key, session_token}` (or `{base_url, profile}`)'],
  ['`pravo sandbox token`', '`{session_token, expires_at, account_id}` (or `{profile, expires_at}`)', 'the token alone'],
  ['`pravo sandbox import`', '`{out, imported, skipped: [{id, reason}]}`', 'nothing: messages on stderr'],
  ['`pravo completion`', '(no `--json`)', 'the script'],
];

/** The topics, by the name `pravo help NAME` takes. */
export const HELP_TOPICS: Readonly<Record<string, HelpTopic>> = {
  'exit-codes': {
    summary: 'what each exit code of pravo means',
    readmeHeading: 'Exit codes',
    columns: ['code', 'meaning'],
    rows: EXIT_CODES,
    after: 'Errors go to stderr and end with what to do next; with --json, an error is one line of JSON on stderr.',
  },
  environment: {
    summary: 'the environment variables pravo reads',
    readmeHeading: 'Environment',
    columns: ['variable', 'meaning'],
    rows: ENVIRONMENT,
  },
  formats: {
    summary: 'what each command prints with --json, and piped (tab-separated fields, in order)',
    readmeHeading: 'Output formats',
    columns: ['command', '`--json` on stdout', 'piped (stdout not a terminal): tab-separated, no header'],
    rows: FORMATS,
    after:
      'On a terminal, the same data as tables and text. Data goes to stdout, messages and errors to stderr. With --json, an error is one line of JSON on stderr.',
  },
};

/** A cell as the terminal shows it: Markdown code spans without their backticks. */
function plain(cell: string): string {
  return cell.replace(/`([^`]*)`/g, '$1');
}

/** The widest a variable or code may be and still have its meaning beside it; a wider one has it on the next line. */
const KEY_COLUMN_MAX = 30;

/**
 * The text of topic `name`, as `pravo help NAME` prints it: the table laid out at `width` columns (`./layout.ts`; two
 * columns side by side, a key wider than {@link KEY_COLUMN_MAX} with its meaning below; three as a block per row),
 * then the paragraph after it. `undefined` for an unknown name.
 */
export function renderTopic(name: string, width = DEFAULT_HELP_WIDTH): string | undefined {
  const topic = HELP_TOPICS[name];
  if (!topic) return undefined;
  const out: string[] = [`${topic.summary[0]!.toUpperCase()}${topic.summary.slice(1)}:`, ''];
  if (topic.columns.length === 2) {
    const keyWidth = Math.max(...topic.rows.map((row) => plain(row[0]!).length).filter((n) => n <= KEY_COLUMN_MAX));
    for (const [key, meaning] of topic.rows) {
      const k = plain(key!);
      if (k.length <= keyWidth) out.push(`  ${k.padEnd(keyWidth)}  ${plain(meaning!)}`);
      else out.push(`  ${k}`, `  ${' '.repeat(keyWidth)}  ${plain(meaning!)}`);
    }
  } else {
    const labels = ['--json', 'piped'];
    for (const [command, ...cells] of topic.rows) {
      out.push(`  ${plain(command!)}`);
      cells.forEach((cell, i) => out.push(`    ${labels[i]!.padEnd(8)}${plain(cell)}`));
    }
  }
  if (topic.after) out.push('', topic.after);
  return `${layoutHelp(out.join('\n'), width)}\n`;
}

/** The list of topics for the root help: `  NAME  summary` lines. */
export function topicList(): string {
  const names = Object.keys(HELP_TOPICS);
  const w = Math.max(...names.map((n) => n.length));
  return names.map((name) => `  ${name.padEnd(w)}  ${HELP_TOPICS[name]!.summary}`).join('\n');
}

/** The Markdown table of a topic, as the README holds it. */
export function topicMarkdown(name: string): string {
  const topic = HELP_TOPICS[name]!;
  const row = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  return [row(topic.columns), row(topic.columns.map(() => '---')), ...topic.rows.map(row)].join('\n');
}
