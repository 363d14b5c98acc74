import { describe, expect, it } from 'vitest';
import { absentActLine } from '../../src/render/fields.js';

describe('absentActLine', () => {
  it('says the service holds only amendments of the act the first result names', () => {
    expect(absentActLine({ document_id: 'act-1', absent_act: 'Закон за движението по пътищата' })).toBe(
      'The service holds only amendments of „Закон за движението по пътищата“, not the act itself: the results are acts amending it, and the act\'s text is not among them.',
    );
  });

  it('prints nothing for a result without the field, or no result', () => {
    expect(absentActLine({ document_id: 'act-1' })).toBeUndefined();
    expect(absentActLine(undefined)).toBeUndefined();
  });

  it('keeps a hostile title to one line without control sequences', () => {
    const line = absentActLine({ absent_act: 'Закон\u001b[2J за\nнещо\u0007' })!;
    expect(line).not.toMatch(/[\u0000-\u001f\u007f]/u);
    expect(line).toContain('„Закон');
  });
});
