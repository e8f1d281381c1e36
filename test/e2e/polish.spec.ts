// End to end for the polish of issue 27: every native control wears the theme in both schemes, Search keeps its state
// and folds near-identical hits, the palette marks matches, side panels overlay a narrow window, long labels ellipsize
// with a tooltip, and rendered Markdown shows its links (memory paths open in the app, https goes out in a new window).
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { views, type View } from '../../renderer/src/navigation/location';
import { expect, ready, test } from './fixtures';

async function openView(page: Page, view: View): Promise<void> {
  const tab = page.locator(`[data-testid="view-tab"][data-view="${view}"]`);
  await tab.click();
  await expect(tab).toHaveAttribute('aria-selected', 'true');
}

/** Visible controls still drawn by the browser: a field, select or button without `appearance: none`, a box without the accent. */
async function nativeControls(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>('input, select, textarea, button'))
      .filter((el) => el.getClientRects().length > 0 && !(el instanceof HTMLInputElement && ['hidden', 'file'].includes(el.type)))
      .filter((el) => {
        const style = getComputedStyle(el);
        const box = el instanceof HTMLInputElement && ['checkbox', 'radio', 'range'].includes(el.type);
        return box ? style.accentColor === 'auto' : style.appearance !== 'none';
      })
      .map((el) => el.outerHTML.slice(0, 140)),
  );
}

test('no input, select, textarea or button keeps the browser look, on any view, light or dark', async ({ guardedPage: page, studio }) => {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await ready(page, studio.url);
    for (const view of views) {
      await openView(page, view);
      if (view === 'search') await expect(page.getByTestId('search-version')).toBeVisible();
      if (view === 'doctor') await expect(page.getByTestId('doctor-project-input')).toBeVisible({ timeout: 60_000 });
      expect(await nativeControls(page), `${view} (${scheme})`).toEqual([]);
      if (view === 'doctor') {
        // The doctor's project field is the page's own background, not the browser's grey box.
        const [field, body] = await page.evaluate(() => [
          getComputedStyle(document.querySelector('[data-testid="doctor-project-input"]') as Element).backgroundColor,
          getComputedStyle(document.body).backgroundColor,
        ]);
        expect(field, `doctor input background (${scheme})`).toBe(body);
      }
    }
    await page.keyboard.press('Control+k');
    await expect(page.getByTestId('palette-input')).toBeFocused();
    expect(await nativeControls(page), `palette (${scheme})`).toEqual([]);
    await page.keyboard.press('Escape');
  }
});

test('Search keeps its query, filters and open groups, and folds near-identical hits', async ({ guardedPage: page, studio }) => {
  // The same lesson copied into three summaries (with other numbers): one group of three hits; a fourth file differs.
  const dir = join(studio.codexHome, 'memories', 'rollout_summaries');
  await mkdir(dir, { recursive: true });
  const line = (n: number) => `- Zebrafish export: rerun the PDF export ${n} times before filing a bug.`;
  await writeFile(join(dir, 'zz-polish-a.md'), `# A\n\n${line(2)}\n`);
  await writeFile(join(dir, 'zz-polish-b.md'), `# B\n\n${line(3)}\n`);
  await writeFile(join(dir, 'zz-polish-c.md'), `# C\n\n${line(5)}\n`);
  await writeFile(join(dir, 'zz-polish-d.md'), `# D\n\nZebrafish tanks are not software.\n`);
  await ready(page, studio.url);
  await openView(page, 'search');
  await page.getByTestId('search-input').fill('zebrafish');
  await page.getByTestId('search-version').selectOption('v1');
  const toggle = page.getByTestId('search-similar-toggle');
  await expect(toggle).toHaveText(/2 similar hits in 2 files/, { timeout: 60_000 });
  await expect(page.getByTestId('search-hit')).toHaveCount(2);
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByTestId('search-hit')).toHaveCount(4);
  await expect(page.locator('[data-testid="search-hit"][data-similar="true"]')).toHaveCount(2);

  await openView(page, 'files');
  await openView(page, 'search');
  await expect(page.getByTestId('search-input')).toHaveValue('zebrafish');
  await expect(page.getByTestId('search-version')).toHaveValue('v1');
  await expect(page.getByTestId('search-similar-toggle')).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByTestId('search-hit')).toHaveCount(4);
  // Its content keeps a margin from the window's edge, as VS Code's search view does.
  const box = await page.getByTestId('search-input').boundingBox();
  const panel = await page.locator('.search-page').boundingBox();
  expect((box?.x ?? 0) - (panel?.x ?? 0)).toBeGreaterThanOrEqual(12);
});

test('the palette marks the characters a label matches', async ({ guardedPage: page, studio }) => {
  await ready(page, studio.url);
  await page.keyboard.press('Control+k');
  await page.getByTestId('palette-input').fill('summ');
  const item = page.getByTestId('palette-item').filter({ hasText: 'memory_summary.md' }).first();
  await expect(item.locator('mark')).toHaveText(['summ']);
  await page.getByTestId('palette-input').fill('to review');
  await expect(page.getByTestId('palette-item').filter({ hasText: 'Go to Review' }).locator('mark')).toHaveText(['to', 'Review']);
});

test('at 1024×700 Outline and Inspector open over the editor, one at a time, and Escape closes them', async ({
  guardedPage: page,
  studio,
}) => {
  await page.setViewportSize({ width: 1024, height: 700 });
  await ready(page, studio.url);
  const body = page.getByTestId('file-body');
  await expect(body).toHaveAttribute('data-narrow', 'true');
  await expect(page.getByTestId('outline-panel')).toHaveCount(0);
  await expect(page.getByTestId('inspector')).toHaveCount(0);
  const editor = await page.locator('.editor-column').boundingBox();
  expect(editor?.width ?? 0).toBeGreaterThan(600);
  await page.getByRole('button', { name: 'Outline', exact: true }).click();
  await expect(page.getByTestId('outline-panel')).toBeVisible();
  await expect(page.getByTestId('outline-panel')).toHaveCSS('position', 'absolute');
  // The editor keeps its width under the overlay.
  expect((await page.locator('.editor-column').boundingBox())?.width).toBe(editor?.width);
  await page.getByRole('button', { name: 'Inspector', exact: true }).click();
  await expect(page.getByTestId('inspector')).toBeVisible();
  await expect(page.getByTestId('outline-panel')).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('inspector')).toHaveCount(0);
  await page.setViewportSize({ width: 1400, height: 900 });
  await expect(body).toHaveAttribute('data-narrow', 'false');
  await expect(page.getByTestId('outline-panel')).toBeVisible();
});

test('long labels stay on one line with an ellipsis and their whole text as a tooltip', async ({ guardedPage: page, studio }) => {
  await page.setViewportSize({ width: 1024, height: 700 });
  await ready(page, studio.url);
  await openView(page, 'history');
  const only = page.getByTestId('history-only-label');
  await expect(only).toHaveCSS('text-overflow', 'ellipsis');
  await expect(only).toHaveCSS('white-space', 'nowrap');
  await expect(page.locator('.history-only-file')).toHaveAttribute('title', /^Only the history of .+/);
  await openView(page, 'rollouts');
  const title = page.getByTestId('rollout-row').first().locator('.rollout-col-title');
  await expect(title).toHaveAttribute('title', /.+/, { timeout: 60_000 });
  await expect(title).toHaveCSS('text-overflow', 'ellipsis');
});

test('rendered Markdown shows links: a memory path opens in the app, an https link opens outside it', async ({
  guardedPage: page,
  studio,
}) => {
  await ready(page, studio.url);
  await openView(page, 'review');
  await page.getByTestId('new-note').click();
  const composer = page.getByTestId('note-composer');
  const root = composer.locator('select');
  if ((await root.count()) > 0) await root.selectOption('v1');
  await composer.getByTestId('note-slug').fill('linked');
  await composer.getByTestId('note-text').fill('See [the summary](../../../memory_summary.md) and https://example.com/docs.');
  await composer.getByTestId('note-propose').click();
  await expect(page.getByTestId('proposal-detail')).toHaveAttribute('data-status', 'pending');
  await page.getByTestId('accept-file').click();
  await expect(page.getByTestId('result-status')).toHaveAttribute('data-stale', 'false');
  await page.getByTestId('view-result').click();
  await page.getByRole('button', { name: 'Show rendered' }).click();
  const preview = page.getByTestId('markdown-preview');
  const external = preview.locator('a[href="https://example.com/docs"]');
  await expect(external).toHaveText('https://example.com/docs');
  // A new window, which main refuses and hands to its https-only openExternal gate: the app window never navigates.
  await expect(external).toHaveAttribute('target', '_blank');
  await expect(external).toHaveAttribute('rel', /noopener/);
  const internal = preview.getByRole('link', { name: 'the summary' });
  await expect(internal).toHaveAttribute('data-memory-path', 'memory_summary.md');
  const url = page.url();
  await internal.click();
  await expect(page.locator('[data-testid="view-tab"][data-view="files"]')).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator('[data-testid="editor"]')).toHaveAttribute('data-path', 'memory_summary.md');
  expect(page.url()).toBe(url);
});
