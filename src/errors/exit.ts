/**
 * The one mapping from an error to an exit code (README: "Exit codes"). API errors know nothing of exit codes; CLI
 * errors know only their kind; this is where both become a number.
 */
import {
  ApiError,
  AuthenticationError,
  CancelledError,
  ConnectionError,
  InvalidBaseUrlError,
  MissingCredentialError,
  NetworkError,
  QuotaExceededError,
  SessionError,
  TimeoutError,
} from '../api/errors.js';
import { CliError, UserCancelledError } from './cli.js';
import { EXIT, type ExitCode } from './exit-codes.js';

/**
 * The exit code of an error: usage and configuration 2; a missing or rejected credential 4; `monthly_quota_exceeded`
 * 5; connection, network and timeout failures 6; cancellation 130; anything else 1 (among them the local environment,
 * and a server's data that pravo refuses to act on).
 */
export function exitCodeOf(error: unknown): ExitCode {
  if (error instanceof CliError) return error.kind === 'usage' || error.kind === 'config' ? EXIT.usage : EXIT.error;
  if (error instanceof InvalidBaseUrlError) return EXIT.usage;
  if (error instanceof UserCancelledError || error instanceof CancelledError) return EXIT.cancelled;
  if (error instanceof Error && (error.name === 'ExitPromptError' || error.name === 'AbortPromptError')) return EXIT.cancelled;
  if (error instanceof MissingCredentialError) return EXIT.auth;
  if (error instanceof AuthenticationError || error instanceof SessionError) return EXIT.auth;
  if (error instanceof QuotaExceededError) return EXIT.quota;
  if (error instanceof ApiError) return EXIT.error;
  if (error instanceof ConnectionError || error instanceof NetworkError || error instanceof TimeoutError) return EXIT.network;
  return EXIT.error;
}
