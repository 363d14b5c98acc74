/**
 * Renderers (`src/render/search.ts`, `text.ts`, `progress.ts`) and the one-line and TSV sanitizers they use: what a person sees on a terminal and what
 * a script reads from a pipe. All responses here are synthetic; every title says it is test data.
 */
import { describe, expect, it } from 'vitest';
import type { Excerpt, SearchResponse, SearchResult } from '../../src/contract/types.js';
import { renderSearchTable, renderSearchTsv, weakMatchNote } from '../../src/render/search.js';
import { sanitizeLine as oneLine, sanitizeTsvField as tsvField } from '../../src/shared/sanitize.js';
import { trimToWidth, wrapText } from '../../src/render/text.js';
import { indexProgressText, indexReadyText, progressBar, waitingText } from '../../src/render/progress.js';

const ANSI = /\x1b\[[0-9;]*m/g;
const strip = (text: string): string => text.replace(ANSI, '');
const hasAnsi = (text: string): boolean => /\x1b\[/.test(text);
const codePoints = (text: string): number => [...text].length;
const lines = (text: string): string[] => strip(text).replace(/\n$/, '').split('\n');
const widest = (text: string): number => Math.max(...lines(text).map(codePoints));

function excerpt(overrides: Partial<Excerpt> = {}): Excerpt {
  return {
    excerpt_id: 'test-law-1:5',
    label: 'Чл. 5.',
    score: 0.8765,
    text: 'ТЕСТОВИ ДАННИ: измислен текст на член за проверка на изгледа.',
    ...overrides,
  };
}

function result(overrides: Partial<SearchResult> = {}): SearchResult {
  return {
    document_id: 'test-law-1',
    collection: 'c_test0001',
    type: 'Закон',
    title: 'ТЕСТОВИ ДАННИ: Закон за примера',
    date: '2024-02-29',
    author: 'ТЕСТОВИ ДАННИ: Народно събрание',
    url: 'https://example.invalid/test-law-1',
    excerpts: [excerpt()],
    score: 0.91234,
    explanation: 'ТЕСТОВИ ДАННИ: обяснение защо резултатът е подходящ.',
    ...overrides,
  };
}

function response(results: SearchResult[], query = 'неустойка по договор'): SearchResponse {
  return { query, result_count: results.length, results };
}

const LONG_WORDS = 'ТЕСТОВИ ДАННИ: дълъг измислен текст с много думи за проверка на пренасянето и съкращаването ';

/** Results with very long titles, excerpts, labels, court data and explanations. */
function longResponse(): SearchResponse {
  return response([
    result({
      title: LONG_WORDS.repeat(3),
      type: 'Тълкувателно решение на общото събрание',
      excerpts: [
        excerpt({ text: LONG_WORDS.repeat(20) }),
        excerpt({ excerpt_id: 'x:2', label: 'Чл. 6.', text: 'Ж'.repeat(900) }),
        excerpt({ excerpt_id: 'x:3', label: `§ ${'1'.repeat(150)}.`, text: LONG_WORDS.repeat(3) }),
      ],
      explanation: `${LONG_WORDS.repeat(3)} ${'Щ'.repeat(150)}`,
      court: 'ТЕСТОВИ ДАННИ: Измислен съд '.repeat(6),
      decision_number: '123'.repeat(30),
      case_number: '4567/2024',
      reporting_judge: 'ТЕСТОВИ ДАННИ: Съдия Примерен',
    }),
    result({ document_id: 'test-law-2', title: 'ДАННИ'.repeat(100), excerpts: [], explanation: null }),
    result({ document_id: 'test-law-3', title: '𝔸𝔹'.repeat(200), excerpts: [excerpt({ text: '𝔸'.repeat(500) })] }),
  ]);
}

describe('renderSearchTable: content', () => {
  const out = strip(
    renderSearchTable(
      response([
        result(),
        result({
          document_id: 'test-case-2',
          type: 'Решение',
          title: 'ТЕСТОВИ ДАННИ: Решение по измислено дело',
          date: '2023-11-05',
          score: 0.5,
          excerpts: [excerpt({ excerpt_id: 'test-case-2:1', label: '§ 12.', score: 0.25, text: 'ТЕСТОВИ ДАННИ: параграф.' })],
          explanation: 'ТЕСТОВИ ДАННИ: второ обяснение.',
          decision_number: '77',
          case_number: '1234/2023',
          reporting_judge: 'ТЕСТОВИ ДАННИ: Иван Примеров',
        }),
      ]),
      { width: 120, color: false },
    ),
  );

  it('shows a header with the columns', () => {
    for (const column of ['#', 'Title', 'Type', 'Date', 'Score']) expect(out).toContain(column);
  });

  it('starts with a summary naming the count and the query', () => {
    expect(lines(out)[0]).toContain('2 results');
    expect(lines(out)[0]).toContain('неустойка по договор');
  });

  it('shows rank, title, type, date and the score with 2 decimals on the result row', () => {
    const row = lines(out).find((l) => l.includes('ТЕСТОВИ ДАННИ: Закон за примера'));
    expect(row).toBeDefined();
    expect(row).toMatch(/│\s+1 │/);
    expect(row).toContain('Закон');
    expect(row).toContain('2024-02-29');
    expect(row).toContain('0.91');
    expect(row).not.toContain('0.912');
    const second = lines(out).find((l) => l.includes('ТЕСТОВИ ДАННИ: Решение по измислено дело'));
    expect(second).toMatch(/│\s+2 │/);
    expect(second).toContain('0.50');
  });

  it("shows each excerpt's label, score (2 decimals) and text", () => {
    const first = lines(out).find((l) => l.includes('Чл. 5.'));
    expect(first).toContain('(0.88)');
    expect(first).toContain('ТЕСТОВИ ДАННИ: измислен текст на член');
    const second = lines(out).find((l) => l.includes('§ 12.'));
    expect(second).toContain('(0.25)');
    expect(second).toContain('ТЕСТОВИ ДАННИ: параграф.');
  });

  it('shows the explanation', () => {
    expect(out).toContain('ТЕСТОВИ ДАННИ: обяснение защо резултатът е подходящ.');
    expect(out).toContain('ТЕСТОВИ ДАННИ: второ обяснение.');
  });

  it('shows decision number, case number and reporting judge of a court decision', () => {
    expect(out).toContain('77');
    expect(out).toContain('1234/2023');
    expect(out).toContain('ТЕСТОВИ ДАННИ: Иван Примеров');
  });

  it('says under a statute the date its text is current as of, or that it is the text as published', () => {
    const table = strip(
      renderSearchTable(
        response([
          result({ as_of: '2026-02-10', consolidated: true }),
          result({ document_id: 'test-act-2', as_of: '2015-12-29', consolidated: false }),
        ]),
        { width: 120, color: false },
      ),
    );
    expect(table).toContain('текст към 10.02.2026');
    expect(table).toContain('текст както е обнародван, 29.12.2015');
    expect(out).not.toMatch(/текст към|обнародван/);
  });

  it('shows no court line for a result without court data', () => {
    const single = strip(renderSearchTable(response([result()]), { width: 120, color: false }));
    expect(single).not.toContain('решение №');
    expect(single).not.toContain('докладчик');
  });

  it('does not repeat the label when the excerpt text begins with it', () => {
    const text = strip(
      renderSearchTable(
        response([result({ excerpts: [excerpt({ label: 'Чл. 108.', text: 'Чл. 108. (1) ТЕСТОВИ ДАННИ: текст на члена.' })] })]),
        { width: 120, color: false },
      ),
    );
    const line = lines(text).find((l) => l.includes('ТЕСТОВИ ДАННИ: текст на члена.'));
    expect(line).toBeDefined();
    expect(line!.split('Чл. 108.')).toHaveLength(2);
    expect(line).toContain('(1) ТЕСТОВИ ДАННИ');
  });

  it('shows at most three excerpts and says how many more there are', () => {
    const excerpts = [1, 2, 3, 4, 5].map((n) => excerpt({ excerpt_id: `e:${n}`, label: `Чл. ${n}0.`, text: `ТЕСТОВИ ДАННИ ${n}` }));
    const text = strip(renderSearchTable(response([result({ excerpts })]), { width: 100, color: false }));
    expect(text).toContain('Чл. 30.');
    expect(text).not.toContain('Чл. 40.');
    expect(text).toContain('2 more excerpts');
  });

  it('falls back to tolerant field names for score, explanation and excerpt text', () => {
    const alien = {
      ...result({ score: undefined, explanation: undefined, excerpts: [] }),
      relevance_score: 0.333,
      relevance_explanation: 'ТЕСТОВИ ДАННИ: друго име на полето',
      excerpts: [{ excerpt_id: 'a:1', label: 'Чл. 9.', relevance: 0.5, content: 'ТЕСТОВИ ДАННИ: съдържание' }],
    } as unknown as SearchResult;
    const text = strip(renderSearchTable(response([alien]), { width: 120, color: false }));
    expect(text).toContain('0.33');
    expect(text).toContain('ТЕСТОВИ ДАННИ: друго име на полето');
    expect(text).toContain('ТЕСТОВИ ДАННИ: съдържание');
    expect(text).toContain('(0.50)');
  });

  it('with no results prints a one-line "No results" message', () => {
    const text = renderSearchTable(response([], 'несъществуващо'), { width: 80, color: false });
    expect(text).toMatch(/^No results/);
    expect(text).toContain('несъществуващо');
    expect(text.trimEnd().split('\n')).toHaveLength(1);
  });

  // BUG: src/render/search.ts:35 puts the raw query into the message; a query with a newline (valid, and echoed by
  // the server) makes the "one line" message span several lines. It should use oneLine(response.query).
  it('with no results prints one line even when the query contains newlines', () => {
    const text = renderSearchTable(response([], 'първи ред\nвтори ред'), { width: 80, color: false });
    expect(text.trimEnd().split('\n')).toHaveLength(1);
  });
});

describe('weak matches: results scoring under half of the first result', () => {
  const scored = (...scores: (number | undefined)[]): SearchResponse =>
    response(scores.map((score, i) => result({ document_id: `test-law-${i + 1}`, score })));

  it('the table puts one labelled rule above the first weak match, and plain rules elsewhere', () => {
    const table = lines(renderSearchTable(scored(0.8, 0.41, 0.39, 0.1), { width: 80, color: false }));
    const rules = table.filter((line) => /^│ ─/.test(line));
    expect(rules).toHaveLength(3);
    expect(rules[1]).toContain("── weak matches: scores under half of the first result's ─");
    expect(rules.filter((line) => line.includes('weak'))).toHaveLength(1);
    // The labelled rule stands just before the row of result 3, and the table keeps its width.
    const row3 = table.findIndex((line) => /^│\s+3 │/.test(line));
    expect(table[row3 - 1]).toContain('weak matches');
    expect(widest(renderSearchTable(scored(0.8, 0.41, 0.39), { width: 80, color: false }))).toBe(80);
  });

  it('no rule says weak matches when every result scores at least half of the first, or scores are missing', () => {
    expect(strip(renderSearchTable(scored(0.8, 0.4, 0.4), { width: 80, color: false }))).not.toContain('weak');
    expect(strip(renderSearchTable(scored(undefined, 0.01), { width: 80, color: false }))).not.toContain('weak');
  });

  it('piped, the note names the weak matches by rank', () => {
    expect(weakMatchNote(scored(0.8, 0.41, 0.39, 0.1))).toBe("Results 3 to 4 are weak matches: they score under half of the first result's 0.80.");
    expect(weakMatchNote(scored(0.8, 0.3))).toBe("Result 2 is a weak match: it scores under half of the first result's 0.80.");
    expect(weakMatchNote(scored(0.8, 0.3, 0.5, 0.2))).toBe("Results 2 and 4 are weak matches: they score under half of the first result's 0.80.");
    expect(weakMatchNote(scored(0.8, 0.4))).toBeUndefined();
    expect(weakMatchNote(scored())).toBeUndefined();
  });
});

describe('renderSearchTable: court decisions beside statutes', () => {
  /** A decision as the sandbox returns it (synthetic: the names say they are test data). */
  const decision = result({
    document_id: 'test-case-1',
    type: 'Решение',
    title: 'ТЕСТОВИ ДАННИ: Решение № 116 по н. д. № 1164/2023 г.',
    date: '2024-03-01',
    court_id: 1,
    court: 'Върховен касационен съд',
    decision_number: '116',
    case_number: '1164/2023',
    reporting_judge: 'ТЕСТОВИ ДАННИ: Христина Примерова',
    excerpts: [excerpt({ excerpt_id: 'test-case-1:3', label: '¶ 3', text: 'ТЕСТОВИ ДАННИ: параграф от мотивите.' })],
  });
  const data = response([result(), decision]);

  it.each([80, 120])('at %i columns the line under the decision title names court, act, case and rapporteur, within the width', (width) => {
    const out = strip(renderSearchTable(data, { width, color: false }));
    expect(widest(out)).toBeLessThanOrEqual(width);
    const body = lines(out);
    const title = body.findIndex((l) => l.includes('ТЕСТОВИ ДАННИ: Решение № 116'));
    const court = body.findIndex((l) => l.includes('Върховен касационен съд'));
    expect(court).toBeGreaterThan(title);
    // The court line comes before the excerpts, and reads as one citation (wrapped at 80 columns, never cut).
    expect(court).toBeLessThan(body.findIndex((l) => l.includes('¶ 3')));
    const text = body.slice(court, court + 3).map((l) => l.replace(/[│]/g, ' ').trim());
    if (width >= 120) {
      expect(text[0]).toBe('Върховен касационен съд · Решение № 116 · дело № 1164/2023 · докладчик ТЕСТОВИ ДАННИ: Христина Примерова');
    } else {
      // Narrower: broken between the parts, each part whole.
      expect(text[0]).toBe('Върховен касационен съд · Решение № 116 · дело № 1164/2023');
      expect(text[1]).toBe('докладчик ТЕСТОВИ ДАННИ: Христина Примерова');
    }
  });

  it('a statute in the same table has no court line', () => {
    const out = strip(renderSearchTable(data, { width: 120, color: false }));
    const statute = lines(out).findIndex((l) => l.includes('ТЕСТОВИ ДАННИ: Закон за примера'));
    expect(lines(out)[statute + 1]).toContain('Чл. 5.');
    expect(out.match(/дело №/g)).toHaveLength(1);
  });

  it('reads the court data under other names a live service may use, and the code when the name is missing', () => {
    const other = { ...result({ type: 'Определение' }), court: { court_id: 2, name: 'Върховен административен съд' }, decision_no: 5, case: '10/2024' };
    const text = strip(renderSearchTable(response([other as unknown as SearchResult]), { width: 120, color: false }));
    expect(text).toContain('Върховен административен съд · Определение № 5 · дело № 10/2024');
    const codeOnly = strip(renderSearchTable(response([result({ court_id: 0, case_number: '3/2020' })]), { width: 120, color: false }));
    expect(codeOnly).toContain('съд с код 0 · дело № 3/2020');
  });

  it('TSV: court and case_number appended as fields 9 and 10, empty for the statute; fields 1 to 8 as before', () => {
    const rows = renderSearchTsv(data).trimEnd().split('\n').map((r) => r.split('\t'));
    expect(rows[0]!.slice(8)).toEqual(['', '']);
    expect(rows[1]).toEqual([
      '2', 'test-case-1', 'c_test0001', '0.9123', '2024-03-01', 'Решение', 'ТЕСТОВИ ДАННИ: Решение № 116 по н. д. № 1164/2023 г.', '¶ 3',
      'Върховен касационен съд', '1164/2023',
    ]);
  });
});

describe('renderSearchTable: width and colour', () => {
  it.each([60, 80, 120])('no line is wider than %i columns, even with very long content', (width) => {
    for (const color of [false, true]) {
      const out = renderSearchTable(longResponse(), { width, color });
      expect(widest(out)).toBeLessThanOrEqual(width);
    }
  });

  it.each([60, 80, 120])('keeps the long content visible in trimmed or wrapped form at %i columns', (width) => {
    const out = strip(renderSearchTable(longResponse(), { width, color: false }));
    expect(out).toContain('Чл. 5.');
    expect(out).toContain('…');
    expect(out).toContain('ТЕСТОВИ ДАННИ: Измислен съд');
    expect(out).toContain('ЩЩЩ');
  });

  it('fills the given width with the table borders (the table uses the room it is given)', () => {
    const out = renderSearchTable(response([result()]), { width: 100, color: false });
    const border = lines(out).find((l) => l.startsWith('┌'));
    expect(border && codePoints(border)).toBe(100);
  });

  // BUG: src/render/search.ts:67 does not trim the summary line to the width; a long query (up to 2000 characters
  // is valid) gives a summary line far wider than the terminal. It should be trimToWidth(…, width).
  it.each([60, 80, 120])('the summary line fits %i columns even for a long query', (width) => {
    const out = renderSearchTable(response([result()], 'неустойка '.repeat(100)), { width, color: false });
    expect(widest(out)).toBeLessThanOrEqual(width);
  });

  it('color:false gives no ANSI escapes; color:true gives some', () => {
    const data = response([result({ decision_number: '1', reporting_judge: 'ТЕСТОВИ ДАННИ: Съдия' })]);
    expect(hasAnsi(renderSearchTable(data, { width: 80, color: false }))).toBe(false);
    expect(hasAnsi(renderSearchTable(data, { width: 80, color: true }))).toBe(true);
    expect(hasAnsi(renderSearchTable(response([]), { width: 80, color: false }))).toBe(false);
  });

  it('renders the same text with and without colour', () => {
    const data = longResponse();
    expect(strip(renderSearchTable(data, { width: 80, color: true }))).toBe(
      renderSearchTable(data, { width: 80, color: false }),
    );
  });
});

describe('renderSearchTsv', () => {
  it('prints one line per result with exactly 10 tab-separated fields in the documented order', () => {
    const data = response([
      result(),
      result({
        document_id: 'test-law-2',
        collection: 'c/x?y=1&z',
        score: 0.5,
        date: '2020-01-01',
        type: 'Наредба',
        title: 'ТЕСТОВИ ДАННИ: Наредба',
        excerpts: [excerpt({ label: 'Чл. 1.' }), excerpt({ excerpt_id: 'e:2', label: '§ 2.' })],
      }),
    ]);
    const out = renderSearchTsv(data);
    const rows = out.split('\n');
    expect(rows.pop()).toBe('');
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row.split('\t')).toHaveLength(10);
    expect(rows[0]!.split('\t')).toEqual([
      '1',
      'test-law-1',
      'c_test0001',
      '0.9123',
      '2024-02-29',
      'Закон',
      'ТЕСТОВИ ДАННИ: Закон за примера',
      'Чл. 5.',
      '',
      '',
    ]);
    expect(rows[1]!.split('\t')).toEqual([
      '2',
      'test-law-2',
      'c/x?y=1&z',
      '0.5000',
      '2020-01-01',
      'Наредба',
      'ТЕСТОВИ ДАННИ: Наредба',
      'Чл. 1.; § 2.',
      '',
      '',
    ]);
  });

  it('replaces tabs and newlines inside values so each result stays on one line with 10 fields', () => {
    const data = response([
      result({
        document_id: 'id\twith\ttabs',
        collection: 'c\r\nx',
        type: 'Закон\n',
        title: 'ТЕСТОВИ ДАННИ:\tЗакон\nна два реда',
        excerpts: [excerpt({ label: 'Чл.\t5.\n' })],
        court: 'ТЕСТОВИ ДАННИ:\tсъд\nна два реда',
        case_number: '12/\t2024',
      }),
    ]);
    const out = renderSearchTsv(data);
    expect(out.split('\n')).toHaveLength(2);
    const fieldsOut = out.replace(/\n$/, '').split('\t');
    expect(fieldsOut).toHaveLength(10);
    for (const field of fieldsOut) expect(field).not.toMatch(/[\t\r\n]/);
    expect(fieldsOut[6]).toBe('ТЕСТОВИ ДАННИ: Закон на два реда');
    expect(fieldsOut.slice(8)).toEqual(['ТЕСТОВИ ДАННИ: съд на два реда', '12/ 2024']);
  });

  it('leaves empty fields for a missing score and no excerpts', () => {
    const out = renderSearchTsv(response([result({ score: undefined, excerpts: [] })]));
    const fieldsOut = out.replace(/\n$/, '').split('\t');
    expect(fieldsOut).toHaveLength(10);
    expect(fieldsOut[3]).toBe('');
    expect(fieldsOut[7]).toBe('');
  });

  it('has no ANSI escapes and no header', () => {
    const out = renderSearchTsv(longResponse());
    expect(hasAnsi(out)).toBe(false);
    expect(out.startsWith('1\t')).toBe(true);
  });

  it('prints nothing for no results', () => {
    expect(renderSearchTsv(response([]))).toBe('');
  });
});

describe('text helpers', () => {
  it('oneLine collapses white space runs and trims', () => {
    expect(oneLine('  а\n\tб   в \r\n')).toBe('а б в');
  });

  it('tsvField replaces tabs and newlines and prints nothing for null/undefined', () => {
    expect(tsvField('a\tb\r\nc')).toBe('a b c');
    expect(tsvField(3)).toBe('3');
    expect(tsvField(undefined)).toBe('');
    expect(tsvField(null)).toBe('');
  });

  describe('trimToWidth', () => {
    it('keeps text that fits', () => {
      expect(trimToWidth('ТЕСТОВИ ДАННИ', 13)).toBe('ТЕСТОВИ ДАННИ');
    });

    it('cuts longer text to the width, ending with …', () => {
      const out = trimToWidth('Жжжжжжжжжжжжжжжжжжжж', 10);
      expect(codePoints(out)).toBe(10);
      expect(out).toBe('Жжжжжжжжж…');
    });

    it('cuts at a word boundary in the last third', () => {
      expect(trimToWidth('едно две три четири пет', 16)).toBe('едно две три…');
    });

    it('does not cut at a word boundary early in the text', () => {
      const out = trimToWidth('а бвгдежзийклмнопрст', 12);
      expect(out).toBe('а бвгдежзий…');
    });

    it('counts code points and never splits a surrogate pair', () => {
      const out = trimToWidth('𝔸'.repeat(20), 5);
      expect(out).toBe('𝔸𝔸𝔸𝔸…');
      expect(out.isWellFormed()).toBe(true);
    });

    it.each([0, -5])('gives an empty string for width %i', (width) => {
      expect(trimToWidth('текст', width)).toBe('');
    });

    it('never exceeds the width', () => {
      for (let width = 1; width < 40; width++) {
        expect(codePoints(trimToWidth(LONG_WORDS, width))).toBeLessThanOrEqual(width);
      }
    });
  });

  describe('wrapText', () => {
    it('wraps greedily without losing or reordering words', () => {
      const out = wrapText(LONG_WORDS.repeat(3), 30);
      for (const line of out) expect(codePoints(line)).toBeLessThanOrEqual(30);
      expect(out.join(' ')).toBe(oneLine(LONG_WORDS.repeat(3)));
      expect(out.length).toBeGreaterThan(3);
    });

    it('cuts a word longer than the width', () => {
      expect(wrapText(`аа ${'б'.repeat(25)} вв`, 10)).toEqual(['аа', 'бббббббббб', 'бббббббббб', 'ббббб вв']);
    });

    it('treats width below 1 as 1 and empty text as no lines', () => {
      expect(wrapText('аб', 0)).toEqual(['а', 'б']);
      expect(wrapText('  \n ', 10)).toEqual([]);
    });

    it('counts astral characters as one', () => {
      expect(wrapText('𝔸𝔸𝔸 𝔹𝔹', 6)).toEqual(['𝔸𝔸𝔸 𝔹𝔹']);
    });
  });
});

describe('progress texts', () => {
  it('progressBar shows label, bar, percent and counts', () => {
    const out = progressBar('Building search index', 600, 1997, 'documents');
    expect(out).toBe('Building search index [██████░░░░░░░░░░░░░░]  30% 600/1997 documents');
  });

  it('the index build shows its share of the input records, and its end says what each figure counts, so that they add up', () => {
    expect(indexProgressText(930, 3093)).toBe('Building search index [██████░░░░░░░░░░░░░░]  30% of 3,093 input records');
    expect(indexProgressText(930, 3093)).not.toMatch(/930/);
    const ready = indexReadyText({ documents: 2896, elements: 82096, records: 3093, skipped: 9 }, 31_640);
    expect(ready).toBe(
      'Search index ready: 2,896 documents from 3,093 input records (9 skipped as unreadable, 188 merged into another text of the same act), 82,096 elements (articles, §§, paragraphs of decisions), in 31.6 s.',
    );
    expect(indexReadyText({ documents: 4, elements: 8, records: 4, skipped: 0 }, 200)).toBe(
      'Search index ready: 4 documents from 4 input records (0 skipped as unreadable), 8 elements (articles, §§, paragraphs of decisions), in 0.2 s.',
    );
  });

  it('progressBar is empty at 0, full at the end, clamped beyond it, empty for a total of 0', () => {
    expect(progressBar('L', 0, 10, 'u')).toContain(`[${'░'.repeat(20)}]   0%`);
    expect(progressBar('L', 10, 10, 'u')).toContain(`[${'█'.repeat(20)}] 100%`);
    expect(progressBar('L', 15, 10, 'u')).toContain(`[${'█'.repeat(20)}] 100%`);
    expect(progressBar('L', 5, 0, 'u')).toContain(`[${'░'.repeat(20)}]   0%`);
  });

  it('progressBar honours the bar width', () => {
    expect(progressBar('L', 1, 2, 'u', 10)).toContain(`[${'█'.repeat(5)}${'░'.repeat(5)}]`);
  });

  it('waitingText shows whole seconds elapsed', () => {
    expect(waitingText('Searching', 0)).toBe('Searching… 0s');
    expect(waitingText('Searching', 12_999)).toBe('Searching… 12s');
    expect(waitingText('Searching', -50)).toBe('Searching… 0s');
  });
});

