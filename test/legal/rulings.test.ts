/**
 * The rulings an element carries (`src/legal/rulings.ts`) and what they do to `pravo cite`'s verdicts
 * (`checkProvision`): synthetic documents whose titles say they are test data; the texts are made up, not legal content.
 */
import { describe, expect, it } from 'vitest';
import type { DocumentResponse } from '../../src/contract/types.js';
import { allFound, checkProvision, type CiteReport } from '../../src/legal/cite.js';
import { describeRuling, rulingBearing, rulingsOf } from '../../src/legal/rulings.js';
import { parseCitations } from '../../src/shared/citations.js';

/** A ruling as the sandbox stores it (`corpus/case-law.ts`, `RulingEntry`). */
function ruling(part: Record<string, string> | null, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    ruling: 'declared_unconstitutional',
    scope: part === null ? 'whole' : 'part',
    part,
    decision_number: '7',
    decision_year: '2020',
    document_id: 'ks-test-7',
    collection: 'c_test',
    title: 'Решение № 7 (ТЕСТОВИ ДАННИ)',
    date: '2020-05-05',
    excerpt_id: 'ks-test-7:12',
    sources: ['note', 'decision'],
    note: null,
    later_amended: false,
    ...extra,
  };
}

/** A synthetic statute („ТЕСТОВИ ДАННИ“): чл. 5 with two paragraphs, the second with two points, and the rulings given. */
function statute(rulings: unknown[]): DocumentResponse {
  return {
    document_id: 'test-act',
    collection: 'c_test',
    title: 'Закон за тестовите уведомления (ТЕСТОВИ ДАННИ)',
    elements: [
      { excerpt_id: 'test-act:4', ref: '4', label: 'Чл. 4.', text: 'Чл. 4. Тестов текст без решения.' },
      {
        excerpt_id: 'test-act:5',
        ref: '5',
        label: 'Чл. 5.',
        text: 'Чл. 5. (1) Първа тестова алинея.\n(2) Втора тестова алинея. Второ тестово изречение.\n1. първа точка;\n2. втора точка.',
        rulings,
      },
    ],
  };
}

const NAME = 'Закон за тестовите уведомления';
const cite = (text: string) => parseCitations(text)[0]!;

describe('rulings on an element', () => {
  it('reads the rulings of an element and skips malformed entries', () => {
    const element = statute([ruling({ text: 'ал. 2, т. 2', paragraph: '2', point: '2' }), 'junk', { decision_number: 3 }]).elements![1]!;
    const rulings = rulingsOf(element);
    expect(rulings).toHaveLength(1);
    expect(rulings[0]).toMatchObject({ scope: 'part', decisionNumber: '7', decisionYear: '2020', documentId: 'ks-test-7', laterAmended: false });
    expect(describeRuling(rulings[0]!, 'чл. 5')).toBe('чл. 5, ал. 2, т. 2 declared unconstitutional by Решение № 7 от 2020 г. на Конституционния съд (2020-05-05)');
  });

  it('tells a citation of the part struck down from one of the provision around it and one of another part', () => {
    const [point] = rulingsOf(statute([ruling({ text: 'ал. 2, т. 2', paragraph: '2', point: '2' })]).elements![1]!);
    expect(rulingBearing(point!, cite('чл. 5, ал. 2, т. 2 от ЗТУ'))).toBe('struck');
    expect(rulingBearing(point!, cite('чл. 5, ал. 2 от ЗТУ'))).toBe('partly');
    expect(rulingBearing(point!, cite('чл. 5 от ЗТУ'))).toBe('partly');
    expect(rulingBearing(point!, cite('чл. 5, ал. 2, т. 1 от ЗТУ'))).toBe('elsewhere');
    expect(rulingBearing(point!, cite('чл. 5, ал. 1 от ЗТУ'))).toBe('elsewhere');
    const [sentence] = rulingsOf(statute([ruling({ text: 'ал. 2, изречение второ', paragraph: '2', sentence: '2' })]).elements![1]!);
    expect(rulingBearing(sentence!, cite('чл. 5, ал. 2, изречение второ от ЗТУ'))).toBe('struck');
    expect(rulingBearing(sentence!, cite('чл. 5, ал. 2, изр. 1 от ЗТУ'))).toBe('elsewhere');
    expect(rulingBearing(sentence!, cite('чл. 5, ал. 2 от ЗТУ'))).toBe('partly');
  });

  it('gives declared_unconstitutional for a provision struck down whole, and found with a warning for a part', () => {
    const whole = checkProvision(cite('чл. 5, ал. 1 от ЗТУ'), statute([ruling(null)]), NAME);
    expect(whole.verdict).toBe('declared_unconstitutional');
    expect(whole.detail).toBe('чл. 5 declared unconstitutional by Решение № 7 от 2020 г. на Конституционния съд (ks-test-7, 2020-05-05)');
    const part = checkProvision(cite('чл. 5, ал. 2 от ЗТУ'), statute([ruling({ text: 'ал. 2, изречение второ', paragraph: '2', sentence: '2' })]), NAME);
    expect(part.verdict).toBe('found');
    expect(part.warning).toContain('чл. 5, ал. 2, изречение второ declared unconstitutional by Решение № 7 от 2020 г.');
    const other = checkProvision(cite('чл. 5, ал. 1 от ЗТУ'), statute([ruling({ text: 'ал. 2', paragraph: '2' })]), NAME);
    expect(other).toMatchObject({ verdict: 'found' });
    expect(other.warning).toBeUndefined();
    const untouched = checkProvision(cite('чл. 4 от ЗТУ'), statute([ruling(null)]), NAME);
    expect(untouched.verdict).toBe('found');
  });

  it('never gives declared_unconstitutional for a text enacted again after the ruling, but warns', () => {
    const check = checkProvision(cite('чл. 5 от ЗТУ'), statute([ruling(null, { later_amended: true })]), NAME);
    expect(check.verdict).toBe('found');
    expect(check.warning).toContain('enacted or amended again after it');
  });

  it('fails the run (exit 8) when a citation found carries a warning', () => {
    const entry = { text: 'чл. 5', line: 1, column: 1, act: NAME, document_id: 'test-act', collection: 'c_test', ref: '5', verdict: 'found' as const, detail: '', unchecked: null };
    const report = (warning: string | null): CiteReport => ({ citations: [{ ...entry, warning }], documents_retrieved: 1, documents_from_cache: 0, searches_sent: 1, searches_from_cache: 0, documents: [] });
    expect(allFound(report(null))).toBe(true);
    expect(allFound(report('чл. 5, ал. 2 declared unconstitutional'))).toBe(false);
  });
});
