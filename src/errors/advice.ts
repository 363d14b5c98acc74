/**
 * The one place that turns any error into what a user sees: a kind, a message, what to do next, the exit code, and
 * whether the request may have been counted against the quota. Advice depends on the error's kind, the command that
 * ran and where the credential came from: a bad key from `PRAVO_API_KEY` is not fixed by `pravo config set-key`.
 * Every hint names only commands and options pravo has. Text from a server (message, request id) is sanitized here,
 * so no renderer can print it raw.
 */
import {
  ApiError,
  AuthenticationError,
  CancelledError,
  ConnectionError,
  InvalidRequestError,
  MissingCredentialError,
  NetworkError,
  NotFoundError,
  PermissionError,
  QuotaExceededError,
  RateLimitError,
  ServerError,
  SessionError,
  TimeoutError,
  TlsError,
  UnexpectedResponseError,
  ResponseTooLargeError,
  InvalidBaseUrlError,
} from '../api/errors.js';
import { ERROR_CODES, SESSION_ERROR_CODES } from '../contract/errors.js';
import { duration } from '../render/text.js';
import { sanitizeLine } from '../shared/sanitize.js';
import { describeFileSystemProblem } from './file-system.js';
import { CliError, UsageError, UserCancelledError } from './cli.js';
import { exitCodeOf } from './exit.js';

/** Where the credential of the run came from; decides which fix is advised. */
export type CredentialSource = 'env' | 'profile' | 'sandbox' | 'unset';

/** What the advice may use of the situation. */
export interface ErrorContext {
  /** The command path, e.g. `search` or `config set-key`, for "see `pravo search --help`". */
  command: string;
  /** The profile in use, when known; `--profile NAME` is added to suggested commands unless it is `default`. */
  profile?: string;
  /** Where the API key came from, when the command used one. */
  apiKeySource?: CredentialSource;
  /** Where the user-session token came from (key and account commands). */
  sessionSource?: CredentialSource;
  /** Whether the request went to an in-process sandbox (`--sandbox`) rather than the service. */
  sandbox?: boolean;
  /** The command never sends a request, so "Nothing was sent." would be noise. */
  local?: boolean;
}

/** An error reduced to what is shown (text on stderr, or one JSON line with `--json`). */
export interface ErrorSummary {
  /**
   * A short kind for scripts: `usage`, `config`, `environment`, `refused`, `auth`, `session`, `permission`,
   * `invalid_request`, `not_found`, `quota`, `rate_limited`, `connection`, `tls`, `network`, `timeout`, `cancelled`,
   * `server`, `unexpected`.
   */
  kind: string;
  /** The server's error code, when it sent one. */
  code: string | undefined;
  /** One line (or a few for a list of usage problems), sanitized. */
  message: string;
  /** What to do next. */
  hint: string | undefined;
  exitCode: number;
  /** True when the request may have reached the server and been counted against the quota. */
  mayHaveBeenCounted: boolean;
  /** The server's request id (`x-request-id`), sanitized. */
  requestId: string | undefined;
}

const MAY_HAVE_COUNTED =
  'The server may already have run this request and counted it against your quota; pravo does not retry it automatically.';

/** Summarizes any thrown value. Unknown errors are `unexpected` (exit 1) and say they are a bug in pravo. */
export function describeError(error: unknown, context: ErrorContext): ErrorSummary {
  const sent = context.local ? '' : 'Nothing was sent. ';
  const profileFlag = context.profile && context.profile !== 'default' ? ` --profile ${context.profile}` : '';
  const help = `\`pravo ${context.command} --help\``;
  const base = {
    code: undefined as string | undefined,
    exitCode: exitCodeOf(error),
    mayHaveBeenCounted: false,
    requestId: undefined as string | undefined,
  };
  const summary = (kind: string, message: string, hint: string | undefined, extra: Partial<ErrorSummary> = {}): ErrorSummary => ({
    ...base,
    kind,
    message,
    hint,
    ...extra,
  });

  if (error instanceof CliError) {
    const before = error instanceof UsageError && error.unsent !== undefined ? `${error.unsent} ` : error instanceof UsageError && error.afterRequest ? '' : sent;
    const hint = error.kind === 'usage' ? `${before}See ${help}.` : error.kind === 'config' && sent ? sent.trim() : undefined;
    return summary(error.kind, error.message, hint, error instanceof UsageError && error.code !== undefined ? { code: error.code } : {});
  }
  if (error instanceof UserCancelledError) return summary('cancelled', error.message, error.hint);
  if (isPromptCancel(error)) return summary('cancelled', 'Cancelled.', undefined);
  if (error instanceof InvalidBaseUrlError) {
    return summary('config', error.message, `${sent}Fix it with \`pravo config set base-url URL${profileFlag}\` or in PRAVO_BASE_URL.`);
  }
  if (error instanceof MissingCredentialError) {
    if (error.credential === 'session') {
      return summary(
        'session',
        `No user-session token is configured for profile "${context.profile ?? 'default'}": key and account commands need one.`,
        `Nothing was sent. Sign in with \`pravo login${profileFlag}\` (a token from your identity provider; for a sandbox, \`pravo sandbox token | pravo login --stdin${profileFlag}\`), or set PRAVO_SESSION_TOKEN.`,
      );
    }
    return summary(
      'auth',
      `No API key is configured for profile "${context.profile ?? 'default'}".`,
      `Nothing was sent. Store a key with \`pravo config set-key${profileFlag}\` (or set PRAVO_API_KEY), or work offline with --sandbox.`,
    );
  }
  if (error instanceof ApiError) return describeApiError(error, context, profileFlag, help);
  if (error instanceof TlsError) {
    return summary('tls', sanitizeLine(error.message), `Nothing reached the server, so nothing was counted. Check that the base URL's scheme and port are right (\`pravo config show${profileFlag}\`).`);
  }
  if (error instanceof ConnectionError) {
    return summary(
      'connection',
      sanitizeLine(error.message),
      context.sandbox
        ? 'Nothing reached the server, so nothing was counted.'
        : `Nothing reached the server, so nothing was counted. Check the base URL (\`pravo config show${profileFlag}\`) and the network.`,
    );
  }
  if (error instanceof TimeoutError) {
    return summary(
      'timeout',
      sanitizeLine(error.message),
      error.mayHaveBeenCounted ? `${MAY_HAVE_COUNTED} Allow more time with --timeout SECONDS.` : 'Allow more time with --timeout SECONDS.',
      { mayHaveBeenCounted: error.mayHaveBeenCounted },
    );
  }
  if (error instanceof NetworkError) {
    return summary('network', sanitizeLine(error.message), error.mayHaveBeenCounted ? MAY_HAVE_COUNTED : 'Try again.', {
      mayHaveBeenCounted: error.mayHaveBeenCounted,
    });
  }
  if (error instanceof CancelledError) {
    return summary(
      'cancelled',
      'Cancelled.',
      error.mayHaveBeenCounted ? 'The request had been sent: the server may already have run it and counted it against your quota.' : undefined,
      { mayHaveBeenCounted: error.mayHaveBeenCounted },
    );
  }
  if (error instanceof UnexpectedResponseError) {
    const what = error instanceof ResponseTooLargeError ? 'The response was too large' : 'The server sent a response pravo does not understand';
    return summary(
      'unexpected',
      `${what}: ${sanitizeLine(error.problem)}`,
      context.sandbox
        ? undefined
        : `Is the base URL that of the Legal Research API? Check it with \`pravo config show${profileFlag}\`.`,
      { requestId: safeId(error.requestId) },
    );
  }
  const fileProblem = describeFileSystemError(error);
  if (fileProblem !== undefined) return summary('environment', fileProblem.message, fileProblem.hint);
  const message = error instanceof Error ? error.message : String(error);
  return summary('unexpected', `Unexpected error: ${sanitizeLine(message)}`, 'This is a bug in pravo; please report it with the command you ran (without your key).');
}

/** An error the server reported: its code, message and request id, with advice by kind and credential source. */
function describeApiError(error: ApiError, context: ErrorContext, profileFlag: string, help: string): ErrorSummary {
  const server = {
    code: error.code === undefined ? undefined : sanitizeLine(error.code),
    requestId: safeId(error.requestId),
    exitCode: exitCodeOf(error),
    mayHaveBeenCounted: error.mayHaveBeenCounted,
  };
  const said = sanitizeLine(error.serverMessage ?? error.code ?? `HTTP ${error.status}`);
  if (error instanceof AuthenticationError) {
    return { ...server, kind: 'auth', message: `Authentication failed (${server.code ?? `HTTP ${error.status}`}): ${said}`, hint: authHint(error, context, profileFlag) };
  }
  if (error instanceof SessionError) {
    return { ...server, kind: 'session', message: `The user session was rejected (${server.code ?? `HTTP ${error.status}`}): ${said}`, hint: sessionHint(error, context, profileFlag) };
  }
  if (error instanceof PermissionError) {
    return { ...server, kind: 'permission', message: `Not allowed: ${said}`, hint: undefined };
  }
  if (error instanceof QuotaExceededError) {
    return {
      ...server,
      kind: 'quota',
      message: `Monthly quota exceeded: ${said}`,
      hint:
        'Nothing more of this kind can be used this month unless the account allows overage. ' +
        `\`pravo usage${context.sandbox ? ' --sandbox' : profileFlag}\` shows what is left of each quota; check it before batch work.`,
    };
  }
  if (error instanceof InvalidRequestError) {
    return { ...server, kind: 'invalid_request', message: `The server rejected the request: ${said}`, hint: `Correct the options; see ${help}.` };
  }
  if (error instanceof NotFoundError) {
    if (context.command === 'doc') {
      return {
        ...server,
        kind: 'not_found',
        message: `The document is not on this server: ${said}`,
        hint:
          'The document_id or the collection may be wrong, or the result came from another target (another profile, ' +
          'base URL or sandbox corpus). Take both from a search on this target: `pravo search ...`, then `pravo doc N`.',
      };
    }
    if (context.command.startsWith('keys ')) {
      return {
        ...server,
        kind: 'not_found',
        message: `No such key on this account: ${said}`,
        hint: `\`pravo keys list${profileFlag}\` shows the account's keys and their ids.`,
      };
    }
    return { ...server, kind: 'not_found', message: `Not found: ${said}`, hint: undefined };
  }
  // The server's Retry-After, when pravo would not wait that long itself (README: Requests): when to try again.
  const later = error.retryAfterMs === undefined ? 'Try again later.' : `The server asked to wait ${duration(error.retryAfterMs)}: try again after that.`;
  if (error instanceof RateLimitError) {
    return { ...server, kind: 'rate_limited', message: `Too many requests: ${said}`, hint: error.retryAfterMs === undefined ? 'Wait a little and try again.' : later };
  }
  const hint = error instanceof ServerError ? (error.mayHaveBeenCounted ? `${MAY_HAVE_COUNTED} ${later}` : later) : undefined;
  return {
    ...server,
    kind: 'server',
    message: `The server answered HTTP ${error.status}${server.code ? ` (${server.code})` : ''}: ${said}`,
    hint,
  };
}

/**
 * What fixes a rejected user-session token (codes of the sandbox, docs/sandbox.md, "Sandbox: keys and account"; a live
 * service's are not shown) depends on the code and on where the token came from.
 */
function sessionHint(error: ApiError, context: ErrorContext, profileFlag: string): string {
  const login = `\`pravo login${profileFlag}\``;
  if (error.code === SESSION_ERROR_CODES.apiKeyNotAccepted) {
    return `Key and account commands take a user-session token, not an API key: sign in with ${login}. The API key belongs in \`pravo config set-key${profileFlag}\`.`;
  }
  if (error.code === SESSION_ERROR_CODES.missingSessionToken) {
    return 'The server received no session token. If a proxy drops the Authorization header, these commands cannot pass it.';
  }
  if (context.sessionSource === 'sandbox') return 'The in-process sandbox issued this token itself; its data directory (--data-dir) may be damaged.';
  const what = error.code === SESSION_ERROR_CODES.expiredSessionToken ? 'The session has expired.' : 'Retrying will not help.';
  if (context.sessionSource === 'env') return `${what} The token came from PRAVO_SESSION_TOKEN: set a new one, or unset it to use the stored token.`;
  return `${what} Sign in again with ${login}; \`pravo login --status${profileFlag}\` checks the stored token.`;
}

/** What fixes a rejected API key depends on where it came from. */
function authHint(error: ApiError, context: ErrorContext, profileFlag: string): string {
  if (error.code === ERROR_CODES.missingApiKey) {
    return `The server received no key header. If a proxy drops X-API-Key, run \`pravo config set auth-header bearer${profileFlag}\`.`;
  }
  const revoked = error.code === ERROR_CODES.revokedApiKey;
  const what = revoked ? 'This key has been revoked; use another.' : 'Retrying will not help.';
  switch (context.apiKeySource) {
    case 'env':
      return `${what} The key came from PRAVO_API_KEY: correct or unset that variable (a stored key does not override it).`;
    case 'sandbox':
      return `${what} The in-process sandbox issued this key itself; its data directory (--data-dir) may be damaged.`;
    default:
      return `${what} Check it with \`pravo config show${profileFlag}\`, then store the right one with \`pravo config set-key${profileFlag}\`.`;
  }
}

/**
 * Errno codes that are the user's environment, not a bug: a full disk, a read-only file system, permissions, a path
 * that is not what it should be. (ENOENT is not among them: a file pravo expects and does not find may be its bug.)
 */
const FILE_SYSTEM_CODES = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EACCES', 'EPERM', 'EISDIR', 'ENOTDIR']);

/**
 * A file-system error that reached the runner without a more specific explanation (writing the config, the stored
 * results or the cache on a full disk, say), as a message naming the path and a hint; `undefined` for anything else.
 */
function describeFileSystemError(error: unknown): { message: string; hint: string } | undefined {
  const { code, path } = (error ?? {}) as { code?: unknown; path?: unknown };
  if (typeof code !== 'string' || !FILE_SYSTEM_CODES.has(code)) return undefined;
  const where = typeof path === 'string' ? ` ${sanitizeLine(path)}` : '';
  return {
    message: `Cannot write${where}: ${describeFileSystemProblem(code)} (${code}).`,
    hint: 'Free some space or fix the permissions; PRAVO_CONFIG_DIR, PRAVO_STATE_DIR and PRAVO_CACHE_DIR move pravo\'s files elsewhere.',
  };
}

function safeId(id: string | undefined): string | undefined {
  return id === undefined ? undefined : sanitizeLine(id).slice(0, 200) || undefined;
}

function isPromptCancel(error: unknown): boolean {
  return error instanceof Error && (error.name === 'ExitPromptError' || error.name === 'AbortPromptError');
}
