// Relevance of the sandbox search, measured on a judged set of questions (bench/judged/*.json): for each question,
// does the search return an article that answers it, and how high? Not part of the tests: the figures depend on the
// corpus and are compared with a baseline saved by hand (bench/judged/baseline.json).
//
//   node bench/relevance.js                  evaluate the built search (dist/) on the judged set, print the table
//                                            (against bench/judged/baseline.json when present)
//   node bench/relevance.js --save-baseline  the same, then write bench/judged/baseline.json
//   node bench/relevance.js --check          check the judged set against the corpus as served (no search; reads it
//                                            with dist/'s collectCorpus): every answer ref exists, no query copies 4
//                                            words in a row from its answer's text; exits 1 on problems
//
// With PRAVO_BENCH_TUNING_SPLIT=1, the tables show the tuning part only, split like the held-out part into the
// questions answered in acts with written questions (data/subject-index/) and the others: what a constant is chosen on.
//
// Corpus: $PRAVO_SANDBOX_CORPUS (paths separated by the platform's path delimiter, as for `pravo sandbox`) or
// ../shared/corpus. Index: built in $PRAVO_BENCH_DATA_DIR, or in a temporary directory removed at the end.
//
// A judged question: { id, kind: 'lawyer' | 'citizen' | 'keywords', query, answers: [{ document_id, refs }], note }.
// It is answered by ANY listed document with ANY of that document's refs (element `ref` values: article numbers of
// statutes, paragraph numbers of court decisions).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Directory of the judged set: every `*.json` file in it that is not the baseline. */
export const JUDGED_DIR = path.join(repo, 'bench', 'judged');
/** The baseline file, inside {@link JUDGED_DIR}; not a question file. */
export const BASELINE_FILE = 'baseline.json';
/** Wording kinds of a question. */
export const KINDS = ['lawyer', 'citizen', 'keywords'];
/** Groups of the result, in table order: all questions, each wording kind, and questions answered by court decisions. */
export const GROUPS = ['overall', ...KINDS, 'caselaw'];
/** Length of the word run a query may not share with its answer's text. */
export const WORDING_RUN = 4;
/**
 * The files of the judged set on which ranking constants may be chosen (the tuning part, at most a third of the whole
 * set); every other file is held out, and its figures are what users can expect.
 */
export const TUNING_FILES = ['set-a.json', 'set-f.json'];
/** The parts of the judged set, in table order. */
export const PARTS = ['tuning', 'held_out'];
/**
 * The held-out part split by the subject index (`data/subject-index/`): questions answered by an act with written
 * questions, and the others (what the translation model alone must serve).
 */
export const WRITTEN_PARTS = ['held_out_written', 'held_out_unwritten'];

/**
 * @typedef {{ document_id: string, refs: string[] }} JudgedAnswer
 * @typedef {{ id: string, kind: 'lawyer' | 'citizen' | 'keywords', query: string, answers: JudgedAnswer[], note?: string,
 *   file?: string }} JudgedQuestion
 * @typedef {{ n: number, article_s1: number | null, article_s3: number | null, article_mrr: number | null,
 *   act_s1: number | null, act_s3: number | null }} GroupMetrics
 *   Fractions 0–1 over the group's n questions; null when n is 0.
 * @typedef {{ id: string, kind: string, articleRank: number, actRank: number }} QuestionRanks
 *   1-based ranks within the first k results; Infinity when none.
 * @typedef {{ overall: GroupMetrics, byKind: { lawyer: GroupMetrics, citizen: GroupMetrics, keywords: GroupMetrics,
 *   caselaw: GroupMetrics }, perQuestion: QuestionRanks[], k: number }} RelevanceResult
 */

/**
 * Loads every question of the judged set: all `*.json` files of `dir` except `baseline.json`, in file-name order, each a
 * JSON array of questions. Each question gets `file` (the file's name) for messages.
 *
 * Validated: the file is a JSON array; each question has a non-empty string `id`, unique across all files; `kind` one of
 * lawyer, citizen, keywords; a non-empty string `query`; a non-empty `answers` array whose entries have a non-empty string
 * `document_id` and a non-empty `refs` array of non-empty strings.
 *
 * @param {string} [dir] directory of the judged set (default bench/judged).
 * @returns {JudgedQuestion[]}
 * @throws Error listing every problem, one a line, each naming the file and the question id (or its position when the id
 *   is missing), e.g. `set-a.json: question a07: kind "lawyers" is not one of lawyer, citizen, keywords`.
 */
export function loadJudgedSet(dir = JUDGED_DIR) {
  const files = fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.json') && name !== BASELINE_FILE)
    .sort();
  const problems = [];
  const questions = [];
  const seen = new Map(); // id → file
  for (const file of files) {
    let data;
    try {
      data = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
    } catch (error) {
      problems.push(`${file}: not valid JSON: ${error.message}`);
      continue;
    }
    if (!Array.isArray(data)) {
      problems.push(`${file}: must hold a JSON array of questions`);
      continue;
    }
    data.forEach((question, index) => {
      const idOk = isText(question?.id);
      const where = `${file}: question ${idOk ? question.id : `#${index + 1} (no id)`}`;
      const before = problems.length;
      if (question === null || typeof question !== 'object' || Array.isArray(question)) {
        problems.push(`${where}: must be an object`);
        return;
      }
      if (!idOk) problems.push(`${where}: needs a non-empty string id`);
      else if (seen.has(question.id)) problems.push(`${where}: id already used in ${seen.get(question.id)}`);
      else seen.set(question.id, file);
      if (!KINDS.includes(question.kind)) problems.push(`${where}: kind ${JSON.stringify(question.kind)} is not one of ${KINDS.join(', ')}`);
      if (!isText(question.query)) problems.push(`${where}: needs a non-empty string query`);
      if (question.absent_act !== undefined) {
        if (!isText(question.absent_act)) problems.push(`${where}: absent_act must be a non-empty string (the title of the act the corpus lacks)`);
        if (question.answers !== undefined && (!Array.isArray(question.answers) || question.answers.length > 0)) {
          problems.push(`${where}: a question on an absent act has no answers`);
        }
      } else if (!Array.isArray(question.answers) || question.answers.length === 0) {
        problems.push(`${where}: needs a non-empty answers array (or absent_act)`);
      } else {
        question.answers.forEach((answer, i) => {
          if (!isText(answer?.document_id)) problems.push(`${where}: answer ${i + 1} needs a non-empty string document_id`);
          if (!Array.isArray(answer?.refs) || answer.refs.length === 0 || !answer.refs.every(isText)) {
            problems.push(`${where}: answer ${i + 1} needs a non-empty refs array of non-empty strings`);
          }
        });
      }
      if (problems.length === before) questions.push({ ...question, answers: question.answers ?? [], file });
    });
  }
  if (problems.length > 0) {
    throw new Error(`The judged set in ${dir} has ${problems.length} problem(s):\n${problems.join('\n')}`);
  }
  return questions;
}

function isText(value) {
  return typeof value === 'string' && value.trim() !== '';
}

/** The excerpt id without a trailing `~n` (the repeat marker of a ref that occurs twice in one document). */
function baseExcerptId(id) {
  return String(id).replace(/~\d+$/, '');
}

/** The question's answers as document_id → set of acceptable excerpt ids (`<document_id>:<ref>`). */
function answerIds(question) {
  const byDocument = new Map();
  for (const answer of question.answers) {
    const ids = byDocument.get(answer.document_id) ?? new Set();
    for (const ref of answer.refs) ids.add(`${answer.document_id}:${ref}`);
    byDocument.set(answer.document_id, ids);
  }
  return byDocument;
}

/** The document_id prefixes of statutes: the National Assembly's `act-`, Akoma Ntoso `akn-`, consolidated `ldoc-`. */
const STATUTE_ID = /^(?:act|akn|ldoc)-/;

/**
 * Whether a question is a case-law question: one of its answers is a court decision (a document_id that is not a
 * statute's, see {@link STATUTE_ID}). Such questions count in the `caselaw` group as well as in their wording kind.
 * @param {JudgedQuestion} question
 */
export function isCaseLaw(question) {
  return question.answers.some((answer) => !STATUTE_ID.test(answer.document_id));
}

/**
 * The 1-based ranks of the first article hit and of the first act hit in a search response, within its first k results.
 *
 * - Act hit: a result whose `document_id` is one of the answers' documents.
 * - Article hit: an act hit one of whose excerpts has the `excerpt_id` `<document_id>:<ref>` (a trailing `~n` removed)
 *   for a ref listed for that document. The right ref in another document does not count.
 *
 * @param {JudgedQuestion} question
 * @param {{ results?: Array<{ document_id: string, excerpts?: Array<{ excerpt_id: string }> }> }} response
 * @param {number} k
 * @returns {{ articleRank: number, actRank: number }} Infinity when there is none.
 */
export function rankHits(question, response, k) {
  const answers = answerIds(question);
  let articleRank = Infinity;
  let actRank = Infinity;
  const results = (response?.results ?? []).slice(0, k);
  results.forEach((result, index) => {
    const ids = answers.get(result.document_id);
    if (ids === undefined) return;
    actRank = Math.min(actRank, index + 1);
    if ((result.excerpts ?? []).some((excerpt) => ids.has(baseExcerptId(excerpt.excerpt_id)))) {
      articleRank = Math.min(articleRank, index + 1);
    }
  });
  return { articleRank, actRank };
}

/** Lowercased, quotes dropped, white space collapsed: the form in which two titles of an act are compared. */
function titleKey(title) {
  return String(title).toLowerCase().replace(/[„“"«»]/gu, '').replace(/\s+/gu, ' ').trim();
}

/**
 * Whether a response says, as the question on an absent act needs, that the corpus holds only the amendments of that
 * act: its first result's `absent_act` is the question's `absent_act` (compared by {@link titleKey}).
 * @param {JudgedQuestion & { absent_act: string }} question
 */
export function notesAbsentAct(question, response) {
  const first = response?.results?.[0];
  return first !== undefined && typeof first.absent_act === 'string' && titleKey(first.absent_act) === titleKey(question.absent_act);
}

/** The part of the judged set a question belongs to: `tuning` for the files of {@link TUNING_FILES}, else `held_out`. */
export function partOf(question) {
  return TUNING_FILES.includes(question.file) ? 'tuning' : 'held_out';
}

/** Metrics of a group of per-question ranks. */
function groupMetrics(ranks) {
  const n = ranks.length;
  if (n === 0) return { n, article_s1: null, article_s3: null, article_mrr: null, act_s1: null, act_s3: null };
  const share = (test) => ranks.filter(test).length / n;
  return {
    n,
    article_s1: share((r) => r.articleRank === 1),
    article_s3: share((r) => r.articleRank <= 3),
    article_mrr: ranks.reduce((sum, r) => sum + (Number.isFinite(r.articleRank) ? 1 / r.articleRank : 0), 0) / n,
    act_s1: share((r) => r.actRank === 1),
    act_s3: share((r) => r.actRank <= 3),
  };
}

/**
 * Runs every question through the search and scores the responses.
 *
 * @param {(query: string, maxResults: number) => unknown} searchFn the search: given the query and the number of results
 *   wanted (k), returns the search response `{ results: [{ document_id, excerpts: [{ excerpt_id }] }] }` or a promise of
 *   it. It must pass maxResults on as `max_results`; only the first k results are scored in any case.
 * @param {JudgedQuestion[]} questions
 * @param {{ k?: number, written?: ReadonlySet<string> }} [options] k: results per question (default 10); written: the
 *   document_ids of the acts with written questions (the subject index), which split the held-out part in two
 *   ({@link WRITTEN_PARTS}; not split without it).
 * @returns {Promise<RelevanceResult>} per group (overall; lawyer, citizen, keywords by wording; caselaw: questions
 *   answered by court decisions, see {@link isCaseLaw}): n; article_s1 / article_s3, the share of questions with an
 *   article hit (see {@link rankHits}) at rank 1 / within the first 3; article_mrr, the mean of 1 / article rank (0 when
 *   there is no article hit within k); act_s1 / act_s3, the share with an act hit at rank 1 / within 3. Plus each
 *   question's ranks (Infinity when none within k), in the order given.
 */
export async function evaluate(searchFn, questions, { k = 10, written } = {}) {
  const perQuestion = [];
  const absent = [];
  for (const question of questions) {
    const response = await searchFn(question.query, k);
    const part = partOf(question);
    if (question.absent_act !== undefined) absent.push({ id: question.id, part, noted: notesAbsentAct(question, response) });
    else perQuestion.push({ id: question.id, kind: question.kind, part, ...rankHits(question, response, k) });
  }
  const result = { perQuestion, absent, k };
  return { ...result, ...groupResults(result, questions, written) };
}

/**
 * The group metrics of per-question ranks (`evaluate`'s, or a baseline's saved ones): overall and by kind, per part
 * ({@link PARTS}), and, given `written`, the held-out part split by it ({@link WRITTEN_PARTS}).
 */
export function groupResults({ perQuestion, absent = [] }, questions, written) {
  const caselaw = new Set(questions.filter(isCaseLaw).map((q) => q.id));
  const metrics = (ranks) => {
    const byKind = {};
    for (const kind of KINDS) byKind[kind] = groupMetrics(ranks.filter((r) => r.kind === kind));
    byKind.caselaw = groupMetrics(ranks.filter((r) => caselaw.has(r.id)));
    return { overall: groupMetrics(ranks), byKind };
  };
  const parts = {};
  for (const part of PARTS) {
    const inPart = absent.filter((a) => a.part === part);
    parts[part] = { ...metrics(perQuestion.filter((r) => r.part === part)), absent: { n: inPart.length, noted: inPart.filter((a) => a.noted).length } };
  }
  if (written !== undefined) {
    const isWritten = new Set(questions.filter((q) => (q.answers ?? []).some((a) => written.has(a.document_id))).map((q) => q.id));
    for (const part of process.env.PRAVO_BENCH_TUNING_SPLIT ? PARTS : ['held_out']) {
      const inPart = perQuestion.filter((r) => r.part === part);
      parts[`${part}_written`] = metrics(inPart.filter((r) => isWritten.has(r.id)));
      parts[`${part}_unwritten`] = metrics(inPart.filter((r) => !isWritten.has(r.id)));
    }
  }
  return { ...metrics(perQuestion), parts };
}

/**
 * The document_ids of the acts the subject index has written questions for (`data/subject-index/*.json`), read with
 * dist/'s reader; empty when there is none.
 */
export async function writtenActs() {
  const module = path.join(repo, 'dist', 'sandbox', 'subject-index', 'entries.js');
  if (!fs.existsSync(module)) return new Set();
  const { readSubjectIndex } = await import(pathToFileURL(module).href);
  return new Set(readSubjectIndex(path.join(repo, 'data', 'subject-index')).map((f) => f.document_id));
}

const COLUMNS = [
  ['art@1', 'article_s1'],
  ['art@3', 'article_s3'],
  ['MRR', 'article_mrr'],
  ['act@1', 'act_s1'],
  ['act@3', 'act_s3'],
];

function fixed(value) {
  return typeof value === 'number' && Number.isFinite(value) ? value.toFixed(2) : '–';
}

/**
 * The result as a small table, one row per group (overall, lawyer, citizen, keywords, caselaw), columns n, art@1, art@3,
 * MRR, act@1, act@3 (two decimals; `–` for an empty group). With a baseline (same shape: `{ overall, byKind }`, e.g. read
 * from baseline.json), each cell shows the baseline value before the current one, `0.42 → 0.78`, and n likewise when it
 * changed.
 *
 * @param {Pick<RelevanceResult, 'overall' | 'byKind'>} result
 * @param {Pick<RelevanceResult, 'overall' | 'byKind'> & { commit?: string, measured_at?: string }} [baseline]
 * @returns {string[]} lines of text.
 */
export function formatRelevance(result, baseline) {
  const lines = formatTable(result, baseline);
  const titles = {
    tuning: `tuning part (${TUNING_FILES.join(', ')}; constants chosen here)`,
    held_out: 'held-out part (every other file)',
    held_out_written: 'held-out, answered in an act with written questions (the subject index)',
    held_out_unwritten: 'held-out, answered elsewhere (no written questions)',
    tuning_written: 'tuning, written',
    tuning_unwritten: 'tuning, unwritten',
  };
  for (const part of process.env.PRAVO_BENCH_TUNING_SPLIT ? ['tuning', 'tuning_written', 'tuning_unwritten'] : [...PARTS, ...WRITTEN_PARTS]) {
    if (result.parts?.[part] === undefined) continue;
    const { absent } = result.parts[part];
    lines.push('', titles[part], ...formatTable(result.parts[part], baseline?.parts?.[part], false));
    if (absent !== undefined && absent.n > 0) {
      const before = baseline?.parts?.[part]?.absent;
      lines.push(`absent acts noted: ${before ? `${before.noted}/${before.n} → ` : ''}${absent.noted}/${absent.n}`);
    }
  }
  return lines;
}

function formatTable(result, baseline, heading = true) {
  const pick = (source, group) => (group === 'overall' ? source?.overall : source?.byKind?.[group]);
  const rows = [['', 'n', ...COLUMNS.map(([title]) => title)]];
  for (const group of GROUPS) {
    const now = pick(result, group) ?? {};
    const before = baseline === undefined ? undefined : (pick(baseline, group) ?? {});
    const n = before !== undefined && before.n !== undefined && before.n !== now.n ? `${before.n ?? 0} → ${now.n ?? 0}` : String(now.n ?? 0);
    const cells = COLUMNS.map(([, key]) => (before === undefined ? fixed(now[key]) : `${fixed(before[key])} → ${fixed(now[key])}`));
    rows.push([group, n, ...cells]);
  }
  const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => row[c].length)));
  const lines = rows.map((row) => row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  ').trimEnd());
  if (baseline !== undefined && heading) {
    const from = [baseline.commit?.slice(0, 12), baseline.measured_at].filter(Boolean).join(', ');
    lines.unshift(`baseline${from ? ` (${from})` : ''} → now`);
  }
  return lines;
}

/** Lowercased words (letters and digits), punctuation dropped: the unit of the wording rule. */
function words(text) {
  return String(text).toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * The documents with the given ids as the sandbox serves them (the built `collectCorpus` of dist/: every input read,
 * National Assembly acts rebuilt in their structure, one document per act), by `document_id`; an id merged into
 * another act's document (an alias) maps to that document.
 */
async function readDocuments(paths, wanted) {
  const dist = path.join(repo, 'dist', 'sandbox', 'corpus');
  const modules = ['inputs.js', 'collect.js'].map((m) => path.join(dist, m));
  const missing = modules.find((m) => !fs.existsSync(m));
  if (missing !== undefined) throw new Error(`${path.relative(repo, missing)} is missing: run \`npm run build\` first.`);
  const [{ resolveCorpusInputs }, { collectCorpus }] = await Promise.all(modules.map((m) => import(pathToFileURL(m).href)));
  const { documents, aliases } = await collectCorpus(resolveCorpusInputs(paths).corpusFiles);
  const byId = new Map(documents.map((d) => [d.document_id, d]));
  const found = new Map();
  for (const id of wanted) {
    const document = byId.get(id) ?? byId.get(aliases.get(id) ?? '');
    if (document !== undefined) found.set(id, document);
  }
  return found;
}

/**
 * Checks the judged set against the corpus: every answer's document and refs exist, and no query shares a run of
 * {@link WORDING_RUN} consecutive words with the text of an article it is answered by (words lowercased, punctuation
 * removed; every element with that ref counts). Reads the corpus as the sandbox serves it (needs `npm run build`).
 *
 * @param {JudgedQuestion[]} questions
 * @param {string | string[]} corpus a corpus directory or file, or a list of them.
 * @returns {Promise<string[]>} the problems, one a line naming the question (and its file); empty when all is well.
 */
export async function checkWording(questions, corpus) {
  const paths = Array.isArray(corpus) ? corpus : [corpus];
  const wanted = new Set(questions.flatMap((q) => q.answers.map((a) => a.document_id)));
  const documents = await readDocuments(paths, wanted);
  const problems = [];
  for (const question of questions) {
    const where = `${question.file ? `${question.file}: ` : ''}question ${question.id}`;
    const queryWords = words(question.query);
    const runs = new Set();
    for (let i = 0; i + WORDING_RUN <= queryWords.length; i++) runs.add(queryWords.slice(i, i + WORDING_RUN).join(' '));
    for (const answer of question.answers) {
      const document = documents.get(answer.document_id);
      if (document === undefined) {
        problems.push(`${where}: document ${answer.document_id} is not in the corpus`);
        continue;
      }
      for (const ref of answer.refs) {
        const elements = (document.elements ?? []).filter((element) => element.ref === ref);
        if (elements.length === 0) {
          problems.push(`${where}: ${answer.document_id} has no element with ref ${JSON.stringify(ref)}`);
          continue;
        }
        const shared = new Set();
        for (const element of elements) {
          const text = words(element.text);
          for (let i = 0; i + WORDING_RUN <= text.length; i++) {
            const run = text.slice(i, i + WORDING_RUN).join(' ');
            if (runs.has(run)) shared.add(run);
          }
        }
        if (shared.size > 0) {
          problems.push(`${where}: query shares ${[...shared].map((run) => `"${run}"`).join(', ')} with ${answer.document_id}:${ref}`);
        }
      }
    }
  }
  return problems;
}

function finiteOrNull(rank) {
  return Number.isFinite(rank) ? rank : null;
}

/**
 * The baseline file (undefined when absent). One saved with its per-question ranks is regrouped as the current run is
 * (its held-out part split by today's subject index), so that both sides of each row count the same questions.
 */
export function readBaseline(file, questions, written) {
  if (!fs.existsSync(file)) return undefined;
  const saved = JSON.parse(fs.readFileSync(file, 'utf8'));
  if (!Array.isArray(saved.perQuestion)) return saved;
  const perQuestion = saved.perQuestion.map((r) => ({ ...r, articleRank: r.articleRank ?? Infinity, actRank: r.actRank ?? Infinity }));
  return { ...saved, ...groupResults({ perQuestion, absent: saved.absent ?? [] }, questions, written) };
}

/** The corpus paths: $PRAVO_SANDBOX_CORPUS (a list, like PATH) or ../shared/corpus. */
function corpusPaths() {
  const fromEnv = (process.env.PRAVO_SANDBOX_CORPUS ?? '').split(path.delimiter).filter((entry) => entry.trim() !== '');
  return fromEnv.length > 0 ? fromEnv : [path.resolve(repo, '..', 'shared', 'corpus')];
}

async function main(argv) {
  const unknown = argv.filter((arg) => arg !== '--check' && arg !== '--save-baseline');
  if (unknown.length > 0) {
    console.error(`Unknown argument(s): ${unknown.join(' ')}\nUsage: node bench/relevance.js [--check] [--save-baseline]`);
    return 2;
  }
  const questions = loadJudgedSet();
  const corpus = corpusPaths();

  if (argv.includes('--check')) {
    const problems = await checkWording(questions, corpus);
    for (const problem of problems) console.log(problem);
    console.log(problems.length === 0 ? `${questions.length} questions: no problems.` : `${problems.length} problem(s) in ${questions.length} questions.`);
    return problems.length === 0 ? 0 : 1;
  }

  const dist = path.join(repo, 'dist', 'sandbox');
  const modules = ['corpus/index-db.js', 'corpus/inputs.js', 'search/pipeline.js'].map((m) => path.join(dist, m));
  const missing = modules.filter((m) => !fs.existsSync(m));
  if (missing.length > 0) {
    console.error(`${path.relative(repo, missing[0])} is missing: run \`npm run build\` first.`);
    return 1;
  }
  const [{ openIndex }, { resolveCorpusInputs }, { search }] = await Promise.all(modules.map((m) => import(pathToFileURL(m).href)));

  const written = await writtenActs();
  const given = process.env.PRAVO_BENCH_DATA_DIR;
  const dataDir = given ?? fs.mkdtempSync(path.join(os.tmpdir(), 'pravo-relevance-'));
  let result;
  try {
    const index = await openIndex({ inputs: resolveCorpusInputs(corpus), dataDir });
    try {
      result = await evaluate((query, maxResults) => search(index, { query, max_results: maxResults }), questions, { written });
    } finally {
      index.close();
    }
  } finally {
    if (given === undefined) fs.rmSync(dataDir, { recursive: true, force: true });
  }

  const baselinePath = path.join(JUDGED_DIR, BASELINE_FILE);
  const baseline = readBaseline(baselinePath, questions, written);
  console.log(`${questions.length} judged questions, top ${result.k} results each`);
  for (const line of formatRelevance(result, baseline)) console.log(line);
  const missed = result.perQuestion.filter((r) => !Number.isFinite(r.articleRank)).map((r) => r.id);
  if (missed.length > 0) console.log(`no article hit within ${result.k}: ${missed.join(' ')}`);
  const unnoted = result.absent.filter((a) => !a.noted).map((a) => a.id);
  if (unnoted.length > 0) console.log(`absent act not noted: ${unnoted.join(' ')}`);

  if (argv.includes('--save-baseline')) {
    const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repo, encoding: 'utf8' }).trim();
    const perQuestion = result.perQuestion.map((r) => ({ ...r, articleRank: finiteOrNull(r.articleRank), actRank: finiteOrNull(r.actRank) }));
    const saved = { commit, measured_at: new Date().toISOString(), overall: result.overall, byKind: result.byKind, parts: result.parts, perQuestion, absent: result.absent };
    fs.writeFileSync(baselinePath, `${JSON.stringify(saved, null, 2)}\n`);
    console.log(`wrote ${path.relative(repo, baselinePath)}`);
  }
  return 0;
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error) => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    },
  );
}
