// `npm run bench`: every figure of issue 13 beside its budget. Whole processes against whole processes as alternating
// pairs in one run (A B A B ...), medians and the median of the pairwise ratios; in-process figures are labelled so.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliFigures } from './cli-figures.mjs';
import { doctorFigures } from './doctor.mjs';
import { firstScreenFigure } from './first-screen.mjs';
import { growthFigures } from './growth.mjs';
import { checkTools, printTable, row, RUNS, timeOnce } from './harness.mjs';
import { demoHome, withLongLine, withMemoryMd, withNested, withSummaries } from './homes.mjs';
import { importFigures } from './import.mjs';
import { mcpFigures } from './mcp.mjs';
import { rebaseFigures } from './rebase.mjs';
import { reviewUiFigures } from './review-ui.mjs';
import { secretFigures } from './secrets.mjs';
import { searchAppFigures } from './search-app.mjs';
import { stallFigures } from './stall.mjs';
import { syncFigures } from './sync.mjs';
import { uiFigures } from './ui.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
// The README's way to run the CLI (run with node here, as on Windows; the CLI rows run it as a program).
const bin = join(root, 'bin', 'memory-studio');
if (!existsSync(join(root, 'out', 'electron', 'host', 'cli.js'))) {
  console.error('Build first: npm run build (npm run bench does it).');
  process.exit(1);
}

console.log(
  `Memory Studio bench: ${availableParallelism()} cores (${cpus()[0]?.model ?? 'cpu'}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; ${RUNS} alternating pairs per figure (BENCH_RUNS).`,
);
const have = checkTools();
const scratch = mkdtempSync(join(tmpdir(), 'memory-studio-bench-'));
try {
  let started = Date.now();
  const heavy = demoHome(bin, join(scratch, 'heavy'), 'heavy').codexHome;
  console.log(`heavy demo home generated in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const small = demoHome(bin, join(scratch, 'small'), 'small').codexHome;
  started = Date.now();
  timeOnce(process.execPath, [bin, 'inspect', '--json', '--codex-home', heavy, '--data-dir', join(scratch, 'data-heavy')]);
  console.log(`cold index build + inspect of the heavy home (12,406 files and sessions): ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const homes = {
    longLine: withLongLine(small, join(scratch, 'long-line')),
    nested: withNested(small, join(scratch, 'nested')),
    memory20: withMemoryMd(small, join(scratch, 'memory-20'), 20),
  };

  const cli = await cliFigures({ root, bin, heavy, have, scratch, homes });
  importFigures({ bin, scratch, have, table: cli });
  doctorFigures({ bin, heavy, scratch, have, table: cli });
  syncFigures({ bin, heavy, small, scratch, have, table: cli });
  printTable('Whole process against whole process (heavy home: 4,096 rollout summaries per root, MEMORY.md 5.6 MB)', cli);

  const inApp = [];
  const search = await searchAppFigures(root, heavy, join(scratch, 'data-app'));
  row(inApp, `search.query p95 in a running app (${search.count} queries)`, {
    ours: search.p95,
    anchorLabel: `p50 ${search.p50.toFixed(2)} ms`,
    budget: '5 ms (in-process)',
    within: search.p95 <= 5,
  });
  // The data folder the cold build above filled: its index is warm.
  const firstScreen = await firstScreenFigure(bin, heavy, join(scratch, 'data-heavy'), RUNS);
  row(inApp, `serve's URL to the first home.get answer (heavy, warm; median)`, {
    ours: firstScreen,
    budget: '300 ms',
    within: firstScreen <= 300,
  });
  for (const [figure, value, budget] of await stallFigures(root, {
    heavyHome: heavy,
    heavyData: join(scratch, 'data-stall'),
    pathoHome: homes.longLine,
    pathoData: join(scratch, 'data-stall-line'),
  })) {
    row(inApp, figure, { ours: value, budget: `${budget} ms`, within: value <= budget });
  }
  printTable('Inside a running serve host (stalls measured in its process; app.info timed over HTTP from this one)', inApp);

  printTable(
    'memory-studio mcp over stdio (heavy home; a client process timing JSON-RPC round trips)',
    await mcpFigures({ bin, heavy, scratch, have, runs: RUNS }),
  );

  const ms = (n) => `${n.toFixed(1)} ms`;
  console.log('\nRebase (three-way, in process beside git merge-file):');
  for (const [what, ours, label, theirs, budget] of (await rebaseFigures(root, join(heavy, 'memories', 'MEMORY.md'), RUNS)).rows) {
    const versus = theirs === null ? '' : `   ${label} ${ms(theirs)}`;
    console.log(`  ${what.padEnd(62)} ${ms(ours).padStart(10)}${versus}   ${budget}`);
  }

  console.log('\nSecrets (whole process beside grep -E over the same patterns):');
  for (const [what, ours, label, theirs, budget] of await secretFigures(root, heavy, scratch, Math.min(RUNS, 3))) {
    console.log(
      `  ${what.padEnd(48)} ${ms(ours).padStart(10)}   ${label} ${ms(theirs)} (ratio ${(ours / theirs).toFixed(2)}x)   ${budget}`,
    );
  }

  growthFigures({
    bin,
    scratch,
    summaryHomes: [500, 2000, 8000, 20000].map((count) => ({
      count,
      home: withSummaries(heavy, join(scratch, `summaries-${count}`), count),
    })),
    memoryHomes: [1, 5, 20].map((mb) => ({
      mb,
      home: mb === 20 ? homes.memory20 : withMemoryMd(small, join(scratch, `memory-${mb}`), mb),
    })),
  });

  const ui = await uiFigures(root, heavy, join(scratch, 'data-ui'));
  if (ui.note) console.log(`\n${ui.note}`);
  else {
    console.log('\nUI (real Chromium on the serve host, heavy home):');
    for (const [what, value, budget] of ui.rows) console.log(`  ${what.padEnd(58)} ${value.padStart(9)}  ${budget}`);
  }
  // Last: its consolidation and proposals stay in this data folder, and Apply is never pressed (the home is unchanged).
  const reviewUi = await reviewUiFigures(root, heavy, join(scratch, 'data-review'), RUNS);
  console.log('\nReview at real size (Chromium, heavy home, 1440x900):');
  for (const [what, value, budget] of reviewUi.rows) console.log(`  ${what.padEnd(58)} ${value.padStart(12)}  ${budget}`);
  if (reviewUi.note) console.log(`  ${reviewUi.note}`);
  console.log(
    '\nratio = Memory Studio / anchor, the median of the pair-by-pair ratios; times are medians. Reproduce: npm run bench (BENCH_RUNS=N for more pairs).',
  );
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
