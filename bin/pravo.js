#!/usr/bin/env node
// Entry point of the `pravo` command: keep it tiny. It turns on Node's compile cache (start-up time), refuses a
// Node.js older than 24 with a clear message, and hands over to the built CLI in dist/.
import module from 'node:module';

module.enableCompileCache?.();
const major = Number(process.versions.node.split('.')[0]);
if (major < 24) {
  process.stderr.write(
    `pravo needs Node.js 24 or newer, and this is ${process.version}.\n` +
      'Install it (for example `npm install -g node@24`), or in a pravo checkout run: export PATH="$(scripts/node24):$PATH"\n',
  );
  process.exit(2);
}
const { main } = await import('../dist/cli.js');
process.exitCode = await main(process.argv.slice(2));
