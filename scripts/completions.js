#!/usr/bin/env node
// Regenerates the shell completion scripts in completions/ from the built command tree (run `npm run build` first;
// `npm run completions` does both). test/completion/scripts.test.ts fails when these files differ from what the
// command tree generates, so a change to the commands must be followed by this script.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildProgram, processHost } from '../dist/cli.js';
import { completionTree, SHELLS } from '../dist/completion/tree.js';
import { completionFileName, completionScript } from '../dist/completion/scripts.js';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'completions');
const { program } = await buildProgram(processHost());
const tree = completionTree(program);
fs.mkdirSync(dir, { recursive: true });
for (const shell of SHELLS) {
  const file = path.join(dir, completionFileName(shell));
  fs.writeFileSync(`${file}.tmp`, completionScript(shell, tree));
  fs.renameSync(`${file}.tmp`, file);
  console.log(`wrote ${path.relative(process.cwd(), file)}`);
}
