/** Reading JSON request bodies. */
import type http from 'node:http';
import { ERROR_CODES } from '../../contract/errors.js';
import { ClientAbortError, HttpError } from './errors.js';

/** Largest request body accepted, in bytes (1 MiB). */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Reads and parses the JSON body of `request`, at most {@link MAX_BODY_BYTES} bytes (UTF-8). An oversized body is
 * still drained (discarded), so that the 413 response reaches the client instead of a reset connection.
 * @throws HttpError 413 `invalid_request` when the body (or its declared `content-length`) is larger; 400
 *   `invalid_request` when it is not valid JSON (an empty body included); ClientAbortError when the client goes away
 *   before the body is complete (the stream errs, or closes without ending, or already did).
 */
export function readJsonBody(request: http.IncomingMessage): Promise<unknown> {
  const tooLarge = (): HttpError =>
    new HttpError(413, ERROR_CODES.invalidRequest, `The request body exceeds ${MAX_BODY_BYTES} bytes.`);
  return new Promise((resolve, reject) => {
    if (Number(request.headers['content-length'] ?? 0) > MAX_BODY_BYTES) {
      request.resume();
      reject(tooLarge());
      return;
    }
    if (request.destroyed && !request.complete) {
      reject(new ClientAbortError());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    request.on('data', (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        over = true;
        chunks.length = 0;
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    });
    // A client that goes away mid-body: 'error' ("aborted", ECONNRESET), or 'close' without 'end'. Later settlements
    // of the promise are ignored.
    request.once('error', () => reject(new ClientAbortError()));
    request.once('close', () => {
      if (!request.complete) reject(new ClientAbortError());
    });
    request.once('end', () => {
      if (over) return;
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        reject(new HttpError(400, ERROR_CODES.invalidRequest, 'The request body is not valid JSON.'));
      }
    });
  });
}
