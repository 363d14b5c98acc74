/** Account management (spec: Key and account endpoints): user-session token, bodies not shown (any JSON object). */
import { parseObject, parseObjectOrEmpty } from '../shapes.js';
import type { ApiResponse } from '../transport.js';
import { PATHS } from '../../contract/paths.js';
import type { OverageUpdateRequest } from '../../contract/types.js';
import { Resource, type CallOptions } from './resource.js';

export class Account extends Resource {
  /** `GET /v1/account`: account data, including the overage setting and its monthly limit. */
  retrieve(options: CallOptions = {}): Promise<ApiResponse<Record<string, unknown>>> {
    return this.transport.request({
      method: 'GET',
      path: PATHS.account,
      auth: 'session',
      signal: options.signal,
      timeoutMs: options.timeoutMs,
      parse: parseObject,
    });
  }

  /**
   * `PATCH /v1/account/overages` (200 or 204): whether extra consumption is allowed and its monthly limit (field names
   * not shown; the sandbox's `{allowed, monthly_limit}`, see `OverageUpdateRequest`). Never retried.
   */
  updateOverages(body: OverageUpdateRequest, options: CallOptions = {}): Promise<ApiResponse<Record<string, unknown>>> {
    return this.transport.request({
      method: 'PATCH',
      path: PATHS.accountOverages,
      body,
      auth: 'session',
      expect: [200, 204],
      signal: options.signal,
      timeoutMs: options.timeoutMs,
      parse: parseObjectOrEmpty,
    });
  }
}
