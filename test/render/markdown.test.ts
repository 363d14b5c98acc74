/**
 * The Markdown of `--format md` (`src/render/markdown.ts`): server text escaped so that it renders as itself and never
 * as markup, and the three renderers — a search response, a document (whole and one element), an answer with its
 * citations as footnotes. Every response here is synthetic: titles say they are test data; texts imitate the form of
 * acts and decisions, and are not legal content.
 */
import { describe, expect, it } from 'vitest';
import type { AnswerJob, SearchResponse, SearchResult } from '../../src/contract/types.js';
import { answerOutputView, renderAnswerPlain } from '../../src/render/answer.js';
import { documentView } from '../../src/render/document.js';
import { codeSpan, escapeMarkdown, markdownBlock, markdownUrl, renderAnswerMarkdown, renderDocumentMarkdown, renderSearchMarkdown } from '../../src/render/markdown.js';
import { searchView } from '../../src/render/search.js';
import { hasControlSequences, sanitizeLine } from '../../src/shared/sanitize.js';
import { testDecision, testPartsDecision, testStatute } from '../helpers/documents.js';
import { blockStarts, footnotesOf, unescape, unescapedMarkup } from '../helpers/markdown.js';

/** Text a server might send to turn a memo into something else (test data). */
const HOSTILE = [
  '# heading',
  '## Тестов подзаглавен ред ##',
  '[x](javascript:alert(1))',
  '<script>alert(1)</script>',
  '![i](file:///etc/passwd)',
  '[^1]: fake',
  '[ref]: https://evil.example/',
  '```js',
  '~~~',
  '\u001b[31mчервено\u001b[0m \u009b31m \u202eобърнато',
  '1. тестова точка',
  '2) тестова точка',
  '- тире',
  '+ плюс',
  '* звезда',
  '> цитат',
  '    отстъп от четири интервала',
  '\tтабулация',
  '===',
  '---',
  '___',
  '| a | b |',
  '~~зачертано~~',
  '**удебелено** и _наклонено_',
  '`код`',
  '&amp; &#60;script&#62; &lt;',
  'https://evil.example/path',
  'www.evil.example',
  'тест@evil.example',
  '<https://evil.example>',
  'завършва с обратна наклонена\\',
  'a\\*b',
  '$x$ и $$y$$',
  '<!-- коментар -->',
];

describe('escapeMarkdown: server text renders as itself', () => {
  it.each(HOSTILE.map((text) => [JSON.stringify(text), text] as const))('%s: no markup left, and it reads back as the text', (_name, text) => {
    const escaped = escapeMarkdown(text);
    expect(escaped).not.toContain('\n');
    expect(hasControlSequences(escaped)).toBe(false);
    expect(unescapedMarkup(escaped)).toEqual([]);
    expect(blockStarts(escaped)).toEqual([]);
    expect(footnotesOf(escaped).references.size + footnotesOf(escaped).definitions.size).toBe(0);
    expect(unescape(escaped)).toBe(sanitizeLine(text));
  });

  it('escapes what would open a link, an image, HTML or a footnote, and the start of a heading or a list', () => {
    expect(escapeMarkdown('# heading')).toBe('\\# heading');
    expect(escapeMarkdown('[x](javascript:alert(1))')).toBe('\\[x\\](javascript:alert(1))');
    expect(escapeMarkdown('<script>')).toBe('\\<script\\>');
    expect(escapeMarkdown('![i](file:///etc/passwd)')).toBe('!\\[i\\](file\\:///etc/passwd)');
    expect(escapeMarkdown('[^1]: fake')).toBe('\\[^1\\]: fake');
    expect(escapeMarkdown('1. тестова точка')).toBe('1\\. тестова точка');
    expect(escapeMarkdown('- тире')).toBe('\\- тире');
    expect(escapeMarkdown('```')).toBe('\\`\\`\\`');
    expect(escapeMarkdown('\u001b[31mчервено\u001b[0m')).toBe('червено');
  });

  it('leaves ordinary legal text readable: dots, dashes, parentheses, quotes and § inside a line', () => {
    const text = 'Чл. 45. (1) По смисъла на § 1, т. 2 – „тестов“ срок (2020 – 2021 г.) е 7 дни.';
    expect(escapeMarkdown(text)).toBe(text);
  });

  it('markdownBlock keeps line breaks as hard breaks and blank lines as paragraph breaks, each line escaped', () => {
    const text = '(1) Първа алинея.\n(2) Втора алинея:\n1. точка;\n    2. точка.\n\n\n# не заглавие\n```\nне код\n```';
    const lines = markdownBlock(text);
    expect(lines).toEqual([
      '(1) Първа алинея.\\',
      '(2) Втора алинея:\\',
      '1\\. точка;\\',
      '2\\. точка.',
      '',
      '\\# не заглавие\\',
      '\\`\\`\\`\\',
      'не код\\',
      '\\`\\`\\`',
    ]);
    expect(blockStarts(lines.join('\n'))).toEqual([]);
    expect(markdownBlock('  \n\n')).toEqual([]);
  });

  it('codeSpan holds any text literally, backticks included', () => {
    expect(codeSpan('act-1:45')).toBe('`act-1:45`');
    expect(codeSpan('a`b')).toBe('``a`b``');
    expect(codeSpan('`x`')).toBe('`` `x` ``');
    expect(codeSpan('  ')).toBe('');
  });

  it('markdownUrl links only http(s) addresses, percent-encoding what would break out of <…>; others become code', () => {
    expect(markdownUrl('https://example.invalid/тест?a=1')).toBe('<https://example.invalid/%D1%82%D0%B5%D1%81%D1%82?a=1>');
    expect(markdownUrl('https://example.invalid/a b<c>d')).toBe('<https://example.invalid/a%20b%3Cc%3Ed>');
    expect(markdownUrl('javascript:alert(1)')).toBe('`javascript:alert(1)`');
    expect(markdownUrl('file:///etc/passwd')).toBe('`file:///etc/passwd`');
    expect(markdownUrl('data:text/html,<script>alert(1)</script>')).toBe('`data:text/html,<script>alert(1)</script>`');
    expect(markdownUrl('не е адрес')).toBe('`не е адрес`');
    expect(markdownUrl('')).toBeUndefined();
    expect(markdownUrl(undefined)).toBeUndefined();
  });
});

function result(overrides: Partial<SearchResult> = {}): SearchResult {
  return {
    document_id: 'test-act-1',
    collection: 'c_test',
    source_type: 'bulgarian_laws_regulations',
    type: 'Закон',
    title: 'Тестов закон (синтетичен)',
    date: '2020-05-01',
    author: 'ТЕСТОВИ ДАННИ',
    url: 'https://example.invalid/test-act-1',
    score: 0.9876,
    as_of: '2024-02-01',
    consolidated: true,
    excerpts: [
      { excerpt_id: 'test-act-1:4', label: 'Чл. 4.', score: 0.91, text: 'Чл. 4. (1) Срокът е седем дни (тестов текст).\n(2) Срокът тече от уведомяването.' },
      { excerpt_id: 'test-act-1:5', label: 'Чл. 5.', score: 0.5, text: '…регистърът е публичен (тестов текст).' },
    ],
    ...overrides,
  } as SearchResult;
}

describe('renderSearchMarkdown', () => {
  const response: SearchResponse = {
    query: 'тестово търсене',
    result_count: 2,
    results: [
      result(),
      result({
        document_id: 'test-case-1',
        collection: 'c_cases',
        source_type: 'high_courts_cases',
        type: 'Решение',
        title: 'Решение № 7 по тестово дело (синтетично)',
        date: '2024-03-01',
        url: 'javascript:alert(1)',
        score: 0.5,
        as_of: undefined,
        consolidated: undefined,
        court: 'Тестов касационен съд',
        decision_number: '7',
        case_number: '12/2024',
        reporting_judge: 'Борис Тестов',
        explanation: 'Съвпадение в тестов текст.',
        excerpts: [{ excerpt_id: 'test-case-1:2', label: '¶ 2', text: 'Жалбата е допустима (тестов текст).' }],
      } as Partial<SearchResult>),
    ],
  };
  const md = renderSearchMarkdown(response);
  const lines = md.split('\n');

  it('is a heading with the query, then a numbered list: title in bold, type, publication date, score, all labelled in Bulgarian', () => {
    expect(lines[0]).toBe('# Търсене: тестово търсене');
    expect(md).toContain('2 резултата, най-подходящите първи. Датите са дати на публикуване; оценките са оценки за релевантност на услугата.');
    expect(lines.filter((line) => /^\d+\. /.test(line))).toEqual(['1. **Тестов закон (синтетичен)**\\', '2. **Решение № 7 по тестово дело (синтетично)**\\']);
    expect(md).toContain('   Закон · дата 2020-05-01 · оценка 0.99 · текст към 01.02.2024\\');
    expect(md).toContain('   `test-act-1`, колекция `c_test` · <https://example.invalid/test-act-1>');
    expect(md).not.toMatch(/published|score|collection|Search/);
  });

  it('says, in Bulgarian, when the page a link opens shows a newer text than the one cited', () => {
    const linked = renderSearchMarkdown({ ...response, result_count: 1, results: [result({ as_of: '2006-08-04', consolidated: false, url_as_of: '2026-07-31' } as Partial<SearchResult>)] });
    expect(linked).toContain(
      '<https://example.invalid/test-act-1> (страницата показва действащия текст на акта с изменения до 31.07.2026; текстът тук е както е обнародван, 04.08.2006)',
    );
    expect(md).not.toContain('страницата показва');
  });

  it('quotes each excerpt after its bold label, without repeating the label, its lines kept', () => {
    expect(md).toContain('   > **Чл. 4.** (оценка 0.91) (1) Срокът е седем дни (тестов текст).\\\n   > (2) Срокът тече от уведомяването.');
    expect(md).toContain('   > **Чл. 5.** (оценка 0.50) …регистърът е публичен (тестов текст).');
  });

  it('a court decision has its court, act, case and judge; an address that is not http(s) is shown as code, not linked', () => {
    expect(md).toContain('   Тестов касационен съд · Решение № 7 · дело № 12/2024 · докладчик Борис Тестов\\');
    expect(md).toContain('`javascript:alert(1)`');
    expect(md).not.toMatch(/\]\(javascript/);
    expect(md).toContain('*Релевантност:* Съвпадение в тестов текст.');
  });

  it('a hostile title, excerpt and query stay text', () => {
    const hostile = renderSearchMarkdown({
      query: '# [q](javascript:x)',
      result_count: 1,
      results: [result({ title: '[Тестов](javascript:alert(1)) <img src=x>', excerpts: [{ excerpt_id: 'x:1', label: '[^1]:', text: '# не заглавие\n- не списък\n<script>' }] })],
    });
    expect(hostile.split('\n')[0]).toBe('# Търсене: \\# \\[q\\](javascript:x)');
    expect(hostile).toContain('1. **\\[Тестов\\](javascript:alert(1)) \\<img src=x\\>**');
    expect(hostile).toContain('> **\\[^1\\]:** \\# не заглавие\\');
    expect(footnotesOf(hostile).references.size + footnotesOf(hostile).definitions.size).toBe(0);
    expect(blockStarts(hostile, (line) => /^(# Търсене|\d+\. \*\*| {3}> )/.test(line))).toEqual([]);
  });

  it('with no results says so; the view offers it with a subject for --out', () => {
    expect(renderSearchMarkdown({ query: 'нищо', result_count: 0, results: [] })).toBe('# Търсене: нищо\n\nНяма резултати.\n');
    expect(renderSearchMarkdown({ query: 'едно', result_count: 1, results: [response.results[0]!] })).toContain('\n1 резултат, най-подходящите първи.');
    expect(searchView.markdown).toBe(renderSearchMarkdown);
    expect(searchView.markdownSubject!(response)).toBe('2 results (Markdown)');
  });
});

describe('renderDocumentMarkdown', () => {
  it('a statute: # title, its fields in Bulgarian, then each element after its bold label, the label not repeated, lines kept', () => {
    const document = { ...testStatute(), title: 'Тестов закон (синтетичен)', as_of: '2026-02-10', consolidated: true };
    const md = renderDocumentMarkdown({ document });
    const lines = md.split('\n');
    expect(lines[0]).toBe('# Тестов закон (синтетичен)');
    expect(md).toContain('- Вид: Закон\n- Дата: 2020-05-01 (в сила от 2020-06-01)\n- Текст: към 10.02.2026\n');
    expect(md).toContain('- Адрес: <https://example.invalid/test-act-1>');
    expect(md).toContain('- Документ: `test-act-1`, колекция `c_test`');
    expect(md).toContain('\n8 члена.\n');
    expect(documentView.markdownSubject!({ document })).toBe('the document (8 articles, Markdown)');
    expect(renderDocumentMarkdown({ document: { ...document, consolidated: false } })).toContain('- Текст: както е обнародван, 10.02.2026\n');
    expect(md).toContain('\n**Чл. 1.** Този закон урежда примерните уведомления (тестов текст).\n');
    expect(md).toContain(
      '**Чл. 2.** (1) Уведомлението по чл. 5, ал. 2 се подава писмено.\\\n(2) Сроковете по чл. 3 – 5 и по чл. 12 от Закона за измислените срокове не се прилагат за:\\\n1\\. лицата по чл. 44а;\\\n2\\. тестовите случаи.\n',
    );
    expect(md).not.toContain('Чл. 1.** Чл. 1.');
    expect(blockStarts(md, (line) => line.startsWith('# ') || line.startsWith('- '))).toEqual([]);
  });

  it("a ruling on the element stands before it as a quotation in the Court's wording", () => {
    const document = testStatute();
    const ruling = { decision_number: '7', decision_year: '2020', part: { text: 'ал. 2, т. 2', paragraph: '2', point: '2' }, later_amended: false };
    const md = renderDocumentMarkdown({ document, selected: { element: { ...document.elements![3]!, rulings: [ruling] } } });
    const lines = md.split('\n');
    const quote = lines.indexOf('> Решение № 7 от 2020 г. на Конституционния съд обявява за противоконституционна разпоредбата на чл. 4, ал. 2, т. 2.');
    expect(quote).toBeGreaterThan(0);
    expect(lines.findIndex((line) => line.startsWith('**Чл. 4.**'))).toBeGreaterThan(quote);
  });

  it('one element stands alone: the title, the fields, that element only', () => {
    const document = testStatute();
    const md = renderDocumentMarkdown({ document, selected: { element: document.elements![3]! } });
    expect(md.split('\n')[0]).toBe('# Закон за примерните уведомления (ТЕСТОВИ ДАННИ)');
    expect(md).toContain('- Дата: 2020-05-01 (в сила от 2020-06-01)');
    expect(md).toContain('**Чл. 4.** Срокът за уведомяване е седем дни (тестов текст).');
    expect(md).not.toContain('Чл. 1.');
    expect(md).not.toContain('члена.');
    expect(documentView.markdownSubject!({ document, selected: { element: document.elements![3]! } })).toBe('Чл. 4. (Markdown)');
  });

  it('a court decision: its court fields, each paragraph after its bold ¶ label', () => {
    const md = renderDocumentMarkdown({ document: testDecision() });
    expect(md).toContain('- Съд: Тестов касационен съд\n- Дело: наказателно дело № 12/2024\n- Акт: Решение № 7\n');
    expect(md).toContain('- Състав: Анна Примерова (председател), Борис Тестов, Вера Измислена');
    expect(md).toContain('**¶ 2** Производството е по чл. 346 от НПК (тестов текст). Жалбата е допустима.');
    expect(md).toContain('\n3 абзаца.\n');
    expect(md).not.toMatch(/Court|Case|Decision|Panel|Reporting judge|chair|paragraphs/);
  });

  it('a decision: the operative part and each opinion under a heading of their own; one paragraph names its part', () => {
    const document = testPartsDecision({ type: 'Определение', decision_number: null, judges: [], reporting_judge: null });
    const md = renderDocumentMarkdown({ document });
    expect(md).toContain('\n## Диспозитив\n\n**¶ 4** Р Е Ш И :\n\n**¶ 5** 1\\. Обявява');
    expect(md).toContain('\n## Особено мнение\n\n**¶ 8** ОСОБЕНО МНЕНИЕ');
    expect(md).toContain('\n## Становище\n\n**¶ 10** СТАНОВИЩЕ');
    expect(md.match(/^## /gm)).toHaveLength(3);
    expect(md).toContain('- Акт: Определение без номер\n- Състав: (не е вписан: вижте текста)\n- Докладчик: (не е вписан: вижте текста)\n');
    const one = renderDocumentMarkdown({ document, selected: { element: document.elements![8]! } });
    expect(one).toContain('- Част от акта: особено мнение\n');
    expect(one).not.toContain('## ');
    expect(renderDocumentMarkdown({ document: testStatute() })).not.toContain('## ');
  });

  it('hostile element text and heading stay text; a javascript: url is not a link', () => {
    const document = {
      ...testStatute(),
      url: 'javascript:alert(1)',
      elements: [{ ref: '1', label: 'Чл. 1.', heading: '# Глава (тестова) [x](y)', text: 'Чл. 1. <b>тест</b>\n# заглавие\n> цитат\n[^1]: фалшива бележка' }],
    };
    const md = renderDocumentMarkdown({ document });
    expect(md).toContain('- Адрес: `javascript:alert(1)`');
    expect(md).toContain('*\\# Глава (тестова) \\[x\\](y)*');
    expect(md).toContain('**Чл. 1.** \\<b\\>тест\\</b\\>\\\n\\# заглавие\\\n\\> цитат\\\n\\[^1\\]: фалшива бележка');
    expect(footnotesOf(md).definitions.size).toBe(0);
  });
});

/** A synthetic answer job: markers of excerpts and of a whole document, a repeated one, an unknown one. */
function answerJob(overrides: Partial<AnswerJob> = {}): AnswerJob {
  return {
    job_id: 'job-syn-1',
    status: 'succeeded',
    query: 'Какъв е тестовият срок?',
    created_at: '2026-03-01T10:00:00Z',
    updated_at: '2026-03-01T10:00:03Z',
    answer:
      'Срокът е седем дни [syn-act-1:2]. Решението потвърждава [syn-case-2:6; syn-act-1:2], а текстът ' +
      '[изм. – ДВ, бр. 12 от 2020 г.] е стар [syn-act-9:1].\n\nВтори абзац по целия закон [syn-act-3].\n1. не е списък [syn-act-1:2]',
    sources: [
      {
        document_id: 'syn-act-1',
        collection: 'c_syn',
        type: 'Закон',
        title: 'Тестов закон (синтетичен)',
        date: '2020-01-01',
        as_of: '2024-02-01',
        consolidated: false,
        url: 'https://example.invalid/syn-act-1',
        excerpts: [{ excerpt_id: 'syn-act-1:2', label: 'Чл. 2.', text: '…се подава в седемдневен срок…' }],
      },
      {
        document_id: 'syn-case-2',
        collection: 'c_syn_cases',
        type: 'Решение',
        title: 'Решение № 145 по тестово дело (синтетично)',
        date: '2015-06-01',
        url: 'https://example.invalid/syn-case-2',
        court: 'Тестов съд',
        case_number: '210/2015',
        decision_number: '145',
        excerpts: [{ excerpt_id: 'syn-case-2:6', label: '¶ 6', text: '…тестов мотив…' }],
      },
      { document_id: 'syn-act-3', collection: 'c_syn', title: 'Трети тестов закон (синтетичен)', date: '2021-03-03', url: 'file:///etc/passwd', excerpts: [] },
      { document_id: 'syn-act-4', collection: 'c_syn', title: 'Нецитиран тестов закон (синтетичен)', date: '2022-04-04', url: 'https://example.invalid/syn-act-4', excerpts: [] },
    ],
    ...overrides,
  };
}

/** Checks the footnote invariant: every reference has exactly one definition, every definition is referenced. */
function expectFootnotesPaired(md: string): string[] {
  const { references, definitions } = footnotesOf(md);
  for (const [label, count] of definitions) {
    expect(count, `definitions of [^${label}]`).toBe(1);
    expect(references.has(label), `[^${label}] is referenced`).toBe(true);
  }
  for (const label of references.keys()) expect(definitions.get(label), `definition of [^${label}]`).toBe(1);
  return [...references.keys()];
}

describe('renderAnswerMarkdown', () => {
  const md = renderAnswerMarkdown(answerJob());

  it('heads with the question and the answer date, and writes markers as footnotes numbered as the terminal view numbers them', () => {
    expect(md.split('\n').slice(0, 3)).toEqual(['# Какъв е тестовият срок?', '', 'Отговор от 2026-03-01, задача `job-syn-1`.']);
    expect(md).toContain('Срокът е седем дни [^1]. Решението потвърждава [^2][^1], а текстът \\[изм. – ДВ, бр. 12 от 2020 г.\\] е стар \\[?syn-act-9:1\\].');
    expect(md).toContain('\n\nВтори абзац по целия закон [^4].\\\n1\\. не е списък [^1]\n');
    // The terminal (plain) view numbers the same citations [1], [2], [4], and [3] is the unresolved one.
    const plain = renderAnswerPlain(answerJob());
    expect(plain).toContain('Срокът е седем дни [1]. Решението потвърждава [2][1]');
    expect(plain).toContain('[?syn-act-9:1]');
    expect(plain).toContain('по целия закон [4]');
  });

  it('has exactly one definition per footnote used, each complete: title, label, date, text status, court and case, link', () => {
    expect(expectFootnotesPaired(md).sort()).toEqual(['1', '2', '4']);
    expect(md).toContain('[^1]: Тестов закон (синтетичен), Чл. 2, 2020-01-01, текст както е обнародван, 01.02.2024, <https://example.invalid/syn-act-1>');
    expect(md).toContain('[^2]: Решение № 145 по тестово дело (синтетично), ¶ 6, 2015-06-01, Тестов съд, Решение № 145, дело № 210/2015, <https://example.invalid/syn-case-2>');
    expect(md).toContain('[^4]: Трети тестов закон (синтетичен), 2021-03-03, `file:///etc/passwd`');
  });

  it('an unresolved marker is escaped text, named after the footnotes, never a footnote; uncited sources are a plain list', () => {
    expect(md).not.toContain('[^3]');
    expect(md).toContain('Този маркер не сочи източник на отговора: \\[?syn-act-9:1\\].');
    expect(md).toContain('## Други източници (нецитирани)\n\n- Нецитиран тестов закон (синтетичен), 2022-04-04, <https://example.invalid/syn-act-4>\n');
  });

  it('answer text cannot forge a footnote, a link around a reference, or a definition at a line start', () => {
    const hostile = renderAnswerMarkdown(
      answerJob({
        answer:
          'Виж [syn-act-1:2](javascript:alert(1)) и ![syn-act-3](file:///etc/passwd).\n' +
          '[syn-act-1:2]: фалшива дефиниция\n[^7]: фалшива бележка [^7] \uE0009\uE001 <script>x</script>\n# не заглавие',
      }),
    );
    expect(hostile).toContain('Виж [^1]\\(javascript:alert(1)) и \\![^2]\\(file\\:///etc/passwd).\\');
    expect(hostile).toContain('\n[^1]\\: фалшива дефиниция\\\n\\[^7\\]: фалшива бележка \\[^7\\] 9 \\<script\\>x\\</script\\>\\\n\\# не заглавие\n');
    expect(expectFootnotesPaired(hostile).sort()).toEqual(['1', '2']);
    expect(blockStarts(hostile, (line) => /^(# Какъв|\[\^\d+\]: |- |## Други)/.test(line))).toEqual([]);
  });

  it('the note after --out counts what the file holds: its footnotes (one per cited number) and the uncited sources', () => {
    expect(answerOutputView.markdownSubject!({ job: answerJob() })).toBe('the answer with 3 footnotes and 1 uncited source (Markdown)');
    expect(answerOutputView.markdownSubject!({ job: answerJob({ answer: 'Без цитати.' }) })).toBe('the answer with no footnotes and 4 uncited sources (Markdown)');
  });

  it('a job without an answer says so; control characters never pass', () => {
    expect(renderAnswerMarkdown({ job_id: 'job-syn-2', status: 'running' })).toBe('# Отговор\n\nЗадачата за отговор `job-syn-2` е в състояние running: няма отговор.\n');
    const dirty = renderAnswerMarkdown(answerJob({ query: '\u001b]8;;https://evil.example\u0007тест\u001b]8;;\u0007', answer: 'Текст\u001b[2J [syn-act-1:2]' }));
    expect(hasControlSequences(dirty)).toBe(false);
    expect(dirty.split('\n')[0]).toBe('# тест');
  });
});
