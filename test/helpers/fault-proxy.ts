/**
 * A loopback HTTP proxy in front of a real server that misbehaves on chosen requests, for end-to-end tests of what
 * pravo does when a step fails or is interrupted: it forwards, answers instead, holds a request without sending it on,
 * or sends it on and holds the answer (the server did the work; the client never hears of it). A held exchange is
 * reported through `onHeld`, so a test can kill the client at exactly that moment, without timing.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as the proxy sees it. */
export interface ProxiedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
}

/**
 * What the proxy does with a request: `forward` it; `hold-request` (never sent on, never answered); `hold-response`
 * (sent on, its answer kept back, never answered); or answer `{status, body}` itself without sending it on.
 */
export type ProxyAction = 'forward' | 'hold-request' | 'hold-response' | { status: number; body: string };

/** A running proxy. */
export interface FaultProxy {
  url: string;
  /** Decides per request; default: forward everything. May be replaced at any time. */
  rule: (request: ProxiedRequest) => ProxyAction;
  /** Called when an exchange is held (after the server answered, for `hold-response`). */
  onHeld: (request: ProxiedRequest) => void;
  close(): Promise<void>;
}

/** Starts a proxy to `target` (a base URL such as `http://127.0.0.1:PORT`) on a free loopback port. */
export async function faultProxy(target: string): Promise<FaultProxy> {
  const proxy: Omit<FaultProxy, 'url' | 'close'> = { rule: () => 'forward', onHeld: () => {} };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: ProxiedRequest = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers };
      const action = proxy.rule(request);
      if (action === 'hold-request') {
        proxy.onHeld(request);
        return;
      }
      if (typeof action === 'object') {
        res.writeHead(action.status, { 'content-type': 'application/json' });
        res.end(action.body);
        return;
      }
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (typeof value === 'string' && !['host', 'connection', 'content-length', 'transfer-encoding'].includes(name)) headers[name] = value;
      }
      const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
      void fetch(`${target}${request.url}`, { method: request.method, headers, ...(body && request.method !== 'GET' ? { body } : {}) })
        .then(async (response) => {
          const text = await response.text();
          if (action === 'hold-response') {
            proxy.onHeld(request);
            return;
          }
          res.writeHead(response.status, { 'content-type': response.headers.get('content-type') ?? 'application/json' });
          res.end(text);
        })
        .catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(proxy, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  }) as FaultProxy;
}
