/**
 * What `pravo doc` opens and prints, as pure functions: the argument (`src/services/results.ts`, shared with `pravo
 * open`) and the element chosen with `--article` / `--paragraph` (`src/commands/doc/select.ts`).
 */
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors/cli.js';
import { parseDocumentArgument, rankedDocument } from '../../src/services/results.js';
import { shellQuote } from '../../src/services/targets.js';
import { otherOccurrences, parseElementRequest, selectElement, type ElementRequest } from '../../src/commands/doc/select.js';
import type { LastResults } from '../../src/state/last-results.js';
import { testDecision, testStatute } from '../helpers/documents.js';

/** The message of the UsageError `run` throws (fails the test if it throws nothing or something else). */
function usageMessage(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('expected a UsageError');
}

describe('parseDocumentArgument', () => {
  it('a whole number is a rank; with --collection the argument is always a document_id', () => {
    expect(parseDocumentArgument('3', undefined)).toEqual({ kind: 'rank', rank: 3 });
    expect(parseDocumentArgument('3', 'c_x')).toEqual({ kind: 'id', document_id: '3', collection: 'c_x' });
    expect(parseDocumentArgument('act-1', 'c_x')).toEqual({ kind: 'id', document_id: 'act-1', collection: 'c_x' });
  });

  it('a document_id without --collection says that it needs one', () => {
    expect(usageMessage(() => parseDocumentArgument('act-1', undefined))).toMatch(/"act-1" is not a result number, so it is a document_id, and a document_id needs --collection C/);
    expect(usageMessage(() => parseDocumentArgument('0', undefined))).toMatch(/numbered from 1/);
    expect(usageMessage(() => parseDocumentArgument('act-1', ''))).toMatch(/--collection is empty/);
  });
});

describe('rankedDocument', () => {
  const last = (over: Partial<LastResults> = {}): LastResults => ({
    saved_at: '2025-01-01T00:00:00.000Z',
    query: 'обезщетение',
    profile: 'default',
    sandbox: false,
    results: [1, 2, 3, 4, 5].map((rank) => ({ rank, document_id: `d/${rank}`, collection: `c ${rank}`, title: `Т${rank}` })),
    ...over,
  });
  const service = { sandbox: false, profile: 'default' };
  const retry = (flags: string): string => `pravo doc 2${flags} --article 45`;

  it('gives result N exactly as stored', () => {
    expect(rankedDocument(last(), 2, service, retry, 'doc')).toEqual({ rank: 2, document_id: 'd/2', collection: 'c 2', title: 'Т2' });
  });

  it('says what exists: no stored results, or how many the last search had', () => {
    expect(usageMessage(() => rankedDocument(undefined, 1, service, retry, 'doc'))).toMatch(/no stored search results.*pravo search/);
    expect(usageMessage(() => rankedDocument(last(), 6, service, retry, 'doc'))).toBe('The last search, for "обезщетение", had 5 results: give a number from 1 to 5.');
    expect(usageMessage(() => rankedDocument(last({ results: [] }), 1, service, retry, 'doc'))).toMatch(/found nothing/);
  });

  it('refuses a result of another target with the exact command that opens it', () => {
    expect(usageMessage(() => rankedDocument(last({ sandbox: true, profile: 'sandbox' }), 2, service, retry, 'doc'))).toContain(
      'came from the sandbox (`pravo search --sandbox`), so it is opened there: run `pravo doc 2 --sandbox --article 45`.',
    );
    expect(usageMessage(() => rankedDocument(last(), 2, { sandbox: true, profile: 'default' }, retry, 'doc'))).toContain(
      'came from the service (profile "default"), not the sandbox: run `pravo doc 2 --article 45`.',
    );
    expect(usageMessage(() => rankedDocument(last({ profile: 'work' }), 2, { sandbox: true, profile: 'default' }, retry, 'doc'))).toContain(
      'run `pravo doc 2 --profile work --article 45`.',
    );
    expect(usageMessage(() => rankedDocument(last({ profile: 'work' }), 2, service, retry, 'doc'))).toContain(
      'came from profile "work", not "default": run `pravo doc 2 --profile work --article 45`.',
    );
    // Both in the sandbox: the ids belong to it.
    expect(rankedDocument(last({ sandbox: true, profile: 'sandbox' }), 1, { sandbox: true, profile: 'default' }, retry, 'doc').document_id).toBe('d/1');
  });

  it('shellQuote leaves safe words alone and single-quotes the rest', () => {
    expect(shellQuote('act-1')).toBe('act-1');
    expect(shellQuote('Чл.45а')).toBe('Чл.45а');
    expect(shellQuote('a b')).toBe("'a b'");
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    expect(shellQuote('x\u001b[31m;y')).toBe("'x;y'");
  });
});

describe('parseElementRequest', () => {
  it('reads --article and --paragraph before anything is sent', () => {
    expect(parseElementRequest({})).toBeUndefined();
    expect(parseElementRequest({ article: 'Чл. 45а' })).toEqual({ kind: 'article', query: { ref: '45а', occurrence: 1 }, input: 'Чл. 45а' });
    expect(parseElementRequest({ paragraph: '¶ 3' })).toEqual({ kind: 'paragraph', number: 3, input: '¶ 3' });
  });

  it('refuses both at once, an empty article and a paragraph that is not a whole number from 1', () => {
    expect(usageMessage(() => parseElementRequest({ article: '1', paragraph: '1' }))).toMatch(/not both/);
    expect(usageMessage(() => parseElementRequest({ article: ' ' }))).toMatch(/--article takes/);
    for (const bad of ['0', 'x', '1.5', '-2']) expect(usageMessage(() => parseElementRequest({ paragraph: bad }))).toMatch(/--paragraph takes/);
  });
});

describe('selectElement', () => {
  const statute = testStatute();
  const article = (value: string): ElementRequest => parseElementRequest({ article: value })!;
  const paragraph = (value: string): ElementRequest => parseElementRequest({ paragraph: value })!;

  it('--article finds the ref in every spelling: 4а, "Чл. 4а.", 4a with a Latin a', () => {
    for (const typed of ['4а', 'Чл. 4а.', 'чл.4а', '4a', '4A']) {
      expect(selectElement(statute, article(typed)).element.excerpt_id, typed).toBe('test-act-1:4а');
    }
  });

  it('a repeated ref: the first by default, N~2 the second, and both know of the other', () => {
    const first = selectElement(statute, article('4'));
    expect(first).toMatchObject({ index: 3, ref: '4', occurrence: 1, sameRef: 2 });
    expect(otherOccurrences(first)).toEqual(['4~2']);
    const second = selectElement(statute, article('4~2'));
    expect(second.element.excerpt_id).toBe('test-act-1:4~2');
    expect(otherOccurrences(second)).toEqual(['4']);
    expect(otherOccurrences(selectElement(statute, article('5')))).toEqual([]);
    expect(usageMessage(() => selectElement(statute, article('5~2')))).toBe('Only one element of this document is numbered 5: print it with --article 5.');
  });

  it('an article that is not there: the nearest refs and the range, plus the caller\'s note', () => {
    const message = usageMessage(() => selectElement(statute, article('4б'), 'The document is cached now.'));
    expect(message).toBe('There is no article 4б in this document. Nearby: 3, 4, 4а, 5, 6. It has 8 articles, 1 – 6. The document is cached now.');
    const error = (() => {
      try {
        selectElement(statute, article('99'));
      } catch (e) {
        return e as UsageError;
      }
    })();
    expect(error?.afterRequest).toBe(true);
  });

  it('--paragraph: a decision\'s ¶ N by its ref; a statute\'s N-th element', () => {
    expect(selectElement(testDecision(), paragraph('2')).element.label).toBe('¶ 2');
    expect(usageMessage(() => selectElement(testDecision(), paragraph('9')))).toBe('There is no paragraph 9 in this document: it has 3 paragraphs, 1 – 3.');
    // The statute's refs are not all numbers (4а): --paragraph 5 is the fifth element.
    expect(selectElement(statute, paragraph('5')).element.excerpt_id).toBe('test-act-1:4а');
    expect(selectElement(statute, paragraph('7'))).toMatchObject({ ref: '4', occurrence: 2, sameRef: 2 });
    expect(usageMessage(() => selectElement(statute, paragraph('9')))).toMatch(/^There is no element 9 in this document: it has 8 elements, so --paragraph takes 1 to 8\./);
  });

  it('a document without elements says so', () => {
    expect(usageMessage(() => selectElement({ title: 'Без елементи (ТЕСТОВИ ДАННИ)' }, article('1')))).toMatch(/has no elements/);
  });
});
