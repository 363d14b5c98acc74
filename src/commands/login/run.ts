/**
 * `pravo login` and `pravo logout` (spec: Authentication, User-session token): the user-session token that the key and
 * account endpoints require, issued by an identity provider (for the sandbox: its ready line, or `pravo sandbox
 * token`). The token is read from a hidden prompt or from stdin (never from argv), checked with `GET /v1/account`
 * before it is stored (unless `--no-verify`), stored in the profile (the 0600 config file) and shown only masked.
 * `PRAVO_SESSION_TOKEN` overrides the stored token.
 */
import type { AccountFacts } from '../../api/account.js';
import { SessionError } from '../../api/errors.js';
import { activeProfileName, looksLikeLiveKey, maskKey, type ResolvedProfile } from '../../config/profile.js';
import { ConfigError, UsageError } from '../../errors/cli.js';
import { EXIT } from '../../errors/exit-codes.js';
import type { Factory } from '../../factory.js';
import { Printer } from '../../io/printer.js';
import { sanitizeLine } from '../../shared/sanitize.js';
import { readSecret, secretArgumentError } from '../secret.js';

/** Options of `pravo login` as commander parses them. */
export interface LoginOptions {
  stdin?: boolean;
  status?: boolean;
  /** `--no-verify` sets false: store the token without checking it. */
  verify?: boolean;
  json?: boolean;
}

/** `pravo login`'s `--json` object. */
interface LoginResult {
  profile: string;
  session_token: string;
  verified: boolean;
  account_id: string | null;
  plan: string | null;
  config_path: string;
}

/**
 * `pravo login`: reads a session token, checks it with `GET /v1/account` (unless `--no-verify`), stores it in the
 * profile; `--status` instead reports the token in use (see {@link runLoginStatus}). Returns the exit code.
 * @throws UsageError for a token given as an argument, an API key given as the token, no terminal without `--stdin`,
 *   `--stdin`/`--no-verify` with `--status` (nothing is read or sent); ConfigError when there is no base URL to check
 *   against; the request's errors (a `SessionError`, exit 4, for a rejected token: nothing is stored then).
 */
export async function runLogin(factory: Factory, refused: string | undefined, options: LoginOptions): Promise<number> {
  if (refused !== undefined) {
    throw secretArgumentError(
      'a session token',
      'Run `pravo login` to type it at a hidden prompt, or pipe it in with `pravo login --stdin`.',
      'sign in again to get a new one',
    );
  }
  if (options.status) {
    const misplaced = [...(options.stdin ? ['--stdin'] : []), ...(options.verify === false ? ['--no-verify'] : [])];
    if (misplaced.length > 0) throw new UsageError(`${misplaced.join(' and ')} ${misplaced.length === 1 ? 'applies' : 'apply'} to signing in, not to --status.`);
    return runLoginStatus(factory, options);
  }
  const store = await factory.config();
  const name = activeProfileName(factory.env, factory.globals.profile);
  const token = await readSecret(factory, { what: 'session token', message: `Session token for profile "${name}":`, stdin: options.stdin === true });
  if (looksLikeLiveKey(token)) {
    throw new UsageError(
      'That is an API key (its prefix ends in "_live_"), not a user-session token; nothing was stored. ' +
        'Store an API key with `pravo config set-key`; a session token comes from your identity provider (for a sandbox: `pravo sandbox token`).',
    );
  }
  let account: AccountFacts | undefined;
  if (options.verify !== false) {
    const profile = await factory.profile();
    if (!profile.base_url) {
      throw new ConfigError(
        `No base URL is configured for profile "${name}", so the token cannot be checked. Set it with \`pravo config set base-url URL\`, or store the token unchecked with --no-verify.`,
      );
    }
    account = await checkToken(factory, token);
  }
  store.setProfileField(name, 'session_token', token);
  const result: LoginResult = {
    profile: name,
    session_token: maskKey(token),
    verified: account !== undefined,
    account_id: account?.accountId ?? null,
    plan: account?.plan ?? null,
    config_path: store.path,
  };
  const who = account ? ` (account ${sanitizeLine(account.accountId ?? '–')}, plan ${sanitizeLine(account.plan ?? '–')})` : ' without checking it (--no-verify)';
  const printer = new Printer(factory.io, options.json === true);
  printer.report(result, `Signed in: stored session token ${result.session_token} for profile "${name}"${who} in ${store.path}.`);
  if (factory.env.PRAVO_SESSION_TOKEN) printer.note('Note: PRAVO_SESSION_TOKEN is set in this environment and overrides the stored token.');
  return EXIT.ok;
}

/**
 * `GET /v1/account` with `token`: the account when the token is accepted.
 * @throws the request's errors: a `SessionError` (exit 4) when the token is refused.
 */
async function checkToken(factory: Factory, token: string): Promise<AccountFacts> {
  const client = await factory.clientFor({ session: { kind: 'session', token } });
  const { fetchAccount } = await import('../../services/account.js');
  return (await fetchAccount(factory, 'Checking the session token', client)).account;
}

/** `pravo login --status`'s `--json` object. */
interface LoginStatus {
  profile: string;
  /** Whether a token is configured (stored, or in PRAVO_SESSION_TOKEN). */
  signed_in: boolean;
  /**
   * `env` (PRAVO_SESSION_TOKEN), `profile`, `sandbox` (the profile's sandbox setting is on: each command's in-process
   * sandbox gives it a session of its own), or `unset`.
   */
  source: ResolvedProfile['sources']['session_token'] | 'sandbox';
  session_token: string | null;
  base_url: string | null;
  /** The server's verdict: true when `GET /v1/account` accepted it, false when it refused it; null when not asked. */
  valid: boolean | null;
  /** The refusal's error code. */
  code: string | null;
  account_id: string | null;
  plan: string | null;
}

/**
 * `pravo login --status`: whether a session token is configured, where it comes from, and whether the server accepts
 * it (`GET /v1/account`). Exit 0 when accepted; 4 when there is none or it is refused (the report still goes to
 * stdout with `--json`).
 * @throws ConfigError without a base URL to check against (when a token is configured); errors of the request other
 *   than a refusal of the token.
 */
async function runLoginStatus(factory: Factory, options: LoginOptions): Promise<number> {
  const profile = await factory.profile();
  const printer = new Printer(factory.io, options.json === true);
  const status: LoginStatus = {
    profile: profile.name,
    signed_in: profile.session_token !== undefined,
    source: profile.sources.session_token,
    session_token: profile.session_token ? maskKey(profile.session_token) : null,
    base_url: profile.base_url ?? null,
    valid: null,
    code: null,
    account_id: null,
    plan: null,
  };
  const from = status.source === 'env' ? 'from PRAVO_SESSION_TOKEN' : `stored in profile "${profile.name}"`;
  if (profile.sandbox && status.source !== 'env') {
    Object.assign(status, { signed_in: true, source: 'sandbox', session_token: null, base_url: null });
    printer.report(
      status,
      `Profile "${profile.name}" runs against the in-process sandbox (\`pravo config set sandbox on\`): each command gets a session of its own there, so \`pravo keys\` and \`pravo account\` need no sign-in.`,
    );
    return EXIT.ok;
  }
  if (profile.session_token === undefined) {
    printer.report(status, `Not signed in: profile "${profile.name}" has no session token, and PRAVO_SESSION_TOKEN is not set. Sign in with \`pravo login\`.`);
    return EXIT.auth;
  }
  if (!profile.base_url) {
    throw new ConfigError(`Session token ${status.session_token} is ${from}, but profile "${profile.name}" has no base URL to check it against. Set it with \`pravo config set base-url URL\`.`);
  }
  try {
    const { fetchAccount } = await import('../../services/account.js');
    const { account } = await fetchAccount(factory, 'Checking the session token');
    Object.assign(status, { valid: true, account_id: account.accountId ?? null, plan: account.plan ?? null });
    printer.report(
      status,
      `Signed in to ${sanitizeLine(profile.base_url)}: session token ${status.session_token} (${from}) is valid for account ${sanitizeLine(account.accountId ?? '–')}, plan ${sanitizeLine(account.plan ?? '–')}.`,
    );
    return EXIT.ok;
  } catch (error) {
    if (!(error instanceof SessionError)) throw error;
    Object.assign(status, { valid: false, code: error.code ?? null });
    const again = status.source === 'env' ? 'Set a new PRAVO_SESSION_TOKEN, or unset it to use the stored token.' : 'Sign in again with `pravo login`.';
    printer.report(
      status,
      `Session token ${status.session_token} (${from}) was refused by ${sanitizeLine(profile.base_url)}: ${sanitizeLine(error.code ?? `HTTP ${error.status}`)}. ${again}`,
    );
    return EXIT.auth;
  }
}

/** `pravo logout`: forgets the profile's stored session token (the server is not told: the contract has no such endpoint). */
export async function runLogout(factory: Factory, options: { json?: boolean }): Promise<number> {
  const store = await factory.config();
  const name = activeProfileName(factory.env, factory.globals.profile);
  // Read raw: logging out must work even when the stored token is of the wrong type (a file edited by hand).
  const removed = store.data().profiles?.[name]?.session_token !== undefined;
  if (removed) store.setProfileField(name, 'session_token', undefined);
  const printer = new Printer(factory.io, options.json === true);
  printer.report(
    { profile: name, removed },
    removed ? `Signed out: removed the session token of profile "${name}".` : `Nothing to do: profile "${name}" has no stored session token.`,
  );
  if (factory.env.PRAVO_SESSION_TOKEN) printer.note('Note: PRAVO_SESSION_TOKEN is set in this environment and still applies.');
  return EXIT.ok;
}
