/**
 * The sandbox's inputs: corpus files of three kinds — JSON Lines (gzip or not; statutes, consolidated acts, court
 * decisions), Akoma Ntoso 3.0 acts (`.xml`, `.xml.gz`) and the National Assembly's act payloads (`<id>.json`) — and at
 * most one courts file (`bg-courts.json`), one thesaurus and one links file (`bg-act-links.json`, the acts' public
 * pages), named on the command line as files or directories; and the key that identifies a set of inputs by content
 * (the index file's name, the CLI response cache's scope).
 *
 * Naming rule (docs/sandbox.md, "Sandbox inputs"):
 * - A directory contributes the files in it and in its sub-directories, recursively (names starting with `.` are
 *   skipped), by name: `*.jsonl`, `*.jsonl.gz` (JSON Lines corpus files), `*.xml`, `*.xml.gz` (Akoma Ntoso acts),
 *   `<digits>.json` (official act payloads, `GET /api/v1/act/{id}` bodies), `*courts.json` (the courts file),
 *   `*thesaurus*.dat(.gz)` (the thesaurus) and `*act-links.json` (the links file).
 *   Everything else (README.md, other files) is ignored. A directory without a corpus input is an error naming it.
 * - A file named explicitly is the courts file when its name ends in `courts.json`, the links file when it ends in
 *   `act-links.json`, the thesaurus by the thesaurus's name, an Akoma Ntoso act when it ends in
 *   `.xml` or `.xml.gz`, an act payload when it is named `<digits>.json`, else a JSON Lines corpus file (whatever its
 *   name: gzip is recognised by content).
 * - The same path named twice counts once. Two different courts files (or links files) are an error naming both; a
 *   set with no corpus input is an error.
 *
 * This module is light (file system and hashing only, no SQLite), so that the CLI can compute a key without loading the
 * index code.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { runPool } from '../../shared/pool.js';
import { INPUT_MAX_BYTES } from '../input-file.js';
import { ANALYZER_VERSION } from '../text/analysis.js';
import { subjectIndexDigest, type SubjectIndexDigest } from '../subject-index/entries.js';
import { THESAURUS_VERSION } from '../text/thesaurus.js';
import { cancelledError, CorpusError, hashCorpusFile } from './reader.js';

/**
 * Version of the index's tables and of the texts it stores (`index-build.ts`); part of the inputs key, so a change of
 * either rebuilds indexes. 7: statutes' texts one paragraph, point and letter a line (`provision-lines.ts`); 8: the
 * documents' `url_as_of` (`links.ts`); 9: the articles' `subject` field (the written subject index) and the
 * translation table; 10: the case law on elements (`cited_by`, `cites`, `rulings`, `corpus/case-law.ts`) and the
 * `article_rulings` table.
 */
export const INDEX_SCHEMA_VERSION = 10;

/** A resolved set of inputs: absolute paths of existing files. */
export interface CorpusInputs {
  /** Corpus files, at least one; their order does not matter (the index and its key are the same in any order). */
  corpusFiles: readonly string[];
  /** The courts file, when there is one. */
  courtsFile?: string | undefined;
  /**
   * The thesaurus (MyThes, `*thesaurus*.dat` or `.dat.gz`, e.g. `bg-thesaurus.dat.gz`), when there is one: optional;
   * the search then adds synonyms of the senses a query supports (`search/vocabulary.ts`, `withThesaurus`).
   */
  thesaurusFile?: string | undefined;
  /**
   * The links file (`*act-links.json`, e.g. `bg-act-links.json`: the acts' public pages), when there is one: optional;
   * the build gives the documents it matches their page's `url` (`links.ts`).
   */
  linksFile?: string | undefined;
  /**
   * A WordNet (`*wordnet*.tab` or `.tab.gz`, e.g. `bg-wordnet.tab.gz`), when there is one: optional; its synsets are
   * pairs of the translation model (`subject-index/translation.ts`).
   */
  wordnetFile?: string | undefined;
  /**
   * The written subject index (`subject-index/entries.ts`): a directory of its `*.json` files; default the package's
   * `data/subject-index/`; null for none.
   */
  subjectIndexDir?: string | null | undefined;
}

/** Name endings of corpus files in a directory. */
export const CORPUS_FILE_SUFFIXES: readonly string[] = ['.jsonl', '.jsonl.gz'];

/** Name ending of the courts file (in a directory, or named explicitly). */
export const COURTS_FILE_SUFFIX = 'courts.json';

/** Whether a file name is that of a courts file (`bg-courts.json`, `courts.json`). */
export function isCourtsFileName(name: string): boolean {
  return name.endsWith(COURTS_FILE_SUFFIX);
}

/** Name ending of the links file (in a directory, or named explicitly). */
export const LINKS_FILE_SUFFIX = 'act-links.json';

/** Whether a file name is that of a links file (`bg-act-links.json`). */
export function isLinksFileName(name: string): boolean {
  return name.endsWith(LINKS_FILE_SUFFIX);
}

/**
 * Whether a file name is a WordNet's by the naming rule: `wordnet` in the name, ending `.tab` or `.tab.gz` (the Open
 * Multilingual Wordnet's tab format, e.g. `bg-wordnet.tab.gz`, the BulTreeBank WordNet).
 */
export function isWordnetFileName(name: string): boolean {
  return /wordnet[^/\\]*\.tab(?:\.gz)?$/iu.test(name);
}

/** Whether a file name is a thesaurus's by the naming rule: `thesaurus` in the name, ending `.dat` or `.dat.gz`. */
export function isThesaurusFileName(name: string): boolean {
  return /thesaurus[^/\\]*\.dat(?:\.gz)?$/iu.test(name);
}

/** Name endings of Akoma Ntoso files. */
export const AKN_FILE_SUFFIXES: readonly string[] = ['.xml', '.xml.gz'];

/** Names of official act payloads: the act's id and `.json` (`165936.json`). */
const PAYLOAD_FILE_NAME = /^\d+\.json$/;

/** What a corpus input is, by its name: JSON Lines, an Akoma Ntoso act, or an official act payload. */
export type CorpusFileKind = 'jsonl' | 'akn' | 'payload';

/**
 * The kind of a corpus input by its file name (see the naming rule above): `akn` for `*.xml`/`*.xml.gz`, `payload`
 * for `<digits>.json`, else `jsonl`.
 */
export function corpusFileKind(file: string): CorpusFileKind {
  const name = path.basename(file);
  if (AKN_FILE_SUFFIXES.some((suffix) => name.endsWith(suffix))) return 'akn';
  if (PAYLOAD_FILE_NAME.test(name)) return 'payload';
  return 'jsonl';
}

/**
 * Whether a file name in a directory is that of a corpus input: `*.jsonl`, `*.jsonl.gz`, `*.xml`, `*.xml.gz` or
 * `<digits>.json`.
 */
export function isCorpusFileName(name: string): boolean {
  return (
    CORPUS_FILE_SUFFIXES.some((suffix) => name.endsWith(suffix)) ||
    AKN_FILE_SUFFIXES.some((suffix) => name.endsWith(suffix)) ||
    PAYLOAD_FILE_NAME.test(name)
  );
}

/** Whether `file` (following symbolic links) is a regular file. */
function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** Whether `dir` (following symbolic links) is a directory. */
function isDirectory(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The corpus inputs and courts files in `dir` and its sub-directories (recursively; names starting with `.` skipped),
 * by the naming rule, each directory's entries sorted by name, files of a directory before its sub-directories.
 */
function scanDirectory(dir: string): ScannedFiles {
  const corpusFiles: string[] = [];
  const courtsFiles: string[] = [];
  const thesaurusFiles: string[] = [];
  const linksFiles: string[] = [];
  const wordnetFiles: string[] = [];
  const visit = (current: string): void => {
    let names: string[];
    try {
      names = fs.readdirSync(current).sort();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const detail = code === 'EACCES' ? 'permission denied' : `cannot be read: ${(error as Error).message}`;
      throw new CorpusError(current, detail, undefined, { cause: error, what: 'directory' });
    }
    const subdirectories: string[] = [];
    for (const name of names) {
      if (name.startsWith('.')) continue;
      const file = path.join(current, name);
      if (isCourtsFileName(name)) {
        if (isFile(file)) courtsFiles.push(file);
      } else if (isLinksFileName(name)) {
        if (isFile(file)) linksFiles.push(file);
      } else if (isThesaurusFileName(name)) {
        if (isFile(file)) thesaurusFiles.push(file);
      } else if (isWordnetFileName(name)) {
        if (isFile(file)) wordnetFiles.push(file);
      } else if (isCorpusFileName(name) && isFile(file)) {
        corpusFiles.push(file);
      } else if (isDirectory(file)) {
        subdirectories.push(file);
      }
    }
    for (const sub of subdirectories) visit(sub);
  };
  visit(dir);
  if (corpusFiles.length === 0) {
    throw new CorpusError(
      dir,
      `holds no corpus file (a file whose name ends in ${[...CORPUS_FILE_SUFFIXES, ...AKN_FILE_SUFFIXES].join(', ')}, or an act payload <id>.json), nor do its sub-directories; give a corpus file or a directory with one`,
      undefined,
      { what: 'directory' },
    );
  }
  return { corpusFiles, courtsFiles, thesaurusFiles, linksFiles, wordnetFiles };
}

/** The input files a directory holds, by kind. */
interface ScannedFiles {
  corpusFiles: string[];
  courtsFiles: string[];
  thesaurusFiles: string[];
  linksFiles: string[];
  wordnetFiles: string[];
}

/**
 * Resolves named paths (files or directories, relative to the working directory) into a set of inputs by the naming
 * rule of this module. Reads directories, not file contents.
 *
 * @param paths at least one path.
 * @returns absolute paths, corpus files in the order named (directory entries by name), duplicates removed.
 * @throws CorpusError naming the path: a path that does not exist or is neither a file nor a directory; a directory
 *   without a corpus file (`directory DIR: holds no corpus file …`); a second, different courts file or links file
 *   (naming both); a set with a courts or links file but no corpus file; an empty list.
 */
export function resolveCorpusInputs(paths: readonly string[]): CorpusInputs {
  const corpusFiles: string[] = [];
  const courtsFiles: string[] = [];
  const thesaurusFiles: string[] = [];
  const linksFiles: string[] = [];
  const wordnetFiles: string[] = [];
  for (const given of paths) {
    const absolute = path.resolve(given);
    let info: fs.Stats;
    try {
      info = fs.statSync(absolute);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const detail = code === 'ENOENT' || code === 'ENOTDIR' ? 'no such file or directory' : `cannot be read: ${(error as Error).message}`;
      throw new CorpusError(absolute, detail, undefined, { cause: error });
    }
    if (info.isDirectory()) {
      const found = scanDirectory(absolute);
      corpusFiles.push(...found.corpusFiles);
      courtsFiles.push(...found.courtsFiles);
      thesaurusFiles.push(...found.thesaurusFiles);
      linksFiles.push(...found.linksFiles);
      wordnetFiles.push(...found.wordnetFiles);
    } else if (info.isFile()) {
      const name = path.basename(absolute);
      const kind = isCourtsFileName(name)
        ? courtsFiles
        : isLinksFileName(name)
          ? linksFiles
          : isThesaurusFileName(name)
            ? thesaurusFiles
            : isWordnetFileName(name)
              ? wordnetFiles
              : corpusFiles;
      kind.push(absolute);
    } else {
      throw new CorpusError(absolute, 'is neither a file nor a directory');
    }
  }
  const corpus = [...new Set(corpusFiles)];
  const courts = [...new Set(courtsFiles)];
  if (courts.length > 1) {
    throw new CorpusError(courts[1]!, `is a second courts file beside ${courts[0]!}; give at most one courts file`, undefined, {
      what: 'courts file',
    });
  }
  const links = [...new Set(linksFiles)];
  if (links.length > 1) {
    throw new CorpusError(links[1]!, `is a second links file beside ${links[0]!}; give at most one links file`, undefined, { what: 'links file' });
  }
  if (corpus.length === 0) {
    if (courts[0] !== undefined) {
      throw new CorpusError(courts[0], 'is only the list of courts; give a corpus file (.jsonl or .jsonl.gz) or its directory too', undefined, {
        what: 'courts file',
      });
    }
    if (links[0] !== undefined) {
      throw new CorpusError(links[0], 'is only the links of acts; give a corpus file (.jsonl or .jsonl.gz) or its directory too', undefined, {
        what: 'links file',
      });
    }
    throw new CorpusError('(none)', 'no corpus file given');
  }
  const inputs: CorpusInputs = courts[0] === undefined ? { corpusFiles: corpus } : { corpusFiles: corpus, courtsFile: courts[0] };
  // One thesaurus: the first found (a second one is not an error, it is simply not read).
  if (thesaurusFiles[0] !== undefined) inputs.thesaurusFile = thesaurusFiles[0];
  if (links[0] !== undefined) inputs.linksFile = links[0];
  // One WordNet, as one thesaurus: the first found.
  if (wordnetFiles[0] !== undefined) inputs.wordnetFile = wordnetFiles[0];
  return inputs;
}

/** One hashed input file. */
export interface HashedFile {
  /** Absolute path. */
  path: string;
  /** SHA-256 of the file's bytes as stored (compressed bytes for gzip), lowercase hex. */
  sha256: string;
}

/** The content of a set of inputs: each file's hash, and the key of the whole. */
export interface InputsDigest {
  /** See {@link inputsKeyOf}: 16 lowercase hex digits. */
  key: string;
  /** Corpus files sorted by hash (then path): the order the index is built in, whatever the order given. */
  corpus: HashedFile[];
  /** The courts file, when there is one. */
  courts: HashedFile | undefined;
  /** The thesaurus, when there is one. */
  thesaurus?: HashedFile | undefined;
  /** The links file, when there is one. */
  links?: HashedFile | undefined;
  /** The WordNet, when there is one. */
  wordnet?: HashedFile | undefined;
  /** The subject index's files, when there are. */
  subjectIndex?: SubjectIndexDigest | undefined;
}

/**
 * The key of a set of inputs: the first 16 hex digits of SHA-256 over the sorted SHA-256s of the corpus files, the
 * courts file's SHA-256 (or none), {@link ANALYZER_VERSION} and {@link INDEX_SCHEMA_VERSION}, and the thesaurus's and
 * the links file's SHA-256s when there are. The order of the corpus files does not matter; a change of any byte of any
 * input, or of the analyzer or the index layout, changes it.
 */
export function inputsKeyOf(
  corpusSha256s: readonly string[],
  courtsSha256: string | undefined,
  thesaurusSha256?: string,
  linksSha256?: string,
  subjectIndexSha256?: string,
  wordnetSha256?: string,
): string {
  const corpus = [...corpusSha256s].sort().join(',');
  // Without a thesaurus (or links) the text hashed is the one of before they were read.
  const thesaurus = thesaurusSha256 === undefined ? '' : `;thesaurus:${thesaurusSha256}:${THESAURUS_VERSION}`;
  const links = linksSha256 === undefined ? '' : `;links:${linksSha256}`;
  const subject =
    (subjectIndexSha256 === undefined ? '' : `;subject:${subjectIndexSha256}`) + (wordnetSha256 === undefined ? '' : `;wordnet:${wordnetSha256}`);
  return createHash('sha256')
    .update(`corpus:${corpus};courts:${courtsSha256 ?? 'none'};analyzer:${ANALYZER_VERSION};schema:${INDEX_SCHEMA_VERSION}${thesaurus}${links}${subject}`, 'utf8')
    .digest('hex')
    .slice(0, 16);
}

/** Files hashed at once by {@link digestInputs}. */
const HASH_CONCURRENCY = 8;

/**
 * Hashes every input file (streamed in 1 MiB chunks; {@link HASH_CONCURRENCY} files at a time) and computes the key
 * of the set. Only regular files are read, each at most the cap of its reader (`INPUT_MAX_BYTES`), so that a file the
 * build would refuse is refused here, before the build. The first file that cannot be read rejects the whole.
 *
 * @param onBytes optional progress: bytes hashed so far and the total size of all files, in bytes.
 * @param signal optional: checked between chunks; when it aborts, rejects with `cancelledError`.
 * @throws CorpusError when a file is missing or unreadable, is not a regular file, or is larger than its cap.
 */
export async function digestInputs(
  inputs: CorpusInputs,
  onBytes?: (done: number, total: number) => void,
  signal?: AbortSignal,
): Promise<InputsDigest> {
  if (signal?.aborted) throw cancelledError('Hashing the corpus', signal);
  const files = [
    ...inputs.corpusFiles,
    ...(inputs.courtsFile === undefined ? [] : [inputs.courtsFile]),
    ...(inputs.thesaurusFile === undefined ? [] : [inputs.thesaurusFile]),
    ...(inputs.linksFile === undefined ? [] : [inputs.linksFile]),
    ...(inputs.wordnetFile === undefined ? [] : [inputs.wordnetFile]),
  ];
  const sizes = await Promise.all(
    files.map(async (file) => {
      try {
        return (await stat(file)).size;
      } catch {
        return 0; // hashCorpusFile below reports the file's problem by name
      }
    }),
  );
  const total = sizes.reduce((a, b) => a + b, 0);
  // A few files at a time: the corpus directory holds hundreds of small files, whose reads then overlap.
  const done = new Array<number>(files.length).fill(0);
  let doneTotal = 0;
  const hashed: HashedFile[] = new Array<HashedFile>(files.length);
  await runPool(
    [...files.keys()],
    HASH_CONCURRENCY,
    async (i) => {
      const file = files[i]!;
      const what =
        file === inputs.courtsFile
          ? 'courts file'
          : file === inputs.thesaurusFile
            ? 'thesaurus'
            : file === inputs.linksFile
              ? 'links file'
              : file === inputs.wordnetFile
                ? 'wordnet'
                : 'corpus';
      const maxBytes =
        what === 'courts file' || what === 'links file'
          ? INPUT_MAX_BYTES.courts
          : what === 'thesaurus' || what === 'wordnet'
            ? INPUT_MAX_BYTES.thesaurus
            : INPUT_MAX_BYTES[corpusFileKind(file)];
      const sha256 = await hashCorpusFile(
        file,
        (bytes) => {
          doneTotal += bytes - done[i]!;
          done[i] = bytes;
          onBytes?.(doneTotal, Math.max(total, doneTotal));
        },
        signal,
        what,
        maxBytes,
      );
      hashed[i] = { path: file, sha256 };
    },
    () => false,
  );
  const wordnet = inputs.wordnetFile === undefined ? undefined : hashed.pop();
  const links = inputs.linksFile === undefined ? undefined : hashed.pop();
  const thesaurus = inputs.thesaurusFile === undefined ? undefined : hashed.pop();
  const courts = inputs.courtsFile === undefined ? undefined : hashed.pop();
  const corpus = hashed.sort((a, b) => (a.sha256 < b.sha256 ? -1 : a.sha256 > b.sha256 ? 1 : a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const subjectIndex = inputs.subjectIndexDir === null ? undefined : subjectIndexDigest(inputs.subjectIndexDir);
  const key = inputsKeyOf(corpus.map((f) => f.sha256), courts?.sha256, thesaurus?.sha256, links?.sha256, subjectIndex?.sha256, wordnet?.sha256);
  const digest: InputsDigest = { key, corpus, courts, thesaurus };
  if (links !== undefined) digest.links = links;
  if (wordnet !== undefined) digest.wordnet = wordnet;
  if (subjectIndex !== undefined) digest.subjectIndex = subjectIndex;
  return digest;
}

/**
 * The key of a set of inputs (see {@link inputsKeyOf}), from the files' hashes only: cheap (about 30 ms for the real
 * statutes), nothing parsed, nothing built. The CLI's response cache uses it as the sandbox's scope.
 * @throws CorpusError when a file is missing or unreadable.
 */
export async function corpusInputsKey(inputs: CorpusInputs): Promise<string> {
  return (await digestInputs(inputs)).key;
}

/**
 * The inputs in words, for messages: `A`, `A and B`, `A, B and the courts file C`; many files of one directory are
 * named once with their count (`603 Akoma Ntoso acts in DIR`).
 */
export function describeInputs(inputs: CorpusInputs): string {
  const parts: string[] = [];
  const groups = new Map<string, { kind: CorpusFileKind; files: string[] }>();
  for (const file of inputs.corpusFiles) {
    const kind = corpusFileKind(file);
    if (kind === 'jsonl') {
      parts.push(file);
      continue;
    }
    // Akoma Ntoso acts sit one per folder (`akn/<type>/<year>/<slug>/expressions/<date>.bul.xml.gz`): name their
    // common parent once rather than 603 paths.
    const group = groups.get(kind) ?? { kind, files: [] };
    group.files.push(file);
    groups.set(kind, group);
  }
  for (const { kind, files } of groups.values()) {
    if (files.length === 1) {
      parts.push(files[0]!);
      continue;
    }
    const what = kind === 'akn' ? 'Akoma Ntoso acts' : 'act payloads';
    parts.push(`${files.length} ${what} in ${commonDirectory(files)}`);
  }
  if (inputs.courtsFile !== undefined) parts.push(`the courts file ${inputs.courtsFile}`);
  if (inputs.linksFile !== undefined) parts.push(`the links file ${inputs.linksFile}`);
  return parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)!}`;
}

/** The deepest directory that holds every file of `files` (absolute paths). */
function commonDirectory(files: readonly string[]): string {
  let common = path.dirname(files[0]!);
  for (const file of files) {
    while (common !== path.dirname(common) && !file.startsWith(common + path.sep)) common = path.dirname(common);
  }
  return common;
}
