// Test helper: applies a plan (JSON file) with the COMPILED engine in its own process and prints the result.
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { applyPlan } = require(join(__dirname, '..', '..', '..', 'out', 'electron', 'core', 'apply', 'index.js'));

async function main() {
  const [planFile, dataDir] = process.argv.slice(2);
  const plan = JSON.parse(readFileSync(planFile, 'utf8'));
  process.stdout.write('ready\n');
  try {
    const outcome = await applyPlan(plan, { dataDir });
    process.stdout.write(JSON.stringify({ ok: true, lease: outcome.lease }) + '\n');
  } catch (error) {
    process.stdout.write(JSON.stringify({ ok: false, kind: error.kind ?? 'Internal', message: String(error.message) }) + '\n');
  }
}

void main();
