// End to end for navigation that keeps context: the sidebar reveals what was opened, jumps centre the match, the
// outline follows the cursor, and the three-way view shows the conflict.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Locator } from '@playwright/test';
import { expect, keepScreenshot, ready, test } from './fixtures';

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

/** Where `inner` sits inside `outer`, as fractions of outer's size (its centre), or null while either is not laid out. */
async function placeIn(outer: Locator, inner: Locator): Promise<{ x: number; y: number; inside: boolean } | null> {
  const [o, i] = [await outer.boundingBox(), await inner.first().boundingBox()];
  if (!o || !i) return null;
  const inside = i.x >= o.x && i.x + i.width <= o.x + o.width && i.y >= o.y && i.y + i.height <= o.y + o.height;
  return { x: (i.x + i.width / 2 - o.x) / o.width, y: (i.y + i.height / 2 - o.y) / o.height, inside };
}

test('a search hit on a long unwrapped line opens with the matched words centred and selected on screen', async ({
  guardedPage: page,
  studio,
}) => {
  // Over a million characters: the editor shows it unwrapped, as it does the heavy home's MEMORY.md. Words follow the
  // match, so the line scrolls far enough to centre it (one at the very end of the longest line stops at the edge).
  const note = 'extensions/ad_hoc/notes/2026-11-20T12-00-00-wide.md';
  const filler = (n: number) => `- entry ${n}: ${'lorem ipsum dolor sit amet consectetur '.repeat(25)}`;
  const lines = Array.from({ length: 1100 }, (_, n) => filler(n));
  lines[699] = `${filler(699)} restart the zanzibarquokka worker ${'after the match '.repeat(12)}`;
  await writeFile(join(studio.codexHome, 'memories', note), `# Wide note\n\n${lines.join('\n')}\n`);
  await ready(page, studio.url);
  await page.locator('[data-testid="view-tab"][data-view="search"]').click();
  await page.getByTestId('search-input').fill('zanzibarquokka');
  const hit = page.locator(`[data-testid="search-hit"][data-path="${note}"]`).first();
  await expect(hit).toHaveAttribute('data-line', '702');
  await hit.click();
  const editor = page.locator(`[data-testid="editor"][data-path="${note}"]`);
  await expect(editor).toBeVisible();
  const guard = editor.locator('.overflow-guard');
  const selection = editor.locator('.selected-text');
  await expect.poll(() => placeIn(guard, selection)).toMatchObject({ inside: true });
  const place = await placeIn(guard, selection);
  expect(place?.y).toBeGreaterThan(0.3);
  expect(place?.y).toBeLessThan(0.7);
  expect(place?.x).toBeGreaterThan(0.3);
  expect(place?.x).toBeLessThan(0.7);
  await expect(editor.locator('.line-numbers', { hasText: /^702$/ })).toBeVisible();
});

test('the three-way view scrolls both panes to a conflict at line 16, and its card shows the hand resolution', async ({
  guardedPage: page,
  studio,
}, testInfo) => {
  const target = join(studio.codexHome, 'memories', 'memory_summary.md');
  const original = await readFile(target, 'utf8');
  const lines = original.split('\n');
  expect(lines.length).toBeGreaterThan(20);
  await ready(page, studio.url);
  await page.locator('[data-testid="file-item"][data-version="v1"][data-path="memory_summary.md"]').click();
  await expect(page.locator('[data-testid="editor"][data-path="memory_summary.md"]')).toBeVisible();
  await page.getByTestId('edit-button').click();
  const editor = page.locator('[data-testid="editor"][data-editable="true"]');
  await editor.locator('.view-lines').click();
  await page.keyboard.press('Control+G');
  await page.keyboard.type('16');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Home');
  await page.keyboard.type('EDITED-16 ');
  await page.getByTestId('propose-button').click();
  const detail = page.getByTestId('proposal-detail');
  await expect(detail).toBeVisible();

  lines[15] = `CODEX-16 ${lines[15]}`;
  await writeFile(target, lines.join('\n'));
  await page.getByTestId('rebase-button').click();
  await expect(page.getByTestId('rebase-result')).toContainText('1 conflict to resolve');
  await detail.focus();
  await page.keyboard.press('n');
  const view = page.getByTestId('conflict-view');
  await expect(view).toContainText('Conflict 1 of 1 in memory_summary.md');
  for (const pane of ['three-way-theirs', 'three-way-ours']) {
    const modified = view.getByTestId(pane).locator('.editor.modified');
    const line16 = modified.locator('.line-numbers', { hasText: /^16$/ });
    await expect.poll(() => placeIn(modified.locator('.overflow-guard'), line16), `${pane} shows line 16`).toMatchObject({ inside: true });
    // Tall enough for the conflict and its context (stacked, each pane had about 90 px), and wholly on screen.
    const box = await modified.locator('.overflow-guard').boundingBox();
    expect(box?.height, `${pane} height`).toBeGreaterThanOrEqual(240);
    await expect(view.getByTestId(pane)).toBeInViewport({ ratio: 1 });
  }
  await expect(page.locator('[data-testid="hunk-item"][data-kind="conflict"]')).toBeInViewport();
  await keepScreenshot(page, testInfo, 'after-conflict-panes');

  await page.keyboard.press('e');
  await view.getByTestId('conflict-edit-text').fill('RESOLVED-BY-HAND on line sixteen\n');
  await page.keyboard.press('Control+Enter');
  const card = page.locator('[data-testid="hunk-item"][data-kind="conflict"]');
  await expect(card).toHaveAttribute('data-decision', 'edit');
  await expect(card.getByTestId('conflict-resolution')).toContainText('RESOLVED-BY-HAND on line sixteen');
});

test('the outline follows the cursor: Ctrl+End and Ctrl+Home mark the section holding it and scroll it into view', async ({
  guardedPage: page,
  studio,
}, testInfo) => {
  await ready(page, studio.url);
  await page.locator('[data-testid="file-item"][data-version="v1"][data-path="MEMORY.md"]').click();
  const editor = page.locator('[data-testid="editor"][data-version="v1"][data-path="MEMORY.md"]');
  await expect(editor).toBeVisible();
  const outline = page.getByTestId('outline-panel');
  const items = outline.getByTestId('outline-item');
  await expect(items.first()).toBeVisible();
  const starts = (await items.evaluateAll((rows) => rows.map((row) => Number(row.getAttribute('data-line'))))).sort((a, b) => a - b);
  const current = outline.locator('[data-testid="outline-item"][aria-current="location"]');

  await editor.locator('.view-lines').click();
  await page.keyboard.press('Control+End');
  // The last section holds the last line; the outline scrolled down to it.
  await expect(current).toHaveCount(1);
  await expect(current).toHaveAttribute('data-line', String(starts[starts.length - 1]));
  await expect(current).toBeInViewport();
  await expect(items.first()).not.toBeInViewport();
  await keepScreenshot(page, testInfo, 'after-outline-follows');

  await page.keyboard.press('Control+Home');
  await expect(current).toHaveAttribute('data-line', String(starts[0]));
  await expect(current).toBeInViewport();
});

test('a diagnostic on a long unwrapped line opens with its columns centred and selected on screen', async ({
  guardedPage: page,
  studio,
}) => {
  // Over a million characters, so the editor shows it unwrapped; an AWS key id far right on line 702, words after it.
  const note = 'extensions/ad_hoc/notes/2026-11-21T12-00-00-wide-key.md';
  const filler = (n: number) => `- entry ${n}: ${'lorem ipsum dolor sit amet consectetur '.repeat(25)}`;
  const lines = Array.from({ length: 1100 }, (_, n) => filler(n));
  lines[699] = `${filler(699)} staging deploys use AKIAQYLPMN5HHHFPZAM2 for the bucket ${'after the key '.repeat(12)}`;
  await writeFile(join(studio.codexHome, 'memories', note), `# Wide note\n\n${lines.join('\n')}\n`);
  await ready(page, studio.url);
  await page.getByRole('searchbox', { name: filterBox }).fill('wide-key');
  await page.locator(`[data-testid="file-item"][data-path="${note}"]`).click();
  const editor = page.locator(`[data-testid="editor"][data-path="${note}"]`);
  await expect(editor).toBeVisible();
  const diagnostic = page.locator('[data-testid="inspector-diagnostic"][data-rule="secrets/aws-access-key-id"]');
  await expect(diagnostic).toHaveAttribute('data-line', '702');

  await diagnostic.focus();
  await page.keyboard.press('Enter');
  const guard = editor.locator('.overflow-guard');
  const selection = editor.locator('.selected-text');
  await expect.poll(() => placeIn(guard, selection)).toMatchObject({ inside: true });
  const place = await placeIn(guard, selection);
  expect(place?.x).toBeGreaterThan(0.3);
  expect(place?.x).toBeLessThan(0.7);
  await expect(editor.locator('.line-numbers', { hasText: /^702$/ })).toBeVisible();
});

test('Search keeps where its results were scrolled: leaving for Files and coming back by keys restores the offset', async ({
  guardedPage: page,
  studio,
}) => {
  await ready(page, studio.url);
  await page.keyboard.press('Alt+9');
  const input = page.getByTestId('search-input');
  await expect(input).toBeFocused();
  await input.fill('the');
  const list = page.getByRole('list', { name: 'Search results' });
  const hits = list.getByTestId('search-hit');
  await expect.poll(() => hits.count()).toBeGreaterThan(20);
  // Down into the results, then two pages down: the list scrolls with the focus.
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('PageDown');
  await page.keyboard.press('PageDown');
  const index = await list.evaluate((element) => [...element.querySelectorAll('button')].findIndex((b) => b === document.activeElement));
  expect(index).toBeGreaterThan(10);
  const scrolled = await list.evaluate((element) => element.scrollTop);
  expect(scrolled).toBeGreaterThan(0);

  await page.keyboard.press('Alt+1');
  await expect(page.getByTestId('search-input')).toHaveCount(0);
  await page.keyboard.press('Alt+9');
  await expect(input).toHaveValue('the');
  await expect.poll(() => list.evaluate((element) => element.scrollTop)).toBe(scrolled);
  await expect(list.locator('button').nth(index)).toBeInViewport();
});
