/** Key management (spec: Key and account endpoints): user-session token, bodies not shown (any JSON object). */
import { parseObject, parseObjectOrEmpty } from '../shapes.js';
import type { ApiResponse } from '../transport.js';
import { PATHS } from '../../contract/paths.js';
import { Resource, type CallOptions } from './resource.js';

/** Body of `POST /v1/keys`. */
export interface KeyCreateParams {
  name: string;
  [key: string]: unknown;
}

export class Keys extends Resource {
  /** `POST /v1/keys` (200 or 201): the new key, whose full value is shown this once. Never retried. */
  create(body: KeyCreateParams, options: CallOptions = {}): Promise<ApiResponse<Record<string, unknown>>> {
    return this.transport.request({
      method: 'POST',
      path: PATHS.keys,
      body,
      auth: 'session',
      expect: [200, 201],
      signal: options.signal,
      timeoutMs: options.timeoutMs,
      parse: parseObject,
    });
  }

  /** `GET /v1/keys`: the keys, never their secrets. */
  list(options: CallOptions = {}): Promise<ApiResponse<Record<string, unknown>>> {
    return this.transport.request({
      method: 'GET',
      path: PATHS.keys,
      auth: 'session',
      signal: options.signal,
      timeoutMs: options.timeoutMs,
      parse: parseObject,
    });
  }

  /** `POST /v1/keys/{key_id}/revoke` (200 or 204): the key is rejected with `revoked_api_key` afterwards. Never retried. */
  revoke(key_id: string, options: CallOptions = {}): Promise<ApiResponse<Record<string, unknown>>> {
    return this.transport.request({
      method: 'POST',
      path: PATHS.keyRevoke,
      params: { key_id },
      auth: 'session',
      expect: [200, 204],
      signal: options.signal,
      timeoutMs: options.timeoutMs,
      parse: parseObjectOrEmpty,
    });
  }
}
