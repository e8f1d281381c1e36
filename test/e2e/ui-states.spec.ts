// States that used to be wrong, each checked as a person sees it: first screen, reveal in the sidebar, Health without a
// DB, Retry only where it helps, the plain-text note beside (not over) the editor, units and calm zero counts.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { expect, ready, test } from './fixtures';

/** The sidebar row of a file: selected, and scrolled into the sidebar's view. */
async function expectRevealed(page: Page, version: string, path: string): Promise<void> {
  const item = page.locator(`[data-testid="file-item"][data-version="${version}"][data-path="${path}"]`);
  await expect(item).toHaveAttribute('aria-selected', 'true');
  await expect(item).toBeInViewport();
}

async function box(locator: Locator): Promise<{ top: number; bottom: number }> {
  const b = await locator.boundingBox();
  if (!b) throw new Error('not laid out');
  return { top: b.y, bottom: b.y + b.height };
}

test('the first screen opens the summary of the root config.toml selects, shown selected in the sidebar', async ({
  guardedPage: page,
  studio,
}) => {
  const config = join(studio.codexHome, 'config.toml');
  const text = await readFile(config, 'utf8');
  // The generated home selects v1; switch it to v2 to see the choice follow config.toml, not the first root.
  await writeFile(
    config,
    /version\s*=\s*"v1"/.test(text) ? text.replace(/version\s*=\s*"v1"/, 'version = "v2"') : `${text}\n[memories]\nversion = "v2"\n`,
  );
  await ready(page, studio.url);
  await expect(page.locator('[data-testid="editor"][data-version="v2"][data-path="memory_summary.md"]')).toBeVisible();
  await expectRevealed(page, 'v2', 'memory_summary.md');
  await expect(page.getByTestId('budget-headline')).toBeVisible();
});

test('a file opened from Rollouts or from an outline pointer is revealed in the sidebar', async ({ guardedPage: page, studio }) => {
  await ready(page, studio.url);
  await page.locator('[data-testid="view-tab"][data-view="rollouts"]').click();
  const row = page.getByTestId('rollout-row').nth(3);
  const path = await row.getAttribute('data-path');
  expect(path).toMatch(/^rollout_summaries\//);
  await row.click();
  await expect(page.locator(`[data-testid="editor"][data-path="${path}"]`)).toBeVisible();
  await expectRevealed(page, 'v1', path ?? '');

  await page.locator('[data-testid="file-item"][data-version="v2"][data-path="memory_summary.md"]').click();
  const pointer = page.getByTestId('pointer-link').last();
  const target = await pointer.getAttribute('data-file');
  await pointer.click();
  await expect(page.locator(`[data-testid="editor"][data-version="v2"][data-path="${target}"]`)).toBeVisible();
  await expectRevealed(page, 'v2', target ?? '');
});

test('a file that cannot be shown offers no Retry (it would say the same), a file too big to colour keeps its first line in view', async ({
  guardedPage: page,
  studio,
}) => {
  const notes = join(studio.codexHome, 'memories', 'extensions', 'ad_hoc', 'notes');
  await writeFile(join(notes, '2026-11-20T10-00-00-binary.md'), Buffer.from([0x23, 0x00, 0x01, 0xff, 0x0a]));
  const big = `FIRST LINE of a very large note\n${'- a line of padding that makes the note large enough to be shown as plain text\n'.repeat(14_000)}`;
  await writeFile(join(notes, '2026-11-20T10-00-01-large.md'), big);
  await ready(page, studio.url);

  await page.locator('[data-testid="file-item"][data-path="extensions/ad_hoc/notes/2026-11-20T10-00-00-binary.md"]').click();
  const panel = page.getByTestId('error-panel');
  await expect(panel).toHaveAttribute('data-error-kind', 'Unsupported');
  await expect(panel.getByRole('button', { name: /Retry/ })).toHaveCount(0);

  await page.locator('[data-testid="file-item"][data-path="extensions/ad_hoc/notes/2026-11-20T10-00-01-large.md"]').click();
  const note = page.getByTestId('plain-text-note');
  await expect(note).toContainText('plain text');
  const firstLine = page.locator('[data-testid="editor"] .view-line').first();
  await expect(firstLine).toContainText('FIRST LINE');
  expect((await box(firstLine)).top, 'the note sits above the editor, not over its first line').toBeGreaterThanOrEqual(
    (await box(note)).bottom,
  );
});

test('Projects counts carry their unit and an empty Misfiled card is not a warning', async ({ guardedPage: page, studio }) => {
  await ready(page, studio.url);
  await page.locator('[data-testid="view-tab"][data-view="projects"]').click();
  await expect(page.getByTestId('project-card').first()).toContainText(/\d+ entr(y|ies)/);
  const misfiled = page.getByTestId('misfiled-section');
  await expect(misfiled).toContainText('0 entries');
  await expect(misfiled).not.toHaveClass(/card-warn/);
  await expect(page.getByTestId('unscoped-section')).toContainText(/\d+ entr(y|ies)/);
});

test.describe('a home with memories on and no database yet', () => {
  test.use({ homeKind: 'empty' });

  test('Health says the active root has no database yet, as a warning, not a green badge', async ({ guardedPage: page, studio }) => {
    await ready(page, studio.url);
    await page.locator('[data-testid="view-tab"][data-view="health"]').click();
    const card = page.locator('[data-testid="version-health"][data-version="v2"]');
    const badge = card.locator('h2 .badge-small');
    await expect(badge).toHaveText('active (Codex default), no database yet');
    await expect(badge).toHaveClass(/badge-warn/);
    await expect(card).toContainText('file missing');
  });
});
