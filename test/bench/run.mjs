// `npm run bench`: every figure of issue 13 beside its budget. Whole processes against whole processes as alternating
// pairs in one run (A B A B ...), medians and the median of the pairwise ratios; in-process figures are labelled so.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliFigures } from './cli-figures.mjs';
import { doctorFigures } from './doctor.mjs';
import { growthFigures } from './growth.mjs';
import { checkTools, measureNodeStart, printTable, row, RUNS, timeOnce } from './harness.mjs';
import { demoHome, withLongLine, withMemoryMd, withNested, withSummaries } from './homes.mjs';
import { generateClaudeHome, importFigures } from './import.mjs';
import { mcpFigures } from './mcp.mjs';
import { rebaseFigures } from './rebase.mjs';
import { reviewUiFigures } from './review-ui.mjs';
import { secretFigures } from './secrets.mjs';
import { firstHomeGetFigures } from './search-app.mjs';
import { ftsFigures } from './fts.mjs';
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
// The run's yardstick, measured once here: every row below is also printed as a multiple of it (the /node column).
const nodeStart = measureNodeStart();
console.log(
  `Node's start, node -e "" (median of ${nodeStart.runs}, alternating with sh -c :): ${nodeStart.a.toFixed(1)} ms; sh -c : ${nodeStart.b.toFixed(1)} ms.`,
);
const scratch = mkdtempSync(join(tmpdir(), 'memory-studio-bench-'));
try {
  let started = Date.now();
  const heavy = demoHome(bin, join(scratch, 'heavy'), 'heavy').codexHome;
  console.log(`heavy demo home generated in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const small = demoHome(bin, join(scratch, 'small'), 'small').codexHome;
  started = Date.now();
  const first = timeOnce(process.execPath, [bin, 'inspect', '--json', '--codex-home', heavy, '--data-dir', join(scratch, 'data-heavy')]);
  // The build says its process's peak memory (workers included) when it is done.
  const coldPeak = /peak memory (\d+) MiB/.exec(first.stderr)?.[1] ?? null;
  console.log(
    `cold index build + inspect of the heavy home (12,406 files and sessions): ${((Date.now() - started) / 1000).toFixed(1)} s, peak memory ${coldPeak ?? '(not said)'} MiB`,
  );
  const homes = {
    longLine: withLongLine(small, join(scratch, 'long-line')),
    nested: withNested(small, join(scratch, 'nested')),
    memory20: withMemoryMd(small, join(scratch, 'memory-20'), 20),
  };

  const cli = await cliFigures({ root, bin, heavy, have, scratch, homes });
  row(cli, 'first inspect --json, cold: peak memory of its process (workers included)', {
    ours: coldPeak ?? 'not said',
    unit: 'MiB',
    budget: 'reported',
    within: null,
  });
  importFigures({ bin, scratch, have, table: cli });
  doctorFigures({ bin, heavy, scratch, have, table: cli });
  syncFigures({ bin, heavy, small, scratch, have, table: cli });
  printTable('Whole process against whole process (heavy home: 4,096 rollout summaries per root, MEMORY.md 5.6 MB)', cli);

  const inApp = [];
  await firstHomeGetFigures(inApp, { bin, home: heavy, scratch, runs: Math.min(RUNS, 5) });
  await stallFigures(inApp, root, {
    heavyHome: heavy,
    heavyData: join(scratch, 'data-stall'),
    pathoHome: homes.longLine,
    pathoData: join(scratch, 'data-stall-line'),
    claudeHome: generateClaudeHome(join(scratch, 'claude-stall')),
    importData: join(scratch, 'data-stall-import'),
  });
  printTable('A running serve host over HTTP, as the page calls it (stalls measured in its process, round trips from this one)', inApp);

  printTable(
    'memory-studio mcp over stdio (heavy home; a client process timing JSON-RPC round trips)',
    await mcpFigures({ bin, heavy, scratch, have, runs: RUNS }),
  );

  const merges = [];
  for (const r of (await rebaseFigures(root, join(heavy, 'memories', 'MEMORY.md'), RUNS)).rows) row(merges, r.figure, r);
  for (const [what, ours, label, theirs] of await secretFigures(root, heavy, scratch, Math.min(RUNS, 3))) {
    row(merges, what, { ours, anchorLabel: label, anchor: theirs, budget: '2x grep -E', within: ours / theirs <= 2 });
  }
  printTable('Rebase (three-way merge beside git merge-file) and the secret scan (beside grep -E)', merges);

  const fts = ftsFigures(root, heavy, scratch, Math.min(RUNS, 3));
  const fullText = [];
  row(fullText, `the index's writer, every file of both roots (${fts.chunks} chunks, ${fts.megabytes.toFixed(1)} MB, in batches)`, {
    ours: fts.ours,
    anchorLabel: 'bare FTS5 bulk load of the same chunk texts, one transaction',
    anchor: fts.bare,
    ratio: fts.ratio,
    budget: '2x bare FTS5',
    within: fts.ratio <= 2,
  });
  printTable("The cold build's full-text write beside SQLite's own (in process, alternating pairs)", fullText);

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
  const browser = [];
  for (const r of ui.rows ?? []) row(browser, r.figure, r);
  // Last: its consolidation and proposals stay in this data folder, and Apply is never pressed (the home is unchanged).
  const reviewUi = await reviewUiFigures(root, heavy, join(scratch, 'data-review'), RUNS);
  for (const r of reviewUi.rows) row(browser, r.figure, r);
  printTable('Real Chromium on the serve host, heavy home (no tool to set beside a page: Node start only)', browser);
  for (const note of [ui.note, reviewUi.note]) if (note) console.log(`  ${note}`);
  // Node's start again, so a load that changed during the run shows.
  const after = measureNodeStart(RUNS * 2, false);
  console.log(
    `\n/anchor = Memory Studio / its anchor, the median of the pair-by-pair ratios (alternating pairs); /node = Memory Studio / node -e "" (${nodeStart.a.toFixed(1)} ms at the start of this run, ${after.a.toFixed(1)} ms at its end); times are medians, beside the ratios. Reproduce: npm run bench (BENCH_RUNS=N for more pairs).`,
  );
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
