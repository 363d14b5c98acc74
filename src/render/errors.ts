/**
 * Renders errors for people (stderr text ending with what to do next) and for scripts (one JSON line with `--json`).
 * Pure functions. Messages never contain a key: errors carry none, and server messages are shown as received.
 */
import { Chalk } from 'chalk';
import {
  ApiError,
  AuthenticationError,
  CancelledError,
  ConnectionError,
  InvalidRequestError,
  MissingKeyError,
  NetworkError,
  PravoError,
  QuotaExceededError,
  TimeoutError,
  UnexpectedResponseError,
  UsageError,
} from '../api/errors.js';
import { ERROR_CODES } from '../api/types.js';
import { EXIT } from '../exit-codes.js';

/** What the renderer knows of the situation, for better advice. */
export interface ErrorContext {
  /** The command line's command, e.g. `search`, for "run `pravo search --help`". */
  command?: string;
  /** The profile in use, for `--profile` in suggested commands. */
  profile?: string;
}

/** An error reduced to what is shown: message, advice, exit code, and whether the request may have been counted. */
export interface ErrorSummary {
  /** A short kind for scripts: `usage`, `config`, `auth`, `invalid_request`, `quota`, `connection`, `network`, `timeout`, `cancelled`, `server`, `unexpected`. */
  kind: string;
  code: string | undefined;
  message: string;
  /** What to do next. */
  hint: string | undefined;
  exitCode: number;
  /** True when the request may have reached the server and been counted against the quota. */
  mayHaveBeenCounted: boolean;
  requestId: string | undefined;
}

const MAY_HAVE_COUNTED =
  'The server may already have run this request and counted it against your quota; pravo does not retry automatically.';

/** Classifies any thrown value into an {@link ErrorSummary}. Unknown errors become `unexpected`, exit 1. */
export function summarizeError(error: unknown, context: ErrorContext = {}): ErrorSummary {
  const profileFlag = context.profile && context.profile !== 'default' ? ` --profile ${context.profile}` : '';
  /** A failure found on this side: its own message and exit code, no server code or request id. */
  const local = (kind: string, e: PravoError, hint: string | undefined, mayHaveBeenCounted = false): ErrorSummary => ({
    kind,
    code: undefined,
    message: e.message,
    hint,
    exitCode: e.exitCode,
    mayHaveBeenCounted,
    requestId: undefined,
  });

  if (error instanceof UsageError) {
    return local('usage', error, `Nothing was sent. See \`pravo ${context.command ? `${context.command} ` : ''}--help\` for usage.`);
  }
  if (error instanceof MissingKeyError) {
    return local(
      'auth',
      error,
      `Nothing was sent. Store a key with \`pravo config set-key${profileFlag}\` (or set PRAVO_API_KEY), or try the offline sandbox: \`pravo search --sandbox "…"\`.`,
    );
  }
  if (error instanceof ApiError) return summarizeApiError(error, context, profileFlag);
  if (error instanceof ConnectionError) {
    return local('connection', error, `Nothing reached the server. Check the base URL (\`pravo config show${profileFlag}\`) and the network.`);
  }
  if (error instanceof TimeoutError) {
    return local('timeout', error, `${MAY_HAVE_COUNTED} Searches usually take 10 to 40 s; allow more with --timeout SECONDS.`, true);
  }
  if (error instanceof NetworkError) return local('network', error, MAY_HAVE_COUNTED, true);
  if (error instanceof CancelledError) {
    const hint = error.mayHaveBeenCounted ? 'The server may already have run this request and counted it against your quota.' : undefined;
    return local('cancelled', error, hint, error.mayHaveBeenCounted);
  }
  if (error instanceof UnexpectedResponseError) {
    return local('unexpected', error, `Is the base URL that of the Legal Research API? Check it with \`pravo config show${profileFlag}\`.`);
  }
  if (error instanceof PravoError) return local(error.exitCode === EXIT.usage ? 'config' : 'error', error, undefined);
  const message = error instanceof Error ? error.message : String(error);
  return {
    kind: 'unexpected',
    code: undefined,
    message: `Unexpected error: ${message}`,
    hint: 'This is a bug in pravo; please report it with the command you ran (without your key).',
    exitCode: EXIT.error,
    mayHaveBeenCounted: false,
    requestId: undefined,
  };
}

/** An error the server reported: its code, message and request id, with advice by kind. */
function summarizeApiError(error: ApiError, context: ErrorContext, profileFlag: string): ErrorSummary {
  const server = { code: error.code, requestId: error.requestId, exitCode: error.exitCode, mayHaveBeenCounted: false };
  const message = error.serverMessage ?? error.code ?? `HTTP ${error.status}`;
  if (error instanceof AuthenticationError) {
    const hint =
      error.code === ERROR_CODES.revokedApiKey
        ? `This key has been revoked. Create a new key, then store it with \`pravo config set-key${profileFlag}\`.`
        : error.code === ERROR_CODES.missingApiKey
          ? `The server received no key header. If a proxy drops X-API-Key, run \`pravo config set auth-header bearer${profileFlag}\`.`
          : `Retrying will not help. Check the key with \`pravo config show${profileFlag}\`, then store the right one with \`pravo config set-key${profileFlag}\`.`;
    return { ...server, kind: 'auth', message: `Authentication failed (${error.code ?? `HTTP ${error.status}`}): ${message}`, hint };
  }
  if (error instanceof QuotaExceededError) {
    return {
      ...server,
      kind: 'quota',
      message: `Monthly quota exceeded: ${message}`,
      hint: 'Nothing more can be spent this month unless overage is allowed for the account. Check consumption before batch work.',
    };
  }
  if (error instanceof InvalidRequestError) {
    return {
      ...server,
      kind: 'invalid_request',
      message: `The server rejected the request: ${message}`,
      hint: `Correct the options; see \`pravo ${context.command ?? 'search'} --help\`.`,
    };
  }
  return {
    ...server,
    kind: 'server',
    message: `The server answered HTTP ${error.status}${error.code ? ` (${error.code})` : ''}: ${message}`,
    hint: error.status >= 500 ? `${MAY_HAVE_COUNTED} Try again later.` : undefined,
    mayHaveBeenCounted: error.status >= 500,
  };
}

/** The error for a person: `Error: message`, then the advice, then the request id when there is one. */
export function renderErrorText(summary: ErrorSummary, color: boolean): string {
  const c = new Chalk({ level: color ? 1 : 0 });
  const lines = [`${c.red.bold('Error:')} ${summary.message}`];
  if (summary.hint) lines.push(summary.hint);
  if (summary.requestId) lines.push(c.dim(`Request id: ${summary.requestId}`));
  return `${lines.join('\n')}\n`;
}

/** The error for a script: one line of JSON, `{"error":{kind, code, message, hint, exit_code, may_have_been_counted, request_id}}`. */
export function renderErrorJson(summary: ErrorSummary): string {
  return `${JSON.stringify({
    error: {
      kind: summary.kind,
      code: summary.code ?? null,
      message: summary.message,
      hint: summary.hint ?? null,
      exit_code: summary.exitCode,
      may_have_been_counted: summary.mayHaveBeenCounted,
      request_id: summary.requestId ?? null,
    },
  })}\n`;
}
