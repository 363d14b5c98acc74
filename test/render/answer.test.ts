/**
 * The answer renderers (`src/render/answer.ts`): what a person sees of an answer job and of the verification of its
 * citations, on a terminal 80 columns wide and through a pipe. Every job here is synthetic: titles say
 * "Синтетичен тестов …"; answers imitate the service's form, not any real answer.
 */
import { describe, expect, it } from 'vitest';
import type { AnswerJob } from '../../src/contract/types.js';
import { hasControlSequences } from '../../src/shared/sanitize.js';
import { resolvedAnswerOf } from '../../src/legal/answer-markers.js';
import { checkCitations, documentKey, verificationReport, type RetrievedDocument } from '../../src/legal/verify.js';
import { answerView, renderAnswerPlain, renderAnswerText, renderVerification } from '../../src/render/answer.js';

const ANSI = /\x1b\[[0-9;]*m/g;
const strip = (text: string): string => text.replace(ANSI, '');
const hasAnsi = (text: string): boolean => /\x1b\[/.test(text);
const linesOf = (text: string): string[] => strip(text).replace(/\n$/, '').split('\n');
const widest = (text: string): number => Math.max(...linesOf(text).map((line) => [...line].length));
const RED = '\x1b[31m';
const GREEN = '\x1b[32m';

const LONG = 'Синтетичният тестов текст обяснява срока за уведомяване подробно и с много думи, за да се пренесе на нов ред.';

function job(overrides: Partial<AnswerJob> = {}): AnswerJob {
  return {
    job_id: 'job-syn-1',
    status: 'succeeded',
    query: 'какъв е срокът за уведомяване',
    answer:
      `Срокът е седем дни [syn-act-1:2]. ${LONG} Съдът приема същото [syn-case-2:6; syn-act-1:2], а текстът ` +
      '[изм. – ДВ, бр. 12 от 2020 г.] е стар [syn-act-9:1].\n\nВтори абзац по целия закон [syn-act-3].',
    sources: [
      {
        document_id: 'syn-act-1',
        collection: 'c_syn',
        type: 'Закон',
        title: 'Синтетичен тестов закон за уведомленията',
        date: '2020-01-01',
        url: 'https://example.invalid/syn-act-1',
        excerpts: [{ excerpt_id: 'syn-act-1:2', label: 'Чл. 2.', text: '…се подава в седемдневен срок…' }],
      },
      {
        document_id: 'syn-case-2',
        collection: 'c_syn_cases',
        type: 'Решение',
        title: 'Решение № 145 по синтетично тестово дело',
        date: '2015-06-01',
        url: 'https://example.invalid/syn-case-2',
        court: 'Синтетичен тестов съд',
        court_id: 901,
        case_number: '210/2015',
        decision_number: '145',
        excerpts: [{ excerpt_id: 'syn-case-2:6', label: '¶ 6', text: '…синтетичен мотив…' }],
      },
      { document_id: 'syn-act-3', collection: 'c_syn', title: 'Трети синтетичен тестов закон', date: '2021-03-03', url: 'https://example.invalid/syn-act-3', excerpts: [] },
      { document_id: 'syn-act-4', collection: 'c_syn', title: 'Нецитиран синтетичен тестов закон', date: '2022-04-04', url: 'https://example.invalid/syn-act-4', excerpts: [] },
    ],
    ...overrides,
  };
}

describe('renderAnswerText: a succeeded job at width 80', () => {
  const out = renderAnswerText(job(), { width: 80, color: false });
  const lines = linesOf(out);

  it('numbers the markers in order of first appearance, a repeated one keeping its number', () => {
    expect(strip(out)).toContain('Срокът е седем дни [1].');
    expect(strip(out).replace(/\s+/g, ' ')).toContain('Съдът приема същото [2][1], а текстът');
    expect(strip(out)).toContain('Втори абзац по целия закон [4].');
  });

  it('flags an unresolved marker in the text and in the list, never dropping it', () => {
    expect(strip(out)).toContain('[?syn-act-9:1]');
    expect(lines).toContain('[3] unresolved: "syn-act-9:1" names no source of this answer');
  });

  it('leaves ordinary bracketed text as written', () => {
    expect(strip(out).replace(/\s+/g, ' ')).toContain('[изм. – ДВ, бр. 12 от 2020 г.]');
  });

  it('wraps every line to the width and keeps the paragraphs apart', () => {
    expect(widest(out)).toBeLessThanOrEqual(80);
    const second = lines.findIndex((line) => line.startsWith('Втори абзац'));
    expect(lines[second - 1]).toBe('');
    expect(lines[second - 2]).not.toBe('');
  });

  it('lists the sources by number with title, label of the cited excerpt, date, and the url on its own line', () => {
    const sources = lines.indexOf('Sources');
    expect(lines[sources - 1]).toBe('');
    expect(lines[sources + 1]).toBe('[1] Синтетичен тестов закон за уведомленията — Чл. 2. · 2020-01-01');
    expect(lines[sources + 2]).toBe('    https://example.invalid/syn-act-1');
    expect(lines).toContain('[4] Трети синтетичен тестов закон · 2021-03-03');
  });

  it('says under a source\'s url what the page shows when it is not the text quoted', () => {
    const dated = job({ sources: [{ ...job().sources![0]!, as_of: '2006-08-04', consolidated: false, url_as_of: '2026-07-31' }] });
    const listed = linesOf(renderAnswerText(dated, { width: 200, color: false }));
    const at = listed.indexOf('    https://example.invalid/syn-act-1');
    expect(listed[at + 1]).toBe("    (the page shows the act's current text, amended up to 31.07.2026; the text here is as first published, 04.08.2006)");
  });

  it('lists a source cited again (by another excerpt, or as a document) in one short line pointing at its full entry', () => {
    const more = job({
      answer: 'Първо [syn-act-1:2], после [syn-act-1:5] и целият закон [syn-act-1].',
      sources: [{ ...job().sources![0]!, excerpts: [...(job().sources![0]!.excerpts ?? []), { excerpt_id: 'syn-act-1:5', label: 'Чл. 5.', text: 'синтетичен' }] }],
    });
    const listed = linesOf(renderAnswerText(more, { width: 80, color: false }));
    const at = listed.indexOf('Sources');
    expect(listed.slice(at + 1, at + 5)).toEqual([
      '[1] Синтетичен тестов закон за уведомленията — Чл. 2. · 2020-01-01',
      '    https://example.invalid/syn-act-1',
      '[2] Чл. 5. · same document as [1]',
      '[3] the document of [1]',
    ]);
  });

  it('names the court and the case of a court decision', () => {
    const entry = strip(out).slice(strip(out).indexOf('[2] Решение')).split('https://')[0]!.replace(/\s+/g, ' ');
    expect(entry).toContain('Решение № 145 по синтетично тестово дело — ¶ 6 · 2015-06-01');
    expect(entry).toContain('Синтетичен тестов съд · дело № 210/2015');
  });

  it('lists the sources no marker cites, without numbers', () => {
    const also = lines.indexOf('Also among the sources (not cited):');
    expect(also).toBeGreaterThan(lines.indexOf('Sources'));
    expect(lines[also + 1]).toBe('- Нецитиран синтетичен тестов закон · 2022-04-04');
    expect(lines[also + 2]).toBe('  https://example.invalid/syn-act-4');
  });

  it('has no ANSI without colour; with colour the unresolved marker is red', () => {
    expect(hasAnsi(out)).toBe(false);
    const coloured = renderAnswerText(job(), { width: 80, color: true });
    expect(coloured).toContain(`${RED}[?syn-act-9:1]`);
    expect(strip(coloured)).toBe(out);
  });
});

describe('renderAnswerText: other jobs', () => {
  it('removes control sequences the server put in the answer, titles, labels and urls', () => {
    const hostile = job({
      answer: 'Текст\x1b]8;;https://evil.invalid\x07връзка\x1b]8;;\x07 [syn-act-1:2]\r и \x1b[2Jкрай\u202e.',
      sources: [
        {
          document_id: 'syn-act-1',
          collection: 'c_syn',
          title: 'Синтетичен\x1b[31m тестов закон\x9b2J',
          date: '2020-01-01',
          url: 'https://example.invalid/\x1b]52;c;ZXZpbA==\x07x',
          excerpts: [{ excerpt_id: 'syn-act-1:2', label: 'Чл.\x07 2.', text: '…' }],
        },
      ],
    });
    for (const out of [renderAnswerText(hostile, { width: 80, color: false }), renderAnswerPlain(hostile)]) {
      expect(hasControlSequences(out)).toBe(false);
      expect(out).toContain('Текствръзка [1] и край.');
      expect(out).toContain('[1] Синтетичен тестов закон — Чл. 2. · 2020-01-01');
    }
  });

  it('prints the answer and "No sources." for a job without sources', () => {
    const out = strip(renderAnswerText(job({ answer: 'Синтетичен отговор без източници.', sources: [] }), { width: 80, color: false }));
    expect(out).toBe('Синтетичен отговор без източници.\n\nNo sources.\n');
  });

  it('still lists the unresolved markers of a job without sources', () => {
    const out = linesOf(renderAnswerText(job({ answer: 'Отговор [syn-act-1:2].', sources: undefined }), { width: 80, color: false }));
    expect(out).toEqual(['Отговор [?syn-act-1:2].', '', 'No sources.', '[1] unresolved: "syn-act-1:2" names no source of this answer']);
  });

  it('lists the sources of an answer without markers as not cited', () => {
    const out = linesOf(renderAnswerText(job({ answer: 'Синтетичен отговор без маркери.', sources: [job().sources![2]!] }), { width: 80, color: false }));
    expect(out).toEqual([
      'Синтетичен отговор без маркери.',
      '',
      'Sources (none cited):',
      '- Трети синтетичен тестов закон · 2021-03-03',
      '  https://example.invalid/syn-act-3',
    ]);
  });

  it('prints one line for a failed job', () => {
    const failed: AnswerJob = { job_id: 'job-syn-2', status: 'failed', error_code: 'timed_out', error_message: 'The job stayed queued for 15 minutes.' };
    expect(renderAnswerText(failed, { width: 80, color: false })).toBe('Answer job job-syn-2 failed: timed_out: The job stayed queued for 15 minutes.\n');
    expect(renderAnswerPlain(failed)).toBe('Answer job job-syn-2 failed: timed_out: The job stayed queued for 15 minutes.\n');
    expect(renderAnswerPlain({ job_id: 'job-syn-3', status: 'failed', error_code: 'boom\x1b[2J' })).toBe('Answer job job-syn-3 failed: boom\n');
  });
});

describe('renderAnswerPlain and answerView: the piped form', () => {
  const plain = renderAnswerPlain(job());

  it('is the terminal text without colour and without wrapping', () => {
    expect(hasAnsi(plain)).toBe(false);
    const first = plain.split('\n')[0]!;
    expect([...first].length).toBeGreaterThan(80);
    expect(first).toContain(LONG);
    expect(plain).toContain('\n\nВтори абзац по целия закон [4].\n');
    expect(plain).toContain('[2] Решение № 145 по синтетично тестово дело — ¶ 6 · 2015-06-01 · Синтетичен тестов съд · дело № 210/2015\n');
    expect(plain).toContain('\n    https://example.invalid/syn-case-2\n');
  });

  it('is what the view prints when piped; the terminal form is paged', () => {
    expect(answerView.tsv(job())).toBe(plain);
    expect(answerView.table(job(), { width: 80, color: false })).toBe(renderAnswerText(job(), { width: 80, color: false }));
    expect(answerView.page).toBe(true);
  });
});

describe('renderVerification', () => {
  const answerJob = job();
  const resolved = resolvedAnswerOf(answerJob);
  const documents = new Map<string, RetrievedDocument>([
    [documentKey('syn-act-1', 'c_syn'), { elements: [{ excerpt_id: 'syn-act-1:2', text: 'Чл. 2. Уведомлението се подава в осемдневен срок.' }] }],
    [documentKey('syn-case-2', 'c_syn_cases'), { error: 'HTTP 404 not_found: no such document' }],
    [documentKey('syn-act-3', 'c_syn'), { elements: [{ excerpt_id: 'syn-act-3:1', text: 'Чл. 1. Синтетичен текст.' }] }],
  ]);
  const report = verificationReport(checkCitations(resolved, answerJob.sources, documents), { retrieval_units_spent: 2, documents_from_cache: 1 });

  it('prints one line per check, the detail of a text not found, the summary and the cost', () => {
    const out = renderVerification(report, resolved, answerJob.sources, { width: 80, color: false });
    expect(linesOf(out)).toEqual([
      '[1] TEXT NOT FOUND in the document',
      '    Синтетичен тестов закон за уведомленията — Чл. 2.',
      '    the passage "се подава в седемдневен срок" of excerpt syn-act-1:2 does not',
      '    occur in the document',
      '[2] document not retrievable: HTTP 404 not_found: no such document',
      '[3] unresolved marker "syn-act-9:1"',
      '[4] document retrieved (no passage to compare)  Трети синтетичен тестов закон',
      '3 of 4 citations not confirmed: 1 passage not found in its document, 1 document',
      'not retrievable, 1 marker naming no source.',
      'The check compares wording only: each cited passage with the text of its',
      'document (white space, quotes and dashes aside), not whether it answers the',
      'question.',
      '2 retrieval units spent, 1 document from cache.',
    ]);
    expect(hasAnsi(out)).toBe(false);
  });

  it('colours a check that found its text green and a failed one red', () => {
    const out = renderVerification(report, resolved, answerJob.sources, { width: 80, color: true });
    expect(out).toContain(`${GREEN}document retrieved`);
    expect(out).toMatch(/\x1b\[31m(\x1b\[1m)?TEXT NOT FOUND/);
  });

  it('says what was found, never a bare "verified": passages found, or whole documents retrieved with nothing to compare', () => {
    const good = resolvedAnswerOf({ answer: 'Само [syn-act-3] и пак [syn-act-3].', sources: answerJob.sources });
    const all = verificationReport(checkCitations(good, answerJob.sources, documents), { retrieval_units_spent: 0, documents_from_cache: 1 });
    const one = renderVerification(all, good, answerJob.sources);
    expect(linesOf(one)).toEqual([
      '[1] document retrieved (no passage to compare)  Трети синтетичен тестов закон',
      'The citation names a whole document: retrieved, no passage to compare.',
      'The check compares wording only: each cited passage with the text of its document (white space, quotes and dashes aside), not whether it answers the question.',
      '0 retrieval units spent, 1 document from cache.',
    ]);
    const twoSources = [{ ...answerJob.sources![2]!, excerpts: [{ excerpt_id: 'syn-act-3:1', text: 'Синтетичен текст.' }] }];
    const two = resolvedAnswerOf({ answer: '[syn-act-3] [syn-act-3:1]', sources: twoSources });
    const both = verificationReport(checkCitations(two, twoSources, documents), { retrieval_units_spent: 1, documents_from_cache: 0 });
    const out = renderVerification(both, two, twoSources);
    expect(linesOf(out).slice(0, 3)).toEqual([
      '[1] document retrieved (no passage to compare)  Трети синтетичен тестов закон',
      '[2] found in its document  Трети синтетичен тестов закон — syn-act-3:1',
      'Every cited passage found in its document (1 of 1); 1 citation names a whole document: retrieved, no passage to compare.',
    ]);
    // A document marker whose source carries an excerpt no marker cites is judged on that excerpt: a passage.
    const alone = resolvedAnswerOf({ answer: 'Само [syn-act-3].', sources: twoSources });
    const found = verificationReport(checkCitations(alone, twoSources, documents), { retrieval_units_spent: 0, documents_from_cache: 1 });
    expect(linesOf(renderVerification(found, alone, twoSources)).slice(0, 2)).toEqual([
      '[1] its passages found in the document  Трети синтетичен тестов закон',
      'Every cited passage found in its document (1 of 1).',
    ]);
    for (const text of [one, out]) expect(text).not.toMatch(/\bverified\b/u);
  });

  it('has a plain form for pipes: no colour, no wrapping, nothing from the server left unsanitized', () => {
    const hostile = { ...report, checks: report.checks.map((c) => (c.number === 2 ? { ...c, detail: 'HTTP 500\x1b[2J\r boom' } : c)) };
    const plain = renderVerification(hostile, resolved, answerJob.sources);
    expect(hasAnsi(plain)).toBe(false);
    expect(hasControlSequences(plain)).toBe(false);
    expect(plain).toContain('[2] document not retrievable: HTTP 500 boom\n');
    expect(plain).toContain('    the passage "се подава в седемдневен срок" of excerpt syn-act-1:2 does not occur in the document\n');
  });
});
