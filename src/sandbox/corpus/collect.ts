/**
 * The corpus as the sandbox serves it, from all of its inputs (docs/sandbox.md, "Sandbox inputs" and "One act, one
 * document"):
 *
 * 1. Every input is read whole: JSON Lines files (`reader.ts`), Akoma Ntoso acts (`akn.ts`) and the National
 *    Assembly's act payloads (`payload.ts`), each a regular file within its cap (`../input-file.ts`). A JSON Lines document of the National Assembly (`act-<id>`, a text as
 *    published) is rebuilt in its real structure (`structure.ts`: articles, then each § as its own element). An Akoma
 *    Ntoso file that is not well-formed, or a payload that cannot be read, is reported by path ({@link SkippedInput})
 *    and skipped, never half-read; the build goes on.
 * 2. An official payload replaces the statutes file's document of the same `document_id`: it is the complete text,
 *    where the statutes file lost the §§ before an amending act's first quoted article.
 * 3. One act, one document ({@link sameAct}, {@link chooseText}): documents of the same act are served as one, with
 *    the text current as of the latest date, under the `document_id` the sandbox served before (the National
 *    Assembly's `act-<id>` when the act is there); the other ids stay as aliases that `GET /v1/documents` resolves.
 *
 * Pure in memory: the whole corpus (about 2,600 documents) is held while the index is built.
 */
import { INPUT_MAX_BYTES, InputFileError, readRegularFile } from '../input-file.js';
import { aknReaderThreads, startAknReaders } from './akn-readers.js';
import { corpusFileKind } from './inputs.js';
import { readActPayload } from './payload.js';
import { cancelledError, CorpusError, isCancellation, readCorpus, type CorpusDocument } from './reader.js';
import { restructureStatute } from './structure.js';

/** Where a document came from. */
export type DocumentOrigin = 'statutes' | 'payload' | 'akn' | 'jsonl';

/** One document read from the inputs, before acts are merged. */
export interface SourceDocument {
  document: CorpusDocument;
  origin: DocumentOrigin;
  /** The input file. */
  file: string;
  /** Akoma Ntoso only: the work's FRBR URI (`/akn/bg/act/1986/dv-26-86-1`). */
  workUri?: string | undefined;
}

/** An input that was skipped: the file and what is wrong with it (`not well-formed XML: …`). */
export interface SkippedInput {
  path: string;
  message: string;
}

/** The corpus as served. */
export interface CollectedCorpus {
  /** The documents to serve, in input order (JSON Lines files, payloads and Akoma Ntoso acts as read). */
  documents: CorpusDocument[];
  /** `document_id` of a document merged into another → the `document_id` it is served under. */
  aliases: Map<string, string>;
  /** Inputs skipped (not well-formed, unreadable payloads), in the order met. */
  skipped: SkippedInput[];
}

/** Options of {@link collectCorpus}. */
export interface CollectOptions {
  /** Called after each document (JSON Lines) or file (Akoma Ntoso, payload) read. */
  onDocument?: () => void;
  /** Checked before each document and each chunk read; when it aborts, rejects with an AbortError (`cancelledError`). */
  signal?: AbortSignal | undefined;
  /**
   * Threads reading the Akoma Ntoso files ahead (`akn-readers.ts`); default `aknReaderThreads` (one per CPU, none on
   * one CPU). 0 reads them on this thread, each when its turn comes.
   */
  readerThreads?: number;
}

/** A National Assembly document of the statutes file: `act-<digits>`, a text as published (not consolidated). */
export function isNationalAssemblyText(document: CorpusDocument): boolean {
  return /^act-\d+$/.test(document.document_id) && document.consolidated !== true && document.court_id == null;
}

/**
 * Reads every input (files in the order given) and returns the corpus as served (see the module comment).
 * @throws CorpusError for an invalid JSON Lines file or a `document_id` repeated across JSON Lines files (naming both);
 *   AbortError when `signal` aborts.
 */
export async function collectCorpus(files: readonly string[], options: CollectOptions = {}): Promise<CollectedCorpus> {
  const { onDocument, signal } = options;
  const checkCancelled = (): void => {
    if (signal?.aborted) throw cancelledError('The index build', signal);
  };
  const sources: SourceDocument[] = [];
  const skipped: SkippedInput[] = [];
  /** The JSON Lines file of each document_id read so far, to name both files of a repeated one. */
  const fileOf = new Map<string, string>();
  const payloads: SourceDocument[] = [];
  // Akoma Ntoso files are read ahead on threads of their own (`akn-readers.ts`) and taken here in input order.
  const aknFiles = files.filter((file) => corpusFileKind(file) === 'akn');
  const akn = startAknReaders(aknFiles, options.readerThreads ?? aknReaderThreads(aknFiles.length), signal);
  let aknIndex = 0;
  try {
    for (const file of files) {
      checkCancelled();
      const kind = corpusFileKind(file);
      if (kind === 'jsonl') {
        for await (const read of readCorpus(file, signal)) {
          checkCancelled();
          const first = fileOf.get(read.document_id);
          if (first !== undefined) {
            throw new CorpusError(file, `document_id "${read.document_id}" is also in ${first}; a document_id must be unique across the corpus files`);
          }
          fileOf.set(read.document_id, file);
          const statute = isNationalAssemblyText(read);
          sources.push({ document: statute ? restructureStatute(read) : read, origin: statute ? 'statutes' : 'jsonl', file });
          onDocument?.();
        }
      } else if (kind === 'akn') {
        const read = await akn.read(aknIndex++);
        if ('act' in read) sources.push({ document: read.act.document, origin: 'akn', file, workUri: read.act.work_uri });
        else skipped.push({ path: file, message: read.skipped });
        onDocument?.();
      } else {
        try {
          const text = (await readRegularFile(file, { maxBytes: INPUT_MAX_BYTES.payload, signal })).toString('utf8');
          payloads.push({ document: readActPayload(JSON.parse(text) as unknown), origin: 'payload', file });
        } catch (error) {
          if (isCancellation(error)) throw error;
          const detail = error instanceof InputFileError ? error.problem : error instanceof Error ? error.message : String(error);
          skipped.push({ path: file, message: `act payload ${file}: ${detail}` });
        }
        onDocument?.();
      }
    }
  } finally {
    await akn.close();
  }
  // 2. Official payloads replace the statutes file's documents of the same id; a payload of an act the statutes file
  // lacks is added. Two payloads of one act: the first (files are read in a stable order) is kept.
  const byId = new Map(sources.map((s, i) => [s.document.document_id, i]));
  const seenPayloads = new Set<string>();
  for (const payload of payloads) {
    const id = payload.document.document_id;
    if (seenPayloads.has(id)) {
      skipped.push({ path: payload.file, message: `act payload ${payload.file}: a second payload of ${id}; the first is used` });
      continue;
    }
    seenPayloads.add(id);
    const at = byId.get(id);
    if (at === undefined) {
      byId.set(id, sources.length);
      sources.push(payload);
    } else {
      sources[at] = payload;
    }
  }
  const { documents, aliases } = mergeActs(sources);
  return { documents, aliases, skipped };
}

/** A title as compared between inputs: lower case, quotation marks, soft hyphens and repeated white space removed. */
export function titleKey(title: string): string {
  return title
    .normalize('NFC')
    .toLowerCase()
    .replace(/\u00ad/g, '')
    .replace(/[„“”"«»'`]/g, '')
    .replace(/[‐‑‒–—−]/g, '-')
    .replace(/\s+/g, ' ')
    .replace(/[\s.]+$/, '')
    .trim();
}

/**
 * Whether a title was cut short by its source and ends in `…` (Akoma Ntoso aliases are cut: `Закон за защита на
 * лицата, подаващи сигнали или…`); {@link titleKey} of what is left is then a prefix of the whole title's.
 */
export function isCutTitle(title: string): boolean {
  return /…\s*$/u.test(title);
}

/** The key a title is grouped by: {@link titleKey}, without the `…` of a cut title. */
function groupKey(title: string): string {
  return titleKey(title.replace(/…\s*$/u, ''));
}

/**
 * Whether two titles name the same act: equal {@link titleKey}s; or, when `prefixes` is set (a title from a source
 * that cuts titles, Akoma Ntoso), one title's key, at least 20 characters, starting the other's at a word boundary
 * (`Закон за резерва на въоръжените сили на Република` for `… на Република България`); a cut title
 * ({@link isCutTitle}) may end inside a word.
 */
export function sameTitle(a: string, b: string, prefixes = false): boolean {
  return sameTitleKey(titleKeyOf(a), titleKeyOf(b), prefixes);
}

/** A title as {@link sameTitle} compares it: its {@link groupKey}, and whether it was cut short. */
interface TitleKey {
  key: string;
  cut: boolean;
}

function titleKeyOf(title: string): TitleKey {
  return { key: groupKey(title), cut: isCutTitle(title) };
}

/** {@link sameTitle} on titles already keyed. */
function sameTitleKey(a: TitleKey, b: TitleKey, prefixes: boolean): boolean {
  return a.key === b.key || titleStarts(a, b, prefixes) || titleStarts(b, a, prefixes);
}

/** Whether the `short` title (20 characters at least) starts the `long` one, as {@link sameTitle} allows. */
function titleStarts(short: TitleKey, long: TitleKey, prefixes: boolean): boolean {
  return short.key.length >= 20 && (short.cut ? long.key.startsWith(short.key) : prefixes && long.key.startsWith(`${short.key} `));
}

/** Days between two `YYYY-MM-DD` dates (absolute); Infinity when either is not a date. */
function daysBetween(a: string | null | undefined, b: string | null | undefined): number {
  const ta = a ? Date.parse(`${a}T00:00:00Z`) : NaN;
  const tb = b ? Date.parse(`${b}T00:00:00Z`) : NaN;
  return Number.isNaN(ta) || Number.isNaN(tb) ? Infinity : Math.abs(ta - tb) / 86_400_000;
}

/**
 * Most days between the dates of two texts of one act as the inputs date them: the National Assembly's decree
 * („Издаден в София на …“) and the State Gazette issue that published it are days apart; two different acts of one
 * title (an act replaced by a new one of the same name, two amending acts of one law) are months or years apart.
 */
export const SAME_ACT_MAX_DAYS = 45;

/** The year of an Akoma Ntoso work URI (`/akn/bg/act/2005/npk` → `2005`). */
function workYear(uri: string | undefined): string | undefined {
  return uri === undefined ? undefined : /\/act\/(\d{4})\//.exec(uri)?.[1];
}

/** The date a document's act is dated by for matching: the text's `as_of` for a text as published, else `date`. */
function actDate(source: SourceDocument): string {
  const d = source.document;
  if (source.origin === 'statutes' || source.origin === 'payload') return d.as_of ?? d.in_force_date ?? d.date;
  return d.date;
}

/**
 * Whether two documents are texts of the same act: the same title ({@link titleKey}), statutes both, and either two
 * Akoma Ntoso expressions of works of the same year (the source files one act twice: the Наказателно-процесуален
 * кодекс of 2005 as published and as consolidated), or dates at most {@link SAME_ACT_MAX_DAYS} apart.
 */
export function sameAct(a: SourceDocument, b: SourceDocument): boolean {
  if (a.document.court_id != null || b.document.court_id != null) return false;
  if (a.document.source_type !== b.document.source_type) return false;
  if (!sameTitle(a.document.title, b.document.title, a.origin === 'akn' || b.origin === 'akn')) return false;
  if (a.origin === 'akn' && b.origin === 'akn') {
    const year = workYear(a.workUri);
    return year !== undefined && year === workYear(b.workUri);
  }
  return daysBetween(actDate(a), actDate(b)) <= SAME_ACT_MAX_DAYS;
}

/** Preference among texts as published, which are the same text: the official National Assembly text first. */
const PUBLISHED_PREFERENCE: Readonly<Record<DocumentOrigin, number>> = { payload: 0, statutes: 1, jsonl: 2, akn: 3 };

/**
 * The text served for an act found in several inputs ("one act, one document"):
 * - a consolidated text beats a text as published, and of two consolidated texts the one current as of the later
 *   date wins;
 * - texts as published are the same text: the National Assembly's (official payload, then the statutes file) wins
 *   over another JSON Lines file's and over an Akoma Ntoso expression; among those, the later `as_of`, then the one
 *   with more elements.
 * @returns the index in `group` of the text to serve.
 */
export function chooseText(group: readonly SourceDocument[]): number {
  let best = 0;
  const better = (a: SourceDocument, b: SourceDocument): boolean => {
    const ca = a.document.consolidated === true;
    const cb = b.document.consolidated === true;
    if (ca !== cb) return ca;
    if (ca) return (a.document.as_of ?? '') > (b.document.as_of ?? '');
    const pa = PUBLISHED_PREFERENCE[a.origin];
    const pb = PUBLISHED_PREFERENCE[b.origin];
    if (pa !== pb) return pa < pb;
    if ((a.document.as_of ?? '') !== (b.document.as_of ?? '')) return (a.document.as_of ?? '') > (b.document.as_of ?? '');
    return a.document.elements.length > b.document.elements.length;
  };
  group.forEach((candidate, i) => {
    if (better(candidate, group[best]!)) best = i;
  });
  return best;
}

/** Preference of the `document_id` a merged act is served under: the one served before (the National Assembly's). */
const ID_PREFERENCE: Readonly<Record<DocumentOrigin, number>> = { statutes: 0, payload: 0, jsonl: 1, akn: 2 };

/**
 * Merges the documents of the same act (see {@link sameAct}) into one each (see {@link chooseText}): the chosen text,
 * under the `document_id` of the group's National Assembly document when there is one (else another JSON Lines
 * document's, else the chosen text's; of several, the chosen text's when it is one of them), with `url`, `signature` and `in_force_date` taken from another text of the group
 * when the chosen one lacks them. Documents keep the position of the first of their group.
 */
export function mergeActs(sources: readonly SourceDocument[]): { documents: CorpusDocument[]; aliases: Map<string, string> } {
  // Group by title first (cheap), then by sameAct within a title.
  const byTitle = new Map<string, number[]>();
  const cut: number[] = [];
  sources.forEach((s, i) => {
    if (s.document.court_id != null) return;
    if (isCutTitle(s.document.title) || s.origin === 'akn') {
      cut.push(i);
      return;
    }
    const key = `${s.document.source_type}\u0000${titleKey(s.document.title)}`;
    const list = byTitle.get(key);
    if (list) list.push(i);
    else byTitle.set(key, [i]);
  });
  // A title of Akoma Ntoso (which cuts titles) joins the list of its own title and every list whose title it starts
  // (sameTitle with prefixes; sameAct then checks the dates), else a list of its own.
  const keyOf = new Map<number, TitleKey>();
  const titleKeyAt = (i: number): TitleKey => {
    let key = keyOf.get(i);
    if (key === undefined) keyOf.set(i, (key = titleKeyOf(sources[i]!.document.title)));
    return key;
  };
  for (const i of cut) {
    const s = sources[i]!;
    let placed = false;
    for (const list of byTitle.values()) {
      const first = list[0]!;
      if (sources[first]!.document.source_type === s.document.source_type && (titleKeyAt(i).key === titleKeyAt(first).key || titleStarts(titleKeyAt(i), titleKeyAt(first), true))) {
        list.push(i);
        placed = true;
      }
    }
    if (!placed) byTitle.set(`${s.document.source_type}\u0000${titleKeyAt(i).key}`, [i]);
  }
  // Union-find over the documents: each group's root is its first member (the lowest index).
  const parent = sources.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  for (const members of byTitle.values()) {
    for (let a = 0; a < members.length; a++) {
      for (let b = 0; b < a; b++) {
        const ra = find(members[a]!);
        const rb = find(members[b]!);
        if (ra !== rb && sameAct(sources[members[a]!]!, sources[members[b]!]!)) parent[Math.max(ra, rb)] = Math.min(ra, rb);
      }
    }
  }
  const groupOf = sources.map((_, i) => find(i));
  const groups = new Map<number, number[]>();
  groupOf.forEach((root, i) => {
    const list = groups.get(root);
    if (list) list.push(i);
    else groups.set(root, [i]);
  });
  const documents: CorpusDocument[] = [];
  const aliases = new Map<string, string>();
  const usedIds = new Set<string>();
  for (const members of groups.values()) {
    const group = members.map((i) => sources[i]!);
    const chosen = group[chooseText(group)]!;
    if (group.length === 1) {
      documents.push(chosen.document);
      usedIds.add(chosen.document.document_id);
      continue;
    }
    // Ties (two Akoma Ntoso works of one act) go to the text served, whatever order the inputs were read in.
    const idSource = [...group].sort((a, b) => ID_PREFERENCE[a.origin] - ID_PREFERENCE[b.origin] || Number(b === chosen) - Number(a === chosen))[0]!;
    const id = idSource.document.document_id;
    const merged: CorpusDocument = { ...chosen.document, document_id: id };
    // The title is the National Assembly's when the act is there (Akoma Ntoso cuts titles); a title cut short is
    // completed from another text of the act.
    if (idSource.origin !== 'akn') merged.title = idSource.document.title;
    else if (isCutTitle(merged.title)) {
      const whole = group.find((other) => !isCutTitle(other.document.title));
      if (whole) merged.title = whole.document.title;
    }
    for (const other of group) {
      const d = other.document;
      if (merged.url === undefined && d.url !== undefined) merged.url = d.url;
      if ((merged.signature ?? null) === null && (d.signature ?? null) !== null) merged.signature = d.signature ?? null;
      if ((merged.in_force_date ?? null) === null && (d.in_force_date ?? null) !== null) merged.in_force_date = d.in_force_date ?? null;
      if (d.document_id !== id) aliases.set(d.document_id, id);
    }
    documents.push(merged);
    usedIds.add(id);
  }
  // An alias never hides a document served under that id.
  for (const id of usedIds) aliases.delete(id);
  return { documents, aliases };
}
