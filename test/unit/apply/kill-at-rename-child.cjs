// Test helper: applies a plan (JSON file) with the COMPILED engine and SIGKILLs itself right after commit step N
// (through the engine's test-only `afterRename` fault hook), as a crash at that exact step would.
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { applyPlan } = require(join(__dirname, '..', '..', '..', 'out', 'electron', 'core', 'apply', 'index.js'));

async function main() {
  const [planFile, dataDir, step] = process.argv.slice(2);
  const plan = JSON.parse(readFileSync(planFile, 'utf8'));
  const killAt = Number(step);
  await applyPlan(plan, {
    dataDir,
    faults: {
      afterRename: (index) => {
        if (index === killAt) process.kill(process.pid, 'SIGKILL');
      },
    },
  });
  process.stdout.write('finished\n');
}

void main();
