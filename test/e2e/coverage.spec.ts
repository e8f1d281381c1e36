// End to end for the Coverage view: the ledger of a generated home, filtered by stage with the keyboard, a failed
// extraction's retry proposed from the page, reviewed and applied, and the ledger refreshed from Codex's table.
import Database from 'better-sqlite3';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateHome } from '../fixtures';
import { expect, guardPage, keepScreenshot, ready, startServe, stopAndRemove, test, unstyledButtons } from './fixtures';

function exhaustedJob(codexHome: string): { id: string; retryRemaining: number } {
  const db = new Database(join(codexHome, 'memories_1.sqlite'), { readonly: true });
  try {
    const row = db
      .prepare("SELECT job_key AS id, retry_remaining AS retryRemaining FROM jobs WHERE kind = 'memory_stage1' AND retry_remaining <= 0")
      .get() as { id: string; retryRemaining: number } | undefined;
    if (!row) throw new Error('the generated home has no exhausted extraction');
    return row;
  } finally {
    db.close();
  }
}

function retriesLeft(codexHome: string, id: string): number {
  const db = new Database(join(codexHome, 'memories_1.sqlite'), { readonly: true });
  try {
    return (db.prepare("SELECT retry_remaining AS n FROM jobs WHERE kind = 'memory_stage1' AND job_key = ?").get(id) as { n: number }).n;
  } finally {
    db.close();
  }
}

test('the ledger of a home, an exhausted extraction retried from the page, reviewed and applied', async ({ page }, testInfo) => {
  const dir = await mkdtemp(join(tmpdir(), 'memory-studio-e2e-coverage-'));
  const home = join(dir, 'home');
  await generateHome({ dir: home, scale: 'small', version: 'v1', seed: 7, git: false, now: new Date() });
  const exhausted = exhaustedJob(home);
  const served = await startServe(home, join(dir, 'data'));
  try {
    const check = guardPage(page, new URL(served.url).origin);
    await ready(page, served.url);
    await page.locator('[data-testid="view-tab"][data-view="coverage"]').click();
    await expect(page.getByTestId('coverage-page')).toBeVisible();
    await expect(page.getByTestId('coverage-row').first()).toBeVisible();
    expect(await unstyledButtons(page)).toEqual([]);
    await keepScreenshot(page, testInfo, 'coverage');

    // The exhausted chip filters the table to that session; the detail pane names its error and offers the retry.
    await page.locator('[data-testid="stage-chip"][data-stage="exhausted"]').click();
    const rows = page.getByTestId('coverage-row');
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toHaveAttribute('data-thread-id', exhausted.id);
    await rows.first().click();
    await expect(page.getByTestId('coverage-detail')).toHaveAttribute('data-thread-id', exhausted.id);
    await expect(page.getByTestId('job-error')).not.toBeEmpty();
    await keepScreenshot(page, testInfo, 'coverage-exhausted');

    await page.getByTestId('propose-retry').click();
    await expect(page.locator('[data-testid="view-tab"][data-view="review"]')).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByTestId('proposal-title')).toContainText('Retry extracting session');
    await expect(page.getByTestId('proposal-detail')).toContainText('retry_remaining 0 → 3');
    // The row before → after, column by column: the changed ones stand out.
    const swap = page.getByTestId('db-swap');
    await expect(swap.locator('tr[data-changed="true"]')).toHaveCount(2);
    await expect(swap.locator('tr[data-changed="true"]').filter({ hasText: 'retry_remaining' })).toContainText('3');
    expect(retriesLeft(home, exhausted.id), 'nothing is written before Apply').toBe(exhausted.retryRemaining);
    await keepScreenshot(page, testInfo, 'coverage-retry-review');
    await page.getByTestId('apply-button').click();
    await expect(page.getByTestId('proposal-detail')).toHaveAttribute('data-status', 'applied');
    expect(retriesLeft(home, exhausted.id)).toBe(3);

    // Back in the ledger, the session is no longer exhausted: Codex claims it at a session start.
    await page.locator('[data-testid="view-tab"][data-view="coverage"]').click();
    await expect(page.locator('[data-testid="stage-chip"][data-stage="exhausted"]')).toContainText('0');
    check();
  } finally {
    await stopAndRemove(served.child, dir);
  }
});
