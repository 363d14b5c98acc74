/**
 * The case law of `../shared/corpus` as the index build reads it (issue 33; the figures the README gives under "Case law
 * under the articles"): the decisions' citations found and resolved, unresolved by reason, and the rulings of the
 * Constitutional Court from both sources with where they agree. Measured on the corpus with `SearchIndex.caseLaw()`;
 * a change of the readers that moves a figure must move the README's too.
 */
import { describe, expect, it } from 'vitest';
import { haveSharedCorpus, useRealIndex } from './real-index.js';

describe.skipIf(!haveSharedCorpus)('the case law of the real corpus', () => {
  const index = useRealIndex('case-law-real');

  it('reads every decision and resolves the citations of the acts the corpus holds', () => {
    const { citations } = index().caseLaw()!;
    expect(citations).toMatchObject({
      decisions: 475,
      citations: 30_001,
      resolved: 12_509,
      unresolved: {
        no_act_named: 6_735,
        act_not_identified: 793,
        eu_or_international: 883,
        amending_act: 249,
        ambiguous_act: 28,
        act_not_in_corpus: 8_515,
        no_such_provision: 289,
      },
    });
    // Every citation is resolved or unresolved for one reason.
    expect(citations.resolved + Object.values(citations.unresolved).reduce((a, b) => a + b, 0)).toBe(citations.citations);
  });

  it('reads the rulings from the notes and the operative parts, and says where they disagree', () => {
    const { rulings } = index().caseLaw()!;
    expect(rulings.notes).toEqual({ found: 53, decision_in_corpus: 15, decision_not_in_corpus: 38 });
    expect(rulings.decisions).toMatchObject({ read: 125, declaring: 34, found: 62, resolved: 38, unresolved: { act_not_in_corpus: 21, no_such_element: 3 } });
    expect(rulings.agreement).toEqual({ both: 13, only_notes: 1, only_decisions_text_older: 25, only_decisions_no_note: 0, disagreements: 1 });
    // The one disagreement: the decision's operative part misquotes the words the note quotes as the law has them.
    expect(rulings.lists.disagreements.map((d) => [d.decision, d.document_id, d.ref])).toEqual([['8/2025', 'akn-1968-nk', '281']]);
  });
});
