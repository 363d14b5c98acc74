/**
 * `pravo sandbox token`: mints a user-session token of the sandbox's account `acct_sandbox` (spec: Authentication,
 * User-session token; the live service has them issued by an identity provider) for the key and account endpoints,
 * by writing the session into the data directory's `state.sqlite`. No server is needed, and a server on that directory
 * accepts the token at once: it reads sessions from the database at every request.
 *
 * Output: the token alone on stdout and a note on stderr (default); `{"session_token","expires_at","account_id"}`
 * (`--json`); with `--save-to-profile NAME`, the token goes into that profile's `session_token` and is printed nowhere
 * (`{"profile","expires_at"}` with `--json`, else a note on stderr).
 */
import { prepareDataDir } from '../../config/sandbox.js';
import { checkSaveToProfile } from '../../config/store.js';
import { UsageError } from '../../errors/cli.js';
import type { Factory } from '../../factory.js';
import { sanitizeLine } from '../../shared/sanitize.js';
import { explainStartFailure } from '../../target.js';

/** Options of `pravo sandbox token` as commander parses them. */
export interface TokenOptions {
  dataDir?: string;
  /** `--expires-in DURATION`: `30m`, `12h`, `7d`… (see {@link parseExpiresIn}); commander's default `24h`. */
  expiresIn?: string;
  /** `--save-to-profile NAME`: store the token in that profile instead of printing it. */
  saveToProfile?: string;
  json?: boolean;
}

/** What `pravo sandbox token --json` prints (without `--save-to-profile`). */
export interface TokenJson {
  session_token: string;
  /** ISO 8601 UTC. */
  expires_at: string;
  account_id: string;
}

/** Milliseconds per unit of `--expires-in`. */
const UNIT_MS: Readonly<Record<string, number>> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Longest `--expires-in`, in milliseconds (30 days: the state's `SESSION_TTL_MAX_MS`). */
export const EXPIRES_IN_MAX_MS = 30 * 86_400_000;

/**
 * A `--expires-in` value: a whole number followed by `s`, `m`, `h` or `d` (seconds, minutes, hours, days; surrounding
 * white space ignored), e.g. `30m`, `12h`, `7d`; more than 0 and at most 30 days.
 * @returns the lifetime in milliseconds.
 * @throws UsageError naming the option, the form and the value (sanitized).
 */
export function parseExpiresIn(value: string): number {
  const match = /^(\d+)([smhd])$/.exec(value.trim());
  const ms = match ? Number(match[1]) * UNIT_MS[match[2]!]! : Number.NaN;
  if (!(ms > 0 && ms <= EXPIRES_IN_MAX_MS)) {
    throw new UsageError(
      `--expires-in takes a duration such as 30m, 12h or 7d (a whole number and s, m, h or d), more than 0 and at most 30d; not "${sanitizeLine(value)}"`,
    );
  }
  return ms;
}

/**
 * Mints the session and prints or stores it; returns the exit code (0).
 * @throws UsageError for a bad `--expires-in`, `--save-to-profile` name or `--data-dir`; ConfigError or
 *   EnvironmentError when the data directory or the config file cannot be used (naming it).
 */
export async function runToken(factory: Factory, options: TokenOptions): Promise<number> {
  const { io } = factory;
  const given = options.expiresIn ?? '24h';
  const ttlMs = parseExpiresIn(given);
  const profileName = options.saveToProfile === undefined ? undefined : checkSaveToProfile(options.saveToProfile);
  const store = profileName === undefined ? undefined : await factory.config();
  const dataDir = prepareDataDir(options.dataDir, factory.env);
  const { mintSession, DEFAULT_ACCOUNT_ID } = await import('../../sandbox/index.js');
  let session: { session_token: string; expires_at: string };
  try {
    session = await mintSession(dataDir, { ttlMs, clock: factory.clock });
  } catch (error) {
    throw explainStartFailure(error, { dataDir });
  }
  const lifetime = given.trim();

  if (profileName !== undefined && store !== undefined) {
    store.updateProfile(profileName, (profile) => {
      profile.session_token = session.session_token;
    });
    if (options.json) {
      io.stdout.write(`${JSON.stringify({ profile: profileName, expires_at: session.expires_at })}\n`);
    } else {
      const noBaseUrl = store.profile(profileName).base_url
        ? ''
        : ` Profile ${profileName} has no base URL yet: \`pravo sandbox serve --save-to-profile ${profileName}\` sets it (and the key).`;
      io.message(`Saved a session token of ${DEFAULT_ACCOUNT_ID} to profile ${profileName}, valid until ${session.expires_at} (${lifetime}).${noBaseUrl}`);
    }
    return 0;
  }
  if (options.json) {
    const body: TokenJson = { session_token: session.session_token, expires_at: session.expires_at, account_id: DEFAULT_ACCOUNT_ID };
    io.stdout.write(`${JSON.stringify(body)}\n`);
    return 0;
  }
  io.stdout.write(`${session.session_token}\n`);
  io.message(
    `Session token of ${DEFAULT_ACCOUNT_ID}, valid until ${session.expires_at} (${lifetime}), for /v1/keys and /v1/account of a sandbox on ${dataDir}: send it as Authorization: Bearer <token>.`,
  );
  return 0;
}
