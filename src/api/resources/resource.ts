/** What every resource shares: the transport it sends through, and per-call options. */
import type { Transport } from '../transport.js';

/** Per-call options of every resource method. */
export interface CallOptions {
  /** Aborts the request (Ctrl-C); the promise then rejects with `CancelledError`. */
  signal?: AbortSignal;
  /** Total timeout of this call (per try), in milliseconds; default the endpoint's or the client's. */
  timeoutMs?: number;
}

/** Base of the resource classes (one per endpoint family, in the manner of openai-node). */
export abstract class Resource {
  protected readonly transport: Transport;
  constructor(transport: Transport) {
    this.transport = transport;
  }
}
