/**
 * The sandbox over the real inputs of `../shared/corpus` (given as the directory: statutes, Akoma Ntoso acts,
 * consolidated acts, official payloads, decisions and courts): the courts catalog, the source types, decisions found by
 * the search with their court fields, the codes a lawyer asks about first, acts in their real structure with the date
 * their text is current as of, the §§ that changed an article, and the excerpt ids of a repeated ref. Read at run
 * time, never copied.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CourtsResponse, DocumentElement, DocumentResponse, SourceTypesResponse } from '../../src/contract/types.js';
import { checkProvision, findMemoCitations } from '../../src/legal/cite.js';
import { renderDocumentText } from '../../src/render/document.js';
import { linkNoteOf } from '../../src/render/fields.js';
import { quotableSentences } from '../../src/sandbox/answers/compose.js';
import { readAknFile } from '../../src/sandbox/corpus/akn.js';
import { collectionOf } from '../../src/sandbox/catalog-rules.js';
import { openIndex } from '../../src/sandbox/corpus/index-db.js';
import type { SearchIndex } from '../../src/sandbox/storage.js';
import { resolveCorpusInputs } from '../../src/sandbox/corpus/inputs.js';
import { search } from '../../src/sandbox/search/pipeline.js';
import { tempDir } from './fixtures.js';
import { request, startTestServer, type TestServer } from './http/harness.js';

const SHARED_CORPUS = fileURLToPath(new URL('../../../shared/corpus', import.meta.url));
const haveCorpus = existsSync(SHARED_CORPUS);
if (!haveCorpus) console.warn(`skipping the real-corpus tests: ${SHARED_CORPUS} is absent`);

describe.skipIf(!haveCorpus)('the sandbox over ../shared/corpus', () => {
  const t = tempDir('pravo-real-inputs-');
  let index: SearchIndex;
  let sandbox: TestServer;

  beforeAll(async () => {
    index = await openIndex({ inputs: resolveCorpusInputs([SHARED_CORPUS]), dataDir: t.dir });
    sandbox = await startTestServer(t.dir, index);
  }, 300_000);

  afterAll(async () => {
    await sandbox?.close();
    index?.close();
    t.cleanup();
  });

  const get = (path: string) => request(sandbox.baseUrl, 'GET', path, { headers: { 'x-api-key': sandbox.key } });

  it('lists the 185 real courts by court_id, with the decisions of КС, ВКС and ВАС counted', async () => {
    const reply = await get('/v1/catalog/courts');
    expect(reply.status).toBe(200);
    const { courts } = reply.json as unknown as CourtsResponse;
    expect(courts).toHaveLength(185);
    expect(courts.map((c) => c.court_id)).toEqual([...courts.map((c) => c.court_id)].sort((a, b) => a - b));
    expect(courts.slice(0, 3)).toEqual([
      { court_id: 0, name: 'Конституционен съд', court_type: 'Конституционен съд', ecli_code: 'CC000', parent_court_id: null, decision_count: 149 },
      { court_id: 1, name: 'Върховен касационен съд', court_type: 'Върховен касационен съд', ecli_code: 'SC001', parent_court_id: null, decision_count: 12 },
      { court_id: 2, name: 'Върховен административен съд', court_type: 'Върховен административен съд', ecli_code: 'SA002', parent_court_id: null, decision_count: 314 },
    ]);
    expect(courts.find((c) => c.court_id === 111)).toMatchObject({ name: 'Софийски районен съд', parent_court_id: 110, decision_count: 0 });
    expect(courts.reduce((n, c) => n + (c.decision_count ?? 0), 0)).toBe(475);
  });

  it('lists high_courts_cases among the source types, with its 475 decisions (35 from the courts’ sites, 440 from the State Gazette)', async () => {
    const { source_types } = (await get('/v1/catalog/source-types')).json as unknown as SourceTypesResponse;
    expect(source_types).toEqual([
      expect.objectContaining({ id: 'bulgarian_laws_regulations', case_law: false, document_count: 2421 }),
      expect.objectContaining({ id: 'high_courts_cases', case_law: true, document_count: 475 }),
    ]);
  });

  it('finds ВКС decisions as high_courts_cases, each with its court and case number', () => {
    const response = search(index, { query: 'касационна жалба срещу присъдата наказание', source_types: ['high_courts_cases'] });
    expect(response.result_count).toBeGreaterThan(0);
    expect(response.results.every((r) => r.source_type === 'high_courts_cases')).toBe(true);
    const vks = response.results.filter((r) => r.court_id === 1);
    expect(vks.length).toBeGreaterThan(0);
    for (const r of vks) {
      expect(r.court).toBe('Върховен касационен съд');
      expect(r.case_number).toMatch(/^\d+\/\d{4}$/);
      expect(r.excerpts[0]!.excerpt_id).toMatch(new RegExp(`^${r.document_id}:\\d+$`));
    }
    // Decisions do not leak into a statutes search.
    const laws = search(index, { query: 'касационна жалба срещу присъдата наказание', source_types: ['bulgarian_laws_regulations'] });
    expect(laws.results.every((r) => r.source_type === 'bulgarian_laws_regulations')).toBe(true);
  });

  it('sends a decision with its panel, case kind and department', async () => {
    const query = new URLSearchParams({ document_id: 'vks-2024-116-1164-2023', collection: collectionOf('high_courts_cases') });
    const reply = await get(`/v1/documents?${query}`);
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({
      court_id: 1,
      court: 'Върховен касационен съд',
      decision_number: '116',
      case_number: '1164/2023',
      case_kind: 'наказателно дело',
      department: 'Първо наказателно отделение',
      reporting_judge: 'Христина Михова',
    });
    expect(reply.json.judges).toContain('Христина Михова');
  });

  it('numbers a repeated ref ~2, the same in the document and in the search excerpts (the Кодекс на труда, two § 6.)', async () => {
    const query = new URLSearchParams({ document_id: 'akn-1986-dv-26-86-1', collection: collectionOf('bulgarian_laws_regulations') });
    const elements = (await get(`/v1/documents?${query}`)).json.elements as { excerpt_id: string; ref: string; label: string }[];
    expect(elements.filter((e) => e.ref === '§6').map((e) => e.excerpt_id)).toEqual(['akn-1986-dv-26-86-1:§6', 'akn-1986-dv-26-86-1:§6~2']);
    expect(new Set(elements.map((e) => e.excerpt_id)).size).toBe(elements.length);
    // The search's excerpts carry the ids stored with the articles: the same, in the same order.
    const row = index.documentRows().find((r) => r.document_id === 'akn-1986-dv-26-86-1')!;
    const articleIds = [...index.articleDocumentPairs()].filter(([, doc]) => doc === row.id).map(([article]) => index.article(article)!.excerpt_id);
    expect(articleIds).toEqual(elements.map((e) => e.excerpt_id));
  });

  const document = async (id: string) => {
    const query = new URLSearchParams({ document_id: id, collection: collectionOf('bulgarian_laws_regulations') });
    const reply = await get(`/v1/documents?${query}`);
    expect(reply.status).toBe(200);
    return reply.json as {
      document_id: string;
      title: string;
      url?: string;
      as_of?: string;
      consolidated?: boolean;
      elements: Record<string, unknown>[] & { ref: string; text: string }[];
    };
  };

  it('answers a question on dismissal without notice with the Кодекс на труда, чл. 330, current as of 10.02.2026', () => {
    const { results } = search(index, { query: 'работодателят прекратява трудовия договор без предизвестие', max_results: 3 });
    expect(results[0]).toMatchObject({ title: 'Кодекс на труда', type: 'Кодекс', as_of: '2026-02-10', consolidated: true });
    expect(results[0]!.excerpts!.map((e) => e.excerpt_id)).toContain('akn-1986-dv-26-86-1:330');
  });

  it('answers a question on divorce by consent with the Семеен кодекс, чл. 50', () => {
    const { results } = search(index, { query: 'развод по взаимно съгласие на съпрузите', max_results: 3 });
    expect(results[0]).toMatchObject({ title: 'Семеен кодекс', consolidated: true });
    expect(results[0]!.excerpts![0]!.excerpt_id).toBe(`${results[0]!.document_id}:50`);
  });

  it('never says a word of the query occurs elsewhere when an excerpt shown holds a form of it („нарушение“, „нарушения“)', () => {
    // „нарушения“ stood in the excerpt of a ВАС decision whose explanation said „„нарушение“ се среща в други части на
    // документа“: Lucene's stemmer gave the plural another stem.
    const checked: string[] = [];
    for (const query of ['нарушение на правилата за движение', 'обезщетение за вреди от нарушение на задължения', 'решение на комисията']) {
      for (const result of search(index, { query, max_results: 20 }).results) {
        const elsewhere = /(?:^|\. )((?:„[^“]+“(?:, | и )?)+) се сре[щ]/u.exec(result.explanation ?? '')?.[1] ?? '';
        const words = [...elsewhere.matchAll(/„([^“]+)“/gu)].map((m) => m[1]!.toLowerCase());
        // A form of the word, judged apart from the stemmer: the word less its final letter starts a word of the
        // excerpt (нарушени- in нарушения, нарушенията).
        const shown = result.excerpts.flatMap((e) => (e.text ?? '').toLowerCase().match(/\p{L}+/gu) ?? []);
        for (const word of words.filter((w) => w.length >= 6)) {
          checked.push(word);
          const form = shown.find((w) => w.startsWith(word.slice(0, -1)));
          expect(form, `${query} → ${result.document_id}: „${word}“ is said to be elsewhere, and the excerpt holds „${form}“`).toBeUndefined();
        }
      }
    }
    // The test read some explanations that do place a word elsewhere (it is not vacuous).
    expect(checked.length).toBeGreaterThan(0);
  });

  it('does not name a term the law sets apart as a synonym: „наказание“, „решение“ for „присъда“, „наказание“ for „осъждане“', () => {
    for (const query of ['отмяна на присъдата', 'присъда', 'обжалване на присъда', 'условно осъждане', 'ВКС условно осъждане изменение на въззивно решение']) {
      for (const result of search(index, { query, max_results: 10 }).results) {
        const synonyms = /Търсен(?:и са и синонимите| е и синонимът) ([^.]*)\./u.exec(result.explanation ?? '')?.[1] ?? '';
        expect(synonyms, `${query} → ${result.document_id}`).not.toMatch(/„(наказание|присъда|решение|определение|осъждане)“/u);
      }
    }
  });

  it('says why a civil question limited to the ВКС finds nothing: the court leaves its 12 decisions, all of its criminal college', () => {
    const none = search(index, { query: 'неустойка договор', court_ids: [1] });
    expect(none).toMatchObject({ result_count: 0, results: [] });
    expect(none.no_results_reason).toMatchObject({
      kind: 'no_match',
      filters: [
        { filter: 'source_types', documents: 475 },
        { filter: 'court_ids', documents: 12 },
      ],
      left: { documents: 12, courts: [{ value: 'Върховен касационен съд', documents: 12 }], years: { from: 2015, to: 2024 } },
    });
    const departments = none.no_results_reason!.left.departments;
    expect(departments.reduce((n, d) => n + d.documents, 0)).toBe(12);
    for (const d of departments) expect(d.value).toMatch(/наказателно отделение/);
    // A date after the court's last decision leaves none of them; what the court left is still described.
    const later = search(index, { query: 'присъда', court_ids: [1], date_from: '2025-01-01' });
    expect(later.no_results_reason).toMatchObject({
      kind: 'no_documents',
      filters: [{ filter: 'source_types' }, { filter: 'court_ids', documents: 12 }, { filter: 'date_from', documents: 0 }],
      left: { documents: 12, years: { from: 2015, to: 2024 } },
    });
    expect(search(index, { query: 'и на за' }).no_results_reason?.kind).toBe('no_words');
  });

  it('marks as weak matches the results scoring under half of the first one, and only them', () => {
    const { results } = search(index, { query: 'застрахователят отказва да изплати обезщетение', max_results: 20 });
    const first = results[0]!.score!;
    expect(results.some((r) => r.weak_match === true)).toBe(true);
    for (const r of results) expect(r.weak_match, `${r.document_id} ${r.score}`).toBe(r.score! < first / 2);
  });

  it('serves the ЗЗД with its чл. 45, consolidated as of 27.04.2021', async () => {
    const zzd = await document('akn-1950-zzd');
    expect(zzd).toMatchObject({ title: 'Закон за задълженията и договорите', as_of: '2021-04-27', consolidated: true });
    expect(zzd.elements.find((e) => e.ref === '45')!.text).toContain('Всеки е длъжен да поправи вредите');
  });

  it('serves act-165936 as its 47 articles, then its 25 §§, with no article of another act', async () => {
    const act = await document('act-165936');
    const refs = act.elements.map((e) => e.ref);
    expect(refs).toEqual([...Array.from({ length: 47 }, (_, i) => String(i + 1)), ...Array.from({ length: 25 }, (_, i) => `§${i + 1}`)]);
    expect(act).toMatchObject({ as_of: '2025-06-27', consolidated: false });
  });

  it('serves the amending act act-78179 as its 122 §§, and says what each changes', async () => {
    const act = await document('act-78179');
    expect(act.elements.map((e) => e.ref)).toEqual(Array.from({ length: 122 }, (_, i) => `§${i + 1}`));
    expect(act.elements.some((e) => e.ref === '587б')).toBe(false);
    expect(act.elements.filter((e) => Array.isArray(e.amends)).length).toBeGreaterThan(60);
  });

  it('lists under an article of the Кодекс на труда the §§ of the corpus that changed it, newest first', async () => {
    const kt = await document('akn-1986-dv-26-86-1');
    const changed = kt.elements.find((e) => e.ref === '330')!.amended_by as { document_id: string; excerpt_id: string; date: string; action: string }[];
    expect(changed[0]).toMatchObject({ document_id: 'act-165388', excerpt_id: 'act-165388:§31', action: 'amends' });
    expect(changed.map((c) => c.date)).toEqual([...changed.map((c) => c.date)].sort().reverse());
  });

  it('keeps resolving a document_id merged into another text of the same act', async () => {
    const act = await document('akn-2012-dv-20-12-6');
    expect(act).toMatchObject({ document_id: 'act-13761', title: 'Закон за резерва на въоръжените сили на Република България' });
  });

  /** The element of a document with that ref. */
  const element = (document: { elements: Record<string, unknown>[] }, ref: string) =>
    document.elements.find((e) => e.ref === ref) as unknown as DocumentElement & { ref: string; text: string };

  /** The verdict of `pravo cite` on a citation of a document (the act named in the citation). */
  const cite = (citation: string, document: { title: string }) =>
    checkProvision(findMemoCitations(citation).citations[0]!.citation, document as unknown as DocumentResponse, document.title);

  it('gives each ал. of the Закон за наследството its own line, so that cite, doc and answers quote one ал.', async () => {
    const zn = await document('ldoc-2121542657');
    const article = element(zn, '9');
    // The consolidated text prints „(1) … (2) … (3) …“ inline; each is a line now, its note after its number.
    expect(article.text.split('\n').map((line) => line.slice(0, 10))).toEqual(['(1) Съпруг', '(2) (Изм. ', '(3) (Доп. ']);
    expect(cite('чл. 9, ал. 1 от ЗН', zn)).toEqual({ verdict: 'found', ref: '9', detail: 'Чл. 9, ал. 1: Съпругът наследява част, равна на частта на всяко дете.' });
    expect(cite('чл. 9, ал. 3 от ЗН', zn)).toMatchObject({ verdict: 'found', detail: expect.stringContaining('ал. 3: Ако няма други наследници') });
    // pravo doc prints ал. 1 on its line, ал. 2 on the next.
    const printed = renderDocumentText({ document: zn as unknown as DocumentResponse, selected: { element: article } }, { width: 400, color: false }).split('\n');
    const first = printed.indexOf('(1) Съпругът наследява част, равна на частта на всяко дете.');
    expect(first).toBeGreaterThan(0);
    expect(printed[first + 1]).toMatch(/^\(2\) \(Изм\. - ДВ, бр\. 60 от 1992 г\.\) Когато съпругът/u);
    // An answer's quotes are sentences of one ал. each.
    const sentences = quotableSentences(article.text).map((q) => q.text);
    expect(sentences).toContain('Съпругът наследява част, равна на частта на всяко дете.');
    expect(sentences.filter((q) => /\(\d\)/u.test(q))).toEqual([]);
    // Points and letters too: чл. 2 (1) „… завещание: а) … и б) …“.
    expect(element(zn, '2').text.split('\n').map((line) => line.slice(0, 3))).toEqual(['(1)', 'а) ', 'б) ', '(2)']);
  });

  it('keeps the Кодекс на труда\'s чл. 330 as its Akoma Ntoso file breaks it, and the ЗЗД\'s unnumbered чл. 55 whole', async () => {
    const kt = await document('akn-1986-dv-26-86-1');
    const expressions = path.join(SHARED_CORPUS, 'akn/kodeks/1986/dv-26-86-1/expressions');
    const file = path.join(expressions, readdirSync(expressions)[0]!);
    const read = (await readAknFile(file)).document.elements.find((e) => e.ref === '330')!;
    expect(element(kt, '330').text).toBe(read.text);
    expect(cite('чл. 330, ал. 2, т. 6 от КТ', kt)).toEqual({ verdict: 'found', ref: '330', detail: 'Чл. 330, ал. 2, т. 6: работникът или служителят бъде дисциплинарно уволнен;' });
    // The ЗЗД runs the two paragraphs of чл. 55 together with no number: nothing to split on, and cite says so.
    const zzd = await document('akn-1950-zzd');
    expect(element(zzd, '55').text).not.toContain('\n');
    expect(cite('чл. 55, ал. 1 от ЗЗД', zzd)).toMatchObject({
      verdict: 'found',
      unchecked: 'ал. 1',
      detail: expect.stringContaining('(ал. 1 not checked: this text does not number its paragraphs)'),
    });
  });

  it('gives the codes read from Akoma Ntoso their lex.bg page, dated by the text the page shows', async () => {
    const pages = { 'akn-1986-dv-26-86-1': 1594373121, 'akn-1968-nk': 1589654529, 'akn-1950-zzd': 2121934337, 'akn-2005-npk': 2135512224, 'akn-2007-gpk': 2135558368 };
    for (const [id, lex] of Object.entries(pages)) expect((await document(id)).url, id).toBe(`https://lex.bg/laws/ldoc/${lex}`);
    // The ЗДДС of akn/ is as first published in 2006; its page shows the current text.
    const vat = await document('akn-2006-dv-63-06-2');
    expect(vat).toMatchObject({ url: 'https://lex.bg/laws/ldoc/2135533201', as_of: '2006-08-04', consolidated: false, url_as_of: '2026-07-31' });
    expect(linkNoteOf(vat)).toBe("the page shows the act's current text, amended up to 31.07.2026; the text here is as first published, 04.08.2006");
    // The ЗЗД's page shows its text of the same date: nothing to say.
    expect(linkNoteOf(await document('akn-1950-zzd'))).toBeUndefined();
    // The ЗОП of 2016 keeps its National Assembly page; its namesake of 2004 is another act and gets none.
    expect((await document('act-15520')).url).toBe('https://www.parliament.bg/bg/laws/ID/15520');
    expect((await document('akn-2004-dv-28-04-1')).url).toBeUndefined();
    // 20 documents got a url, 28 a page's date (those and the 8 consolidated texts read from lex.bg).
    const rows = index.documentRows();
    expect(rows.filter((r) => r.url?.startsWith('https://lex.bg/') && r.document_id.startsWith('akn-')).length).toBe(20);
    expect(rows.filter((r) => r.url_as_of !== null).length).toBe(28);
    // A search result carries the page's date too.
    const { results } = search(index, { query: 'данък върху добавената стойност регистрация', max_results: 20 });
    expect(results.find((r) => r.document_id === 'akn-2006-dv-63-06-2')).toMatchObject({ url_as_of: '2026-07-31' });
  });

  it('skips by path the 9 Akoma Ntoso files that are not well-formed, and serves the others', () => {
    expect(index.skippedInputs).toHaveLength(9);
    for (const skipped of index.skippedInputs) expect(skipped.message).toContain(skipped.path);
  });
});
