/**
 * `pravo sandbox serve`: a local server implementing the Legal Research API contract over the local corpus, so that
 * pravo, its tests and users' scripts run offline and spend no quota. Runs until the run's cancellation signal
 * (SIGINT or SIGTERM), then stops cleanly and exits 0.
 *
 * Each start takes a new port (by default) and issues a new key. With `--save-to-profile NAME` both go into that
 * profile of the config file once the server listens, so `pravo --profile NAME ...` follows every restart; the key is
 * then printed nowhere.
 */
import { normalizeBaseUrl } from '../../api/base-url.js';
import { checkListenHost, prepareDataDir, resolveCorpus } from '../../config/sandbox.js';
import { checkProfileName } from '../../config/store.js';
import { ConfigError, UsageError } from '../../errors/cli.js';
import type { Factory } from '../../factory.js';
import { sanitizeLine } from '../../io/sanitize.js';
import type { Quotas } from '../../sandbox/state/index.js';
import { startSandboxWithProgress } from '../../target.js';

/** Options of `pravo sandbox serve` as commander parses them. */
export interface ServeOptions {
  host: string;
  port: string;
  /** `--corpus PATH`, repeatable. */
  corpus?: string[];
  dataDir?: string;
  searchQuota?: string;
  retrievalQuota?: string;
  /** `--answers-quota N`: monthly answer jobs. */
  answersQuota?: string;
  /** `--answer-delay SECONDS`: time from an answer job's creation to its final status (decimal, 0 to 3600). */
  answerDelay?: string;
  /** `--answer-failure-rate R`: probability (0 to 1) that an answer job fails `answer_failed`. */
  answerFailureRate?: string;
  /** `--save-to-profile NAME`: the profile that receives this start's base URL and key. */
  saveToProfile?: string;
  json?: boolean;
}

/** The ready line on stdout: the key, or, with `--save-to-profile`, the profile that holds it. */
type ReadyLine = { base_url: string; api_key: string } | { base_url: string; profile: string };

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1']);

/** Runs the server until SIGINT or SIGTERM; returns the exit code. @throws UsageError, ConfigError, EnvironmentError. */
export async function runServe(f: Factory, options: ServeOptions): Promise<number> {
  const { io } = f;
  const port = Number(options.port);
  if (!/^\d+$/.test(options.port) || port > 65535) throw new UsageError(`--port takes a number from 0 to 65535, not "${options.port}"`);
  const quotas: Quotas = {};
  const searchQuota = quotaOption('--search-quota', options.searchQuota);
  if (searchQuota !== undefined) quotas.search = searchQuota;
  const retrievalQuota = quotaOption('--retrieval-quota', options.retrievalQuota);
  if (retrievalQuota !== undefined) quotas.documents = retrievalQuota;
  const answersQuota = quotaOption('--answers-quota', options.answersQuota);
  if (answersQuota !== undefined) quotas.answers = answersQuota;
  const answerDelaySeconds = decimalOption('--answer-delay', options.answerDelay, ANSWER_DELAY_MAX_SECONDS, 'a number of seconds');
  const failureRate = decimalOption('--answer-failure-rate', options.answerFailureRate, 1, 'a probability');
  const profileName = options.saveToProfile === undefined ? undefined : checkSaveToProfile(options.saveToProfile);
  await checkListenHost(options.host);
  const store = await f.config();
  const inputs = resolveCorpus(options.corpus, f.env, store.sandboxCorpus());
  const dataDir = prepareDataDir(options.dataDir, f.env);
  const log = (line: string): void => {
    const time = new Date(f.clock.now()).toISOString();
    io.stderr.write(options.json ? `${JSON.stringify({ time, message: line })}\n` : `${time} ${line}\n`);
  };

  const sandbox = await startSandboxWithProgress(
    io,
    f.clock,
    {
      inputs,
      dataDir,
      host: options.host,
      port,
      quotas,
      answers: {
        ...(answerDelaySeconds !== undefined ? { delayMs: Math.round(answerDelaySeconds * 1000) } : {}),
        ...(failureRate !== undefined ? { failureRate } : {}),
      },
      keyName: `sandbox serve ${new Date(f.clock.now()).toISOString()}`,
      signal: f.signal,
      log,
    },
    { bar: !options.json, say: log },
  );
  f.defer(() => sandbox.close());
  let ready: ReadyLine = { base_url: sandbox.baseUrl, api_key: sandbox.apiKey };
  if (profileName !== undefined) {
    // Only now that the server listens: the profile never points at a server that failed to start.
    store.saveEndpoint(profileName, normalizeBaseUrl(sandbox.baseUrl), sandbox.apiKey);
    ready = { base_url: sandbox.baseUrl, profile: profileName };
    log(`saved base URL and key to profile ${profileName}`);
  }
  io.stdout.write(`${JSON.stringify(ready)}\n`);
  log(`pravo sandbox listening on ${sandbox.baseUrl} (${sandbox.documentCount} documents, data in ${dataDir}); key ${sandbox.keyId} issued; Ctrl-C stops it`);
  if (!LOOPBACK_HOSTS.has(options.host)) log(`warning: listening on ${options.host}: the sandbox is reachable from other machines`);

  if (!f.signal.aborted) await new Promise<void>((resolve) => f.signal.addEventListener('abort', () => resolve(), { once: true }));
  log(`${String(f.signal.reason ?? 'signal')}: stopping`);
  await sandbox.close();
  log('stopped');
  return 0;
}

/** A quota option's value: a whole number of units per month, or undefined when not given. @throws UsageError */
function quotaOption(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`${name} takes a whole number, not "${sanitizeLine(value)}"`);
  return Number(value);
}

/** Longest `--answer-delay`, in seconds (an hour: far past the 15 minutes after which a job times out). */
export const ANSWER_DELAY_MAX_SECONDS = 3600;

/**
 * A decimal option's value from 0 to `max` (digits with an optional fraction: `3`, `0.5`, `.25`; surrounding white
 * space ignored), or undefined when not given.
 * @throws UsageError naming the option, the range and the value (sanitized).
 */
function decimalOption(name: string, value: string | undefined, max: number, what: string): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value.trim());
  if (!/^(\d+(\.\d*)?|\.\d+)$/.test(value.trim()) || !(number <= max)) {
    throw new UsageError(`${name} takes ${what} from 0 to ${max}, not "${sanitizeLine(value)}"`);
  }
  return number;
}

/** Checks the `--save-to-profile` name with the rules of every profile name. @throws UsageError */
function checkSaveToProfile(name: string): string {
  try {
    return checkProfileName(name);
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(`--save-to-profile: ${error.message}`);
    throw error;
  }
}
