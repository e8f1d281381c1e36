// End to end: the root Codex reads is unmistakable. The generated home's config.toml says v1 while both memories/ and
// memories_v2/ exist: the first screen is v1's summary (never v2 first), and v2 wears "not read by Codex (config: v1)"
// in the sidebar, its file header, its budget headline and the status bar.
import { expect, keepScreenshot, ready, test } from './fixtures';

const notRead = 'not read by Codex (config: v1)';

/** Everything the first screens showed, recorded from the first DOM change on (before any assertion could look). */
interface FirstScreens {
  headers: string[];
  editors: string[];
  statusRoots: string[];
  headlines: string[];
  offeredV2: boolean;
}

test('the first screen opens the summary of the root config.toml names, and never v2 first', async ({ guardedPage: page, studio }) => {
  await page.addInitScript(() => {
    const seen: FirstScreens = { headers: [], editors: [], statusRoots: [], headlines: [], offeredV2: false };
    (window as unknown as { firstScreens: FirstScreens }).firstScreens = seen;
    const push = (list: string[], value: string | null | undefined) => {
      if (value && list[list.length - 1] !== value) list.push(value);
    };
    const record = () => {
      const editor = document.querySelector('[data-testid="editor"][data-version]');
      if (editor) push(seen.editors, `${editor.getAttribute('data-version')}/${editor.getAttribute('data-path')}`);
      const header = document.querySelector('.file-header');
      if (header)
        push(seen.headers, `${header.querySelector('.badge-version')?.textContent}/${header.querySelector('.file-path')?.textContent}`);
      push(seen.statusRoots, document.querySelector('[data-testid="status-root"]')?.textContent);
      push(seen.headlines, document.querySelector('[data-testid="budget-headline"]')?.textContent);
      if (Array.from(document.querySelectorAll('button')).some((b) => b.textContent?.startsWith('Open v2/'))) seen.offeredV2 = true;
    };
    new MutationObserver(record).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  await ready(page, studio.url);
  await expect(page.locator('[data-testid="editor"][data-version="v1"][data-path="memory_summary.md"]')).toBeVisible();
  await expect(page.getByTestId('budget-headline')).toBeVisible();

  const seen = await page.evaluate(() => (window as unknown as { firstScreens: FirstScreens }).firstScreens);
  expect(seen.headers[0], 'the first file header').toBe('v1/memory_summary.md');
  expect(
    seen.headers.filter((h) => h.startsWith('v2/')),
    'no v2 header on the way',
  ).toEqual([]);
  expect(seen.editors[0], 'the first file shown').toBe('v1/memory_summary.md');
  expect(
    seen.editors.filter((e) => e.startsWith('v2/')),
    'no v2 file shown on the way',
  ).toEqual([]);
  expect(seen.offeredV2, 'no "Open v2/…" offered on the way').toBe(false);
  expect(
    seen.statusRoots.filter((text) => text !== '…'),
    'one status wording from the start',
  ).toEqual(['Codex reads v1']);
  expect(seen.headlines[0], 'the first budget headline is the read root’s').not.toContain('not read');
  await expect(page.getByTestId('file-not-read')).toHaveCount(0);
});

test('the root Codex does not read is badged in the sidebar, file header, budget headline and status bar', async ({
  guardedPage: page,
  studio,
}, testInfo) => {
  await ready(page, studio.url);
  await expect(page.locator('[data-testid="editor"][data-version="v1"][data-path="memory_summary.md"]')).toBeVisible();

  await expect(page.locator('[data-testid="not-read-badge"][data-version="v2"]')).toHaveText(notRead);
  await expect(page.locator('[data-testid="not-read-badge"][data-version="v1"]')).toHaveCount(0);
  await expect(page.getByTestId('status-root')).toHaveText('Codex reads v1');
  await expect(page.getByTestId('status-others')).toHaveText(`+ v2 ${notRead}`);

  await page.locator('[data-testid="file-item"][data-version="v2"][data-path="memory_summary.md"]').click();
  await expect(page.locator('[data-testid="editor"][data-version="v2"][data-path="memory_summary.md"]')).toBeVisible();
  await expect(page.getByTestId('file-not-read')).toHaveText(notRead);
  const headline = page.getByTestId('budget-headline');
  await expect(headline).toHaveText('Not read by Codex (config: v1): the next session sees none of this file');
  await expect(headline).toHaveAttribute('data-fits', 'false');
  // The status bar does not change with the file opened.
  await expect(page.getByTestId('status-root')).toHaveText('Codex reads v1');
  await expect(page.getByTestId('status-others')).toHaveText(`+ v2 ${notRead}`);
  await keepScreenshot(page, testInfo, 'after-root-badges');

  await page.locator('[data-testid="file-item"][data-version="v1"][data-path="memory_summary.md"]').click();
  await expect(page.locator('[data-testid="editor"][data-version="v1"][data-path="memory_summary.md"]')).toBeVisible();
  await expect(page.getByTestId('file-not-read')).toHaveCount(0);
  await expect(page.getByTestId('budget-headline')).not.toContainText('not read');
});
