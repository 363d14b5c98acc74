/** `GET /v1/usage` (spec: GET /v1/usage). */
import { parseObject } from '../shapes.js';
import type { ApiResponse } from '../transport.js';
import { PATHS } from '../../contract/paths.js';
import { Resource, type CallOptions } from './resource.js';

export class Usage extends Resource {
  /** Current consumption against quota (fields not shown: any JSON object). API key. */
  retrieve(options: CallOptions = {}): Promise<ApiResponse<Record<string, unknown>>> {
    return this.transport.request({
      method: 'GET',
      path: PATHS.usage,
      auth: 'api_key',
      signal: options.signal,
      timeoutMs: options.timeoutMs,
      parse: parseObject,
    });
  }
}
