/** The document renderer (`src/render/document.ts`): statutes and decisions for terminals, TSV for pipes. */
import { describe, expect, it } from 'vitest';
import type { DocumentResponse } from '../../src/contract/types.js';
import { hasControlSequences } from '../../src/shared/sanitize.js';
import { renderDocumentText, renderDocumentTsv, type DocumentViewData } from '../../src/render/document.js';
import { testDecision, testPartsDecision, testStatute } from '../helpers/documents.js';

const plain = { width: 80, color: false };
/** Display width in code points. */
const widthOf = (line: string): number => [...line].length;

describe('renderDocumentText: a statute', () => {
  const text = renderDocumentText({ document: testStatute() }, plain);
  const lines = text.split('\n');

  it('starts with the title and the fields, then the number of articles', () => {
    expect(lines.slice(0, 6)).toEqual([
      'Закон за примерните уведомления (ТЕСТОВИ ДАННИ)',
      'Type    Закон',
      'Date    2020-05-01 (in force 2020-06-01)',
      'Author  ТЕСТОВИ ДАННИ: измислен автор',
      'URL     https://example.invalid/test-act-1',
      '─'.repeat(80),
    ]);
    expect(lines[6]).toBe('8 articles');
  });

  it('prints each article with its label running into the text, and each алинея and точка on a line of its own', () => {
    expect(renderDocumentText({ document: testStatute() }, { width: 100, color: false })).toContain(
      [
        'Чл. 2. (1) Уведомлението по чл. 5, ал. 2 се подава писмено.',
        '(2) Сроковете по чл. 3 – 5 и по чл. 12 от Закона за измислените срокове не се прилагат за:',
        '1. лицата по чл. 44а;',
        '2. тестовите случаи.',
      ].join('\n'),
    );
    expect(text).toContain('\n\nЧл. 4а. Уведомлението се вписва в тестов регистър.\n');
  });

  it('wraps to the width, a link whole on its line', () => {
    const narrow = renderDocumentText({ document: testStatute() }, { width: 40, color: false });
    const url = testStatute().url!;
    expect(Math.max(...narrow.split('\n').filter((line) => !line.includes(url)).map(widthOf))).toBeLessThanOrEqual(40);
    expect(narrow.split('\n').some((line) => /^URL +/.test(line) && line.endsWith(` ${url}`))).toBe(true);
    expect(narrow).toContain('Чл. 2. (1) Уведомлението по чл. 5, ал. 2\nсе подава писмено.');
  });

  it('in colour the title and the labels are bold', () => {
    const coloured = renderDocumentText({ document: testStatute() }, { width: 80, color: true });
    expect(coloured).toContain('\u001b[1mЗакон за примерните уведомления (ТЕСТОВИ ДАННИ)\u001b[22m');
    expect(coloured).toContain('\u001b[1mЧл. 1.\u001b[22m Този закон');
  });
});

describe('renderDocumentText: a court decision', () => {
  const text = renderDocumentText({ document: testDecision() }, plain);

  it('shows the court fields, the panel with the chair first, and the reporting judge', () => {
    expect(text).toContain(
      [
        'Решение № 7 по тестово дело (ТЕСТОВИ ДАННИ)',
        'Type             Решение',
        'Date             2024-03-01',
        'Court            Тестов касационен съд',
        'Case             наказателно дело № 12/2024',
        'Decision         Решение № 7',
        'Department       Първо тестово отделение',
        'Panel            Анна Примерова (chair), Борис Тестов, Вера Измислена',
        'Reporting judge  Борис Тестов',
        'Author           ТЕСТОВИ ДАННИ: измислен съд',
      ].join('\n'),
    );
    expect(text).toContain('\n3 paragraphs\n');
  });

  it('numbers the paragraphs in a margin, continuation lines under the text', () => {
    expect(text).toContain('\n¶ 1  Р Е Ш Е Н И Е № 7 (тестов текст)\n');
    const narrow = renderDocumentText({ document: testDecision() }, { width: 45, color: false });
    expect(narrow).toContain('¶ 2  Производството е по чл. 346 от НПК\n     (тестов текст). Жалбата е допустима.');
  });

  it('court_id 0 (the Конституционен съд) alone makes a decision', () => {
    const ks: DocumentResponse = { title: 'Определение (ТЕСТОВИ ДАННИ)', court_id: 0, elements: [{ ref: '1', label: '¶ 1', text: 'Текст.' }] };
    expect(renderDocumentText({ document: ks }, plain)).toContain('¶ 1  Текст.');
  });
});

describe('renderDocumentText: the parts of a decision', () => {
  const text = renderDocumentText({ document: testPartsDecision() }, plain);
  const lines = text.split('\n');

  it('a heading line opens the operative part, the dissent and the становище, and the rulings stay under the first', () => {
    const operative = lines.indexOf(`── Operative part (диспозитив) ${'─'.repeat(80 - 31)}`);
    const dissent = lines.findIndex((line) => line.startsWith('── Dissenting opinion (особено мнение) ──'));
    const separate = lines.findIndex((line) => line.startsWith('── Separate opinion (становище) ──'));
    expect(operative).toBeGreaterThan(0);
    expect(lines[operative + 2]).toBe('¶ 4   Р Е Ш И :');
    expect(lines.findIndex((line) => line.startsWith('¶ 3 '))).toBeLessThan(operative);
    expect(lines.findIndex((line) => line.startsWith('¶ 5   1. Обявява'))).toBeGreaterThan(operative);
    expect(lines.findIndex((line) => line.startsWith('¶ 7   Председател:'))).toBeLessThan(dissent);
    expect(lines[dissent + 2]).toMatch(/^¶ 8 {3}ОСОБЕНО МНЕНИЕ/);
    expect(lines[separate + 2]).toMatch(/^¶ 10  СТАНОВИЩЕ/);
    expect(lines.filter((line) => line.startsWith('── '))).toHaveLength(3);
  });

  it('stays within 80 columns, headings included, and within 40', () => {
    expect(Math.max(...lines.map(widthOf))).toBeLessThanOrEqual(80);
    const narrow = renderDocumentText({ document: testPartsDecision() }, { width: 40, color: false }).split('\n');
    expect(Math.max(...narrow.map(widthOf))).toBeLessThanOrEqual(40);
    expect(narrow).toContain(`── Operative part (диспозитив) ${'─'.repeat(40 - 31)}`);
  });

  it('a statute gets no such heading', () => {
    expect(renderDocumentText({ document: testStatute() }, plain)).not.toMatch(/^── /m);
  });

  it('one paragraph says which part it is in', () => {
    const document = testPartsDecision();
    const ruling = renderDocumentText({ document, selected: { element: document.elements![4]! } }, plain).split('\n');
    expect(ruling[2]).toBe('Part of the decision: operative part (диспозитив)');
    const opinion = renderDocumentText({ document, selected: { element: document.elements![10]! } }, plain);
    expect(opinion).toContain('Part of the decision: separate opinion (становище)');
    expect(renderDocumentText({ document, selected: { element: document.elements![2]! } }, plain)).toContain('Part of the decision: reasons (мотиви)');
  });

  it('header: a larger panel with its size; an unnumbered act; a five-member panel of the ВАС as its formation', () => {
    expect(text).toContain('Panel            Анна Примерова (chair), Борис Тестов, Вера Измислена, Галина\n                 Примерна — 4 judges\n');
    const unnumbered = renderDocumentText({ document: testPartsDecision({ type: 'Определение', decision_number: null }) }, plain);
    expect(unnumbered).toContain('\nDecision         Определение (no number)\n');
    const vas = renderDocumentText({ document: testPartsDecision({ court_id: 2, court: 'Върховен административен съд', department: 'Петчленен състав – II колегия' }) }, plain);
    expect(vas).toContain('\nFormation        Петчленен състав – II колегия\n');
    expect(vas).not.toContain('Department');
    expect(renderDocumentText({ document: testDecision() }, plain)).toContain('\nDepartment       Първо тестово отделение\n');
  });

  it('header: a decision that records no panel and no rapporteur says so rather than leaving the lines out', () => {
    const none = renderDocumentText({ document: testPartsDecision({ judges: [], reporting_judge: null }) }, plain);
    expect(none).toContain('\nPanel            (not recorded: read the text)\nReporting judge  (not recorded: read the text)\n');
    // A document without the fields at all (another server) shows neither line.
    const bare = testPartsDecision();
    delete bare.judges;
    delete bare.reporting_judge;
    expect(renderDocumentText({ document: bare }, plain)).not.toMatch(/Panel|Reporting judge/);
  });
});

describe('renderDocumentText: one element', () => {
  const statute = testStatute();
  const chosen = statute.elements![1]!;

  it('a short header, the article, and the articles of the same act it cites', () => {
    const data: DocumentViewData = {
      document: statute,
      selected: {
        element: chosen,
        references: {
          articles: [
            { ref: '5', exists: true, details: ['ал. 2'] },
            { ref: '3', exists: true, details: [] },
            { ref: '44а', exists: false, details: [] },
          ],
          external: 1,
          openCommand: 'pravo doc 1 --article',
        },
      },
    };
    const text = renderDocumentText(data, plain);
    expect(text.split('\n').slice(0, 3)).toEqual(['Закон за примерните уведомления (ТЕСТОВИ ДАННИ)', 'Закон · 2020-05-01', '']);
    expect(text).toContain('Чл. 2. (1) Уведомлението по чл. 5, ал. 2 се подава писмено.');
    expect(text).not.toContain('Чл. 1.');
    expect(text).toContain(
      [
        'Refers to these articles of this act:',
        '  чл. 5     ал. 2',
        '  чл. 3',
        '  чл. 44а   (not in this document)',
        'Open one with: pravo doc 1 --article 5',
        '1 citation of other acts (… от Закона за …, НПК) is not listed.',
      ].join('\n'),
    );
  });

  it('under an article, the §§ of the corpus that changed it, newest first, and the command that opens the newest', () => {
    const element = {
      ...chosen,
      amended_by: [
        { document_id: 'act-2', collection: 'c', excerpt_id: 'act-2:§3', label: '§ 3.', title: 'Закон за изменение на Закона за примерните уведомления (ТЕСТОВИ ДАННИ)', date: '2021-03-01', action: 'amends' },
        { document_id: 'act-3', collection: 'c', excerpt_id: 'act-3:§1', label: '§ 1.', title: 'Закон за допълнение на Закона за примерните уведомления (ТЕСТОВИ ДАННИ)', date: '2020-09-01', action: 'inserts' },
      ],
    };
    const text = renderDocumentText({ document: statute, selected: { element, amendedByOpen: "pravo doc act-2 --collection c --article '§3'" } }, { width: 100, color: false });
    expect(text).toContain(
      [
        'Changed by these 2 §§ of the corpus, newest first:',
        '  2021-03-01  amended by § 3. Закон за изменение на Закона за примерните уведомления (ТЕСТОВИ ДАННИ)',
        '              (act-2)',
        '  2020-09-01  inserted by § 1. Закон за допълнение на Закона за примерните уведомления (ТЕСТОВИ',
        '              ДАННИ) (act-3)',
        "Open the newest with: pravo doc act-2 --collection c --article '§3'",
      ].join('\n'),
    );
  });

  it('above an article, the rulings that struck it down in part, with the command that opens the decision', () => {
    const element = {
      ...chosen,
      rulings: [
        {
          ruling: 'declared_unconstitutional',
          scope: 'part',
          part: { text: 'ал. 1, т. 2', paragraph: '1', point: '2' },
          decision_number: '7',
          decision_year: '2020',
          document_id: 'ks-test-7',
          collection: 'c',
          title: 'Решение № 7 (ТЕСТОВИ ДАННИ)',
          date: '2020-05-05',
          excerpt_id: 'ks-test-7:12',
          sources: ['note', 'decision'],
          note: null,
          later_amended: false,
        },
        { ruling: 'declared_unconstitutional', scope: 'whole', part: null, decision_number: '19', decision_year: '1995', document_id: null, collection: null, sources: ['note'], later_amended: false },
      ],
    };
    const text = renderDocumentText({ document: statute, selected: { element, rulingOpens: ['pravo doc ks-test-7 --collection c --paragraph 12', null] } }, { width: 100, color: false });
    const lines = text.split('\n');
    const first = lines.findIndex((line) => line.startsWith('чл. 2, ал. 1, т. 2 declared unconstitutional'));
    expect(first).toBeGreaterThan(0);
    expect(lines.slice(first, first + 6).join('\n')).toBe(
      [
        'чл. 2, ал. 1, т. 2 declared unconstitutional by Решение № 7 от 2020 г. на Конституционния съд',
        "(2020-05-05). Read from the act's note and the decision's operative part.",
        'Open the decision with: pravo doc ks-test-7 --collection c --paragraph 12',
        'чл. 2 declared unconstitutional by Решение № 19 от 1995 г. на Конституционния съд. Read from the',
        "act's note.",
        'The decision is not in the corpus.',
      ].join('\n'),
    );
    // The rulings stand above the article's text.
    expect(lines.findIndex((line) => line.startsWith('Чл. 2.'))).toBeGreaterThan(first + 5);
  });

  it('under an article, the decisions of the corpus that cite it, newest first, at most ten, and the command that opens the newest', () => {
    const decision = (i: number) => ({
      document_id: `ks-test-${i}`,
      collection: 'c',
      title: `Решение № ${i} по к. д. № ${i}/2020 г., КС (ТЕСТОВИ ДАННИ)`,
      court: 'Конституционен съд',
      type: 'Решение',
      decision_number: String(i),
      date: `2020-01-${String(30 - i).padStart(2, '0')}`,
      case_number: `${i}/2020`,
      excerpt_id: `ks-test-${i}:4`,
      label: '¶ 4',
      count: i === 1 ? 3 : 1,
    });
    const element = { ...chosen, cited_by: Array.from({ length: 12 }, (_, i) => decision(i + 1)) };
    const text = renderDocumentText({ document: statute, selected: { element, citedByOpen: 'pravo doc ks-test-1 --collection c --paragraph 4' } }, { width: 100, color: false });
    expect(text).toContain(
      [
        'Cited by 12 decisions of the corpus, newest first:',
        '  2020-01-29  Решение № 1 по к. д. № 1/2020 г., КС (ТЕСТОВИ ДАННИ) (ks-test-1), ¶ 4, 3 times',
        '  2020-01-28  Решение № 2 по к. д. № 2/2020 г., КС (ТЕСТОВИ ДАННИ) (ks-test-2), ¶ 4',
      ].join('\n'),
    );
    expect(text).not.toContain('ks-test-11)');
    expect(text).toContain('  … and 2 more (--json lists them all).\nOpen the newest with: pravo doc ks-test-1 --collection c --paragraph 4');
  });

  it('under a § of an amending act, the acts and articles it changes, saying which the corpus lacks', () => {
    const element = {
      ref: '§1',
      label: '§ 1.',
      text: '§ 1. В чл. 2 се правят изменения (ТЕСТОВИ ДАННИ).',
      amends: [
        { act: 'Закона за примерните уведомления', document_id: 'test-act-1', article: '2', action: 'amends' },
        { act: 'Закона за липсващите актове', document_id: null, article: '7а', action: 'inserts' },
      ],
    };
    const text = renderDocumentText({ document: statute, selected: { element } }, plain);
    expect(text).toContain(
      ['Changes:', '  чл. 2 amended, Закона за примерните уведомления (test-act-1)', '  чл. 7а inserted, Закона за липсващите актове (act not in the corpus)'].join('\n'),
    );
  });

  it('says the date the text is current as of, or that it is the text as published', () => {
    const consolidated = renderDocumentText({ document: { ...statute, as_of: '2026-02-10', consolidated: true } }, plain);
    expect(consolidated).toContain('Text    текст към 10.02.2026');
    const published = renderDocumentText({ document: { ...statute, as_of: '2020-05-01', consolidated: false }, selected: { element: chosen } }, plain);
    expect(published.split('\n')[1]).toBe('Закон · 2020-05-01 · текст както е обнародван, 01.05.2020');
  });

  it('says what the page at the URL shows when it is not this text: the act\'s current text, and this text\'s date', () => {
    const page = { ...statute, url: 'https://example.invalid/ldoc/1', as_of: '2006-08-04', consolidated: false, url_as_of: '2026-07-31' };
    const lines = renderDocumentText({ document: page }, { width: 200, color: false }).split('\n');
    expect(lines.slice(lines.indexOf('URL     https://example.invalid/ldoc/1') + 1, lines.indexOf('URL     https://example.invalid/ldoc/1') + 2)).toEqual([
      "Page    the page shows the act's current text, amended up to 31.07.2026; the text here is as first published, 04.08.2006",
    ]);
    const older = renderDocumentText({ document: { ...page, as_of: '2026-06-16', consolidated: true } }, { width: 200, color: false });
    expect(older).toContain("Page    the page shows the act's current text, amended up to 31.07.2026; the text here is consolidated as of 16.06.2026");
    // The page shows this very text: nothing to say.
    expect(renderDocumentText({ document: { ...page, url_as_of: '2006-08-04' } }, plain)).not.toContain('Page');
    expect(renderDocumentText({ document: { ...page, url_as_of: undefined } }, plain)).not.toContain('Page');
  });

  it('a range too long to list stays one line', () => {
    const text = renderDocumentText(
      {
        document: statute,
        selected: { element: chosen, references: { articles: [{ ref: '1', exists: true, details: [], through: '300', count: 300 }], external: 0, openCommand: 'pravo doc 1 --article' } },
      },
      plain,
    );
    expect(text).toContain('  чл. 1 – 300   (300 articles of this document)');
  });

  it('a decision\'s paragraph under its summary line and the part it is in', () => {
    const decision = testDecision();
    const text = renderDocumentText({ document: decision, selected: { element: decision.elements![1]! } }, plain);
    expect(text).toBe(
      [
        'Решение № 7 по тестово дело (ТЕСТОВИ ДАННИ)',
        'Решение № 7 · 2024-03-01 · Тестов касационен съд · наказателно дело № 12/2024',
        'Part of the decision: reasons (мотиви)',
        '',
        '¶ 2  Производството е по чл. 346 от НПК (тестов текст). Жалбата е допустима.',
        '',
      ].join('\n'),
    );
  });
});

describe('hostile text from a server', () => {
  const hostile = '\u001b]8;;https://evil.example\u0007link\u001b]8;;\u0007 \u001b[2J\u202eобърнат\r\tтаб\nред';
  const document: DocumentResponse = {
    title: `Заглавие ${hostile} (ТЕСТОВИ ДАННИ)`,
    type: hostile,
    court: hostile,
    judges: [hostile, 'Б'],
    url: hostile,
    elements: [
      { ref: `1${hostile}`, label: `¶ ${hostile}`, text: hostile },
      { ref: '2', label: hostile, text: `${hostile}\n${hostile}` },
    ],
  };

  it('reaches the terminal without control sequences', () => {
    for (const data of [{ document }, { document, selected: { element: document.elements![1]! } }] as DocumentViewData[]) {
      const text = renderDocumentText(data, plain);
      expect(hasControlSequences(text), JSON.stringify(text)).toBe(false);
      expect(text).toContain('обърнат');
    }
  });

  it('TSV: three fields per line, no tab, CR or control sequence inside a field', () => {
    const tsv = renderDocumentTsv({ document });
    const lines = tsv.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      expect(line.split('\t')).toHaveLength(3);
      expect(hasControlSequences(line)).toBe(false);
      expect(line).not.toContain('\r');
    }
  });
});

describe('renderDocumentTsv', () => {
  it('one line per element: ref, label, text on one line', () => {
    const lines = renderDocumentTsv({ document: testStatute() }).trimEnd().split('\n');
    expect(lines).toHaveLength(8);
    expect(lines[1]).toBe(
      '2\tЧл. 2.\tЧл. 2. (1) Уведомлението по чл. 5, ал. 2 се подава писмено. (2) Сроковете по чл. 3 – 5 и по чл. 12 от Закона за измислените срокове не се прилагат за: 1. лицата по чл. 44а; 2. тестовите случаи.',
    );
  });

  it('with one element selected, only its line; no elements, no output', () => {
    const statute = testStatute();
    expect(renderDocumentTsv({ document: statute, selected: { element: statute.elements![4]! } })).toBe('4а\tЧл. 4а.\tЧл. 4а. Уведомлението се вписва в тестов регистър.\n');
    expect(renderDocumentTsv({ document: { title: 'x' } })).toBe('');
  });
});
