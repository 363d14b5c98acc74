/**
 * The sandbox over the real inputs of `../shared/corpus` (statutes, decisions and courts, given as the directory):
 * the courts catalog, the source types, decisions found by the search with their court fields, documents with their
 * court fields, and the excerpt ids of a statute with a repeated article ref. Read at run time, never copied.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CourtsResponse, SourceTypesResponse } from '../../src/api/types.js';
import { collectionOf, openIndex, type SearchIndex } from '../../src/sandbox/corpus/index-db.js';
import { resolveCorpusInputs } from '../../src/sandbox/corpus/inputs.js';
import { search } from '../../src/sandbox/search/index.js';
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
      { court_id: 0, name: 'Конституционен съд', court_type: 'Конституционен съд', ecli_code: 'CC000', parent_court_id: null, decision_count: 12 },
      { court_id: 1, name: 'Върховен касационен съд', court_type: 'Върховен касационен съд', ecli_code: 'SC001', parent_court_id: null, decision_count: 12 },
      { court_id: 2, name: 'Върховен административен съд', court_type: 'Върховен административен съд', ecli_code: 'SA002', parent_court_id: null, decision_count: 11 },
    ]);
    expect(courts.find((c) => c.court_id === 111)).toMatchObject({ name: 'Софийски районен съд', parent_court_id: 110, decision_count: 0 });
    expect(courts.reduce((n, c) => n + (c.decision_count ?? 0), 0)).toBe(35);
  });

  it('lists high_courts_cases among the source types, with its 35 decisions', async () => {
    const { source_types } = (await get('/v1/catalog/source-types')).json as unknown as SourceTypesResponse;
    expect(source_types).toEqual([
      expect.objectContaining({ id: 'bulgarian_laws_regulations', case_law: false, document_count: 1997 }),
      expect.objectContaining({ id: 'high_courts_cases', case_law: true, document_count: 35 }),
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

  it('numbers a repeated article ref ~2, the same in the document and in the search excerpts (act-15570, two Чл. 4.)', async () => {
    const query = new URLSearchParams({ document_id: 'act-15570', collection: collectionOf('bulgarian_laws_regulations') });
    const elements = (await get(`/v1/documents?${query}`)).json.elements as { excerpt_id: string; ref: string; label: string }[];
    expect(elements.filter((e) => e.ref === '4').map((e) => e.excerpt_id)).toEqual(['act-15570:4', 'act-15570:4~2']);
    expect(new Set(elements.map((e) => e.excerpt_id)).size).toBe(elements.length);
    // The search's excerpts carry the ids stored with the articles: the same, in the same order.
    const row = index.documentRows().find((r) => r.document_id === 'act-15570')!;
    const articleIds = [...index.articleDocumentPairs()].filter(([, doc]) => doc === row.id).map(([article]) => index.article(article)!.excerpt_id);
    expect(articleIds).toEqual(elements.map((e) => e.excerpt_id));
  });
});
