/**
 * Renders the help page of every command path of the tree with commander, as `pravo PATH --help` prints it, for
 * `dist/help/help.json` (`./prerendered.ts`; written by `scripts/prerender-help.js` at the end of `npm run build`).
 */
import { EventEmitter } from 'node:events';
import { systemClock } from '../shared/clock.js';
import { buildProgram, runProgram } from '../cli.js';
import type { Host } from '../commands/runner.js';
import { allNodes, completionTree } from '../completion/tree.js';
import { captureStream, inputStream } from '../io/iostreams.js';
import { HELP_FORMAT, type PrerenderedHelp } from './prerendered.js';

/** A host that captures stdout and stderr, with no terminal, an empty environment, no signals and `version`. */
function captureHost(version: string): { host: Host; stdout: () => string; stderr: () => string } {
  const out = captureStream();
  const err = captureStream();
  const signals = new EventEmitter();
  const host: Host = {
    stdout: out.stream,
    stderr: err.stream,
    stdin: inputStream('', false),
    env: {},
    onSignal: (handler) => {
      signals.on('signal', handler);
      return () => signals.off('signal', handler);
    },
    exit: () => {},
    clock: systemClock,
    version,
  };
  return { host, stdout: out.text, stderr: err.text };
}

/**
 * Every command path's help page (commander's implicit `help` commands aside), rendered by commander with the live
 * tree (`runProgram`: never from an older `help.json`), unwrapped: laid out at no width (`./layout.ts`).
 * @throws Error naming the path when a help request does not exit 0 or writes to stderr.
 */
export async function renderHelpPages(version: string): Promise<PrerenderedHelp> {
  const { program } = await buildProgram(captureHost(version).host);
  const paths = allNodes(completionTree(program))
    .map((node) => node.path)
    .filter((path) => path !== 'help' && !path.endsWith(' help'));
  const pages: Record<string, string> = {};
  for (const path of paths) {
    const run = captureHost(version);
    const code = await runProgram([...(path === '' ? [] : path.split(' ')), '--help'], run.host, undefined, { helpWidth: Infinity });
    if (code !== 0 || run.stderr() !== '') throw new Error(`help of "pravo ${path}" exited ${code}: ${run.stderr()}`);
    pages[path] = run.stdout();
  }
  return { format: HELP_FORMAT, pages };
}
