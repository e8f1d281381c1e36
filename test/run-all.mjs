// `npm test`: typecheck, lint, layers, format, build, Electronegativity, unit, renderer, the real-Codex interop suite, e2e and the Electron smoke test, then one line from the real results.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const results = join(root, 'test-results');
mkdirSync(results, { recursive: true });

/** Each step: a command, and how to count its results (a check counts as one test). */
const steps = [
  { name: 'typecheck electron', kind: 'check', cmd: ['npx', 'tsc', '-p', 'electron/tsconfig.json', '--noEmit'] },
  { name: 'typecheck preload', kind: 'check', cmd: ['npx', 'tsc', '-p', 'electron/preload/tsconfig.json'] },
  { name: 'typecheck renderer', kind: 'check', cmd: ['npx', 'tsc', '-p', 'renderer/tsconfig.json'] },
  { name: 'typecheck test', kind: 'check', cmd: ['npx', 'tsc', '-p', 'test/tsconfig.json'] },
  { name: 'lint', kind: 'check', cmd: ['npx', 'eslint', '.'] },
  // electron/core's areas import only downward (scripts/check-layers.mjs holds the order), import() included.
  { name: 'layers', kind: 'check', cmd: ['node', 'scripts/check-layers.mjs'] },
  // Prettier's verdict on its own line: a formatting miss says "npm run format", not a lint rule.
  { name: 'format', kind: 'check', cmd: ['npx', 'prettier', '--check', '.'] },
  { name: 'build', kind: 'check', cmd: ['npm', 'run', '--silent', 'build'] },
  // Electronegativity over the built output and main's sources; its known false positives are proven, a real HIGH fails.
  { name: 'electronegativity', kind: 'check', cmd: ['node', 'test/security/electronegativity.mjs'], needs: ['build'] },
  {
    name: 'unit',
    kind: 'vitest',
    report: join(results, 'unit.json'),
    cmd: [
      'npx',
      'vitest',
      'run',
      '--config',
      'test/vitest.config.mts',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${join(results, 'unit.json')}`,
    ],
  },
  {
    name: 'renderer',
    kind: 'vitest',
    report: join(results, 'renderer.json'),
    cmd: [
      'npx',
      'vitest',
      'run',
      '--config',
      'test/renderer/vitest.config.mts',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${join(results, 'renderer.json')}`,
    ],
  },
  // The real Codex CLI the interop suite runs (the reference, or STUDIO_CODEX_VERSION), installed into its own folder
  // test/interop/codex-cli-<version>/ (tests only; reused when present). Other listed versions: npm run compat.
  { name: 'codex cli (tests)', kind: 'check', cmd: ['node', 'test/interop/install-codex.mjs'] },
  {
    name: 'interop',
    kind: 'vitest',
    report: join(results, 'interop.json'),
    cmd: [
      'npx',
      'vitest',
      'run',
      '--config',
      'test/interop/vitest.config.mts',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${join(results, 'interop.json')}`,
    ],
    needs: ['build', 'codex cli (tests)'],
  },
  {
    name: 'e2e',
    kind: 'playwright',
    report: join(results, 'e2e.json'),
    cmd: ['npx', 'playwright', 'test', '--config', 'test/e2e/playwright.config.ts'],
    needs: ['build'],
  },
  {
    name: 'electron smoke',
    kind: 'playwright',
    report: join(results, 'electron.json'),
    cmd: ['npx', 'playwright', 'test', '--config', 'test/electron/playwright.config.ts'],
    needs: ['build'],
  },
];

function run(cmd) {
  return new Promise((resolve) => {
    const child = spawn(cmd[0], cmd.slice(1), {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, FORCE_COLOR: process.env.CI ? '0' : process.env.FORCE_COLOR },
    });
    child.on('error', () => resolve(127));
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

/**
 * A failure's message in one line, short enough for the summary a CI log's tail shows: its first line, and the line
 * saying what was expected when that is another (an assertion with a message of its own starts with that message).
 */
const firstLine = (text) => {
  const lines = stripVTControlCharacters(String(text ?? ''))
    .trim()
    .split('\n');
  const head = (lines[0] ?? '').slice(0, 200);
  const expected = lines.find((line) => /\bexpected\b/.test(line) && !/^\s+at /.test(line));
  return expected && expected !== lines[0] ? `${head} … ${expected.trim().slice(0, 200)}` : head || '(no message; see the log above)';
};

/** Naming the failures never changes the counts: a report this cannot walk is said, and the run goes on. */
function listing(walk) {
  try {
    walk();
  } catch (error) {
    notes.push(`(the failed tests could not be listed: ${error.message})`);
  }
}

/** Each failed test of a Vitest report, named in the summary: a CI log keeps only its tail. */
function vitestFailures(stepName, data) {
  for (const file of data.testResults ?? []) {
    const name = relative(process.cwd(), file.name ?? '');
    const failed = (file.assertionResults ?? []).filter((a) => a.status === 'failed');
    for (const a of failed) notes.push(`failed: ${stepName} ${name} › ${a.fullName ?? a.title}: ${firstLine(a.failureMessages?.[0])}`);
    if (failed.length === 0 && file.status === 'failed') notes.push(`failed: ${stepName} ${name}: ${firstLine(file.message)}`);
  }
}

function countVitest(report, stepName) {
  const data = JSON.parse(readFileSync(report, 'utf8'));
  listing(() => vitestFailures(stepName, data));
  return {
    passed: data.numPassedTests,
    failed: data.numFailedTests + (data.numRuntimeErrorTestSuites ?? 0),
    skipped: data.numPendingTests + data.numTodoTests,
  };
}

/** Skip reasons from a Playwright report, so a suite that cannot run here says why in the summary. */
function playwrightSkipReasons(data) {
  const reasons = new Set();
  const visit = (suite) => {
    for (const spec of suite.specs ?? [])
      for (const t of spec.tests ?? [])
        for (const a of t.annotations ?? []) if (a.type === 'skip' && a.description) reasons.add(a.description);
    for (const child of suite.suites ?? []) visit(child);
  };
  for (const suite of data.suites ?? []) visit(suite);
  return [...reasons];
}

/** Each failed test of a Playwright report, named in the summary. */
function playwrightFailures(stepName, data) {
  const visit = (suite, file) => {
    for (const spec of suite.specs ?? [])
      for (const t of spec.tests ?? [])
        if (t.status === 'unexpected' || t.status === 'flaky') {
          const error = t.results?.find((r) => r.error)?.error?.message;
          notes.push(
            `${t.status === 'flaky' ? 'flaky' : 'failed'}: ${stepName} ${spec.file ?? file}:${spec.line} › ${spec.title}: ${firstLine(error)}`,
          );
        }
    for (const child of suite.suites ?? []) visit(child, suite.file ?? file);
  };
  for (const suite of data.suites ?? []) visit(suite, suite.file);
  for (const error of data.errors ?? []) notes.push(`failed: ${stepName}: ${firstLine(error.message)}`);
}

function countPlaywright(report, stepName) {
  const data = JSON.parse(readFileSync(report, 'utf8'));
  for (const reason of playwrightSkipReasons(data)) notes.push(`skipped: ${reason}`);
  listing(() => playwrightFailures(stepName, data));
  const s = data.stats;
  return { passed: s.expected + s.flaky, failed: s.unexpected + (data.errors?.length ?? 0), skipped: s.skipped };
}

const totals = { passed: 0, failed: 0, skipped: 0 };
const lines = [];
const notes = [];
const failedSteps = new Set();
for (const step of steps) {
  const started = Date.now();
  console.log(`\n=== ${step.name}: ${step.cmd.join(' ')}`);
  let counts;
  const blocker = (step.needs ?? []).find((need) => failedSteps.has(need));
  if (blocker) {
    counts = { passed: 0, failed: 1, skipped: 0 };
    console.log(`${step.name} cannot run because ${blocker} failed.`);
  } else {
    if (step.report) rmSync(step.report, { force: true });
    const code = await run(step.cmd);
    if (step.kind === 'check') counts = code === 0 ? { passed: 1, failed: 0, skipped: 0 } : { passed: 0, failed: 1, skipped: 0 };
    else if (!existsSync(step.report)) counts = { passed: 0, failed: 1, skipped: 0 };
    else {
      try {
        counts = step.kind === 'vitest' ? countVitest(step.report, step.name) : countPlaywright(step.report, step.name);
      } catch (error) {
        console.error(`Could not read ${step.report}: ${error.message}`);
        counts = { passed: 0, failed: 1, skipped: 0 };
      }
      // A runner that exits non-zero with nothing failed (a crash after reporting) still fails the suite.
      if (code !== 0 && counts.failed === 0) {
        counts.failed = 1;
        notes.push(
          `failed: ${step.name} exited with code ${code} with no test failed in its report: an error outside any test (see the log above).`,
        );
      }
    }
  }
  if (counts.failed > 0) failedSteps.add(step.name);
  for (const key of Object.keys(totals)) totals[key] += counts[key];
  lines.push(
    `${step.name.padEnd(20)} ${String(counts.passed).padStart(4)} passed ${String(counts.failed).padStart(3)} failed ${String(counts.skipped).padStart(3)} skipped  ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
}

console.log('\n=== summary');
for (const line of lines) console.log(line);
for (const note of notes) console.log(note);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exitCode = totals.failed > 0 ? 1 : 0;
