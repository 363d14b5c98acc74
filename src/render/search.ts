/**
 * Renderers of a search response (spec: Search response, Search result): a ranked table for terminals and
 * tab-separated lines for pipes. Pure functions of the data: they return strings and never write. Every string of the
 * response passes through the sanitizer: `sanitizeLine`, `tsvLines` (`sanitizeTsvField`), or `wrapText`.
 */
import Table from 'cli-table3';
import { Chalk } from 'chalk';
import type { SearchResponse, SearchResult } from '../contract/types.js';
import { excerptTextOf, explanationOf, scoreOf } from './fields.js';
import { sanitizeLine } from '../shared/sanitize.js';
import { isWeakMatch } from '../shared/weak-match.js';
import type { View } from '../io/printer.js';
import { decisionFieldsOf, textStatusOf } from './fields.js';
import { renderSearchMarkdown, searchResultsOf } from './markdown.js';
import { fitColumns } from './table.js';
import { plural, trimToWidth, tsvLines, wrapText } from './text.js';

/** Options of {@link renderSearchTable}. */
export interface TableOptions {
  /** Terminal width in columns; the table never exceeds it (minimum 60). */
  width: number;
  /** Whether to use ANSI colours. */
  color: boolean;
}

const MIN_WIDTH = 60;
const MAX_EXCERPTS_SHOWN = 3;

/** The rule above weak matches in the table (then filled with `─` to the width). */
const WEAK_RULE = '── weak matches: scores under half of the first result\'s ';

/** Per result, whether it is a weak match (`isWeakMatch` against the first result's score). */
function weakMatches(results: readonly SearchResult[]): boolean[] {
  const first = results[0] === undefined ? undefined : scoreOf(results[0]);
  return results.map((r) => isWeakMatch(scoreOf(r), first));
}

/**
 * For piped output (whose columns stay as they are): the line for stderr that names the weak matches, the results
 * scoring under half of the first result's (`isWeakMatch`), by rank: `Results 5 to 20 are weak matches: they score
 * under half of the first result's 0.62.` (or `Result 20 is a weak match: …`, `Results 5, 7 and 9 are …`). `undefined`
 * when there is none.
 */
export function weakMatchNote(response: SearchResponse): string | undefined {
  const results = Array.isArray(response.results) ? response.results : [];
  const ranks = weakMatches(results).flatMap((weak, i) => (weak ? [i + 1] : []));
  if (ranks.length === 0) return undefined;
  const first = scoreOf(results[0]!)!.toFixed(2);
  const contiguous = ranks.every((rank, i) => i === 0 || rank === ranks[i - 1]! + 1);
  if (ranks.length === 1) return `Result ${ranks[0]} is a weak match: it scores under half of the first result's ${first}.`;
  const which = contiguous ? `${ranks[0]} to ${ranks.at(-1)}` : `${ranks.slice(0, -1).join(', ')} and ${ranks.at(-1)}`;
  return `Results ${which} are weak matches: they score under half of the first result's ${first}.`;
}

/**
 * A ranked table: columns `#`, `Title`, `Type`, `Date`, `Score`, and under each result a row with its excerpts (label,
 * score, text trimmed to the width) and, when present, the explanation of relevance in Bulgarian; a court decision
 * has first a line with its court, act number, case number and reporting judge ({@link decisionLine}). Starts with a
 * one-line summary; with no results, says so in one line. The rule above the first weak match (a result scoring under
 * half of the first result's, `isWeakMatch`) says `weak matches`.
 */
export function renderSearchTable(response: SearchResponse, options: TableOptions): string {
  const c = new Chalk({ level: options.color ? 1 : 0 });
  const results = response.results;
  const width = Math.max(MIN_WIDTH, options.width);
  if (results.length === 0) return `${trimToWidth(`No results for „${sanitizeLine(response.query)}“.`, width)}\n`;

  const head = ['#', 'Title', 'Type', 'Date', 'Score'];
  const cells = results.map((result, index) => {
    const score = scoreOf(result);
    return [String(index + 1), sanitizeLine(result.title ?? ''), sanitizeLine(result.type ?? ''), sanitizeLine(result.date ?? ''), score === undefined ? '' : score.toFixed(2)];
  });
  // Each column as wide as its content allows; the title, which the detail rows span under, takes the rest.
  const widths = fitColumns(
    head.map((header, i) => ({ header, cells: cells.map((row) => row[i]!) })),
    width,
  );
  widths[1]! += width - (head.length + 1) - widths.reduce((sum, w) => sum + w, 0);
  const rankWidth = widths[0]!;
  const table = new Table({
    head: head.map((h) => c.bold(h)),
    colWidths: widths,
    colAligns: ['right', 'left', 'left', 'left', 'right'],
    wordWrap: true,
    // Compact: no rule between rows, so that each detail line can be a row of its own (below); results are separated
    // by a rule row. A multi-line cell would cost cli-table3 quadratic time per line when uncoloured (its draw()
    // truncates the whole content one character at a time for a debug message): 0.3 s for 20 results.
    style: { head: [], border: options.color ? ['grey'] : [], compact: true },
  });
  // A detail row spans every column and the borders between them, less the cell's padding and an indent that puts its
  // text under the titles. Its lines are trimmed or wrapped here, on plain text, so cli-table3's own wrapping (which
  // miscounts coloured text) is off.
  const indent = ' '.repeat(rankWidth + 1);
  const detailWidth = width - 4 - indent.length;

  const weak = weakMatches(results);
  results.forEach((result, index) => {
    // The rule above the first of a run of weak matches says so.
    const rule = index > 0 && weak[index] && !weak[index - 1] ? WEAK_RULE : '';
    if (index > 0) table.push([{ colSpan: 5, content: c.dim(`${rule}${'─'.repeat(Math.max(0, width - 4 - [...rule].length))}`), wordWrap: false }]);
    const [rank, title, type, date, score] = cells[index]!;
    table.push([rank!, c.bold(title!), type!, date!, score!]);
    const details = detailLines(result, detailWidth, c);
    for (const line of details) table.push([{ colSpan: 5, hAlign: 'left', wordWrap: false, content: indent + line }]);
  });

  const count = response.result_count ?? results.length;
  const summary = c.dim(trimToWidth(`${count} ${count === 1 ? 'result' : 'results'} for „${sanitizeLine(response.query)}“`, width));
  return `${summary}\n${table.toString()}\n`;
}

function detailLines(result: SearchResult, width: number, c: InstanceType<typeof Chalk>): string[] {
  const lines: string[] = [];
  // Wrapped, not trimmed: every part identifies the decision. Lines break between parts where they can.
  lines.push(...wrapParts(decisionParts(result), width).map((line) => c.cyan(line)));
  const status = textStatusOf(result);
  if (status !== undefined) lines.push(c.dim(trimToWidth(sanitizeLine(status), width)));

  const excerpts = Array.isArray(result.excerpts) ? result.excerpts : [];
  for (const excerpt of excerpts.slice(0, MAX_EXCERPTS_SHOWN)) {
    const label = sanitizeLine(excerpt.label ?? excerpt.excerpt_id ?? '');
    const score = scoreOf(excerpt);
    const head = score === undefined ? label : `${label} (${score.toFixed(2)})`;
    const room = width - [...head].length - 1;
    const text = trimToWidth(withoutLeadingLabel(sanitizeLine(excerptTextOf(excerpt)), label), room);
    lines.push(`${c.bold(label)}${score === undefined ? '' : c.dim(` (${score.toFixed(2)})`)} ${text}`.trimEnd());
  }
  if (excerpts.length > MAX_EXCERPTS_SHOWN) lines.push(c.dim(`… ${excerpts.length - MAX_EXCERPTS_SHOWN} more excerpts (--json shows all)`));

  const explanation = explanationOf(result);
  if (explanation) lines.push(...wrapText(explanation, width).map((line) => c.italic.dim(line)));
  return lines;
}

/**
 * The line that identifies a court decision as a lawyer cites it, parts joined by ` · `: the court (its code when the
 * name is missing), the act and its number (`Решение № 145`, from the result's `type`), the case
 * (`дело № 210/2015`) and the reporting judge (`докладчик Бисер Троянов`). `undefined` for a result without court
 * data (a statute). Read tolerantly (`decisionFieldsOf`); wrapped and sanitized by the caller (`wrapText`).
 */
export function decisionLine(result: SearchResult): string | undefined {
  const parts = decisionParts(result);
  return parts.length > 0 ? parts.join(PART_SEPARATOR) : undefined;
}

const PART_SEPARATOR = ' · ';

/** The parts of {@link decisionLine}, each sanitized to one line; empty for a result without court data. */
function decisionParts(result: SearchResult): string[] {
  const d = decisionFieldsOf(result);
  return [
    d.court ?? (d.courtId !== undefined ? `съд с код ${d.courtId}` : undefined),
    d.decisionNumber && `${result.type?.trim() || 'Акт'} № ${d.decisionNumber}`,
    d.caseNumber && `дело № ${d.caseNumber}`,
    d.reportingJudge && `докладчик ${d.reportingJudge}`,
  ]
    .map((part) => (part === undefined ? '' : sanitizeLine(part)))
    .filter((part) => part !== '');
}

/**
 * Parts joined by ` · ` into lines of at most `width` characters, breaking between parts where a part fits on a line
 * of its own, else within it (`wrapText`).
 */
function wrapParts(parts: readonly string[], width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const part of parts) {
    const joined = line === '' ? part : `${line}${PART_SEPARATOR}${part}`;
    if ([...joined].length <= width) line = joined;
    else if ([...part].length <= width) {
      if (line !== '') lines.push(line);
      line = part;
    } else {
      const wrapped = wrapText(joined, width);
      lines.push(...wrapped.slice(0, -1));
      line = wrapped.at(-1) ?? '';
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}

/** The excerpt text without the label it repeats at its start (`Чл. 108. (1) …` under the label `Чл. 108.`). */
function withoutLeadingLabel(text: string, label: string): string {
  return label !== '' && text.startsWith(label) ? text.slice(label.length).trimStart() : text;
}

/**
 * One line per result, tab-separated, no colour, no header, in this column order:
 * `rank`, `document_id`, `collection`, `score`, `date`, `type`, `title`, `excerpts` (the excerpt labels, joined by
 * `; `), `court`, `case_number` (the last two empty for a result that is not a court decision; added after the
 * others so that scripts cutting fields 1 to 8 are unaffected). Tabs and newlines inside values become spaces. No
 * results: empty output.
 */
export function renderSearchTsv(response: SearchResponse): string {
  return tsvLines(
    response.results.map((result, index) => {
      const labels = (Array.isArray(result.excerpts) ? result.excerpts : [])
        .map((e) => sanitizeLine(e.label ?? e.excerpt_id ?? ''))
        .join('; ');
      const score = scoreOf(result);
      const decision = decisionFieldsOf(result);
      return [
        index + 1,
        result.document_id,
        result.collection,
        score === undefined ? '' : score.toFixed(4),
        result.date,
        result.type,
        sanitizeLine(result.title ?? ''),
        labels,
        decision.court === undefined ? '' : sanitizeLine(decision.court),
        decision.caseNumber === undefined ? '' : sanitizeLine(decision.caseNumber),
      ];
    }),
  );
}

/**
 * The search response's view for the printer: the table (paged) on a terminal, TSV when piped, and with `--format md`
 * the numbered list of `renderSearchMarkdown`.
 */
export const searchView: View<SearchResponse> = {
  table: renderSearchTable,
  tsv: renderSearchTsv,
  page: true,
  markdown: renderSearchMarkdown,
  markdownSubject: (response) => `${plural(searchResultsOf(response).length, 'result')} (Markdown)`,
};
