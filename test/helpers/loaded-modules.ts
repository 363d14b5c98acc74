/**
 * Runs the built CLI's `main(args)` in a fresh node and records every module it loads (a `node:module` resolve hook),
 * for tests of fast paths that must not load commander, the HTTP client or `conf`.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Starts the record of loaded modules on stderr, after whatever the command itself wrote there. */
const MARKER = '@@pravo-loaded-modules@@';

/** What one run printed and loaded: its exit code, stdout, stderr, and the URL of every module resolved, in order. */
export interface LoadedModules {
  code: number;
  stdout: string;
  stderr: string;
  loaded: string[];
}

/** Runs `main(args)` of dist/cli.js in a new node with `env`, recording the modules it loads. */
export function modulesLoadedBy(args: readonly string[], env: NodeJS.ProcessEnv = process.env): LoadedModules {
  const hooks = `
    import { registerHooks } from 'node:module';
    globalThis.loaded = [];
    registerHooks({ resolve(specifier, context, next) { const r = next(specifier, context); globalThis.loaded.push(r.url); return r; } });`;
  const script = `
    const { main } = await import(${JSON.stringify(pathToFileURL(path.join(repo, 'dist', 'cli.js')).href)});
    const code = await main(${JSON.stringify(args)});
    process.stderr.write('\\n' + ${JSON.stringify(MARKER)} + JSON.stringify({ code, loaded: globalThis.loaded }));`;
  const run = spawnSync(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(hooks)}`, '--input-type=module', '-e', script], { env, encoding: 'utf8' });
  const at = run.stderr.lastIndexOf(MARKER);
  if (at < 0) throw new Error(`the run printed no record of its modules: ${run.stderr}`);
  const { code, loaded } = JSON.parse(run.stderr.slice(at + MARKER.length)) as { code: number; loaded: string[] };
  return { code, stdout: run.stdout, stderr: run.stderr.slice(0, at), loaded };
}

/** The loaded modules that come from packages (`node_modules`), by package name, without repeats. */
export function packagesAmong(loaded: readonly string[]): string[] {
  const names = loaded.map((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1]).filter((name): name is string => name !== undefined);
  return [...new Set(names)];
}
