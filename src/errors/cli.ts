/**
 * Errors found on the CLI side, before or without a request: bad usage, bad configuration, the local environment.
 * They know their exit code's kind, not the code itself (`src/errors/exit.ts` maps errors to exit codes, and
 * `src/errors/advice.ts` says what to do next). API errors live apart, in `src/api/errors.ts`.
 */

/** Base class of the CLI's own errors. `kind` is the short word shown to scripts in `--json` errors. */
export class CliError extends Error {
  readonly kind: 'usage' | 'config' | 'environment' | 'refused';
  constructor(kind: CliError['kind'], message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
    this.kind = kind;
  }
}

/**
 * Bad arguments or options. Exit 2. Usually found before anything was sent; `afterRequest` marks one found only in the
 * server's answer (`pravo doc --article 999` when the document has no such article), so the advice does not say that
 * nothing was sent.
 */
export class UsageError extends CliError {
  readonly afterRequest: boolean;
  /**
   * The contract's error code the service would answer for this request, when the problem is one the contract names
   * (`invalid_request` for `court_ids` with only non-court sources, spec: POST /v1/search, rule 1); shown as `code`
   * of `--json` errors. Undefined for problems of the command line alone.
   */
  readonly code: string | undefined;
  /**
   * What was not sent, said in the advice instead of "Nothing was sent." when another request may have gone first
   * (`The search was not sent.` after a catalog lookup).
   */
  readonly unsent: string | undefined;
  constructor(message: string, options: { afterRequest?: boolean; code?: string; unsent?: string } = {}) {
    super('usage', message);
    this.afterRequest = options.afterRequest === true;
    this.code = options.code;
    this.unsent = options.unsent;
  }
}

/** Missing or invalid configuration (profile, base URL, corpus setting), found before anything was sent. Exit 2. */
export class ConfigError extends CliError {
  constructor(message: string, options?: ErrorOptions) {
    super('config', message, options);
  }
}

/**
 * The local environment failed pravo: a directory that cannot be created, a read-only or full disk, a port in use,
 * a malformed corpus file. The message names the path or value and what to do. Exit 1.
 */
export class EnvironmentError extends CliError {
  constructor(message: string, options?: ErrorOptions) {
    super('environment', message, options);
  }
}

/**
 * Something a server sent, well formed, that pravo refuses to act on, or lacks what the command needs: a document's
 * `url` that `pravo open` will not hand to a browser (not an `http:` or `https:` link, credentials in it, control
 * characters or white space), or no `url` at all. The message names what was refused (sanitized) and why. Exit 1.
 */
export class RefusedDataError extends CliError {
  constructor(message: string) {
    super('refused', message);
  }
}

/**
 * The user cancelled outside a request (Ctrl-C at a prompt, during an index build, while waiting for an answer job).
 * Exit 130. `message` says what stopped (default `Cancelled.`); `hint` what to do next (how to resume waiting).
 */
export class UserCancelledError extends Error {
  readonly hint: string | undefined;
  constructor(message = 'Cancelled.', hint?: string) {
    super(message);
    this.name = 'UserCancelledError';
    this.hint = hint;
  }
}
