#!/usr/bin/env node
// Verifies Memory Studio against one release of the real Codex CLI and writes its receipt.
//
//   npm run compat -- VERSION [VERSION…]     e.g. npm run compat -- 0.172.0
//   npm run compat -- --all                  every version listed in test/interop (codex-cli-<version>/), oldest first
//   … --skip-build                           reuse out/ as it is (else npm run build runs first)
//
// For each version: its folder test/interop/codex-cli-<version>/ (created with a pinned package.json and the lock npm
// resolves, when the version is not listed yet), the install, a capture of a fresh home's databases
// (scripts/capture-codex-schema.mjs) and of `codex features list`, then the whole interop suite with
// STUDIO_CODEX_VERSION=<version>. It writes docs/compat/<version>.json (the data) and docs/compat/<version>.md (the receipt:
// every test's result, the migrations per DB file, what differs from the newest verified release before it), and
// regenerates electron/core/codex-schema/verified.ts from every receipt that says verified. A failed run writes a
// receipt that says so and leaves the version out of verified.ts.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  addCodexVersion,
  codexBinaryPath,
  compareCodexVersions,
  installCodex,
  installedVersion,
  isCodexVersion,
  listedCodexVersions,
} from '../test/interop/install-codex.mjs';
import { captureCodexSchema } from './capture-codex-schema.mjs';
import { parseFeatures, receiptMarkdown, verifiedModuleText } from './compat-receipt.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const compatDir = join(repo, 'docs', 'compat');
const verifiedModule = join(repo, 'electron', 'core', 'codex-schema', 'verified.ts');
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

const USAGE = 'Usage: npm run compat -- VERSION [VERSION…] | --all [--skip-build]   (a version such as 0.171.0)';

/** Every compat record in docs/compat, by version. */
function readRecords() {
  if (!existsSync(compatDir)) return new Map();
  const records = new Map();
  for (const name of readdirSync(compatDir)) {
    const m = /^(.+)\.json$/.exec(name);
    if (!m || !isCodexVersion(m[1])) continue;
    records.set(m[1], JSON.parse(readFileSync(join(compatDir, name), 'utf8')));
  }
  return records;
}

/** The newest verified release older than `version`: what its receipt is compared with. */
function previousVerified(records, version) {
  return (
    [...records.values()]
      .filter((r) => r.result === 'verified' && compareCodexVersions(r.version, version) < 0)
      .sort((a, b) => compareCodexVersions(a.version, b.version))
      .at(-1) ?? null
  );
}

function gitCommit() {
  const head = spawnSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: repo, encoding: 'utf8' });
  const status = spawnSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: repo, encoding: 'utf8' });
  return { head: head.status === 0 ? head.stdout.trim() : 'unknown', dirty: status.status === 0 && status.stdout.trim() !== '' };
}

/** `codex features list` in an empty home (so the defaults show, not this machine's config). */
function featuresOf(version) {
  const home = mkdtempSync(join(tmpdir(), 'codex-compat-features-'));
  try {
    const result = spawnSync(codexBinaryPath(version), ['features', 'list'], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: home, CODEX_HOME: home },
      timeout: 60_000,
    });
    if (result.status !== 0) throw new Error(`codex features list exited ${result.status}: ${result.stderr.trim().slice(0, 500)}`);
    return parseFeatures(result.stdout);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/** Runs a command with its output shown; resolves to its exit code. */
function run(cmd, args, env = process.env) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: repo, env, stdio: 'inherit', shell: process.platform === 'win32' });
    child.on('error', () => resolve(127));
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

/** Every test of a vitest JSON report: its file, full name, status and first failure message. */
function testsOf(report) {
  const tests = [];
  for (const file of report.testResults ?? []) {
    const rel = relative(repo, file.name).split('\\').join('/');
    for (const t of file.assertionResults ?? []) {
      const status = t.status === 'pending' || t.status === 'todo' ? 'skipped' : t.status;
      tests.push({
        file: rel,
        name: t.fullName ?? [...(t.ancestorTitles ?? []), t.title].join(' › '),
        status,
        message: t.failureMessages?.[0] ?? null,
      });
    }
    if ((file.assertionResults ?? []).length === 0 && file.status === 'failed')
      tests.push({ file: rel, name: '(the file did not run)', status: 'failed', message: file.message ?? null });
  }
  return tests;
}

/** The interop suite against `version`; its counts and every test. */
async function runInterop(version) {
  const out = join(repo, 'test-results', 'compat', `interop-${version}.json`);
  mkdirSync(dirname(out), { recursive: true });
  rmSync(out, { force: true });
  const args = [
    'vitest',
    'run',
    '--config',
    'test/interop/vitest.config.mts',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${out}`,
  ];
  const started = Date.now();
  console.log(`\n=== interop suite against Codex ${version}: STUDIO_CODEX_VERSION=${version} ${npx} ${args.join(' ')}`);
  const code = await run(npx, args, { ...process.env, STUDIO_CODEX_VERSION: version });
  const seconds = Math.round((Date.now() - started) / 1000);
  const command = `STUDIO_CODEX_VERSION=${version} npx vitest run --config test/interop/vitest.config.mts`;
  if (!existsSync(out))
    return {
      code,
      tests: [],
      counts: { passed: 0, failed: 0, skipped: 0, seconds, command },
      error: `vitest exited ${code} without a report`,
    };
  const tests = testsOf(JSON.parse(readFileSync(out, 'utf8')));
  const count = (status) => tests.filter((t) => t.status === status).length;
  return {
    code,
    tests,
    counts: { passed: count('passed'), failed: count('failed'), skipped: count('skipped'), seconds, command },
    error: null,
  };
}

/** Why a run is not a verification, or null when it is one. */
function failureReason(interop) {
  if (interop.error) return interop.error;
  if (interop.counts.failed > 0) return `${interop.counts.failed} interop test(s) failed`;
  if (interop.code !== 0) return `vitest exited ${interop.code}`;
  if (interop.counts.passed === 0) return 'no interop test passed';
  return null;
}

/** Verifies one version and writes its record and receipt; returns whether it was verified. */
async function verify(version, command) {
  const base = {
    version,
    date: new Date().toISOString().slice(0, 10),
    command,
    commit: gitCommit(),
    codexVersionLine: null,
    tests: [],
    interop: null,
    capture: null,
    features: [],
  };
  const write = (record) => {
    mkdirSync(compatDir, { recursive: true });
    writeFileSync(join(compatDir, `${version}.json`), `${JSON.stringify(record, null, 2)}\n`);
    const records = readRecords();
    writeFileSync(join(compatDir, `${version}.md`), receiptMarkdown(record, previousVerified(records, version)));
    console.log(`Wrote docs/compat/${version}.md: ${record.result}${record.reason ? ` (${record.reason})` : ''}.`);
    return record.result === 'verified';
  };
  if (!installCodex(version)) return write({ ...base, result: 'failed', reason: 'the Codex CLI could not be installed from its lock' });
  const record = { ...base, codexVersionLine: installedVersion(version) };
  try {
    record.capture = await captureCodexSchema(version);
    record.features = featuresOf(version);
  } catch (error) {
    return write({
      ...record,
      result: 'failed',
      reason: `the capture of a fresh home failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
    });
  }
  const interop = await runInterop(version);
  const reason = failureReason(interop);
  return write({ ...record, tests: interop.tests, interop: interop.counts, result: reason ? 'failed' : 'verified', reason });
}

/** electron/core/codex-schema/verified.ts from every verified record, oldest first. */
function writeVerifiedModule() {
  const verified = [...readRecords().values()]
    .filter((r) => r.result === 'verified')
    .sort((a, b) => compareCodexVersions(a.version, b.version));
  writeFileSync(verifiedModule, verifiedModuleText(verified));
  console.log(`Wrote ${relative(repo, verifiedModule)}: ${verified.map((r) => r.version).join(', ') || 'no verified release'}.`);
}

function parseArgs(argv) {
  const flags = new Set(argv.filter((a) => a.startsWith('--')));
  const unknown = [...flags].filter((f) => f !== '--all' && f !== '--skip-build');
  if (unknown.length > 0) throw new Error(`Unknown option ${unknown[0]}. ${USAGE}`);
  const versions = argv.filter((a) => !a.startsWith('--'));
  const bad = versions.find((v) => !isCodexVersion(v));
  if (bad !== undefined) throw new Error(`Refusing ${JSON.stringify(bad)}: not a Codex version such as 0.171.0. ${USAGE}`);
  if (flags.has('--all') === versions.length > 0) throw new Error(USAGE);
  return { all: flags.has('--all'), versions, skipBuild: flags.has('--skip-build') };
}

async function main(argv) {
  const args = parseArgs(argv);
  const command = `npm run compat -- ${argv.join(' ')}`;
  // A version not listed yet gets its pinned folder first (this asks the registry; an unknown version stops here).
  for (const version of args.versions) addCodexVersion(version);
  const versions = (args.all ? listedCodexVersions() : [...new Set(args.versions)]).sort(compareCodexVersions);
  if (!args.skipBuild) {
    console.log('=== npm run build (the interop suite runs out/)');
    if ((await run(npm, ['run', '--silent', 'build'])) !== 0) throw new Error('npm run build failed; nothing verified.');
  } else if (!existsSync(join(repo, 'out', 'electron', 'host', 'cli.js'))) throw new Error('out/ is missing: run npm run build first.');
  let ok = true;
  for (const version of versions) {
    ok = (await verify(version, command)) && ok;
    writeVerifiedModule();
  }
  return ok ? 0 : 1;
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 2;
}
