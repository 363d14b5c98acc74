/** Paths the end-to-end tests use: the built CLI and the shared corpus beside the repository (never copied in). */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The `pravo` entry point, run as `node bin/pravo.js`. */
export const CLI = path.join(repo, 'bin', 'pravo.js');

/** The corpus of real statutes in `../shared`, read at run time. */
export const CORPUS = path.resolve(repo, '..', 'shared', 'corpus', 'bg-statutes.jsonl.gz');
