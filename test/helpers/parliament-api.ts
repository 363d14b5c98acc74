/**
 * A loopback stand-in for the National Assembly's public act API (`GET /api/v1/act/N`), serving the ten real payloads
 * of `../shared/corpus/parliament-api/` (read at run time, never copied into the repository), with faults per act id:
 * statuses in turn (429 then 200, 500 for ever, 404, with a `Retry-After`), or a response held until the server closes.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** `../shared/corpus/parliament-api`, relative to the repository root. */
export const PAYLOADS = fileURLToPath(new URL('../../../shared/corpus/parliament-api', import.meta.url));

/** The ids of the ten payloads, in numeric order. */
export const PAYLOAD_IDS = [15565, 77744, 78098, 78179, 163477, 164632, 165829, 165848, 165936, 166496];

/**
 * How the server answers one act id: `statuses` in turn, the last one repeating (200 serves the payload; anything else
 * a short text body, with `Retry-After` when `retryAfter` gives one, from the server's `now`), or `hold`: never answer.
 * An id without a behaviour is served; an id without a payload file is 404.
 */
export type Behaviour = { statuses: number[]; retryAfter?: (now: number) => string } | 'hold';

/** A running fake API. */
export interface FakeApi {
  baseUrl: string;
  /** Requests per act id (of ids that have a payload). */
  hits: Map<number, number>;
  /** Every request's path and User-Agent, in order. */
  requests: { path: string; userAgent: string | undefined }[];
  /** Resolves once the server has received a request for act `id` (at once when it has already). */
  requested(id: number): Promise<void>;
  close(): Promise<void>;
}

/** Starts a fake API on 127.0.0.1 and a free port. */
export async function startFakeParliamentApi(behaviours: Record<number, Behaviour> = {}, now: () => number = Date.now): Promise<FakeApi> {
  const hits = new Map<number, number>();
  const requests: FakeApi['requests'] = [];
  const held: http.ServerResponse[] = [];
  const waiting = new Map<number, (() => void)[]>();
  const server = http.createServer((req, res) => {
    requests.push({ path: req.url ?? '', userAgent: req.headers['user-agent'] });
    const match = /^\/api\/v1\/act\/(\d+)$/.exec(req.url ?? '');
    const file = match ? path.join(PAYLOADS, `${match[1]}.json`) : '';
    if (!match || !fs.existsSync(file)) {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
      return;
    }
    const id = Number(match[1]);
    const n = (hits.get(id) ?? 0) + 1;
    hits.set(id, n);
    for (const resolve of waiting.get(id) ?? []) resolve();
    waiting.delete(id);
    const behaviour = behaviours[id];
    if (behaviour === 'hold') {
      held.push(res);
      return;
    }
    const status = behaviour ? behaviour.statuses[Math.min(n, behaviour.statuses.length) - 1]! : 200;
    if (status !== 200) {
      const headers: http.OutgoingHttpHeaders = { 'content-type': 'text/plain' };
      if (behaviour?.retryAfter) headers['retry-after'] = behaviour.retryAfter(now());
      res.writeHead(status, headers).end(`status ${status}`);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let closed = false;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    hits,
    requests,
    requested: (id) =>
      hits.has(id)
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            waiting.set(id, [...(waiting.get(id) ?? []), resolve]);
          }),
    close: async () => {
      if (closed) return;
      closed = true;
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
