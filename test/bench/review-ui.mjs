// Review at real size in Chromium on the heavy home: a consolidation proposal and a 1,000-hunk proposal opened through the
// serve host; time to the first hunk, j and a latency (p95), file-tab switch, and the consolidation's own size figures.
/* global document, performance, KeyboardEvent, requestAnimationFrame -- page callbacks run in the browser. */
import { chromium } from '@playwright/test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { printTable, row } from './harness.mjs';
import { CHROMIUM_ARGS, chromiumPath, serve } from './ui.mjs';

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))];

/** The two proposals, made in process against the data folder the serve host then opens. */
async function makeProposals(root, home, dataDir) {
  const require = createRequire(import.meta.url);
  const { createStudioService } = require(join(root, 'out', 'electron', 'core', 'service', 'service.js'));
  const service = createStudioService({
    home: { codexHome: home, source: 'flag' },
    dataDir,
    host: 'serve',
    appVersion: 'bench',
    watch: false,
    holdConsolidationLease: false,
    log: () => undefined,
  });
  try {
    const run = await service.call('consolidate.start', { version: 'v1', engine: 'builtin' });
    const done = await service.consolidation().settled(run.id);
    const consolidation = await service.call('review.get', { id: done.proposalId });
    const base = readFileSync(join(home, 'memories', 'MEMORY.md'), 'utf8');
    const lines = base.split('\n');
    for (let i = 0; i < 1000; i++) {
      const at = Math.floor(((i + 0.5) * lines.length) / 1000);
      lines[at] = `${lines[at]} (edited ${i})`;
    }
    const big = await service.call('review.propose', {
      version: 'v1',
      path: 'MEMORY.md',
      content: lines.join('\n'),
      title: '1,000 scattered edits',
    });
    return { consolidation, big, baseLines: base.split('\n').length - (base.endsWith('\n') ? 1 : 0) };
  } finally {
    service.dispose();
  }
}

/** Milliseconds from a click on the proposal in the inbox of a freshly loaded page (nothing cached) to its first hunk on screen. */
async function openTime(page, url, id) {
  await page.goto(url);
  await page.locator('[data-app-state="ready"]').waitFor({ timeout: 60_000 });
  await page.locator('[data-testid="view-tab"][data-view="review"]').click();
  const item = page.locator(`[data-testid="proposal-item"][data-id="${id}"]`);
  await item.waitFor({ timeout: 60_000 });
  const started = Date.now();
  await item.click();
  await page.locator(`[data-testid="proposal-detail"][data-id="${id}"] [data-testid="hunk-item"]`).first().waitFor({ timeout: 120_000 });
  return Date.now() - started;
}

/** Per key press: the handler, React's render and layout, up to the next frame (in the page, no protocol round trip). */
function keyLatencies(page, key, presses) {
  return page.evaluate(
    async ({ key, presses }) => {
      const panel = document.querySelector('[data-testid="proposal-detail"]');
      const out = [];
      for (let i = 0; i < presses; i++) {
        const started = performance.now();
        panel.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
        document.querySelector('[data-testid="hunk-item"][aria-current="true"]')?.getBoundingClientRect();
        await new Promise((resolve) => requestAnimationFrame(() => resolve()));
        out.push(performance.now() - started);
      }
      return out;
    },
    { key, presses },
  );
}

async function tabSwitches(page, paths, rounds) {
  const samples = [];
  for (let i = 0; i < rounds; i++) {
    const path = paths[i % paths.length];
    const started = Date.now();
    await page.locator(`[data-testid="proposal-file"][data-path="${path}"]`).click();
    await page.locator(`[data-testid="file-review"][data-path="${path}"] [data-testid="hunk-item"]`).first().waitFor({ timeout: 60_000 });
    samples.push(Date.now() - started);
  }
  return samples;
}

/** Rows (the harness's row() fields), or a note when no Chromium is available. */
export async function reviewUiFigures(root, home, dataDir, runs) {
  const made = await makeProposals(root, home, dataDir);
  const memory = made.consolidation.files.find((f) => f.relPath === 'MEMORY.md');
  const summary = made.consolidation.files.find((f) => f.relPath === 'memory_summary.md');
  const removed = (100 * memory.removed) / made.baseLines;
  const rows = [
    {
      figure: 'heavy v1 consolidation: MEMORY.md lines removed',
      ours: removed.toFixed(2),
      unit: '%',
      budget: '10 %',
      within: removed <= 10,
    },
    {
      figure: 'heavy v1 consolidation: MEMORY.md hunks',
      ours: memory.hunks.length,
      unit: 'hunks',
      budget: '400 hunks',
      within: memory.hunks.length <= 400,
    },
    // The demo's summary is over Codex's budget, so the merge drops its oldest entries (whole, none reworded).
    {
      figure: `heavy v1 consolidation: memory_summary.md hunks (+${summary?.added ?? 0} -${summary?.removed ?? 0} lines)`,
      ours: summary ? summary.hunks.length : 0,
      unit: 'hunks',
      budget: 'only what the budget needs',
      within: null,
    },
  ];
  const executablePath = chromiumPath();
  if (!executablePath) return { rows, note: 'Review UI figures skipped: no Chromium (set CHROMIUM_PATH or install chromium).' };
  const { url, child } = await serve(join(root, 'electron', 'host', 'bin.cjs'), home, dataDir);
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const [cid, bid] = [made.consolidation.id, made.big.id];
    const consolidationOpen = [];
    const bigOpen = [];
    // Alternating, each from a fresh page load.
    for (let i = 0; i < runs; i++) {
      consolidationOpen.push(await openTime(page, url, cid));
      bigOpen.push(await openTime(page, url, bid));
    }
    await page.waitForTimeout(1000);
    const j = await keyLatencies(page, 'j', 100);
    const a = await keyLatencies(page, 'a', 50);
    await page.locator(`[data-testid="proposal-item"][data-id="${cid}"]`).click();
    const tabs = await tabSwitches(page, ['memory_summary.md', 'MEMORY.md'], 2 * runs);
    const timed = (figure, samples, budget) =>
      rows.push({
        figure: `${figure} (median; max ${Math.round(Math.max(...samples))} ms)`,
        ours: median(samples),
        budget: `${budget} ms`,
        within: median(samples) <= budget,
      });
    timed('consolidation proposal open: time to first hunk', consolidationOpen, 1000);
    timed('1,000-hunk proposal open: time to first hunk', bigOpen, 1000);
    rows.push(
      { figure: 'j at 1,000 hunks: p95 to the next frame', ours: p95(j), budget: '50 ms', within: p95(j) <= 50 },
      { figure: 'a at 1,000 hunks: p95 to the next frame', ours: p95(a), budget: '50 ms', within: p95(a) <= 50 },
    );
    timed('file tab switch, consolidation proposal', tabs, 300);
    return { rows, note: null };
  } finally {
    await browser.close();
    child.kill();
  }
}

// `node test/bench/review-ui.mjs` (after `npm run build`): only these figures, on a fresh heavy home (BENCH_RUNS, default 5).
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
  const require = createRequire(import.meta.url);
  const { generateHome } = require(join(root, 'out', 'electron', 'core', 'demo-home', 'index.js'));
  const dir = mkdtempSync(join(tmpdir(), 'memory-studio-bench-review-'));
  try {
    const manifest = await generateHome({ dir: join(dir, 'home'), scale: 'heavy', version: 'both', seed: 1 });
    const result = await reviewUiFigures(root, manifest.codexHome, join(dir, 'review-data'), Number(process.env.BENCH_RUNS ?? 5));
    const table = [];
    for (const r of result.rows) row(table, r.figure, r);
    printTable('Review at real size', table);
    if (result.note) console.log(`  ${result.note}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
