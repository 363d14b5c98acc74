/**
 * What a command runs with (in the manner of the GitHub CLI's factory): its IO streams, environment, global options,
 * clock and cancellation signal, and lazy, memoized accessors for the config store, the resolved profile, the target
 * (the live service or an in-process sandbox) and the API client. Heavy modules load only when an accessor is first
 * called, so a command that needs no client never loads undici, and one that needs no sandbox never loads node:sqlite.
 * Whatever an accessor opens is closed by {@link Factory.close}, which the runner calls on every path.
 */
import type { Clock } from './shared/clock.js';
import type { LegalResearchClient, RetryNotice } from './api/client.js';
import type { Credentials } from './api/credentials.js';
import type { ConfigStore } from './config/store.js';
import type { ResolvedProfile } from './config/profile.js';
import type { TargetOptions } from './config/target-options.js';
import type { ErrorContext } from './errors/advice.js';
import type { IOStreams } from './io/iostreams.js';
import type { Target } from './target.js';

/** Options every command accepts (program-level), plus the target options of API commands. */
export interface GlobalOptions extends TargetOptions {
  /** `--profile NAME`. */
  profile?: string;
  /** `--no-color` sets false. */
  color?: boolean;
  /** `--no-pager` sets false. */
  pager?: boolean;
}

/** What a factory is built from. */
export interface FactoryDeps {
  io: IOStreams;
  globals: GlobalOptions;
  clock: Clock;
  /** Aborted on Ctrl-C or SIGTERM. */
  signal: AbortSignal;
  /** Version of pravo, for the User-Agent. */
  version: string;
  /** Told of each wait before a request is tried again (the runner shows it on stderr; the client never prints). */
  onRetry?: (notice: RetryNotice) => void;
  /**
   * The config store when the runner opened it already (to read the profile's `sandbox` setting), so that it is read
   * once; otherwise {@link Factory.config} opens it on first use.
   */
  config?: Promise<ConfigStore>;
}

/** The lazily built world of one command run. */
export class Factory {
  readonly io: IOStreams;
  readonly env: NodeJS.ProcessEnv;
  readonly globals: GlobalOptions;
  readonly clock: Clock;
  readonly signal: AbortSignal;
  readonly version: string;
  readonly #onRetry: ((notice: RetryNotice) => void) | undefined;
  readonly #closers: (() => Promise<void> | void)[] = [];
  #config: Promise<ConfigStore> | undefined;
  #profile: Promise<ResolvedProfile> | undefined;
  #target: Promise<Target> | undefined;
  #client: Promise<LegalResearchClient> | undefined;
  #resolvedProfile: ResolvedProfile | undefined;
  #resolvedTarget: Target | undefined;

  constructor(deps: FactoryDeps) {
    this.io = deps.io;
    this.env = deps.io.env;
    this.globals = deps.globals;
    this.clock = deps.clock;
    this.signal = deps.signal;
    this.version = deps.version;
    this.#onRetry = deps.onRetry;
    this.#config = deps.config;
  }

  /** The config store (opened once). @throws ConfigError when the config file cannot be read. */
  config(): Promise<ConfigStore> {
    this.#config ??= import('./config/store.js').then(({ ConfigStore }) => ConfigStore.open(this.env));
    return this.#config;
  }

  /** The active profile with the environment's overrides. @throws ConfigError for an invalid profile name. */
  profile(): Promise<ResolvedProfile> {
    this.#profile ??= Promise.all([this.config(), import('./config/profile.js')]).then(([store, { resolveProfile }]) => {
      this.#resolvedProfile = resolveProfile(store.data(), this.env, this.globals.profile, store.path);
      return this.#resolvedProfile;
    });
    return this.#profile;
  }

  /**
   * Where requests go: an in-process sandbox with `--sandbox` (started once, stopped by {@link close}), else the
   * profile's service.
   * @throws UsageError for `--corpus`/`--data-dir` without `--sandbox`; ConfigError for a missing base URL or corpus;
   *   EnvironmentError when the sandbox cannot start.
   */
  target(): Promise<Target> {
    this.#target ??= this.#openTarget().then((target) => {
      this.#resolvedTarget = target;
      return target;
    });
    return this.#target;
  }

  async #openTarget(): Promise<Target> {
    // The service needs neither the corpus reader nor the sandbox's modules: they load only for --sandbox.
    const [{ checkTargetOptions }, targets] = await Promise.all([import('./config/target-options.js'), import('./target.js')]);
    checkTargetOptions(this.globals);
    if (!this.globals.sandbox) return targets.serviceTarget(await this.profile());
    const { answerDelayFromEnv, resolveCorpus, prepareDataDir } = await import('./config/sandbox.js');
    const store = await this.config();
    const inputs = resolveCorpus(this.globals.corpus, this.env, store.sandboxCorpus());
    const dataDir = prepareDataDir(this.globals.dataDir, this.env);
    const answerDelaySeconds = answerDelayFromEnv(this.env);
    const target = await targets.sandboxTarget(this.io, this.clock, {
      inputs,
      dataDir,
      signal: this.signal,
      key: { stored: () => store.sandboxKey(dataDir), save: (key) => store.setSandboxKey(dataDir, key) },
      ...(answerDelaySeconds !== undefined ? { answerDelayMs: Math.round(answerDelaySeconds * 1000) } : {}),
    });
    this.defer(() => target.close());
    return target;
  }

  /**
   * Identity of the target's data for the response cache (`services/cached-get.ts`), known without starting anything:
   * the profile's normalized base URL for the service; for `--sandbox`, `sandbox:<inputs key>`, the key of its corpus
   * inputs by content (`corpusInputsKey`: the files' hashes only, about 30 ms for the real corpus; stable across runs
   * and data directories, unlike an in-process sandbox's port; the same key names its index). Never a credential.
   * @throws as {@link target} for bad target options or a missing base URL or corpus; EnvironmentError when an input
   *   file cannot be read.
   */
  async cacheScope(): Promise<string> {
    const [{ checkTargetOptions }, targets] = await Promise.all([import('./config/target-options.js'), import('./target.js')]);
    checkTargetOptions(this.globals);
    if (!this.globals.sandbox) return targets.serviceTarget(await this.profile()).baseUrl;
    const [{ resolveCorpus }, { corpusInputsKey }] = await Promise.all([import('./config/sandbox.js'), import('./sandbox/index.js')]);
    const store = await this.config();
    const inputs = resolveCorpus(this.globals.corpus, this.env, store.sandboxCorpus());
    try {
      return `sandbox:${await corpusInputsKey(inputs)}`;
    } catch (error) {
      // A corpus file that vanished or cannot be read: said as a start of the sandbox would say it.
      throw error instanceof Error && error.name === 'CorpusError' ? targets.explainStartFailure(error, { dataDir: '' }) : error;
    }
  }

  /** The API client of the target (built once, closed by {@link close}). @throws as {@link target}, and InvalidBaseUrlError. */
  client(): Promise<LegalResearchClient> {
    this.#client ??= this.target().then((target) => this.clientFor(target.credentials));
    return this.#client;
  }

  /**
   * A new client of the target's base URL carrying `credentials`: the target's own for {@link client}, others for a
   * session token being checked before it is stored or a new key being confirmed before the old one is revoked;
   * closed by {@link close}.
   * @throws as {@link target}, and InvalidBaseUrlError.
   */
  async clientFor(credentials: Credentials): Promise<LegalResearchClient> {
    const [target, { LegalResearchClient }] = await Promise.all([this.target(), import('./api/client.js')]);
    const client = new LegalResearchClient({
      baseUrl: target.baseUrl,
      credentials,
      clock: this.clock,
      userAgent: `pravo/${this.version}`,
      ...(this.#onRetry ? { onRetry: this.#onRetry } : {}),
    });
    this.defer(() => client.close());
    return client;
  }

  /** What error advice may use: the profile and where its key came from, whether a sandbox was the target. */
  errorContext(command: string): ErrorContext {
    const context: ErrorContext = { command };
    const profile = this.#resolvedTarget?.profile ?? this.#resolvedProfile?.name ?? this.globals.profile;
    if (profile !== undefined) context.profile = profile;
    const source = this.#resolvedTarget?.apiKeySource ?? this.#resolvedProfile?.sources.api_key;
    if (source !== undefined) context.apiKeySource = source;
    const sessionSource = this.globals.sandbox ? 'sandbox' : this.#resolvedProfile?.sources.session_token;
    if (sessionSource !== undefined) context.sessionSource = sessionSource;
    if (this.globals.sandbox) context.sandbox = true;
    return context;
  }

  /** Registers something to close when the command ends (closed in reverse order). */
  defer(close: () => Promise<void> | void): void {
    this.#closers.push(close);
  }

  /** Closes everything opened, in reverse order; never throws (a failure to close is not the command's failure). */
  async close(): Promise<void> {
    for (const close of this.#closers.splice(0).reverse()) {
      try {
        await close();
      } catch {
        // Closing is best effort: the command's own outcome stands.
      }
    }
  }
}
