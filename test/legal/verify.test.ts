/**
 * Checking cited passages against their documents (`src/legal/verify.ts`). The documents and sources are synthetic
 * ("Синтетичен тестов закон"), written in the style of an act; the last block reads a real statute from
 * `../shared/corpus/bg-statutes.jsonl.gz` at run time (never copied here) and is skipped when the corpus is absent.
 */
import { createReadStream, existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createGunzip } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { AnswerJob, DocumentResponse } from '../../src/contract/types.js';
import { resolveCitations } from '../../src/legal/answer-markers.js';
import {
  checkCitations,
  documentKey,
  documentsToRetrieve,
  excerptFragments,
  findExcerptInDocument,
  normalizeForComparison,
  verificationReport,
  type RetrievedDocument,
} from '../../src/legal/verify.js';

type Sources = NonNullable<AnswerJob['sources']>;

/** A synthetic statute: three articles, the second with two алинеи on separate lines. */
function syntheticStatute(): DocumentResponse {
  return {
    document_id: 'syn-act-1',
    collection: 'c_syn',
    type: 'Закон',
    title: 'Синтетичен тестов закон',
    elements: [
      { excerpt_id: 'syn-act-1:1', ref: '1', label: 'Чл. 1.', text: 'Чл. 1. Този синтетичен закон урежда тестовите уведомления.' },
      {
        excerpt_id: 'syn-act-1:2',
        ref: '2',
        label: 'Чл. 2.',
        text:
          'Чл. 2. (1) Уведомлението се подава в седемдневен срок от узнаването за „синтетичното“ обстоятелство.\n' +
          '(2) Когато срокът изтича в неприсъствен ден, той се продължава до първия присъствен ден — по реда на чл. 1.',
      },
      { excerpt_id: 'syn-act-1:3', ref: '3', label: 'Чл. 3.', text: 'Чл. 3. Агенцията води синтетичния регистър.' },
    ],
  };
}

describe('normalizeForComparison', () => {
  it('makes typographic and straight quotes one straight double quote', () => {
    expect(normalizeForComparison('„синтетичното“ «а» ‘б’ ‚в‘ ″г″ "д" \'е\'')).toBe('"синтетичното" "а" "б" "в" "г" "д" "е"');
  });

  it('makes dashes, hyphens and the minus one hyphen-minus', () => {
    expect(normalizeForComparison('чл. 3 – 5, 6 — 7, 8‐9, 10‑11, 12‒13, −1, а-б')).toBe('чл. 3 - 5, 6 - 7, 8-9, 10-11, 12-13, -1, а-б');
  });

  it('collapses NBSP, tabs and newlines to one space and trims', () => {
    expect(normalizeForComparison('  чл.\u00a05,\n(2)\t\tсрок\r\n ')).toBe('чл. 5, (2) срок');
  });

  it('removes soft hyphens and zero-width characters, applies NFC, keeps case', () => {
    expect(normalizeForComparison('Уве\u00adдом\u200bле\u200dние')).toBe('Уведомление');
    expect(normalizeForComparison('и\u0306'.normalize('NFD'))).toBe('й');
    expect(normalizeForComparison('Срок')).not.toBe(normalizeForComparison('срок'));
  });
});

describe('excerptFragments', () => {
  it('splits at … and ... and drops empty fragments', () => {
    expect(excerptFragments('…се подава в\nседемдневен срок… той се продължава...')).toEqual(['се подава в седемдневен срок', 'той се продължава']);
    expect(excerptFragments('')).toEqual([]);
    expect(excerptFragments(' … ')).toEqual([]);
  });
});

describe('findExcerptInDocument', () => {
  const document = syntheticStatute();

  it('finds a window with cut marks in the cited element, across a line break and with other typography', () => {
    const excerpt = '…подава в седемдневен срок от узнаването за "синтетичното" обстоятелство. (2) Когато срокът изтича…';
    expect(findExcerptInDocument(excerpt, 'syn-act-1:2', document)).toEqual({ found: true, element_excerpt_id: 'syn-act-1:2' });
  });

  it('finds fragments separated by … inside one element, in order', () => {
    expect(findExcerptInDocument('Чл. 2. (1) Уведомлението се подава … до първия присъствен ден - по реда…', 'syn-act-1:2', document).found).toBe(true);
  });

  it('finds the text in another element when the cited one does not hold it, and names that element', () => {
    expect(findExcerptInDocument('…води синтетичния регистър.', 'syn-act-1:1', document)).toEqual({ found: true, element_excerpt_id: 'syn-act-1:3' });
    expect(findExcerptInDocument('…води синтетичния регистър.', undefined, document)).toEqual({ found: true, element_excerpt_id: 'syn-act-1:3' });
  });

  it('does not find a misquoted excerpt (one word changed) and names the passage', () => {
    const match = findExcerptInDocument('…се подава в четиринадесетдневен срок от узнаването…', 'syn-act-1:2', document);
    expect(match).toEqual({ found: false, reason: 'not_found', missing_fragment: 'се подава в четиринадесетдневен срок от узнаването' });
  });

  it('does not find fragments that occur only out of order', () => {
    const match = findExcerptInDocument('…той се продължава… Уведомлението се подава…', 'syn-act-1:2', document);
    expect(match).toEqual({ found: false, reason: 'not_found' });
  });

  it('does not join fragments from two elements', () => {
    expect(findExcerptInDocument('…урежда тестовите уведомления. … води синтетичния регистър.', undefined, document).found).toBe(false);
  });

  it('says no_elements for a document without structured content and empty_excerpt for an excerpt without text', () => {
    expect(findExcerptInDocument('…срок…', 'syn-act-1:2', { document_id: 'syn-act-1' })).toEqual({ found: false, reason: 'no_elements' });
    expect(findExcerptInDocument('…срок…', 'syn-act-1:2', { document_id: 'syn-act-1', elements: [] })).toEqual({ found: false, reason: 'no_elements' });
    expect(findExcerptInDocument(' … ', 'syn-act-1:2', document)).toEqual({ found: false, reason: 'empty_excerpt' });
  });
});

describe('checkCitations', () => {
  const sources: Sources = [
    {
      document_id: 'syn-act-1',
      collection: 'c_syn',
      title: 'Синтетичен тестов закон',
      excerpts: [
        { excerpt_id: 'syn-act-1:2', label: 'Чл. 2.', text: '…се подава в седемдневен срок от узнаването…' },
        { excerpt_id: 'syn-act-1:3', label: 'Чл. 3.', text: 'Чл. 3. Агенцията води синтетичния регистър.' },
        { excerpt_id: 'syn-act-1:1', label: 'Чл. 1.', text: 'Чл. 1. Този синтетичен закон урежда изкуствените уведомления.' },
      ],
    },
    { document_id: 'syn-act-2', collection: 'c_syn', title: 'Друг синтетичен тестов закон', excerpts: [{ excerpt_id: 'syn-act-2:1', text: 'Синтетичен текст.' }] },
    { document_id: 'syn-act-3', collection: 'c_syn', title: 'Трети синтетичен тестов закон', excerpts: [] },
    { title: 'Източник без идентификатор', excerpts: [{ excerpt_id: 'syn-odd:1', text: 'Синтетичен текст.' }] },
  ];
  const documents = new Map<string, RetrievedDocument>([
    [documentKey('syn-act-1', 'c_syn'), syntheticStatute()],
    [documentKey('syn-act-2', 'c_syn'), { error: 'HTTP 404 not_found: no such document' }],
    [documentKey('syn-act-3', 'c_syn'), { document_id: 'syn-act-3', elements: [{ excerpt_id: 'syn-act-3:1', text: 'Синтетичен текст.' }] }],
  ]);

  it('gives each citation its verdict, in citation-number order', () => {
    const answer = 'А [syn-act-1:2], Б [syn-act-1:1], В [syn-act-2:1], Г [syn-act-9:9], Д [syn-act-3], Е [syn-act-1], Ж [syn-odd:1].';
    const resolved = resolveCitations(answer, sources);
    const checks = checkCitations(resolved, sources, documents);
    expect(checks.map((c) => [c.number, c.verdict])).toEqual([
      [1, 'verified'],
      [2, 'text_not_found'],
      [3, 'document_not_retrievable'],
      [4, 'unresolved_marker'],
      [5, 'verified'],
      [6, 'verified'],
      [7, 'document_not_retrievable'],
    ]);
    expect(checks[0]).toEqual({ number: 1, marker: 'syn-act-1:2', verdict: 'verified', document_id: 'syn-act-1', collection: 'c_syn', excerpt_id: 'syn-act-1:2' });
    expect(checks[1]!.detail).toContain('изкуствените');
    expect(checks[2]!.detail).toBe('HTTP 404 not_found: no such document');
    expect(checks[3]).toMatchObject({ marker: 'syn-act-9:9', verdict: 'unresolved_marker' });
    expect(checks[3]).not.toHaveProperty('document_id');
    // The document marker is judged on the excerpts no excerpt marker cites (syn-act-1:3): the misquoted syn-act-1:1
    // fails its own citation [2] only.
    expect(checks[5]).toMatchObject({ marker: 'syn-act-1', verdict: 'verified' });
  });

  it('a document marker alone fails on the first of its source\'s excerpts that is not in the document, and names it', () => {
    const checks = checkCitations(resolveCitations('Е [syn-act-1] and Д [syn-act-3].', sources), sources, documents);
    expect(checks.map((c) => c.verdict)).toEqual(['text_not_found', 'verified']);
    expect(checks[0]).toMatchObject({ marker: 'syn-act-1', excerpt_id: 'syn-act-1:1', verdict: 'text_not_found' });
  });

  it('says a document that was not retrieved is not retrievable', () => {
    const resolved = resolveCitations('[syn-act-1:2]', sources);
    expect(checkCitations(resolved, sources, new Map())[0]).toMatchObject({ verdict: 'document_not_retrievable', detail: 'the document was not retrieved' });
  });

  it('notes when a verified excerpt sits in another element than its excerpt_id names', () => {
    const moved: Sources = [{ document_id: 'syn-act-1', collection: 'c_syn', excerpts: [{ excerpt_id: 'syn-act-1:1', text: '…води синтетичния регистър.' }] }];
    const [check] = checkCitations(resolveCitations('[syn-act-1:1]', moved), moved, documents);
    expect(check).toMatchObject({ verdict: 'verified', detail: expect.stringContaining('syn-act-1:3') });
  });

  it('lists the documents to retrieve once each, in citation order, for resolved citations only', () => {
    const resolved = resolveCitations('[syn-act-3] [syn-act-9:9] [syn-act-1:2] [syn-odd:1] [syn-act-1:3] [syn-act-3]', sources);
    expect(documentsToRetrieve(resolved, sources)).toEqual([
      { document_id: 'syn-act-3', collection: 'c_syn' },
      { document_id: 'syn-act-1', collection: 'c_syn' },
    ]);
  });

  it('builds a report that is verified only when every check is', () => {
    const all = checkCitations(resolveCitations('[syn-act-1:2] [syn-act-3]', sources), sources, documents);
    expect(verificationReport(all, { retrieval_units_spent: 1, documents_from_cache: 1 })).toEqual({
      verified: true,
      checks: all,
      retrieval_units_spent: 1,
      documents_from_cache: 1,
    });
    const some = checkCitations(resolveCitations('[syn-act-1:2] [syn-act-9:9]', sources), sources, documents);
    expect(verificationReport(some, { retrieval_units_spent: 1, documents_from_cache: 0 }).verified).toBe(false);
  });
});

const STATUTES = fileURLToPath(new URL('../../../shared/corpus/bg-statutes.jsonl.gz', import.meta.url));
const haveStatutes = existsSync(STATUTES);
if (!haveStatutes) console.warn(`skipping the real-statute verification test: ${STATUTES} is absent`);

interface RealStatute {
  document_id: string;
  title: string;
  elements: Array<{ ref: string; label: string; text: string }>;
}

/** The first statute of the corpus with an article of more than 1,500 characters (the file is read only that far). */
async function firstLongStatute(): Promise<{ statute: RealStatute; index: number } | undefined> {
  const lines = createInterface({ input: createReadStream(STATUTES).pipe(createGunzip()) });
  try {
    for await (const line of lines) {
      if (line === '') continue;
      const statute = JSON.parse(line) as RealStatute;
      const index = statute.elements.findIndex((e) => e.text.length > 1500 && e.text.includes('\n'));
      if (index >= 0) return { statute, index };
    }
  } finally {
    lines.close();
  }
  return undefined;
}

describe.skipIf(!haveStatutes)('a real statute of ../shared/corpus (read at run time)', () => {
  it('finds a window cut from an article with … at both ends, and not the same window with one word changed', async () => {
    const found = await firstLongStatute();
    expect(found).toBeDefined();
    const { statute, index } = found!;
    // The document as GET /v1/documents returns it: excerpt ids `<document_id>:<ref>`, `~2` for a repeated ref.
    const seen = new Map<string, number>();
    const document: DocumentResponse = {
      document_id: statute.document_id,
      title: statute.title,
      elements: statute.elements.map((e) => {
        const n = (seen.get(e.ref) ?? 0) + 1;
        seen.set(e.ref, n);
        return { excerpt_id: `${statute.document_id}:${e.ref}${n > 1 ? `~${n}` : ''}`, ref: e.ref, label: e.label, text: e.text };
      }),
    };
    const element = document.elements![index]!;
    // A window of 60 whole words from inside the article, across one of its line breaks, cut at both ends.
    const words = statute.elements[index]!.text.split(/(?<=\s)/u);
    const lineEnd = words.findIndex((word, i) => i > 25 && word.endsWith('\n'));
    const start = lineEnd - 20;
    expect(words.slice(start, start + 60).join('')).toContain('\n');
    const window = words.slice(start, start + 60);
    const excerpt = `…${window.join('').trim()}…`;
    expect(findExcerptInDocument(excerpt, element.excerpt_id, document)).toEqual({ found: true, element_excerpt_id: element.excerpt_id });

    const changed = [...window];
    const at = changed.findIndex((word, i) => i > 20 && /^\p{L}{4,}\s$/u.test(word));
    changed[at] = changed[at]!.replace(/\p{L}+/u, 'синтетичнадума');
    const misquoted = `…${changed.join('').trim()}…`;
    expect(findExcerptInDocument(misquoted, element.excerpt_id, document)).toMatchObject({ found: false, reason: 'not_found' });
  });
});
