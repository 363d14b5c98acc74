import { describe, expect, it } from 'vitest';
import { analyze, analyzeQuery, createStemMatcher, stem, STOPWORDS, tokenSpans } from '../../../src/sandbox/text/analysis.js';

describe('stem', () => {
  it('gives inflected forms of a noun the same stem', () => {
    const forms = ['застраховател', 'застрахователя', 'застрахователят'];
    expect(new Set(forms.map(stem)).size).toBe(1);
    expect(stem('обезщетение')).toBe(stem('обезщетението'));
    expect(stem('договор')).toBe(stem('договора'));
  });

  it('does not throw on words the stemmer rewrites in place, and matches Lucene', () => {
    // The port of Lucene's BulgarianStemmer assigns into its argument; on a plain string this throws in strict mode.
    expect(() => stem('застрахователи')).not.toThrow();
    expect(stem('застрахователи')).toBe('застраховатял');
    expect(stem('съдебен')).toBe('съдебн');
  });

  it('gives the plural of a verbal noun („нарушения“) the stem of its singular, and keeps the article of an adjective', () => {
    // Lucene cuts „-ия“ whole (нарушения → нарушн), so a singular and its plural met nowhere: „нарушение“ was said to
    // occur elsewhere in a document whose excerpt held „нарушения“.
    for (const forms of [
      ['нарушение', 'нарушения', 'нарушението', 'нарушенията'],
      ['обезщетение', 'обезщетения', 'обезщетенията'],
      ['решение', 'решения'],
      ['основание', 'основания', 'основанията'],
      // The short definite article of a masculine adjective or participle is still cut.
      ['трудов', 'трудовия', 'трудовият'],
      ['наказателен', 'наказателния', 'наказателният'],
    ]) {
      expect(new Set(forms.map(stem)), forms.join(' ')).toEqual(new Set([stem(forms[0]!)]));
    }
    expect(stem('съдия')).toBe(stem('съдията'));
  });

  it('leaves short words alone', () => {
    expect(stem('съд')).toBe('съд');
    expect(stem('вкс')).toBe('вкс');
  });
});

describe('analyze', () => {
  it('lowercases, drops stopwords and 1-character tokens, and keeps repeats', () => {
    const stems = analyze('Застрахователят и застрахователя на Чл. 5, а той — в срок.');
    expect(stems).toEqual([stem('застрахователят'), stem('застрахователя'), stem('чл'), stem('срок')]);
    expect(STOPWORDS.has('на')).toBe(true);
    expect(stems).not.toContain('5');
  });

  it('splits on anything that is not a letter or digit and keeps numbers of 2+ digits', () => {
    expect(analyze('ДДС-регистрация/2024')).toEqual([stem('ддс'), stem('регистрация'), '2024']);
  });

  it('returns nothing for a text of stopwords only', () => {
    expect(analyze('и в на за от с')).toEqual([]);
  });

  it('finds the tokens of the pattern [\\p{L}\\p{N}]+ in any script, astral letters and stray surrogates included', () => {
    // The tokenizer scans characters without a regular expression; its words must be the pattern's.
    const pieces = ['Чл', '5', 'İ', 'ΣΟΦΟΣ', 'ǅ', '²', 'Ⅻ', '٣', '\u0301', '\u00ad', '\u200b', 'ʼ', '_', '-', ' ', '\ud835\udc00', '\ud83d\ude00', '\ud800', '\udc00', 'ß', 'ёж'];
    const texts: string[] = [];
    for (const a of pieces) for (const b of pieces) for (const c of pieces) texts.push(`${a}${b}${c}`);
    const spans = texts.map((text) => [...text.matchAll(/[\p{L}\p{N}]+/gu)].map((m) => ({ surface: m[0], lower: m[0].toLowerCase(), start: m.index, end: m.index + m[0].length })));
    expect(texts.map(tokenSpans)).toEqual(spans);
    expect(texts.map(analyze)).toEqual(spans.map((list) => list.map((t) => t.lower).filter((l) => l.length >= 2 && !STOPWORDS.has(l)).map(stem)));
  });
});

describe('analyzeQuery', () => {
  it('keeps, per distinct stem, the words as the user typed them', () => {
    const q = analyzeQuery('Застрахователят отказва, а застрахователя плаща; застрахователят');
    expect(q.terms.map((t) => t.stem)).toEqual([stem('застраховател'), stem('отказва'), stem('плаща')]);
    expect(q.terms[0]?.surfaces).toEqual(['Застрахователят', 'застрахователя']);
    expect(q.tokens).toContain('а');
  });

  it('has no terms for a query of stopwords', () => {
    expect(analyzeQuery('и на за').terms).toEqual([]);
  });
});

describe('createStemMatcher', () => {
  it('finds exactly the words tokenSpans+stem would find, with positions', () => {
    const text = 'Обезщетения се дължат. Обезщетението е обезщетение; обезщетн. Застрахователите и ЗАСТРАХОВАТЕЛЯТ.';
    // „обезщетн“ (the stem Lucene gave „обезщетения“) is a word of its own now, with another stem.
    const stems = [stem('обезщетение'), stem('обезщетения'), stem('застрахователят'), stem('застрахователи')];
    const expected = tokenSpans(text)
      .filter((t) => t.lower.length >= 2 && stems.includes(stem(t.lower)))
      .map((t) => text.slice(t.start, t.end));
    const found = createStemMatcher(stems)(text).map((m) => text.slice(m.start, m.end));
    expect(found).toEqual(expected);
    expect(found).toEqual(['Обезщетения', 'Обезщетението', 'обезщетение', 'Застрахователите', 'ЗАСТРАХОВАТЕЛЯТ']);
  });

  it('does not match inside a longer word', () => {
    expect(createStemMatcher([stem('фар')])('фарове фар афар')).toHaveLength(1);
  });
});
