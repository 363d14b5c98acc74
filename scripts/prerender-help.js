#!/usr/bin/env node
// The last step of `npm run build`: renders every command's help into dist/help/help.json, which `pravo --help` and
// `pravo COMMAND --help` print without loading commander (src/help/prerendered.ts). Written atomically.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderHelpPages } from '../dist/help/prerender.js';
import { version } from '../dist/cli.js';

const file = fileURLToPath(new URL('../dist/help/help.json', import.meta.url));
const rendered = await renderHelpPages(version());
fs.writeFileSync(`${file}.tmp`, `${JSON.stringify(rendered)}\n`);
fs.renameSync(`${file}.tmp`, file);
console.log(`wrote ${Object.keys(rendered.pages).length} help pages to dist/help/help.json`);
