/**
 * The view of `pravo cite` (see `services/cite.ts`, {@link CiteReport}): on a terminal the memo's lines that cite, each
 * citation marked `[чл. 72]¹` (coloured by verdict), a table of the verdicts, the documents with the date their text is
 * current as of, and a summary; piped, one citation per line, tab-separated: line, column, citation, verdict,
 * document_id, ref, detail. Pure functions of the report and the memo's text. The memo's text and everything from the
 * server (titles, provisions' words) pass through the sanitizer.
 */
import { Chalk } from 'chalk';
import type { View } from '../io/printer.js';
import { CITE_VERDICTS, type CitedDocument, type CiteReport, type CiteVerdict } from '../legal/cite.js';
import { sanitizeLine } from '../shared/sanitize.js';
import { textStatusOf } from './fields.js';
import { compactTable, fitColumns } from './table.js';
import { hang, plural, tsvLines, wrapText } from './text.js';

/** The date a document's text is current as of, in words (`текст към 10.02.2026`), for a `found` detail. */
function textStatusOfDocument(document: CitedDocument): string | undefined {
  return textStatusOf({ ...(document.as_of !== null ? { as_of: document.as_of } : {}), ...(document.consolidated !== null ? { consolidated: document.consolidated } : {}) });
}

const SUPERSCRIPT = '⁰¹²³⁴⁵⁶⁷⁸⁹';

/** Below this width of the Detail column (with padding), the line and column of a citation go under its number. */
const MIN_DETAIL_WIDTH = 32;

/** `12` → `¹²`. */
function superscript(n: number): string {
  return [...String(n)].map((d) => SUPERSCRIPT[Number(d)]).join('');
}

/** The colour of a verdict: green found, yellow when a person must choose or name the act, red otherwise. */
function paint(c: InstanceType<typeof Chalk>, verdict: CiteVerdict): (text: string) => string {
  if (verdict === 'found') return c.green;
  if (verdict === 'ambiguous' || verdict === 'act_not_named') return c.yellow;
  return c.red;
}

/** Options of {@link renderCiteText}. */
export interface CiteTextOptions {
  /** Terminal width in columns (at least 60 used). */
  width: number;
  color: boolean;
}

/**
 * The terminal form: the memo's lines that cite (line number, then the line wrapped, each citation marked with its
 * number in the table), the verdicts table, the documents checked with their text's date, and a summary line.
 */
export function renderCiteText(report: CiteReport, memo: string, options: CiteTextOptions): string {
  const c = new Chalk({ level: options.color ? 1 : 0 });
  const width = Math.max(60, options.width);
  const out: string[] = [];
  if (report.citations.length === 0) return 'No citations found.\n';

  // The memo's lines, marked.
  const lines = memo.split(/\r?\n/u);
  const byLine = new Map<number, Array<{ number: number; column: number; text: string; verdict: CiteVerdict }>>();
  report.citations.forEach((citation, i) => {
    const list = byLine.get(citation.line) ?? [];
    list.push({ number: i + 1, column: citation.column, text: citation.text, verdict: citation.verdict });
    byLine.set(citation.line, list);
  });
  const gutter = String(lines.length).length + 2;
  for (const [lineNumber, marks] of [...byLine.entries()].sort((a, b) => a[0] - b[0])) {
    const chars = [...(lines[lineNumber - 1] ?? '')];
    let marked = '';
    let at = 0;
    const paints = new Map<string, (t: string) => string>();
    for (const mark of [...marks].sort((a, b) => a.column - b.column)) {
      const from = mark.column - 1;
      const length = [...mark.text].length;
      if (from < at) continue;
      marked += chars.slice(at, from).join('');
      const token = `[${chars.slice(from, from + length).join('')}]${superscript(mark.number)}`;
      paints.set(sanitizeLine(token), paint(c, mark.verdict));
      marked += token;
      at = from + length;
    }
    marked += chars.slice(at).join('');
    const rows = wrapText(marked, width - gutter).map((row) => {
      let painted = row;
      for (const [token, color] of paints) if (painted.includes(token)) painted = painted.split(token).join(color(token));
      return painted;
    });
    out.push(...hang(c.dim(String(lineNumber).padStart(gutter - 2) + '  '), gutter, rows));
  }
  out.push('');

  // The verdicts, each column as wide as its content allows: a verdict whole, the citation as wide as the longest
  // citation (act names wrap under it), the detail the rest. On a narrow terminal the line and column go under the
  // number, to leave the detail room.
  const rows = report.citations.map((citation, i) => ({
    number: String(i + 1),
    at: `${citation.line}:${citation.column}`,
    text: sanitizeLine(citation.text),
    act: citation.act === null ? undefined : sanitizeLine(citation.act),
    verdict: citation.verdict,
    detail: sanitizeLine(citation.detail),
    warning: citation.warning === null || citation.warning === undefined ? undefined : sanitizeLine(citation.warning),
  }));
  const citations = { header: 'Citation', cells: rows.map((r) => (r.act === undefined ? r.text : `${r.text}\n${r.act}`)), max: Math.max(...rows.map((r) => [...r.text].length)) };
  const detailOf = (r: (typeof rows)[number]): string => (r.warning === undefined ? r.detail : `${r.detail}\nWarning: ${r.warning}`);
  const rest = [citations, { header: 'Verdict', cells: rows.map((r) => r.verdict) }, { header: 'Detail', cells: rows.map(detailOf) }];
  let widths = fitColumns([{ header: '#', cells: rows.map((r) => r.number) }, { header: 'Line:Col', cells: rows.map((r) => r.at) }, ...rest], width);
  const stacked = widths.at(-1)! < MIN_DETAIL_WIDTH;
  if (stacked) widths = fitColumns([{ header: '#', cells: rows.map((r) => `${r.number}\n${r.at}`) }, ...rest], width);
  const head = stacked ? ['#', 'Citation', 'Verdict', 'Detail'] : ['#', 'Line:Col', 'Citation', 'Verdict', 'Detail'];
  const table = compactTable(c, head, widths, stacked ? ['right', 'left', 'left', 'left'] : ['right', 'left', 'left', 'left', 'left'], options.color);
  for (const r of rows) {
    const citation = r.act === undefined ? r.text : `${r.text}\n${c.dim(r.act)}`;
    const detail = r.warning === undefined ? r.detail : `${r.detail}\n${c.red(`Warning: ${r.warning}`)}`;
    const cells = [citation, paint(c, r.verdict)(r.verdict), detail];
    table.push(stacked ? [`${r.number}\n${c.dim(r.at)}`, ...cells] : [r.number, r.at, ...cells]);
  }
  out.push(table.toString(), '');

  if (report.documents.length > 0) {
    out.push(c.bold('Checked in:'));
    for (const document of report.documents) {
      const status = textStatusOfDocument(document) ?? (document.date ? `published ${document.date}` : 'its date is not given');
      out.push(...hang('  ', 2, wrapText(`${document.title || document.document_id} (${document.document_id}): ${status}`, width - 2)));
    }
    out.push('');
  }

  const counts = CITE_VERDICTS.map((verdict) => [verdict, report.citations.filter((x) => x.verdict === verdict).length] as const).filter(([, n]) => n > 0);
  const found = report.citations.filter((x) => x.verdict === 'found').length;
  const unchecked = report.citations.filter((x) => x.verdict === 'found' && x.unchecked !== null).length;
  const warned = report.citations.filter((x) => x.verdict === 'found' && x.warning !== null && x.warning !== undefined).length;
  const caveat =
    (unchecked > 0 ? ` ${unchecked} found only as far as the article: its text numbers no paragraphs, so the ал. cited was not checked.` : '') +
    (warned > 0 ? ` ${warned} found, but ${warned === 1 ? 'a part of it was' : 'a part of each was'} declared unconstitutional (see the warnings).` : '');
  const others = counts.filter(([verdict]) => verdict !== 'found').map(([verdict, n]) => `${n} ${verdict}`);
  const summary =
    (found === report.citations.length && warned === 0
      ? c.green(report.citations.length === 1 ? 'The citation was found.' : `All ${report.citations.length} citations found.`)
      : `${found} of ${plural(report.citations.length, 'citation')} found${others.length > 0 ? `; ${others.join(', ')}` : ''}.`) + caveat;
  out.push(...wrapText(summary, width));
  const spent =
    `${plural(report.searches_sent, 'search', 'searches')} sent, ${report.searches_from_cache} from the cache; ` +
    `${plural(report.documents_retrieved, 'document')} retrieved, ${report.documents_from_cache} from the cache.`;
  out.push(...wrapText(spent, width).map((line) => c.dim(line)));
  return `${out.join('\n')}\n`;
}

/**
 * The piped form: one line per citation: line, column, citation, verdict, document_id, ref, detail, warning (empty when
 * none: what of the provision cited was declared unconstitutional).
 */
export function renderCiteTsv(report: CiteReport): string {
  return tsvLines(report.citations.map((c) => [c.line, c.column, c.text, c.verdict, c.document_id, c.ref, c.detail, c.warning ?? '']));
}

/** The view of a report of the memo `memo`. */
export function citeView(memo: string): View<CiteReport> {
  return {
    table: (report, options) => renderCiteText(report, memo, options),
    tsv: renderCiteTsv,
    page: true,
  };
}
