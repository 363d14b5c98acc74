/**
 * Reading a composed answer back, for the tests: its lead's markers and its quoted sentences with their markers, and
 * the checks every answer must pass (every marker resolves into `sources`; every quoted sentence is a substring of the
 * text of the excerpt it cites).
 */
import { expect } from 'vitest';
import type { Excerpt } from '../../../src/contract/types.js';
import type { AnswerSource } from '../../../src/sandbox/answers/compose.js';

/** An answer split into its lead (first paragraph) and its quoted sentences, each with the excerpt id it cites. */
export interface ParsedAnswer {
  lead: string;
  /** The markers of the lead, in order. */
  leadIds: string[];
  /** Every `sentence [excerpt_id]` of the paragraphs after the lead, in order. */
  quotes: { sentence: string; id: string }[];
}

/** Splits `answer` as `compose.ts` writes it: the lead, a blank line, paragraphs of `sentence [id]` joined by spaces. */
export function parseAnswer(answer: string): ParsedAnswer {
  const [lead = '', ...paragraphs] = answer.split('\n\n');
  const leadIds = [...lead.matchAll(/\[([^\]]+)\]/g)].map((m) => m[1]!);
  const quotes: { sentence: string; id: string }[] = [];
  for (const paragraph of paragraphs) {
    const found = [...paragraph.matchAll(/([^[]+?) \[([^\]]+)\]/g)];
    // The paragraph is exactly its quotes: nothing outside `sentence [id]` pieces but the spaces between them.
    expect(found.map((m) => m[0]).join('')).toBe(paragraph);
    for (const m of found) quotes.push({ sentence: m[1]!.trim(), id: m[2]! });
  }
  return { lead, leadIds, quotes };
}

/**
 * Asserts the citation rules of an answer with sources (spec: Answer job, `sources`: "each citation marker in `answer`
 * points to an `excerpt_id` or a `document_id` in this array"; GUIDE: nothing is said that the cited excerpt does not
 * say): every bracketed marker names a source's `document_id` or `excerpt_id`; the lead names every source by
 * title (and date, when several share the title) and marker, in order; each quoted sentence is a substring of its excerpt's `text`; every excerpt of `sources`
 * is cited; at most 5 quotes, at most 2 per document. Returns the parsed answer.
 */
export function expectWellCited(answer: string, sources: readonly AnswerSource[]): ParsedAnswer {
  const documentIds = new Set(sources.map((s) => s.document_id));
  const excerpts = new Map<string, Excerpt>(sources.flatMap((s) => s.excerpts.map((e) => [e.excerpt_id, e] as const)));
  for (const [, id] of answer.matchAll(/\[([^\]]*)\]/g)) {
    expect(documentIds.has(id!) || excerpts.has(id!), `marker [${id}] points outside sources`).toBe(true);
  }
  const parsed = parseAnswer(answer);
  expect(parsed.leadIds).toEqual(sources.map((s) => s.document_id));
  for (const source of sources) {
    // A title several sources share is followed by the source's date: `… (от 2011-06-10) [act-1]`.
    const title = source.title.replace(/\s+/g, ' ');
    const shared = sources.filter((s) => s.title.replace(/\s+/g, ' ') === title).length > 1;
    expect(parsed.lead).toContain(`${title}${shared ? ` (от ${source.date})` : ''} [${source.document_id}]`);
  }
  expect(parsed.quotes.length).toBeGreaterThan(0);
  expect(parsed.quotes.length).toBeLessThanOrEqual(5);
  for (const { sentence, id } of parsed.quotes) {
    const excerpt = excerpts.get(id);
    expect(excerpt, `quote cites [${id}], not an excerpt of sources`).toBeDefined();
    expect(excerpt!.text).toContain(sentence);
    expect(sentence).not.toMatch(/[[\]…]/);
  }
  expect([...excerpts.keys()].sort()).toEqual([...new Set(parsed.quotes.map((q) => q.id))].sort());
  for (const source of sources) {
    const cited = parsed.quotes.filter((q) => source.excerpts.some((e) => e.excerpt_id === q.id));
    expect(cited.length).toBeGreaterThan(0);
    expect(cited.length).toBeLessThanOrEqual(2);
  }
  return parsed;
}
