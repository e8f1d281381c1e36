// `npm run bench`: generates a heavy Codex home and times Memory Studio's core beside the tools a user would reach for.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { consolidateFigures } from './consolidate.mjs';
import { doctorFigures } from './doctor.mjs';
import { importFigures } from './import.mjs';
import { rebaseFigures } from './rebase.mjs';
import { reviewFigures } from './review.mjs';
import { reviewUiFigures } from './review-ui.mjs';
import { secretFigures } from './secrets.mjs';
import { uiFigures } from './ui.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);
const core = (path) => require(join(root, 'out', 'electron', 'core', path));
if (!existsSync(join(root, 'out', 'electron', 'core', 'workspace.js'))) {
  console.error('Build first: npm run build');
  process.exit(1);
}
const { generateHome } = core('demo-home/index.js');
const { listMemoryRoot, readMemoryFile } = core('workspace.js');

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
async function time(fn) {
  const samples = [];
  for (let i = 0; i < RUNS; i++) {
    const started = process.hrtime.bigint();
    await fn();
    samples.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)];
}
const ms = (n) => `${n.toFixed(1)} ms`;

const dir = mkdtempSync(join(tmpdir(), 'memory-studio-bench-'));
try {
  const home = join(dir, 'home');
  const started = Date.now();
  const manifest = await generateHome({ dir: home, scale: 'heavy', version: 'both', seed: 1 });
  const generation = Date.now() - started;
  const v1 = manifest.roots.v1.path;
  console.log(`heavy home: ${manifest.roots.v1.files} files in v1 (${(manifest.roots.v1.bytes / 1e6).toFixed(1)} MB), generated in ${(generation / 1000).toFixed(1)} s (budget 60 s)`);

  const rows = [];
  const compare = async (what, ours, theirsLabel, theirs) => {
    const a = await time(ours);
    const b = await time(theirs);
    rows.push([what, ms(a), theirsLabel, ms(b), (a / b).toFixed(2)]);
  };
  await compare('list v1 root by kind (size, mtime)', () => listMemoryRoot(v1, 'v1'), 'find -printf size,mtime', () =>
    execFileSync('find', [v1, '-path', `${v1}/.git`, '-prune', '-o', '-type', 'f', '-printf', '%s %T@ %P\n'], { maxBuffer: 64 << 20 }));
  await compare('read MEMORY.md (5 MB, checked UTF-8)', () => readMemoryFile(v1, 'v1', 'MEMORY.md'), 'cat', () =>
    execFileSync('cat', [join(v1, 'MEMORY.md')], { maxBuffer: 64 << 20 }));

  // inspect: the whole overview (files, lint, budget, usage, health) as a user runs it, beside grep for secrets.
  const bin = join(root, 'electron', 'host', 'bin.cjs');
  await compare('inspect heavy home (CLI, both roots)', () => execFileSync(process.execPath, [bin, 'inspect', '--codex-home', home, '--json'], { maxBuffer: 64 << 20 }), 'grep -rE Codex secret patterns', () =>
    // grep exits 1 when nothing matches, which is the expected answer here.
    spawnSync('grep', ['-rEc', '--exclude-dir=.git', 'sk-[A-Za-z0-9]{20,}|AKIA[0-9A-Z]{16}|[Bb]earer[ \t]+[A-Za-z0-9._~+/-]{16,}', join(home, 'memories'), join(home, 'memories_v2')], { maxBuffer: 64 << 20 }));

  console.log(`\n${'operation'.padEnd(40)} ${'Memory Studio'.padStart(14)}  ${'vs'.padEnd(26)} ${'time'.padStart(10)}  ratio`);
  for (const [what, a, label, b, ratio] of rows) console.log(`${what.padEnd(40)} ${a.padStart(14)}  ${label.padEnd(26)} ${b.padStart(10)}  ${ratio}x`);
  console.log('\nReview:');
  for (const [what, ours, label, theirs, budget] of await reviewFigures(root, join(v1, 'MEMORY.md'), join(home, 'memories_1.sqlite'), RUNS)) {
    const versus = theirs === null ? '' : `   ${label} ${ms(theirs)} (ratio ${(ours / theirs).toFixed(2)}x)`;
    console.log(`  ${what.padEnd(48)} ${ms(ours).padStart(10)}${versus}   ${budget}`);
  }

  console.log('\nRebase (three-way):');
  for (const [what, ours, label, theirs, budget] of (await rebaseFigures(root, join(v1, 'MEMORY.md'), RUNS)).rows) {
    const versus = theirs === null ? '' : `   ${label} ${ms(theirs)}`;
    console.log(`  ${what.padEnd(62)} ${ms(ours).padStart(10)}${versus}   ${budget}`);
  }

  console.log('\nConsolidate:');
  for (const [what, ours, label, theirs, budget] of await consolidateFigures(root, home, join(dir, 'consolidate-data'), Math.min(RUNS, 3))) {
    const versus = theirs === null ? '' : `   ${label} ${ms(theirs)} (ratio ${(ours / theirs).toFixed(2)}x)`;
    console.log(`  ${what.padEnd(48)} ${ms(ours).padStart(10)}${versus}   ${budget}`);
  }

  console.log('\nImport:');
  for (const [what, ours, label, theirs, budget] of await importFigures(root, RUNS)) {
    console.log(`  ${what.padEnd(48)} ${ms(ours).padStart(10)}   ${label} ${ms(theirs)} (ratio ${(ours / theirs).toFixed(2)}x)   ${budget}`);
  }

  console.log('\nSecrets:');
  for (const [what, ours, label, theirs, budget] of await secretFigures(root, home, dir, Math.min(RUNS, 3))) {
    console.log(`  ${what.padEnd(48)} ${ms(ours).padStart(10)}   ${label} ${ms(theirs)} (ratio ${(ours / theirs).toFixed(2)}x)   ${budget}`);
  }

  console.log('\nDoctor:');
  const doctor = await doctorFigures(root, home, join(dir, 'doctor-data'), Math.min(RUNS, 5));
  for (const [what, ours, label, theirs, budget] of doctor.rows) {
    console.log(`  ${what.padEnd(48)} ${ms(ours).padStart(10)}   ${label} ${ms(theirs)} (ratio ${(ours / theirs).toFixed(2)}x)   ${budget}`);
  }
  console.log(`  ${doctor.note}`);

  const ui = await uiFigures(root, home, join(dir, 'data'));
  if (ui.note) console.log(`\n${ui.note}`);
  else {
    console.log('\nUI (Chromium, heavy home):');
    for (const [what, value, budget] of ui.rows) console.log(`  ${what.padEnd(52)} ${value.padStart(8)}  ${budget}`);
  }
  // Last: its consolidation and proposals stay in this data folder, and Apply is never pressed (the home is unchanged).
  const reviewUi = await reviewUiFigures(root, home, join(dir, 'review-data'), RUNS);
  console.log('\nReview at real size (Chromium, heavy home, 1440x900):');
  for (const [what, value, budget] of reviewUi.rows) console.log(`  ${what.padEnd(58)} ${value.padStart(12)}  ${budget}`);
  if (reviewUi.note) console.log(`  ${reviewUi.note}`);
  console.log(`\n(median of ${RUNS} runs; ratio = Memory Studio time / other tool's time; the other tools run as child processes, as a user would run them)`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
