/**
 * `pravo __complete <kind> [words...]`: the values shell completion offers from local state, one per line as
 * `value<TAB>description` (the scripts in `completions/` call it for the {@link DynamicKind} of the word being
 * completed, passing the words typed so far). It reads pravo's own files directly (config, state, response cache),
 * never the network, and loads neither commander nor the HTTP client nor `conf`, so that it answers about as fast as
 * node starts. Whatever it cannot read yields no values, never an error: completion must not print into the user's
 * prompt. Values and descriptions come from servers and files: control characters, tabs and line breaks are removed.
 *
 * A first line `:file` asks the shell for file-name completion instead (`config set sandbox-corpus <TAB>`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { cacheKey } from '../state/cache-key.js';
import { pravoPaths } from '../state/paths.js';
import { COURT_ABBREVIATIONS } from '../shared/court-abbreviations.js';
import { AUTH_HEADER_VALUES, DYNAMIC_KINDS, type DynamicKind } from './tree.js';

/** One value offered, with what the shell may show beside it. */
export interface Candidate {
  value: string;
  description: string;
}

/** The directive that asks the shell for file names instead of values. */
export const FILE_DIRECTIVE = ':file';

/** Descriptions are cut to this many characters (a menu line). */
const DESCRIPTION_MAX = 60;

/**
 * Prints the candidates of `kind` for a command line whose words so far are `words` (without `pravo`), as lines on
 * `out`. Returns the exit code: 0, or 2 for an unknown kind (nothing printed).
 */
export function complete(args: readonly string[], env: NodeJS.ProcessEnv, out: { write(text: string): unknown }): number {
  const [kind, ...words] = args;
  if (!DYNAMIC_KINDS.includes(kind as DynamicKind)) return 2;
  let lines: string[];
  try {
    const found = candidates(kind as DynamicKind, words, env);
    lines = found === 'file' ? [FILE_DIRECTIVE] : found.map((c) => (c.description ? `${clean(c.value)}\t${cut(clean(c.description))}` : clean(c.value)));
  } catch {
    lines = [];
  }
  if (lines.length > 0) out.write(`${lines.join('\n')}\n`);
  return 0;
}

/**
 * The candidates of one kind, or `'file'` when the shell should complete a file name.
 * @throws whatever reading a file throws, beyond "not found" (the caller prints nothing then).
 */
export function candidates(kind: DynamicKind, words: readonly string[], env: NodeJS.ProcessEnv): Candidate[] | 'file' {
  switch (kind) {
    case 'profiles':
      return profiles(env);
    case 'source-types':
      return sourceTypes(words, env);
    case 'courts':
      return courts(words, env);
    case 'jobs':
      return jobs(env, false);
    case 'unfinished-jobs':
      return jobs(env, true);
    case 'keys':
      return keys(words, env);
    case 'results':
      return results(env);
    case 'setting-values':
      return settingValues(words);
  }
}

/** The command line's `--profile NAME` (or `--profile=NAME`), else PRAVO_PROFILE, else `default`. */
export function profileOf(words: readonly string[], env: NodeJS.ProcessEnv): string {
  let name: string | undefined;
  words.forEach((word, i) => {
    if (word === '--profile' && i + 1 < words.length) name = words[i + 1];
    else if (word.startsWith('--profile=')) name = word.slice('--profile='.length);
  });
  return name || env.PRAVO_PROFILE || 'default';
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || error instanceof SyntaxError) return undefined;
    throw error;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function configData(env: NodeJS.ProcessEnv): Record<string, unknown> {
  const data = readJson(path.join(pravoPaths(env).config, 'config.json'));
  return isObject(data) ? data : {};
}

function profiles(env: NodeJS.ProcessEnv): Candidate[] {
  const stored = configData(env).profiles;
  if (!isObject(stored)) return [];
  return Object.entries(stored).map(([name, profile]) => ({
    value: name,
    description: isObject(profile) && typeof profile.base_url === 'string' ? profile.base_url : '',
  }));
}

/**
 * The cached body of a catalog, for the command line's target: the entry of the profile's base URL (PRAVO_BASE_URL
 * first, as requests use it) when there is one and the line has no `--sandbox`; else the newest catalog of that kind in
 * the cache, whichever target it came from (a sandbox's cache scope is a hash of its corpus files, too slow to compute
 * here).
 */
function cachedCatalog(apiPath: string, field: string, words: readonly string[], env: NodeJS.ProcessEnv): unknown[] {
  const dir = path.join(pravoPaths(env).cache, 'responses');
  if (!words.includes('--sandbox')) {
    const stored = configData(env).profiles;
    const profile = isObject(stored) ? stored[profileOf(words, env)] : undefined;
    const baseUrl = env.PRAVO_BASE_URL || (isObject(profile) && typeof profile.base_url === 'string' ? profile.base_url : undefined);
    if (baseUrl) {
      const body = catalogBody(path.join(dir, `${cacheKey({ baseUrl, path: apiPath })}.json`), field);
      if (body) return body;
    }
  }
  let newest: { at: number; body: unknown[] } | undefined;
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((name) => /^[0-9a-f]{64}\.json$/.test(name));
  } catch {
    return [];
  }
  const marker = `"raw":"{\\"${field}\\"`;
  for (const name of names) {
    const file = path.join(dir, name);
    if (!startsWithMarker(file, marker)) continue;
    const entry = readJson(file);
    if (!isObject(entry) || typeof entry.stored_at !== 'number' || (newest && newest.at >= entry.stored_at)) continue;
    const body = catalogBody(file, field, entry);
    if (body) newest = { at: entry.stored_at, body };
  }
  return newest?.body ?? [];
}

/** Whether a cache entry's first bytes show a response whose first field is the catalog's (a cheap filter). */
function startsWithMarker(file: string, marker: string): boolean {
  const head = Buffer.alloc(256);
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, 'r');
    const n = fs.readSync(fd, head, 0, head.length, 0);
    return head.subarray(0, n).toString('utf8').includes(marker);
  } catch {
    return false;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

function catalogBody(file: string, field: string, entry: unknown = readJson(file)): unknown[] | undefined {
  if (!isObject(entry) || typeof entry.raw !== 'string') return undefined;
  try {
    const body = JSON.parse(entry.raw) as unknown;
    return isObject(body) && Array.isArray(body[field]) ? (body[field] as unknown[]) : undefined;
  } catch {
    return undefined;
  }
}

function sourceTypes(words: readonly string[], env: NodeJS.ProcessEnv): Candidate[] {
  return cachedCatalog('/v1/catalog/source-types', 'source_types', words, env)
    .filter(isObject)
    .filter((t) => typeof t.id === 'string')
    .map((t) => ({ value: t.id as string, description: typeof t.name === 'string' ? t.name : '' }));
}

/** Court names of the cached catalog (with their code), then the usual abbreviations (with the name they stand for). */
function courts(words: readonly string[], env: NodeJS.ProcessEnv): Candidate[] {
  const named = cachedCatalog('/v1/catalog/courts', 'courts', words, env)
    .filter(isObject)
    .filter((c) => typeof c.name === 'string')
    .map((c) => ({ value: c.name as string, description: typeof c.court_id === 'number' ? `code ${c.court_id}` : '' }));
  const abbreviations = Object.entries(COURT_ABBREVIATIONS).map(([abbreviation, name]) => ({ value: abbreviation, description: name }));
  return [...abbreviations, ...named];
}

/**
 * Recorded answer jobs, newest first; `unfinished`: queued and running ones only (what `pravo answer wait` can wait
 * for).
 */
function jobs(env: NodeJS.ProcessEnv, unfinished: boolean): Candidate[] {
  const dir = path.join(pravoPaths(env).state, 'answer-jobs');
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((name) => name.endsWith('.json'));
  } catch {
    return [];
  }
  const records = names
    .map((name) => readJson(path.join(dir, name)))
    .filter(isObject)
    .filter((r) => typeof r.job_id === 'string' && (!unfinished || r.last_status === 'queued' || r.last_status === 'running'));
  records.sort((a, b) => String(b.created_at ?? '').localeCompare(String(a.created_at ?? '')));
  return records.map((r) => ({ value: r.job_id as string, description: `${String(r.last_status ?? '')}: ${String(r.query ?? '')}` }));
}

/** Active keys of the target's last `pravo keys list` (`state/known-keys.ts`). */
function keys(words: readonly string[], env: NodeJS.ProcessEnv): Candidate[] {
  const scope = words.includes('--sandbox') ? '@sandbox' : profileOf(words, env);
  if (!/^[@A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(scope)) return [];
  const known = readJson(path.join(pravoPaths(env).state, 'keys', `${scope}.json`));
  if (!isObject(known) || !Array.isArray(known.keys)) return [];
  return known.keys
    .filter(isObject)
    .filter((k) => typeof k.key_id === 'string' && k.status === 'active')
    .map((k) => ({ value: k.key_id as string, description: typeof k.name === 'string' ? k.name : '' }));
}

/** Result numbers of the last search, with their titles. */
function results(env: NodeJS.ProcessEnv): Candidate[] {
  const last = readJson(path.join(pravoPaths(env).state, 'last-results.json'));
  if (!isObject(last) || !Array.isArray(last.results)) return [];
  return last.results
    .filter(isObject)
    .filter((r) => typeof r.rank === 'number')
    .map((r) => ({ value: String(r.rank), description: typeof r.title === 'string' ? r.title : '' }));
}

/** The values of the setting named by the word before (`config set NAME <TAB>`). */
function settingValues(words: readonly string[]): Candidate[] | 'file' {
  const name = words.at(-1);
  if (name === 'auth-header') return AUTH_HEADER_VALUES.map((value) => ({ value, description: '' }));
  if (name === 'sandbox-corpus') return 'file';
  if (name === 'sandbox') return [{ value: 'on', description: 'API commands run against the in-process sandbox' }, { value: 'off', description: 'API commands go to the service' }];
  return [];
}

/** One line of text: control characters (tabs and line breaks included) become spaces, runs of spaces one. */
function clean(text: string): string {
  return text.replace(/[\p{Cc}\p{Cf}\u2028\u2029]+/gu, ' ').replace(/ {2,}/g, ' ').trim();
}

function cut(text: string): string {
  return text.length <= DESCRIPTION_MAX ? text : `${text.slice(0, DESCRIPTION_MAX - 1)}…`;
}
