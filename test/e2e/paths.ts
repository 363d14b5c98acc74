/** Paths the end-to-end tests use: the built CLI and the shared corpus beside the repository (never copied in). */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The `pravo` entry point, run as `node bin/pravo.js`. */
export const CLI = path.join(repo, 'bin', 'pravo.js');

/**
 * The real corpus directory in `../shared`, read at run time: statutes (`bg-statutes.jsonl.gz`), court decisions
 * (`bg-decisions.jsonl.gz`) and courts (`bg-courts.json`), served together as a sandbox given the directory.
 */
export const CORPUS = path.resolve(repo, '..', 'shared', 'corpus');

/** The real statutes alone, for tests that need a corpus without court decisions. */
export const STATUTES = path.join(CORPUS, 'bg-statutes.jsonl.gz');
