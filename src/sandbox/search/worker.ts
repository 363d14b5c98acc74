/**
 * Entry module of a search worker thread (see `pool.ts`; run from the built `dist/sandbox/search/worker.js`). At start
 * it opens the index file named in its `workerData` ({@link WorkerStart}) read-only, with a connection of its own
 * (`openIndexFile`), loads the search's metadata (`prepareSearch`, about 0.1 s on the full corpus) and posts
 * `{type: "ready"}`. Then, for each {@link SearchJobMessage} from the pool, one at a time, it runs `search(index,
 * request)` and posts the response, or the error as a `WorkerError`. A failure to open the index is thrown: the
 * thread ends with it, and the pool sees the error. Loaded anywhere but in a worker thread, it throws.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openIndexFile } from '../corpus/index-db.js';
import { prepareSearch, search } from './pipeline.js';
import { toWorkerError, type SearchJobMessage, type WorkerMessage, type WorkerStart } from './worker-messages.js';

if (!parentPort) throw new Error('search/worker.js is the entry module of a search worker thread (see search/pool.ts)');
const port = parentPort;
const start = workerData as WorkerStart;
const index = openIndexFile(start.path, { inputsKey: start.inputsKey });
prepareSearch(index);
port.on('message', ({ id, request }: SearchJobMessage) => {
  let message: WorkerMessage;
  try {
    message = { type: 'result', id, response: search(index, request) };
  } catch (error) {
    message = { type: 'failure', id, error: toWorkerError(error) };
  }
  port.postMessage(message);
});
port.postMessage({ type: 'ready' } satisfies WorkerMessage);
