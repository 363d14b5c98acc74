/**
 * A made-up key and account service for command tests: the five session endpoints and `GET /v1/usage`, in the
 * sandbox's shapes (README "Sandbox: keys and account"), over in-memory keys, on a loopback recording server. A
 * `fault` hook answers chosen requests otherwise (a 500, a refusal), after or instead of doing their work.
 */
import { recordingServer, type Recorded } from './recording-server.js';

/** The session token the service accepts; anything else is `invalid_session_token`. */
export const SESSION = 'sbx_sess_TESTSESSIONabcdefghijklmnopqrstu';

/** A key record with its secret, as the fake service keeps it. */
export interface FakeKey {
  key_id: string;
  name: string;
  prefix: string;
  plan: string;
  status: 'active' | 'revoked';
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  secret: string;
}

/** What a fault does: answer `status`/`body` instead of the endpoint; with `after`, do the endpoint's work first. */
export interface Fault {
  status: number;
  body: string;
  after?: boolean;
}

/** The fake service: its URL, what it received, its keys and account, and the fault hook. */
export interface KeysService {
  url: string;
  requests: Recorded[];
  keys: FakeKey[];
  account: { allowed: boolean; monthly_limit: number };
  fault: ((request: Recorded) => Fault | undefined) | undefined;
  /** Adds an active key; returns it. */
  addKey(name: string): FakeKey;
  close(): Promise<void>;
}

const json = (status: number, value: unknown) => ({ status, body: JSON.stringify(value) });
const error = (status: number, code: string, message: string) => json(status, { error: { code, message } });
const record = ({ secret: _secret, ...rest }: FakeKey) => rest;

/** Starts the fake service on a free loopback port. */
export async function keysService(): Promise<KeysService> {
  let counter = 0;
  const service: Omit<KeysService, 'url' | 'requests' | 'close'> = {
    keys: [],
    account: { allowed: false, monthly_limit: 0 },
    fault: undefined,
    addKey(name) {
      counter++;
      const random = `${String(counter).padStart(4, '0')}${'x'.repeat(28)}`;
      const key: FakeKey = {
        key_id: `key_${String(counter).padStart(12, '0')}`,
        name,
        prefix: `sbx_live_${random.slice(0, 4)}`,
        plan: 'sandbox',
        status: 'active',
        created_at: new Date(Date.UTC(2026, 10, 22, 10, 0, counter)).toISOString(),
        last_used_at: null,
        revoked_at: null,
        secret: `sbx_live_${random}`,
      };
      service.keys.push(key);
      return key;
    },
  };
  const handle = (request: Recorded): { status: number; body: string } => {
    const path = request.url.split('?')[0]!;
    if (path === '/v1/usage') {
      const key = service.keys.find((k) => k.secret === request.headers['x-api-key']);
      if (!key) return error(401, 'invalid_api_key', 'The API key is malformed or unknown.');
      if (key.status === 'revoked') return error(401, 'revoked_api_key', 'This API key has been revoked.');
      return json(200, { period: { start: '2026-11-01T00:00:00.000Z', end: '2026-12-01T00:00:00.000Z', month: '2026-11' }, quotas: {}, overage: { allowed: false, limit: 0, used: 0 } });
    }
    if (request.headers.authorization !== `Bearer ${SESSION}`) {
      return request.headers.authorization ? error(401, 'invalid_session_token', 'The session token is unknown.') : error(401, 'missing_session_token', 'No session token.');
    }
    if (path === '/v1/keys' && request.method === 'GET') return json(200, { keys: service.keys.map(record) });
    if (path === '/v1/keys' && request.method === 'POST') {
      const { name } = JSON.parse(request.body) as { name: string };
      const key = service.addKey(name);
      return json(201, { ...record(key), api_key: key.secret });
    }
    const revoke = /^\/v1\/keys\/([^/]+)\/revoke$/.exec(path);
    if (revoke && request.method === 'POST') {
      const key = service.keys.find((k) => k.key_id === decodeURIComponent(revoke[1]!));
      if (!key) return error(404, 'not_found', 'No key has this key_id on this account.');
      if (key.status === 'active') Object.assign(key, { status: 'revoked', revoked_at: '2026-11-22T11:00:00.000Z' });
      return json(200, record(key));
    }
    const accountBody = () => ({
      account_id: 'acct_test',
      plan: 'sandbox',
      overage: { ...service.account },
      unit_prices: { currency: 'EUR', search: 0.02, retrieval: 0.01, answers: 0.25 },
      created_at: '2026-11-01T00:00:00.000Z',
    });
    if (path === '/v1/account' && request.method === 'GET') return json(200, accountBody());
    if (path === '/v1/account/overages' && request.method === 'PATCH') {
      const body = JSON.parse(request.body) as { allowed: boolean; monthly_limit?: number };
      service.account = { allowed: body.allowed, monthly_limit: body.allowed ? (body.monthly_limit ?? 0) : 0 };
      return json(200, accountBody());
    }
    return error(404, 'not_found', `No endpoint at ${path}.`);
  };
  const server = await recordingServer((request) => {
    const fault = service.fault?.(request);
    if (fault && !fault.after) return fault;
    const answer = handle(request);
    return fault ?? answer;
  });
  return Object.assign(service, { url: server.url, requests: server.requests, close: server.close }) as KeysService;
}
