// End to end for navigation that keeps context: the sidebar reveals what was opened, jumps centre the match, the
// outline follows the cursor, and the three-way view shows the conflict.
import { expect, ready, test } from './fixtures';

const filterBox = 'Filter files by name';

test('opening a rollout from the Rollouts view clears a filter that hides it and reveals it in the sidebar', async ({
  guardedPage: page,
  studio,
}) => {
  await ready(page, studio.url);
  const filter = page.getByRole('searchbox', { name: filterBox });
  await filter.fill('memory_summary');
  await expect(page.locator('[data-testid="file-item"][data-path^="rollout_summaries/"]')).toHaveCount(0);

  await page.locator('[data-testid="view-tab"][data-view="rollouts"]').click();
  const row = page.getByTestId('rollout-row').last();
  const path = (await row.getAttribute('data-path')) ?? '';
  expect(path).toMatch(/^rollout_summaries\//);
  await row.click();
  await expect(page.locator(`[data-testid="editor"][data-path="${path}"]`)).toBeVisible();

  await expect(filter).toHaveValue('');
  const item = page.locator(`[data-testid="file-item"][data-path="${path}"]`).first();
  await expect(item).toBeInViewport();
  await expect(item).toHaveAttribute('aria-selected', 'true');
  await expect(item).toHaveClass(/is-active/);
});

test('a pointer opened from the outline is revealed and selected in the sidebar', async ({ guardedPage: page, studio }) => {
  await ready(page, studio.url);
  await page.locator('[data-testid="file-item"][data-version="v2"][data-path="memory_summary.md"]').click();
  await expect(page.locator('[data-testid="editor"][data-version="v2"][data-path="memory_summary.md"]')).toBeVisible();
  // Scroll the tree away from the rollout summaries so revealing them is the tree's doing.
  await page.locator('#file-tree').evaluate((tree) => (tree.scrollTop = 0));
  const pointer = page.getByTestId('pointer-link').last();
  const file = (await pointer.getAttribute('data-file')) ?? '';
  await pointer.click();
  await expect(page.locator(`[data-testid="editor"][data-version="v2"][data-path="${file}"]`)).toBeVisible();
  const item = page.locator(`[data-testid="file-item"][data-version="v2"][data-path="${file}"]`);
  await expect(item).toBeInViewport();
  await expect(item).toHaveAttribute('aria-selected', 'true');
  await expect(item).toHaveClass(/is-active/);
});
