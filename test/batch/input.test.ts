/**
 * The input of `pravo batch` (`src/batch/input.ts`): what is sent for each line, which lines are refused and why (by
 * the line number an editor shows), and the digest that tells a rerun whether its journal belongs to this input.
 */
import { describe, expect, it } from 'vitest';
import { BATCH_FIELDS, MAX_LINE_LENGTH, batchDigest, parseBatchInput } from '../../src/batch/input.js';

/** The input's lines joined with LF and ended with one. */
const file = (...lines: string[]): string => `${lines.join('\n')}\n`;

describe('parseBatchInput: plain lines', () => {
  it('sends each line as a query, trimmed, with its line number', () => {
    const input = parseBatchInput(file('неустойка при забава', '   давност на вземане  ', '\tотмяна на присъда'));
    expect(input.problems).toEqual([]);
    expect(input.items).toEqual([
      { line: 1, request: { query: 'неустойка при забава' } },
      { line: 2, request: { query: 'давност на вземане' } },
      { line: 3, request: { query: 'отмяна на присъда' } },
    ]);
  });

  it('skips blank lines and # comments but keeps counting them in the line numbers', () => {
    const input = parseBatchInput(file('# questions for the client', '', 'неустойка при забава', '   ', '  # indented comment', 'давност на вземане'));
    expect(input.problems).toEqual([]);
    expect(input.items.map((i) => [i.line, i.request.query])).toEqual([
      [3, 'неустойка при забава'],
      [6, 'давност на вземане'],
    ]);
  });

  it('reads a last line without a final newline, and does not count a final newline as another line', () => {
    expect(parseBatchInput('първи въпрос\nвтори въпрос').items.map((i) => i.line)).toEqual([1, 2]);
    expect(parseBatchInput('първи въпрос\n').items).toHaveLength(1);
  });

  it('accepts CRLF line ends and a byte-order mark without their reaching the query', () => {
    const input = parseBatchInput('\ufeffнеустойка при забава\r\n# comment\r\n{"query": "давност на вземане"}\r\n');
    expect(input.problems).toEqual([]);
    expect(input.items).toEqual([
      { line: 1, request: { query: 'неустойка при забава' } },
      { line: 3, request: { query: 'давност на вземане' } },
    ]);
  });

  it('holds no items for an input of only comments and blank lines', () => {
    expect(parseBatchInput(file('# nothing yet', '', '   '))).toEqual({ items: [], problems: [] });
    expect(parseBatchInput('')).toEqual({ items: [], problems: [] });
  });

  it('takes a line that starts with something other than { (a bracket, a quote) as a plain query', () => {
    const input = parseBatchInput(file('["неустойка"]', '"давност"'));
    expect(input.problems).toEqual([]);
    expect(input.items.map((i) => i.request)).toEqual([{ query: '["неустойка"]' }, { query: '"давност"' }]);
  });
});

describe('parseBatchInput: JSON lines', () => {
  it('sends the search fields of a JSON line as given, with the query trimmed', () => {
    const line = JSON.stringify({
      query: '  отмяна на присъда ',
      source_types: ['high_courts_cases'],
      court_ids: [1, 2],
      judge_name: 'Иванов',
      date_from: '2020-01-01',
      date_to: '2020-12-31',
      max_results: 5,
    });
    const input = parseBatchInput(file(line));
    expect(input.problems).toEqual([]);
    expect(input.items).toEqual([
      {
        line: 1,
        request: {
          query: 'отмяна на присъда',
          source_types: ['high_courts_cases'],
          court_ids: [1, 2],
          judge_name: 'Иванов',
          date_from: '2020-01-01',
          date_to: '2020-12-31',
          max_results: 5,
        },
      },
    ]);
  });

  it('mixes plain and JSON lines, a JSON line indented or not', () => {
    const input = parseBatchInput(file('неустойка при забава', '   {"query": "давност на вземане", "max_results": 3}'));
    expect(input.problems).toEqual([]);
    expect(input.items.map((i) => i.request)).toEqual([{ query: 'неустойка при забава' }, { query: 'давност на вземане', max_results: 3 }]);
  });

  it('refuses an unknown field, naming it and listing the fields a line may carry', () => {
    const { items, problems } = parseBatchInput(file('{"querry": "неустойка при забава"}'));
    expect(items).toEqual([]);
    expect(problems).toEqual([{ line: 1, message: `unknown field "querry"; the fields are ${BATCH_FIELDS.join(', ')}` }]);
    expect(problems[0]!.message).toContain('query, source_types, court_ids, judge_name, date_from, date_to, max_results');
  });

  it('names every unknown field of a line, and cuts a very long name short', () => {
    const long = 'x'.repeat(100);
    const { problems } = parseBatchInput(file(JSON.stringify({ query: 'неустойка', limit: 3, [long]: 1 })));
    expect(problems).toHaveLength(1);
    expect(problems[0]!.message).toMatch(/^unknown fields "limit", "x{40}"; the fields are /);
    expect(problems[0]!.message).not.toContain('x'.repeat(41));
  });

  it('takes a field named __proto__ for an unknown field rather than dropping it', () => {
    const { problems } = parseBatchInput(file('{"query": "неустойка", "__proto__": {"max_results": 99}}'));
    expect(problems).toEqual([{ line: 1, message: expect.stringContaining('unknown field "__proto__"') }]);
  });

  it('refuses include_content, saying it is deprecated', () => {
    for (const value of ['true', 'false']) {
      const { items, problems } = parseBatchInput(file(`{"query": "неустойка при забава", "include_content": ${value}}`));
      expect(items).toEqual([]);
      expect(problems).toEqual([{ line: 1, message: 'include_content is deprecated and never sent; remove it' }]);
    }
  });

  it('refuses a line that starts with { but is not valid JSON, saying so', () => {
    const { items, problems } = parseBatchInput(file('{"query": "неустойка при забава"', "{query: 'x'}"));
    expect(items).toEqual([]);
    expect(problems.map((p) => p.line)).toEqual([1, 2]);
    for (const p of problems) expect(p.message).toMatch(/^the line starts with "\{" but is not valid JSON \(.+\)$/);
  });

  it('refuses a query that is not a string', () => {
    const { problems } = parseBatchInput(file('{"query": 42}', '{"max_results": 5}'));
    expect(problems).toEqual([
      { line: 1, message: 'query is required and must be a string' },
      { line: 2, message: 'query is required and must be a string' },
    ]);
  });
});

describe('parseBatchInput: the contract of a search request', () => {
  it('counts a query in code points: two astral characters are too short, 2000 are enough', () => {
    const clef = '\u{1D11E}';
    expect(parseBatchInput(file(clef.repeat(2))).problems).toEqual([{ line: 1, message: 'query must be 3 to 2000 characters long (got 2)' }]);
    expect(parseBatchInput(file(clef.repeat(3))).problems).toEqual([]);
    expect(parseBatchInput(file(clef.repeat(2000))).problems).toEqual([]);
    expect(parseBatchInput(file(clef.repeat(2001))).problems).toEqual([{ line: 1, message: 'query must be 3 to 2000 characters long (got 2001)' }]);
  });

  it('refuses a query too short once trimmed, in a plain line and in a JSON line', () => {
    const { problems } = parseBatchInput(file('  ab  ', '{"query": "  ab  "}'));
    expect(problems).toEqual([
      { line: 1, message: 'query must be 3 to 2000 characters long (got 2)' },
      { line: 2, message: 'query must be 3 to 2000 characters long (got 2)' },
    ]);
  });

  it('refuses a query longer than 2000 characters', () => {
    expect(parseBatchInput(file('я'.repeat(2001))).problems).toEqual([{ line: 1, message: 'query must be 3 to 2000 characters long (got 2001)' }]);
    expect(parseBatchInput(file('я'.repeat(2000))).problems).toEqual([]);
  });

  it('refuses dates that are not real calendar dates written YYYY-MM-DD', () => {
    const { problems } = parseBatchInput(
      file('{"query": "неустойка", "date_from": "2024-02-30"}', '{"query": "неустойка", "date_to": "31.12.2024"}', '{"query": "неустойка", "date_from": 2024}'),
    );
    expect(problems).toEqual([
      { line: 1, message: 'date_from must be a real calendar date written YYYY-MM-DD' },
      { line: 2, message: 'date_to must be a real calendar date written YYYY-MM-DD' },
      { line: 3, message: 'date_from must be a real calendar date written YYYY-MM-DD' },
    ]);
    expect(parseBatchInput(file('{"query": "неустойка", "date_from": "2024-02-29"}')).problems).toEqual([]);
  });

  it('refuses date_from after date_to, and accepts them equal', () => {
    expect(parseBatchInput(file('{"query": "неустойка", "date_from": "2024-06-02", "date_to": "2024-06-01"}')).problems).toEqual([
      { line: 1, message: 'date_from (2024-06-02) is after date_to (2024-06-01)' },
    ]);
    expect(parseBatchInput(file('{"query": "неустойка", "date_from": "2024-06-01", "date_to": "2024-06-01"}')).problems).toEqual([]);
  });

  it('accepts max_results from 1 to 50 and refuses 0, 51 and fractions', () => {
    const line = (n: unknown): string => JSON.stringify({ query: 'неустойка', max_results: n });
    const { items, problems } = parseBatchInput(file(line(1), line(50), line(0), line(51), line(2.5), line('5')));
    expect(items.map((i) => i.line)).toEqual([1, 2]);
    expect(problems).toEqual([3, 4, 5, 6].map((n) => ({ line: n, message: 'max_results must be an integer from 1 to 50' })));
  });

  it('refuses court_ids when every source type is a non-court source, and accepts them with case law or an unknown type', () => {
    const { items, problems } = parseBatchInput(
      file(
        '{"query": "неустойка", "court_ids": [1], "source_types": ["bulgarian_laws_regulations"]}',
        '{"query": "неустойка", "court_ids": [1], "source_types": ["bulgarian_laws_regulations", "high_courts_cases"]}',
        '{"query": "неустойка", "court_ids": [1], "source_types": ["some_future_type"]}',
        '{"query": "неустойка", "court_ids": [1]}',
      ),
    );
    expect(problems).toEqual([{ line: 1, message: 'court_ids applies only to case-law sources, and every selected source type is a non-court source' }]);
    expect(items.map((i) => i.line)).toEqual([2, 3, 4]);
  });

  it('puts every problem of one line in its message, separated by semicolons', () => {
    const { problems } = parseBatchInput(file('{"query": "ab", "max_results": 0, "date_from": "2024-13-01"}'));
    expect(problems).toHaveLength(1);
    expect(problems[0]!.line).toBe(1);
    expect(problems[0]!.message.split('; ')).toEqual([
      'query must be 3 to 2000 characters long (got 2)',
      'date_from must be a real calendar date written YYYY-MM-DD',
      'max_results must be an integer from 1 to 50',
    ]);
  });
});

describe('parseBatchInput: over-long lines', () => {
  it(`refuses a line longer than ${MAX_LINE_LENGTH} characters, saying how long it is`, () => {
    const long = `{"query": "неустойка", "judge_name": "${'Я'.repeat(MAX_LINE_LENGTH)}"}`;
    const { items, problems } = parseBatchInput(file('неустойка при забава', long));
    expect(items.map((i) => i.line)).toEqual([1]);
    expect(problems).toEqual([{ line: 2, message: `the line is ${[...long].length} characters long; at most ${MAX_LINE_LENGTH} are accepted` }]);
  });

  it(`accepts a line of exactly ${MAX_LINE_LENGTH} characters (as far as its length goes)`, () => {
    const head = '{"query": "неустойка", "judge_name": "';
    const line = `${head}${'Я'.repeat(MAX_LINE_LENGTH - head.length - 2)}"}`;
    expect(line.length).toBe(MAX_LINE_LENGTH);
    expect(parseBatchInput(file(line))).toMatchObject({ problems: [], items: [{ line: 1 }] });
  });

  it('counts a line in characters (code points), as it says, not in UTF-16 units', () => {
    const head = '{"query": "неустойка", "judge_name": "';
    // 10,000 astral characters: 20,000 UTF-16 units, but well under the limit in characters.
    const line = `${head}${'\u{1D11E}'.repeat(10_000)}"}`;
    expect(parseBatchInput(file(line)).problems).toEqual([]);
    const longer = `${head}${'\u{1D11E}'.repeat(MAX_LINE_LENGTH)}"}`;
    expect(parseBatchInput(file(longer)).problems).toEqual([
      { line: 1, message: `the line is ${[...longer].length} characters long; at most ${MAX_LINE_LENGTH} are accepted` },
    ]);
  });

  it('ignores an over-long comment', () => {
    expect(parseBatchInput(file(`# ${'x'.repeat(MAX_LINE_LENGTH * 2)}`, 'неустойка при забава')).problems).toEqual([]);
  });
});

describe('parseBatchInput: every problem is listed', () => {
  it('lists the problems of every bad line, in line order, and still reads the good ones', () => {
    const { items, problems } = parseBatchInput(
      file('неустойка при забава', 'ab', '# comment', '{"querry": "давност"}', '{"query": "давност на вземане"}', '{broken', '{"query": "x", "include_content": true}'),
    );
    expect(items.map((i) => i.line)).toEqual([1, 5]);
    expect(problems.map((p) => p.line)).toEqual([2, 4, 6, 7]);
  });
});

describe('batchDigest', () => {
  const digestOf = (text: string): string => batchDigest(parseBatchInput(text).items);
  const base = file('# questions v1', 'неустойка при забава', '{"query": "давност на вземане", "max_results": 5}', '', 'отмяна на присъда');

  it('is a SHA-256 in hex, the same for the same input', () => {
    expect(digestOf(base)).toMatch(/^[0-9a-f]{64}$/);
    expect(digestOf(base)).toBe(digestOf(base));
  });

  it('does not change when comments are edited or blank lines replaced by comments, the queries keeping their lines', () => {
    const edited = file('# questions v2, reviewed by the client', 'неустойка при забава', '{"query": "давност на вземане", "max_results": 5}', '# the last one', 'отмяна на присъда');
    expect(digestOf(edited)).toBe(digestOf(base));
  });

  it('does not change with CRLF line ends, a byte-order mark, spaces around a query or inside a JSON line', () => {
    const same = '\ufeff# questions v1\r\n  неустойка при забава \r\n{ "query" : "давност на вземане" ,"max_results":5 }\r\n\r\nотмяна на присъда\r\n';
    expect(digestOf(same)).toBe(digestOf(base));
  });

  it('does not change when a JSON line lists its fields in another order', () => {
    const reordered = file('# questions v1', 'неустойка при забава', '{"max_results": 5, "query": "давност на вземане"}', '', 'отмяна на присъда');
    expect(digestOf(reordered)).toBe(digestOf(base));
  });

  it('changes when a query moves to another line', () => {
    const moved = file('# questions v1', '', 'неустойка при забава', '{"query": "давност на вземане", "max_results": 5}', 'отмяна на присъда');
    expect(digestOf(moved)).not.toBe(digestOf(base));
  });

  it('changes when two queries swap lines', () => {
    const swapped = file('# questions v1', 'отмяна на присъда', '{"query": "давност на вземане", "max_results": 5}', '', 'неустойка при забава');
    expect(digestOf(swapped)).not.toBe(digestOf(base));
  });

  it('changes when a query or a filter changes', () => {
    expect(digestOf(base.replace('неустойка при забава', 'неустойка при закъснение'))).not.toBe(digestOf(base));
    expect(digestOf(base.replace('"max_results": 5', '"max_results": 6'))).not.toBe(digestOf(base));
  });

  it('changes when a query is added at the end', () => {
    expect(digestOf(`${base}нов въпрос\n`)).not.toBe(digestOf(base));
  });
});
