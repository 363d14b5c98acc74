/**
 * Markdown for a memo (`--format md` of `pravo search`, `pravo doc` and `pravo answer`): the escaping of foreign text,
 * and the Markdown renderers of a search response (spec: Search response), a document, whole or one element (spec:
 * Document response), and an answer job (spec: Answer job). Pure functions of the data: they return strings and never
 * write.
 *
 * Every string of a response is foreign, and reaches the Markdown only through {@link escapeMarkdown} (one line),
 * {@link markdownBlock} (text whose line breaks are kept), {@link codeSpan} (identifiers) or {@link markdownUrl}
 * (addresses), so that server text renders as the text it is: it can make no link, image, HTML, heading, list, quote,
 * table, code block, emphasis or footnote (definition or reference) of its own, and control sequences are removed
 * (`sanitizeText`: the Markdown may be printed on a terminal). The structure (headings, lists, quotes, bold labels,
 * footnotes, links to the sources' web addresses) is pravo's own. CommonMark with the GitHub extensions (tables,
 * strikethrough, autolinks, footnotes) is the dialect guarded against.
 *
 * The Markdown is for a Bulgarian memo, so pravo's own words in it are Bulgarian too: `# Търсене:`, `оценка`, the
 * fields of a document (`Вид`, `Дата`, `Текст: към …`, `Съд`, `Дело`, `Акт`, `Състав`, `Докладчик`, `Адрес` …),
 * `Отговор от …`, `## Други източници (нецитирани)`. Codes of the API (a job's status) stay as sent.
 */
import type { AnswerJob, DocumentElement, DocumentResponse, SearchResponse, SearchResult } from '../contract/types.js';
import { answerWithCitations, resolvedAnswerOf, type AnswerSource, type Citation, type ResolvedAnswer } from '../legal/answer-markers.js';
import { elementsOf, isCourtDecision } from '../legal/documents.js';
import { sanitizeLine, sanitizeText } from '../shared/sanitize.js';
import { rulingsOf } from '../legal/rulings.js';
import { provisionOfLabel, rulingSentence } from '../shared/ruling-sentence.js';
import { afterLabel, decisionPartsOf, documentFieldsOf, elementCountOf, partNameOf, SECTION_TITLES } from './document-fields.js';
import type { DocumentViewData } from './document.js';
import { bulgarianCount, decisionFieldsOf, elementLabelOf, elementTextOf, excerptTextOf, explanationOf, linkNoteOf, scoreOf, stringField, textStatusOf } from './fields.js';

/**
 * Characters escaped wherever they occur: each can open or close markup (`\` escapes, `` ` `` code, `*` `_` emphasis,
 * `[` `]` links, images and footnotes, `<` `>` HTML and autolinks, quotes at a line's start, `&` entities, `|` table
 * cells, `~` strikethrough and fences, `#` headings and their closing run, `$` maths in some renderers).
 */
const INLINE_SPECIAL = /[\\`*_[\]<>&|~#$]/g;

/** What GitHub's extended autolinks take without `<…>`: `scheme://`, `www.`, an e-mail address (`@`). */
const BARE_LINK = /:(?=\/\/)|(?<=\bwww)\.|@/giu;

/** Line breaks of foreign text (CR LF and CR are made LF first). */
const LINE_BREAK = /\r\n?|[\n\u2028\u2029]/u;

/** The characters {@link renderAnswerMarkdown} marks citations with while escaping; removed from foreign text. */
const MARK_OPEN = '\uE000';
const MARK_CLOSE = '\uE001';
const MARKS = /[\uE000\uE001]/gu;

/**
 * One line of foreign text as Markdown inline text that renders as exactly that text: control sequences removed and
 * white space collapsed (`sanitizeLine`: the result holds no line break); `\ ` * _ [ ] < > & | ~ # $` backslash-escaped
 * everywhere (so no link, image, footnote, HTML tag or entity, code, emphasis, table or strikethrough can form, and
 * `<…>` autolinks cannot either); the `:` of `://`, the `.` of `www.` and `@` escaped too (GitHub's bare autolinks);
 * and what would start a block at the beginning of a line escaped there: `-`, `+`, `=` (list items, thematic breaks,
 * setext underlines) and the `.` or `)` after a number (`1. ` ordered lists). Headings, quotes, fences and indented
 * code cannot start either (`#`, `>`, `` ` ``, `~` are escaped; leading white space is trimmed). Safe wherever pravo
 * places it in a line. `''` for blank text.
 */
export function escapeMarkdown(text: string): string {
  const line = sanitizeLine(text).replace(INLINE_SPECIAL, '\\$&').replace(BARE_LINK, '\\$&');
  return line.replace(/^[-+=]/u, '\\$&').replace(/^(\d+)([.)])/u, '$1\\$2');
}

/**
 * Foreign text whose line breaks mean something (an article's алинеи and точки, an answer's paragraphs) as Markdown
 * lines: each line escaped by {@link escapeMarkdown} (its indentation dropped), the lines of one paragraph joined by
 * hard breaks (a backslash at the end of each but the last), blank lines kept as one empty line between paragraphs.
 * No leading or trailing empty line; `[]` for blank text. The caller prefixes the lines (a quote's `> `, a list item's
 * indentation) as its structure needs.
 */
export function markdownBlock(text: string): string[] {
  const lines: string[] = [];
  for (const raw of sanitizeText(text).split(LINE_BREAK)) {
    const line = escapeMarkdown(raw);
    if (line === '') {
      if (lines.length > 0 && lines.at(-1) !== '') lines.push('');
      continue;
    }
    if (lines.length > 0 && lines.at(-1) !== '') lines[lines.length - 1] += '\\';
    lines.push(line);
  }
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/**
 * An identifier (a `document_id`, a collection, a job id) as a code span: the text on one line (`sanitizeLine`),
 * between backtick runs longer than any run inside it (padded with a space when it starts or ends with a backtick),
 * which Markdown shows literally. `''` for blank text.
 */
export function codeSpan(text: string): string {
  const value = sanitizeLine(text);
  if (value === '') return '';
  const longest = Math.max(0, ...[...value.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = value.startsWith('`') || value.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${value}${pad}${fence}`;
}

/**
 * A web address from a server as Markdown: an `http:` or `https:` URL as an autolink `<https://…>` of its WHATWG
 * serialization (spaces, `<`, `>` and other unsafe characters percent-encoded); any other address (`javascript:`,
 * `file:`, `data:`, something unparsable) as a code span, shown but never a link. `undefined` for a blank one.
 */
export function markdownUrl(url: string | undefined): string | undefined {
  const value = url === undefined ? '' : sanitizeLine(url);
  if (value === '') return undefined;
  let parsed: URL | undefined;
  try {
    parsed = new URL(value);
  } catch {
    parsed = undefined;
  }
  if (parsed !== undefined && (parsed.protocol === 'https:' || parsed.protocol === 'http:') && !/[\s<>\\`"]/u.test(parsed.href)) {
    return `<${parsed.href}>`;
  }
  return codeSpan(value);
}

/** A score as pravo prints it: two decimals. */
function scoreText(score: number): string {
  return score.toFixed(2);
}

/** Lines with `prefix` before each non-empty one (`> `, a list item's indentation); empty lines stay empty. */
function prefixed(prefix: string, lines: readonly string[]): string[] {
  return lines.map((line) => (line === '' ? prefix.trimEnd() : `${prefix}${line}`));
}

/** Joins parts that are present (not blank) with `separator`. */
function joined(parts: readonly (string | undefined)[], separator: string): string {
  return parts.filter((part): part is string => part !== undefined && part !== '').join(separator);
}

/** `text` after the `label` it repeats at its start (`Чл. 108. (1) …` under `Чл. 108.`), else `text`. */
function withoutLabel(text: string, label: string): string {
  if (label.trim() === '') return text;
  return afterLabel(text, sanitizeLine(label))?.replace(/^[ \t]+/u, '') ?? text;
}

/**
 * The court parts of a search result or an answer source, escaped: the court (its code when the name is missing), the
 * act and its number (`Решение № 145`), the case (`дело № 210/2015`) and the reporting judge (`докладчик …`).
 */
function decisionParts(item: object, type: string | undefined, options: { judge: boolean }): string[] {
  const d = decisionFieldsOf(item);
  return [
    d.court ?? (d.courtId !== undefined ? `съд с код ${d.courtId}` : undefined),
    d.decisionNumber && `${type?.trim() || 'Акт'} № ${d.decisionNumber}`,
    d.caseNumber && `дело № ${d.caseNumber}`,
    options.judge ? d.reportingJudge && `докладчик ${d.reportingJudge}` : undefined,
  ]
    .map((part) => (part === undefined ? '' : escapeMarkdown(part)))
    .filter((part) => part !== '');
}

/** The results of a search response that {@link renderSearchMarkdown} writes, one numbered item each. */
export function searchResultsOf(response: SearchResponse): SearchResult[] {
  return Array.isArray(response.results) ? response.results : [];
}

/**
 * A search response as Markdown: `# Търсене: <query>`, a line with the number of results, then a numbered list, best
 * first; each result its title in bold, then a line with its type, its publication date (`дата 2015-09-02`) and its
 * score (`оценка 0.91`) (and, for a statute, what date its text is current as of), for a court decision a line with
 * court, act, case and reporting judge, a line with its `document_id` and collection (code spans, for `pravo doc`)
 * and its web address, then each excerpt as a quote led by its label in bold (and score), and the explanation of
 * relevance (`*Релевантност:*`). With no results, says so (`Няма резултати.`).
 */
export function renderSearchMarkdown(response: SearchResponse): string {
  const results = searchResultsOf(response);
  const out = [`# Търсене: ${escapeMarkdown(String(response.query ?? ''))}`, ''];
  if (results.length === 0) return `${[...out, 'Няма резултати.'].join('\n')}\n`;
  const count = typeof response.result_count === 'number' ? response.result_count : results.length;
  out.push(`${bulgarianCount(count, 'резултат', 'резултата')}, най-подходящите първи. Датите са дати на публикуване; оценките са оценки за релевантност на услугата.`);
  results.forEach((result, index) => {
    out.push('', ...searchItem(result, index + 1));
  });
  return `${out.join('\n')}\n`;
}

/** One numbered item of {@link renderSearchMarkdown}. */
function searchItem(result: SearchResult, rank: number): string[] {
  const marker = `${rank}. `;
  const indent = ' '.repeat(marker.length);
  const title = escapeMarkdown(result.title ?? '') || escapeMarkdown(result.document_id ?? '') || '(без заглавие)';
  const score = scoreOf(result);
  const date = stringField(result, ['date']);
  const status = textStatusOf(result);
  const head = [
    `**${title}**`,
    joined(
      [
        escapeMarkdown(result.type ?? ''),
        date === undefined ? undefined : `дата ${escapeMarkdown(date)}`,
        score === undefined ? undefined : `оценка ${scoreText(score)}`,
        status === undefined ? undefined : escapeMarkdown(status),
      ],
      ' · ',
    ),
    joined(decisionParts(result, result.type, { judge: true }), ' · '),
    joined(
      [
        result.document_id === undefined ? undefined : joined([codeSpan(String(result.document_id)), result.collection === undefined ? undefined : `колекция ${codeSpan(String(result.collection))}`], ', '),
        withPageNote(markdownUrl(stringField(result, ['url'])), result),
      ],
      ' · ',
    ),
  ].filter((line) => line !== '');
  const lines = head.map((line, i) => `${i === 0 ? marker : indent}${line}${i < head.length - 1 ? '\\' : ''}`);

  const excerpts = Array.isArray(result.excerpts) ? result.excerpts : [];
  for (const excerpt of excerpts) {
    if (typeof excerpt !== 'object' || excerpt === null) continue;
    const label = stringField(excerpt, ['label']) ?? stringField(excerpt, ['excerpt_id']) ?? '';
    const excerptScore = scoreOf(excerpt);
    const lead = joined([label === '' ? undefined : `**${escapeMarkdown(label)}**`, excerptScore === undefined ? undefined : `(оценка ${scoreText(excerptScore)})`], ' ');
    const body = markdownBlock(withoutLabel(excerptTextOf(excerpt), label));
    const quote = lead === '' ? body : body.length === 0 ? [lead] : [`${lead} ${body[0]}`, ...body.slice(1)];
    if (quote.length > 0) lines.push('', ...prefixed(`${indent}> `, quote));
  }
  const explanation = explanationOf(result);
  const why = explanation === undefined ? [] : markdownBlock(explanation);
  if (why.length > 0) lines.push('', ...prefixed(indent, [`*Релевантност:* ${why[0]}`, ...why.slice(1)]));
  return lines;
}

/**
 * A document as Markdown (`pravo doc --format md`): `# <title>`, its fields as a list in Bulgarian (`documentFieldsOf`:
 * вид, дата, `Текст: към …` or `както е обнародван, …`, for a court decision съд, дело, акт, отделение, състав and
 * докладчик, автор, the web address, the `document_id` and collection), then each element: its heading in italics when
 * it has one, its label in bold followed by its text without the label repeated, the text's line breaks (алинеи,
 * точки) kept as hard breaks. The whole document says how many elements it has first (`8 члена.`); a decision's
 * operative part and each opinion printed with it start under a heading (`## Диспозитив`, `## Особено мнение`,
 * `## Становище`: `SECTION_TITLES`). With one element selected (`--article`, `--paragraph`) only that element follows
 * the title and fields, so that it stands alone; for a decision's paragraph the fields say which part it is in
 * (`- Част от акта: диспозитив`).
 */
export function renderDocumentMarkdown(data: DocumentViewData): string {
  const document = data.document;
  const decision = isCourtDecision(document);
  const title = escapeMarkdown(document.title ?? '') || escapeMarkdown(String(document.document_id ?? '')) || 'Документ';
  const out = [`# ${title}`, '', ...documentFieldLines(document, decision)];
  const elements = elementsOf(document);
  // A decision's operative part and opinions start under a heading of their own (`decisionParts`).
  const parts = decision ? decisionPartsOf(elements) : [];
  if (data.selected) {
    const index = elements.indexOf(data.selected.element);
    const part = index < 0 ? undefined : partNameOf(parts, index, 'bg');
    if (part !== undefined) out.push(`- Част от акта: ${escapeMarkdown(part)}`);
    out.push(...rulingLines(data.selected.element), '', ...elementLines(data.selected.element));
  } else {
    out.push('', elements.length === 0 ? 'Няма елементи (документът няма структурирано съдържание).' : `${elementCountOf(elements, decision, 'bg')}.`);
    elements.forEach((element, i) => {
      const opens = parts[i]?.opens;
      if (opens !== undefined) out.push('', `## ${SECTION_TITLES.bg[opens]}`);
      out.push(...rulingLines(element), '', ...elementLines(element));
    });
  }
  return `${out.join('\n')}\n`;
}

/**
 * The rulings on an element (sandbox: `rulings`), each a quoted paragraph in the Court's wording before the element:
 * `> Решение № 12 от 2016 г. на Конституционния съд обявява за противоконституционна разпоредбата на чл. 79, ал. 2, т. 2.`
 */
function rulingLines(element: DocumentElement): string[] {
  const provision = provisionOfLabel(elementLabelOf(element)) || 'този текст';
  return rulingsOf(element).flatMap((r) => [
    '',
    `> ${escapeMarkdown(rulingSentence(provision, { number: r.decisionNumber, year: r.decisionYear, ...(r.part ? { part: r.part.text } : {}), laterAmended: r.laterAmended }))}`,
  ]);
}

/** The field list of a document: `- Вид: Закон`, …, `- Адрес: <https://…>`, `` - Документ: `id`, колекция `c` ``. */
function documentFieldLines(document: DocumentResponse, decision: boolean): string[] {
  const lines = documentFieldsOf(document, decision, 'bg').map(([name, value, key]) => `- ${name}: ${key === 'url' ? markdownUrl(value) : escapeMarkdown(value)}`);
  const id = typeof document.document_id === 'string' ? codeSpan(document.document_id) : '';
  const collection = typeof document.collection === 'string' ? codeSpan(document.collection) : '';
  if (id !== '') lines.push(`- Документ: ${joined([id, collection === '' ? undefined : `колекция ${collection}`], ', ')}`);
  return lines;
}

/** One element: its heading in italics (a paragraph of its own), then `**<label>** <text>`, line breaks kept. */
function elementLines(element: DocumentElement): string[] {
  const label = elementLabelOf(element);
  const body = markdownBlock(withoutLabel(elementTextOf(element), label));
  const heading = typeof element.heading === 'string' ? escapeMarkdown(element.heading) : '';
  const bold = escapeMarkdown(label);
  const lines = bold === '' ? body : body.length === 0 ? [`**${bold}**`] : [`**${bold}** ${body[0]}`, ...body.slice(1)];
  return heading === '' ? lines : [`*${heading}*`, '', ...lines];
}

/**
 * One source of an answer for a footnote or a list item, escaped: title, the label of the cited excerpt (without its
 * closing full stop: `Чл. 326`), the date, what date a statute's text is current as of, for a court decision the
 * court, the act and the case, then the web address; parts joined by commas.
 */
function sourceText(source: AnswerSource, label: string | undefined): string {
  const title = stringField(source, ['title']) ?? stringField(source, ['document_id']) ?? '(източник без заглавие)';
  const status = textStatusOf(source);
  return joined(
    [
      escapeMarkdown(title),
      label === undefined ? undefined : escapeMarkdown(sanitizeLine(label).replace(/\.$/u, '')),
      escapeMarkdown(stringField(source, ['date']) ?? ''),
      status === undefined ? undefined : escapeMarkdown(status),
      ...decisionParts(source, stringField(source, ['type']), { judge: false }),
      withPageNote(markdownUrl(stringField(source, ['url'])), source),
    ],
    ', ',
  );
}

/**
 * An item's link followed by what its page shows when that is not the text cited (`linkNoteOf`, in Bulgarian), escaped,
 * in brackets: `<https://lex.bg/…> (страницата показва …)`. `undefined` without a link.
 */
function withPageNote(link: string | undefined, item: object): string | undefined {
  const note = link === undefined ? undefined : linkNoteOf(item, 'bg');
  return note === undefined ? link : `${link} (${escapeMarkdown(sanitizeLine(note))})`;
}

/** The label of a resolved citation's excerpt (its `label`, else its `excerpt_id`); `undefined` for a document marker. */
function citedLabel(citation: Citation): string | undefined {
  if (!citation.resolved || citation.excerpt === undefined) return undefined;
  return stringField(citation.excerpt, ['label']) ?? citation.excerpt.excerpt_id;
}

/** A citation as written in the answer: `[^3]` for a resolved one, the escaped `[?<marker>]` for an unresolved one. */
function citationText(citation: Citation): string {
  return citation.resolved ? `[^${citation.number}]` : escapeMarkdown(`[?${citation.marker}]`);
}

/**
 * The answer text with its citations as footnote references: the text escaped as a {@link markdownBlock} (paragraphs
 * and line breaks kept), each citation in it written by {@link citationText}. Citations stand in the text as private
 * marks while it is escaped; a `(`, `:` right after a reference and a `!` right before one are escaped, so that no
 * link, image or footnote definition forms around it.
 */
function answerBody(resolved: ResolvedAnswer): string[] {
  const marked = answerWithCitations(
    { ...resolved, segments: resolved.segments.map((s) => (s.kind === 'text' ? { kind: 'text', text: s.text.replace(MARKS, '') } : s)) },
    (citation) => `${MARK_OPEN}${citation.number}${MARK_CLOSE}`,
  );
  const pattern = new RegExp(`(!?)${MARK_OPEN}(\\d+)${MARK_CLOSE}([(:]?)`, 'gu');
  return markdownBlock(marked).map((line) =>
    line.replace(pattern, (_all, bang: string, number: string, next: string) => {
      const citation = resolved.citations[Number(number) - 1];
      const text = citation === undefined ? '' : citationText(citation);
      return `${bang === '' ? '' : '\\!'}${text}${next === '' ? '' : `\\${next}`}`;
    }),
  );
}

/** `2026-03-01` from an ISO timestamp of the job (`updated_at`, else `created_at`); `undefined` when there is none. */
function answerDate(job: AnswerJob): string | undefined {
  const stamp = stringField(job, ['updated_at', 'created_at']);
  const match = stamp === undefined ? null : /^(\d{4}-\d{2}-\d{2})/u.exec(stamp.trim());
  return match?.[1];
}

/** What {@link renderAnswerMarkdown} writes of an answer's sources: its footnotes, and the sources it lists uncited. */
export interface AnswerMarkdownCounts {
  /** Footnote definitions (`[^n]: …`), one per cited number: a source cited at two excerpts has two. */
  footnotes: number;
  /** The sources no marker cites, listed after the footnotes. */
  uncited: number;
}

/** The counts of {@link AnswerMarkdownCounts} for `job`; zero for a job that has not succeeded (no answer is written). */
export function answerMarkdownCounts(job: AnswerJob): AnswerMarkdownCounts {
  if (job.status !== 'succeeded') return { footnotes: 0, uncited: 0 };
  const resolved = resolvedAnswerOf(job);
  const sources: unknown[] = Array.isArray(job.sources) ? job.sources : [];
  return {
    footnotes: resolved.citations.filter((c) => c.resolved).length,
    uncited: resolved.uncited.filter((i) => typeof sources[i] === 'object' && sources[i] !== null).length,
  };
}

/**
 * An answer job as Markdown (`pravo answer --format md`). `succeeded`: `# <question>`, a line with the date of the
 * answer and its job id (`Отговор от 2026-03-01, задача `…`.`), the answer with each citation marker replaced by a
 * footnote reference `[^n]` whose `n` is the number the terminal view prints (`[n]`, in order of first appearance;
 * `resolvedAnswerOf`), its paragraphs kept; then one footnote definition per resolved number, `[^n]: <title>,
 * <label>, <date>, <text current as of>, <court>, <act>, <case>, <url>` (each complete, also for a source cited
 * twice); a marker that names no source stays in the text as the escaped `[?<marker>]`, never a footnote, and is
 * listed after the footnotes; sources no marker cites follow under `## Други източници (нецитирани)` as a plain list.
 * So every reference has exactly one definition and every definition is referenced. Another status: a heading and a
 * line saying the job has no answer.
 */
export function renderAnswerMarkdown(job: AnswerJob): string {
  const query = typeof job.query === 'string' ? escapeMarkdown(job.query) : '';
  const out = [`# ${query === '' ? 'Отговор' : query}`, ''];
  const id = codeSpan(String(job.job_id ?? ''));
  if (job.status !== 'succeeded') {
    const state = job.status === undefined ? 'в неизвестно състояние' : `в състояние ${escapeMarkdown(String(job.status))}`;
    out.push(`Задачата за отговор ${id} е ${state}: няма отговор.`);
    return `${out.join('\n')}\n`;
  }
  const date = answerDate(job);
  out.push(`${date === undefined ? 'Отговор' : `Отговор от ${date}`}${id === '' ? '' : `, задача ${id}`}.`);
  const resolved = resolvedAnswerOf(job);
  const sources: AnswerSource[] = Array.isArray(job.sources) ? job.sources : [];
  const body = answerBody(resolved);
  out.push('', ...(body.length === 0 ? ['(Задачата завърши успешно, но отговорът е празен.)'] : body));

  const definitions = resolved.citations.flatMap((citation) => {
    if (!citation.resolved) return [];
    // Every resolved number is referenced in the text, so each gets its definition, even of a malformed source.
    const source = sources[citation.sourceIndex];
    return [`[^${citation.number}]: ${sourceText(typeof source === 'object' && source !== null ? source : {}, citedLabel(citation))}`];
  });
  if (definitions.length > 0) out.push('', ...definitions);
  const unresolved = resolved.citations.filter((c) => !c.resolved);
  if (unresolved.length > 0) {
    const which = unresolved.map((c) => escapeMarkdown(`[?${c.marker}]`)).join(', ');
    out.push('', `${unresolved.length === 1 ? 'Този маркер не сочи' : 'Тези маркери не сочат'} източник на отговора: ${which}.`);
  }
  const uncited = resolved.uncited.map((i) => sources[i]).filter((s): s is AnswerSource => typeof s === 'object' && s !== null);
  if (uncited.length > 0) {
    out.push('', `## ${resolved.citations.some((c) => c.resolved) ? 'Други източници (нецитирани)' : 'Източници (нито един не е цитиран)'}`, '');
    for (const source of uncited) out.push(`- ${sourceText(source, undefined)}`);
  }
  if (sources.length === 0) out.push('', 'Няма източници.');
  return `${out.join('\n')}\n`;
}
