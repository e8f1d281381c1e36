// End to end for Review: edit -> propose -> per-hunk decisions -> apply equals the preview -> history -> revert; conflicts and rebase.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, keepScreenshot, ready, test } from './fixtures';

const summaryItem = '[data-testid="file-item"][data-version="v1"][data-path="memory_summary.md"]';

/** Opens the v1 summary, enters edit mode and types on line 3 and (optionally) at the very end, as a person would. */
async function editSummary(page: Page, { atEnd }: { atEnd: boolean }): Promise<void> {
  await page.locator(summaryItem).click();
  await expect(page.locator('[data-testid="editor"][data-path="memory_summary.md"]')).toBeVisible();
  await page.getByTestId('edit-button').click();
  const editor = page.locator('[data-testid="editor"][data-editable="true"]');
  await expect(editor).toBeVisible();
  await editor.locator('.view-lines').click();
  await page.keyboard.press('Control+Home');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('End');
  await page.keyboard.type(' EDITED-A');
  if (atEnd) {
    await page.keyboard.press('Control+End');
    await page.keyboard.type('EDITED-B closing line');
  }
  await page.getByTestId('propose-button').click();
  await expect(page.locator('[data-testid="view-tab"][data-view="review"]')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('proposal-detail')).toBeVisible();
}

/** The preview once every decision is saved and the result refetched. */
async function settledPreview(page: Page): Promise<string> {
  await expect(page.getByTestId('result-status')).toHaveAttribute('data-stale', 'false');
  await page.getByTestId('view-result').click();
  const text = (await page.getByTestId('result-preview').textContent()) ?? '';
  await page.getByTestId('view-changes').click();
  return text;
}

test('edit, reject one hunk and accept the other, apply equals the preview, then revert restores the file', async ({
  guardedPage: page,
  studio,
}, testInfo) => {
  const target = join(studio.codexHome, 'memories', 'memory_summary.md');
  const original = await readFile(target, 'utf8');
  await ready(page, studio.url);
  await editSummary(page, { atEnd: true });
  await expect(page.getByTestId('review-badge')).toHaveText('1');

  const hunks = page.getByTestId('hunk-item');
  await expect(hunks).toHaveCount(2);
  await hunks.nth(0).getByTestId('reject-hunk').click();
  await hunks.nth(1).getByTestId('accept-hunk').click();
  await expect(hunks.nth(0)).toHaveAttribute('data-decision', 'reject');
  await expect(hunks.nth(1)).toHaveAttribute('data-decision', 'accept');
  const preview = await settledPreview(page);
  expect(preview).toContain('EDITED-B');
  expect(preview).not.toContain('EDITED-A');
  await expect(page.getByTestId('apply-button')).toHaveText(/Write 1 file in .*memories: memory_summary\.md \(\+\d+ −\d+\)/);
  await keepScreenshot(page, testInfo, 'review-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await keepScreenshot(page, testInfo, 'review-dark');
  await page.emulateMedia({ colorScheme: 'light' });

  await page.getByTestId('apply-button').click();
  const applied = page.getByTestId('apply-result');
  await expect(applied).toBeVisible();
  expect(await readFile(target, 'utf8')).toBe(preview);
  const entryId = await applied.getAttribute('data-entry-id');
  await expect(page.getByTestId('review-badge')).toHaveCount(0);

  await page.locator('[data-testid="view-tab"][data-view="history"]').click();
  const entry = page.locator(`[data-testid="history-entry"][data-id="${entryId}"]`);
  await expect(entry).toBeVisible();
  await entry.click();
  // The entry opens as what it changed: before -> after, with its hunk list (only the accepted hunk was written).
  const entryDiff = page.getByTestId('history-diff');
  await expect(entryDiff).toHaveAttribute('data-mode', 'entry');
  await expect(entryDiff.getByTestId('read-only-diff')).toHaveAttribute('data-hunks', '1');
  await expect(entryDiff.locator('[data-testid="hunk-item"] .diff-add')).toContainText(['EDITED-B closing line']);
  await entryDiff.getByTestId('view-file').click();
  await expect(entryDiff.getByTestId('diff-editor')).toBeVisible();
  await keepScreenshot(page, testInfo, 'history');
  await page.getByTestId('revert-button').click();
  await expect(page.getByTestId('proposal-detail')).toHaveAttribute('data-status', 'pending');
  await expect(page.getByTestId('proposal-title')).toContainText('Revert');
  await page.getByTestId('accept-file').click();
  await settledPreview(page);
  await page.getByTestId('apply-button').click();
  await expect(page.getByTestId('apply-result')).toBeVisible();
  expect(await readFile(target, 'utf8')).toBe(original);

  // The revert opens as a diff too; and any two versions compare: the applied entry against the revert after it.
  await page.locator('[data-testid="view-tab"][data-view="history"]').click();
  const revertEntry = page.locator('[data-testid="history-entry"][data-kind="revert"]');
  await revertEntry.click();
  await expect(page.getByTestId('history-diff').locator('[data-testid="hunk-item"] .diff-del')).toContainText(['EDITED-B closing line']);
  await entry.click();
  await page.locator('[data-testid="history-file"][data-path="memory_summary.md"]').click();
  const historyDiff = page.getByTestId('history-diff');
  const compare = page.getByTestId('compare-with');
  const other = (await compare.locator('option').last().getAttribute('value')) ?? '';
  expect(other).not.toBe('');
  await compare.selectOption(other);
  await expect(historyDiff).toHaveAttribute('data-mode', 'versions');
  await expect(historyDiff.locator('.diff-del')).toContainText(['EDITED-B closing line']);
});

test('a change on disk warns before Apply; one-click rebase merges it; the conflict is resolved by keyboard in the three-way view', async ({
  guardedPage: page,
  studio,
}, testInfo) => {
  const target = join(studio.codexHome, 'memories', 'memory_summary.md');
  const original = await readFile(target, 'utf8');
  await ready(page, studio.url);
  await editSummary(page, { atEnd: true });
  const detail = page.getByTestId('proposal-detail');
  const proposed = await detail.getAttribute('data-id');
  await detail.focus();
  await page.keyboard.press('Shift+A');
  const hunks = page.getByTestId('hunk-item');
  await expect(hunks).toHaveCount(2);
  await expect(hunks.nth(1)).toHaveAttribute('data-decision', 'accept');
  await settledPreview(page);

  // Codex rewrites line 3 (the proposal's first edit) and a line in the middle, while the app watches.
  const lines = original.split('\n');
  const middle = Math.floor(lines.length / 2);
  lines[2] = `${lines[2]} CODEX-ON-LINE-3`;
  lines[middle] = `${lines[middle]} CODEX-IN-THE-MIDDLE`;
  await writeFile(target, lines.join('\n'));
  const warning = page.getByTestId('stale-warning');
  await expect(warning).toBeVisible();
  await expect(warning).toContainText('memory_summary.md changed on disk since you proposed it');
  await expect(page.getByTestId('apply-button')).toBeDisabled();
  await expect(page.getByTestId('apply-button')).toHaveText(/Rebase first/);
  await keepScreenshot(page, testInfo, 'stale-warning');

  await page.getByTestId('rebase-button').click();
  await expect(warning).toHaveCount(0);
  await expect(page.getByTestId('rebase-result')).toContainText('1 conflict to resolve');
  await expect(detail).toHaveAttribute('data-id', proposed ?? '');
  const conflict = page.locator('[data-testid="hunk-item"][data-kind="conflict"]');
  await expect(conflict).toHaveCount(1);
  await expect(conflict).toHaveAttribute('data-decision', 'undecided');
  await expect(conflict.getByTestId('conflict-sides')).toContainText('CODEX-ON-LINE-3');
  await expect(conflict.getByTestId('conflict-sides')).toContainText('EDITED-A');
  // The decision on the hunk the rebase did not touch survived it.
  await expect(page.locator('[data-testid="hunk-item"][data-kind="text"]')).toHaveAttribute('data-decision', 'accept');
  await expect(page.getByTestId('apply-button')).toHaveText(/Resolve 1 conflict first/);

  // Keyboard: n goes to the conflict; a and A never resolve it; e writes it by hand.
  await detail.focus();
  await page.keyboard.press('n');
  const view = page.getByTestId('conflict-view');
  await expect(view).toBeVisible();
  await expect(view).toContainText('Conflict 1 of 1 in memory_summary.md');
  await expect(view.getByTestId('three-way-theirs').locator('.conflict-range').first()).toBeAttached();
  await expect(view.getByTestId('three-way-ours').locator('.conflict-range').first()).toBeAttached();
  await page.keyboard.press('a');
  await page.keyboard.press('Shift+A');
  await expect(conflict).toHaveAttribute('data-decision', 'undecided');
  await keepScreenshot(page, testInfo, 'three-way');
  await page.keyboard.press('e');
  const text = view.getByTestId('conflict-edit-text');
  await expect(text).toBeFocused();
  await text.fill(`${original.split('\n')[2]} RESOLVED-BY-HAND\n`);
  await page.keyboard.press('Control+Enter');
  await expect(conflict).toHaveAttribute('data-decision', 'edit');
  const preview = await settledPreview(page);
  expect(preview).toContain('RESOLVED-BY-HAND');
  expect(preview).toContain('CODEX-IN-THE-MIDDLE');
  expect(preview).toContain('EDITED-B closing line');
  expect(preview).not.toContain('CODEX-ON-LINE-3');
  await expect(page.getByTestId('apply-button')).toBeEnabled();
  await page.getByTestId('apply-button').click();
  await expect(page.getByTestId('apply-result')).toBeVisible();
  expect(await readFile(target, 'utf8')).toBe(preview);

  // Codex's own edit, seen by the watcher, is a history entry of its own that opens as the diff of what it changed.
  await page.locator('[data-testid="view-tab"][data-view="history"]').click();
  await page.locator('[data-testid="history-entry"][data-kind="external"]').first().click();
  const external = page.getByTestId('history-diff');
  await expect(external).toHaveAttribute('data-mode', 'entry');
  await expect(external.locator('[data-testid="hunk-item"] .diff-add')).toContainText(['CODEX-ON-LINE-3', 'CODEX-IN-THE-MIDDLE']);
});

test('a big file goes into the editor whole before it can be edited, and the proposal changes only what was typed', async ({
  guardedPage: page,
  studio,
}) => {
  // Over the editor's slice threshold (512 KiB): its text goes in over several tasks, read-only until all of it is in.
  const target = join(studio.codexHome, 'memories', 'MEMORY.md');
  const lines = Array.from({ length: 40_000 }, (_, index) => `- line ${index}: the build uses pnpm and the tests run with vitest`);
  const big = `# Big memory\n\n${lines.join('\n')}\n`;
  await writeFile(target, big);
  await ready(page, studio.url);
  // A slow page (as on a busy machine): the fill is most likely still going when Edit and Propose are pressed (the rule
  // itself, read-only and no partial draft, is pinned by test/renderer/fill-editor.test.ts).
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 8 });
  await page.locator('[data-testid="file-item"][data-version="v1"][data-path="MEMORY.md"]').click();
  // One locator: the editor still filling, and saying so.
  await expect(page.locator('[data-testid="editor"][data-filling="true"] [data-testid="editor-filling"]')).toContainText(
    'Loading the rest of MEMORY.md',
  );
  await page.getByTestId('edit-button').click();
  await page.getByTestId('propose-button').click();
  // The draft is the whole file, filled or not: Propose has nothing to propose, never "delete all but the first part".
  await expect(page.getByText('There is nothing to propose')).toBeVisible();
  await expect(page.getByTestId('review-badge')).toHaveCount(0);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  const editor = page.locator('[data-testid="editor"][data-path="MEMORY.md"]');
  await expect(editor).toHaveAttribute('data-filling', 'false');
  await expect(page.getByTestId('editor-filling')).toBeEmpty();
  await expect(editor).toHaveAttribute('data-editable', 'true');
  await editor.locator('.view-lines').click();
  await page.keyboard.press('Control+Home');
  await page.keyboard.press('End');
  await page.keyboard.type(' (typed)');
  await page.getByTestId('propose-button').click();
  await expect(page.getByTestId('proposal-detail')).toBeVisible();
  const hunks = page.getByTestId('hunk-item');
  await expect(hunks).toHaveCount(1);
  // One line out, the same line back with what was typed: nothing of the rest of the file changes.
  await expect(hunks.locator('.diff-add')).toHaveCount(1);
  await expect(hunks.locator('.diff-add')).toContainText('# Big memory (typed)');
  await expect(hunks.locator('.diff-del')).toHaveCount(1);
  await expect(hunks.locator('.diff-del')).toContainText('# Big memory');
  expect(await readFile(target, 'utf8')).toBe(big);
});
