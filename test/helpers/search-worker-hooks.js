// A search worker for tests (see search-pool.ts): the built worker, dist/sandbox/search/worker.js, with hooks a test
// triggers by the query it sends. Plain JavaScript, because worker threads run JavaScript, not the TypeScript sources.
//
// - `crash: throw`: an uncaught error in the worker (the thread ends; the pool sees an 'error', then an 'exit');
// - `crash: exit`: process.exit(3) in the worker (the thread ends with code 3);
// - `block TOKEN …`: the worker posts {token: TOKEN, latch} (latch: a SharedArrayBuffer of one Int32) on the
//   BroadcastChannel HOOKS_CHANNEL, then blocks, synchronously, as a long SQLite query would (Atomics.wait), until the
//   test sets the latch to 1 and notifies it; then it searches the query as usual.
// Any other query is searched as usual.
import { BroadcastChannel, parentPort } from 'node:worker_threads';

/** The channel of the `block` hook; the same name as in search-pool.ts. */
const HOOKS_CHANNEL = 'pravo-test-search-worker-hooks';

const channel = new BroadcastChannel(HOOKS_CHANNEL);
channel.unref();

// Registered before the built worker's own listener (loaded below), so that a hook runs before the search. A crash
// stops the event there: an error a listener throws is reported after the other listeners ran, and the built worker
// would have answered first.
parentPort.addEventListener('message', (event) => {
  const { request } = event.data;
  if (request.query === 'crash: throw') {
    event.stopImmediatePropagation();
    throw new Error('a crash the test asked for');
  }
  if (request.query === 'crash: exit') process.exit(3);
  const block = /^block (\w+)/.exec(request.query);
  if (block) {
    const latch = new SharedArrayBuffer(4);
    channel.postMessage({ token: block[1], latch });
    Atomics.wait(new Int32Array(latch), 0, 0);
  }
});

await import('../../dist/sandbox/search/worker.js');
