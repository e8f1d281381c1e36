#!/usr/bin/env node
// Entry point of the `memory-studio` command: runs the CLI compiled to out/ by `npm install` (prepare step).
'use strict';
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..', '..');
const cli = join(root, 'out', 'electron', 'host', 'cli.js');
if (!existsSync(cli)) {
  console.error(`Memory Studio is not built yet. Run "npm run build" in ${root} (npm install does it for you).`);
  process.exit(1);
}
// `memory-studio lint | head`: the reader went away; stop quietly, as other command-line tools do.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error && error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}
const argv = process.argv.slice(2);
// inspect, lint, budget, search and doctor's report go to `memory-studio keep` first when one keeps this home (keeper-client.ts).
const client = join(root, 'out', 'electron', 'host', 'keeper-client.js');
let throughKeeper = Promise.resolve(null);
try {
  if (existsSync(client)) throughKeeper = require(client).runThroughKeeper(argv);
} catch {
  // A half-built out/: the command runs by itself, which says what is wrong if it cannot.
}
throughKeeper
  .then((code) => (code === null ? require(cli).main(argv) : code))
  .then((code) => {
    if (typeof code === 'number') process.exitCode = code;
  })
  .catch((error) => {
    // main() answers every failure itself; this is the last resort, still without a stack unless asked for.
    const debug = Boolean(process.env.MEMORY_STUDIO_DEBUG);
    console.error(
      debug && error && error.stack ? error.stack : `Unexpected error: ${error && error.message ? error.message : String(error)}`,
    );
    if (!debug) console.error('Run again with MEMORY_STUDIO_DEBUG=1 for the details to report.');
    process.exitCode = 1;
  });
