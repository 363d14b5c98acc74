/** Article refs (`src/shared/article-ref.ts`): ordering, and reading an article as a user types it. */
import { describe, expect, it } from 'vitest';
import { articleRefCandidates, compareArticleRefs, parseArticleQuery, splitArticleRef } from '../../src/shared/article-ref.js';

describe('parseArticleQuery', () => {
  it.each([
    ['45', '45', 1],
    ['45а', '45а', 1],
    ['Чл. 45', '45', 1],
    ['чл.45', '45', 1],
    ['Чл. 45а.', '45а', 1],
    ['ЧЛ. 45А', '45а', 1],
    ['член 45', '45', 1],
    ['art. 45', '45', 1],
    ['  45  ', '45', 1],
    ['4~2', '4', 2],
    ['Чл. 4 ~ 3', '4', 3],
    ['act-15570:4~2', '4', 2],
    ['act-1:45а', '45а', 1],
    ['45a', '45a', 1],
    ['§ 12', '§12', 1],
    ['§12а.', '§12а', 1],
    ['параграф 3', '§3', 1],
    ['act-78179:§12~2', '§12', 2],
  ])('%s → ref %s, occurrence %i', (typed, ref, occurrence) => {
    expect(parseArticleQuery(typed)).toEqual({ ref, occurrence });
  });

  it('an empty value (or a bare prefix) asks for nothing', () => {
    expect(parseArticleQuery('')).toBeUndefined();
    expect(parseArticleQuery('  ')).toBeUndefined();
    expect(parseArticleQuery('Чл.')).toBeUndefined();
  });
});

describe('articleRefCandidates', () => {
  it('reads Latin letters after the number as the Cyrillic ones they look like, then transliterated', () => {
    expect(articleRefCandidates('45a')).toEqual(['45a', '45а']);
    expect(articleRefCandidates('45p')).toEqual(['45p', '45р', '45п']);
    expect(articleRefCandidates('45b')).toEqual(['45b', '45б']);
    expect(articleRefCandidates('45в')).toEqual(['45в']);
    expect(articleRefCandidates('45')).toEqual(['45']);
  });
});

describe('compareArticleRefs and splitArticleRef', () => {
  it('orders articles by number, then suffix; other refs after them', () => {
    expect(['46', '45б', 'body', '45', '10', '45а'].sort(compareArticleRefs)).toEqual(['10', '45', '45а', '45б', '46', 'body']);
  });

  it('splits a ref into number and suffix, or says it is not an article ref', () => {
    expect(splitArticleRef('45а')).toEqual({ number: 45, suffix: 'а' });
    expect(splitArticleRef('12')).toEqual({ number: 12, suffix: '' });
    expect(splitArticleRef('body')).toBeUndefined();
    expect(splitArticleRef('§ 1')).toBeUndefined();
  });
});
