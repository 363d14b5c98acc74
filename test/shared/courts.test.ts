/**
 * Court names typed by users resolve to one court of the catalog, or to the candidates (never a guess). Runs over the
 * real courts file `../shared/corpus/bg-courts.json` (read at run time, never copied).
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { resolveCourt, type NamedCourt } from '../../src/shared/courts.js';

const courts = JSON.parse(fs.readFileSync(new URL('../../../shared/corpus/bg-courts.json', import.meta.url), 'utf8')) as NamedCourt[];

function found(typed: string): number | undefined {
  const match = resolveCourt(typed, courts);
  return match.kind === 'found' ? match.court.court_id : undefined;
}

describe('resolveCourt over the 185 real courts', () => {
  it.each([
    ['ВКС', 1],
    ['вкс', 1],
    ['В.К.С.', 1],
    ['ВАС', 2],
    ['КС', 0],
    ['СГС', 110],
    ['1', 1],
    ['0', 0],
    ['РС Пловдив', 533],
    ['ОС-Варна', 310],
    ['АдмС Бургас', 704],
    ['окръжен съд пловдив', 530],
    ['Районен съд – Кнежа', 143],
    ['касационен', 1],
    ['пловдв окръжен', 530],
  ])('%s → court %i', (typed, id) => {
    expect(found(typed)).toBe(id);
  });

  // In Latin letters, as a user on a Latin keyboard types them (the Streamlined System, as for --judge).
  it.each([
    ['VKS', 1],
    ['vks', 1],
    ['V.K.S.', 1],
    ['VAS', 2],
    ['KS', 0],
    ['SGS', 110],
    ['RS Plovdiv', 533],
    ['OS-Varna', 310],
    ['AdmS Burgas', 704],
    ['okrazhen sad plovdiv', 530],
    ['Rayonen sad – Knezha', 143],
    ['Sofiyski gradski sad', 110],
  ])('%s (Latin) → court %i', (typed, id) => {
    expect(found(typed)).toBe(id);
  });

  it('a town alone names several courts: ambiguous, every candidate listed', () => {
    expect(resolveCourt('Plovdiv', courts)).toEqual(resolveCourt('Пловдив', courts));
    const match = resolveCourt('Пловдив', courts);
    expect(match.kind).toBe('ambiguous');
    const names = match.kind === 'ambiguous' ? match.candidates.map((c) => c.name) : [];
    expect(names).toEqual(expect.arrayContaining(['Окръжен съд – Пловдив', 'Районен съд – Пловдив', 'Административен съд – Пловдив']));
  });

  it('"Върховен съд" is ВКС or ВАС: ambiguous, not a guess', () => {
    const match = resolveCourt('Върховен съд', courts);
    expect(match.kind === 'ambiguous' ? match.candidates.map((c) => c.court_id) : []).toEqual([1, 2]);
  });

  it('an unknown code or name is none, with close names as suggestions', () => {
    expect(resolveCourt('999', courts).kind).toBe('none');
    const match = resolveCourt('Районен съд Марс', courts);
    expect(match.kind).toBe('none');
    expect(match.kind === 'none' && match.suggestions.length > 0 && match.suggestions.every((c) => c.name.toLowerCase().includes('районен'))).toBe(true);
    expect(resolveCourt('   ', courts)).toEqual({ kind: 'none', suggestions: [] });
  });
});
