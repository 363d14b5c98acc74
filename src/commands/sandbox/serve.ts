/**
 * `pravo sandbox serve`: a local server implementing the Legal Research API contract over the local corpus, so that
 * pravo, its tests and users' scripts run offline and spend no quota. Runs until the run's cancellation signal
 * (SIGINT or SIGTERM), then stops cleanly and exits 0.
 *
 * Each start takes a new port (by default), issues a new key and creates a new user session (24 hours) for the key
 * and account endpoints. With `--save-to-profile NAME` the three go into that profile of the config file once the
 * server listens, so `pravo --profile NAME ...` follows every restart; the key and the session token are then printed
 * nowhere.
 */
import { normalizeBaseUrl } from '../../api/base-url.js';
import { ANSWER_DELAY_MAX_SECONDS, answerDelayFromEnv, checkListenHost, decimalSetting, prepareDataDir, resolveCorpus } from '../../config/sandbox.js';
import { checkSaveToProfile } from '../../config/store.js';
import { UsageError } from '../../errors/cli.js';
import type { Factory } from '../../factory.js';
import { sanitizeLine } from '../../shared/sanitize.js';
import { QUOTA_KINDS, type QuotaKind } from '../../contract/types.js';
import { DEFAULT_AUTH_CACHE_TTL_MS, defaultSearchWorkers, MAX_SEARCH_WORKERS, type OverageSetting, type Quota, type Quotas } from '../../sandbox/index.js';
import { startSandboxWithProgress } from '../../target.js';

/** Options of `pravo sandbox serve` as commander parses them. */
export interface ServeOptions {
  host: string;
  port: string;
  /** `--corpus PATH`, repeatable. */
  corpus?: string[];
  dataDir?: string;
  /** `--quota KIND=N[,KIND=N...]`, repeatable: this process's monthly quotas (see {@link parseQuotaOptions}). */
  quota?: string[];
  /** `--search-quota N`: alias of `--quota search=N`. */
  searchQuota?: string;
  /** `--retrieval-quota N`: alias of `--quota retrieval=N`. */
  retrievalQuota?: string;
  /** `--answers-quota N`: alias of `--quota answers=N`. */
  answersQuota?: string;
  /** `--overage off|N`: the overage setting of `acct_sandbox`, written at start (see {@link parseOverageOption}). */
  overage?: string;
  /** `--answer-delay SECONDS`: time from an answer job's creation to its final status (decimal, 0 to 3600). */
  answerDelay?: string;
  /** `--answer-failure-rate R`: probability (0 to 1) that an answer job fails `answer_failed`. */
  answerFailureRate?: string;
  /** `--save-to-profile NAME`: the profile that receives this start's base URL, key and session token. */
  saveToProfile?: string;
  /** `--auth-cache-ttl SECONDS`: how long an accepted API key is accepted without a new lookup (decimal, 0 to 3600). */
  authCacheTtl?: string;
  /** `--search-workers N`: worker threads running the searches, 0 to 64 (0: on the event loop); default by CPUs. */
  searchWorkers?: string;
  json?: boolean;
}

/**
 * The ready line on stdout: the key and the session token (`sbx_sess_…`, for `/v1/keys` and `/v1/account`), or, with
 * `--save-to-profile`, the profile that holds them.
 */
type ReadyLine = { base_url: string; api_key: string; session_token: string } | { base_url: string; profile: string };

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1']);

/** Runs the server until SIGINT or SIGTERM; returns the exit code. @throws UsageError, ConfigError, EnvironmentError. */
export async function runServe(factory: Factory, options: ServeOptions): Promise<number> {
  const { io } = factory;
  const port = Number(options.port);
  if (!/^\d+$/.test(options.port) || port > 65535) throw new UsageError(`--port takes a number from 0 to 65535, not "${options.port}"`);
  const quotas = parseQuotaOptions(options.quota ?? [], {
    search: options.searchQuota,
    retrieval: options.retrievalQuota,
    answers: options.answersQuota,
  });
  const overage = parseOverageOption(options.overage);
  const answerDelaySeconds = decimalSetting('--answer-delay', options.answerDelay, ANSWER_DELAY_MAX_SECONDS, 'a number of seconds') ?? answerDelayFromEnv(factory.env);
  const failureRate = decimalSetting('--answer-failure-rate', options.answerFailureRate, 1, 'a probability');
  const authCacheSeconds = decimalSetting('--auth-cache-ttl', options.authCacheTtl, AUTH_CACHE_TTL_MAX_SECONDS, 'a number of seconds');
  const searchWorkers = parseSearchWorkers(options.searchWorkers);
  const profileName = options.saveToProfile === undefined ? undefined : checkSaveToProfile(options.saveToProfile);
  await checkListenHost(options.host);
  const store = await factory.config();
  const inputs = resolveCorpus(options.corpus, factory.env, store.sandboxCorpus());
  const dataDir = prepareDataDir(options.dataDir, factory.env);
  const log = (line: string): void => {
    const time = new Date(factory.clock.now()).toISOString();
    if (options.json) io.stderr.write(`${JSON.stringify({ time, message: line })}\n`);
    // On a terminal, two spaces after the time: `IOStreams.message` breaks the line at spaces to the width, its
    // continuation lines under the message, not under the time.
    else if (io.stderrIsTTY) io.message(`${time}  ${line}`);
    else io.stderr.write(`${time} ${line}\n`);
  };

  const sandbox = await startSandboxWithProgress(
    io,
    factory.clock,
    {
      inputs,
      dataDir,
      host: options.host,
      port,
      quotas,
      ...(overage ? { overage } : {}),
      answers: {
        ...(answerDelaySeconds !== undefined ? { delayMs: Math.round(answerDelaySeconds * 1000) } : {}),
        ...(failureRate !== undefined ? { failureRate } : {}),
      },
      ...(authCacheSeconds !== undefined ? { authCacheTtlMs: Math.round(authCacheSeconds * 1000) } : {}),
      searchWorkers,
      // Short, for the key list (which dates each key): `sandbox 2026-11-27`.
      keyName: `sandbox ${new Date(factory.clock.now()).toISOString().slice(0, 10)}`,
      signal: factory.signal,
      log,
    },
    { bar: !options.json, say: log },
  );
  factory.defer(() => sandbox.close());
  let ready: ReadyLine = { base_url: sandbox.baseUrl, api_key: sandbox.apiKey, session_token: sandbox.sessionToken };
  if (profileName !== undefined) {
    // Only now that the server listens: the profile never points at a server that failed to start.
    store.saveEndpoint(profileName, {
      base_url: normalizeBaseUrl(sandbox.baseUrl),
      api_key: sandbox.apiKey,
      api_key_id: sandbox.keyId,
      session_token: sandbox.sessionToken,
    });
    ready = { base_url: sandbox.baseUrl, profile: profileName };
    log(`saved base URL, key and session token to profile ${profileName}`);
  }
  io.stdout.write(`${JSON.stringify(ready)}\n`);
  const cacheSeconds = (authCacheSeconds ?? DEFAULT_AUTH_CACHE_TTL_MS / 1000).toString();
  log(
    `pravo sandbox listening on ${sandbox.baseUrl} (${sandbox.documentCount} documents, data in ${dataDir}); key ${sandbox.keyId} issued; ` +
      `session ${sandbox.sessionId} valid until ${sandbox.sessionExpiresAt}; keys revoked elsewhere are refused here within ${cacheSeconds} s; ` +
      `searches run ${searchWorkers === 0 ? 'on the event loop' : `on ${searchWorkers} worker thread(s)`}; Ctrl-C stops it`,
  );
  if (!LOOPBACK_HOSTS.has(options.host)) log(`warning: listening on ${options.host}: the sandbox is reachable from other machines`);

  if (!factory.signal.aborted) await new Promise<void>((resolve) => factory.signal.addEventListener('abort', () => resolve(), { once: true }));
  log(`${String(factory.signal.reason ?? 'signal')}: stopping`);
  await sandbox.close();
  log('stopped');
  return 0;
}

/** The option of each quota kind's alias: `--search-quota`, `--retrieval-quota`, `--answers-quota`. */
const QUOTA_ALIASES: Readonly<Record<QuotaKind, string>> = {
  search: '--search-quota',
  retrieval: '--retrieval-quota',
  answers: '--answers-quota',
};

/** How `--quota` is written, for its error messages. */
const QUOTA_FORM = `KIND=N[,KIND=N...], KIND one of ${QUOTA_KINDS.join(', ')} and N a whole number or "unlimited" (e.g. --quota search=100,retrieval=20)`;

/**
 * A quota value: a whole number of units per month (0 to `Number.MAX_SAFE_INTEGER`), or `unlimited` (→ null).
 * @returns undefined when `value` is neither.
 */
function quotaValue(value: string): Quota | undefined {
  if (value === 'unlimited') return null;
  if (!/^\d+$/.test(value)) return undefined;
  const number = Number(value);
  return Number.isSafeInteger(number) ? number : undefined;
}

/**
 * This process's quotas from `--quota` (each value `KIND=N[,KIND=N...]`; the option may be repeated) and the aliases
 * `--search-quota N`, `--retrieval-quota N`, `--answers-quota N` (`aliases`: their values as given, per kind). KIND is
 * one of `search`, `retrieval`, `answers`; N a whole number of units per month or `unlimited` (→ null). Kinds given
 * nowhere keep the plan's quota.
 * @returns the overrides per kind given.
 * @throws UsageError, naming the known kinds: an item that is not `KIND=N`, an unknown kind, a bad N, a kind given
 *   twice (in `--quota`, or both in `--quota` and through its alias).
 */
export function parseQuotaOptions(values: readonly string[], aliases: Partial<Record<QuotaKind, string | undefined>> = {}): Quotas {
  const quotas: Quotas = {};
  for (const value of values) {
    for (const item of value.split(',')) {
      const match = /^\s*([^=\s]*)\s*=\s*(\S*)\s*$/.exec(item);
      if (!match) throw new UsageError(`--quota takes ${QUOTA_FORM}; "${sanitizeLine(item)}" is not KIND=N`);
      const [, kind = '', text = ''] = match;
      if (!(QUOTA_KINDS as readonly string[]).includes(kind)) {
        throw new UsageError(`--quota: unknown kind "${sanitizeLine(kind)}"; the kinds are ${QUOTA_KINDS.join(', ')}`);
      }
      if (quotas[kind as QuotaKind] !== undefined) {
        throw new UsageError(`--quota: the ${kind} quota is given twice; give each of ${QUOTA_KINDS.join(', ')} at most once`);
      }
      const quota = quotaValue(text);
      if (quota === undefined) {
        throw new UsageError(`--quota: ${kind} takes a whole number or "unlimited", not "${sanitizeLine(text)}"`);
      }
      quotas[kind as QuotaKind] = quota;
    }
  }
  for (const kind of QUOTA_KINDS) {
    const text = aliases[kind];
    if (text === undefined) continue;
    const option = QUOTA_ALIASES[kind];
    if (quotas[kind] !== undefined) {
      throw new UsageError(`${option} and --quota ${kind}=... both set the ${kind} quota; give it once (${option} is an alias of --quota ${kind}=N)`);
    }
    const quota = quotaValue(text);
    if (quota === undefined) throw new UsageError(`${option} takes a whole number or "unlimited", not "${sanitizeLine(text)}"`);
    quotas[kind] = quota;
  }
  return quotas;
}

/**
 * `--overage off|N`: `off` → not allowed (limit 0); `N`, a whole number of units a month (0 to
 * `Number.MAX_SAFE_INTEGER`) → allowed up to N units beyond the quotas, every kind together; undefined when not given
 * (the stored setting stands).
 * @throws UsageError naming the option and the value (sanitized).
 */
export function parseOverageOption(value: string | undefined): OverageSetting | undefined {
  if (value === undefined) return undefined;
  if (value === 'off') return { allowed: false, limit: 0 };
  const limit = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(limit)) {
    throw new UsageError(`--overage takes "off" or a whole number of units a month (all kinds together), not "${sanitizeLine(value)}"`);
  }
  return { allowed: true, limit };
}

/**
 * `--search-workers N`: a whole number from 0 to `MAX_SEARCH_WORKERS` (0: searches on the event loop); when not given,
 * `defaultSearchWorkers()` (the CPUs this process may use, at most 4).
 * @throws UsageError naming the option, the range and the value (sanitized).
 */
export function parseSearchWorkers(value: string | undefined): number {
  if (value === undefined) return defaultSearchWorkers();
  const number = /^\s*\d+\s*$/.test(value) ? Number(value) : Number.NaN;
  if (!(number <= MAX_SEARCH_WORKERS)) {
    throw new UsageError(`--search-workers takes a whole number from 0 to ${MAX_SEARCH_WORKERS}, not "${sanitizeLine(value)}"`);
  }
  return number;
}

/** Longest `--auth-cache-ttl`, in seconds (an hour). */
export const AUTH_CACHE_TTL_MAX_SECONDS = 3600;
