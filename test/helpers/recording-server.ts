/** A loopback HTTP server that records what the CLI sends, for unit, command and end-to-end tests. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the recording server received. */
export interface Recorded {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * A loopback HTTP server that records every request and answers with `respond` (default: 200 and an empty search
 * response). For proving what the CLI sends, and that it sends nothing.
 */
export async function recordingServer(
  respond: (request: Recorded) => { status: number; body: string; headers?: Record<string, string> } = () => ({
    status: 200,
    body: JSON.stringify({ query: 'x', result_count: 0, results: [] }),
  }),
): Promise<{ url: string; requests: Recorded[]; close: () => Promise<void> }> {
  const requests: Recorded[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(recorded);
      const { status, body, headers } = respond(recorded);
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

