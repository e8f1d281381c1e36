// End to end for the theme setting of issue 27: System / Light / Dark in the status bar and the palette, applied to the
// page's colours and to Monaco at once, kept across a reload (on <html> before the app's script runs), and System
// following the OS live.
import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, ready, repoRoot, test } from './fixtures';

const DARK_BG = 'rgb(30, 30, 30)';
const LIGHT_BG = 'rgb(255, 255, 255)';
const screensDir = join(repoRoot, 'docs', 'screens', 'issue-27');

const bodyBackground = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

/** The page and the open file's Monaco editor both in `scheme` (Monaco marks its root `vs` or `vs-dark`). */
async function expectScheme(page: Page, scheme: 'light' | 'dark'): Promise<void> {
  await expect.poll(() => bodyBackground(page), `page background (${scheme})`).toBe(scheme === 'dark' ? DARK_BG : LIGHT_BG);
  const monaco = page.locator('[data-testid="editor"] .monaco-editor');
  await expect(monaco).toHaveClass(scheme === 'dark' ? /(^|\s)vs-dark(\s|$)/ : /(^|\s)vs(\s|$)/);
}

/** Waits for the Files view's editor to show a file (the app opens the first one by itself). */
async function fileOpen(page: Page): Promise<void> {
  await expect(page.locator('[data-testid="editor"] .monaco-editor')).toBeVisible();
  await expect(page.locator('[data-testid="editor"] .view-lines')).not.toBeEmpty();
}

async function paletteTheme(page: Page, label: 'System' | 'Light' | 'Dark'): Promise<void> {
  await page.keyboard.press('Control+k');
  await expect(page.getByTestId('palette-input')).toBeFocused();
  await page.getByTestId('palette-input').fill(`theme: ${label}`);
  await expect(page.getByTestId('palette-item').first()).toHaveText(new RegExp(`Theme: ${label}`));
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('command-palette')).toHaveCount(0);
}

test('Dark over a light OS darkens the page and Monaco, and survives a reload from the first paint', async ({
  guardedPage: page,
  studio,
}, testInfo) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await ready(page, studio.url);
  await fileOpen(page);
  const select = page.getByTestId('theme-select');
  await expect(select).toHaveValue('system');
  await expectScheme(page, 'light');
  const shots = async (name: string) => {
    const path = testInfo.outputPath(name);
    await page.screenshot({ path });
    if (process.env.UPDATE_SCREENS) await mkdir(screensDir, { recursive: true }).then(() => copyFile(path, join(screensDir, name)));
  };
  await shots('after-theme-light.png');

  await select.selectOption('dark');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expectScheme(page, 'dark');
  await shots('after-theme-dark.png');

  await page.reload();
  await expect(page.locator('[data-app-state="ready"]')).toBeVisible();
  await fileOpen(page);
  await expect(page.getByTestId('theme-select')).toHaveValue('dark');
  await expectScheme(page, 'dark');

  // The saved theme is on <html> before the app's bundle runs: with the bundle emptied, the boot text is already dark.
  await page.route('**/assets/index-*.js', (route) => route.fulfill({ status: 200, contentType: 'text/javascript', body: '' }));
  await page.reload();
  await expect(page.locator('#root .boot')).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  expect(await bodyBackground(page)).toBe(DARK_BG);
  await page.unroute('**/assets/index-*.js');
});

test('System follows the OS live; Light and Dark from the palette hold against it', async ({ guardedPage: page, studio }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await ready(page, studio.url);
  await fileOpen(page);
  await expect(page.getByTestId('theme-select')).toHaveValue('system');
  await expectScheme(page, 'dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await expectScheme(page, 'light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectScheme(page, 'dark');

  await paletteTheme(page, 'Light');
  await expect(page.getByTestId('theme-select')).toHaveValue('light');
  await expectScheme(page, 'light');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.emulateMedia({ colorScheme: 'dark' });
  // The OS says dark and the page has seen it (media change events run before the next frames render): Light holds.
  expect(await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)).toBe(true);
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  await expectScheme(page, 'light');

  await paletteTheme(page, 'System');
  await expect(page.locator('html')).not.toHaveAttribute('data-theme', /./);
  await expectScheme(page, 'dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await expectScheme(page, 'light');

  await page.getByTestId('theme-select').selectOption('dark');
  await expectScheme(page, 'dark');
});

test("Review's whole-file diff editor follows the theme too", async ({ guardedPage: page, studio }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await ready(page, studio.url);
  await page.getByTestId('theme-select').selectOption('dark');
  // A proposal to look at: edit the v1 summary and propose, as a person would.
  await page.locator('[data-testid="file-item"][data-version="v1"][data-path="memory_summary.md"]').click();
  await expect(page.locator('[data-testid="editor"][data-path="memory_summary.md"]')).toBeVisible();
  await page.getByTestId('edit-button').click();
  const editor = page.locator('[data-testid="editor"][data-editable="true"]');
  await editor.locator('.view-lines').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('THEMED closing line');
  await page.getByTestId('propose-button').click();
  await expect(page.getByTestId('proposal-detail')).toBeVisible();
  await page.getByTestId('view-file').click();
  await expect(page.locator('[data-testid="diff-editor"] .monaco-diff-editor')).toBeVisible();
  // Both sides are Monaco editors, each marked with the theme (the diff editor's own root is not).
  const diff = page.locator('[data-testid="diff-editor"] .monaco-editor').last();
  await expect(diff).toHaveClass(/(^|\s)vs-dark(\s|$)/);
  expect(await bodyBackground(page)).toBe(DARK_BG);

  await page.getByTestId('theme-select').selectOption('light');
  await expect(diff).toHaveClass(/(^|\s)vs(\s|$)/);
  expect(await bodyBackground(page)).toBe(LIGHT_BG);
});
