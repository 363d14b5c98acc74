/**
 * The parts of a decision (`src/shared/decision-parts.ts`) on synthetic paragraphs in the courts' printed forms
 * (ТЕСТОВИ ДАННИ), and over every decision of `../shared/corpus` (read at run time, never copied).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decisionParts, type DecisionParagraph } from '../../src/shared/decision-parts.js';
import { SHARED_CORPUS, haveSharedCorpus } from '../sandbox/real-index.js';

/** The parts alone, `part` or `part/opens`, to compare in one line. */
const shapes = (parts: DecisionParagraph[]): string[] => parts.map((p) => (p.opens === undefined ? p.part : `${p.part}/${p.opens}`));

describe('decisionParts: synthetic decisions (ТЕСТОВИ ДАННИ)', () => {
  it('a КС decision: title, panel, reasons, the operative part and its rulings, the signature, a dissent and a становище', () => {
    const texts = [
      'РЕШЕНИЕ № 3 от 1 март 2024 г. (ТЕСТОВИ ДАННИ)',
      'по конституционно дело № 9 от 2024 г.',
      'Конституционният съд в състав: председател: Анна Примерова, членове: Борис Тестов, Вера Измислена, при участието на секретар-протоколиста Галя Тестова разгледа тестовото дело, докладвано от съдията Борис Тестов.',
      'Производството е по тестов текст. Становище по делото е представил тестов орган.',
      'СТАНОВИЩЕ по искането са дали и тестовите организации (в мотивите: още не мнение на съдия).',
      'Р Е Ш И :',
      '1. Обявява за тестова разпоредбата на чл. 1 от Закона за примерните уведомления (ТЕСТОВИ ДАННИ).',
      'Решението е окончателно.',
      'Председател: Анна Примерова',
      'ОСОБЕНО МНЕНИЕ на съдията Вера Измислена по тестовото дело',
      'Не споделям тестовия извод. Конституционен съдия: Вера Измислена',
      'СТАНОВИЩЕ на съдията Борис Тестов',
      'Подкрепям тестовия диспозитив.',
    ];
    expect(shapes(decisionParts(texts))).toEqual([
      'header',
      'header',
      'header',
      'reasons',
      'reasons',
      'operative/operative',
      'operative',
      'operative',
      'signatures',
      'dissent/dissent',
      'dissent',
      'dissent/separate',
      'dissent',
    ]);
  });

  it('a ВКС decision: spaced title and marker, rulings in capitals running into the empty signature lines', () => {
    const texts = [
      'Р Е Ш Е Н И Е № 7 гр. София, 1 март 2024 година В И М Е Т О Н А Н А Р О Д А (ТЕСТОВИ ДАННИ)',
      'Върховният касационен съд на Република България, тестово отделение, в съдебно заседание в състав: ПРЕДСЕДАТЕЛ: АННА ПРИМЕРОВА ЧЛЕНОВЕ: БОРИС ТЕСТОВ при секретаря Галя Тестова изслуша докладваното от съдия Тестов.',
      'Касационното производство е образувано по тестова жалба.',
      'Р Е Ш И:',
      'ОСТАВЯ В СИЛА тестовото решение. Решението не подлежи на обжалване. ПРЕДСЕДАТЕЛ: ЧЛЕНОВЕ:',
    ];
    expect(shapes(decisionParts(texts))).toEqual(['header', 'header', 'reasons', 'operative/operative', 'operative']);
  });

  it('a ВАС act: „Особено мнение: Вярно с оригинала, ПРЕДСЕДАТЕЛ: …“ is the signature form, not an opinion', () => {
    const texts = [
      'ОПРЕДЕЛЕНИЕ № 5 София, 1.03.2024 (ТЕСТОВИ ДАННИ)',
      'Тестово производство по частна жалба.',
      'О П Р Е Д Е Л И:',
      'ОСТАВЯ БЕЗ РАЗГЛЕЖДАНЕ тестовата частна жалба.',
      'Особено мнение: Вярно с оригинала, ПРЕДСЕДАТЕЛ: /п/ Анна Примерова секретар: ЧЛЕНОВЕ: /п/ Борис Тестов',
    ];
    expect(shapes(decisionParts(texts))).toEqual(['header', 'reasons', 'operative/operative', 'operative', 'signatures']);
  });

  it('the marker inside a paragraph of reasons opens the operative part there', () => {
    const texts = ['РЕШЕНИЕ № 9 (ТЕСТОВИ ДАННИ)', 'Тестови мотиви. По изложените съображения съдът Р Е Ш И : Допуска тестова поправка.', 'Председател: Анна Примерова'];
    expect(shapes(decisionParts(texts))).toEqual(['header', 'operative/operative', 'signatures']);
  });

  it('„ОСОБЕНИ МНЕНИЯ“ on a line of its own opens once; a later „СТАНОВИЩЕ на …“ opens again', () => {
    const texts = [
      'РЕШЕНИЕ № 2 (ТЕСТОВИ ДАННИ)',
      'Тестови мотиви.',
      'РЕШИ:',
      'Отхвърля тестовото искане.',
      'Председател: Анна Примерова',
      'ОСОБЕНИ МНЕНИЯ',
      'Особено мнение на съдията Борис Тестов',
      'Подписах решението с особено мнение по тестови съображения.',
      'СТАНОВИЩЕ на съдията Вера Измислена',
    ];
    expect(shapes(decisionParts(texts))).toEqual([
      'header',
      'reasons',
      'operative/operative',
      'operative',
      'signatures',
      'dissent/dissents',
      'dissent',
      'dissent',
      'dissent/separate',
    ]);
  });

  it('after the signatures, a State Gazette section or a long text that opens no opinion is appended, not the act', () => {
    const residue = 'РАЗДЕЛ ДЪРЖАВНИ ВЕДОМСТВА, УЧРЕЖДЕНИЯ И ОБЩИНИ ТЕСТОВО МИНИСТЕРСТВО ЗАПОВЕД № 1 (ТЕСТОВИ ДАННИ)';
    const long = 'Тестова заповед на тестово министерство, отпечатана след акта в същия брой на вестника (ТЕСТОВИ ДАННИ), без връзка с делото.';
    expect(shapes(decisionParts(['РЕШЕНИЕ № 1 (ТЕСТОВИ ДАННИ)', 'Мотиви.', 'РЕШИ:', 'Отменя тестовата наредба.', 'Председател: Анна Примерова', residue, 'Още текст.']))).toEqual([
      'header',
      'reasons',
      'operative/operative',
      'operative',
      'signatures',
      'appended/appended',
      'appended',
    ]);
    expect(shapes(decisionParts(['РЕШЕНИЕ № 1 (ТЕСТОВИ ДАННИ)', 'Мотиви.', 'РЕШИ:', 'Отменя тестовата наредба.', 'Председател: Анна Примерова', 'Борис Тестов', long]))).toEqual([
      'header',
      'reasons',
      'operative/operative',
      'operative',
      'signatures',
      'signatures',
      'appended/appended',
    ]);
    // A Gazette section heading ends an act cut off before its operative part too.
    expect(shapes(decisionParts(['РЕШЕНИЕ № 1 (ТЕСТОВИ ДАННИ)', 'Мотиви.', residue]))).toEqual(['header', 'reasons', 'appended/appended']);
  });

  it("a judge's opinion filed alone: no operative part, its signature at the end", () => {
    const texts = ['ОСОБЕНО МНЕНИЕ на съдиите Анна Примерова и Борис Тестов (ТЕСТОВИ ДАННИ)', 'Подписваме с особено мнение тестовото определение.', 'Съдии: Анна Примерова Борис Тестов'];
    expect(shapes(decisionParts(texts))).toEqual(['header', 'reasons', 'signatures']);
  });

  it('no paragraphs, no parts; a text of no decision is header and reasons only', () => {
    expect(decisionParts([])).toEqual([]);
    expect(shapes(decisionParts(['Чл. 1. Тестов текст (ТЕСТОВИ ДАННИ).', 'Чл. 2. Още.']))).toEqual(['reasons', 'reasons']);
  });
});

/** The decisions of the shared corpus, read at run time. */
function realDecisions(): { document_id: string; type: string; elements: { text: string }[] }[] {
  return ['gazette-decisions.jsonl.gz', 'bg-decisions.jsonl.gz'].flatMap((file) =>
    gunzipSync(readFileSync(path.join(SHARED_CORPUS, file)))
      .toString('utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { document_id: string; type: string; elements: { text: string }[] }),
  );
}

describe.skipIf(!haveSharedCorpus || !existsSync(path.join(SHARED_CORPUS, 'gazette-decisions.jsonl.gz')))('decisionParts over the 475 decisions of ../shared/corpus', () => {
  const decisions = realDecisions();
  const parts = new Map(decisions.map((d) => [d.document_id, decisionParts(d.elements.map((e) => e.text))]));

  it('every Решение and Определение has a header of at most five paragraphs and one operative part, but the act cut off', () => {
    const odd = decisions
      .filter((d) => d.type === 'Решение' || d.type === 'Определение')
      .filter((d) => {
        const p = parts.get(d.document_id)!;
        const headers = p.filter((x) => x.part === 'header').length;
        const operative = p.filter((x) => x.opens === 'operative').length;
        return headers < 1 || headers > 5 || operative !== 1;
      })
      .map((d) => d.document_id);
    // vas-2018-6677-864-2018 is cut off before its operative part; the Gazette's next items follow its reasons.
    expect(odd).toEqual(['vas-2018-6677-864-2018']);
  });

  it('the parts follow the order of a decision: header, reasons, operative part, signatures, opinions', () => {
    const rank = { header: 0, reasons: 1, operative: 2, signatures: 3, dissent: 4, appended: 5 } as const;
    const disordered = [...parts].filter(([, p]) => p.some((x, i) => i > 0 && rank[x.part] < rank[p[i - 1]!.part])).map(([id]) => id);
    expect(disordered).toEqual([]);
  });

  it('КС Решение № 12/2016: the operative part at ¶ 108, the ruling ¶ 109, the dissent of Филип Димитров from ¶ 110', () => {
    const p = parts.get('ks-2016-12-13-2015')!;
    expect(shapes(p.slice(0, 3))).toEqual(['header', 'header', 'reasons']);
    expect(shapes(p.slice(106, 111))).toEqual(['reasons', 'operative/operative', 'operative', 'dissent/dissent', 'dissent']);
    expect(p.at(-1)!.part).toBe('dissent');
  });

  it('the opinions printed with the КС decisions are found, and the Gazette residue of three ВАС acts is set apart', () => {
    const opened = [...parts.values()].flat().filter((x) => x.opens !== undefined && x.opens !== 'operative');
    expect(opened.filter((x) => x.opens === 'dissent' || x.opens === 'dissents').length).toBeGreaterThanOrEqual(80);
    expect(opened.filter((x) => x.opens === 'separate').length).toBeGreaterThanOrEqual(20);
    const appended = [...parts].filter(([, p]) => p.some((x) => x.part === 'appended')).map(([id]) => id).sort();
    expect(appended).toEqual(['vas-2011-12279-14072-2010', 'vas-2018-6677-864-2018', 'vas-2019-11921-14100-2018', 'vas-2021-4931-1803-2021']);
  });
});
