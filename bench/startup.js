// Start-up benchmark (issue "At home in a shell"): commands answered from local state against a bare `node -e 0`
// (goal: within 1.5x), and what loading each chosen library costs, each in a fresh node. Run by bench/run.js against
// its warm sandbox; alone: `node bench/startup.js` starts one over ../shared/corpus.
//
// The commands run with a profile of their own pointing at the sandbox, after one priming run of each that fills the
// caches (catalogs, the last results, a document); then they alternate and the medians are compared.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const node = process.execPath;

/** The goal for commands answered from local state: at most this many times a bare node start. */
export const LOCAL_STATE_GOAL = 1.5;

/** The packages whose load time is reported, and how pravo loads each (undici: its Agent and connector alone). */
const IMPORTS = [
  ['commander', "await import('commander')"],
  ['conf', "await import('conf')"],
  ['undici (index)', "await import('undici')"],
  ['undici (Agent and connector, as pravo loads them)', "const r = (await import('node:module')).createRequire(process.cwd() + '/'); r('undici/lib/dispatcher/agent.js'); r('undici/lib/core/connect.js')"],
  ['chalk', "await import('chalk')"],
  ['cli-table3', "await import('cli-table3')"],
  ['ora', "await import('ora')"],
  ['@inquirer/prompts', "await import('@inquirer/prompts')"],
  ['env-paths', "await import('env-paths')"],
];

function median(values) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Milliseconds a fresh node (compile cache on, as bin/pravo.js has it) spends on `code`: median of `runs`. */
function importMs(code, runs) {
  const script = `import m from 'node:module'; m.enableCompileCache?.(); const t = performance.now(); ${code}; console.log(performance.now() - t);`;
  const times = [];
  for (let r = 0; r <= runs; r++) {
    const result = spawnSync(node, ['--input-type=module', '-e', script], { cwd: repo, encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`${code}: ${result.stderr}`);
    if (r > 0) times.push(Number(result.stdout.trim()));
  }
  return median(times);
}

/**
 * Measures and reports start-up. `baseUrl`/`apiKey` are a running sandbox's; `alternate(commands)` gives each
 * command's median wall time (ms) over alternating runs; `report(name, value, goal, met)` prints a row.
 * @returns the medians by name, in ms.
 */
export async function runStartup({ cli, baseUrl, apiKey, work, alternate, report, runs = 11 }) {
  const dirs = { config: path.join(work, 'startup-config'), state: path.join(work, 'startup-state'), cache: path.join(work, 'startup-cache') };
  fs.mkdirSync(dirs.config, { recursive: true });
  fs.writeFileSync(path.join(dirs.config, 'config.json'), JSON.stringify({ profiles: { default: { base_url: baseUrl, api_key: apiKey } } }), { mode: 0o600 });
  const env = { ...process.env, PRAVO_CONFIG_DIR: dirs.config, PRAVO_STATE_DIR: dirs.state, PRAVO_CACHE_DIR: dirs.cache };
  for (const key of ['PRAVO_PROFILE', 'PRAVO_BASE_URL', 'PRAVO_API_KEY', 'PRAVO_SESSION_TOKEN', 'NO_COLOR', 'FORCE_COLOR']) delete env[key];
  const pravo = (...args) => [node, [cli, ...args], { env }];
  // Priming: the catalogs, the last results and one document go into the cache and the state.
  for (const args of [['catalog', 'courts'], ['catalog', 'source-types'], ['search', '-n', '3', 'трудов договор прекратяване'], ['doc', '1']]) {
    const result = spawnSync(node, [cli, ...args], { env, encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`pravo ${args.join(' ')} failed: ${result.stderr}`);
  }
  const commands = [
    ['node -e 0', [node, ['-e', '0']]],
    ['pravo --version', pravo('--version')],
    ['pravo --help', pravo('--help')],
    ['pravo help search', pravo('help', 'search')],
    ['pravo config show', pravo('config', 'show')],
    ['pravo catalog courts (cached)', pravo('catalog', 'courts')],
    ['pravo doc 1 (cached)', pravo('doc', '1')],
    ['pravo __complete results', pravo('__complete', 'results', 'doc')],
    ['pravo __complete courts', pravo('__complete', 'courts', 'search', '--court')],
    ['pravo completion bash', pravo('completion', 'bash')],
  ];
  const medians = alternate(commands.map(([, command]) => command));
  const byName = Object.fromEntries(commands.map(([name], i) => [name, medians[i]]));
  const bare = byName['node -e 0'];
  console.log(`\nStart-up against a bare node start (${bare.toFixed(1)} ms), medians of alternating runs:`);
  for (const [name] of commands.slice(1)) {
    const ms = byName[name];
    const ratio = ms / bare;
    // Printing the script is done once, at installation: reported only.
    const goal = name === 'pravo completion bash' ? 'reported' : `≤ ${LOCAL_STATE_GOAL}x node`;
    const met = name === 'pravo completion bash' ? undefined : ratio <= LOCAL_STATE_GOAL;
    const missedBy = met === false ? `, ${(ms - LOCAL_STATE_GOAL * bare).toFixed(1)} ms over` : '';
    report(name, `${ms.toFixed(1)} ms (${ratio.toFixed(2)}x${missedBy})`, goal, met);
  }
  console.log(`\nLoading each library in a fresh node (compile cache on), median of ${runs}:`);
  for (const [name, code] of IMPORTS) report(`  import ${name}`, `${importMs(code, runs).toFixed(1)} ms`, 'reported');
  return byName;
}

// Alone: a sandbox over ../shared/corpus in a temporary directory, and the same report.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { startServe, stopServe } = await import('./load.js');
  const cli = path.join(repo, 'bin', 'pravo.js');
  const corpus = process.env.PRAVO_BENCH_CORPUS ?? path.resolve(repo, '..', 'shared', 'corpus');
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'pravo-startup-'));
  const runs = Number(process.env.PRAVO_BENCH_RUNS ?? 21);
  const time = (command, args, options = {}) => {
    const started = performance.now();
    const result = spawnSync(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
    if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status}): ${result.stderr}`);
    return performance.now() - started;
  };
  const alternate = (commands) => {
    for (const c of commands) time(...c);
    const times = commands.map(() => []);
    for (let r = 0; r < runs; r++) commands.forEach((c, i) => times[i].push(time(...c)));
    return times.map(median);
  };
  const report = (name, value, goal, met) => console.log(`${name.padEnd(46)} ${value.padEnd(30)} goal: ${goal}${met === undefined ? '' : met ? '  ✓' : '  ✗ not met'}`);
  const env = { ...process.env, PRAVO_CONFIG_DIR: path.join(work, 'config') };
  const dataDir = process.env.PRAVO_SANDBOX_DATA_DIR || path.join(work, 'data');
  const { child, ready } = await startServe(cli, ['--corpus', corpus, '--data-dir', dataDir], env);
  try {
    await runStartup({ cli, baseUrl: ready.base_url, apiKey: ready.api_key, work, alternate, report });
  } finally {
    await stopServe(child);
    fs.rmSync(work, { recursive: true, force: true });
  }
}
