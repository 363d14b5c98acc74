/**
 * Judge names: the Bulgarian transliteration, the matching rule of `judge_name` (and of the judges catalog's
 * `search`), and `judge_name` in `POST /v1/search` over the real decisions (`../shared/corpus/bg-decisions.jsonl.gz`),
 * where it matches the reporting judge or any judge of the panel.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openIndex } from '../../../src/sandbox/corpus/index-db.js';
import type { SearchIndex } from '../../../src/sandbox/storage.js';
import { search } from '../../../src/sandbox/search/pipeline.js';
import {
  decisionJudgeNames,
  decisionJudgeMatcher,
  judgeNameKey,
  judgeNameMatches,
  typosAllowed,
} from '../../../src/sandbox/search/judges.js';
import { transliterateBulgarian } from '../../../src/shared/latin.js';
import { DECISIONS_PATH } from '../../helpers/real-corpus.js';
import { tempDir } from '../fixtures.js';

describe('transliterateBulgarian (Streamlined System of the Transliteration Act)', () => {
  it('gives every letter as the Act says', () => {
    const cyrillic = 'абвгдежзийклмнопрстуфхцчшщъьюя';
    const latin = ['a', 'b', 'v', 'g', 'd', 'e', 'zh', 'z', 'i', 'y', 'k', 'l', 'm', 'n', 'o', 'p', 'r', 's', 't', 'u', 'f', 'h', 'ts', 'ch', 'sh', 'sht', 'a', 'y', 'yu', 'ya'];
    expect([...cyrillic].map((letter) => transliterateBulgarian(letter))).toEqual(latin);
    expect(transliterateBulgarian('ХЩЪЬ')).toBe('HShtAY');
  });

  it('writes word-final "ия" as "ia", and ѝ as i', () => {
    expect(transliterateBulgarian('София, Илия и Мариян')).toBe('Sofia, Ilia i Mariyan');
    expect(transliterateBulgarian('МАРИЯ')).toBe('MARIA');
    expect(transliterateBulgarian('ѝ Ѝ')).toBe('i I');
    expect(transliterateBulgarian('и\u0300')).toBe('i'); // decomposed ѝ
  });

  it('transliterates real names as their bearers write them in Latin', () => {
    expect(transliterateBulgarian('Христина Михова')).toBe('Hristina Mihova');
    expect(transliterateBulgarian('Красимир Шекерджиев')).toBe('Krasimir Shekerdzhiev');
    expect(transliterateBulgarian('Татяна Кънчева')).toBe('Tatyana Kancheva');
    expect(transliterateBulgarian('Юлиян Киров')).toBe('Yuliyan Kirov');
  });

  it('leaves Latin text alone except for its diacritics', () => {
    expect(transliterateBulgarian('Hristina Mihová')).toBe('Hristina Mihova');
  });
});

describe('judgeNameKey', () => {
  it('reads Cyrillic, the official Latin and the English-style Latin of a name alike', () => {
    const key = ['hristina', 'mihova'];
    expect(judgeNameKey('Христина Михова')).toEqual(key);
    expect(judgeNameKey('HRISTINA MIHOVA')).toEqual(key);
    expect(judgeNameKey('Khristina Mikhova')).toEqual(key);
    expect(judgeNameKey('Mariya')).toEqual(judgeNameKey('Мария'));
    expect(judgeNameKey('Shchereva')).toEqual(judgeNameKey('Щерева'));
  });

  it('splits on punctuation and drops it', () => {
    expect(judgeNameKey('Х. Петрова-Михова,')).toEqual(['h', 'petrova', 'mihova']);
    expect(judgeNameKey(' .- ')).toEqual([]);
  });
});

describe('judgeNameMatches against "Христина Михова"', () => {
  const JUDGE = 'Христина Михова';

  it.each([
    ['михова', 'the surname alone, lower case'],
    ['МИХОВА', 'upper case'],
    ['Христина', 'the given name alone'],
    ['Mihova', 'the official transliteration'],
    ['MIHOVA', 'transliterated, upper case'],
    ['Hristina Mihova', 'the full name transliterated'],
    ['Mikhova', 'English-style kh for х'],
    ['Khristina Mikhova', 'English-style, both names'],
    ['Х. Михова', 'an initial'],
    ['H. Mihova', 'a Latin initial'],
    ['Хрис Михова', 'a shortened given name'],
    ['Христина Иванова Михова', "an extra father's name between the given name and the surname"],
    ['Михова Христина', 'surname first'],
    ['Михова Христина Иванова', "surname first, then given and father's name"],
    ['Михва', 'one typo in a word of 5 letters'],
    ['Mihowa', 'one typo in the Latin form'],
    ['Hrystyna Mihova', 'two typos in a word of 8 letters'],
  ])('%s matches (%s)', (typed) => {
    expect(judgeNameMatches(typed, JUDGE)).toBe(true);
  });

  it.each([
    ['Иван Михова', 'a given name that is not hers'],
    ['Мария Михова', 'another given name'],
    ['Христина Иванова', 'another surname (the extra word is not between two of her names)'],
    ['Михова Иванова', 'a word after the surname'],
    ['Мхва', 'two typos in a word of 4 letters'],
    ['Hrystyn Mihova', 'three edits in the given name'],
  ])('%s does not match (%s)', (typed) => {
    expect(judgeNameMatches(typed, JUDGE)).toBe(false);
  });

  it('takes prefixes of any length but no typo in words under 4 letters', () => {
    expect(judgeNameMatches('Мих', JUDGE)).toBe(true);
    expect(judgeNameMatches('Мях', JUDGE)).toBe(false);
  });

  it('matches nothing for a text without letters', () => {
    expect(judgeNameMatches('...', JUDGE)).toBe(false);
    expect(judgeNameMatches('', JUDGE)).toBe(false);
  });
});

describe('decisionJudgeMatcher', () => {
  const decision = { reporting_judge: 'Христина Михова', judges: ['Лада Паунова', 'Румен Петров', 'Христина Михова'] };

  it('matches the reporting judge or any judge of the panel', () => {
    expect(decisionJudgeMatcher('Михова')(decision)).toBe(true);
    expect(decisionJudgeMatcher('Lada Paunova')(decision)).toBe(true);
    expect(decisionJudgeMatcher('Румен Петров')(decision)).toBe(true);
    expect(decisionJudgeMatcher('Антоанета Данова')(decision)).toBe(false);
    expect(decisionJudgeMatcher('...')(decision)).toBe(false);
  });

  it("never combines the words of two judges' names", () => {
    expect(decisionJudgeMatcher('Румен Михова')(decision)).toBe(false);
    expect(decisionJudgeMatcher('Лада Петров')(decision)).toBe(false);
  });

  it('lets a typo fit only when no judge of the corpus fits the name as typed (made-up names)', () => {
    const given = { reporting_judge: null, judges: ['Костадин Примеров', 'Вера Тестова'] };
    const surname = { reporting_judge: null, judges: ['Йордан Костадинов'] };
    // Alone, „Костадинов“ fits the given name Костадин by 2 edits.
    expect(decisionJudgeMatcher('Костадинов')(given)).toBe(true);
    // With a judge of that surname in the corpus, it finds only them.
    const matcher = decisionJudgeMatcher('Костадинов', [given, surname, undefined]);
    expect(matcher(surname)).toBe(true);
    expect(matcher(given)).toBe(false);
    // A typo that fits no name as typed still finds the judge it is near.
    expect(decisionJudgeMatcher('Тества', [given, surname])(given)).toBe(true);
    expect(typosAllowed(judgeNameKey('Kostadinov'), [judgeNameKey('Йордан Костадинов')])).toBe(false);
    expect(typosAllowed(judgeNameKey('Kostadinv'), [judgeNameKey('Йордан Костадинов')])).toBe(true);
  });

  it('matches a reporting judge missing from the panel', () => {
    expect(decisionJudgeMatcher('Троянов')({ reporting_judge: 'Бисер Троянов', judges: [] })).toBe(true);
  });

  it('lists the panel, then a reporting judge not on it, each name once and trimmed', () => {
    expect(decisionJudgeNames({ reporting_judge: ' Бисер  Троянов ', judges: ['Татяна Кънчева', 'Бисер Троянов', ''] })).toEqual([
      'Татяна Кънчева',
      'Бисер Троянов',
    ]);
    expect(decisionJudgeNames({ reporting_judge: 'Иван Раденков', judges: ['Марио Димитров'] })).toEqual(['Марио Димитров', 'Иван Раденков']);
    expect(decisionJudgeNames({ reporting_judge: null, judges: [] })).toEqual([]);
  });
});

describe('judge_name in POST /v1/search over the real decisions', () => {
  let index: SearchIndex;
  let cleanup: () => void;

  beforeAll(async () => {
    const t = tempDir('pravo-judges-index-');
    cleanup = t.cleanup;
    index = await openIndex({ corpusPath: DECISIONS_PATH, dataDir: t.dir });
  });

  afterAll(() => {
    index?.close();
    cleanup?.();
  });

  /** The decisions found for `judge_name` ("съд" occurs in all 35). */
  const found = (judge_name: string): string[] =>
    search(index, { query: 'съд', source_types: ['high_courts_cases'], judge_name, max_results: 50 })
      .results.map((r) => r.document_id)
      .sort();

  it.each(['михова', 'Mihova', 'MIHOVA', 'Hristina Mihova', 'Христина Иванова Михова', 'Mikhova'])(
    '%s finds the one decision whose panel includes Христина Михова',
    (typed) => {
      expect(found(typed)).toEqual(['vks-2024-116-1164-2023']);
    },
  );

  it('finds nothing for "Иван Михова"', () => {
    expect(found('Иван Михова')).toEqual([]);
  });

  it('finds a judge who sits on panels but never reports', () => {
    // Лада Паунова and Румен Петров are panel members of these decisions; none names them as reporting judge.
    expect(found('Лада Паунова')).toEqual(['vks-2024-116-1164-2023']);
    expect(found('Rumen Petrov')).toEqual(['vks-2015-377-1063-2015', 'vks-2022-60209-757-2021', 'vks-2024-116-1164-2023']);
  });

  it('finds a Constitutional Court judge on every panel they sat on, reporting or not', () => {
    expect(found('Орлин Колев')).toEqual([
      'ks-2025-act-10223',
      'ks-2025-act-10224',
      'ks-2026-act-10260',
      'ks-2026-act-10261',
      'ks-2026-act-10262',
      'ks-2026-act-10263',
      'ks-2026-act-10267',
      'ks-2026-act-10268',
      'ks-2026-act-10269',
    ]);
  });
});
