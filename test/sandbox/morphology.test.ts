import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stem } from '../../src/sandbox/text/analysis.js';
import { buildLexemes, MORPHOLOGY_VERSION } from '../../src/sandbox/search/morphology.js';

const TMP = mkdtempSync(join(tmpdir(), 'pravo-morphology-test-'));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

describe('buildLexemes with dictionary-bg', () => {
  /** Every stem held: the full table. */
  let all: Map<string, string[]>;
  /** Only the stems of three participles the law writes are held. */
  let some: Map<string, string[]>;
  const heldParticiples = new Set([stem('уволнен'), stem('подписан'), stem('откраднат')]);

  beforeAll(async () => {
    all = await buildLexemes(() => true);
    some = await buildLexemes((s) => heldParticiples.has(s));
  });

  it('maps the verb forms a citizen types to the stems of the participles the law writes', () => {
    // The light stemmer keeps these apart (different stems), the dictionary knows they are forms of one verb.
    expect(stem('уволних')).not.toBe(stem('уволнен'));
    expect(all.get(stem('уволних'))).toContain(stem('уволнен'));
    expect(all.get(stem('уволни'))).toContain(stem('уволнен'));
    expect(all.get(stem('уволних'))).toContain(stem('уволнил'));
    expect(all.get(stem('откраднах'))).toContain(stem('откраднат'));
    expect(all.get(stem('подписах'))).toContain(stem('подписан'));
    expect(all.get(stem('наследих'))).toContain(stem('наследен'));
    expect(all.get(stem('осъдих'))).toContain(stem('осъден'));
    // And back: the participle's stem has the citizen's forms as mates when they are held.
    expect(all.get(stem('уволнен'))).toContain(stem('уволних'));
  });

  it('never gives a stem as its own mate, and gives mates sorted, unique and non-empty', () => {
    expect(all.size).toBeGreaterThan(100_000);
    // Checked by hand and reported at the end: 2 million `expect` calls would take seconds.
    const bad = [...all].filter(
      ([key, mates]) =>
        mates.length === 0 || mates.includes(key) || mates.some((t, i) => i > 0 && !(mates[i - 1]! < t)),
    );
    expect(bad).toEqual([]);
  });

  it('gives as mates only held stems, but keeps keys that are not held', () => {
    expect(some.get(stem('уволних'))).toEqual([stem('уволнен')]);
    expect(some.get(stem('подписах'))).toEqual([stem('подписан')]);
    expect(some.get(stem('откраднах'))).toEqual([stem('откраднат')]);
    for (const mates of some.values()) for (const t of mates) expect(heldParticiples.has(t)).toBe(true);
    // A held stem whose lexeme holds no other held stem has no mates, so it is no key.
    expect(some.has(stem('уволнен'))).toBe(false);
    // A word with no held form has no entry at all.
    expect(some.has(stem('наследих'))).toBe(false);
  });

  it('has a version', () => {
    expect(Number.isInteger(MORPHOLOGY_VERSION)).toBe(true);
  });
});

describe('buildLexemes with a given dictionary', () => {
  // A synthetic dictionary with fictional words („шмокна“ is a made-up verb, „глупатор“ a made-up noun): the test
  // only depends on these files, not on dictionary-bg.
  const aff = join(TMP, 'synthetic.aff');
  const dic = join(TMP, 'synthetic.dic');
  writeFileSync(
    aff,
    [
      'SET UTF-8',
      '',
      'SFX V Y 6',
      'SFX V   а   ах     .',
      'SFX V   а   ат     .',
      'SFX V   а   атия   .',
      'SFX V   а   ал     .',
      'SFX V   а   ала    .',
      'SFX V   а   е      .',
      '',
      'SFX N Y 4',
      'SFX N   0   а      .',
      'SFX N   0   ът     .',
      'SFX N   0   и      .',
      'SFX N   0   ите    .',
      '',
    ].join('\n'),
  );
  writeFileSync(dic, ['2', 'шмокна/V', 'глупатор/N', ''].join('\n'));
  const dictionary = { aff, dic };

  // Forms of „шмокна“: шмокна, шмокне → one stem; шмокнах; шмокнат, шмокнатия → one stem; шмокнал, шмокнала → one stem.
  const verbStems = [stem('шмокна'), stem('шмокнах'), stem('шмокнат'), stem('шмокнал')];

  it('groups the stems of the forms of each entry', async () => {
    expect(new Set(verbStems).size).toBe(4);
    expect(stem('шмокне')).toBe(stem('шмокна'));
    const lexemes = await buildLexemes(() => true, { dictionary });
    const expected = new Map(verbStems.map((s) => [s, verbStems.filter((t) => t !== s).sort()]));
    expect(lexemes).toEqual(expected);
    // „глупатор“: all its forms have one light stem, so it adds nothing.
    expect(lexemes.has(stem('глупатор'))).toBe(false);
  });

  it('filters mates by held, calling held once per stem', async () => {
    const calls: string[] = [];
    const lexemes = await buildLexemes(
      (s) => {
        calls.push(s);
        return s === stem('шмокнат');
      },
      { dictionary },
    );
    expect(lexemes).toEqual(
      new Map([
        [stem('шмокна'), [stem('шмокнат')]],
        [stem('шмокнах'), [stem('шмокнат')]],
        [stem('шмокнал'), [stem('шмокнат')]],
      ]),
    );
    expect(calls.length).toBe(new Set(calls).size);
  });

  it('rejects when the dictionary files are missing', async () => {
    const missing = { aff: join(TMP, 'missing.aff'), dic: join(TMP, 'missing.dic') };
    await expect(buildLexemes(() => true, { dictionary: missing })).rejects.toThrow(/ENOENT/);
  });
});
