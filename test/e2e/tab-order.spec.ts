// Tab order follows the layout, from the keyboard only: from the view's tab, Tab walks the sidebar (or the inbox), then
// the main pane (its header, the outline on its left, the editor or the proposal, the inspector on its right), then the
// status bar. Checked as the regions the focus passes through, in order, and a few controls on the way.
import type { Page } from '@playwright/test';
import { callHost, expect, ready, test } from './fixtures';

interface Stop {
  region: string;
  id: string;
}

/** Tab from the selected view tab round to the page's end: where the focus stops, by region and test id (or role). */
async function tabCycle(page: Page, view: string): Promise<Stop[]> {
  await expect(page.locator(`[data-testid="view-tab"][data-view="${view}"]`)).toBeFocused();
  const stops: Stop[] = [];
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press('Tab');
    const stop = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body) return null;
      const region = el.closest('[data-testid="status-bar"]')
        ? 'status-bar'
        : el.closest('.top-bar')
          ? 'tabs'
          : el.closest('[data-testid="inspector"]')
            ? 'inspector'
            : el.closest('[data-testid="outline-panel"]')
              ? 'outline'
              : el.closest('.sidebar, .review-inbox')
                ? 'sidebar'
                : el.closest('main')
                  ? 'main'
                  : 'elsewhere';
      return { region, id: el.dataset.testid ?? el.getAttribute('role') ?? el.tagName.toLowerCase() };
    });
    if (!stop || stop.region === 'tabs') break;
    stops.push(stop);
  }
  return stops;
}

/** The regions in the order the focus passed through them, each run of one region as one entry. */
function regions(stops: readonly Stop[]): string[] {
  return stops.map((s) => s.region).filter((region, i, all) => i === 0 || all[i - 1] !== region);
}

function before(stops: readonly Stop[], first: string, second: string): boolean {
  const a = stops.findIndex((s) => s.id === first);
  const b = stops.findIndex((s) => s.id === second);
  return a >= 0 && b >= 0 && a < b;
}

test('Tab walks the Files view and the Review view in the order of their layout', async ({ guardedPage: page, studio }) => {
  // One pending note, so the Review view has a proposal to walk.
  expect(await callHost(studio.url, 'review.note', { version: 'v1', slug: 'tab-order', text: 'Remember the tab order.\n' })).toMatchObject({
    ok: true,
  });
  await ready(page, studio.url);
  await expect(page.locator('[data-testid="editor"]').first()).toBeVisible();
  await expect(page.locator('[data-testid="outline-panel"]')).toBeVisible();

  // Files: Alt+1 puts the focus on its tab; Tab goes down the sidebar, across the main pane, to the status bar.
  await page.keyboard.press('Alt+2');
  await page.keyboard.press('Alt+1');
  const files = await tabCycle(page, 'files');
  expect(regions(files)).toEqual(['sidebar', 'main', 'outline', 'main', 'status-bar']);
  expect(files[0]?.id).toBe('searchbox');
  expect(files.some((s) => s.id === 'tree')).toBe(true);
  expect(before(files, 'edit-button', 'outline-item')).toBe(true);
  expect(before(files, 'outline-item', 'textbox')).toBe(true);
  expect(files.filter((s) => s.region === 'status-bar').map((s) => s.id)).toContain('diagnostics-toggle');

  // Review: the inbox on the left, then the proposal top to bottom (files, the hunk, its buttons, the bar), the status bar.
  await page.keyboard.press('Alt+5');
  await expect(page.getByTestId('proposal-detail')).toHaveAttribute('data-status', 'pending');
  await page.keyboard.press('Shift+Tab');
  for (let i = 0; i < 40 && !(await page.evaluate(() => document.activeElement?.getAttribute('data-testid') === 'view-tab')); i++)
    await page.keyboard.press('Shift+Tab');
  const review = await tabCycle(page, 'review');
  expect(regions(review)).toEqual(['sidebar', 'main', 'status-bar']);
  expect(before(review, 'new-note', 'proposal-item')).toBe(true);
  expect(before(review, 'proposal-item', 'proposal-file')).toBe(true);
  expect(before(review, 'proposal-file', 'hunk-item')).toBe(true);
  expect(before(review, 'hunk-item', 'accept-hunk')).toBe(true);
  expect(before(review, 'accept-hunk', 'reject-proposal')).toBe(true);
  expect(review.filter((s) => s.region === 'status-bar').map((s) => s.id)).toContain('diagnostics-toggle');
});
