/**
 * The citation markers of an answer (`src/legal/answer-markers.ts`): which source each `[…]` names, how they are numbered,
 * which brackets stay ordinary text. Every source here is synthetic ("Синтетичен тестов закон"); the answers imitate
 * the form of the service's answers, not any real answer.
 */
import { describe, expect, it } from 'vitest';
import type { AnswerJob } from '../../src/contract/types.js';
import { answerWithCitations, looksLikeIdentifier, resolveCitations, type ResolvedAnswer } from '../../src/legal/answer-markers.js';

type Sources = NonNullable<AnswerJob['sources']>;

const SOURCES: Sources = [
  {
    document_id: 'syn-act-1',
    collection: 'c_syn',
    type: 'Закон',
    title: 'Синтетичен тестов закон',
    date: '2020-01-01',
    excerpts: [
      { excerpt_id: 'syn-act-1:5', label: 'Чл. 5.', text: 'Чл. 5. Синтетичен текст за срока.' },
      { excerpt_id: 'syn-act-1:7', label: 'Чл. 7.', text: 'Чл. 7. Синтетичен текст за неустойката.' },
    ],
  },
  {
    document_id: 'syn-case-2',
    collection: 'c_syn_cases',
    type: 'Решение',
    title: 'Решение по синтетично тестово дело',
    date: '2021-02-02',
    excerpts: [{ excerpt_id: 'syn-case-2:3', label: '¶ 3', text: 'Синтетичен мотив на съда.' }],
  },
  { document_id: 'syn-act-3', collection: 'c_syn', type: 'Закон', title: 'Друг синтетичен тестов закон', excerpts: [] },
];

/** The answer as a renderer prints it: `[n]`, `[?marker]` for an unresolved one. */
function numbered(resolved: ResolvedAnswer): string {
  return answerWithCitations(resolved, (c) => (c.resolved ? `[${c.number}]` : `[?${c.marker}]`));
}

describe('resolveCitations: numbering', () => {
  it('numbers markers in order of first appearance and reuses the number of a repeated marker', () => {
    const r = resolveCitations('Срокът е пет дни [syn-act-1:7]. Съдът приема [syn-case-2:3], а срокът [syn-act-1:7] тече.', SOURCES);
    expect(numbered(r)).toBe('Срокът е пет дни [1]. Съдът приема [2], а срокът [1] тече.');
    expect(r.citations.map((c) => [c.number, c.marker])).toEqual([
      [1, 'syn-act-1:7'],
      [2, 'syn-case-2:3'],
    ]);
  });

  it('splits the answer into text and citation segments in order', () => {
    const r = resolveCitations('А [syn-act-1:5] Б', SOURCES);
    expect(r.segments).toEqual([
      { kind: 'text', text: 'А ' },
      { kind: 'citation', number: 1 },
      { kind: 'text', text: ' Б' },
    ]);
  });

  it('resolves an excerpt marker to its source and excerpt, a document marker to its source alone', () => {
    const r = resolveCitations('Виж [syn-case-2:3] и [syn-act-3].', SOURCES);
    expect(r.citations[0]).toMatchObject({ resolved: true, sourceIndex: 1, excerpt: { excerpt_id: 'syn-case-2:3', label: '¶ 3' } });
    expect(r.citations[1]).toEqual({ number: 2, marker: 'syn-act-3', resolved: true, sourceIndex: 2 });
  });

  it('gives an excerpt marker and a document marker of the same source different numbers', () => {
    const r = resolveCitations('[syn-act-1] и [syn-act-1:5]', SOURCES);
    expect(numbered(r)).toBe('[1] и [2]');
  });

  it('prefers the excerpt when an id is both a document_id and an excerpt_id', () => {
    const sources: Sources = [
      { document_id: 'syn-x', excerpts: [] },
      { document_id: 'syn-y', excerpts: [{ excerpt_id: 'syn-x', text: 'Синтетичен текст.' }] },
    ];
    expect(resolveCitations('[syn-x]', sources).citations[0]).toMatchObject({ sourceIndex: 1, excerpt: { excerpt_id: 'syn-x' } });
  });

  it('matches after trimming and Unicode NFC when the exact id is not there', () => {
    const decomposed = 'syn-act-й:1'.normalize('NFD');
    const sources: Sources = [{ document_id: 'syn-act-й', excerpts: [{ excerpt_id: 'syn-act-й:1', text: 'Синтетичен текст.' }] }];
    const r = resolveCitations(`[ ${decomposed} ]`, sources);
    expect(r.citations[0]).toMatchObject({ resolved: true, excerpt: { excerpt_id: 'syn-act-й:1' } });
  });
});

describe('resolveCitations: brackets with several ids', () => {
  it('makes each id of `[a; b]` or `[a, b]` a citation, printed one after the other', () => {
    const r = resolveCitations('Така [syn-act-1:5; syn-case-2:3] и [syn-case-2:3, syn-act-1:7].', SOURCES);
    expect(numbered(r)).toBe('Така [1][2] и [2][3].');
  });

  it('keeps a repeated id within one bracket once', () => {
    expect(numbered(resolveCitations('[syn-act-1:5, syn-act-1:5]', SOURCES))).toBe('[1]');
  });

  it('keeps an unknown identifier among known ones as an unresolved citation', () => {
    const r = resolveCitations('[syn-act-1:5; syn-act-1:99]', SOURCES);
    expect(numbered(r)).toBe('[1][?syn-act-1:99]');
    expect(r.citations[1]).toEqual({ number: 2, marker: 'syn-act-1:99', resolved: false });
  });
});

describe('resolveCitations: unresolved markers and ordinary brackets', () => {
  it('keeps an identifier that names no source as a numbered, unresolved citation', () => {
    const r = resolveCitations('Според [syn-act-9:12] и [syn-act-1:5], пак [syn-act-9:12].', SOURCES);
    expect(numbered(r)).toBe('Според [?syn-act-9:12] и [2], пак [?syn-act-9:12].');
    expect(r.citations[0]).toEqual({ number: 1, marker: 'syn-act-9:12', resolved: false });
  });

  it.each([
    'Текстът [изм. – ДВ, бр. 12 от 2020 г.] е в сила.',
    'Така [sic] пише.',
    'Лицето от [населено място] с [ЕИК] подаде жалба.',
    'Празни [] скоби и [ ] интервал.',
    'Година [2020 г.] и [чл. 5, ал. 2].',
  ])('leaves ordinary bracketed text exactly as written: %s', (answer) => {
    const r = resolveCitations(answer, SOURCES);
    expect(r.citations).toEqual([]);
    expect(r.segments).toEqual([{ kind: 'text', text: answer }]);
  });

  it('reads the inner bracket of nested brackets as the marker, keeping the outer ones as text', () => {
    expect(numbered(resolveCitations('Вложени [[syn-act-1:5]] скоби.', SOURCES))).toBe('Вложени [[1]] скоби.');
  });

  it('does not treat a bracket across a newline as a marker', () => {
    const r = resolveCitations('Начало [syn-act-1\n:5] край', SOURCES);
    expect(r.citations).toEqual([]);
  });

  it('accepts identifiers of letters, digits and _ - . : ~ # / with at least one digit', () => {
    expect(looksLikeIdentifier('act-15535:352')).toBe(true);
    expect(looksLikeIdentifier('vks-2015-145-210-2015:6')).toBe(true);
    expect(looksLikeIdentifier('act-1:4~2')).toBe(true);
    expect(looksLikeIdentifier('sic')).toBe(false);
    expect(looksLikeIdentifier('чл. 5')).toBe(false);
    expect(looksLikeIdentifier('a+1')).toBe(false);
  });
});

describe('resolveCitations: uncited sources', () => {
  it('lists the indexes of sources no marker names', () => {
    expect(resolveCitations('[syn-case-2:3]', SOURCES).uncited).toEqual([0, 2]);
    expect(resolveCitations('[syn-act-1:5] [syn-act-3] [syn-case-2]', SOURCES).uncited).toEqual([]);
  });

  it('counts a source as uncited when only an unresolved marker is there', () => {
    expect(resolveCitations('[syn-act-1:99]', SOURCES).uncited).toEqual([0, 1, 2]);
  });

  it('tolerates a job without sources and malformed entries', () => {
    const r = resolveCitations('Текст [syn-act-1:5].', undefined);
    expect(numbered(r)).toBe('Текст [?syn-act-1:5].');
    expect(r.uncited).toEqual([]);
    const odd = resolveCitations('[syn-z:1]', [null as never, { document_id: 'syn-z', excerpts: 'не е масив' as never }]);
    expect(odd.citations).toEqual([{ number: 1, marker: 'syn-z:1', resolved: false }]);
  });

  it('returns an answer without markers as one text segment', () => {
    expect(resolveCitations('Само текст.', SOURCES)).toEqual({ segments: [{ kind: 'text', text: 'Само текст.' }], citations: [], uncited: [0, 1, 2] });
  });
});
