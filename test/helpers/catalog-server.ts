/**
 * A loopback server answering the three catalogs (and, optionally, searches) the way the sandbox does, over the real
 * courts file `../shared/corpus/bg-courts.json` and the real decisions `bg-decisions.jsonl.gz` (both read at run time,
 * never copied): courts with the number of decisions of each, judges of a court's decisions. For command tests of
 * `pravo catalog` and of `pravo search --court/--type`, which must not depend on the sandbox's own catalog routes.
 */
import fs from 'node:fs';
import zlib from 'node:zlib';
import { resolveCourt } from '../../src/shared/courts.js';
import type { CourtEntry, JudgeEntry } from '../../src/contract/types.js';
import { recordingServer, type Recorded } from './recording-server.js';

const CORPUS = new URL('../../../shared/corpus/', import.meta.url);

interface Decision {
  court_id: number;
  date: string;
  judges: string[];
}

/** The 185 real courts, each with the number of real decisions of the corpus it gave (`decision_count`). */
export function realCourts(): CourtEntry[] {
  const decisions = realDecisions();
  const courts = JSON.parse(fs.readFileSync(new URL('bg-courts.json', CORPUS), 'utf8')) as CourtEntry[];
  return courts.map((court) => ({ ...court, decision_count: decisions.filter((d) => d.court_id === court.court_id).length }));
}

let decisionsMemo: Decision[] | undefined;

/** Court, date and panel of each real decision of the corpus. */
export function realDecisions(): Decision[] {
  decisionsMemo ??= zlib
    .gunzipSync(fs.readFileSync(new URL('bg-decisions.jsonl.gz', CORPUS)))
    .toString('utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const d = JSON.parse(line) as Decision;
      return { court_id: d.court_id, date: d.date, judges: d.judges };
    });
  return decisionsMemo;
}

/** A source-types catalog as the sandbox reports it over statutes and decisions (counts made up). */
export const SOURCE_TYPES_BODY = JSON.stringify({
  source_types: [
    { id: 'bulgarian_laws_regulations', name: 'Закони и подзаконови нормативни актове', case_law: false, document_count: 1997 },
    { id: 'high_courts_cases', name: 'Съдебна практика на върховните съдилища', case_law: true, document_count: 35 },
  ],
});

/**
 * The judges answer for a query: the court resolved as the sandbox does (an ambiguous or unknown name is a 400
 * `invalid_request`), judges of its decisions (every court's without `court`), filtered by `search`
 * (case-insensitive substring), most decisions first, at most `limit` (default 20).
 */
export function judgesAnswer(courts: CourtEntry[], params: URLSearchParams): { status: number; body: string } {
  let court: CourtEntry | undefined;
  const typed = params.get('court');
  if (typed !== null) {
    const match = resolveCourt(typed, courts);
    if (match.kind !== 'found') {
      const listed = match.kind === 'ambiguous' ? match.candidates : match.suggestions;
      const message = `court "${typed}" ${match.kind === 'ambiguous' ? 'is ambiguous' : 'is unknown'}: ${listed.map((c) => `${c.court_id} ${c.name}`).join(', ')}`;
      return { status: 400, body: JSON.stringify({ error: { code: 'invalid_request', message } }) };
    }
    court = match.court;
  }
  const search = params.get('search')?.toLowerCase();
  const limit = Number(params.get('limit') ?? 20);
  const judges = new Map<string, JudgeEntry>();
  for (const d of realDecisions()) {
    if (court !== undefined && d.court_id !== court.court_id) continue;
    for (const name of d.judges) {
      if (search !== undefined && !name.toLowerCase().includes(search)) continue;
      const entry = judges.get(name) ?? { name, decision_count: 0, latest_date: d.date, court_ids: [] };
      entry.decision_count++;
      if (d.date > entry.latest_date) entry.latest_date = d.date;
      if (!entry.court_ids.includes(d.court_id)) entry.court_ids.push(d.court_id);
      judges.set(name, entry);
    }
  }
  const list = [...judges.values()].sort((a, b) => b.decision_count - a.decision_count || a.name.localeCompare(b.name, 'bg')).slice(0, limit);
  return { status: 200, body: JSON.stringify({ court: court ? { court_id: court.court_id, name: court.name } : null, judges: list }) };
}

/** What {@link catalogServer} answers for a request it does not serve itself. */
export type OtherAnswer = (request: Recorded) => { status: number; body: string; headers?: Record<string, string> };

/**
 * A recording loopback server answering `GET /v1/catalog/source-types` ({@link SOURCE_TYPES_BODY}), `/courts` (the
 * real courts) and `/judges` ({@link judgesAnswer}); anything else goes to `other` (default: an empty search).
 */
export async function catalogServer(other?: OtherAnswer): Promise<Awaited<ReturnType<typeof recordingServer>> & { courtsBody: string }> {
  const courts = realCourts();
  const courtsBody = JSON.stringify({ courts });
  const server = await recordingServer((request) => {
    const url = new URL(request.url, 'http://localhost');
    if (url.pathname === '/v1/catalog/source-types') return { status: 200, body: SOURCE_TYPES_BODY };
    if (url.pathname === '/v1/catalog/courts') return { status: 200, body: courtsBody };
    if (url.pathname === '/v1/catalog/judges') return judgesAnswer(courts, url.searchParams);
    return other ? other(request) : { status: 200, body: JSON.stringify({ query: 'x', result_count: 0, results: [] }) };
  });
  return { ...server, courtsBody };
}
