/**
 * Renderers of an answer job (spec: Answer job; GET /v1/answers/{job_id}) and of the verification of its citations
 * (`src/legal/verify.ts`). The answer is printed with its citation markers numbered `[1]`, `[2]`… in order of first
 * appearance (`resolvedAnswerOf`, as the verifier numbers them), followed by the list of sources those numbers stand
 * for; an unresolved marker is printed `[?<marker>]` and listed as such, never dropped. Pure functions of the data:
 * they return strings and never write. Every string of the job passes through the sanitizer: `sanitizeLine`,
 * `sanitizeText`, or `wrapText`.
 */
import { Chalk } from 'chalk';
import type { AnswerJob } from '../contract/types.js';
import type { View } from '../io/printer.js';
import { sanitizeLine, sanitizeText } from '../shared/sanitize.js';
import { answerWithCitations, resolvedAnswerOf, type AnswerSource, type Citation, type ResolvedAnswer } from '../legal/answer-markers.js';
import { passagesCompared, type CitationCheck, type Verification, type VerificationReport } from '../legal/verify.js';
import { decisionFieldsOf, linkNoteOf, stringField } from './fields.js';
import { answerMarkdownCounts, renderAnswerMarkdown } from './markdown.js';
import { hang, plural, wrapText } from './text.js';

/** Options of the terminal forms. */
export interface AnswerTextOptions {
  /** Terminal width in columns; text is wrapped to it (minimum 40). */
  width: number;
  /** Whether to use ANSI colours and bold. */
  color: boolean;
}

const MIN_WIDTH = 40;
type Painter = InstanceType<typeof Chalk>;

/**
 * How lines are laid out: wrapped to `width` with colour for a terminal, or (`width` undefined) one line per entry as
 * written, without colour, for a pipe.
 */
interface Layout {
  c: Painter;
  width: number | undefined;
}

function terminalLayout(options: AnswerTextOptions): Layout {
  return { c: new Chalk({ level: options.color ? 1 : 0 }), width: Math.max(MIN_WIDTH, options.width) };
}

const PLAIN: Layout = { c: new Chalk({ level: 0 }), width: undefined };

/**
 * `text` after a `prefix` (already painted; `prefixWidth` columns wide): wrapped with a hanging indent of
 * `prefixWidth` on a terminal, one sanitized line in the plain layout.
 */
function hanging(prefix: string, prefixWidth: number, text: string, layout: Layout): string[] {
  if (layout.width === undefined) return [`${prefix}${sanitizeLine(text)}`];
  const lines = wrapText(text, layout.width - prefixWidth);
  return lines.length === 0 ? [prefix.trimEnd()] : hang(prefix, prefixWidth, lines);
}

/** The sources of a job: its `sources` when an array, else none. */
function sourcesOf(job: AnswerJob): AnswerSource[] {
  return Array.isArray(job.sources) ? job.sources : [];
}

/** The one line of a job that is not `succeeded`: the error of a failed job, or the status of an unfinished one. */
function statusLine(job: AnswerJob): string {
  const id = sanitizeLine(String(job.job_id ?? ''));
  if (job.status === 'failed') {
    const error = [job.error_code, job.error_message]
      .filter((part): part is string => typeof part === 'string' && part.trim() !== '')
      .map(sanitizeLine)
      .join(': ');
    return `Answer job ${id} failed: ${error === '' ? 'the server gave no error_code or error_message' : error}`;
  }
  return `Answer job ${id} is ${sanitizeLine(String(job.status ?? 'in an unknown state'))}: it has no answer yet.`;
}

/** The marker as printed in the answer: `[3]`, or `[?<marker>]` when it names no source. */
function markerText(citation: Citation): string {
  return citation.resolved ? `[${citation.number}]` : `[?${sanitizeLine(citation.marker)}]`;
}

/**
 * The answer's text with markers numbered: on a terminal each line (paragraph) as the server wrote it, wrapped to the
 * width, runs of blank lines kept as one, unresolved markers red; in the plain layout the text as written (sanitized:
 * no control sequences; TAB and line breaks kept).
 */
function answerLines(resolved: ResolvedAnswer, layout: Layout): string[] {
  const text = sanitizeText(answerWithCitations(resolved, markerText)).replace(/\s+$/u, '');
  if (layout.width === undefined) return text === '' ? [] : text.split('\n');
  const width = layout.width;
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    const wrapped = wrapText(paragraph, width);
    if (wrapped.length === 0) {
      if (lines.length > 0 && lines.at(-1) !== '') lines.push('');
    } else lines.push(...wrapped);
  }
  const unresolved = resolved.citations.filter((c) => !c.resolved).map(markerText);
  if (unresolved.length === 0 || layout.c.level === 0) return lines;
  // A token `[?…]` cannot hold another (each starts with `[?` and ends at its only `]`), so plain replacement is safe.
  return lines.map((line) => unresolved.reduce((painted, token) => painted.split(token).join(layout.c.red(token)), line));
}

/**
 * What identifies a source in one line: `<title> — <label> · <date>`, and for a court decision `· <court> · дело №
 * <case_number>`. The label is the cited excerpt's (absent for a document marker and an uncited source). Unsanitized.
 */
function sourceSummary(source: AnswerSource, label: string | undefined): string {
  const title = stringField(source, ['title']) ?? stringField(source, ['document_id']) ?? '(untitled source)';
  const decision = decisionFieldsOf(source);
  const court = decision.court ?? (decision.courtId !== undefined ? `съд с код ${decision.courtId}` : undefined);
  const parts = [
    label === undefined || label.trim() === '' ? title : `${title} — ${label}`,
    stringField(source, ['date']),
    court,
    decision.caseNumber === undefined ? undefined : `дело № ${decision.caseNumber}`,
  ];
  return parts.filter((part): part is string => part !== undefined).map(sanitizeLine).filter((part) => part !== '').join(' · ');
}

/** The label of a citation's excerpt (its `label`, else its `excerpt_id`); `undefined` for a document marker. */
function citedLabel(citation: Citation): string | undefined {
  if (!citation.resolved || citation.excerpt === undefined) return undefined;
  return stringField(citation.excerpt, ['label']) ?? citation.excerpt.excerpt_id;
}

/**
 * One source entry: the summary after the prefix, then the url on its own indented line, never wrapped (it stays one
 * string that a terminal recognizes and a person can copy), and under it, dim, what the page shows when it is not the
 * text quoted (`linkNoteOf`: a lex.bg page's current text).
 */
function entryLines(prefix: string, prefixWidth: number, source: AnswerSource, label: string | undefined, layout: Layout): string[] {
  const lines = hanging(prefix, prefixWidth, sourceSummary(source, label), layout);
  const url = stringField(source, ['url']);
  if (url !== undefined) {
    lines.push(`${' '.repeat(prefixWidth)}${sanitizeLine(url)}`);
    const page = linkNoteOf(source);
    if (page !== undefined) lines.push(...hanging(' '.repeat(prefixWidth), prefixWidth, `(${page})`, layout).map((line) => layout.c.dim(line)));
  }
  return lines;
}

/** The `Sources` list: one entry per citation number, then the uncited sources. */
function sourceLines(resolved: ResolvedAnswer, sources: AnswerSource[], layout: Layout): string[] {
  const { c } = layout;
  const lines: string[] = [];
  /** The number under which each source (by index) was listed in full. */
  const listed = new Map<number, number>();
  if (sources.length === 0) lines.push('', 'No sources.');
  if (resolved.citations.length > 0) {
    const numberWidth = `[${resolved.citations.length}] `.length;
    if (sources.length > 0) lines.push('', c.bold('Sources'));
    for (const citation of resolved.citations) {
      const number = `[${citation.number}]`;
      const pad = ' '.repeat(numberWidth - number.length);
      if (!citation.resolved) {
        const what = `unresolved: "${sanitizeLine(citation.marker)}" names no source of this answer`;
        lines.push(...hanging(`${c.red.bold(number)}${pad}`, numberWidth, what, layout));
        continue;
      }
      const source = sources[citation.sourceIndex] ?? {};
      const label = citedLabel(citation);
      const first = listed.get(citation.sourceIndex);
      if (first !== undefined) {
        // The document is listed in full at [first]: say only what of it this citation cites.
        const what = label === undefined ? `the document of [${first}]` : `${sanitizeLine(label)} · same document as [${first}]`;
        lines.push(...hanging(`${c.bold(number)}${pad}`, numberWidth, what, layout));
        continue;
      }
      listed.set(citation.sourceIndex, citation.number);
      lines.push(...entryLines(`${c.bold(number)}${pad}`, numberWidth, source, label, layout));
    }
  }
  const uncited = resolved.uncited.map((i) => sources[i]).filter((s): s is AnswerSource => typeof s === 'object' && s !== null);
  if (uncited.length > 0) {
    lines.push('', c.bold(resolved.citations.length > 0 ? 'Also among the sources (not cited):' : 'Sources (none cited):'));
    for (const source of uncited) lines.push(...entryLines('- ', 2, source, undefined, layout));
  }
  return lines;
}

function renderAnswer(job: AnswerJob, layout: Layout): string {
  if (job.status !== 'succeeded') {
    const line = statusLine(job);
    return `${(layout.width === undefined ? [line] : wrapText(line, layout.width)).join('\n')}\n`;
  }
  const sources = sourcesOf(job);
  const resolved = resolvedAnswerOf(job);
  const lines = answerLines(resolved, layout);
  if (lines.length === 0) lines.push(layout.c.dim('(The job succeeded with an empty answer.)'));
  lines.push(...sourceLines(resolved, sources, layout));
  return `${lines.join('\n')}\n`;
}

/**
 * A final answer job for a terminal. `succeeded`: the answer wrapped to the width (the server's line breaks kept),
 * its markers numbered `[1]`, `[2]`… in order of first appearance (a repeated marker keeps its number; an unresolved
 * one is printed `[?<marker>]`, red when colour is on); then a blank line and `Sources`, one entry per number:
 * `[n] <title> — <label of the cited excerpt> · <date>`, for a court decision also `· <court> · дело № <case>`, and the
 * url on its own indented line; a later citation of a source already listed at `[m]` in one short line,
 * `[n] <label> · same document as [m]` (or `[n] the document of [m]`); an unresolved one as
 * `[n] unresolved: "<marker>" names no source of this answer`.
 * Then, when some sources are cited by no marker, `Also among the sources (not cited):` with the same entries, without
 * numbers (`Sources (none cited):` when the answer has no marker at all). No sources: the answer and `No sources.`
 * (then any unresolved markers listed). `failed`: `Answer job <id> failed: <error_code>: <error_message>`. An
 * unfinished job (`queued`, `running`): one line saying so. Urls are not wrapped.
 */
export function renderAnswerText(job: AnswerJob, options: AnswerTextOptions): string {
  return renderAnswer(job, terminalLayout(options));
}

/**
 * A final answer job for a pipe or a file (`pravo answer … > answer.txt`): the same text as {@link renderAnswerText}
 * without colour and without wrapping: the answer's paragraphs as the server wrote them, each source entry on one
 * line with its url on the next. Not tab-separated: the answer is prose, and this form stays readable. Foreign text is
 * sanitized (no control sequences; see `sanitizeText`).
 */
export function renderAnswerPlain(job: AnswerJob): string {
  return renderAnswer(job, PLAIN);
}

/**
 * The answer job's view for the printer: on a terminal {@link renderAnswerText} (paged); when piped, not TSV but
 * {@link renderAnswerPlain}, the same text without colour and wrapping, so that `pravo answer … > answer.txt` is a
 * readable file.
 */
export const answerView: View<AnswerJob> = {
  table: renderAnswerText,
  tsv: renderAnswerPlain,
  page: true,
};

/**
 * The verdict of a check as printed, coloured: what was found, not a bare "verified": `found in its document`, for a
 * document marker `its passages found in the document` or, with no passage to compare, `document retrieved (no passage
 * to compare)`.
 */
function verdictText(check: CitationCheck, compared: number | undefined, c: Painter): string {
  const detail = sanitizeLine(check.detail ?? '');
  switch (check.verdict) {
    case 'verified':
      if (check.excerpt_id !== undefined) return c.green('found in its document');
      return c.green(compared === 0 ? 'document retrieved (no passage to compare)' : 'its passages found in the document');
    case 'text_not_found':
      return c.red.bold('TEXT NOT FOUND in the document');
    case 'document_not_retrievable':
      return c.red(`document not retrievable: ${detail === '' ? 'no detail given' : detail}`);
    case 'unresolved_marker':
      return c.red(`unresolved marker "${sanitizeLine(check.marker)}"`);
    default:
      return c.red(sanitizeLine(String(check.verdict)));
  }
}

/** How many passages the check of citation `number` compared (`passagesCompared`); undefined when there is no such citation. */
function comparedCount(number: number, resolved: ResolvedAnswer, sources: AnswerSource[]): number | undefined {
  const citation = resolved.citations.find((c) => c.number === number);
  return citation === undefined ? undefined : passagesCompared(citation, resolved, sources).length;
}

/** What a check is about, as in the Sources list: `<title> — <label>` (a resolved citation only). */
function checkSubject(check: CitationCheck, resolved: ResolvedAnswer, sources: AnswerSource[]): string | undefined {
  const citation = resolved.citations.find((c) => c.number === check.number);
  if (citation === undefined || !citation.resolved) return undefined;
  const source = sources[citation.sourceIndex];
  if (source === undefined) return undefined;
  const title = stringField(source, ['title']) ?? stringField(source, ['document_id']);
  const label = citedLabel(citation);
  const subject = [title, label].filter((part): part is string => part !== undefined).map(sanitizeLine).join(' — ');
  return subject === '' ? undefined : subject;
}

/**
 * What the checks found, saying what was checked: `Every cited passage found in its document (5 of 5).` (with `; 1
 * citation names a whole document: retrieved, no passage to compare` when some do), or `2 of 5 citations not
 * confirmed: 1 passage not found in its document, 1 document not retrievable.` and the like.
 */
function summary(checks: readonly CitationCheck[], resolved: ResolvedAnswer, sources: AnswerSource[]): { text: string; tone?: 'green' | 'red' } {
  const total = checks.length;
  if (total === 0) return { text: 'The answer has no citations to check.' };
  const count = (verdict: CitationCheck['verdict']): number => checks.filter((check) => check.verdict === verdict).length;
  const failed = total - count('verified');
  if (failed === 0) {
    const whole = checks.filter((check) => comparedCount(check.number, resolved, sources) === 0).length;
    const passages = total - whole;
    const documents = 'a whole document: retrieved, no passage to compare';
    if (passages === 0) return { text: `${whole === 1 ? 'The citation names' : `All ${whole} citations name`} ${documents}.`, tone: 'green' };
    const also = whole === 0 ? '' : `; ${plural(whole, 'citation names', 'citations name')} ${documents}`;
    return { text: `Every cited passage found in its document (${passages} of ${passages})${also}.`, tone: 'green' };
  }
  const why = [
    plural(count('text_not_found'), 'passage not found in its document', 'passages not found in their documents'),
    plural(count('document_not_retrievable'), 'document not retrievable', 'documents not retrievable'),
    plural(count('unresolved_marker'), 'marker naming no source', 'markers naming no source'),
  ].filter((part) => !part.startsWith('0 '));
  return { text: `${failed} of ${plural(total, 'citation')} not confirmed: ${why.join(', ')}.`, tone: 'red' };
}

/** What the check compares, and what it does not. */
const SCOPE_LINE =
  'The check compares wording only: each cited passage with the text of its document (white space, quotes and dashes aside), not whether it answers the question.';

/** `2 retrieval units spent, 1 document from cache.` */
function costLine(report: VerificationReport): string {
  const units = report.retrieval_units_spent;
  const cached = report.documents_from_cache;
  return `${units} retrieval ${units === 1 ? 'unit' : 'units'} spent, ${cached} ${cached === 1 ? 'document' : 'documents'} from cache.`;
}

function verificationLines(report: VerificationReport, resolved: ResolvedAnswer, sources: AnswerSource[], layout: Layout): string[] {
  const { c } = layout;
  const numberWidth = `[${Math.max(0, ...report.checks.map((check) => check.number))}] `.length;
  const lines: string[] = [];
  for (const check of report.checks) {
    const number = `[${check.number}]`;
    const prefixWidth = Math.max(numberWidth, number.length + 1);
    const compared = comparedCount(check.number, resolved, sources);
    const head = `${c.bold(number)}${' '.repeat(prefixWidth - number.length)}${verdictText(check, compared, c)}`;
    const subject = check.verdict === 'verified' || check.verdict === 'text_not_found' ? checkSubject(check, resolved, sources) : undefined;
    if (subject === undefined) lines.push(head);
    else if (layout.width === undefined || prefixWidth + verdictWidth(check, compared) + 2 + [...subject].length <= layout.width) {
      lines.push(`${head}  ${c.dim(subject)}`);
    } else {
      lines.push(head, ...hanging(' '.repeat(prefixWidth), prefixWidth, subject, layout).map((line) => c.dim(line)));
    }
    if ((check.verdict === 'text_not_found' || check.verdict === 'verified') && check.detail !== undefined) {
      const detail = hanging(' '.repeat(numberWidth), numberWidth, check.detail, layout);
      lines.push(...(check.verdict === 'verified' ? detail.map((line) => c.dim(line)) : detail));
    }
  }
  const { text, tone } = summary(report.checks, resolved, sources);
  const paint = tone === 'green' ? c.green : tone === 'red' ? c.red.bold : (line: string): string => line;
  lines.push(...hanging('', 0, text, layout).map((line) => paint(line)));
  if (report.checks.length > 0) lines.push(...hanging('', 0, SCOPE_LINE, layout).map((line) => c.dim(line)));
  lines.push(c.dim(costLine(report)));
  return lines;
}

/** Columns the verdict text of a check takes (uncoloured). */
function verdictWidth(check: CitationCheck, compared: number | undefined): number {
  return [...verdictText(check, compared, new Chalk({ level: 0 }))].length;
}

/**
 * The verification of an answer's citations (`--verify`), the lines the command prints after the answer (it adds the
 * blank line between): one per check, `[n] found in its document` (green; for a document marker `its passages found in
 * the document` or `document retrieved (no passage to compare)`), `[n] TEXT NOT FOUND in the document` (red; the detail
 * on the next line), `[n] document not retrievable: <detail>`, `[n] unresolved marker "<marker>"`, a found or
 * not-found check followed by the title and label of what it cites (on the next line when the line has no room); then
 * the summary, saying what was found (`Every cited passage found in its document (5 of 5).` or `2 of 5 citations not
 * confirmed: 1 passage not found in its document, 1 document not retrievable.`), what the check compares and what not
 * (dim), and the cost (`2 retrieval units spent, 1 document from cache.`). Without `options`: the plain form for pipes
 * (no colour, no wrapping). Every foreign string is sanitized. Returns the lines joined, each ending in a newline.
 */
export function renderVerification(
  report: VerificationReport,
  resolved: ResolvedAnswer,
  sources: AnswerJob['sources'],
  options?: AnswerTextOptions,
): string {
  const layout = options === undefined ? PLAIN : terminalLayout(options);
  return `${verificationLines(report, resolved, Array.isArray(sources) ? sources : [], layout).join('\n')}\n`;
}

/** A final job and, after `--verify`, its verification (what `pravo answer` prints). */
export interface AnswerOutput {
  job: AnswerJob;
  verification?: Verification;
}

/**
 * The answer (markers resolved, sources listed) followed, after `--verify`, by a blank line, one line per citation and
 * a summary, in one piece so that the pager shows both. Piped: the same without colour or wrapping. With
 * `--format md`: the answer alone as `renderAnswerMarkdown` writes it (the command prints a verification on stderr).
 */
export const answerOutputView: View<AnswerOutput> = {
  page: true,
  markdown: ({ job }) => renderAnswerMarkdown(job),
  markdownSubject: ({ job }) => {
    // What the file holds: its footnotes (one per cited number) and the sources it lists as not cited.
    const { footnotes, uncited } = answerMarkdownCounts(job);
    const notes = footnotes === 0 ? 'no footnotes' : plural(footnotes, 'footnote');
    return `the answer with ${notes}${uncited === 0 ? '' : ` and ${plural(uncited, 'uncited source')}`} (Markdown)`;
  },
  table: ({ job, verification }, options) => {
    const answer = answerView.table(job, options);
    return verification ? `${answer}\n${renderVerification(verification.report, verification.resolved, job.sources, options)}` : answer;
  },
  tsv: ({ job, verification }) => {
    const answer = answerView.tsv(job);
    return verification ? `${answer}\n${renderVerification(verification.report, verification.resolved, job.sources)}` : answer;
  },
};
