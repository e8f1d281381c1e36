// The walking skeleton end to end: ready state, sidebar counts equal to the manifest, a file in Monaco, states and errors.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileKinds } from '../../shared/domain';
import { expect, test } from './fixtures';

test('reaches ready and the sidebar counts equal the generated manifest', async ({ guardedPage: page, studio }, testInfo) => {
  await page.goto(studio.url);
  await expect(page.locator('[data-app-state="ready"]')).toBeVisible();
  await expect(page.getByTestId('home-path')).toContainText(studio.codexHome);
  const manifest = studio.manifest;
  if (!manifest) throw new Error('this test needs a generated home');
  for (const version of ['v1', 'v2'] as const) {
    const counts = manifest.roots[version]?.counts;
    expect(counts, `manifest has a ${version} root`).toBeDefined();
    for (const kind of fileKinds) {
      const expected = counts?.[kind] ?? 0;
      const badge = page.locator(`[data-testid="kind-count"][data-version="${version}"][data-kind="${kind}"]`);
      if (expected === 0) await expect(badge).toHaveCount(0);
      else await expect(badge, `${version} ${kind}`).toHaveText(String(expected));
    }
  }
  await expect(page.getByTestId('status-bar')).toBeVisible();
  const shot = testInfo.outputPath('app-ready.png');
  await page
    .getByTestId('file-item')
    .filter({ has: page.locator('text=memory_summary.md') })
    .first()
    .click();
  await expect(page.getByTestId('editor')).toBeVisible();
  await page.screenshot({ path: shot });
  await testInfo.attach('app-ready', { path: shot, contentType: 'image/png' });
});

test('opening memory_summary.md shows its text in Monaco', async ({ guardedPage: page, studio }) => {
  await page.goto(studio.url);
  await expect(page.locator('[data-app-state="ready"]')).toBeVisible();
  await page.locator('[data-testid="file-item"][data-version="v1"][data-path="memory_summary.md"]').click();
  const editor = page.locator('[data-testid="editor"][data-path="memory_summary.md"]');
  await expect(editor).toBeVisible();
  await expect(editor.locator('.view-lines')).toContainText('v1');
  await expect(editor.locator('.view-lines')).toContainText('## User Profile');
});

test('the view tabs move with the arrow keys, Home and End, keeping the focus on the tab shown', async ({ guardedPage: page, studio }) => {
  await page.goto(studio.url);
  await expect(page.locator('[data-app-state="ready"]')).toBeVisible();
  const tab = (view: string) => page.locator(`[data-testid="view-tab"][data-view="${view}"]`);
  const shown = async (view: string) => {
    await expect(tab(view)).toHaveAttribute('aria-selected', 'true');
    await expect(tab(view)).toBeFocused();
  };
  await tab('files').focus();
  await page.keyboard.press('ArrowRight');
  await shown('rollouts');
  await page.keyboard.press('End');
  await shown('coverage');
  await page.keyboard.press('ArrowRight');
  await shown('files');
  await page.keyboard.press('ArrowLeft');
  await shown('coverage');
  await page.keyboard.press('Home');
  await shown('files');
});

test('a file that cannot be shown gets a clear error, and the rest keeps working', async ({ guardedPage: page, studio }) => {
  await writeFile(join(studio.codexHome, 'memories', 'stray-binary.dat'), Buffer.from([0x00, 0x01, 0x02, 0xff]));
  await page.goto(studio.url);
  await expect(page.locator('[data-app-state="ready"]')).toBeVisible();
  await page.locator('[data-testid="file-item"][data-version="v1"][data-path="stray-binary.dat"]').click();
  await expect(page.getByTestId('error-panel')).toContainText('binary');
  await page.locator('[data-testid="file-item"][data-version="v1"][data-path="MEMORY.md"]').click();
  await expect(page.locator('[data-testid="editor"][data-path="MEMORY.md"] .view-lines')).toContainText('# Task Group');
});

test('a file Codex writes while the app is open appears without a reload', async ({ guardedPage: page, studio }) => {
  await page.goto(studio.url);
  await expect(page.locator('[data-app-state="ready"]')).toBeVisible();
  const notes = join(studio.codexHome, 'memories', 'extensions', 'ad_hoc', 'notes');
  await mkdir(notes, { recursive: true });
  await writeFile(join(notes, '2026-11-20T12-30-00-prefer-pnpm.md'), 'Remember: this user prefers pnpm over npm.\n');
  await expect(
    page.locator('[data-testid="file-item"][data-version="v1"][data-path="extensions/ad_hoc/notes/2026-11-20T12-30-00-prefer-pnpm.md"]'),
  ).toHaveCount(1, { timeout: 45_000 });
});

test.describe('a home without memory', () => {
  test.use({ homeKind: 'empty' });

  test('offers the demo, and the demo opens marked as a demo', async ({ guardedPage: page, studio }) => {
    await page.goto(studio.url);
    await expect(page.locator('[data-app-state="ready"]')).toBeVisible();
    await expect(page.getByTestId('demo-badge')).toHaveCount(0);
    await page.getByTestId('open-demo').click();
    await expect(page.getByTestId('demo-badge')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('home-path')).toContainText(join(studio.dataDir, 'demo-home'));
    await expect(page.locator('[data-testid="file-item"][data-path="memory_summary.md"]').first()).toBeVisible();
  });
});

test('without the token the page explains what to do', async ({ page, studio }) => {
  await page.goto(studio.origin + '/');
  await expect(page.locator('[data-app-state="error"]')).toBeVisible();
  await expect(page.getByTestId('error-panel')).toContainText('token');
});
