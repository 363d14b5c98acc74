/**
 * `GET /v1/catalog/judges`: the catalog over the real decisions and courts of `../shared/corpus/` (read at run time),
 * its query checks, and the route on a running sandbox over the real decisions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUOTA_KINDS, type JudgesResponse } from '../../../src/contract/types.js';
import { openIndex } from '../../../src/sandbox/corpus/index-db.js';
import type { SearchIndex } from '../../../src/sandbox/storage.js';
import { HttpError } from '../../../src/sandbox/http/errors.js';
import { judgesResponse } from '../../../src/sandbox/routes/judges.js';
import { DECISIONS_PATH, readRealCourts, readRealDecisions } from '../../helpers/real-corpus.js';
import { DEFAULT_ACCOUNT_ID } from '../../../src/sandbox/state/store.js';
import { tempDir } from '../fixtures.js';
import { expectError, request, startTestServer, type TestServer } from '../http/harness.js';

const courts = readRealCourts();
const decisions = readRealDecisions();

/** The catalog for a query string over the real courts and decisions. */
function catalog(query: string): JudgesResponse {
  return judgesResponse(new URLSearchParams(query), courts, decisions);
}

/** The `invalid_request` message of a query string the catalog refuses. */
function refusal(query: string): string {
  try {
    catalog(query);
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 400, code: 'invalid_request' });
    return (error as HttpError).message;
  }
  throw new Error(`${query} was accepted`);
}

/** `name count latest_date` of each entry. */
const rows = (response: JudgesResponse): string[] => response.judges.map((j) => `${j.name} ${j.decision_count} ${j.latest_date}`);

describe('the judges catalog over the real decisions', () => {
  it('lists the judges of ВКС with their decision counts and latest dates, most decisions first', () => {
    const response = catalog('court=ВКС&limit=100');
    expect(response.court).toEqual({ court_id: 1, name: 'Върховен касационен съд' });
    // Counted by hand from the decision headers: panels (chair first) and reporting judges of the 12 ВКС decisions.
    expect(rows(response)).toEqual([
      'Румен Петров 3 2024-02-15',
      'Валя Рушанова 3 2022-02-14',
      'Даниела Атанасова 3 2020-07-03',
      'Блага Иванова 2 2023-12-20',
      'Жанина Начева 2 2022-04-11',
      'Бисер Троянов 2 2022-03-11',
      'Теодора Стамболова 2 2022-03-11',
      'Мина Топузова 2 2022-02-14',
      'Красимир Харалампиев 2 2018-03-01',
      'Лада Паунова 1 2024-02-15',
      'Христина Михова 1 2024-02-15',
      'Даниел Луков 1 2023-12-20',
      'Красимира Медарова 1 2023-12-20',
      'Биляна Чочева 1 2022-04-11',
      'Надежда Трифонова 1 2022-04-11',
      'Ружена Керанова 1 2020-10-14',
      'Кети Маркова 1 2020-07-03',
      'Мая Цонева 1 2020-07-03',
      'Евелина Стоянова 1 2020-02-10',
      'Невена Грозева 1 2020-02-10',
      'Антоанета Данова 1 2018-03-01',
      'Пламен Томов 1 2015-11-10',
      'Красимир Шекерджиев 1 2015-07-01',
      'Татяна Кънчева 1 2015-05-11',
    ]);
    expect(response.judges.every((j) => j.court_ids.length === 1 && j.court_ids[0] === 1)).toBe(true);
  });

  it('orders equal counts and dates by name in Bulgarian alphabetical order', () => {
    // КС: Орлин Колев sits on 9 acts; five judges on 8 and six on 7, all last on 2026-02-05.
    expect(catalog('court=КС').judges.map((j) => `${j.name} ${j.decision_count}`)).toEqual([
      'Орлин Колев 9',
      'Десислава Атанасова 8',
      'Надежда Джелепова 8',
      'Павлина Панова 8',
      'Сашо Пенов 8',
      'Янаки Стоилов 8',
      'Атанас Семов 7',
      'Борислав Белазелков 7',
      'Галина Тонева 7',
      'Красимир Влахов 7',
      'Невин Фети 7',
      'Соня Янкулова 7',
    ]);
  });

  it('without a court, lists the judges of every court, with the courts each sat in', () => {
    const all = catalog('limit=100');
    expect(all.court).toBeNull();
    expect(all.judges).toHaveLength(59); // the corpus README: 59 distinct names
    expect(all.judges.find((j) => j.name === 'Надежда Джелепова')).toEqual({
      name: 'Надежда Джелепова',
      decision_count: 9,
      latest_date: '2026-02-05',
      court_ids: [0, 2],
    });
    expect(catalog('').judges).toEqual(all.judges.slice(0, 20));
  });

  it('finds judges by name with the judge_name matcher, in either script', () => {
    expect(rows(catalog('search=mihova'))).toEqual(['Христина Михова 1 2024-02-15']);
    expect(rows(catalog('court=ВКС&search=Hristina%20Mihova'))).toEqual(['Христина Михова 1 2024-02-15']);
    expect(catalog('search=Петров').judges.map((j) => j.name)).toEqual(['Румен Петров', 'Жанета Петрова']);
    expect(catalog('court=ВАС&search=Mihova').judges).toEqual([]);
    expect(catalog('search=123').judges).toEqual([]);
  });

  it('ignores an empty or blank search, and unknown parameters', () => {
    const all = catalog('limit=100');
    expect(catalog('search=&limit=100')).toEqual(all);
    expect(catalog('search=%20%20&limit=100&sort=name&page=2')).toEqual(all);
  });

  it('resolves the court by code, abbreviation or approximate name; a court without decisions has no judges', () => {
    expect(catalog('court=2').court).toEqual({ court_id: 2, name: 'Върховен административен съд' });
    expect(catalog('court=в.а.с.').court?.court_id).toBe(2);
    expect(catalog('court=конституционен').court?.court_id).toBe(0);
    expect(catalog('court=СГС')).toEqual({ court: { court_id: 110, name: 'Софийски градски съд' }, judges: [] });
  });

  it('applies limit 1 to 100, default 20', () => {
    // Надежда Джелепова (ВАС and КС) and Орлин Колев (КС) both sat on 9, last on 2026-02-05: Н before О.
    expect(catalog('limit=2').judges.map((j) => j.name)).toEqual(['Надежда Джелепова', 'Орлин Колев']);
    expect(catalog('limit=1').judges.map((j) => j.name)).toEqual(['Надежда Джелепова']);
    expect(catalog('').judges).toHaveLength(20);
    expect(catalog('limit=100').judges).toHaveLength(59);
    expect(catalog('limit=007').judges).toHaveLength(7);
  });
});

describe('the judges catalog refuses', () => {
  it('an ambiguous court, listing the candidates with their codes', () => {
    expect(refusal('court=Върховен%20съд')).toBe(
      'court "Върховен съд" fits 2 courts: Върховен касационен съд (1), Върховен административен съд (2). ' +
        'Give the code of one of them or more of its name.',
    );
    // 27 окръжни съдилища: ten are named, then how many more.
    const many = refusal('court=Окръжен%20съд');
    const listed = /^court "Окръжен съд" fits (\d+) courts: ((?:[^,(]+ \(\d+\), ){9}[^,(]+ \(\d+\)) and (\d+) more\./u.exec(many);
    expect(listed, many).not.toBeNull();
    expect(Number(listed![3])).toBe(Number(listed![1]) - 10);
    expect(listed![2]).toContain('Окръжен съд – Благоевград (120)');
  });

  it('a court that matches none, with suggestions when some are close', () => {
    expect(refusal('court=Марсиански')).toBe('No court matches "Марсиански". GET /v1/catalog/courts lists the courts.');
    expect(refusal('court=Районен%20съд%20Марс')).toMatch(
      /^No court matches "Районен съд Марс"\. Did you mean (?:[^,(]*районен съд[^,(]* \(\d+\), ){2}[^,(]*районен съд[^,(]* \(\d+\)\? GET \/v1\/catalog\/courts lists the courts\.$/iu,
    );
    expect(refusal('court=999')).toMatch(/^No court matches "999"\./);
  });

  it('a blank court', () => {
    expect(refusal('court=%20')).toMatch(/^court is empty: .* or omit it for the judges of every court\.$/);
  });

  it.each(['0', '101', 'x', '', '1.5', '-1', '+5', '1e2', ' 5'])('limit=%j, naming the bounds', (limit) => {
    expect(refusal(`limit=${encodeURIComponent(limit)}`)).toBe(
      `limit must be an integer from 1 to 100 (default 20); got ${JSON.stringify(limit)}.`,
    );
  });

  it('a parameter given twice', () => {
    expect(refusal('limit=5&limit=6')).toBe('The query parameter "limit" is given 2 times; give it once.');
    expect(refusal('court=ВКС&court=ВАС')).toMatch(/"court" is given 2 times/);
  });
});

describe('GET /v1/catalog/judges on a sandbox over the real decisions', () => {
  let index: SearchIndex;
  let sandbox: TestServer;
  let cleanup: () => void;

  beforeAll(async () => {
    const t = tempDir('pravo-judges-route-');
    cleanup = t.cleanup;
    index = await openIndex({ corpusPath: DECISIONS_PATH, dataDir: t.dir });
    sandbox = await startTestServer(t.dir, index);
  });

  afterAll(async () => {
    await sandbox?.close();
    index?.close();
    cleanup?.();
  });

  const get = (query: string, headers: Record<string, string> = { 'x-api-key': sandbox.key }) =>
    request(sandbox.baseUrl, 'GET', `/v1/catalog/judges${query}`, { headers });

  it('answers the judges of a court, found by its abbreviation', async () => {
    const reply = await get(`?court=${encodeURIComponent('ВКС')}&search=${encodeURIComponent('Mihova')}`);
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({
      court: { court_id: 1, name: 'Върховен касационен съд' },
      judges: [{ name: 'Христина Михова', decision_count: 1, latest_date: '2024-02-15', court_ids: [1] }],
    });
  });

  it('lists the judges of every court by default, 20 of them', async () => {
    const reply = await get('');
    expect(reply.status).toBe(200);
    expect((reply.json as unknown as JudgesResponse).court).toBeNull();
    expect((reply.json as unknown as JudgesResponse).judges).toHaveLength(20);
  });

  it('refuses an ambiguous court and a bad limit with invalid_request', async () => {
    const ambiguous = expectError(await get(`?court=${encodeURIComponent('Върховен съд')}`), 400, 'invalid_request');
    expect(ambiguous).toContain('Върховен касационен съд (1), Върховен административен съд (2)');
    expect(expectError(await get('?limit=101'), 400, 'invalid_request')).toContain('from 1 to 100');
  });

  it('needs an API key and spends no quota', async () => {
    expectError(await get('', {}), 401, 'missing_api_key');
    const used = (): number[] => QUOTA_KINDS.map((kind) => sandbox.state.used(DEFAULT_ACCOUNT_ID, kind));
    const before = used();
    expect((await get('?court=1')).status).toBe(200);
    expect(used()).toEqual(before);
  });
});
