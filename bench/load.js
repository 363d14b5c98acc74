// Load benchmark of `pravo sandbox serve` (issue "searches off the event loop"): search throughput and latency under
// concurrent clients, the slowest of a set of adversarial queries, and the latency of the other endpoints (catalog,
// usage, documents, keys) while 16 clients search. Not part of the tests: timings depend on the machine.
//
// `runLoad` is called by bench/run.js; `node bench/load.js [SERVE OPTIONS…]` runs it alone (after `npm run build`),
// passing any arguments to `pravo sandbox serve` (e.g. `--search-workers 0` for searches on the event loop). Alone it
// reads the corpus from PRAVO_BENCH_CORPUS, else PRAVO_SANDBOX_CORPUS, else ../shared/corpus, and keeps the index and
// state in PRAVO_SANDBOX_DATA_DIR (reusing an index built there), else in a temporary directory (building the index
// first: a few minutes on the full corpus) removed at the end.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { stopwords } from '@orama/stopwords/bulgarian';
import { Agent, request } from 'undici';
import { adversarialQueries, QUERIES } from './queries.js';

/** Concurrent clients of the throughput levels. */
const LEVELS = [1, 4, 16];
/** Searches per level, after the warm-up. */
const REQUESTS_PER_LEVEL = 300;
/** Runs of each adversarial query; its time is the median. */
const ADVERSARIAL_RUNS = 3;
/** Requests per non-search endpoint while 16 clients search. */
const PROBES = 60;
/** Goals of the issue, in ms. */
const NON_SEARCH_P95_GOAL_MS = 20;
const QUERY_GOAL_MS = 150;

/** The p-th percentile (nearest rank) of `values`, in their unit. */
export function percentile(values, p) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.max(0, Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1))];
}

function median(values) {
  return percentile(values, 50);
}

/**
 * Starts `pravo sandbox serve --port 0 ARGS…` and waits for its ready line.
 * @returns `{child, ready, ms, log}`: the process, the parsed ready line, ms to it, and a function returning stderr so far.
 * @throws Error with the server's stderr when it exits before the ready line.
 */
export async function startServe(cli, args, env) {
  const started = performance.now();
  const child = spawn(process.execPath, [cli, 'sandbox', 'serve', '--port', '0', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const line = await new Promise((resolve, reject) => {
    readline.createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`sandbox serve exited ${code}: ${stderr}`)));
  });
  return { child, ready: JSON.parse(line), ms: performance.now() - started, log: () => stderr };
}

/** Sends SIGTERM to a server of {@link startServe} and waits for it to exit. */
export function stopServe(child) {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });
}

/**
 * A client of one running sandbox: `send(method, path, body?, credential?)` resolves with the response's status and
 * the time in ms from sending to the whole body read; a status other than 200 is an error (with the body).
 */
function clientOf(ready, dispatcher) {
  const send = async (method, pathname, body, credential = 'key') => {
    const headers =
      credential === 'session' ? { authorization: `Bearer ${ready.session_token}` } : { 'x-api-key': ready.api_key };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const started = performance.now();
    const response = await request(`${ready.base_url}${pathname}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      dispatcher,
    });
    const text = await response.body.text();
    const ms = performance.now() - started;
    if (response.statusCode !== 200) throw new Error(`${method} ${pathname}: ${response.statusCode} ${text.slice(0, 300)}`);
    return { ms, text };
  };
  return { send, search: (query) => send('POST', '/v1/search', { query }) };
}

/**
 * `total` searches over {@link QUERIES} (in turn) by `clients` concurrent clients, each sending its next search when
 * the previous one is answered.
 * @returns the latency of each search (ms) and the wall time of all (ms).
 */
async function searchLoad(client, clients, total, stop) {
  let next = 0;
  const latencies = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (stop ? !stop() : next < total) {
        const i = next++;
        latencies.push((await client.search(QUERIES[i % QUERIES.length])).ms);
      }
    }),
  );
  return { latencies, wallMs: performance.now() - started };
}

/**
 * Measures a running sandbox (see the module's comment) and reports each figure through `report(name, value, goal,
 * met)` (bench/run.js's signature: `met` undefined for a figure without a pass/fail goal).
 * @param options.cli path of bin/pravo.js; `corpus` the corpus path (file or directory) given to `--corpus`;
 *   `dataDir` the data directory (an index of `corpus` there is reused, else built before the ready line); `env` the
 *   server's environment; `serveArgs` more options of `pravo sandbox serve` (e.g. `['--search-workers', '0']`).
 * @returns the rows reported, `{name, value, goal, met}`.
 */
export async function runLoad({ cli, corpus, dataDir, env, report, serveArgs = [] }) {
  const rows = [];
  const say = (name, value, goal, met) => {
    rows.push({ name, value, goal, met });
    report(name, value, goal, met);
  };
  const { child, ready, ms } = await startServe(
    cli,
    ['--corpus', corpus, '--data-dir', dataDir, '--quota', 'search=unlimited,retrieval=unlimited', ...serveArgs],
    env,
  );
  // Enough connections for 16 searching clients and the probes, kept alive for the whole run.
  const dispatcher = new Agent({ connections: 32, keepAliveTimeout: 30_000 });
  try {
    say('load: serve start (to ready line)', `${ms.toFixed(0)} ms${serveArgs.length ? ` (${serveArgs.join(' ')})` : ''}`, 'reported');
    const client = clientOf(ready, dispatcher);
    // Warm-up: every query once, then every connection of the largest level once.
    for (const query of QUERIES) await client.search(query);
    await searchLoad(client, Math.max(...LEVELS), Math.max(...LEVELS) * 2);

    // (a) Throughput and latency by concurrency.
    for (const clients of LEVELS) {
      const { latencies, wallMs } = await searchLoad(client, clients, REQUESTS_PER_LEVEL);
      say(
        `load: searches at ${clients} client${clients === 1 ? '' : 's'}`,
        `${((latencies.length * 1000) / wallMs).toFixed(0)}/s, p50 ${percentile(latencies, 50).toFixed(1)} ms, p95 ${percentile(latencies, 95).toFixed(1)} ms`,
        'reported',
      );
    }

    // (b) Adversarial queries, each alone.
    const timed = [];
    for (const { name, query } of adversarialQueries(stopwords)) {
      await client.search(query);
      const times = [];
      for (let r = 0; r < ADVERSARIAL_RUNS; r++) times.push((await client.search(query)).ms);
      timed.push({ name, ms: median(times) });
    }
    timed.sort((a, b) => b.ms - a.ms);
    const worst = timed[0];
    say('load: slowest adversarial query, alone', `${worst.ms.toFixed(0)} ms (${worst.name})`, `< ${QUERY_GOAL_MS} ms`, worst.ms < QUERY_GOAL_MS);
    say('load: adversarial queries (median of 3)', timed.map((t) => `${t.name} ${t.ms.toFixed(0)} ms`).join('; '), 'reported');

    // (c) Other endpoints while 16 clients search: each probe sent alone, one after another.
    const { results } = JSON.parse((await client.search(QUERIES[1])).text);
    const document = results[0];
    const probes = [
      { name: 'GET /v1/catalog/source-types', method: 'GET', path: '/v1/catalog/source-types' },
      { name: 'GET /v1/usage', method: 'GET', path: '/v1/usage' },
      {
        name: 'GET /v1/documents',
        method: 'GET',
        path: `/v1/documents?document_id=${encodeURIComponent(document.document_id)}&collection=${encodeURIComponent(document.collection)}`,
      },
      { name: 'GET /v1/keys (session)', method: 'GET', path: '/v1/keys', credential: 'session' },
    ];
    // Each endpoint alone first: what it costs without searches around it.
    const aloneTimes = probes.map(() => []);
    for (let r = 0; r < PROBES; r++) {
      for (const [i, probe] of probes.entries()) {
        aloneTimes[i].push((await client.send(probe.method, probe.path, undefined, probe.credential)).ms);
      }
    }
    const probeTimes = probes.map(() => []);
    let probing = true;
    const load = searchLoad(client, 16, Infinity, () => !probing);
    try {
      // Let the 16 clients fill the server's queue first.
      await new Promise((resolve) => setTimeout(resolve, 200));
      for (let r = 0; r < PROBES; r++) {
        for (const [i, probe] of probes.entries()) {
          probeTimes[i].push((await client.send(probe.method, probe.path, undefined, probe.credential)).ms);
        }
      }
    } finally {
      probing = false;
    }
    const { latencies, wallMs } = await load;
    say(
      'load: searches during the probes (16 clients)',
      `${((latencies.length * 1000) / wallMs).toFixed(0)}/s, p95 ${percentile(latencies, 95).toFixed(1)} ms`,
      'reported',
    );
    for (const [i, probe] of probes.entries()) {
      const p95 = percentile(probeTimes[i], 95);
      say(
        `load: ${probe.name} p95 under search load`,
        `${p95.toFixed(1)} ms (p50 ${percentile(probeTimes[i], 50).toFixed(1)}, max ${Math.max(...probeTimes[i]).toFixed(1)}; ` +
          `alone p95 ${percentile(aloneTimes[i], 95).toFixed(1)})`,
        `≤ ${NON_SEARCH_P95_GOAL_MS} ms`,
        p95 <= NON_SEARCH_P95_GOAL_MS,
      );
    }

    // (d) The catalog while the slowest adversarial query runs on 2 clients: does one expensive search stall the rest?
    const slow = adversarialQueries(stopwords).find((q) => q.name === worst.name).query;
    let stalling = true;
    const slowLoad = Promise.all(
      [0, 1].map(async () => {
        while (stalling) await client.search(slow);
      }),
    );
    const catalogTimes = [];
    try {
      await new Promise((resolve) => setTimeout(resolve, 100));
      for (let r = 0; r < PROBES; r++) catalogTimes.push((await client.send('GET', '/v1/catalog/source-types')).ms);
    } finally {
      stalling = false;
    }
    await slowLoad;
    say(
      'load: catalog p95 while 2 clients send the slowest query',
      `${percentile(catalogTimes, 95).toFixed(1)} ms (max ${Math.max(...catalogTimes).toFixed(1)})`,
      `≤ ${NON_SEARCH_P95_GOAL_MS} ms`,
      percentile(catalogTimes, 95) <= NON_SEARCH_P95_GOAL_MS,
    );
  } finally {
    await dispatcher.close();
    await stopServe(child);
  }
  return rows;
}

/** `node bench/load.js [SERVE OPTIONS…]`: see the module's comment. */
async function main() {
  const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const cli = path.join(repo, 'bin', 'pravo.js');
  if (!fs.existsSync(path.join(repo, 'dist', 'cli.js'))) throw new Error('Build first: npm run build');
  const corpus = process.env.PRAVO_BENCH_CORPUS ?? process.env.PRAVO_SANDBOX_CORPUS ?? path.resolve(repo, '..', 'shared', 'corpus');
  if (!fs.existsSync(corpus)) throw new Error(`No corpus at ${corpus} (set PRAVO_BENCH_CORPUS)`);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'pravo-load-'));
  const dataDir = process.env.PRAVO_SANDBOX_DATA_DIR ?? path.join(work, 'data');
  const env = { ...process.env, PRAVO_CONFIG_DIR: path.join(work, 'config') };
  for (const key of ['PRAVO_PROFILE', 'PRAVO_BASE_URL', 'PRAVO_API_KEY', 'PRAVO_SANDBOX_CORPUS', 'PRAVO_SANDBOX_DATA_DIR']) delete env[key];
  console.log(`pravo load bench: node ${process.version}, ${os.availableParallelism()} CPUs, corpus ${corpus}, data ${dataDir}\n`);
  const report = (name, value, goal, met) =>
    console.log(`${name.padEnd(56)} ${value.padEnd(44)} goal: ${goal}${met === undefined ? '' : met ? '  ✓' : '  ✗ not met'}`);
  try {
    const rows = await runLoad({ cli, corpus, dataDir, env, report, serveArgs: process.argv.slice(2) });
    const missed = rows.filter((r) => r.met === false);
    console.log(`\n${missed.length === 0 ? 'All goals met.' : `Goals not met: ${missed.map((r) => r.name).join('; ')}`}`);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(`load bench failed: ${error.message}`);
    process.exitCode = 1;
  });
}
