// The floor under a warm inspect, lint or search: a bare Node process that only lists the given folders and lstats
// every file (what the index's stat-only pass must do to know nothing changed), with nothing else loaded. The bench
// times it beside ripgrep, so the CLI's ratio can be read against what any stat pass in Node costs on this machine.
'use strict';
const { lstatSync, readdirSync } = require('node:fs');

let files = 0;
function walk(dir) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (entry.name !== '.git') walk(path);
    } else if (lstatSync(path, { throwIfNoEntry: false })) files++;
  }
}
for (const dir of process.argv.slice(2)) walk(dir);
if (files === 0) process.exitCode = 1;
