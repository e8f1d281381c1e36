// UI figures on a heavy home in real Chromium: rows the rollout table mounts, and the longest main-thread task while a 5 MB MEMORY.md opens.
/* global window, document, PerformanceObserver -- these callbacks run inside the page, not in Node. */
import { chromium } from '@playwright/test';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function chromiumPath() {
  return [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => p && existsSync(p));
}

export async function serve(bin, home, dataDir) {
  const child = spawn(process.execPath, [bin, 'serve', '--codex-home', home, '--data-dir', dataDir, '--port', '0']);
  const url = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /Open: (\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
  });
  return { url, child };
}

/** Returns rows (the harness's row() fields) or a note when no Chromium is available. */
export async function uiFigures(root, home, dataDir) {
  const executablePath = chromiumPath();
  if (!executablePath) return { note: 'UI figures skipped: no Chromium (set CHROMIUM_PATH or install chromium).' };
  const { url, child } = await serve(join(root, 'electron', 'host', 'bin.cjs'), home, dataDir);
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.addInitScript(() => {
      window.__longTasks = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) window.__longTasks.push(entry.duration);
      }).observe({ type: 'longtask', buffered: true });
    });
    await page.goto(url);
    await page.locator('[data-app-state="ready"]').waitFor({ timeout: 60_000 });
    await page.waitForTimeout(1000);
    await page.evaluate(() => (window.__longTasks = []));
    // First text: the file's first line on screen (a big file goes in over several tasks, its top first); whole text:
    // the editor says the file is shown and no longer filling.
    const firstLine = readFileSync(join(home, 'memories', 'MEMORY.md'), 'utf8').split('\n')[0];
    const showing = (line) =>
      [...document.querySelectorAll('[data-testid="editor"] .view-lines')].some((el) =>
        (el.textContent ?? '').replace(/\u00a0/g, ' ').includes(line),
      );
    if (await page.evaluate(showing, firstLine)) throw new Error('the first line of MEMORY.md was on screen before it was opened');
    const started = Date.now();
    await page.locator('[data-testid="file-item"][data-version="v1"][data-path="MEMORY.md"]').click();
    await page.waitForFunction(showing, firstLine, { timeout: 60_000, polling: 'raf' });
    const firstMs = Date.now() - started;
    await page.locator('[data-testid="editor"][data-path="MEMORY.md"][data-filling="false"] .view-lines').waitFor({ timeout: 60_000 });
    const openMs = Date.now() - started;
    await page.waitForTimeout(3000);
    const longest = Math.round(Math.max(0, ...(await page.evaluate(() => window.__longTasks))));
    await page.locator('[data-testid="view-tab"][data-view="rollouts"]').click();
    await page.locator('[data-testid="rollout-row"]').first().waitFor({ timeout: 60_000 });
    const rows = await page.locator('[data-testid="rollout-row"]').count();
    return {
      rows: [
        { figure: 'open 5 MB MEMORY.md: time to its first line on screen', ours: firstMs, budget: 'none (reported)', within: null },
        { figure: 'open 5 MB MEMORY.md: time to the whole text in', ours: openMs, budget: 'none (reported)', within: null },
        { figure: 'open 5 MB MEMORY.md: longest main-thread task', ours: longest, budget: '200 ms', within: longest <= 200 },
        { figure: 'rollout table: rows in the DOM for 4,096 entries', ours: rows, unit: 'rows', budget: '200 rows', within: rows <= 200 },
      ],
    };
  } finally {
    await browser.close();
    child.kill();
  }
}
