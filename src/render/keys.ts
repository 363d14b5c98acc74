/**
 * The account's API keys (`pravo keys list`; spec: GET /v1/keys, API key facts), from the records `readKeyList`
 * (`src/api/keys.ts`) reads: a compact table for terminals and tab-separated lines for pipes. Never a secret: the
 * records hold none, and the current key is named only by a marker. Pure functions of the data and of `now` (ms since
 * the epoch, passed in); every string from the server passes through the sanitizer.
 *
 * TSV (no header), one line per key, in the server's order:
 *
 *     key_id  name  prefix  plan  status  created_at  last_used_at  revoked_at  current
 *
 * (times as the server sent them, empty when absent; `current`: `true` for the key of the profile in use, else `false`).
 */
import { Chalk } from 'chalk';
import type { KeyFacts } from '../api/keys.js';
import type { View } from '../io/printer.js';
import { sanitizeLine } from '../shared/sanitize.js';
import { shortAge } from './answer-jobs.js';
import { compactTable, fitColumns } from './table.js';
import { plural, trimToWidth, tsvLines, wrapText } from './text.js';

/** What the keys view shows: the records, and which one is the key in use (by `key_id`), if known. */
export interface KeyListing {
  keys: readonly KeyFacts[];
  /** The `key_id` of the key the profile (or the in-process sandbox) uses; undefined when not among them. */
  currentKeyId?: string;
  /** Where the current key comes from, for the summary: `profile "work"`, `PRAVO_API_KEY`, `the in-process sandbox`. */
  currentSource?: string;
}

/** The narrowest the Name column may get (content, in characters) before the prefix goes under the key id. */
const MIN_NAME_BESIDE_PREFIX = 16;

/** `2026-11-22` of an ISO time; the raw text (sanitized, trimmed to 10) when it is not one. */
function day(iso: string | undefined): string {
  if (iso === undefined) return '';
  return /^\d{4}-\d{2}-\d{2}/.test(iso) ? iso.slice(0, 10) : trimToWidth(sanitizeLine(iso), 10);
}

/** `5m ago`, `never`: when a key was last used, relative to `now`. */
function lastUsed(record: KeyFacts, now: number): string {
  if (record.lastUsedAt === undefined) return 'never';
  const at = Date.parse(record.lastUsedAt);
  return Number.isNaN(at) ? day(record.lastUsedAt) : `${shortAge(now - at)} ago`;
}

/**
 * The keys at `width` columns (at least 60): a summary line (`3 keys: 2 active, 1 revoked; * marks the key of profile
 * "default".`, wrapped), then columns ` ` (the `*` marker), `Key ID` (whole: it is what `pravo keys revoke` takes),
 * `Name` (wraps), `Prefix`, `Status` (active green, revoked red; a revoked key's date of revocation below it),
 * `Created` (a date) and `Last used` (`5m ago`, `never`), each as wide as its content allows (`fitColumns`). When the
 * name would get fewer than 16 characters beside the prefix (80 columns), the prefix goes under the key id instead.
 */
export function renderKeysTable(listing: KeyListing, options: { width: number; color: boolean; now: number }): string {
  const c = new Chalk({ level: options.color ? 1 : 0 });
  const { keys } = listing;
  if (keys.length === 0) return 'This account has no API keys. Create one with `pravo keys create --name NAME`.\n';
  const width = Math.max(60, options.width);
  const active = keys.filter((k) => k.status === 'active').length;
  const revoked = keys.filter((k) => k.status === 'revoked').length;
  const others = keys.length - active - revoked;
  const counts = [`${active} active`, ...(revoked > 0 ? [`${revoked} revoked`] : []), ...(others > 0 ? [`${others} other`] : [])].join(', ');
  const current = keys.some((k) => k.keyId === listing.currentKeyId);
  const marker = current ? ` * marks the key of ${listing.currentSource ?? 'the profile in use'}.` : listing.currentSource ? ` The key of ${listing.currentSource} is not among them.` : '';
  const summary = `${plural(keys.length, 'key')}: ${counts}.${marker}`;

  const rows = keys.map((k) => ({
    mark: k.keyId === listing.currentKeyId ? '*' : '',
    id: sanitizeLine(k.keyId),
    name: sanitizeLine(k.name ?? ''),
    prefix: sanitizeLine(k.prefix ?? ''),
    /** A revoked key's status cell holds the date of revocation on a second line. */
    status: [sanitizeLine(k.status ?? ''), ...(k.status === 'revoked' && k.revokedAt !== undefined ? [day(k.revokedAt)] : [])],
    created: day(k.createdAt),
    used: lastUsed(k, options.now),
    paint: k.status === 'active' ? c.green : k.status === 'revoked' ? c.red : (text: string) => text,
  }));
  const ids = rows.map((r) => r.id);
  const column = (header: string, cells: string[], min?: number) => ({ header, cells, ...(min !== undefined ? { min } : {}) });
  const longest = (cells: string[]): number => Math.max(...cells.map((cell) => [...cell].length));
  const tail = [
    column('Status', rows.map((r) => r.status.join('\n'))),
    column('Created', rows.map((r) => r.created)),
    column('Last used', rows.map((r) => r.used)),
  ];
  const name = column('Name', rows.map((r) => r.name));
  const wantedName = Math.min(MIN_NAME_BESIDE_PREFIX, longest(name.cells)) + 2;
  let widths = fitColumns([column('', rows.map((r) => r.mark)), column('Key ID', ids, longest(ids)), name, column('Prefix', rows.map((r) => r.prefix)), ...tail], width);
  const stacked = widths[2]! < wantedName;
  if (stacked) {
    widths = fitColumns([column('', rows.map((r) => r.mark)), column('Key ID', rows.map((r) => `${r.id}\n${r.prefix}`), longest(ids)), name, ...tail], width);
  }
  const head = ['', 'Key ID', 'Name', ...(stacked ? [] : ['Prefix']), 'Status', 'Created', 'Last used'];
  const table = compactTable(c, head, widths, head.map(() => 'left' as const), options.color);
  for (const r of rows) {
    table.push([
      r.mark === '' ? '' : c.bold(r.mark),
      stacked && r.prefix !== '' ? `${r.id}\n${c.dim(r.prefix)}` : r.id,
      r.name,
      ...(stacked ? [] : [r.prefix]),
      r.status.map((line, i) => (i === 0 ? r.paint(line) : line)).join('\n'),
      r.created,
      r.used,
    ]);
  }
  return `${wrapText(summary, width).join('\n')}\n${table.toString()}\n`;
}

/** The keys piped: the TSV of the module's doc. */
export function renderKeysTsv(listing: KeyListing): string {
  return tsvLines(
    listing.keys.map((k) => [k.keyId, k.name, k.prefix, k.plan, k.status, k.createdAt, k.lastUsedAt, k.revokedAt, k.keyId === listing.currentKeyId]),
  );
}

/** The view of `pravo keys list`; `now` (ms since the epoch) dates "last used". */
export function keysView(now: number): View<KeyListing> {
  return {
    page: true,
    table: (listing, { width, color }) => renderKeysTable(listing, { width, color, now }),
    tsv: renderKeysTsv,
  };
}

/** One key in words, for prompts and messages: `key_3f9a "ci-deploy" (sbx_live_Ab3d…, active, created 2026-11-02)`. */
export function describeKey(record: KeyFacts): string {
  const name = record.name !== undefined ? ` "${sanitizeLine(record.name)}"` : '';
  const facts = [
    ...(record.prefix !== undefined ? [`${sanitizeLine(record.prefix)}…`] : []),
    ...(record.status !== undefined ? [sanitizeLine(record.status)] : []),
    ...(record.createdAt !== undefined ? [`created ${day(record.createdAt)}`] : []),
  ];
  return `${sanitizeLine(record.keyId)}${name}${facts.length > 0 ? ` (${facts.join(', ')})` : ''}`;
}
