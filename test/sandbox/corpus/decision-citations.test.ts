/**
 * The court decisions' citations of acts, resolved to the corpus's documents and elements (`act-resolver.ts`,
 * `decision-citations.ts`): on synthetic decisions and acts (titles say ТЕСТОВИ ДАННИ; the texts are made up, not legal
 * content), then on the real corpus (skipped without ../shared/corpus).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { collectionOf } from '../../../src/sandbox/catalog-rules.js';
import { actResolver } from '../../../src/sandbox/corpus/act-resolver.js';
import { collectCorpus } from '../../../src/sandbox/corpus/collect.js';
import { linkDecisionCitations, type DecisionCitationLinks } from '../../../src/sandbox/corpus/decision-citations.js';
import { resolveCorpusInputs } from '../../../src/sandbox/corpus/inputs.js';
import type { CorpusDocument } from '../../../src/sandbox/corpus/reader.js';
import { haveSharedCorpus, SHARED_CORPUS } from '../real-index.js';

/** A statute of the given articles (`Чл. N.`) and §§ (`§ N.`), each with a made-up text. */
function statute(
  document_id: string,
  title: string,
  date: string,
  refs: { articles?: string[]; sections?: string[] },
  extra: Partial<CorpusDocument> = {},
): CorpusDocument {
  const elements = [
    ...(refs.articles ?? []).map((ref) => ({ ref, label: `Чл. ${ref}.`, text: `Чл. ${ref}. Тестов текст на члена (ТЕСТОВИ ДАННИ).` })),
    ...(refs.sections ?? []).map((ref) => ({ ref: `§${ref}`, label: `§ ${ref}.`, text: `§ ${ref}. Тестов текст на параграфа (ТЕСТОВИ ДАННИ).` })),
  ];
  return { document_id, source_type: 'bulgarian_laws_regulations', type: 'Закон', title, date, elements, ...extra };
}

/** A court decision of the given paragraphs (`¶ N`). */
function decision(document_id: string, court_id: number, court: string, date: string, paragraphs: string[]): CorpusDocument {
  return {
    document_id,
    source_type: 'high_courts_cases',
    type: 'Решение',
    title: `Решение по тестово дело ${document_id} (ТЕСТОВИ ДАННИ)`,
    date,
    court_id,
    court,
    decision_number: '1',
    case_number: '1/2020',
    elements: paragraphs.map((text, i) => ({ ref: String(i + 1), label: `¶ ${i + 1}`, text })),
  };
}

const range = (from: number, to: number): string[] => Array.from({ length: to - from + 1 }, (_, i) => String(from + i));

const DOCUMENTS: CorpusDocument[] = [
  /* 0 */ statute('t-zotd', 'Закон за обработката на ТЕСТОВИ ДАННИ', '2010-01-01', { articles: range(1, 30), sections: ['1', '2'] }),
  // Two texts of one code: the consolidated one (older, but current as of 2024) is the one cited.
  /* 1 */ statute('t-ktd-old', 'Кодекс за ТЕСТОВИ ДАННИ', '2006-01-01', { articles: range(1, 190) }),
  /* 2 */ statute('t-ktd-cons', 'Кодекс за ТЕСТОВИ ДАННИ', '2005-01-01', { articles: range(1, 200) }, { consolidated: true, as_of: '2024-01-01' }),
  // One of that title dated after every decision: never the one cited.
  /* 3 */ statute('t-ktd-later', 'Кодекс за ТЕСТОВИ ДАННИ', '2030-01-01', { articles: range(1, 200) }),
  /* 4 */ statute('t-zid', 'Закон за изменение и допълнение на Закона за обработката на ТЕСТОВИ ДАННИ', '2015-01-01', { sections: ['1', '2', '3'] }),
  /* 5 */ statute('t-itu', 'Конституция на Международния съюз за ТЕСТОВИ ДАННИ', '2003-01-01', { articles: range(1, 10) }),
  // Two acts of one title, neither consolidated: the newest dated on or before the decision.
  /* 6 */ statute('t-reg-2008', 'Закон за регистрите на ТЕСТОВИ ДАННИ', '2008-01-01', { articles: range(1, 5) }),
  /* 7 */ statute('t-reg-2016', 'Закон за регистрите на ТЕСТОВИ ДАННИ', '2016-01-01', { articles: range(1, 5) }),
  // Two titles of the same initials (ЗЗТД).
  /* 8 */ statute('t-zztd-1', 'Закон за защитата на ТЕСТОВИ ДАННИ', '2009-01-01', { articles: range(1, 5) }),
  /* 9 */ statute('t-zztd-2', 'Закон за заплащането на ТЕСТОВИ ДАННИ', '2009-01-01', { articles: range(1, 5) }),
  /* 10 */ decision('t-ks', 0, 'Конституционен съд', '2020-05-01', [
    'РЕШЕНИЕ № 1 по чл. 1 от Закона за обработката на ТЕСТОВИ ДАННИ (заглавие, ТЕСТОВИ ДАННИ)',
    'Конституционният съд в състав: Анна Примерова, Борис Тестов (ТЕСТОВИ ДАННИ)',
    'Производството е по чл. 12, ал. 1 ЗОТД и по чл. 3, 4 и 5 от Закона за обработката на ТЕСТОВИ ДАННИ.',
    'Тестовият текст на чл. 185 – 196 от Кодекса за ТЕСТОВИ ДАННИ се прилага съответно.',
    'Чл. 7 от Закона за обработката на ТЕСТОВИ ДАННИ препраща към чл. 27 от същия закон.',
    'Искането сочи чл. 5 от Закона за измислените неща, чл. 99 от Закона за обработката на ТЕСТОВИ ДАННИ и чл. 4 от Конституцията. Тестовият чл. 9 е без акт.',
    'Атакуван е § 2 от преходните и заключителните разпоредби на Закона за изменение и допълнение на Закона за обработката на ТЕСТОВИ ДАННИ.',
    'Тестовият текст гласи: „Чл. 3. Лицето по чл. 8 от Закона за обработката на ТЕСТОВИ ДАННИ се уведомява.“',
    'Тестовите правила са по чл. 2 от Закона за регистрите на ТЕСТОВИ ДАННИ и чл. 1 ЗЗТД.',
  ]),
  /* 11 */ decision('t-vas', 2, 'Върховен административен съд', '2021-01-01', [
    'РЕШЕНИЕ № 2 (заглавие, ТЕСТОВИ ДАННИ)',
    'Жалбата е по чл. 12 ЗОТД, а съдът прилага чл. 12 ЗОТД (ТЕСТОВИ ДАННИ).',
  ]),
  /* 12 */ decision('t-old', 2, 'Върховен административен съд', '2012-01-01', [
    'РЕШЕНИЕ № 3 (заглавие, ТЕСТОВИ ДАННИ)',
    'Правилата са по чл. 2 от Закона за регистрите на ТЕСТОВИ ДАННИ (ТЕСТОВИ ДАННИ).',
  ]),
];

const collectionOfDocument = (d: CorpusDocument): string => d.collection ?? collectionOf(d.source_type);

describe('which document an act is, as a decision writes it', () => {
  const resolver = actResolver(DOCUMENTS);
  const at = (written: string, date = '2020-05-01'): string | undefined => {
    const index = resolver.resolveAct(written, date);
    return index === undefined ? undefined : DOCUMENTS[index]!.document_id;
  };

  it('an abbreviation that is a title’s initials, a title in the oblique form or in the nominative', () => {
    expect(at('ЗОТД')).toBe('t-zotd');
    expect(at('Закона за обработката на ТЕСТОВИ ДАННИ')).toBe('t-zotd');
    expect(at('Закон за обработката на ТЕСТОВИ ДАННИ')).toBe('t-zotd');
  });

  it('of several documents of one title, the consolidated text, never one dated after the decision', () => {
    expect(at('Кодекса за ТЕСТОВИ ДАННИ')).toBe('t-ktd-cons');
    expect(at('Кодекса за ТЕСТОВИ ДАННИ', '2035-01-01')).toBe('t-ktd-cons');
    // Before every text of the title: the act cited is an older one the corpus lacks.
    expect(resolver.resolveActDetailed('Кодекса за ТЕСТОВИ ДАННИ', '2004-01-01')).toEqual({ kind: 'unresolved', reason: 'act_not_in_corpus', candidates: [] });
  });

  it('else the newest dated on or before the decision', () => {
    expect(at('Закона за регистрите на ТЕСТОВИ ДАННИ', '2012-01-01')).toBe('t-reg-2008');
    expect(at('Закона за регистрите на ТЕСТОВИ ДАННИ', '2020-01-01')).toBe('t-reg-2016');
  });

  it('an amending act only by its own title', () => {
    expect(at('Закона за изменение и допълнение на Закона за обработката на ТЕСТОВИ ДАННИ')).toBe('t-zid');
    expect(at('Закона за обработката на ТЕСТОВИ ДАННИ')).toBe('t-zotd');
    expect(resolver.resolveActDetailed('ЗИД', '2020-01-01')).toMatchObject({ kind: 'unresolved', reason: 'amending_act' });
  });

  it('„Конституцията“ is the Constitution of the Republic, never another act called a constitution', () => {
    expect(resolver.resolveActDetailed('Конституцията', '2020-01-01')).toMatchObject({ kind: 'unresolved', reason: 'act_not_in_corpus' });
    expect(resolver.resolveActDetailed('Основния закон', '2020-01-01')).toMatchObject({ kind: 'unresolved', reason: 'act_not_in_corpus' });
    expect(at('Конституцията на Международния съюз за ТЕСТОВИ ДАННИ')).toBe('t-itu');
  });

  it('says why an act is not resolved', () => {
    expect(resolver.resolveActDetailed('ЗЗТД', '2020-01-01')).toEqual({ kind: 'unresolved', reason: 'ambiguous_act', candidates: [8, 9] });
    expect(resolver.resolveActDetailed('Закона за измислените неща', '2020-01-01')).toMatchObject({ reason: 'act_not_in_corpus' });
    expect(resolver.resolveActDetailed('Регламент (ЕС) № 1/2020', '2020-01-01')).toMatchObject({ reason: 'eu_or_international' });
    expect(resolver.resolveActDetailed('ДФЕС', '2020-01-01')).toMatchObject({ reason: 'eu_or_international' });
    expect(resolver.resolveActDetailed('Наредбата', '2020-01-01')).toMatchObject({ reason: 'act_not_identified' });
  });

  it('cuts a title read past its end to the words of the act’s title', () => {
    expect(resolver.resolveActDetailed('Закона за обработката на ТЕСТОВИ ДАННИ се прилага', '2020-01-01')).toEqual({
      kind: 'resolved',
      document: 0,
      written: 'Закона за обработката на ТЕСТОВИ ДАННИ',
    });
  });
});

describe('the decisions’ citations, linked both ways', () => {
  const links = linkDecisionCitations(DOCUMENTS, collectionOfDocument);
  const citesOf = (decisionIndex: number, paragraph: number): string[] =>
    (links.cites.get(decisionIndex)?.get(paragraph) ?? []).map((c) => `${c.excerpt_id} ${c.text}`);

  it('an abbreviation and a list: each article its entry, with the citation as written', () => {
    expect(citesOf(10, 2)).toEqual([
      't-zotd:12 чл. 12, ал. 1 ЗОТД',
      't-zotd:3 чл. 3 от Закона за обработката на ТЕСТОВИ ДАННИ',
      't-zotd:4 чл. 4 от Закона за обработката на ТЕСТОВИ ДАННИ',
      't-zotd:5 чл. 5 от Закона за обработката на ТЕСТОВИ ДАННИ',
    ]);
    expect(links.cites.get(10)?.get(2)?.[0]).toEqual({
      text: 'чл. 12, ал. 1 ЗОТД',
      document_id: 't-zotd',
      collection: collectionOf('bulgarian_laws_regulations'),
      title: 'Закон за обработката на ТЕСТОВИ ДАННИ',
      ref: '12',
      excerpt_id: 't-zotd:12',
    });
  });

  it('a range: each article the act has in it, in the consolidated text', () => {
    expect(citesOf(10, 3)).toEqual(range(185, 196).map((ref) => `t-ktd-cons:${ref} чл. 185 – 196 от Кодекса за ТЕСТОВИ ДАННИ`));
    expect(links.cited_by.get(1)).toBeUndefined();
    expect(links.cited_by.get(3)).toBeUndefined();
  });

  it('„от същия закон“ is the act named before it; a citation in a quotation counts', () => {
    expect(citesOf(10, 4)).toEqual(['t-zotd:7 Чл. 7 от Закона за обработката на ТЕСТОВИ ДАННИ', 't-zotd:27 чл. 27 от същия закон']);
    expect(citesOf(10, 7)).toEqual(['t-zotd:8 чл. 8 от Закона за обработката на ТЕСТОВИ ДАННИ']);
  });

  it('an amending act by its own title: its §', () => {
    expect(citesOf(10, 6)).toEqual([
      't-zid:§2 § 2 от преходните и заключителните разпоредби на Закона за изменение и допълнение на Закона за обработката на ТЕСТОВИ ДАННИ',
    ]);
  });

  it('an act of one title: the one of the decision’s time', () => {
    expect(citesOf(12, 1)).toEqual(['t-reg-2008:2 чл. 2 от Закона за регистрите на ТЕСТОВИ ДАННИ']);
    expect(citesOf(10, 8)).toEqual(['t-reg-2016:2 чл. 2 от Закона за регистрите на ТЕСТОВИ ДАННИ']);
  });

  it('nothing from the header (title, panel), nothing unresolved', () => {
    expect(links.cites.get(10)?.has(0)).toBe(false);
    expect(links.cites.get(10)?.has(1)).toBe(false);
    expect(citesOf(10, 5)).toEqual([]);
  });

  it('an element lists the decisions citing it, newest first, one entry each with its count and first paragraph', () => {
    expect(links.cited_by.get(0)?.get(11)).toEqual([
      {
        document_id: 't-vas',
        collection: collectionOf('high_courts_cases'),
        title: 'Решение по тестово дело t-vas (ТЕСТОВИ ДАННИ)',
        court: 'Върховен административен съд',
        type: 'Решение',
        decision_number: '1',
        date: '2021-01-01',
        case_number: '1/2020',
        excerpt_id: 't-vas:2',
        label: '¶ 2',
        count: 2,
      },
      expect.objectContaining({ document_id: 't-ks', excerpt_id: 't-ks:3', label: '¶ 3', count: 1 }),
    ]);
    // Чл. 1 is cited only in the title of a decision, which is not read.
    expect(links.cited_by.get(0)?.has(0)).toBe(false);
  });

  it('reports what it read, resolved and left unresolved, by reason', () => {
    expect(links.report).toEqual({
      decisions: 3,
      paragraphs: 9,
      // ¶ 3: 4; ¶ 4: 1 (a range); ¶ 5: 2; ¶ 6: 4; ¶ 7: 1; ¶ 8: 1; ¶ 9: 2; t-vas: 2; t-old: 1.
      citations: 18,
      resolved: 13,
      links: 24,
      unresolved: {
        no_act_named: 1,
        act_not_identified: 0,
        eu_or_international: 0,
        amending_act: 0,
        ambiguous_act: 1,
        act_not_in_corpus: 2,
        no_such_provision: 1,
      },
      top_unresolved_acts: [
        { act: 'Закона за измислените неща', reason: 'act_not_in_corpus', count: 1 },
        { act: 'ЗЗТД', reason: 'ambiguous_act', count: 1 },
        { act: 'Конституцията', reason: 'act_not_in_corpus', count: 1 },
      ],
    });
  });
});

describe.skipIf(!haveSharedCorpus)('the real corpus’s decisions (../shared/corpus)', () => {
  let documents: CorpusDocument[];
  let links: DecisionCitationLinks;
  const indexOf = (id: string): number => documents.findIndex((d) => d.document_id === id);
  beforeAll(async () => {
    documents = (await collectCorpus(resolveCorpusInputs([SHARED_CORPUS]).corpusFiles)).documents;
    links = linkDecisionCitations(documents, collectionOfDocument);
  }, 300_000);

  it('resolves the acts as decisions write them to the served texts', () => {
    const resolver = actResolver(documents);
    const id = (written: string, date: string): string | undefined => {
      const index = resolver.resolveAct(written, date);
      return index === undefined ? undefined : documents[index]!.document_id;
    };
    expect(id('Конституцията', '2016-10-13')).toBe('ldoc-521957377');
    expect(id('Основния закон', '2016-10-13')).toBe('ldoc-521957377');
    expect(id('Наказателно-процесуалния кодекс', '2016-10-13')).toBe('akn-2005-npk');
    expect(id('АПК', '2016-10-13')).toBe('ldoc-2135521015');
    expect(id('Кодекса на труда', '2016-10-13')).toBe('akn-1986-dv-26-86-1');
    expect(id('ЗЗД', '2016-10-13')).toBe('akn-1950-zzd');
    // The Закон за обществените поръчки of 2004 for a decision of 2010, that of 2016 for one of 2020.
    expect(id('ЗОП', '2010-06-01')).toBe('akn-2004-dv-28-04-1');
    expect(id('ЗОП', '2020-06-01')).toBe('act-15520');
    // The old НПК (before the code of 2005) is not in the corpus.
    expect(id('НПК', '2004-01-01')).toBeUndefined();
  });

  it('the Constitution’s most cited articles are cited by КС decisions', () => {
    const constitution = indexOf('ldoc-521957377');
    const cited = [...links.cited_by.get(constitution)!].map(([element, entries]) => ({ ref: documents[constitution]!.elements[element]!.ref, entries }));
    cited.sort((a, b) => b.entries.length - a.entries.length);
    const top = cited.slice(0, 10);
    // Measured 2026-11-27 (decisions citing each, the 10 most): чл. 149: 142, чл. 4: 107, чл. 5: 83, чл. 150: 57, …
    expect(top.slice(0, 4).map((c) => `${c.ref}:${c.entries.length}`)).toEqual(['149:142', '4:107', '5:83', '150:57']);
    for (const { entries } of top) expect(entries.some((e) => e.court === 'Конституционен съд')).toBe(true);
  });

  it('КС Решение № 12/2016 cites НК чл. 79, which lists it', () => {
    const decisionIndex = indexOf('ks-2016-12-13-2015');
    const nk = indexOf('akn-1968-nk');
    const cites = [...links.cites.get(decisionIndex)!.values()].flat();
    expect(cites.some((c) => c.document_id === 'akn-1968-nk' && c.ref === '79')).toBe(true);
    const article79 = documents[nk]!.elements.findIndex((e) => e.ref === '79');
    expect(links.cited_by.get(nk)!.get(article79)!.map((e) => e.document_id)).toContain('ks-2016-12-13-2015');
  });

  it('ВАС decisions cite the АПК’s articles', () => {
    const apk = indexOf('ldoc-2135521015');
    const article208 = documents[apk]!.elements.findIndex((e) => e.ref === '208');
    const citing = links.cited_by.get(apk)!.get(article208)!;
    expect(citing.filter((e) => e.court === 'Върховен административен съд').length).toBeGreaterThan(30);
  });

  it('reports the counts measured', () => {
    // Measured 2026-11-27 by printing `links.report` over the collected corpus (as the index build holds it).
    expect(links.report).toMatchObject({ decisions: 475, paragraphs: 12904, citations: 30001, resolved: 12509, links: 13195 });
    expect(links.report.unresolved).toEqual({
      no_act_named: 6735,
      act_not_identified: 793,
      eu_or_international: 883,
      amending_act: 249,
      ambiguous_act: 28,
      act_not_in_corpus: 8515,
      no_such_provision: 289,
    });
    expect(links.report.top_unresolved_acts[0]).toEqual({ act: 'Закона за нормативните актове', reason: 'act_not_in_corpus', count: 1247 });
  });
});
