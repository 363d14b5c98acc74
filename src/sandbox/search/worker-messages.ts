/**
 * The messages between the search pool (`pool.ts`) and its worker threads (`worker.ts`), and how a search's error
 * crosses threads. Types and pure functions only: importing this module starts nothing.
 */
import type { SearchRequest, SearchResponse } from '../../contract/types.js';
import { SearchRequestError } from './source-types.js';

/** The `workerData` of a search worker: the index to open. */
export interface WorkerStart {
  /** The index file (`SearchIndex.path`). */
  path: string;
  /** The inputs key the file must carry (`SearchIndex.inputsKey`), so that a worker never searches another index. */
  inputsKey: string;
}

/** A search sent to a worker: `id` (the pool's, unique per pool) comes back with its answer. */
export interface SearchJobMessage {
  id: number;
  request: SearchRequest;
}

/**
 * An error of `search` as it crosses threads: `request` for a `SearchRequestError` (re-created as one on the other
 * side), `error` for any other (its name, message, stack, and the `code`, `errcode` and `errstr` of a SQLite error).
 */
export type WorkerError =
  | { kind: 'request'; field: keyof SearchRequest; message: string }
  | { kind: 'error'; name: string; message: string; stack?: string; code?: string; errcode?: number; errstr?: string };

/** What a worker posts to the pool. */
export type WorkerMessage =
  | { type: 'ready' }
  | { type: 'result'; id: number; response: SearchResponse }
  | { type: 'failure'; id: number; error: WorkerError };

/** `error` as a {@link WorkerError}. */
export function toWorkerError(error: unknown): WorkerError {
  if (error instanceof SearchRequestError) return { kind: 'request', field: error.field, message: error.message };
  if (!(error instanceof Error)) return { kind: 'error', name: 'Error', message: String(error) };
  const { code, errcode, errstr } = error as Error & { code?: unknown; errcode?: unknown; errstr?: unknown };
  return {
    kind: 'error',
    name: error.name,
    message: error.message,
    ...(error.stack !== undefined ? { stack: error.stack } : {}),
    ...(typeof code === 'string' ? { code } : {}),
    ...(typeof errcode === 'number' ? { errcode } : {}),
    ...(typeof errstr === 'string' ? { errstr } : {}),
  };
}

/**
 * The error a {@link WorkerError} stands for, on the receiving thread: a `SearchRequestError` with the same field and
 * message, or an Error with the same name, message, stack and SQLite fields.
 */
export function fromWorkerError(error: WorkerError): Error {
  if (error.kind === 'request') return new SearchRequestError(error.field, error.message);
  const { kind: _kind, name, message, stack, ...fields } = error;
  const revived = Object.assign(new Error(message), fields);
  revived.name = name;
  if (stack !== undefined) revived.stack = stack;
  return revived;
}
