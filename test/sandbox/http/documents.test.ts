/**
 * `GET /v1/documents` over HTTP (`src/sandbox/routes/documents.ts`): required parameters, 404, the full document with
 * the excerpt ids of the search, the retrieval quota (one unit per document sent; none for 400, 404 or HEAD), and ids
 * with URL-special characters. Synthetic corpus: every title marks it as test data.
 */
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { collectionOf } from '../../../src/sandbox/catalog-rules.js';
import { openIndex } from '../../../src/sandbox/corpus/index-db.js';
import type { SearchIndex } from '../../../src/sandbox/storage.js';
import type { CorpusDocument } from '../../../src/sandbox/corpus/reader.js';
import { search } from '../../../src/sandbox/search/pipeline.js';
import { DEFAULT_ACCOUNT_ID } from '../../../src/sandbox/state/store.js';
import { CASES, LAWS, tempDir, writeCorpus } from '../fixtures.js';
import { expectError, request, startTestServer, type TestServer } from './harness.js';

/** A made-up act whose document_id and collection hold every character a URL treats specially. */
const ODD: CorpusDocument = {
  ...LAWS[0]!,
  document_id: 'test/акт & номер?1#глава 2 + 50%',
  collection: 'колекция/a&b=c?d#e f+g%',
  title: 'Закон с необичаен идентификатор (ТЕСТОВИ ДАННИ)',
};

/** A made-up decision with its panel. */
const PANEL: CorpusDocument = {
  ...CASES[0]!,
  document_id: 'test-case-panel',
  decision_number: null,
  case_kind: 'ТЕСТОВИ ДАННИ: измислено дело',
  department: 'ТЕСТОВИ ДАННИ: Първо измислено отделение',
  judges: ['Мария Иванова Петрова', 'Георги Стоянов'],
};

const LAW = LAWS.find((d) => d.document_id === 'test-long')!;
const LAW_COLLECTION = collectionOf(LAW.source_type);

const t = tempDir('pravo-documents-test-');
let index: SearchIndex;
beforeAll(async () => {
  index = await openIndex({ corpusPath: writeCorpus(join(t.dir, 'c.jsonl'), [...LAWS, ...CASES, ODD, PANEL]), dataDir: join(t.dir, 'index') });
});
afterAll(() => {
  index?.close();
  t.cleanup();
});

let sandbox: TestServer | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

async function server(quota?: number): Promise<TestServer> {
  sandbox = await startTestServer(t.dir, index, quota === undefined ? {} : { quotas: { retrieval: quota } });
  return sandbox;
}

/** `GET /v1/documents` with the parameters URL-encoded (`URLSearchParams`); raw `query` when a string. */
function get(s: TestServer, query: Record<string, string> | string, method = 'GET') {
  const qs = typeof query === 'string' ? query : new URLSearchParams(query).toString();
  return request(s.baseUrl, method, `/v1/documents${qs === '' ? '' : `?${qs}`}`, { headers: { 'x-api-key': s.key } });
}

describe('GET /v1/documents', () => {
  it('returns the full statute: its fields and ordered elements with the excerpt ids of the search', async () => {
    const s = await server();
    const reply = await get(s, { document_id: LAW.document_id, collection: LAW_COLLECTION });
    expect(reply.status).toBe(200);
    const { elements, ...fields } = reply.json as { elements: Record<string, string>[] };
    const { elements: _source, ...corpusFields } = LAW;
    expect(fields).toEqual({ ...corpusFields, collection: LAW_COLLECTION });
    // Two articles share ref 2: the later one is `~2`.
    expect(elements.map((e) => e.excerpt_id)).toEqual(['test-long:1', 'test-long:2', 'test-long:2~2']);
    expect(elements.map((e) => ({ ref: e.ref, label: e.label, text: e.text }))).toEqual(LAW.elements);
    expect(Object.keys(elements[0]!)).toEqual(['excerpt_id', 'ref', 'label', 'text']);
    // An excerpt of a search points at the element with the same id.
    const found = search(index, { query: 'часовникарят сверява часовници', source_types: ['bulgarian_laws_regulations'] });
    const excerpt = found.results.find((r) => r.document_id === LAW.document_id)!.excerpts[0]!;
    expect(elements.find((e) => e.excerpt_id === excerpt.excerpt_id)?.text).toContain('сверява');
  });

  it('returns a decision with every court field, null where the corpus has none', async () => {
    const s = await server();
    const reply = await get(s, { document_id: PANEL.document_id, collection: collectionOf('high_courts_cases') });
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({
      court_id: 10,
      court: PANEL.court,
      decision_number: null,
      case_number: PANEL.case_number,
      case_kind: PANEL.case_kind,
      department: PANEL.department,
      reporting_judge: PANEL.reporting_judge,
      judges: PANEL.judges,
    });
    expect((reply.json.elements as { excerpt_id: string }[])[0]!.excerpt_id).toBe('test-case-panel:1');
  });

  it('keeps a document_id and collection with /, &, =, ?, #, +, %, spaces and Cyrillic intact', async () => {
    const s = await server();
    const reply = await get(s, { document_id: ODD.document_id, collection: ODD.collection! });
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ document_id: ODD.document_id, collection: ODD.collection, title: ODD.title });
    expect((reply.json.elements as { excerpt_id: string }[])[0]!.excerpt_id).toBe(`${ODD.document_id}:1`);
    // Percent-encoded with encodeURIComponent (%20 for spaces) works the same.
    const encoded = `document_id=${encodeURIComponent(ODD.document_id)}&collection=${encodeURIComponent(ODD.collection!)}`;
    expect((await get(s, encoded)).json.document_id).toBe(ODD.document_id);
    // And a search result carries the same pair.
    const result = search(index, { query: 'пазителят на фара', max_results: 50 }).results.find((r) => r.document_id === ODD.document_id);
    expect(result?.collection).toBe(ODD.collection);
  });

  it.each([
    ['', /"document_id" is required; the query parameter "collection" is required/],
    [`collection=${LAW_COLLECTION}`, /^The query parameter "document_id" is required\. /],
    [`document_id=${LAW.document_id}`, /^The query parameter "collection" is required\. /],
    [`document_id=&collection=${LAW_COLLECTION}`, /^The query parameter "document_id" is empty\. /],
    [`document_id=${LAW.document_id}&collection=%20`, /^The query parameter "collection" is empty\. /],
    [`document_id=a&document_id=${LAW.document_id}&collection=${LAW_COLLECTION}`, /"document_id" is given 2 times; give it once/],
  ])('?%s → 400 invalid_request naming the parameter, nothing consumed', async (query, message) => {
    const s = await server();
    expect(expectError(await get(s, query), 400, 'invalid_request')).toMatch(message);
    expect(s.state.used(DEFAULT_ACCOUNT_ID, 'retrieval')).toBe(0);
  });

  it('answers an unknown pair 404 not_found, nothing consumed', async () => {
    const s = await server();
    expectError(await get(s, { document_id: 'test-nothing', collection: LAW_COLLECTION }), 404, 'not_found');
    // A known document_id in another collection is another document.
    expectError(await get(s, { document_id: LAW.document_id, collection: collectionOf('high_courts_cases') }), 404, 'not_found');
    expect(s.state.used(DEFAULT_ACCOUNT_ID, 'retrieval')).toBe(0);
  });

  it('consumes one retrieval unit per document sent, none for HEAD', async () => {
    const s = await server();
    const query = { document_id: LAW.document_id, collection: LAW_COLLECTION };
    expect((await get(s, query)).status).toBe(200);
    expect(s.state.used(DEFAULT_ACCOUNT_ID, 'retrieval')).toBe(1);
    expect((await get(s, query)).status).toBe(200);
    expect(s.state.used(DEFAULT_ACCOUNT_ID, 'retrieval')).toBe(2);
    const head = await get(s, query, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(s.state.used(DEFAULT_ACCOUNT_ID, 'retrieval')).toBe(2);
    // Searches are counted apart.
    expect(s.state.used(DEFAULT_ACCOUNT_ID, 'search')).toBe(0);
  });

  it('answers 429 monthly_quota_exceeded once the retrieval quota is used up, HEAD too, without counting more', async () => {
    const s = await server(1);
    const query = { document_id: LAW.document_id, collection: LAW_COLLECTION };
    expect((await get(s, query, 'HEAD')).status).toBe(200);
    expect((await get(s, query)).status).toBe(200);
    expect(expectError(await get(s, query), 429, 'monthly_quota_exceeded')).toMatch(/retrieval quota of 1/);
    expect((await get(s, query, 'HEAD')).status).toBe(429);
    expect(s.state.used(DEFAULT_ACCOUNT_ID, 'retrieval')).toBe(1);
    // A bad request or an unknown document is still told apart from the quota.
    expectError(await get(s, { document_id: 'test-nothing', collection: LAW_COLLECTION }), 404, 'not_found');
    expectError(await get(s, `collection=${LAW_COLLECTION}`), 400, 'invalid_request');
  });

  it('needs an API key', async () => {
    const s = await server();
    const reply = await request(s.baseUrl, 'GET', `/v1/documents?document_id=${LAW.document_id}&collection=${LAW_COLLECTION}`);
    expectError(reply, 401, 'missing_api_key');
    expect(s.state.used(DEFAULT_ACCOUNT_ID, 'retrieval')).toBe(0);
  });
});
