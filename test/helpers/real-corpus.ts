/**
 * The real corpus files of `../shared/corpus/` (read at run time, never copied into the repository): the 35 court
 * decisions and the 185 courts.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import type { NamedCourt } from '../../src/shared/courts.js';

/** `../shared/corpus/bg-decisions.jsonl.gz`, relative to the repository root. */
export const DECISIONS_PATH = fileURLToPath(new URL('../../../shared/corpus/bg-decisions.jsonl.gz', import.meta.url));

/** `../shared/corpus/bg-courts.json`, relative to the repository root. */
export const COURTS_PATH = fileURLToPath(new URL('../../../shared/corpus/bg-courts.json', import.meta.url));

/** The header fields of a real decision the tests read (the file has more). */
export interface RealDecision {
  document_id: string;
  court_id: number;
  date: string;
  reporting_judge: string | null;
  judges: string[];
}

/** Every decision of `bg-decisions.jsonl.gz`, in file order. */
export function readRealDecisions(): RealDecision[] {
  return gunzipSync(readFileSync(DECISIONS_PATH))
    .toString('utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as RealDecision);
}

/** Every court of `bg-courts.json`. */
export function readRealCourts(): NamedCourt[] {
  return JSON.parse(readFileSync(COURTS_PATH, 'utf8')) as NamedCourt[];
}
