/**
 * `pravo keys rotate [--profile P]`: the spec's recommended rotation (Authentication, API key, rule 5: "create the new
 * key, deploy it, confirm successful requests with it, then revoke the old key") as one guided command, journaled so
 * that a failure or an interruption at any step leaves the profile on a working key and no orphaned active key, and a
 * rerun continues from where the last run stopped.
 *
 * The journal is the profile's `rotation` field in the config file: the only file pravo ever writes a secret to, and
 * one it writes atomically, so each step below is one all-or-nothing write.
 *
 * | step | written | the profile's key | a rerun |
 * |---|---|---|---|
 * | `planned` | before `POST /v1/keys` | the old key | revokes the active keys named as this rotation's that the server may have created without pravo seeing them (their value was never stored), then creates the key again |
 * | `deployed` | with the new key, as it arrives | the new key; the old one kept in the journal | confirms the new key again |
 * | `verified` | once `GET /v1/usage` succeeded with the new key | the new key | asks, then revokes the old key |
 * | `reverted` | when the new key failed its confirmation | the old key again | revokes the unused new key, then starts over |
 *
 * The journal is removed once the old key is revoked (or once a failed rotation is cleaned up). A per-profile lock
 * (`<state dir>/keys-rotate-<profile>.lock`) keeps two rotations of one profile from running at once.
 */
import path from 'node:path';
import type { LegalResearchClient } from '../../api/client.js';
import { ApiError, CancelledError, NotFoundError } from '../../api/errors.js';
import type { KeyFacts } from '../../api/keys.js';
import { KEY_NAME_MAX_LENGTH } from '../../contract/limits.js';
import { maskKey, type ResolvedProfile } from '../../config/profile.js';
import type { ConfigStore, Profile } from '../../config/store.js';
import { ConfigError, UsageError, UserCancelledError } from '../../errors/cli.js';
import { EXIT } from '../../errors/exit-codes.js';
import type { Factory } from '../../factory.js';
import { Printer } from '../../io/printer.js';
import { sanitizeLine } from '../../shared/sanitize.js';
import { describeKey } from '../../render/keys.js';
import { ensurePrivateDir, pravoPaths } from '../../state/paths.js';
import { waitWithSpinner } from '../../services/waiting.js';
import { checkKeyName, fetchKeys } from './run.js';

/** Options of `pravo keys rotate`. */
export interface RotateOptions {
  /** The new key's name; default the old key's name with ` (rotated <date>)`. */
  name?: string;
  yes?: boolean;
  json?: boolean;
}

/** A step of the rotation (see the module's table). */
export type RotationStep = 'planned' | 'deployed' | 'verified' | 'reverted';

/** A key as the journal remembers it: never its secret. */
export interface JournalKey {
  key_id: string;
  prefix?: string;
  name?: string;
}

/** The journal of an unfinished rotation, kept as the profile's `rotation`. */
export interface RotationJournal {
  version: 1;
  /** ISO 8601 UTC: when the rotation began (keys it created are at least this young, less clock skew). */
  started_at: string;
  /** The service it ran against, for the report. */
  base_url: string;
  /** The name the new key is created with; how a key created without pravo seeing it is recognized. */
  name: string;
  old: JournalKey & {
    /** The old key was already revoked when the rotation began: there is nothing to revoke at the end. */
    already_revoked?: boolean;
  };
  step: RotationStep;
  /** The new key, once created (its value is then the profile's `api_key`). */
  new?: JournalKey;
  /** The old key's value while the new one is unconfirmed (`deployed`), to put back if the new one fails. */
  previous_api_key?: string;
}

/** Keys created by an interrupted run are looked for among those created up to this long before it began (clock skew). */
const CLOCK_SKEW_MS = 10 * 60_000;

const STEPS: readonly RotationStep[] = ['planned', 'deployed', 'verified', 'reverted'];

/**
 * The journal stored in a profile, checked; undefined when there is none.
 * @throws ConfigError when it is not one pravo wrote (a file edited by hand), naming what is wrong.
 */
export function readRotationJournal(value: unknown, profile: string, file: string): RotationJournal | undefined {
  if (value === undefined) return undefined;
  const journal = value as Partial<RotationJournal>;
  const isKey = (key: unknown): key is JournalKey =>
    typeof key === 'object' && key !== null && typeof (key as JournalKey).key_id === 'string' && (key as JournalKey).key_id !== '';
  const problem =
    journal.version !== 1
      ? 'its version is not 1'
      : typeof journal.started_at !== 'string' || typeof journal.name !== 'string' || typeof journal.base_url !== 'string'
        ? 'started_at, name or base_url is missing'
        : !isKey(journal.old)
          ? 'old.key_id is missing'
          : !STEPS.includes(journal.step as RotationStep)
            ? `its step is not one of ${STEPS.join(', ')}`
            : journal.step !== 'planned' && !isKey(journal.new)
              ? 'new.key_id is missing'
              : journal.step === 'deployed' && typeof journal.previous_api_key !== 'string'
                ? 'previous_api_key is missing'
                : undefined;
  if (problem !== undefined) {
    throw new ConfigError(
      `In ${file}, the rotation journal of profile "${profile}" cannot be read (${problem}). Check the account's keys with \`pravo keys list\`, then fix or remove "rotation" from that profile.`,
    );
  }
  return journal as RotationJournal;
}

/**
 * The name of the new key: the old key's name (or `pravo`, without an earlier ` (rotated …)`) followed by
 * ` (rotated 2026-11-22)` (the UTC date: the key list dates each key besides), the old name shortened so that the
 * whole fits {@link KEY_NAME_MAX_LENGTH}.
 */
export function rotatedName(oldName: string | undefined, now: number): string {
  const suffix = ` (rotated ${new Date(now).toISOString().slice(0, 10)})`;
  const base = sanitizeLine(oldName ?? 'pravo').replace(/ \(rotated [^)]*\)$/, '');
  const room = KEY_NAME_MAX_LENGTH - suffix.length;
  const chars = [...base];
  return `${chars.length > room ? `${chars.slice(0, room - 1).join('')}…` : base}${suffix}`;
}

/**
 * What exists after the rotation stopped at `journal`'s step, in words: which key the profile uses and the state of
 * each key (for the messages of a failure, a refusal or an interruption).
 */
export function describeRotationState(journal: RotationJournal, profile: string): string {
  const old = keyWords(journal.old);
  const fresh = journal.new ? keyWords(journal.new) : undefined;
  const rerun = `Rerun \`pravo keys rotate${profileFlag(profile)}\` to continue`;
  switch (journal.step) {
    case 'planned':
      return `Profile "${profile}" still uses the old key ${old}, which stays active. A new key named "${sanitizeLine(journal.name)}" may have been created without pravo seeing it. ${rerun}: it revokes such a key, then creates the new key again.`;
    case 'deployed':
      return `Profile "${profile}" uses the new key ${fresh} (active, not yet confirmed); the old key ${old} is still active, and kept in the rotation's journal in case the new one fails. ${rerun}: it confirms the new key, then revokes the old one.`;
    case 'verified':
      return `Profile "${profile}" uses the new key ${fresh} (active, confirmed); the old key ${old} is still active. ${rerun}: it revokes the old key (or revoke it yourself with \`pravo keys revoke ${sanitizeLine(journal.old.key_id)}\`).`;
    case 'reverted':
      return `Profile "${profile}" is back on the old key ${old} (active); the new key ${fresh} is active but unused. ${rerun}: it revokes the unused key, then starts the rotation again.`;
  }
}

function keyWords(key: JournalKey): string {
  return `${sanitizeLine(key.key_id)}${key.prefix ? ` (${sanitizeLine(key.prefix)}…)` : ''}`;
}

function profileFlag(profile: string): string {
  return profile === 'default' ? '' : ` --profile ${profile}`;
}

/** `pravo keys rotate`'s `--json` object, on stdout when the rotation is done. */
interface RotationResult {
  profile: string;
  done: true;
  new_key: JournalKey;
  old_key: JournalKey & { status: 'revoked' };
}

/** The world of one rotation run. */
interface Rotation {
  factory: Factory;
  store: ConfigStore;
  profile: ResolvedProfile;
  /** The profile as stored at the start: its `api_key` (and `api_key_id`) is the key being replaced. */
  stored: Profile;
  /** Client of the target with the profile's credentials (the session token is what the key endpoints use). */
  client: LegalResearchClient;
  printer: Printer;
  options: RotateOptions;
  /** A progress line on stderr: `  ✓ created key …`. */
  step(line: string): void;
}

/**
 * `pravo keys rotate`: runs the rotation or continues an unfinished one (see the module's doc). Returns the exit code.
 * @throws UsageError before anything is sent: no terminal to confirm on and no `--yes`; a bad `--name`;
 *   another rotation of the profile running. ConfigError: the profile has no key or no base URL. UsageError after the
 *   listing when the profile's key is not among the account's. UserCancelledError when the user declines to revoke
 *   the old key (the new key is in use; a rerun revokes it). The requests' errors, after the state of each key was
 *   said on stderr.
 */
export async function runRotate(factory: Factory, options: RotateOptions): Promise<number> {
  if (!options.yes && !factory.io.canPrompt) {
    throw new UsageError('keys rotate asks before it revokes the old key, and there is no terminal to ask on: add --yes to revoke it once the new key works.');
  }
  const name = options.name === undefined ? undefined : checkKeyName(options.name);
  const [store, profile] = await Promise.all([factory.config(), factory.profile()]);
  // The profile's own key is what is rotated, whatever PRAVO_API_KEY says (it is named in a note at the end).
  const stored = store.profile(profile.name);
  if (stored.api_key === undefined) {
    throw new ConfigError(
      `Profile "${profile.name}" has no key to rotate. Create one with \`pravo keys create --name NAME --save-to-profile ${profile.name}\`.`,
    );
  }
  await factory.target();
  const lockFile = path.join(ensurePrivateDir(pravoPaths(factory.env).state), `keys-rotate-${profile.name}.lock`);
  const { acquireLock } = await import('../../state/lock.js');
  const lock = await acquireLock(
    lockFile,
    (who) => `Another pravo keys rotate${who} is rotating the key of profile "${profile.name}". Wait for it to finish; if it is surely gone, remove ${lockFile}.`,
    () => factory.clock.now(),
  );
  factory.defer(() => lock.release());

  const printer = new Printer(factory.io, options.json === true);
  const rotation: Rotation = {
    factory,
    store,
    profile,
    stored,
    client: await factory.client(),
    printer,
    options: { ...options, ...(name !== undefined ? { name } : {}) },
    step: (line) => printer.note(`  ${line}`),
  };
  let journal = readRotationJournal(store.data().profiles?.[profile.name]?.rotation, profile.name, store.path);
  printer.note(
    journal
      ? `Continuing the rotation of profile "${profile.name}" begun ${sanitizeLine(journal.started_at)}, stopped at step "${journal.step}":`
      : `Rotating the key of profile "${profile.name}" (${sanitizeLine(profile.base_url ?? '')}):`,
  );
  try {
    if (journal?.step === 'reverted') {
      await revokeUnused(rotation, journal);
      journal = undefined;
    }
    if (journal === undefined) journal = await plan(rotation);
    else if (journal.step === 'planned') await revokeOrphans(rotation, journal);
    if (journal.step === 'planned') journal = await createAndDeploy(rotation, journal);
    if (journal.step === 'deployed') journal = await confirmNewKey(rotation, journal);
    if (journal.step === 'verified') await revokeOld(rotation, journal);
    return finish(rotation, journal);
  } catch (error) {
    const stored = readRotationJournal(store.data().profiles?.[profile.name]?.rotation, profile.name, store.path);
    if (stored !== undefined && !(error instanceof UserCancelledError)) printer.note(describeRotationState(stored, profile.name));
    throw error;
  }
}

/** Writes the journal (or, with undefined, removes it), with `change` applied to the profile in the same write. */
function writeJournal(r: Rotation, journal: RotationJournal | undefined, change: (profile: Profile) => void = () => {}): void {
  r.store.updateProfile(r.profile.name, (profile) => {
    change(profile);
    if (journal === undefined) delete profile.rotation;
    else profile.rotation = { ...journal } as unknown as Record<string, unknown>;
  });
}

/** `GET /v1/keys`, read (see `fetchKeys`). */
async function listKeys(r: Rotation, label: string): Promise<KeyFacts[]> {
  return (await fetchKeys(r.factory, label)).keys;
}

/**
 * A new rotation: finds the profile's key among the account's (`GET /v1/keys`), then writes the journal, `planned`.
 * @throws UsageError when the profile's key is not among them (nothing is changed).
 */
async function plan(r: Rotation): Promise<RotationJournal> {
  const keys = await listKeys(r, 'Finding the key among the account\'s keys');
  const { findKeyRecord } = await import('../../api/keys.js');
  const old = findKeyRecord(keys, r.stored.api_key, r.stored.api_key_id);
  if (old === undefined) {
    throw new UsageError(
      `The key of profile "${r.profile.name}" (${maskKey(r.stored.api_key ?? '')}) is not among the keys of the account this session token belongs to, so pravo cannot tell which key to revoke. Nothing was changed. Compare \`pravo keys list${profileFlag(r.profile.name)}\` with \`pravo login --status${profileFlag(r.profile.name)}\`.`,
      { afterRequest: true },
    );
  }
  const journal: RotationJournal = {
    version: 1,
    started_at: new Date(r.factory.clock.now()).toISOString(),
    base_url: r.profile.base_url ?? '',
    name: r.options.name ?? rotatedName(old.name, r.factory.clock.now()),
    old: {
      key_id: old.keyId,
      ...(old.prefix !== undefined ? { prefix: old.prefix } : {}),
      ...(old.name !== undefined ? { name: old.name } : {}),
      ...(old.status === 'revoked' ? { already_revoked: true } : {}),
    },
    step: 'planned',
  };
  writeJournal(r, journal);
  r.step(`✓ the profile's key is ${describeKey(old)}${old.status === 'revoked' ? ': already revoked, so there is nothing to revoke at the end' : ''}`);
  return journal;
}

/**
 * A rerun at `planned`: the previous run may have created the key and died before storing it. Such keys (active,
 * this rotation's name, created since it began) are unusable, their value lost: each is revoked.
 */
async function revokeOrphans(r: Rotation, journal: RotationJournal): Promise<void> {
  const since = Date.parse(journal.started_at) - CLOCK_SKEW_MS;
  const keys = await listKeys(r, 'Looking for a key the interrupted run created');
  const orphans = keys.filter(
    (k) =>
      k.status === 'active' &&
      k.name === journal.name &&
      k.keyId !== journal.old.key_id &&
      (k.createdAt === undefined || Number.isNaN(Date.parse(k.createdAt)) || Date.parse(k.createdAt) >= since),
  );
  for (const orphan of orphans) {
    await waitWithSpinner(r.factory, 'Revoking the lost key', () => r.client.keys.revoke(orphan.keyId, { signal: r.factory.signal }));
    r.step(`✓ revoked ${describeKey(orphan)}: the interrupted run created it, but its value was never stored`);
  }
}

/**
 * Creates the new key and, in the same write that records it, makes it the profile's key (the old value kept in the
 * journal): `deployed`. A request refused by the server (4xx) created nothing: the journal is removed.
 */
async function createAndDeploy(r: Rotation, journal: RotationJournal): Promise<RotationJournal> {
  let response;
  try {
    response = await waitWithSpinner(r.factory, 'Creating the new key', () => r.client.keys.create({ name: journal.name }, { signal: r.factory.signal }));
  } catch (error) {
    // A 4xx refused the request (only a 5xx, a timeout or a dropped connection may hide a created key).
    if (error instanceof ApiError && error.status < 500) writeJournal(r, undefined);
    throw error;
  }
  const { readCreatedKey, readKeyRecord } = await import('../../api/keys.js');
  const created = readCreatedKey(response.data);
  if (created === undefined) {
    // A key pravo cannot use: revoke it if its id can be read, so it does not stay active unseen.
    const record = readKeyRecord(response.data);
    if (record !== undefined) await r.client.keys.revoke(record.keyId, { signal: r.factory.signal });
    writeJournal(r, undefined);
    throw new UsageError(
      `The server created a key, but its response holds no key value and id that pravo recognizes${record ? `; pravo revoked it (${sanitizeLine(record.keyId)})` : ''}. The profile keeps its old key. \`pravo keys create --json\` shows what the server sends.`,
      { afterRequest: true },
    );
  }
  const deployed: RotationJournal = {
    ...journal,
    step: 'deployed',
    new: {
      key_id: created.record.keyId,
      ...(created.record.prefix !== undefined ? { prefix: created.record.prefix } : {}),
      ...(created.record.name !== undefined ? { name: created.record.name } : {}),
    },
    previous_api_key: r.stored.api_key ?? '',
  };
  writeJournal(r, deployed, (profile) => {
    profile.api_key = created.apiKey;
    profile.api_key_id = created.record.keyId;
  });
  r.step(`✓ created ${describeKey(created.record)} and stored it in profile "${r.profile.name}" (the old key is kept until the new one is confirmed)`);
  return deployed;
}

/**
 * Confirms a successful request with the new key, as the profile sends it (`GET /v1/usage`, which spends no unit):
 * `verified`. When it fails (other than by cancellation), the old key goes back into the profile (`reverted`) and the
 * new one is revoked; the failure is rethrown.
 */
async function confirmNewKey(r: Rotation, journal: RotationJournal): Promise<RotationJournal> {
  const newKey = r.store.profile(r.profile.name).api_key ?? '';
  const client = await r.factory.clientFor({ api_key: { kind: 'api_key', apiKey: newKey, header: r.profile.auth_header } });
  try {
    await waitWithSpinner(r.factory, 'Confirming a request with the new key', () => client.usage.retrieve({ signal: r.factory.signal }));
  } catch (error) {
    if (error instanceof CancelledError || error instanceof UserCancelledError || r.factory.signal.aborted) throw error;
    const reverted: RotationJournal = { ...journal, step: 'reverted' };
    delete reverted.previous_api_key;
    writeJournal(r, reverted, (profile) => {
      profile.api_key = journal.previous_api_key;
      profile.api_key_id = journal.old.key_id;
    });
    r.step(`✗ the new key failed its confirmation: profile "${r.profile.name}" is back on the old key ${keyWords(journal.old)}`);
    try {
      await revokeUnused(r, reverted);
    } catch (revokeError) {
      // The confirmation's failure is what the user must see; the journal says the unused key is still to revoke.
      r.step(`✗ the unused new key ${keyWords(reverted.new!)} could not be revoked: ${sanitizeLine(revokeError instanceof Error ? revokeError.message : String(revokeError))}`);
    }
    throw error;
  }
  const verified: RotationJournal = { ...journal, step: 'verified' };
  delete verified.previous_api_key;
  writeJournal(r, verified);
  r.step('✓ confirmed: GET /v1/usage succeeded with the new key');
  return verified;
}

/** Revokes the new key of a `reverted` rotation, then removes the journal. */
async function revokeUnused(r: Rotation, journal: RotationJournal): Promise<void> {
  const unused = journal.new!;
  try {
    await waitWithSpinner(r.factory, 'Revoking the unused new key', () => r.client.keys.revoke(unused.key_id, { signal: r.factory.signal }));
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
  }
  writeJournal(r, undefined);
  r.step(`✓ revoked the unused new key ${keyWords(unused)}`);
}

/**
 * Asks (unless `--yes`), then revokes the old key; a 404 means it is gone already. The journal is removed after.
 * @throws UserCancelledError when the user declines (the journal stays `verified`).
 */
async function revokeOld(r: Rotation, journal: RotationJournal): Promise<void> {
  if (!journal.old.already_revoked) {
    if (!r.options.yes) {
      const { confirm } = await import('@inquirer/prompts');
      const go = await confirm(
        {
          message: `Revoke the old key ${keyWords(journal.old)}${journal.old.name ? ` "${sanitizeLine(journal.old.name)}"` : ''}? Integrations still using it stop working; profile "${r.profile.name}" already uses the new key.`,
          default: true,
        },
        { input: r.factory.io.stdin, output: r.factory.io.promptOutput, signal: r.factory.signal },
      );
      if (!go) throw new UserCancelledError('The old key was not revoked.', describeRotationState(journal, r.profile.name));
    }
    try {
      await waitWithSpinner(r.factory, 'Revoking the old key', () => r.client.keys.revoke(journal.old.key_id, { signal: r.factory.signal }));
      r.step(`✓ revoked the old key ${keyWords(journal.old)}`);
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      r.step(`✓ the old key ${keyWords(journal.old)} is no longer on the account: nothing to revoke`);
    }
  }
  writeJournal(r, undefined);
}

/** The rotation is done: the summary (stderr), and with `--json` the result (stdout). */
function finish(r: Rotation, journal: RotationJournal): number {
  const fresh = journal.new!;
  const { already_revoked: _wasRevoked, ...old } = journal.old;
  const result: RotationResult = { profile: r.profile.name, done: true, new_key: fresh, old_key: { ...old, status: 'revoked' } };
  r.printer.report(
    result,
    `Done: profile "${r.profile.name}" uses the new key ${keyWords(fresh)}, and the old key ${keyWords(journal.old)} is revoked. Other instances of the service may accept the old key for up to 60 s, until their authentication cache expires.`,
  );
  if (r.printer.mode === 'json') r.printer.note(`Done: profile "${r.profile.name}" uses the new key ${keyWords(fresh)}; the old key is revoked (other instances may accept it for up to 60 s).`);
  if (r.profile.sources.api_key === 'env') {
    r.printer.note('Note: PRAVO_API_KEY is set in this environment and overrides the profile\'s key: commands here keep using that key.');
  }
  return EXIT.ok;
}
