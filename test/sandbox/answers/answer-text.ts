/**
 * Reading a composed answer back, for the tests: its lead, its paragraphs (one per cited document) and their quoted
 * blocks, and the checks every answer must pass (every marker resolves into `sources`; every quotation is a substring
 * of the text of the excerpt its block cites; no amendment note is quoted; one paragraph per source, headed by its
 * title).
 */
import { expect } from 'vitest';
import type { Excerpt } from '../../../src/contract/types.js';
import { ANSWER_LEAD, MAX_DOCUMENTS, MAX_PICKS_PER_DOCUMENT, type AnswerSource } from '../../../src/sandbox/answers/compose.js';

/** One quoted line: where it is (`<title>, чл. 2, ал. 1` on a block's first line, `т. 2` on a point's) and the quotation. */
export interface QuotedLine {
  where: string;
  quote: string;
}

/** A quoted provision: its lines and the excerpt id its marker names. */
export interface QuotedBlock {
  lines: QuotedLine[];
  id: string;
}

/** An answer as `compose.ts` writes it. */
export interface ParsedAnswer {
  lead: string;
  /** One per paragraph after the lead: its blocks. */
  paragraphs: QuotedBlock[][];
  /** Every quoted line of every block, with the block's marker, in order. */
  quotes: { where: string; quote: string; id: string }[];
}

/** `<where>: „<quotation>“`, optionally followed by ` [<id>]`: a quoted line. */
const QUOTED_LINE = /^(.+?): „(.*)“(?: \[([^[\]]+)\])?$/u;
/** The line after a list cut short: `(Не са цитирани още 3 точки.)`. */
const OMITTED_LINE = /^\(Не (?:е цитирана|са цитирани) още \d+ (?:точка|точки|буква|букви)\.\)$/u;

/** Splits `answer` into its lead and paragraphs of quoted blocks; asserts that every line is a quoted line or an omission line. */
export function parseAnswer(answer: string): ParsedAnswer {
  const [lead = '', ...rest] = answer.split('\n\n');
  const paragraphs: QuotedBlock[][] = [];
  const quotes: ParsedAnswer['quotes'] = [];
  for (const paragraph of rest) {
    const blocks: QuotedBlock[] = [];
    let pending: QuotedLine[] = [];
    for (const line of paragraph.split('\n')) {
      if (OMITTED_LINE.test(line)) continue;
      const match = QUOTED_LINE.exec(line);
      expect(match, `not a quoted line: ${line}`).not.toBeNull();
      pending.push({ where: match![1]!, quote: match![2]! });
      if (match![3] !== undefined) {
        blocks.push({ lines: pending, id: match![3] });
        for (const quoted of pending) quotes.push({ ...quoted, id: match![3] });
        pending = [];
      }
    }
    expect(pending, 'a quoted line after the last marker of its paragraph').toEqual([]);
    paragraphs.push(blocks);
  }
  return { lead, paragraphs, quotes };
}

/** Amendment notes as the statutes write them: „(Изм. - ДВ, бр. …)“, „(нова - ДВ …)“, „(Отм.)“. */
export const AMENDMENT_NOTE = /\(\s*(?:изм|доп|отм|нов|предишн)[^()]*(?:ДВ|\))/iu;

/**
 * Asserts the citation rules of an answer with sources (spec: Answer job, `sources`: "each citation marker in `answer`
 * points to an `excerpt_id` or a `document_id` in this array"; GUIDE: nothing is said that the cited text does not
 * say): the lead; one paragraph per source (at most {@link MAX_DOCUMENTS}), in order, each block headed by the source's
 * title and citing one of its excerpts, at most {@link MAX_PICKS_PER_DOCUMENT} blocks; every marker names an excerpt of
 * `sources`; every quotation is a substring of its excerpt's `text`, without square brackets or amendment notes; every
 * excerpt of `sources` is cited. Returns the parsed answer.
 */
export function expectWellCited(answer: string, sources: readonly AnswerSource[]): ParsedAnswer {
  const excerpts = new Map<string, Excerpt>(sources.flatMap((s) => s.excerpts.map((e) => [e.excerpt_id, e] as const)));
  for (const [, id] of answer.matchAll(/\[([^\]]*)\]/g)) expect(excerpts.has(id!), `marker [${id}] names no excerpt of sources`).toBe(true);
  const parsed = parseAnswer(answer);
  expect(parsed.lead).toBe(ANSWER_LEAD);
  expect(parsed.paragraphs).toHaveLength(sources.length);
  expect(sources.length).toBeGreaterThan(0);
  expect(sources.length).toBeLessThanOrEqual(MAX_DOCUMENTS);
  sources.forEach((source, i) => {
    const blocks = parsed.paragraphs[i]!;
    expect(blocks.length).toBeGreaterThan(0);
    expect(blocks.length).toBeLessThanOrEqual(MAX_PICKS_PER_DOCUMENT);
    for (const block of blocks) {
      expect(block.lines[0]!.where.startsWith(source.title.replace(/\s+/g, ' ').trim())).toBe(true);
      expect(source.excerpts.map((e) => e.excerpt_id)).toContain(block.id);
    }
  });
  for (const { quote, id } of parsed.quotes) {
    expect(excerpts.get(id)!.text).toContain(quote);
    expect(quote).not.toMatch(/[[\]]/);
    expect(quote).not.toMatch(AMENDMENT_NOTE);
  }
  expect([...excerpts.keys()].sort()).toEqual([...new Set(parsed.quotes.map((q) => q.id))].sort());
  return parsed;
}
