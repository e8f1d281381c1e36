// End to end for Consolidate: preview matches the home, builtin run -> phases -> review -> apply; cancel leaves files as they were.
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { Page } from '@playwright/test';
import { classifyMemoryFile } from '../fixtures';
import { expect, keepScreenshot, ready, test } from './fixtures';

const phases = ['select', 'stage', 'engine', 'validate', 'diff'] as const;

/** Every file under `root` (without `.git/`), root-relative with `/`, mapped to its bytes. */
async function snapshot(root: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (entry.name === '.git') continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile()) files.set(relative(root, path).split(sep).join('/'), await readFile(path));
    }
  };
  await walk(root);
  return files;
}

function countKind(files: Map<string, Buffer>, kind: ReturnType<typeof classifyMemoryFile>): { count: number; bytes: number } {
  let count = 0;
  let bytes = 0;
  for (const [path, data] of files) {
    if (classifyMemoryFile(path) !== kind) continue;
    count += 1;
    bytes += data.length;
  }
  return { count, bytes };
}

async function numberOf(page: Page, testId: string, attribute = 'data-value'): Promise<number> {
  return Number(await page.getByTestId(testId).getAttribute(attribute));
}

/** Alt+7 opens Consolidate; the v1 root is picked and its preview has arrived. */
async function openConsolidate(page: Page): Promise<void> {
  await page.keyboard.press('Alt+7');
  await expect(page.locator('[data-testid="view-tab"][data-view="consolidate"]')).toHaveAttribute('aria-selected', 'true');
  const consolidate = page.getByTestId('consolidate-page');
  await consolidate.getByTestId('version-picker').locator('label', { hasText: 'v1' }).click();
  await expect(page.locator('[data-testid="input-preview"][data-version="v1"]')).toBeVisible();
}

test('preview matches the home, builtin runs through its phases, the review applies a valid summary', async ({ guardedPage: page, studio }, testInfo) => {
  test.setTimeout(60_000);
  const root = join(studio.codexHome, 'memories');
  const before = await snapshot(root);
  await ready(page, studio.url);
  await openConsolidate(page);

  // The selection is what rollout_summaries/ becomes after Codex's sync; ad-hoc notes are the note files on disk.
  const selected = await numberOf(page, 'count-selected');
  const added = await numberOf(page, 'sync-added', 'data-count');
  const removed = await numberOf(page, 'sync-removed', 'data-count');
  expect(selected).toBeGreaterThan(0);
  expect(selected).toBe(countKind(before, 'rollout-summary').count + added - removed);
  await expect(page.getByTestId('selection-table')).toHaveAttribute('aria-rowcount', String(selected + 1));
  expect(await numberOf(page, 'count-bytes')).toBeGreaterThan(0);
  expect(await numberOf(page, 'count-tokens-in')).toBeGreaterThan(0);
  await expect(page.getByTestId('input-notes')).toHaveAttribute('data-count', String(countKind(before, 'ad-hoc-note').count));
  await expect(page.getByTestId('lease-notice')).not.toHaveAttribute('data-state', 'held');
  await keepScreenshot(page, testInfo, 'consolidate-preview');

  await page.getByRole('radio', { name: 'Engine: Built-in' }).check();
  await expect(page.getByTestId('preview-engine')).toHaveAttribute('data-value', 'builtin');
  // Enter starts (focus on the engine radio).
  await page.getByRole('radio', { name: 'Engine: Built-in' }).press('Enter');
  const panel = page.getByTestId('run-panel');
  await expect(panel).toBeVisible();
  await expect(panel).toHaveAttribute('data-state', 'proposed', { timeout: 30_000 });
  for (const phase of phases) {
    await expect(panel.locator(`[data-testid="run-phase"][data-phase="${phase}"]`)).toHaveAttribute('data-state', 'done');
  }
  await expect(page.getByRole('progressbar', { name: 'Overall progress' })).toHaveAttribute('aria-valuenow', '100');
  await expect(page.getByTestId('run-row')).toHaveCount(1);
  await keepScreenshot(page, testInfo, 'consolidate-proposed-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await keepScreenshot(page, testInfo, 'consolidate-proposed-dark');
  await page.emulateMedia({ colorScheme: 'light' });

  await page.getByRole('button', { name: 'Review the result', exact: true }).click();
  await expect(page.locator('[data-testid="view-tab"][data-view="review"]')).toHaveAttribute('aria-selected', 'true');
  const detail = page.getByTestId('proposal-detail');
  await expect(detail).toHaveAttribute('data-status', 'pending');
  await expect(detail.getByText('Consolidation', { exact: true })).toBeVisible();
  await page.locator('[data-testid="proposal-file"][data-path="memory_summary.md"]').click();
  await expect(page.locator('[data-testid="diff-editor"][data-path="memory_summary.md"]')).toBeVisible();

  // Accept every hunk of every file, then Apply.
  const files = page.getByTestId('proposal-file');
  for (let index = 0; index < (await files.count()); index += 1) {
    await files.nth(index).click();
    const acceptFile = page.getByTestId('accept-file');
    if (await acceptFile.isVisible()) await acceptFile.click();
  }
  await expect(page.getByTestId('result-section')).toHaveAttribute('data-stale', 'false');
  await page.getByTestId('apply-button').click();
  await expect(page.getByTestId('apply-result')).toBeVisible();

  const summary = await readFile(join(root, 'memory_summary.md'), 'utf8');
  expect(summary.startsWith('v1')).toBe(true);
  expect(summary).not.toBe(before.get('memory_summary.md')?.toString('utf8'));
});

test('cancelling a run right after Start leaves every live file byte-identical', async ({ guardedPage: page, studio }) => {
  test.setTimeout(40_000);
  const roots = [join(studio.codexHome, 'memories'), join(studio.codexHome, 'memories_v2')];
  const before = await Promise.all(roots.map(snapshot));
  await ready(page, studio.url);
  await openConsolidate(page);
  await page.getByRole('radio', { name: 'Engine: Built-in' }).check();

  await page.getByTestId('start-run').click();
  // Escape cancels as soon as the run is on screen, whatever its phase.
  const panel = page.getByTestId('run-panel');
  await expect(panel).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(panel).toHaveAttribute('data-state', 'cancelled', { timeout: 20_000 });
  await expect(page.getByTestId('run-end')).toHaveText('Cancelled; your memory files were not touched.');
  await expect(page.getByTestId('review-result')).toHaveCount(0);
  await expect(page.getByTestId('start-run')).toBeEnabled();

  const after = await Promise.all(roots.map(snapshot));
  for (const [index, files] of before.entries()) {
    const now = after[index] as Map<string, Buffer>;
    expect([...now.keys()].sort()).toEqual([...files.keys()].sort());
    for (const [path, data] of files) expect(now.get(path)?.equals(data), `${path} unchanged`).toBe(true);
  }
});

test.describe('a home without memory', () => {
  test.use({ homeKind: 'empty' });

  test('the Consolidate view says what to do', async ({ guardedPage: page, studio }) => {
    await ready(page, studio.url);
    await page.locator('[data-testid="view-tab"][data-view="consolidate"]').click();
    await expect(page.getByRole('heading', { name: 'Nothing to consolidate yet' })).toBeVisible();
  });
});
