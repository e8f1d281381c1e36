// End to end for search: the Search view (filters, highlights, jump to line, keyboard only) and the command palette.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, keepScreenshot, ready, test } from './fixtures';

const NOTE = 'extensions/ad_hoc/notes/2026-11-20T12-00-00-quokka.md';

test('Search finds a word, highlights it, filters, and Enter opens the file at that line', async ({
  guardedPage: page,
  studio,
}, testInfo) => {
  await writeFile(
    join(studio.codexHome, 'memories', NOTE),
    '# Quokka runbook\n\nNothing here.\n\nRestart the quokka deployment with `make quokka-restart`.\n',
  );
  await ready(page, studio.url);
  await page.keyboard.press('Alt+9');
  const input = page.getByTestId('search-input');
  await expect(input).toBeFocused();
  await input.fill('quokka deployment');
  const hit = page.getByTestId('search-hit').first();
  await expect(hit).toHaveAttribute('data-path', NOTE);
  await expect(hit).toHaveAttribute('data-line', '5');
  await expect(hit.locator('mark').first()).toHaveText(/quokka/i);
  await expect(page.getByTestId('search-summary')).toContainText(/1 of 1 matching passage/);
  await keepScreenshot(page, testInfo, 'search-view');

  // Filters: the note is v1 only.
  await page.getByTestId('search-version').selectOption('v2');
  await expect(page.getByTestId('search-summary')).toContainText('No matches');
  await page.getByTestId('search-version').selectOption('');
  await expect(hit).toHaveAttribute('data-path', NOTE);

  // Keyboard only: ↓ from the field to the first hit, Enter opens it in the Files view at its line.
  await input.focus();
  await page.keyboard.press('ArrowDown');
  await expect(hit).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator(`[data-testid="editor"][data-version="v1"][data-path="${NOTE}"]`)).toBeVisible();
  await expect(page.locator('.line-numbers', { hasText: /^5$/ })).toBeVisible();
});

test('Ctrl+K opens the palette: a MEMORY.md block by name, a file by path, an action, all from the keyboard', async ({
  guardedPage: page,
  studio,
}, testInfo) => {
  await ready(page, studio.url);
  await page.keyboard.press('Control+K');
  const palette = page.getByTestId('command-palette');
  await expect(palette).toBeVisible();
  const input = page.getByTestId('palette-input');
  await expect(input).toBeFocused();

  await input.fill('invoice');
  const block = palette.locator('[data-testid="palette-item"][data-type="block"]').first();
  await expect(block).toContainText(/invoice/i);
  await keepScreenshot(page, testInfo, 'command-palette');
  // Move onto the first block with the arrows and open it.
  const items = palette.getByTestId('palette-item');
  const index = await items.evaluateAll((els) => els.findIndex((el) => el.getAttribute('data-type') === 'block'));
  for (let i = 0; i < index; i++) await page.keyboard.press('ArrowDown');
  await expect(items.nth(index)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(palette).toBeHidden();
  await expect(page.locator('[data-testid="editor"][data-version]')).toBeVisible();

  await page.keyboard.press('Control+K');
  await page.getByTestId('palette-input').fill('raw_memories');
  await expect(palette.locator('[data-testid="palette-item"][data-type="file"]').first()).toContainText('raw_memories.md');
  await page.keyboard.press('Enter');
  await expect(page.locator('[data-testid="editor"][data-version="v1"][data-path="raw_memories.md"]')).toBeVisible();

  await page.keyboard.press('Control+K');
  await page.getByTestId('palette-input').fill('go to health');
  await page.keyboard.press('Enter');
  await expect(page.locator('[data-testid="view-tab"][data-view="health"]')).toHaveAttribute('aria-selected', 'true');

  await page.keyboard.press('Control+K');
  await page.keyboard.press('Escape');
  await expect(palette).toBeHidden();
});
