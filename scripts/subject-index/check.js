// Checks the written subject index against the corpus (see src/sandbox/subject-index/entries.ts for the format and
// the rules) and prints its coverage per act.
//
//   node scripts/subject-index/check.js [FILE_OR_DIR...]     default: data/subject-index/
//
// A FILE_OR_DIR is an act's file, a directory of such files, or a directory of parts being written (act.json and
// batch-*.json). Reads the corpus as the sandbox serves it ($PRAVO_SANDBOX_CORPUS or ../shared/corpus) with dist/'s
// collectCorpus: run `npm run build` first. Exits 1 when there are problems, 0 otherwise.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * Whether an element is an article in force, as far as its text shows: labelled „Чл.“, and neither marked repealed
 * („(Отм. …“, „Отм.“) nor only an amendment note that ends in its repeal („(Изм. - ДВ …, отм. - ДВ …)“, „(Зал. …)“).
 */
function isArticleInForce(label, text) {
  if (!/^Чл\./u.test(label)) return false;
  const body = text.replace(/^\s*Чл\.\s*\S+\s*/u, '');
  if (/^\(?\s*(?:Отм|Зал)/u.test(body)) return false;
  const note = /^\s*\(([^()]*(?:\([^()]*\)[^()]*)*)\)\s*$/u.exec(body);
  return !(note !== null && /(?:отм|зал)\./iu.test(note[1]));
}

async function main(argv) {
  const dist = path.join(repo, 'dist', 'sandbox');
  const modules = ['subject-index/entries.js', 'corpus/inputs.js', 'corpus/collect.js'].map((m) => path.join(dist, m));
  const missing = modules.find((m) => !fs.existsSync(m));
  if (missing !== undefined) {
    console.error(`${path.relative(repo, missing)} is missing: run \`npm run build\` first.`);
    return 1;
  }
  const [entries, { resolveCorpusInputs }, { collectCorpus }] = await Promise.all(modules.map((m) => import(pathToFileURL(m).href)));
  const targets = argv.length > 0 ? argv : [entries.subjectIndexDir()];
  const files = [];
  for (const target of targets) {
    if (fs.statSync(target).isDirectory()) files.push(...entries.readSubjectIndex(target));
    else files.push(...entries.readSubjectIndex(path.dirname(target)).filter((f) => path.resolve(f.file) === path.resolve(target)));
  }
  const fromEnv = (process.env.PRAVO_SANDBOX_CORPUS ?? '').split(path.delimiter).filter((e) => e.trim() !== '');
  const corpus = fromEnv.length > 0 ? fromEnv : [path.resolve(repo, '..', 'shared', 'corpus')];
  const { documents, aliases } = await collectCorpus(resolveCorpusInputs(corpus).corpusFiles);
  const byId = new Map(documents.map((d) => [d.document_id, d]));
  const documentOf = (id) => byId.get(id) ?? byId.get(aliases.get(id) ?? '');
  const lookup = (id, ref) => {
    const document = documentOf(id);
    if (document === undefined) return undefined;
    return (document.elements ?? []).filter((e) => e.ref === ref).map((e) => ({ text: e.text ?? '', heading: e.heading ?? '' }));
  };
  const problems = entries.checkSubjectIndex(files, lookup);
  for (const problem of problems) console.log(problem);
  for (const file of files) {
    const document = documentOf(file.document_id);
    const inForce = (document?.elements ?? []).filter((e) => isArticleInForce(e.label ?? '', e.text ?? ''));
    const covered = new Set(file.entries.map((e) => e.ref));
    const articles = inForce.filter((e) => covered.has(e.ref)).length;
    const c = entries.subjectIndexCoverage([file]);
    console.log(
      `${file.act} (${file.document_id}): ${c.entries} entries, ${c.questions} questions, ${c.keywords} keywords; ` +
        `articles in force covered: ${articles} of ${inForce.length}`,
    );
  }
  const total = entries.subjectIndexCoverage(files);
  console.log(`${total.acts} acts, ${total.entries} entries, ${total.questions} questions, ${total.keywords} keywords: ${problems.length === 0 ? 'no problems' : `${problems.length} problem(s)`}.`);
  return problems.length === 0 ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  },
);
