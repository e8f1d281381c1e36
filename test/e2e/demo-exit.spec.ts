// End to end: the way out of a demo home, and an empty state that gives the config.toml lines turning memories on.
import { mkdir, mkdtemp, appendFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, guardPage, keepScreenshot, ready, startServe, stopAndRemove, test } from './fixtures';

test.describe('a home without memory', () => {
  test.use({ homeKind: 'empty' });

  test('the demo says which home it replaced; Return to your home brings it back, after a reload too', async ({
    guardedPage: page,
    studio,
  }, testInfo) => {
    await ready(page, studio.url);
    await expect(page.getByTestId('leave-demo')).toHaveCount(0);
    await page.getByTestId('open-demo').click();
    await expect(page.getByTestId('demo-badge')).toBeVisible({ timeout: 30_000 });

    // The host keeps the demo for every window until it is left: a reload stays there, with the way back in sight.
    await page.reload();
    await expect(page.locator('[data-app-state="ready"]')).toBeVisible();
    await expect(page.getByTestId('demo-bar')).toContainText('Demo home');
    await expect(page.getByTestId('demo-bar')).toContainText(studio.codexHome);
    await expect(page.getByTestId('leave-demo')).toHaveText('Return to your home');
    await expect(page.getByTestId('leave-demo-sidebar')).toBeVisible();
    await keepScreenshot(page, testInfo, 'after-demo-exit');

    await page.getByTestId('leave-demo').click();
    await expect(page.getByTestId('home-path')).toHaveText(studio.codexHome);
    await expect(page.getByTestId('demo-badge')).toHaveCount(0);
    await expect(page.getByTestId('demo-bar')).toHaveCount(0);
    await expect(page.locator('#empty-title')).toHaveText(`No memory folder in ${studio.codexHome} yet`);
    await expect(page.locator('[data-testid="file-item"]')).toHaveCount(0);
  });

  test('the command palette offers the way back while in the demo', async ({ guardedPage: page, studio }) => {
    await ready(page, studio.url);
    await page.getByTestId('open-demo').click();
    await expect(page.getByTestId('demo-badge')).toBeVisible({ timeout: 30_000 });
    await page.keyboard.press('Control+K');
    await page.getByTestId('palette-input').fill('return home');
    await expect(page.locator('[data-testid="palette-item"]').first()).toContainText('Return to your home');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('home-path')).toHaveText(studio.codexHome);
    await expect(page.getByTestId('demo-badge')).toHaveCount(0);
  });
});

test('with the memories feature not set, the empty state gives the config.toml lines, and they turn it on', async ({ page }, testInfo) => {
  const dir = await mkdtemp(join(tmpdir(), 'memory-studio-e2e-'));
  const codexHome = join(dir, 'codex-home');
  await mkdir(codexHome, { recursive: true });
  const configPath = join(codexHome, 'config.toml');
  await writeFile(configPath, 'model = "gpt-5.4"\n');
  const { url, child } = await startServe(codexHome, join(dir, 'data'));
  try {
    const origin = new URL(url).origin;
    const check = guardPage(page, origin);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    await ready(page, url);
    const hint = page.getByTestId('memories-config-hint');
    await expect(hint).toContainText(`To turn memories on, add these lines to ${configPath}`);
    const lines = page.getByTestId('memories-config-lines');
    await expect(lines).toHaveText('[features]\nmemories = true\n', { useInnerText: true });
    await page.getByTestId('memories-config-lines-copy').click();
    await expect(page.getByTestId('memories-config-lines-copy')).toHaveText('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('[features]\nmemories = true\n');
    await keepScreenshot(page, testInfo, 'after-empty-state');

    // The copied lines are what Codex (and the app) call on: added to the file, the feature is on and the hint goes.
    await appendFile(configPath, `\n${await page.evaluate(() => navigator.clipboard.readText())}`);
    await page.reload();
    await expect(page.locator('[data-app-state="ready"]')).toBeVisible();
    await expect(page.getByTestId('status-config')).toHaveText('memories feature: on');
    await expect(hint).toHaveCount(0);
    check();
  } finally {
    await stopAndRemove(child, dir);
  }
});
