/**
 * `pravo keys create | list | revoke` (spec: Key and account endpoints; API key facts; Authentication, User-session
 * token): the account's API keys, managed with the user-session token (`pravo login`), never with the API key. The
 * full value of a new key is printed once (stdout), or stored in a profile and printed nowhere; listings never hold a
 * secret and mark the key of the profile in use. `keys rotate` is in `rotate.ts`.
 */
import type { KeyFacts } from '../../api/keys.js';
import { KEY_NAME_MAX_LENGTH } from '../../contract/limits.js';
import { normalizeBaseUrl } from '../../api/base-url.js';
import { checkSaveToProfile } from '../../config/store.js';
import { UsageError, UserCancelledError } from '../../errors/cli.js';
import { EXIT } from '../../errors/exit-codes.js';
import type { Factory } from '../../factory.js';
import { Printer } from '../../io/printer.js';
import { escapeJsonForTerminal, sanitizeLine } from '../../shared/sanitize.js';
import { waitWithSpinner } from '../../services/waiting.js';

/** Options of `pravo keys create`. */
export interface CreateOptions {
  name: string;
  saveToProfile?: string;
  json?: boolean;
}

/** Options of `pravo keys list`. */
export interface ListOptions {
  json?: boolean;
}

/** Options of `pravo keys revoke`. */
export interface RevokeOptions {
  yes?: boolean;
  json?: boolean;
}

/**
 * A key name as `POST /v1/keys` takes it (see `KeyCreateRequest`): trimmed, 1 to {@link KEY_NAME_MAX_LENGTH}
 * characters, no control characters.
 * @throws UsageError naming the rule broken (nothing is sent).
 */
export function checkKeyName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') throw new UsageError('--name must not be empty: name the key after the integration or environment that will use it, e.g. --name ci-deploy.');
  if ([...trimmed].length > KEY_NAME_MAX_LENGTH) throw new UsageError(`--name is ${[...trimmed].length} characters long; at most ${KEY_NAME_MAX_LENGTH} are accepted.`);
  if (sanitizeLine(trimmed) !== trimmed) throw new UsageError('--name must not contain control characters (tabs, line breaks, escape sequences).');
  return trimmed;
}

/**
 * A `key_id` from the command line: 1 to 200 printable characters without white space or `/`.
 * @throws UsageError (nothing is sent).
 */
export function checkKeyId(keyId: string): string {
  if (!/^[\x21-\x7e]{1,200}$/.test(keyId) || keyId.includes('/')) {
    throw new UsageError(`"${sanitizeLine(keyId)}" is not a key id: take it from \`pravo keys list\` (e.g. key_3f9a1c2b4d5e).`);
  }
  return keyId;
}

/** Whether a failed request may have reached the server and done its work (a 5xx, a timeout or a drop after sending). */
export function mayHaveReachedServer(error: unknown): boolean {
  return (error as { mayHaveBeenCounted?: unknown } | null)?.mayHaveBeenCounted === true;
}

/**
 * `pravo keys create --name N [--save-to-profile P]`: `POST /v1/keys`. Without `--save-to-profile`, the full key goes
 * to stdout, once (the server's body with `--json`), with a warning on stderr that it will not be shown again. With
 * it, the key is stored in profile P (with its `key_id`, and the target's base URL when P has none) and printed
 * nowhere. Returns the exit code.
 * @throws UsageError before anything is sent: a bad name; `--save-to-profile` with `--sandbox` (its base URL dies with
 *   the command), naming a profile that already holds a key (`keys rotate` replaces one) or that points at another
 *   service. The request's errors; when it may have reached the server, a note says how to find the key.
 */
export async function runCreate(factory: Factory, options: CreateOptions): Promise<number> {
  const name = checkKeyName(options.name);
  const printer = new Printer(factory.io, options.json === true);
  let saveTo: string | undefined;
  if (options.saveToProfile !== undefined) {
    saveTo = checkSaveToProfile(options.saveToProfile);
    if (factory.globals.sandbox) {
      throw new UsageError(
        '--save-to-profile with --sandbox would store a key for a server that stops with this command. Run `pravo sandbox serve --save-to-profile NAME` for a sandbox that stays up, and create keys against that profile.',
      );
    }
  }
  const target = await factory.target();
  const store = saveTo === undefined ? undefined : await factory.config();
  if (store !== undefined && saveTo !== undefined) checkProfileCanReceive(store.data().profiles?.[saveTo], saveTo, target.baseUrl);

  const client = await factory.client();
  let response;
  try {
    response = await waitWithSpinner(factory, 'Creating the key', () => client.keys.create({ name }, { signal: factory.signal }));
  } catch (error) {
    if (mayHaveReachedServer(error)) {
      printer.note(`The key "${name}" may have been created without pravo seeing it. \`pravo keys list\` shows it; revoke it with \`pravo keys revoke KEY_ID\` if so.`);
    }
    throw error;
  }
  const { readCreatedKey } = await import('../../api/keys.js');
  const created = readCreatedKey(response.data);
  if (created === undefined) {
    // The key exists but pravo cannot tell where its value is: the body is its only copy, so it is printed whole.
    const raw = factory.io.stdoutIsTTY ? escapeJsonForTerminal(response.raw) : response.raw;
    factory.io.stdout.write(raw.endsWith('\n') ? raw : `${raw}\n`);
    printer.note('The server created a key, but its response holds no key value and id that pravo recognizes; the body is printed above as sent. Keep what you need of it now.');
    return EXIT.error;
  }
  const { describeKey } = await import('../../render/keys.js');
  const described = describeKey(created.record);
  if (store !== undefined && saveTo !== undefined) {
    store.updateProfile(saveTo, (profile) => {
      profile.base_url ??= normalizeBaseUrl(target.baseUrl);
      profile.api_key = created.apiKey;
      profile.api_key_id = created.record.keyId;
      profile.auth_header ??= 'x-api-key';
    });
    // Whatever field the server put the key in, it is not printed.
    const record = Object.fromEntries(Object.entries(response.data).filter(([, value]) => value !== created.apiKey));
    printer.report(
      { ...record, profile: saveTo },
      `Created key ${described} and stored it in profile "${saveTo}" (it is not printed). Use it with \`pravo --profile ${saveTo} …\`.`,
    );
    return EXIT.ok;
  }
  if (printer.mode === 'json') printer.responseIfJson(response);
  else factory.io.stdout.write(`${created.apiKey}\n`);
  printer.note(
    `Created key ${described}. This is the only time its full value is shown: store it now, e.g. in a profile with \`pravo config set-key --stdin --profile NAME\`.`,
  );
  return EXIT.ok;
}

/**
 * Refuses to store a new key in a profile that already holds one (that key would stay active, its only copy
 * overwritten: `keys rotate` replaces a key and revokes the old one) or that points at another service.
 * @throws UsageError (nothing is sent).
 */
function checkProfileCanReceive(stored: unknown, name: string, targetBaseUrl: string): void {
  const profile = (typeof stored === 'object' && stored !== null ? stored : {}) as { api_key?: unknown; base_url?: unknown };
  if (profile.api_key !== undefined) {
    throw new UsageError(
      `Profile "${name}" already holds a key; storing a new one would lose it while it stays active. Replace it with \`pravo keys rotate --profile ${name}\` (which revokes the old key once the new one works), or choose another profile.`,
    );
  }
  if (typeof profile.base_url === 'string') {
    let theirs: string | undefined;
    try {
      theirs = normalizeBaseUrl(profile.base_url);
    } catch {
      theirs = undefined;
    }
    if (theirs !== normalizeBaseUrl(targetBaseUrl)) {
      throw new UsageError(
        `Profile "${name}" points at ${sanitizeLine(profile.base_url)}, but the key would be created on ${sanitizeLine(targetBaseUrl)}. Choose a profile of that service, or a new one.`,
      );
    }
  }
}

/** The key in use and where it comes from, to mark it among the account's keys. */
export interface CurrentKey {
  /** The API key the profile (or the in-process sandbox) uses. */
  apiKey: string | undefined;
  /** Its `key_id` when the profile knows it. */
  keyId: string | undefined;
  /** `profile "work"`, `PRAVO_API_KEY`, `the in-process sandbox`. */
  source: string;
}

/** The key the run's target uses. */
export async function currentKey(factory: Factory): Promise<CurrentKey> {
  const target = await factory.target();
  const apiKey = target.credentials.api_key?.apiKey;
  if (target.kind === 'sandbox') return { apiKey, keyId: undefined, source: 'the in-process sandbox' };
  const profile = await factory.profile();
  return {
    apiKey,
    keyId: profile.api_key_id,
    source: profile.sources.api_key === 'env' ? 'PRAVO_API_KEY' : `profile "${profile.name}"`,
  };
}

/** `GET /v1/keys` with the run's client, behind a spinner labelled `label`, read: the records and the raw response. */
export async function fetchKeys(factory: Factory, label = 'Listing the keys'): Promise<{ keys: KeyFacts[]; raw: string }> {
  const client = await factory.client();
  const response = await waitWithSpinner(factory, label, () => client.keys.list({ signal: factory.signal }));
  const { readKeyList } = await import('../../api/keys.js');
  return { keys: readKeyList(response.data), raw: response.raw };
}

/** `pravo keys list`: `GET /v1/keys`, as a table, TSV or the server's body (`--json`). Returns the exit code. */
export async function runList(factory: Factory, options: ListOptions): Promise<number> {
  const printer = new Printer(factory.io, options.json === true);
  const current = await currentKey(factory);
  const { keys, raw } = await fetchKeys(factory);
  const { findKeyRecord } = await import('../../api/keys.js');
  const mine = findKeyRecord(keys, current.apiKey, current.keyId);
  const now = factory.clock.now();
  await keepKnownKeys(factory, keys, now);
  await printer.response(
    { raw, data: { keys, ...(mine ? { currentKeyId: mine.keyId } : {}), ...(current.apiKey ? { currentSource: current.source } : {}) } },
    async () => (await import('../../render/keys.js')).keysView(now),
  );
  return EXIT.ok;
}

/**
 * `pravo keys revoke KEY_ID`: asks on a terminal, naming the key (from `GET /v1/keys`) and warning when it is the key
 * in use; `--yes` skips the question (and the listing). A key already revoked is reported without a request. Then
 * `POST /v1/keys/{key_id}/revoke`. Returns the exit code.
 * @throws UsageError before anything is sent: a bad id; no terminal to ask on and no `--yes`. UserCancelledError when
 *   the user declines. The request's errors (404 `not_found` for an id not on the account: exit 1).
 */
export async function runRevoke(factory: Factory, keyIdArgument: string, options: RevokeOptions): Promise<number> {
  const keyId = checkKeyId(keyIdArgument);
  if (!options.yes && !factory.io.canPrompt) {
    throw new UsageError('Revoking a key cannot be undone, and there is no terminal to confirm on: add --yes to revoke it.');
  }
  const printer = new Printer(factory.io, options.json === true);
  const current = await currentKey(factory);
  const { findKeyRecord } = await import('../../api/keys.js');
  const { describeKey } = await import('../../render/keys.js');
  let record: KeyFacts | undefined;
  let isCurrent = false;
  if (!options.yes) {
    const { keys } = await fetchKeys(factory, 'Looking up the key');
    record = keys.find((k) => k.keyId === keyId);
    isCurrent = record !== undefined && findKeyRecord(keys, current.apiKey, current.keyId)?.keyId === keyId;
    if (record?.status === 'revoked') {
      printer.report({ key_id: keyId, status: 'revoked', revoked_at: record.revokedAt ?? null, changed: false }, `Key ${describeKey(record)} is already revoked; nothing to do.`);
      return EXIT.ok;
    }
    const what = record ? describeKey(record) : `${sanitizeLine(keyId)} (not in this account's list of keys)`;
    const warning = isCurrent ? ` It is the key of ${current.source}: pravo stops working with it at once.` : ' Integrations still using it stop working.';
    const { confirm } = await import('@inquirer/prompts');
    const go = await confirm(
      // Revoking cannot be undone: Enter alone answers no, whichever key it is.
      { message: `Revoke key ${what}?${warning} This cannot be undone.`, default: false },
      { input: factory.io.stdin, output: factory.io.promptOutput, signal: factory.signal },
    );
    if (!go) throw new UserCancelledError('Not revoked; nothing was sent.');
  }
  const client = await factory.client();
  const response = await waitWithSpinner(factory, 'Revoking the key', () => client.keys.revoke(keyId, { signal: factory.signal }));
  const { readKeyRecord } = await import('../../api/keys.js');
  const revoked = readKeyRecord(response.data) ?? record ?? { keyId };
  if (options.yes && current.apiKey !== undefined) isCurrent = (current.keyId !== undefined ? current.keyId === keyId : findKeyRecord([revoked], current.apiKey) !== undefined);
  await forgetRevokedKey(factory, keyId);
  if (printer.mode === 'json' && response.raw.trim() !== '') printer.responseIfJson(response);
  else printer.report({ key_id: keyId, status: 'revoked' }, `Revoked key ${describeKey({ ...revoked, status: 'revoked' })}.`);
  if (printer.mode !== 'json') {
    printer.note('Other instances of the service may still accept it for up to 60 s, until their authentication cache expires.');
    if (isCurrent) {
      printer.note(
        `It was the key of ${current.source}: store another with \`pravo config set-key\`, or next time replace a key with \`pravo keys rotate\`, which revokes the old key only once the new one works.`,
      );
    }
  }
  return EXIT.ok;
}

/**
 * Keeps the ids, names and statuses of a listing for shell completion (`pravo keys revoke <TAB>`; `state/known-keys.ts`).
 * Best effort: a listing that cannot be kept costs only the completion, never the command.
 */
async function keepKnownKeys(factory: Factory, keys: readonly KeyFacts[], now: number): Promise<void> {
  const { knownKeysScope, saveKnownKeys } = await import('../../state/known-keys.js');
  const scope = knownKeysScope((await factory.profile()).name, factory.globals.sandbox === true);
  const kept = keys.map((k) => ({ key_id: k.keyId, name: k.name ?? '', status: k.status ?? '' }));
  await saveKnownKeys(factory.env, scope, { saved_at: new Date(now).toISOString(), keys: kept }).catch(() => {});
}

/** Marks a revoked key so in the kept listing, when there is one, so completion stops offering it. Best effort. */
async function forgetRevokedKey(factory: Factory, keyId: string): Promise<void> {
  const [{ knownKeysFile, knownKeysScope, saveKnownKeys }, { readJsonFile }] = await Promise.all([
    import('../../state/known-keys.js'),
    import('../../state/atomic.js'),
  ]);
  const scope = knownKeysScope((await factory.profile()).name, factory.globals.sandbox === true);
  const known = await readJsonFile<import('../../state/known-keys.js').KnownKeys>(knownKeysFile(factory.env, scope)).catch(() => undefined);
  if (!known || !Array.isArray(known.keys)) return;
  const keys = known.keys.map((k) => (k.key_id === keyId ? { ...k, status: 'revoked' } : k));
  await saveKnownKeys(factory.env, scope, { ...known, keys }).catch(() => {});
}
